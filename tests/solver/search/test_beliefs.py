"""Weighted beliefs (solver.search.beliefs): hand-made histories move the chances the way a
player reasons, random records are always explained, and the search draws from the particles."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from solver.core import encode_move
from solver.game.bounds import MAX_SEATS
from solver.game.cards import Card, deck
from solver.game.errors import TanError
from solver.game.position import Position
from solver.game.record import Record
from solver.game.reference import Game, random_deck
from solver.game.rules import Rules
from solver.players import make_player
from solver.players.simple import GreedyPlayer
from solver.search import Limits, Solver, _beliefs
from solver.search._model import PolicyModel
from solver.search.beliefs import (
    KINDS,
    Beliefs,
    History,
    HistoryReader,
    Kind,
    OpponentModel,
    decision_snapshot,
    fitted,
    kind_evidence,
    read_record,
    uniform_card_chances,
    weigh,
)
from solver.search.learned import model_for
from solver.search.sampling import prepare

DURAK = Rules.preset_named("durak")


# A seat known to play (almost always) greedy.
GREEDY_SEAT = OpponentModel.greedy(0.05)


def chances(record: dict[str, Any], weighted: bool = True, seed: int = 1) -> dict[Card, list[float]]:
    position, history = read_record(Record.from_json(record))
    beliefs = weigh(prepare(position), history if weighted else None, GREEDY_SEAT, particles=8192, seed=seed)
    assert beliefs.mode == ("weighted" if weighted else "uniform")
    return beliefs.card_chances(position)


def held(table: dict[Card, list[float]], texts: str, seat: int = 1) -> float:
    return sum(table[Card.parse(text)][seat] for text in texts.split())


# Hearts are trump (9h turned up); seat 0 holds these six cards.
HAND = ["6s", "7c", "8d", "Jc", "Qd", "Ah"]


def test_a_seat_that_took_a_low_plain_card_holds_no_cheap_beater() -> None:
    """Greedy beats 6s with its cheapest spade, or a trump below the queen while the stock is
    large: a seat that took it most likely holds none of those."""
    record = {
        "rules": "durak", "players": 2, "seat": 0, "hand": HAND, "trump": "9h", "first_attacker": 0,
        "events": [{"seat": 0, "move": "attack 6s"}, {"seat": 1, "move": "take"},
                   {"seat": 0, "move": "pass"}, {"draw": ["Ks"]}],
    }
    weighted, uniform = chances(record), chances(record, weighted=False)
    beaters = "7s 8s 9s 10s Js Qs As 6h 7h 8h 10h Jh"
    assert held(weighted, beaters) < 0.5 * held(uniform, beaters)
    assert held(weighted, "Kh") > held(uniform, "Kh")  # a high trump is kept: no evidence against it
    position, history = read_record(Record.from_json(record))
    default = weigh(prepare(position), history, particles=8192, seed=1).card_chances(position)
    assert held(weighted, beaters) < held(default, beaters) < held(uniform, beaters)  # less sure of a kind


def test_a_seat_that_threw_nothing_in_holds_none_of_the_table_ranks() -> None:
    """Greedy throws in a plain card below the jack of a rank on the table: a seat that passed
    most likely holds no plain 8."""
    record = {
        "rules": "durak", "players": 2, "seat": 0, "hand": HAND, "trump": "9h", "first_attacker": 1,
        "events": [{"seat": 1, "move": "attack 8c"}, {"seat": 0, "move": "defend 8c with Jc"},
                   {"seat": 1, "move": "pass"}, {"draw": ["Ks"]}],
    }
    weighted, uniform = chances(record), chances(record, weighted=False)
    assert held(weighted, "8s") < 0.5 * held(uniform, "8s")
    assert held(weighted, "6c") < held(uniform, "6c")  # it led its lowest plain card
    assert held(weighted, "Ac") > held(uniform, "Ac")


def greedy_game(
    rules: Rules, players: int, seed: int, plies: int
) -> tuple[Game, Game, list[Any]]:
    """A game of mostly greedy moves: the game, the deal and the history."""
    deck = random_deck(rules, seed)
    game, first = Game.deal(rules, players, deck=deck), Game.deal(rules, players, deck=deck)
    rng, greedy = random.Random(seed), GreedyPlayer()
    history: list[Any] = []
    for _ply in range(plies):
        if game.over:
            break
        seat = game.to_move
        assert seat is not None
        position = Position.from_game(game, seat)
        move = greedy.choose(position) if rng.random() < 0.7 else rng.choice(game.legal_moves())
        game.play(move, seat)
        history.append((seat, move))
    return game, first, history


def seat_zero_to_move(rules: Rules, players: int, seed: int, plies: int) -> tuple[Position, History]:
    """A game of mostly greedy moves played on until seat 0 is to move: what it sees, and its history."""
    game, first, history = greedy_game(rules, players, seed, plies)
    while game.to_move != 0 and not game.over:
        history.append((game.to_move, game.legal_moves()[0]))
        game.play(history[-1][1], game.to_move)
    return read_record(Record.of_game(first, 0, random_deck(rules, seed), history))


@pytest.mark.parametrize(("preset", "players"), [("durak", 2), ("durak", 3), ("perevodnoy", 2), ("tan", 4)])
def test_every_world_of_a_real_game_explains_its_history(preset: str, players: int) -> None:
    """The backward walk never rules out a world the seat cannot rule out: no world of a real
    record gets weight zero, and the true hands get a finite likelihood."""
    rules = Rules.preset_named(preset)
    for seed in range(4):
        game, first, history = greedy_game(rules, players, seed, plies=25 + 10 * seed)
        deck = random_deck(rules, seed)
        record = Record.of_game(first, 0, deck, history)
        position, found = read_record(record)
        assert position.to_json() == Position.from_game(game, 0).to_json()
        root = prepare(position)
        hands = np.zeros((256, MAX_SEATS), dtype=np.uint64)
        log_weights = np.zeros((256, MAX_SEATS, 2))
        models = np.stack([OpponentModel().matrix(), OpponentModel.greedy(0.1).matrix()])
        weighed, ruled_out = _beliefs.weigh_worlds(
            root.sampler, list(found.states), found.ops, models, seed, hands, log_weights
        )
        assert weighed == 256 and ruled_out == 0
        assert np.isfinite(log_weights).all() and (log_weights <= 0).all()
        assert not log_weights[:, 0].any()  # the searching seat is not weighed
        if found.decisions and position.stock:
            assert log_weights.std() > 0  # the history tells worlds apart


def test_the_tracker_adds_up_and_repeats_with_its_seed() -> None:
    rules = Rules.preset_named("durak")
    _game, first, history = greedy_game(rules, 3, 7, plies=20)
    record = Record.of_game(first, 1, random_deck(rules, 7), history)
    position, found = read_record(record)
    one = weigh(prepare(position), found, particles=2048, seed=5)
    again = weigh(prepare(position), found, particles=2048, seed=5)
    assert np.array_equal(one.weights, again.weights) and one.ess == again.ess
    table = one.card_chances(position)
    assert set(table) == set(position.unseen_cards())
    for row in table.values():
        assert len(row) == position.players + 1 and sum(row) == pytest.approx(1.0, abs=1e-5)
    hidden = position.hidden_slots().seats
    for seat in range(position.players):
        total = sum(row[seat] for row in table.values())
        assert total == pytest.approx(hidden.get(seat, 0), abs=1e-4)


def test_the_tracker_is_an_evaluations_cards_without_the_search() -> None:
    """`Solver.track` weighs the worlds as `Solver.evaluate` does with the same seed, and adds what
    the seat sees: the discard pile and the cards known in the other hands."""
    rules = Rules.preset_named("durak")
    _game, first, history = greedy_game(rules, 3, 7, plies=20)
    position, found = read_record(Record.of_game(first, 1, random_deck(rules, 7), history))
    solver = Solver(particles=2048)
    tracker = solver.track(position, found, seed=3)
    evaluation = solver.evaluate(position, Limits(iterations=50), seed=3, history=found)
    assert tracker.cards == evaluation.cards
    assert (tracker.beliefs, tracker.ess) == (evaluation.stats.beliefs, evaluation.stats.ess)
    assert tracker.beliefs in ("weighted", "tempered")
    assert tracker.seat == 1 and tracker.gone == position.discard
    assert tracker.known == {0: position.known[0], 2: position.known[2]}
    assert tracker.to_json()["cards"] == {str(card): row for card, row in evaluation.cards.items()}
    plain = Solver(particles=2048, beliefs=False).track(position, found, seed=3)
    assert plain.beliefs == "uniform" and plain.ess is None


def test_uniform_chances_worked_out_match_the_drawn_worlds() -> None:
    """`uniform_card_chances` (for positions no world can be drawn from) agrees with uniform worlds
    drawn by the sampler, the cards known to lie in the stock included."""
    game = Game.deal(Rules.preset_named("tan"), 3, deck=random_deck(Rules.preset_named("tan"), 2))
    rng = random.Random(2)
    for _ in range(12):
        game.play(rng.choice(game.legal_moves()))
    data = Position.from_game(game, 0).to_json()
    data["in_stock"] = [str(card) for card in Position.from_json(data).unseen_cards()[:3]]
    position = Position.from_json(data)
    worked_out = uniform_card_chances(position)
    drawn = weigh(prepare(position), None, particles=16384, seed=1).card_chances(position)
    assert list(worked_out) == list(drawn)
    for card, row in worked_out.items():
        assert row == pytest.approx(drawn[card], abs=0.03)
        assert sum(row) == pytest.approx(1.0, abs=1e-5)
    assert worked_out[position.in_stock[0]] == [0.0, 0.0, 0.0, 1.0]


def test_weights_that_collapse_are_tempered_to_keep_enough_worlds() -> None:
    rules = Rules.preset_named("durak")
    _game, first, history = greedy_game(rules, 2, 11, plies=40)
    position, found = read_record(Record.of_game(first, 0, random_deck(rules, 11), history))
    sharp = OpponentModel.greedy(0.01)
    beliefs = weigh(prepare(position), found, sharp, particles=4096, seed=2, min_ess=400.0)
    if beliefs.mode == "tempered":
        assert beliefs.power < 1.0 and beliefs.ess == pytest.approx(400.0, rel=0.05)
    else:
        assert beliefs.mode == "weighted" and beliefs.ess >= 400.0
    assert beliefs.weights.sum() == pytest.approx(1.0)


def test_the_sampler_draws_the_particles_hands() -> None:
    """One particle of weight one: every world deals exactly its hands, the rest in the stock."""
    game = Game.deal(DURAK, 2, deck=random_deck(DURAK, 3))
    position = Position.from_game(game, 0)
    root = prepare(position)
    hands = np.zeros((2, MAX_SEATS), dtype=np.uint64)
    for seat in range(2):
        hands[0, seat] = sum(1 << card.index for card in game.hands[seat])
    other = root.world(9)
    hands[1, 1] = int(np.uint64(sum(1 << card.index for card in _hand(other, 1))))
    root.sampler.set_particles(hands, np.array([1.0, 0.0]))
    for seed in range(20):
        world = root.world(seed)
        assert set(_hand(world, 1)) == game.hands[1]
        assert len(world.snapshot()["stock"]) == len(game.stock)
    root.sampler.set_particles(np.zeros((0, MAX_SEATS), dtype=np.uint64), np.zeros(0))
    assert root.sampler.particles == 0
    with pytest.raises(ValueError):
        root.sampler.set_particles(hands, np.array([0.0, 0.0]))


def _hand(world: Any, seat: int) -> list[Card]:
    return [Card.from_index(index) for index in world.snapshot()["hands"][seat]]


def test_a_hint_says_how_its_worlds_were_weighed() -> None:
    position, found = seat_zero_to_move(Rules.preset_named("durak"), 2, 2, plies=30)
    limits = Limits(iterations=300)
    weighted = Solver().hint(position, limits, seed=1, history=found)
    assert weighted.stats.beliefs in ("weighted", "tempered") and weighted.stats.ess is not None
    plain = Solver(beliefs=False).hint(position, limits, seed=1, history=found)
    assert plain.stats.beliefs == "uniform" and plain.stats.ess is None
    assert plain.to_json()["moves"] == Solver().hint(position, limits, seed=1).to_json()["moves"]


def test_a_reader_fed_move_by_move_matches_the_record() -> None:
    """The arena's and the service's readers (fed the real game) see what the record shows."""
    rules = Rules.preset_named("perevodnoy")
    _game, first, history = greedy_game(rules, 3, 4, plies=30)
    reader = HistoryReader(2, first.trump)
    replay = first.clone()
    for seat, move in history:
        before = replay.clone()
        replay.play(move, seat)
        reader.observe(seat, move, before, replay)
    _position, found = read_record(Record.of_game(first, 2, random_deck(rules, 4), history))
    fed = reader.history()
    assert np.array_equal(fed.ops, found.ops) and fed.decisions == found.decisions
    assert History().decisions == 0


def test_a_seats_kind_is_the_one_whose_model_explains_its_moves() -> None:
    """A kind's evidence: its likelihood with the hand summed out (the mean over the worlds),
    untempered; the chance of each kind from the weighing's priors or from others."""
    kinds = (Kind("greedy", OpponentModel.greedy(0.05), 0.5), Kind("engine", OpponentModel(), 0.5, 0.25))
    per_kind = np.zeros((4, MAX_SEATS, 2))
    per_kind[:, 1, 0] = np.log([0.9, 0.8, 1e-6, 1e-6])  # greedy explains seat 1's moves in half the worlds
    per_kind[:, 1, 1] = np.log([0.01, 0.01, 0.01, 0.01])
    evidence = kind_evidence(per_kind, kinds, [1])
    assert set(evidence) == {1}
    assert evidence[1]["greedy"] == pytest.approx(np.log((0.9 + 0.8 + 2e-6) / 4), abs=1e-9)
    assert evidence[1]["engine"] == pytest.approx(np.log(0.01), abs=1e-9)
    beliefs = Beliefs(np.zeros((1, MAX_SEATS), dtype=np.uint64), np.ones(1), 1.0, "weighted",
                      evidence=evidence, priors={"greedy": 0.5, "engine": 0.5})
    assert beliefs.kinds(1)["greedy"] == pytest.approx(0.425 / 0.435, abs=1e-5)
    odds = {"greedy": 0.1, "engine": 0.9}
    assert beliefs.kinds(1, odds)["greedy"] == pytest.approx(0.0425 / 0.0515, abs=1e-5)
    assert beliefs.chance_all_are("greedy", [1], 0.1) == pytest.approx(0.0425 / 0.0515, abs=1e-5)
    assert beliefs.kinds(0) == {} and beliefs.chance_all_are("greedy", [0, 1]) == 0.0
    assert beliefs.chance_all_are("greedy", []) == 0.0


