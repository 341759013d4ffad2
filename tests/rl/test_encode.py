"""The observation encoders: fixed shape, bounded, a function of the view alone, blind to
what the viewer cannot see (checked with each game's belief sampler), and documented."""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
import pytest

from spieltisch import load
from spieltisch.games import REGISTRY, kit_of
from spieltisch.games.auweier import AuweierView, Stage
from spieltisch.games.auweier.model import Award, Mating
from spieltisch.games.auweier.notation import Colour
from spieltisch.rl.encode import ENCODERS, GenericEncoder, encoder_for
from spieltisch.rl.encode.base import HIGH, LOW
from spieltisch.rl.pages import generated, page_path
from spieltisch.session import Table
from tests.rl.conftest import CASES, GAMES

SEEDS = 3


def test_cases_cover_every_game_and_player_count() -> None:
    expected = {
        (game_id, players)
        for game_id in REGISTRY.implemented()
        for players in range(
            REGISTRY.game_class(game_id).info.min_players,
            REGISTRY.game_class(game_id).info.max_players + 1,
        )
    }
    assert set(CASES) == expected
    assert set(ENCODERS) == set(REGISTRY.implemented())


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_observations_are_views_only(game_id: str, players: int) -> None:
    """At every decision of random games, for every viewer: the array has the encoder's shape,
    lies in [LOW, HIGH], and equals the array of a redealt state the viewer cannot tell apart.
    For a game with hidden information, some redeal must change some other seat's array (so
    the check is not empty)."""
    game = load(game_id, players)
    kit = kit_of(game)
    assert kit.belief is not None
    encoder = encoder_for(game_id)
    rng = random.Random(7)
    told_apart = 0
    decisions = 0
    for seed in range(SEEDS):
        table = Table(game, seed=seed)
        while not table.over:
            if table.to_act() is None:
                table.advance_chance()
                continue
            state = table.state
            decisions += 1
            for viewer in (*range(players), None):
                array = encoder.encode(table.view(viewer))
                assert array.shape == encoder.shape
                assert array.dtype == np.float32
                assert float(array.min()) >= LOW and float(array.max()) <= HIGH
                other = kit.belief.redeal(state, viewer, rng)
                np.testing.assert_array_equal(encoder.encode(other.view(viewer)), array)
                if viewer is not None and other != state:
                    seat = (viewer + 1) % players
                    before = encoder.encode(state.view(seat))
                    told_apart += not np.array_equal(before, encoder.encode(other.view(seat)))
            table.play(rng.choice(table.legal()))
    assert decisions > 0
    if game.info.hidden_information:
        assert told_apart > 0
    else:
        assert told_apart == 0


def test_viewers_see_different_things_in_a_card_game() -> None:
    game = load("awimbawe")
    table = Table(game, seed=3)
    table.advance_chance()
    encoder = encoder_for("awimbawe")
    own = encoder.layout.block("own.hand")
    mine = encoder.encode(table.view(0))
    theirs = encoder.encode(table.view(1))
    spectator = encoder.encode(table.view(None))
    assert mine[own.start : own.stop].sum() == 6
    assert theirs[own.start : own.stop].sum() == 6
    assert not np.array_equal(mine[own.start : own.stop], theirs[own.start : own.stop])
    assert spectator[own.start : own.stop].sum() == 0


def test_the_viewer_is_slot_zero() -> None:
    game = load("auf-die-eier", 3)
    table = Table(game, seed=1)
    table.advance_chance()
    mover = table.to_act()
    assert mover is not None
    encoder = encoder_for("auf-die-eier")
    block = encoder.layout.block("to_move")
    for viewer in range(3):
        array = encoder.encode(table.view(viewer))
        slot = (mover - viewer) % 3
        assert list(array[block.start : block.stop]).index(1.0) == slot


@pytest.mark.parametrize("game_id", GAMES)
def test_layouts_tile_the_array(game_id: str) -> None:
    layout = encoder_for(game_id).layout
    position = 0
    for block in layout.blocks:
        assert block.start == position
        assert block.meaning
        position = block.stop
    assert position == layout.size


@pytest.mark.parametrize("game_id", GAMES)
def test_rl_pages_describe_the_encoders(game_id: str) -> None:
    text = page_path(game_id).read_text(encoding="utf-8")
    assert generated(game_id) in text
    for block in encoder_for(game_id).layout.blocks:
        assert f"`{block.name}`" in text


def test_generic_encoder_is_a_function_of_the_view() -> None:
    game = load("awimbawe")
    encoder = GenericEncoder("awimbawe", width=256)
    table = Table(game, seed=5)
    table.advance_chance()
    first = encoder.encode(table.view(0))
    again = encoder.encode(table.view(0))
    other = encoder.encode(table.view(1))
    np.testing.assert_array_equal(first, again)
    assert first.shape == (256,)
    assert not np.array_equal(first, other)
    assert float(first.min()) >= LOW and float(first.max()) <= HIGH


def test_unknown_game_gets_the_generic_encoder() -> None:
    assert isinstance(encoder_for("no-such-game"), GenericEncoder)


def test_a_wrong_view_is_refused() -> None:
    eier = load("auf-die-eier", 2)
    view = Table(eier, seed=0).view(0)
    with pytest.raises(TypeError, match="AwimbaweView"):
        encoder_for("awimbawe").encode(view)


def test_a_mating_that_gives_one_player_every_female_stays_in_range() -> None:
    """At four players one player can win every female's eggs at one mating; the last
    mating's block counts those awards and must stay within [LOW, HIGH] (it was once scaled
    by three, so four awards gave 4/3)."""
    game = load("auweier", 4)
    table = Table(game, seed=0)

    def view_of_seat_0() -> AuweierView:
        view = table.view(0)
        assert isinstance(view, AuweierView)
        return view

    while table.to_act() is None or view_of_seat_0().stage is not Stage.PLAY:
        if table.to_act() is None:
            table.advance_chance()
        else:
            table.play(table.legal()[0])
    view = view_of_seat_0()
    awards = tuple(Award(0, female, 1) for female in Colour)
    observation = encoder_for("auweier").encode(replace(view, last=Mating(1, awards, ())))
    assert float(observation.max()) <= HIGH and float(observation.min()) >= LOW
