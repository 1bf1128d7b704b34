"""The long adversarial game of the load run (issue 24): legal, seeded, as long as the rules allow.

    python -m benchmarks.long_game [--seed 1] [--seat 0] [--output FILE]

Three seats play `durak` so that no card ever leaves the game: every defender
takes, every other seat passes where it could throw in, and a seat leads a
card the others have seen it take whenever one does not make a bout start
repeat a third time (its own unseen cards only when none does): each seat
leads one card in three bouts and takes one, so nobody runs out. The lead is
drawn by the seeded generator among those, and the game ends in the
repetition rule's safety net, `HISTORY_CAP` bout starts with no defence and no
draw (docs/rules.md §1.5). That is 2,056 moves (seed 1): every other seat's
decision is one for the card tracker and the beliefs to weigh, and a review
of one seat has hundreds of decisions.

`long_game(seed)` answers the deck and the moves; `long_record(seed, seat)` the
record one seat keeps of it (docs/api.md §2.3), and `record_json` that record
with its moves in text notation: about 55 KB, under the service's default
body cap of 64 KB. The same seed gives the same game.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from solver.game.cards import Card
from solver.game.moves import Action, Move
from solver.game.record import Play, Record
from solver.game.reference import Game, random_deck
from solver.game.rules import Rules

__all__ = ["LongGame", "long_game", "long_record", "record_json"]

PLAYERS = 3
RULES = "durak"


@dataclass
class LongGame:
    """A long game: the rules, the seats, the deck (top first), who led first and the moves."""

    rules: Rules
    players: int
    deck: list[Card]
    first_attacker: int
    moves: list[tuple[int, Move]]
    scores: list[float] | None

    def record(self, seat: int) -> Record:
        """The record `seat` keeps of the game (its hand, every public move, its own draws)."""
        return Record.of_game(self.deal(), seat, self.deck, self.moves)

    def deal(self) -> Game:
        return Game.deal(self.rules, self.players, deck=self.deck, first_attacker=self.first_attacker)


def _bout_start(game: Game) -> tuple[Any, ...]:
    """What the repetition rule compares at a bout's start (docs/rules.md §1.5)."""
    return (tuple(frozenset(hand) for hand in game.hands), tuple(game.stock), game.attacker)


def _bout_after(game: Game, lead: Move) -> Game:
    """The game after the bout `lead` opens is played out the long game's way."""
    trial = game.clone()
    trial.play(lead, trial.to_move)
    while not trial.over and trial.table:
        trial.play(_reply(trial), trial.to_move)
    return trial


def _reply(game: Game) -> Move:
    """Every move but a lead: the defender takes, everyone else passes."""
    seat = game.to_move
    if seat == game.defender and not game.taking:
        return Move.parse("take")
    return Move.parse("pass")


def long_game(seed: int = 1) -> LongGame:
    """The long game of `seed` (module docstring); raises RuntimeError if the seed's game ends
    otherwise than at the bout cap (never seen; try another seed)."""
    rules = Rules.preset_named(RULES)
    deck = random_deck(rules, seed)
    rng = random.Random(seed)
    game = Game.deal(rules, PLAYERS, deck=deck)
    first = game.leader
    moves: list[tuple[int, Move]] = []
    seen: Counter[tuple[Any, ...]] = Counter()  # every bout start so far (a superset of the rule's)
    seen[_bout_start(game)] += 1
    while not game.over:
        seat = game.to_move
        assert seat is not None
        if game.table:
            move = _reply(game)
        else:
            hand = sorted(game.hands[seat])
            shown = [Move(Action.ATTACK, card) for card in hand if card in game.known[seat]]
            unseen = [Move(Action.ATTACK, card) for card in hand if card not in game.known[seat]]
            rng.shuffle(shown)
            rng.shuffle(unseen)
            fresh = [lead for lead in shown + unseen if seen[_bout_start(_bout_after(game, lead))] < 2]
            move = (fresh or shown or unseen)[0]
        game.play(move, seat)
        moves.append((seat, move))
        if not game.table and not game.over:
            seen[_bout_start(game)] += 1
    if game.loser is not None or any(not hand for hand in game.hands):
        raise RuntimeError(f"seed {seed}: the long game ended with a loser after {len(moves)} moves")
    return LongGame(rules, PLAYERS, deck, first, moves, game.scores)


def long_record(seed: int = 1, seat: int = 0) -> Record:
    """The record `seat` keeps of the long game of `seed`."""
    return long_game(seed).record(seat)


def record_json(record: Record) -> dict[str, Any]:
    """`record` as JSON with each move in text notation (`"attack 7s"`), the shortest form."""
    data = record.to_json()
    data["events"] = [
        {"seat": event.seat, "move": event.move.notation} if isinstance(event, Play) else event.to_json()
        for event in record.events
    ]
    return data


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seat", type=int, default=0)
    parser.add_argument("--output", type=Path, default=None, help="write the record here (default: stdout)")
    args = parser.parse_args(argv)
    text = json.dumps(record_json(long_record(args.seed, args.seat)), separators=(",", ":"))
    if args.output is None:
        sys.stdout.write(text + "\n")
    else:
        args.output.write_text(text + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
