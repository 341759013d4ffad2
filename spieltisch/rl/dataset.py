"""Games as data: one Parquet row per decision, for offline RL, imitation and analysis.

``spieltisch lab dataset GAME --agents heuristic,random --games 1000 --out DIR`` (or
:func:`write_dataset`) plays the games at session tables, agents from the catalogue (any
string ``play`` and ``arena`` take: ``policy:FILE``, ``ismcts:200``, ...), seats rotated game
by game, and writes ``DIR/decisions.parquet`` (Apache Parquet, written with pyarrow, in row
groups) and ``DIR/dataset.json`` (what was played, the observation's size and layout, the
schema version). Read it with pandas (``pd.read_parquet``), polars (``pl.read_parquet``) or
DuckDB (``SELECT ... FROM 'DIR/decisions.parquet'``); ``docs/rl/README.md`` ("Datasets")
documents every column, :func:`schema` builds them.

Each row is one decision of one seat: its observation (the game's encoder of the seat's
view: what the seat could see, never the true state), the legal mask, the action taken, the
probabilities the agent gave the legal actions where it has them (a trained policy: the
softmax of its legal logits; ``random``: uniform; the bots and the search: null), and the
game's final returns and scores. Seats are 0-based, as in every environment.

Each row is also a transition of its seat, as offline RL reads them, with nothing left to
derive: ``reward`` (0, and the seat's return at its last decision), ``done`` (the seat's last
decision of the game), ``next_decision`` (the row of the seat's next decision in the same
game, null when done), ``next_observation`` (that row's observation, or when done the seat's
view of the finished game) and ``next_legal_mask`` (that row's mask; zeros when done).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa  # type: ignore[import-untyped]
import pyarrow.parquet as pq  # type: ignore[import-untyped]

from spieltisch.agents import RandomAgent, make_agent
from spieltisch.core.agent import Agent
from spieltisch.core.errors import OptionError
from spieltisch.core.game import Game, Move
from spieltisch.core.seeds import derive_seed
from spieltisch.rl.encode import encoder_for
from spieltisch.rl.match import ActionIds
from spieltisch.rl.policy import PolicyAgent
from spieltisch.session import Table

SCHEMA_VERSION = 2
"""2: the transition columns (``reward``, ``done``, ``next_*``) added after ``scores``."""
ROW_GROUP = 8192
"""Rows written at a time (one Parquet row group)."""
FILE = "decisions.parquet"
META = "dataset.json"


def schema(observation_size: int, num_actions: int, players: int) -> Any:
    """The Arrow schema of a dataset's rows (see ``docs/rl/README.md``)."""
    return pa.schema(
        [
            pa.field("game", pa.int32(), nullable=False),
            pa.field("game_seed", pa.uint64(), nullable=False),
            pa.field("decision", pa.int32(), nullable=False),
            pa.field("seat", pa.int8(), nullable=False),
            pa.field("agent", pa.string(), nullable=False),
            pa.field("observation", pa.list_(pa.float32(), observation_size), nullable=False),
            pa.field("legal_mask", pa.list_(pa.int8(), num_actions), nullable=False),
            pa.field("legal_ids", pa.list_(pa.int32()), nullable=False),
            pa.field("action", pa.int32(), nullable=False),
            pa.field("action_text", pa.string(), nullable=False),
            pa.field("probabilities", pa.list_(pa.float32()), nullable=True),
            pa.field("return", pa.float32(), nullable=False),
            pa.field("returns", pa.list_(pa.float32(), players), nullable=False),
            pa.field("scores", pa.list_(pa.int32(), players), nullable=False),
            pa.field("reward", pa.float32(), nullable=False),
            pa.field("done", pa.bool_(), nullable=False),
            pa.field("next_decision", pa.int32(), nullable=True),
            pa.field("next_observation", pa.list_(pa.float32(), observation_size), nullable=False),
            pa.field("next_legal_mask", pa.list_(pa.int8(), num_actions), nullable=False),
        ]
    )


def probabilities(agent: Agent[Any], view: object, legal: Sequence[Move]) -> list[float] | None:
    """The probabilities ``agent`` gives ``legal`` (in their order), where it has them."""
    if isinstance(agent, PolicyAgent):
        return agent.probabilities(view, legal)
    if isinstance(agent, RandomAgent):
        return [1.0 / len(legal)] * len(legal)
    return None


@dataclass(frozen=True, slots=True)
class DatasetSummary:
    """What :func:`write_dataset` wrote."""

    path: Path
    games: int
    rows: int


class _Rows:
    """Rows being gathered, as columns; flushed as one record batch."""

    def __init__(self) -> None:
        self.columns: dict[str, list[Any]] = {}
        self.count = 0

    def add(self, **values: Any) -> None:
        """One decision's columns (its final columns come with :meth:`add_final`)."""
        for name, value in values.items():
            self.columns.setdefault(name, []).append(value)
        self.count += 1

    def add_final(self, **values: Any) -> None:
        """The final columns of the next decision that has none yet."""
        for name, value in values.items():
            self.columns.setdefault(name, []).append(value)


