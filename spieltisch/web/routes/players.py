"""A player's page and the leaderboards: their games, record and ratings, and the bot ladder.

``GET /api/players/{name}`` answers a player's profile: ratings per game and player count
(one number on the bot ladder's scale, the skill measured, with the games behind it, the
ladder's levels just below and above it by their names, and how sure it is in words; the
cautious figure, mu - 3 sigma, that the leaderboards rank by beside it), games played and
won, the finished games with a replay from their seat, and (to themselves only) the tables
they sit at now, their turn first. A profile is shown to others only when its player chose
to be listed; nothing of an unfinished game is in it but its table, game, seat and whose
turn it is - never a view, a card or a move.
``GET /api/ratings/{game}/{players}`` answers the leaderboard (listed players with at least
:data:`~spieltisch.web.people.profile.MIN_GAMES` rated games) and the bot ladder beside it.
``GET /api/account/export`` hands a signed-in person the records of their finished games as
one JSON file.
"""

from __future__ import annotations

import asyncio
import json
import math
from collections.abc import Sequence
from dataclasses import replace
from typing import Annotated, Any

from fastapi import FastAPI, HTTPException, Request, Response
from fastapi import Path as FastPath

from spieltisch.agents.ladder import Rung, load_ladder
from spieltisch.core.words import N_
from spieltisch.games import REGISTRY
from spieltisch.web.people.profile import (
    MIN_GAMES,
    Played,
    Player,
    board,
    find_account,
    finished_records,
    history,
    keep_outcome,
    ratings_of,
    replayed_outcome,
    seat_names,
    stored_record,
)
from spieltisch.web.routes.seat_api import hub_of
from spieltisch.web.routes.signed import current_account, signed_in


def players_api(app: FastAPI) -> None:
    """Register the routes."""

    @app.get("/api/players/{name}")
    async def player(request: Request, name: str) -> dict[str, Any]:
        hub = hub_of(request)
        viewer = await current_account(request)
        found: Player | None = await hub.read(find_account, hub.reader, name[:64])
        if found is None or not (found.listed or (viewer is not None and viewer.id == found.id)):
            raise HTTPException(404, "no such player (or they keep their profile to themselves)")
        own = viewer is not None and viewer.id == found.id
        return await _profile(request, found, own)

    @app.get("/api/ratings")
    async def ladders() -> dict[str, Any]:
        ladder = load_ladder()
        return {
            "games": [
                {"game": game_id, "game_name": _name(game_id), "players": sorted(counts)}
                for game_id, counts in sorted(ladder.tables.items())
            ]
        }

    @app.get("/api/ratings/{game}/{players}")
    async def leaderboard(
        request: Request, game: str, players: Annotated[int, FastPath(ge=1, le=8)]
    ) -> dict[str, Any]:
        if game not in REGISTRY.implemented():
            raise HTTPException(404, "no such game")
        hub = hub_of(request)
        rows = await hub.read(board, hub.reader, game, players)
        return {
            "game": game,
            "game_name": _name(game),
            "players": players,
            "min_games": MIN_GAMES,
            "leaderboard": rows,
            "ladder": [_rung_json(n.rung, n.name) for n in load_ladder().named(game, players)],
        }

    @app.get("/api/account/export")
    async def export(request: Request) -> Response:
        account = await signed_in(request)
        hub = hub_of(request)
        records = await hub.read(finished_records, hub.reader, account.id)
        body = json.dumps({"account": account.name, "games": records}, ensure_ascii=False)
        return Response(
            body,
            media_type="application/json",
            headers={"Content-Disposition": 'attachment; filename="spieltisch-games.json"'},
        )


def _name(game_id: str) -> str:
    return REGISTRY.game_class(game_id).info.name


def _rung_json(rung: Rung, name: str) -> dict[str, Any]:
    return {
        "level": rung.level, "name": name, "mu": round(rung.mu, 1), "sigma": round(rung.sigma, 2),
        "low": round(rung.low, 1), "high": round(rung.high, 1), "games": rung.games,
    }  # fmt: skip


