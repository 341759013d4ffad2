"""OpenSpiel's search bots as spieltisch agents: the adapter that seats them in the arena.

:class:`OpenSpielAgent` plays a spieltisch game through its OpenSpiel game
(:mod:`spieltisch.rl.openspiel`) with one of OpenSpiel's own bots:

* ``ismcts``: OpenSpiel's information-set MCTS (``open_spiel.python.algorithms.ismcts``),
  which redraws the hidden part of the world at every simulation through the state's
  ``resample_from_infostate`` (the game's belief sampler); for games with hidden information;
* ``mcts``: OpenSpiel's MCTS (``open_spiel.python.algorithms.mcts``), searching one world
  drawn from the game's belief sampler at each decision (exact for a game with nothing
  hidden, a single determinization otherwise).

Like every agent it gets its seat's view and the legal actions, never the true state: the
world it searches is drawn from the view. Leaves are valued by random rollouts: OpenSpiel's
``RandomRolloutEvaluator`` over OpenSpiel states (``evaluator="openspiel"``), or the same
random rollouts played on the rules' own states (``evaluator="rules"``, the default: the same
values, several times faster, as no step crosses into OpenSpiel's C++ layer). OpenSpiel's C++
bots cannot be used: in open_spiel 2.0.2 they crash on every Python game.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import pyspiel  # type: ignore[import-not-found]
from open_spiel.python.algorithms import ismcts, mcts  # type: ignore[import-untyped]

from spieltisch.core.agent import Agent
from spieltisch.core.errors import OptionError
from spieltisch.core.game import Game, Move
from spieltisch.games import kit_of
from spieltisch.rl.openspiel import SpieltischGame, SpieltischState, openspiel_name

KINDS = ("ismcts", "mcts")
EVALUATORS = ("rules", "openspiel")
MAX_BUDGET = 3600.0
"""The longest time budget a decision may have, in seconds."""
PROBE = 8
"""Simulations of the first timed decision that measure how many a second the bot runs."""
MIN_SIMULATIONS = 4
"""The fewest simulations a timed decision runs, whatever the budget (OpenSpiel's ISMCTS
needs a visited root)."""


class RulesRolloutEvaluator(mcts.Evaluator):  # type: ignore[misc]
    """Random rollouts on the rules' own states: uniform priors, a leaf valued by its
    players' returns at the end of one random playout."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def evaluate(self, state: SpieltischState) -> npt.NDArray[np.float64]:
        """The returns at the end of a random playout from ``state``."""
        rules = state.rules_state
        rng = self.rng
        while not rules.is_terminal():
            if rules.is_chance():
                rules = rules.apply(rules.sample_chance(rng))
            else:
                legal = rules.legal_actions()
                rules = rules.apply(legal[rng.randrange(len(legal))])
        return np.array(rules.returns(), dtype=np.float64)

    def prior(self, state: SpieltischState) -> list[tuple[int, float]]:
        """Uniform over the legal actions (the chance outcomes at a chance node)."""
        if state.is_chance_node():
            outcomes: list[tuple[int, float]] = state.chance_outcomes()
            return outcomes
        legal = state.legal_actions()
        return [(action, 1.0 / len(legal)) for action in legal]


def _params(game: Game) -> dict[str, Any]:
    return {"players": game.players, **dict(game.options)}


