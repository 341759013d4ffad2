"""The lab's engine option without the native core: ``python`` is Python, ``auto`` falls back
where the core is missing, ``native`` is refused naming why, the experiment file takes the key
(checked by its schema), and a journal is resumed only by the engine that drew it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import spieltisch
from spieltisch.lab import arena
from spieltisch.lab import native as lab_native
from spieltisch.lab.engine import EngineError, play_task
from spieltisch.lab.experiment import ExperimentError, parse_experiment
from spieltisch.native import agents as native_agents
from spieltisch.native import build as native_build

STUDY = """
game = "auf-die-eier"
players = [2]
games = 4
seed = 1
agents = ["heuristic", "random"]
"""


def test_python_is_python_and_auto_falls_back_where_the_core_is_missing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    lineup = {"auf-die-eier": ["heuristic", "random"]}
    assert lab_native.resolve_engine("python", lineup) == "python"
    monkeypatch.setattr(native_build, "available", lambda: False)
    assert lab_native.resolve_engine("auto", lineup) == "python"
    with pytest.raises(EngineError, match="native engine cannot play this run: the native core"):
        lab_native.resolve_engine("native", lineup)
    with pytest.raises(EngineError, match="one of auto, native, python"):
        lab_native.resolve_engine("fast", lineup)
    assert lab_native.play_of("python") is play_task
    assert lab_native.engine_of(play_task) == "python"
    assert lab_native.engine_of(lab_native.play_native) == "native"


def test_an_agent_without_a_native_counterpart_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(native_build, "available", lambda: True)
    monkeypatch.setattr(native_agents, "supported", lambda: True)
    monkeypatch.setattr(native_build, "games", lambda: ("auf-die-eier",))
    monkeypatch.setattr(lab_native, "_seats", lambda game, names: None)  # the core seats them
    lineup = {"auf-die-eier": ["expert", "ismcts", "heuristic"]}
    assert lab_native.resolve_engine("auto", lineup) == "python"
    with pytest.raises(EngineError, match=r"ismcts has no native counterpart in auf-die-eier"):
        lab_native.resolve_engine("native", lineup)
    lineups = {"auf-die-eier": ["expert"], "awimbawe": ["ismcts", "mcts"]}
    with pytest.raises(EngineError, match="does not carry awimbawe"):
        lab_native.resolve_engine("native", lineups)
    assert lab_native.resolve_engine("native", {"auf-die-eier": ["expert"]}) == "native"


def test_the_experiment_file_takes_an_engine_checked_by_the_schema() -> None:
    assert parse_experiment(STUDY).engine == "auto"
    experiment = parse_experiment(STUDY + 'engine = "python"\n')
    assert experiment.engine == "python" and experiment.engine_used() == "python"
    assert experiment.engine_used("python") == "python"
    with pytest.raises(ExperimentError, match="engine"):
        parse_experiment(STUDY + 'engine = "rust"\n')


def _duel(games: int) -> list[arena.Task]:
    return arena.schedule(spieltisch.load("auf-die-eier", 2), ["heuristic", "random"], games, 3)


def test_a_journal_is_resumed_only_by_the_engine_that_drew_it(tmp_path: Path) -> None:
    journal = tmp_path / "run.jsonl"
    arena.run(_duel(2), journal=journal, engine="python")
    lines = [json.loads(line) for line in journal.read_text().splitlines()]
    assert [line["result"]["engine"] for line in lines] == ["python", "python"]
    assert len(arena.run(_duel(4), journal=journal, engine="python")) == 4  # the same engine
    for line in lines:
        line["result"]["engine"] = "native"
    journal.write_text("".join(json.dumps(line) + "\n" for line in lines))
    with pytest.raises(EngineError, match="drawn by the native engine; this run plays with the py"):
        arena.run(_duel(4), journal=journal, engine="python")
    for line in lines:
        del line["result"]["engine"]  # a journal from before games named their engine
    journal.write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert len(arena.run(_duel(4), journal=journal, engine="python")) == 4


def test_auto_falls_back_where_the_installed_core_cannot_seat_an_agent(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A build older than the Python side's list of native agents: auto plays in Python."""
    monkeypatch.setattr(native_build, "available", lambda: True)
    monkeypatch.setattr(native_agents, "supported", lambda: True)
    monkeypatch.setattr(native_build, "games", lambda: ("awimbawe",))
    why = "the installed native core cannot seat them (no heuristic here): rebuild it"
    monkeypatch.setattr(lab_native, "_seats", lambda game, names: why)
    lineup = {"awimbawe": ["heuristic", "random"]}
    assert lab_native.resolve_engine("auto", lineup) == "python"
    with pytest.raises(EngineError, match="cannot seat them"):
        lab_native.resolve_engine("native", lineup)
