"""Auf die Eier: the state and its transitions (see docs/rules/auf-die-eier.md).

A turn is: chance throws the dice; the player re-rolls some non-rotten dice or stops, at most
three throws in all; chance re-rolls the turn's Rotten Eggs once; the dice are scored. Rotten
Eggs are set aside as soon as they show. When a player reaches 100, the round is finished;
tied leaders each take one more turn, and a tie that remains is a shared win. The state
builds each player's view; the game lists the player actions by id. Pure: no I/O.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Sequence
from fractions import Fraction

from spieltisch.core.chance import Counts, Distribution, roll_distribution
from spieltisch.core.fast import LegalCache, value
from spieltisch.core.game import (
    ActionTable,
    Game,
    GameInfo,
    Move,
    NodeKind,
    PlayerId,
    illegal,
    not_a_move,
    options_of,
)
from spieltisch.core.words import N_
from spieltisch.games.auf_die_eier.model import (
    BREAKFAST_POINTS_PER_DIE,
    CHICKEN_POINTS,
    FRIED_POINTS,
    LADDER,
    MAX_ROLLS,
    MAX_SCORE,
    Config,
    Rule,
    Stage,
    TurnScore,
    max_score,
)
from spieltisch.games.auf_die_eier.notation import (
    FACES,
    NO_DICE,
    STOP,
    Action,
    Face,
    Reroll,
    Roll,
    Stop,
    action_table,
    parse_dice,
    parse_move,
    reroll_ids,
)
from spieltisch.games.auf_die_eier.view import EierView


def chicken_need(crossed: int) -> int | None:
    """How many Chickens score next on a ladder with ``crossed`` entries crossed off."""
    return LADDER[crossed] if crossed < len(LADDER) else None


def score_turn(player: PlayerId, dice: Counts, spoilers: int, need: int | None) -> TurnScore:
    """Score ``dice`` with ``spoilers`` re-rolled Rotten Eggs, needing ``need`` Chickens.

    Each spoiler ruins one combination, at most one each; the engine ruins the cheapest
    combinations first (Fried Eggs pairs, 5 each, before the Breakfast, 6 or more).
    """
    fried = min(dice[Face.CRACKED], dice[Face.PAN])
    whole = dice[Face.WHOLE]
    breakfast = BREAKFAST_POINTS_PER_DIE * (whole + 1) if whole and dice[Face.POT] else 0
    spoiled_fried = min(spoilers, fried)
    spoiled_breakfast = bool(breakfast) and spoilers > fried
    hens = dice[Face.CHICKEN]
    chickens = CHICKEN_POINTS * hens if hens and hens == need else 0
    points = FRIED_POINTS * (fried - spoiled_fried) + chickens
    points += 0 if spoiled_breakfast else breakfast
    return TurnScore(
        player, dice, spoilers, fried, breakfast, spoiled_fried, spoiled_breakfast, chickens, points
    )


@functools.cache
def rerolls_of(dice: Counts) -> tuple[Action, ...]:
    """``stop`` and every re-roll of a sub-multiset of the non-rotten ``dice``, in id order.

    The re-rolls are the action table's own values, shared by every list, so the lists of all
    2,002 sets of non-rotten dice a table can show take about 1.5 MiB, and every one is kept
    (lists of their own re-rolls, and a set of each, took 18 MiB). Kept without a bound: an
    ``lru_cache`` with one reorders its list at every hit, a tenth of a compiled playout."""
    choices = [range(n + 1) for n in dice]
    choices[Face.ROTTEN] = range(1)
    ids, rerolls = _reroll_index()
    subsets = sorted((c for c in itertools.product(*choices) if any(c)), key=ids.__getitem__)
    return (STOP, *(rerolls[c] for c in subsets))


@functools.cache
def _reroll_index() -> tuple[dict[Counts, int], dict[Counts, Reroll]]:
    """The action id and the action table's re-roll of every re-rollable set of dice."""
    ids = reroll_ids()
    return {r.dice: ids[r] for r in ids}, {r.dice: r for r in ids}


def is_legal_reroll(action: Reroll, dice: Counts) -> bool:
    """Whether ``action`` re-rolls some of the non-rotten ``dice`` (and no Rotten Egg): one
    of the action table's re-rolls (which hold no Rotten Egg), each face within what lies on
    the table."""
    if action not in _REROLL_IDS:
        return False
    p = action.dice
    return (
        p[0] <= dice[0] and p[1] <= dice[1] and p[3] <= dice[3] and p[4] <= dice[4]
        and p[5] <= dice[5]
    )  # fmt: skip


