"""Auf die Nüsse!: the options behind the CHOSEN rulings (issue 22), each value tested for what
it changes: the store table (ruling 5), whether the raccoon's nut and theft may be refused
(ruling 6) and what placing the last squirrel does (ruling 7)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from spieltisch.games.auf_die_nuesse import (
    PASS,
    STOP,
    AufDieNuesse,
    Card,
    Nut,
    Rule,
    Slot,
    Space,
    Stage,
    Steal,
    Take,
)
from spieltisch.games.auf_die_nuesse.model import (
    MAX_SCORE,
    STORE_SIZES,
    STORE_TABLES,
    EventKind,
    Store,
    best_full_store,
    points,
)
from spieltisch.games.auf_die_nuesse.rules import NuesseState
from tests.games.test_auf_die_nuesse import (
    area,
    drive,
    full,
    kinds,
    placed,
    raccoon_table,
    refused,
    store,
    stores,
    table,
)


def test_the_new_options_default_to_the_rulings() -> None:
    config = AufDieNuesse(3).config
    assert config.store_table == "standard" and config.store_values == (
        5,
        5,
        10,
        10,
        15,
        15,
        20,
        30,
    )
    assert config.raccoon_optional is True
    assert config.empty_supply == "stops"


# --- store_table (ruling 5) ------------------------------------------------------------------


def test_the_store_tables_differ_only_in_the_five_nut_store() -> None:
    standard, other = STORE_TABLES["standard"], STORE_TABLES["five_25"]
    assert STORE_SIZES[6] == 5 and (standard[6], other[6]) == (20, 25)
    assert [i for i in range(8) if standard[i] != other[i]] == [6]
    assert MAX_SCORE == AufDieNuesse.info.max_score == sum(other) == 115


def _ended(table_name: str, holdings: dict[int, tuple[Store, ...]]) -> NuesseState:
    state = table(len(holdings), holdings=holdings, store_table=table_name)
    return replace(state, stage=Stage.OVER)


@pytest.mark.parametrize(("table_name", "five"), [("standard", 20), ("five_25", 25)])
def test_a_full_five_nut_store_scores_the_tables_value(table_name: str, five: int) -> None:
    a = stores(s7=full(), s1=store(Nut.ACORN, 1))  # the 5-nut store full, and one nut
    b = stores(s5=full(), s3=full())  # 15 + 10 = 25
    state = _ended(table_name, {0: a, 1: b})
    assert state.scores() == (five + 1, 25)
    assert state.view(1).scores == state.scores()
    assert state.winners() == ({0} if five + 1 > 25 else {1})
    assert points(a, state.config.store_values) == five + 1
    assert best_full_store(a, state.config.store_values) == five


def test_the_store_table_breaks_ties_by_its_own_values() -> None:
    a = stores(s7=full())  # the 5-nut store: 25 with five_25
    b = stores(s5=full(), s3=full())  # 15 + 10 = 25
    state = _ended("five_25", {0: a, 1: b})
    assert state.scores() == (25, 25) and state.winners() == {0}  # 25 beats 15 as best store
    assert _ended("standard", {0: a, 1: b}).winners() == {1}  # 20 against 25: no tie


# --- raccoon_optional (ruling 6) -------------------------------------------------------------


def _raccoon(optional: bool) -> NuesseState:
    state = raccoon_table()
    return replace(state, board=replace(state.board, config=replace(
        state.board.config, raccoon_optional=optional
    )))  # fmt: skip


def test_by_default_the_raccoons_nut_and_theft_may_be_refused() -> None:
    state = _raccoon(True)
    assert state.legal_actions()[0] == PASS
    state = drive(state, "pass")
    assert state.stage is Stage.STEAL and state.legal_actions()[0] == PASS


def test_with_raccoon_optional_off_the_nut_and_the_theft_must_be_taken() -> None:
    state = _raccoon(False)
    assert state.stage is Stage.TAKE
    assert state.legal_actions() == tuple(Take(slot) for slot in Slot)
    refused(state, "pass", Rule.RACCOON_MUST)
    state = drive(state, "take 8-9", "put beechnut S1", "draw walnut")
    assert state.stage is Stage.STEAL
    assert PASS not in state.legal_actions()
    assert set(state.legal_actions()) == {Steal(1, 2), Steal(1, 4), Steal(2, 2)}
    refused(state, "pass", Rule.RACCOON_MUST)
    state = drive(state, "steal P2 S3")
    assert state.board.david == 1


def test_with_raccoon_optional_off_nothing_to_steal_still_skips_the_theft() -> None:
    position = table(2, areas={Space.RACCOON_2: (1, 0)}, raccoon_optional=False)
    state = drive(placed(position, 7), "stop", "take 2-4", "put acorn S1", "draw walnut")
    assert state.stage is Stage.ROLL and state.player == 1


# --- empty_supply (ruling 7) -----------------------------------------------------------------


@pytest.mark.parametrize("setting", ["stops", "fails"])
def test_placing_the_last_squirrel_ends_the_turn_by_stopping_or_failing(setting: str) -> None:
    state = drive(table(supply=(2, 15, 15), empty_supply=setting), "dice G1 W1 W1")
    assert state.stage is Stage.AGAIN  # one squirrel left: the player may roll again
    state = drive(state, "roll", "dice G2 W1 W1")
    if setting == "stops":  # the two squirrels moved up to 2-4, which pays out its acorn
        assert kinds(state)[:3] == [
            EventKind.PLACED,
            EventKind.OUT_OF_SQUIRRELS,
            EventKind.MOVED_UP,
        ]
        assert state.stage is Stage.PUT and state.step is not None
        assert state.step.pending is Card.ACORN and state.board.supply[0] == 2
    else:  # the start track went back: nothing moved up, nothing was collected
        assert kinds(state) == [EventKind.PLACED, EventKind.OUT_OF_SQUIRRELS, EventKind.FAILED]
        assert state.stage is Stage.ROLL and state.player == 1
        assert state.board.supply[0] == 2 and area(state, Space.TWO_FOUR)[0] == 0
        assert state.board.stores[0] == stores()


@pytest.mark.parametrize("setting", ["stops", "fails"])
def test_a_kept_joker_holds_the_turn_open_only_with_empty_supply_stops(setting: str) -> None:
    held = table(supply=(1, 15, 15), jokers={0: (Card.WALNUT_HAZELNUT,)}, empty_supply=setting)
    state = drive(held, "dice G1 W1 W1")
    if setting == "stops":  # the joker may still be laid; then the turn ends as a stop
        assert state.stage is Stage.AGAIN and state.legal_actions()[0] == STOP
    else:  # the turn has failed at once; the joker waits
        assert state.stage is Stage.ROLL and state.player == 1
        assert kinds(state)[-1] is EventKind.FAILED
        assert state.board.jokers[0] == (Card.WALNUT_HAZELNUT,)
