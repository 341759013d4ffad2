"""The agents of the RL surface: OpenSpiel's bots through the adapter, and trained policies
read from numpy files; both play whole games from views and legal actions alone."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from spieltisch import agents, load
from spieltisch.agents import agent_names, make_agent
from spieltisch.cli import app
from spieltisch.core.errors import OptionError
from spieltisch.rl import pettingzoo as pz
from spieltisch.rl.encode import encoder_for
from spieltisch.rl.gymnasium import SpieltischGym
from spieltisch.rl.policy import Policy, PolicyAgent, save_policy
from spieltisch.session import Table, play_out

pytest.importorskip("pyspiel")

from spieltisch.rl.bots import OpenSpielAgent


@pytest.mark.parametrize(
    ("game_id", "kind"), [("awimbawe", "ismcts"), ("awimbawe", "mcts"), ("auf-die-eier", "mcts")]
)
def test_openspiel_bots_play_whole_games(game_id: str, kind: str) -> None:
    game = load(game_id)
    bot = OpenSpielAgent(game, seed=1, kind=kind, simulations=4)
    table = Table(game, seed=2)
    actions = play_out(table, [bot, make_agent("random", game, 3)])
    assert table.over
    assert actions > 0
    assert bot.label == f"openspiel-{kind}:4"


def test_openspiel_ismcts_is_for_hidden_information_only() -> None:
    with pytest.raises(OptionError, match="hides nothing"):
        OpenSpielAgent(load("auf-die-eier"), kind="ismcts")
    with pytest.raises(OptionError):
        OpenSpielAgent(load("awimbawe"), kind="alphazero")


def _random_policy(path: Path, game_id: str) -> Policy:
    rng = np.random.default_rng(0)
    size = encoder_for(game_id).shape[0]
    actions = load(game_id).num_distinct_actions
    layers = [
        (rng.normal(size=(16, size)).astype(np.float32), np.zeros(16, np.float32)),
        (rng.normal(size=(actions, 16)).astype(np.float32), np.zeros(actions, np.float32)),
    ]
    save_policy(path, game_id, layers, "random weights")
    return Policy(path)


def test_a_saved_policy_plays_legal_moves(tmp_path: Path) -> None:
    policy = _random_policy(tmp_path / "p.npz", "awimbawe")
    assert policy.note == "random weights"
    game = load("awimbawe")
    table = Table(game, seed=4)
    played = play_out(table, [PolicyAgent(game, 0, policy), make_agent("random", game, 1)])
    assert table.over
    assert played > 0


def test_a_policy_picks_its_highest_legal_logit(tmp_path: Path) -> None:
    policy = _random_policy(tmp_path / "p.npz", "awimbawe")
    game = load("awimbawe")
    table = Table(game, seed=4)
    table.advance_chance()
    seat = table.to_act()
    assert seat is not None
    view = table.view(seat)
    logits = policy.logits(encoder_for("awimbawe").encode(view))
    legal = table.legal()
    best = max(legal, key=lambda move: float(logits[game.action_id(move)]))
    assert PolicyAgent(game, 0, policy).act(view, legal) == best


def test_a_policy_for_another_game_is_refused(tmp_path: Path) -> None:
    policy = _random_policy(tmp_path / "p.npz", "awimbawe")
    with pytest.raises(OptionError, match="awimbawe"):
        PolicyAgent(load("auf-die-eier"), 0, policy)
    table = Table(load("awimbawe"), seed=1)
    table.advance_chance()
    unconfigured = PolicyAgent(table.game, 0, None)  # as make_agent builds it before its setting
    with pytest.raises(OptionError, match="needs its file"):
        unconfigured.act(table.view(table.to_act()), table.legal())
    with pytest.raises(OptionError, match="no policy file"):
        unconfigured.configure("/no/such/file.npz")


def test_importing_spieltisch_loads_no_rl_library() -> None:
    code = (
        "import sys, spieltisch, spieltisch.cli; "
        "heavy = {'numpy', 'pettingzoo', 'gymnasium', 'pyspiel', 'torch'} & set(sys.modules); "
        "print(sorted(heavy))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


POLICIES = Path(__file__).resolve().parents[2] / "spieltisch" / "rl" / "policies"


@pytest.mark.parametrize("game_id", ["awimbawe", "auf-die-eier"])
def test_the_shipped_policy_beats_random_more_often_than_not(game_id: str) -> None:
    game = load(game_id)
    policy = Policy(POLICIES / f"{game_id}.npz")
    wins = 0.0
    for deal in range(12):
        for seat in range(2):
            agents = [
                PolicyAgent(game, 0, policy) if p == seat else make_agent("random", game, deal)
                for p in range(2)
            ]
            table = Table(game, seed=deal)
            play_out(table, agents)
            wins += table.state.returns()[seat]
    assert wins > 12


def test_play_and_arena_seat_the_shipped_policy_by_its_file() -> None:
    policy = Path(__file__).parents[2] / "spieltisch" / "rl" / "policies" / "awimbawe.npz"
    runner = CliRunner()
    spec = f"policy:{policy}"
    rated = runner.invoke(
        app, ["arena", "awimbawe", "--agents", f"{spec},random", "--games", "4", "--json"]
    )
    assert rated.exit_code == 0, rated.output
    rows = json.loads(rated.stdout.strip().splitlines()[-1])["agents"]
    assert [r["agent"] for r in rows] == [spec, "random"] and rows[0]["seats_played"] == 4
    played = runner.invoke(app, ["play", "awimbawe", "--seats", f"{spec},random", "--seed", "3"])
    assert played.exit_code == 0 and "Final result" in played.output
    assert "policy" not in agent_names(load("awimbawe"))  # a file, not one of the game's levels
    missing = runner.invoke(app, ["arena", "awimbawe", "--agents", "policy:/no/such.npz,random"])
    assert missing.exit_code == 2 and "no policy file" in missing.output


SHIPPED = Path(__file__).parents[2] / "spieltisch" / "rl" / "policies" / "awimbawe.npz"


def test_the_catalogue_seats_a_policy_file_and_openspiel_bots_by_their_strings() -> None:
    """No ``register_agent``: the RL surface declares its agents as entry points, and every
    surface reads the same catalogue."""
    game = load("awimbawe")
    assert {"policy", "openspiel-ismcts", "openspiel-mcts"} <= set(agents.entry_point_agents())
    assert isinstance(make_agent(f"policy:{SHIPPED}", game, 1), PolicyAgent)
    bot = make_agent("openspiel-ismcts:0.05s", game, 1)
    assert isinstance(bot, OpenSpielAgent) and bot.budget == 0.05
    assert bot.label == "openspiel-ismcts:0.05s"
    fixed = make_agent("openspiel-mcts:7", game, 1)
    assert isinstance(fixed, OpenSpielAgent) and fixed.kind == "mcts" and fixed.budget is None
    for bad in ("openspiel-ismcts:many", "openspiel-ismcts:0s", "openspiel-ismcts:nans"):
        with pytest.raises(OptionError, match="seconds a decision"):
            make_agent(bad, game, 3)
    with pytest.raises(OptionError, match="policy:"):
        make_agent("nobody", game, 3)


def test_a_time_budgeted_openspiel_bot_plays_a_whole_game() -> None:
    game = load("awimbawe")
    bot = make_agent("openspiel-ismcts:0.02s", game, 1)
    table = Table(game, seed=4)
    play_out(table, [bot, make_agent("random", game, 2)])
    assert table.over
    assert isinstance(bot, OpenSpielAgent) and bot._rate is not None and bot._rate > 0


def test_a_missing_extra_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    class Missing:
        name = "ghost"

        def load(self) -> object:
            raise ModuleNotFoundError("No module named 'pyspiel'", name="pyspiel")

    monkeypatch.setattr(agents, "_declared", lambda: {"ghost": Missing()})
    monkeypatch.setattr(agents, "_LOADED", {})
    with pytest.raises(OptionError, match=r"spieltisch\[rl,openspiel\]"):
        make_agent("ghost", load("awimbawe"), 0)


def test_gymnasium_and_pettingzoo_take_the_same_strings() -> None:
    env = SpieltischGym("awimbawe", opponents=f"policy:{SHIPPED}")
    _, info = env.reset(seed=1)
    assert info["action_mask"].any()
    aec = pz.env("awimbawe")
    aec.reset(seed=2)
    seated = pz.seat_agents(aec, {"player_0": f"policy:{SHIPPED}", "player_1": "heuristic"})
    for agent in aec.agent_iter():
        _, _, termination, truncation, _ = aec.last()
        aec.step(None if termination or truncation else seated[agent]())
    assert sum(aec.unwrapped.match.rewards()) == pytest.approx(1.0)
