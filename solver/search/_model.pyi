"""Type stub of the learned models' C code (solver/search/_model.pyx)."""

from typing import Any

import numpy as np
from typing_extensions import disjoint_base

from solver.core import CoreGame

FEATURES: int
TABLE_FEATURES: int
FEATURE_SETS: dict[str, int]
HIDDEN_MAX: int
POLICY_FEATURES: int
POLICY_ACTIVE: int
POLICY_VIEW: int

def features(game: CoreGame, seat: int) -> np.ndarray: ...
def table_features_of(game: CoreGame, seat: int) -> np.ndarray: ...
def policy_features(game: CoreGame, code: int) -> list[int]: ...
def policy_view(game: CoreGame) -> np.ndarray: ...

@disjoint_base
class ValueModel:
    hidden: int
    feature_set: str
    def __init__(self, mean: Any, scale: Any, w1: Any, b1: Any, w2: Any, skip: Any, b2: float,
                 feature_set: str = "two-seat") -> None: ...
    def value(self, game: CoreGame, seat: int) -> float: ...
    def scores(self, game: CoreGame) -> list[float] | None: ...

@disjoint_base
class PolicyModel:
    def __init__(self, weights: Any, temperature: float = 1.0, context: Any = None) -> None: ...
    @property
    def contextual(self) -> bool: ...
    def probabilities(self, game: CoreGame) -> dict[int, float]: ...
