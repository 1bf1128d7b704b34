"""The search: sampling, the exact solver, ISMCTS/PIMC answers and their determinism."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from solver.core._core import CoreGame, encode_move
from solver.game.cards import deck
from solver.game.errors import TanError
from solver.game.moves import Move
from solver.game.position import Position
from solver.game.reference import Game, random_deck
from solver.game.rules import Rules
from solver.players.simple import GreedyPlayer
from solver.search import Limits, SearchConfig, Solver, _endgame, _tree, prepare
from solver.search.beliefs import HistoryReader
from solver.search.config import SINGLE_MOVE_ITERATIONS
from tests.support.positions import endgame_position, open_endgame

DURAK = Rules.preset_named("durak")


# -- sampling --------------------------------------------------------------------------


def test_samples_keep_known_cards_and_are_whole_states() -> None:
    game = Game.deal(Rules.preset_named("tan"), 3, seed=11)
    rng = random.Random(1)
    for _ in range(40):  # walk into the game so takes make cards known
        if game.over:
            break
        game.play(rng.choice(game.legal_moves()))
    seat = 0
    position = Position.from_game(game, seat)
    root = prepare(position)
    for seed in range(200):
        world = root.world(seed).snapshot()
        assert world["hands"][seat] == sorted(card.index for card in position.hand)
        for other, cards in enumerate(position.known):
            assert {card.index for card in cards} <= set(world["hands"][other])
        assert [len(hand) for hand in world["hands"]] == list(position.hand_counts)
        assert len(world["stock"]) == position.stock
        if position.stock:
            assert world["stock"][-1] == position.trump.index
        everywhere = [c for hand in world["hands"] for c in hand] + world["stock"] + world["discard"]
        everywhere += [c for pair in world["table"] for c in pair if c >= 0]
        assert sorted(everywhere) == sorted(card.index for card in deck(52))


def test_samples_are_uniform() -> None:
    """Three unseen cards, one in the opponent's hand and two in the stock: 3 equally likely hands."""
    position = endgame_position(
        DURAK,
        players=2,
        seat=0,
        hand=["6s", "7s"],
        hand_counts=[2, 1],
        trump="Ah",
        stock=3,
        hidden=["9c", "Tc", "Jc"],
        attacker=0,
        defender=1,
        to_move=0,
    )
    position["discard"].remove("Ah")
    root = prepare(position)
    counts: Counter[tuple[int, ...]] = Counter()
    draws = 6000
    for seed in range(draws):
        counts[tuple(root.world(seed).snapshot()["hands"][1])] += 1
    assert len(counts) == 3
    expected = draws / 3
    chi2 = sum((n - expected) ** 2 / expected for n in counts.values())
    assert chi2 < 13.8  # 2 degrees of freedom, p = 0.001


# -- the exact solver ------------------------------------------------------------------


def random_endgame(rules: Rules, rng: random.Random, max_cards: int) -> CoreGame | None:
    """Play a random game to a bout start with an empty stock and two hands of at most `max_cards`.

    The endgame is rebuilt from its fields, so no repetition history from
    before it counts, as for a position sent by a user.
    """
    cards = [card.index for card in deck(rules.deck)]
    rng.shuffle(cards)
    game = CoreGame.deal(rules, 2, cards)
    while not game.over:
        snap = game.snapshot()
        if not snap["stock"] and not snap["table"] and all(len(hand) <= max_cards for hand in snap["hands"]):
            return CoreGame.from_fields(
                rules, 2, snap["hands"], [], snap["trump"], snap["table"], snap["attacker"],
                snap["defender"], snap["to_move"], snap["taking"], snap["passed"], snap["finished"],
                snap["defended_once"],
            )
        game.play(rng.choice(game.legal_codes()))
    return None


def trump_left_endgame(rules: Rules, rng: random.Random, cards: int) -> CoreGame:
    """A bout start with the face-up trump card alone in the stock and `cards` cards in each of two
    hands (the rest discarded): the next refill draws it, and still nothing is hidden."""
    pool = [card.index for card in deck(rules.deck)]
    rng.shuffle(pool)
    trump, hands = pool[0], [pool[1:1 + cards], pool[1 + cards:1 + 2 * cards]]
    attacker = rng.randrange(2)
    return CoreGame.from_fields(rules, 2, hands, [trump], trump, (), attacker, 1 - attacker, attacker,
                                defended_once=True)


