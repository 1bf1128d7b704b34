"""Helpers for the web page's tests: Debian's chromium through Playwright, a real `tan serve`, and
the steps every page test takes (open a page that may reach only the server, start a game, wait).

Nothing is downloaded: Playwright drives /usr/bin/chromium (`make test` installs it from Debian when
it is missing); without it the tests are skipped, except under CI, where they fail.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import pytest

from service.process import ServiceProcess as Server

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

__all__ = [
    "DESKTOP",
    "IDLE",
    "PHONE",
    "Server",
    "axe_findings",
    "browser_fixture",
    "card_text",
    "last_bout",
    "open_page",
    "page_words",
    "saved_game",
    "seat_view",
    "seat_words",
    "server_fixture",
    "shots_fixture",
    "start_game",
    "watch",
]

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--headless=new",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
IDLE = "() => !document.body.classList.contains('busy')"


def _chromium() -> str | None:
    if os.access(CHROMIUM, os.X_OK):
        return CHROMIUM
    return shutil.which("chromium")


def server_fixture(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A real service on a free loopback port with a temporary database and small search limits."""
    database = tmp_path_factory.mktemp("web") / "games.db"
    with Server(database, default_iterations=300, max_iterations=2000, max_time_ms=1000) as running:
        yield running


def browser_fixture() -> Iterator[Browser]:
    """Debian's chromium, headless; the test is skipped without it, except under CI (`CI` set),
    where `make test` installs it and a missing browser is a failure, not a silent skip."""
    executable = _chromium()
    if executable is None and os.environ.get("CI"):
        pytest.fail("chromium not found under CI: make test's browser step should have installed it")
    if executable is None:
        pytest.skip("chromium not found (make test installs Debian's chromium: apt-get install chromium)")
    from playwright.sync_api import sync_playwright  # a dev dependency: missing, it fails

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS, timeout=120_000)
        try:
            yield launched
        finally:
            launched.close()


def shots_fixture(tmp_path: Path) -> Path:
    """Where screenshots go: `TAN_WEB_SCREENSHOTS`, else the test's temporary folder."""
    folder = Path(os.environ.get("TAN_WEB_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def open_page(
    browser: Browser, server: Server, viewport: dict[str, int], errors: list[str], pace: str = "off",
    **context: Any,
) -> Page:
    """A page in a fresh browser context (its own storage) that records page errors, console errors
    and any request that is not to the server. The engines' moves are shown at `pace` until the page
    chooses another (by default at once, so that tests of other things run fast)."""
    browser_context = browser.new_context(viewport=viewport, **context)  # type: ignore[arg-type]
    browser_context.add_init_script(
        f"try {{ localStorage.getItem('tan.pace') || localStorage.setItem('tan.pace', '{pace}'); }}"
        " catch {}"
    )
    page = browser_context.new_page()
    watch(page, server, errors)
    return page


def watch(page: Page, server: Server, errors: list[str]) -> None:
    """Record page errors, console errors and outside requests of `page` in `errors`."""
    page.on("pageerror", lambda error: errors.append(f"page error: {error}"))
    page.on("console", lambda msg: errors.append(f"console: {msg.text}") if msg.type == "error" else None)
    # The page may reach only this server: anything else would be an outside fetch.
    page.on(
        "request",
        lambda request: (
            errors.append(f"outside request: {request.url}")
            if not request.url.startswith((server.url, "data:", "blob:" + server.url))
            else None
        ),
    )
    page.set_default_timeout(120_000)  # generous: CI runs this beside the rest of the suite


def start_game(
    page: Page, server: Server, lang: str, seed: int | None, preset: str = "durak", players: int = 2,
    pace: str = "off", side_rules: Sequence[str] = (), games: int | None = None,
) -> None:
    """Open the page, choose the language and an easy game (the greedy engine) from the new-game
    form (`seed` None: none typed; `side_rules` ticked; `games`: a match of that many), and wait
    until the table is shown and idle."""
    page.goto(server.url + "/")
    page.select_option("#lang", lang)
    page.select_option("#pace", pace)
    page.select_option("#preset", preset)
    page.select_option("#players", str(players))
    page.check("#level-easy")
    page.click("#advanced > summary")  # the deal number and the side rules are an expert's fields
    for rule in side_rules:
        page.check(f"#side-rules input[name={rule}]")
    if games is not None:
        page.fill("#games", str(games))
    page.fill("#seed", "" if seed is None else str(seed))  # blank: the server draws the deal's seed
    page.click("#start")
    page.wait_for_selector("#game:not([hidden])")
    page.wait_for_function(IDLE)


def axe_findings(page: Page) -> list[str]:
    """The serious and critical findings of axe-core (shipped by the axe-playwright-python package)
    on the page as it is: each as 'rule: the first element'."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page).response
    return [
        f"{violation['id']}: {violation['nodes'][0]['target']}"
        for violation in results["violations"]
        if violation["impact"] in ("serious", "critical")
    ]


def card_text(card: str) -> str:
    """A card as the page writes it: its rank (10 for a ten) and its suit's glyph."""
    return ("10" if card[0] == "T" else card[0]) + "♠♥♦♣"["shdc".index(card[1])]


def last_bout(history: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The table before a game's last move, with that move's card on it (as the page's lastBout)."""
    table = [dict(pair) for pair in history[-2]["after"]["table"]] if len(history) > 1 else []
    last = history[-1]["move"]
    if last["action"] in ("attack", "transfer"):
        table.append({"attack": last["card"], "defense": None})
    elif last["action"] == "defend":
        table = [{**pair, "defense": last["card"]} if pair["attack"] == last["target"] else pair
                 for pair in table]
    return table


def page_words(page: Page, key: str, **values: Any) -> str:
    """A word of the page's words.js in the page's language as the page says it (`t`), its
    placeholders filled with `values`."""
    return str(page.evaluate(
        "async ([key, values]) => (await import('/static/js/i18n.js')).t(key, values)", [key, values]
    ))


def seat_words(page: Page, seat: int) -> str:
    """A seat's name as the page says it: you, or the seat's number."""
    return page_words(page, "you") if seat == 0 else page_words(page, "seatName", n=seat)


def saved_game(page: Page) -> dict[str, Any]:
    """The id and token of the page's game, as the page keeps them in its storage."""
    return dict(page.evaluate("JSON.parse(localStorage.getItem('tan.game'))"))


def seat_view(page: Page, server: Server, path: str = "") -> dict[str, Any]:
    """Seat 0's answer for the page's game from the API (`path`: "" the view, "/tracker" its
    card tracker), read with the token the page keeps."""
    saved = saved_game(page)
    answer = httpx.get(
        f"{server.url}/v1/games/{saved['id']}{path}", params={"seat": 0},
        headers={"Authorization": f"Bearer {saved['token']}"}, timeout=120.0,
    )
    assert answer.status_code == 200, answer.text
    return dict(answer.json())
