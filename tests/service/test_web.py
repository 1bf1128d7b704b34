"""The web page at `/`, driven in Debian's headless chromium through Playwright.

A real `tan serve` on a free loopback port, a temporary database, a 2-seat
`durak` game against the `greedy` engine played to the end by clicking cards
and buttons, a hint with its bars, the language switch, an error shown on the
page, and screenshots (desktop and phone width). Set `TAN_WEB_SCREENSHOTS` to a
folder to keep the screenshots; by default they go to the test's temporary folder.
The helpers and fixtures are in tests/support/web.py.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import pytest

from solver.game.rules import Rules
from tests.support.games import ordered_deck
from tests.support.records import ENDGAME_DECK
from tests.support.service import finished_job
from tests.support.web import (
    DESKTOP,
    IDLE,
    PHONE,
    Server,
    browser_fixture,
    open_page,
    seat_view,
    server_fixture,
    shots_fixture,
    start_game,
)

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.browser

server = pytest.fixture(scope="module")(server_fixture)
browser = pytest.fixture(scope="module")(browser_fixture)
shots = pytest.fixture(shots_fixture)
_page = open_page
_start = start_game


CERTAIN = {"certain win", "certain draw", "certain loss"}


def _check_hint(page: Page) -> None:
    """Ask for a hint (key H) and check its rows against the API's numbers: best first by win chance,
    numbered for the digit keys, a bar as long as the chance, the chance in words (a percentage, or
    the proven outcome), and the search's figures only in the tooltip."""
    legal = page.locator("#moves button").count()
    page.keyboard.press("h")
    page.wait_for_selector("#hint-moves .hint-move")
    page.wait_for_function(IDLE)
    rows = page.locator("#hint-moves .hint-move")
    assert 1 <= rows.count() <= legal
    assert "%" in page.inner_text("#evaluation") or page.get_attribute("#evaluation", "data-exact") == "true"
    scores = [float(rows.nth(i).get_attribute("data-score") or "nan") for i in range(rows.count())]
    assert scores == sorted(scores, reverse=True)
    for index in range(rows.count()):
        row = rows.nth(index)
        score = scores[index]
        assert 0.0 <= score <= 1.0
        digit = "0" if index == 9 else str(index + 1) if index < 9 else ""
        assert row.locator(".num").inner_text() == digit
        width = row.locator(".bar .fill").evaluate("el => parseFloat(el.style.width)")
        assert width == pytest.approx(score * 100, abs=0.1)
        if row.get_attribute("data-exact") == "true":
            assert row.locator(".pct").inner_text() in CERTAIN
        else:
            assert row.locator(".pct").inner_text() == f"{round(score * 100)}%"
        title = row.get_attribute("title") or ""
        assert title  # the interval and the tries, in a tooltip
        for line in title.split("\n")[1:]:  # then the line the search expects: the move first
            assert line.startswith(f"You: {row.locator('.what').inner_text()} → "), line
    text = page.inner_text("#hint-panel").lower()
    assert not any(word in text for word in ("ismcts", "interval", "visits", "iterations", "proven"))
    assert rows.first.get_attribute("class").split().count("best") == 1


def _cards_left(page: Page) -> int:
    """Cards in every hand: ours and the opponents' counts."""
    counts = page.locator("#opponents .count").all_inner_texts()
    return page.locator("#hand button.card").count() + sum(int(text.split()[0]) for text in counts)


def _play_one(page: Page, rng: random.Random) -> None:
    """One move by clicking: a highlighted card (answering the chooser if it asks), or take / pass."""
    chooser = page.locator("#chooser:not([hidden]) #chooser-options button")
    if chooser.count():
        chooser.nth(rng.randrange(chooser.count())).click()
        return
    cards = page.locator("#hand button.card.legal:not([disabled])")
    buttons = page.locator("#take-button:not([disabled]), #pass-button:not([disabled])")
    options = [cards.nth(i) for i in range(cards.count())] + [buttons.nth(i) for i in range(buttons.count())]
    assert options, "no legal card or button while it is our turn"
    options[rng.randrange(len(options))].click()


