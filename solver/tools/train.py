"""Training the value net from games the engine played: the worlds it passed through and how they ended.

    python -m solver.tools.train --rules durak --players 2 --seed 1 --hidden 32 \\
        --out solver/search/models/value-durak-2.json GAMES.jsonl [GAMES.jsonl ...]

Every game of an arena results file (`tan arena --out`) is replayed on the
fast core from its deck and moves; each state of the play with two seats
still in gives one example per seat: the world's features from that seat
(solver/search/_model.pyx) and the seat's final score. The net — a logistic
regression plus a small ReLU layer — is fitted with Adam on the
cross-entropy; a fifth of the deals (by deal number) is held out, and the
file records the held-out log-loss and Brier score beside the same figures
of the best constant, with the command, the seed and the data's digest.
The same files, seed and options give the same weights, bit for bit.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import sys
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from solver.core import CoreGame
from solver.game.cards import Card
from solver.game.rules import PRESETS, Rules
from solver.search._model import FEATURES, features
from solver.search.learned import FORMAT
from solver.tools.arena import read_results

__all__ = ["Examples", "Fit", "examples", "fit_value", "main", "replay"]


def replay(record: Mapping[str, Any]) -> Iterator[CoreGame]:
    """The states of a recorded game, before each move (the same object, moved on in place)."""
    rules = Rules.from_json(record["rules"])
    deck = [Card.parse(text).index for text in record["deck"]]
    game = CoreGame.deal(rules, int(record["players"]), deck, int(record["first_attacker"]),
                         chance_seed=int(record["deal_seed"]))
    for _, notation in record["moves"]:
        yield game
        game.play(notation)
    if game.scores() != [float(score) for score in record["scores"]]:
        raise ValueError(f"deal {record['deal']}: the replay does not end as the record says")


@dataclass
class Examples:
    """Features (one row per seat and state), the seat's final score, and each row's deal."""

    x: np.ndarray
    y: np.ndarray
    deal: np.ndarray


def examples(records: Iterable[Mapping[str, Any]]) -> Examples:
    """One example per seat still in, for every state of the play with exactly two seats in."""
    rows: list[np.ndarray] = []
    labels: list[float] = []
    deals: list[int] = []
    for record in records:
        if record.get("match") or record.get("games"):
            continue
        scores = [float(score) for score in record["scores"]]
        for game in replay(record):
            snapshot = game.snapshot()
            seats = [seat for seat in range(snapshot["players"]) if seat not in snapshot["finished"]]
            if len(seats) != 2 or snapshot["phase"] != "play" or snapshot["over"]:
                continue
            for seat in seats:
                rows.append(features(game, seat))
                labels.append(scores[seat])
                deals.append(int(record["deal"]))
    if not rows:
        return Examples(np.zeros((0, FEATURES)), np.zeros(0), np.zeros(0, dtype=np.int64))
    return Examples(np.vstack(rows), np.asarray(labels), np.asarray(deals, dtype=np.int64))


@dataclass
class Fit:
    """A fitted net's weights and its figures."""

    weights: dict[str, Any]
    figures: dict[str, Any]


