"""Honest win chances: the engine's predicted scores against what happened.

    python -m benchmarks.calibration RESULTS.jsonl [...] [--bins 10] [--output FILE] [--plot FILE]

Every game `tan arena --out` records keeps, for each decision of a searching
seat, the expected score its search predicted (`predictions`: ply, seat,
score). Each prediction is compared with the score that seat got at the end
(docs/rules.md §1.5). Per group — rules, seat count, the engine's label and
its opponents' (so an arena of the engine with and without weighted beliefs
gives two groups) — it reports the predictions counted, the Brier score (mean squared
error), and the expected calibration error (ECE: the count-weighted mean of
|mean prediction − mean outcome| over `--bins` equal-width bins of the
prediction), and draws a reliability diagram (mean outcome against mean
prediction per bin; a calibrated engine lies on the diagonal).

`--correct` also fits, on the first half of the games (by deal), the monotone
map from prediction to outcome (pool-adjacent-violators) and reports the ECE
and Brier of the corrected predictions on the second half, before and after.
`--fit-map FILE` fits that map on every deal for the default engine against
each engine that does not search (and against searching seats named with
`--map-opponent LABEL=ENGINE`, the default engine's own seat labelled as
`--map-seat` says) and writes them as Tấn ships them
(`solver/search/calibration.json`, applied to hints in stored games against
that engine); maps already in FILE for another opponent, rule set or model
are kept.

Self-play of one seat spec (`--engines '["ismcts","ismcts"]'`) labels its seats
`ismcts@100ms#1` and `#2`; both are one engine, so the number is dropped and
the games make one group, `ismcts@100ms vs ismcts@100ms` (its map: `--map-seat
ismcts@100ms --map-opponent ismcts@100ms=ismcts`).
"""

from __future__ import annotations

import argparse
import json
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from solver.game.rules import Rules
from solver.players import searches
from solver.search.calibration import MAPS_FORMAT, ScoreMap
from solver.search.learned import answering_model
from solver.tools.arena import read_results

RESULTS = Path(__file__).resolve().parent / "results"
PROVEN = (0.0, 0.5, 1.0)  # the exact solver's values: answers never map them


def _rules_name(rules: Any) -> str:
    """A preset's name, with the number of options set beside it."""
    if isinstance(rules, str):
        return rules
    extra = [key for key in rules if key != "preset"]
    return f"{rules.get('preset', 'custom')}" + (f"+{len(extra)} options" if extra else "")


def engine_of(label: str) -> str:
    """The engine an arena label names: a spec played in several seats is one engine, whose labels
    differ only in a trailing `#n` (solver/tools/arena/tasks.py)."""
    return re.sub(r"#\d+$", "", label)


def predictions(
    records: Iterable[dict[str, Any]],
) -> dict[tuple[str, int, str], list[tuple[int, float, float]]]:
    """Per (rules, seats, "engine vs opponents"): (deal, predicted score, final score) of every
    decision of the engine's seats."""
    groups: dict[tuple[str, int, str], list[tuple[int, float, float]]] = defaultdict(list)
    for record in records:
        if record.get("match") is not None or not record.get("predictions"):
            continue
        for _ply, seat, score in record["predictions"]:
            labels = record["engines"]
            others = sorted({engine_of(label) for other, label in enumerate(labels) if other != seat})
            key = (
                _rules_name(record["rules"]),
                record["players"],
                f"{engine_of(record['engines'][seat])} vs {','.join(others)}",
            )
            groups[key].append((record["deal"], float(score), float(record["scores"][seat])))
    return groups


def calibration(predicted: np.ndarray, outcome: np.ndarray, bins: int) -> dict[str, Any]:
    """Brier score, ECE and the reliability table of `predicted` against `outcome`."""
    edges = np.linspace(0.0, 1.0, bins + 1)
    which = np.clip(np.digitize(predicted, edges[1:-1]), 0, bins - 1)
    table, ece = [], 0.0
    for b in range(bins):
        inside = which == b
        count = int(inside.sum())
        if not count:
            continue
        mean_p, mean_o = float(predicted[inside].mean()), float(outcome[inside].mean())
        ece += count / len(predicted) * abs(mean_p - mean_o)
        table.append(
            {
                "bin": [round(edges[b], 2), round(edges[b + 1], 2)],
                "count": count,
                "predicted": round(mean_p, 4),
                "outcome": round(mean_o, 4),
            }
        )
    brier = float(np.mean(np.square(predicted - outcome)))
    return {
        "predictions": len(predicted),
        "brier": round(brier, 4),
        "ece": round(ece, 4),
        "reliability": table,
    }


