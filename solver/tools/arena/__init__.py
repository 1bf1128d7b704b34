"""Engines against each other on paired deals (`tan arena`, the strength benchmarks).

- `tasks`: one `GameTask` per deal and seat rotation, and `play_game`, a pure function of it;
- `runners`: `run_arena` on local processes or a Dask cluster, results appended as they land;
- `statistics`: mean scores with Wilson intervals, Elo, and the sequential test (`Sprt`).
"""

from solver.tools.arena.runners import read_results, run_arena
from solver.tools.arena.statistics import (
    ArenaSummary,
    EngineStats,
    Sprt,
    SprtResult,
    elo_difference,
    expected_score,
    sprt_result,
    summarize,
    wilson_interval,
)
from solver.tools.arena.tasks import (
    ArenaError,
    GameTask,
    build_tasks,
    checked_player,
    engine_label,
    play_game,
    with_limits,
)

__all__ = [
    "ArenaError",
    "ArenaSummary",
    "EngineStats",
    "GameTask",
    "Sprt",
    "SprtResult",
    "build_tasks",
    "checked_player",
    "elo_difference",
    "engine_label",
    "expected_score",
    "play_game",
    "read_results",
    "run_arena",
    "sprt_result",
    "summarize",
    "wilson_interval",
    "with_limits",
]