@pytest.mark.long
def test_play_a_whole_game_with_hints_in_the_browser(browser: Browser, server: Server, shots: Path) -> None:
    errors: list[str] = []
    page = _page(browser, server, DESKTOP, errors)
    _start(page, server, "en", seed=11)

    # The table as seat 0 sees it; the seed (it deals every hand) only at the end.
    assert "deal number" not in page.inner_text("#game-info") and page.locator("#replay").is_hidden()
    assert page.locator("#hand button.card").count() == 6
    assert page.locator("#opponents .opponent").count() == 1
    assert page.inner_text("#stock-count") == "24"
    assert page.locator("#trump-card").get_attribute("data-card")
    assert page.locator("#hand button.card.legal").count() > 0 or page.locator("#moves button").count() > 0
    red = page.locator("#hand .card.red").first
    if red.count():
        assert red.evaluate("el => getComputedStyle(el).color") == "rgb(198, 40, 40)"

    _check_hint(page)
    page.screenshot(path=str(shots / "web-hint.png"), full_page=True)
    # Clicking a hinted move plays it: the history grows by it.
    before = page.locator("#history li").count()
    page.locator("#hint-moves .hint-move").first.click()
    page.wait_for_function(IDLE)
    assert page.locator("#history li").count() > before
    assert page.locator("#hint-panel").is_hidden()

    rng = random.Random(5)
    clicks = 0
    endgame_hint = False
    while page.locator("#over").is_hidden():
        if not endgame_hint and page.inner_text("#stock-count") == "0" and _cards_left(page) <= 8:
            # Two seats and an empty stock: nothing is hidden, so the hint is proven.
            _check_hint(page)
            assert page.get_attribute("#evaluation", "data-exact") == "true"
            rows = page.locator("#hint-moves .hint-move")
            assert rows.count() == page.locator("#hint-moves .hint-move[data-exact='true']").count()
            assert page.locator("#hint-moves .pct.certain").count() == rows.count()
            # Each proven move's line, in its tooltip (docs/api.md §3 "Lines").
            assert any("\nYou: " in (rows.nth(i).get_attribute("title") or "") for i in range(rows.count()))
            page.screenshot(path=str(shots / "web-proven.png"), full_page=True)
            endgame_hint = True
        _play_one(page, rng)
        page.wait_for_function(IDLE)
        assert page.locator("#message").is_hidden(), page.inner_text("#message")
        clicks += 1
        if clicks == 4:
            page.keyboard.press("1")  # a digit picks a legal move
            page.wait_for_function(IDLE)
        assert clicks < 400, "the game did not end"

    assert endgame_hint, "the game ended before a hint with an empty stock"
    result = page.inner_text("#over-title")
    assert any(word in result for word in ("You win", "You lose", "Draw"))
    assert page.locator("#scores tr").count() == 2
    assert page.locator("#history li").count() > clicks
    assert page.inner_text("#status") == "Game over."
    assert "deal number 11" in page.inner_text("#game-info") and page.locator("#replay").is_visible()
    page.screenshot(path=str(shots / "web-over.png"), full_page=True)

    # Vietnamese labels, remembered across a reload (the game comes back from localStorage).
    page.select_option("#lang", "vi")
    assert page.inner_text("#take-button span") == "Ôm"
    assert page.inner_text("#status") == "Hết ván."
    page.reload()
    page.wait_for_selector("#game:not([hidden])")
    assert page.inner_text("#pass-button span") == "Bỏ qua"
    assert "Chủ" in page.inner_text("#deck-info")
    page.select_option("#lang", "en")
    assert page.inner_text("#take-button span") == "Take"

    # A new game from the game-over view.
    page.click("#new-game-over")
    assert page.locator("#setup").is_visible() and page.locator("#game").is_hidden()
    page.click("#back-to-game")
    assert page.locator("#over").is_visible()
    page.keyboard.press("n")
    assert page.locator("#setup").is_visible()
    assert errors == []
    page.close()


def test_phone_width_errors_and_keys(browser: Browser, server: Server, shots: Path) -> None:
    errors: list[str] = []
    page = _page(browser, server, PHONE, errors)
    created: list[Any] = []
    page.on("request", lambda request: created.append(request.post_data_json)
            if request.method == "POST" and request.url.endswith("/v1/games") else None)
    _start(page, server, "vi", seed=None)
    assert len(created) == 1 and "seed" not in created[0]  # the server draws it
    assert page.inner_text("#hint-button span") == "Gợi ý"
    # Nothing is wider than the phone's screen.
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.keyboard.press("h")
    page.wait_for_selector("#hint-moves .hint-move")
    page.wait_for_function(IDLE)
    page.screenshot(path=str(shots / "web-phone.png"), full_page=True)

    # An API error is shown, not swallowed: a saved game whose id the server does not know.
    page.evaluate(
        "localStorage.setItem('tan.game', JSON.stringify({id: 'nosuchgame', token: 'x', seed: 1}))"
    )
    page.reload()
    page.wait_for_selector("#message:not([hidden])")
    assert page.get_attribute("#message", "data-code") == "not_found"
    assert page.inner_text("#message-text") == "Ván đã lưu không còn trên máy chủ."
    assert page.locator("#setup").is_visible()
    # A bad seed is refused in the page, visibly.
    page.click("#advanced > summary")
    page.fill("#seed", "-4")
    page.click("#start")
    assert "Mã ván" in page.inner_text("#message-text")  # the seed, in Vietnamese
    page.fill("#seed", str(2**63))
    page.click("#start")
    assert "Mã ván" in page.inner_text("#message-text")  # beyond the API's seeds
    # The largest seed goes to the server digit for digit (a JavaScript number would round it).
    sent: list[str] = []
    page.on("request", lambda request: sent.append(request.post_data or "")
            if request.method == "POST" and request.url.endswith("/v1/games") else None)
    page.fill("#seed", str(2**63 - 1))
    page.click("#start")
    page.wait_for_selector("#game:not([hidden])")
    assert sent and sent[-1].startswith(f'{{"seed":{2**63 - 1},')
    assert [e for e in errors if "404" not in e] == []
    page.close()


