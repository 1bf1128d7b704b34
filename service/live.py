"""A stored game rebuilt in memory (`LiveGame`): its match, its history and, for the seats that
ask, what each has seen the others do.

A game is rebuilt by dealing its stored deck and replaying its moves through the
reference rules (`LiveGame.rebuild`). What a seat has seen (`history_of`, the
weighted beliefs' input) is read once from the deal, then kept up to date move by
move, so an engine's move never replays the whole game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from service.setup import HUMAN, GameSetup
from service.store import GameRecord
from solver.game.errors import ErrorCode, TanError
from solver.game.match import Match
from solver.game.moves import Move
from solver.game.phases import Phase, nothing_to_decide, seen_by
from solver.game.position import Position, to_move_seen_by
from solver.game.record import Record
from solver.game.reference import Game
from solver.game.rules import Rules
from solver.search import Tracker
from solver.search.beliefs import History, HistoryReader, decision_snapshot
from solver.search.calibration import ScoreMap, score_map

__all__ = ["LiveGame", "public_states"]


def public_states(game: Game) -> tuple[dict[str, Any], ...]:
    """What each seat sees of `game` in public (docs/api.md §3, a history entry's `after`), by seat:
    the table, each hand's size, the stock and discard sizes, the bout's attacker and defender,
    who is to move and whether the defender takes — so a page can show a reply of several moves
    one move at a time. After the last move of a match's game it is the next game's deal.

    Who is to move goes through the position's own mask (`to_move_seen_by`): while a seat decides
    in secret whether to redeal or to swap, the others see nobody to move (docs/rules.md §1.7),
    here as in their position. Seats that see the same share one dict."""
    shared: dict[str, Any] = {
        "table": [{"attack": str(pair.attack), "defense": None if pair.defense is None else str(pair.defense)}
                  for pair in game.table],
        "hand_counts": [len(hand) for hand in game.hands],
        "stock": len(game.stock),
        "discard": len(game.discard),
        "attacker": game.attacker,
        "defender": game.defender,
        "to_move": game.to_move,
        "taking": game.taking,
    }
    masked: dict[str, Any] | None = None
    states: list[dict[str, Any]] = []
    for seat in range(game.players):
        if to_move_seen_by(game, seat) == game.to_move:
            states.append(shared)
            continue
        if masked is None:
            masked = {**shared, "to_move": None}
        states.append(masked)
    return tuple(states)


@dataclass
class LiveGame:
    """A stored game rebuilt in memory: its match (a single game is a match of one, shown
    without the match block), its history of `(game number, seat, move)` and, beside each move,
    what each seat saw of the table after it (`after[ply][seat]`: see `public_states`)."""

    id: str
    setup: GameSetup
    match: Match
    history: list[tuple[int, int, Move]] = field(default_factory=list)
    after: list[tuple[dict[str, Any], ...]] = field(default_factory=list)
    # What a seat has seen the others do in the game being played, kept up to date move by move
    # once asked for (`history_of`), and each seat's card tracker of this very state: a game
    # shared from the cache never changes, so neither is ever out of date.
    readers: dict[int, HistoryReader] = field(default_factory=dict, compare=False, repr=False)
    trackers: dict[int, Tracker] = field(default_factory=dict, compare=False, repr=False)
    # Keeps played on rebuilding a game stored before every seat was asked in the setup
    # (`rebuild`): in the history, not in the store.
    implied: int = 0

    @property
    def game(self) -> Game:
        """The game being played (the last one, once the match is over)."""
        return self.match.game

    @property
    def is_match(self) -> bool:
        return self.setup.is_match

    @property
    def plies(self) -> int:
        return len(self.history)

    @property
    def stored_plies(self) -> int:
        """The moves the store holds of this game (the history less its implied keeps)."""
        return len(self.history) - self.implied

    @property
    def over(self) -> bool:
        return self.match.over

    @property
    def status(self) -> str:
        return "over" if self.over else "playing"

    @property
    def game_plies(self) -> int:
        """Moves played in the game being played (in a match, since its deal)."""
        return sum(1 for number, _mover, _move in self.history if number == self.match.number)

    def seen_plies(self, seat: int) -> int:
        """How many moves `seat`'s history shows: every move but another seat's secret keep."""
        return sum(1 for _number, mover, move in self.history if seen_by(move, mover, seat))

    def is_human(self, seat: int) -> bool:
        return self.setup.seats[seat] == HUMAN

    def score_map(self, seat: int) -> ScoreMap | None:
        """The map from `seat`'s searched scores to its win chances against the other seats, when
        they are all one engine that has one (solver/search/calibration.py)."""
        engines: list[str] = []
        for other, spec in enumerate(self.setup.seats):
            if other == seat:
                continue
            if isinstance(spec, str):  # a human: nobody knows how it plays
                return None
            engines.append(spec.engine)
        return score_map(self.game.rules, len(self.setup.seats), engines)

    def position(self, seat: int) -> Position:
        """What `seat` sees now (with the match block in a match)."""
        return Position.from_game(self.game, seat, match=self.match.info() if self.is_match else None)

    def history_of(self, seat: int) -> History:
        """What `seat` has seen the others do in the game being played (for weighted beliefs): read
        once from the deal, then kept up to date by `play`."""
        reader = self.readers.get(seat)
        if reader is None:
            game = self.match.dealt.clone()
            reader = HistoryReader(seat, game.trump)
            for number, mover, move in self.history:
                if number != self.match.number:
                    continue
                before = game.clone()
                game.play(move, mover)
                reader.observe(mover, move, before, game)
            self.readers[seat] = reader
        return reader.history()

    def record(self, seat: int, number: int | None = None) -> Record:
        """What `seat` saw of game `number` of the match (default: the game being played, or the
        last one; docs/api.md §2.3), at this moment: its dealt hand, every public move and what the
        side rules showed it, its own draws, in a match the game's match block and its tribute;
        the seats' kinds, the day the game was created, and, once the whole game is over and its
        seed shown, the deck."""
        number = self.match.number if number is None else number
        if isinstance(number, bool) or not 1 <= number <= self.match.number:
            raise TanError(f"game: this game has games 1 to {self.match.number} so far, not {number!r}",
                           ErrorCode.INVALID_INPUT)
        match = self.new_match(self.setup)
        for game, mover, move in self.history:
            if game < number:
                match.play(move, mover)
        if match.number != number:
            raise TanError(f"game {number}: nothing was played in it (its dealer lost it at once by a trump "
                           "repeat, or a hand of trumps won it at the deal: docs/rules.md §1.7, §1.9)",
                           ErrorCode.INVALID_INPUT)
        moves = [(mover, move) for game, mover, move in self.history if game == number]
        seats = [spec if isinstance(spec, str) else spec.engine for spec in self.setup.seats]
        return Record.of_game(
            match.dealt, seat, match.cards, moves, match=match.info() if self.is_match else None,
            tribute=match.owed, deck_known=self.over and self.setup.shuffled, seats=seats,
            date=self.setup.date,
        )

    def game_over(self, number: int | None = None) -> bool:
        """Whether game `number` of the match (default: the one being played) has ended."""
        return self.over or (number is not None and number < self.match.number)

    def copy(self) -> LiveGame:
        """A game that goes on apart from this one (a shared `LiveGame` is never changed)."""
        readers = {seat: reader.copy() for seat, reader in list(self.readers.items())}  # one atomic read
        match = self.match.clone()
        return LiveGame(self.id, self.setup, match, list(self.history), list(self.after), readers,
                        implied=self.implied)

    def play(self, move: Move, seat: int) -> None:
        number, game = self.match.number, self.game
        before = game.clone() if self.readers else None
        self.match.play(move, seat)
        self.history.append((number, seat, move))
        self.after.append(public_states(self.game))
        self.trackers.clear()
        if before is None:
            return
        if self.game is not game:  # a new deal: what the seats saw of the last one is done with
            self.readers.clear()
            return
        snapshot = decision_snapshot(before) if before.phase is Phase.PLAY else None
        for reader in self.readers.values():
            reader.observe(seat, move, before, game, snapshot)

    @staticmethod
    def new_match(setup: GameSetup) -> Match:
        """The match a stored set-up deals (its first game from the stored deck)."""
        rules = Rules.from_json(setup.rules)
        return Match(rules, setup.players, setup.match_games or 1, setup.seed, deck=setup.deck,
                     first_attacker=setup.first_attacker)

    @classmethod
    def rebuild(cls, record: GameRecord) -> LiveGame:
        """Deal the stored deck and replay the stored moves (the reference rules check each one)."""
        setup = GameSetup.from_json(record.setup, f"game {record.id}")
        live = cls(record.id, setup, cls.new_match(setup))
        for seat, text in record.moves:
            move = Move.parse(text)
            game = live.game
            # A game stored before every seat was asked in the setup (docs/rules.md §1.7) lacks the
            # keeps of the seats asked with nothing to decide: they are played, as they would be.
            while (game.phase is Phase.SETUP and not game.over and game.to_move is not None
                   and (game.to_move != seat or not game.can(move, seat))
                   and nothing_to_decide(game.legal_moves())):
                live.play(Move.keep(), game.to_move)
                live.implied += 1
                game = live.game
            live.play(move, seat)
        return live
