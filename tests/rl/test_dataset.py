"""``spieltisch lab dataset`` writes one Parquet row per decision that pandas, polars and
DuckDB read alike, with the seat's own observation, the legal mask, the action, the agent's
probabilities where it has them and the final returns."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

pytest.importorskip("pyarrow")
pd = pytest.importorskip("pandas")
pl = pytest.importorskip("polars")
duckdb = pytest.importorskip("duckdb")

from spieltisch import load  # noqa: E402
from spieltisch.cli import app  # noqa: E402
from spieltisch.rl.encode import encoder_for  # noqa: E402
from spieltisch.session import Table  # noqa: E402

POLICY = Path(__file__).parents[2] / "spieltisch" / "rl" / "policies" / "awimbawe.npz"


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dataset")
    result = CliRunner().invoke(
        app,
        [
            "lab", "dataset", "awimbawe", "--agents", f"policy:{POLICY},heuristic",
            "--games", "4", "--out", str(out), "--seed", "5",
        ],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "decisions of 4 games written" in result.output
    return out


def test_pandas_polars_and_duckdb_read_the_same_rows(written: Path) -> None:
    path = str(written / "decisions.parquet")
    frame = pd.read_parquet(path)
    lazy = pl.read_parquet(path)
    database = duckdb.connect()
    counted = database.execute(f"SELECT count(*), count(DISTINCT game) FROM '{path}'").fetchall()[0]
    assert len(frame) == lazy.height == counted[0] > 0
    assert counted[1] == 4
    meta = json.loads((written / "dataset.json").read_text())
    assert meta["rows"] == len(frame) and meta["observation_size"] == 732
    assert sorted(frame["seat"].unique()) == [0, 1]
    per_game = database.execute(
        f"SELECT game, max(decision) + 1 = count(*) FROM '{path}' GROUP BY game"
    ).fetchall()
    assert all(ok for _, ok in per_game)
    np.testing.assert_array_equal(
        np.stack(frame["observation"].to_numpy()), lazy["observation"].to_numpy()
    )


def test_each_row_is_a_legal_decision_with_its_probabilities_and_returns(written: Path) -> None:
    frame = pd.read_parquet(written / "decisions.parquet")
    for row in frame.itertuples():
        mask = np.asarray(row.legal_mask)
        assert mask[row.action] == 1
        assert list(np.flatnonzero(mask)) == list(row.legal_ids)
        assert sum(row.returns) == pytest.approx(1.0)
        assert row._12 == row.returns[row.seat]  # "return": the acting seat's share
        if row.agent.startswith("policy:"):
            assert len(row.probabilities) == len(row.legal_ids)
            assert sum(row.probabilities) == pytest.approx(1.0, abs=1e-5)
            assert row.legal_ids[int(np.argmax(row.probabilities))] == row.action
        else:
            assert row.probabilities is None
    assert set(frame["agent"]) == {f"policy:{POLICY}", "heuristic"}


def test_the_observations_are_the_seats_own_views(written: Path) -> None:
    """Replaying game 0 from its seed and actions gives, decision by decision, the encoding
    of the acting seat's view (never the true state)."""
    frame = pd.read_parquet(written / "decisions.parquet")
    first = frame[frame["game"] == 0].sort_values("decision")
    game = load("awimbawe")
    table = Table(game, seed=int(first["game_seed"].iloc[0]))
    encoder = encoder_for("awimbawe")
    for row in first.itertuples():
        while table.to_act() is None:
            table.advance_chance()
        assert table.to_act() == row.seat
        np.testing.assert_array_equal(row.observation, encoder.encode(table.view(row.seat)))
        table.play(game.action_from_id(int(row.action)))
    assert table.over


def test_bad_input_is_one_line(tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(
        app, ["lab", "dataset", "awimbawe", "--agents", "a,b,c", "--out", str(tmp_path)]
    )
    assert result.exit_code == 2 and "need 1 or 2 agents" in result.output


def documented(kind: str, folder: Path) -> list[str]:
    """The ``kind`` (sql, python) blocks of the README's "Transitions for offline RL", for
    the dataset written to ``folder`` (the README's ``DIR``)."""
    text = (Path(__file__).parents[2] / "docs" / "rl" / "README.md").read_text(encoding="utf-8")
    section = text.split("### Transitions for offline RL", 1)[1].split("\n## ", 1)[0]
    blocks = section.split(f"```{kind}\n")[1:]
    return [block.split("```", 1)[0].replace("DIR", str(folder)) for block in blocks]


def test_each_row_is_its_seats_transition(written: Path) -> None:
    """reward, done and the next observation and mask follow the seat's own rows: its next
    decision in the game, or at its last one the seat's view of the finished game."""
    frame = pd.read_parquet(written / "decisions.parquet")
    game = load("awimbawe")
    encoder = encoder_for("awimbawe")
    for _, unordered in frame.groupby("game"):
        rows = unordered.sort_values("decision")
        table = Table(game, seed=int(rows["game_seed"].iloc[0]))
        for row in rows.itertuples():
            while table.to_act() is None:
                table.advance_chance()
            table.play(game.action_from_id(int(row.action)))
        for seat, own in rows.groupby("seat"):
            decisions = list(own["decision"])
            assert list(own["done"]) == [False] * (len(own) - 1) + [True]
            assert list(own["next_decision"].iloc[:-1]) == decisions[1:]
            assert pd.isna(own["next_decision"].iloc[-1])
            assert list(own["reward"].iloc[:-1]) == [0.0] * (len(own) - 1)
            assert own["reward"].iloc[-1] == own["return"].iloc[-1]
            for now, later in zip(
                own.iloc[:-1].itertuples(), own.iloc[1:].itertuples(), strict=True
            ):
                np.testing.assert_array_equal(now.next_observation, later.observation)
                np.testing.assert_array_equal(now.next_legal_mask, later.legal_mask)
            final = own.iloc[-1]
            expected = encoder.encode(table.view(int(seat)))
            np.testing.assert_array_equal(final["next_observation"], expected)
            assert not np.asarray(final["next_legal_mask"]).any()
    assert json.loads((written / "dataset.json").read_text())["schema_version"] == 2


def test_the_documented_transition_queries_run_and_agree(written: Path) -> None:
    """The README's DuckDB and polars queries run on a written dataset, and the window that
    derives the transitions from the base columns gives the stored ones."""
    path = written / "decisions.parquet"
    database = duckdb.connect()
    first, derived = (database.execute(query).df() for query in documented("sql", written))
    stored = pd.read_parquet(path)
    seat0 = stored[stored["seat"] == 0].sort_values(["game", "decision"])
    assert len(first) == len(seat0) and list(first["done"]) == list(seat0["done"])
    assert list(first.columns) == ["observation", "action", "reward", "next_observation", "done"]
    (polars_block,) = documented("python", written)
    scope: dict[str, object] = {}
    exec(polars_block, scope)  # the README's code, as a reader would run it
    batch = scope["batch"]
    assert isinstance(batch, pl.DataFrame) and batch.height == len(stored)
    merged = stored.sort_values(["game", "decision"]).reset_index(drop=True)
    assert list(derived["done"]) == list(merged["done"])
    for mine, theirs, done in zip(
        derived["next_observation"], merged["next_observation"], merged["done"], strict=True
    ):
        if not done:
            np.testing.assert_array_equal(mine, theirs)
