"""Type stub of the sampler of unseen cards (solver/search/_sampling.pyx)."""

import numpy as np
from typing_extensions import disjoint_base

from solver.core import CoreGame
from solver.game.rules import Rules

@disjoint_base
class Sampler:
    @property
    def seat(self) -> int: ...
    @property
    def rules(self) -> Rules: ...
    def __init__(
        self,
        template: CoreGame,
        seat: int,
        pool: list[int],
        slots: list[int],
        stock_size: int,
        stock_only: list[int] = ...,
        set_slots: int = 0,
    ) -> None: ...
    def sample(self, seed: int) -> CoreGame: ...
    def set_particles(self, hands: np.ndarray, weights: np.ndarray) -> None: ...
    @property
    def particles(self) -> int: ...