class OpenSpielAgent(Agent[Any]):
    """An OpenSpiel bot in a spieltisch seat (see the module docstring)."""

    name = "openspiel"

    def __init__(
        self,
        game: Game,
        seed: int = 0,
        kind: str = "ismcts",
        simulations: int = 100,
        uct_c: float = 2.0,
        evaluator: str = "rules",
    ) -> None:
        super().__init__(game, seed)
        if kind not in KINDS:
            raise OptionError(f"kind must be one of {', '.join(KINDS)}, not {kind!r}")
        if evaluator not in EVALUATORS:
            raise OptionError(f"evaluator must be one of {', '.join(EVALUATORS)}")
        if kind == "ismcts" and not game.info.hidden_information:
            raise OptionError(f"{game.info.name} hides nothing: use OpenSpiel's mcts")
        belief = kit_of(game).belief
        if belief is None:
            raise OptionError(f"{game.info.name} has no belief sampler to draw worlds from")
        if not 1 <= simulations <= 1_000_000:
            raise OptionError("simulations must be from 1 to 1,000,000")
        self.kind = kind
        self.uct_c, self.evaluator = uct_c, evaluator
        self.belief = belief
        self.spiel: SpieltischGame = pyspiel.load_game(openspiel_name(game.info.id), _params(game))
        numpy_rng = np.random.RandomState(seed % 2**32)
        leaf: Any = (
            RulesRolloutEvaluator(seed)
            if evaluator == "rules"
            else mcts.RandomRolloutEvaluator(1, np.random.RandomState((seed + 1) % 2**32))
        )
        if kind == "ismcts":
            self.bot: Any = ismcts.ISMCTSBot(
                self.spiel,
                leaf,
                uct_c,
                simulations,
                random_state=numpy_rng,
                final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
            )
        else:
            self.bot = mcts.MCTSBot(self.spiel, uct_c, simulations, leaf, random_state=numpy_rng)
        self.label = f"openspiel-{kind}:{simulations}"
        """The agent as the arena names it."""
        self.budget: float | None = None
        """Seconds a decision may take (``None``: a fixed number of simulations)."""
        self._rate: float | None = None

    def configure(self, setting: str) -> None:
        """``openspiel-KIND:N`` asks for ``N`` simulations a decision, ``openspiel-KIND:2s``
        (or ``0.5s``) for a time budget: the bot then runs as many simulations as fit, from
        the rate it measured at the decisions before (the first starts with a short probe)."""
        text = setting.strip()
        if text.endswith("s") and len(text) <= 8:
            try:
                budget = float(text[:-1])
            except ValueError:
                budget = 0.0
            if 0.0 < budget <= MAX_BUDGET:
                self.budget = budget
                self.label = f"openspiel-{self.kind}:{text}"
                return
        if not (text.isascii() and text.isdigit() and len(text) <= 7):
            raise OptionError(
                "an OpenSpiel bot takes a number of simulations (200) or seconds a decision "
                f"(2s), not {setting!r}"
            )
        OpenSpielAgent.__init__(
            self, self.game, self.seed, self.kind, int(text), self.uct_c, self.evaluator
        )

    def _set_simulations(self, count: int) -> None:
        if self.kind == "ismcts":
            self.bot._max_simulations = count
        else:
            self.bot.max_simulations = count

    def _search(self, state: SpieltischState) -> int:
        """The bot's action: a fixed number of simulations, or as many as the budget allows."""
        if self.budget is None:
            return int(self.bot.step(state))
        budget = self.budget
        if self._rate is None:  # a short probe measures the rate
            start = time.perf_counter()
            self._set_simulations(PROBE)
            self.bot.step(state.clone())
            spent = time.perf_counter() - start
            self._rate = PROBE / max(spent, 1e-6)
            budget = max(0.0, budget - spent)
        count = max(MIN_SIMULATIONS, int(self._rate * budget))
        self._set_simulations(count)
        start = time.perf_counter()
        action = int(self.bot.step(state))
        spent = time.perf_counter() - start
        self._rate = 0.5 * self._rate + 0.5 * count / max(spent, 1e-6)
        return action

    def act(self, view: object, legal: Sequence[Move]) -> Move:
        """The bot's choice in a world drawn from ``view``."""
        if len(legal) == 1:
            return legal[0]
        world = self.belief.sample(self.game, view, self.rng)
        action = self._search(self.spiel.state_of(world))
        move = self.game.action_from_id(action)
        if move not in legal:  # the drawn world offers what this view allows: never seen
            raise OptionError(f"the OpenSpiel bot chose {move}, which is not legal here")
        return move


def ismcts_agent(game: Game, seed: int = 0) -> OpenSpielAgent:
    """OpenSpiel's ISMCTS bot, 100 simulations a decision (the catalogue's
    ``openspiel-ismcts``; ``openspiel-ismcts:2s`` for two seconds a decision)."""
    return OpenSpielAgent(game, seed, "ismcts")


def mcts_agent(game: Game, seed: int = 0) -> OpenSpielAgent:
    """OpenSpiel's MCTS bot, 100 simulations a decision (the catalogue's ``openspiel-mcts``)."""
    return OpenSpielAgent(game, seed, "mcts")
