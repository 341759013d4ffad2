"""Exploitability on a game small enough to walk: OpenSpiel's CFR and best responses measure
spieltisch's agents (issue 53, item 7).

OpenSpiel's tabular machinery (``TabularPolicy``, ``exploitability``, CFR) visits every state
of a game. On a spieltisch game registered with OpenSpiel (:mod:`spieltisch.rl.openspiel`)
each step crosses from C++ into the Python rules, so the Python CFR takes some 15 seconds an
iteration on Awimbawé with one land (``lands=1``, about 50,000 nodes). :func:`walk` therefore
walks the registered game **once** and writes it down as OpenSpiel's own extensive-form game
(``pyspiel.load_efg_game``): the same tree (every chance outcome with its probability, every
decision with the registered game's action ids, in the same order; each information set
numbered, and matched to the registered game's information-state string; the same returns,
constant-sum 1). OpenSpiel's C++ CFR and best response then run on it in a fraction of a
second, and its Python CFR at about a second an iteration (the returns are written as they
are, not shifted to zero-sum, so that CFR's float arithmetic, where a regret is exactly zero
or not, is the registered game's).

A spieltisch agent becomes a policy of that game (:func:`agent_policy`) as the arena would
seat it: at every information set of its seat it is given the seat's view and the legal
moves, never the state. A fresh agent seeded from the information state's string decides
each set, so a search (``ismcts:300``) is a fixed deterministic policy; ``heuristic`` is the
game's own rules of thumb. ``exploitability`` is OpenSpiel's: the mean over the seats of what
a best response gains against the policy, here in shares of the win (0 for a Nash
equilibrium; NashConv is twice it with two seats).

Run ``python -m spieltisch.rl.tabular`` for the table in ``docs/rl/README.md``.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import partial
from typing import Any

import pyspiel  # type: ignore[import-not-found]
from open_spiel.python.algorithms import cfr as python_cfr_module  # type: ignore[import-untyped]

from spieltisch.agents import make_agent
from spieltisch.rl.openspiel import SpieltischGame, SpieltischState

SMALL_GAMES = {
    "awimbawe": "spieltisch_awimbawe(lands=1,rounds_to_win=1,native=False)",
    "auweier": "spieltisch_auweier(players=2,deck_cards=3,hand_size=3,native=False)",
}
"""The registered game each small variant is measured on: Awimbawé with one land (six cards,
one pile and one hand card each; the single hyena loses) decided in a single round; Auweier
for two with decks of three cards (a Wedding, a 3 and a Crow), all of them in hand."""


@dataclass
class InfoSet:
    """One information set of the walked game: whose it is, the registered game's
    information-state string, its legal action ids, and one state in it (every state of the
    set gives its player the same view and the same legal actions)."""

    player: int
    key: str
    actions: list[int]
    state: SpieltischState
    efg_key: str = ""
    """The extensive-form game's information-state string of this set."""
    efg_actions: list[int] = field(default_factory=list)
    """The extensive-form game's action ids of ``actions``, in the same order."""


@dataclass
class Tree:
    """A registered game walked once, as OpenSpiel's extensive-form game."""

    game: SpieltischGame
    efg: Any
    """The ``pyspiel`` extensive-form game with the same tree."""
    infosets: list[InfoSet]
    counts: dict[str, int] = field(default_factory=dict)
    """Chance, decision and terminal nodes walked."""

    def by_efg_key(self) -> dict[str, InfoSet]:
        """The information sets by their extensive-form game's string."""
        return {infoset.efg_key: infoset for infoset in self.infosets}


def _probability(chance: float) -> str:
    """A chance probability as the extensive-form text takes it (an exact fraction: every
    chance step of the spieltisch games is one of a few equally likely outcomes)."""
    exact = Fraction(chance).limit_denominator(10_000)
    return f"{exact.numerator}/{exact.denominator}"


