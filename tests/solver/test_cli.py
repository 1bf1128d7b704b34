"""The `tan` command's solver subcommands: bench, hint/evaluate/moves, play and arena
(`tan serve` is the service's: tests/service/test_cli.py)."""

from __future__ import annotations

import io
import json
import math
import os
import re
import subprocess
import sys
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from solver import cli
from solver.game.position import Position
from solver.game.reference import Game
from solver.game.rules import Rules
from solver.search.lines import PV
from solver.tools.bench import PlayoutTotals, ReferenceEngine, run_playouts

if TYPE_CHECKING:
    from fastapi.testclient import TestClient

ROOT = Path(__file__).resolve().parents[2]
AFFINITY = os.sched_getaffinity(0)


def test_bench_reference_json(capsys: pytest.CaptureFixture[str]) -> None:
    status = cli.main(
        ["bench", "--json", "--no-pin", "--no-search", "--engines", "reference", "--rules", "durak",
         "--games", "3"]
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
    status = cli.main(
        ["bench", "--short", "--no-pin", "--no-search", "--engines", "reference", "--games", "1"]
    )
    assert status == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[:3] for line in lines] == [
        ["durak", "2", "seats"],
        ["tan", "2", "seats"],
        ["tan", "4", "seats"],
    ]
    assert all("reference" in line and "playouts/s" in line for line in lines)


def test_bench_core_when_built(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("solver.core._core")
    argv = ["bench", "--json", "--no-pin", "--no-search", "--engines", "core", "--rules", "tan",
            "--games", "200"]
    assert cli.main(argv) == 0
    line = json.loads(capsys.readouterr().out)
    assert (line["engine"], line["rules"], line["players"], line["playouts"]) == ("core", "tan", 2, 200)


def test_bench_search_lines(capsys: pytest.CaptureFixture[str]) -> None:
    """After the playouts, docs/api.md §4's ISMCTS lines: one per thread count, each a median of runs."""
    argv = ["bench", "--json", "--engines", "reference", "--games", "1", "--rules", "durak",
            "--search-iterations", "400", "--threads", "1,2"]
    assert cli.main(argv) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["bench"] for line in lines] == ["playouts", "ismcts", "ismcts"]
    for line, threads in zip(lines[1:], (1, 2), strict=True):
        assert {"bench", "rules", "players", "threads", "iterations_per_s"} <= set(line)
        assert (line["rules"], line["players"], line["iterations"]) == ("durak", 2, 400)
        assert line["threads"] == threads
        low, high = line["iterations_per_s_range"]
        assert line["runs"] == 3 and 0 < low <= line["iterations_per_s"] <= high
    assert os.sched_getaffinity(0) == AFFINITY  # pinning is undone


def test_reference_engine_is_reproducible() -> None:
    engine = ReferenceEngine()
    first = engine.run("tan", 3, 2, seed=5)
    second = engine.run("tan", 3, 2, seed=5)
    assert (first.plies, first.losses, first.draws) == (second.plies, second.losses, second.draws)
    assert sum(first.losses) + first.draws == 2


