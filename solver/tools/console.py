"""What the `tan` command shows in a terminal: answers as small tables, and a game to play.

`format_hint`, `format_evaluation` and `format_moves` are the readable faces
of the docs/api.md §3 answers (`--json` prints those answers themselves).
`TerminalGame` is `tan play`: one human seat against engines, reading moves
from a text stream so a game can be scripted by piping its input.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from solver.game.cards import Card, Suit
from solver.game.errors import ErrorCode, TanError
from solver.game.match import GameResult, Match
from solver.game.moves import Action, Move
from solver.game.phases import Phase, nothing_to_decide
from solver.game.position import Position
from solver.game.reference import Game, MoveRecord, random_deck
from solver.game.rules import PRESETS, Rules
from solver.players import Player
from solver.search import Evaluation, Hint, Limits, MoveValue, Solver
from solver.search.calibration import calibrated_hint, score_map
from solver.search.review import Label, Review
from solver.tools.arena import checked_player

__all__ = [
    "TerminalGame",
    "format_evaluation",
    "format_hint",
    "format_lines",
    "format_moves",
    "format_position",
    "format_review",
]


def _percent(x: float) -> str:
    return f"{100 * x:5.1f}"


def _interval(ci: tuple[float, float]) -> str:
    return f"{100 * ci[0]:.1f}-{100 * ci[1]:.1f}"


def _table(header: Sequence[str], rows: Sequence[Sequence[str]], right: Sequence[bool]) -> list[str]:
    """Columns padded to their widest cell; `right[i]` aligns column i to the right."""
    widths = [max(len(str(row[i])) for row in [header, *rows]) for i in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        parts = [
            cell.rjust(width) if align else cell.ljust(width)
            for cell, width, align in zip(cells, widths, right, strict=True)
        ]
        return "  ".join(parts).rstrip()

    return [line(header), *(line(row) for row in rows)]


def _rules_name(rules: Rules) -> str:
    return rules.preset if PRESETS.get(rules.preset) == rules else f"{rules.preset} (changed)"


def _cards(count: int) -> str:
    return f"{count} card{'' if count == 1 else 's'}"


def sort_hand(cards: Sequence[Card], trump: Suit) -> list[Card]:
    """A hand as a player holds it: by suit, trumps last, each suit low to high."""
    return sorted(cards, key=lambda card: (card.suit == trump, card.suit, card.rank))


def format_position(position: Position) -> str:
    """One line about whose turn it is, one with the seat's hand."""
    to_move = "the game is over" if position.to_move is None else f"seat {position.to_move} to move"
    head = (
        f"seat {position.seat} · {to_move} · {_rules_name(position.rules)}, {position.players} players"
        f" · trump {position.trump} · stock {position.stock}"
    )
    hand = " ".join(map(str, sort_hand(position.hand, position.trump.suit)))
    return f"{head}\nhand: {hand or '(empty)'}"


def format_hint(hint: Hint, limit: int | None = None) -> str:
    """Ranked moves: move, win chance (expected score), its 95% interval, visits, exact."""
    moves = hint.moves if limit is None else hint.moves[:limit]
    rows = [
        [
            str(i),
            value.notation,
            _percent(value.score),
            _interval(value.ci95),
            str(value.visits),
            "yes" if value.exact else "no",
        ]
        for i, value in enumerate(moves, 1)
    ]
    lines = _table(
        ["#", "move", "win %", "95% interval", "visits", "exact"],
        rows,
        [True, False, True, True, True, False],
    )
    if limit is not None and len(hint.moves) > limit:
        lines.append(f"… and {len(hint.moves) - limit} more")
    if hint.pv:
        lines += format_lines(hint, moves)
    value = hint.evaluation
    lines.append(
        f"position: {_percent(value.score).strip()}% for seat {hint.seat} "
        f"(95% {_interval(value.ci95)}){' exact' if value.exact else ''}"
    )
    lines.append(_stats_line(hint.stats.to_json()))
    return "\n".join(lines)


