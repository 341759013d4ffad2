"""A metric of one's own, worked through: how often the winner of an Awimbawé match lost its
first round (a comeback), for ``docs/lab/comeback-awimbawe.toml``.

A plug-in is a plain Python file. Each function decorated with ``metric`` is a metric: it is
handed every traced game (``TracedGame``: the record of its moves, its rounds' results in
order, each decision's chances to win) and returns a number, or ``None`` when the game says
nothing about it. The lab averages it per cell with an interval, and compares the cells.
"""

from __future__ import annotations

from spieltisch.lab.plugins import TracedGame, metric


@metric(
    "comeback",
    "comeback rate",
    rate=True,
    formula="1 when the match's winner lost its first round, else 0 (no value for a "
    "one-round match)",
)
def comeback(game: TracedGame) -> float | None:
    """Whether the winner came back from losing the first round."""
    if len(game.rounds) < 2 or len(game.winners) != 1:
        return None  # a match decided in one round has nothing to come back from
    return float(game.rounds[0]["winner"] not in game.winners)


@metric(
    "first-round-decides",
    "first round's winner takes the match",
    rate=True,
    formula="1 when the first round's winner wins the match, else 0",
)
def first_round_decides(game: TracedGame) -> float | None:
    """Whether the first round's winner won the match (one round to win: always)."""
    if not game.rounds or len(game.winners) != 1:
        return None
    return float(game.rounds[0]["winner"] in game.winners)
