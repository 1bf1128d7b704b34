"""The search: hints and evaluations of what one seat can see.

`Solver` answers `Hint`s and `Evaluation`s within `Limits` as its `SearchConfig` says (one
table of options and the engines' presets, `solver.search.config`), and a seat's card
`Tracker` without a search; `prepare` turns a position into the sampler the
Cython search draws worlds from.
"""

from solver.search.answers import Evaluation, Hint, MoveValue, SearchStats, Tracker, Value
from solver.search.budget import Limits, LimitsError, StopFlag
from solver.search.config import ALGORITHMS, PRESETS, SearchConfig
from solver.search.sampling import Root, prepare
from solver.search.solver import Solver

__all__ = [
    "ALGORITHMS",
    "PRESETS",
    "Evaluation",
    "Hint",
    "Limits",
    "LimitsError",
    "MoveValue",
    "Root",
    "SearchConfig",
    "SearchStats",
    "Solver",
    "StopFlag",
    "Tracker",
    "Value",
    "prepare",
]
