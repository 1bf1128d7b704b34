"""Waiting in the setup tells a seat nothing (docs/rules.md §1.7; issue 64, finding 1).

Pairs of decks that differ only in where one card lies — the lowest trump in
seat 1's hand or in the stock (đổi 2 chủ), one trump or none in seat 1's hand
(xả chủ) — are played side by side, seat 0 choosing the same moves in both and
every other seat keeping (what nobody else sees). At every step until the first
lead, seat 0's position, the moves it may make and why each other move is
refused must be the same in both games: whether another seat has a decision to
make must not show in the wait.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from solver.game.cards import Card, deck
from solver.game.errors import TanError
from solver.game.moves import Move
from solver.game.phases import Phase
from solver.game.position import Position
from solver.game.reference import Game
from solver.game.rules import Rules

SWAP = {"trump_swap": True}
REDEAL = {"redeal_without_trump": True}
BOTH = {**SWAP, **REDEAL}
VARIANTS = [
    (preset, options, players)
    for preset in ("tan", "durak")
    for options in (SWAP, REDEAL, BOTH)
    for players in (2, 3)
]
SEEDS = range(6)


def _low_trump(rules: Rules, trump: Card) -> Card:
    return Card(deck(rules.deck)[0].rank, trump.suit)


def _slots(rules: Rules, players: int, seat: int) -> list[int]:
    """The deck indices (top first) dealt to `seat` (docs/rules.md §1.2: one card at a time)."""
    return [i for i in range(players * rules.hand_size) if i % players == seat]


def _deep_stock(rules: Rules, players: int) -> list[int]:
    """Deck indices of stock cards below the two hands a redeal would offer (so a redeal of seat
    0's shows the same offered hands in both decks), never the trump card."""
    dealt = players * rules.hand_size
    return list(range(dealt + 1 + 2 * rules.hand_size, rules.deck))


def _swapped(cards: list[Card], i: int, j: int) -> list[Card]:
    out = list(cards)
    out[i], out[j] = out[j], out[i]
    return out


def deck_pairs(rules: Rules, players: int, seed: int) -> Iterator[tuple[str, list[Card], list[Card]]]:
    """Two decks a pair, differing only in two cards that trade places between a slot of seat 1's
    hand and a slot deep in the stock."""
    rng = random.Random(seed)
    base = list(deck(rules.deck))
    rng.shuffle(base)
    dealt = players * rules.hand_size
    trump = base[dealt]
    mine, deep = _slots(rules, players, 1), _deep_stock(rules, players)
    if rules.trump_swap:
        low = _low_trump(rules, trump)
        if low != trump:
            # The lowest trump deep in the stock; then the same deck with it in seat 1's hand.
            where = base.index(low)
            stock_deck = _swapped(base, where, rng.choice(deep)) if where not in deep else base
            j = stock_deck.index(low)
            held_deck = _swapped(stock_deck, j, rng.choice(mine))
            yield "lowest trump: seat 1 or the stock", held_deck, stock_deck
    if rules.redeal_without_trump:
        # Seat 1 with no trump: its trumps traded for plain cards of the deep stock.
        trumpless = list(base)
        plain = [j for j in deep if trumpless[j].suit != trump.suit]
        for i in mine:
            if trumpless[i].suit == trump.suit:
                trumpless = _swapped(trumpless, i, plain.pop())
        trumps = [j for j in deep if trumpless[j].suit == trump.suit]
        if trumps:
            held = _swapped(trumpless, rng.choice(mine), trumps[0])
            yield "a trump or none in seat 1's hand", held, trumpless


def _probes(game: Game) -> list[Move]:
    """Every setup move, and a lead of each of seat 0's cards."""
    moves = [Move.keep(), Move.redeal(), Move.swap(), Move.pick(0), Move.pick(1)]
    return moves + [Move.attack(card) for card in sorted(game.hands[0])]


def _refusal(game: Game, move: Move) -> str:
    try:
        game.verify(move, 0)
    except TanError as error:
        return f"{type(error).__name__}: {error}"
    return "ok"


def seen_by_seat_0(game: Game) -> dict[str, object]:
    """What seat 0 sees and may do: its position, its moves, why each other move is refused."""
    position = Position.from_game(game, 0)
    return {
        "position": position.to_json(),
        "legal": [str(move) for move in position.legal_moves()] if position.to_move == 0 else [],
        "refusals": {str(move): _refusal(game, move) for move in _probes(game)},
    }


def _next_move(game: Game, rng: random.Random) -> Move:
    """Seat 0 picks at random among its moves; every other seat keeps where it may, else picks the
    first hand offered after its (public) redeal."""
    moves = game.legal_moves()
    if game.to_move == 0:
        return rng.choice(moves)
    return Move.keep() if Move.keep() in moves else moves[0]


def play_setup_side_by_side(held: Game, elsewhere: Game, seed: int) -> int:
    """Play both games to the first lead; assert seat 0 sees the same at every step. The steps."""
    rngs = random.Random(seed), random.Random(seed)
    for step in range(100):
        assert seen_by_seat_0(held) == seen_by_seat_0(elsewhere), f"step {step}"
        if held.phase is Phase.PLAY or held.over:
            assert elsewhere.phase is held.phase and elsewhere.over is held.over
            return step
        for game, rng in zip((held, elsewhere), rngs, strict=True):
            game.play(_next_move(game, rng))
    raise AssertionError("the setup never ended")


@pytest.mark.parametrize(("preset", "options", "players"), VARIANTS,
                         ids=[f"{p}-{'+'.join(o)}-{n}" for p, o, n in VARIANTS])
def test_seat_0_cannot_tell_where_a_card_lies_from_the_setup(
    preset: str, options: dict[str, bool], players: int
) -> None:
    rules = Rules.preset_named(preset, **options)
    pairs = 0
    for seed in SEEDS:
        for what, held_deck, stock_deck in deck_pairs(rules, players, seed):
            first = seed % players
            held = Game.deal(rules, players, deck=held_deck, first_attacker=first, chance_seed=seed)
            elsewhere = Game.deal(rules, players, deck=stock_deck, first_attacker=first, chance_seed=seed)
            assert held.hands[0] == elsewhere.hands[0] and held.hands[1] != elsewhere.hands[1], what
            play_setup_side_by_side(held, elsewhere, seed)
            pairs += 1
    assert pairs >= len(SEEDS) // 2


def test_the_pairs_differ_where_it_matters() -> None:
    """The pairs are the ones the rule tells apart: seat 1 holds the lowest trump in one deck and
    not the other, or no trump in one and a trump in the other."""
    rules = Rules.preset_named("tan", **BOTH)
    kinds = set()
    for seed in SEEDS:
        for what, held_deck, stock_deck in deck_pairs(rules, 2, seed):
            held = Game.deal(rules, 2, deck=held_deck, first_attacker=0)
            elsewhere = Game.deal(rules, 2, deck=stock_deck, first_attacker=0)
            trump = held.trump
            low = _low_trump(rules, trump)
            if what.startswith("lowest"):
                assert low in held.hands[1] and low in elsewhere.stock
            else:
                assert sum(card.suit == trump.suit for card in held.hands[1]) == 1
                assert not any(card.suit == trump.suit for card in elsewhere.hands[1])
            kinds.add(what)
    assert len(kinds) == 2
