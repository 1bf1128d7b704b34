"""How good the card tracker is: its chances against where the cards really were.

    python -m benchmarks.tracker RESULTS.jsonl [...] [--every 4] [--particles 16384] [--games N]
        [--others KIND] [--fitted] [--policy-model NAME] [--output FILE]

Every game `tan arena --out` recorded (its moves included) is replayed from
its deck. Every `--every` plies, for each seat still holding cards, the
tracker of that seat (`Beliefs.card_chances`, from the history the seat saw,
`HistoryReader`) is compared with the truth: for every card the seat cannot
see, where it really lies (a seat's hand, or elsewhere: the stock). Reported
per rules, seat count and the engine the seat watched (two seats: the other
seat's label), weighted and uniform: the log-loss (mean −ln of the chance
given to the true place) and the Brier score (mean over cards of the squared
error summed over places), lower is better; and how far the weights are from
uniform: the effective sample size of the weighted worlds as a share of the
worlds drawn (median and tenth percentile) — near 1 when the others' moves say
little about their hands, near 0 when only a few worlds explain them.
`--fitted` reads the engine kind of player by its fitted model, as before the
learned policy read it; `--policy-model` by another learned policy (an earlier
generation or a candidate) than the one shipped.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
from collections import defaultdict
from pathlib import Path
from typing import Any

from solver.game.moves import Move
from solver.game.phases import Phase
from solver.game.position import Position
from solver.game.reference import Game
from solver.game.rules import Rules
from solver.search.beliefs import KINDS, HistoryReader, fitted, weigh
from solver.search.config import known_kinds
from solver.search.sampling import prepare
from solver.tools.arena import read_results

RESULTS = Path(__file__).resolve().parent / "results"


def score(chances: dict[Any, list[float]], game: Game) -> tuple[float, float, int]:
    """Summed log-loss and Brier score of `chances` against `game`'s true hands, and the cards."""
    places = game.players
    log_loss = brier = 0.0
    for card, row in chances.items():
        truth = next((seat for seat in range(places) if card in game.hands[seat]), places)
        log_loss -= math.log(max(row[truth], 1e-6))
        brier += sum((p - (1.0 if place == truth else 0.0)) ** 2 for place, p in enumerate(row))
    return log_loss, brier, len(chances)


def _engine(spec: Any) -> str:
    """The engine of a seat spec (`"greedy"`, `{"engine": "ismcts", …}`), whatever its label."""
    return str(spec if isinstance(spec, str) else spec.get("engine"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.tracker", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("results", nargs="+", type=Path, help="tan arena --out files (with moves)")
    parser.add_argument("--every", type=int, default=4, help="measure every this many plies")
    parser.add_argument("--particles", type=int, default=16384)
    parser.add_argument("--games", type=int, default=None, help="only the first N games of each file")
    parser.add_argument("--others", default=None, help="weigh the other seats as this kind of player "
                        "alone (solver.search.beliefs.KINDS), as the engine option others does")
    parser.add_argument("--fitted", action="store_true", help="read the kinds of player by their fitted "
                        "models alone, never by the learned policy (engine option beliefs_policy false)")
    parser.add_argument("--policy-model", default="", help="read the engine kind by this learned policy "
                        "(a model name, solver.search.learned.model_names) instead of the shipped one")
    parser.add_argument("--budget", type=int, default=None, help="weigh's cap on worlds times decisions "
                        "weighed (its default unless given)")
    parser.add_argument("--min-ess", type=float, default=None, help="the ESS below which weigh tempers "
                        "the likelihoods (its default unless given)")
    parser.add_argument("--output", type=Path, default=RESULTS / "tracker.json")
    args = parser.parse_args(argv)
    options = {name: value for name, value in (("budget", args.budget), ("min_ess", args.min_ess),
                                               ("policy_model", args.policy_model))
               if value is not None}
    kinds = known_kinds(args.others)
    if args.fitted:
        kinds = fitted(kinds or KINDS)
    totals: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(lambda: [0.0, 0.0, 0]))
    shares: dict[str, list[float]] = defaultdict(list)  # the weighted worlds' ESS / worlds drawn
    for path in args.results:
        for number, record in enumerate(read_results(path)):
            if args.games is not None and number >= args.games:
                break
            if "moves" not in record or record.get("match") is not None:
                continue
            rules = Rules.from_json(record["rules"])
            preset = record["rules"] if isinstance(record["rules"], str) else "custom"
            game = Game.deal(rules, record["players"], deck=record["deck"], chance_seed=record["deal_seed"])
            readers = [HistoryReader(seat, game.trump) for seat in range(game.players)]
            for ply, (mover, text) in enumerate(record["moves"]):
                if ply % args.every == 0 and game.phase is Phase.PLAY:
                    for seat, reader in enumerate(readers):
                        if not game.hands[seat]:
                            continue
                        position = Position.from_game(game, seat)
                        watched = _engine(record["seats"][1 - seat]) if record["players"] == 2 else None
                        name = f"{preset} {record['players']}p" + (f", watching {watched}" if watched else "")
                        for mode, history in (("weighted", reader.history()), ("uniform", None)):
                            beliefs = weigh(prepare(position), history, kinds, args.particles,
                                            seed=ply, **options)
                            if mode == "weighted" and beliefs.weighted:
                                shares[name].append(beliefs.ess / len(beliefs.weights))
                            found = score(beliefs.card_chances(position), game)
                            total = totals[name][mode]
                            for i in range(3):
                                total[i] += found[i]
                move = Move.parse(text)
                before = game.clone()
                game.play(move, mover)
                for reader in readers:
                    reader.observe(mover, move, before, game)
    report: dict[str, Any] = {
        "files": [str(path) for path in args.results],
        "every": args.every,
        "policy_model": args.policy_model or "shipped",
        "groups": {},
    }
    for name, modes in sorted(totals.items()):
        report["groups"][name] = {
            mode: {"cards": int(n), "log_loss": round(ll / n, 4), "brier": round(b / n, 4)}
            for mode, (ll, b, n) in modes.items()
            if n
        }
        if len(shares[name]) > 1:
            report["groups"][name]["ess_share"] = {
                "weighings": len(shares[name]),
                "median": round(statistics.median(shares[name]), 3),
                "p10": round(statistics.quantiles(shares[name], n=10)[0], 3),
            }
        print(name, json.dumps(report["groups"][name]))
    args.output.write_text(json.dumps(report, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