def test_greedy_play_reads_as_greedy_and_a_searchers_does_not() -> None:
    """Worlds weighed by a history of greedy's own moves: the seat reads as greedy (and a learned
    value's search then models it so in the tree); by a searching engine's moves, as the engine."""
    for opponent, greedy in ((GreedyPlayer(), True), (make_player({"engine": "ismcts_playouts",
                                                                    "limits": {"iterations": 300}}), False)):
        game = Game.deal(DURAK, 2, deck=random_deck(DURAK, 101))
        reader = HistoryReader(0, game.trump)
        decisions = 0
        while (decisions < 8 or game.to_move != 0) and not game.over:
            seat = game.to_move
            pos = Position.from_game(game, seat)
            move = GreedyPlayer().choose(pos) if seat == 0 else opponent.choose(pos, seed=decisions)
            decisions += seat == 1
            before = game.clone()
            game.play(move, seat)
            reader.observe(seat, move, before, game)
        assert not game.over
        position = Position.from_game(game, 0)
        beliefs = weigh(prepare(position), reader.history(), particles=8192, seed=3)
        assert (beliefs.kinds(1)["greedy"] > 0.8) is greedy
        assert beliefs.chance_all_are("greedy", [1]) == beliefs.kinds(1)["greedy"]


def test_a_learned_kind_scores_a_move_by_the_policy_on_each_worlds_hand() -> None:
    """A learned kind's likelihood of a lead is (1 − ε)·π(lead | the world's hand) + ε/n (λ = κ = 1),
    π the shipped policy on the hand the world gives the leader; without a policy it is refused."""
    game = Game.deal(DURAK, 2, deck=random_deck(DURAK, 5))
    leader = game.to_move
    assert leader is not None
    move = game.legal_moves()[0]
    before = game.clone()
    game.play(move, leader)
    reader = HistoryReader(1 - leader, game.trump)
    reader.observe(leader, move, before, game)
    found = reader.history()
    root = prepare(Position.from_game(game, 1 - leader))
    shipped = model_for(DURAK, 2, "policy")
    assert shipped is not None and isinstance(shipped.net, PolicyModel) and move.card is not None
    policy = shipped.net
    epsilon = 0.2
    models = np.stack([OpponentModel.greedy(epsilon).matrix()] * 2)
    hands = np.zeros((32, MAX_SEATS), dtype=np.uint64)
    log_weights = np.zeros((32, MAX_SEATS, 2))
    weighed, _ = _beliefs.weigh_worlds(root.sampler, list(found.states), found.ops, models, 9, hands,
                                       log_weights, policy=policy, learned=0b10)
    assert weighed == 32
    code = encode_move(move)
    for world in range(32):
        at_decision = before.clone()
        at_decision.hands[leader] = {card for card in deck(DURAK.deck)
                                     if int(hands[world, leader]) >> card.index & 1}
        at_decision.hands[leader].add(move.card)
        snapshot = decision_snapshot(at_decision)
        chances = policy.probabilities(snapshot)
        expected = (1 - epsilon) * chances[code] + epsilon / len(chances)
        assert log_weights[world, leader, 1] == pytest.approx(np.log(expected), rel=1e-9)
        greedy = GreedyPlayer().choose(Position.from_game(at_decision, leader)) == move
        by_greedy = epsilon / len(chances) + (1 - epsilon) * greedy
        assert log_weights[world, leader, 0] == pytest.approx(np.log(by_greedy))
    assert log_weights[:, leader, 1].std() > 0  # the policy tells the worlds apart
    with pytest.raises(ValueError, match="no policy"):
        _beliefs.weigh_worlds(root.sampler, list(found.states), found.ops, models, 9, hands, log_weights,
                              learned=0b10)
    with pytest.raises(ValueError, match="learned names a type"):
        _beliefs.weigh_worlds(root.sampler, list(found.states), found.ops, models, 9, hands, log_weights,
                              policy=policy, learned=0b100)


