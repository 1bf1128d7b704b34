"""docs/api.md §2.2 positions: every refusal code with its message, round trips, and redeals."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

import pytest

from solver.game.cards import Card, parse_cards
from solver.game.errors import CardError, NotYourTurnError, PositionError, RulesError, TanError
from solver.game.position import Position
from solver.game.reference import Game, play_random_game
from solver.game.rules import PRESETS, Rules
from tests.support.games import twin_games, variants
from tests.support.positions import endgame_position
from tests.support.sweeps import sampled

DOCS_EXAMPLE: dict[str, Any] = {
    "rules": "tan",
    "players": 2,
    "seat": 0,
    "hand": ["6s", "Th", "Qh", "2c", "9d", "Jd", "4s", "Ac"],
    "hand_counts": [8, 7],
    "trump": "Qd",
    "stock": 32,
    "discard": ["5h", "8h", "3s", "9s"],
    "table": [{"attack": "7c", "defense": None}],
    "attacker": 1,
    "defender": 0,
    "to_move": 0,
    "taking": False,
    "passed": [],
    "known": {"1": ["Kc"]},
    "finished": [],
    "defended_once": True,
}


def durak_defending() -> dict[str, Any]:
    """Seat 1 of a 2-seat durak deal (seed 1), facing 7d: hand 6c 6d 7h 9c Ah Td, trump Js."""
    game = Game.deal(Rules.preset_named("durak"), 2, seed=1)
    game.play("attack 7d")
    return Position.from_game(game, 1).to_json()


def three_seats() -> dict[str, Any]:
    """Seat 0 of a 3-seat durak deal (seed 2) at the first lead."""
    return Position.from_game(Game.deal(Rules.preset_named("durak"), 3, seed=2), 0).to_json()


def test_the_spec_example_parses() -> None:
    position = Position.from_json(DOCS_EXAMPLE)
    assert position.rules == PRESETS["tan"] and position.seat == 0
    assert position.known[1] == (Card.parse("Kc"),)
    assert position.table == ((Card.parse("7c"), None),)
    assert Position.from_json(position.to_json()) == position
    assert position.hidden_slots().seats == {1: 6}
    assert position.hidden_slots().stock == 31
    assert len(position.unseen_cards()) == 37 == position.hidden_slots().total
    assert Card.parse("Qd") not in position.unseen_cards()  # the trump card lies in the stock


def test_optional_fields_have_defaults() -> None:
    game = Game.deal(Rules.preset_named("tan"), 3, seed=4)
    data = Position.from_game(game, 1).to_json()
    for name in ("discard", "table", "taking", "passed", "known", "finished", "defended_once"):
        del data[name]
    assert Position.from_json(data).to_json() == Position.from_game(game, 1).to_json()


def test_defended_once_defaults_to_a_nonempty_discard() -> None:
    data = dict(DOCS_EXAMPLE)
    del data["defended_once"]
    assert Position.from_json(data).defended_once is True


def test_rules_as_options_round_trip() -> None:
    rules = Rules.preset_named("durak", transfer=True, max_attack=5)
    game = Game.deal(rules, 4, seed=3)
    data = Position.from_game(game, 2).to_json()
    assert data["rules"] == rules.to_json()
    assert Position.from_json(data).rules == rules


def change(**fields: Any) -> Callable[[dict[str, Any]], None]:
    def apply(data: dict[str, Any]) -> None:
        data.update(fields)

    return apply


def remove(name: str) -> Callable[[dict[str, Any]], None]:
    def apply(data: dict[str, Any]) -> None:
        del data[name]

    return apply


REFUSALS: list[tuple[str, Callable[[dict[str, Any]], None], str, str]] = [
    ("unknown field", change(colour="red"), "invalid_position", r"unknown field\(s\) in position: colour"),
    ("missing field", remove("hand"), "invalid_position", r"missing field\(s\) in position: hand"),
    ("mistyped stock", change(stock="many"), "invalid_position", r"stock must be a whole number"),
    ("negative stock", change(stock=-1), "invalid_position", r"stock must be at least 0"),
    ("mistyped taking", change(taking="yes"), "invalid_position", r"taking must be true or false"),
    ("mistyped hand", change(hand="6c 6d"), "invalid_position", r"hand must be a list of cards"),
    ("mistyped table", change(table=[["7d", None]]), "invalid_position", r"table\[0\] must be an object"),
    (
        "table field",
        change(table=[{"attack": "7d", "beats": None}]),
        "invalid_position",
        r"table\[0\]: unknown",
    ),
    ("known key", change(known={"x": ["Kc"]}), "invalid_position", r"known: key 'x' is not a seat"),
    (
        "not a card",
        change(hand=["6c", "6d", "7h", "9c", "Ah", "Zz"]),
        "invalid_card",
        r"hand\[5\]: not a card",
    ),
    ("trump not a card", change(trump=5), "invalid_card", r"trump: not a card"),
    ("unknown preset", change(rules="poker"), "unknown_rules", r"unknown rules preset 'poker'"),
    ("unknown option", change(rules={"preset": "durak", "jokers": 2}), "unknown_rules", r"jokers"),
    ("players", change(players=7, hand_counts=[5, 6, 0, 0, 0, 0, 0]), "bad_players", r"players: durak"),
    ("mistyped players", change(players="2"), "invalid_position", r"players must be a whole number"),
    ("seat", change(seat=2), "invalid_seat", r"seat: no seat 2"),
    ("attacker seat", change(attacker=9), "invalid_seat", r"attacker: no seat 9"),
    ("known seat", change(known={"9": ["Kc"]}), "invalid_seat", r"known: no seat 9"),
    (
        "not in deck",
        change(hand=["6c", "6d", "7h", "9c", "Ah", "2c"]),
        "card_not_in_deck",
        r"hand: 2c is not in a 36",
    ),
    ("twice", change(discard=["6c"]), "duplicate_card", r"6c is shown twice: in hand and in discard"),
    (
        "twice known",
        change(known={"0": ["7d"]}),
        "duplicate_card",
        r"7d is shown twice: in known\[0\] and in table",
    ),
    ("hand count", change(hand_counts=[5, 7]), "count_mismatch", r"hand_counts\[1\] is 7 but hand holds 6"),
    ("counts length", change(hand_counts=[5, 6, 0]), "count_mismatch", r"hand_counts: 3 counts for 2 seats"),
    ("sum", change(stock=25), "count_mismatch", r"do not add up to the 36-card deck"),
    (
        "known too many",
        change(known={"0": ["8h", "8s", "Jd", "Kc", "Qc", "6s"]}),
        "count_mismatch",
        r"6 cards known",
    ),
    ("trump shown", change(known={"0": ["Js"]}), "count_mismatch", r"trump card Js still lies at the bottom"),
    ("own known", change(known={"1": ["6c"]}), "invalid_position", r"seat 1 is the viewpoint"),
    (
        "to_move",
        change(to_move=0),
        "inconsistent_turn",
        r"to_move: seat 0 is to move, but .* seat 1 \(the defender\)",
    ),
    (
        "defender",
        change(attacker=1, defender=1),
        "inconsistent_turn",
        r"defender: seat 1 is not the next active",
    ),
    ("taking", change(taking=True), "inconsistent_turn", r"to_move: seat 1 is to move, but .* seat 0"),
    ("passed", change(passed=[0]), "inconsistent_turn", r"nobody passes outside the throw-in phase"),
    (
        "defended_once",
        change(defended_once=True),
        "inconsistent_turn",
        r"defended_once is true but the discard",
    ),
    (
        "no beat",
        change(table=[{"attack": "7d", "defense": "6h"}], stock=23, to_move=0),
        "invalid_position",
        r"table\[0\]: 6h does not beat 7d \(trump s\)",
    ),
    ("finished", change(finished=[0]), "count_mismatch", r"finished: seat 0 has finished but holds 5"),
]


@pytest.mark.parametrize(
    ("spoil", "code", "message"), [case[1:] for case in REFUSALS], ids=[c[0] for c in REFUSALS]
)
def test_refusals(spoil: Callable[[dict[str, Any]], None], code: str, message: str) -> None:
    data = durak_defending()
    spoil(data)
    with pytest.raises(TanError, match=message) as error:
        Position.from_json(data)
    assert error.value.code == code
    if code == "invalid_card":
        assert isinstance(error.value, CardError)
    if code in ("unknown_rules", "bad_players"):
        assert isinstance(error.value, RulesError)
    if code not in ("invalid_card", "unknown_rules", "bad_players"):
        assert isinstance(error.value, PositionError)


IMPOSSIBLE: list[tuple[str, dict[str, Any], str, str]] = [
    (
        "stock above the deck minus the deal",
        {"rules": "tan", "players": 2, "seat": 0, "hand": ["6s", "Th", "Qh"], "hand_counts": [3, 3],
         "trump": "Qd", "stock": 46, "attacker": 0, "defender": 1, "to_move": 0},
        "count_mismatch",
        r"stock: 46 cards, but after dealing 16 of the 52-card deck at most 36 are left",
    ),
    (
        "odd discard pile",
        {"rules": "durak", "players": 2, "seat": 0, "hand": ["6s", "Th", "Qh", "7c", "8c", "9c"],
         "hand_counts": [6, 6], "trump": "Qd", "stock": 23, "discard": ["Ac"], "attacker": 0,
         "defender": 1, "to_move": 0},
        "count_mismatch",
        r"discard: 1 cards, but a defence discards attack and defence cards in pairs",
    ),
    (
        "defender empty, every card beaten, stock left",
        {"rules": "durak", "players": 2, "seat": 0, "hand": ["6s", "Th", "Qh", "7c", "8c", "9c"],
         "hand_counts": [6, 0], "trump": "Qd", "stock": 24, "discard": ["6h", "7h", "8h", "9h"],
         "table": [{"attack": "7d", "defense": "9d"}], "attacker": 0, "defender": 1, "to_move": 0},
        "inconsistent_turn",
        r"the defender, seat 1, has beaten every card with its last one",
    ),
]


@pytest.mark.parametrize(
    ("data", "code", "message"), [case[1:] for case in IMPOSSIBLE], ids=[c[0] for c in IMPOSSIBLE]
)
def test_impossible_positions_are_refused(data: dict[str, Any], code: str, message: str) -> None:
    """Counts that add up but that no play can reach: the deal fixes the largest stock, a
    defence discards pairs, and a defender that beats with its last card ends the bout."""
    with pytest.raises(PositionError, match=message) as error:
        Position.from_json(data)
    assert error.value.code == code


def test_not_an_object() -> None:
    with pytest.raises(PositionError, match="must be a JSON object") as error:
        Position.from_json(["rules", "tan"])
    assert error.value.code == "invalid_position"


def test_taking_needs_throw_in_after_take() -> None:
    data = copy.deepcopy(DOCS_EXAMPLE)
    data.update(taking=True, to_move=1)
    with pytest.raises(PositionError, match="throw_in_after_take is off") as error:
        Position.from_json(data)
    assert error.value.code == "inconsistent_turn"


def test_three_seat_turn_fields() -> None:
    data = three_seats()
    lead = data["attacker"]
    spoiled = dict(data, defender=(lead + 2) % 3)
    with pytest.raises(PositionError, match="is not the next active seat") as error:
        Position.from_json(spoiled)
    assert error.value.code == "inconsistent_turn"
    spoiled = dict(data, table=[{"attack": data["hand"][0], "defense": None}])
    with pytest.raises(PositionError) as error:
        Position.from_json(spoiled)
    assert error.value.code in ("duplicate_card", "count_mismatch")


def test_passed_must_be_the_throwers_before_the_seat_to_move() -> None:
    for seed in range(11, 60):  # the first deal whose lead can be beaten
        game = Game.deal(Rules.preset_named("durak"), 4, seed=seed)
        game.play(game.legal_moves()[0])
        defence = [move for move in game.legal_moves() if move.action.value == "defend"]
        if defence:
            break
    assert defence, "no deal among 49 had a defence"
    game.play(defence[0])
    game.play("pass")
    data = Position.from_game(game, 0).to_json()
    assert len(data["passed"]) == 1
    Position.from_json(data)
    skipped = dict(data, passed=[], to_move=data["to_move"])
    with pytest.raises(PositionError, match="to_move") as error:
        Position.from_json(skipped)
    assert error.value.code == "inconsistent_turn"


def test_a_seat_that_may_not_throw_in_never_passed() -> None:
    """docs/rules.md §1.4 `throwers`: at four seats the defender's neighbours throw in, so the
    seat across from the defender never passed; under `attacker`, once the main attacker has
    passed the bout is over."""
    rules = Rules.preset_named("durak", throwers="neighbours")
    for seed in range(11, 60):  # the first deal whose lead can be beaten
        game = Game.deal(rules, 4, seed=seed)
        game.play(game.legal_moves()[0])
        defence = [move for move in game.legal_moves() if move.action.value == "defend"]
        if defence:
            break
    assert defence, "no deal among 49 had a defence"
    game.play(defence[0])
    game.play("pass")
    data = Position.from_game(game, 0).to_json()
    assert data["rules"]["throwers"] == "neighbours" and data["to_move"] == (data["defender"] + 1) % 4
    Position.from_json(data)
    alone = dict(data, rules={**data["rules"], "throwers": "attacker"})
    with pytest.raises(PositionError, match="every thrower has passed") as error:
        Position.from_json(alone)
    assert error.value.code == "inconsistent_turn"
    stranger = dict(data, passed=[data["attacker"], (data["defender"] + 2) % 4])
    with pytest.raises(PositionError, match=r"seat \d is not a thrower") as error:
        Position.from_json(stranger)
    assert error.value.code == "inconsistent_turn"


# -- redeals ---------------------------------------------------------------------------------


def test_to_game_with_the_true_cards_is_the_game() -> None:
    rng = random.Random(5)
    for preset, players in (("durak", 3), ("perevodnoy", 2), ("tan", 4)):
        game = Game.deal(Rules.preset_named(preset), players, seed=players)
        for _ in range(60):
            if game.over:
                break
            seat = rng.randrange(players)
            position = Position.from_game(game, seat)
            hidden = {
                other: sorted(game.hands[other] - game.known[other])
                for other in range(players)
                if other != seat
            }
            rebuilt = position.to_game(hidden, game.stock[:-1])
            assert rebuilt.snapshot() == game.snapshot()
            game.play(rng.choice(game.legal_moves()))


def test_to_game_refuses_a_wrong_assignment() -> None:
    position = Position.from_json(DOCS_EXAMPLE)
    unseen = position.unseen_cards()
    with pytest.raises(PositionError, match=r"hidden\[1\]: 5 cards given for 6") as error:
        position.to_game({1: unseen[:5]}, unseen[5:])
    assert error.value.code == "count_mismatch"
    with pytest.raises(PositionError, match="exactly the unseen cards"):
        position.to_game({1: unseen[:6]}, [*unseen[7:], Card.parse("6s")])
    with pytest.raises(PositionError, match="stock_order"):
        position.to_game({1: unseen[:6]}, unseen[7:])


def test_sample_game_deals_every_unseen_card() -> None:
    position = Position.from_json(DOCS_EXAMPLE)
    game = position.sample_game(random.Random(1))
    assert game.hands[0] == set(parse_cards(DOCS_EXAMPLE["hand"]))
    assert Card.parse("Kc") in game.hands[1] and len(game.hands[1]) == 7
    assert game.stock[-1] == Card.parse("Qd") and len(game.stock) == 32
    assert Position.from_game(game, 0).to_json() == Position.from_json(DOCS_EXAMPLE).to_json()
    other = position.sample_game(random.Random(2))
    assert other.hands[1] != game.hands[1] or other.stock != game.stock


def test_legal_moves_of_the_viewpoint() -> None:
    position = Position.from_json(durak_defending())
    assert [str(move) for move in position.legal_moves()] == ["defend 7d with Td", "take"]
    waiting = Position.from_game(Game.deal(Rules.preset_named("durak"), 2, seed=1), 1).to_json()
    with pytest.raises(NotYourTurnError, match="seat 1 is not to move: seat 0 is"):
        Position.from_json(waiting).legal_moves()


ROUND_TRIP_CASES = [
    (name, players) for name, rules in PRESETS.items() for players in (rules.min_players, rules.max_players)
]


@pytest.mark.parametrize(("preset", "players"), ROUND_TRIP_CASES)
def test_round_trip_through_random_games(preset: str, players: int) -> None:
    """from_json(position).to_json() is the position; a redeal shows the seat the same
    position and, when it is to move, the same legal moves."""
    rules = Rules.preset_named(preset)
    rng = random.Random(players)
    for seed in range(2):
        game = Game.deal(rules, players, seed=seed)
        ply = 0
        while True:
            if ply % 7 == 0 or game.over:
                seat = (
                    game.to_move
                    if game.to_move is not None and rng.random() < 0.5
                    else rng.randrange(players)
                )
                data = Position.from_game(game, seat).to_json()
                assert Position.from_json(data).to_json() == data
                redeal = Position.from_json(data).sample_game(rng)
                assert Position.from_game(redeal, seat).to_json() == data
                if game.to_move == seat:
                    assert redeal.legal_moves() == game.legal_moves()
            if game.over:
                break
            game.play(rng.choice(game.legal_moves()))
            ply += 1


FINAL_CASES = [
    (rules, players)
    for rules in (*PRESETS.values(), Rules.from_json({"preset": "durak", "trump_ace_last_loses": True}))
    for players in (2, 3, rules.max_players)
]


@pytest.mark.parametrize(("rules", "players"), sampled(FINAL_CASES, 6, "final-scores"))
def test_final_scores_match_the_game(rules: Rules, players: int) -> None:
    """Every seat's view of a finished random game scores it as the game did, except where a
    position cannot tell: more than two seats finishing together in the last bout."""
    for seed in range(40):
        game = play_random_game(rules, players, seed)
        for seat in range(players):
            scores = Position.from_game(game, seat).final_scores()
            if players == 2 or game.loser is not None or any(game.hands):
                assert scores == game.scores
            else:
                drawn = {s for s in range(players) if scores[s] == 0.5}
                assert drawn == set(game.finished[-2:])
                assert drawn <= {s for s in range(players) if game.scores[s] == 0.5}


def finished_position(**fields: Any) -> Position:
    """A finished 2-seat durak position (`to_move` null, `rules` may add options); unplaced
    cards are discarded."""
    defaults: dict[str, Any] = {"players": 2, "seat": 0, "trump": "6h", "attacker": 0, "defender": 1,
                                "to_move": None}
    rules = fields.pop("rules", "durak")
    data = endgame_position(Rules.from_json(rules), **{**defaults, **fields})
    return Position.from_json({**data, "rules": rules})


def test_final_scores_of_hand_made_endings() -> None:
    assert finished_position(hand=[], hand_counts=[0, 0], finished=[1, 0]).final_scores() == [0.5, 0.5]
    lost = finished_position(hand=[], hand_counts=[0, 2], finished=[0], hidden=["7s", "8s"])
    assert lost.final_scores() == [1.0, 0.0]
    # Two seats still holding cards at the end: the repetition draw.
    assert finished_position(hand=["7s"], hand_counts=[1, 1], hidden=["8s"]).final_scores() == [0.5, 0.5]
    ace_rule = {"preset": "durak", "trump_ace_last_loses": True}
    # thối A chủ: seat 1 holds only the trump ace, seen (known) or by elimination.
    for known, hidden in (({"1": ["Ah"]}, []), ({}, ["Ah"])):
        ended = finished_position(
            rules=ace_rule, hand=["7s", "8s", "9s"], hand_counts=[3, 1], known=known, hidden=hidden
        )
        assert ended.final_scores() == [1.0, 0.0]
    ended = finished_position(players=3, hand=[], hand_counts=[0, 0, 0], finished=[2, 0, 1])
    assert ended.final_scores() == [0.5, 0.5, 1.0]
    with pytest.raises(TanError, match="not over"):
        finished_position(hand=["7s"], hand_counts=[1, 1], hidden=["8s"], to_move=0).final_scores()


@pytest.mark.parametrize(
    ("rules", "players"), sampled(variants(), 6, "views"), ids=lambda x: getattr(x, "preset", x)
)
def test_every_seat_has_a_valid_position_at_every_state(rules: Rules, players: int) -> None:
    """Under every option and seat count, every reachable state gives every seat a valid position
    that reads back to itself; a world sampled from it shows the seat the same position and, when
    it is to move, the same moves (a view waiting on another seat's secret decision excepted)."""
    rng = random.Random(f"views-{rules}-{players}")
    for state, (game, _core) in enumerate(twin_games(rules, players, 8200)):
        for seat in range(players):
            data = Position.from_game(game, seat).to_json()
            position = Position.from_json(data)
            assert position.to_json() == data
            if position.phase == "setup" and position.to_move is None:
                assert game.to_move != seat and game.setup_step in ("redeal", "swap")
                continue
            if game.phase == "setup" or state % 3 == 0:  # every setup state, and a third of the rest
                world = position.sample_game(rng)
                assert Position.from_game(world, seat).to_json() == data
            if game.to_move == seat:
                assert position.legal_moves() == game.legal_moves()
