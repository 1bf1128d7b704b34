"""The `tan` command: what exists (bench, serve's app) and the honest refusals of the rest."""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from solver import cli
from solver.bench import PlayoutTotals, ReferenceEngine, run_playouts

if TYPE_CHECKING:
    from fastapi.testclient import TestClient

ROOT = Path(__file__).resolve().parents[1]


def test_bench_reference_json(capsys: pytest.CaptureFixture[str]) -> None:
    status = cli.main(
        ["bench", "--json", "--no-pin", "--engines", "reference", "--rules", "durak", "--games", "3"]
    )
    assert status == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 1
    line = json.loads(lines[0])
    spec_keys = {
        "bench",
        "rules",
        "players",
        "engine",
        "playouts_per_s",
        "plies_per_game",
        "loss_rate_by_seat",
    }
    assert spec_keys <= set(line)
    assert line["bench"] == "playouts"
    assert (line["rules"], line["players"], line["engine"]) == ("durak", 2, "reference")
    assert line["playouts"] == 3
    assert line["playouts_per_s"] > 0
    assert line["plies_per_game"] > 2
    assert len(line["loss_rate_by_seat"]) == 2
    assert sum(line["loss_rate_by_seat"]) + line["draw_rate"] == pytest.approx(1.0)


def test_bench_short_default_configs(capsys: pytest.CaptureFixture[str]) -> None:
    status = cli.main(["bench", "--short", "--no-pin", "--engines", "reference", "--games", "1"])
    assert status == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[:3] for line in lines] == [
        ["durak", "2", "seats"],
        ["tan", "2", "seats"],
        ["tan", "4", "seats"],
    ]
    assert all("reference" in line and "playouts/s" in line for line in lines)


def test_bench_core_when_built(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("solver._core")
    argv = ["bench", "--json", "--no-pin", "--engines", "core", "--rules", "tan", "--games", "200"]
    assert cli.main(argv) == 0
    line = json.loads(capsys.readouterr().out)
    assert (line["engine"], line["rules"], line["players"], line["playouts"]) == ("core", "tan", 2, 200)


def test_reference_engine_is_reproducible() -> None:
    engine = ReferenceEngine()
    first = engine.run("tan", 3, 2, seed=5)
    second = engine.run("tan", 3, 2, seed=5)
    assert (first.plies, first.losses, first.draws) == (second.plies, second.losses, second.draws)
    assert sum(first.losses) + first.draws == 2


def test_run_playouts_skips_an_unavailable_engine() -> None:
    from solver.bench import EngineUnavailable, Skipped

    class Missing:
        name = "missing"
        games = short_games = 1

        def supports(self, rules: str, players: int) -> bool:
            return True

        def run(self, rules: str, players: int, games: int, seed: int) -> PlayoutTotals:
            raise EngineUnavailable("not built")

    skipped: list[Skipped] = []
    results = list(run_playouts([Missing()], [("durak", 2), ("tan", 2)], on_skip=skipped.append))
    assert results == []
    assert [(s.engine, s.reason) for s in skipped] == [("missing", "not built")]  # reported once


@pytest.mark.parametrize(
    "argv",
    [
        ["bench", "--rules", "tan", "--players", "5", "--no-pin"],
        ["bench", "--engines", "fortran", "--no-pin"],
        ["bench", "--games", "0", "--no-pin"],
        ["bench", "--players", "3", "--no-pin"],
    ],
)
def test_bench_refuses_bad_options(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(argv) == 2
    assert capsys.readouterr().err.startswith("tan bench: ")


@pytest.mark.parametrize(
    "argv", [["hint", "-"], ["evaluate", "pos.json"], ["moves", "-"], ["play"], ["arena", "--rules", "durak"]]
)
def test_coming_commands_say_so(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert f"tan {argv[0]}: not yet available" in err


def test_no_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        cli.main([])
    assert caught.value.code == 2


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        cli.main(["--version"])
    assert caught.value.code == 0
    assert capsys.readouterr().out.strip() == f"tan {cli.version()}"


def test_serve_runs_uvicorn_with_the_app(monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn

    calls: list[tuple[str, dict[str, object]]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kwargs: calls.append((app, kwargs)))
    assert cli.main(["serve"]) == 0
    assert cli.main(["serve", "--host", "0.0.0.0", "--port", "9000"]) == 0
    assert calls[0] == ("service.main:app", {"host": "127.0.0.1", "port": 8000, "log_level": "info"})
    assert calls[1][1]["host"] == "0.0.0.0" and calls[1][1]["port"] == 9000


def _client() -> TestClient:
    with warnings.catch_warnings():
        # Starlette asks for `httpx2` under its test client; `httpx` still works.
        warnings.filterwarnings("ignore", message=".*httpx2")
        from fastapi.testclient import TestClient
    from service.main import app

    return TestClient(app)


def test_healthz() -> None:
    answer = _client().get("/healthz")
    assert answer.status_code == 200
    assert answer.json() == {"status": "ok", "version": cli.version()}


def test_index_page_is_a_placeholder() -> None:
    answer = _client().get("/")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/html")
    assert "Tấn" in answer.text and "coming" in answer.text


def test_tan_script_in_a_subprocess() -> None:
    """The module runs as a program too (as the installed `tan` script does)."""
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "solver.cli",
            "bench",
            "--json",
            "--engines",
            "reference",
            "--games",
            "1",
            "--rules",
            "tan",
            "--players",
            "4",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    line = json.loads(run.stdout)
    assert (line["rules"], line["players"], len(line["loss_rate_by_seat"])) == ("tan", 4, 4)
