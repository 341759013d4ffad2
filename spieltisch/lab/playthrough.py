"""Readable playthroughs: a seeded random game written move by move, for golden files.

For every step the text shows who acts, the legal actions (or the number of chance outcomes),
what each player sees (one spectator view when nothing is hidden) and the move made. A view is
written in full once, then only the entries that changed since that viewer's previous view,
which keeps files small and their diffs readable. A golden file is such a text; tests
regenerate it and compare line by line, and ``scripts/regen_golden.py`` rewrites the files
after an intended rule change.
"""

from __future__ import annotations

import json

from spieltisch.agents import RandomAgent
from spieltisch.core.codec import JSON, to_jsonable
from spieltisch.core.errors import NotEnumerableError
from spieltisch.core.game import Game, State
from spieltisch.lab.engine import derive_seed
from spieltisch.session import Table

Seen = dict[int | None, dict[str, JSON]]
"""The last view written for each viewer."""


def _view_lines(state: State, seen: Seen) -> list[str]:
    game = state.game
    viewers: list[int | None] = (
        list(range(game.players)) if game.info.hidden_information else [None]
    )
    lines = []
    for viewer in viewers:
        data = to_jsonable(state.view(viewer))
        if not isinstance(data, dict):
            raise TypeError(f"a view is a dataclass, not {type(data).__name__}")
        before = seen.get(viewer)
        changed = data if before is None else {k: v for k, v in data.items() if before.get(k) != v}
        seen[viewer] = data
        name = "all" if viewer is None else str(viewer)
        if before is None:
            lines.append(f"  view {name}: {_json(changed)}")
        elif changed:
            lines.append(f"  view {name} changes: {_json(changed)}")
    return lines


def _json(data: JSON) -> str:
    return json.dumps(data, ensure_ascii=False, sort_keys=True)


def _choices_line(state: State) -> str:
    player = state.current_player()
    if player is None:
        try:
            count = str(len(state.chance_outcomes()))
        except NotEnumerableError:
            count = "too many to list"
        return f"  chance: {count} outcomes"
    legal = state.legal_actions()
    return f"  player {player}: {len(legal)} legal: " + " | ".join(str(a) for a in legal)


def playthrough(game: Game, seed: int) -> str:
    """A random game of ``game`` from ``seed``, written out step by step."""
    options = json.dumps(dict(game.options), sort_keys=True)
    lines = [
        f"game: {game.info.id}",
        f"players: {game.players}",
        f"options: {options}",
        f"seed: {seed}",
    ]
    table = Table(game, seed=seed)
    chooser = RandomAgent(game, derive_seed(seed, "actions"))
    seen: Seen = {}
    while not table.over:
        state = table.state
        lines.append(f"step {table.version}")
        lines.append(_choices_line(state))
        lines.extend(_view_lines(state, seen))
        if state.is_chance():
            event = table.advance_chance()
        else:
            event = table.play(chooser.act(None, table.legal()))
        lines.append(f"  move: {event.move}")
    state = table.state
    lines.append("end")
    lines.extend(_view_lines(state, {}))
    lines.append(f"  scores: {list(state.scores())}")
    lines.append(f"  winners: {sorted(state.winners())}")
    return "\n".join(lines) + "\n"
