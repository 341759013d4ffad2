"""Auf die Eier's words in English and German: whole games read in German for every kind of
event and keep every name and all notation; counted texts take their proper forms; the English
sentences read as they always did (except for the plural hacks they no longer have).

The German checks read the project's catalog (``translation("de")``): they pass once the
game's translations are merged into it.
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter

import pytest

from spieltisch.agents import RandomAgent
from spieltisch.core.game import Move
from spieltisch.games.auf_die_eier import STOP, AufDieEier, EierState, Reroll, Roll, Stage
from spieltisch.games.auf_die_eier.view import EierView
from spieltisch.games.auf_die_eier.words import FACE_SYMBOL, WORDS, EierWords, score_text
from spieltisch.locale import translation
from spieltisch.session import Table
from spieltisch.web.tables.payload import events_for

NAMES = ("Ann", "Bert", "Cleo", "Dirk")
HACK = re.compile(r"\((?:s|e|n|en|er|es)\)")
"""A plural hack: ``pair(s)``, ``Ei(er)``."""
SYMBOL = re.compile("|".join(re.escape(symbol) for symbol in FACE_SYMBOL.values()))
NOTATION = re.compile(r"`[^`]*`")


def german() -> EierWords:
    """The game's words as a German player reads them."""
    return WORDS.speaking(translation("de"))


def new(players: int = 2) -> EierState:
    return AufDieEier(players).initial_state()


def drive(state: EierState, *moves: str) -> EierState:
    for text in moves:
        state = state.apply(state.parse(text))
    return state


def quick_turn(state: EierState, roll: str, rotten: str = "") -> EierState:
    """One turn: throw ``roll`` and stop; the Rotten Eggs, if any, come up ``rotten`` (whole
    eggs if not given)."""
    state = drive(state, f"roll {roll}")
    if state.stage is Stage.DECIDE:
        state = drive(state, "stop")
    if state.stage is Stage.ROTTEN:
        state = drive(state, "roll " + (rotten or "W" * state.to_throw))
    return state


def played_to(scores: tuple[int, ...], player: int = 0) -> EierState:
    """A fresh turn of ``player`` with the given scores (all public, so built)."""
    start = new(len(scores))
    return dataclasses.replace(
        start, sheet=dataclasses.replace(start.sheet, scores=scores), player=player
    )


def aftermath(words: EierWords, before: EierState, after: EierState) -> str | None:
    return words.aftermath(before.view(None), after.view(None), NAMES)


def kept(english: str, other: str) -> None:
    """``other`` says ``english`` in another language: every name and every piece of notation
    (dice symbols, backticked move text) is kept, no plural hack, no unfilled placeholder."""
    assert other != english
    for name in NAMES:
        assert other.count(name) == english.count(name), (english, other)
    assert Counter(SYMBOL.findall(other)) == Counter(SYMBOL.findall(english)), (english, other)
    assert sorted(NOTATION.findall(other)) == sorted(NOTATION.findall(english)), (english, other)
    for text in (english, other):
        assert not HACK.search(text), text
        assert "{" not in text and "}" not in text, text


def played(players: int, seed: int) -> tuple[Table, list[tuple[EierView, list[Move]]]]:
    """A whole game between random players, and the decisions met on the way."""
    game = AufDieEier(players)
    table = Table(game, seats=NAMES[:players], seed=seed)
    chooser = RandomAgent(game, seed + 1)
    decisions: list[tuple[EierView, list[Move]]] = []
    while not table.over:
        seat = table.to_act()
        if seat is None:
            table.advance_chance()
        else:
            legal = list(table.legal())
            view = table.state.view(seat)
            assert isinstance(view, EierView)
            decisions.append((view, legal))
            table.play(chooser.act(None, legal))
    return table, decisions


# --- Whole games ------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "seed"), [(2, 3), (3, 11), (4, 21)])
def test_a_whole_game_reads_in_german_for_every_kind_of_event(players: int, seed: int) -> None:
    table, decisions = played(players, seed)
    de = german()
    kinds: Counter[str] = Counter()
    for viewer in (None, 0):
        english = events_for(table, WORDS, viewer, 0)
        deutsch = events_for(table, de, viewer, 0)
        assert len(english) == len(deutsch) > 0
        for en_item, de_item in zip(english, deutsch, strict=True):
            assert isinstance(en_item, dict) and isinstance(de_item, dict)
            en_sentence, de_sentence = en_item["sentence"], de_item["sentence"]
            assert isinstance(en_sentence, str) and isinstance(de_sentence, str)
            kept(en_sentence, de_sentence)
            text = str(en_item["text"])
            if "Rotten Egg" in en_sentence:
                kinds["rotten"] += 1
            else:
                kinds[text.split(maxsplit=1)[0]] += 1
            en_outcome, de_outcome = en_item["outcome"], de_item["outcome"]
            assert (en_outcome is None) == (de_outcome is None)
            if isinstance(en_outcome, str) and isinstance(de_outcome, str):
                kept(en_outcome, de_outcome)
                kinds["score"] += 1
                kinds["end"] += "Game over" in en_outcome
    assert kinds.keys() >= {"roll", "rotten", "reroll", "stop", "score", "end"}, kinds
    assert kinds["end"] == 2  # once for each viewer, at the very end
    for view, legal in decisions:
        for move in legal:
            label, label_de = WORDS.move_label(view, move), de.move_label(view, move)
            if isinstance(move, Reroll):  # the dice's letters as the notation writes them
                assert label == str(move) and label_de.startswith(str(move).split()[1] + " ")
            kept(label, label_de)
        kept(WORDS.many_moves(view, legal), de.many_moves(view, legal))


