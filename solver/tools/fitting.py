"""What both trainers share (solver/tools/train.py, the two-seat nets and the policy; train_table.py,
the value of every seat): replaying a recorded game, a fitted net, its forward pass and Adam's step.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from solver.core import CoreGame
from solver.game.cards import Card
from solver.game.rules import Rules

__all__ = ["GREEDY_DEALS", "Fit", "adam_step", "forward", "gradients", "replay", "update"]

GREEDY_DEALS = 1_000_000
"""Greedy games are numbered from here, after any recorded deal."""


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
class Fit:
    """A fitted net's weights and its figures."""

    weights: dict[str, Any]
    figures: dict[str, Any]


def forward(z: np.ndarray, w: Mapping[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    hidden = np.maximum(z @ w["w1"].T + w["b1"], 0.0)
    logit = z @ w["skip"] + hidden @ w["w2"] + w["b2"]
    return logit, hidden


def adam_step(m: np.ndarray, v: np.ndarray, grad: np.ndarray, step: int, rate: float) -> np.ndarray:
    """Adam's step for one array of weights (to subtract from them), its moments `m` and `v`
    updated in place: the one update every fit here uses."""
    m *= 0.9
    m += 0.1 * grad
    v *= 0.999
    v += 0.001 * grad * grad
    return rate * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)


def gradients(z: np.ndarray, hidden: np.ndarray, g: np.ndarray, w: Mapping[str, np.ndarray],
              l2: float) -> dict[str, np.ndarray]:
    """The gradients of a batch's loss by each weight, from `g`, its gradient by each row's logit
    (`forward`'s `z` and `hidden`), with an L2 penalty `l2` on the weights."""
    gh = np.outer(g, w["w2"]) * (hidden > 0)
    return {
        "w1": gh.T @ z + 2 * l2 * w["w1"],
        "b1": gh.sum(axis=0),
        "w2": hidden.T @ g + 2 * l2 * w["w2"],
        "skip": z.T @ g + 2 * l2 * w["skip"],
        "b2": np.asarray(g.sum()),
    }


def update(w: dict[str, np.ndarray], moments: Mapping[str, tuple[np.ndarray, np.ndarray]],
           grads: Mapping[str, np.ndarray], step: int, rate: float) -> None:
    """Adam's step `step` on every weight of `w`, in place."""
    for name, grad in grads.items():
        w[name] = w[name] - adam_step(*moments[name], grad, step, rate)
