"""Auf die Nüsse!'s words in English and in German.

Whole games played by seeded random agents are read in both languages: every German sentence
(each move's, and each thing the engine did by itself) differs from the English one, has no
``(s)``-style plural and keeps every name and every bit of notation. Each plural that used to
be a ``squirrel(s)`` or a ``1 cards`` has its two forms in both languages, and the English
of the sentences the translation touched is what it was. The German checks read the merged
catalog (``spieltisch.locale.translation("de")``).
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import replace

import pytest

import spieltisch
from spieltisch.core.game import Move, State
from spieltisch.core.words import Speech
from spieltisch.games.auf_die_nuesse import (
    KEEP,
    PASS,
    STOP,
    AufDieNuesse,
    Card,
    Dice,
    Draw,
    Ending,
    Event,
    EventKind,
    Lay,
    NuesseView,
    Nut,
    Put,
    Setup,
    Slot,
    Space,
    Stage,
    Steal,
    Store,
    Take,
)
from spieltisch.games.auf_die_nuesse.words import (
    WORDS,
    NuesseWords,
    event_text,
    pile_sentence,
    turn_sentence,
)
from spieltisch.locale import translation
from spieltisch.session import Table
from spieltisch.web.tables.payload import events_for
from tests.random_games import random_game

NAMES = ("Ann", "Bob", "Cem", "Dana")
SETTINGS: tuple[tuple[int, int, tuple[tuple[str, str | bool], ...]], ...] = (
    (2, 11, ()),
    (3, 12, (("optional_setup", True),)),
    (4, 13, (("empty_supply", "fails"), ("raccoon_optional", False))),
    (3, 14, (("double_collect_upper", False), ("collect_order", "next_first"))),
)
"""Players, seed and options of the games read."""
PLURAL_HACK = re.compile(r"\w\((?:s|e|n|en|er|es)\)")
NOTATION = re.compile(r"`[^`]*`|\b[SP]\d\b|\b[WHBA]/[WHBA]\b|\d+")
"""Typed notation, store and player codes, joker letters and every number."""


def german() -> Speech:
    return translation("de")


def german_words() -> NuesseWords:
    return WORDS.speaking(german())


@functools.cache
def played(players: int, seed: int, options: tuple[tuple[str, str | bool], ...]) -> Table:
    game = spieltisch.load("auf-die-nuesse", players, **dict(options))
    return random_game(game, seed, NAMES[:players])


def assert_german(english: str, german_text: str) -> None:
    """``german_text`` says ``english`` in German: other words, the same names and notation."""
    assert german_text != english
    assert not PLURAL_HACK.search(german_text), german_text
    assert not PLURAL_HACK.search(english), english
    for name in NAMES:
        assert german_text.count(name) == english.count(name), (english, german_text)
    assert Counter(NOTATION.findall(german_text)) == Counter(NOTATION.findall(english)), (
        english,
        german_text,
    )


def seen(state: State) -> NuesseView:
    """What a spectator sees of ``state``."""
    view = state.view(None)
    assert isinstance(view, NuesseView)
    return view


def move_kind(move: Move, view: NuesseView) -> str:
    kind = type(move).__name__
    if isinstance(move, Draw):
        return "Draw (deal)" if view.stage is Stage.DEAL else "Draw (face up)"
    return kind


def read_in_both(table: Table) -> tuple[set[str], set[EventKind]]:
    """Every sentence of ``table``'s game checked in German; the kinds of move and event seen."""
    names = table.seats
    english = events_for(table, WORDS, None, 0)
    speech = german()
    deutsch = events_for(table, german_words(), None, 0)
    moves: set[str] = set()
    events: set[EventKind] = set()
    walked = table.walk(0)
    for en, de, (_, before, move, after) in zip(english, deutsch, walked, strict=True):
        assert isinstance(en, dict) and isinstance(de, dict)
        assert isinstance(en["sentence"], str) and isinstance(de["sentence"], str)
        assert_german(en["sentence"], de["sentence"])
        moves.add(move_kind(move, seen(before)))
        for event in seen(after).events:
            assert_german(event_text(event, names), event_text(event, names, speech=speech))
            events.add(event.kind)
        if en["outcome"] is None:
            assert de["outcome"] is None
        else:
            assert isinstance(en["outcome"], str) and isinstance(de["outcome"], str)
            assert_german(en["outcome"], de["outcome"])
    return moves, events