def test_the_help_reads_in_german_with_the_same_notation() -> None:
    kept(WORDS.help(), german().help())
    assert german().help().startswith("Würfelbuchstaben: W ganzes Ei, C angeknackstes Ei")


# --- Counted texts ----------------------------------------------------------------------------


def test_fried_eggs_pairs_are_counted_in_english_and_german() -> None:
    one, two = quick_turn(new(), "CFRRRRRRR"), quick_turn(new(), "CCFFRRRRR")
    spoiled = quick_turn(new(), "CCFFRWWWW", rotten="R")
    assert one.last is not None and two.last is not None and spoiled.last is not None
    assert score_text(one.last) == "5 points (1 fried eggs pair = 5)"
    assert score_text(two.last) == "10 points (2 fried eggs pairs = 10)"
    assert score_text(spoiled.last) == "5 points (2 fried eggs pairs, 1 spoiled = 5)"
    de = translation("de")
    assert score_text(one.last, speech=de) == "5 Punkte (1 Spiegelei-Paar = 5)"
    assert score_text(two.last, speech=de) == "10 Punkte (2 Spiegelei-Paare = 10)"
    assert score_text(spoiled.last, speech=de) == "5 Punkte (2 Spiegelei-Paare, 1 verdorben = 5)"


def test_rotten_eggs_rerolled_are_counted_in_english_and_german() -> None:
    one = drive(new(), "roll RCCCCCCCC", "stop")
    two = drive(new(), "roll RRCCCCCCC", "stop")
    assert one.stage is two.stage is Stage.ROTTEN
    cases = [
        (one, Roll.of("W"), "Bert re-rolls Ann's Rotten Egg:  ◯ W  "),
        (two, Roll.of("WH"), "Bert re-rolls Ann's Rotten Eggs:  ◯ W   ♣ H  "),
    ]
    for state, roll, expected in cases:
        assert WORDS.event(state.view(None), roll, NAMES[:2], "chance") == expected
    de = german()
    assert de.event(one.view(None), Roll.of("W"), NAMES[:2], "Zufall") == (
        "Bert wirft das faule Ei von Ann neu:  ◯ W  "
    )
    assert de.event(two.view(None), Roll.of("WH"), NAMES[:2], "Zufall") == (
        "Bert wirft die faulen Eier von Ann neu:  ◯ W   ♣ H  "
    )


def test_the_choices_are_counted_in_english_and_german() -> None:
    state = drive(new(), "roll WCCCCCCCC")
    view, legal = state.view(0), list(state.legal_actions())
    assert WORDS.many_moves(view, legal[:1]).startswith("… 1 choice. Re-roll")
    assert WORDS.many_moves(view, legal[:1]).endswith("`moves` lists it with its number.")
    assert WORDS.many_moves(view, legal[:2]).startswith("… 2 choices. Re-roll")
    assert german().many_moves(view, legal[:1]).startswith("… 1 Möglichkeit. ")
    assert german().many_moves(view, legal[:2]).startswith("… 2 Möglichkeiten. ")


def test_one_winner_or_a_shared_win_after_the_tie_turns() -> None:
    alone = played_to((95, 95, 50))
    for roll in ("WWPCCCCCC", "WWPCCCCCC", "CCCCCCCCC", "CCCCCCCCC"):
        alone = quick_turn(alone, roll)
    before, after = alone, quick_turn(alone, "WPCCCCCCC")
    assert after.is_terminal() and after.winners() == {1}
    assert aftermath(WORDS, before, after) == (
        "Bert scores 6 points (breakfast 6). "
        "Game over after the tie turns: Bert wins with 110 points."
    )
    assert aftermath(german(), before, after) == (
        "Bert bekommt 6 Punkte (Frühstücksei 6). "
        "Spielende nach dem Stechen: Bert gewinnt mit 110 Punkten."
    )
    shared = played_to((95, 95))
    for _ in range(3):
        shared = quick_turn(shared, "WWPCCCCCC")
    before, after = shared, quick_turn(shared, "WWPCCCCCC")
    assert after.is_terminal() and after.winners() == {0, 1}
    assert aftermath(WORDS, before, after) == (
        "Bert scores 9 points (breakfast 9). "
        "Game over after the tie turns: Ann and Bert share the win with 113 points each."
    )
    assert aftermath(german(), before, after) == (
        "Bert bekommt 9 Punkte (Frühstücksei 9). "
        "Spielende nach dem Stechen: Ann und Bert teilen sich den Sieg mit je 113 Punkten."
    )