def format_lines(hint: Hint, moves: Sequence[MoveValue]) -> list[str]:
    """Each move's line (docs/api.md §3, "Lines"): the seat's moves as they are, the others' after
    their seat, and the seat's expected score where the line ends."""
    out = [f"lines (seat {hint.seat}'s moves, and the others' as the search expects them):"]
    for i, value in enumerate(moves, 1):
        line = value.line
        if line is None:
            out.append(f"{i}  (none)")
            continue
        plies = " · ".join(
            ply.move.notation if ply.seat == hint.seat else f"seat {ply.seat}: {ply.move.notation}"
            for ply in line.moves
        )
        score = "" if line.score is None else f"  → {_percent(line.score).strip()}%"
        out.append(f"{i}  {plies}{score}{' (proven)' if line.exact else ''}")
    return out


def format_evaluation(evaluation: Evaluation) -> str:
    """The seat's expected score and every seat's expected score and chance of losing."""
    rows = [
        [
            f"{seat}{' (you)' if seat == evaluation.seat else ''}",
            _percent(score),
            _percent(p_lose),
        ]
        for seat, (score, p_lose) in enumerate(zip(evaluation.scores, evaluation.p_lose, strict=True))
    ]
    lines = [
        f"seat {evaluation.seat}: expected score {_percent(evaluation.score).strip()}% "
        f"(95% {_interval(evaluation.ci95)}){' exact' if evaluation.exact else ''}",
        *_table(["seat", "score %", "loses %"], rows, [False, True, True]),
        *_tracker_lines(evaluation),
        _stats_line(evaluation.stats.to_json()),
    ]
    return "\n".join(lines)


def _tracker_lines(evaluation: Evaluation, shown: int = 8) -> list[str]:
    """The card tracker: for each other seat its likeliest unseen cards, with their chances."""
    lines = []
    seats = len(evaluation.scores)
    for seat in range(seats + 1):
        if seat == evaluation.seat:
            continue
        likely = sorted(
            ((chances[seat], card) for card, chances in evaluation.cards.items() if chances[seat] >= 0.005),
            key=lambda item: (-item[0], item[1]),
        )
        if not likely:
            continue
        name = "stock" if seat == seats else f"seat {seat}"
        cells = " ".join(f"{card} {100 * chance:.0f}%" for chance, card in likely[:shown])
        more = f" (+{len(likely) - shown} more)" if len(likely) > shown else ""
        lines.append(f"{name} likely holds: {cells}{more}")
    return lines


def format_review(review: Review, rules: Rules, players: int) -> str:
    """A review as a table: each decision's ply, the move played and the engine's choice with their
    win chances (expected scores), the loss and the label; the summary and the searches below."""
    rows = [
        [
            str(move.decision.ply),
            move.decision.move.notation,
            "-" if move.played_score is None else _percent(move.played_score),
            move.best.notation,
            "-" if move.best_score is None else _percent(move.best_score),
            "-" if move.label in (Label.FORCED, Label.UNSCORED) else f"{move.loss:.3f}",
            move.label.value,
            "yes" if move.exact else "",
        ]
        for move in review.moves
    ]
    trump = review.moves[0].decision.position.trump if review.moves else None
    head = f"seat {review.seat} · {_rules_name(rules)}, {players} players"
    lines = [head + (f" · trump {trump}" if trump else ""), ""]
    lines += _table(
        ["ply", "played", "win %", "best", "win %", "loss", "label", "exact"],
        rows,
        [True, False, True, False, True, True, False, False],
    )
    summary = review.summary
    counts = ", ".join(f"{label.value} {count}" for label, count in summary.labels.items() if count)
    mean = "-" if summary.mean_loss is None else f"{summary.mean_loss:.3f}"
    lines.append(
        f"seat {review.seat}: {summary.decisions} decision{'s' if summary.decisions != 1 else ''}"
        f"{f' ({counts})' if counts else ''}; loss {summary.total_loss:.3f} in all, {mean} a decision"
    )
    stats, limits = review.stats, review.stats["limits"]
    each = " and ".join(
        text for text in (
            f"{limits['iterations']} iterations" if limits.get("iterations") else "",
            f"{limits['time_ms']:g} ms" if limits.get("time_ms") else "",
        ) if text
    )  # fmt: skip
    lines.append(
        f"{stats['algorithm']}: {stats['searches']} searches ({stats['exact']} solved exactly), "
        f"at most {each} each, {stats['time_ms']:.0f} ms in all, seed {stats['seed']}"
    )
    return "\n".join(lines)


