"""A search ends at once when its stop flag is set, from before it starts or from another thread."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from solver.search import Limits, Solver, StopFlag
from tests.support.positions import open_endgame, to_move_position

ROOT = Path(__file__).resolve().parents[3]

ENDLESS = Limits(iterations=10**12)  # no time limit: only the flag can stop these searches


def test_a_search_whose_flag_is_set_runs_no_iteration() -> None:
    stop = StopFlag()
    stop.set()
    solver = Solver(stop=stop)
    hint = solver.hint(to_move_position(seed=3), ENDLESS, seed=1)
    assert hint.stats.iterations == 0 and hint.stats.stop_reason == "stopped"
    assert hint.best in {move.move for move in hint.moves}  # still an answer: some legal move
    evaluation = solver.evaluate(to_move_position(seed=3), ENDLESS, seed=1)
    assert evaluation.stats.iterations == 0 and evaluation.stats.stop_reason == "stopped"
    # A position with nothing hidden: the exact solve gives way, and the tree search stops too.
    exact = solver.hint(open_endgame(8, seed=13), ENDLESS, seed=1)
    assert exact.stats.stop_reason == "stopped" and not exact.evaluation.exact


SCRIPT = """
import json, threading
from solver.search import Limits, Solver, StopFlag
from tests.support.positions import open_endgame, to_move_position
stop = StopFlag()
position = {position}
threading.Timer(0.2, stop.set).start()
hint = Solver(stop=stop).hint(position, Limits(iterations=10**12), seed=1)
print(json.dumps([hint.stats.stop_reason, hint.evaluation.exact, hint.stats.model]))
"""


@pytest.mark.parametrize(
    "position",
    ["to_move_position(seed=3)", "open_endgame(8, seed=13)"],
    ids=["tree search", "exact solve, then the tree search"],
)
def test_a_flag_set_from_another_thread_stops_a_running_search(position: str) -> None:
    """The flag is set while the search runs without the GIL — the learned value shipped for durak
    valuing its leaves, as by default — : it ends at once. (In a subprocess, so a search that never
    reads its flag, or holds the GIL, fails the test instead of hanging it.)"""
    try:
        # A hang guard, not a speed test: unstopped, either search would run for hours.
        run = subprocess.run([sys.executable, "-c", SCRIPT.format(position=position)], cwd=ROOT,
                             timeout=20, check=True, capture_output=True, text=True)
    except subprocess.TimeoutExpired:
        pytest.fail("the search did not stop when its flag was set")
    assert json.loads(run.stdout) == ["stopped", False, "value-durak-2+policy-durak-2"]
