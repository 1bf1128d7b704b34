"""The page's main screens — the new-game form, the table, the game over and the review — at the four
sizes players bring (a phone upright 390×844 and sideways 844×390, a desktop 1280×900, a laptop
1366×768), in Vietnamese and English, in Debian's headless chromium through Playwright (docs/web.md).
On each: nothing spills sideways, cards keep their corners inside and in view, the reason a card
cannot be played comes from the API and sits by the hand, phone controls are at least 40 px, axe
finds nothing serious; at the end the last bout stays on the table and focus leaves the hand; the
review keeps the board in view while stepping. Then the one scale at the browser level (the hint's
best move reviewed as good, a bad take at least an inaccuracy) and a redeal's shown hand in the
tracker. The helpers and fixtures are in tests/support/web.py."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.support.sweeps import sampled
from tests.support.web import (
    IDLE,
    Server,
    axe_findings,
    browser_fixture,
    card_text,
    last_bout,
    open_page,
    page_words,
    seat_view,
    shots_fixture,
    start_game,
)

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.browser

browser = pytest.fixture(scope="module")(browser_fixture)
shots = pytest.fixture(shots_fixture)

SIZES = {
    "phone": {"width": 390, "height": 844},
    "sideways": {"width": 844, "height": 390},
    "desktop": {"width": 1280, "height": 900},
    "laptop": {"width": 1366, "height": 768},
}
PHONES = ("phone", "sideways")
# Move text as the API writes it ("attack 7c", "defend 7c with 9c"): never on a Vietnamese page.
NOTATION = re.compile(r"\b(attack|defend|transfer|take|pass)\b|\b[2-9TJQKA][shdc]\b")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A real service whose searches may reach the page's budget (5,000 iterations): the hint and
    the review of a decision are then one search, as in play. The iterations stop them, never the
    clock, however loaded the machine (a cut search is another one): the time caps are far above."""
    database = tmp_path_factory.mktemp("screens") / "games.db"
    with Server(database, default_iterations=300, max_iterations=5000, max_time_ms=120_000,
                analysis_budget_ms=600_000) as running:
        yield running


def _cards(n: int) -> str:
    """A number of cards as the English page says it (one card, or several)."""
    return f"{n} card" if n == 1 else f"{n} cards"


def _no_sideways_scroll(page: Page, width: int) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def _small_controls(page: Page) -> list[str]:
    """The visible controls under 40 px high or wide (fanned cards and links in a sentence aside; a
    tick box or a radio button is as large as its label, which a tap anywhere on works)."""
    found: list[str] = page.evaluate(
        """() => [...document.querySelectorAll('button, select, input, summary')]
          .filter((el) => !el.matches('.card') && el.getClientRects().length)
          .map((el) => (el.matches('[type=radio], [type=checkbox]') && el.closest('label')) || el)
          .map((el) => [el, el.getBoundingClientRect()])
          .filter(([, r]) => r.width > 0 && (r.height < 39.5 || r.width < 39.5))
          .map(([el, r]) => `${el.id || el.className || el.tagName} ${r.width | 0}x${r.height | 0}`)"""
    )
    return found


def _corners_astray(page: Page) -> list[str]:
    """Cards whose corner (rank and suit) pokes out of the card: "10♠" on a phone's small card."""
    found: list[str] = page.evaluate(
        """() => [...document.querySelectorAll('#hand .card[data-card], #table .card[data-card]')]
          .filter((card) => card.getClientRects().length)
          .flatMap((card) => [...card.querySelectorAll('.corner')].map((corner) => [card, corner]))
          .filter(([card, corner]) => {
            const c = card.getBoundingClientRect(), k = corner.getBoundingClientRect();
            return k.left < c.left - 0.5 || k.right > c.right + 0.5 || k.top < c.top - 0.5;
          })
          .map(([card, corner]) => `${card.dataset.card} ${corner.className}`)"""
    )
    return found


def _corners_hidden(page: Page) -> list[str]:
    """Cards of the hand whose left corner another card covers (a raised neighbour, a tight fan)."""
    page.mouse.move(0, 0)  # no card raised by the pointer
    found: list[str] = page.evaluate(
        """() => [...document.querySelectorAll('#hand button.card')].filter((card) => {
            const r = card.querySelector('.corner.left .rank').getBoundingClientRect();
            const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
            return !hit || hit.closest('.card') !== card;
          }).map((card) => card.dataset.card)"""
    )
    return found


def _in_window(page: Page, selector: str, size: dict[str, int]) -> bool:
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    return box["y"] >= -0.5 and box["y"] + box["height"] <= size["height"] + 0.5


