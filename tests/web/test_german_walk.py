"""A whole game of each game in German: no English word reaches the German page.

Every text the server words for a German page over a whole game (each side's events and
what they brought about, the labels of every legal move, the end, the help, the refusal of a
move the rules forbid) is read word by word. A word is English when it appears in the
catalog's English msgids and in none of its German texts; names and notation are taken out
first (seat names, backticked notation, card codes, single letters). The pages' own words
come from the same catalog and are walked in the browser by ``test_axe`` and the browser
tests; this walk covers the words the games say.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Generator, Iterator

import pytest

import spieltisch
from spieltisch import rules_page
from spieltisch.agents import RandomAgent
from spieltisch.core.errors import IllegalActionError
from spieltisch.core.words import Words
from spieltisch.games import REGISTRY, kit_of
from spieltisch.locale import DIRECTORY
from spieltisch.session import Table
from spieltisch.web.common.refusal import RefusedError
from spieltisch.web.common.words import spoken
from spieltisch.web.tables.payload import events_for

NAMES = ("Lena", "Jonas", "Mia", "Noah", "Emil", "Lina")
WORD = re.compile(r"[A-Za-zÄÖÜäöüß]{3,}")
NOTATION = re.compile(r"`[^`]*`|'[^']*'|\b[A-Z]{1,2}\d*\b|\b[a-z]\d\b")
NOT_WORDS = {"Bot", "random"}
"""Words a German page may show in English: a bot's level is its name (``Bot 2 (random)``)."""


def _texts(path: str) -> Iterator[tuple[str, str]]:
    """Each (msgid, msgstr) of the German catalog, plural forms included."""
    from babel.messages.pofile import read_po

    with (DIRECTORY / path).open("rb") as handle:
        for message in read_po(handle):
            ids = message.id if isinstance(message.id, tuple) else (message.id,)
            texts = message.string if isinstance(message.string, tuple) else (message.string,)
            for msgid in ids:
                for text in texts:
                    yield str(msgid), str(text or "")


@functools.cache
def english_only() -> frozenset[str]:
    """Words of the English msgids that no German text uses (the catalog's German and the
    German rules pages: ``Phase`` and ``also`` are German words too)."""
    english: set[str] = set()
    german: set[str] = set()
    for msgid, text in _texts("de/LC_MESSAGES/spieltisch.po"):
        english.update(w.lower() for w in WORD.findall(NOTATION.sub(" ", msgid)))
        german.update(w.lower() for w in WORD.findall(text))
    for game_id in REGISTRY.implemented():
        german.update(w.lower() for w in WORD.findall(NOTATION.sub(" ", rules_page(game_id, "de"))))
    return frozenset(english - german - {w.lower() for w in NOT_WORDS})


def english_words(text: str, names: tuple[str, ...]) -> list[str]:
    """The English words of ``text`` (names and notation left out)."""
    for name in names:
        text = text.replace(name, " ")
    return [w for w in WORD.findall(NOTATION.sub(" ", text)) if w.lower() in english_only()]


def said_in_german(game_id: str, players: int, seed: int) -> Iterator[tuple[str, str]]:
    """Every text a German page is sent over one whole game: (where, text)."""
    game = spieltisch.load(game_id, players)
    names = NAMES[:players]
    words: Words[object] = spoken(kit_of(game).words, "de")
    table = Table(game, names, seed=seed)
    chooser = RandomAgent(game, seed + 1)
    refused = False
    while not table.over:
        if table.to_act() is None:
            table.advance_chance()
            continue
        seat = table.to_act()
        view = table.state.view(seat)
        for move in table.legal():
            yield "label", words.move_label(view, move)
        if not refused:
            refused = yield from _one_refusal(table, seat)
        table.play(chooser.act(None, table.legal()))
    for viewer in (None, *range(players)):
        for item in events_for(table, words, viewer, 0):
            assert isinstance(item, dict)
            yield "event", str(item["sentence"])
            if item["outcome"]:
                yield "outcome", str(item["outcome"])
        ending = words.ending(table.state.view(viewer), names)
        if ending:
            yield "ending", ending
    yield "help", words.help()


def _one_refusal(table: Table, seat: int | None) -> Generator[tuple[str, str], None, bool]:
    """The refusal of the first move id the rules forbid here, as a German page reads it
    (``True`` once one was found)."""
    game = table.game
    legal = {game.action_id(move) for move in table.legal()}
    for action_id in range(min(game.num_distinct_actions, 400)):
        if action_id in legal:
            continue
        try:
            table.state.apply(game.action_from_id(action_id))
        except IllegalActionError as error:
            yield "refusal", RefusedError(str(error), 422, 0, error).said("de")
            return True
    del seat
    return False


@pytest.mark.parametrize("game_id", REGISTRY.implemented())
def test_a_whole_game_in_german_says_no_english_word(game_id: str) -> None:
    info = REGISTRY.game_class(game_id).info
    found: list[str] = []
    seen: set[str] = set()
    kinds: set[str] = set()
    for players in sorted({info.min_players, info.max_players}):
        names = NAMES[:players]
        for where, text in said_in_german(game_id, players, seed=players):
            kinds.add(where)
            if text in seen:
                continue
            seen.add(text)
            english = english_words(text, names)
            if english:
                found.append(f"{where}: {text!r} has {english}")
    assert kinds == {"label", "event", "outcome", "ending", "help", "refusal"}, kinds
    assert not found, "\n".join(found[:40])


def test_the_walk_would_find_an_english_sentence() -> None:
    assert english_words("Lena stops and scores.", ("Lena",))  # the English of a sentence
    assert english_words("Lena hört auf und wertet.", ("Lena",)) == []
    assert english_words("Tippe `reroll FFP` oder `stop`.", ()) == []  # notation is allowed