# --- (a) whole games read in German ------------------------------------------------------


@pytest.mark.parametrize(("players", "seed", "options"), SETTINGS)
def test_every_sentence_of_a_game_reads_in_german(
    players: int, seed: int, options: tuple[tuple[str, str | bool], ...]
) -> None:
    read_in_both(played(players, seed, options))


def test_the_games_read_show_every_kind_of_move_and_event() -> None:
    moves: set[str] = set()
    events: set[EventKind] = set()
    for setting in SETTINGS:
        seen_moves, seen_events = read_in_both(played(*setting))
        moves |= seen_moves
        events |= seen_events
    assert moves == {
        "Dice", "Draw (deal)", "Draw (face up)", "Setup", "Place", "RollAgain", "Stop",
        "Take", "Pass", "Steal", "Put", "Keep", "Lay",
    }  # fmt: skip
    rare = {EventKind.OUT_OF_SQUIRRELS, EventKind.NO_NUT, EventKind.KEPT}
    assert events | rare == set(EventKind)  # the rare ones: test_every_event_reads_in_german


@pytest.mark.parametrize("kind", list(EventKind))
def test_every_event_reads_in_german(kind: EventKind) -> None:
    for card in (Card.ACORN, Card.WALNUT_HAZELNUT):
        event = Event(kind, 1, Space.RIGHT_3, 2, card, 4, Slot.FIVE_SIX)
        assert_german(event_text(event, NAMES), event_text(event, NAMES, speech=german()))


def test_every_move_label_and_the_help_read_in_german() -> None:
    table = played(*SETTINGS[2])
    speech, deutsch = german(), german_words()
    for version in range(0, table.version, 7):
        state = table.state_at(version)
        if state.is_chance():
            continue
        view = seen(state)
        for move in state.legal_actions():
            assert_german(WORDS.move_label(view, move), deutsch.move_label(view, move))
        assert_german(turn_sentence(view, NAMES), turn_sentence(view, NAMES, speech=speech))
        assert_german(pile_sentence(view), pile_sentence(view, speech=speech))
        legal = state.legal_actions()
        assert_german(WORDS.many_moves(view, legal), deutsch.many_moves(view, legal))
    assert_german(WORDS.help(), deutsch.help())


def test_the_last_move_says_why_the_game_ended_and_who_won_in_both_languages() -> None:
    for setting in SETTINGS:
        table = played(*setting)
        view = seen(table.state)
        winners = [table.seats[p] for p in sorted(view.winners)]
        last = events_for(table, WORDS, None, table.version - 1)[-1]
        zuletzt = events_for(table, german_words(), None, table.version - 1)[-1]
        assert isinstance(last, dict) and isinstance(zuletzt, dict)
        outcome, ergebnis = last["outcome"], zuletzt["outcome"]
        assert isinstance(outcome, str) and isinstance(ergebnis, str)
        sentence = outcome.split(". ")[-1]
        assert sentence.startswith("The draw pile ran out and the last nuts are stored: ")
        assert all(name in sentence for name in winners)
        assert f"{view.scores[sorted(view.winners)[0]]} points" in sentence
        assert "Nachziehstapel" in ergebnis.split(". ")[-1]
        assert all(name in ergebnis.split(". ")[-1] for name in winners)


# --- (b) the plurals, one and two ----------------------------------------------------------


def a_view() -> NuesseView:
    """A view at the start of a three-player game, to vary with ``replace``."""
    return AufDieNuesse(3).initial_state().view(None)


def stop_label(n: int, speech: Speech | None) -> str:
    words = WORDS if speech is None else WORDS.speaking(speech)
    return words.move_label(replace(a_view(), track=tuple(range(2, 2 + n))), STOP)


