"""The web page as players use it (issue 13): hints in plain words, a page in the player's language,
moves one can follow, a real table, a game kept safe, a phone layout. Playwright drives Debian's
chromium at desktop (1280×900) and phone (390×844) sizes; the helpers are in tests/support/web.py.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

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
    open_page,
    seat_view,
    server_fixture,
    shots_fixture,
    start_game,
    watch,
)

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.browser

server = pytest.fixture(scope="module")(server_fixture)
browser = pytest.fixture(scope="module")(browser_fixture)
shots = pytest.fixture(shots_fixture)




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
        view = seat_view(page, server)
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
        after = seat_view(page, server)["history"]
        assert after[before]["seat"] == 0 and after[before]["move"] == second
        if second != view["legal_moves"][1]:
            differed = True
            break
    assert differed
    assert errors == []
    page.close()


def test_the_rules_page_in_both_languages_matches_the_engines(browser: Browser, server: Server) -> None:
    """The rules page (from docs/rules.md) shows one language at a time, the page's own, and every
    number it states about a preset is the one GET /v1/rules answers (null: no number)."""
    presets = httpx.get(server.url + "/v1/rules", timeout=60.0).json()["presets"]
    errors: list[str] = []
    page = open_page(browser, server, DESKTOP, errors)
    start_game(page, server, "vi", seed=1)
    page.click("footer a[href='/static/rules.html']")
    page.wait_for_selector("article[data-lang='vi']:not([hidden])")
    assert page.locator("article[data-lang='en']").is_hidden()
    assert page.evaluate("document.documentElement.lang") == "vi"
    for lang in ("vi", "en"):
        page.select_option("#lang", lang)
        article = page.locator(f"article[data-lang='{lang}']")
        assert article.is_visible()
        facts = article.locator("[data-fact]")
        assert facts.count() >= 16
        for index in range(facts.count()):
            fact = facts.nth(index)
            name, option = (fact.get_attribute("data-fact") or "").split(".")
            value = presets[name][option]
            text = fact.inner_text()
            expected = text == str(value) if value is not None else not text.strip().isdigit()
            assert expected, (name, option, text)
        text = article.inner_text()
        assert ("chuồn" in text and "nhép" in text) if lang == "vi" else "clubs" in text
    # The game page speaks the language chosen on the rules page.
    page.click("article[data-lang='en'] a[href='/']")
    page.wait_for_selector("#game:not([hidden])")
    assert page.inner_text("#hint-button span") == "Hint"
    assert errors == []
    page.close()


VIETNAMESE = re.compile("[ạảãáàâầấậẩẫăằắặẳẵđêềếệểễẹẻẽéèìíịỉĩòóọỏõôồốộổỗơờớợởỡùúụủũưừứựửữỳýỵỷỹ]",
                        re.IGNORECASE)
ENGLISH = re.compile(
    r"\b(attack|defend|beat|take|takes|pass|seat|hint|history|your|cards|greedy|ismcts|the)\b", re.IGNORECASE
)
NOTATION = re.compile(r"\b[2-9TJQKA][shdc]\b")


def _engine_leads(server: Server) -> int:
    """A deal number whose first bout an engine leads (durak, 2 seats: the lowest trump leads)."""
    for seed in range(1, 60):
        request = {"rules": "durak", "seats": ["human", "greedy"], "seed": seed}
        answer = httpx.post(server.url + "/v1/games", json=request, timeout=60.0).json()
        if answer["game"]["history"] and answer["game"]["history"][0]["seat"] == 1:
            return seed
    raise AssertionError("no deal where seat 1 leads")


def _visible_words(page: Page) -> str:
    """The text a player sees on the table, less the game's id and the language picker."""
    return str(page.evaluate(
        """() => {
          const copy = document.body.cloneNode(true);
          for (const el of copy.querySelectorAll('#game-info, #lang, [hidden], .sr-label')) el.remove();
          return copy.innerText;
        }"""
    ))


