"""No hidden card leaves through a web payload: a differential test over many positions.

For each game, random games are played; at each position and for each seat, a second true
state the seat cannot tell apart is drawn with the game's belief sampler. Everything the
server would send that seat, built from each state, must be byte-identical: the view, the
legal moves with their labels, the event for the next move (its text, sentence and outcome)
whenever that move can be made in both, and the engine's refusal of moves the seat might try.
The table-side payloads (presence, clocks, votes) are compared the same way; notes and the
lobby's summaries take no game state at all. The words are compared in every language the
server speaks: a translation must not tell more than the English.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import spieltisch
from spieltisch.agents import RandomAgent
from spieltisch.core.codec import to_jsonable
from spieltisch.core.errors import SpieltischError
from spieltisch.core.game import Game, Move, PlayerId, State
from spieltisch.games import REGISTRY, kit_of
from spieltisch.locale import LANGUAGES
from spieltisch.session import Steps, Table
from spieltisch.session.steps import private_owner
from spieltisch.web.common.settings import Settings
from spieltisch.web.common.table_rules import ChatMode, ClockMode, TableRules, Takeover
from spieltisch.web.common.words import spoken
from spieltisch.web.store.table_store import SeatRow
from spieltisch.web.tables.clock import ManualClock
from spieltisch.web.tables.hub import Hub
from spieltisch.web.tables.payload import event_item, legal_items, update_message
from spieltisch.web.tables.table import LiveTable

POSITIONS = 250
TRIES = 6


def _attempt(state: State, move: Move) -> str:
    """What the server would tell a seat that tries ``move`` here."""
    try:
        state.apply(move)
    except SpieltischError as error:
        return f"refused: {error}"
    return "accepted"


def payload(
    game: Game, state: State, viewer: PlayerId, move: Move, tries: list[Move], language: str
) -> str:
    """Everything of one position a seat's connection could receive, as JSON text."""
    words = spoken(kit_of(game).words, language)
    view = state.view(viewer)
    data: dict[str, object] = {"view": to_jsonable(view)}
    if state.current_player() == viewer:
        data["legal"] = legal_items(game, words, view, state.legal_actions())
        data["tries"] = [_attempt(state, m) for m in tries]
    after = state.apply(move).view(viewer)
    item = event_item(
        words,
        view,
        after,
        state.seen_move(move, viewer),
        ("A", "B", "C", "D", "E", "F")[: game.players],
        1,
        state.current_player(),
    )
    if state.is_chance():
        item.pop("outcome")  # what chance brings may differ; its redaction may not
    data["event"] = item
    return json.dumps(data, sort_keys=True, ensure_ascii=False)


@pytest.mark.parametrize("game_id", REGISTRY.implemented())
def test_two_states_a_seat_cannot_tell_apart_send_it_identical_payloads(game_id: str) -> None:
    info = REGISTRY.game_class(game_id).info
    belief = kit_of(spieltisch.load(game_id)).belief
    assert belief is not None
    rng = random.Random(3)
    compared = differed = seed = 0
    while compared < POSITIONS:
        game = spieltisch.load(
            game_id, info.min_players + seed % (info.max_players - info.min_players + 1)
        )
        table, chooser = Table(game, seed=seed), RandomAgent(game, seed + 1)
        seed += 1
        while not table.over and compared < POSITIONS:
            state = table.state
            move = (
                state.sample_chance(rng)
                if state.is_chance()
                else chooser.act(None, state.legal_actions())
            )
            table_ids = game.num_distinct_actions
            tries = [game.action_from_id(rng.randrange(table_ids)) for _ in range(TRIES)]
            for viewer in range(game.players):
                twin = belief.redeal(state, viewer, rng)
                if twin == state:
                    continue
                try:
                    twin.apply(move)
                except SpieltischError:
                    continue  # the next move is not possible in the twin: no event to compare
                for language in LANGUAGES:
                    assert payload(game, state, viewer, move, tries, language) == payload(
                        game, twin, viewer, move, tries, language
                    )
                differed += 1
            compared += 1
            if state.is_chance():
                table.advance_chance(move)
            else:
                table.play(move)
    if info.hidden_information:
        assert differed > 50, "too few twin states were compared"


def _live_twin(hub: Hub, game: Game, state: State, seats: list[SeatRow]) -> LiveTable:
    """A live table standing at ``state`` (a test's shortcut past the moves to it)."""
    table = Table(game, tuple(s.name for s in seats), seed=1)
    table.state = state
    rules = TableRules(clock=ClockMode.LIVE, takeover=Takeover.VOTE, chat=ChatMode.EVERYONE)
    live = LiveTable(
        "twin", game, kit_of(game), 1, "playing", "h", list(seats), table, rules=rules,
        turn_since=100.0,
    )  # fmt: skip
    live.away_since = {0: 50.0}
    to_act = state.current_player()
    if to_act is not None:
        live.votable = {to_act: "away"}
        live.votes = {to_act: {p: True for p in range(game.players) if p != to_act}}
    return live