def _loss(p: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(p, 1e-7, 1 - 1e-7)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def _forward(z: np.ndarray, w: Mapping[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    hidden = np.maximum(z @ w["w1"].T + w["b1"], 0.0)
    logit = z @ w["skip"] + hidden @ w["w2"] + w["b2"]
    return logit, hidden


def fit_value(
    data: Examples, hidden: int = 32, epochs: int = 20, seed: int = 1, batch: int = 256,
    rate: float = 1e-3, l2: float = 1e-5, holdout: int = 5,
) -> Fit:
    """Fit the net on every deal but those with `deal % holdout == 0`, which are held out."""
    if not len(data.y):
        raise ValueError("no examples to learn from")
    rng = np.random.default_rng(seed)
    held = data.deal % holdout == 0 if holdout else np.zeros(len(data.y), dtype=bool)
    train_x, train_y = data.x[~held], data.y[~held]
    mean = train_x.mean(axis=0)
    std = train_x.std(axis=0)
    scale = np.where(std > 1e-6, 1.0 / np.maximum(std, 1e-6), 0.0)
    z = (train_x - mean) * scale
    w = {
        "w1": rng.normal(0.0, math.sqrt(2.0 / FEATURES), (hidden, FEATURES)),
        "b1": np.zeros(hidden),
        "w2": rng.normal(0.0, math.sqrt(1.0 / max(hidden, 1)), hidden) * 0.1,
        "skip": np.zeros(FEATURES),
        "b2": np.zeros(()),
    }
    moments = {name: (np.zeros_like(value), np.zeros_like(value)) for name, value in w.items()}
    step = 0
    start = time.perf_counter()
    for _ in range(epochs):
        order = rng.permutation(len(train_y))
        for begin in range(0, len(order), batch):
            rows = order[begin:begin + batch]
            zb, yb = z[rows], train_y[rows]
            logit, h = _forward(zb, w)
            p = 1.0 / (1.0 + np.exp(-logit))
            g = (p - yb) / len(rows)  # d loss / d logit
            gh = np.outer(g, w["w2"]) * (h > 0)
            grads = {
                "w1": gh.T @ zb + 2 * l2 * w["w1"],
                "b1": gh.sum(axis=0),
                "w2": h.T @ g + 2 * l2 * w["w2"],
                "skip": zb.T @ g + 2 * l2 * w["skip"],
                "b2": np.asarray(g.sum()),
            }
            step += 1
            for name, grad in grads.items():
                m, v = moments[name]
                m *= 0.9
                m += 0.1 * grad
                v *= 0.999
                v += 0.001 * grad * grad
                w[name] = w[name] - rate * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
    seconds = time.perf_counter() - start

    def figures(x: np.ndarray, y: np.ndarray) -> dict[str, Any]:
        if not len(y):
            return {"examples": 0}
        p = 1.0 / (1.0 + np.exp(-_forward((x - mean) * scale, w)[0]))
        base = float(np.clip(train_y.mean(), 1e-7, 1 - 1e-7))
        return {
            "examples": len(y),
            "log_loss": round(_loss(p, y), 4),
            "brier": round(float(np.mean((p - y) ** 2)), 4),
            "constant_log_loss": round(_loss(np.full(len(y), base), y), 4),
            "constant_brier": round(float(np.mean((base - y) ** 2)), 4),
        }

    weights = {
        "hidden": hidden,
        "mean": mean.tolist(),
        "scale": scale.tolist(),
        "w1": w["w1"].tolist(),
        "b1": w["b1"].tolist(),
        "w2": w["w2"].tolist(),
        "skip": w["skip"].tolist(),
        "b2": float(w["b2"]),
    }
    return Fit(weights, {
        "train": figures(train_x, train_y),
        "held_out": figures(data.x[held], data.y[held]),
        "seconds": round(seconds, 1),
    })


def digest(paths: Sequence[Path]) -> str:
    """A SHA-256 over the data files, in the order given."""
    hasher = hashlib.sha256()
    for path in paths:
        hasher.update(path.read_bytes())
    return hasher.hexdigest()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m solver.tools.train", description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="+", type=Path, help="arena results files (JSON lines)")
    parser.add_argument("--rules", default="durak", choices=sorted(PRESETS), help="the preset the net is for")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--hidden", type=int, default=32)
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    rules = PRESETS[args.rules]
    records = [
        record for path in args.games for record in read_results(path)
        if Rules.from_json(record["rules"]) == rules and record["players"] == args.players
    ]
    data = examples(records)
    print(f"{len(records)} games, {len(data.y)} examples", file=sys.stderr)
    fit = fit_value(data, hidden=args.hidden, epochs=args.epochs, seed=args.seed)
    model = {
        "format": FORMAT,
        "kind": "value",
        "rules": args.rules,
        "players": args.players,
        "features": FEATURES,
        **fit.weights,
        "made_by": {
            "command": "python -m solver.tools.train "
            + " ".join(str(part) for part in (sys.argv[1:] if argv is None else argv)),
            "seed": args.seed,
            "data": [str(path) for path in args.games],
            "data_sha256": digest(args.games),
            "games": len(records),
            **fit.figures,
        },
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(model) + "\n", encoding="utf-8")
    print(json.dumps(model["made_by"], indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