_REROLL_IDS = reroll_ids()


def _reroll_fault(picked: Counts, dice: Counts) -> Rule:
    """The rule an illegal re-roll of ``picked`` breaks when ``dice`` lie on the table."""
    if len(picked) != FACES or min(picked) < 0:
        return Rule.REROLL_OWN
    if picked[Face.ROTTEN]:
        return Rule.ROTTEN_STAY
    if not any(picked):
        return Rule.REROLL_SOME
    return Rule.REROLL_OWN


def _add(a: Counts, b: Counts) -> Counts:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3], a[4] + b[4], a[5] + b[5])


def without_rotten(dice: Counts) -> Counts:
    """``dice`` with its Rotten Eggs taken away."""
    return (dice[0], dice[1], 0, dice[3], dice[4], dice[5])


@functools.cache
def roll_table(dice: int) -> Distribution[Roll]:
    """The throw of ``dice`` dice as a chance event of :class:`Roll` outcomes (cached)."""
    counts = roll_distribution(dice, FACES)
    return Distribution([Roll(c) for c in counts.outcomes], counts.weights)


@functools.cache
def valid_rolls(dice: int) -> frozenset[Roll]:
    """Every outcome of throwing ``dice`` dice."""
    return frozenset(roll_table(dice).outcomes)


@value
class Sheet:
    """The score sheet: everything that changes only when a turn ends."""

    config: Config
    scores: tuple[int, ...]
    crossed: tuple[int, ...]
    """Entries crossed off each chicken ladder (one ladder when it is shared)."""
    final_round: bool
    """Someone has reached the goal: the game ends with this round."""
    tie_players: tuple[PlayerId, ...]
    """Tied leaders taking their one extra turn each, in seat order (empty in normal play)."""
    winners: frozenset[PlayerId]
    last: TurnScore | None
    """How the previous turn scored."""

    def chicken_need(self, player: PlayerId) -> int | None:
        """How many Chickens ``player`` must throw to score them now (``None``: ladder done)."""
        return chicken_need(self.crossed[self.ladder(player)])

    def ladder(self, player: PlayerId) -> int:
        """The index of ``player``'s chicken ladder."""
        return 0 if self.config.shared_chicken_ladder else player


