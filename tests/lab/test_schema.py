"""The experiment file's JSON Schema: a valid schema, true to the games and the parser, and
every mistake named with its key and line."""

from __future__ import annotations

import tomllib
from pathlib import Path

import jsonschema
import pytest

import spieltisch
from spieltisch.lab.experiment import ExperimentError, load_experiment, parse_experiment
from spieltisch.lab.schema import experiment_schema, line_of, schema_errors

STUDIES = sorted((Path(__file__).parents[2] / "docs" / "lab").glob("*.toml"))

GOOD = """\
name = "schema test"
game = "auf-die-eier"
players = [2, 3]
games = 10
agents = ["heuristic"]
metrics = ["margin"]

[options]
shared_chicken_ladder = true

[grid]
"some option" = [1, 2]
"""


def test_the_schema_is_a_valid_json_schema_naming_every_game() -> None:
    schema = experiment_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    assert set(schema["properties"]["game"]["enum"]) == set(spieltisch.game_ids())


@pytest.mark.parametrize("path", STUDIES, ids=lambda p: p.stem)
def test_every_shipped_study_fits_the_schema(path: Path) -> None:
    assert load_experiment(path).game in spieltisch.game_ids()


def test_an_unknown_key_is_named_with_its_line() -> None:
    text = GOOD.replace("metrics =", "metrcs =")
    with pytest.raises(ExperimentError, match=r"line 6: metrcs: unknown key \(known: agents"):
        parse_experiment(text, "exp.toml")


def test_every_mistake_is_named_with_its_line_in_file_order() -> None:
    text = (
        GOOD.replace("players = [2, 3]", 'players = "two"')
        .replace("shared_chicken_ladder = true", "shared_chicken_ladder = 1.5")
        .replace("[1, 2]", "[1, 1]")
    )
    errors = schema_errors(tomllib.loads(text), text)
    assert errors == [
        "line 3: players: 'two' is not a player count or a list of them (1 to 8 each)",
        "line 9: options.shared_chicken_ladder: 1.5 is not an option or parameter value: "
        "true/false, a whole number or a name",
        "line 12: grid.some option: lists one value twice",
    ]


def test_a_missing_key_is_named() -> None:
    with pytest.raises(ExperimentError, match="'games' is a required key"):
        parse_experiment(GOOD.replace("games = 10\n", ""))


def test_line_of_finds_keys_headers_and_dotted_tables() -> None:
    text = "a = 1\n[grid]\nb = [1]\n[x.y]\nc = 2\n"
    assert line_of(text, ["a"]) == 1
    assert line_of(text, ["grid"]) == 2
    assert line_of(text, ["grid", "b", 0]) == 3
    assert line_of(text, ["x", "y", "c"]) == 5
    assert line_of(text, ["grid", "nothing"]) == 2  # not written as a line: its table's header
    assert line_of(text, ["nowhere"]) == 0