def _deck(top: list[str]) -> list[str]:
    """A 36-card deck beginning with `top` (dealt one card at a time, seat 0 first; then the trump card)."""
    rest = [rank + suit for suit in "shdc" for rank in "6789TJQKA" if rank + suit not in top]
    return top + rest


def test_transfer_and_choosing_which_card_to_beat(browser: Browser, server: Server, shots: Path) -> None:
    # Seat 0 holds 6h 7h 9s 9c 9d Ts, seat 1 the other sixes and sevens; hearts are trump and seat 1
    # leads: greedy attacks 6s, and our 6h can beat it or transfer it.
    deal = ["6h", "6s", "7h", "6c", "9s", "6d", "9c", "7s", "9d", "7c", "Ts", "7d", "Ah"]
    request = {"rules": "perevodnoy", "seats": ["human", "greedy"], "deck": _deck(deal), "first_attacker": 1}
    created = httpx.post(server.url + "/v1/games", json=request, timeout=120.0)
    assert created.status_code == 201, created.text
    saved = {"id": created.json()["id"], "token": created.json()["tokens"][0]}

    errors: list[str] = []
    page = _page(browser, server, DESKTOP, errors)
    page.goto(server.url + "/")
    page.select_option("#lang", "en")
    # The page takes up a game kept in localStorage.
    page.evaluate("saved => localStorage.setItem('tan.game', JSON.stringify(saved))", saved)
    page.reload()
    page.wait_for_selector("#game:not([hidden])")
    page.wait_for_function(IDLE)
    assert page.locator("#table .card.attack").get_attribute("data-card") == "6s"
    assert page.locator("#transfer-button").is_visible()
    assert "transfer" in page.inner_text("#status")
    assert page.locator("#hand .suit-group.trumps button.card").count() == 2  # 6h and 7h, apart

    # 6h can beat 6s or transfer it: the page asks.
    page.click("#hand button[data-card='6h']")
    options = page.locator("#chooser-options button")
    assert sorted(options.all_inner_texts()) == ["beat 6♠", "transfer 6♥"]
    page.keyboard.press("Escape")
    assert page.locator("#chooser").is_hidden()

    # C transfers (one transfer is legal); greedy transfers back with 6d: three cards to beat.
    page.keyboard.press("c")
    page.wait_for_function(IDLE)
    assert page.locator("#table .pair.undefended").count() == 3
    page.click("#hand button[data-card='7h']")
    assert page.locator("#chooser-options button").count() == 3
    assert "Beat which card" in page.inner_text("#chooser-title")
    targets = page.locator("#table button.card.target")
    assert targets.count() == 3
    page.screenshot(path=str(shots / "web-choose.png"), full_page=True)
    page.click("#table button.card.target[data-card='6h']")  # pick the target on the table
    page.wait_for_function(IDLE)
    assert page.locator("#history li").last.inner_text().endswith("beat 6♥ with 7♥")
    assert page.locator("#table .card.defense").get_attribute("data-card") == "7h"
    assert errors == []
    page.close()