@value
class EierState(LegalCache):
    """A position of Auf die Eier: the score sheet and the turn in progress.

    Build it with :meth:`AufDieEier.initial_state`.
    """

    sheet: Sheet
    player: PlayerId
    """Whose turn it is (the last player to move once the game is over)."""
    stage: Stage
    rolls: int
    """Throws made this turn."""
    dice: Counts
    """Dice lying on the table this turn (the thrown ones are not counted until they land)."""
    to_throw: int
    """Dice in the hand of whoever throws next (at a chance node)."""

    @property
    def game(self) -> AufDieEier:
        return AufDieEier.of(self.sheet.config)

    @property
    def config(self) -> Config:
        """Player count and options."""
        return self.sheet.config

    @property
    def last(self) -> TurnScore | None:
        """How the previous turn scored."""
        return self.sheet.last

    @property
    def final_round(self) -> bool:
        """True once someone has reached the goal."""
        return self.sheet.final_round

    @property
    def tie_players(self) -> tuple[PlayerId, ...]:
        """Tied leaders taking their extra turns (empty in normal play)."""
        return self.sheet.tie_players

    def chicken_need(self, player: PlayerId) -> int | None:
        """How many Chickens ``player`` must throw to score them now (``None``: ladder done)."""
        return self.sheet.chicken_need(player)

    @property
    def node(self) -> NodeKind:
        stage = self.stage
        if stage is Stage.DECIDE:
            return NodeKind.DECISION
        return NodeKind.TERMINAL if stage is Stage.OVER else NodeKind.CHANCE

    def is_terminal(self) -> bool:
        return self.stage is Stage.OVER

    def is_chance(self) -> bool:
        return self.stage is Stage.ROLL or self.stage is Stage.ROTTEN

    def current_player(self) -> PlayerId | None:
        return self.player if self.stage is Stage.DECIDE else None

    def work_out_legal(self) -> tuple[Action, ...]:
        return _legal_actions(self)

    def chance_outcomes(self) -> Sequence[tuple[Roll, Fraction]]:
        if not self.is_chance():
            return ()
        return roll_table(self.to_throw).items()

    def sample_chance(self, rng: random.Random) -> Roll:
        if not self.is_chance():
            raise illegal("roll", Rule.PLAYER_DECIDES.value)
        return roll_table(self.to_throw).sample(rng)

    def parse(self, text: str) -> Move:
        word, _, rest = text.strip().partition(" ")
        if word.lower() == "keep":
            return self._keep(text, parse_dice(rest, text))
        return parse_move(text)

    def _keep(self, text: str, kept: Counts) -> Reroll:
        """The re-roll of every non-rotten die on the table except ``kept`` (and Rotten Eggs)."""
        kept = without_rotten(kept)
        rest = tuple(n - k for n, k in zip(without_rotten(self.dice), kept, strict=True))
        if min(rest) < 0:
            raise illegal(text, Rule.REROLL_OWN.value, N_("those dice are not all on the table"))
        if not any(rest):
            raise illegal(text, Rule.REROLL_SOME.value, N_("keeping every die is 'stop'"))
        return Reroll(rest)

    def apply(self, move: Move) -> EierState:
        if isinstance(move, Roll):
            return self._apply_roll(move)
        if isinstance(move, Reroll | Stop):
            return self._apply_action(move)
        raise not_a_move(move, "Auf die Eier")

    def _apply_roll(self, roll: Roll) -> EierState:
        stage = self.stage
        if stage is not Stage.ROLL and stage is not Stage.ROTTEN:
            rule = Rule.GAME_OVER if stage is Stage.OVER else Rule.PLAYER_DECIDES
            raise illegal(roll, rule.value)
        if roll not in valid_rolls(self.to_throw):
            raise illegal(roll, Rule.ROLL_SIZE.value, f"{self.to_throw} dice were thrown")
        dice = roll.dice
        if stage is Stage.ROTTEN:
            scored = _add(without_rotten(self.dice), without_rotten(dice))
            return self._end_turn(scored, dice[Face.ROTTEN])
        on_table = _add(self.dice, dice)
        rolls = self.rolls + 1
        if rolls == MAX_ROLLS or on_table[Face.ROTTEN] == self.sheet.config.dice:
            return self._after_rolling(on_table, rolls)
        return EierState(self.sheet, self.player, Stage.DECIDE, rolls, on_table, 0)

    def _apply_action(self, action: Action) -> EierState:
        if self.stage is not Stage.DECIDE:
            rule = Rule.GAME_OVER if self.stage is Stage.OVER else Rule.DICE_FIRST
            raise illegal(action, rule.value)
        if isinstance(action, Stop):
            return self._after_rolling(self.dice, self.rolls)
        picked, dice = action.dice, self.dice
        if not is_legal_reroll(action, dice):
            raise illegal(action, _reroll_fault(picked, dice).value)
        left = (dice[0] - picked[0], dice[1] - picked[1], dice[2],
                dice[3] - picked[3], dice[4] - picked[4], dice[5] - picked[5])  # fmt: skip
        return EierState(self.sheet, self.player, Stage.ROLL, self.rolls, left, sum(picked))

    def _after_rolling(self, dice: Counts, rolls: int) -> EierState:
        """Rolling is over: re-roll the Rotten Eggs if there are any, else score."""
        rotten = dice[Face.ROTTEN]
        if rotten:
            return EierState(self.sheet, self.player, Stage.ROTTEN, rolls, dice, rotten)
        return self._end_turn(dice, 0)

    def _end_turn(self, dice: Counts, spoilers: int) -> EierState:
        """Score the turn, then pass the dice on or end the game."""
        need = self.sheet.chicken_need(self.player)
        return close_turn(self, score_turn(self.player, dice, spoilers, need))

    def scores(self) -> tuple[int, ...]:
        return self.sheet.scores

    def winners(self) -> frozenset[PlayerId]:
        return self.sheet.winners

    def view(self, player: PlayerId | None) -> EierView:
        """The view of this state for ``player`` (``None``: a spectator): here, all of it."""
        sheet = self.sheet
        players = sheet.config.players
        return EierView(
            viewer=player,
            config=sheet.config,
            goal=sheet.config.goal,
            scores=sheet.scores,
            crossed=sheet.crossed,
            chicken_need=tuple(sheet.chicken_need(p) for p in range(players)),
            player=self.player,
            stage=self.stage,
            rolls=self.rolls,
            rolls_left=MAX_ROLLS - self.rolls,
            dice=self.dice,
            to_throw=self.to_throw,
            rotten_thrower=(self.player - 1) % players,
            final_round=sheet.final_round,
            tie_players=sheet.tie_players,
            winners=sheet.winners,
            last=sheet.last,
        )


