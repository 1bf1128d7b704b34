"""The endgame check scores a value net against states the exact solver proves."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from benchmarks import value_endgames
from solver.cli import main as tan
from solver.search import _endgame
from solver.search.learned import named_model


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("endgames") / "games.jsonl"
    assert tan(["arena", "--rules", "durak", "--engines", "greedy,random", "--deals", "8", "--seed", "3",
                "--workers", "1", "--out", str(path), "--no-progress"]) == 0
    return path


def test_positions_are_small_proven_endgames(games: Path) -> None:
    positions, _ = value_endgames.proven_positions([games], "durak", 10, 50)
    assert positions
    for game, seat, truth in positions:
        snap = game.snapshot()
        assert not snap["stock"] and sum(len(hand) for hand in snap["hands"]) <= 10
        assert seat == game.to_move and len(game.legal_codes()) >= 2
        other = _endgame.solve_exact(game, 1 - seat).value / 2
        assert truth in (0.0, 0.5, 1.0) and truth + other == 1.0  # two seats: one's win is the other's loss
    assert not value_endgames.proven_positions([games], "tan", 10, 50)[0]  # durak games hold no tan states


def test_a_net_is_judged_on_the_proven_scores(games: Path) -> None:
    positions, _ = value_endgames.proven_positions([games], "durak", 10, 50)
    net = named_model("value-durak-2").net
    figures = value_endgames.judged(net, positions)  # type: ignore[arg-type]
    values = [min(max(net.value(game, seat), 1e-6), 1 - 1e-6) for game, seat, _ in positions]  # type: ignore[union-attr]
    truths = [truth for _, _, truth in positions]
    pairs = zip(values, truths, strict=True)
    loss = -sum(t * math.log(p) + (1 - t) * math.log(1 - p) for p, t in pairs) / len(values)
    assert figures["log_loss"] == pytest.approx(loss, abs=1e-4)
    assert figures["won_positions"] == truths.count(1.0)
    assert figures["won_positions"] + figures["lost_positions"] == len(positions)


def test_the_command_writes_its_figures_and_refuses_another_rules_net(games: Path, tmp_path: Path) -> None:
    output = tmp_path / "judged.json"
    argv = ["--cards", "10", "--positions", "5", "--output", str(output), str(games)]
    assert value_endgames.main(argv) == 0
    result = json.loads(output.read_text())
    assert set(result["models"]) == {"value-durak-2"} and 0 < result["positions"] <= 5
    with pytest.raises(SystemExit):
        value_endgames.main(["--model", "value-tan-2", str(games)])
