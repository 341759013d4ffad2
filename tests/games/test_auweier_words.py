"""Auweier's words speak the viewer's language.

Whole games played by random agents are told in English and in German (the catalog of
``spieltisch.locale``): every kind of event and of outcome, and every move label, reads
differently in German, with the same names, card codes, colour letters and move text, and no
``(s)`` or ``(e)`` in place of a plural. The end says why the game ended and who won. The
counted texts take their proper forms for one and for two, and the English sentences read
exactly as they did before the words were made translatable.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Sequence

import pytest

import spieltisch
from spieltisch.core.words import Speech
from spieltisch.games.auweier import PASS, Colour, Egg, End, PlayCrow, Stage
from spieltisch.games.auweier.notation import CARD_NAME, Card, PlayWorm, Swap
from spieltisch.games.auweier.rules import AuweierState
from spieltisch.games.auweier.view import AuweierView
from spieltisch.games.auweier.words import (
    CARD_WORDS,
    COLOUR_WORDS,
    STAGE_TEXT,
    WORDS,
    AuweierWords,
    deck_text,
    mating_text,
)
from spieltisch.locale import translation
from spieltisch.session import Table
from spieltisch.web.tables.payload import events_for
from tests.games.test_auweier import dealt, drive, new, position
from tests.random_games import random_game

R, B, G = Colour.RED, Colour.BLUE, Colour.GREEN
NAMES = ("Anneliese", "Bartholomäus", "Cosima", "Dietrich")
GERMAN: Speech = translation("de")
DEUTSCH: AuweierWords = WORDS.speaking(GERMAN)
SEEDS = range(4)
NOTATION = re.compile(r"(?<![\w*])(?:\d+\*?|[FKH]|[RBGY]@[RBGY]|[RBGY]?#\d+)(?![\w*])")
"""Card codes, numbers and colour letters as a sentence carries them."""
ORDINAL = re.compile(r"\b(\d)(?:st|nd|rd)\b")
PLURAL_HACK = re.compile(r"\((?:s|e|n|en|er)\)")


def played(players: int, seed: int) -> Table:
    """A whole game between random agents."""
    return random_game(spieltisch.load("auweier", players), seed, NAMES[:players])


@pytest.fixture(scope="module")
def tables() -> list[Table]:
    return [played(players, seed) for players in (2, 3, 4) for seed in SEEDS]


def same_facts(english: str, german: str, names: Sequence[str] = NAMES) -> None:
    """The German text tells the same names and notation, and neither has a plural hack."""
    assert german != english
    for text in (english, german):
        assert PLURAL_HACK.search(text) is None, text
    numbered = ORDINAL.sub(r"\1.", english)  # an egg's "1st" is a number as "1." is
    assert Counter(NOTATION.findall(german)) == Counter(NOTATION.findall(numbered)), (
        english,
        german,
    )
    for name in names:
        assert german.count(name) == english.count(name), (english, german)


def event_kind(text: str, sentence: str) -> str:
    """The kind of an event, from the move's notation as its viewer saw it."""
    words = text.split()
    if text == "shuffled (hidden)":
        return "shuffled-hidden"
    if words[0] == "deck":
        return "deck-order" if words[1] in {"shuffle", "spread", "starter"} else "deck-place"
    if words[0] == "wedding":
        return "wedding-open" if "opens a wedding phase" in sentence else "wedding"
    return words[0]


def outcome_kinds(outcome: str) -> Iterator[str]:
    """The kinds of what a move brought about, from its English sentence."""
    checks = {
        "deck-ready": "'s deck is ready.",
        "all-ready": "Every deck is ready",
        "mating": "Mating: ",
        "worm-stage": "The worm stage begins",
        "end-empty-hand": "had no cards left to play",
        "end-nobody": "nobody could play",
    }
    yield from (kind for kind, marker in checks.items() if marker in outcome)


