"""The generated parts of the RL pages (``docs/rl/<game>.md``): observation and action ids.

Each page has hand-written prose and two generated sections, between ``<!-- generated -->``
and ``<!-- end generated -->``: the observation table written from the encoder's layout, and
the action-id table written from the game's action table (one row per run of actions of the
same kind, the full list being pinned in ``tests/architecture/action_ids``). A test checks the
pages against this module; ``python -m spieltisch.rl.pages`` rewrites the generated sections.
"""

from __future__ import annotations

import sys
from pathlib import Path

from spieltisch import load
from spieltisch.rl.encode import encoder_for

BEGIN = "<!-- generated -->"
END = "<!-- end generated -->"
FULL_LIST = 64
"""Tables of at most this many actions are listed id by id."""
PAGES = Path(__file__).resolve().parents[2] / "docs" / "rl"


def _kind(text: str) -> str:
    return text.split(" ", 1)[0]


def action_table(game_id: str) -> str:
    """The game's action ids as a Markdown table, runs of the same kind on one row."""
    game = load(game_id)
    actions = [str(action) for action in game.action_table().actions]
    lines = [
        f"{len(actions)} action ids, the same for every player count and option.",
        "",
        "| ids | actions |",
        "|---|---|",
    ]
    if len(actions) <= FULL_LIST:
        lines.extend(f"| {i} | `{a}` |" for i, a in enumerate(actions))
        return "\n".join(lines)
    start = 0
    while start < len(actions):
        stop = start
        while stop + 1 < len(actions) and _kind(actions[stop + 1]) == _kind(actions[start]):
            stop += 1
        if stop == start:
            lines.append(f"| {start} | `{actions[start]}` |")
        elif stop - start < 4:
            shown = ", ".join(f"`{a}`" for a in actions[start : stop + 1])
            lines.append(f"| {start}-{stop} | {shown} |")
        else:
            lines.append(
                f"| {start}-{stop} | `{actions[start]}`, `{actions[start + 1]}`, ... "
                f"`{actions[stop]}` ({stop - start + 1}) |"
            )
        start = stop + 1
    return "\n".join(lines)


def generated(game_id: str) -> str:
    """The generated section of the game's page."""
    encoder = encoder_for(game_id)
    return "\n".join(
        [
            BEGIN,
            "## Observation",
            "",
            encoder.describe(),
            "",
            "## Action ids",
            "",
            action_table(game_id),
            END,
        ]
    )


def page_path(game_id: str) -> Path:
    """Where the game's RL page lives."""
    return PAGES / f"{game_id}.md"


def rewrite(game_id: str) -> bool:
    """Put the generated section into the game's page; True if the page changed."""
    path = page_path(game_id)
    text = path.read_text(encoding="utf-8")
    head, _, rest = text.partition(BEGIN)
    _, _, tail = rest.partition(END)
    new = head + generated(game_id) + tail
    if new == text:
        return False
    path.write_text(new, encoding="utf-8")
    return True


def main(game_ids: list[str]) -> int:
    """Rewrite the pages of ``game_ids`` and say which changed."""
    for game_id in game_ids:
        if rewrite(game_id):
            print(f"rewrote {page_path(game_id)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or ["auf-die-eier", "auf-die-nuesse", "auweier", "awimbawe"]))