def test_the_engine_kind_is_read_by_the_policy_where_one_ships_and_by_its_model_where_not() -> None:
    assert fitted(KINDS)[0] == KINDS[0] and fitted(KINDS)[1].learned is None
    assert fitted(KINDS)[1].model == KINDS[1].model and fitted(KINDS)[1].prior == KINDS[1].prior
    with pytest.raises(ValueError, match="learned needs"):
        Kind("engine", OpponentModel(), 0.5, learned=(0.05, 1.5))
    for preset, players, ships in (("durak", 2, True), ("durak", 3, False)):
        position, found = seat_zero_to_move(Rules.preset_named(preset), players, 2, plies=30)
        read = weigh(prepare(position), found, KINDS, particles=4096, seed=3)
        by_model = weigh(prepare(position), found, fitted(KINDS), particles=4096, seed=3)
        assert np.array_equal(read.hands, by_model.hands)
        assert np.allclose(read.weights, by_model.weights) is not ships
        assert read.evidence[1]["greedy"] == pytest.approx(by_model.evidence[1]["greedy"])
    limits = Limits(iterations=300)
    hint = Solver().hint(position, limits, seed=1, history=found).to_json()
    assert Solver().hint(position, limits, seed=1, history=found).to_json()["moves"] == hint["moves"]
    with pytest.raises(TanError, match="beliefs_policy"):
        Solver(beliefs_policy=1)  # type: ignore[arg-type]


