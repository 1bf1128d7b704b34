"""The games of an arena: paired deals, seat rotations, and one game played to its end.

Luck of the deal is the largest noise in a card game, so every deal is played
once per seat rotation: with `k` seats, rotation `r` puts engine
`lineup[(i + r) % k]` in seat `i`, and all rotations of a deal share the same
ordered deck. Each game is a `GameTask` — a frozen value holding everything
the game depends on, its seeds included — and `play_game(task)` is a pure
function of it, so games can run in any order, in any process, and a run can
be resumed from the results already written (`solver.tools.arena.runners`).
"""

from __future__ import annotations

import hashlib
import json
import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from solver.game.bounds import MAX_MATCH_GAMES
from solver.game.cards import Card
from solver.game.errors import ErrorCode, TanError
from solver.game.match import Match
from solver.game.moves import Move
from solver.game.phases import Phase
from solver.game.position import Position
from solver.game.reference import Game, random_deck
from solver.game.rules import PRESETS, Rules
from solver.players import Player, make_player, searches
from solver.search import Limits
from solver.search.beliefs import HistoryReader, decision_snapshot

__all__ = [
    "TASK_FIELDS",
    "ArenaError",
    "GameTask",
    "build_tasks",
    "checked_player",
    "engine_label",
    "play_game",
    "record_key",
    "with_limits",
]




# The fields of a result record that say which game it is (the rest is what happened).
TASK_FIELDS = ("rules", "players", "deal", "deal_seed", "rotation", "move_seed", "seats", "engines", "match")


class ArenaError(TanError):
    """An arena that cannot be run as asked (engines, seats, workers, results file)."""

    code = ErrorCode.BAD_ARENA


@dataclass(frozen=True)
class GameTask:
    """One game of an arena: everything it depends on.

    `rules` is docs/rules.md §1.6 JSON; `seats[i]` the seat spec of seat `i` (as
    `make_player` reads it) and `engines[i]` its engine's label in the
    statistics; `deal` and `rotation` place the game among the others; the deck
    is shuffled by `deal_seed` (which also seeds the game's chance events), and
    every move's seed is drawn from `move_seed`. `match`: play a match of that
    many games (docs/rules.md §1.9) from `deal_seed` instead of one game.
    """

    rules: Any
    players: int
    seats: tuple[Any, ...]
    engines: tuple[str, ...]
    deal: int
    deal_seed: int
    rotation: int
    move_seed: int
    match: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules,
            "players": self.players,
            "deal": self.deal,
            "deal_seed": self.deal_seed,
            "rotation": self.rotation,
            "move_seed": self.move_seed,
            "seats": list(self.seats),
            "engines": list(self.engines),
            "match": self.match,
        }

    @property
    def key(self) -> str:
        """Identifies the game among results, whatever else a record holds."""
        return record_key(self.to_json())


def record_key(record: Mapping[str, Any]) -> str:
    return json.dumps({name: record.get(name) for name in TASK_FIELDS}, sort_keys=True)


def play_game(task: GameTask) -> dict[str, Any]:
    """Play one game to its end and say what happened (a JSON-ready record).

    Each seat's player sees only that seat's position (docs/api.md §2.2) and, for
    players that read it, what it saw the others do (`HistoryReader`). The record
    holds the task's fields, the deck (top first), who led first, the scores
    (docs/rules.md §1.5), the loser, the moves as `[seat, notation]`, the
    searching seats' `predictions` as `[ply, seat, expected score]` at each of
    their decisions (for calibration), their `visits` as `[ply, seat, {move: visits}]` at each
    decision with a choice the tree searched (what a policy learns from), and the wall time.
    """
    start = time.perf_counter()
    rules = Rules.from_json(task.rules)
    deck = random_deck(rules, task.deal_seed)
    players = [make_player(_player_spec(spec)) for spec in task.seats]
    seeds = random.Random(task.move_seed)
    if task.match is not None:
        return _play_match(task, rules, deck, players, seeds, start)
    game = Game.deal(rules, task.players, deck=deck, chance_seed=task.deal_seed)
    first_attacker = game.leader
    readers = _readers(game, players)
    moves: list[list[Any]] = []
    predictions: list[list[Any]] = []
    visits: list[list[Any]] = []
    while not game.over:
        seat = game.to_move
        assert seat is not None
        reader = readers[seat]
        history = reader.history() if reader is not None else None
        position = Position.from_game(game, seat, reveal_hands=getattr(players[seat], "sees_hands", False))
        move = players[seat].choose(position, seeds.getrandbits(63), history)
        predicted = getattr(players[seat], "last_score", None)
        if predicted is not None:
            predictions.append([len(moves), seat, round(predicted, 4)])
        counts = getattr(players[seat], "last_visits", None)
        if counts is not None and len(counts) > 1 and sum(counts.values()) > 0:  # not an exact solve
            visits.append([len(moves), seat, counts])
        _play(game, move, seat, readers)
        moves.append([seat, move.notation])
    return {
        **task.to_json(),
        "deck": [str(card) for card in deck],
        "first_attacker": first_attacker,
        "scores": game.scores,
        "loser": game.loser,
        "plies": len(moves),
        "moves": moves,
        "predictions": predictions,
        "visits": visits,
        "seconds": round(time.perf_counter() - start, 4),
    }