@pytest.mark.parametrize("lang", ["vi", "en"])
def test_every_word_in_the_players_language(browser: Browser, server: Server, shots: Path, lang: str) -> None:
    """In Vietnamese nothing English shows and in English nothing Vietnamese (but the game's name):
    the move log in words with card glyphs, why the engine leads, the statuses, an error from the
    server (by its code), and the difficulty, which chooses the engine and its time."""
    seed = _engine_leads(server)
    errors: list[str] = []
    page = open_page(browser, server, DESKTOP, errors)
    page.goto(server.url + "/")
    page.select_option("#lang", lang)
    assert page.locator("#advanced").get_attribute("open") is None  # the expert form is folded away
    page.select_option("#preset", "durak")
    page.select_option("#players", "2")
    with page.expect_request("**/v1/games") as created:
        page.check("#level-hard")
        page.click("#advanced > summary")
        page.fill("#seed", str(seed))
        page.click("#start")
    seats = json.loads(created.value.post_data or "{}")["seats"]
    assert seats == ["human", {"engine": "ismcts", "limits": {"time_ms": 600}}]
    page.wait_for_selector("#game:not([hidden])")
    page.wait_for_function(IDLE)
    why = {"vi": "Đánh trước: Máy 1 (được chia lá chủ nhỏ nhất).",
           "en": "First lead: Seat 1 (dealt the lowest trump)."}
    assert page.inner_text("#recent").startswith(why[lang])
    assert page.inner_text("#recent").split(why[lang])[1].strip().startswith(
        {"vi": "Từ đầu ván:", "en": "Since the deal:"}[lang])
    for _ in range(3):
        page.keyboard.press("1")
        page.wait_for_function(IDLE)
    # A refusal from the server is told in the page's language, from its code, with the server's own
    # words (its moves and cards in the page's words on the Vietnamese page).
    page.route("**/moves", lambda route: route.fulfill(
        status=422, content_type="application/json",
        body=json.dumps({"detail": "illegal move: attack 2c", "code": "illegal_move"})))
    page.keyboard.press("1")
    page.wait_for_selector("#message:not([hidden])")
    page.unroute("**/moves")
    expected = {"vi": "Nước đi này không hợp lệ lúc này. Nước không hợp lệ: tấn 2♣.",
                "en": "That move is not allowed now. Illegal move: attack 2c."}[lang]
    assert page.inner_text("#message-text") == expected
    history = page.locator("#history li").all_inner_texts()
    assert len(history) >= 4 and not any(NOTATION.search(line) for line in history)
    assert any(glyph in "".join(history) for glyph in "♠♥♦♣")
    words = _visible_words(page)
    if lang == "vi":
        assert not ENGLISH.findall(words), ENGLISH.findall(words)
    else:
        leftover = words.replace("bài Tấn", "").replace("Tấn", "")
        assert not VIETNAMESE.findall(leftover), VIETNAMESE.findall(leftover)
    page.screenshot(path=str(shots / f"table-{lang}.png"), full_page=True)
    assert [e for e in errors if "422" not in e] == []
    page.close()


def _move_text(move: dict[str, Any]) -> str:
    """A move as the English page writes it."""
    action = move["action"]
    if action == "defend":
        return f"beat {card_text(move['target'])} with {card_text(move['card'])}"
    if action in ("attack", "transfer"):
        return f"{action} {card_text(move['card'])}"
    return str(action)


RECORD = """() => {
  window.frames_seen = [];
  window.spoken = [];
  const table = document.getElementById('table');
  const note = () => {
    const cards = [...table.querySelectorAll('.pair')].map((pair) => ({
      attack: pair.querySelector('.attack').dataset.card,
      defense: pair.querySelector('.defense') ? pair.querySelector('.defense').dataset.card : null,
    }));
    window.frames_seen.push({plies: Number(table.dataset.plies), table: cards});
  };
  new MutationObserver(note).observe(table, {attributes: true, attributeFilter: ['data-plies'],
                                             childList: true});
  new MutationObserver((changes) => {
    for (const change of changes) for (const node of change.addedNodes) window.spoken.push(node.textContent);
  }).observe(document.getElementById('announce'), {childList: true});
}"""