def minimax(game: CoreGame, hero: int, path: frozenset[tuple[object, ...]] = frozenset()) -> int:
    """Plain minimax in half points; a bout start seen before on the path is a draw (docs/rules.md §1.5)."""
    if game.over:
        return round(game.scores()[hero] * 2)
    values = []
    for code in game.legal_codes():
        child = game.copy()
        child.play(code)
        snap = child.snapshot()
        key = (tuple(map(tuple, snap["hands"])), snap["attacker"], len(snap["stock"]))
        if not child.over and not snap["table"]:
            if key in path:
                values.append(1)
                continue
            values.append(minimax(child, hero, path | {key}))
        else:
            values.append(minimax(child, hero, path))
    return max(values) if game.to_move == hero else min(values)


@pytest.mark.parametrize("preset", ["durak", "tan", "perevodnoy"])
@pytest.mark.parametrize("endgames", [100, pytest.param(700, marks=pytest.mark.long)])
def test_exact_solver_matches_minimax(preset: str, endgames: int) -> None:
    """The solver's value and every move's value against plain minimax on random endgames; the
    default suite checks the first 100 of the 700 that `-m long` checks."""
    rules = Rules.preset_named(preset)
    rng = random.Random(preset)
    checked = 0
    while checked < endgames:
        game = random_endgame(rules, rng, 3)
        if game is None:
            continue
        hero = game.to_move
        solution = _endgame.solve_exact(game, hero)
        assert solution.value == minimax(game, hero)
        for code, move_value in solution.move_values.items():
            child = game.copy()
            child.play(code)
            assert move_value == minimax(child, hero)
        checked += 1


@pytest.mark.parametrize("preset", ["durak", "tan", "perevodnoy"])
def test_exact_solver_proves_the_trump_card_left_in_the_stock(preset: str) -> None:
    """One card in the stock is the face-up trump: the solver plays its draw and still matches
    plain minimax, the root and every move."""
    rules = Rules.preset_named(preset)
    rng = random.Random(f"{preset}-trump-left")
    small = [2] * 30 + [3] * (5 if preset != "perevodnoy" else 0)  # plain minimax of 3 + 3 transfers: seconds
    for cards in small:
        game = trump_left_endgame(rules, rng, cards)
        hero = game.to_move
        solution = _endgame.solve_exact(game, hero)
        assert solution.value == minimax(game, hero)
        for code, move_value in solution.move_values.items():
            child = game.copy()
            child.play(code)
            assert move_value == minimax(child, hero)


def test_exact_solver_refuses_hidden_cards() -> None:
    game = CoreGame.deal(DURAK, 2, [card.index for card in deck(36)])
    with pytest.raises(ValueError, match="perfect-information"):
        _endgame.solve_exact(game, 0)


# -- answers ---------------------------------------------------------------------------


def throw_in_wins() -> dict[str, Any]:
    """Seat 0 throws 7c: seat 1 cannot beat it, takes, then cannot beat Kd; passing loses."""
    return endgame_position(
        DURAK,
        players=2,
        seat=0,
        hand=["7c", "Kd"],
        hand_counts=[2, 2],
        known={"1": ["6d", "6s"]},
        trump="6h",
        table=[{"attack": "7s", "defense": "8s"}],
        attacker=0,
        defender=1,
        to_move=0,
    )


def test_exact_root_is_proven() -> None:
    hint = Solver().hint(throw_in_wins())
    assert hint.best == Move.parse("attack 7c")
    assert hint.evaluation.exact and hint.evaluation.score == 1.0
    scores = {move.notation: move.score for move in hint.moves}
    assert scores == {"attack 7c": 1.0, "pass": 0.0}
    assert all(move.exact for move in hint.moves)


def test_the_trump_card_alone_in_the_stock_is_proven() -> None:
    """Two seats, only the face-up trump card left to draw: the other hand is known by
    elimination, so the hint and the evaluation are proven and agree with plain minimax."""
    position = endgame_position(
        DURAK, players=2, seat=0, hand=["7c", "Kd", "9s"], hand_counts=[3, 2], stock=1, trump="6h",
        hidden=["6d", "Jc", "6h"], attacker=0, defender=1, to_move=0,
    )
    hint = Solver().hint(position, Limits(iterations=200))
    assert hint.evaluation.exact and all(move.exact for move in hint.moves)
    world = prepare(position).world(0)
    assert hint.evaluation.score == minimax(world, 0) / 2
    for move in hint.moves:
        child = world.copy()
        child.play(encode_move(move.move))
        assert move.score == minimax(child, 0) / 2, move
    evaluation = Solver().evaluate(position, Limits(iterations=200))
    assert evaluation.exact and evaluation.score == hint.evaluation.score


