"""The web page as players use it (issue 13): hints in plain words, a page in the player's language,
moves one can follow, a real table, a game kept safe, a phone layout. Playwright drives Debian's
chromium at desktop (1280×900) and phone (390×844) sizes; the helpers are in tests/support/web.py.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import pytest

from tests.support.web import (
    DESKTOP,
    IDLE,
    Server,
    browser_fixture,
    open_page,
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


def _saved(page: Page) -> dict[str, Any]:
    """The id and token of the page's game, as the page keeps them."""
    script = "JSON.parse(localStorage.getItem('tan.game') || sessionStorage.getItem('tan.game'))"
    return dict(page.evaluate(script))


def _view(page: Page, server: Server) -> dict[str, Any]:
    """Seat 0's view of the page's game, from the API."""
    saved = _saved(page)
    answer = httpx.get(
        f"{server.url}/v1/games/{saved['id']}",
        params={"seat": 0},
        headers={"Authorization": f"Bearer {saved['token']}"},
        timeout=120.0,
    )
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def _hint(page: Page) -> list[dict[str, Any]]:
    """Press H and return the hint's rows as shown: each row's move, score and exactness."""
    page.keyboard.press("h")
    page.wait_for_selector("#hint-moves .hint-move")
    page.wait_for_function(IDLE)
    rows = page.locator("#hint-moves .hint-move")
    return [
        {
            "move": rows.nth(i).get_attribute("data-move"),
            "score": float(rows.nth(i).get_attribute("data-score") or "nan"),
            "exact": rows.nth(i).get_attribute("data-exact") == "true",
            "num": rows.nth(i).locator(".num").inner_text(),
        }
        for i in range(rows.count())
    ]


def test_hints_come_best_first_and_digits_play_their_rows(
    browser: Browser, server: Server, shots: Path
) -> None:
    """A 3-seat game: the hint says "chance of not being the fool", its rows come best first by that
    chance and are numbered; the digit of a row plays that row's move, not the legal-move list's
    (checked on a turn where the two lists differ at row 2)."""
    errors: list[str] = []
    page = open_page(browser, server, DESKTOP, errors)
    start_game(page, server, "en", seed=21, preset="durak", players=3)
    differed = False
    for turn in range(40):
        view = _view(page, server)
        assert view["status"] == "playing", "the game ended before a turn where the hint reorders the moves"
        if len(view["legal_moves"]) < 2:
            page.keyboard.press("1")
            page.wait_for_function(IDLE)
            continue
        rows = _hint(page)
        assert [row["num"] for row in rows[:9]] == [str(i + 1) for i in range(min(9, len(rows)))]
        scores = [row["score"] for row in rows]
        assert scores == sorted(scores, reverse=True)
        assert "chance of not being the fool" in page.inner_text("#evaluation")
        assert "not being the last one holding cards" in page.inner_text("#hint-note")
        second = json.loads(rows[1]["move"])
        if turn == 0:
            page.screenshot(path=str(shots / "hint-3-seats.png"))
        before = len(view["history"])
        page.keyboard.press("2")
        page.wait_for_function(IDLE)
        after = _view(page, server)["history"]
        assert after[before]["seat"] == 0 and after[before]["move"] == second
        if second != view["legal_moves"][1]:
            differed = True
            break
    assert differed
    assert errors == []
    page.close()