def test_engine_moves_appear_one_by_one_at_the_players_pace(browser: Browser, server: Server) -> None:
    """At the normal pace each engine move of a reply is shown on its own, in the order of the game's
    history, the table as the history's `after` says, and read out to screen readers in that order;
    with the pace off a reply lands at once. A table you take is marked in your hand."""
    errors: list[str] = []
    page = open_page(browser, server, DESKTOP, errors, pace="normal")
    start_game(page, server, "en", seed=8, preset="durak", players=3, pace="normal")
    page.evaluate(RECORD)
    start = len(seat_view(page, server)["history"])
    # Your own card is on the table at once, while the server thinks.
    held: list[Any] = []
    page.route("**/moves", lambda route: held.append(route))
    first = page.locator("#hand button.card.legal").first
    card = first.get_attribute("data-card")
    first.click()
    for _ in range(1000):
        if held:
            break
        page.evaluate("0")  # lets Playwright run the route handler
    assert held and page.locator(f"#table .card[data-card='{card}']").count() == 1
    assert page.locator(f"#hand [data-card='{card}']").count() == 0
    held[0].continue_()
    page.wait_for_function(IDLE)
    page.unroute("**/moves")
    moves = 1
    while moves < 4:
        view = seat_view(page, server)
        assert view["status"] == "playing"
        page.keyboard.press("1")
        page.wait_for_function(IDLE)
        moves += 1
    history = seat_view(page, server)["history"]
    frames = page.evaluate("window.frames_seen")
    shown = [frame["plies"] for frame in frames]
    theirs = [index for index in range(start, len(history)) if history[index]["seat"] != 0]
    assert len(theirs) >= 4
    for index in theirs:  # every engine move had a frame of its own, showing the table after it
        matching = [frame for frame in frames if frame["plies"] == index + 1]
        assert matching, f"engine move {index} was never shown on its own"
        assert matching[0]["table"] == history[index]["after"]["table"]
    assert shown == sorted(shown)  # in the order they were played
    spoken = page.evaluate("window.spoken")
    assert spoken == [f"Seat {history[i]['seat']}: {_move_text(history[i]['move'])}" for i in theirs]

    # The pace off: a reply of any length lands in one step.
    page.select_option("#pace", "off")
    for _ in range(30):
        view = seat_view(page, server)
        assert view["status"] == "playing"
        page.evaluate("window.frames_seen = []")
        page.keyboard.press("1")
        page.wait_for_function(IDLE)
        after = seat_view(page, server)["history"]
        if len(after) - len(view["history"]) >= 3:
            plies = {frame["plies"] for frame in page.evaluate("window.frames_seen")}
            assert plies <= {len(view["history"]), len(after)}
            break
    else:
        raise AssertionError("no reply of two engine moves or more")
    assert errors == []
    page.close()


def test_a_table_you_take_is_marked_in_your_hand(browser: Browser, server: Server) -> None:
    """Take when defending: the cards that came from the table into your hand are marked (and say
    so to screen readers) until your next move."""
    errors: list[str] = []
    page = open_page(browser, server, DESKTOP, errors)
    start_game(page, server, "en", seed=4, preset="durak", players=2)
    for _ in range(60):
        view = seat_view(page, server)
        assert view["status"] == "playing", "the game ended before a take"
        if any(move["action"] == "take" for move in view["legal_moves"]):
            break
        page.keyboard.press("1")
        page.wait_for_function(IDLE)
    before = set(view["position"]["hand"])
    on_table = {card for pair in view["position"]["table"] for card in pair.values() if card}
    page.keyboard.press("t")
    page.wait_for_function(IDLE)
    after = seat_view(page, server)
    tables = [on_table] + [
        {card for pair in entry["after"]["table"] for card in pair.values() if card}
        for entry in after["history"][len(view["history"]):]
    ]
    expected = {card for card in set(after["position"]["hand"]) - before if any(card in t for t in tables)}
    assert expected
    marked = page.locator("#hand button.card.picked").evaluate_all("cards => cards.map(c => c.dataset.card)")
    assert set(marked) == expected
    first = page.locator("#hand button.card.picked").first
    assert first.get_attribute("aria-description") == "just picked up"
    page.keyboard.press("1")
    page.wait_for_function(IDLE)
    if seat_view(page, server)["status"] == "playing":
        assert page.locator("#hand button.card.picked").count() == 0
    assert errors == []
    page.close()


