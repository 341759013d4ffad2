"""The translation catalogs: extract every msgid, update each language, compile, or check.

    python scripts/catalogs.py update   # after changing words: extract, merge, compile
    python scripts/catalogs.py check    # CI: the catalogs are current, complete and compiled
    python scripts/catalogs.py fill de words.json   # translations from a JSON object, then update

``update`` leaves new msgids untranslated in each ``.po`` (``check`` then names them);
translate them and run ``update`` again. Needs Babel (the dev extra).
"""

from __future__ import annotations

import io
import json
import sys
import tempfile
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "spieltisch" / "locale"
TEMPLATE = LOCALE / "spieltisch.pot"
SOURCES = ROOT / "spieltisch"
METHODS: dict[str, tuple[str, Any]] = {
    "python": (
        "**.py",
        {
            **DEFAULT_KEYWORDS,
            "option": (2,),
            "RefusedError": (1,),
            "HTTPException": (2,),
            "error_message": (1,),
        },
    ),
    "javascript": ("web/static/**.js", {"t": None, "tn": (1, 2), "N_": None, "Nn_": (1, 2)}),
    "lesson": ("games/**/lesson.toml", {}),
}
"""Where each extractor reads (under ``spieltisch/``) and the calls it takes msgids from:
gettext's own in Python (``_``, ``ngettext``, ``N_`` ...), a game option's help (the
second argument of ``option``) and the server's refusals (a literal reason of
``RefusedError``, ``HTTPException`` or ``error_message``), the client's ``t``, ``tn``,
``N_`` and ``Nn_`` (a marked plural) in its scripts, and each game's lesson (its steps' words,
their answers to other moves and the finale's words: see
:func:`lesson_messages`)."""
TRANSLATED = ("de",)


def lesson_messages(
    fileobj: IO[bytes], keywords: object, comment_tags: object, options: object
) -> Iterator[tuple[int, None, str, list[str]]]:
    """Babel's extractor for a game's ``lesson.toml``: every text a learner reads, as the
    lesson reads it (stripped), each once (the seats' names are names, the same in every
    language)."""
    data = tomllib.loads(fileobj.read().decode("utf-8"))
    texts = [data.get("finale", {}).get("say", "")]
    for step in data.get("steps", []):
        texts += [step.get("say", ""), *step.get("why_not", {}).values()]
    seen = set()
    for text in texts:
        if isinstance(text, str) and text.strip() and text.strip() not in seen:
            seen.add(text.strip())
            yield 0, None, text.strip(), ["a lesson's words: keep the `moves` as they are"]


EXTRACTORS: dict[str, Any] = {"lesson": lesson_messages}
"""Methods that are functions here rather than Babel's own."""


def extract(target: Path) -> None:
    """Every msgid of the sources, into ``target`` (sorted, without locations)."""
    catalog = Catalog(project="spieltisch")
    for method, (pattern, keywords) in METHODS.items():
        found = extract_from_dir(
            SOURCES,
            [(pattern, EXTRACTORS.get(method, method))],
            options_map={pattern: {"parse_template_string": True}},  # t() inside `${...}` too
            keywords=keywords,
            comment_tags=("TRANSLATORS:",),
        )
        for _, _, message, comments, context in found:
            catalog.add(message, None, auto_comments=comments, context=context)
    with target.open("wb") as handle:
        write_po(handle, catalog, omit_header=True, sort_output=True, no_location=True, width=0)


def po_of(language: str) -> Path:
    return LOCALE / language / "LC_MESSAGES" / "spieltisch.po"


def read(path: Path) -> Catalog:
    with path.open("rb") as handle:
        return read_po(handle)


def compiled(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


def translated(text: str | tuple[str, ...]) -> bool:
    """Whether a message's text (or each of its plural forms) is there."""
    return bool(text) and all(text if isinstance(text, tuple) else (text,))


def update() -> None:
    """Extract, merge into each language (new msgids untranslated, gone ones dropped),
    compile."""
    extract(TEMPLATE)
    template = read(TEMPLATE)
    for language in TRANSLATED:
        catalog = read(po_of(language))
        catalog.update(template, no_fuzzy_matching=True)
        catalog.project, catalog.fuzzy = "spieltisch", False
        catalog.locale = catalog.locale or Locale.parse(language)  # and with it, plural forms
        catalog.header_comment = f"# spieltisch's words in {catalog.locale.english_name}."
        with po_of(language).open("wb") as handle:
            write_po(handle, catalog, width=0, sort_output=True, ignore_obsolete=True)
        po_of(language).with_suffix(".mo").write_bytes(compiled(read(po_of(language))))


def fill(language: str, source: Path) -> None:
    """Take translations from ``source``, a JSON object of msgid to text (a msgid with a
    plural: its singular to a list of forms), into ``language``'s catalog; then update."""
    update()
    given: dict[str, str | list[str]] = json.loads(source.read_text(encoding="utf-8"))
    catalog = read(po_of(language))
    unknown = []
    for msgid, text in given.items():
        message = catalog.get(msgid)
        if message is None:
            unknown.append(msgid)
            continue
        message.string = tuple(text) if isinstance(text, list) else text
        message.flags.discard("fuzzy")
    with po_of(language).open("wb") as handle:
        write_po(handle, catalog, width=0, sort_output=True, ignore_obsolete=True)
    po_of(language).with_suffix(".mo").write_bytes(compiled(read(po_of(language))))
    for msgid in unknown:
        print(f"{language}: no such msgid in the sources: {msgid!r}")


def problems() -> list[str]:
    """What is not current, complete or compiled (empty when all is well)."""
    found = []
    with tempfile.TemporaryDirectory() as folder:
        fresh = Path(folder) / "fresh.pot"
        extract(fresh)
        wanted = {m.id for m in read(fresh) if m.id}
    if wanted != {m.id for m in read(TEMPLATE) if m.id}:
        found.append("spieltisch.pot is not what the sources say: run scripts/catalogs.py update")
    for language in TRANSLATED:
        catalog = read(po_of(language))
        have = {m.id for m in catalog if m.id}
        for missing in sorted(map(str, wanted - have)):
            found.append(f"{language}: not in the catalog: {missing!r}")
        for message in catalog:
            if message.id in wanted and (message.fuzzy or not translated(message.string)):
                found.append(f"{language}: not translated: {message.id!r}")
        if compiled(catalog) != po_of(language).with_suffix(".mo").read_bytes():
            found.append(f"{language}: the .mo is not the .po compiled: run catalogs.py update")
    return found


def main() -> None:
    command = sys.argv[1] if len(sys.argv) > 1 else "check"
    if command == "update":
        update()
    elif command == "fill" and len(sys.argv) == 4:
        fill(sys.argv[2], Path(sys.argv[3]))
    found = problems()
    for line in found:
        print(line)
    print(f"catalogs: {len(found)} problem(s)")
    sys.exit(1 if found and command == "check" else 0)


if __name__ == "__main__":
    main()
