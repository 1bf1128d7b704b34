"""Puzzles from played games (solver.search.puzzles): a decision is a puzzle only where one move is
clearly best — proven by the exact solver, or by the search's margin — and the same decisions,
limits and seed give the same puzzles."""

from __future__ import annotations

import json

from solver.core import decode_move
from solver.game.moves import Move
from solver.game.phases import Chance
from solver.game.rules import Rules
from solver.search import Limits, Solver, prepare
from solver.search._endgame import solve_exact
from solver.search.answers import Hint, MoveValue, SearchStats, Value
from solver.search.puzzles import CLEAR, candidates, clear_best, find_puzzles, puzzle_of
from solver.search.review import decisions
from tests.support.records import BLUNDER, GOOD, arena_game, endgame_record

LIMITS = Limits(iterations=400)


def hint_of(*rows: tuple[str, float, tuple[float, float], int, bool]) -> Hint:
    """A hint with these moves (notation, score, ci95, visits, exact), best first."""
    moves = [MoveValue(Move.parse(text), score, ci, visits, exact) for text, score, ci, visits, exact in rows]
    stats = SearchStats("ismcts", 1, 1, 1.0, 1.0, "iterations", 0, 1)
    return Hint(0, moves[0].move, moves, Value(0.5, (0.4, 0.6), False), stats, Chance.WIN)


def test_a_proven_endgame_gives_a_puzzle_the_exact_solver_proves() -> None:
    last = decisions(endgame_record(BLUNDER))[-1]
    puzzle = puzzle_of(last, Solver(), LIMITS, seed=5)
    assert puzzle is not None and puzzle.proven
    assert puzzle.best.move == Move.parse(GOOD) and puzzle.outcome() == "win"
    assert puzzle.played == Move.parse(BLUNDER) and puzzle.missed
    # The exact solver, asked on its own, gives the answer a value no other move reaches.
    root = prepare(last.position)
    solved = solve_exact(root.world(), last.position.seat, 1 << 22, 0.0)
    values = {decode_move(code): value for code, value in solved.move_values.items()}
    best = values.pop(Move.parse(GOOD))
    assert best / 2 == puzzle.best.score == 1.0 and all(value < best for value in values.values())
    assert puzzle.line is not None and puzzle.line.exact and puzzle.line.moves[0].move == Move.parse(GOOD)
    data = puzzle.to_json()
    assert data["answer"]["proven"] is True and data["answer"]["outcome"] == "win"
    assert data["answer"]["notation"] == GOOD and data["played"] == Move.parse(BLUNDER).to_json()
    assert data["position"] == last.position.to_json() and data["seat"] == last.position.seat
    assert data["moves"][0]["notation"] == GOOD


def exact(text: str, score: float) -> tuple[str, float, tuple[float, float], int, bool]:
    return text, score, (score, score), 0, True


def searched(text: str, score: float, lo: float, hi: float, visits: int = 900) -> tuple[
        str, float, tuple[float, float], int, bool]:
    return text, score, (lo, hi), visits, False


def test_no_clear_best_gives_no_puzzle() -> None:
    nine, ace = "attack 9c", "attack Ah"
    # Proven ties: two moves win; or every move loses, and none is best.
    assert clear_best(hint_of(exact(nine, 1.0), exact(ace, 1.0))) is None
    assert clear_best(hint_of(exact(nine, 0.0), exact(ace, 0.0))) is None
    # Searched: intervals that overlap, a margin below a mistake's, a move barely tried.
    assert clear_best(hint_of(searched(nine, 0.7, 0.6, 0.8), searched(ace, 0.5, 0.4, 0.65))) is None
    narrow = CLEAR.margin / 2
    assert clear_best(hint_of(searched(nine, 0.5 + narrow, 0.5 + narrow - 0.001, 0.6),
                              searched(ace, 0.5, 0.49, 0.5 + narrow - 0.002))) is None
    barely = searched(ace, 0.1, 0.0, 0.4, visits=2)
    assert clear_best(hint_of(searched(nine, 0.9, 0.85, 0.95), barely)) is None
    # A single legal move is forced: nothing to find.
    assert clear_best(hint_of(searched("take", 0.3, 0.2, 0.4))) is None
    # The clear cases, for contrast.
    assert clear_best(hint_of(searched(nine, 0.9, 0.85, 0.95), searched(ace, 0.5, 0.4, 0.6))) is False
    assert clear_best(hint_of(exact(ace, 1.0), exact(nine, 0.5))) is True


def test_a_real_decision_without_a_clear_best_is_no_puzzle() -> None:
    """The first decision of an arena game, searched briefly: the moves' intervals overlap."""
    record = arena_game(Rules.preset_named("tan"), 2, seed=3).record(0)
    first = candidates(decisions(record), seed=0)
    opening = min(first, key=lambda decision: decision.index)
    hint = Solver().hint(opening.position, Limits(iterations=200), seed=1)
    assert len(hint.moves) > 1 and clear_best(hint) is None
    assert puzzle_of(opening, Solver(), Limits(iterations=200), seed=1) is None


def test_the_same_decisions_and_seed_give_the_same_puzzles() -> None:
    arena = arena_game(Rules.preset_named("tan"), 2, seed=4).record(1)
    found = decisions(endgame_record(BLUNDER)) + decisions(arena)
    first = [puzzle.to_json() for puzzle in find_puzzles(found, Solver(), LIMITS, seed=7, checks=6)]
    again = [puzzle.to_json() for puzzle in find_puzzles(found, Solver(), LIMITS, seed=7, checks=6)]
    assert json.dumps(first) == json.dumps(again)
    # The seed chooses which decisions are tried.
    order = [decision.index for decision in candidates(found, seed=7)]
    assert order == [decision.index for decision in candidates(found, seed=7)]
    assert order != [decision.index for decision in candidates(found, seed=8)]
    assert all(not decision.forced for decision in candidates(found, seed=7))
    assert len(candidates(found, seed=7, most=3)) == 3


def test_the_games_mistakes_come_first() -> None:
    found = decisions(endgame_record(BLUNDER))
    puzzles = find_puzzles(found, Solver(), LIMITS, seed=5)
    assert any(puzzle.missed and puzzle.best.move == Move.parse(GOOD) for puzzle in puzzles)
    keys = [(not puzzle.missed, puzzle.decision.index) for puzzle in puzzles]
    assert keys == sorted(keys) and puzzles[0].missed  # the mistakes first, each group in the game's order
    assert len(find_puzzles(found, Solver(), LIMITS, seed=5, most=1)) == 1
