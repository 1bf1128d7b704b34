"""Known bug: a position with nothing hidden is solved exactly whatever the limits say.

`Solver.hint`/`evaluate` call the exact solver with no node budget when the stock
is empty and two seats are left, so `time_ms` is ignored: with 8 cards a hand the
answer below takes about half a minute under a 100 ms limit (9 cards: minutes).
The service works around it (`TAN_EXACT_MAX_CARDS`); this test turns green when
the solver honours the time limit (a node budget, then the tree search).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
from solver.search import Limits, Solver
from tests.service.positions import open_endgame
Solver().hint(open_endgame(8, seed=13), Limits(iterations=100, time_ms=100))
"""


@pytest.mark.xfail(strict=True, reason="the exact solver at the root ignores limits (see the docstring)")
def test_an_open_endgame_hint_honours_its_time_limit() -> None:
    try:
        subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, timeout=3, check=True)
    except subprocess.TimeoutExpired:
        pytest.fail("a 100 ms hint took more than 3 s")