def test_a_search_without_the_policy_reading_weighs_as_before() -> None:
    position, found = seat_zero_to_move(Rules.preset_named("durak"), 2, 5, plies=24)
    limits = Limits(iterations=300)
    off = Solver(beliefs_policy=False).hint(position, limits, seed=2, history=found)
    as_before = Solver(_opponent_model=fitted(KINDS)).hint(position, limits, seed=2, history=found)
    assert off.to_json()["moves"] == as_before.to_json()["moves"] and off.stats.ess == as_before.stats.ess
    assert Solver().hint(position, limits, seed=2, history=found).stats.ess != off.stats.ess


def test_an_engine_that_names_a_policy_reads_the_others_by_it() -> None:
    """`policy_model` is the policy the search steers by and the one its weighing reads the other
    seats' moves with, so that generations played against each other each read by their own."""
    position, found = seat_zero_to_move(Rules.preset_named("durak"), 2, 2, plies=30)
    shipped = weigh(prepare(position), found, KINDS, particles=4096, seed=3)
    named = weigh(prepare(position), found, KINDS, particles=4096, seed=3, policy_model="policy-durak-2")
    earlier = weigh(prepare(position), found, KINDS, particles=4096, seed=3, policy_model="policy-durak-2-g0")
    assert np.array_equal(shipped.weights, named.weights) and np.array_equal(shipped.hands, earlier.hands)
    assert not np.allclose(shipped.weights, earlier.weights)
    limits = Limits(iterations=300)
    default = Solver().hint(position, limits, seed=1, history=found)
    by_name = Solver(policy_model="policy-durak-2").hint(position, limits, seed=1, history=found)
    by_g0 = Solver(policy_model="policy-durak-2-g0").hint(position, limits, seed=1, history=found)
    assert by_name.to_json()["moves"] == default.to_json()["moves"] and by_name.stats.ess == default.stats.ess
    assert by_g0.stats.ess != default.stats.ess


