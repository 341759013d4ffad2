"""Auweier in the native core agrees with the Python engine, step by step.

The agreement walk runs on every player count and every option value and parameter bound;
its own test breaks one rule natively (``auweier:short_refill``) and expects the walk to
notice. Then Auweier's own cases: the rulebook's wedding-phase example replayed natively,
refused moves naming the Python game's rule, small shuffles listed order by order exactly as
Python lists them, and a Lucky Eggs shuffle too large to list.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from spieltisch import native
from spieltisch.core.errors import IllegalActionError, NotEnumerableError
from spieltisch.core.game import Move, State
from spieltisch.games.auweier import Arrange, Auweier, AuweierState, Card, Colour, ShuffleRest
from spieltisch.games.auweier.model import Award
from spieltisch.games.auweier.notation import DECK, cards_text, parse_cards, parse_move
from tests.native.agreement import (
    Config,
    DisagreementError,
    configs,
    require_native,
    walk,
)

require_native("auweier")

GAME = "auweier"
CONFIGS = configs(GAME)
STEPS = 1300
"""Steps per config: about 74,000 in all over the 57 configs."""


@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_native_agrees_with_python(config: Config) -> None:
    walked = walk(GAME, config, seed=4900 + CONFIGS.index(config), steps=STEPS)
    assert walked.games >= 1
    assert walked.refusals > 0


def test_the_agreement_walk_finds_a_broken_rule() -> None:
    with pytest.raises(DisagreementError):
        walk(GAME, CONFIGS[1], seed=1, steps=3000, mutation="auweier:short_refill")


def _deck(first: str) -> list[Move]:
    """Deck steps putting ``first`` on top of the deck, the other cards after them in
    notation order."""
    cards = list(parse_cards(first))
    left = list(DECK)
    for card in cards:
        left[card] -= 1
    cards += [Card(kind) for kind, count in enumerate(left) for _ in range(count)]
    return [Arrange((card,)) for card in cards]


def _moves(*texts: str) -> list[Move]:
    return [parse_move(text) for text in texts]


EXAMPLE_OPENING = [
    *_deck("6 1 H 2 3 3"),
    *_deck("2 3 H H 1 4"),
    *_deck("4 5* H 1 1 2"),
    *_moves("worm 6 R", "worm 2 G", "worm 4 B", "worm 1 R", "worm 3 R", "worm 5* G"),
]
"""Three decks arranged card by card, then six normal turns: Red leads before the red female,
Green is alone before the blue one and ahead of Blue before the green one."""


def test_rulebook_wedding_example_plays_out_natively() -> None:
    # The rulebook's three-player example: A opens where A leads, B joins there and adds a
    # second Wedding elsewhere, C weds where C alone has worms; nobody adds worms. A and C win
    # an egg; B none, and C, most worms before the green female but without a Wedding there,
    # wins nothing there and keeps those worms.
    game = native.load(GAME, 3)
    phase = _moves(
        "wedding R", "wedding R", "wedding B", "pass", "wedding G", "pass", "pass",
        "pass", "pass", "pass",
    )  # fmt: skip
    nat, python = game.from_moves([*EXAMPLE_OPENING, *phase])
    assert isinstance(python, AuweierState)
    assert tuple(nat.canonical()) == game.convert.canonical(python)
    assert python.nests.last is not None
    assert python.nests.last.awards == (Award(0, Colour.RED, 1), Award(2, Colour.BLUE, 1))
    assert python.seats[2].stacks[Colour.GREEN] == (Card.FIVE_STAR,)
    assert python.seats[1].stacks == ((), (), ())
    assert nat.scores() == [2, 0, 1] == list(python.scores())
    assert nat.current_player() == 0
    assert game.to_python(nat) == python


def test_an_opening_wedding_is_refused_with_the_python_rule() -> None:
    game = native.load(GAME, 3)
    nat, python = game.from_moves(EXAMPLE_OPENING)
    wedding_blue = game.python.action_id(parse_move("wedding B"))
    with pytest.raises(IllegalActionError) as expected:
        python.apply(parse_move("wedding B"))
    with pytest.raises(IllegalActionError) as got:
        nat.apply(wedding_blue)
    assert got.value.rule == expected.value.rule
    assert tuple(nat.canonical()) == game.convert.canonical(python)


FALSE_WORM_BACK = [
    *_moves(*["deck F", "deck 3", "deck K", "deck H"] * 2),
    *_moves("worm F R", "worm 3 B", "swap R#1 3", "worm F G"),
]
"""Two four-card decks, all in hand: Red's False Worm goes before the red female and comes
back to hand for a 3, Blue's goes before the green one; Red is to move."""


