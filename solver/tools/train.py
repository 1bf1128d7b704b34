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
import dataclasses
import hashlib
import json
import math
import sys
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from solver.core import CoreGame, decode_move
from solver.game.rules import PRESETS, Rules
from solver.search import _greedy
from solver.search._model import (
    FEATURE_SETS,
    FEATURES,
    POLICY_ACTIVE,
    POLICY_FEATURES,
    POLICY_VIEW,
    TABLE_FEATURES,
    features,
    policy_features,
    policy_view,
)
from solver.search.learned import FORMAT
from solver.tools.arena import read_results
from solver.tools.fitting import GREEDY_DEALS, Fit, adam_step, forward, gradients, replay, update

__all__ = ["Examples", "Fit", "examples", "fit_value", "main", "replay"]


@dataclass
class Examples:
    """Features (one row per seat and state), the seat's final score, and each row's deal; `target`
    what the net learns where it is not the final score (`examples`' `root_mix`)."""

    x: np.ndarray
    y: np.ndarray
    deal: np.ndarray
    target: np.ndarray | None = None

    @property
    def learned(self) -> np.ndarray:
        """What the net learns: `target`, or the final scores."""
        return self.y if self.target is None else self.target


def examples(records: Iterable[Mapping[str, Any]], root_mix: float = 0.0) -> Examples:
    """One example per seat still in, for every state of the play with exactly two seats in.

    `root_mix` > 0: at a state where a seat searched (the record's `predictions`: the root's mean
    score), each seat learns that share of the searching seat's mean (1 − it for the other seat)
    and the rest of the final score — a target with less of the deal's luck in it than the outcome
    alone (the held-out figures stay on the final scores)."""
    rows: list[np.ndarray] = []
    labels: list[float] = []
    targets: list[float] = []
    deals: list[int] = []
    for record in records:
        if record.get("match") or record.get("games"):
            continue
        scores = [float(score) for score in record["scores"]]
        searched = {int(ply): (int(seat), float(mean)) for ply, seat, mean in record.get("predictions") or ()}
        for ply, game in enumerate(replay(record)):
            snapshot = game.snapshot()
            seats = [seat for seat in range(snapshot["players"]) if seat not in snapshot["finished"]]
            if len(seats) != 2 or snapshot["phase"] != "play" or snapshot["over"]:
                continue
            for seat in seats:
                rows.append(features(game, seat))
                labels.append(scores[seat])
                target = scores[seat]
                if root_mix and ply in searched and searched[ply][0] in seats:
                    searcher, mean = searched[ply]
                    target += root_mix * ((mean if seat == searcher else 1.0 - mean) - target)
                targets.append(target)
                deals.append(int(record["deal"]))
    if not rows:
        return Examples(np.zeros((0, FEATURES)), np.zeros(0), np.zeros(0, dtype=np.int64))
    return Examples(np.vstack(rows), np.asarray(labels), np.asarray(deals, dtype=np.int64),
                    np.asarray(targets) if root_mix else None)




def greedy(rules: Rules, players: int, games: int, seed: int, noise: int = 8) -> Examples:
    """Examples from `games` greedy games played on the core (a random move `noise` times in 64),
    numbered after any recorded deal so the held-out fifth takes its share of them too."""
    low = 13 - rules.deck // 4
    deck = [suit * 13 + rank for suit in range(4) for rank in range(low, 13)]
    template = CoreGame.deal(rules, players, deck)
    x, y, game = _greedy.greedy_examples(template, games, seed, noise)
    return Examples(x, y, game + GREEDY_DEALS)


def concatenate(first: Examples, second: Examples) -> Examples:
    target = None
    if first.target is not None or second.target is not None:
        target = np.concatenate([first.learned, second.learned])
    return Examples(np.vstack([first.x, second.x]), np.concatenate([first.y, second.y]),
                    np.concatenate([first.deal, second.deal]), target)