def corrected(
    train: Sequence[tuple[int, float, float]], test: Sequence[tuple[int, float, float]]
) -> np.ndarray:
    """`test`'s predictions mapped through the monotone fit of `train`'s outcomes on predictions,
    as hints map them: the same fit as the maps Tấn ships (`solver.search.calibration.ScoreMap`),
    proven values (0, ½, 1) neither fitted nor mapped."""
    fitted = [(p, o) for _, p, o in train if p not in PROVEN]
    mapped = ScoreMap.fit([p for p, _ in fitted], [o for _, o in fitted], "", Rules.from_json("durak"), 2)
    return np.array([p if p in PROVEN else mapped(p) for _, p, _ in test])


def fitted_maps(
    records: Iterable[dict[str, Any]],
    engine: str = "ismcts",
    seats: Iterable[str] = (),
    opponents: Mapping[str, str] | None = None,
    model: str = "playouts",
) -> list[ScoreMap]:
    """A score map per (rules, seat count, opponent) for `engine`'s predictions (or those of a
    seat labelled one of `seats`, the same engine under another name) in games where every other
    seat is one engine: one that does not search (greedy, random), or a searching one whose
    arena label `opponents` names, under the engine name it gives (`{"uniform": "ismcts"}`: the
    engine's maps against a searching opponent, fitted on self-play). Fitted on every deal; proven
    values (0, ½, 1: the exact solver's) are left out, as hints never map them. `model`: the search's
    model of play those seats searched with (`stats.model`), which the maps are for; `default`: the
    default search's for each map's rules and seats (`solver.search.learned.answering_model`)."""
    mine = {engine, *seats}
    named = dict(opponents or {})
    rows: dict[tuple[str, int, str], tuple[list[float], list[float], set[str]]] = defaultdict(
        lambda: ([], [], set())
    )
    for record in records:
        if record.get("match") is not None or not record.get("predictions") or record.get("source") is None:
            continue
        for _ply, seat, score in record["predictions"]:
            if engine_of(record["engines"][seat]) not in mine or float(score) in PROVEN:
                continue  # a proven value (or one no different from it) stays as it is: not mapped
            others = {engine_of(label) for other, label in enumerate(record["engines"]) if other != seat}
            if len(others) != 1:
                continue
            (label,) = others
            if label in named:
                against = named[label]
            elif searches(label) or label in mine:
                continue  # a searching opponent nobody named: its games say nothing of one engine
            else:
                against = label
            key = (json.dumps(record["rules"], sort_keys=True), record["players"], against)
            predicted, outcome, sources = rows[key]
            predicted.append(float(score))
            outcome.append(float(record["scores"][seat]))
            sources.add(record["source"])
    maps = []
    for (rules, players, against), (predicted, outcome, sources) in sorted(rows.items()):
        chosen = Rules.from_json(json.loads(rules))
        of = model if model != "default" else answering_model(chosen, players)
        source = ", ".join(sorted(sources))
        maps.append(ScoreMap.fit(predicted, outcome, against, chosen, players, source, of))
    return maps


def plot(groups: dict[str, dict[str, Any]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5.5, 5.5))
    ax.plot([0, 1], [0, 1], color="grey", linestyle=":", linewidth=1, label="calibrated")
    for name, result in groups.items():
        table = result["reliability"]
        ax.plot(
            [row["predicted"] for row in table],
            [row["outcome"] for row in table],
            marker="o",
            label=f"{name} (ECE {result['ece']:.3f}, n={result['predictions']})",
        )
    ax.set_xlabel("predicted expected score")
    ax.set_ylabel("mean final score")
    ax.set_title("Reliability of the engine's win chances")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def _map_key(m: ScoreMap) -> str:
    """What one map answers for: its opponent, rules, seats and model of play."""
    return json.dumps([m.against, m.rules.to_json(), m.players, m.model], sort_keys=True)