def event_of(kind: EventKind) -> Callable[[int, Speech | None], str]:
    def said(n: int, speech: Speech | None) -> str:
        event = Event(kind, 1, Space.TWO_FOUR, n)
        if speech is None:
            return event_text(event, NAMES)
        return event_text(event, NAMES, speech=speech)

    return said


def pile_of(ending: Ending) -> Callable[[int, Speech | None], str]:
    def said(n: int, speech: Speech | None) -> str:
        view = replace(a_view(), ending=ending, pile=n, set_aside=8)
        return pile_sentence(view) if speech is None else pile_sentence(view, speech=speech)

    return said


def winners(n: int, speech: Speech | None) -> str:
    view = replace(a_view(), stage=Stage.OVER, actor=None, winners=frozenset(range(n)))
    return (
        turn_sentence(view, NAMES) if speech is None else turn_sentence(view, NAMES, speech=speech)
    )


PLURALS: dict[str, tuple[Callable[[int, Speech | None], str], tuple[str, str, str, str]]] = {
    "stop label": (
        stop_label,
        (
            "stop: 1 squirrel moves up",
            "stop: 2 squirrels move up",
            "aufhören: 1 Eichhörnchen rückt auf",
            "aufhören: 2 Eichhörnchen rücken auf",
        ),
    ),
    "failed roll": (
        event_of(EventKind.FAILED),
        (
            "Bob's roll fits no free space: 1 squirrel goes home.",
            "Bob's roll fits no free space: 2 squirrels go home.",
            "Der Wurf von Bob passt auf kein freies Feld: 1 Eichhörnchen geht zurück in den "
            "Vorrat.",
            "Der Wurf von Bob passt auf kein freies Feld: 2 Eichhörnchen gehen zurück in den "
            "Vorrat.",
        ),
    ),
    "moved up": (
        event_of(EventKind.MOVED_UP),
        (
            "Bob moves 1 squirrel up into the 2-area.",
            "Bob moves 2 squirrels up into the 2-area.",
            "Bob lässt 1 Eichhörnchen in den 2er-Bereich aufrücken.",
            "Bob lässt 2 Eichhörnchen in den 2er-Bereich aufrücken.",
        ),
    ),
    "pushed up": (
        event_of(EventKind.PUSHED),
        (
            "1 of Bob's squirrels is pushed up from 2-4.",
            "2 of Bob's squirrels are pushed up from 2-4.",
            "1 Eichhörnchen von Bob wird von Feld 2-4 nach oben geschoben.",
            "2 Eichhörnchen von Bob werden von Feld 2-4 nach oben geschoben.",
        ),
    ),
    "draw pile": (
        pile_of(Ending.NOT_YET),
        (
            "Draw pile: 1 card · set aside: 8 (the game ends once the pile runs out)",
            "Draw pile: 2 cards · set aside: 8 (the game ends once the pile runs out)",
            "Nachziehstapel: 1 Karte · beiseitegelegt: 8 (das Spiel endet, sobald der Stapel "
            "aufgebraucht ist)",
            "Nachziehstapel: 2 Karten · beiseitegelegt: 8 (das Spiel endet, sobald der Stapel "
            "aufgebraucht ist)",
        ),
    ),
    "set-aside pile": (
        pile_of(Ending.TRIGGERED),
        (
            "The end has come: 1 set-aside card left to draw.",
            "The end has come: 2 set-aside cards left to draw.",
            "Das Ende ist da: Noch 1 beiseitegelegte Karte ist zu ziehen.",
            "Das Ende ist da: Noch 2 beiseitegelegte Karten sind zu ziehen.",
        ),
    ),
    "winners": (
        winners,
        (
            "The game is over. Winner: Ann.",
            "The game is over. Winners: Ann, Bob.",
            "Das Spiel ist aus. Gewinner: Ann.",
            "Das Spiel ist aus. Gewinner: Ann, Bob.",
        ),
    ),
}