def walk(game: SpieltischGame, root: SpieltischState | None = None) -> Tree:
    """Walk ``game`` (from ``root``, by default its initial state) and build the same tree as
    an extensive-form game; raises ``ValueError`` if the two trees do not match."""
    start = game.new_initial_state() if root is None else root
    lines: list[str] = []
    infosets: list[InfoSet] = []
    index: dict[str, int] = {}
    ordinal: dict[int, int] = {}  # the extensive form numbers each seat's sets from 1
    per_player = [0, 0]
    counts = {"chance": 0, "decision": 0, "terminal": 0}

    def visit(state: SpieltischState, depth: int) -> None:
        pad = " " * depth
        if state.is_terminal():
            counts["terminal"] += 1
            payoffs = " ".join(f"{r:.17g}" for r in state.returns())
            lines.append(f'{pad}t "" {counts["terminal"]} "" {{ {payoffs} }}')
            return
        if state.is_chance_node():
            counts["chance"] += 1
            outcomes = state.chance_outcomes()
            listed = " ".join(f'"{a}" {_probability(p)}' for a, p in outcomes)
            lines.append(f'{pad}c "" {counts["chance"]} "" {{ {listed} }} 0')
            for action, _ in outcomes:
                visit(state.child(action), depth + 1)
            return
        counts["decision"] += 1
        player = state.current_player()
        key = state.information_state_string(player)
        actions = state.legal_actions(player)
        number = index.get(key)
        if number is None:
            number = index[key] = len(infosets)
            infosets.append(InfoSet(player, key, actions, state))
            ordinal[number] = per_player[player] = per_player[player] + 1
        elif infosets[number].actions != actions:
            raise ValueError(f"an information set with two sets of legal actions: {key!r}")
        names = " ".join(f'"{a}"' for a in actions)
        lines.append(f'{pad}p "" {player + 1} {ordinal[number]} "i{number}" {{ {names} }} 0')
        for action in actions:
            visit(state.child(action), depth + 1)

    visit(start, 0)
    header = f'EFG 2 R "{game.get_type().short_name}" {{ "seat 0" "seat 1" }} ""'
    efg = pyspiel.load_efg_game("\n".join([header, "", *lines, ""]))
    tree = Tree(game, efg, infosets, counts)
    _match(tree, start)
    return tree


def _match(tree: Tree, start: SpieltischState) -> None:
    """Walk the extensive-form game beside the registered one: the same nodes, actions and
    chances; note each information set's string there."""
    found: dict[int, str] = {}
    by_key = {infoset.key: number for number, infoset in enumerate(tree.infosets)}

    def visit(ours: SpieltischState, theirs: Any) -> None:
        if ours.is_terminal() or theirs.is_terminal():
            if not (ours.is_terminal() and theirs.is_terminal()):
                raise ValueError("the written game ends where the walked one does not")
            return
        if ours.is_chance_node():
            outcomes = ours.chance_outcomes()
            written = theirs.chance_outcomes()
            if len(written) != len(outcomes) or any(
                not math.isclose(p, q, rel_tol=1e-9)
                for (_, p), (_, q) in zip(outcomes, written, strict=True)
            ):
                raise ValueError("the written game's chances differ")
            for (action, _), (efg_action, _) in zip(outcomes, written, strict=True):
                visit(ours.child(action), theirs.child(efg_action))
            return
        player = ours.current_player()
        if theirs.current_player() != player:
            raise ValueError("the written game has another player to act")
        number = by_key[ours.information_state_string(player)]
        key = theirs.information_state_string(player)
        if found.setdefault(number, key) != key:
            raise ValueError("an information set written as two")
        efg_actions = theirs.legal_actions(player)
        names = [theirs.action_to_string(player, a) for a in efg_actions]
        actions = ours.legal_actions(player)
        if names != [str(a) for a in actions]:
            raise ValueError("the written game has other actions")
        tree.infosets[number].efg_actions = efg_actions
        for action, efg_action in zip(actions, efg_actions, strict=True):
            visit(ours.child(action), theirs.child(efg_action))

    visit(start, tree.efg.new_initial_state())
    if len(set(found.values())) != len(found):
        raise ValueError("two information sets written as one")
    for number, key in found.items():
        tree.infosets[number].efg_key = key


Table = dict[str, list[tuple[int, float]]]
"""A policy as ``pyspiel.TabularPolicy`` takes it: per information-state string of the
written game, each of its action ids and their probabilities."""


def uniform_policy(tree: Tree) -> Table:
    """Every legal action equally likely."""
    return {i.efg_key: [(a, 1.0 / len(i.actions)) for a in i.efg_actions] for i in tree.infosets}