SUIT_ORDER = "shcd"
RANKS = "23456789TJQKA"


def _cards(page: Page, selector: str) -> list[str]:
    return list(page.locator(selector).evaluate_all("cards => cards.map(c => c.dataset.card)"))


def test_a_real_table_seats_fanned_hand_readable_cards_and_drag(
    browser: Browser, server: Server, shots: Path
) -> None:
    """Four seats: the opponents sit round the table with the attacker and defender marked, your hand
    is sorted with the trumps apart, every card shows rank and suit in both top corners (a beaten
    card keeps its corner in view), a card you cannot play says why (the API's reason, by the hand),
    and a card dragged onto the table is played."""
    errors: list[str] = []
    page = open_page(browser, server, DESKTOP, errors)
    start_game(page, server, "en", seed=6, preset="durak", players=4)
    assert page.locator("#opponents .opponent").count() == 3
    flanks = page.locator("#opponents .opponent.flank").evaluate_all("els => els.map(e => e.dataset.seat)")
    assert flanks == ["1", "3"]
    dragged = covered = explained = False
    for _ in range(80):
        view = seat_view(page, server)
        if view["status"] != "playing" or (dragged and covered and explained):
            break
        position = view["position"]
        # Attacker and defender marked, at the table or in your hand's heading.
        for role, seat in (("attacking", position["attacker"]), ("defending", position["defender"])):
            if seat == 0:
                assert page.inner_text("#my-role") in ("attacks", "defends", "takes")
            else:
                marked = page.locator(f"#opponents .opponent.{role}")
                assert marked.evaluate("e => e.dataset.seat") == str(seat)
        # The hand: plain cards by suit then rank, the trumps apart.
        trump = position["trump"][1]
        plain = _cards(page, "#hand .suit-group:not(.trumps) .card")
        trumps = _cards(page, "#hand .suit-group.trumps .card")
        assert sorted(plain + trumps) == sorted(position["hand"])
        assert all(card[1] == trump for card in trumps) and all(card[1] != trump for card in plain)
        assert plain == sorted(plain, key=lambda c: (SUIT_ORDER.index(c[1]), RANKS.index(c[0])))
        # Rank and suit in both top corners of every card.
        for card in page.locator("#hand .card, #table .card").all():
            name = card.get_attribute("data-card") or ""
            text = card_text(name)
            corners = card.locator(".corner").evaluate_all("els => els.map(e => e.textContent)")
            assert corners == [text, text]
        for pair in page.locator("#table .pair:has(.defense)").all():
            corner = pair.locator(".attack .corner.left")
            box = corner.bounding_box()
            assert box is not None
            on_top = page.evaluate(
                "([x, y]) => document.elementFromPoint(x, y).closest('.card').dataset.card",
                [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
            )
            assert on_top == pair.locator(".attack").get_attribute("data-card")
            covered = True
        if position["to_move"] == 0 and view["legal_moves"]:
            playable = {move.get("card") for move in view["legal_moves"]}
            stuck = [card for card in position["hand"] if card not in playable]
            if stuck and not explained:
                button = page.locator(f"#hand button[data-card='{stuck[0]}']")
                assert button.get_attribute("aria-disabled") == "true"
                assert button.evaluate("b => !b.disabled")  # focusable and clickable, not greyed out
                button.click(force=True)  # Playwright itself would wait for an aria-disabled button
                page.wait_for_selector("#why-not:not([hidden])")  # by the hand, not the message line
                assert page.locator("#message").is_hidden()
                reason = view["unplayable"][stuck[0]]["reason"]  # the API's reason, in the page's words
                words = page.evaluate(
                    "async (key) => (await import('/static/words.js')).WORDS.en[key]", "why_" + reason)
                assert page.inner_text("#why-not").startswith(words.split("{card}")[0])
                explained = True
            cards = [m.get("card") for m in view["legal_moves"]]
            single = [m for m in view["legal_moves"] if m.get("card") and cards.count(m["card"]) == 1]
            if single and not dragged:
                card = single[0]["card"]
                source = page.locator(f"#hand button[data-card='{card}']").bounding_box()
                target = page.locator(".board").bounding_box()
                assert source and target
                page.mouse.move(source["x"] + source["width"] / 2, source["y"] + source["height"] / 2)
                page.mouse.down()
                x0, y0 = source["x"] + source["width"] / 2, source["y"] + source["height"] / 2
                x1, y1 = target["x"] + target["width"] * 0.6, target["y"] + target["height"] / 2
                for step in range(1, 11):
                    page.mouse.move(x0 + (x1 - x0) * step / 10, y0 + (y1 - y0) * step / 10)
                page.mouse.up()
                page.wait_for_function(IDLE)
                played = seat_view(page, server)["history"][len(view["history"])]
                assert played["seat"] == 0 and played["move"] == single[0]
                dragged = True
                continue
        page.keyboard.press("1")
        page.wait_for_function(IDLE)
    assert dragged and covered and explained
    page.screenshot(path=str(shots / "table-4-seats.png"))
    assert errors == []
    page.close()


@pytest.mark.parametrize(
    ("lang", "viewport"), [pytest.param("en", DESKTOP, marks=pytest.mark.long), ("vi", PHONE)]
)
def test_no_serious_accessibility_findings(
    browser: Browser, server: Server, lang: str, viewport: dict[str, int]
) -> None:
    """axe-core finds nothing serious (contrast, names, labels, roles…) on the new-game form, the table
    with a hint open, the game over, and the rules page."""
    errors: list[str] = []
    page = open_page(browser, server, viewport, errors)
    page.goto(server.url + "/")
    page.select_option("#lang", lang)
    assert axe_findings(page) == []
    start_game(page, server, lang, seed=9, preset="durak", players=3)
    page.keyboard.press("h")
    page.wait_for_selector("#hint-moves .hint-move")
    page.wait_for_function(IDLE)
    assert axe_findings(page) == []
    for _ in range(300):
        if page.locator("#over").is_visible():
            break
        page.keyboard.press("1")
        page.wait_for_function(IDLE)
    assert page.locator("#over").is_visible()
    assert axe_findings(page) == []
    page.goto(server.url + "/static/rules.html")
    assert axe_findings(page) == []
    assert errors == []
    page.close()


def _shown(page: Page) -> tuple[int, list[str]]:
    """How many moves the page's log shows, and the hand it shows."""
    return page.locator("#history li").count(), sorted(_cards(page, "#hand .card"))


def test_the_game_survives_a_reload_a_second_tab_and_a_browser_restart(
    browser: Browser, server: Server
) -> None:
    """The game's key is kept in localStorage: a second tab opens the same game and both follow each
    other's moves, a reload and a browser restart (a new browser with the same storage) carry on,
    and the new-game form offers to continue it."""
    errors: list[str] = []
    first = open_page(browser, server, DESKTOP, errors)
    start_game(first, server, "vi", seed=12, preset="durak", players=2)
    for _ in range(2):
        first.keyboard.press("1")
        first.wait_for_function(IDLE)
    second = first.context.new_page()
    watch(second, server, errors)
    second.goto(server.url + "/")
    second.wait_for_selector("#game:not([hidden])")
    second.wait_for_function(IDLE)
    assert _shown(second) == _shown(first)
    second.keyboard.press("1")  # a move in the second tab…
    second.wait_for_function(IDLE)
    plies = second.locator("#history li").count()
    # …reaches the first.
    first.wait_for_function(f"() => document.querySelectorAll('#history li').length === {plies}")
    assert _shown(first) == _shown(second)
    first.keyboard.press("1")
    first.wait_for_function(IDLE)
    assert first.locator("#message").is_hidden()
    first.reload()
    first.wait_for_selector("#game:not([hidden])")
    first.wait_for_function(IDLE)
    before = _shown(first)
    assert before[0] > plies
    # The new-game form offers to continue the game.
    first.keyboard.press("n")
    assert first.inner_text("#back-to-game") == "Chơi tiếp ván đang dở"
    first.click("#back-to-game")
    assert first.locator("#game").is_visible() and _shown(first) == before
    # A browser restart: a new browser context with the storage the first one left.
    kept = first.context.storage_state()
    first.context.close()
    again = open_page(browser, server, DESKTOP, errors, storage_state=kept)
    again.goto(server.url + "/")
    again.wait_for_selector("#game:not([hidden])")
    again.wait_for_function(IDLE)
    assert _shown(again) == before
    assert errors == []
    again.context.close()


def test_a_busy_server_is_retried_quietly_and_the_move_kept(browser: Browser, server: Server) -> None:
    """Two 503 busy answers to a move: the page says quietly that it is sending the move again,
    waits, sends it again, and the move is played — no error, nothing dropped."""
    errors: list[str] = []
    page = open_page(browser, server, DESKTOP, errors)
    start_game(page, server, "en", seed=14, preset="durak", players=2)
    view = seat_view(page, server)
    busy = json.dumps({"detail": "all 1 search slots are busy; retry in 1 s", "code": "busy"})
    sent: list[str] = []

    def answer(route: Any) -> None:
        sent.append(route.request.post_data or "")
        if len(sent) <= 2:
            route.fulfill(
                status=503, content_type="application/json", body=busy, headers={"Retry-After": "1"}
            )
        else:
            route.continue_()

    page.route("**/moves", answer)
    move = view["legal_moves"][0]
    page.keyboard.press("1")
    # Read in the same instant the note shows: under load the retry may end before a second look.
    page.wait_for_function(
        "() => { const note = document.getElementById('retry-note');"
        " return !note.hidden && note.textContent.includes('busy')"
        " && document.getElementById('message').hidden; }"
    )
    page.wait_for_function(IDLE)
    page.unroute("**/moves")
    assert len(sent) == 3 and len(set(sent)) == 1  # the same move, sent three times
    played = seat_view(page, server)["history"][len(view["history"])]
    assert played["seat"] == 0 and played["move"] == move
    assert page.locator("#message").is_hidden() and page.locator("#retry-note").is_hidden()
    assert [e for e in errors if "503" not in e] == []
    page.close()


def _in_view(page: Page, selector: str) -> bool:
    """Whether the element is wholly inside the screen as it is now scrolled."""
    box = page.locator(selector).first.bounding_box()
    size = page.viewport_size or DESKTOP
    return bool(box) and box["y"] >= 0 and box["y"] + box["height"] <= size["height"] + 0.5 and (
        box["x"] >= 0 and box["x"] + box["width"] <= size["width"] + 0.5
    )


def _click_a_move(page: Page, turn: int) -> None:
    """One move by clicking (or tapping): a card you may play (answering the chooser), or a button."""
    chooser = page.locator("#chooser:not([hidden]) #chooser-options button")
    if chooser.count():
        chooser.nth(turn % chooser.count()).click()
        return
    cards = page.locator("#hand button.card.legal")
    buttons = page.locator("#take-button:not([disabled]), #pass-button:not([disabled])")
    options = [cards.nth(i) for i in range(cards.count())] + [buttons.nth(i) for i in range(buttons.count())]
    if not options:
        options = [page.locator("#setup-buttons button").first]
    options[turn % len(options)].click()


def _key_a_move(page: Page, turn: int) -> None:
    """One move from the keyboard: Enter on the focused card, a digit, or a hint row's digit."""
    focused = page.evaluate("document.activeElement?.matches('#hand button.card.legal') || false")
    if turn % 3 == 0 and focused:
        page.keyboard.press("Enter")
        if page.locator("#chooser:not([hidden])").count():
            page.keyboard.press("Enter")  # the chooser's first option has the focus
    elif turn % 4 == 1:
        page.keyboard.press("h")
        page.wait_for_selector("#hint-moves .hint-move")
        page.wait_for_function(IDLE)
        page.keyboard.press("1")  # the best move
    else:
        page.keyboard.press("1")


@pytest.mark.parametrize(
    ("viewport", "lang", "how"),
    [
        pytest.param(DESKTOP, "vi", "keyboard", marks=pytest.mark.long),
        pytest.param(PHONE, "en", "keyboard", marks=pytest.mark.long),
        (PHONE, "vi", "clicks"),
    ],
    ids=["desktop-vi-keyboard", "phone-en-keyboard", "phone-vi-clicks"],
)
def test_a_whole_game(
    browser: Browser, server: Server, shots: Path, viewport: dict[str, int], lang: str, how: str
) -> None:
    """A whole game of 3-seat Durak, by keyboard or by clicks, on a desktop or a phone: on the phone
    your hand and the action bar stay in view at the bottom, the hint opens as a sheet over the
    table, nothing is wider than the screen, and the game over comes into view."""
    errors: list[str] = []
    page = open_page(browser, server, viewport, errors)
    start_game(page, server, lang, seed=31, preset="durak", players=3)
    phone = viewport == PHONE
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    if phone:
        assert page.locator(".keys-line").is_hidden()
        for selector in ("#hand .card", "#take-button", "#pass-button", "#hint-button"):
            assert _in_view(page, selector), (selector, page.locator(selector).first.bounding_box())
        page.click("#hint-button")
        page.wait_for_selector("#hint-moves .hint-move")
        page.wait_for_function(IDLE)
        assert _in_view(page, "#hint-panel") and _in_view(page, "#hint-moves .hint-move")
        assert page.locator("#hint-panel").evaluate("el => getComputedStyle(el).position") == "fixed"
        page.screenshot(path=str(shots / f"phone-hint-{lang}.png"))
        page.click("#hint-close")
        assert page.locator("#hint-panel").is_hidden()
    turn = 0
    while page.locator("#over").is_hidden():
        assert turn < 300, "the game did not end"
        if how == "clicks":
            _click_a_move(page, turn)
        else:
            _key_a_move(page, turn)
        page.wait_for_function(IDLE)
        assert page.locator("#message").is_hidden(), page.inner_text("#message")
        if phone and turn % 7 == 0 and page.locator("#over").is_hidden():
            page.mouse.wheel(0, 400)  # wherever the page is scrolled, the hand and the buttons stay
            for selector in ("#hand", "#hint-button", "#take-button"):
                assert _in_view(page, selector), selector
        turn += 1
    assert _in_view(page, "#over") and _in_view(page, "#new-game-over")
    result = page.inner_text("#over-title")
    words = {"en": ("You win", "You lose", "Draw"), "vi": ("Bạn thắng", "Bạn thua", "Hòa")}[lang]
    assert any(word in result for word in words)
    assert page.inner_text("#status") == {"en": "Game over.", "vi": "Hết ván."}[lang]
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    page.screenshot(path=str(shots / f"over-{'phone' if phone else 'desktop'}-{lang}.png"))
    assert errors == []
    page.close()


STRICT_CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)


