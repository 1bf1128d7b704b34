"""Game records for the tests (docs/api.md §2.3): a hand-made `durak` game whose end is a known
blunder, and every seat's record of arena games and of random matches, beside what it really saw."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field

from solver.game.cards import Card, parse_cards
from solver.game.match import Match
from solver.game.moves import Move
from solver.game.position import MatchInfo, Position
from solver.game.record import Record
from solver.game.reference import Game
from solver.game.rules import Rules
from solver.tools.arena.tasks import GameTask, play_game
from tests.support.games import ordered_deck

__all__ = [
    "BLUNDER",
    "ENDGAME_MOVES",
    "GOOD",
    "PlayedGame",
    "arena_game",
    "endgame_record",
    "match_games",
    "record_of_game",
]


@dataclass
class PlayedGame:
    """One game as it was played: as dealt (`dealt`, the setup's forced steps played), its deck,
    in a match its block and the tribute owed, its moves, and the game at their end (`final`)."""

    dealt: Game
    deck: list[Card]
    info: MatchInfo | None
    owed: tuple[int, int] | None
    history: list[tuple[int, Move]] = field(default_factory=list)
    final: Game | None = None

    def record(self, seat: int, **extra: object) -> Record:
        """The record `seat` keeps of this game."""
        return Record.of_game(self.dealt, seat, self.deck, self.history, match=self.info, tribute=self.owed,
                              **extra)  # type: ignore[arg-type]

    def seen(self, seat: int) -> Position:
        """What `seat` really saw at the game's end."""
        assert self.final is not None
        return Position.from_game(self.final, seat, match=self.info)


def arena_game(rules: Rules, players: int, seed: int) -> PlayedGame:
    """A game of the arena (`solver.tools.arena`) between the random and greedy engines, replayed
    from its result's deck and moves."""
    seats = tuple("random" if seat % 2 else "greedy" for seat in range(players))
    task = GameTask(rules.to_json(), players, seats, seats, 0, seed, 0, seed)
    result = play_game(task)
    deck = parse_cards(result["deck"])
    game = Game.deal(rules, players, deck=deck, chance_seed=seed)
    played = PlayedGame(game.clone(), deck, None, None)
    for seat, text in result["moves"]:
        move = Move.parse(text)
        game.play(move, seat)
        played.history.append((seat, move))
    played.final = game
    return played


def match_games(rules: Rules, players: int, seed: int, games: int) -> Iterator[PlayedGame]:
    """Every game of a match played with random legal moves (drawn with `random.Random(seed)`)."""
    match = Match(rules, players, games, seed)
    rng = random.Random(seed)

    def dealt() -> PlayedGame:
        return PlayedGame(match.dealt.clone(), list(match.cards), match.info(), match.owed)

    played = dealt()
    while not match.over:
        game, number = match.game, match.number
        seat = game.to_move
        assert seat is not None
        move = rng.choice(game.legal_moves())
        match.play(move, seat)
        played.history.append((seat, move))
        if match.number != number or match.over:
            played.final = game
            yield played
            if not match.over:
                played = dealt()

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
    for mover, text in moves:
        move = Move.parse(text)
        game.play(move, mover)
        history.append((mover, move))
    return Record.of_game(first, seat, cards, history)


def endgame_record(last: str = BLUNDER, seat: int = 0) -> Record:
    """The hand-made game above as `seat` saw it, seat 0's last move being `last`."""
    return record_of_game(Rules.preset_named("durak"), 2, ENDGAME_DECK, [*ENDGAME_MOVES, (0, last)], seat, 0)
