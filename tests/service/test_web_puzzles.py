"""The puzzles mode (`/#puzzles`) in Debian's headless chromium on a phone: the shipped puzzles load,
one is solved, one is missed and its answer and line are shown, the next follows, in both languages,
nothing wider than the screen; then the puzzles of your own last game (docs/web.md "Puzzles")."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import httpx
import pytest

from tests.support.service import bearer, move, view
from tests.support.web import PHONE, Server, browser_fixture, open_page, server_fixture, shots_fixture

if TYPE_CHECKING:
    from playwright.sync_api import Browser

pytestmark = pytest.mark.browser

server = pytest.fixture(scope="module")(server_fixture)
browser = pytest.fixture(scope="module")(browser_fixture)
shots = pytest.fixture(shots_fixture)


def test_solve_a_puzzle_and_miss_one_on_a_phone(browser: Browser, server: Server, shots: Path) -> None:
    puzzles = httpx.get(server.url + "/v1/puzzles", timeout=30.0).json()["puzzles"]
    errors: list[str] = []
    page = open_page(browser, server, PHONE, errors)
    page.goto(server.url + "/#puzzles")
    page.select_option("#lang", "en")
    page.wait_for_selector("[data-role=puzzle-move]")
    assert page.locator("#mode-puzzles").get_attribute("aria-current") == "page"
    assert page.inner_text("#puzzles .puzzle-count").startswith(f"Puzzle 1 of {len(puzzles)}")
    first = puzzles[0]
    offered = page.locator("[data-role=puzzle-move]")
    assert sorted(offered.evaluate_all("els => els.map(b => b.dataset.notation)")) == sorted(
        row["notation"] for row in first["moves"])
    # The right move: said so, why, and the line the engine expects after it.
    page.click(f"[data-role=puzzle-move][data-notation='{first['answer']['notation']}']")
    assert page.inner_text("[data-role=puzzle-verdict]") == "Right! That is the best move."
    why = page.inner_text("#puzzles .puzzle-why")
    assert ("Proven" in why) if first["answer"]["proven"] else ("Clearly best" in why)
    if first["line"] and len(first["line"]["moves"]) > 1:
        assert page.inner_text("[data-role=puzzle-line]").startswith("The expected line: You: ")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path=str(shots / "web-puzzle-phone.png"), full_page=True)
    # The next one, missed: the answer is named, in Vietnamese.
    page.click("[data-role=puzzle-next]")
    page.select_option("#lang", "vi")
    second = puzzles[1]
    answer = second["answer"]["notation"]
    wrong = next(row["notation"] for row in second["moves"] if row["notation"] != answer)
    page.click(f"[data-role=puzzle-move][data-notation='{wrong}']")
    assert page.inner_text("[data-role=puzzle-verdict]").startswith("Chưa đúng. Nước hay nhất: ")
    assert page.locator("#puzzles .puzzle-rows li").count() == len(second["moves"])
    assert page.evaluate("JSON.parse(localStorage.getItem('tan.puzzles.solved'))") == [first["id"]]
    # A reload starts on one not solved yet.
    page.reload()
    page.wait_for_selector("[data-role=puzzle-move]")
    assert page.inner_text("#puzzles .puzzle-count").endswith("đã giải 1")
    # Your own last game (kept in this browser, as the play mode keeps it): its puzzles go first.
    with httpx.Client(base_url=server.url, timeout=120.0) as client:
        dealt = {"rules": "durak", "seats": ["human", "greedy"], "seed": 4}
        game = client.post("/v1/games", json=dealt).json()
        seen = view(client, game, 0)  # type: ignore[arg-type]
        while seen["status"] != "over":  # you play your first legal move each time
            seen = move(client, game, 0, seen["legal_moves"][0]).json()  # type: ignore[arg-type]
        record = client.get(f"/v1/games/{game['id']}/record", params={"seat": 0},
                            headers=bearer(game["tokens"][0])).json()
        mine = client.post("/v1/puzzles", json={"record": record, "limits": {"iterations": 5000}}).json()
    page.evaluate(f"localStorage.setItem('tan.game', JSON.stringify({{id: '{game['id']}', token: "
                  f"'{game['tokens'][0]}'}}))")
    page.reload()
    page.select_option("#lang", "en")
    page.click("[data-role=puzzles-mine]")
    page.wait_for_function("() => !document.querySelector('[data-role=puzzles-mine]').disabled")
    note = page.inner_text("[data-role=puzzles-mine-note]")
    assert mine["puzzles"]  # this deal, played so, has one (the server's 2,000 iterations a search)
    assert note.startswith(f"{len(mine['puzzles'])} puzzle") and f"({mine['checked']} move" in note
    assert page.inner_text("#puzzles .puzzle-count").startswith("Puzzle 1 of ")
    shown = page.locator("[data-role=puzzle-move]")
    notations = shown.evaluate_all("els => els.map(b => b.dataset.notation)")
    assert sorted(notations) == sorted(row["notation"] for row in mine["puzzles"][0]["moves"])
    page.locator("[data-role=puzzle-move]").first.click()
    page.screenshot(path=str(shots / "web-puzzle-mine-phone.png"), full_page=True)
    assert errors == []
    page.close()