def test_every_kind_of_event_and_outcome_reads_differently_in_german(tables: list[Table]) -> None:
    kinds: Counter[str] = Counter()
    for table in tables:
        for viewer in (None, *range(table.game.players)):
            english = events_for(table, WORDS, viewer, 0)
            german = events_for(table, DEUTSCH, viewer, 0)
            assert len(english) == len(german)
            for said, gesagt in zip(english, german, strict=True):
                assert isinstance(said, dict) and isinstance(gesagt, dict)
                sentence, satz = said["sentence"], gesagt["sentence"]
                text = said["text"]
                assert isinstance(sentence, str) and isinstance(satz, str)
                assert isinstance(text, str)
                if sentence:  # a secret step says nothing, in any language
                    same_facts(sentence, satz)
                    kinds[event_kind(text, sentence)] += 1
                    if text.startswith("deck "):  # the move text itself is notation
                        assert (text in satz) == (text in sentence), satz
                else:
                    assert satz == ""
                outcome, folge = said["outcome"], gesagt["outcome"]
                assert (outcome is None) == (folge is None)
                if isinstance(outcome, str) and isinstance(folge, str):
                    same_facts(outcome, folge)
                    kinds.update(outcome_kinds(outcome))
                    if "Game over" in outcome:  # in plain words, not the rules' own
                        assert End.NO_PLAY.value not in outcome
                        assert End.NOBODY_CAN_PLAY.value not in outcome
                        assert "Spielende" in folge and "Punkte: " in folge
    expected = {
        "deck-place",
        "deck-order",
        "shuffled-hidden",
        "worm",
        "wedding-open",
        "wedding",
        "crow",
        "swap",
        "pass",
        "deck-ready",
        "all-ready",
        "mating",
        "worm-stage",
        "end-empty-hand",
        "end-nobody",
    }
    assert expected <= set(kinds), expected - set(kinds)


def test_every_move_label_reads_differently_in_german(tables: list[Table]) -> None:
    seen: set[str] = set()
    for table in tables:
        for _, before, _, _ in table.walk(0, None):
            player = before.current_player()
            if player is None:
                continue
            view = before.view(player)
            assert isinstance(view, AuweierView)
            for move in before.legal_actions():
                label, etikett = WORDS.move_label(view, move), DEUTSCH.move_label(view, move)
                same_facts(label, etikett)
                seen.add(type(move).__name__)
    assert seen == {
        "Arrange",
        "ShuffleRest",
        "Starter",
        "PlayWorm",
        "PlayWedding",
        "PlayCrow",
        "Swap",
        "Pass",
    }


def test_help_stage_names_and_deck_progress_are_german() -> None:
    help_text, hilfe = WORDS.help(), DEUTSCH.help()
    assert hilfe != help_text
    assert re.findall(r"`[^`]*`", hilfe) == re.findall(r"`[^`]*`", help_text)
    view = dealt(3).view(0)
    many = WORDS.many_moves(view, [PASS] * 40)
    viele = DEUTSCH.many_moves(view, [PASS] * 40)
    assert viele != many and "40" in viele
    assert re.findall(r"`[^`]*`", viele) == re.findall(r"`[^`]*`", many)
    for stage, text in STAGE_TEXT.items():
        assert GERMAN.gettext(text) != text, stage
    setup = drive(new(3), "deck 7 K")
    mine, theirs = setup.view(0).players[0], setup.view(1).players[0]
    assert deck_text(mine) == "2 of 22 placed"
    assert deck_text(mine, speech=GERMAN) == "2 von 22 festgelegt"
    assert deck_text(theirs) == "setting up" != deck_text(theirs, speech=GERMAN)
    ready = dealt(3).view(0).players[1]
    assert deck_text(ready) == "ready" != deck_text(ready, speech=GERMAN)


# --- why the game ended, and who won ---------------------------------------------------------