def test_the_end_names_who_reached_the_goal_and_who_won() -> None:
    one = quick_turn(played_to((95, 90, 90)), "WWPCCCCCC")  # Ann: 104
    one = quick_turn(one, "CCCCCCCCC")
    before, after = one, quick_turn(one, "CCCCCCCCC")
    assert after.is_terminal()
    assert aftermath(WORDS, before, after) == (
        "Cleo scores 0 points. Game over: the final round is played out after Ann reached "
        "100 points, and Ann wins with 104 points."
    )
    assert aftermath(german(), before, after) == (
        "Cleo bekommt 0 Punkte. Spielende: Ann hat die 100 Punkte erreicht, die letzte Runde "
        "ist ausgespielt und Ann gewinnt mit 104 Punkten."
    )
    two = quick_turn(played_to((90, 95, 99), player=1), "WWPCCCCCC")  # Bert: 104
    before, after = two, quick_turn(two, "WWWPCCCCC")  # Cleo: 111
    assert after.is_terminal() and after.winners() == {2}
    assert aftermath(WORDS, before, after) == (
        "Cleo scores 12 points (breakfast 12). Game over: the final round is played out "
        "after Bert and Cleo reached 100 points, and Cleo wins with 111 points."
    )
    assert aftermath(german(), before, after) == (
        "Cleo bekommt 12 Punkte (Frühstücksei 12). Spielende: Bert und Cleo haben die 100 "
        "Punkte erreicht, die letzte Runde ist ausgespielt und Cleo gewinnt mit 111 Punkten."
    )


# --- English as it was ------------------------------------------------------------------------


def test_stefans_turn_reads_as_it_always_did() -> None:
    """The rulebook's worked turn (Stefan is Ann here, Gabriela is Bert)."""
    state = new(2)
    for roll in ("HCCCCCCCC", "CCCCCCCCC", "HHCCCCCCC", "CCCCCCCCC"):
        state = quick_turn(state, roll)
    names = NAMES[:2]
    sentences = []
    for text in ("roll RRCPPFFFH", "keep CPFH", "roll PPH", "reroll PP", "roll RH"):
        move = state.parse(text)
        actor = "chance" if state.is_chance() else names[state.player]
        sentences.append(WORDS.event(state.view(None), move, names, actor))
        if text == "reroll PP":
            assert WORDS.move_label(state.view(0), STOP) == "stop and score"
            assert WORDS.event(state.view(None), STOP, names, "Ann") == "Ann stops."
        state = state.apply(move)
    assert sentences == [
        "Ann throws:  ◐ C   ☠ R   ☠ R   ⊔ P   ⊔ P   ⊖ F   ⊖ F   ⊖ F   ♣ H  ",
        "Ann re-rolls  ⊔ P   ⊖ F   ⊖ F  ",
        "Ann throws:  ⊔ P   ⊔ P   ♣ H  ",
        "Ann re-rolls  ⊔ P   ⊔ P  ",
        "Ann throws:  ☠ R   ♣ H  ",
    ]
    before, after = state, drive(state, "roll WRF")
    assert WORDS.event(before.view(None), Roll.of("WRF"), names, "chance") == (
        "Bert re-rolls Ann's Rotten Eggs:  ◯ W   ☠ R   ⊖ F  "
    )
    assert aftermath(WORDS, before, after) == (
        "Ann scores 21 points (breakfast 6; 1 fried eggs pair, 1 spoiled = 0; chickens 15)."
    )
    assert aftermath(WORDS, after, after) is None  # nothing new: no sentence
    assert WORDS.move_label(after.view(1), Reroll.of("FFP")) == "reroll PFF"


def test_the_help_and_a_spoiled_breakfast_read_as_they_always_did() -> None:
    assert WORDS.help().startswith(
        "Dice letters: W whole egg, C cracked egg, R rotten egg, P pot, F frying pan, "
        "H chicken.\n`stop` ends your throwing and scores;"
    )
    spoiled = quick_turn(new(), "WWPRRRRRR", rotten="RRRRRR")
    assert spoiled.last is not None
    assert score_text(spoiled.last) == "0 points (breakfast 9 (spoiled))"
