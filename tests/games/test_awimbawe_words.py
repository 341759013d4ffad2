"""Awimbawé's words speak the viewer's language.

Whole matches played by random agents are told in English and in German (the catalog of
``spieltisch.locale``): every kind of event, outcome and move label reads differently in
German, with the same names, card codes and numbers, and no ``(s)`` or ``(e)`` in place of a
plural. The counted texts take their proper forms for one and for two, and the English
sentences read exactly as they did before the words were made translatable.
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from collections.abc import Iterator

import pytest

import spieltisch
from spieltisch.agents import RandomAgent
from spieltisch.core.words import ENGLISH, Speech
from spieltisch.games.awimbawe import DECK, Awimbawe, AwimbaweState, AwimbaweView, Card, Land
from spieltisch.games.awimbawe.memory import BlindVoid
from spieltisch.games.awimbawe.model import RoundResult
from spieltisch.games.awimbawe.notation import Rhino
from spieltisch.games.awimbawe.words import (
    HELP,
    WORDS,
    AwimbaweWords,
    known_text,
    result_text,
    status_text,
)
from spieltisch.locale import translation
from spieltisch.session import Table
from spieltisch.web.tables.payload import events_for
from tests.random_games import random_game

NAMES = ("Anne", "Guillaume")
GERMAN: Speech = translation("de")
DEUTSCH: AwimbaweWords = WORDS.speaking(GERMAN)
SEEDS = range(12)
CARD_CODE = re.compile(r"\b[GDMPS](?:10|[1-9])\b")
NUMBER = re.compile(r"[+-]?\d+")
PLURAL_HACK = re.compile(r"\((?:s|e|n|en|er)\)")


def played(seed: int) -> Table:
    """A whole match between two random agents (every other one shows blind picks)."""
    options: dict[str, bool] = {"blind_pick_shown": True} if seed % 2 else {}
    return random_game(spieltisch.load("awimbawe", 2, **options), seed, NAMES)


@pytest.fixture(scope="module")
def tables() -> list[Table]:
    return [played(seed) for seed in SEEDS]


def same_facts(english: str, german: str) -> None:
    """The German text tells the same names, card codes and numbers, and no plural hack."""
    assert german != english
    for text in (english, german):
        assert PLURAL_HACK.search(text) is None, text
    assert Counter(CARD_CODE.findall(german)) == Counter(CARD_CODE.findall(english)), german
    assert Counter(NUMBER.findall(german)) == Counter(NUMBER.findall(english)), german
    for name in NAMES:
        assert german.count(name) == english.count(name), (english, german)


def event_kind(text: str, sentence: str) -> str:
    """The kind of an event, from the move's notation as its viewer saw it."""
    words = text.split()
    kind = words[0]
    if kind == "pick":
        return "pick-hidden" if words[-1] == "??" else "pick-shown"
    if kind == "play" and words[-1] in {"fight", "flee"}:
        return f"play-{words[-1]}"
    if kind == "block":
        return "block-hand" if words[-1] == "hand" else "block-pile"
    if kind == "decline":
        return "decline-rhinoceros" if "rhinoceros" in sentence else "decline-snake"
    if kind == "lead":
        return "lead-cheetah" if "cheetah" in sentence else "lead-round"
    return kind


def outcome_kinds(outcome: str) -> Iterator[str]:
    """The kinds of what a move brought about, from its English sentence."""
    if outcome.startswith("The eagle flees"):
        yield "trick-fled"
    if " wins the trick " in outcome:
        yield "trick-won"
    if "took the fourth hyena" in outcome:
        yield "round-hyena"
    if re.search(r"Round \d+ to ", outcome):
        yield "round-crowns"
    if "and the match" in outcome:
        yield "match"


def test_every_kind_of_event_and_outcome_reads_differently_in_german(tables: list[Table]) -> None:
    kinds: Counter[str] = Counter()
    for table in tables:
        for viewer in (None, 0, 1):
            english = events_for(table, WORDS, viewer, 0)
            german = events_for(table, DEUTSCH, viewer, 0)
            assert len(english) == len(german)
            for said, gesagt in zip(english, german, strict=True):
                assert isinstance(said, dict) and isinstance(gesagt, dict)
                sentence, satz = said["sentence"], gesagt["sentence"]
                assert isinstance(sentence, str) and isinstance(satz, str)
                assert isinstance(said["text"], str)
                same_facts(sentence, satz)
                kinds[event_kind(said["text"], sentence)] += 1
                outcome, folge = said["outcome"], gesagt["outcome"]
                assert (outcome is None) == (folge is None)
                if isinstance(outcome, str) and isinstance(folge, str):
                    same_facts(outcome, folge)
                    kinds.update(outcome_kinds(outcome))
    expected = {
        "deal", "tiebreak", "play", "play-fight", "play-flee", "move",
        "block-pile", "block-hand", "pick-hidden", "pick-shown", "decline-rhinoceros",
        "decline-snake", "lead-cheetah", "lead-round", "trick-won", "trick-fled",
        "round-hyena", "round-crowns", "match",
    }  # fmt: skip
    assert expected <= set(kinds), expected - set(kinds)