def game_over(state: AuweierState, move: str, words: AuweierWords = WORDS) -> str:
    """What ``words`` say the last ``move`` brought about, as seat 0 saw it."""
    before = state.view(0)
    after = state.apply_text(move).view(0)
    assert after.stage is Stage.OVER
    said = words.aftermath(before, after, NAMES[: len(after.players)])
    assert said is not None
    return said


def test_the_end_says_the_player_to_move_had_no_cards_left() -> None:
    state = drive(position(["F 1", "H", "1"], piles=["", "", ""], player=2), "worm 1 G")
    said = game_over(state, "worm F R")
    assert said == (
        "Game over: Cosima had no cards left to play. Anneliese, Bartholomäus and Cosima "
        "share the win with 0 points each. Points: Anneliese 0, Bartholomäus 0, Cosima 0."
    )
    gesagt = game_over(state, "worm F R", DEUTSCH)
    same_facts(said, gesagt)
    assert "Cosima" in gesagt.split(".")[0]  # the first sentence names who ran out


def test_the_end_says_a_stuck_player_could_play_none_of_their_cards() -> None:
    state = position(
        ["F 1", "H K"],
        {R: ["", ""]},
        piles=["", ""],
        won=[[Egg(B, 1)], []],
        stuck_player="ends_game",
    )
    said = game_over(state, "worm F R")
    assert said == (
        "Game over: Bartholomäus could not play any of their cards. "
        "Anneliese wins with 1 point. Points: Anneliese 1, Bartholomäus 0."
    )
    same_facts(said, game_over(state, "worm F R", DEUTSCH))


def test_the_end_says_nobody_could_play() -> None:
    state = position(["F H", "H", "K"], piles=["", "", ""], stuck_player="passes")
    said = game_over(state, "worm F R")
    assert said.startswith("Game over: nobody could play any of their cards. ")
    assert "share the win with 0 points each." in said
    same_facts(said, game_over(state, "worm F R", DEUTSCH))


def test_the_end_says_the_last_egg_was_won_and_who_won() -> None:
    eggs = [Egg(R, 1), Egg(R, 2), Egg(R, 3), Egg(B, 1), Egg(B, 2), Egg(B, 3), Egg(G, 1)]
    state = position(["H 1", "1"], {G: ["4", ""]}, laid=[3, 3, 2], won=[eggs, [Egg(G, 2)]])
    state = drive(state, "wedding G", "pass", "pass")
    said = game_over(state, "pass")
    assert said == (
        "Mating: Anneliese wins the green female's 3rd egg; cleared: Anneliese at green. "
        "Game over: the last egg was won. Anneliese wins with 24 points. "
        "Points: Anneliese 24, Bartholomäus 2."
    )
    gesagt = game_over(state, "pass", DEUTSCH)
    same_facts(said, gesagt)
    assert "Spielende: " in gesagt and "Ei" in gesagt


# --- counted texts: one and two ---------------------------------------------------------------


def worm_stage(takers: int) -> tuple[AuweierView, AuweierView]:
    """The views (of seat 0) from the wedding stage's last pass to the worm stage, with one
    or two players (the opener, and the next one) with a Wedding down."""
    state = position(["H H 1", "H 1", "1"], {R: ["3", "", ""]})
    state = drive(state, "wedding R", "wedding B" if takers == 2 else "pass", "pass")
    if takers == 2:
        state = drive(state, "pass")
    assert state.stage is Stage.WEDDINGS
    after = state.apply_text("pass")
    assert after.stage is Stage.WORMS
    return state.view(0), after.view(0)