def seen_whole(rules: Rules, players: int, seed: int, opponent: Any) -> tuple[Position, History] | None:
    """Seat 0 playing greedy against `opponent` (every other seat) until, at seat 0's turn, some
    other seat's hand is seen whole (no hidden slot left): what seat 0 sees, and its history."""
    game = Game.deal(rules, players, deck=random_deck(rules, seed))
    reader = HistoryReader(0, game.trump)
    while not game.over:
        seat = game.to_move
        assert seat is not None
        position = Position.from_game(game, seat)
        if seat == 0 and any(not slots and game.hands[other]
                             for other, slots in position.hidden_slots().seats.items()):
            return position, reader.history()
        player = GreedyPlayer() if seat == 0 else opponent
        move = player.choose(position, seed=len(reader.rows))
        before = game.clone()
        game.play(move, seat)
        reader.observe(seat, move, before, game)
    return None


def test_a_seat_whose_hand_is_seen_whole_is_still_read() -> None:
    """The stock gone, the other seat's hand is known and weighs no world, but its moves still say
    what kind of player it is: greedy's read as greedy, a searcher's not (without this the search
    forgot the reading the moment the last hidden card was seen)."""
    for opponent, greedy in ((GreedyPlayer(), True), (make_player({"engine": "ismcts_playouts",
                                                                    "limits": {"iterations": 300}}), False)):
        found = next(found for seed in range(270, 330) if (found := seen_whole(DURAK, 2, seed, opponent)))
        position, history = found
        beliefs = weigh(prepare(position), history, particles=1024, seed=3)
        assert beliefs.mode == "uniform" and not any(position.hidden_slots().seats.values())
        assert set(beliefs.evidence) == {1}
        assert (beliefs.kinds(1)["greedy"] > 0.9) is greedy
        assert (beliefs.kinds(1)["greedy"] < 0.5) is not greedy
        again = weigh(prepare(position), history, particles=1024, seed=3)
        assert again.evidence == beliefs.evidence  # seeded


def test_reading_a_seat_seen_whole_leaves_the_worlds_as_they_were() -> None:
    """Three seats, one seen whole and one not: the worlds and their weights are those of the
    history without the seen seat's moves; the reading only adds that seat's kind."""
    found = seen_whole(DURAK, 3, 101, GreedyPlayer())
    assert found is not None
    position, history = found
    slots = position.hidden_slots().seats
    known = [seat for seat, n in slots.items() if n == 0]
    hidden = [seat for seat, n in slots.items() if n > 0]
    assert known and hidden
    read = weigh(prepare(position), history, particles=2048, seed=5)
    blind = weigh(prepare(position), history.without(known), particles=2048, seed=5)
    assert np.array_equal(read.hands, blind.hands) and np.array_equal(read.weights, blind.weights)
    assert read.mode == blind.mode and read.ess == blind.ess
    assert set(read.evidence) == set(known) | set(blind.evidence)
    assert all(read.evidence[seat] == blind.evidence[seat] for seat in blind.evidence)
    assert read.kinds(known[0])["greedy"] > 0.9
