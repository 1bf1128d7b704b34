"""Post-game review (solver.search.review): each decision of a record's seat scored against the
engine's best move, labelled by the loss, and summed up."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from solver.game.moves import Action, Move
from solver.game.phases import Phase, chance_of, seen_by
from solver.game.position import Position
from solver.game.record import Play, Record
from solver.game.reference import Game, random_deck
from solver.game.rules import Rules
from solver.search import Limits, Solver
from solver.search.answers import Hint, MoveValue, SearchStats, Value
from solver.search.beliefs import History
from solver.search.review import (
    LABELS,
    Decision,
    Label,
    Review,
    decision_seed,
    decisions,
    label_of,
    review,
    review_decisions,
)
from tests.support.records import BLUNDER, ENDGAME_MOVES, GOOD, endgame_record, match_games

ROOT = Path(__file__).resolve().parents[3]

LIMITS = Limits(iterations=400)
LAST = len(endgame_record().events) - 1  # the event index of seat 0's last lead (draws are events too)
PASS = 30  # seat 0 holds no ten or king: it can only pass (ply 28, after its two draws)


def by_index(answer: Review) -> dict[int, dict[str, Any]]:
    return {move["index"]: move for move in answer.to_json()["moves"]}


def test_a_known_blunder_in_a_proven_endgame_is_a_blunder_and_the_best_move_is_good() -> None:
    blunder = by_index(review(endgame_record(BLUNDER), LIMITS, seed=3))[LAST]
    assert blunder["notation"] == BLUNDER and blunder["best_notation"] == GOOD
    assert blunder["exact"] is True
    assert (blunder["played_score"], blunder["best_score"], blunder["loss"]) == (0.5, 1.0, 0.5)
    assert blunder["label"] == "blunder"
    assert sorted(blunder["position"]["hand"]) == ["9c", "Ah"] and blunder["position"]["stock"] == 0

    good = by_index(review(endgame_record(GOOD), LIMITS, seed=3))[LAST]
    assert good["notation"] == GOOD and good["best_notation"] == GOOD
    assert (good["played_score"], good["best_score"], good["loss"]) == (1.0, 1.0, 0.0)
    assert good["label"] == "good" and good["exact"] is True


def test_a_single_legal_move_is_forced_and_not_searched() -> None:
    moves = by_index(review(endgame_record(), LIMITS, seed=3))
    forced = moves[PASS]
    assert forced["notation"] == "pass" and forced["label"] == "forced"
    assert forced["played_score"] is None and forced["best_score"] is None and forced["loss"] == 0.0
    assert [index for index, move in moves.items() if move["label"] == "forced"] == [PASS]


def test_the_summary_adds_up() -> None:
    answer = review(endgame_record(), LIMITS, seed=3)
    data = answer.to_json()
    summary, moves = data["summary"], data["moves"]
    assert summary["decisions"] == len(moves) == sum(summary["labels"].values())
    assert set(summary["labels"]) == {label.value for label in Label}
    for label in Label:
        assert summary["labels"][label.value] == sum(move["label"] == label.value for move in moves)
    searched = [move for move in moves if move["label"] != "forced"]
    # The costs added up are the measured ones: an uncertain row (its interval reaches the best's) is none.
    scored = [move["loss"] for move in searched if move["label"] != "uncertain"]
    assert summary["total_loss"] == pytest.approx(sum(scored), abs=1e-5)
    assert summary["mean_loss"] == pytest.approx(sum(scored) / len(scored), abs=1e-5)
    assert summary["labels"]["blunder"] >= 1
    assert data["stats"]["searches"] == len(searched) and data["stats"]["exact"] >= 5
    for move in moves:
        assert move["loss"] >= 0.0
        if move["notation"] == move["best_notation"]:
            assert move["loss"] == 0.0


def test_the_decisions_are_the_seats_moves_as_it_saw_them() -> None:
    record = endgame_record(seat=0)
    found = decisions(record)
    events = record.events
    assert [d.index for d in found] == [
        index for index, event in enumerate(events) if isinstance(event, Play) and event.seat == 0
    ]
    for decision in found:
        event = events[decision.index]
        assert isinstance(event, Play) and event.move == decision.move
        assert decision.position.seat == 0 and decision.position.to_move == 0
        assert decision.move in decision.position.legal_moves()
    assert [d.ply for d in found] == [ply for ply, (mover, _) in enumerate(ENDGAME_MOVES) if mover == 0] + [
        len(ENDGAME_MOVES)
    ]
    # Seat 1's record of the same game: its own decisions, seeing only its own hand.
    other = decisions(endgame_record(seat=1))
    assert [d.ply for d in other] == [ply for ply, (mover, _) in enumerate(ENDGAME_MOVES) if mover == 1]
    assert all(d.position.seat == 1 for d in other)


def test_setup_decisions_are_not_reviewed() -> None:
    """Under trump swap the seat's swap or keep is in its record but is no play-phase decision."""
    rules = Rules.preset_named("tan", trump_swap=True)
    for seed in range(40):
        record = _random_record(rules, 2, seed, plies=12)
        setup = [i for i, e in enumerate(record.events) if isinstance(e, Play) and e.move.is_setup
                 and e.seat == record.seat]
        if setup:
            found = decisions(record)
            assert not set(setup) & {d.index for d in found}
            assert all(d.position.phase == "play" for d in found)
            return
    raise AssertionError("no seed gave seat 0 a setup decision")