def _hand_within_width(page: Page, size: dict[str, int], out: bool = False) -> None:
    """Every card of the hand within the window's width (`out`: seat 0 may have played its last)."""
    boxes = page.locator("#hand button.card").evaluate_all(
        "cards => cards.map((c) => { const r = c.getBoundingClientRect(); return [r.left, r.right]; })"
    )
    assert boxes or out
    assert all(left >= -0.5 and right <= size["width"] + 0.5 for left, right in boxes), boxes


def _header_rows(page: Page) -> tuple[int, list[str]]:
    """How many rows the header's visible parts lie in, and those of its parts whose own text wraps
    (a label or a link on two lines)."""
    rows, wrapped = page.evaluate(
        """() => {
          const parts = [...document.querySelectorAll(
            'header.top h1, header.top nav a, header.top .top-tools > *')]
            .filter((el) => el.getClientRects().length && el.getBoundingClientRect().width > 1);
          const count = (ys, near) => ys.sort((a, b) => a - b)
            .filter((y, i) => i === 0 || y - ys[i - 1] > near).length;
          const middle = (r) => (r.top + r.bottom) / 2;
          const lines = (el) => {
            const ys = [];
            const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
            while (walk.nextNode()) {
              const range = document.createRange();
              range.selectNodeContents(walk.currentNode);
              for (const r of range.getClientRects()) if (r.width > 0) ys.push(r.top);
            }
            return count(ys, 4);
          };
          return [count(parts.map((el) => middle(el.getBoundingClientRect())), 12),
                  parts.filter((el) => el.tagName !== 'SELECT' && lines(el) > 1)
                    .map((el) => el.id || el.textContent)];
        }"""
    )
    return int(rows), list(wrapped)


@pytest.mark.parametrize(
    ("lang", "size_name"),
    [("vi", "phone"), ("en", "sideways"), *(pytest.param(lang, size, marks=pytest.mark.long)
                                           for lang, size in (("en", "phone"), ("vi", "sideways")))],
)
def test_the_header_does_not_wrap_on_a_phone(
    browser: Browser, server: Server, size_name: str, lang: str
) -> None:
    """At 390×844 the header is two rows (the title and the modes, then the tools), at 844×390 one,
    in both languages, on the new-game form and over a game (with its New game button); nothing in it
    wraps its own text, and the engines' pace keeps a visible label."""
    size = SIZES[size_name]
    errors: list[str] = []
    page = open_page(browser, server, size, errors)
    page.goto(server.url + "/")
    page.select_option("#lang", lang)
    page.wait_for_function("() => document.querySelector('#engine').options.length > 1")
    rows = 2 if size_name == "phone" else 1
    assert _header_rows(page) == (rows, [])
    start_game(page, server, lang, seed=3, preset="durak")
    assert page.locator("#new-game-top").is_visible()
    assert _header_rows(page) == (rows, [])
    assert page.locator(".pace-label").is_visible()
    _no_sideways_scroll(page, size["width"])
    assert errors == []
    page.close()


def _why_not_is_the_apis(page: Page, server: Server, lang: str, size: dict[str, int]) -> bool:
    """Click a card no legal move plays: the page says the API's reason for it (`unplayable`), by
    the hand, and the table does not move. False when no such card is in the hand now."""
    view = seat_view(page, server)
    stuck = sorted(view["unplayable"])
    if view["position"]["to_move"] != 0 or not stuck:
        return False
    card = stuck[0]
    board = page.locator(".board").bounding_box()
    page.locator(f"#hand button[data-card='{card}']").click(force=True)  # aria-disabled: not waited for
    page.wait_for_selector("#why-not:not([hidden])")
    text = page_words(page, "why_" + view["unplayable"][card]["reason"], card=card_text(card))
    assert page.inner_text("#why-not") == text
    assert page.locator(".board").bounding_box() == board  # said over the hand's edge: nothing moved
    why = page.locator("#why-not").bounding_box()
    hand = page.locator("#hand").bounding_box()
    assert why is not None and hand is not None and board is not None
    gap = hand["y"] - (why["y"] + why["height"])
    assert -1 <= gap < 80, (why, hand)
    assert why["y"] >= 0 and why["y"] + why["height"] <= size["height"]
    assert page.locator("#message").is_hidden()
    return True


# Every size in both languages under `make test-long`; in `make test` the phone in Vietnamese (the
# size players complained of) alone.
CASES = [
    pytest.param("phone", "vi", marks=pytest.mark.sampled),
    *sampled([(size, lang) for size in SIZES for lang in ("vi", "en") if (size, lang) != ("phone", "vi")],
             0, "main-screens"),
]