def test_a_seat_asked_with_nothing_to_decide_keeps(browser: Browser, server: Server) -> None:
    """Under xả chủ and đổi 2 chủ every seat is asked (docs/rules.md §1.7): seat 0 holds a trump and
    not the lowest, so the page says it has nothing to decide and offers keep alone, twice."""
    rules = {"preset": "tan", "redeal_without_trump": True, "trump_swap": True}
    hands = [["3h", "3s", "4s", "5s", "6s", "7s", "8s", "9s"],
             ["2h", "3c", "4c", "5c", "6c", "7c", "8c", "9c"]]
    deck = ordered_deck(Rules.from_json(rules), hands, "Kh")
    request = {"rules": rules, "seats": ["human", "greedy"], "deck": deck, "first_attacker": 0}
    created = httpx.post(server.url + "/v1/games", json=request, timeout=120.0)
    assert created.status_code == 201, created.text
    saved = {"id": created.json()["id"], "token": created.json()["tokens"][0]}
    errors: list[str] = []
    page = _page(browser, server, DESKTOP, errors)
    page.goto(server.url + "/")
    page.select_option("#lang", "en")
    page.evaluate("saved => localStorage.setItem('tan.game', JSON.stringify(saved))", saved)
    page.reload()
    page.wait_for_selector("#game:not([hidden])")
    for words in ("You hold a trump", "You do not hold the lowest trump"):
        page.wait_for_function(IDLE)
        assert page.locator("#setup-panel").is_visible()
        assert words in page.inner_text("#setup-text")
        assert page.locator("#setup-buttons button").all_inner_texts() == ["keep"]
        page.locator("#setup-buttons button").click()
    page.wait_for_function(IDLE)
    assert page.locator("#setup-panel").is_hidden()  # the engine kept or swapped: play begins
    assert errors == []
    page.close()


def test_the_api_manual_renders_offline(browser: Browser, server: Server, shots: Path) -> None:
    """/docs (Swagger UI) draws every route from local files, with no outside fetch."""
    errors: list[str] = []
    page = _page(browser, server, DESKTOP, errors)
    page.goto(server.url + "/docs")
    page.wait_for_selector(".opblock-summary-path")
    paths = page.locator(".opblock-summary-path").all_inner_texts()
    assert any("/v1/hint" in path for path in paths) and any("/v1/games" in path for path in paths)
    page.screenshot(path=str(shots / "web-docs.png"))
    assert errors == []
    page.close()


@pytest.mark.long
def test_a_match_with_trump_swap_and_tribute_through_the_page(
    browser: Browser, server: Server, shots: Path
) -> None:
    """Two games of tan with trump swap and tribute: seat 0 is dealt the 2 of trumps (seed 3), so the
    page offers the swap as buttons with hints; then the match panel keeps the standings across the
    games, and the end shows them."""
    errors: list[str] = []
    page = _page(browser, server, DESKTOP, errors)
    page.goto(server.url + "/")
    page.select_option("#lang", "en")
    page.select_option("#preset", "tan")
    page.select_option("#players", "2")
    page.check("#level-easy")
    page.click("#advanced > summary")
    page.check("#side-rules input[name=trump_swap]")
    page.check("#side-rules input[name=tribute]")
    page.fill("#games", "2")
    page.fill("#seed", "3")
    page.click("#start")
    page.wait_for_selector("#game:not([hidden])")
    page.wait_for_function(IDLE)

    assert page.locator("#setup-panel").is_visible()
    assert "lowest trump" in page.inner_text("#setup-text")
    buttons = page.locator("#setup-buttons button")
    assert sorted(buttons.all_inner_texts()) == ["keep", "swap for the trump card"]
    page.keyboard.press("h")
    page.wait_for_selector("#hint-moves .hint-move")
    page.wait_for_function(IDLE)
    assert page.locator("#hint-moves .hint-move").count() == 2
    assert page.inner_text("#match-title") == "Match: game 1 of 2"
    page.screenshot(path=str(shots / "web-match-setup.png"), full_page=True)
    page.locator("#setup-buttons button", has_text="swap").click()
    page.wait_for_function(IDLE)
    assert page.locator("#setup-panel").is_hidden()
    assert page.inner_text("#trump-suit").endswith("(2♥)")  # the 2 is the trump card now

    rng = random.Random(8)
    seen_second = False
    for _ in range(800):
        if page.locator("#over").is_visible() and page.locator("#next-game").is_hidden():
            break
        if page.inner_text("#match-title") == "Match: game 2 of 2":
            seen_second = True
        if page.locator("#next-game").is_visible():  # the between-games screen
            page.click("#next-game")
        elif page.locator("#setup-panel").is_visible() and page.locator("#setup-buttons button").count():
            page.locator("#setup-buttons button").first.click()
        else:
            _play_one(page, rng)
        page.wait_for_function(IDLE)
        assert page.locator("#message").is_hidden(), page.inner_text("#message")
    assert seen_second and page.locator("#over").is_visible()
    assert page.inner_text("#status") == "Match over."
    rows = page.locator("#standings tr")
    assert rows.count() == 2
    played = sum(int(text) for text in page.locator("#standings tr td:nth-child(2)").all_inner_texts())
    played += sum(int(text) for text in page.locator("#standings tr td:nth-child(4)").all_inner_texts())
    assert played >= 1
    assert "Game 2" in page.inner_text("#match-previous")
    page.screenshot(path=str(shots / "web-match-over.png"), full_page=True)

    # The match's last game, reviewed and written as text (its record says which game it was).
    page.click("#review-button")
    page.wait_for_selector("#review:not([hidden])")
    page.wait_for_function(IDLE)
    assert page.locator("#review-progress").is_hidden() and page.locator("#review-rows tr").count() >= 1
    page.click("#review-close")
    page.click("#text-button")
    page.wait_for_selector("#game-text-area")
    text = page.input_value("#game-text-area")
    assert '[Match "game 2, dealer ' in text and '[Date "' in text
    assert errors == []
    page.close()


