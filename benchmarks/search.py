"""Search speed and exact endgames (BENCHMARKS.md, quality bars, search bars).

    python -m benchmarks.search [--short] [--json]

1. ISMCTS iterations per second from the opening of 2-seat `durak` and `tan`,
   with one and two threads (root-parallel), of the default engine (`ismcts`)
   and of `ismcts_playouts`: the median of 5 timed hints (1 with
   `--short`), a search of t threads pinned to t cores.
2. Exact endgame solve times: 2-seat positions with an empty stock at a bout
   start and exactly k cards in the larger hand (k = 4, 5, 6, 8), reached by
   random play from random deals; median and maximum per k.

Writes `benchmarks/results/search.json` (`search-short.json` for `--short`).
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

from solver.core._core import CoreGame
from solver.game.cards import deck
from solver.game.rules import Rules
from solver.search import _endgame
from solver.tools.bench import report_search

RESULTS = Path(__file__).resolve().parent / "results"


def endgame(rules: Rules, rng: random.Random, cards: int) -> CoreGame:
    """A 2-seat bout start with an empty stock whose larger hand has exactly `cards` cards."""
    while True:
        order = [card.index for card in deck(rules.deck)]
        rng.shuffle(order)
        game = CoreGame.deal(rules, 2, order)
        while not game.over:
            snap = game.snapshot()
            sizes = [len(hand) for hand in snap["hands"]]
            if not snap["stock"] and not snap["table"]:
                if max(sizes) == cards and min(sizes) > 0:
                    return CoreGame.from_fields(
                        rules, 2, snap["hands"], [], snap["trump"], [], snap["attacker"],
                        snap["defender"], snap["to_move"], False, [], snap["finished"], True,
                    )
                if max(sizes) < cards:
                    break
            game.play(rng.choice(game.legal_codes()))


def endgame_times(preset: str, cards: int, count: int, seed: int) -> dict[str, Any]:
    rules = Rules.preset_named(preset)
    rng = random.Random(f"{preset}-{cards}-{seed}")
    times = []
    nodes = []
    for _ in range(count):
        game = endgame(rules, rng, cards)
        start = time.perf_counter()
        n = _endgame.solve_exact(game, game.to_move).nodes
        times.append((time.perf_counter() - start) * 1000.0)
        nodes.append(n)
    return {
        "bench": "endgame",
        "rules": preset,
        "cards_per_hand": cards,
        "positions": count,
        "median_ms": round(statistics.median(times), 3),
        "p90_ms": round(sorted(times)[int(0.9 * (count - 1))], 3),
        "max_ms": round(max(times), 3),
        "median_nodes": int(statistics.median(nodes)),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--short", action="store_true", help="fewer iterations and positions")
    parser.add_argument("--json", action="store_true", help="one JSON object a line")
    args = parser.parse_args(argv)
    iterations = 50_000 if args.short else 300_000
    positions = 20 if args.short else 200
    lines: list[dict[str, Any]] = []

    def emit(line: dict[str, Any], text: str) -> None:
        lines.append(line)
        print(json.dumps(line) if args.json else text, flush=True)

    for preset in ("durak", "tan"):
        for engine in ("ismcts", "ismcts_playouts"):
            speeds = report_search([(preset, 2)], (1, 2), iterations, repeats=1 if args.short else 5,
                                   engine=engine, seed=1, as_json=args.json)
            lines.extend(speed.to_json() for speed in speeds)
    for preset in ("durak", "tan"):
        for cards in (4, 5, 6, 8):
            line = endgame_times(preset, cards, positions if cards < 8 else positions // 2, seed=1)
            emit(line, f"{preset:<6} endgame {cards} cards: median {line['median_ms']} ms, "
                       f"p90 {line['p90_ms']} ms, max {line['max_ms']} ms over {line['positions']}")
    RESULTS.mkdir(exist_ok=True)
    out = RESULTS / ("search-short.json" if args.short else "search.json")
    out.write_text(json.dumps({"machine": platform.platform(), "processor": platform.processor(),
                               "results": lines}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
