"""A hint of a position with nothing hidden honours its time limit.

The exact solver used to run at the root without a budget whatever the limits
said: with 8 cards a hand the answer below took about half a minute under a
100 ms limit (9 cards: minutes), which would let one HTTP request hold a core.
It now stops at the time limit and falls back to the tree search. The hint
runs in a subprocess so a regression fails the test instead of hanging it.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]

SCRIPT = """
from solver.search import Limits, Solver
from tests.support.positions import open_endgame
Solver().hint(open_endgame(8, seed=13), Limits(iterations=100, time_ms=100))
"""


def test_an_open_endgame_hint_honours_its_time_limit() -> None:
    try:
        # A hang guard, not a speed test: the bug took ~34 s; 20 s leaves room for a loaded CI.
        subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, timeout=20, check=True)
    except subprocess.TimeoutExpired:
        pytest.fail("a 100 ms hint took more than 20 s")