@pytest.mark.long
def test_review_a_finished_game_step_by_step(browser: Browser, server: Server, shots: Path) -> None:
    """At game over the page reviews seat 0's decisions (a job: POST /v1/games/{id}/analysis, its
    progress shown while it runs): the table and
    hand as they were, the move played, the engine's choice, the cost and the verdict, stepping with
    buttons, arrow keys and the table's rows; Esc closes it. The game is the hand-made deal of
    tests/support/records.py, played by pressing 1 (the first legal move) until it ends."""
    request = {"rules": "durak", "seats": ["human", "greedy"], "deck": ENDGAME_DECK, "first_attacker": 0}
    created = httpx.post(server.url + "/v1/games", json=request, timeout=120.0)
    assert created.status_code == 201, created.text
    game_id, token = created.json()["id"], created.json()["tokens"][0]

    errors: list[str] = []
    page = _page(browser, server, DESKTOP, errors)
    page.goto(server.url + "/")
    page.select_option("#lang", "en")
    page.evaluate(
        "saved => localStorage.setItem('tan.game', JSON.stringify(saved))", {"id": game_id, "token": token}
    )
    page.reload()
    page.wait_for_selector("#game:not([hidden])")
    page.wait_for_function(IDLE)
    assert page.locator("#review-button").is_hidden()  # only once the game is over
    for _ in range(120):
        if page.locator("#over").is_visible():
            break
        page.keyboard.press("1")
        page.wait_for_function(IDLE)
        assert page.locator("#message").is_hidden(), page.inner_text("#message")
    assert page.locator("#over").is_visible()

    # The game as text (docs/notation.md): the stored record's, as GET …/record?format=text answers it.
    assert page.locator("#text-button").is_visible() and page.locator("#game-text").is_hidden()
    page.click("#text-button")
    page.wait_for_selector("#game-text-area")
    stored = httpx.get(f"{server.url}/v1/games/{game_id}/record", params={"seat": 0, "format": "text"},
                       headers={"Authorization": f"Bearer {token}"}, timeout=120.0)
    assert page.input_value("#game-text-area") == stored.text and stored.text.startswith('[Rules "durak"]')
    assert page.get_attribute("#game-text a[download]", "download") == "tan-game.txt"

    assert page.inner_text("#review-button") == "Review this game"
    page.click("#review-button")
    page.wait_for_selector("#review:not([hidden])")
    page.wait_for_function(IDLE)
    assert page.locator("#over").is_hidden()
    assert page.locator("#review-progress").is_hidden()  # the job is done
    # The same review as the API's job (same seed and iteration budget: a review job repeats).
    queued = httpx.post(
        f"{server.url}/v1/games/{game_id}/analysis",
        params={"seat": 0, "iterations": 5000},
        headers={"Authorization": f"Bearer {token}"},
        timeout=120.0,
    )
    with httpx.Client(base_url=server.url, timeout=120.0) as http:
        job = finished_job(http, queued)
    assert job["status"] == "done", job
    moves = job["result"]["moves"]
    assert len(moves) >= 3 and page.locator("#review-rows tr").count() == len(moves)

    def shows(at: int) -> None:
        """The page shows decision `at`: its step, verdict, moves and the hand as it was then."""
        move = moves[at]
        assert page.inner_text("#review-step").startswith(f"Review: your move {at + 1} of {len(moves)}")
        assert page.get_attribute("#review-detail", "data-label") == move["label"]
        assert f"move {move['ply'] + 1} of the game" in page.inner_text("#review-step")
        detail = page.inner_text("#review-detail")
        assert "You played:" in detail and "Engine's choice:" in detail
        hand = page.locator("#hand button.card").evaluate_all("cards => cards.map(c => c.dataset.card)")
        assert sorted(hand) == sorted(move["position"]["hand"])
        if move["move"].get("card"):
            assert page.locator(f"#hand button.card.played[data-card='{move['move']['card']}']").count() == 1
        table = page.locator("#table .card.attack").evaluate_all("cards => cards.map(c => c.dataset.card)")
        assert table == [pair["attack"] for pair in move["position"]["table"]]
        assert page.inner_text("#stock-count") == str(move["position"]["stock"])
        assert page.locator("#review-rows tr.current").count() == 1
        assert page.locator("#review-rows tr").nth(at).get_attribute("aria-current") == "step"

    # Previous / Next step through the decisions that were a choice: forced moves are skipped.
    choices = [at for at, move in enumerate(moves) if move["label"] != "forced"]
    assert len(choices) >= 3
    shows(choices[0])
    assert page.locator("#review-prev").is_disabled()
    page.screenshot(path=str(shots / "web-review.png"), full_page=True)
    page.keyboard.press("ArrowRight")
    shows(choices[1])
    page.keyboard.press("ArrowLeft")
    shows(choices[0])
    page.focus("#review-next")
    page.keyboard.press("Enter")  # the buttons work from the keyboard too
    shows(choices[1])
    page.keyboard.press("End")
    shows(len(moves) - 1)
    page.locator("#review-rows tr").nth(choices[-1]).locator("button").click()
    shows(choices[-1])
    assert page.locator("#review-next").is_disabled()
    page.click("#review-prev")
    shows(choices[-2])
    page.locator("#review-rows tr").nth(0).locator("button").click()
    shows(0)
    assert str(len(moves)) in page.inner_text("#review-summary")

    page.keyboard.press("Escape")
    assert page.locator("#review").is_hidden() and page.locator("#over").is_visible()
    assert page.inner_text("#status") == "Game over."
    # In Vietnamese, and opened again without a second request.
    page.select_option("#lang", "vi")
    assert page.inner_text("#review-button") == "Xem lại ván"
    page.click("#review-button")
    assert page.locator("#review").is_visible()
    assert page.inner_text("#review-title") == "Xem lại ván"
    assert page.inner_text("#review-step").startswith(f"Xem lại: nước 1/{len(moves)} của bạn")
    page.screenshot(path=str(shots / "web-review-vi.png"), full_page=True)
    assert errors == []
    page.close()