def _readers(game: Game, players: Sequence[Player]) -> list[HistoryReader | None]:
    """A history reader for each seat whose player reads the game's history."""
    return [
        HistoryReader(seat, game.trump) if getattr(player, "reads_history", False) else None
        for seat, player in enumerate(players)
    ]


def _play(game: Game, move: Move, seat: int, readers: Sequence[HistoryReader | None]) -> None:
    """Play `move`, and show it to every seat's history reader (a seat's own move shows it what
    the others drew after it, too)."""
    watching = [reader for reader in readers if reader is not None]
    if not watching:
        game.play(move, seat)
        return
    before = game.clone()
    game.play(move, seat)
    others = before.phase is Phase.PLAY and any(reader.seat != seat for reader in watching)
    snapshot = decision_snapshot(before) if others else None
    for reader in watching:
        reader.observe(seat, move, before, game, snapshot)


def _play_match(
    task: GameTask, rules: Rules, deck: list[Card], players: list[Player], seeds: random.Random, start: float
) -> dict[str, Any]:
    """A match (docs/rules.md §1.9): its record's `scores` are each seat's mean game score, and
    `games` the scores of every game (the statistics count games)."""
    assert task.match is not None
    match = Match(rules, task.players, task.match, task.deal_seed, deck=deck)
    plies = 0
    game = match.game
    readers = _readers(game, players)
    while not match.over:
        if match.game is not game:  # the next game of the match: fresh histories
            game = match.game
            readers = _readers(game, players)
        seat = game.to_move
        assert seat is not None
        reader = readers[seat]
        history = reader.history() if reader is not None else None
        position = match.position(seat, reveal_hands=getattr(players[seat], "sees_hands", False))
        move = players[seat].choose(position, seeds.getrandbits(63), history)
        if any(reader is not None for reader in readers):
            before = game.clone()
            match.play(move, seat)
            others = before.phase is Phase.PLAY and any(r is not None and r.seat != seat for r in readers)
            snapshot = decision_snapshot(before) if others else None
            if match.game is game:
                for reader in readers:
                    if reader is not None:
                        reader.observe(seat, move, before, game, snapshot)
        else:
            match.play(move, seat)
        plies += 1
    games = [list(result.scores) for result in match.results]
    return {
        **task.to_json(),
        "deck": [str(card) for card in deck],
        "scores": [sum(scores[seat] for scores in games) / len(games) for seat in range(task.players)],
        "games": games,
        "standings": [standing.to_json() for standing in match.standings()],
        "loser": None,
        "plies": plies,
        "seconds": round(time.perf_counter() - start, 4),
    }


def checked_player(spec: Any) -> Player:
    """`make_player`, with a spec it cannot read refused as a `TanError` (an unknown or bad search
    option is one already, from `solver.search.config`)."""
    try:
        return make_player(spec)
    except TypeError as error:  # a spec of the wrong shape
        raise TanError(f"engine spec {json.dumps(spec)}: {error}", ErrorCode.UNKNOWN_ENGINE) from None


def _player_spec(spec: Any) -> Any:
    """A seat spec without the arena's own `name` field, as `make_player` reads it."""
    if isinstance(spec, dict) and "name" in spec:
        return {key: value for key, value in spec.items() if key != "name"}
    return spec


