"""The shared conformance suite, run on every implemented game and player count."""

from __future__ import annotations

import re

import pytest

import spieltisch
from spieltisch.cli import rules_text
from spieltisch.core.errors import OptionError
from spieltisch.core.game import OptionValue
from spieltisch.games import REGISTRY
from tests.conformance.checks import check_playouts
from tests.conformance.holdings import STEP_CHECKS

PLAYOUTS = 6


def _cases() -> list[tuple[str, int]]:
    cases = []
    for game_id in REGISTRY.implemented():
        info = REGISTRY.game_class(game_id).info
        cases += [(game_id, n) for n in range(info.min_players, info.max_players + 1)]
    return cases


@pytest.mark.parametrize(("game_id", "players"), _cases())
def test_random_playouts_keep_every_invariant(game_id: str, players: int) -> None:
    game = spieltisch.load(game_id, players)
    stats = check_playouts(game, range(PLAYOUTS))
    assert stats.games == PLAYOUTS
    assert stats.decisions > 0
    if game.info.has_chance:
        assert stats.chance_nodes > 0
    if game.info.hidden_information:
        assert stats.hidden_differences > 0, "hidden information was never redealt"


@pytest.mark.parametrize("game_id", REGISTRY.implemented())
def test_every_game_has_a_step_check_for_its_hands_and_draws(game_id: str) -> None:
    assert game_id in STEP_CHECKS, f"{game_id}: write its step check in holdings.py"


@pytest.mark.parametrize("game_id", REGISTRY.implemented())
def test_metadata_is_consistent(game_id: str) -> None:
    info = REGISTRY.game_class(game_id).info
    assert info.id == game_id
    assert 1 <= info.min_players <= info.default_players <= info.max_players
    assert info.min_score <= info.max_score
    assert len({o.name for o in info.options}) == len(info.options)
    assert all(o.help for o in info.options)
    game = spieltisch.load(game_id)
    assert game.num_distinct_actions > 0


def _option_cases() -> list[tuple[str, str, OptionValue]]:
    """Every game option set to each value other than its default (booleans flipped), every
    rule parameter to its bounds."""
    cases = []
    for game_id in REGISTRY.implemented():
        for spec in REGISTRY.game_class(game_id).info.options:
            values = spec.choices or ((not spec.default,) if isinstance(spec.default, bool) else ())
            values = spec.bounds or values
            cases += [(game_id, spec.name, v) for v in values if v != spec.default]
    return cases


@pytest.mark.parametrize(("game_id", "option", "value"), _option_cases())
def test_every_option_value_plays(game_id: str, option: str, value: OptionValue) -> None:
    info = REGISTRY.game_class(game_id).info
    for players in sorted({info.min_players, info.max_players}):
        game = spieltisch.load(game_id, players, **{option: value})
        assert check_playouts(game, range(2)).games == 2


AT_BOUND = {"en": "at", "de": "bei"}
"""The word a rules page says a parameter's bound with, in each language (``at 20:``)."""
NAMES_FIRST = re.compile(r"^((?:`[a-z0-9_]+`(?:,\s*|\s+))+)(.*)$", re.S)


def bounds_items(page: str) -> dict[str, str]:
    """Each parameter that opens a list item of ``page`` (the item may open with several,
    ``- `a`, `b` at 0: ...``), and that item's text after the names, its lines joined."""
    items: list[str] = []
    inside = False
    for line in page.splitlines():
        if line.startswith("- "):
            items.append(line[2:])
            inside = True
        elif inside and line.startswith("  ") and line.strip():
            items[-1] += " " + line.strip()
        else:
            inside = False
    found: dict[str, str] = {}
    for item in items:
        match = NAMES_FIRST.match(item)
        if match is not None:
            for name in re.findall(r"`([a-z0-9_]+)`", match.group(1)):
                found[name] = match.group(2)
    return found


def says_bound(text: str, language: str, bound: int) -> bool:
    """Whether ``text`` says what happens at ``bound`` (``at 20: ...``, ``bei 20: ...``),
    with words after it."""
    said = rf"\b{AT_BOUND[language]} {bound}:\s*\S+"
    return re.search(said, text, re.IGNORECASE) is not None


@pytest.mark.parametrize("game_id", REGISTRY.implemented())
@pytest.mark.parametrize("language", sorted(AT_BOUND))
def test_rules_page_documents_every_option_and_has_rulings(game_id: str, language: str) -> None:
    """Every option is named on the page in both languages, and every rule parameter has a
    list item of its own (or shared with its siblings) saying what it does at each bound."""
    page = rules_text(game_id, language)
    assert ("## Rulings" if language == "en" else "## Regelauslegungen") in page
    items = bounds_items(page)
    for option in REGISTRY.game_class(game_id).info.options:
        assert f"`{option.name}`" in page, f"{game_id}: option {option.name} is not documented"
        if option.bounds is None:
            continue
        said = items.get(option.name)
        assert said is not None, f"{game_id} ({language}): {option.name}'s bounds are not said"
        for bound in option.bounds:
            assert says_bound(said, language, bound), (
                f"{game_id} ({language}): what {option.name} does at {bound} is not said"
            )


def test_a_page_that_omits_a_bound_fails_the_check() -> None:
    """The check above can fail: a page without the item, or without one bound, is caught."""
    full = "- `goal` at 20: a short game. At 300: a long one.\n- `dice` at 5: few.\n"
    assert says_bound(bounds_items(full)["goal"], "en", 300)
    assert "dice" in bounds_items(full) and not says_bound(bounds_items(full)["dice"], "en", 10)
    assert "goal" not in bounds_items("| `goal` | `100` | 20-300 | the goal |\n")
    shared = "- `a`, `b` bei 0: nichts.\n  Bei 20: viel.\n"
    assert all(says_bound(bounds_items(shared)[n], "de", 20) for n in "ab")


@pytest.mark.parametrize("game_id", REGISTRY.implemented())
def test_a_parameter_outside_its_bounds_is_refused_naming_them(game_id: str) -> None:
    for spec in REGISTRY.game_class(game_id).info.options:
        if spec.bounds is None:
            continue
        low, high = spec.bounds
        assert low <= int(spec.default) <= high
        for wrong in (low - 1, high + 1):
            with pytest.raises(OptionError, match=f"{spec.name} must be from {low} to {high}"):
                spieltisch.load(game_id, **{spec.name: wrong})