def _check_tracker(page: Page, server: Server) -> dict[str, Any]:
    """Once the tracker is up to date, it shows what the API answers for the view shown: the cards
    gone (the board's discard too), the cards known in the opponent's hand, and its four likeliest
    unseen cards best first, each with a text alternative (or, all alike, that they are)."""
    page.wait_for_selector("#tracker-panel:not(.stale)")
    answer = seat_view(page, server, "/tracker")
    plies = page.locator("#history li").count()
    assert page.get_attribute("#tracker-panel", "data-plies") == str(plies)
    gone = page.locator("#tracker-gone .mini").all_inner_texts()
    assert len(gone) == len(answer["gone"]) == int(page.inner_text("#discard-count"))
    board = page.locator("#discard-cards .mini").evaluate_all("cards => cards.map(c => c.textContent)")
    assert sorted(gone) == sorted(board)  # the board's list, folded away by default
    assert f"({len(gone)})" in page.inner_text("#tracker-gone-title")
    stock = int(page.inner_text("#stock-count"))
    assert f"Stock: {stock} {'card' if stock == 1 else 'cards'}" in page.inner_text("#tracker-status")
    seat = page.locator("#tracker-seats .tracker-seat[data-seat='1']")
    assert seat.locator("h3").inner_text().startswith("Seat 1 ·")
    known = answer["known"]["1"]
    if known:
        assert len(seat.locator(".tracker-known .mini").all_inner_texts()) == len(known)
    chances = [(row[1], card) for card, row in answer["cards"].items() if row[1] > 0]
    items = seat.locator(".likely .chance")
    shown = [items.nth(i).get_attribute("data-card") for i in range(items.count())]
    hidden = len(known) < int(seat.locator("h3").inner_text().split("·")[1].split()[0])
    if hidden and answer["beliefs"] not in ("weighted", "tempered"):
        # Nothing weighed tells one unseen card from another: said in a line, no list of equals.
        assert shown == [] and "Each card you have not seen:" in seat.inner_text()
    elif hidden:
        # The four likeliest, however likely (no floor that early bouts never reach).
        rows = sorted(chances, key=lambda pair: -pair[0])[:4]
        assert shown == [card for _chance, card in rows]
        for index, (chance, _card) in enumerate(rows):
            item = items.nth(index)
            assert f"{round(chance * 100)}%" in item.inner_text()
            assert item.locator(".sr-label").inner_text()  # the card's name and chance in words
    return answer