def close_turn(state: EierState, result: TurnScore) -> EierState:
    """``state`` once its mover's turn, scored ``result``, is on the sheet (its Chickens, if they
    scored, cross the ladder's entry off) and the dice are passed on or the game is over (the
    racer asks where each way a turn can end leads)."""
    sheet, player = state.sheet, state.player
    ladder = sheet.ladder(player)
    crossed = sheet.crossed
    if result.chickens:
        crossed = (*crossed[:ladder], crossed[ladder] + 1, *crossed[ladder + 1 :])
    old = sheet.scores
    scores = (*old[:player], old[player] + result.points, *old[player + 1 :])
    following, final_round, ties = _following(sheet, player, scores)
    if following is None:
        winners = frozenset(_leaders(scores, ties))
        sheet = Sheet(sheet.config, scores, crossed, True, sheet.tie_players, winners, result)
        return EierState(sheet, player, Stage.OVER, state.rolls, NO_DICE, 0)
    sheet = Sheet(sheet.config, scores, crossed, final_round, ties, frozenset(), result)
    return EierState(sheet, following, Stage.ROLL, 0, NO_DICE, sheet.config.dice)


def _legal_actions(state: EierState) -> tuple[Action, ...]:
    """The legal actions of ``state``: ``stop`` and the re-rolls at a decision, else none."""
    return rerolls_of(without_rotten(state.dice)) if state.stage is Stage.DECIDE else ()


def _following(
    sheet: Sheet, player: PlayerId, scores: tuple[int, ...]
) -> tuple[PlayerId | None, bool, tuple[PlayerId, ...]]:
    """Who plays after ``player``, whether this is the final round, and the tied players.

    When the game is over, the player is ``None`` and the tuple holds the players among whom
    the winners are found.
    """
    players, ties = sheet.config.players, sheet.tie_players
    if ties:
        index = ties.index(player) + 1
        return (ties[index] if index < len(ties) else None), True, ties
    final_round = sheet.final_round or scores[player] >= sheet.config.goal
    following = (player + 1) % players
    if not (final_round and following == 0):
        return following, final_round, ()
    leaders = _leaders(scores, range(players))
    return (leaders[0] if len(leaders) > 1 else None), True, leaders


def _leaders(scores: tuple[int, ...], among: Sequence[PlayerId]) -> tuple[PlayerId, ...]:
    """The players of ``among`` with the highest score, in seat order."""
    best = max(scores[p] for p in among)
    return tuple(p for p in among if scores[p] == best)


class AufDieEier(Game):
    """Auf die Eier: push-your-luck dice for 2-6 players, first to 100 points."""

    info = GameInfo(
        id="auf-die-eier",
        name="Auf die Eier",
        min_players=2,
        max_players=6,
        default_players=2,
        summary=N_("Push-your-luck dice: nine egg dice, three throws a turn, first to 100 points."),
        options=options_of(Config),
        has_chance=True,
        hidden_information=False,
        min_score=0,
        max_score=MAX_SCORE,
    )
    state_type = EierState
    config_type = Config

    def initial_state(self) -> EierState:
        ladders = 1 if self.config.shared_chicken_ladder else self.players
        sheet = Sheet(
            config=self.config,
            scores=(0,) * self.players,
            crossed=(0,) * ladders,
            final_round=False,
            tie_players=(),
            winners=frozenset(),
            last=None,
        )
        return EierState(
            sheet, player=0, stage=Stage.ROLL, rolls=0, dice=NO_DICE, to_throw=self.config.dice
        )

    def action_table(self) -> ActionTable[Action]:
        return action_table(self.config.dice)

    @property
    def score_bounds(self) -> tuple[int, int]:
        return (0, max_score(self.config.goal, self.config.dice))


def new_state(players: int = 2, **options: bool | int) -> EierState:
    """The initial state of a game with ``players`` players (a convenience for tests)."""
    return AufDieEier(players, **options).initial_state()
