"""The level ``learned``: the shipped policies seated by name (:mod:`spieltisch.rl.learned`).

The catalogue offers it only at the table a policy learned at, ranks it just above the level
it beats, and every surface seats it by that name; at that table it beats random clearly and
the level it is listed above, as ``docs/rl`` measured (against random 88.8% and 80.4%, against
the heuristics 57.3% and 59.1%)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

import spieltisch
from spieltisch.agents import agent_names, make_agent
from spieltisch.core.errors import OptionError
from spieltisch.lab import arena
from spieltisch.rl.learned import LEARNED, SHIPPED, LearnedAgent, offers, policy_path


@pytest.mark.parametrize("game_id", sorted(SHIPPED))
def test_a_shipped_policy_is_a_level_of_its_table_just_above_the_level_it_beats(
    game_id: str,
) -> None:
    game = spieltisch.load(game_id, SHIPPED[game_id].players)
    names = agent_names(game)
    assert LEARNED in names
    assert names[names.index(LEARNED) + 1] == SHIPPED[game_id].above
    agent = make_agent(LEARNED, game, 3)
    assert isinstance(agent, LearnedAgent) and agent.policy is not None
    assert agent.policy.game_id == game_id
    assert policy_path(game_id) is not None


@pytest.mark.parametrize(
    ("game_id", "players", "options"),
    [
        ("auf-die-eier", 3, {}),
        ("auf-die-eier", 2, {"goal": 50}),
        ("awimbawe", 2, {"rounds_to_win": 1}),
        ("auweier", 2, {}),
        ("auf-die-nuesse", 2, {}),
    ],
)
def test_it_is_offered_nowhere_else_and_refused_by_name_there(
    game_id: str, players: int, options: dict[str, int]
) -> None:
    game = spieltisch.load(game_id, players, **options)
    assert not offers(game)
    assert LEARNED not in agent_names(game)
    with pytest.raises(OptionError, match="learned"):
        make_agent(LEARNED, game)


def test_it_takes_no_setting() -> None:
    with pytest.raises(OptionError, match="no setting"):
        make_agent(f"{LEARNED}:2s", spieltisch.load("awimbawe"))


@pytest.mark.parametrize("game_id", sorted(SHIPPED))
def test_it_beats_random_in_the_arena(game_id: str) -> None:
    game = spieltisch.load(game_id, SHIPPED[game_id].players)
    tasks = arena.schedule(game, [LEARNED, "random"], 160, seed=7)
    results = arena.run(tasks)
    assert all(result.finished for result in results)
    share = sum(r.returns[r.seats.index(LEARNED)] for r in results) / len(results)
    assert share > 0.65


@pytest.mark.parametrize("game_id", sorted(SHIPPED))
def test_it_beats_the_level_it_is_listed_above(game_id: str) -> None:
    """The catalogue's place is a measured claim: over 400 games on shared deals (seats
    rotated) the policy wins more than half against the level just below it."""
    game = spieltisch.load(game_id, SHIPPED[game_id].players)
    below = SHIPPED[game_id].above
    results = arena.run(arena.schedule(game, [LEARNED, below], 400, seed=11))
    share = sum(r.returns[r.seats.index(LEARNED)] for r in results) / len(results)
    assert share > 0.5, (game_id, below, share)


def test_a_server_without_gymnasium_seats_it() -> None:
    """The web extra installs no gymnasium: the policy plays with numpy alone, and what does
    need gymnasium says which extra brings it."""
    script = textwrap.dedent(
        """
        import sys
        sys.modules["gymnasium"] = None  # as if it were not installed
        import spieltisch
        from spieltisch.agents import agent_names, make_agent
        game = spieltisch.load("awimbawe")
        assert "learned" in agent_names(game)
        make_agent("learned", game)
        try:
            from spieltisch.rl import GYM_IDS
        except ModuleNotFoundError as error:
            print(error)
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=120
    )
    assert 'pip install "spieltisch[rl]"' in done.stdout
