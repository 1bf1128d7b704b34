"""Probe (taken out again after its runs; benchmarks/HISTORY.md, "The reading and known greedy under PUCT"): seats with `exact_budget` 19999 read the others from TAN_READING_PRIOR with the greedy kind's
epsilon TAN_GREEDY_EPS (the others seats unchanged); then `tan` as usual."""
import os, sys
from solver.search import beliefs as B
from solver.search import solver as S
EPS = float(os.environ["TAN_GREEDY_EPS"])
PRIOR = float(os.environ["TAN_READING_PRIOR"])
KINDS = tuple(B.Kind(k.name, B.OpponentModel.greedy(EPS), k.prior, k.power) if k.name == "greedy" else k
              for k in B.KINDS)
_init, _modelling = S.Solver.__init__, S.Solver._modelling

import functools
@functools.wraps(_init)
def __init__(self, *a, **k):
    _init(self, *a, **k)
    self._probe = self.exact_budget == 19999
    if self._probe:
        self.exact_budget = 20_000
        self.model = KINDS

def modelling(self, root, beliefs=None):
    if not getattr(self, "_probe", False):
        return _modelling(self, root, beliefs)
    old = S.GREEDY_READING_PRIOR
    S.GREEDY_READING_PRIOR = PRIOR
    try:
        return _modelling(self, root, beliefs)
    finally:
        S.GREEDY_READING_PRIOR = old

S.Solver.__init__, S.Solver._modelling = __init__, modelling
from solver.cli import main
sys.exit(main(sys.argv[1:]))
