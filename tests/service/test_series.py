"""The page played as a series and on phones, in Debian's headless chromium through Playwright: a
3-game match with its between-games screens and its result, the card to answer in view at every
defence on a phone with 4 and 6 seats, a phone held sideways, and the wording of a defence that
has beaten every card (docs/web.md). The helpers and fixtures are in tests/support/web.py."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

import httpx
import pytest

from tests.support.web import (
    DESKTOP,
    IDLE,
    PHONE,
    Server,
    axe_findings,
    browser_fixture,
    card_text,
    last_bout,
    open_page,
    page_words,
    seat_view,
    seat_words,
    server_fixture,
    start_game,
)

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.browser

server = pytest.fixture(scope="module")(server_fixture)
browser = pytest.fixture(scope="module")(browser_fixture)

LANDSCAPE = {"width": 844, "height": 390}



def _play_one(page: Page, rng: random.Random) -> None:
    """One move: a setup decision, the chooser's option, a legal card, or take / pass."""
    for selector in ("#setup-buttons button", "#chooser:not([hidden]) #chooser-options button"):
        buttons = page.locator(selector)
        if buttons.count() and buttons.first.is_visible():
            buttons.nth(rng.randrange(buttons.count())).click()
            return
    cards = page.locator("#hand button.card.legal:not([disabled])")
    buttons = page.locator("#take-button:not([disabled]), #pass-button:not([disabled])")
    options = [cards.nth(i) for i in range(cards.count())] + [buttons.nth(i) for i in range(buttons.count())]
    assert options, "no legal card or button while it is our turn"
    options[rng.randrange(len(options))].click()


@pytest.mark.parametrize(
    ("viewport", "lang"),
    [pytest.param(DESKTOP, "en", marks=pytest.mark.long), pytest.param(PHONE, "vi", marks=pytest.mark.long)],
)
def test_a_three_game_match_is_a_series(
    browser: Browser, server: Server, viewport: dict[str, int], lang: str
) -> None:
    """Tấn with tribute and trump swap, 3 games: after each game but the last the page stops on a
    between-games screen (that game's result, the tribute, who deals and leads next and why, "Next
    game", the review of the game just ended), the next game starts only on "Next game" with an
    empty discard pile, and the end says who won the match, as the API's `winners` has it. Then a
    game that is not the last is chosen and reviewed: its own decisions, in order."""
    errors: list[str] = []
    page = open_page(browser, server, viewport, errors)
    start_game(page, server, lang, seed=3, preset="tan", side_rules=("trump_swap", "tribute"), games=3)
    rng = random.Random(8)
    betweens = 0
    tributes = 0
    for _ in range(2000):
        page.wait_for_function(IDLE)
        assert page.locator("#message").is_hidden(), page.inner_text("#message")
        if page.locator("#next-game").is_visible():
            betweens += 1
            view = seat_view(page, server)
            match = view["match"]
            assert match["game"] == betweens + 1
            title = page.inner_text("#over-title")
            assert page_words(page, "gameEnded", n=betweens, of=3) in title
            detail = page.inner_text("#over-detail")
            dealer = seat_words(page, match["dealer"])
            assert page_words(page, "nextGame", n=betweens + 1, dealer=dealer) in detail
            lead = view["lead"]  # who leads next, and why, as the API says it
            assert page_words(page, "lead_" + lead["reason"], name=seat_words(page, lead["seat"])) in detail
            tribute = match["tribute"]
            if tribute:
                tributes += 1
                names = {role: seat_words(page, tribute[role]) for role in ("giver", "receiver")}
                card = tribute.get("card")
                said = (page_words(page, "tributeGiven", **names, card=card_text(card)) if card
                        else page_words(page, "tributeHidden", **names))
                assert said in detail
            # The ended game's last bout is in its result, and on its own table (its trump card): the
            # next deal waits for "Next game".
            ended = last_bout([entry for entry in view["history"] if entry["game"] == betweens])
            shown = page.locator("#over-bout .bout-pair .mini:first-child").evaluate_all(
                "cards => cards.map((c) => c.textContent)")
            assert shown == [card_text(pair["attack"]) for pair in ended]
            assert page.locator("#table.ended").count() == (1 if ended else 0)
            assert page.inner_text("#recent") == ""
            assert (page.get_attribute("#trump-card", "data-card") or "")[1:] == match["previous"]["trump"]
            assert page.locator("#review-button").is_visible()  # the game just ended (the API's game=n)
            assert page.locator("#review-game").is_hidden()  # no choice until the match is over
            assert page.locator("#new-game-over").is_hidden()
            if betweens == 1:
                assert axe_findings(page) == []  # the between-games screen
            assert page.locator("#moves button").count() == 0  # nothing to play until the next game
            page.click("#next-game")
            page.wait_for_function(IDLE)
            assert page.locator("#over").is_hidden()
            assert page.inner_text("#match-title") == page_words(page, "match", n=betweens + 1, of=3)
            continue
        if page.locator("#over").is_visible():
            break
        _play_one(page, rng)
    assert betweens == 2 and page.inner_text("#status") == page_words(page, "matchOver")
    match = seat_view(page, server)["match"]
    winners = match["winners"]
    title = page.inner_text("#over-title")
    if winners == [0]:
        assert title == page_words(page, "matchWonYou")
    elif len(winners) == 1:
        assert title == page_words(page, "matchWon", name=seat_words(page, winners[0]))
    else:
        assert title == page_words(page, "matchShared", names=", ".join(seat_words(page, s) for s in winners))
    assert page_words(page, "previousGame", n=3, what="") in page.inner_text("#over-detail")
    assert tributes >= 1  # this deal and these moves owe one (a loser holding a trump)
    _review_an_earlier_game(page, server)
    assert errors == []
    page.close()


