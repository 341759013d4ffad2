"""Perfect recall of the OpenSpiel information states, counted over random games.

A seat's *own history* is what it saw, in order: its view after every move of the game
(chance included) and its own actions. Perfect recall asks that no two different own
histories share an information state. :func:`count` plays random games through pyspiel and,
at every decision, files the deciding seat's information state (string, and tensor) under
its own history, counting the information states found under two different histories
(*collisions*: must be none), and, for comparison, the same for the observation (the seat's
current view, what the information state was before it had perfect recall).

    python -m tests.rl.recall [--games 200]    # the counts for every game, as a table
"""

from __future__ import annotations

import argparse
import hashlib
import random
from dataclasses import dataclass, field

import numpy as np
import pyspiel  # type: ignore[import-not-found]

from spieltisch.rl import openspiel
from spieltisch.rl.text import compact


@dataclass
class Counts:
    """What :func:`count` found."""

    games: int = 0
    decisions: int = 0
    infostates: int = 0
    collisions: int = 0
    """Information-state strings found under two different own histories."""
    tensor_collisions: int = 0
    """Information-state tensors found under two different own histories."""
    view_collisions: int = 0
    """Observation strings (the current view) found under two different own histories."""
    seen: dict[str, dict[bytes, bytes]] = field(default_factory=dict)


def _digest(text: bytes) -> bytes:
    return hashlib.blake2b(text, digest_size=16).digest()


def _file(table: dict[bytes, bytes], key: bytes, history: bytes) -> bool:
    """File ``key`` under ``history``; True when it was filed under another history."""
    known = table.setdefault(key, history)
    return known != history


def count(name: str, games: int, seed: int = 0) -> Counts:
    """Play ``games`` random games of the OpenSpiel game ``name`` and count (see above)."""
    game = pyspiel.load_game(name)
    players = game.num_players()
    rng = random.Random(seed)
    counts = Counts()
    strings: dict[bytes, bytes] = {}
    tensors: dict[bytes, bytes] = {}
    views: dict[bytes, bytes] = {}
    for _ in range(games):
        state = game.new_initial_state()
        own = [_digest(b"start")] * players
        moves = 0
        while not state.is_terminal():
            if state.is_chance_node():
                actions, chances = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, chances)[0])
            else:
                player = state.current_player()
                history = own[player]
                counts.decisions += 1
                info = state.information_state_string(player).encode()
                tensor = np.asarray(state.information_state_tensor(player), np.float32).tobytes()
                view = state.observation_string(player).encode()
                counts.collisions += _file(strings, _digest(info), history)
                counts.tensor_collisions += _file(tensors, _digest(tensor), history)
                counts.view_collisions += _file(views, _digest(view), history)
                action = rng.choice(state.legal_actions())
                own[player] = _digest(history + b"action %d" % action)
                state.apply_action(action)
            events = state._pos.events  # a whole move was applied: every seat looks again
            if events is not None and id(events) != moves:
                moves = id(events)
                rules = state.rules_state
                for seat in range(players):
                    seen = compact(rules.view(seat)).encode()
                    own[seat] = _digest(own[seat] + b"view " + seen)
        counts.games += 1
    counts.infostates = len(strings)
    return counts


CASES = (
    "spieltisch_auf_die_eier",
    "spieltisch_auf_die_nuesse",
    "spieltisch_auweier(players=2)",
    "spieltisch_auweier(players=4)",
    "spieltisch_awimbawe",
)


def main() -> None:
    """Print the counts of every case as a Markdown table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    assert openspiel.GAME_CLASSES  # registered
    print(
        "| game | games | decisions | information states | collisions (string / tensor) "
        "| collisions of the current view |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    for name in CASES:
        c = count(name, args.games)
        print(
            f"| {name} | {c.games} | {c.decisions:,} | {c.infostates:,} | "
            f"{c.collisions} / {c.tensor_collisions} | {c.view_collisions} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