def _stats_line(stats: dict[str, Any]) -> str:
    if stats["algorithm"] == "exact":
        return f"exact: {stats['iterations']} nodes in {stats['time_ms']:.1f} ms"
    return (
        f"{stats['algorithm']}: {stats['iterations']} iterations, {stats['worlds']} worlds in "
        f"{stats['time_ms']:.0f} ms ({stats['iterations_per_s']:,.0f}/s, stopped by "
        f"{stats['stop_reason']}), seed {stats['seed']}, {stats['threads']} thread(s)"
        + (f", model {stats['model']}" if stats.get("model") else "")
        + (f" (others greedy {stats['opponent_policy']:.2f}, net {stats['value_mix']:.2f})"
           if stats.get("model", "playouts") != "playouts" and stats.get("opponent_policy") else "")
        + (f", beliefs {stats['beliefs']} (ESS {stats['ess']:.0f})" if stats.get("ess") is not None else "")
        + (f"; win chances calibrated against {stats['calibrated']}" if stats.get("calibrated") else "")
    )


def format_moves(position: Position, moves: Sequence[Move]) -> str:
    """The numbered legal moves of the seat to move."""
    if position.to_move is None:
        return "the game is over: no moves"
    lines = [f"seat {position.to_move} to move, {len(moves)} legal move{'s' if len(moves) != 1 else ''}:"]
    lines += [f"{i:3d}  {move.notation}" for i, move in enumerate(moves, 1)]
    return "\n".join(lines)


# -- tan play -------------------------------------------------------------------------------

HELP = """\
moves:  attack 7c · defend 7c with 9c · take · pass · transfer 7h
        or the number of a listed move, or just a card when only one move plays it
hint    ranked moves from the engine      table   show the table again
help    this text                         quit    leave the game"""


