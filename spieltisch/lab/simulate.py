"""Simulate many games between agents and summarise who wins, by how much, and how long.

Game ``i`` of a run with seed ``s`` uses chance seed ``derive_seed(s, "game", i)`` and fresh
agents seeded from it, so a run is reproducible and any one game of it can be replayed alone.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from spieltisch.core.game import Game
from spieltisch.core.record import Record
from spieltisch.lab.play import derive_seed, play_game, seat_agents

Progress = Callable[[int], None]
"""Called with the number of games finished so far."""


@dataclass(slots=True)
class Summary:
    """Totals of a simulation run, per seat."""

    game: str
    players: int
    agents: tuple[str, ...]
    seed: int
    games: int = 0
    wins: list[float] = field(default_factory=list)
    score_totals: list[int] = field(default_factory=list)
    actions: int = 0
    moves: int = 0
    unfinished: int = 0

    def add(
        self, scores: Sequence[int], returns: Sequence[float], actions: int, moves: int
    ) -> None:
        """Count one finished game."""
        if not self.wins:
            self.wins = [0.0] * self.players
            self.score_totals = [0] * self.players
        self.games += 1
        for seat in range(self.players):
            self.wins[seat] += returns[seat]
            self.score_totals[seat] += scores[seat]
        self.actions += actions
        self.moves += moves

    def to_json(self) -> dict[str, object]:
        """The summary as the JSON object ``spieltisch simulate --json`` prints."""
        games = max(self.games, 1)
        return {
            "game": self.game,
            "players": self.players,
            "agents": list(self.agents),
            "seed": self.seed,
            "games": self.games,
            "wins": [round(w, 6) for w in self.wins],
            "win_rates": [round(w / games, 6) for w in self.wins],
            "mean_scores": [round(s / games, 4) for s in self.score_totals],
            "mean_actions": round(self.actions / games, 4),
            "mean_moves": round(self.moves / games, 4),
            "unfinished": self.unfinished,
        }


def simulate(
    game: Game,
    agents: Sequence[str],
    games: int,
    seed: int,
    *,
    on_record: Callable[[int, Record], None] | None = None,
    progress: Progress | None = None,
) -> Summary:
    """Play ``games`` games of ``game`` with the named agents in seat order."""
    summary = Summary(game.info.id, game.players, tuple(agents), seed)
    for index in range(games):
        game_seed = derive_seed(seed, "game", index)
        played = play_game(game, seat_agents(game, agents, game_seed), game_seed, seats=agents)
        if played.state.is_terminal():
            summary.add(
                played.state.scores(),
                played.state.returns(),
                played.actions,
                len(played.record.moves),
            )
        else:
            summary.unfinished += 1
        if on_record is not None:
            on_record(index, played.record)
        if progress is not None:
            progress(index + 1)
    return summary