def kept_maps(path: Path) -> list[ScoreMap]:
    """The maps already in `path` (none if it does not exist): `--fit-map` replaces only those it
    fits again, so the shipped file is made by one run per set of games (BENCHMARKS.md)."""
    if not path.exists():
        return []
    return [ScoreMap.from_json(item) for item in json.loads(path.read_text())["maps"]]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.calibration", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("results", nargs="+", type=Path, help="tan arena --out files")
    parser.add_argument("--bins", type=int, default=10)
    parser.add_argument("--correct", action="store_true", help="fit a monotone correction on half the deals")
    parser.add_argument("--output", type=Path, default=RESULTS / "calibration.json")
    parser.add_argument("--plot", type=Path, default=RESULTS / "calibration.png")
    parser.add_argument(
        "--fit-map",
        type=Path,
        metavar="FILE",
        help="also write the default engine's score maps against engines that do not search "
        "(solver/search/calibration.json holds the shipped ones)",
    )
    parser.add_argument(
        "--map-seat",
        action="append",
        default=[],
        metavar="LABEL",
        help="an arena label that is the default engine too (e.g. weighted)",
    )
    parser.add_argument(
        "--map-opponent",
        action="append",
        default=[],
        metavar="LABEL=ENGINE",
        help="also fit maps against the searching seat labelled LABEL, as engine ENGINE "
        "(e.g. uniform=ismcts)",
    )
    parser.add_argument(
        "--map-model",
        default="playouts",
        metavar="MODEL",
        help="the search's model of play the mapped seats searched with, as a hint's stats.model says it "
        "(playouts, the default; a learned value's name such as value-durak-2; or `default`: the default "
        "search's for each map's rules and seats): the maps are for its scores",
    )
    args = parser.parse_args(argv)
    opponents: dict[str, str] = {}
    for pair in args.map_opponent:
        label, sep, engine = pair.partition("=")
        if not sep or not label or not engine:
            parser.error(f"--map-opponent {pair!r}: expected LABEL=ENGINE")
        opponents[label] = engine
    records = [
        {**record, "source": path.name} for path in args.results for record in read_results(path)
    ]
    report: dict[str, Any] = {"files": [str(path) for path in args.results], "bins": args.bins, "groups": {}}
    for (rules, players, engine), rows in sorted(predictions(records).items()):
        name = f"{rules} {players}p {engine}"
        predicted = np.array([p for _, p, _ in rows])
        outcome = np.array([o for _, _, o in rows])
        result = calibration(predicted, outcome, args.bins)
        result["games"] = len({deal for deal, _, _ in rows})
        if args.correct:
            deals = sorted({deal for deal, _, _ in rows})
            half = set(deals[: len(deals) // 2])
            train = [row for row in rows if row[0] in half]
            test = [row for row in rows if row[0] not in half]
            if train and test:
                raw = calibration(
                    np.array([p for _, p, _ in test]), np.array([o for _, _, o in test]), args.bins
                )
                fixed = calibration(corrected(train, test), np.array([o for _, _, o in test]), args.bins)
                result["held_out"] = {
                    "before": {key: raw[key] for key in ("predictions", "brier", "ece")},
                    "after": {key: fixed[key] for key in ("predictions", "brier", "ece")},
                }
        report["groups"][name] = result
        print(
            f"{name}: {result['predictions']} predictions in {result['games']} deals, "
            f"Brier {result['brier']:.4f}, ECE {result['ece']:.4f}"
            + (
                f"; held out ECE {result['held_out']['before']['ece']:.4f} -> "
                f"{result['held_out']['after']['ece']:.4f}"
                if "held_out" in result
                else ""
            )
        )
    args.output.write_text(json.dumps(report, indent=2) + "\n")
    if args.fit_map is not None:
        maps = fitted_maps(records, seats=args.map_seat, opponents=opponents, model=args.map_model)
        fitted = {_map_key(m) for m in maps}
        kept = [m for m in kept_maps(args.fit_map) if _map_key(m) not in fitted]
        lines = ",\n".join(json.dumps(m.to_json()) for m in [*maps, *kept])  # a map a line
        args.fit_map.write_text(f'{{"format": {MAPS_FORMAT}, "maps": [\n{lines}\n]}}\n')
        for m in maps:
            print(f"score map against {m.label}: {len(m.x)} knots from {m.predictions} predictions")
        if kept:
            print(f"kept {len(kept)} map(s) of {args.fit_map} this run does not fit")
    if report["groups"]:
        plot(report["groups"], args.plot)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