# -- hand-made positions with a clearly best move ---------------------------------------
# Each is a perfect-information endgame (empty stock, two seats) where one move wins
# and every other loses, proven by the exact solver; the tree search, with the exact
# solver switched off, must find the same move at a modest iteration count.


def lead_the_king() -> dict[str, Any]:
    """Seat 0 leads Kd, which seat 1 cannot beat (no higher diamond, no trump): seat 1 takes
    and seat 0 attacks again with three sixes, each beaten, and goes out. Leading a six
    first leaves Kd in hand when the sixes are gone, and seat 1 runs out on it."""
    return endgame_position(
        DURAK, players=2, seat=0, hand=["6h", "6d", "Kd", "6c"], hand_counts=[4, 4],
        known={"1": ["7h", "8d", "7c", "Jc"]}, trump="Qs", attacker=0, defender=1, to_move=0,
    )


def defend_with_the_ten() -> dict[str, Any]:
    """Seat 0 beats 9h with Th and keeps the trump Kc for the 9s seat 1 may throw in;
    beating with Kc leaves nothing for 9s, and taking gives seat 1 the lead: it leads
    its last card, 8h, and goes out."""
    return endgame_position(
        DURAK, players=2, seat=0, hand=["Th", "Jd", "Kc"], hand_counts=[3, 2],
        known={"1": ["9s", "8h"]}, trump="Kc", table=[{"attack": "9h", "defense": None}],
        attacker=1, defender=0, to_move=0,
    )


def take_the_ten() -> dict[str, Any]:
    """A forced take: seat 1 can beat Tc only with a trump (Qh or Kh); then Td comes in and
    costs the other trump, and Qd or Kd, matching the table, ends in a take of the whole
    table anyway. Taking at once keeps both trumps."""
    return endgame_position(
        DURAK, players=2, seat=1, hand=["Js", "Qh", "Kh", "6c"], hand_counts=[3, 4],
        known={"0": ["Td", "Qd", "Kd"]}, trump="9h", table=[{"attack": "Tc", "defense": None}],
        attacker=0, defender=1, to_move=1,
    )


CLEAR_BEST = {
    "throw in 7c": (throw_in_wins, "attack 7c"),
    "lead Kd": (lead_the_king, "attack Kd"),
    "defend with Th": (defend_with_the_ten, "defend 9h with Th"),
    "forced take": (take_the_ten, "take"),
}


@pytest.mark.parametrize("name", CLEAR_BEST)
def test_the_clear_best_move_is_the_only_winner(name: str) -> None:
    make, best = CLEAR_BEST[name]
    hint = Solver().hint(make())
    assert hint.evaluation.exact and hint.evaluation.score == 1.0
    assert {move.notation: move.score for move in hint.moves} == {
        move.notation: 1.0 if move.notation == best else 0.0 for move in hint.moves
    }
    assert len(hint.moves) > 1


@pytest.mark.parametrize("algorithm", ["ismcts", "pimc"])
@pytest.mark.parametrize("name", CLEAR_BEST)
def test_tree_search_finds_the_clear_best_move(name: str, algorithm: str) -> None:
    make, best = CLEAR_BEST[name]
    solver = Solver(algorithm, exact_cards=0, _exact_root=False)
    for seed in range(3):
        hint = solver.hint(make(), Limits(iterations=3000), seed=seed)
        assert hint.best == Move.parse(best)
        assert not hint.evaluation.exact


@pytest.mark.parametrize("algorithm", ["ismcts", "pimc"])
def test_going_out_is_found_with_hidden_hands(algorithm: str) -> None:
    """Three seats, nine cards hidden between seats 1 and 2: seat 0 throws in its last card,
    7c, and goes out whatever the others hold; passing keeps it in the game."""
    position = endgame_position(
        Rules.preset_named("tan"), players=3, seat=0, hand=["7c"], hand_counts=[1, 4, 5],
        trump="Ad", table=[{"attack": "7s", "defense": "9s"}],
        hidden=["3h", "4h", "5h", "Jh", "Qh", "Kh", "Ah", "8c", "Kc"],
        attacker=0, defender=1, to_move=0,
    )
    for seed in range(3):
        hint = Solver(algorithm).hint(position, Limits(iterations=3000), seed=seed)
        assert hint.best == Move.parse("attack 7c")
        scores = {move.notation: move.score for move in hint.moves}
        assert scores["attack 7c"] == 1.0 > scores["pass"]
        assert not hint.evaluation.exact


