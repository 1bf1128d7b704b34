"""Matches: games in a row between the same seats (docs/rules.md §1.9).

A `Match` deals each game from the match's seed and the game's number, so a
match replays exactly from its seed and its moves. Between games it carries
what the next game needs: the dealer, who leads (the last winner), the
tribute the last loser owes (`tribute`), the trump history (for
`trump_repeat_limit`) and the standings. Moves go to the game being played
through `play`; when a game ends the next is dealt at once.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from solver.game.bounds import MAX_MATCH_GAMES
from solver.game.cards import Card, Suit
from solver.game.errors import ErrorCode, GameOverError, TanError
from solver.game.moves import Move
from solver.game.phases import LeadReason
from solver.game.position import MatchInfo, Position
from solver.game.reference import Game, MoveRecord, random_deck
from solver.game.rules import Rules

__all__ = ["GameResult", "Match", "Standing"]


@dataclass(frozen=True)
class GameResult:
    """How one game of a match ended: its trump suit, dealer, winner, loser and scores.

    `repeat`: the dealer lost by a trump repeat (docs/rules.md §1.9); then, with three
    or more seats, `others` is the others' game that named the winner.
    """

    number: int
    trump: Suit
    dealer: int
    winner: int | None
    loser: int | None
    scores: tuple[float, ...]
    repeat: bool = False
    tribute: tuple[int, int, Card] | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.number,
            "trump": self.trump.letter,
            "dealer": self.dealer,
            "winner": self.winner,
            "loser": self.loser,
            "scores": list(self.scores),
            "trump_repeat": self.repeat,
        }


@dataclass
class Standing:
    """One seat's record in a match: games won, lost and drawn, and its total score."""

    won: int = 0
    lost: int = 0
    drawn: int = 0
    score: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {"won": self.won, "lost": self.lost, "drawn": self.drawn, "score": self.score}