def _loss(p: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(p, 1e-7, 1 - 1e-7)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def fit_value(
    data: Examples, hidden: int = 32, epochs: int = 20, seed: int = 1, batch: int = 256,
    rate: float = 1e-3, l2: float = 1e-5, holdout: int = 5,
) -> Fit:
    """Fit the net on every deal but those with `deal % holdout == 0`, which are held out."""
    if not len(data.y):
        raise ValueError("no examples to learn from")
    rng = np.random.default_rng(seed)
    held = data.deal % holdout == 0 if holdout else np.zeros(len(data.y), dtype=bool)
    train_x, train_y, learned = data.x[~held], data.y[~held], data.learned[~held]
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
            zb, yb = z[rows], learned[rows]
            logit, h = forward(zb, w)
            p = 1.0 / (1.0 + np.exp(-logit))
            g = (p - yb) / len(rows)  # d loss / d logit
            step += 1
            update(w, moments, gradients(zb, h, g, w, l2), step, rate)
    seconds = time.perf_counter() - start

    def figures(x: np.ndarray, y: np.ndarray) -> dict[str, Any]:
        if not len(y):
            return {"examples": 0}
        p = 1.0 / (1.0 + np.exp(-forward((x - mean) * scale, w)[0]))
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
    result = {
        "train": figures(train_x, train_y),
        "held_out": figures(data.x[held], data.y[held]),
        "seconds": round(seconds, 1),
    }
    recorded = held & (data.deal < GREEDY_DEALS)
    if recorded.any() and not recorded[held].all():
        # With greedy games beside recorded ones, the figure that says how well the net predicts the
        # engine's own games: the held-out states of the recorded games alone.
        result["held_out_recorded"] = figures(data.x[recorded], data.y[recorded])
    return Fit(weights, result)


@dataclass
class Decisions:
    """The searched decisions of recorded games: each legal move's policy features (padded with
    POLICY_FEATURES), which moves are there, the root's visit shares, each decision's deal, and
    the mover's view of the state (what a contextual policy weighs the move features by)."""

    features: np.ndarray  # (decisions, moves, POLICY_ACTIVE) int
    legal: np.ndarray     # (decisions, moves) bool
    target: np.ndarray    # (decisions, moves) visit shares
    deal: np.ndarray
    greedy: np.ndarray    # the move the greedy heuristic plays, by index
    view: np.ndarray      # (decisions, POLICY_VIEW)

    def take(self, rows: np.ndarray) -> Decisions:
        """The decisions `rows` picks (a mask or indices), every field alike."""
        return Decisions(*(getattr(self, part.name)[rows] for part in dataclasses.fields(self)))


def decisions(records: Iterable[Mapping[str, Any]]) -> Decisions:
    """Every decision with a choice whose root visits the records kept (`visits`)."""
    rows: list[list[list[int]]] = []
    targets: list[list[float]] = []
    deals: list[int] = []
    greedy: list[int] = []
    views: list[np.ndarray] = []
    for record in records:
        wanted = {int(ply): counts for ply, _seat, counts in record.get("visits") or ()}
        if not wanted or record.get("match"):
            continue
        for ply, game in enumerate(replay(record)):
            counts = wanted.get(ply)
            if counts is None:
                continue
            codes = game.legal_codes()
            total = sum(counts.values())
            if len(codes) < 2 or not total:
                continue
            rows.append([policy_features(game, code) for code in codes])
            targets.append([counts.get(decode_move(code).notation, 0) / total for code in codes])
            deals.append(int(record["deal"]))
            greedy.append(codes.index(_greedy.greedy_code(game)))
            views.append(policy_view(game))
    width = max((len(row) for row in rows), default=1)
    features_ = np.full((len(rows), width, POLICY_ACTIVE), POLICY_FEATURES, dtype=np.int64)
    legal = np.zeros((len(rows), width), dtype=bool)
    target = np.zeros((len(rows), width))
    for d, (row, shares) in enumerate(zip(rows, targets, strict=True)):
        for m, on in enumerate(row):
            features_[d, m, : len(on)] = on
            legal[d, m] = True
            target[d, m] = shares[m]
    view = np.vstack(views) if views else np.zeros((0, POLICY_VIEW))
    return Decisions(features_, legal, target, np.asarray(deals, dtype=np.int64),
                     np.asarray(greedy, dtype=np.int64), view)


def _policy_probabilities(theta: np.ndarray, data: Decisions,
                          context: np.ndarray | None = None) -> np.ndarray:
    """Each decision's move probabilities: the move features' weights summed (padding adds 0), and
    for a contextual policy each feature's row of `context` dotted with the mover's view."""
    padded = np.append(theta, 0.0)
    scores = padded[data.features].sum(axis=2)
    if context is not None:
        by_feature = np.concatenate([data.view @ context.T, np.zeros((len(data.deal), 1))], axis=1)
        scores = scores + by_feature[np.arange(len(data.deal))[:, None, None], data.features].sum(axis=2)
    scores = np.where(data.legal, scores, -np.inf)
    scores -= scores.max(axis=1, keepdims=True)
    p = np.exp(scores)
    return p / p.sum(axis=1, keepdims=True)


CONTEXT_RATE = 0.02
CONTEXT_L2 = 1e-5
"""A contextual policy's Adam step and weight decay on minibatches: the rate and decay that fitted
`tan`'s self-play visits best of the few tried (2026-12-05, docs/learning.md)."""


def fit_policy(data: Decisions, steps: int = 400, rate: float = 0.05, l2: float = 1e-4,
               holdout: int = 5, sharpen: float = 1.0, context: bool = False, epochs: int = 20,
               batch: int = 2048, seed: int = 1) -> Fit:
    """Fit the policy's weights to the visit shares raised to the power `sharpen` (1: as they are;
    large: the most visited move alone), by cross-entropy and Adam, holding out the decisions of
    every deal with `deal % holdout == 0`. The move features alone: `steps` of full-batch Adam,
    no random draws. `context`: a contextual policy (each feature's weights on the mover's view
    too), too large for full batches — `epochs` over minibatches of `batch` decisions in an order
    drawn from `seed` (`CONTEXT_RATE`, `CONTEXT_L2`). Either way the same data and options give
    the same weights."""
    if sharpen != 1.0:
        top = np.maximum(data.target.max(axis=1, keepdims=True), 1e-12)
        target = np.where(data.legal, data.target / top, 0.0) ** sharpen
        target /= target.sum(axis=1, keepdims=True)
        data = dataclasses.replace(data, target=target)
    if not len(data.deal):
        raise ValueError("no decisions to learn from")
    held = data.deal % holdout == 0 if holdout else np.zeros(len(data.deal), dtype=bool)
    train, test = data.take(~held), data.take(held)
    if context:
        return _fit_contextual(train, test, CONTEXT_RATE, CONTEXT_L2, epochs, batch, seed)
    theta = np.zeros(POLICY_FEATURES)
    m = np.zeros_like(theta)
    v = np.zeros_like(theta)
    start = time.perf_counter()
    flat = train.features.reshape(-1)
    for step in range(1, steps + 1):
        p = _policy_probabilities(theta, train)
        g = np.where(train.legal, p - train.target, 0.0) / len(train.deal)
        grad = np.zeros(POLICY_FEATURES + 1)
        np.add.at(grad, flat, np.repeat(g.reshape(-1), POLICY_ACTIVE))
        grad = grad[:-1] + 2 * l2 * theta
        theta = theta - adam_step(m, v, grad, step, rate)
    seconds = time.perf_counter() - start
    return Fit({"weights": theta.tolist(), "temperature": 1.0},
               {"train": _policy_figures(theta, None, train), "held_out": _policy_figures(theta, None, test),
                "seconds": round(seconds, 1)})


def _fit_contextual(train: Decisions, test: Decisions, rate: float, l2: float, epochs: int, batch: int,
                    seed: int) -> Fit:
    """`fit_policy` for a contextual policy: minibatch Adam over the move weights and the
    (POLICY_FEATURES, POLICY_VIEW) context weights together."""
    rng = np.random.default_rng(seed)
    width = POLICY_FEATURES + 1  # the padding feature's column, dropped from each gradient
    theta = np.zeros(POLICY_FEATURES)
    context = np.zeros((POLICY_FEATURES, POLICY_VIEW))
    moments = [np.zeros_like(theta), np.zeros_like(theta), np.zeros_like(context), np.zeros_like(context)]
    start = time.perf_counter()
    step = 0
    for _epoch in range(epochs):
        order = rng.permutation(len(train.deal))
        for first in range(0, len(order), batch):
            rows = order[first:first + batch]
            part = train.take(rows)
            p = _policy_probabilities(theta, part, context)
            g = np.where(part.legal, p - part.target, 0.0) / len(rows)
            g = np.repeat(g[:, :, None], POLICY_ACTIVE, axis=2)
            grad_theta = np.bincount(part.features.reshape(-1), weights=g.reshape(-1), minlength=width)[:-1]
            flat = (np.arange(len(rows))[:, None, None] * width + part.features).reshape(-1)
            by_feature = np.bincount(flat, weights=g.reshape(-1), minlength=len(rows) * width)
            grad_context = by_feature.reshape(len(rows), width)[:, :-1].T @ part.view
            step += 1
            theta -= adam_step(moments[0], moments[1], grad_theta + 2 * l2 * theta, step, rate)
            context -= adam_step(moments[2], moments[3], grad_context + 2 * l2 * context, step, rate)
    seconds = time.perf_counter() - start
    fitted = {"weights": theta.tolist(), "temperature": 1.0, "view": POLICY_VIEW, "context": context.tolist()}
    return Fit(fitted, {"train": _policy_figures(theta, context, train),
                        "held_out": _policy_figures(theta, context, test), "seconds": round(seconds, 1)})


def _policy_figures(theta: np.ndarray, context: np.ndarray | None, part: Decisions) -> dict[str, Any]:
    """How well a policy matches these decisions' (sharpened) visits, beside uniform and greedy."""
    if not len(part.deal):
        return {"decisions": 0}
    p = _policy_probabilities(theta, part, context)
    logp = np.log(np.where(part.legal, np.maximum(p, 1e-12), 1.0))
    uniform = np.log(1.0 / part.legal.sum(axis=1, keepdims=True))
    top = np.where(part.legal, part.target, -1.0).argmax(axis=1)
    return {
        "decisions": len(part.deal),
        "cross_entropy": round(float(-(part.target * logp).sum(axis=1).mean()), 4),
        "uniform_cross_entropy": round(float(-(part.target * uniform).sum(axis=1).mean()), 4),
        "top_move_agreement": round(float((p.argmax(axis=1) == top).mean()), 4),
        "greedy_top_move_agreement": round(float((part.greedy == top).mean()), 4),
    }


def digest(paths: Sequence[Path]) -> str:
    """A SHA-256 over the data files, in the order given."""
    hasher = hashlib.sha256()
    for path in paths:
        hasher.update(path.read_bytes())
    return hasher.hexdigest()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m solver.tools.train", description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", type=Path, help="arena results files (JSON lines)")
    parser.add_argument("--greedy-games", type=int, default=0,
                        help="also learn from this many greedy games played here (seeded by --seed)")
    parser.add_argument("--greedy-noise", type=int, default=8, help="their random moves in 64")
    parser.add_argument("--kind", default="value", choices=("value", "policy"),
                        help="a value net (from outcomes) or a policy (from the root visits)")
    parser.add_argument("--rules", default="durak", choices=sorted(PRESETS), help="the preset the net is for")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--feature-set", choices=sorted(FEATURE_SETS),
                        help="a value's features: two-seat (a two-way fight; the default at 2 seats) or "
                        "table (every seat at any table, solver/tools/train_table.py; the default at 3+)")
    parser.add_argument("--positions", type=int, default=0,
                        help="a table value learns at most this many states of each game, drawn with "
                        "--seed (0: all)")
    parser.add_argument("--hidden", type=int, default=32)
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--root-mix", type=float, default=0.0,
                        help="a value learns this share of the searching seat's root mean where it searched "
                        "(the rest: the final score)")
    parser.add_argument("--sharpen", type=float, default=4.0,
                        help="a policy learns the visit shares raised to this power (1: as they are)")
    parser.add_argument("--context", action="store_true",
                        help="a policy whose move weights depend on the mover's view of the state "
                        "(--epochs over minibatches seeded by --seed)")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    args.argv = list(sys.argv[1:] if argv is None else argv)
    rules = PRESETS[args.rules]
    if not args.games and not args.greedy_games:
        parser.error("nothing to learn from: name results files or --greedy-games")
    args.digest = digest(args.games) if args.games else None  # before reading: a file may still grow
    records = [
        record for path in args.games for record in read_results(path)
        if Rules.from_json(record["rules"]) == rules and record["players"] == args.players
    ]
    if args.kind == "policy":
        return _main_policy(args, records)
    if not 0.0 <= args.root_mix <= 1.0:
        parser.error("--root-mix must lie between 0 and 1")
    if (args.feature_set or ("two-seat" if args.players == 2 else "table")) == "table":
        if args.root_mix:
            parser.error("a table value learns outcomes alone: no --root-mix")
        return _main_table(args, records)
    data = examples(records, args.root_mix)
    if args.greedy_games:
        data = concatenate(data, greedy(rules, args.players, args.greedy_games, args.seed, args.greedy_noise))
    print(f"{len(records)} recorded games, {args.greedy_games} greedy games, {len(data.y)} examples",
          file=sys.stderr)
    fit = fit_value(data, hidden=args.hidden, epochs=args.epochs, seed=args.seed)
    _write(args, "value", FEATURES, fit, records)
    return 0