def test_the_end_of_the_match_names_its_winner_and_why(tables: list[Table]) -> None:
    endings: Counter[str] = Counter()
    for table in tables:
        last = events_for(table, WORDS, None, table.version - 1)[-1]
        assert isinstance(last, dict) and isinstance(last["outcome"], str)
        for viewer in (None, 0, 1):
            over = table.state.view(viewer)
            assert isinstance(over, AwimbaweView) and over.winner is not None
            winner, loser = NAMES[over.winner], NAMES[1 - over.winner]
            assert last["outcome"].endswith(
                f"{winner} wins 2 rounds and the match: long live the king!"
            )
            ending = WORDS.ending(over, NAMES)
            assert ending is not None
            if over.results[-1].fourth_hyena:
                assert ending == (
                    f"{winner} wins 2 rounds and the match, the last because {loser} took "
                    "the fourth hyena."
                )
                endings["hyena"] += 1
            else:
                assert ending.startswith(
                    f"{winner} wins 2 rounds and the match, the last on crowns: Anne "
                )
                endings["crowns"] += 1
            same_facts(ending, DEUTSCH.ending(over, NAMES) or "")
    assert set(endings) == {"hyena", "crowns"}
    playing = tables[0].state_at(1).view(0)
    assert isinstance(playing, AwimbaweView) and WORDS.ending(playing, NAMES) is None


def test_a_smaller_match_says_how_many_rounds_and_hyenas_it_has() -> None:
    """With fewer lands there are fewer hyenas (whoever takes every one loses the round:
    never "the fourth"; with one land the single hyena always ends it), and one round may win
    the match: the endings and the round lines say so, in both languages."""
    ends: Counter[tuple[int, str]] = Counter()
    for lands in (1, 2):
        for seed in range(20):
            game = spieltisch.load("awimbawe", 2, lands=lands, rounds_to_win=1)
            over = random_game(game, seed, NAMES).state.view(0)
            assert isinstance(over, AwimbaweView) and over.winner is not None
            winner, loser = NAMES[over.winner], NAMES[1 - over.winner]
            ending = WORDS.ending(over, NAMES) or ""
            assert ending.startswith(f"{winner} wins 1 round and the match, the last ")
            assert "fourth" not in ending and "vierte" not in (DEUTSCH.ending(over, NAMES) or "")
            line = result_text(over.results[-1], NAMES, lands=lands)
            if over.results[-1].fourth_hyena:
                ends[lands, "hyena"] += 1
                assert ending.endswith(f"because {loser} took every hyena.")
                assert line.endswith(f"({loser} took every hyena)")
            else:
                ends[lands, "crowns"] += 1
            same_facts(ending, DEUTSCH.ending(over, NAMES) or "")
    assert set(ends) == {(1, "hyena"), (2, "hyena"), (2, "crowns")}


def test_every_move_label_and_table_line_reads_differently_in_german() -> None:
    labels = 0
    for seed in SEEDS[:4]:
        game = spieltisch.load("awimbawe", 2)
        table = Table(game, NAMES, seed=seed)
        chooser = RandomAgent(game, seed + 1)
        while not table.over:
            actor = table.to_act()
            if actor is None:
                table.advance_chance()
                continue
            view = table.state.view(actor)
            assert isinstance(view, AwimbaweView)
            for move in table.legal():
                same_facts(WORDS.move_label(view, move), DEUTSCH.move_label(view, move))
                labels += 1
            same_facts(status_text(view, NAMES), status_text(view, NAMES, speech=GERMAN))
            for side in view.sides:
                known = known_text(side)
                if known is not None:
                    same_facts(known, known_text(side, speech=GERMAN) or "")
            for result in view.results:
                same_facts(result_text(result, NAMES), result_text(result, NAMES, speech=GERMAN))
            table.play(chooser.act(None, table.legal()))
        over = table.state.view(None)
        assert isinstance(over, AwimbaweView)
        same_facts(status_text(over, NAMES), status_text(over, NAMES, speech=GERMAN))
    assert labels > 100


def test_the_help_reads_differently_in_german_and_keeps_its_notation() -> None:
    english, german = WORDS.help(), DEUTSCH.help()
    assert english == HELP
    assert german != english and german.count("\n") == english.count("\n")
    assert set(re.findall(r"`[^`]*`", german)) == set(re.findall(r"`[^`]*`", english))