async def _profile(request: Request, account: Player, own: bool) -> dict[str, Any]:
    hub = hub_of(request)
    played: list[Played] = await hub.read(history, hub.reader, account.id)
    missing = [p for p in played if p.status == "finished" and p.outcome is None]
    if missing:  # finished before outcomes were kept: worked out once, then kept
        played = await _fill_outcomes(request, played)
    names = await hub.read(seat_names, hub.reader, [p.table for p in played])
    ratings = await hub.read(ratings_of, hub.reader, account.id)
    finished = [p for p in played if p.status == "finished" and p.outcome is not None]
    answer: dict[str, Any] = {
        "name": account.name,
        "self": own,
        "listed": account.listed,
        "ratings": [_rating_json(*r) for r in ratings],
        "record": _record(finished),
        "finished": [_finished_json(p, names.get(p.table, {})) for p in finished],
        "unfinished": [],
    }
    if own:
        answer["unfinished"] = await _unfinished(request, played)
    return answer


CERTAINTY = (
    (3.5, N_("well measured")),
    (6.0, N_("still settling")),
    (math.inf, N_("a first guess")),
)
"""How sure a rating is, in words, by its uncertainty (sigma; a new player starts at 8.3)."""


def certainty(sigma: float) -> str:
    """How sure a rating with uncertainty ``sigma`` is, as a msgid of :data:`CERTAINTY`."""
    return next(words for bound, words in CERTAINTY if sigma <= bound)


def _rating_json(game: str, players: int, mu: float, sigma: float, games: int) -> dict[str, Any]:
    """A rating as a person reads it: one number on the bot ladder's own scale (the skill
    measured, ``mu``), placed between the ladder's levels by their names, and how sure it is
    in words; the cautious figure the leaderboards rank by beside it."""
    ladder = load_ladder()
    lower, upper = ladder.between(game, players, mu)  # the estimate, as the bots are placed

    def named(level: str | None) -> str | None:
        return None if level is None else ladder.name_of(game, players, level)

    return {
        "game": game, "game_name": _name(game), "players": players, "rating": round(mu, 1),
        "cautious": round(mu - 3 * sigma, 1), "mu": round(mu, 2), "sigma": round(sigma, 2),
        "games": games, "between": [named(lower), named(upper)],
        "between_levels": [lower, upper], "certainty": certainty(sigma),
    }  # fmt: skip


def _record(finished: Sequence[Played]) -> list[dict[str, Any]]:
    tally: dict[tuple[str, int], list[int]] = {}
    for p in finished:
        counts = tally.setdefault((p.game, p.players), [0, 0])
        counts[0] += 1
        counts[1] += p.outcome is not None and p.seat in p.outcome.winners
    return [
        {"game": g, "game_name": _name(g), "players": n, "played": c[0], "won": c[1]}
        for (g, n), c in sorted(tally.items())
    ]


def _finished_json(p: Played, names: dict[int, str]) -> dict[str, Any]:
    return {
        "table": p.table, "game": p.game, "game_name": _name(p.game), "players": p.players,
        "seat": p.seat, "won": p.outcome is not None and p.seat in p.outcome.winners,
        "place": None if p.outcome is None else p.outcome.ranks[p.seat],
        "rated": p.rated, "finished_at": p.finished_at,
        "replay": f"/replay/{p.table}?seat={p.seat}",
        "opponents": [name for seat, name in sorted(names.items()) if seat != p.seat],
    }  # fmt: skip


async def _unfinished(request: Request, played: Sequence[Played]) -> list[dict[str, Any]]:
    """The tables a person sits at now, their turn first (who is to move is public)."""
    hub = hub_of(request)
    rows = []
    for p in played:
        if p.status not in ("open", "playing"):
            continue
        live = await hub.get(p.table)
        if live is None:
            continue
        turn = live.status == "playing" and live.table.to_act() == p.seat
        rows.append(
            {
                "table": p.table,
                "game": p.game,
                "game_name": _name(p.game),
                "players": p.players,
                "seat": p.seat,
                "your_turn": turn,
                "status": live.status,
                "link": f"/t/{p.table}",
            }
        )
    rows.sort(key=lambda row: not row["your_turn"])
    return rows


async def _fill_outcomes(request: Request, played: list[Played]) -> list[Played]:
    hub = hub_of(request)
    filled = []
    for p in played:
        outcome = p.outcome
        if p.status == "finished" and outcome is None:
            text = await hub.read(stored_record, hub.reader, p.table)
            outcome = None if text is None else await asyncio.to_thread(replayed_outcome, text)
            if outcome is not None:
                await hub.write(keep_outcome, hub.engine, p.table, outcome)
        filled.append(replace(p, outcome=outcome))
    return filled