def _seed(key: str, seed: int) -> int:
    digest = hashlib.blake2b(f"{seed}\n{key}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 2


def agent_policy(tree: Tree, spec: str, seed: int = 0) -> Table:
    """The agent ``spec`` (``heuristic``, ``ismcts:300``, ...) as a fixed policy: at each
    information set a fresh agent, seeded from ``seed`` and the set's string, is given the
    seat's view and the legal moves and plays one of them, with probability 1."""
    rules = tree.game.rules
    table: Table = {}
    for infoset in tree.infosets:
        state = infoset.state.rules_state
        legal = [rules.action_from_id(action) for action in infoset.actions]
        agent = make_agent(spec, rules, _seed(infoset.key, seed))
        move = agent.act(state.view(infoset.player), legal)
        chosen = legal.index(move)
        table[infoset.efg_key] = [
            (action, float(slot == chosen)) for slot, action in enumerate(infoset.efg_actions)
        ]
    return table


def exploitability(tree: Tree, table: Table) -> float:
    """OpenSpiel's exploitability of a policy of ``tree`` (shares of the win)."""
    return float(pyspiel.exploitability(tree.efg, pyspiel.TabularPolicy(table)))


def cfr(tree: Tree, checkpoints: Sequence[int]) -> list[tuple[int, float, float]]:
    """OpenSpiel's CFR on ``tree``: at each number of iterations in ``checkpoints``, the
    exploitability of the average policy and the seconds spent so far."""
    solver = pyspiel.CFRSolver(tree.efg)
    return _iterate(tree, solver, checkpoints, solver.average_policy, 0.0)


def python_cfr(tree: Tree, checkpoints: Sequence[int]) -> list[tuple[int, float, float]]:
    """:func:`cfr` with OpenSpiel's Python CFR (``open_spiel.python.algorithms.cfr``) on the
    written game: the same iterates as on the registered game (two iterations on the one-land
    game: NashConv 0.32209 on both), at about a second an iteration after a minute or two to
    list the information sets."""
    start = time.perf_counter()
    solver = python_cfr_module.CFRSolver(tree.efg)

    def average() -> Any:
        return pyspiel.TabularPolicy(solver.average_policy().to_dict())

    return _iterate(tree, solver, checkpoints, average, time.perf_counter() - start)


def _iterate(
    tree: Tree,
    solver: Any,
    checkpoints: Sequence[int],
    average: Callable[[], Any],
    spent: float,
) -> list[tuple[int, float, float]]:
    """Run ``solver`` to each of ``checkpoints``: the iterations, the exploitability of its
    ``average`` policy there, and the seconds spent so far (``spent`` before the first)."""
    done, found = 0, []
    for target in sorted(checkpoints):
        start = time.perf_counter()
        for _ in range(target - done):
            solver.evaluate_and_update_policy()
        spent += time.perf_counter() - start
        done = target
        found.append((target, float(pyspiel.exploitability(tree.efg, average())), spent))
    return found


def _main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="awimbawe", choices=sorted(SMALL_GAMES))
    parser.add_argument("--agents", nargs="*", default=["heuristic", "ismcts:30", "ismcts:300"])
    parser.add_argument("--cfr", nargs="*", type=int, default=[10, 100, 1000])
    parser.add_argument("--python-cfr", nargs="*", type=int, default=[])
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    game = pyspiel.load_game(SMALL_GAMES[args.game])
    tree = walk(game)
    walked = time.perf_counter() - start
    sets = [sum(i.player == p for i in tree.infosets) for p in range(2)]
    print(f"{SMALL_GAMES[args.game]}: {tree.counts}, information sets {sets}, {walked:.1f}s")
    print("| policy | exploitability | seconds |")
    print("|---|---:|---:|")
    rows: list[tuple[str, Callable[[], Table]]] = [
        ("uniform random", partial(uniform_policy, tree))
    ]
    rows += [(spec, partial(agent_policy, tree, spec, args.seed)) for spec in args.agents]
    for name, build in rows:
        start = time.perf_counter()
        value = exploitability(tree, build())
        print(f"| {name} | {value:.4f} | {time.perf_counter() - start:.1f} |", flush=True)
    for iterations, value, seconds in cfr(tree, args.cfr):
        print(f"| CFR, {iterations} iterations | {value:.4f} | {seconds:.1f} |", flush=True)
    for iterations, value, seconds in python_cfr(tree, args.python_cfr):
        print(f"| Python CFR, {iterations} iterations | {value:.4f} | {seconds:.1f} |", flush=True)


if __name__ == "__main__":
    _main()