@pytest.mark.parametrize("plural", list(PLURALS))
def test_a_count_takes_the_singular_for_one_and_the_plural_for_two(plural: str) -> None:
    say, (one, two, eins, zwei) = PLURALS[plural]
    assert (say(1, None), say(2, None)) == (one, two)
    assert (say(1, german()), say(2, german())) == (eins, zwei)


def game_over(scores: tuple[int, ...], won: frozenset[int], full: tuple[int, ...]) -> NuesseView:
    """The last move's view: the game is over with these scores and winners; seat ``p`` has
    the store ``full[p]`` full."""
    view = a_view()
    stores = tuple(
        tuple(
            Store(Nut.WALNUT, 0, 0, True) if s == f else Store(None, 0, 0, False) for s in range(8)
        )
        for f in full
    )
    return replace(
        view, stage=Stage.OVER, actor=None, scores=scores, winners=won, stores=stores, events=()
    )


@pytest.mark.parametrize(
    ("scores", "won", "full", "english", "deutsch"),
    [
        (
            (30, 1, 12),
            frozenset({0}),
            (7, 0, 0),
            "Ann wins with 30 points.",
            "Ann gewinnt mit 30 Punkten.",
        ),
        (
            (1, 0, 0),
            frozenset({0}),
            (0, 0, 0),
            "Ann wins with 1 point.",
            "Ann gewinnt mit 1 Punkt.",
        ),
        (
            (30, 30, 12),
            frozenset({1}),
            (3, 7, 0),
            "Bob wins with 30 points and the most valuable full store (30).",
            "Bob gewinnt mit 30 Punkten und dem wertvollsten vollen Lager (30).",
        ),
        (
            (30, 30, 30),
            frozenset({0, 2}),
            (7, 6, 7),
            "Ann and Cem share the win with 30 points each.",
            "Ann und Cem teilen sich den Sieg mit je 30 Punkten.",
        ),
    ],
)
def test_the_end_says_why_and_who_won_with_how_many_points(
    scores: tuple[int, ...], won: frozenset[int], full: tuple[int, ...], english: str, deutsch: str
) -> None:
    after = game_over(scores, won, full)
    assert WORDS.aftermath(a_view(), after, NAMES) == (
        f"The draw pile ran out and the last nuts are stored: {english}"
    )
    assert german_words().aftermath(a_view(), after, NAMES) == (
        f"Der Nachziehstapel ist aufgebraucht und die letzten Nüsse sind eingelagert: {deutsch}"
    )
    assert WORDS.aftermath(after, after, NAMES) is None  # said once, by the last move


# --- (c) the English is what it was ----------------------------------------------------------


@pytest.mark.parametrize(
    ("event", "english"),
    [
        (Event(EventKind.PLACED, 0, None, 7), "Only space 7 is free: Ann's squirrel goes there."),
        (Event(EventKind.OUT_OF_SQUIRRELS, 0), "Ann has no squirrel left: the turn ends."),
        (
            Event(EventKind.COLLECTED, 0, Space.AREA_4, 4),
            "Ann collects on 4-area (4 squirrels back).",
        ),
        (Event(EventKind.NO_NUT, 1, Space.LEFT_3), "No nut is left for Bob on 3-left."),
        (Event(EventKind.TOOK, 0, Space.TWO_FOUR, None, Card.ACORN), "Ann takes the acorn."),
        (
            Event(EventKind.STORED, 0, None, None, Card.WALNUT_HAZELNUT, 1),
            "Ann stores the W/H joker in S2.",
        ),
        (
            Event(EventKind.KEPT, 0, None, None, Card.BEECHNUT_ACORN),
            "Ann keeps the B/A joker: no store fits it yet.",
        ),
        (
            Event(EventKind.BOXED, 2, None, None, Card.ACORN),
            "The acorn fits none of Cem's stores and goes back to the box.",
        ),
        (
            Event(EventKind.BOXED, 2, None, None, Card.WALNUT_ACORN),
            "The W/A joker fits none of Cem's stores and goes back to the box.",
        ),
        (Event(EventKind.FILLED, 0, None, None, Card.WALNUT, 7), "Ann fills S8 and turns it over."),
        (
            Event(EventKind.LAST_CARD, 0),
            "The draw pile is used up: the set-aside nuts are the pile now.",
        ),
        (
            Event(EventKind.ALL_UP, 0),
            "Every squirrel moves into the 4-area: each four buys one nut.",
        ),
    ],
)
def test_the_english_of_the_engines_doings_is_unchanged(event: Event, english: str) -> None:
    assert event_text(event, NAMES) == english