def test_same_seed_same_answer_and_only_legal_moves() -> None:
    game = Game.deal(Rules.preset_named("tan"), 3, seed=4)
    position = Position.from_game(game, game.to_move).to_json()
    legal = set(game.legal_moves())
    for algorithm in ("ismcts", "pimc"):
        first = Solver(algorithm, threads=2).hint(position, Limits(iterations=4000), seed=9)
        again = Solver(algorithm, threads=2).hint(position, Limits(iterations=4000), seed=9)
        assert first.to_json()["moves"] == again.to_json()["moves"]
        assert {move.move for move in first.moves} <= legal
        assert first.best in legal
        assert first.stats.iterations == 4000


def test_pimc_shares_a_time_limit_among_its_worlds() -> None:
    """A time limit searches every one of PIMC's worlds, each its part of the time, as an
    iteration limit does: not the first world until the time is up (as it did before)."""
    game = Game.deal(DURAK, 2, seed=8)
    position = Position.from_game(game, game.to_move).to_json()
    # Each world's part of the time (100 ms or more) is far longer than a stall of a busy machine.
    for worlds in (3, 4):
        hint = Solver("pimc", pimc_worlds=worlds).hint(position, Limits(iterations=None, time_ms=400), seed=3)
        assert hint.stats.worlds == worlds
        assert hint.stats.iterations > worlds


def test_opponent_model_answers_legal_moves_reproducibly() -> None:
    game = Game.deal(DURAK, 2, seed=8)
    position = Position.from_game(game, game.to_move).to_json()
    legal = set(game.legal_moves())
    first = Solver(opponent_policy=1.0).hint(position, Limits(iterations=3000), seed=2)
    again = Solver(opponent_policy=1.0).hint(position, Limits(iterations=3000), seed=2)
    assert first.to_json()["moves"] == again.to_json()["moves"]
    assert {move.move for move in first.moves} <= legal
    other = Position.from_game(game, 1 - game.to_move).to_json()
    evaluation = Solver(opponent_policy=1.0).evaluate(other, Limits(iterations=2000), seed=2)
    assert evaluation.stats.iterations == 2000


def test_single_legal_move_answers_at_once() -> None:
    position = endgame_position(
        Rules.preset_named("tan"),
        players=3,
        seat=1,
        hand=["2s"],
        hand_counts=[2, 1, 2],
        trump="Ah",
        table=[{"attack": "Ks", "defense": None}],
        hidden=["3c", "4c", "5c", "6c"],
        attacker=0,
        defender=1,
        to_move=1,
    )
    hint = Solver().hint(position, Limits(iterations=100_000))
    assert hint.best == Move.take()
    assert hint.stats.stop_reason == "single_move"
    assert hint.stats.iterations == SINGLE_MOVE_ITERATIONS  # a budget in iterations, whatever the load
    assert Solver().hint(position, Limits(iterations=100_000)).to_json()["moves"] == hint.to_json()["moves"]