def _derive_seed(*parts: object) -> int:
    """A 63-bit seed fixed by its parts (stable across processes and Python versions)."""
    digest = hashlib.sha256(":".join(map(str, parts)).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def engine_label(spec: Any) -> str:
    """A short name for a seat spec: its `name`, else the engine's name."""
    if isinstance(spec, str):
        return spec
    if isinstance(spec, dict):
        return str(spec.get("name") or spec.get("engine"))
    return str(getattr(spec, "name", spec))


def _limits_text(spec: Any) -> str:
    limits = spec.get("limits") if isinstance(spec, dict) else None
    if not isinstance(limits, dict):
        return ""
    parts = []
    if limits.get("iterations") is not None:
        parts.append(f"{limits['iterations']}it")
    if limits.get("time_ms") is not None:
        parts.append(f"{limits['time_ms']:g}ms")
    return "@" + "/".join(parts) if parts else ""


def _labels(specs: Sequence[Any]) -> list[str]:
    """Distinct labels: the engine name, then its limits, then a number for what is still alike."""
    names = [engine_label(spec) for spec in specs]
    labels = [
        name + _limits_text(spec) if names.count(name) > 1 and not _named(spec) else name
        for name, spec in zip(names, specs, strict=True)
    ]
    seen: dict[str, int] = {}
    distinct = []
    for label in labels:
        seen[label] = seen.get(label, 0) + 1
        distinct.append(f"{label}#{seen[label]}" if labels.count(label) > 1 else label)
    return distinct


def _named(spec: Any) -> bool:
    return isinstance(spec, dict) and bool(spec.get("name"))


def with_limits(spec: Any, limits: Limits | None) -> Any:
    """A search engine given by name gets `limits` per move; other specs are kept as given."""
    if limits is not None and isinstance(spec, str) and searches(spec):
        return {"engine": spec, "limits": {k: v for k, v in limits.to_json().items() if v is not None}}
    return spec


def build_tasks(
    engines: Sequence[Any],
    deals: int,
    rules: Any = "tan",
    players: int = 2,
    seed: int = 0,
    limits: Limits | None = None,
    match: int | None = None,
) -> list[GameTask]:
    """Every deal in every seat rotation: `deals × players` games.

    `engines` are seat specs (`"greedy"`, `{"engine": "ismcts", "limits": …}`,
    optionally with a `"name"`); fewer engines than seats are repeated in
    order around the table. `limits` go to search engines given by name;
    `match`: each task plays a match of that many games instead of one game.
    """
    rules_value = Rules.from_json(rules)
    rules_value.check_players(players)
    rules = _rules_json(rules_value) if isinstance(rules, Rules) else rules
    if isinstance(deals, bool) or not isinstance(deals, int) or deals < 1:
        raise ArenaError(f"deals must be a positive whole number, not {deals!r}")
    if match is not None and (
        isinstance(match, bool) or not isinstance(match, int) or not 1 <= match <= MAX_MATCH_GAMES
    ):
        raise ArenaError(f"match must be a number of games from 1 to {MAX_MATCH_GAMES}, not {match!r}")
    specs = [with_limits(spec, limits) for spec in engines]
    if not specs:
        raise ArenaError("an arena needs at least one engine")
    if len(specs) > players:
        raise ArenaError(f"{len(specs)} engines do not fit a {players}-seat table")
    for spec in specs:
        checked_player(_player_spec(spec))  # refuse an unknown engine or option now, not in a worker
    labels = _labels(specs)
    lineup = [(specs[i % len(specs)], labels[i % len(specs)]) for i in range(players)]
    tasks = []
    for deal in range(deals):
        deal_seed = _derive_seed("deal", seed, deal)
        for rotation in range(players):
            seated = [lineup[(i + rotation) % players] for i in range(players)]
            tasks.append(
                GameTask(
                    rules=rules,
                    players=players,
                    seats=tuple(spec for spec, _ in seated),
                    engines=tuple(label for _, label in seated),
                    deal=deal,
                    deal_seed=deal_seed,
                    rotation=rotation,
                    move_seed=_derive_seed("moves", seed, deal, rotation),
                    match=match,
                )
            )
    return tasks


def _rules_json(rules: Rules) -> Any:
    """docs/rules.md §1.6 JSON of `rules`: the preset's name when nothing was changed."""
    return rules.preset if PRESETS.get(rules.preset) == rules else rules.to_json()