def test_run_playouts_skips_an_unavailable_engine() -> None:
    from solver.tools.bench import EngineUnavailable, Skipped

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
        ["bench", "--threads", "0", "--no-pin"],
        ["bench", "--threads", "two", "--no-pin"],
        ["bench", "--search-iterations", "-5", "--no-pin"],
        ["bench", "--search-iterations", "0", "--no-pin"],
    ],
)
def test_bench_refuses_bad_options(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(argv) == 2
    assert capsys.readouterr().err.startswith("tan bench: ")


def test_no_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        cli.main([])
    assert caught.value.code == 2


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        cli.main(["--version"])
    assert caught.value.code == 0
    assert capsys.readouterr().out.strip() == f"tan {cli.version()}"


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


def test_index_page_is_served() -> None:
    answer = _client().get("/")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/html")
    assert "Tấn" in answer.text


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
            "--no-search",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    line = json.loads(run.stdout)
    assert (line["rules"], line["players"], len(line["loss_rate_by_seat"])) == ("tan", 4, 4)


# -- hint, evaluate, moves --------------------------------------------------------------------

HINT_KEYS = {"seat", "best", "moves", "evaluation", "chance", "stats"}
MOVE_KEYS = {"move", "notation", "score", "ci95", "visits", "exact", "loss", "label"}
STATS_KEYS = {
    "algorithm", "iterations", "worlds", "time_ms", "iterations_per_s", "stop_reason", "seed", "threads",
    "beliefs", "ess", "calibrated", "model", "opponent_policy", "value_mix",
}


def _position(seat: int = 1) -> dict[str, Any]:
    """A `tan` position after the lead: seat 1 defends (seat 0 waits)."""
    game = Game.deal(Rules.from_json("tan"), 2, seed=4)
    game.play(game.legal_moves()[0])
    return Position.from_game(game, seat).to_json()


def _endgame() -> dict[str, Any]:
    """A perfect-information position: stock empty, two seats still holding cards."""
    game = Game.deal(Rules.from_json("durak"), 2, seed=11)
    while game.stock or game.to_move != 0:
        game.play(game.legal_moves()[0])
    assert not game.over
    return Position.from_game(game, 0).to_json()


@pytest.fixture
def position_file(tmp_path: Path) -> Path:
    path = tmp_path / "position.json"
    path.write_text(json.dumps(_position()), encoding="utf-8")
    return path


def _run(argv: list[str], capsys: pytest.CaptureFixture[str], stdin: str | None = None,
         monkeypatch: pytest.MonkeyPatch | None = None) -> tuple[int, str, str]:
    if stdin is not None:
        assert monkeypatch is not None
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    status = cli.main(argv)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_hint_table(position_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = _run(["hint", str(position_file), "--iterations", "300"], capsys)
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith("seat 1 · seat 1 to move · tan, 2 players · trump ")
    assert lines[1].startswith("hand: ")
    header = lines[3].split()
    assert header[:3] == ["#", "move", "win"] and "visits" in header and header[-1] == "exact"
    rows = [line for line in lines[4:] if line[:1].isdigit()]
    assert [row.split()[0] for row in rows] == [str(i) for i in range(1, len(rows) + 1)]
    game = Game.deal(Rules.from_json("tan"), 2, seed=4)
    game.play(game.legal_moves()[0])
    assert {row.split("  ")[1].strip() for row in rows} == {move.notation for move in game.legal_moves()}
    assert any(line.startswith("position: ") for line in lines)
    assert "ismcts: 300 iterations" in out


def test_hint_json_from_stdin(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    argv = ["hint", "-", "--json", "--iterations", "400", "--seed", "3", "--multipv", "1"]
    status, out, _ = _run(argv, capsys, stdin=json.dumps(_position()), monkeypatch=monkeypatch)
    assert status == 0
    answer = json.loads(out)
    assert set(answer) == HINT_KEYS and answer["seat"] == 1
    assert len(answer["moves"]) == 1 and set(answer["moves"][0]) == MOVE_KEYS
    assert answer["best"] == answer["moves"][0]["move"]
    assert set(answer["evaluation"]) == {"score", "ci95", "exact"}
    assert set(answer["stats"]) == STATS_KEYS
    assert (answer["stats"]["iterations"], answer["stats"]["seed"]) == (400, 3)
    again = json.loads(_run(argv, capsys, stdin=json.dumps(_position()), monkeypatch=monkeypatch)[1])
    for data in (answer, again):
        for key in ("time_ms", "iterations_per_s"):
            del data["stats"][key]
    assert again == answer  # an iteration-limited search with a seed is reproducible


def test_hint_and_evaluate_against_a_known_opponent(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--others greedy` models the other seat as greedy from the first move, as the API's `others`."""
    for command in ("hint", "evaluate"):
        argv = [command, "-", "--json", "--iterations", "300", "--others", "greedy"]
        status, out, _ = _run(argv, capsys, stdin=json.dumps(_position()), monkeypatch=monkeypatch)
        stats = json.loads(out)["stats"]
        assert status == 0 and (stats["model"], stats["opponent_policy"]) == ("playouts", 0.75)
    with pytest.raises(SystemExit) as refused:
        _run(["hint", "-", "--others", "expert"], capsys, stdin=json.dumps(_position()),
             monkeypatch=monkeypatch)
    assert refused.value.code == 2 and "invalid choice: 'expert'" in capsys.readouterr().err


def test_hint_of_an_endgame_is_exact(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "endgame.json"
    path.write_text(json.dumps(_endgame()))
    answer = json.loads(_run(["hint", str(path), "--json"], capsys)[1])
    assert answer["evaluation"]["exact"] and all(move["exact"] for move in answer["moves"])
    assert answer["evaluation"]["score"] in (0.0, 0.5, 1.0)
    out = _run(["hint", str(path)], capsys)[1]
    assert " yes" in out and "exact:" in out


def test_hint_pv_prints_each_moves_line(position_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`--pv` alone asks for lines of the option's default depth; `--pv N` for N plies; the table
    then ends with a line per move, the JSON with each move's `line`."""
    status, out, err = _run(["hint", str(position_file), "--iterations", "2000", "--pv"], capsys)
    assert status == 0 and err == ""
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("lines (seat 1's moves"))
    rows = [line for line in lines[4:start] if line[:1].isdigit()]
    shown = lines[start + 1 : start + 1 + len(rows)]
    for row, line in zip(rows, shown, strict=True):
        number, move = row.split("  ")[0], row.split("  ")[1].strip()
        assert line.startswith(f"{number}  {move}")
        assert len(line.split(" · ")) <= PV.asked and re.search(r"→ +\d+\.\d%$", line)
    assert any("seat 0: " in line for line in shown)  # the other seat's moves, as the tree played them
    answer = json.loads(_run(["hint", str(position_file), "--iterations", "2000", "--pv", "2", "--json"],
                             capsys)[1])
    assert all(1 <= len(move["line"]["moves"]) <= 2 for move in answer["moves"] if move["visits"])
    plain = _run(["hint", str(position_file), "--iterations", "2000"], capsys)[1]
    assert "lines (" not in plain
    status, _, err = _run(["hint", str(position_file), "--pv", str(PV.maximum + 1)], capsys)
    assert status == 2 and "(bad_limits)" in err


def test_hint_from_a_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`--record` reads docs/api.md §2.3: the hint is for the position the record ends in, and a
    record whose events cannot have happened is refused with the event's index."""
    record = {"rules": "tan", "players": 2, "seat": 0,
              "hand": ["6s", "7s", "Jd", "Qh", "Ac", "9c", "2d", "Kd"], "trump": "10h",
              "first_attacker": 1,
              "events": [{"seat": 1, "move": "attack 7d"}, {"seat": 0, "move": "defend 7d with Jd"},
                         {"seat": 1, "move": "pass"}, {"draw": ["8h"]}]}
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    status, out, _ = _run(["hint", str(path), "--record", "--json", "--iterations", "200"], capsys)
    assert status == 0
    answer = json.loads(out)
    assert answer["seat"] == 0 and "attack 8h" in [m["notation"] for m in answer["moves"]]
    record["events"][1] = {"seat": 0, "move": "defend 7d with 6s"}
    path.write_text(json.dumps(record))
    status, _, err = _run(["hint", str(path), "--record"], capsys)
    assert status == 2 and "events[1]" in err and "(illegal_move)" in err


def test_evaluate(position_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(["evaluate", str(position_file), "--json", "--iterations", "300"], capsys)
    assert status == 0
    answer = json.loads(out)
    assert set(answer) == {"seat", "score", "ci95", "exact", "scores", "p_lose", "chance", "cards", "stats"}
    assert answer["seat"] == 1 and len(answer["scores"]) == 2 and len(answer["p_lose"]) == 2
    assert answer["ci95"][0] <= answer["score"] <= answer["ci95"][1]
    argv = ["evaluate", str(position_file), "--iterations", "300", "--algorithm", "pimc"]
    status, out, _ = _run(argv, capsys)
    assert status == 0
    assert out.splitlines()[3].startswith("seat 1: expected score ")
    assert "1 (you)" in out and "pimc: 300 iterations" in out


def test_moves(
    position_file: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    game = Game.deal(Rules.from_json("tan"), 2, seed=4)
    game.play(game.legal_moves()[0])
    expected = [move.to_json() for move in game.legal_moves()]
    status, out, _ = _run(["moves", "--json", "-"], capsys, stdin=position_file.read_text(),
                          monkeypatch=monkeypatch)
    assert status == 0
    assert json.loads(out) == {"to_move": 1, "moves": expected}
    status, out, _ = _run(["moves", str(position_file)], capsys)
    lines = out.splitlines()
    assert lines[2] == f"seat 1 to move, {len(expected)} legal moves:"
    assert lines[3].split(maxsplit=1) == ["1", game.legal_moves()[0].notation]


def test_moves_of_a_finished_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = Game.deal(Rules.from_json("durak"), 2, seed=3)
    while not game.over:
        game.play(game.legal_moves()[-1])
    path = tmp_path / "over.json"
    path.write_text(json.dumps(Position.from_game(game, 0).to_json()))
    assert json.loads(_run(["moves", "--json", str(path)], capsys)[1]) == {"to_move": None, "moves": []}
    status, _, err = _run(["hint", str(path)], capsys)
    assert status == 2 and err == "tan hint: the game is over: there is no move to hint (game_over)\n"


def _broken(change: dict[str, Any]) -> str:
    return json.dumps({**_position(), **change})


@pytest.mark.parametrize(
    ("command", "stdin", "message"),
    [
        ("hint", _broken({"hand": ["Xs"]}), "hand[0]: not a card: 'Xs'"),
        ("evaluate", _broken({"trump": "11h"}), "trump: not a card: '11h'"),
        ("moves", _broken({"hand_counts": [8]}), "(count_mismatch)"),
        ("hint", _broken({"seat": 0}), "(count_mismatch)"),
        (
            "moves",
            json.dumps({k: v for k, v in _position().items() if k != "stock"}),
            "missing field(s) in position: stock",
        ),
        ("hint", _broken({"rules": "poker"}), "unknown rules preset 'poker'"),
        ("moves", _broken({"colour": "red"}), "unknown field(s) in position: colour"),
        ("hint", '{"rules": "tan",', "standard input is not JSON: "),
        ("evaluate", "[1, 2]", "a position must be a JSON object, not list"),
        ("moves", json.dumps(_position(seat=0)), "seat 0 is not to move: seat 1 is (not_your_turn)"),
        ("hint", json.dumps(_position(seat=0)), "(not_your_turn)"),
    ],
)
def test_bad_positions_are_one_line_and_status_2(
    command: str,
    stdin: str,
    message: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    status, out, err = _run([command, "-"], capsys, stdin=stdin, monkeypatch=monkeypatch)
    assert status == 2 and out == ""
    assert err.startswith(f"tan {command}: ") and err.count("\n") == 1
    assert message in err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["hint", "{file}", "--iterations", "0"], "iterations must be a positive whole number, not 0"),
        (["evaluate", "{file}", "--threads", "0"], "(bad_limits)"),
        (["hint", "{file}", "--multipv", "0"], "multipv must be at least 1"),
        (["hint", "/no/such/position.json"], "cannot read /no/such/position.json: No such file or directory"),
    ],
)
def test_bad_options_are_one_line_and_status_2(
    argv: list[str], message: str, position_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = _run([arg.replace("{file}", str(position_file)) for arg in argv], capsys)
    assert status == 2 and message in err and err.count("\n") == 1


# -- play ---------------------------------------------------------------------------------------


def test_play_a_whole_game_through_a_pipe() -> None:
    script = "help\nhint\nattack 2x\n99\n" + "1\n" * 400
    run = subprocess.run(
        [sys.executable, "-m", "solver.cli", "play", "--engine", "random", "--seed", "3",
         "--iterations", "20"],
        input=script, capture_output=True, text=True, cwd=ROOT, timeout=60,
    )
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "you are seat 0. Deal seed 3." in out
    assert "1) attack" in out and "you lead" in out
    assert "ranked moves" in out  # help
    assert "win %" in out and "ismcts: 20 iterations" in out  # hint
    assert "? not a card: '2x'" in out and "? no move number 99" in out
    assert "seat 1 (random): " in out
    assert out.rstrip().splitlines()[-1].startswith("scores: you ")
    assert "game over: " in out


def test_play_takes_text_moves_and_says_what_is_wrong(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["play", "--rules", "durak", "--players", "3", "--seat", "1", "--engine", "greedy", "--seed", "5"]
    # The first human turn of this deal: seat 0 beat seat 2's 7h with Th; seat 1 may throw in Ts or 7c.
    script = "table\nthrow 7c\ndefend 7h with 9h\nAs\nattack 7c\n" + "1\n" * 400
    status, out, _ = _run(argv, capsys, stdin=script, monkeypatch=monkeypatch)
    assert status == 0
    assert "seat 2 (greedy): attack 7h" in out and "seat 0 (greedy): defend 7h with Th" in out
    assert "table: 7h/Th" in out and "you may throw in on seat 0" in out
    assert "? unknown action 'throw'" in out
    assert "? seat 1 cannot defend 7h with 9h: it does not hold 9h" in out
    assert "? no legal move plays As" in out
    assert "you: attack 7c" in out and "game over: " in out


def test_play_against_search_engines_is_reproducible(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["play", "--rules", "durak", "--players", "3", "--seat", "1", "--engine", "ismcts,pimc",
            "--iterations", "20", "--seed", "5"]
    script = "hint\n" + "1\n" * 400
    status, out, _ = _run(argv, capsys, stdin=script, monkeypatch=monkeypatch)
    assert status == 0
    assert "seat 0 (ismcts): " in out and "seat 2 (pimc): " in out and "game over: " in out
    again = _run(argv, capsys, stdin=script, monkeypatch=monkeypatch)[1]

    def untimed(text: str) -> str:
        return re.sub(r"in \d+ ms \([\d,]+/s", "", text)

    assert untimed(again) == untimed(out)


def test_play_hints_against_greedy_say_they_are_calibrated(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["play", "--rules", "durak", "--engine", "greedy", "--iterations", "50", "--seed", "2"]
    status, out, _ = _run(argv, capsys, stdin="hint\nquit\n", monkeypatch=monkeypatch)
    assert status == 0 and "win chances calibrated against greedy (durak, 2 seats)" in out
    argv = ["play", "--rules", "durak", "--engine", "random", "--iterations", "50", "--seed", "2"]
    status, out, _ = _run(argv, capsys, stdin="hint\nquit\n", monkeypatch=monkeypatch)
    assert status == 0 and "win %" in out and "calibrated" not in out  # no map against random


def test_play_quit_and_end_of_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, _ = _run(["play", "--engine", "random", "--seed", "1"], capsys, stdin="quit\n",
                          monkeypatch=monkeypatch)
    assert status == 0 and "you left the game" in out
    status, out, _ = _run(["play", "--engine", "random", "--seed", "1"], capsys, stdin="",
                          monkeypatch=monkeypatch)
    assert status == 1 and "input ended" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play", "--seat", "2"], "seat: no seat 2 in a 2-seat game (invalid_seat)"),
        (["play", "--players", "5"], "tan is played by 2-4 players, not 5"),
        (["play", "--engine", "chess"], "unknown engine 'chess'"),
        (["play", "--engine", '[{"engine": "ismcts", "sees_hands": true}]'], "sees_hands is for arenas only"),
        (["play", "--time-ms", "-5"], "(bad_limits)"),
        (["arena", "--engines", "random,greedy,ismcts"], "3 engines do not fit a 2-seat table"),
        (["arena", "--deals", "0", "--engines", "random"], "deals must be a positive whole number"),
        (["arena", "--resume", "--engines", "random"], "--resume needs --out"),
        (["arena", "--engines", '[{"engine": "pimc", "depth": 2}]'], "engine pimc has no option(s) depth"),
        (["arena", "--engines", "random,greedy", "--sprt", "50"], "--sprt wants two Elo bounds"),
        (["arena", "--engines", "random,greedy", "--sprt", "50,0"], "SPRT needs elo0 < elo1"),
        (["arena", "--engines", "random,greedy", "--sprt", "0,50", "--sprt-alpha", "0.7"],
         "SPRT alpha must be between 0 and 0.5"),
        (["arena", "--engines", "random", "--sprt", "0,50"], "SPRT needs two engines at a two-seat table"),
    ],
)
def test_play_and_arena_refuse_bad_options(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, _, err = _run(argv, capsys, stdin="", monkeypatch=monkeypatch)
    assert status == 2 and message in err and err.count("\n") == 1


# -- arena ----------------------------------------------------------------------------------------


def test_arena_random_against_greedy(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "results.jsonl"
    argv = ["arena", "--engines", "random,greedy", "--deals", "2", "--rules", "durak", "--workers", "1",
            "--seed", "1", "--out", str(out), "--json"]
    status, stdout, _ = _run(argv, capsys)
    assert status == 0
    summary = json.loads(stdout)
    assert (summary["rules"], summary["players"], summary["deals"], summary["games"]) == ("durak", 2, 2, 4)
    assert [engine["engine"] for engine in summary["engines"]] == ["random", "greedy"]
    for engine in summary["engines"]:
        assert engine["games"] == 4 and engine["wins"] + engine["draws"] + engine["losses"] == 4
        assert engine["ci95"][0] <= engine["score"] <= engine["ci95"][1]
    assert summary["engines"][0]["score"] + summary["engines"][1]["score"] == pytest.approx(1.0)
    assert summary["elo"]["engine"] == "random" and summary["elo"]["opponent"] == "greedy"
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted((r["deal"], r["rotation"]) for r in records) == [(0, 0), (0, 1), (1, 0), (1, 1)]
    status, stdout, _ = _run([*argv[:-1], "--resume"], capsys)  # all there: nothing to play
    assert status == 0
    lines = stdout.splitlines()
    assert lines[0].startswith("4 games: 2 deals × 2 seat rotations")
    assert lines[1].split() == ["engine", "games", "score", "95%", "(Wilson)", "wins", "draws", "losses"]
    assert lines[2].split()[:2] == ["random", "4"] and lines[3].split()[:2] == ["greedy", "4"]
    assert lines[4].startswith("Elo random - greedy: ")


def test_arena_sprt_stops_and_reports(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "sprt.jsonl"
    argv = ["arena", "--engines", "greedy,random", "--deals", "12", "--rules", "durak", "--workers", "1",
            "--seed", "5", "--sprt", "0,200", "--out", str(out), "--json"]
    status, stdout, _ = _run(argv, capsys)
    assert status == 0
    summary = json.loads(stdout)
    test = summary["sprt"]
    assert test["decision"] == "H1"
    assert test["llr"] >= test["bounds"][1] == pytest.approx(math.log(19), abs=1e-4)
    assert (test["engine"], test["opponent"], test["elo0"], test["elo1"]) == ("greedy", "random", 0, 200)
    assert summary["games"] == test["games"] == 2 * test["deals"] < 24
    assert len(out.read_text().splitlines()) == test["games"]
    status, stdout, _ = _run([*argv[:-1], "--resume"], capsys)
    assert status == 0
    last = stdout.splitlines()[-1]
    assert last.startswith("SPRT greedy - random, elo0 0, elo1 200 (alpha 0.05, beta 0.05): LLR ")
    assert f"after {test['games']} games ({test['deals']} deals), H1 accepted" in last


def test_arena_on_a_dask_cluster(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    distributed = pytest.importorskip("distributed")
    argv = ["arena", "--engines", "random,greedy", "--deals", "2", "--rules", "durak", "--seed", "1",
            "--json"]
    status, stdout, _ = _run([*argv, "--workers", "1"], capsys)
    assert status == 0
    local = json.loads(stdout)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        status, stdout, _ = _run([*argv, "--scheduler", cluster.scheduler_address], capsys)
    assert status == 0
    on_cluster = json.loads(stdout)
    for summary in (local, on_cluster):
        del summary["seconds"]
    assert on_cluster == local
