"""A hint's lines (solver/search/lines.py): legal in the seat's view, the same for a seed and an
iteration limit, off unless asked for, and answered by the engines that draw them."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from solver.game.cards import Card
from solver.game.errors import ErrorCode, TanError
from solver.game.position import Position
from solver.search import Hint, Limits, Solver
from solver.search.calibration import calibrated_hint, score_maps
from solver.search.lines import PV, Line, check_pv
from tests.support.positions import open_endgame, to_move_position

ROOT = Path(__file__).resolve().parents[3]
OPENING = {"rules": "tan", "players": 2, "seat": 1, "hand": ["As", "2h", "Th", "Jh", "Ad", "6c", "Kc", "Ac"],
           "hand_counts": [7, 8], "trump": "Qs", "stock": 36, "discard": [],
           "table": [{"attack": "9s", "defense": None}], "attacker": 0, "defender": 1, "to_move": 1}

# Positions whose lines run through refills, takes, throw-ins, transfers, cards known in the other
# hands (picked up by a take), three seats and đút 2.
POSITIONS = [
    pytest.param(OPENING, id="tan-opening"),
    pytest.param(to_move_position("durak", 2, seed=5, plies=12), id="durak-2"),
    pytest.param(to_move_position("durak", 2, seed=8, plies=60), id="durak-2-late"),
    pytest.param(to_move_position("durak", 2, seed=3, plies=20), id="durak-2-known"),
    pytest.param(to_move_position("tan", 3, seed=1, plies=30), id="tan-3-known"),
    pytest.param(to_move_position("durak", 3, seed=2, plies=9), id="durak-3"),
    pytest.param(to_move_position("perevodnoy", 3, seed=4, plies=3), id="perevodnoy-3"),
    pytest.param(to_move_position({"preset": "tan", "twos_last": True}, 2, seed=6, plies=7), id="twos-last"),
]


def _hint(position: dict[str, Any], pv: int = PV.asked, iterations: int = 3000, seed: int = 1,
          **options: Any) -> Hint:
    return Solver(**options).hint(position, Limits(iterations=iterations), seed=seed, pv=pv)


def _cards_the_others_bring(position: Position, line: Line) -> dict[int, set[Card]]:
    """By seat, the cards another seat plays in `line` that the seat had not seen before: they must
    be cards it does not know to lie elsewhere (its hand, the discard pile, another seat's known
    cards)."""
    # Cards on the table, or played in the line, may come back to a hand by a take, seen by all.
    played = {card for pair in position.table for card in pair if card is not None}
    brought: dict[int, set[Card]] = {seat: set() for seat in range(position.players)}
    for ply in line.moves:
        card = ply.move.card
        if card is None:
            continue
        if ply.seat != position.seat and card not in played:
            assert card not in position.hand and card not in position.discard, ply
            assert all(card not in position.known[other] for other in range(position.players)
                       if other != ply.seat), ply
            if card not in position.known[ply.seat]:
                brought[ply.seat].add(card)
        played.add(card)
    return brought


def _with_known(position: Position, brought: dict[int, set[Card]]) -> Position | None:
    """The position with `brought` known in those hands: worlds where the others hold what they play
    (None when a hand has too few unknown cards for them, say when one is drawn later)."""
    data = position.to_json()
    data["known"] = {str(seat): [str(card) for card in {*position.known[seat], *brought[seat]}]
                     for seat in range(position.players) if seat != position.seat}
    try:
        return Position.from_json(data)
    except TanError:
        return None


def _check_line(position: Position, line: Line, worlds: int = 16) -> bool:
    """Replay `line` in worlds of the seat's view with the readable engine: in every world where the
    others' moves so far are legal, the seat's move is legal too (whatever the world), and some
    world plays the whole line. Returns whether such a world was built (see `_with_known`)."""
    brought = _cards_the_others_bring(position, line)
    forced = _with_known(position, brought)
    rng = random.Random(0)
    whole = 0
    for world in range(2 * worlds):
        source = position if world % 2 == 0 or forced is None else forced
        game = source.sample_game(rng)
        for ply in line.moves:
            assert game.to_move == ply.seat, (ply, game.to_move)
            if ply.seat == position.seat:
                assert game.can(ply.move, ply.seat), f"{ply.move}: illegal in a world it cannot rule out"
            elif not game.can(ply.move, ply.seat):
                break
            game.play(ply.move, ply.seat)
        else:
            whole += source is forced
    if forced is not None:
        assert whole > 0, "no world plays the line"
    return forced is not None


@pytest.mark.parametrize("position", POSITIONS)
def test_lines_are_legal_in_the_seats_view(position: dict[str, Any]) -> None:
    pos = Position.from_json(position)
    hint = _hint(position)
    checked = 0
    for value in hint.moves:
        if value.visits == 0 and not value.exact:
            assert value.line is None  # never tried
            continue
        line = value.line
        assert line is not None and 1 <= len(line.moves) <= PV.asked and line.exact == value.exact
        assert line.moves[0].move == value.move and line.moves[0].seat == pos.seat
        assert line.moves[0].visits == value.visits and line.moves[0].score == pytest.approx(value.score)
        visits = [ply.visits for ply in line.moves]
        assert visits == sorted(visits, reverse=True)
        assert all(v >= PV.min_visits for v in visits[1:]) or line.exact
        assert all(ply.score is None or 0.0 <= ply.score <= 1.0 for ply in line.moves)
        assert line.score == next(p.score for p in reversed(line.moves) if p.score is not None)
        checked += _check_line(pos, line)
    assert checked >= 1


def test_a_line_stops_before_the_seat_plays_what_it_drew() -> None:
    """In the opening a bout's end refills the seat's hand with cards it cannot see yet: the line
    goes on with the others' moves but stops before the seat's next decision."""
    pos = Position.from_json(OPENING)
    line = _hint(OPENING, pv=PV.maximum, iterations=20_000).moves[0].line
    assert line is not None and len(line.moves) < PV.maximum
    hand = set(pos.hand) | {pos.table[0][0]}
    for ply in line.moves:
        if ply.seat == pos.seat and ply.move.card is not None:
            assert ply.move.card in hand  # only cards it held, or picked up from the table


def test_lines_repeat_for_a_seed_and_an_iteration_limit() -> None:
    position = to_move_position("tan", 3, seed=1, plies=30)  # several moves: no short single-move search
    assert len(Position.from_json(position).legal_moves()) > 1
    for threads in (1, 2):
        first, again = (_hint(position, threads=threads).to_json() for _ in range(2))
        for answer in (first, again):
            del answer["stats"]["time_ms"], answer["stats"]["iterations_per_s"]
        assert first == again
    assert _hint(position, seed=1).to_json()["moves"] != _hint(position, seed=2).to_json()["moves"]


def test_without_pv_the_answer_is_unchanged() -> None:
    """Lines are drawn after the search: asking for them changes nothing else, and an answer that
    does not ask has no `line` field at all."""
    position = to_move_position("durak", 2, seed=5, plies=12)
    plain, lined = _hint(position, pv=0).to_json(), _hint(position).to_json()
    assert all("line" not in move for move in plain["moves"])
    assert all("line" in move for move in lined["moves"]) and lined["moves"][0]["line"] is not None
    for move in lined["moves"]:
        del move["line"]
    for answer in (plain, lined):
        del answer["stats"]["time_ms"], answer["stats"]["iterations_per_s"]
    assert plain == lined
    assert Solver().hint(position, Limits(iterations=500), seed=1).pv == 0


def test_pimc_draws_no_lines() -> None:
    answer = _hint(to_move_position("durak", 2, seed=5, plies=12), algorithm="pimc").to_json()
    assert answer["moves"] and all(move["line"] is None for move in answer["moves"])


def test_an_exact_hint_has_proven_lines() -> None:
    """With nothing hidden every move's line is the solver's: each ply legal in the one world, the
    seat's proven score all along, to the end of the game or the depth asked."""
    position = open_endgame(4, seed=3)
    hint = _hint(position, pv=PV.maximum)
    assert hint.evaluation.exact
    world = Position.from_json(position).sample_game(random.Random(0))
    for value in hint.moves:
        line = value.line
        assert line is not None and line.exact and line.score == value.score
        game = world.clone()
        for ply in line.moves:
            assert ply.score == value.score and ply.visits == 0
            game.play(ply.move, ply.seat)
        assert game.over or len(line.moves) == PV.maximum