@pytest.mark.parametrize(("size_name", "lang"), CASES)
def test_the_main_screens_at_every_size(
    browser: Browser, server: Server, shots: Path, size_name: str, lang: str
) -> None:
    """The new-game form, a whole game of Durak against Easy (2 to 4 seats), a hint, its end and its
    review at one size and language: see the module's docstring for what each screen must show."""
    size = SIZES[size_name]
    phone = size_name in PHONES
    errors: list[str] = []
    page = open_page(browser, server, size, errors)
    page.goto(server.url + "/")
    page.select_option("#lang", lang)
    page.wait_for_function("() => document.querySelector('#engine').options.length > 1")  # GET /v1/rules
    deck = {"vi": "lá", "en": "cards"}[lang]
    assert page.locator("#preset option[value=durak]").inner_text() == f"Durak (36 {deck})"  # the API's deck
    _no_sideways_scroll(page, size["width"])
    if phone:
        page.click("#advanced > summary")
        assert _small_controls(page) == []
    assert axe_findings(page) == []

    players = {"phone": 4, "sideways": 3, "desktop": 4, "laptop": 2}[size_name]
    start_game(page, server, lang, seed=40 + len(size_name), preset="durak", players=players)
    page.screenshot(path=str(shots / f"play-{size_name}-{lang}.png"))
    explained = hinted = False
    for turn in range(300):
        page.wait_for_function(IDLE)
        if page.locator("#over").is_visible():
            break
        _no_sideways_scroll(page, size["width"])
        _hand_within_width(page, size, out=True)
        assert _corners_astray(page) == []
        if turn % 3 == 0:
            assert _corners_hidden(page) == []
        if phone and turn == 0:
            assert _small_controls(page) == []
        if lang == "vi" and turn % 5 == 0:
            labels = page.evaluate(
                "() => [...document.querySelectorAll('#game [title], #game [aria-label]')]"
                ".map((el) => (el.title || '') + ' ' + (el.getAttribute('aria-label') || ''))"
            )
            assert not [label for label in labels if NOTATION.search(label)], labels
        if not hinted and len(seat_view(page, server)["legal_moves"]) >= 2:
            page.keyboard.press("h")  # the hint: a panel beside the table, on a phone a sheet over it
            page.wait_for_selector("#hint-moves .hint-move")
            page.wait_for_function(IDLE)
            assert not phone or _in_window(page, "#hint-moves .hint-move.best", size)
            page.screenshot(path=str(shots / f"hint-{size_name}-{lang}.png"))
            assert axe_findings(page) == []
            page.keyboard.press("Escape")
            hinted = True
        if not explained:
            explained = _why_not_is_the_apis(page, server, lang, size)
            if explained:
                assert axe_findings(page) == []  # the table, with the reason by the hand
        page.keyboard.press("1")
    assert page.locator("#over").is_visible()
    assert explained, "no card of the hand was ever refused"
    # The end: focus on the game over's buttons, not a card that plays nothing; the last bout shown.
    assert page.evaluate("!document.activeElement.closest('#hand')")
    history = seat_view(page, server)["history"]
    ended = last_bout(history)
    pairs = page.locator("#table.ended .pair .attack").evaluate_all("cards => cards.map(c => c.dataset.card)")
    assert pairs == [pair["attack"] for pair in ended]
    assert page.locator("#why-not").is_hidden()
    page.screenshot(path=str(shots / f"over-{size_name}-{lang}.png"))
    assert axe_findings(page) == []

    page.click("#review-button")
    page.wait_for_selector("#review:not([hidden])")
    page.wait_for_function(IDLE)
    steps = page.locator("#review-rows tr").count()
    assert steps >= 3
    # The arrows step through the decisions that were a choice (forced moves skipped).
    rows = page.locator("#review-rows tr")
    choices = [at for at in range(steps) if "label-forced" not in (rows.nth(at).get_attribute("class") or "")]
    for at in choices:
        assert page.locator("#review-rows tr").nth(at).get_attribute("aria-current") == "step"
        _hand_within_width(page, size, out=True)  # a forced pass may come with no card left
        if at % 4 == 0:
            assert _corners_hidden(page) == [] and _corners_astray(page) == []  # the marked cards too
        if not phone:
            # Stepping keeps the table as it was, and the step, in the window (no scroll away).
            assert _in_window(page, ".board", size) and _in_window(page, "#review-step", size)
        if at == choices[min(1, len(choices) - 1)]:
            page.screenshot(path=str(shots / f"review-{size_name}-{lang}.png"))
            assert axe_findings(page) == []
        page.keyboard.press("ArrowRight")
    assert errors == []
    page.close()