def test_the_page_works_under_a_strict_content_security_policy(browser: Browser, server: Server) -> None:
    """Served with a strict Content-Security-Policy (no inline script or style), the page, its moves
    played at the normal pace (cards flying), its hint and the rules page run without a violation."""
    errors: list[str] = []
    page = open_page(browser, server, DESKTOP, errors, pace="normal")

    def strict(route: Any) -> None:
        response = route.fetch()
        route.fulfill(response=response, headers={**response.headers, "content-security-policy": STRICT_CSP})

    page.route(lambda url: url.endswith(("/", ".html")), strict)
    page.add_init_script(
        "window.violations = []; document.addEventListener('securitypolicyviolation',"
        " (e) => window.violations.push(e.violatedDirective));"
    )
    start_game(page, server, "en", seed=8, preset="durak", players=3, pace="normal")
    # The policy is in force: an inline style attribute is refused (then forgotten).
    page.evaluate("document.body.insertAdjacentHTML('beforeend', '<b id=probe style=\"color: red\"></b>')")
    page.wait_for_function("() => window.violations.length > 0")
    assert page.evaluate("window.violations").pop().startswith("style-src")
    page.evaluate("document.getElementById('probe').remove(); window.violations = []")
    errors.clear()
    for _ in range(3):
        page.keyboard.press("1")
        page.wait_for_function(IDLE)
    page.keyboard.press("h")
    page.wait_for_selector("#hint-moves .hint-move")
    page.wait_for_function(IDLE)
    assert page.evaluate("window.violations") == []
    page.goto(server.url + "/static/rules.html")
    assert page.locator("article[data-lang='en']").is_visible()
    assert page.evaluate("window.violations") == []
    assert errors == []
    page.close()