def test_a_setup_question_with_nothing_to_decide_is_searched_as_one_with_a_choice() -> None:
    """Every seat is asked in the setup's rounds (docs/rules.md §1.7); one with keep alone searches
    its full budget, as one that decides does, so an engine's answer time tells nobody which it was."""
    rules = Rules.preset_named("tan", trump_swap=True)
    hands = [["3h", "3s", "4s", "5s", "6s", "7s", "8s", "9s"],
             ["2h", "3c", "4c", "5c", "6c", "7c", "8c", "9c"]]
    dealt = [hands[i % 2][i // 2] for i in range(16)]
    rest = [str(card) for card in deck(52) if str(card) not in {*dealt, "Kh"}]
    game = Game.deal(rules, 2, deck=[*dealt, "Kh", *rest], first_attacker=0)
    assert game.setup_step == "swap" and game.legal_moves() == [Move.keep()]  # seat 0 lacks the 2h
    hint = Solver().hint(Position.from_game(game, 0), Limits(iterations=300), seed=1)
    assert hint.best == Move.keep()
    assert hint.stats.stop_reason == "iterations" and hint.stats.iterations == 300


def test_evaluate_reports_every_seat() -> None:
    game = Game.deal(DURAK, 3, seed=2)
    evaluation = Solver().evaluate(Position.from_game(game, 1).to_json(), Limits(iterations=3000), seed=1)
    assert len(evaluation.scores) == 3 and len(evaluation.p_lose) == 3
    assert 0.8 < sum(evaluation.p_lose) <= 1.0 + 1e-9  # the rest are draws: no loser
    assert evaluation.ci95[0] <= evaluation.score <= evaluation.ci95[1]
    assert evaluation.stats.iterations == 3000


def test_evaluate_a_finished_game() -> None:
    """Both seats emptied their hands in the last bout: a draw, 0.5 each, proven."""
    position = endgame_position(
        DURAK, players=2, seat=0, hand=[], hand_counts=[0, 0], trump="6h",
        attacker=0, defender=1, to_move=None, finished=[1, 0],
    )
    evaluation = Solver().evaluate(position)
    assert evaluation.exact
    assert evaluation.scores == [0.5, 0.5] and evaluation.p_lose == [0.0, 0.0]
    lost = endgame_position(
        DURAK, players=2, seat=0, hand=["7s", "8s"], hand_counts=[2, 0], trump="6h",
        attacker=0, defender=1, to_move=None, finished=[1],
    )
    assert Solver().evaluate(lost).p_lose == [1.0, 0.0]


def _lost_and_won_endgames() -> tuple[list[Position], list[Position]]:
    lost, won = [], []
    for seed in range(60):
        position = Position.from_json(open_endgame(5, seed=seed))
        solved = Solver(practical=False).hint(position, Limits(iterations=500), seed=1)
        tied = [m for m in solved.moves if m.score == solved.moves[0].score]
        if solved.evaluation.exact and len(tied) > 1:
            (won if solved.evaluation.score == 1.0 else lost).append(position)
    return lost, won


def test_a_lost_endgame_is_played_for_the_other_seats_mistakes() -> None:
    """Where every best move only loses or draws under perfect play, the tree search orders the
    equals: the proven values stay, the order among them changes; a won endgame is untouched."""
    lost, won = _lost_and_won_endgames()
    assert len(lost) >= 3 and won
    changed = 0
    for position in lost:
        plain = Solver(practical=False).hint(position, Limits(iterations=500), seed=1)
        practical = Solver().hint(position, Limits(iterations=500), seed=1)
        assert practical.evaluation == plain.evaluation and practical.evaluation.exact
        proven = sorted((m.move, m.score) for m in plain.moves)
        assert sorted((m.move, m.score) for m in practical.moves) == proven
        assert [m.score for m in practical.moves] == [m.score for m in plain.moves]  # equals stay together
        assert practical.best == practical.moves[0].move and practical.moves[0].exact
        assert practical.stats.iterations > plain.stats.iterations  # the search ran after the solve
        again = Solver().hint(position, Limits(iterations=500), seed=1)
        assert (again.best, again.moves) == (practical.best, practical.moves)  # seeded: the same
        changed += practical.best != plain.best
    assert changed, "the search never preferred another of the equal moves"
    for position in won:
        assert Solver().hint(position, Limits(iterations=500), seed=1).moves == Solver(practical=False).hint(
            position, Limits(iterations=500), seed=1
        ).moves


def test_a_lost_endgame_against_a_seat_read_as_greedy_is_played_for_greedys_mistakes() -> None:
    """The stock gone and every card known, the practical search models the other seat as its
    moves so far read it (`durak`, greedy against greedy, deal 277): read as greedy, it plays the
    move the greedy model's search prefers, where the same position bare (nothing read: the other
    seat searched, as before the reading was kept) prefers another; its stats say so."""
    rules = Rules.preset_named("durak")
    game = Game.deal(rules, 2, deck=random_deck(rules, 277))
    reader = HistoryReader(0, game.trump)
    while not game.over:
        seat = game.to_move
        assert seat is not None
        position = Position.from_game(game, seat)
        if seat == 0 and not any(position.hidden_slots().seats.values()):
            break
        move = GreedyPlayer().choose(position)
        before = game.clone()
        game.play(move, seat)
        reader.observe(seat, move, before, game)
    position = Position.from_game(game, 0)
    assert not any(position.hidden_slots().seats.values())
    limits = Limits(iterations=2000)
    for seed in (1, 2, 3):
        read = Solver().hint(position, limits, seed=seed, history=reader.history())
        bare = Solver().hint(position, limits, seed=seed)
        model = Solver(opponent_policy=0.75, value_mix=0.0).hint(position, limits, seed=seed)
        assert read.evaluation.exact and read.evaluation.score < 1.0
        assert read.stats.opponent_policy > 0.7 and read.stats.value_mix < 0.05
        assert bare.stats.opponent_policy == 0.0 and bare.stats.value_mix == 1.0
        assert read.best == model.best != bare.best


def _late_endgame(seed: int, fewest: int = 14, most: int = 24) -> Position:
    """A random 2-seat `durak` game played until the stock is empty with `fewest` to `most` cards in hand."""
    rules = Rules.from_json("durak")
    rng = random.Random(seed)
    while True:
        game = Game.deal(rules, 2, seed=rng.getrandbits(32))
        while not game.over:
            cards = sum(len(hand) for hand in game.hands)
            if not game.stock and fewest <= cards <= most and len(game.legal_moves()) > 1:
                return Position.from_game(game, game.to_move)
            game.play(rng.choice(game.legal_moves()), game.to_move)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_endgames_solved_inside_the_tree_keep_to_their_share(seed: int) -> None:
    """However hard the worlds' endgames, their solves take at most `exact_average` nodes an iteration
    on average (and one solve's budget besides); unbounded they take more."""
    root = prepare(_late_endgame(seed))
    runs = {
        average: _tree.run_search(root.sampler, SearchConfig(exact_average=average, exact_modelled=True),
                                  iterations=400, time_ms=0, seed=seed, opponent_policy=0.75)
        for average in (0, 8)
    }
    bounded, unbounded = runs[8], runs[0]
    assert bounded.iterations == unbounded.iterations == 400
    assert bounded.solve_nodes <= 8 * (400 + 1) + 2 * 20_000
    assert unbounded.solves_skipped == 0
    if unbounded.solve_nodes > 8 * (400 + 1) + 2 * 20_000:
        assert bounded.solves_skipped > 0
    assert unbounded.solve_nodes > 0


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_iterations_that_model_the_others_as_greedy_play_their_endgames_out(seed: int) -> None:
    """A solve's value is what perfect answers leave: an iteration whose others play the greedy
    heuristic plays the worlds' endgames out by that model instead, unless `exact_modelled` asks
    for the solves there too (the engine before the learned models); the searched iterations solve."""
    root = prepare(_late_endgame(seed, 11, 13))

    def nodes(opponent_policy: float, exact_modelled: bool) -> int:
        config = SearchConfig(exact_average=0, exact_modelled=exact_modelled)
        return _tree.run_search(root.sampler, config, iterations=300, time_ms=0, seed=seed,
                                opponent_policy=opponent_policy).solve_nodes

    assert nodes(1.0, False) == 0
    assert nodes(1.0, True) > 0
    assert nodes(0.0, False) > 0
    assert 0 < nodes(0.5, False) < nodes(0.5, True)


def test_exact_modelled_is_off_unless_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    """Unless asked, the iterations that model the others as greedy play their endgames out, with
    a learned value or with playouts at the leaves; the engine of before (`ismcts_playouts`) still
    solves them, so that its figures stay comparable."""
    asked: list[bool] = []
    search = _tree.run_search

    def spy(sampler: Any, config: SearchConfig, **options: Any) -> Any:
        asked.append(config.exact_modelled)
        return search(sampler, config, **options)

    monkeypatch.setattr(_tree, "run_search", spy)
    game = Game.deal(Rules.from_json("durak"), 2, seed=5)
    position = Position.from_game(game, game.to_move)
    asks: list[tuple[str, dict[str, Any]]] = [("ismcts", {}), ("ismcts", {"value": False}),
                                             ("ismcts", {"exact_modelled": True}), ("ismcts_playouts", {})]
    for engine, options in asks:
        Solver(engine, **options).hint(position, Limits(iterations=50), seed=1)
    assert asked == [False, False, True, True]
    for wrong in (1, None, "true"):
        with pytest.raises(TanError, match="exact_modelled"):
            Solver(exact_modelled=wrong)  # type: ignore[arg-type]
