"""The tracker benchmark scores the card tracker on recorded games, per engine watched."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks import tracker
from solver.cli import main as tan


def test_the_tracker_is_scored_per_engine_watched(tmp_path: Path) -> None:
    games = tmp_path / "games.jsonl"
    assert tan(["arena", "--rules", "durak", "--engines", "ismcts,greedy", "--iterations", "30",
                "--deals", "2", "--seed", "8", "--workers", "1", "--out", str(games), "--no-progress"]) == 0
    output = tmp_path / "tracker.json"
    assert tracker.main([str(games), "--particles", "512", "--games", "3", "--output", str(output)]) == 0
    groups = json.loads(output.read_text())["groups"]
    assert set(groups) == {"durak 2p, watching greedy", "durak 2p, watching ismcts"}
    for group in groups.values():
        assert group["weighted"]["cards"] == group["uniform"]["cards"] > 0
        assert 0.0 < group["uniform"]["log_loss"] < 2.0 and 0.0 < group["weighted"]["brier"] < 2.0
        assert 0.0 < group["ess_share"]["p10"] <= group["ess_share"]["median"] <= 1.0


def test_the_others_known_are_weighed_as_that_kind_alone(tmp_path: Path) -> None:
    games = tmp_path / "games.jsonl"
    assert tan(["arena", "--rules", "durak", "--engines", "ismcts,greedy", "--iterations", "30",
                "--deals", "2", "--seed", "8", "--workers", "1", "--out", str(games), "--no-progress"]) == 0
    read, known = tmp_path / "read.json", tmp_path / "known.json"
    assert tracker.main([str(games), "--particles", "512", "--output", str(read)]) == 0
    assert tracker.main([str(games), "--particles", "512", "--others", "greedy", "--output", str(known)]) == 0
    by_reading = json.loads(read.read_text())["groups"]["durak 2p, watching greedy"]
    by_kind = json.loads(known.read_text())["groups"]["durak 2p, watching greedy"]
    assert by_kind["uniform"] == by_reading["uniform"]
    assert by_kind["weighted"]["cards"] == by_reading["weighted"]["cards"]
    assert by_kind["weighted"]["log_loss"] != by_reading["weighted"]["log_loss"]


def test_a_higher_min_ess_tempers_the_weights_towards_uniform(tmp_path: Path) -> None:
    games = tmp_path / "games.jsonl"
    assert tan(["arena", "--rules", "durak", "--engines", "ismcts,greedy", "--iterations", "30",
                "--deals", "1", "--seed", "8", "--workers", "1", "--out", str(games), "--no-progress"]) == 0
    sharp, flat = tmp_path / "sharp.json", tmp_path / "flat.json"
    assert tracker.main([str(games), "--particles", "512", "--min-ess", "1", "--output", str(sharp)]) == 0
    assert tracker.main([str(games), "--particles", "512", "--min-ess", "100000", "--output", str(flat)]) == 0
    for name, group in json.loads(flat.read_text())["groups"].items():
        before = json.loads(sharp.read_text())["groups"][name]
        assert group["ess_share"]["median"] > before["ess_share"]["median"]
        assert group["ess_share"]["p10"] > 0.9
