"""What a seat sees of a stored game (docs/api.md §3, `GET /v1/games/{id}`): its position, its legal
moves, the public history with what the seat saw after each move, the match block, the seats.

A seat's view shows its own hand and what it has seen (`Position.from_game`, with
`known`); engine seats' hands are never shown to anyone, and another seat's
secret setup decision is left out of its history (`seen_by`).
"""

from __future__ import annotations

from typing import Any

from service.live import LiveGame
from solver.game.cards import Card
from solver.game.errors import TanError
from solver.game.match import Match
from solver.game.phases import seen_by
from solver.game.reference import Game

__all__ = ["checked_view", "view"]


def view(live: LiveGame, seat: int) -> dict[str, Any]:
    """The game as `seat` sees it (docs/api.md §3, `GET /v1/games/{id}`)."""
    game = live.game
    setup = live.setup
    seats: list[dict[str, Any]] = []
    for spec in setup.seats:
        if isinstance(spec, str):
            seats.append({"kind": "human"})
        else:
            shown: dict[str, Any] = {"kind": "engine", "engine": spec.engine, "limits": spec.limits}
            if spec.options:
                shown["options"] = dict(spec.options)
            seats.append(shown)
    position = live.position(seat)
    legal = position.legal_moves() if position.to_move == seat else []
    unplayable = _unplayable(live, seat) if position.to_move == seat else {}
    answer = {
        "id": live.id,
        "status": live.status,
        "seat": seat,
        "position": position.to_json(),
        "legal_moves": [move.to_json() for move in legal],
        "unplayable": unplayable,
        "scores": None if game.scores is None else list(game.scores),
        "loser": game.loser,
        "history": [
            {**({"game": number} if setup.is_match else {}), "seat": mover, "move": move.to_json(),
             "notation": move.notation, "after": after[seat]}
            for (number, mover, move), after in zip(live.history, live.after, strict=True)
            if seen_by(move, mover, seat)
        ],
        "seats": seats,
        "lead": _lead_view(game),
    }
    if setup.is_match:
        played = {number for number, _mover, _move in live.history}
        answer["match"] = _match_view(live.match, seat, played)
    if live.over and setup.shuffled:
        answer["seed"] = setup.seed  # only now: it deals every hand (and the match's next)
    return answer


def _unplayable(live: LiveGame, seat: int) -> dict[str, dict[str, str]]:
    """The cards of the seat's hand that no legal move plays, each with why (its `Refusal` and the
    rules' sentence, `Game.refusal`): a page says why a card cannot be played without re-deriving
    a rule (docs/api.md §3)."""
    game = live.game
    shown: dict[str, dict[str, str]] = {}
    for card in sorted(game.hands[seat]):
        refused = game.refusal(card, seat)
        if refused is not None and refused.reason is not None:
            shown[str(card)] = {"reason": refused.reason.value, "detail": refused.message}
    return shown


def checked_view(live: LiveGame, seat: int) -> dict[str, Any]:
    """`seat`'s view, once every seat's view of the game has been built: a game whose views
    cannot be built is a bug (500, logged), never bad input, and is not stored."""
    try:
        for other in range(live.game.players):
            live.position(other)
        return view(live, seat)
    except TanError as error:
        message = f"game {live.id}: no view of the game after ply {live.plies}: {error}"
        raise RuntimeError(message) from error


def _tribute_view(tributed: tuple[int, int, Card] | None, seat: int) -> dict[str, Any] | None:
    """Who gave a tribute to whom; the card only to the two of them (docs/rules.md §1.7)."""
    if tributed is None:
        return None
    giver, receiver, card = tributed
    shown: dict[str, Any] = {"giver": giver, "receiver": receiver}
    if seat in (giver, receiver):
        shown["card"] = str(card)
    return shown


def _lead_view(game: Game) -> dict[str, Any]:
    """Who leads the first bout of `game` and why (`Game.lead_reason`, docs/rules.md §1.2, §1.7, §1.9):
    a page says it without working it out."""
    if game.lead_reason is None:  # only a game built mid-way has none; a stored game is always dealt
        raise RuntimeError("a dealt game knows why its leader leads")
    return {"seat": game.leader, "reason": game.lead_reason.value}


def _match_view(match: Match, seat: int, played: set[int]) -> dict[str, Any]:
    """The match block of a game answer (docs/api.md §3): standings, dealer, the last game (`played`:
    the games a move was played in; a game its dealer lost at once had none, and has no review)."""
    previous = match.previous
    last: dict[str, Any] | None = None
    if previous is not None:
        last = {**previous.to_json(), "tribute": _tribute_view(previous.tribute, seat),
                "played": previous.number in played}
    playing = match.number == len(match.results) + 1
    standings = match.standings()
    best = max(standing.score for standing in standings)
    return {
        "game": match.number,
        "games": match.games,
        "standings": [standing.to_json() for standing in standings],
        # Who won the match once it is over: the seats with the highest total score (docs/rules.md §1.9).
        "winners": (
            [seat for seat, standing in enumerate(standings) if standing.score == best]
            if match.over else None
        ),
        "dealer": match.dealer,
        "trump_suits": [result.trump.letter for result in match.results],
        "previous": last,
        "tribute": _tribute_view(match.game.tributed, seat) if playing else None,
        "sitting_out": match.info().sitting_out,
    }