@pytest.mark.long
def test_the_card_tracker_follows_the_game(browser: Browser, server: Server, shots: Path) -> None:
    """The tracker panel updates after every move (cards gone, the opponent's known and likeliest
    cards, the stock), drops an answer that comes back for a view no longer shown, folds and stays
    folded, speaks Vietnamese, and fits a phone."""
    errors: list[str] = []
    page = _page(browser, server, DESKTOP, errors)
    _start(page, server, "en", seed=11)
    assert page.inner_text("#tracker-title") == "Card tracker"
    first = _check_tracker(page, server)
    assert first["gone"] == [] and "No card discarded yet." in page.inner_text("#tracker-panel")

    rng = random.Random(3)
    notes = set()
    for _ in range(60):
        if page.locator("#over").is_visible() or page.locator("#tracker-gone .mini").count() >= 4:
            break
        _play_one(page, rng)
        page.wait_for_function(IDLE)
        assert page.locator("#message").is_hidden(), page.inner_text("#message")
        _check_tracker(page, server)
        notes.add(page.inner_text("#tracker-note"))
    assert page.locator("#tracker-gone .mini").count() >= 2, "no bout was beaten off"
    assert "Chances estimated from the moves your opponents made." in notes
    page.screenshot(path=str(shots / "web-tracker.png"), full_page=True)

    # An answer for a view no longer shown is dropped: hold two tracker requests, let the older
    # one through first, then the newer one; only the newer is ever shown.
    held: list[Any] = []
    page.route("**/tracker?*", lambda route: held.append(route))
    page.evaluate(
        """() => {
          window.shownPlies = [];
          const panel = document.getElementById('tracker-panel');
          new MutationObserver(() => window.shownPlies.push(panel.dataset.plies))
            .observe(panel, {attributes: true, attributeFilter: ['data-plies']});
        }"""
    )
    asked: list[str] = []  # the moves seen by each held request's view
    for count in (1, 2):
        with page.expect_request("**/tracker?*"):
            page.locator("#moves button").first.click()  # a legal move, played at once
            page.wait_for_function(IDLE)
        asked.append(str(page.locator("#history li").count()))
        for _ in range(1000):
            if len(held) == count:
                break
            page.evaluate("0")  # lets Playwright run the route handler
        assert len(held) == count
    assert page.locator("#over").is_hidden()
    assert "stale" in page.get_attribute("#tracker-panel", "class").split()
    assert page.inner_text("#tracker-status") == "Updating…"
    # While it updates, the pile shown is the board's, never the last answer's count.
    assert page.locator("#tracker-gone .mini").count() == int(page.inner_text("#discard-count"))
    assert page.locator("#tracker-seats .tracker-seat").count() == 0
    with page.expect_response("**/tracker?*") as older:
        held[0].continue_()
    older.value.finished()
    assert page.get_attribute("#tracker-panel", "aria-busy") == "true"
    held[1].continue_()
    page.unroute("**/tracker?*")
    _check_tracker(page, server)
    shown = page.evaluate("window.shownPlies")
    assert asked[1] == str(page.locator("#history li").count()) and shown[-1] == asked[1]
    assert asked[0] != asked[1] and asked[0] not in shown

    # Folded, it stays folded across a reload; Vietnamese labels.
    page.click("#tracker-toggle")
    assert not page.locator("#tracker-gone").is_visible()
    assert page.get_attribute("#tracker-toggle", "aria-expanded") == "false"
    page.reload()
    page.wait_for_selector("#game:not([hidden])")
    page.wait_for_function(IDLE)
    assert page.get_attribute("#tracker-toggle", "aria-expanded") == "false"
    assert page.locator("#tracker-toggle").is_visible() and not page.locator("#tracker-gone").is_visible()
    page.focus("#tracker-toggle")
    page.keyboard.press("Enter")  # the heading's button unfolds it from the keyboard too
    assert page.get_attribute("#tracker-toggle", "aria-expanded") == "true"
    page.select_option("#lang", "vi")
    assert page.inner_text("#tracker-title") == "Theo dõi bài"
    page.wait_for_selector("#tracker-panel:not(.stale)")
    assert "Nọc còn" in page.inner_text("#tracker-status")
    page.set_viewport_size(PHONE)  # type: ignore[arg-type]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.locator("#tracker-panel").screenshot(path=str(shots / "web-tracker-phone.png"))
    assert errors == []
    page.close()