@pytest.mark.parametrize(
    ("takers", "english", "german"),
    [
        (
            1,
            "The worm stage begins: Anneliese takes part.",
            "Die Wurmrunde beginnt: Anneliese ist dabei.",
        ),
        (
            2,
            "The worm stage begins: Anneliese, Bartholomäus take part.",
            "Die Wurmrunde beginnt: Anneliese, Bartholomäus sind dabei.",
        ),
    ],
)
def test_the_worm_stage_counts_its_takers(takers: int, english: str, german: str) -> None:
    before, after = worm_stage(takers)
    assert WORDS.aftermath(before, after, NAMES[:3]) == english
    assert DEUTSCH.aftermath(before, after, NAMES[:3]) == german


def ended(won: Sequence[Sequence[Egg]]) -> tuple[AuweierView, AuweierView]:
    """The views of a two-player game ended by a stuck player, with these eggs won."""
    state = position(
        ["F 1", "H K"], {R: ["", ""]}, piles=["", ""], won=won, stuck_player="ends_game"
    )
    return state.view(0), state.apply_text("worm F R").view(0)


@pytest.mark.parametrize(
    ("won", "english", "german"),
    [
        ([[Egg(B, 1)], []], "Anneliese wins with 1 point.", "Anneliese gewinnt mit 1 Punkt."),
        ([[Egg(R, 1)], []], "Anneliese wins with 2 points.", "Anneliese gewinnt mit 2 Punkten."),
        (
            [[Egg(B, 1)], [Egg(R, 1)]],
            "Anneliese and Bartholomäus share the win with 1 point each.",
            "Anneliese und Bartholomäus teilen sich den Sieg mit je 1 Punkt.",
        ),
        (
            [[Egg(R, 1)], [Egg(B, 1)]],
            "Anneliese and Bartholomäus share the win with 2 points each.",
            "Anneliese und Bartholomäus teilen sich den Sieg mit je 2 Punkten.",
        ),
    ],
)
def test_the_winners_points_are_counted(
    won: Sequence[Sequence[Egg]], english: str, german: str
) -> None:
    before, after = ended(won)
    said = WORDS.aftermath(before, after, NAMES[:2])
    gesagt = DEUTSCH.aftermath(before, after, NAMES[:2])
    assert said is not None and gesagt is not None
    assert f" {english} Points: " in said
    assert f" {german} Punkte: " in gesagt


# --- English as it was ------------------------------------------------------------------------


def test_the_english_sentences_read_as_before() -> None:
    state = position(["K 1 2", "1"], {R: ["F", "7"], B: ["2", "3"]})
    view = state.view(0)
    names = NAMES[:2]
    assert WORDS.event(view, PlayCrow(B, B), names, "Anneliese") == (
        "Anneliese's Crow eats Bartholomäus's 3 before the blue female."
    )
    assert WORDS.move_label(view, PlayCrow(B, B)) == "Crow eats blue's 3 at blue (B@B)"
    assert WORDS.event(view, PlayWorm(Card.ONE, R), names, "Anneliese") == (
        "Anneliese plays 1 before the red female (now 1)."
    )
    assert WORDS.move_label(view, PlayWorm(Card.ONE, B)) == "1 → blue (2→3)"
    swap = Swap(R, 1, Card.ONE)
    assert WORDS.move_label(view, swap) == "swap red #1: F ↔ 1"
    assert WORDS.event(view, swap, names, "Anneliese") == (
        "Anneliese exchanges their F before the red female for 1 from hand."
    )
    assert WORDS.event(view, PASS, names, "Bartholomäus") == "Bartholomäus passes."
    assert WORDS.move_label(view, PASS) == "pass (final)"
    opening = drive(position(["H 1", "1"], {R: ["3", ""]}), "wedding R", "pass", "pass")
    assert mating_text(opening.apply_text("pass").view(1), names) == (
        "Anneliese wins the red female's 1st egg; cleared: Anneliese at red."
    )


def test_the_word_tables_match_the_cards_and_colours() -> None:
    assert CARD_WORDS == CARD_NAME
    assert [Card(k).label for k in range(len(Card))] == list(CARD_WORDS)
    assert [colour.label for colour in Colour] == list(COLOUR_WORDS)