@pytest.mark.parametrize("game_id", REGISTRY.implemented())
def test_the_table_side_payloads_are_the_same_for_states_a_seat_cannot_tell_apart(
    game_id: str, tmp_path: Path
) -> None:
    """Presence, clocks and votes (the seats message) are built from the table's seats and
    house rules, never from the game's state: twin states give byte-identical ones."""
    hub = Hub(Settings(database=f"sqlite:///{tmp_path / 'db.sqlite'}"), ManualClock(200.0))
    try:
        game = spieltisch.load(game_id)
        belief = kit_of(game).belief
        assert belief is not None
        seats = [
            SeatRow(p, "person", f"P{p}", None, f"{p:064x}", True, bank=90.0)
            for p in range(game.players)
        ]
        rng, table = random.Random(5), Table(game, seed=5)
        chooser, compared = RandomAgent(game, 6), 0
        while not table.over and compared < 40:
            state = table.state
            for viewer in range(game.players):
                twin = belief.redeal(state, viewer, rng)
                first = _live_twin(hub, game, state, seats)
                second = _live_twin(hub, game, twin, seats)
                for message in (hub.seats_message(first), hub.seats_message(second)):
                    assert "view" not in message and "legal" not in message
                assert json.dumps(hub.seats_message(first), sort_keys=True) == json.dumps(
                    hub.seats_message(second), sort_keys=True
                )
                compared += 1
            if state.is_chance():
                table.advance_chance()
            else:
                table.play(chooser.act(None, state.legal_actions()))
        assert compared >= 40 or table.over
    finally:
        hub.pool.shutdown()
        hub.database.close()


# --- how a hidden deck was built never shows: versions and event counts ----------------------

ONE_BY_ONE = "1 1 1 2 2 2* 3 3 4 4 5* 6 7 F K K H H H H H H"
DECKS = {
    "shuffled at once": ["deck shuffle"],
    "five Weddings, then shuffled": ["deck H"] * 5 + ["deck shuffle"],
    "spread": ["deck spread"],
    "first-game hand": ["deck starter 1 2* 3"],
    "all by hand, one card at a time": [f"deck {card}" for card in ONE_BY_ONE.split(" ")],
    "all by hand, in one line": ["deck 7 6 5* 4 4 3 3 2* 2 2 1 1 1 F K K H H H H H H"],
}


def _set_up(script: list[str]) -> tuple[Table, Steps]:
    """A two-player Auweier table where seat 0 shuffles at once and seat 1 follows
    ``script``, up to the first normal turn."""
    table = Table(spieltisch.load("auweier", 2), seed=29)
    steps = Steps()
    for text in ["deck shuffle", *script]:
        table.play_text(text)
        while table.to_act() is None and not table.over:
            table.advance_chance()
        steps.update(table)
    return table, steps


def test_how_the_other_seat_built_its_deck_changes_nothing_seat_0_is_sent() -> None:
    """Issue 29: six ways to build seat 1's deck, one stream for seat 0 (the same versions,
    event counts, texts and views), and the same for a spectator."""
    words = kit_of(spieltisch.load("auweier", 2)).words
    for viewer in (0, None):
        sent = set()
        for script in DECKS.values():
            table, steps = _set_up(script)
            assert steps.public == 2 and steps.owner is None  # one step per deck
            messages = [
                update_message("t", "playing", table, words, viewer, since, steps)
                for since in range(steps.public + 1)
            ]
            for message in messages:
                if viewer is not None:
                    message.pop("legal")  # seat 0's own moves: the same cards in every twin
                message.pop("names")
            sent.add(json.dumps(messages, sort_keys=True, ensure_ascii=False))
        assert len(sent) == 1, f"viewer {viewer} can tell how seat 1 built its deck"


def test_the_seat_building_its_deck_sees_each_step_and_the_others_see_none() -> None:
    table = Table(spieltisch.load("auweier", 2), seed=30)
    steps = Steps()
    table.play_text("deck shuffle")
    while table.to_act() is None:
        table.advance_chance()
    table.play_text("deck H")
    table.play_text("deck H")
    steps.update(table)
    assert steps.public == 1 and steps.owner == 1  # seat 1's run is under way
    words = kit_of(table.game).words
    own = update_message("t", "playing", table, words, 1, 1, steps)
    other = update_message("t", "playing", table, words, 0, 1, steps)
    assert own["version"] == other["version"] == 1 and own["events"] == other["events"] == []
    assert own["legal"] and other["to_act"] == 1  # seat 0 sees seat 1 still at it, no more
    assert other["view"] == to_jsonable(table.state_at(steps.ends[1]).view(0))


@pytest.mark.parametrize("game_id", REGISTRY.implemented())
def test_private_runs_happen_only_where_a_deck_is_built(game_id: str) -> None:
    """Every other move of every game is seen by someone besides its maker, so only the
    Auweier decks form private runs; in every other game versions count moves one to one."""
    info = REGISTRY.game_class(game_id).info
    for players in range(info.min_players, info.max_players + 1):
        game = spieltisch.load(game_id, players)
        for seed in range(3):
            table, chooser = Table(game, seed=seed), RandomAgent(game, seed)
            while not table.over:
                state = table.state
                move = (
                    state.sample_chance(random.Random(seed + table.version))
                    if state.is_chance()
                    else chooser.act(None, state.legal_actions())
                )
                owner = private_owner(state, move)
                if owner is not None:
                    assert game_id == "auweier" and str(move).startswith("deck")
                if state.is_chance():
                    table.advance_chance(move)
                else:
                    table.play(move)
