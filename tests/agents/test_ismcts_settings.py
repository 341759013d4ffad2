"""ISMCTS strength settings are checked when given, and its hint says what its figures are."""

from __future__ import annotations

import re

import pytest

import spieltisch
from spieltisch.agents import make_agent
from spieltisch.agents.ismcts import MAX_ITERATIONS, MAX_SECONDS, IsmctsAgent
from spieltisch.core.errors import OptionError


@pytest.mark.parametrize(
    "setting",
    ["0", "0s", "-1", "-2s", "infs", "nans", "inf", "1e400s", f"{MAX_SECONDS + 1}s",
     str(MAX_ITERATIONS + 1), "9" * 5000, "fast", "s", ""],
)  # fmt: skip
def test_a_bad_budget_is_refused_at_once(setting: str) -> None:
    game = spieltisch.load("auf-die-eier", 2)
    with pytest.raises(OptionError) as error:
        make_agent(f"ismcts:{setting}", game).configure(setting)
    assert len(str(error.value)) < 200


@pytest.mark.parametrize(
    ("setting", "seconds", "iterations"), [("2s", 2.0, None), ("300", None, 300)]
)
def test_a_good_budget_is_taken(
    setting: str, seconds: float | None, iterations: int | None
) -> None:
    agent = make_agent(f"ismcts:{setting}", spieltisch.load("auf-die-eier", 2))
    assert isinstance(agent, IsmctsAgent)
    assert (agent.seconds, agent.iterations) == (seconds, iterations)


def test_the_hint_gives_every_figure_its_unit() -> None:
    game = spieltisch.load("auf-die-eier", 2)
    state = game.initial_state()
    while state.is_chance():
        state = state.apply(state.chance_outcomes()[0][0])
    agent = make_agent("ismcts:200", game, 1)
    said = agent.explain(state.view(state.current_player()), state.legal_actions())
    others = said.split("next: ")[1]
    assert re.search(r"wins \d+% of \d+", others), said