def _play_by_hint(page: Page) -> int:
    """Open the hint and play its first row (the best move); the history length it was played at."""
    plies = page.locator("#history li").count()
    page.keyboard.press("h")
    page.wait_for_selector("#hint-moves .hint-move")
    page.wait_for_function(IDLE)
    page.keyboard.press("1")
    return plies


def _review_labels(page: Page) -> dict[int, str]:
    """The review's label of each decision, by the history length it was played at."""
    page.click("#review-button")
    page.wait_for_selector("#review:not([hidden])")
    page.wait_for_function(IDLE)
    rows = page.locator("#review-rows tr")
    labels: dict[int, str] = {}
    for index in range(rows.count()):
        row = rows.nth(index)
        ply = int(row.locator("button.jump").inner_text()) - 1
        labels[ply] = row.locator(".verdict-badge").get_attribute("class").split("label-")[1]  # type: ignore[union-attr]
    return labels


@pytest.mark.long
def test_a_move_played_from_the_hint_is_reviewed_good(browser: Browser, server: Server) -> None:
    """One scale, in the browser: every decision played from the hint's first row (press H, then 1)
    is reviewed `good` (or `forced`) — the page asks the hint and the review with one budget and seed."""
    errors: list[str] = []
    page = open_page(browser, server, SIZES["desktop"], errors)
    start_game(page, server, "en", seed=23, preset="durak")
    hinted: list[int] = []
    for _ in range(200):
        page.wait_for_function(IDLE)
        if page.locator("#over").is_visible():
            break
        hinted.append(_play_by_hint(page))
    assert len(hinted) >= 5
    labels = _review_labels(page)
    assert set(hinted) == set(labels)
    assert {ply: label for ply, label in labels.items() if label not in ("good", "forced")} == {}
    assert errors == []
    page.close()


def test_a_take_when_a_small_card_beats_is_reviewed_at_least_an_inaccuracy(
    browser: Browser, server: Server
) -> None:
    """The deal of the service's test (durak, seed 4, against Easy): at the first defence where a
    card of the attacked suit beats, take (T); the page's review labels that take at least an
    inaccuracy, and shows its cost."""
    errors: list[str] = []
    page = open_page(browser, server, SIZES["desktop"], errors)
    start_game(page, server, "en", seed=4, preset="durak")
    taken_at = None
    for _ in range(200):
        page.wait_for_function(IDLE)
        if page.locator("#over").is_visible():
            break
        view = seat_view(page, server)
        trump = view["position"]["trump"][1]
        legal = view["legal_moves"]
        beats = [m for m in legal if m["action"] == "defend" and m["card"][1] != trump]
        if taken_at is None and beats and any(m["action"] == "take" for m in legal):
            taken_at = len(view["history"])
            page.keyboard.press("t")
        else:
            page.keyboard.press("1")
    assert taken_at is not None
    labels = _review_labels(page)
    # At least an inaccuracy's loss; tried only some 20 times, its interval may reach the best's,
    # and the page then says so with its range instead of a cost (issue 63).
    assert labels[taken_at] in ("inaccuracy", "mistake", "blunder", "uncertain"), labels
    page.locator(f"#review-rows button.jump:text-is('{taken_at + 1}')").click()
    said = "tried your move only" if labels[taken_at] == "uncertain" else "It cost"
    assert said in page.inner_text("#review-detail")
    assert errors == []
    page.close()


