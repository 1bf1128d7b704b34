"""Training a value of every seat at a table of any size: who of the seats still in is the durak.

    python -m solver.tools.train --kind value --rules durak --players 3 --seed 1 --hidden 32 \\
        --out solver/search/models/generations/value-durak-3-g0.json GAMES.jsonl [...]

(`solver.tools.train` reads the options and writes the file; this module makes the examples and
fits the net.) Every game of an arena results file is replayed on the fast core; each state of
the play with two seats or more still in is one example: the table features
(`_model.table_features_of`) from the side of each seat in, and what the game's final scores say
of who lost — each seat's share of the losing, (1 − score) over the seats in, 1 for the durak
(a draw shares it). The net gives each seat a log-odds of not losing; the search weighs the seats
in against each other by a softmax of minus those (`_model.table_scores`), so the scores it
answers add up as a game's do. The fit minimizes that softmax's cross-entropy with Adam on
minibatches of states drawn from the seed; a fifth of the deals (by deal number) is held out.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from solver.core import CoreGame
from solver.game.rules import Rules
from solver.search import _greedy
from solver.search._model import TABLE_FEATURES, table_features_of
from solver.tools.fitting import GREEDY_DEALS, Fit, forward, gradients, replay, update

__all__ = ["TableExamples", "concatenate_tables", "fit_table_value", "greedy_table", "table_examples"]


@dataclass
class TableExamples:
    """One row per seat still in at each state (a state's rows together, `start` its first),
    the row's features and final score, the seat's share of the losing, and each state's deal."""

    x: np.ndarray      # (rows, TABLE_FEATURES) float32
    score: np.ndarray  # (rows,) the seat's final score
    share: np.ndarray  # (rows,) its share of the losing: 1 − score over the state's seats in
    start: np.ndarray  # (states + 1,) each state's first row, then the rows' count
    deal: np.ndarray   # (states,)

    @property
    def states(self) -> int:
        return len(self.deal)

    def rows_of(self, states: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The rows of these states, in their order, and for each row its state's place in `states`."""
        counts = self.start[states + 1] - self.start[states]
        first = np.cumsum(counts) - counts
        group = np.repeat(np.arange(len(states)), counts)
        rows = np.repeat(self.start[states], counts) + np.arange(int(counts.sum())) - first[group]
        return rows, group


WEIGHT_DECIMALS = 7
"""The decimals a table value's file keeps of each weight, mean and scale."""


def table_examples(records: Iterable[Mapping[str, Any]], positions: int = 0, seed: int = 1) -> TableExamples:
    """The examples of every state of the play with two seats or more in (`positions` > 0: at most
    that many of each game's states, drawn with `seed` and the game's place in `records`)."""
    rows: list[np.ndarray] = []
    scores: list[float] = []
    shares: list[float] = []
    starts: list[int] = []
    deals: list[int] = []
    for number, record in enumerate(records):
        if record.get("match") or record.get("games"):
            continue
        final = [float(score) for score in record["scores"]]
        plies = len(record["moves"])
        kept: set[int] | None = None
        if positions and plies > positions:
            drawn = np.random.default_rng([seed, number]).choice(plies, positions, replace=False)
            kept = {int(ply) for ply in drawn}
        # `replay` moves one game on in place: each state is read before the next move.
        for ply, game in enumerate(replay(record)):
            if kept is not None and ply not in kept:
                continue
            snapshot = game.snapshot()
            seats = [seat for seat in range(snapshot["players"]) if seat not in snapshot["finished"]]
            losing = sum(1.0 - final[seat] for seat in seats)
            if len(seats) < 2 or snapshot["phase"] != "play" or snapshot["over"] or losing <= 0.0:
                continue
            starts.append(len(scores))
            deals.append(int(record["deal"]))
            for seat in seats:
                rows.append(table_features_of(game, seat).astype(np.float32))
                scores.append(final[seat])
                shares.append((1.0 - final[seat]) / losing)
    starts.append(len(scores))
    x = np.vstack(rows) if rows else np.zeros((0, TABLE_FEATURES), dtype=np.float32)
    return TableExamples(x, np.asarray(scores), np.asarray(shares), np.asarray(starts, dtype=np.int64),
                         np.asarray(deals, dtype=np.int64))


def greedy_table(rules: Rules, players: int, games: int, seed: int, noise: int = 8) -> TableExamples:
    """Examples from `games` greedy games played on the core (a random move `noise` times in 64,
    a tenth of their states), numbered after any recorded deal so the held-out fifth takes its
    share of them too."""
    low = 13 - rules.deck // 4
    deck = [suit * 13 + rank for suit in range(4) for rank in range(low, 13)]
    template = CoreGame.deal(rules, players, deck)
    x, score, state, game = _greedy.greedy_table_examples(template, games, seed, noise)
    states = int(state[-1]) + 1 if len(state) else 0
    losing = np.bincount(state, weights=1.0 - score, minlength=states)
    keep = losing[state] > 0.0
    x, score, state, game = x[keep], score[keep], state[keep], game[keep]
    _, first = np.unique(state, return_index=True)
    share = (1.0 - score) / losing[state]
    return TableExamples(x, score, share, np.append(first, len(score)).astype(np.int64),
                         game[first] + GREEDY_DEALS)


def concatenate_tables(first: TableExamples, second: TableExamples) -> TableExamples:
    """The examples of both, `second`'s states after `first`'s."""
    return TableExamples(np.vstack([first.x, second.x]), np.concatenate([first.score, second.score]),
                         np.concatenate([first.share, second.share]),
                         np.concatenate([first.start[:-1], second.start + len(first.score)]),
                         np.concatenate([first.deal, second.deal]))


def _durak_chances(logit: np.ndarray, group: np.ndarray, states: int) -> np.ndarray:
    """Each row's chance of being its state's durak: a softmax of minus the logits within a state."""
    u = -logit
    top = np.full(states, -np.inf)
    np.maximum.at(top, group, u)
    e = np.exp(u - top[group])
    total = np.bincount(group, weights=e, minlength=states)
    return e / total[group]


def fit_table_value(
    data: TableExamples, hidden: int = 32, epochs: int = 3, seed: int = 1, batch: int = 256,
    rate: float = 1e-3, l2: float = 1e-5, holdout: int = 5,
) -> Fit:
    """Fit the net on every deal but those with `deal % holdout == 0`, which are held out: minibatches
    of `batch` states in an order drawn from `seed`, the same data and options giving the same
    weights."""
    if not data.states:
        raise ValueError("no states to learn from")
    rng = np.random.default_rng(seed)
    held = data.deal % holdout == 0 if holdout else np.zeros(data.states, dtype=bool)
    train_states, test_states = np.flatnonzero(~held), np.flatnonzero(held)
    train_rows, _ = data.rows_of(train_states)
    x = data.x[train_rows].astype(np.float64)
    mean = x.mean(axis=0)
    std = x.std(axis=0)
    del x
    scale = np.where(std > 1e-6, 1.0 / np.maximum(std, 1e-6), 0.0)
    w = {
        "w1": rng.normal(0.0, math.sqrt(2.0 / TABLE_FEATURES), (hidden, TABLE_FEATURES)),
        "b1": np.zeros(hidden),
        "w2": rng.normal(0.0, math.sqrt(1.0 / max(hidden, 1)), hidden) * 0.1,
        "skip": np.zeros(TABLE_FEATURES),
        "b2": np.zeros(()),
    }
    moments = {name: (np.zeros_like(value), np.zeros_like(value)) for name, value in w.items()}
    step = 0
    start = time.perf_counter()
    for _ in range(epochs):
        order = train_states[rng.permutation(len(train_states))]
        for begin in range(0, len(order), batch):
            states = order[begin:begin + batch]
            rows, group = data.rows_of(states)
            zb = (data.x[rows].astype(np.float64) - mean) * scale
            logit, h = forward(zb, w)
            p = _durak_chances(logit, group, len(states))
            g = (data.share[rows] - p) / len(states)  # d loss / d logit: the softmax is over −logit
            step += 1
            update(w, moments, gradients(zb, h, g, w, l2), step, rate)
    seconds = time.perf_counter() - start
    # The file keeps 7 decimals (a weight of a feature never seen decays to a denormal): the figures
    # are those of the weights as written.
    w = {name: np.round(value, WEIGHT_DECIMALS) for name, value in w.items()}
    mean, scale = np.round(mean, WEIGHT_DECIMALS), np.round(scale, WEIGHT_DECIMALS)

    def figures(states: np.ndarray) -> dict[str, Any]:
        if not len(states):
            return {"states": 0}
        rows, group = data.rows_of(states)
        p = np.empty(len(rows))
        for first in range(0, len(rows), 65536):  # in parts: a held-out fifth may be large
            part = slice(first, first + 65536)
            p[part] = forward((data.x[rows[part]].astype(np.float64) - mean) * scale, w)[0]
        p = _durak_chances(p, group, len(states))
        seats = np.bincount(group, minlength=len(states))
        share = data.share[rows]
        truth = 1.0 - data.score[rows]
        cross = -np.bincount(group, weights=share * np.log(np.maximum(p, 1e-12)), minlength=len(states))
        top = np.full(len(states), -1.0)
        np.maximum.at(top, group, p)
        picked = np.bincount(group, weights=(p == top[group]) * share, minlength=len(states))
        return {
            "states": len(states),
            "rows": len(rows),
            "cross_entropy": round(float(cross.mean()), 4),       # of who is the durak
            "uniform_cross_entropy": round(float(np.log(seats).mean()), 4),
            "brier": round(float(np.mean((p - truth) ** 2)), 4),  # of each seat's score
            "uniform_brier": round(float(np.mean((1.0 / seats[group] - truth) ** 2)), 4),
            "durak_named": round(float(picked.mean()), 4),        # the likeliest durak was the durak
        }

    weights = {
        "feature_set": "table",
        "hidden": hidden,
        "mean": mean.tolist(),
        "scale": scale.tolist(),
        "w1": w["w1"].tolist(),
        "b1": w["b1"].tolist(),
        "w2": w["w2"].tolist(),
        "skip": w["skip"].tolist(),
        "b2": float(w["b2"]),
    }
    result = {"train": figures(train_states), "held_out": figures(test_states), "seconds": round(seconds, 1)}
    recorded = test_states[data.deal[test_states] < GREEDY_DEALS]
    if 0 < len(recorded) < len(test_states):
        # With greedy games beside recorded ones, how well the net predicts the engine's own games.
        result["held_out_recorded"] = figures(recorded)
    return Fit(weights, result)
