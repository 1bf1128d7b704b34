"""The bout on plain fields: table pairs, throwers, the attack limit, whose turn, and checks.

These questions need only counts and public fields, never a hidden card, so
the readable engine (`solver.game.reference`) and a seat's position
(`solver.game.position`) ask them of the same functions (docs/rules.md §1.4,
§2.2).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from solver.game.cards import Card, Rank, Suit, deck
from solver.game.errors import ErrorCode, PositionError
from solver.game.rules import Rules, Throwers

__all__ = [
    "Pair",
    "around",
    "attack_limit",
    "check_reachable",
    "check_turn",
    "last_word",
    "next_active",
    "place_cards",
    "role_of",
    "seat_to_move",
    "throwers",
]


@dataclass
class Pair:
    """One attack card on the table and the card that beat it, if any (docs/api.md §2.2 `table`)."""

    attack: Card
    defense: Card | None = None


def next_active(players: int, finished: Collection[int], seat: int) -> int:
    """The next seat after `seat` in play order that has not finished (docs/rules.md §1.2).

    Returns `seat` itself when every other seat has finished.
    """
    for step in range(1, players + 1):
        other = (seat + step) % players
        if other not in finished:
            return other
    return seat


def around(players: int, finished: Collection[int], attacker: int, defender: int) -> list[int]:
    """The active seats but the defender, in play order from the main attacker: every seat that
    may throw in under `throwers = all`, and the order the others refill in (docs/rules.md §1.4)."""
    order = [(attacker + step) % players for step in range(players)]
    return [seat for seat in order if seat != defender and seat not in finished]


def throwers(
    rules: Rules, players: int, finished: Collection[int], attacker: int, defender: int
) -> list[int]:
    """Who may throw in, in the order they do (docs/rules.md §1.4, "Throwing in"): the main
    attacker first, then, as `rules.throwers` allows, the seat after the defender (`neighbours`)
    or every other active seat but the defender in play order (`all`).

    The defender is the next active seat after the main attacker, so its two neighbours, finished
    seats skipped, are the main attacker and the next active seat after it — one seat when only
    two are active, every thrower when three are."""
    if rules.throwers is Throwers.ATTACKER:
        return [attacker]
    order = around(players, finished, attacker, defender)
    if rules.throwers is Throwers.NEIGHBOURS:
        after = next_active(players, finished, defender)
        return [seat for seat in order if seat in (attacker, after)]
    return order


def attack_limit(rules: Rules, defended_once: bool, defender_cards: int, defended_pairs: int) -> int | None:
    """Most attack cards this bout (docs/rules.md §1.4, "The attack limit").

    `min(cap, defender's cards + defended pairs)`: the cards the defender held
    when the bout started (or the transfer was made) plus any it drew mid-bout.
    `cap` is `first_bout_max_attack` before the first defence, else
    `max_attack`; None means no cap.
    """
    limit = defender_cards + defended_pairs
    cap = rules.attack_cap(defended_once)
    return limit if cap is None else min(cap, limit)


def seat_to_move(
    rules: Rules,
    players: int,
    finished: Collection[int],
    table: Sequence[Pair],
    attacker: int,
    defender: int,
    taking: bool,
    passed: Collection[int],
) -> int | None:
    """Who the rules say must move in a bout in progress (docs/rules.md §1.4, "Whose turn").

    Lead: the main attacker. Some attack card undefended and no take declared:
    the defender. Otherwise (throw-in phase) the first thrower in order who has
    not passed. Once all have passed the bout is over (None), except that with
    `take_when_beaten` a defender who beat every card has the last word
    (docs/rules.md §1.8).
    """
    if not table:
        return attacker
    if not taking and any(pair.defense is None for pair in table):
        return defender
    for seat in throwers(rules, players, finished, attacker, defender):
        if seat not in passed:
            return seat
    if rules.take_when_beaten and not taking:
        return defender
    return None


def last_word(
    rules: Rules, players: int, finished: Collection[int], table: Sequence[Pair], attacker: int,
    defender: int, taking: bool, passed: Collection[int],
) -> bool:
    """The defender's last word (`take_when_beaten`, docs/rules.md §1.8): every attack card is
    beaten, nobody is taking, and every thrower has passed."""
    if not rules.take_when_beaten or taking or not table or any(pair.defense is None for pair in table):
        return False
    return all(seat in passed for seat in throwers(rules, players, finished, attacker, defender))


def check_reachable(
    rules: Rules,
    players: int,
    hand_counts: Sequence[int],
    stock_count: int,
    discard_count: int,
    table: Sequence[Pair],
    defender: int,
    to_move: int | None,
    sitting_out: Collection[int] = (),
) -> None:
    """Refuse counts that add up but that no play from a deal can reach (docs/api.md §2.2):
    a stock larger than the deck minus the deal (it only shrinks after the deal, which gives
    `hand_size` cards to every seat not sitting out, docs/rules.md §1.2), an odd discard pile
    (a defence discards each attack card with the card that beat it, §1.4), and a defender
    that has beaten every card with its last one while the bout goes on (it refills at once or
    the bout ends, §1.4 "A defender whose hand empties").

    Positions from outside are held to this; `Game.from_parts` is not, so that the readable
    engine's tests can build a bout with the rest of the deck put anywhere.
    """
    dealt = (players - len(sitting_out)) * rules.hand_size
    most = max(rules.deck - dealt, 0)
    if stock_count > most:
        raise PositionError(
            f"stock: {stock_count} cards, but after dealing {dealt} of the {rules.deck}-card deck "
            f"at most {most} are left",
            ErrorCode.COUNT_MISMATCH,
        )
    if discard_count % 2:
        raise PositionError(
            f"discard: {discard_count} cards, but a defence discards attack and defence cards in pairs",
            ErrorCode.COUNT_MISMATCH,
        )
    if (
        to_move is not None
        and table
        and all(pair.defense is not None for pair in table)
        and defender in range(players)
        and hand_counts[defender] == 0
    ):
        raise PositionError(
            f"hand_counts: the defender, seat {defender}, has beaten every card with its last one, "
            "so the bout is over (or it has refilled)",
            ErrorCode.INCONSISTENT_TURN,
        )


def check_turn(
    rules: Rules,
    players: int,
    hand_counts: Sequence[int],
    stock_count: int,
    discard_count: int,
    table: Sequence[Pair],
    trump_suit: Suit,
    attacker: int,
    defender: int,
    to_move: int | None,
    taking: bool,
    passed: Collection[int],
    finished: Sequence[int],
    defended_once: bool,
    sitting_out: Collection[int] = (),
) -> None:
    """Refuse turn fields that contradict each other or the table (docs/api.md §2.2, §3).

    Raises `PositionError` with code `invalid_seat` (a seat outside the game),
    `invalid_position` (a table that no play could have built),
    `count_mismatch` (a finished seat still holding cards) or
    `inconsistent_turn` (everything else). `to_move` None means the game is over;
    then only the seats and the table are checked. `sitting_out`: seats out of the
    game from its deal (the others' game after a trump repeat, docs/rules.md §1.9),
    listed among the finished.
    """
    seats = range(players)
    for name, seat in (("attacker", attacker), ("defender", defender)):
        if seat not in seats:
            raise PositionError(f"{name}: no seat {seat} in a {players}-seat game", ErrorCode.INVALID_SEAT)
    if to_move is not None and to_move not in seats:
        raise PositionError(f"to_move: no seat {to_move} in a {players}-seat game", ErrorCode.INVALID_SEAT)
    for name, group in (("passed", passed), ("finished", finished)):
        for seat in group:
            if seat not in seats:
                raise PositionError(
                    f"{name}: no seat {seat} in a {players}-seat game",
                    ErrorCode.INVALID_SEAT,
                )
    if len(set(finished)) != len(finished):
        raise PositionError(
            f"finished: a seat is listed twice in {list(finished)}",
            ErrorCode.INVALID_POSITION,
        )
    for seat in finished:
        if hand_counts[seat] != 0:
            raise PositionError(
                f"finished: seat {seat} has finished but holds {hand_counts[seat]} cards",
                ErrorCode.COUNT_MISMATCH,
            )
    if any(seat not in sitting_out for seat in finished) and stock_count > 0:
        raise PositionError(
            f"finished: seats finish only once the stock is empty, but it holds {stock_count} cards",
            ErrorCode.INCONSISTENT_TURN,
        )
    if defended_once != (discard_count > 0):
        if defended_once:
            raise PositionError(
                "defended_once is true but the discard pile is empty",
                ErrorCode.INCONSISTENT_TURN,
            )
        raise PositionError(
            f"defended_once is false but {discard_count} cards lie in the discard pile "
            "(only a defence discards)",
            ErrorCode.INCONSISTENT_TURN,
        )
    _check_table(table, trump_suit)
    if to_move is None:
        return

    # A bout in progress (docs/rules.md §1.4, "Whose turn").
    active = [seat for seat in seats if seat not in finished]
    if len(active) < 2:
        raise PositionError(
            f"to_move is {to_move} but only {len(active)} seat(s) have not finished: the game is over",
            ErrorCode.INCONSISTENT_TURN,
        )
    for name, seat in (("attacker", attacker), ("defender", defender)):
        if seat in finished:
            raise PositionError(f"{name}: seat {seat} has finished", ErrorCode.INCONSISTENT_TURN)
    if defender != next_active(players, finished, attacker):
        raise PositionError(
            f"defender: seat {defender} is not the next active seat after the attacker, seat {attacker} "
            f"(that is seat {next_active(players, finished, attacker)})",
            ErrorCode.INCONSISTENT_TURN,
        )
    if not table:
        empty = [seat for seat in active if hand_counts[seat] == 0]
        if empty:
            raise PositionError(
                f"hand_counts: seat {empty[0]} holds no cards at the start of a bout but has not finished",
                ErrorCode.INCONSISTENT_TURN,
            )
        if taking:
            raise PositionError("taking is true but the table is empty", ErrorCode.INCONSISTENT_TURN)
    undefended = sum(1 for pair in table if pair.defense is None)
    defended = len(table) - undefended
    if taking:
        if not rules.throw_in_after_take:
            raise PositionError(
                "taking is true but these rules end the bout at once on a take (throw_in_after_take is off)",
                ErrorCode.INCONSISTENT_TURN,
            )
        if undefended == 0:
            raise PositionError("taking is true but every attack card is beaten", ErrorCode.INCONSISTENT_TURN)
    if undefended > hand_counts[defender]:
        raise PositionError(
            f"table: {undefended} undefended attack cards but the defender, seat {defender}, "
            f"holds {hand_counts[defender]} cards",
            ErrorCode.INCONSISTENT_TURN,
        )
    limit = attack_limit(rules, defended_once, hand_counts[defender], defended)
    # Transfers are not held to the cap (docs/rules.md §1.4, "Transfer"): a table over it is one
    # rank's transfer chain (no card can be thrown in past the cap), within the defender's hand.
    transfer_chain = (
        rules.transfer
        and len({pair.attack.rank for pair in table}) == 1
        and len(table) <= hand_counts[defender] + defended
    )
    if limit is not None and len(table) > limit and not transfer_chain:
        raise PositionError(
            f"table: {len(table)} attack cards exceed the attack limit of {limit}",
            ErrorCode.INCONSISTENT_TURN,
        )
    order = throwers(rules, players, finished, attacker, defender)
    expected = seat_to_move(rules, players, finished, table, attacker, defender, taking, passed)
    in_throw_in = bool(table) and (taking or undefended == 0)
    if passed:
        if not in_throw_in:
            raise PositionError(
                f"passed: {sorted(passed)} but nobody passes outside the throw-in phase",
                ErrorCode.INCONSISTENT_TURN,
            )
        strangers = sorted(set(passed) - set(order))
        if strangers:
            raise PositionError(
                f"passed: seat {strangers[0]} is not a thrower in this bout (throwers: {order})",
                ErrorCode.INCONSISTENT_TURN,
            )
        if expected is None:
            raise PositionError(
                "passed: every thrower has passed, so the bout is already over", ErrorCode.INCONSISTENT_TURN
            )
        # Throwers act in order from the main attacker, so those who passed come first;
        # the defender's last word comes after all of them.
        prefix = order if expected == defender else order[: order.index(expected)]
        if set(passed) != set(prefix):
            raise PositionError(
                f"passed: {sorted(passed)} is not the throwers before seat {expected} in order {order}",
                ErrorCode.INCONSISTENT_TURN,
            )
    if to_move != expected:
        raise PositionError(
            f"to_move: seat {to_move} is to move, but the rules say seat {expected} "
            f"({role_of(expected, attacker, defender)}) must",
            ErrorCode.INCONSISTENT_TURN,
        )


def role_of(seat: int | None, attacker: int, defender: int) -> str:
    """What `seat` is in the bout, in words for messages."""
    if seat == attacker:
        return "the main attacker"
    if seat == defender:
        return "the defender"
    return "a thrower"


def _check_table(table: Sequence[Pair], trump_suit: Suit) -> None:
    """Every defence beats its attack card (docs/rules.md §1.3) and every attack card after
    the first shares a rank with another card on the table (docs/rules.md §1.4)."""
    ranks: list[Rank] = []
    for pair in table:
        ranks.append(pair.attack.rank)
        if pair.defense is not None:
            ranks.append(pair.defense.rank)
    for i, pair in enumerate(table):
        if pair.defense is not None and not pair.defense.beats(pair.attack, trump_suit):
            raise PositionError(
                f"table[{i}]: {pair.defense} does not beat {pair.attack} (trump {trump_suit.letter})",
                ErrorCode.INVALID_POSITION,
            )
        if i > 0 and ranks.count(pair.attack.rank) < 2:
            raise PositionError(
                f"table[{i}]: {pair.attack} was thrown in but no other {pair.attack.rank} is on the table",
                ErrorCode.INVALID_POSITION,
            )


def place_cards(deck_size: int, places: Iterable[tuple[str, Card]]) -> dict[Card, str]:
    """Where each card lies, refusing a card outside the deck or in two places (docs/api.md §2.2).

    `places` pairs a field name (for the message) with a card; the answer maps
    every card to the first field that holds it.
    """
    full = set(deck(deck_size))
    seen: dict[Card, str] = {}
    for where, card in places:
        if card not in full:
            raise PositionError(
                f"{where}: {card} is not in a {deck_size}-card deck",
                ErrorCode.CARD_NOT_IN_DECK,
            )
        if card in seen:
            raise PositionError(
                f"{card} is shown twice: in {seen[card]} and in {where}",
                ErrorCode.DUPLICATE_CARD,
            )
        seen[card] = where
    return seen