def test_the_same_seed_and_iterations_give_the_same_review() -> None:
    record = _random_record(Rules.preset_named("tan"), 3, seed=4, plies=40)

    def stable(answer: Review) -> dict[str, Any]:
        data = answer.to_json()
        data["stats"].pop("time_ms")
        return data

    first = review(record, Limits(iterations=200), seed=9)
    assert first.moves and stable(first) == stable(review(record, Limits(iterations=200), seed=9))
    assert decision_seed(9, 4) != decision_seed(9, 5) and decision_seed(9, 4) != decision_seed(10, 4)
    assert 0 <= decision_seed(2**63 - 1, 10**6) < 2**63


def test_label_bounds() -> None:
    """Each bound starts the next label; past the last a move is a blunder."""
    bounds = [bound for _, bound in LABELS]
    assert bounds == sorted(bounds) and bounds[0] > 0
    names = [label.value for label, _ in LABELS] + ["blunder"]
    assert label_of(0.0) == "good"
    for index, bound in enumerate(bounds):
        assert label_of(bound - 1e-6) == names[index]
        assert label_of(bound) == names[index + 1]
    assert label_of(1.0) == "blunder"


def test_label_bounds_are_the_measured_ones() -> None:
    """The bounds are those `benchmarks.review_labels` measured (its committed results)."""
    measured = json.loads((ROOT / "benchmarks" / "results" / "review-labels.json").read_text())
    assert {label.value: bound for label, bound in LABELS} == measured["bounds_below"]


class _Scripted(Solver):
    """A solver whose hint is given: the first legal move most searched, every other one unvisited."""

    def hint(self, position: Position | dict[str, Any], limits: Limits | None = None, seed: int = 0,
             multipv: int | None = None, history: History | None = None) -> Hint:
        assert isinstance(position, Position)
        legal = position.legal_moves()
        moves = [MoveValue(legal[0], 0.6, (0.5, 0.7), 100, False)]
        moves += [MoveValue(move, 0.5, (0.0, 1.0), 0, False) for move in legal[1:]]
        stats = SearchStats("ismcts", 100, 100, 1.0, 1e5, "time", seed, 1)
        return Hint(position.seat, legal[0], moves, Value(0.6, (0.5, 0.7), False), stats,
                    chance_of(position.players))


def test_a_move_the_search_never_tried_is_unscored() -> None:
    found = [d for d in decisions(endgame_record()) if not d.forced]
    unplayed = next(d for d in found if d.move != d.position.legal_moves()[0])
    played = next(d for d in found if d.move == d.position.legal_moves()[0])
    answer = review_decisions(0, [unplayed, played], LIMITS, solver=_Scripted())
    first, second = answer.moves
    assert first.label is Label.UNSCORED and first.played_score is None and first.loss == 0.0
    assert second.label is Label.GOOD and second.played_score == 0.6
    assert answer.summary.mean_loss == 0.0 and answer.summary.labels[Label.UNSCORED] == 1


def test_an_empty_review() -> None:
    """A record where the seat never moved: no decisions, no mean loss."""
    record = endgame_record(seat=0)
    empty = Record(record.rules, 2, 0, record.hand, record.trump, 1, ())
    answer = review(empty, LIMITS)
    assert answer.moves == [] and answer.summary.decisions == 0 and answer.summary.mean_loss is None


def _random_record(rules: Rules, players: int, seed: int, plies: int, seat: int = 0) -> Record:
    """Seat `seat`'s record of a game of random moves."""
    deck = random_deck(rules, seed)
    game = Game.deal(rules, players, deck=deck)
    first = game.clone()
    rng = random.Random(seed)
    history: list[tuple[int, Move]] = []
    for _ply in range(plies):
        if game.over:
            break
        mover = game.to_move
        assert mover is not None
        move = rng.choice(game.legal_moves())
        game.play(move, mover)
        history.append((mover, move))
    return Record.of_game(first, seat, deck, history)


def test_decision_is_what_it_says() -> None:
    record = endgame_record()
    first = decisions(record)[0]
    assert isinstance(first, Decision) and first.index == 0 and first.ply == 0
    assert first.move.action is Action.ATTACK and not first.forced


def test_each_decision_carries_what_the_seat_had_seen() -> None:
    """A decision's history holds the other seat's earlier decisions, so its search weighs worlds."""
    found = decisions(endgame_record())
    counts = [d.history.decisions for d in found if d.history is not None]
    assert len(counts) == len(found) and counts == sorted(counts) and counts[-1] > 0


@pytest.mark.parametrize("players", [2, 3])
def test_decisions_under_every_side_rule_in_every_game_of_a_match(players: int) -> None:
    """`decisions` replays records of a match under the side rules: each of the seat's play-phase
    moves, in order, with the position the seat really saw then (its match block too)."""
    rules = Rules.preset_named("tan", redeal_without_trump=True, tribute=True, all_trumps_wins=True,
                               trump_swap=True, take_when_beaten=True, twos_last=True)
    for played in match_games(rules, players, 5, 3):
        for seat in range(players):
            real, seen, plies = played.dealt.clone(), [], 0
            for mover, move in played.history:
                if mover == seat and real.phase is Phase.PLAY:
                    seen.append((plies, move, Position.from_game(real, seat, match=played.info).to_json()))
                real.play(move, mover)
                plies += seen_by(move, mover, seat)  # the moves it saw: not another seat's secret keep
            found = decisions(played.record(seat))
            assert [(d.ply, d.move, d.position.to_json()) for d in found] == seen