SETUP_ACTIONS = {"redeal", "keep", "pick", "swap"}  # decisions before the first lead: not reviewed


def _review_an_earlier_game(page: Page, server: Server) -> None:
    """Once the match is over the chooser offers its games, the last one chosen; game 1 chosen, the
    review is of game 1: seat 0's play-phase moves of that game, in order, under its title."""
    history = seat_view(page, server)["history"]
    played = sorted({entry["game"] for entry in history})
    choice = page.locator("#review-game")
    assert choice.is_visible()
    assert axe_findings(page) == []  # the match's end, with its chooser
    offered = choice.locator("option").evaluate_all("options => options.map((o) => o.value)")
    assert offered == [str(n) for n in played]
    assert choice.input_value() == str(played[-1])
    assert played[0] == 1 and played[-1] == 3
    choice.select_option("1")
    page.click("#review-button")
    page.wait_for_selector("#review:not([hidden])")
    page.wait_for_function(IDLE)
    assert page.inner_text("#review-title") == page_words(page, "reviewTitleGame", n=1)
    assert axe_findings(page) == []
    mine = [entry["move"] for entry in history
            if entry["game"] == 1 and entry["seat"] == 0 and entry["move"]["action"] not in SETUP_ACTIONS]
    expected = page.evaluate(
        "async (moves) => { const { moveText } = await import('/static/js/cards.js');"
        " return moves.map(moveText); }", mine)
    cells = page.locator("#review-rows tr td:nth-child(2)")
    shown = cells.evaluate_all("cells => cells.map((c) => c.textContent)")
    assert shown == expected and len(shown) >= 3
    # The arrows step through the decisions that were a choice: forced moves are skipped.
    rows = page.locator("#review-rows tr").evaluate_all("rows => rows.map((r) => r.className)")
    choices = [at for at, cls in enumerate(rows) if "label-forced" not in cls] or [0]
    assert page.locator("#review-rows tr").nth(choices[0]).get_attribute("aria-current") == "step"
    page.keyboard.press("ArrowRight")
    second = choices[min(1, len(choices) - 1)]
    assert page.locator("#review-rows tr").nth(second).get_attribute("aria-current") == "step"
    page.keyboard.press("Escape")
    assert page.locator("#review").is_hidden() and page.locator("#over").is_visible()


def _dock_top(page: Page) -> float:
    return float(page.evaluate(
        "(() => { const d = document.getElementById('dock');"
        " return getComputedStyle(d).position === 'fixed' ? d.getBoundingClientRect().top : innerHeight; })()"
    ))


@pytest.mark.parametrize("players", [4, pytest.param(6, marks=pytest.mark.long)])
def test_on_a_phone_the_card_to_answer_is_in_view_at_every_defence(
    browser: Browser, server: Server, players: int
) -> None:
    """Durak with 4 and 6 seats at 390×844 (Vietnamese), played by keys: whenever seat 0 is to
    defend, every card it must answer lies in the window above the hand dock (bounding boxes)."""
    errors: list[str] = []
    page = open_page(browser, server, PHONE, errors)
    start_game(page, server, "vi", seed=31 + players, preset="durak", players=players)
    defences = 0
    for _ in range(300):
        page.wait_for_function(IDLE)
        if page.locator("#over").is_visible():
            break
        view = seat_view(page, server)
        position = view["position"]
        if position["to_move"] == 0 and position["defender"] == 0 and position.get("phase", "play") == "play":
            bottom = _dock_top(page)
            attacks = page.locator("#table .pair.undefended .attack")
            if attacks.count():
                defences += 1
            for index in range(attacks.count()):
                box = attacks.nth(index).bounding_box()
                assert box is not None
                assert box["y"] >= 0 and box["y"] + box["height"] <= bottom + 0.5, (box, bottom)
        page.keyboard.press("1")
    assert defences >= 1
    assert errors == []
    page.close()