def game_seed(seed: int, number: int, part: str = "deal") -> int:
    """The 63-bit seed of game `number` of the match with `seed` (stable across processes)."""
    digest = hashlib.sha256(f"match:{seed}:{number}:{part}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


@dataclass
class Match:
    """`games` games in a row (docs/rules.md §1.9); `game` is the one being played.

    `deck` orders the first game's deck instead of the seed (later games are
    always shuffled from the seed); `first_attacker` names the first game's
    first attacker.
    """

    rules: Rules
    players: int
    games: int
    seed: int
    deck: Sequence[Card | str] | None = None
    first_attacker: int | None = None
    results: list[GameResult] = field(default_factory=list)
    number: int = field(init=False, default=0)
    dealer: int = field(init=False, default=0)
    game: Game = field(init=False)
    dealt: Game = field(init=False)  # the game being played as it was dealt (never played on)
    cards: list[Card] = field(init=False)  # the deck it was dealt from, top first
    owed: tuple[int, int] | None = field(init=False, default=None)  # its tribute owed, (giver, receiver)
    repeat: bool = field(init=False, default=False)

    def __post_init__(self) -> None:
        self.rules.check_players(self.players)
        if isinstance(self.games, bool) or not isinstance(self.games, int) or self.games < 1:
            raise TanError(f"match: games must be a positive whole number, not {self.games!r}",
                           ErrorCode.INVALID_INPUT)
        if self.games > MAX_MATCH_GAMES:
            raise TanError(f"match: at most {MAX_MATCH_GAMES} games in a match, not {self.games}",
                           ErrorCode.INVALID_INPUT)
        self._deal_next()

    # -- between games -------------------------------------------------------------------

    @property
    def previous(self) -> GameResult | None:
        return self.results[-1] if self.results else None

    @property
    def over(self) -> bool:
        return len(self.results) == self.games

    def _deal_next(self) -> None:
        """Deal game `number + 1`: its dealer, leader and tribute from the last game."""
        self.number += 1
        self.repeat = False
        last = self.previous
        if last is not None and last.loser is not None:
            self.dealer = last.loser
        number, rules = self.number, self.rules
        if number == 1 and self.deck is not None:
            deck = self.deck
        else:
            deck = random_deck(rules, game_seed(self.seed, number))
        leader, why = (self.first_attacker, None) if number == 1 else self._leader()
        tribute = None
        if rules.tribute and last is not None and not last.repeat and None not in (last.loser, last.winner):
            assert last.loser is not None and last.winner is not None
            tribute = (last.loser, last.winner)
        self.game = Game.deal(rules, self.players, deck=deck, first_attacker=leader, lead_reason=why,
                              chance_seed=game_seed(self.seed, number, "chance"), tribute=tribute)
        self.cards, self.owed = [Card.parse(card) for card in deck], tribute
        if self._trump_repeats(self.game.trump.suit):
            self._dealer_loses()
        if self.number == number:  # not already past a game the dealer lost at once (two seats)
            self.dealt = self.game.clone()
        self._record_if_over()

    def _leader(self) -> tuple[int, LeadReason]:
        """Who leads a later game, and why: the last game's winner, else the dealer (docs/rules.md §1.9)."""
        last = self.previous
        if last is not None and last.winner is not None:
            return last.winner, LeadReason.LAST_WINNER
        return self.dealer, LeadReason.DEALER

    def _trump_repeats(self, suit: Suit) -> bool:
        """thua trắng: this suit was trump in each of the previous `limit - 1` games."""
        limit = self.rules.trump_repeat_limit
        if limit is None or len(self.results) < limit - 1:
            return False
        return all(result.trump == suit for result in self.results[len(self.results) - (limit - 1):])

    def _dealer_loses(self) -> None:
        """The dealer loses this game at once; with three or more seats the others play it out."""
        self.repeat = True
        if self.players == 2:
            winner = 1 - self.dealer
            self._record(winner=winner, loser=self.dealer, trump=self.game.trump.suit)
            return
        others = [seat for seat in range(self.players) if seat != self.dealer]
        last = self.previous
        if last is not None and last.winner in others:
            leader, why = last.winner, LeadReason.LAST_WINNER
        else:
            leader, why = others[0], LeadReason.FIRST_SEAT
        deck = random_deck(self.rules, game_seed(self.seed, self.number, "repeat"))
        chance = game_seed(self.seed, self.number, "repeat-chance")
        self.game = Game.deal(self.rules, self.players, deck=deck, first_attacker=leader, lead_reason=why,
                              chance_seed=chance, absent=[self.dealer])
        self.cards, self.owed = deck, None

    def _record_if_over(self) -> None:
        """Record the game just ended, and deal the next while the match lasts."""
        game = self.game
        if not game.over or len(self.results) >= self.number:
            return
        if self.repeat:
            self._record(winner=game.winner, loser=self.dealer, trump=game.trump.suit)
        else:
            self._record(winner=game.winner, loser=game.loser, trump=game.trump.suit, scores=game.scores)

    def _record(self, winner: int | None, loser: int | None, trump: Suit,
                scores: Sequence[float] | None = None) -> None:
        if scores is None:  # the dealer lost by a trump repeat
            scores = [0.0 if seat == self.dealer else 1.0 for seat in range(self.players)]
        tribute = self.game.tributed if not self.repeat else None
        self.results.append(
            GameResult(self.number, trump, self.dealer, winner, loser, tuple(scores), self.repeat, tribute)
        )
        if not self.over:
            self._deal_next()

    def clone(self) -> Match:
        """An independent copy: moves on it leave this match as it is."""
        other = Match.__new__(Match)
        other.__dict__.update(self.__dict__)
        other.results = list(self.results)
        other.game = self.game.clone()
        return other

    # -- playing ---------------------------------------------------------------------------

    def play(self, move: Move | str | dict[str, Any], seat: int | None = None) -> MoveRecord:
        """A move in the game being played; a game that ends deals the next one."""
        if self.over:
            raise GameOverError(f"the match is over ({self.games} games): no more moves")
        number = self.number
        record = self.game.play(move, seat)
        self._record_if_over()
        ended = record.game_over or self.number != number
        return MoveRecord(record.seat, record.move, record.bout_ended, ended)

    # -- what the seats see ------------------------------------------------------------------

    def standings(self) -> list[Standing]:
        """Games won, lost and drawn, and the total score, per seat (docs/rules.md §1.9)."""
        table = [Standing() for _ in range(self.players)]
        for result in self.results:
            for seat, score in enumerate(result.scores):
                table[seat].score += score
                if score == 0.5:
                    table[seat].drawn += 1
            if result.winner is not None:
                table[result.winner].won += 1
            if result.loser is not None:
                table[result.loser].lost += 1
        return table

    def info(self) -> MatchInfo:
        """The match block of the positions of the game being played (docs/api.md §2.2)."""
        last = self.previous
        return MatchInfo(
            game=self.number,
            dealer=self.dealer,
            previous_winner=last.winner if last is not None else None,
            previous_loser=last.loser if last is not None else None,
            trump_suits=tuple(result.trump for result in self.results),
            sitting_out=self.dealer if self.repeat and self.players > 2 and not self.over else None,
        )

    def position(self, seat: int, *, reveal_hands: bool = False) -> Position:
        """What `seat` sees of the game being played, with the match block (`reveal_hands`: see
        `Position.from_game`)."""
        return Position.from_game(self.game, seat, match=self.info(), reveal_hands=reveal_hands)
