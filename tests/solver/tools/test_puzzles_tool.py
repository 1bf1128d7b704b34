"""The builder of the shipped puzzles (`python -m solver.tools.puzzles`): the file says how it was
made, holds each puzzle once, offers at least `--min-moves` moves, and the same records, limits and
seed make the same puzzles."""

from __future__ import annotations

import json
from pathlib import Path

from solver.search import Limits
from solver.tools.puzzles import build, main
from tests.support.records import BLUNDER, GOOD, endgame_record


def test_the_same_records_and_seed_make_the_same_puzzles_each_once() -> None:
    records = [endgame_record(BLUNDER), endgame_record(GOOD)]  # one game twice: its positions repeat
    puzzles = build(records, Limits(iterations=200), seed=3, checks=64, most=8)
    again = build(records, Limits(iterations=200), seed=3, checks=64, most=8)
    assert [puzzle.to_json() for puzzle in puzzles] == [puzzle.to_json() for puzzle in again]
    ids = [puzzle.id for puzzle in puzzles]
    assert ids and len(ids) == len(set(ids))
    assert len(ids) < len(build(records[:1], Limits(iterations=200), 3, 64, 8)) + len(
        build(records[1:], Limits(iterations=200), 4, 64, 8))  # a position found in both games is one
    wide = build(records, Limits(iterations=200), seed=3, checks=64, most=8, min_moves=3)
    assert all(len(puzzle.hint.moves) >= 3 for puzzle in wide) and len(wide) < len(puzzles)


def test_the_file_records_its_command(tmp_path: Path) -> None:
    out = tmp_path / "puzzles.json"
    args = ["--seed", "3", "--games", "0", "--min-moves", "3", "--out", str(out)]
    assert main(args) == 0
    made_by = json.loads(out.read_text())["made_by"]
    assert made_by["command"] == "python -m solver.tools.puzzles " + " ".join(args)
    assert (made_by["seed"], made_by["games"], made_by["min_moves"], made_by["rules"]) == (3, 0, 3, "tan")
    assert made_by["limits"] == {"iterations": 4000, "time_ms": None} and "commit" in made_by
