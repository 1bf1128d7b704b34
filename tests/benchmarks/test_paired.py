"""The paired comparison takes two engines' scores deal by deal against one opponent."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks import paired
from solver.cli import main as tan
from solver.tools.arena import read_results


def _arena(path: Path, engines: str, seed: int) -> None:
    assert tan(["arena", "--rules", "durak", "--engines", engines, "--deals", "6", "--seed", str(seed),
                "--workers", "1", "--out", str(path), "--no-progress"]) == 0


def test_two_engines_are_compared_on_the_same_deals(tmp_path: Path) -> None:
    greedy, lucky = tmp_path / "greedy.jsonl", tmp_path / "lucky.jsonl"
    _arena(greedy, "greedy,random", 5)
    _arena(lucky, '[{"engine": "random", "name": "lucky"}, "random"]', 5)
    first = paired.deal_scores(read_results(greedy), "greedy")
    second = paired.deal_scores(read_results(lucky), "lucky")
    assert set(first) == set(second) and len(first) == 6  # the same decks: the same seed
    result = paired.compare(first, second)
    expected = sum(first[deal] - second[deal] for deal in first) / 6
    assert result["deals"] == 6 and result["difference"] == pytest.approx(expected, abs=1e-4)
    assert result["ci95"][0] <= result["difference"] <= result["ci95"][1]
    assert result["first"] > result["second"]  # greedy beats random far more often than random does
    output = tmp_path / "paired.json"
    assert paired.main([str(greedy), "greedy", str(lucky), "lucky", "--output", str(output)]) == 0
    assert json.loads(output.read_text())["deals"] == 6


def test_arenas_of_other_deals_cannot_be_paired(tmp_path: Path) -> None:
    one, other = tmp_path / "one.jsonl", tmp_path / "other.jsonl"
    _arena(one, "greedy,random", 5)
    _arena(other, "greedy,random", 6)
    with pytest.raises(ValueError, match="share 0 deal"):
        paired.compare(paired.deal_scores(read_results(one), "greedy"),
                       paired.deal_scores(read_results(other), "greedy"))
