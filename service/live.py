"""A stored game rebuilt in memory (`LiveGame`): its match, its history and, for the seats that
ask, what each has seen the others do.

A game is rebuilt by dealing its stored deck and replaying its moves through the
reference rules (`LiveGame.rebuild`). What a seat has seen (`history_of`, the
weighted beliefs' input) is read once from the deal, then kept up to date move by
move, so an engine's move never replays the whole game.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from service.setup import HUMAN, GameSetup
from service.store import GameRecord
from solver.game.cards import Card, parse_cards
from solver.game.errors import ErrorCode, TanError
from solver.game.match import Match
from solver.game.moves import Move
from solver.game.phases import seen_by
from solver.game.position import Position
from solver.game.record import Record
from solver.game.reference import Game
from solver.game.rules import Rules
from solver.search.beliefs import History, HistoryReader
from solver.search.calibration import ScoreMap, score_map

__all__ = ["LiveGame", "public_state"]


def public_state(game: Game) -> dict[str, Any]:
    """What every seat sees of `game` (docs/api.md §3, a history entry's `after`): the table, each
    hand's size, the stock and discard sizes, the bout's attacker and defender, who is to move and
    whether the defender takes — so a page can show a reply of several moves one move at a time.
    After the last move of a match's game it is the next game's deal."""
    return {
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


def _copied(reader: HistoryReader) -> HistoryReader:
    """A reader that goes on apart from `reader` (its lists are only ever appended to)."""
    twin = copy.copy(reader)
    twin.states = list(reader.states)
    twin.rows = list(reader.rows)
    return twin


@dataclass
class LiveGame:
    """A stored game rebuilt in memory: its match (a single game is a match of one, shown
    without the match block), its history of `(game number, seat, move)` and, beside each move,
    what everyone saw of the table after it (`after`: see `public_state`)."""

    id: str
    setup: GameSetup
    match: Match
    history: list[tuple[int, int, Move]] = field(default_factory=list)
    after: list[dict[str, Any]] = field(default_factory=list)
    _readers: dict[int, HistoryReader] = field(default_factory=dict, repr=False)

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
    def over(self) -> bool:
        return self.match.over

    @property
    def status(self) -> str:
        return "over" if self.over else "playing"

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
        reader = self._readers.get(seat)
        if reader is None:
            game = self.match.dealt.clone()
            reader = HistoryReader(seat, game.trump)
            for number, mover, move in self.history:
                if number != self.match.number:
                    continue
                before = game.clone()
                game.play(move, mover)
                reader.observe(mover, move, before, game)
            self._readers[seat] = reader
        return reader.history()

    def record(self, seat: int) -> Record:
        """What `seat` saw of the game (docs/api.md §2.3): its dealt hand, every public move and its
        own draws, from the stored deal and moves. Only a single game has one for now."""
        if self.is_match:
            raise TanError("the games of a match cannot be reviewed yet, only a single game",
                           ErrorCode.INVALID_INPUT)
        match = self.new_match(self.setup)
        first = match.game.clone()
        history: list[tuple[int, Move]] = []
        draws: list[tuple[int, list[Card]]] = []
        for ply, (_number, mover, move) in enumerate(self.history):
            match.play(move, mover)
            history.append((mover, move))
            if match.game.drawn[seat]:
                draws.append((ply, list(match.game.drawn[seat])))
        return Record.of_game(first, seat, parse_cards(self.setup.deck), history, draws)

    def copy(self) -> LiveGame:
        """A game that goes on apart from this one (a shared `LiveGame` is never changed)."""
        readers = {seat: _copied(reader) for seat, reader in self._readers.items()}
        match = self.match.clone()
        return LiveGame(self.id, self.setup, match, list(self.history), list(self.after), readers)

    def play(self, move: Move, seat: int) -> None:
        number = self.match.number
        before = self.game.clone() if self._readers else None
        self.match.play(move, seat)
        self.history.append((number, seat, move))
        self.after.append(public_state(self.game))
        if before is None:
            return
        if self.match.number != number:  # a new deal: what the seats saw of the last one is done with
            self._readers.clear()
            return
        for reader in self._readers.values():
            reader.observe(seat, move, before, self.game)

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
            live.play(Move.parse(text), seat)
        return live