def _played_endgame(server: Server) -> tuple[str, str]:
    """The hand-made endgame of tests/support/records.py between two human seats, played through
    the API to its end with seat 0's proven blunder at ply 34 (9♣ where A♥ wins); its id and seat
    0's token."""
    from tests.support.records import BLUNDER, ENDGAME_MOVES

    request = {"rules": "durak", "seats": ["human", "human"], "deck": ENDGAME_DECK, "first_attacker": 0}
    created = httpx.post(server.url + "/v1/games", json=request, timeout=120.0).json()
    tokens = created["tokens"]

    def play(seat: int, move: Any) -> dict[str, Any]:
        answer = httpx.post(f"{server.url}/v1/games/{created['id']}/moves", json={"seat": seat, "move": move},
                            headers={"Authorization": f"Bearer {tokens[seat]}"}, timeout=120.0)
        assert answer.status_code == 200, answer.text
        return dict(answer.json())

    for seat, move in [*ENDGAME_MOVES, (0, BLUNDER)]:
        seen = play(seat, move)
    for _ in range(20):  # the rest: each seat's first legal move, as it comes
        if seen["status"] == "over":
            break
        seat = seen["position"]["to_move"]
        mover = httpx.get(f"{server.url}/v1/games/{created['id']}", params={"seat": seat},
                          headers={"Authorization": f"Bearer {tokens[seat]}"}, timeout=120.0).json()
        seen = play(seat, mover["legal_moves"][0])
    assert seen["status"] == "over"
    return created["id"], tokens[0]


def _follow_the_review(page: Page, width: int) -> list[str]:
    """In an open review: a point of the win-chance graph clicked goes to that decision (the proven
    blunder, its values in words); its verdict is on screen; Next mistake goes to a decision that
    lost winning chances. The labels of its rows."""
    labels: list[str] = page.locator("#review-rows tr .verdict-badge").evaluate_all(
        "badges => badges.map(b => b.className.split('label-')[1])")
    blunder = labels.index("blunder")  # seat 0's 9♣ at ply 34, proven
    points = page.locator("#review-graph .point")
    assert points.count() == sum(label not in ("forced", "unscored") for label in labels)
    page.locator(f"#review-graph .point[data-index='{blunder}']").click()
    assert page.locator("#review-rows tr").nth(blunder).get_attribute("aria-current") == "step"
    assert page.get_attribute("#review-detail", "data-label") == "blunder"
    assert "certain" in page.inner_text("#review-detail")  # proven values in words, not 100% / 50%
    badge = page.locator("#review-rows tr.current .verdict-badge").bounding_box()
    assert badge is not None and badge["x"] + badge["width"] <= width  # a phone clipped the verdicts
    page.click("#review-mistake")
    current = page.locator("#review-rows tr.current .verdict-badge").get_attribute("class") or ""
    assert any(f"label-{label}" in current for label in ("inaccuracy", "mistake", "blunder")), current
    return labels


def _current_row(page: Page) -> int:
    """The index of the review's row shown."""
    return int(page.locator("#review-rows tr").evaluate_all(
        "rows => rows.findIndex((row) => row.classList.contains('current'))"))


def test_a_review_that_teaches(browser: Browser, server: Server) -> None:
    """The review's graph, its next mistake and its keeping (issue 63), on a desktop then on a
    phone: the graph followed to the blunder, Next mistake; after a reload the review is open again
    by itself, and on the phone it opens at once — both from the one kept with the game
    (GET /v1/games/{id}/review), no job queued again."""
    game_id, token = _played_endgame(server)
    asked: list[str] = []
    errors: list[str] = []
    shown = -1
    for viewport in (DESKTOP, PHONE):
        page = _page(browser, server, viewport, errors)
        page.goto(server.url + "/")
        page.select_option("#lang", "en")
        page.evaluate("saved => localStorage.setItem('tan.game', JSON.stringify(saved))",
                      {"id": game_id, "token": token})
        for opened in range(2):  # then reloaded
            if opened or viewport is PHONE:
                page.on("request", lambda request: asked.append(f"{request.method} {request.url}"))
            page.reload()
            if opened:  # the review this tab had open is open again, at the decision it showed
                page.wait_for_selector("#review:not([hidden])")
                page.wait_for_function(IDLE)
                assert _current_row(page) == shown
            else:
                page.wait_for_selector("#over:not([hidden])")
                page.click("#review-button")
                page.wait_for_selector("#review:not([hidden])")
                page.wait_for_function(IDLE)
            labels = _follow_the_review(page, viewport["width"])
            shown = _current_row(page)
        page.close()
    assert len(labels) >= 10
    assert any(f"GET {server.url}/v1/games/{game_id}/review?" in url for url in asked), asked
    assert not any("/analysis" in url or "/v1/jobs/" in url for url in asked), asked
    assert errors == []
