"""The C speed reference plays the same game: its traced games replay move by move.

`solver/tools/c/durak_playout.c` built with `-DDURAK_TRACE` prints every game it
plays (the deck, each move, the number of legal moves it chose among, the
loser). Each engine that is importable replays those games: every move must be
legal there, its legal-move count must agree, and the loser must be the same.
This keeps the C loop honest as a speed reference.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from solver.game.cards import Card, deck
from solver.game.moves import Move
from solver.game.rules import Rules
from solver.tools.bench import C_SOURCE

SOURCE = C_SOURCE
GAMES = 300



def _build(tmp: Path, *defines: str) -> Path:
    binary = tmp / "durak_playout"
    subprocess.run(
        ["gcc", "-O2", "-std=gnu11", "-Wall", "-Wextra", "-Werror", *defines, "-o", str(binary), str(SOURCE)],
        check=True,
    )
    return binary


@pytest.fixture(scope="module")
def traces(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    binary = _build(tmp_path_factory.mktemp("c"), "-DDURAK_TRACE")
    out = subprocess.run([str(binary), str(GAMES), "7"], check=True, capture_output=True, text=True).stdout
    games = [json.loads(line) for line in out.splitlines()]
    assert len(games) == GAMES
    return games


def test_checked_build_conserves_cards(tmp_path: Path) -> None:
    """`-DDURAK_CHECK` aborts if a card is ever lost, duplicated or made up."""
    binary = _build(tmp_path, "-DDURAK_CHECK")
    out = subprocess.run([str(binary), "3000", "3"], check=True, capture_output=True, text=True).stdout
    result = json.loads(out)
    assert result["playouts"] == 3000
    rates = [*result["loss_rate_by_seat"], result["draw_rate"]]
    assert sum(rates) == pytest.approx(1.0, abs=1e-5)


def test_traces_are_whole_games(traces: list[dict[str, Any]]) -> None:
    for game in traces:
        assert sorted(Card.parse(card).index for card in game["deck"]) == [c.index for c in deck(36)]
        assert len(game["moves"]) == len(game["counts"])
        assert all(count >= 1 for count in game["counts"])
        for move in game["moves"]:
            Move.parse(move)


def test_c_games_replay_in_the_core(traces: list[dict[str, Any]]) -> None:
    from solver.core import _core as core
    rules = Rules.from_json("durak")
    for number, trace in enumerate(traces):
        game = core.CoreGame.deal(rules, 2, [Card.parse(card) for card in trace["deck"]])
        for ply, (text, count) in enumerate(zip(trace["moves"], trace["counts"], strict=True)):
            assert not game.over, f"game {number}: over before ply {ply}"
            legal = game.legal_moves()
            where = f"game {number}, ply {ply} ({text})"
            assert len(legal) == count, f"{where}: core has {len(legal)} moves, C {count}"
            assert Move.parse(text) in legal, where
            game.play(Move.parse(text))
        assert game.over, f"game {number}: not over after the C game ended"
        assert game.snapshot()["loser"] == (-1 if trace["loser"] is None else trace["loser"]), number


def test_c_games_replay_in_the_reference(traces: list[dict[str, Any]]) -> None:
    from solver.game import reference
    rules = Rules.from_json("durak")
    for number, trace in enumerate(traces[:100]):
        game = reference.Game.deal(rules, 2, deck=trace["deck"])
        for ply, (text, count) in enumerate(zip(trace["moves"], trace["counts"], strict=True)):
            legal = list(game.legal_moves())
            where = f"game {number}, ply {ply} ({text})"
            assert len(legal) == count, f"{where}: reference has {len(legal)} moves, C {count}"
            assert Move.parse(text) in legal, where
            game.play(Move.parse(text))
        assert game.over, f"game {number}: not over after the C game ended"
        assert game.loser == trace["loser"], number


def test_speed_script_writes_its_results(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from benchmarks import speed

    output = tmp_path / "speed.json"
    assert (
        speed.main(
            ["--json", "--games", "20", "--engines", "c,reference", "--no-pin", "--output", str(output)]
        )
        == 0
    )
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(line["engine"], line["rules"], line["players"]) for line in lines] == [
        ("c", "durak", 2),
        ("reference", "durak", 2),
        ("reference", "tan", 2),
        ("reference", "tan", 4),
    ]
    record = json.loads(output.read_text())
    assert record["results"] == lines
    assert record["short"] is False and record["pinned_cpu"] is None


def test_speed_script_compares_c_and_core_in_rounds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from benchmarks import speed

    output = tmp_path / "speed.json"
    argv = ["--json", "--games", "50", "--engines", "c,core", "--rounds", "3", "--no-pin",
            "--output", str(output)]
    assert speed.main(argv) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    ratio = lines[-1]
    assert ratio["bench"] == "c_core_ratio" and ratio["rounds"] == 3 and len(ratio["ratios"]) == 3
    assert sorted(ratio["ratios"])[1] == pytest.approx(ratio["ratio"], abs=1e-3)
    assert json.loads(output.read_text())["c_core_rounds"] == {k: v for k, v in ratio.items()
                                                               if k not in ("bench", "rules", "players")}