class _Player:
    """Plays one game after another and gathers their rows."""

    def __init__(self, game: Game, specs: Sequence[str], seed: int) -> None:
        self.game = game
        self.specs = specs
        self.seed = seed
        self.encoder = encoder_for(game.info.id)
        self.ids = ActionIds(game)

    def play(self, index: int, rows: _Rows) -> None:
        """Play game ``index`` and add its rows to ``rows``."""
        game, players, seed = self.game, self.game.players, self.seed
        game_seed = derive_seed(seed, "dataset", index)
        seated = [self.specs[(p + index) % players] for p in range(players)]
        bots = [
            make_agent(spec, game, derive_seed(seed, "agent", index, p))
            for p, spec in enumerate(seated)
        ]
        table = Table(game, seed=game_seed)
        seats: list[int] = []
        while not table.over:
            seat = table.to_act()
            if seat is None:
                table.advance_chance()
                continue
            view, legal = table.view(seat), table.legal()
            agent = bots[seat]
            move = agent.act(view if agent.reads_views else None, legal)
            legal_ids = self.ids.ids_of(legal)
            order = sorted(range(len(legal)), key=legal_ids.__getitem__)
            chances = probabilities(agent, view, legal)
            mask = np.zeros(game.num_distinct_actions, np.int8)
            mask[legal_ids] = 1
            rows.add(
                game=index,
                game_seed=game_seed,
                decision=len(seats),
                seat=seat,
                agent=seated[seat],
                observation=self.encoder.encode(view),
                legal_mask=mask,
                legal_ids=[legal_ids[i] for i in order],
                action=self.ids.ids_of([move])[0],
                action_text=str(move),
                probabilities=None if chances is None else [chances[i] for i in order],
            )
            seats.append(seat)
            table.play(move)
        self._finish(table, seats, rows)

    def _finish(self, table: Table, seats: list[int], rows: _Rows) -> None:
        """The final and transition columns of the finished game's rows (``seats``: who
        decided, in order), the last of ``rows``."""
        returns = [float(r) for r in table.state.returns()]
        scores = list(table.state.scores())
        last = [self.encoder.encode(table.view(seat)) for seat in range(self.game.players)]
        nowhere = np.zeros(self.game.num_distinct_actions, np.int8)
        first = rows.count - len(seats)
        observations = rows.columns["observation"][first:]
        masks = rows.columns["legal_mask"][first:]
        for seat, later in zip(seats, _following(seats), strict=True):
            rows.add_final(
                **{"return": returns[seat]},
                returns=returns,
                scores=scores,
                reward=returns[seat] if later is None else 0.0,
                done=later is None,
                next_decision=later,
                next_observation=last[seat] if later is None else observations[later],
                next_legal_mask=nowhere if later is None else masks[later],
            )


def _following(seats: Sequence[int]) -> list[int | None]:
    """For each decision of a game, the index of the same seat's next one (``None``: none)."""
    following: list[int | None] = [None] * len(seats)
    upcoming: dict[int, int] = {}
    for decision in range(len(seats) - 1, -1, -1):
        following[decision] = upcoming.get(seats[decision])
        upcoming[seats[decision]] = decision
    return following


def write_dataset(
    game: Game,
    agents: Sequence[str],
    games: int,
    out: Path,
    seed: int = 0,
    progress: Callable[[int], None] | None = None,
) -> DatasetSummary:
    """Play ``games`` games of ``game`` and write them to ``out`` (see the module docstring).

    ``agents`` are catalogue strings: one for every seat, or one per seat; game ``g`` seats
    ``agents[(p + g) % n]`` in seat ``p`` when there are ``n == players`` of them.
    """
    players = game.players
    specs = list(agents) * players if len(agents) == 1 else list(agents)
    if len(specs) != players:
        raise OptionError(f"{players} players need 1 or {players} agents, not {len(agents)}")
    if games < 1:
        raise OptionError("a dataset needs at least one game")
    for spec in set(specs):
        make_agent(spec, game, 0)  # an unknown name or bad setting, before any game is played
    player = _Player(game, specs, seed)
    size, count = player.encoder.shape[0], game.num_distinct_actions
    arrow = schema(size, count, players)
    out.mkdir(parents=True, exist_ok=True)
    written = 0
    with pq.ParquetWriter(out / FILE, arrow) as writer:
        rows = _Rows()
        for index in range(games):
            player.play(index, rows)
            if rows.count >= ROW_GROUP or index == games - 1:
                writer.write_table(_table(rows, arrow, size, count))
                written += rows.count
                rows = _Rows()
            if progress is not None:
                progress(index + 1)
    meta = {
        "schema_version": SCHEMA_VERSION,
        "game": game.info.id,
        "players": players,
        "options": dict(game.options),
        "agents": specs,
        "seating": "game g seats agents[(p + g) % players] in seat p (0-based)",
        "games": games,
        "seed": seed,
        "rows": written,
        "observation_size": size,
        "num_actions": count,
        "observation_blocks": [
            {"name": b.name, "start": b.start, "size": b.size, "meaning": b.meaning}
            for b in player.encoder.layout.blocks
        ],
        "returns": "each seat's share of the win: 1 split among the winners",
    }
    (out / META).write_text(json.dumps(meta, indent=2, default=str) + "\n", encoding="utf-8")
    return DatasetSummary(out / FILE, games, written)


def _table(rows: _Rows, arrow: Any, size: int, count: int) -> Any:
    columns = rows.columns
    widths = {"observation": size, "legal_mask": count}
    widths |= {"next_observation": size, "next_legal_mask": count}
    arrays = {
        name: pa.FixedSizeListArray.from_arrays(
            pa.array(np.stack(columns[name]).reshape(-1)), width
        )
        for name, width in widths.items()
    }
    return pa.table(
        {
            field.name: arrays.get(field.name)
            if field.name in arrays
            else pa.array(columns[field.name], field.type)
            for field in arrow
        },
        schema=arrow,
    )
