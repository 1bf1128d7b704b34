"""Typed results of the Cython search, and the merge of root-parallel threads."""

from __future__ import annotations

import pytest

from solver.core import decode_move
from solver.game.position import Position
from solver.game.reference import Game
from solver.game.rules import Rules
from solver.search import Limits, SearchConfig, Solver, _tree, prepare
from solver.search.results import RootMove, SearchResult
from solver.search.solver import _seed_of


def test_root_moves_add_up_and_refuse_another_move() -> None:
    a, b = RootMove(5, 3, 2.0, 1.5, 4), RootMove(5, 2, 1.0, 1.0, 2)
    assert a + b == RootMove(5, 5, 3.0, 2.5, 6)
    with pytest.raises(ValueError):
        a + RootMove(6, 1, 1.0, 1.0, 1)


def test_merge_adds_every_field_and_keeps_the_wall_time() -> None:
    first = SearchResult(10, 10, 5.0, (RootMove(1, 6, 3.0, 2.0, 10), RootMove(2, 4, 1.0, 1.0, 9)),
                         (4.0, 6.0), (3.0, 5.0), (6, 4))
    second = SearchResult(8, 8, 7.0, (RootMove(2, 8, 6.0, 5.0, 8),), (5.0, 3.0), (4.0, 2.0), (3, 5))
    merged = SearchResult.merge([first, second], time_ms=7.5)
    assert (merged.iterations, merged.worlds, merged.time_ms) == (18, 18, 7.5)
    assert {move.code: move for move in merged.moves} == {
        1: RootMove(1, 6, 3.0, 2.0, 10),
        2: RootMove(2, 12, 7.0, 6.0, 17),
    }
    assert (merged.seat_sum, merged.seat_sq, merged.seat_losses) == ((9.0, 9.0), (7.0, 7.0), (9, 9))
    with pytest.raises(ValueError):
        SearchResult.merge([], time_ms=1.0)


def test_a_two_thread_hint_is_the_merge_of_its_threads() -> None:
    """Solver(threads=2) runs one search per thread with its own seed and merges them: the
    same iterations, visits and scores as the two searches merged by hand."""
    game = Game.deal(Rules.preset_named("durak"), 2, seed=21)
    position = Position.from_game(game, game.to_move)
    seed, iterations = 7, 3000
    hint = Solver(threads=2, value=False, policy_prior=False).hint(position, Limits(iterations=iterations),
                                                                   seed=seed)
    root = prepare(position)
    threads = [
        _tree.run_search(root.sampler, SearchConfig(value=False, policy_prior=False),
                         iterations=iterations // 2, time_ms=0.0, seed=_seed_of(seed, t),
                         opponent_policy=0.75)
        for t in range(2)
    ]
    merged = SearchResult.merge(threads, time_ms=0.0)
    assert hint.stats.iterations == merged.iterations == iterations
    assert hint.stats.threads == 2
    by_move = {decode_move(move.code): move for move in merged.moves}
    assert {value.move: value.visits for value in hint.moves} == {
        move: by_move[move].visits if move in by_move else 0 for move in root.legal
    }
    for value in hint.moves:
        if value.visits:
            assert value.score == pytest.approx(by_move[value.move].reward / by_move[value.move].visits)
    assert hint.evaluation.score == pytest.approx(merged.seat_sum[position.seat] / iterations)
