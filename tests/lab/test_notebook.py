"""The lab's notebook (docs/lab/reading-a-study.ipynb) runs from start to end on a shipped
study, and the edge it redraws from the Parquet file is the one the study's report states."""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from spieltisch.lab.analysis import analyse
from spieltisch.lab.experiment import load_experiment
from spieltisch.lab.report import read_parquet

LAB = Path(__file__).parents[2] / "docs" / "lab"
STUDY = LAB / "ladder-expert-edge"


def test_the_notebook_reads_a_study_and_redraws_its_main_plot(tmp_path: Path) -> None:
    (tmp_path / STUDY.name).mkdir()
    shutil.copy(STUDY / "results.parquet", tmp_path / STUDY.name)
    notebook = nbformat.read(LAB / "reading-a-study.ipynb", as_version=4)  # type: ignore[no-untyped-call]
    client = NotebookClient(
        notebook, timeout=300, kernel_name="python3", resources={"metadata": {"path": tmp_path}}
    )
    client.execute()
    assert (tmp_path / "ladder-expert-edge-notebook.png").stat().st_size > 10_000
    drawn = ast.literal_eval(notebook.cells[-1].outputs[0]["data"]["text/plain"])
    experiment = load_experiment(STUDY / "experiment.toml")
    analysis = analyse(experiment, read_parquet(STUDY / "results.parquet", experiment))
    stated = [{m.key: i for m, i, _ in c.metrics} for c in analysis.cells]
    assert len(drawn) == len(stated) == 4
    for row, figures in zip(drawn, stated, strict=True):
        edge = figures["head-to-head:expert:heuristic"]
        assert edge is not None
        assert row["edge"] == pytest.approx(edge.value, abs=1e-4)
        # Both intervals resample the deals (with different draws): they agree to a point.
        assert row["low"] == pytest.approx(edge.low, abs=0.01)
        assert row["high"] == pytest.approx(edge.high, abs=0.01)
