"""One way to translate: gettext catalogs for every word, the browser's included.

The catalogs are current (every msgid the sources use is in the template), complete (German
translates each one) and compiled; the server hands the browser its language's words from
them, plural forms included.
"""

from __future__ import annotations

import gettext
import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest
from fastapi.testclient import TestClient

from spieltisch.locale import LANGUAGES, LanguageError, client_catalog, translation
from spieltisch.web.common.settings import Settings
from spieltisch.web.routes.app import create_app

ROOT = Path(__file__).resolve().parents[2]
HAND_COUNTED = re.compile(r"\w\((s|e|er|es|n)\)|Huhn/Hühner")


def catalogs_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("catalogs", ROOT / "scripts" / "catalogs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["catalogs"] = module
    spec.loader.exec_module(module)
    return module


def test_the_catalogs_are_current_complete_and_compiled() -> None:
    assert catalogs_script().problems() == []


def test_the_check_names_a_word_the_catalog_lacks(tmp_path: Path) -> None:
    catalogs = catalogs_script()
    source = tmp_path / "spieltisch"
    (source / "web" / "static").mkdir(parents=True)
    (source / "web" / "static" / "new.js").write_text('t("A word nobody translated");\n')
    counted = 'ngettext("{n} unheard-of thing", "{n} unheard-of things", 2)'
    (source / "words.py").write_text(f'N_("Another")\n{counted}\n')
    catalogs.__dict__["SOURCES"] = source  # the sources it extracts from
    found = catalogs.problems()
    assert "spieltisch.pot is not what the sources say: run scripts/catalogs.py update" in found
    assert "de: not in the catalog: 'A word nobody translated'" in found
    assert "de: not in the catalog: 'Another'" in found
    assert "de: not in the catalog: \"('{n} unheard-of thing', '{n} unheard-of things')\"" in found


def test_german_plurals_come_from_the_catalog() -> None:
    german = translation("de")
    assert german.ngettext("{n} free seat", "{n} free seats", 1) == "{n} freier Platz"
    assert german.ngettext("{n} free seat", "{n} free seats", 2) == "{n} freie Plätze"
    assert translation("en").gettext("Analysis") == "Analysis"
    with pytest.raises(LanguageError, match="spieltisch speaks en, de"):
        translation("fr")


def test_the_browser_reads_its_words_from_the_same_catalog(tmp_path: Path) -> None:
    app = create_app(Settings(database=f"sqlite:///{tmp_path / 'db.sqlite'}"))
    with TestClient(app) as client:
        german = client.get("/api/texts/de")
        assert german.status_code == 200
        assert german.headers["cache-control"] == "public, max-age=3600"
        words = german.json()
        assert words["Analysis"] == "Analyse"
        assert words["{n} free seat"] == ["{n} freier Platz", "{n} freie Plätze"]
        assert words == client_catalog("de")
        assert client.get("/api/texts/en").json() == {}
        assert client.get("/api/texts/fr").status_code == 404
    assert set(LANGUAGES) == {"en", "de"}


def test_no_word_counts_by_hand() -> None:
    """A text that depends on a count is a plural entry, never "egg(s)" or "Ei(er)"."""
    german = translation("de")
    assert isinstance(german, gettext.GNUTranslations)
    for key, text in getattr(german, "_catalog", {}).items():
        msgid = key[0] if isinstance(key, tuple) else key
        for said in (msgid, text):
            assert HAND_COUNTED.search(said) is None, f"counted by hand: {said!r}"


def test_every_option_value_is_named_in_words_and_in_german(tmp_path: Path) -> None:
    """The new-table form shows a choice's label, never its code (``chance``, ``bound``): every
    value of every game's options has one, and German translates each."""
    app = create_app(Settings(database=f"sqlite:///{tmp_path / 'db.sqlite'}"))
    with TestClient(app) as client:
        games = client.get("/api/games").json()
        german = client.get("/api/texts/de").json()
    named = 0
    for game in games:
        for option in (o for o in game["options"] if o["choices"]):
            where = f"{game['id']} {option['name']}"
            assert set(option["labels"]) == {str(c) for c in option["choices"]}, where
            for code, label in option["labels"].items():
                assert label != code, f"{where}={code} has no label"
                assert german.get(label, label) not in (label, code), f"{where}={code}: {label!r}"
                named += 1
    assert named >= 21  # Awimbawé's 5, Auweier's 10, Auf die Nüsse!'s 6