def test_a_phone_held_sideways_shows_the_table_and_the_hand(browser: Browser, server: Server) -> None:
    """At 844×390 the table and the hand are both in the window."""
    errors: list[str] = []
    page = open_page(browser, server, LANDSCAPE, errors)
    start_game(page, server, "en", seed=12, preset="durak", players=4)
    height = LANDSCAPE["height"]
    board = page.locator(".board").bounding_box()
    card = page.locator("#hand button.card").first.bounding_box()
    assert board is not None and card is not None
    assert board["y"] >= 0 and board["y"] + board["height"] <= height, board
    assert card["y"] >= 0 and card["y"] + card["height"] <= height, card
    assert errors == []
    page.close()


def test_a_defence_that_beat_every_card_says_pass_lets_it_stand(browser: Browser, server: Server) -> None:
    """Take when beaten (ôm khi đã đỡ): once every card on the table is beaten and seat 0 is still to
    move, the status says that pass lets the defence stand (not "beat the card … or take")."""
    errors: list[str] = []
    page = open_page(browser, server, DESKTOP, errors)
    start_game(page, server, "en", seed=5, preset="tan", side_rules=("take_when_beaten",))
    found = False
    for _ in range(300):
        page.wait_for_function(IDLE)
        if page.locator("#over").is_visible():
            break
        position = seat_view(page, server)["position"]
        table = position["table"]
        beaten = bool(table) and all(pair["defense"] for pair in table)
        if position["to_move"] == 0 and position["defender"] == 0 and beaten:
            status = page.inner_text("#status")
            assert status.startswith("You have beaten every card: pass lets your defence stand"), status
            assert page.locator("#pass-button:not([disabled])").count() == 1
            found = True
            break
        moves = seat_view(page, server)["legal_moves"]
        defend = next((m for m in moves if m["action"] == "defend"), None)
        if defend is not None:
            index = moves.index(defend)
            page.keyboard.press(str(index + 1) if index < 9 else "0")
        else:
            page.keyboard.press("1")
    assert found
    assert errors == []
    page.close()


# A 2-game tan match, seed 3, with redeal, tribute and trump swap: taking whenever it may (else its
# first legal move), seat 0 loses game 1 on its own 43rd move, a take, and game 2's deal opens with
# seat 0's own decision (redeal or keep): no engine move of game 2 comes with the answer.
SKIPPED_MATCH = {
    "rules": {"preset": "tan", "redeal_without_trump": True, "tribute": True, "trump_swap": True},
    "seats": ["human", "greedy"], "seed": 3, "match": {"games": 2},
}


@pytest.mark.parametrize("viewport", [PHONE, pytest.param(DESKTOP, marks=pytest.mark.long)])
def test_a_match_game_lost_on_your_own_move_shows_its_result_before_your_decision(
    browser: Browser, server: Server, viewport: dict[str, int]
) -> None:
    """The game that ended comes first: its between-games screen (its result, its last bout on its
    own table and trump card), no setup decision offered; "Next game" then deals the next game with
    the decision."""
    created = httpx.post(server.url + "/v1/games", json=SKIPPED_MATCH, timeout=120.0)
    assert created.status_code == 201, created.text
    game_id, token = created.json()["id"], created.json()["tokens"][0]
    auth = {"Authorization": f"Bearer {token}"}
    answer = created.json()["game"]
    for _ in range(43):  # up to the take that ends game 1, played through the API (its setup keep included)
        takes = [move for move in answer["legal_moves"] if move["action"] == "take"]
        played = takes[0] if takes else answer["legal_moves"][0]
        reply = httpx.post(f"{server.url}/v1/games/{game_id}/moves", json={"seat": 0, "move": played},
                           headers=auth, timeout=120.0)
        assert reply.status_code == 200, reply.text
        answer = reply.json()
    assert answer["match"]["game"] == 1 and {"action": "take"} in answer["legal_moves"]
    trump = answer["position"]["trump"]
    errors: list[str] = []
    page = open_page(browser, server, viewport, errors)
    page.goto(server.url + "/")
    page.select_option("#lang", "vi")
    page.evaluate("saved => localStorage.setItem('tan.game', JSON.stringify(saved))",
                  {"id": game_id, "token": token})
    page.reload()
    page.wait_for_selector("#game:not([hidden])")
    page.wait_for_function(IDLE)
    page.click("#take-button")
    page.wait_for_function(IDLE)

    view = seat_view(page, server)
    assert view["match"]["game"] == 2 and view["legal_moves"], "the next deal opens with seat 0's decision"
    assert page.locator("#next-game").is_visible()
    assert page_words(page, "gameEnded", n=1, of=2) in page.inner_text("#over-title")
    assert page.locator("#setup-buttons button:visible").count() == 0
    assert page.get_attribute("#trump-card", "data-card") == trump, "game 1's table, not the next deal's"
    page.click("#next-game")
    page.wait_for_function(IDLE)
    assert page.locator("#over").is_hidden()
    assert page.locator("#setup-buttons button:visible").count() == len(view["legal_moves"])
    assert errors == []
    page.close()
