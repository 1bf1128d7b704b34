"""The benchmark plots: drawn from results files, skipped with a note when results are missing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from benchmarks import plots, strength


@pytest.fixture(autouse=True)
def _matplotlib() -> None:
    """Skipped without matplotlib; imported by the worker that runs these tests, not at collection."""
    pytest.importorskip("matplotlib")

PNG = b"\x89PNG\r\n\x1a\n"


def _write(directory: Path, name: str, data: dict[str, Any]) -> None:
    (directory / name).write_text(json.dumps(data), encoding="utf-8")


def _speed() -> dict[str, Any]:
    return {"machine": {"cpu": "AMD EPYC"}, "results": [
        {"bench": "playouts", "rules": rules, "players": players, "engine": engine, "playouts_per_s": speed}
        for rules, players, engine, speed in [("durak", 2, "c", 1.1e6), ("durak", 2, "core", 9e5),
                                              ("durak", 2, "reference", 750.0), ("tan", 4, "core", 3.3e5)]
    ]}


def _search() -> dict[str, Any]:
    return {"results": [
        {"bench": "ismcts", "rules": "durak", "players": 2, "threads": t, "iterations_per_s": 3e5 * t,
         "policy": "random"} for t in (1, 2)
    ] + [{"bench": "endgame", "rules": "durak", "cards_per_hand": 4}]}


def _load(iterations: int, bars: tuple[int, ...] = ()) -> dict[str, Any]:
    def bar(n: int) -> dict[str, Any]:
        return {"iterations": n, "latency_ms": {"median": n / 500, "p99": n / 400}, "bar_ms": 250}

    return {"latency_bar": bar(iterations), "latency_bars": [bar(n) for n in bars],
            "runs": [{"clients": c, "iterations": iterations, "throughput_per_s": 40.0 * c,
                      "hints_per_s": 40.0} for c in (1, 2, 8)]}


def test_every_plot_from_full_results(tmp_path: Path) -> None:
    _write(tmp_path, "speed.json", _speed())
    _write(tmp_path, "search.json", _search())
    _write(tmp_path, "load.json", _load(10_000, bars=(1_000, 3_000)))
    _write(tmp_path, "speed-short.json", {"results": []})  # a short run is not read
    outcome = plots.draw(tmp_path)
    names = ("playouts_per_s.png", "search_threads.png", "load_throughput.png", "hint_latency.png")
    assert outcome == dict.fromkeys(names, "written")
    for name in outcome:
        assert (tmp_path / name).read_bytes().startswith(PNG)
    assert not list(tmp_path.glob("*-short.png"))


def test_missing_results_are_skipped_with_a_note(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _write(tmp_path, "speed-short.json", _speed())
    _write(tmp_path, "load-short.json", {"latency_bar": _load(10_000)["latency_bar"]})
    assert plots.main(["--results", str(tmp_path), "--short"]) == 0
    notes = capsys.readouterr().err
    assert "playouts_per_s-short.png: written" in notes
    assert "search_threads-short.png: skipped: no search-short.json" in notes
    assert "load_throughput-short.png: skipped: load results without runs by client count" in notes
    assert "hint_latency-short.png: skipped: hint latency at 1 iteration count(s)" in notes
    assert [p.name for p in tmp_path.glob("*.png")] == ["playouts_per_s-short.png"]


def test_latency_bars_from_several_load_files(tmp_path: Path) -> None:
    _write(tmp_path, "load.json", _load(10_000))
    _write(tmp_path, "load-1000.json", _load(1_000))
    assert plots.draw(tmp_path)["hint_latency.png"] == "written"


def test_a_short_strength_run_leaves_the_full_results_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(strength, "RESULTS", tmp_path)
    assert strength.main(["--short", "--deals", "1", "--iterations", "20", "--workers", "1"]) == 0
    written = sorted(p.name for p in tmp_path.iterdir())
    assert written == ["strength-short.json", "winrate_vs_iterations-short.png"]
    data = json.loads((tmp_path / "strength-short.json").read_text())
    assert data["short"] is True and [p["iterations"] for p in data["points"]] == [20]
    assert data["points"][0]["games"] == 2
