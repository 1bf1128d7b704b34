"""How far past its time limit a hint ends: endgames with nothing hidden and mid-game positions.

    python -m benchmarks.overshoot [--positions 200] [--time-ms 100] [--short] [--output FILE]

Positions come from 2-seat `durak` and `tan` games played by the greedy engine
with one move in four random (seeded): for each rule set `--positions`
games' first decision with the stock empty and two seats left — nothing
hidden, so the hint first tries the exact solve, then searches if it runs out
— and as many decisions with cards in the stock. Each is hinted once with
`--time-ms` and no practical iteration limit, and timed from the call to the
answer. Prints and writes
(`benchmarks/results/overshoot.json`, `overshoot-short.json` with `--short`)
per kind the wall time's median, 99th percentile and maximum, the overshoot's
(wall time minus the limit) over the answers the clock stopped, how many
answers ended more than 5 ms and 50% past the limit, and how far
`stats.time_ms` is from the wall time.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import time
from pathlib import Path
from typing import Any

from solver.game.phases import Phase
from solver.game.position import Position
from solver.game.reference import Game
from solver.game.rules import Rules
from solver.players import ENGINES, GreedyPlayer, SearchPlayer, make_player, searches
from solver.search import Limits

RESULTS = Path(__file__).resolve().parent / "results"
PRESETS = ("durak", "tan")


def decisions(preset: str, count: int, seed: int) -> dict[str, list[Position]]:
    """`count` endgame and `count` mid-game decisions of `preset`, from seeded games of the
    greedy engine with one move in four random: of each game the first decision once the stock is
    empty (the largest hands, the hardest to solve) and mid-game ones every 3 plies."""
    rng = random.Random(f"{preset}:{seed}")
    greedy = GreedyPlayer()
    found: dict[str, list[Position]] = {"endgame": [], "midgame": []}
    while min(len(found["endgame"]), len(found["midgame"])) < count:
        game = Game.deal(Rules.preset_named(preset), 2, seed=rng.getrandbits(63))
        ply = 0
        endgame = False
        while not game.over and game.to_move is not None:
            seat = game.to_move
            position = Position.from_game(game, seat)
            choice = game.phase is Phase.PLAY and len(position.legal_moves()) > 1
            if choice and not game.stock and not endgame and len(found["endgame"]) < count:
                found["endgame"].append(position)
                endgame = True
            elif choice and game.stock and ply % 3 == 0 and len(found["midgame"]) < count:
                found["midgame"].append(position)
            legal = game.legal_moves()
            move = rng.choice(legal) if rng.random() < 0.25 else greedy.choose(position, rng.getrandbits(63))
            game.play(move, seat)
            ply += 1
    return found


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def summary(walls: list[float], reported: list[float], reasons: list[str], time_ms: float) -> dict[str, Any]:
    """The wall times of every answer; the overshoot of those the clock stopped."""
    over = [wall - time_ms for wall, reason in zip(walls, reasons, strict=True) if reason == "time"] or [0.0]
    return {
        "answers": len(walls),
        "stopped_by_time": sum(reason == "time" for reason in reasons),
        "solved_exactly": sum(reason == "exact" for reason in reasons),
        "wall_ms": {"p50": round(statistics.median(walls), 2), "p99": round(percentile(walls, 0.99), 2),
                    "max": round(max(walls), 2)},
        "overshoot_ms": {"p50": round(statistics.median(over), 2), "p99": round(percentile(over, 0.99), 2),
                         "max": round(max(over), 2)},
        "over_5ms": sum(o > 5.0 for o in over),
        "over_half": sum(wall > 1.5 * time_ms for wall in walls),
        "over_limit_max_ms": round(max(wall - time_ms for wall in walls), 2),
        "stats_gap_ms_max": round(max(abs(w - r) for w, r in zip(walls, reported, strict=True)), 2),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.overshoot", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--positions", type=int, default=200, help="decisions of each kind per rule set")
    parser.add_argument("--time-ms", type=float, default=100.0)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--short", action="store_true", help="20 decisions of each kind per rule set")
    parser.add_argument("--output", type=Path)
    parser.add_argument(
        "--engine", default="ismcts", choices=[name for name in ENGINES if searches(name)],
        help="the searching engine whose hints are timed (its registry name; default: the default engine)",
    )
    args = parser.parse_args(argv)
    count = 20 if args.short else args.positions
    output = args.output or RESULTS / ("overshoot-short.json" if args.short else "overshoot.json")
    limits = Limits(iterations=10**12, time_ms=args.time_ms)
    player = make_player(args.engine)
    assert isinstance(player, SearchPlayer)
    solver = player.solver
    kinds: dict[str, dict[str, list[Any]]] = {}
    for preset in PRESETS:
        for kind, positions in decisions(preset, count, args.seed).items():
            rows = kinds.setdefault(f"{preset} {kind}", {"wall": [], "reported": [], "reason": []})
            for index, position in enumerate(positions):
                start = time.perf_counter()
                hint = solver.hint(position, limits, seed=index)
                rows["wall"].append((time.perf_counter() - start) * 1000.0)
                rows["reported"].append(hint.stats.time_ms)
                rows["reason"].append(hint.stats.stop_reason)
    result = {
        "time_ms": args.time_ms,
        "engine": args.engine,
        "machine": platform.processor() or platform.machine(),
        "kinds": {
            name: summary(v["wall"], v["reported"], v["reason"], args.time_ms) for name, v in kinds.items()
        },
    }
    every = {key: [x for v in kinds.values() for x in v[key]] for key in ("wall", "reported", "reason")}
    result["all"] = summary(every["wall"], every["reported"], every["reason"], args.time_ms)
    print(json.dumps(result, indent=2))
    output.write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
