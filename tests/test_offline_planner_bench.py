"""The planner benchmark runs end to end on a small corpus and prints its table (no timing asserts)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks import bench_planner  # noqa: E402


@pytest.fixture()
def data_dir(tmp_path: Path) -> Path:
    rows = [
        {"sentence": s, "intent": "x"}
        for s in ["open notepad", "what time is it", "turn the lights off", "play some jazz", "type hello and press enter"]
    ]
    (tmp_path / "test.jsonl").write_text("\n".join(json.dumps(r) for r in rows), encoding="utf-8")
    return tmp_path


def test_bench_times_every_stage(data_dir):
    out = bench_planner.run(data_dir, "test", repeat=2)
    for stage in ("planner only", "safety only", "planner + safety", "fuzzy fallback alone, every sentence"):
        assert f"| {stage} | 10 |" in out


def test_bench_entry_points(data_dir, capsys, tmp_path):
    assert bench_planner.main(["--data", str(data_dir), "--no-start"]) == 0
    assert "planner only" in capsys.readouterr().out
    # a missing data folder is reported, not a crash
    assert bench_planner.main(["--data", str(tmp_path / "nowhere")]) == 0
    assert "skipped" in capsys.readouterr().out


def test_start_up_table_runs_the_cli_as_a_new_process():
    out = bench_planner.start_up(runs=1)
    for case in ("fuzzy model cached", "first run ever", "training the fuzzy model alone"):
        assert f"| {case}" in out