# --- counted texts: one and two -------------------------------------------------------------


def blind_void_side(picks: int) -> AwimbaweView:
    """A view whose first side answered without a desert card while ``picks`` of its hand
    cards were blocked blind."""
    view = Awimbawe(2).initial_state().view(0)
    record = BlindVoid((Land.DESERT,), picks, 6)
    side = dataclasses.replace(view.sides[0], void=(), blind_voids=(record,), shown=())
    return dataclasses.replace(view, sides=(side, view.sides[1]))


@pytest.mark.parametrize(
    ("picks", "expected"),
    [
        (1, "known: no unblocked desert when 1 card was blocked blind"),
        (2, "known: no unblocked desert when 2 cards were blocked blind"),
    ],
)
def test_blind_picks_are_counted_in_english(picks: int, expected: str) -> None:
    assert known_text(blind_void_side(picks).sides[0]) == expected
    assert known_text(blind_void_side(picks).sides[0], speech=ENGLISH) == expected


@pytest.mark.parametrize(
    ("picks", "expected"),
    [
        (1, "bekannt: keine unblockierte Karte des Landes Wüste, als 1 Karte blind blockiert war"),
        (
            2,
            "bekannt: keine unblockierte Karte des Landes Wüste, als 2 Karten blind blockiert "
            "waren",
        ),
    ],
)
def test_blind_picks_are_counted_in_german(picks: int, expected: str) -> None:
    assert known_text(blind_void_side(picks).sides[0], speech=GERMAN) == expected


# --- English as it was ----------------------------------------------------------------------


def start(up0: str, hand0: str, up1: str, hand1: str) -> AwimbaweState:
    """A match dealt these face-up pile cards (piles 1-4) and hands; the face-down cards are
    the rest in card order, seat 0's first."""
    named = {Card.of(w) for text in (up0, hand0, up1, hand1) for w in text.split()}
    rest = [str(c) for c in DECK if c not in named]
    deal = f"deal {' '.join(rest[:4])} / {up0} / {hand0} | {' '.join(rest[4:8])} / {up1} / {hand1}"
    return drive(Awimbawe(2).initial_state(), deal)


def drive(state: AwimbaweState, *moves: str) -> AwimbaweState:
    for text in moves:
        state = state.apply(state.parse(text))
    return state


RHINO_DEAL = ("D2 S10 S9 P5", "D1 D3 D4 D5 D6 G1", "G2 G3 S8 G4", "P1 P2 P3 P4 P6 M1")
EAGLE_DEAL = ("M4 S10 S9 P5", "M1 M2 M3 M5 M6 G1", "G2 G3 D2 D3", "S8 P1 P2 P3 P4 P6")


def test_english_sentences_read_as_before() -> None:
    dealt = start(*RHINO_DEAL)
    assert WORDS.event(dealt.view(0), dealt.parse("play D2"), NAMES, "Anne") == (
        "Anne plays D2 (desert rhinoceros)."
    )
    rhino = drive(dealt, "play D2")
    view = rhino.view(0)
    labels = [WORDS.move_label(view, m) for m in rhino.legal_actions()]
    assert (
        labels[0]
        == "rhinoceros: move their pile 1 top (G2 grassland rhinoceros) under their pile 2"
    )
    assert labels[-1] == "decline: do not use the rhinoceros's power"
    assert WORDS.event(view, Rhino(2, 0), NAMES, "Anne") == (
        "Anne's rhinoceros moves the top card of Guillaume's pile 3 under pile 1."
    )
    assert WORDS.event(view, rhino.parse("decline"), NAMES, "Anne") == (
        "Anne does not use the rhinoceros's power."
    )
    assert status_text(view, NAMES) == "Anne to use the rhinoceros"
    eagle = drive(start(*EAGLE_DEAL), "play M4")
    labels = [WORDS.move_label(eagle.view(1), m) for m in eagle.legal_actions()]
    assert labels == [
        "S8 eagle 8 ·: fight (you take the trick)",
        "S8 eagle 8 ·: flee (the leader takes the trick, the eagle goes to your pile)",
    ]
    fled = drive(eagle, "play S8 flee")
    assert WORDS.aftermath(eagle.view(1), fled.view(1), NAMES) == (
        "The eagle flees: Anne takes M4, the eagle goes to Guillaume's pile."
    )
    assert result_text(RoundResult(1, 1, (22, 23), (0, 0), fourth_hyena=False), NAMES) == (
        "Round 1: Guillaume won (crowns Anne +22, Guillaume +23)"
    )
    assert result_text(RoundResult(2, 0, (36, 5), (0, 4), fourth_hyena=True), NAMES) == (
        "Round 2: Anne won (Guillaume took the fourth hyena)"
    )