def test_the_false_worm_limit_in_normal_play_agrees() -> None:
    # With false_worm_limit=always Red's False Worm may not go back before the red female
    # until a mating; the mating starts the count afresh where each False Worm stays (Blue's
    # before the green female), and the native core refuses and resets alike.
    game = native.NativeGame(Auweier(2, deck_cards=4, hand_size=4, false_worm_limit="always"))
    nat, python = game.from_moves(FALSE_WORM_BACK)
    assert isinstance(python, AuweierState)
    assert [seat.roamed for seat in python.seats] == [0b001, 0b100]
    assert tuple(nat.canonical()) == game.convert.canonical(python)
    back = parse_move("worm F R")
    with pytest.raises(IllegalActionError) as expected:
        python.apply(back)
    with pytest.raises(IllegalActionError) as got:
        nat.apply(game.python.action_id(back))
    assert got.value.rule == expected.value.rule
    assert "between two matings" in got.value.rule
    phase = _moves("wedding R", "pass", "pass", "pass")
    nat, python = game.from_moves([*FALSE_WORM_BACK, *phase])
    assert isinstance(python, AuweierState)
    assert python.nests.last is not None
    assert [seat.roamed for seat in python.seats] == [0, 0b100]
    assert tuple(nat.canonical()) == game.convert.canonical(python)
    assert game.python.action_id(back) in nat.legal_actions()


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"lucky_eggs": True, "lucky_crows": "both_stages"},
        {"closed_nests": True, "crow_digs": True},
        {"deck_cards": 4, "false_worm_limit": "always", "hand_size": 3},
        {"deck_cards": 3, "lucky_eggs": True},
        {"deck_cards": 9, "false_worm_limit": "always", "exchange_cost": "draws"},
    ],
    ids=str,
)
def test_refused_actions_name_the_python_rule(options: dict[str, bool | str | int]) -> None:
    game = native.NativeGame(Auweier(3, **options))
    rng = random.Random(7)
    size = game.num_distinct_actions
    checked = 0
    for _ in range(60):  # six games of the full deck; more of a small one
        if checked > 500:
            break
        nat = game.initial_state()
        python = game.python.initial_state()
        while not python.is_terminal():
            if python.is_chance():
                move = python.sample_chance(rng)
                nat.apply_chance(game.convert.chance_code(python, move))
                python = python.apply(move)
                continue
            legal = set(nat.legal_actions())
            for action_id in rng.sample([a for a in range(size) if a not in legal], 4):
                with pytest.raises(IllegalActionError) as expected:
                    python.apply(game.python.action_from_id(action_id))
                with pytest.raises(IllegalActionError) as got:
                    nat.apply(action_id)
                assert got.value.rule == expected.value.rule, game.python.action_from_id(action_id)
                checked += 1
            action_id = rng.choice(sorted(legal))
            nat.apply(action_id)
            python = python.apply(game.python.action_from_id(action_id))
    assert checked > 500


@pytest.mark.parametrize(
    ("left", "spread", "orders"),
    [("F K K H H H", False, 60), ("7 F K K H H H", True, 144)],
    ids=["shuffle", "spread"],
)
def test_small_shuffles_are_listed_as_python_lists_them(
    left: str, spread: bool, orders: int
) -> None:
    # every card but ``left`` placed in notation order, then the rest shuffled: a plain
    # shuffle of 6 cards (6! / 2! / 3! orders), or a spread of 7 cards with 3 Weddings
    # (parts of 2, 2 and 3 cards: 2 * 2 * 3 places times 4! / 2! orders of the others)
    game = native.load(GAME, 2)
    rest = list(DECK)
    for card in parse_cards(left):
        rest[card] -= 1
    placed = [Arrange((Card(kind),)) for kind, count in enumerate(rest) for _ in range(count)]
    nat, python = game.from_moves([*placed, ShuffleRest(spread)])
    assert nat.is_chance() and python.is_chance()
    expected = [
        (game.convert.chance_code(python, move), Fraction(p))
        for move, p in python.chance_outcomes()
    ]
    got = [(tuple(code), Fraction(num, den)) for code, num, den in nat.exact_chance_outcomes()]
    assert len(got) == orders
    assert got == expected
    assert sum(p for _, p in got) == 1


def test_a_lucky_eggs_shuffle_is_too_large_to_list() -> None:
    game = native.load(GAME, 2, lucky_eggs=True)
    python = Auweier(2, lucky_eggs=True).initial_state()
    with pytest.raises(NotEnumerableError):
        python.chance_outcomes()
    with pytest.raises(NotEnumerableError):
        game.initial_state().exact_chance_outcomes()


def test_playouts_end_with_a_shared_win_of_one() -> None:
    game = native.load(GAME, 4)
    played = game.playouts(300, seed=3)
    assert played.returns.shape == (300, 4)
    assert abs(played.returns.sum(axis=1) - 1).max() < 1e-9
    assert played.steps.min() > 4 * 1


def _deck_in_one_line(state: State) -> str | None:
    """The deck steps the player to act would take one card at a time (always the first
    listed), typed as one line; None unless they place at least two cards."""
    cards: list[Card] = []
    probe = state
    while not probe.is_terminal() and probe.current_player() == state.current_player():
        steps = [a for a in probe.legal_actions() if isinstance(a, Arrange)]
        if not steps:
            break
        cards.extend(steps[0].cards)
        probe = probe.apply(steps[0])
    return f"deck {cards_text(tuple(cards))}" if len(cards) > 1 else None


def test_a_record_with_a_deck_typed_in_one_line_replays_natively() -> None:
    """A table's record keeps a deck placed in one line (``deck 7 6 5* ...``) as one move,
    which has no action id: the native replay places its cards one by one, to the same end."""
    game = native.load(GAME, 2)
    python = game.python.initial_state()
    moves: list[str] = []
    rng = random.Random(4)
    while not python.is_terminal():
        line = None if python.is_chance() else _deck_in_one_line(python)
        if python.is_chance():
            move: Move = python.sample_chance(rng)
        else:
            move = python.parse(line) if line else rng.choice(python.legal_actions())
        moves.append(str(move))
        python = python.apply(move)
    assert any(len(text.split()) > 2 for text in moves if text.startswith("deck"))
    state, replayed = game.from_moves(moves)
    assert replayed == python and state.is_terminal()
    assert state.returns() == list(python.returns())
