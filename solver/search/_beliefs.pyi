"""Type stub of the belief weighing (solver/search/_beliefs.pyx)."""

import numpy as np

from solver.core import CoreGame
from solver.search._model import PolicyModel
from solver.search._sampling import Sampler

def weigh_worlds(
    sampler: Sampler,
    states: list[CoreGame],
    ops: np.ndarray,
    models: np.ndarray,
    seed: int,
    hands: np.ndarray,
    log_weights: np.ndarray,
    time_ms: float = 0.0,
    stop: bytearray | None = None,
    policy: PolicyModel | None = None,
    learned: int = 0,
) -> tuple[int, int]: ...