@dataclass
class TerminalGame:
    """A game in the terminal: `human` plays one seat, engines the others (docs/api.md §4 `tan play`).

    `engines` are seat specs for the other seats in seat order (repeated when
    fewer); `hint_limits` are the limits of the search behind `hint`. The deck
    is shuffled by `seed`; the engines' move seeds are drawn from it too, so a
    game against iteration-limited engines replays exactly. `games` plays a
    match of that many games (docs/rules.md §1.9), the later ones shuffled
    from the match's seed.
    """

    rules: Rules
    players: int
    human: int
    engines: Sequence[Any]
    seed: int
    hint_limits: Limits
    stdin: TextIO
    stdout: TextIO
    algorithm: str = "ismcts"
    games: int = 1
    match: Match = field(init=False)
    seats: list[Player | None] = field(init=False)
    names: list[str] = field(init=False)

    def __post_init__(self) -> None:
        self.rules.check_players(self.players)
        if isinstance(self.human, bool) or self.human not in range(self.players):
            raise TanError(
                f"seat: no seat {self.human!r} in a {self.players}-seat game",
                ErrorCode.INVALID_SEAT,
            )
        if not self.engines:
            raise TanError("play needs at least one engine", ErrorCode.UNKNOWN_ENGINE)
        others = [seat for seat in range(self.players) if seat != self.human]
        self.seats = [None] * self.players
        self.names = ["you"] * self.players
        kinds = []
        for i, seat in enumerate(others):
            spec = self.engines[i % len(self.engines)]
            self.seats[seat] = checked_player(spec)
            if getattr(self.seats[seat], "sees_hands", False):
                raise TanError("sees_hands is for arenas only: an engine you play may not see your hand",
                               ErrorCode.UNKNOWN_ENGINE)
            name = spec if isinstance(spec, str) else spec.get("engine", "engine")
            self.names[seat] = f"seat {seat} ({name})"
            kinds.append(str(name))
        # Win chances against engines that do not search, as measured (solver/search/calibration.py).
        self.score_map = score_map(self.rules, self.players, kinds)
        deck = random_deck(self.rules, self.seed)  # the first game's deal, as a single game's
        self.match = Match(self.rules, self.players, self.games, self.seed, deck=deck)
        self.move_seeds = random.Random(self.seed)
        self.hint_seeds = random.Random(f"hint:{self.seed}")  # asking for hints leaves the engines' seeds be
        self.solver = Solver(self.algorithm)

    @property
    def game(self) -> Game:
        """The game being played."""
        return self.match.game

    def say(self, text: str = "") -> None:
        print(text, file=self.stdout, flush=True)

    def position(self, seat: int) -> Position:
        return self.match.position(seat) if self.games > 1 else Position.from_game(self.game, seat)

    def run(self) -> int:
        """Play to the end; 0 when the game ended or the human left, 1 when the input ran out."""
        match = self.match
        self.say(
            f"Tấn: {_rules_name(self.rules)}, {self.players} players; you are seat {self.human}. "
            f"Deal seed {self.seed}. Type 'help' for the commands."
        )
        self._announce()
        while not match.over:
            seat = self.game.to_move
            assert seat is not None
            number = match.number
            if seat == self.human:
                outcome = self._human_turn()
                if outcome is not None:
                    return outcome
            else:
                player = self.seats[seat]
                assert player is not None
                move = player.choose(self.position(seat), self.move_seeds.getrandbits(63))
                game = self.game
                self._report(game, self.match.play(move, seat))
            if match.over or match.number != number:
                self._final(match.results[-1])
                if not match.over:
                    self._announce()
        if self.games > 1:
            self._standings()
        return 0

    def _announce(self) -> None:
        if self.games > 1:
            self.say(f"\n== game {self.match.number} of {self.games}: seat {self.match.dealer} deals ==")
        self.say(f"trump: {self.game.trump} (the card at the bottom of the stock)")

    # -- the human's turn -------------------------------------------------------------

    def _human_turn(self) -> int | None:
        position = self.position(self.human)
        moves = position.legal_moves()
        self._show(position, moves)
        while True:
            print("your move> ", end="", file=self.stdout, flush=True)
            line = self.stdin.readline()
            if not line:
                self.say("\ninput ended: leaving the game")
                return 1
            text = line.strip()
            if not self.stdin.isatty():
                self.say(text)  # a piped move shows up beside its prompt, as if typed
            if not text:
                continue
            word = text.lower()
            if word in ("quit", "exit", "q"):
                self.say("you left the game")
                return 0
            if word in ("help", "?", "h"):
                self.say(HELP)
                continue
            if word in ("table", "t", "show"):
                self._show(position, moves)
                continue
            if word == "hint":
                hint = self.solver.hint(position, self.hint_limits, seed=self.hint_seeds.getrandbits(31))
                hint = calibrated_hint(hint, self.score_map)
                self.say(format_hint(hint, limit=8))
                continue
            try:
                move = self._read_move(text, moves)
                self.game.verify(move, self.human)
            except TanError as error:
                self.say(f"? {error}")
                continue
            game = self.game
            self._report(game, self.match.play(move, self.human))
            return None

    def _read_move(self, text: str, moves: Sequence[Move]) -> Move:
        if text.isdigit():
            number = int(text)
            if not 1 <= number <= len(moves):
                raise TanError(f"no move number {number}: choose 1-{len(moves)}")
            return moves[number - 1]
        if len(text.split()) == 1 and text.lower() not in ("take", "pass"):
            try:
                card = Card.parse(text)
            except TanError:
                pass
            else:
                playing = [move for move in moves if move.card == card]
                if len(playing) == 1:
                    return playing[0]
                if not playing:
                    raise TanError(f"no legal move plays {card}")
                raise TanError(f"{card} can be played {len(playing)} ways: type the whole move")
        return Move.parse(text)

    def _show(self, position: Position, moves: Sequence[Move]) -> None:
        trump = position.trump.suit
        self.say()
        self.say(
            f"── trump {position.trump} · stock {position.stock} · discard {len(position.discard)} "
            f"· finished {', '.join(map(str, position.finished)) or 'none'} ──"
        )
        for seat in range(self.players):
            if seat == self.human:
                continue
            known = position.known[seat]
            role = self._role(seat)
            extra = f", known: {' '.join(map(str, known))}" if known else ""
            self.say(f"{self.names[seat]}: {_cards(position.hand_counts[seat])}{extra}{role}")
        if position.table:
            pairs = [f"{attack}/{'-' if defense is None else defense}" for attack, defense in position.table]
            self.say(f"table: {'  '.join(pairs)}{'  (being taken)' if position.taking else ''}")
        else:
            self.say("table: empty")
        self.say(f"you, seat {self.human}: {' '.join(map(str, sort_hand(position.hand, trump)))}"
                 f"{self._role(self.human)}")
        self.say(f"{self._situation()}; legal moves:")
        self.say("  ".join(f"{i}) {move.notation}" for i, move in enumerate(moves, 1)))

    def _role(self, seat: int) -> str:
        game = self.game
        if seat == game.attacker:
            return "  [attacker]"
        if seat == game.defender:
            return "  [defender]"
        return ""

    def _situation(self) -> str:
        game = self.game
        if game.phase is Phase.SETUP:
            return self._setup_situation()
        if not game.table:
            return "you lead"
        if game.to_move == game.defender and not game.taking:
            if all(pair.defense is not None for pair in game.table):
                return "you beat every card: take the table anyway, or pass to let the defence stand"
            return f"you defend against seat {game.attacker}"
        return f"you may throw in on seat {game.defender}" + (" (who takes)" if game.taking else "")

    def _setup_situation(self) -> str:
        game = self.game
        trump = game.trump.suit
        if nothing_to_decide(game.legal_moves()):  # every seat is asked in turn (docs/rules.md §1.7)
            held = "a trump" if game.setup_step == "redeal" else "not the lowest trump"
            return f"you hold {held}, so there is nothing to decide: keep"
        if game.setup_step == "redeal":
            return "you hold no trump: redeal (show your hand and take one of two new ones) or keep"
        if game.setup_step == "pick":
            assert game.redeal_sets is not None
            sets = "; ".join(
                f"set {i}: {' '.join(map(str, sort_hand(part, trump)))}"
                for i, part in enumerate(game.redeal_sets)
            )
            return f"pick a new hand ({sets})"
        low = min(card for card in game.hands[self.human] if card.suit == trump)
        ceded = ", and the seat after you leads" if self.rules.trump_swap_cedes_lead else ""
        return f"swap your {low} for the trump card {game.trump}{ceded}; or keep it"

    # -- what happened ----------------------------------------------------------------

    def _report(self, game: Game, record: MoveRecord) -> None:
        """One line for a move; another seat's keep in the setup is not seen (docs/rules.md §1.7)."""
        who = "you" if record.seat == self.human else self.names[record.seat]
        if record.move.action is Action.KEEP and record.seat != self.human:
            return
        self.say(f"{who}: {record.move.notation}")
        if game is not self.game:
            return
        if record.bout_ended and not game.over:
            self.say(
                f"  bout over · seat {game.attacker} attacks seat {game.defender} · "
                f"stock {len(game.stock)} · "
                + ("you have finished" if self.human in game.finished
                   else f"your hand {_cards(len(game.hands[self.human]))}")
            )

    def _final(self, result: GameResult) -> None:
        self.say()
        if result.repeat:
            self.say(f"game over: the trump suit came again, so the dealer, {self._name(result.loser)}, lost")
        elif result.loser is None and result.winner is not None:
            self.say(f"game over: {self._name(result.winner)} won with a hand of trumps")
        elif result.loser is None:
            self.say("game over: a draw, nobody is the durak")
        elif result.loser == self.human:
            self.say("game over: you lost (you are the durak)")
        else:
            self.say(f"game over: {self.names[result.loser]} lost")
        scores = ", ".join(
            f"{'you' if seat == self.human else f'seat {seat}'} {score:g}"
            for seat, score in enumerate(result.scores)
        )
        self.say(f"scores: {scores}")

    def _name(self, seat: int | None) -> str:
        return "nobody" if seat is None else "you" if seat == self.human else self.names[seat]

    def _standings(self) -> None:
        self.say()
        self.say(f"match over after {self.games} games:")
        for seat, standing in enumerate(self.match.standings()):
            self.say(f"{self._name(seat)}: won {standing.won}, lost {standing.lost}, drawn {standing.drawn}, "
                     f"score {standing.score:g}")
