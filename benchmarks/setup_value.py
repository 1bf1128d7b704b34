"""What the setup's decisions are worth: the default engine against itself always keeping.

    python -m benchmarks.setup_value [--rules JSON] [--deals 400] [--time-ms 100] [--seed 2026]
                                     [--workers N] [--out FILE] [--resume]

The two engines differ only before the first lead: one searches its setup
decisions (redeal or keep, which new hand, swap or keep; docs/rules.md §1.7),
the other always keeps. On a deal where nobody faces such a decision they play
the same game, so only deals where a seat does are played: the arena's deals
are drawn as usual (`tan arena` with the same seed gives the same decks), and
those where no seat has a choice in the setup, in either seat rotation, are left out.
Prints and writes (`benchmarks/results/setup-value.json`) the searching
engine's score with its Wilson interval; every game's record goes to `--out`.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from solver.game.phases import Phase, nothing_to_decide
from solver.game.reference import Game, random_deck
from solver.game.rules import Rules
from solver.tools.arena import GameTask, build_tasks, run_arena, summarize

RESULTS = Path(__file__).resolve().parent / "results"
EVERY_SIDE_RULE = {
    "preset": "tan", "redeal_without_trump": True, "tribute": True, "all_trumps_wins": True,
    "trump_swap": True, "take_when_beaten": True, "twos_last": True, "trump_repeat_limit": 3,
}  # fmt: skip


def has_decision(task: GameTask) -> bool:
    """Whether a seat faces a setup decision on this deal while every seat keeps: every seat is asked
    in the setup's rounds, so a question with keep alone (nothing to decide) does not count."""
    rules = Rules.from_json(task.rules)
    game = Game.deal(rules, task.players, deck=random_deck(rules, task.deal_seed), chance_seed=task.deal_seed)
    while game.phase is Phase.SETUP and not game.over and game.setup_step is not None:
        moves = game.legal_moves()
        if not nothing_to_decide(moves):
            return True
        game.play(moves[0])
    return False


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.setup_value", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--rules", type=json.loads, default=EVERY_SIDE_RULE,
                        help="rules JSON (default: tan with every side rule)")
    parser.add_argument("--deals", type=int, default=400,
                        help="deals drawn (only those with a decision are played)")
    parser.add_argument("--time-ms", type=float, default=100.0, help="time per move of both engines")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int)
    parser.add_argument("--out", help="append each game's record to this JSON-lines file")
    parser.add_argument("--resume", action="store_true", help="keep --out's records, play only the rest")
    parser.add_argument("--output", type=Path, default=RESULTS / "setup-value.json")
    args = parser.parse_args(argv)
    limits = {"time_ms": args.time_ms}
    engines = [
        {"engine": "ismcts", "limits": limits, "name": "ismcts"},
        {"engine": "ismcts", "limits": limits, "setup": "keep", "name": "ismcts-keeps"},
    ]
    tasks = build_tasks(engines, args.deals, rules=args.rules, players=2, seed=args.seed)
    deals_with = {task.deal for task in tasks if has_decision(task)}
    chosen = [task for task in tasks if task.deal in deals_with]
    records = run_arena(chosen, workers=args.workers, out=args.out, resume=args.resume, progress=False)
    summary = summarize(records, order=["ismcts", "ismcts-keeps"]).to_json()
    result: dict[str, Any] = {
        "rules": args.rules, "deals_drawn": args.deals, "deals_with_a_decision": len(deals_with),
        "time_ms": args.time_ms, "seed": args.seed, **summary,
    }  # fmt: skip
    args.output.write_text(json.dumps(result, indent=2) + "\n")
    engine = summary["engines"][0]
    print(f"{len(deals_with)} of {args.deals} deals start with a setup decision; {summary['games']} games")
    print(f"ismcts (searching its setup) against itself always keeping: {engine['score']:.3f} "
          f"(95% {engine['ci95'][0]:.3f}-{engine['ci95'][1]:.3f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
