"""Game records: a whole game as JSON, and the replay that re-validates every move.

A record names the game, the player count, the options, optionally the seed it was played
with and who sat in each seat, and lists every move in canonical text, chance outcomes
included; chance outcomes that were dictated rather than drawn from the seed (a test's dice)
are listed by index, so that a table rebuilt from the record draws on exactly where it was.
A record of an online table also lists who conceded, and when (seat and version).
Replaying parses and applies each move in turn, so an illegal or malformed move is found and
reported with its index. Pure: reading and writing files is the caller's business.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from spieltisch.core.codec import JSON, JSONObject
from spieltisch.core.errors import RecordError, SpieltischError
from spieltisch.core.fair import FairDice
from spieltisch.core.game import Game, OptionValue, State

FORMAT_VERSION = 1
"""The record format written by this version; :meth:`Record.from_json` reads only this one."""


@dataclass(frozen=True, slots=True)
class Record:
    """A game as played: enough to replay it move by move."""

    game: str
    players: int
    options: Mapping[str, OptionValue]
    moves: tuple[str, ...]
    seed: int | None = None
    seats: tuple[str, ...] = field(default=())
    dictated: tuple[int, ...] = field(default=())
    """Indices of the chance moves that were dictated, not drawn from ``seed``."""
    fair: FairDice | None = None
    """The proof that ``seed`` was fixed before play (a record of an online table)."""
    conceded: tuple[tuple[int, int], ...] = field(default=())
    """Each concession as (seat, version): the seat gave up once ``version`` moves were made."""

    def to_json(self) -> JSONObject:
        """The record as JSON data, starting with the format version."""
        data: JSONObject = {
            "format": FORMAT_VERSION,
            "game": self.game,
            "players": self.players,
            "options": dict(self.options),
            "seed": self.seed,
        }
        if self.seats:
            data["seats"] = list(self.seats)
        if self.dictated:
            data["dictated"] = list(self.dictated)
        if self.fair is not None:
            data["fair"] = self.fair.to_json()  # type: ignore[assignment]
        if self.conceded:
            data["conceded"] = [[seat, version] for seat, version in self.conceded]
        data["moves"] = list(self.moves)
        return data

    def dumps(self) -> str:
        """The record as JSON text, one move per line so that diffs stay readable."""
        head = {k: v for k, v in self.to_json().items() if k != "moves"}
        lines = json.dumps(head, ensure_ascii=False)[:-1]
        moves = ",\n".join("    " + json.dumps(m, ensure_ascii=False) for m in self.moves)
        body = f'"moves": [\n{moves}\n  ]' if self.moves else '"moves": []'
        return lines + ",\n  " + body + "\n}\n"

    @classmethod
    def from_json(cls, data: JSON) -> Record:
        """Read a record from JSON data; :class:`RecordError` if it is malformed."""
        if not isinstance(data, dict):
            raise RecordError("a record is a JSON object")
        if data.get("format") != FORMAT_VERSION:
            raise RecordError(f"unsupported record format {data.get('format')!r}")
        game, players = data.get("game"), data.get("players")
        options, moves = data.get("options", {}), data.get("moves")
        seed, seats = data.get("seed"), data.get("seats", [])
        dictated = data.get("dictated", [])
        if not isinstance(game, str):
            raise RecordError("the record names no game")
        if isinstance(players, bool) or not isinstance(players, int):
            raise RecordError("the record gives no player count")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise RecordError("seed must be a whole number or null")
        count = len(moves) if isinstance(moves, list) else 0
        indices = [i for i in dictated if type(i) is int] if isinstance(dictated, list) else []
        if not isinstance(dictated, list) or len(indices) != len(dictated):
            raise RecordError("dictated must list indices of the record's moves")
        if any(not 0 <= i < count for i in indices):
            raise RecordError("dictated must list indices of the record's moves")
        return cls(
            game=game,
            players=players,
            options=option_values(options),
            moves=_texts(moves, "moves"),
            seed=seed,
            seats=_texts(seats, "seats"),
            dictated=tuple(sorted(set(indices))),
            fair=None if data.get("fair") is None else FairDice.from_json(data.get("fair")),
            conceded=_concessions(data.get("conceded", []), players, count),
        )

    @classmethod
    def loads(cls, text: str) -> Record:
        """Read a record from JSON text; :class:`RecordError` if it is malformed."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise RecordError(f"not JSON: {error}") from None
        except RecursionError:
            raise RecordError("not a record: its JSON is nested too deeply") from None
        return cls.from_json(data)


def option_values(data: JSON) -> dict[str, OptionValue]:
    """Option values read from JSON; :class:`RecordError` unless each is a bool, int or text."""
    if not isinstance(data, dict):
        raise RecordError("options must be a JSON object")
    values: dict[str, OptionValue] = {}
    for name, value in data.items():
        if not isinstance(value, bool | int | str):
            raise RecordError(f"option {name} must be true/false, a number or text")
        values[name] = value
    return values


def _concessions(data: JSON, players: int, moves: int) -> tuple[tuple[int, int], ...]:
    """The record's concessions, each a seat of the game at a version of the record."""
    problem = RecordError("conceded must list [seat, version] pairs of the record")
    if not isinstance(data, list):
        raise problem
    found: list[tuple[int, int]] = []
    for item in data:
        if not isinstance(item, list) or len(item) != 2:
            raise problem
        seat, version = item
        if type(seat) is not int or type(version) is not int:
            raise problem
        if not (0 <= seat < players and 0 <= version <= moves):
            raise problem
        found.append((seat, version))
    if len({seat for seat, _ in found}) != len(found):
        raise RecordError("a seat concedes at most once")
    return tuple(sorted(found, key=lambda pair: (pair[1], pair[0])))


def _texts(data: JSON, what: str) -> tuple[str, ...]:
    if not isinstance(data, list):
        raise RecordError(f"{what} must be a list of texts")
    texts = []
    for item in data:
        if not isinstance(item, str):
            raise RecordError(f"{what} must be a list of texts")
        texts.append(item)
    return tuple(texts)


def replay_states(game: Game, moves: tuple[str, ...]) -> Iterator[State]:
    """Yield the initial state and the state after each move, re-validating every move.

    Raises :class:`RecordError` with the move's index when a move cannot be read or is illegal.
    """
    state = game.initial_state()
    yield state
    for index, text in enumerate(moves):
        if state.is_terminal():
            raise RecordError(f"{text!r} comes after the end of the game", index)
        try:
            state = state.apply(state.parse(text))
        except SpieltischError as error:
            raise RecordError(str(error), index) from None
        yield state


def replay(game: Game, record: Record) -> State:
    """The final state of ``record`` played in ``game``; :class:`RecordError` on a bad move."""
    if record.game != game.info.id or record.players != game.players:
        raise RecordError(f"the record is for {record.game} with {record.players} players")
    *_, final = replay_states(game, record.moves)
    return final
