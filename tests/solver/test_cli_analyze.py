"""`tan analyze RECORD`: a post-game review as a table or as the JSON of `POST /v1/analyze`."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from solver import cli
from tests.support.records import BLUNDER, GOOD, endgame_record


@pytest.fixture
def record_file(tmp_path: Path) -> Path:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(endgame_record(BLUNDER).to_json()), encoding="utf-8")
    return path


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = cli.main(argv)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_analyze_table(record_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = _run(["analyze", str(record_file), "--iterations", "300", "--seed", "4"], capsys)
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "seat 0 · durak, 2 players · trump 6h"
    assert lines[2].split() == ["ply", "played", "win", "%", "best", "win", "%", "loss", "label", "exact"]
    rows = lines[3:-2]
    assert len(rows) == 18
    last = ["34", "attack", "9c", "50.0", "attack", "Ah", "100.0", "0.500", "blunder", "yes"]
    assert rows[-1].split() == last
    forced = next(row for row in rows if row.split()[0] == "28")
    assert forced.split() == ["28", "pass", "-", "pass", "-", "-", "forced"]
    assert lines[-2].startswith("seat 0: 18 decisions (good ") and "forced 1" in lines[-2]
    assert lines[-1].startswith("ismcts: 17 searches (") and "at most 300 iterations each" in lines[-1]
    assert "seed 4" in lines[-1]


def test_analyze_json_from_stdin(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    text = json.dumps(endgame_record(GOOD).to_json())
    argv = ["analyze", "-", "--json", "--iterations", "200", "--seed", "2"]
    answers = []
    for _ in range(2):
        monkeypatch.setattr(sys, "stdin", io.StringIO(text))
        status, out, _ = _run(argv, capsys)
        assert status == 0
        answers.append(json.loads(out))
    answer = answers[0]
    assert set(answer) == {"seat", "moves", "summary", "stats"}
    assert answer["moves"][-1]["notation"] == GOOD and answer["moves"][-1]["label"] == "good"
    assert answer["summary"]["decisions"] == len(answer["moves"])
    assert answer["stats"]["limits"] == {"iterations": 200, "time_ms": None} and answer["stats"]["seed"] == 2
    for data in answers:
        del data["stats"]["time_ms"]
    assert answers[0] == answers[1]  # an iteration-limited review with a seed is reproducible


def test_analyze_refuses_a_bad_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = endgame_record().to_json()
    record["events"][4] = {"seat": 0, "move": "attack Ah"}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record))
    status, out, err = _run(["analyze", str(path)], capsys)
    assert status == 2 and out == ""
    assert err.startswith("tan analyze: events[4]: ") and err.rstrip().endswith("(illegal_move)")
    status, _, err = _run(["analyze", str(tmp_path / "missing.json")], capsys)
    assert status == 2 and "cannot read" in err
