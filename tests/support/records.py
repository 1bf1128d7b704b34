"""Game records for the tests (docs/api.md §2.3): a hand-made `durak` game whose end is a known blunder."""

from __future__ import annotations

from solver.game.cards import Card, parse_cards
from solver.game.moves import Move
from solver.game.record import Record
from solver.game.reference import Game
from solver.game.rules import Rules
from tests.support.games import ordered_deck

__all__ = ["BLUNDER", "ENDGAME_MOVES", "GOOD", "endgame_record", "record_of_game"]

# Two seats, hearts trump (6h turned up). Two bouts of six pairs empty the stock; then, with
# nothing hidden, seat 0 leads T♦ and T♥ (seat 1 beats them with K♦, K♥), must pass (ply 28:
# it holds no ten or king), and beats A♠ and 6♣ with trumps. Seat 1 could then throw in A♦ but
# passes, and seat 0, holding 9♣ A♥ against Q♣ A♦, leads (ply 34):
# - A♥ wins: nothing beats it, seat 1 takes, and 9♣ is seat 0's last card whatever seat 1 does;
# - 9♣ draws at best: Q♣ beats it, seat 1 leads A♦, and A♥ beating it empties both hands at once.
ENDGAME_MOVES: list[tuple[int, str]] = [
    (0, "attack 6s"), (1, "defend 6s with 7s"), (0, "attack 7c"), (1, "defend 7c with 8c"),
    (0, "attack 8d"), (1, "defend 8d with 9d"), (0, "attack 9s"), (1, "defend 9s with Ts"),
    (0, "attack Tc"), (1, "defend Tc with Jc"), (0, "attack Jd"), (1, "defend Jd with Qd"),
    (1, "attack 6d"), (0, "defend 6d with 7d"), (1, "attack 7h"), (0, "defend 7h with 8h"),
    (1, "attack 8s"), (0, "defend 8s with Js"), (1, "attack Jh"), (0, "defend Jh with Qh"),
    (1, "attack Qs"), (0, "defend Qs with Ks"), (1, "attack Kc"), (0, "defend Kc with Ac"),
    (0, "attack Td"), (1, "defend Td with Kd"), (0, "attack Th"), (1, "defend Th with Kh"), (0, "pass"),
    (1, "attack As"), (0, "defend As with 6h"), (1, "attack 6c"), (0, "defend 6c with 9h"), (1, "pass"),
]  # fmt: skip
BLUNDER = "attack 9c"
GOOD = "attack Ah"
HANDS = [["6s", "7c", "8d", "9s", "Tc", "Jd"], ["7s", "8c", "9d", "Ts", "Jc", "Qd"]]
STOCK = ["7d", "8h", "Js", "Qh", "Ks", "Ac", "6d", "7h", "8s", "Jh", "Qs", "Kc",
         "Kd", "Kh", "As", "6c", "Qc", "Ad", "Td", "Th", "9h", "9c", "Ah"]  # fmt: skip
ENDGAME_DECK = ordered_deck(Rules.preset_named("durak"), HANDS, "6h", STOCK)


def record_of_game(
    rules: Rules, players: int, deck: list[str], moves: list[tuple[int, str]], seat: int,
    first_attacker: int | None = None,
) -> Record:
    """The record `seat` keeps of the game dealt from `deck` and played as `moves` (each checked legal)."""
    cards = parse_cards(deck)
    game = Game.deal(rules, players, deck=cards, first_attacker=first_attacker)
    first = game.clone()
    history: list[tuple[int, Move]] = []
    draws: list[tuple[int, list[Card]]] = []
    for ply, (mover, text) in enumerate(moves):
        move = Move.parse(text)
        game.play(move, mover)
        history.append((mover, move))
        if game.drawn[seat]:
            draws.append((ply, list(game.drawn[seat])))
    return Record.of_game(first, seat, cards, history, draws)


def endgame_record(last: str = BLUNDER, seat: int = 0) -> Record:
    """The hand-made game above as `seat` saw it, seat 0's last move being `last`."""
    return record_of_game(Rules.preset_named("durak"), 2, ENDGAME_DECK, [*ENDGAME_MOVES, (0, last)], seat, 0)