@pytest.mark.parametrize("bad", [-1, PV.maximum + 1, True, 2.0, "8"])
def test_a_bad_depth_is_refused(bad: Any) -> None:
    with pytest.raises(TanError, match="pv must be") as refused:
        check_pv(bad)
    assert refused.value.code is ErrorCode.BAD_LIMITS
    with pytest.raises(TanError, match="pv must be"):
        Solver().hint(OPENING, Limits(iterations=10), pv=bad)


def test_calibrated_lines_go_through_the_score_map() -> None:
    """A stored game's calibrated hint maps its lines' estimated scores as it maps its moves'."""
    mapped = score_maps()[0]
    hint = _hint(OPENING, iterations=1000)
    calibrated = calibrated_hint(hint, mapped)
    for before, after in zip(hint.moves, calibrated.moves, strict=True):
        assert before.line is not None and after.line is not None
        assert [ply.score for ply in after.line.moves] == [
            None if ply.score is None else mapped(ply.score) for ply in before.line.moves
        ]
    first, again = hint.moves[0].line, calibrated.moves[0].line
    assert first is not None and again is not None
    assert [ply.move for ply in again.moves] == [ply.move for ply in first.moves]


def test_the_docs_quote_the_declared_option() -> None:
    """docs/api.md §3 "Lines" and docs/cli.md give the bounds `PV` declares."""
    api = (ROOT / "docs" / "api.md").read_text()
    cli = (ROOT / "docs" / "cli.md").read_text()
    lines = api[api.index("**Lines.**") : api.index("**Calibrated win chances.**")]
    for text in (f"0 to {PV.maximum}", f"at least {PV.min_visits} times", f"({PV.worlds} at most",
                 f"`pv` above {PV.maximum}"):
        assert text in lines, text
    for text in (f"`--pv` alone asks for {PV.asked} plies", f"(0 to {PV.maximum}; 0: none)",
                 f"fewer than {PV.min_visits} times"):
        assert text in cli, text