def _main_table(args: argparse.Namespace, records: list[dict[str, Any]]) -> int:
    from solver.tools.train_table import (
        concatenate_tables,
        fit_table_value,
        greedy_table,
        table_examples,
    )

    data = table_examples(records, positions=args.positions, seed=args.seed)
    if args.greedy_games:
        greedy_games = greedy_table(PRESETS[args.rules], args.players, args.greedy_games, args.seed,
                                    args.greedy_noise)
        data = concatenate_tables(data, greedy_games)
    print(f"{len(records)} recorded games, {args.greedy_games} greedy games, {data.states} states, "
          f"{len(data.score)} rows", file=sys.stderr)
    fit = fit_table_value(data, hidden=args.hidden, epochs=args.epochs, seed=args.seed)
    _write(args, "value", TABLE_FEATURES, fit, records)
    return 0


def _write(args: argparse.Namespace, kind: str, width: int, fit: Fit, records: list[dict[str, Any]]) -> None:
    """The model file: its weights and how it was made."""
    model = {
        "format": FORMAT,
        "kind": kind,
        "rules": args.rules,
        "players": args.players,
        "features": width,
        **fit.weights,
        "made_by": {
            "command": "python -m solver.tools.train " + " ".join(args.argv),
            "seed": args.seed,
            "data": [str(path) for path in args.games],
            "data_sha256": args.digest,
            "games": len(records),
            "greedy_games": args.greedy_games if kind == "value" else 0,
            "greedy_noise": args.greedy_noise,
            **fit.figures,
        },
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(model) + "\n", encoding="utf-8")
    print(json.dumps(model["made_by"], indent=1))


def _main_policy(args: argparse.Namespace, records: list[dict[str, Any]]) -> int:
    data = decisions(records)
    print(f"{len(records)} recorded games, {len(data.deal)} decisions", file=sys.stderr)
    if not len(data.deal):
        raise SystemExit("no decisions with root visits in these games: play them with this version's arena")
    fit = fit_policy(data, sharpen=args.sharpen, context=args.context, epochs=args.epochs, seed=args.seed)
    _write(args, "policy", POLICY_FEATURES, fit, records)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
