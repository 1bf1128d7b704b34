"""Probe (taken out again after its runs; benchmarks/HISTORY.md, "The reading and known greedy under PUCT"): the greedy kind's epsilon (TAN_GREEDY_EPS) for the weighing, then `tan` as usual."""
import os, sys
from solver.search import beliefs as B
from solver.search import solver as S
eps = float(os.environ["TAN_GREEDY_EPS"])
kinds = tuple(B.Kind(k.name, B.OpponentModel.greedy(eps), k.prior, k.power) if k.name == "greedy" else k for k in B.KINDS)
B.KINDS = kinds
S.KINDS = kinds
from solver.cli import main
sys.exit(main(sys.argv[1:]))