def test_the_english_of_moves_and_the_state_of_play_is_unchanged() -> None:
    start = AufDieNuesse(3).initial_state()
    view = start.view(None)
    assert WORDS.event(view, Draw(Card.ACORN), NAMES, "chance") == (
        "An acorn is laid face up under 2-4."
    )
    assert WORDS.event(view, Draw(Card.WALNUT_HAZELNUT), NAMES, "chance") == (
        "A W/H joker is laid face up under 2-4."
    )
    dealing = replace(view, stage=Stage.DEAL, receiver=1, refill=None)
    assert WORDS.event(dealing, Draw(Card.HAZELNUT), NAMES, "chance") == "Bob is dealt a hazelnut."
    rolled = WORDS.event(view, Dice(2, 1, 6), NAMES, "chance")
    assert rolled == "Ann rolls green 2, white 1 and 6 (3 or 8)."
    row = (Card.ACORN, Card.WALNUT_HAZELNUT, Card.BEECHNUT, None)
    table = replace(view, face_up=row, receiver=1, actor=1)
    assert WORDS.move_label(table, Take(Slot.FIVE_SIX)) == "take the W/H joker under 5-6"
    assert WORDS.move_label(table, Put(Nut.WALNUT, 2)) == "put walnut in S3 (1/3)"
    lay = Lay(Card.WALNUT_HAZELNUT, Nut.HAZELNUT, 0)
    assert WORDS.move_label(table, lay) == "lay W/H joker as hazelnut in S1"
    assert WORDS.move_label(table, KEEP) == "keep the joker for later"
    assert WORDS.move_label(table, Setup(Space.EIGHT_NINE)) == "squirrel onto 8-9"
    assert WORDS.event(table, PASS, NAMES, "Bob") == "Bob: take no nut."
    stores = list(table.stores)
    stores[2] = (Store(Nut.ACORN, 1, 0, False), *stores[2][1:])
    victim = replace(table, stores=tuple(stores), stage=Stage.STEAL)
    assert WORDS.move_label(victim, Steal(2, 0)) == "steal an acorn from P3's S1"
    assert WORDS.event(victim, Steal(2, 0), NAMES, "Bob") == (
        "Bob's raccoon steals an acorn from Cem's S1."
    )
    keep = replace(view, stage=Stage.PUT, actor=1, pending=Card.WALNUT_ACORN, can_keep=True)
    assert turn_sentence(keep, NAMES) == "Bob must store a W/A joker or keep it for later."
    take = replace(view, stage=Stage.TAKE, actor=2, space=Space.RACCOON_3, raccoon=True)
    assert turn_sentence(take, NAMES) == (
        "Cem collects on 3-raccoon and picks a nut (or takes none)."
    )
    choice = replace(view, stage=Stage.PLACE, placements=(3, 8))
    assert turn_sentence(choice, NAMES) == "Ann puts a squirrel on space 3 or 8."
    assert WORDS.many_moves(view, [STOP] * 40) == (
        "… 40 choices. Store a nut with `put walnut S3`, keep a joker with `keep`, lay a kept "
        "joker with `lay walnut/hazelnut as walnut S3`; `moves` lists every choice with its "
        "number."
    )
    assert WORDS.help().splitlines()[-1] == (
        "Spaces pay out with 2, 3 and 4 squirrels of one player in the 2-, 3- and 4-area."
    )
