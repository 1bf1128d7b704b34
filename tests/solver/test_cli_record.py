"""`tan record convert IN [OUT]`: a game record between its JSON and its text (docs/notation.md)."""

from __future__ import annotations

import dataclasses
import io
import json
import sys
from pathlib import Path

import pytest

from solver import cli
from solver.game.notation import record_to_text
from solver.game.record import Record
from solver.game.rules import Rules
from tests.support.records import endgame_record, match_games


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = cli.main(argv)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_json_to_text_and_back_through_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rules = Rules.preset_named("tan", redeal_without_trump=True, tribute=True, trump_swap=True)
    record = next(iter(match_games(rules, 2, 3, 2))).record(1)
    source, text, back = tmp_path / "game.json", tmp_path / "game.txt", tmp_path / "again.json"
    source.write_text(json.dumps(record.to_json()), encoding="utf-8")
    assert _run(["record", "convert", str(source), str(text)], capsys) == (0, "", "")
    assert text.read_text(encoding="utf-8") == record_to_text(record)
    assert _run(["record", "convert", str(text), str(back)], capsys) == (0, "", "")
    assert json.loads(back.read_text(encoding="utf-8")) == record.to_json()


def test_stdin_to_stdout_with_to(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    text = record_to_text(endgame_record())
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    status, out, err = _run(["record", "convert", "-", "--to", "text"], capsys)
    assert (status, err, out) == (0, "", text)  # text to text: the canonical text again
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    status, out, _ = _run(["record", "convert", "-", "-"], capsys)
    assert status == 0 and Record.from_json(json.loads(out)) == endgame_record()


def test_a_malformed_text_is_one_line_with_its_line_and_status_2(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    text = record_to_text(endgame_record()).replace("1. 0: attack 6s", "1. 0: attack 6x")
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    status, out, err = _run(["record", "convert", "-"], capsys)
    assert status == 2 and out == ""
    assert err.startswith("tan record: line 8: ") and "6x" in err and err.count("\n") == 1


def test_hint_and_analyze_read_a_records_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = endgame_record()
    path = tmp_path / "game.txt"
    path.write_text(record_to_text(dataclasses.replace(before, events=before.events[:-1])), encoding="utf-8")
    status, out, _ = _run(["hint", str(path), "--record", "--iterations", "200", "--json"], capsys)
    assert status == 0 and json.loads(out)["best"] == {"action": "attack", "card": "Ah"}
    path.write_text(record_to_text(before), encoding="utf-8")
    status, out, _ = _run(["analyze", str(path), "--iterations", "100", "--json"], capsys)
    assert status == 0 and json.loads(out)["moves"]
