"""What the server sends one connection: built from that viewer's view and events only.

Hidden information goes through one door, the per-player view: every piece of a message for a
viewer (the view, the events with their sentences, the legal moves with their labels) comes
from that viewer's views and the moves as :meth:`~spieltisch.core.game.State.seen_move` lets
them see them, never from the true state. Only once the game is over do scores and winners
come from the final state, which everyone may see then.

A live table numbers its events in public steps (:class:`~spieltisch.session.Steps`): a seat's
private run (arranging an Auweier deck, however it is done) is one event and one version for
everyone, told to the others only once it is over; while it runs, the others' view stays at
its start. A replay of a finished game steps through every move (:func:`events_for`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from spieltisch.core.codec import JSON, to_jsonable
from spieltisch.core.game import Game, Hidden, Move, PlayerId, State
from spieltisch.core.words import Words
from spieltisch.locale import SOURCE
from spieltisch.session import Steps, Table
from spieltisch.web.common.words import worded


def event_item(
    words: Words[Any], before: object, after: object, seen: Move | Hidden,
    names: Sequence[str], version: int, actor: PlayerId | None,
) -> dict[str, JSON]:  # fmt: skip
    """One event as a viewer may read it, from their views before and after it: the move as
    they saw it, its sentence, and a sentence on what it brought about (or ``None``)."""
    who = words._("chance") if actor is None else names[actor]
    return {
        "version": version,
        "actor": actor,
        "text": str(seen),
        "hidden": isinstance(seen, Hidden),
        "sentence": words.event(before, seen, names, who),
        "outcome": words.aftermath(before, after, names),
    }


def events_for(
    table: Table,
    words: Words[Any],
    viewer: PlayerId | None,
    since: int,
    current: object | None = None,
    until: int | None = None,
) -> list[JSON]:
    """Every event after version ``since`` (up to ``until``), as ``viewer`` saw it
    (``current``: the viewer's view now, if the caller has built it already)."""
    items: list[JSON] = []
    after = None
    for version, before_state, move, after_state in table.walk(since, until):
        before = after if after is not None else before_state.view(viewer)
        now = after_state is table.state and current is not None
        after = current if now else after_state.view(viewer)
        seen = before_state.seen_move(move, viewer)
        actor = before_state.current_player()
        items.append(event_item(words, before, after, seen, table.seats, version, actor))
    return items


def step_events(
    table: Table,
    words: Words[Any],
    viewer: PlayerId | None,
    steps: Steps,
    since: int,
    until: int | None = None,
) -> list[JSON]:
    """Every public step after ``since`` (up to ``until``) as one event each, as ``viewer``
    saw it: a private run is one event, its moves spelled out for its own seat only."""
    last = steps.public if until is None else min(until, steps.public)
    items: list[JSON] = []
    group: list[tuple[State, Move, State]] = []
    step = since + 1
    for version, before, move, after in table.walk(steps.version_at(since), steps.version_at(last)):
        group.append((before, move, after))
        if version == steps.ends[step]:
            items.append(_step_item(words, group, viewer, table.seats, step))
            group = []
            step += 1
    return items


def _step_item(
    words: Words[Any], group: list[tuple[State, Move, State]], viewer: PlayerId | None,
    names: Sequence[str], step: int,
) -> dict[str, JSON]:  # fmt: skip
    first_before, first_move, _ = group[0]
    actor = first_before.current_player()
    before, after = first_before.view(viewer), group[-1][2].view(viewer)
    if len(group) == 1 or viewer != actor:
        return event_item(
            words, before, after, first_before.seen_move(first_move, viewer), names, step, actor
        )
    # the run's own seat: each of its moves, as it saw them, in one event
    who = names[actor] if actor is not None else words._("chance")
    seen = [b.seen_move(m, viewer) for b, m, _ in group]
    sentences = [
        words.event(b.view(viewer), s, names, who) for (b, _, _), s in zip(group, seen, strict=True)
    ]
    return {
        "version": step,
        "actor": actor,
        "text": "; ".join(str(s) for s in seen),
        "hidden": False,
        "sentence": " ".join(s for s in sentences if s),
        "outcome": words.aftermath(before, after, names),
    }


def public_state(table: Table, steps: Steps, viewer: PlayerId | None) -> State:
    """The true state behind what ``viewer`` is shown now: the current one, unless another
    seat's private run is under way (then the state at its start)."""
    if steps.owner is None or steps.owner == viewer:
        return table.state
    return table.state_at(steps.version_at(steps.public))


def legal_items(game: Game, words: Words[Any], view: object, legal: Sequence[Move]) -> list[JSON]:
    """The legal moves of the viewer to act: id, notation and label in the game's words."""
    return [
        {"id": game.action_id(move), "text": str(move), "label": words.move_label(view, move)}
        for move in legal
    ]


def update_message(
    table_id: str,
    status: str,
    table: Table,
    words: Words[Any],
    viewer: PlayerId | None,
    since: int,
    steps: Steps,
) -> dict[str, JSON]:
    """The message that brings ``viewer`` from public step ``since`` to the table's."""
    state = public_state(table, steps, viewer)
    view = state.view(viewer)
    to_act = None if table.conceded_out else state.current_player()
    legal = (
        legal_items(table.game, words, view, table.legal())
        if viewer is not None and to_act == viewer and status == "playing"
        else []
    )
    names: list[JSON] = list(table.seats)
    message: dict[str, JSON] = {
        "type": "update",
        "table": table_id,
        "version": steps.public,
        "status": status,
        "seat": viewer,
        "names": names,
        "to_act": to_act,
        "events": step_events(table, words, viewer, steps, since),
        "view": to_jsonable(view),
        "legal": legal,
    }
    if table.over:
        message["result"] = result_item(table, words, view)
    return message


def result_item(table: Table, words: Words[Any], view: object) -> dict[str, JSON]:
    """A finished game's scores and winners, and why it ended, in the game's words (``view``:
    the viewer's view of the final state)."""
    scores: list[JSON] = list(table.state.scores())
    winners: list[JSON] = [*sorted(table.winners())]
    conceded: list[JSON] = [seat for seat, _ in table.conceded]
    names = table.seats
    why: str | None
    if table.conceded_out:
        why = words._("Everyone else conceded: {winner} wins.").format(
            winner=words.names_list([names[seat] for seat in sorted(table.winners())])
        )
    else:
        why = words.ending(view, names)
    return {"scores": scores, "winners": winners, "conceded": conceded, "why": why}


def rejected_message(reason: str, version: int) -> dict[str, JSON]:
    """A refused move: the engine's reason and the table's version now."""
    return {"type": "rejected", "reason": reason, "version": version}


def error_message(reason: str, language: str = SOURCE) -> dict[str, JSON]:
    """A message that could not be read or was not allowed: its ``reason`` (a msgid of the
    catalog) said in ``language`` (a reason already said is passed with the default)."""
    return {"type": "error", "reason": worded(reason, language)}