def test_a_redeals_shown_hand_is_seen_in_the_tracker(browser: Browser, server: Server, shots: Path) -> None:
    """Tấn with redeal without trump (seed 5: seat 0 is dealt no trump): redeal, and the two new
    hands are offered as sets numbered from 1, trumps marked; once one is picked the hand shown
    went back into the stock — the tracker counts it as seen and lists it as lying there."""
    errors: list[str] = []
    page = open_page(browser, server, SIZES["desktop"], errors)
    start_game(page, server, "en", seed=5, preset="tan", side_rules=("redeal_without_trump",))
    page.locator("#setup-buttons button", has_text="redeal").click()
    page.wait_for_function(IDLE)
    sets = page.locator("#setup-sets .setup-set")
    assert sets.count() == 2
    assert [sets.nth(i).locator(".label").inner_text() for i in range(2)] == ["Set 1", "Set 2"]
    offered = seat_view(page, server)["position"]["setup"]["sets"]
    trump = seat_view(page, server)["position"]["trump"][1]
    for index, part in enumerate(offered):
        marked = sets.nth(index).locator(".mini.trump").count()
        assert marked == sum(card[1] == trump for card in part)
    assert axe_findings(page) == []  # the setup's decision, the offered sets
    page.locator("#setup-buttons button", has_text="pick set 1").click()
    page.wait_for_function(IDLE)
    view = seat_view(page, server)
    in_stock = view["position"]["in_stock"]
    assert in_stock
    page.wait_for_selector("#tracker-panel:not(.stale)")
    tracker = seat_view(page, server, "/tracker")
    unseen = len([card for card in tracker["cards"] if card not in in_stock])
    assert f"{_cards(unseen)} you have not seen" in page.inner_text("#tracker-status")
    assert page.locator("#tracker-in-stock .mini").count() == len(in_stock)
    page.screenshot(path=str(shots / "tracker-redeal-en.png"), full_page=True)
    assert axe_findings(page) == []
    assert errors == []
    page.close()


@pytest.mark.parametrize("size_name", ["phone", pytest.param("sideways", marks=pytest.mark.long)])
def test_raised_cards_keep_their_neighbours_corners_in_a_full_hand(
    browser: Browser, server: Server, shots: Path, size_name: str
) -> None:
    """A long hand on a phone (seat 0 takes every time it can and passes whenever it may, in Tấn's
    52 cards): the hand never runs off the window and no card hides another's corner, however many
    it holds."""
    size = SIZES[size_name]
    errors: list[str] = []
    page = open_page(browser, server, size, errors)
    start_game(page, server, "en", seed=7, preset="tan")
    most = 0
    for _ in range(300):
        page.wait_for_function(IDLE)
        if page.locator("#over").is_visible():
            break
        held = page.locator("#hand button.card").count()
        if held == 0:
            break  # out of the game: the others play on
        most = max(most, held)
        _hand_within_width(page, size)
        assert _corners_hidden(page) == [] and _corners_astray(page) == []
        give_in = page.locator("#take-button:not([disabled]), #pass-button:not([disabled])")
        if give_in.count():
            give_in.first.click()
        else:
            page.keyboard.press("1")
        if most >= 20:
            break
    assert most >= 16
    page.screenshot(path=str(shots / f"full-hand-{size_name}.png"))
    assert errors == []
    page.close()


FRAMES = """() => {
  window.frames_seen = [];
  const table = document.getElementById('table');
  new MutationObserver(() => window.frames_seen.push({
    plies: Number(table.dataset.plies),
    offered: document.querySelectorAll('#moves button').length,
    counts: [...document.querySelectorAll('#opponents .opponent .count')].map((el) => el.textContent),
    mine: document.getElementById('hand-count').textContent,
    held: document.querySelectorAll('#hand button.card').length,
    busy: document.body.classList.contains('busy'),
  })).observe(table, {attributes: true, attributeFilter: ['data-plies']});
}"""


def test_playback_offers_no_move_before_the_last_engine_move_lands(browser: Browser, server: Server) -> None:
    """At the normal pace, while the engines' replies are shown one by one: no legal move is offered
    before the last of them has landed (not "beat 5♣" before the 5♣), and every frame's card counts —
    the opponents' and your own — are those of the history's `after` for that move."""
    errors: list[str] = []
    page = open_page(browser, server, SIZES["desktop"], errors, pace="normal")
    start_game(page, server, "en", seed=8, preset="durak", players=4, pace="normal")
    page.evaluate(FRAMES)
    for _ in range(4):  # up to four moves, until five frames were shown (each reply waits 0.7 s)
        page.wait_for_function(IDLE)
        busy = page.evaluate("window.frames_seen.filter((frame) => frame.busy).length")
        if busy >= 5 or page.locator("#over").is_visible():
            break
        page.keyboard.press("1")
    page.wait_for_function(IDLE)
    history = seat_view(page, server)["history"]
    frames = page.evaluate("window.frames_seen")
    final = len(history)
    shown = [frame for frame in frames if frame["busy"]]  # a move on its way, or a reply played back
    assert len([frame for frame in shown if frame["plies"] < final]) >= 4
    for frame in shown:
        assert frame["offered"] == 0, frame
        counts = history[frame["plies"] - 1]["after"]["hand_counts"]
        assert frame["counts"] == [_cards(n) for n in counts[1:]], frame
        assert frame["mine"] == f"({_cards(frame['held'])})", frame
    assert errors == []
    page.close()
