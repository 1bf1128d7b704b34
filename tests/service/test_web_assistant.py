"""The table assistant and the analysis board (docs/web.md), in Debian's headless chromium.

A real game is dealt here by the readable engine, and the page follows it as one seat sees it:
the deal typed and tapped into the card picker, then every move of both seats and the seat's own
draws entered one by one, with an illegal entry refused, a wrong entry undone, a reload, and
hints on the way, until the game is over. The board opens a position typed with the picker, gives
a hint and plays a move for each seat. A review step opened on the board tries another move and
compares. The helpers and fixtures are in tests/support/web.py.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import pytest

from solver.game.cards import Card
from solver.game.moves import Move
from solver.game.notation import record_to_text
from solver.game.position import Position, match_from_json
from solver.game.record import Record
from solver.game.reference import Game, random_deck
from solver.game.rules import Rules
from tests.support.games import ordered_deck
from tests.support.records import ENDGAME_DECK, ENDGAME_MOVES, GOOD
from tests.support.web import (
    DESKTOP,
    IDLE,
    PHONE,
    Server,
    browser_fixture,
    open_page,
    page_words,
    server_fixture,
    shots_fixture,
)

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.browser

server = pytest.fixture(scope="module")(server_fixture)
browser = pytest.fixture(scope="module")(browser_fixture)
shots = pytest.fixture(shots_fixture)


def _typed(card: Card, spelling: int) -> str:
    """A card as a person might type it: `7c`, `10h`, `Q♥` in turn."""
    text = str(card)
    rank = "10" if text[0] == "T" else text[0]
    return [text, rank + text[1].upper(), rank + "♠♥♦♣"["shdc".index(text[1])]][spelling % 3]


def _result(scores: list[float] | None, seat: int, lang: str = "en") -> str:
    """What the assistant says of a finished 2-seat game (its scores, docs/rules.md §1.5) seen from `seat`."""
    assert scores is not None
    words = {"en": ("Game over: a draw.", "Game over: you lost.", "Game over: Seat {n} lost; you won."),
             "vi": ("Hết ván: hòa.", "Hết ván: bạn thua.", "Hết ván: Ghế {n} thua; bạn thắng.")}[lang]
    if 0 not in scores:
        return words[0]
    loser = scores.index(0)
    return words[1] if loser == seat else words[2].format(n=loser + 1)


def _settled(page: Page, mode: str, entries: int) -> None:
    """Wait until the mode shows the game after `entries` entries, with no request in flight."""
    page.wait_for_selector(f"#{mode} .follow-view[data-entries='{entries}']")
    page.wait_for_function(f"() => !document.getElementById('{mode}').hasAttribute('aria-busy')")


def _json(move: Move) -> str:
    """A move as the page writes it in `data-move` (JSON.stringify of the API's JSON)."""
    return json.dumps(move.to_json(), separators=(",", ":"))


def _move_button(page: Page, mode: str, move: Move) -> Any:
    return page.locator(f"#{mode} .follow-entry .follow-move[data-move='{_json(move)}']")


def _enter_their_move(page: Page, mode: str, move: Move, spelling: int) -> None:
    """Enter another seat's move: a card typed into the picker (its move chosen when the card has
    several), or the button of a move without a card."""
    if move.card is None:
        _move_button(page, mode, move).click()
        return
    page.fill(f"#{mode}-entry-picker .picker-input", _typed(move.card, spelling))
    page.press(f"#{mode}-entry-picker .picker-input", "Enter")
    # The page answers at once: the one move of the card is on its way, or the card's moves are offered.
    choice = _move_button(page, mode, move)
    if page.get_attribute(f"#{mode}", "aria-busy") is None and choice.count():
        choice.click()


def _tap(page: Page, picker: str, card: Card) -> None:
    """Tap a card into a picker: its rank, then its suit."""
    page.click(f"{picker} .picker-rank[data-rank='{str(card)[0]}']")
    page.click(f"{picker} .picker-suit[data-card='{card}']")


def _shown_hand(page: Page, mode: str) -> list[str]:
    cards = page.locator(f"#{mode} .hand-cards .mini")
    return sorted(cards.evaluate_all("cards => cards.map(c => c.dataset.card)"))


def _assistant_form(
    browser: Browser, server: Server, errors: list[str], preset: str, seat: int, leader: int,
    options: tuple[str, ...] = (),
) -> Page:
    """A phone's page on the assistant's set-up, in English: the rules, the side rules ticked, the
    seat followed and who leads chosen."""
    page = open_page(browser, server, PHONE, errors)
    page.goto(server.url + "/#assistant")
    page.select_option("#lang", "en")
    page.wait_for_selector("#assistant-start")
    page.select_option("#assistant-preset", preset)
    for option in options:
        page.check(f"#assistant-option-{option} input")
    page.select_option("#assistant-seat", str(seat))
    page.select_option("#assistant-leader", str(leader))
    return page


def test_the_assistant_follows_a_table_where_the_attacker_alone_throws_in(
    browser: Browser, server: Server
) -> None:
    """Who may throw in (issue 62) is picked from a list in the assistant's set-up, like the
    new-game form's, and the game it follows is played under it."""
    errors: list[str] = []
    page = _assistant_form(browser, server, errors, "durak", 0, 0)
    page.select_option("#assistant-players", "4")
    page.select_option("#assistant-option-throwers select", "attacker")
    page.fill("#assistant-picker .picker-input", "6s 7s 8s 9s Ts Js Kh")
    page.press("#assistant-picker .picker-input", "Enter")
    with page.expect_request("**/v1/next") as asked:
        page.click("#assistant-start")
    _settled(page, "assistant", 0)
    record = json.loads(asked.value.post_data or "{}")["record"]
    assert record["rules"] == {"preset": "durak", "throwers": "attacker"} and record["players"] == 4
    assert errors == []
    page.close()


def _play_out(
    page: Page, server: Server, game: Game, seat: int, entries: int, rng: random.Random,
    shot: Path | None = None,
) -> tuple[int, tuple[bool, bool, bool, int]]:
    """Enter the rest of `game` (dealt and played as far as `entries` entries) on the assistant, as
    `seat` sees it, with random legal moves: three of the seat's moves from the hint's best, a card
    of its own hand entered for another seat and refused, a wrong card entered and undone, the
    seat's draws, a reload; the entries at the end, and what was done (refused, undone, reloaded,
    hints); the first hint is shot to `shot`."""
    hints = 0
    refused = undone = reloaded = False
    while not game.over:
        mover = game.to_move
        assert mover is not None
        legal = game.legal_moves()
        move = rng.choice(legal)
        if mover == seat:
            hint = page.locator("#assistant [data-role='hint']")
            assert hint.is_enabled()
            if hints < 3:
                # The hint for the seat: its rows are the legal moves; its best is played.
                hint.click()
                page.wait_for_selector("#assistant .follow-hint .hint-move")
                _settled(page, "assistant", entries)
                rows = page.locator("#assistant .follow-hint .hint-move")
                offered = set(rows.evaluate_all("rows => rows.map(r => r.dataset.move)"))
                assert offered and offered <= {_json(m) for m in legal}
                if hints == 0 and shot is not None:
                    page.screenshot(path=str(shot))
                move = Move.parse(json.loads(rows.first.get_attribute("data-move") or "null"))
                rows.first.click()
                hints += 1
            else:
                _move_button(page, "assistant", move).click()
        else:
            assert page.locator("#assistant [data-role='hint']").is_disabled()  # not the seat's turn
            if not refused and move.card is not None:
                # A card of the seat's own hand cannot be another seat's: refused, nothing entered.
                mine = sorted(game.hands[seat])[0]
                page.fill("#assistant-entry-picker .picker-input", str(mine))
                page.press("#assistant-entry-picker .picker-input", "Enter")
                assert page.locator("#message").is_visible()
                assert "Cannot be entered now" in page.inner_text("#message-text")
                _settled(page, "assistant", entries)
                page.click("#message-close")
                refused = True
            if not undone and move.card is not None and move.action.value == "attack":
                # A wrong card entered, then undone: the game is as it was.
                offers = _offered(server, page)
                other = next(m for m in offers if m.get("card") and m["card"] != str(move.card))
                _enter_their_move(page, "assistant", Move.parse(other), 0)
                _settled(page, "assistant", entries + 1)
                page.click("#assistant [data-role='undo']")
                _settled(page, "assistant", entries)
                assert page.locator("#assistant .follow-history li").count() == entries
                undone = True
            _enter_their_move(page, "assistant", move, entries)
        game.play(move, mover)
        entries += 1
        _settled(page, "assistant", entries)
        assert page.locator("#message").is_hidden(), page.inner_text("#message-text")
        if game.drawn[seat]:
            # The seat's draw: the trump card is filled in when it is among them, the rest tapped;
            # the last tap enters the draw (a draw of the trump card alone is confirmed).
            tapped = [card for card in game.drawn[seat] if card != game.trump]
            for card in tapped:
                _tap(page, "#assistant-entry-picker", card)
            if not tapped:
                page.click("#assistant [data-role='cards-done']")
            entries += 1
            _settled(page, "assistant", entries)
        assert _shown_hand(page, "assistant") == sorted(str(card) for card in game.hands[seat])
        if entries >= 12 and not reloaded:
            # The game lives in the browser: a reload carries on where it was.
            page.reload()
            _settled(page, "assistant", entries)
            reloaded = True

    return entries, (refused, undone, reloaded, hints)


@pytest.mark.long
def test_a_whole_game_entered_at_the_table(browser: Browser, server: Server, shots: Path) -> None:
    rules = Rules.preset_named("durak")
    game = Game.deal(rules, 2, deck=random_deck(rules, 21))
    seat, leader = 1, game.to_move
    assert leader is not None
    errors: list[str] = []
    page = _assistant_form(browser, server, errors, "durak", seat, leader)

    # The hand typed in three spellings at once, the trump tapped: rank, then suit.
    hand = sorted(game.hands[seat])
    page.fill("#assistant-picker .picker-input", " ".join(_typed(card, i) for i, card in enumerate(hand)))
    page.press("#assistant-picker .picker-input", "Enter")
    assert page.locator("#assistant .deal-cards[data-field='hand'] .chip").count() == 6
    _tap(page, "#assistant-picker", game.trump)
    assert page.locator("#assistant .deal-cards[data-field='trump'] .chip").count() == 1
    page.screenshot(path=str(shots / "assistant-deal-en.png"), full_page=True)
    page.click("#assistant-start")
    _settled(page, "assistant", 0)

    entries, (refused, undone, reloaded, hints) = _play_out(
        page, server, game, seat, 0, random.Random(21), shots / "assistant-hint-en.png"
    )
    assert refused and undone and reloaded and hints == 3
    assert page.inner_text("#assistant .follow-status") == _result(game.scores, seat)
    badges = page.locator("#assistant .follow-seat .score")
    shown = badges.evaluate_all("badges => badges.map(b => Number(b.dataset.score))")
    assert shown == game.scores
    _kept, answer = _asked_again(server, page)
    assert answer["to_move"] is None and answer["position"] == Position.from_game(game, seat).to_json()
    page.select_option("#lang", "vi")
    assert page.inner_text("#assistant .follow-status") == _result(game.scores, seat, "vi")
    page.screenshot(path=str(shots / "assistant-over-vi.png"), full_page=True)

    # The game is kept on the server too: its link opens it in a browser that never saw it.
    link = page.get_attribute("#assistant-link", "href")
    assert link and link.startswith(server.url + "/#assistant/")
    elsewhere = open_page(browser, server, PHONE, errors)
    elsewhere.goto(link)
    _settled(elsewhere, "assistant", entries)
    assert elsewhere.locator("#assistant .follow-history li").count() == entries
    assert errors == []
    elsewhere.close()
    page.close()


# A 2-seat tan game, hearts trump (9h turned up). Seat 0 leads and holds no trump: it redeals, and
# picks set 0, which holds 2h, the low trump; it swaps 2h for 9h, and seat 1 leads (the swapper
# cedes the lead in tan). Seat 1, followed here, holds trumps but not 2h.
SIDE_HANDS = [
    ["3s", "5s", "7s", "Js", "4c", "8c", "5d", "Qd"],
    ["Ah", "Kh", "6h", "3c", "Tc", "Ks", "7d", "Ad"],
]
SIDE_SETS = ["2h", "Qs", "6c", "Jc", "Td", "8d", "4s", "3h", "9s", "Kc", "Kd", "As", "Ac", "2d", "9c", "7c"]


@pytest.mark.long
def test_a_tan_game_with_a_redeal_and_a_swap_entered_at_the_table(
    browser: Browser, server: Server, shots: Path
) -> None:
    """The assistant under the side rules: ticked in its set-up; another seat's redeal entered with
    the hand it showed (a card of the seat's own refused), its pick (a wrong one undone), its swap
    offered beside its first lead; then the whole game, with hints, to its end."""
    rules = Rules.preset_named("tan", redeal_without_trump=True, trump_swap=True)
    deck = ordered_deck(rules, SIDE_HANDS, "9h", SIDE_SETS)
    game = Game.deal(rules, 2, deck=deck, first_attacker=0)
    seat = 1
    errors: list[str] = []
    page = _assistant_form(browser, server, errors, "tan", seat, 0, ("redeal_without_trump", "trump_swap"))
    page.fill("#assistant-picker .picker-input", " ".join(SIDE_HANDS[seat]))
    page.press("#assistant-picker .picker-input", "Enter")
    _tap(page, "#assistant-picker", Card.parse("9h"))
    page.click("#assistant-start")
    _settled(page, "assistant", 0)

    # Seat 1 (seat 0 for the API) leads, or first redeals or swaps, in secret: all are offered.
    offered = {Move.parse(json.loads(text)) for text in page.locator("#assistant .follow-move").evaluate_all(
        "buttons => buttons.map(b => b.dataset.move)")}
    assert {Move.redeal(), Move.swap()} <= offered
    assert page.locator("#assistant [data-role='hint']").is_disabled()
    _move_button(page, "assistant", Move.redeal()).click()
    assert "redeals: choose the cards they showed" in page.inner_text("#assistant .follow-status")
    # A card of the seat's own hand cannot be in the hand shown: refused, nothing entered.
    page.fill("#assistant-entry-picker .picker-input", SIDE_HANDS[seat][0])
    page.press("#assistant-entry-picker .picker-input", "Enter")
    assert "Cannot be entered now" in page.inner_text("#message-text")
    page.click("#message-close")
    page.fill("#assistant-entry-picker .picker-input", " ".join(SIDE_HANDS[0]))
    page.press("#assistant-entry-picker .picker-input", "Enter")
    _settled(page, "assistant", 1)
    game.play(Move.redeal(), 0)
    assert "Seat 1: redeal (" in page.inner_text("#assistant .follow-history")

    # Its pick: a wrong one entered, then undone.
    _move_button(page, "assistant", Move.pick(1)).click()
    _settled(page, "assistant", 2)
    page.click("#assistant [data-role='undo']")
    _settled(page, "assistant", 1)
    _move_button(page, "assistant", Move.pick(0)).click()
    _settled(page, "assistant", 2)
    game.play(Move.pick(0), 0)

    # Now it may swap the low trump it picked, or lead: it swaps, and the seat leads.
    assert _move_button(page, "assistant", Move.swap()).count() == 1
    _move_button(page, "assistant", Move.swap()).click()
    _settled(page, "assistant", 3)
    game.play(Move.swap(), 0)
    assert game.to_move == seat
    page.screenshot(path=str(shots / "assistant-side-rules-en.png"), full_page=True)
    assert "9♥" in page.locator("#assistant .follow-seat[data-seat='0'] .known").inner_text()

    _entries, (refused, undone, _reloaded, hints) = _play_out(page, server, game, seat, 3, random.Random(5))
    assert refused and undone and hints == 3
    assert page.inner_text("#assistant .follow-status") == _result(game.scores, seat)
    kept, answer = _asked_again(server, page)
    assert kept["start"]["rules"] == {"preset": "tan", "redeal_without_trump": True, "trump_swap": True}
    assert answer["position"] == Position.from_game(game, seat).to_json()

    # The game as text, and opened again from it as a new game: every entry back, the game over.
    page.click("#assistant [data-role='as-text']")
    page.wait_for_selector("#assistant-text")
    text = page.input_value("#assistant-text")
    record = {**kept["start"], "events": kept["events"]}
    assert text == record_to_text(Record.from_json(record)) and "0: redeal" in text and "0: swap" in text
    page.click("#assistant [data-role='new']")
    page.click("#assistant .import-game summary")
    page.fill("#assistant-import-text", text)
    page.click("#assistant-import")
    _settled(page, "assistant", len(kept["events"]))
    assert page.inner_text("#assistant .follow-status") == _result(game.scores, seat)
    reopened, _answer = _asked_again(server, page)
    assert reopened["events"] == record["events"] and reopened["id"] != kept["id"]
    assert errors == []
    page.close()


# Game 2 of a tan match, hearts trump (9h): seat 0 lost game 1 and deals; seat 1, followed here, won
# it and leads. Seat 1 holds no trump: it redeals and picks set 0; seat 0 then gives it its highest
# trump, Kh, and seat 1 sees the seven cards left to it; seat 0 swaps 2h for 9h.
MATCH_HANDS = [
    ["2h", "Kh", "6h", "3c", "Tc", "Ks", "7d", "Ad"],
    ["3s", "5s", "7s", "Js", "4c", "8c", "5d", "Qd"],
]
MATCH_SETS = ["Ah", "Qs", "6c", "Jc", "Td", "8d", "4s", "3h", "9s", "Kc", "Kd", "As", "Ac", "2d", "9c", "7c"]


def test_a_match_games_redeal_tribute_and_swap_entered_at_the_table(browser: Browser, server: Server) -> None:
    """A match game's setup on the assistant: the seat's own redeal with the two hands offered to it,
    the tribute it receives and the giver's hand it inspects, the giver's swap; then a hint."""
    rules = Rules.preset_named("tan", redeal_without_trump=True, tribute=True, trump_swap=True)
    deck = ordered_deck(rules, MATCH_HANDS, "9h", MATCH_SETS)
    game = Game.deal(rules, 2, deck=deck, first_attacker=1, tribute=(0, 1))
    seat = 1
    errors: list[str] = []
    side = ("redeal_without_trump", "tribute", "trump_swap")
    page = _assistant_form(browser, server, errors, "tan", seat, 1, side)
    page.check("#assistant-match")
    page.select_option("#assistant-dealer", "0")
    page.select_option("#assistant-winner", "1")
    page.select_option("#assistant-loser", "0")
    page.select_option("#assistant-suit-1", "s")
    page.check("#assistant-tribute")
    page.fill("#assistant-picker .picker-input", " ".join(MATCH_HANDS[seat]) + " 9h")
    page.press("#assistant-picker .picker-input", "Enter")
    page.click("#assistant-start")
    _settled(page, "assistant", 0)

    # The seat's own redeal: its hand shown, then the two hands offered named.
    mine = "#assistant .follow-mover[data-seat='1']"
    page.click(f"{mine} .follow-move[data-move='{_json(Move.redeal())}']")
    assert "Set 1 offered to you" in page.inner_text("#assistant .follow-status")
    for part in (MATCH_SETS[:8], MATCH_SETS[8:]):
        page.fill("#assistant-entry-picker .picker-input", " ".join(part))
        page.press("#assistant-entry-picker .picker-input", "Enter")
    _settled(page, "assistant", 1)
    game.play(Move.redeal(), 1)
    _move_button(page, "assistant", Move.pick(0)).click()
    _settled(page, "assistant", 2)
    game.play(Move.pick(0), 1)
    game.play(Move.keep(), 0)  # seat 0 is asked too, with nothing to decide (docs/rules.md §1.7)
    assert game.tributed == (0, 1, Card.parse("Kh"))

    # The tribute: its card picked among the trumps seat 0 might give, then the hand inspected.
    page.fill("#assistant-tribute-picker .picker-input", "Kh")
    page.press("#assistant-tribute-picker .picker-input", "Enter")
    assert "shown" in page.inner_text("#assistant .follow-status")
    left = sorted(str(card) for card in game.seen[1][0])
    page.fill("#assistant-entry-picker .picker-input", " ".join(left))
    page.press("#assistant-entry-picker .picker-input", "Enter")
    _settled(page, "assistant", 3)
    assert "Tribute K♥ · hand seen:" in page.inner_text("#assistant .follow-history")

    # The swap round asks the leader first: the seat keeps (it has nothing to decide). Seat 0 holds
    # 2h, as the seat saw: it swaps, and the seat leads and asks a hint.
    page.click(f"#assistant .follow-mover[data-seat='1'] .follow-move[data-move='{_json(Move.keep())}']")
    _settled(page, "assistant", 4)
    game.play(Move.keep(), 1)
    page.click(f"#assistant .follow-mover[data-seat='0'] .follow-move[data-move='{_json(Move.swap())}']")
    _settled(page, "assistant", 5)
    game.play(Move.swap(), 0)
    assert game.to_move == seat
    page.click("#assistant [data-role='hint']")
    page.wait_for_selector("#assistant .follow-hint .hint-move")
    hinted = page.locator("#assistant .follow-hint .hint-move")
    rows = hinted.evaluate_all("rows => rows.map(row => row.dataset.move)")
    assert set(rows) <= {_json(move) for move in game.legal_moves()}
    line = page.locator("#assistant .follow-hint .hint-line").first.inner_text()
    assert "Seat 1: " in line  # the line the engine expects after the best move
    kept, answer = _asked_again(server, page)
    assert kept["start"]["tribute"] == [0, 1] and kept["start"]["match"]["game"] == 2
    match = match_from_json(kept["start"]["match"])
    assert answer["position"] == Position.from_game(game, seat, match=match).to_json()
    assert errors == []
    page.close()


def _asked_again(server: Server, page: Page) -> tuple[dict[str, Any], dict[str, Any]]:
    """The game the assistant keeps in the browser (its deal and events), and what POST /v1/next
    answers for it."""
    kept = page.evaluate("() => JSON.parse(localStorage.getItem('tan.assistant'))")
    answer = httpx.post(server.url + "/v1/next", json={"record": {**kept["start"], "events": kept["events"]}},
                        timeout=120.0)
    assert answer.status_code == 200, answer.text
    return kept, answer.json()


def _offered(server: Server, page: Page) -> list[dict[str, Any]]:
    """The moves the assistant offers now, as POST /v1/next answers them (the stored game, asked again)."""
    return list(_asked_again(server, page)[1]["moves"])


def test_the_board_from_a_typed_position(browser: Browser, server: Server, shots: Path) -> None:
    rules = Rules.preset_named("durak")
    game = Game.deal(rules, 2, deck=random_deck(rules, 4), first_attacker=1)
    rng = random.Random(4)
    for _ in range(200):  # on to a bout that seat 0 leads, after a defence
        if game.to_move == 0 and not game.table and game.discard:
            break
        game.play(rng.choice(game.legal_moves()), game.to_move)
    assert game.to_move == 0 and not game.table and game.discard
    position = Position.from_game(game, 0)
    errors: list[str] = []
    page = open_page(browser, server, PHONE, errors)
    page.goto(server.url + "/#board")
    page.select_option("#lang", "en")
    page.wait_for_selector("#board-open")
    page.select_option("#board-preset", "durak")
    page.fill("#board-stock", str(position.stock))
    page.fill("#board-count-1", str(position.hand_counts[1]))
    for key, value in (("attacker", position.attacker), ("defender", position.defender), ("to-move", 0)):
        page.select_option(f"#board-{key}", str(value))
    for field, cards in (("trump", [position.trump]), ("hand", position.hand), ("discard", position.discard),
                         ("known:1", position.known[1])):
        if not cards:
            continue
        page.click(f"#board [data-role='pick-{field}']")
        page.fill("#board-picker .picker-input", " ".join(_typed(card, i) for i, card in enumerate(cards)))
        page.press("#board-picker .picker-input", "Enter")
        assert page.locator(f"#board .deal-cards[data-field='{field}'] .chip").count() == len(cards)
    page.check("#board-option-take_when_beaten input")  # a side rule, ticked as in the new-game form
    page.click("#board-open")
    _settled(page, "board", 0)
    stored = page.evaluate("() => JSON.parse(localStorage.getItem('tan.board'))")
    ticked = rules.with_options(take_when_beaten=True)
    assert Position.from_json(stored["start"]) == replace(position, rules=ticked)

    page.click("#board [data-role='hint']")
    page.wait_for_selector("#board .follow-hint .hint-move")
    _settled(page, "board", 0)
    page.locator("#board .follow-hint").scroll_into_view_if_needed()
    page.screenshot(path=str(shots / "board-hint-en.png"))
    first = page.locator("#board .follow-hint .hint-move").first
    best = Move.parse(json.loads(first.get_attribute("data-move") or "null"))
    assert best in position.legal_moves()
    first.click()
    _settled(page, "board", 1)
    game.play(best, 0)
    # The other seat's reply, entered on the board as it might be.
    reply = rng.choice(game.legal_moves())
    _enter_their_move(page, "board", reply, 1)
    _settled(page, "board", 2)
    game.play(reply, 1)
    assert page.locator("#message").is_hidden(), page.inner_text("#message-text")
    assert page.locator("#board .follow-history li").count() == 2
    page.click("#board [data-role='evaluate']")
    page.wait_for_selector("#board .follow-evaluation")
    assert page.locator("#board .follow-scores li").count() == 2
    assert errors == []
    page.close()


def test_a_review_step_tried_on_the_board(browser: Browser, server: Server) -> None:
    """The review's "try on the board": the step's position on the board, another move played for
    the seat, and its evaluation compared with the move played."""
    request = {"rules": "durak", "seats": ["human", "greedy"], "deck": ENDGAME_DECK, "first_attacker": 0}
    created = httpx.post(server.url + "/v1/games", json=request, timeout=120.0)
    assert created.status_code == 201, created.text
    errors: list[str] = []
    page = open_page(browser, server, DESKTOP, errors)
    page.goto(server.url + "/")
    page.select_option("#lang", "en")
    page.evaluate("saved => localStorage.setItem('tan.game', JSON.stringify(saved))",
                  {"id": created.json()["id"], "token": created.json()["tokens"][0]})
    page.reload()
    page.wait_for_selector("#game:not([hidden])")
    for _ in range(120):
        page.wait_for_function(IDLE)
        if page.locator("#over").is_visible():
            break
        page.keyboard.press("1")
    page.click("#review-button")
    page.wait_for_selector("#review:not([hidden])")
    page.wait_for_function(IDLE)
    # A step with a choice: the first with another legal move than the one played.
    steps = page.locator("#review-rows tr").count()
    for at in range(steps):
        if "forced" not in (page.locator("#review-rows tr").nth(at).get_attribute("class") or ""):
            page.locator("#review-rows tr").nth(at).locator("button.jump").click()
            break
    page.click("#review-board")
    page.wait_for_selector("#board .what-if")
    # The board plays on from the game's record cut at the decision (the review's very question).
    at = page.evaluate("() => JSON.parse(localStorage.getItem('tan.board')).from.at")
    assert page.evaluate("() => JSON.parse(localStorage.getItem('tan.board')).kind") == "record"
    _settled(page, "board", at)
    step = page.inner_text("#board .what-if")
    assert "At this step you played" in step
    played = page.evaluate("() => JSON.parse(localStorage.getItem('tan.board')).from.played")
    other = next(b for b in page.locator("#board .follow-entry .follow-move").all()
                 if json.loads(b.get_attribute("data-move") or "null") != played)
    other.click()
    _settled(page, "board", at + 1)
    page.click("#board [data-role='compare']")
    page.wait_for_selector("#board .what-if-result")
    result = page.inner_text("#board .what-if-result")
    assert "Your try" in result
    # One number for one moment: Compare's "move played" is the review's, from one search.
    reviewed = re.search(r"you played .+? \(([^)]+)\)", step)
    compared = re.search(r"the move played .+?: (.+)$", result)
    assert reviewed and compared and reviewed.group(1) == compared.group(1).strip(), (step, result)
    assert page.locator("#board .what-if-best").count() == 1
    assert errors == []
    page.close()


def _finished_record() -> Record:
    """The hand-made endgame (tests/support/records.py) won by seat 0 (its lead of A♥), played to
    its end: seat 1 is left holding cards."""
    rules = Rules.preset_named("durak")
    cards = [Card.parse(card) for card in ENDGAME_DECK]
    game = Game.deal(rules, 2, deck=cards, first_attacker=0)
    first, history = game.clone(), list[tuple[int, Move]]()
    for mover, text in [*ENDGAME_MOVES, (0, GOOD)]:
        history.append((mover, Move.parse(text)))
        game.play(history[-1][1], mover)
    while not game.over:
        seat = game.to_move
        assert seat is not None
        history.append((seat, game.legal_moves()[0]))
        game.play(history[-1][1], seat)
    assert game.scores == [1, 0]
    return Record.of_game(first, 0, cards, history)


@pytest.mark.parametrize(
    ("viewport", "lang"), [(PHONE, "vi"), pytest.param(DESKTOP, "en", marks=pytest.mark.long)]
)
def test_a_real_table_game_ends_with_its_winner_and_its_review(
    browser: Browser, server: Server, viewport: dict[str, int], lang: str
) -> None:
    """A finished real-table game, opened from its record on the assistant, says who won (not only
    "Game over.") and offers the review a game against the engines has: each of the seat's
    decisions with its verdict, and a step tried on the board, its seats named as at the table."""
    record = _finished_record().to_json()
    decisions = sum(1 for event in record["events"] if event.get("seat") == 0 and "move" in event)
    errors: list[str] = []
    page = open_page(browser, server, viewport, errors)
    page.goto(server.url + "/#assistant")
    page.select_option("#lang", lang)
    page.wait_for_selector("#assistant-start")
    page.click("#assistant .import-game summary")
    page.fill("#assistant-import-text", json.dumps(record))
    page.click("#assistant-import")
    _settled(page, "assistant", len(record["events"]))
    said = {"vi": "Hết ván: Ghế 2 thua; bạn thắng.", "en": "Game over: Seat 2 lost; you won."}[lang]
    assert page.inner_text("#assistant .follow-status") == said

    page.click("#assistant [data-role='review']")
    page.wait_for_selector("#assistant .follow-review", timeout=120_000)
    rows = page.locator("#assistant .follow-review tbody tr")
    assert rows.count() == decisions
    # The winning lead of A♥ (ply 35 of the game), proven: the engine's own choice, reviewed good.
    winning = rows.filter(has=page.locator("button.jump", has_text="35"))
    assert "label-good" in (winning.get_attribute("class") or "")
    winning.locator("button.jump").click()
    assert page.locator("#assistant .follow-review .review-detail").get_attribute("data-label") == "good"
    page.click("#assistant [data-role='review-board']")
    _settled(page, "board", 0)
    assert page.locator("#board .what-if").is_visible()
    assert {"vi": "Ghế 2", "en": "Seat 2"}[lang] in page.inner_text("#board .follow-seats")
    assert errors == []
    page.close()


@pytest.mark.parametrize(
    ("viewport", "lang"), [(DESKTOP, "en"), pytest.param(PHONE, "vi", marks=pytest.mark.long)]
)
def test_an_endgame_set_up_by_taps_on_the_board(
    browser: Browser, server: Server, viewport: dict[str, int], lang: str
) -> None:
    """The hand-made endgame's last lead (tests/support/records.py: 9♣ A♥ against Q♣ A♦, hearts
    trump, the stock drawn) set up by taps alone: the trump card tapped, then tapped into nowhere
    else but the discard by "everything else is discarded"; a wrong count refused with the server's
    own reason; then the hint's proven answers read as proven (A♥ a certain win, 9♣ a certain draw)."""
    errors: list[str] = []
    page = open_page(browser, server, viewport, errors)
    page.goto(server.url + "/#board")
    page.select_option("#lang", lang)
    page.wait_for_selector("#board-open")
    page.select_option("#board-preset", "durak")
    for key in ("attacker", "to-move"):
        page.select_option(f"#board-{key}", "0")
    page.select_option("#board-defender", "1")
    page.fill("#board-stock", "0")
    for field, cards in (("trump", ["6h"]), ("hand", ["9c", "Ah"]), ("known:1", ["Qc", "Ad"])):
        page.click(f"#board [data-role='pick-{field}']")
        for card in cards:
            _tap(page, "#board-picker", Card.parse(card))
    page.click("#board [data-role='rest-discarded']")
    assert page.locator("#board .deal-cards[data-field='discard'] .chip").count() == 36 - 4
    page.fill("#board-count-1", "1")  # a wrong count: the server says exactly what is wrong
    page.click("#board-open")
    page.wait_for_selector("#message:not([hidden])")
    reason = {"en": "Known: 2 cards known in seat 1's hand, which holds 1.",
              "vi": "Đã biết 2 lá trên tay Ghế 2, mà ghế đó chỉ có 1 lá."}[lang]
    assert page.inner_text("#message-text") == f"{page_words(page, 'err_count_mismatch')} {reason}"
    assert [error for error in errors if "422" in error] == [errors.pop()]  # the refusal, answered
    page.click("#message-close")
    page.fill("#board-count-1", "2")
    page.click("#board-open")
    _settled(page, "board", 0)
    assert page.locator("#message").is_hidden(), page.inner_text("#message-text")
    page.click("#board [data-role='hint']")
    page.wait_for_selector("#board .follow-hint .hint-move")
    said = {json.loads(row.get_attribute("data-move") or "null")["card"]: row.locator(".pct").inner_text()
            for row in page.locator("#board .follow-hint .hint-move").all()}
    assert said == {"Ah": page_words(page, "certainWin"), "9c": page_words(page, "certainDraw")}
    assert page.inner_text("#board .follow-hint .evaluation").endswith(page_words(page, "certainWin"))
    assert errors == []
    page.close()
