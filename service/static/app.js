/* Tấn — play bài Tấn / Durak against the engines, with hints.
 *
 * Plain JavaScript, no build step and nothing fetched from elsewhere: the page talks only
 * to this service's API (docs/api.md §3). The human is seat 0; the game's id and token live in
 * localStorage, so the game survives a reload, a second tab and a browser restart; the chosen
 * language, the pace of the engines' moves and the form's last choices are kept there too.
 */
"use strict";

(() => {
  // -- words ---------------------------------------------------------------------------------

  const TEXT = TAN_WORDS; // words.js

  const RANKS = "23456789TJQKA";
  const SUIT_GLYPH = { s: "♠", h: "♥", d: "♦", c: "♣" };
  const SUIT_ORDER = "shcd"; // alternate black and red in the hand
  // The engine and its thinking time behind each difficulty: Easy plays the greedy policy, Medium
  // and Hard search (ISMCTS) for a short and a longer time a move (BENCHMARKS.md: strength grows
  // with the time).
  const LEVELS = {
    easy: { engine: "greedy" },
    medium: { engine: "ismcts", timeMs: 100 },
    hard: { engine: "ismcts", timeMs: 600 },
  };
  const MAX_SEED = 2n ** 63n - 1n; // the API's largest seed
  const GAME_KEY = "tan.game";
  const MOVED_KEY = "tan.moved"; // "id:plies" of the last move this browser saw, for the other tabs
  const LANG_KEY = "tan.lang";
  const SETUP_KEY = "tan.setup";
  const RECENT_MAX = 8; // the engines' replies shown above the hand (the history has them all)
  const REVIEW_ITERATIONS = 5000; // each decision's search in a review (the server caps it)
  const REVIEW_POLL_MS = 300; // how often a queued review's progress is read
  const LABELS = ["good", "inaccuracy", "mistake", "blunder", "forced", "unscored"];
  const TRACKER_KEY = "tan.tracker"; // "closed" when the tracker panel is folded
  const TRACKER_TOP = 6; // an opponent's likeliest unseen cards shown
  const TRACKER_MIN = 0.3; // from this chance on

  const $ = (id) => document.getElementById(id);

  const state = {
    lang: "vi",
    game: null, // the GET /v1/games/{id}?seat=0 answer
    id: null,
    token: null,
    setup: null, // the form's values of this game, for "replay"
    hint: null,
    hintFor: -1, // history length the hint was computed for
    choosing: null, // {card, moves} while the chooser is open
    tracker: null, // {key, id, plies, data: the GET /v1/games/{id}/tracker?seat=0 answer}
    trackerAsked: null, // the key of the tracker request in flight
    trackerError: null,
    busy: false, // false, or what is being waited for: "move" (engines reply too), "hint" or "review"
    review: null, // {id, data: the review its job answered, at: the decision shown, open}
    reviewProgress: null, // {done, total} of the review's job while it runs
    playersRange: {}, // [fewest, most] seats of each preset, from GET /v1/rules
    presets: {}, // every option of each preset, from GET /v1/rules
    engines: {}, // each engine a seat may be, by name, from GET /v1/rules (engine_details)
    limits: null, // the most the server accepts (seats, match_games, time_ms), from GET /v1/rules
    saved: null, // the form's last choices, put back once GET /v1/rules has built the form
    pace: "normal", // how engine moves are shown: "off" (at once), "normal" or "slow"
    pending: null, // {move, base}: seat 0's move on its way, shown on the table at once
    playback: null, // {base, history, entries, at}: an answer's new moves, shown one at a time
    skip: false, // show the rest of the playback at once
    retrying: false, // a request refused by a busy server is being sent again
    wake: null, // ends the pause between two moves of a playback
    picked: new Set(), // cards seat 0 just picked up from the table, marked in the hand
    dragged: false, // a card was just dragged: the click that ends the drag is not a click
  };

  // -- storage that may be missing (private windows, file://) ---------------------------------

  const store = {
    get(area, key) {
      try { return window[area].getItem(key); } catch { return null; }
    },
    set(area, key, value) {
      try {
        if (value === null) window[area].removeItem(key); else window[area].setItem(key, value);
      } catch { /* storage unavailable: keep in memory only */ }
    },
  };

  // -- language ------------------------------------------------------------------------------

  // `fallback`: the text when neither language has the key (an engine or a rule the server lists
  // that this page has no words for: the server's own description).
  function t(key, vars, fallback) {
    const words = TEXT[state.lang] || TEXT.en;
    let text = key in words ? words[key] : TEXT.en[key] ?? fallback ?? key;
    if (vars) for (const [name, value] of Object.entries(vars)) text = text.split(`{${name}}`).join(String(value));
    return text;
  }

  function setLanguage(lang) {
    state.lang = TEXT[lang] ? lang : "en";
    store.set("localStorage", LANG_KEY, state.lang);
    document.documentElement.lang = state.lang;
    $("lang").value = state.lang;
    for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n, null, el.dataset.i18nFallback);
    for (const el of document.querySelectorAll("[data-i18n-label]")) el.setAttribute("aria-label", t(el.dataset.i18nLabel));
    for (const el of document.querySelectorAll("[data-i18n-placeholder]")) el.placeholder = t(el.dataset.i18nPlaceholder);
    document.title = state.lang === "vi" ? "Tấn — chơi bài Tấn / Durak" : "Tấn — play bài Tấn / Durak";
    showTimeNote();
    render();
  }

  // -- messages ------------------------------------------------------------------------------

  function showMessage(text, kind = "error") {
    const box = $("message");
    $("message-text").textContent = text;
    box.classList.toggle("info", kind !== "error");
    box.hidden = false;
  }

  function clearMessage() {
    $("message").hidden = true;
    $("message-text").textContent = "";
  }

  class ApiFailure extends Error {
    constructor(status, code, detail, retryAfter) {
      super(detail);
      this.status = status;
      this.code = code;
      this.retryAfter = retryAfter;
    }
    // The failure in the page's language, from its code (the server's detail is English).
    describe() {
      if (this.status === 0) return t("networkError");
      if (this.code === "busy") return t("busy", { s: this.retryAfter || 1 });
      const key = "err_" + this.code;
      return key in TEXT.en ? t(key) : t("errorOther", { status: this.status });
    }
  }

  // A saved game the server no longer has (or will not show): its code kept, the words the page's.
  class GoneGame extends Error {
    constructor(failure) {
      super(t("gameGone"));
      this.failure = failure;
    }
  }

  function showError(error) {
    if (error instanceof GoneGame) {
      showMessage(error.message, "error");
      $("message").dataset.code = error.failure.code;
      return;
    }
    const text = error instanceof ApiFailure ? error.describe() : (error && error.message ? error.message : String(error));
    showMessage(text, "error");
    // The code and the server's own words stay within reach for a bug report.
    $("message").dataset.code = error instanceof ApiFailure ? error.code : "";
    $("message-text").title = error instanceof ApiFailure && error.message ? error.message : "";
  }

  // -- the API -------------------------------------------------------------------------------

  // Retry quietly what a busy server (503), a race (409), a flood guard (429) or a lost connection
  // refused, with a growing pause (the server's Retry-After at least), so a move is never dropped.
  const RETRY_CODES = ["busy", "conflict", "too_many_requests", "network"];
  const RETRY_MAX = 40; // about five minutes at the longest pause
  const RETRY_PAUSE = [500, 8000]; // ms: the first pause, and the longest

  // `retry`: true for every code above, or a list of the codes to retry.
  async function api(method, path, body, { retry = false } = {}) {
    let pause = RETRY_PAUSE[0];
    for (let attempt = 0; ; attempt++) {
      try {
        const answer = await request(method, path, body);
        if (state.retrying) { state.retrying = false; renderRetry(); }
        return answer;
      } catch (error) {
        const codes = Array.isArray(retry) ? retry : retry ? RETRY_CODES : [];
        if (!(error instanceof ApiFailure && codes.includes(error.code) && attempt < RETRY_MAX)) {
          if (state.retrying) { state.retrying = false; renderRetry(); }
          throw error;
        }
        state.retrying = true;
        renderRetry();
        const asked = Number(error.retryAfter) * 1000 || 0;
        await new Promise((done) => setTimeout(done, Math.max(pause, asked)));
        pause = Math.min(pause * 2, RETRY_PAUSE[1]);
      }
    }
  }

  // The quiet note while a request is being sent again.
  function renderRetry() {
    const note = $("retry-note");
    note.hidden = !state.retrying;
    note.textContent = state.retrying ? t("retrying") : "";
  }

  async function request(method, path, body) {
    const headers = { Accept: "application/json" };
    if (state.token) headers.Authorization = `Bearer ${state.token}`;
    if (body !== undefined) headers["Content-Type"] = "application/json";
    let response;
    try {
      const text = body === undefined || typeof body === "string" ? body : JSON.stringify(body);
      response = await fetch(path, { method, headers, body: text });
    } catch (error) {
      throw new ApiFailure(0, "network", String(error && error.message ? error.message : error));
    }
    const text = await response.text();
    let data = null;
    try { data = text ? JSON.parse(text) : null; } catch { data = null; }
    if (data && typeof data.seed === "number") data.seed = exactSeed(text);
    if (!response.ok) {
      const detail = data && typeof data.detail === "string" ? data.detail : text || response.statusText;
      const code = data && data.code ? data.code : "http_" + response.status;
      throw new ApiFailure(response.status, code, detail, response.headers.get("Retry-After"));
    }
    return data;
  }

  // A game view's seed (its last field) as the digits sent, not a number rounded past 2^53.
  function exactSeed(text) {
    const found = /"seed":\s*(\d+)\s*\}\s*$/.exec(text);
    return found ? found[1] : null;
  }

  // The request's JSON with `seed` written as its digits (a JavaScript number would round it).
  function withSeed(request, seed) {
    const text = JSON.stringify(request);
    return seed === null || seed === undefined ? text : `{"seed":${seed},${text.slice(1)}`;
  }

  // Run one request at a time; the page shows it is busy meanwhile.
  async function busyWith(work, kind = "move") {
    if (state.busy) return undefined;
    state.busy = kind;
    document.body.classList.add("busy");
    document.body.setAttribute("aria-busy", "true");
    render();
    try {
      return await work();
    } catch (error) {
      showError(error);
      return undefined;
    } finally {
      state.busy = false;
      document.body.classList.remove("busy");
      document.body.removeAttribute("aria-busy");
      render();
      keepFocus();
    }
  }

  // After a re-render the focused button may be gone: put keyboard focus somewhere useful.
  function keepFocus() {
    const active = document.activeElement;
    const visible = active && active.isConnected && active.getClientRects().length > 0;
    if (active && active !== document.body && visible && !active.disabled) return;
    if ($("game").hidden) return;
    const candidates = [
      reviewOpen() && ($("review-next").disabled ? $("review-prev") : $("review-next")),
      state.choosing && $("chooser-options").querySelector("button"),
      $("hand").querySelector("button.card.legal:not([disabled])"),
      !$("over").hidden && $("new-game-over"),
      $("hint-button"),
    ];
    const target = candidates.find((el) => el && !el.disabled && el.getClientRects().length > 0);
    if (target) target.focus({ preventScroll: true });
  }

  // -- cards and moves -----------------------------------------------------------------------

  const rankOf = (card) => card[0];
  const suitOf = (card) => card[1];
  const rankText = (card) => (rankOf(card) === "T" ? "10" : rankOf(card));
  const isRed = (card) => suitOf(card) === "h" || suitOf(card) === "d";
  const cardText = (card) => rankText(card) + SUIT_GLYPH[suitOf(card)];
  const cardName = (card) => `${rankText(card)} ${t("suit_" + suitOf(card))}`;

  function miniCard(card) {
    const span = document.createElement("span");
    span.className = "mini" + (isRed(card) ? " red" : "");
    span.textContent = cardText(card);
    span.title = cardName(card);
    return span;
  }

  // A card: rank and suit in both top corners (a card beaten on the table, or overlapped in the
  // fanned hand, still shows one of them), and the suit large in the middle.
  function cardFace(card, element = "span") {
    const el = document.createElement(element);
    el.className = "card" + (isRed(card) ? " red" : "");
    el.dataset.card = card;
    const corners = document.createElement("span");
    corners.className = "corners";
    corners.setAttribute("aria-hidden", "true");
    for (const side of ["left", "right"]) {
      const corner = document.createElement("span");
      corner.className = "corner " + side;
      const rank = document.createElement("span");
      rank.className = "rank";
      rank.textContent = rankText(card);
      const small = document.createElement("span");
      small.className = "pip";
      small.textContent = SUIT_GLYPH[suitOf(card)];
      corner.append(rank, small);
      corners.append(corner);
    }
    const suit = document.createElement("span");
    suit.className = "suit";
    suit.setAttribute("aria-hidden", "true");
    suit.textContent = SUIT_GLYPH[suitOf(card)];
    el.append(corners, suit);
    el.setAttribute("aria-label", cardName(card));
    if (element === "span") el.setAttribute("role", "img");
    return el;
  }

  // A move in words of the page's language, with cards as glyphs.
  function moveText(move) {
    switch (move.action) {
      case "attack": return t("attackWith", { card: cardText(move.card) });
      case "defend": return t("defendWith", { target: cardText(move.target), card: cardText(move.card) });
      case "transfer": return t("transferWith", { card: cardText(move.card) });
      case "take": return t("takeMove");
      case "pass": return t("passMove");
      case "redeal": return t("redealMove");
      case "keep": return t("keepMove");
      case "pick": return t("pickMove", { n: move.set });
      case "swap": return t("swapMove");
      default: return JSON.stringify(move);
    }
  }

  const sameMove = (a, b) =>
    a.action === b.action && (a.card || null) === (b.card || null) && (a.target || null) === (b.target || null)
    && (a.set ?? null) === (b.set ?? null);

  const seatName = (seat) => (seat === 0 ? t("you") : t("seatName", { n: seat }));
  const shortSeatName = seatName;

  function sortHand(hand, trumpSuit) {
    const key = (card) => {
      const trump = suitOf(card) === trumpSuit ? 1 : 0;
      return trump * 1000 + SUIT_ORDER.indexOf(suitOf(card)) * 100 + RANKS.indexOf(rankOf(card));
    };
    return [...hand].sort((a, b) => key(a) - key(b));
  }

  const legalMoves = () => (state.game && state.game.status === "playing" ? state.game.legal_moves || [] : []);
  const movesWithCard = (card) => legalMoves().filter((m) => m.card === card);

  // -- following the engines' moves -----------------------------------------------------------
  //
  // Your own move lands on the table at once, while the server answers; then each engine move of
  // the answer is shown one at a time, from the history's `after` states (docs/api.md §3), at the
  // pace the player chose, and read out to screen readers. Cards fly from the seat that played
  // them; a table picked up flies to the taker, a beaten one to the discard pile.

  const PACES = { off: 0, normal: 700, slow: 1500 }; // ms between two engine moves
  const PACE_KEY = "tan.pace";
  const SETUP_ACTIONS = ["redeal", "keep", "pick", "swap"];
  const motion = () => state.pace !== "off" && !window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  const sleep = (ms) => new Promise((done) => { state.wake = done; setTimeout(done, ms); });

  // The table after a move of seat 0, drawn before the server answers (the move alone, nothing the
  // rules do after it: the answer's `after` states take over).
  function tableAfter(table, move) {
    if (move.action === "attack" || move.action === "transfer") return [...table, { attack: move.card, defense: null }];
    if (move.action === "defend") return table.map((pair) => (pair.attack === move.target ? { ...pair, defense: move.card } : pair));
    return table;
  }

  // The position as everyone saw it after a history entry, with seat 0's hand as given.
  function framePosition(base, final, after, hand) {
    return {
      ...final,
      hand,
      hand_counts: after.hand_counts,
      table: after.table,
      stock: after.stock,
      discard: final.discard.slice(0, after.discard),
      attacker: after.attacker,
      defender: after.defender,
      to_move: after.to_move,
      taking: after.taking,
      finished: base.finished,
      known: base.known,
      passed: [],
      phase: final.phase === "setup" ? "setup" : "play",
    };
  }

  // The game as the page shows it: the answer's last state, or the move being sent, or a frame of
  // the reply being played back.
  function shownGame() {
    const game = state.game;
    const play = state.playback;
    if (play) {
      const entries = play.entries.slice(0, play.at + 1);
      const played = entries.filter((entry) => entry.seat === 0 && entry.move.card).map((entry) => entry.move.card);
      const hand = play.base.hand.filter((card) => !played.includes(card));
      const position = framePosition(play.base, game.position, entries[entries.length - 1].after, hand);
      return { ...game, status: "playing", legal_moves: [], history: [...play.history, ...entries], position };
    }
    if (state.pending) {
      const { move, base } = state.pending;
      const position = {
        ...base,
        hand: base.hand.filter((card) => card !== move.card),
        table: tableAfter(base.table, move),
        to_move: null,
      };
      return { ...game, legal_moves: [], position };
    }
    return game;
  }

  // Read a move out to screen readers (the live region #announce), one line per move.
  function announce(text) {
    const line = document.createElement("p");
    line.textContent = text;
    const box = $("announce");
    box.append(line);
    while (box.childElementCount > 6) box.firstElementChild.remove();
  }

  const entrySpoken = (entry) => `${seatName(entry.seat)}: ${moveText(entry.move)}`;

  // Where a seat sits on the page: its place at the table, or your hand.
  function seatBox(seat) {
    if (seat === 0) return $("hand");
    return document.querySelector(`#opponents .opponent[data-seat="${seat}"]`) || $("opponents");
  }

  // Cards new on the table fly in from the seat that played them.
  function flyIn(cards, seat) {
    if (!motion() || !cards.length) return;
    const from = seatBox(seat).getBoundingClientRect();
    const duration = state.pace === "slow" ? 650 : 350;
    for (const el of cards) {
      const to = el.getBoundingClientRect();
      const dx = from.left + from.width / 2 - (to.left + to.width / 2);
      const dy = from.top + from.height / 2 - (to.top + to.height / 2);
      el.animate([{ transform: `translate(${dx}px, ${dy}px) scale(0.8)`, opacity: 0.3 }, { transform: "none", opacity: 1 }],
        { duration, easing: "ease-out" });
    }
  }

  // The cards leaving the table fly to where they go: the taker's hand, or the discard pile.
  function flyOut(elements, target) {
    if (!motion() || !elements.length) return;
    const to = target.getBoundingClientRect();
    const duration = state.pace === "slow" ? 700 : 400;
    for (const el of elements) {
      const from = el.getBoundingClientRect();
      const ghost = el.cloneNode(true);
      ghost.removeAttribute("id");
      ghost.classList.add("ghost");
      ghost.setAttribute("aria-hidden", "true");
      ghost.style.left = `${from.left}px`;
      ghost.style.top = `${from.top}px`;
      document.body.append(ghost);
      const dx = to.left + to.width / 2 - (from.left + from.width / 2);
      const dy = to.top + to.height / 2 - (from.top + from.height / 2);
      ghost.animate([{ transform: "none", opacity: 1 }, { transform: `translate(${dx}px, ${dy}px) scale(0.6)`, opacity: 0 }],
        { duration, easing: "ease-in" }).finished.then(() => ghost.remove(), () => ghost.remove());
    }
  }

  // Show the table change from one shown state to the next: what arrived and what left.
  function animateTable(before, mover) {
    const now = shownGame().position;
    const had = new Set(before.table.flatMap((pair) => [pair.attack, pair.defense]).filter(Boolean));
    const arrived = [...$("table").querySelectorAll(".card[data-card]")].filter((el) => !had.has(el.dataset.card));
    flyIn(arrived, mover);
    if (before.table.length && !now.table.length && before.ghosts) {
      const taker = before.taking ? before.defender : null;
      flyOut(before.ghosts, taker === null ? $("deck-info") : seatBox(taker));
    }
  }

  // A snapshot of the table shown, for animateTable: its pairs, the take, and copies of its cards.
  function tableSnapshot() {
    const pos = shownGame().position;
    const ghosts = [...$("table").querySelectorAll(".card[data-card]")];
    return { table: pos.table, taking: pos.taking, defender: pos.defender, ghosts };
  }

  // Render one step, animating the table change it makes.
  function step(mover) {
    const before = tableSnapshot();
    const rects = before.ghosts.map((el) => el.getBoundingClientRect());
    // Keep where the leaving cards were: they are redrawn as ghosts from these places.
    before.ghosts = before.ghosts.map((el, index) => {
      const copy = el.cloneNode(true);
      copy.getBoundingClientRect = () => rects[index];
      return copy;
    });
    render();
    animateTable(before, mover);
  }

  // Cards that came into seat 0's hand from the table during a reply: marked for a moment.
  function pickedUp(baseHand, entries, pendingTable) {
    const tables = [pendingTable, ...entries.map((entry) => entry.after.table)];
    const seen = new Set(tables.flatMap((table) => table.flatMap((pair) => [pair.attack, pair.defense])).filter(Boolean));
    return state.game.position.hand.filter((card) => !baseHand.includes(card) && seen.has(card));
  }

  // Play the new entries of an answer back one at a time (or at once, with the pace off).
  async function playBack(base, history, answer) {
    const entries = answer.history.slice(history.length);
    const pendingTable = state.pending ? shownGame().position.table : [];
    state.game = answer;
    if (entries.length && state.pace !== "off") {
      state.playback = { base, history, entries, at: 0 };
      state.skip = false;
      const first = entries[0].seat === 0 && state.pending ? 0 : -1; // seat 0's own move is on the table already
      state.pending = null;
      for (let at = 0; at < entries.length; at++) {
        if (at > first && entries[at].seat !== 0 && !state.skip) await sleep(PACES[state.pace] || 0);
        if (state.skip || state.pace === "off") break;
        state.playback.at = at;
        step(entries[at].seat);
        if (entries[at].seat !== 0) announce(entrySpoken(entries[at]));
      }
      if (state.skip || state.pace === "off") {
        const rest = entries.slice(state.playback.at + 1).filter((entry) => entry.seat !== 0);
        if (rest.length) announce(rest.map(entrySpoken).join("; "));
      }
      if (!state.skip && state.pace !== "off") await sleep(Math.min(300, PACES[state.pace]));
      state.playback = null;
    } else {
      state.pending = null;
      const theirs = entries.filter((entry) => entry.seat !== 0);
      if (theirs.length) announce(theirs.map(entrySpoken).join("; "));
    }
    state.picked = new Set(pickedUp(base.hand, entries, pendingTable));
  }

  function setPace(pace) {
    state.pace = PACES[pace] === undefined ? "normal" : pace;
    store.set("localStorage", PACE_KEY, state.pace);
    $("pace").value = state.pace;
    if (state.pace === "off" && state.wake) state.wake();
  }

  // Esc or a click on the table shows the rest of a reply at once.
  function skipPlayback() {
    if (!state.playback) return false;
    state.skip = true;
    if (state.wake) state.wake();
    return true;
  }

  // -- playing -------------------------------------------------------------------------------

  function playMove(move) {
    if (state.busy || !state.game) return;
    closeChooser();
    const base = state.game.position;
    const history = state.game.history;
    state.picked = new Set();
    state.hint = null;
    state.pending = { move, base };
    // expected_ply: the move is meant for the game as shown; if it moved on (another tab, a lost
    // answer), the server refuses it with 409 game_moved_on and the game is shown as it is now.
    const body = { seat: 0, move, expected_ply: history.length };
    busyWith(async () => {
      try {
        let answer;
        try {
          answer = await api("POST", `/v1/games/${encodeURIComponent(state.id)}/moves`, body, { retry: true });
        } catch (error) {
          answer = await movedElsewhere(error, history);
        }
        clearMessage();
        await playBack(base, history, answer);
        announceMoved();
      } finally {
        state.pending = null;
        state.playback = null;
      }
    });
  }

  // Why a card of the hand cannot be played now, in a sentence (docs/rules.md §1.3, §1.4, §1.8).
  function whyNot(card) {
    const game = state.game;
    const pos = game.position;
    if (game.status !== "playing") return t("whyOver");
    if (state.busy || pos.to_move !== 0) return t("whyWait");
    if (pos.phase === "setup") return t("whySetup");
    if (pos.defender === 0 && !pos.taking && pos.table.some((pair) => !pair.defense)) {
      return t("whyBeat", { card: cardText(card) });
    }
    const ranks = new Set(pos.table.flatMap((pair) => [pair.attack, pair.defense]).filter(Boolean).map(rankOf));
    if (gameRules().twos_last && rankOf(card) === "2") return t("whyTwos");
    if (pos.table.length && !ranks.has(rankOf(card))) return t("whyRank", { card: cardText(card) });
    if (pos.table.length) return t("whyLimit");
    return t("noLegal");
  }

  // A move refused because the game went on without this page (played in another tab, or sent
  // twice over a lost connection): the game as it is now, or the refusal if it has not moved.
  async function movedElsewhere(error, history) {
    const stale = error instanceof ApiFailure && ["not_your_turn", "illegal_move", "game_over", "game_moved_on"].includes(error.code);
    if (!stale) throw error;
    const now = await api("GET", `/v1/games/${encodeURIComponent(state.id)}?seat=0`, undefined, { retry: true });
    if (now.history.length <= history.length) throw error;
    const mine = now.history[history.length];
    const sent = state.pending && mine.seat === 0 && sameMove(mine.move, state.pending.move);
    if (!sent) setTimeout(() => showMessage(t("gameChanged"), "info"), 0);
    return now;
  }

  // Another tab moved or started a game: show the game as it is now.
  async function refreshGame() {
    const saved = savedGame();
    if (state.busy || $("game").hidden && !saved) return;
    if (!saved || (state.id && saved.id !== state.id)) { resume(); return; }
    if (!state.id) return;
    const id = state.id;
    try {
      const now = await api("GET", `/v1/games/${encodeURIComponent(id)}?seat=0`);
      if (state.busy || id !== state.id || !state.game || now.history.length === state.game.history.length) return;
      state.game = now;
      state.hint = null;
      state.choosing = null;
      render();
    } catch { /* the next move or reload tells */ }
  }

  function clickCard(card) {
    if (state.busy) return;
    const moves = movesWithCard(card);
    if (moves.length === 0) {
      showMessage(whyNot(card), "info");
      return;
    }
    if (moves.length === 1) {
      playMove(moves[0]);
      return;
    }
    const title = moves.every((m) => m.action === "defend")
      ? t("chooseTarget", { card: cardText(card) })
      : t("chooseFor", { card: cardText(card) });
    openChooser(card, moves, title);
  }

  // -- dragging a card onto the table (a tap or a click plays it too) -------------------------

  // Where a dragged card was let go: on the felt (and on which attack card, if any), or nowhere.
  function dropTarget(x, y) {
    const el = document.elementFromPoint(x, y);
    if (!el || !el.closest(".board")) return null;
    const pair = el.closest(".pair");
    return { attack: pair ? pair.querySelector(".attack").dataset.card : null };
  }

  // A card let go on the table: onto an attack card it beats, that defence; else as a click.
  function dropCard(card, attack) {
    const move = attack && movesWithCard(card).find((m) => m.action === "defend" && m.target === attack);
    if (move) playMove(move);
    else clickCard(card);
  }

  function startDrag(event, card, button) {
    state.dragged = false;
    if (event.button !== 0 || state.busy || reviewOpen() || movesWithCard(card).length === 0) return;
    const start = { x: event.clientX, y: event.clientY };
    let ghost = null;
    const follow = (e) => {
      const dx = e.clientX - start.x;
      const dy = e.clientY - start.y;
      if (!ghost && Math.hypot(dx, dy) < 8) return;
      if (!ghost) {
        const rect = button.getBoundingClientRect();
        ghost = button.cloneNode(true);
        ghost.classList.add("ghost", "dragging");
        ghost.setAttribute("aria-hidden", "true");
        ghost.style.left = `${rect.left}px`;
        ghost.style.top = `${rect.top}px`;
        document.body.append(ghost);
        button.classList.add("lifted");
        state.dragged = true;
      }
      ghost.style.transform = `translate(${dx}px, ${dy}px) rotate(-4deg)`;
      document.querySelector(".board").classList.toggle("drop", !!dropTarget(e.clientX, e.clientY));
    };
    const stop = (e) => {
      window.removeEventListener("pointermove", follow);
      window.removeEventListener("pointerup", stop);
      window.removeEventListener("pointercancel", stop);
      if (!ghost) return;
      ghost.remove();
      button.classList.remove("lifted");
      document.querySelector(".board").classList.remove("drop");
      const target = e.type === "pointerup" ? dropTarget(e.clientX, e.clientY) : null;
      if (target) dropCard(card, target.attack);
    };
    window.addEventListener("pointermove", follow);
    window.addEventListener("pointerup", stop);
    window.addEventListener("pointercancel", stop);
  }

  function openChooser(card, moves, title) {
    state.choosing = { card, moves, title };
    render();
    const first = $("chooser-options").querySelector("button");
    if (first) first.focus();
  }

  function closeChooser() {
    if (!state.choosing) return;
    const card = state.choosing.card;
    state.choosing = null;
    render();
    const back = card && $("hand").querySelector(`button[data-card="${card}"]`);
    if (back && !back.disabled) back.focus();
  }

  function chooserLabel(move) {
    if (move.action === "defend" && state.choosing && state.choosing.card) return t("beat", { target: cardText(move.target) });
    return moveText(move);
  }

  function actionMove(action) {
    return legalMoves().find((m) => m.action === action);
  }

  function transfer() {
    const moves = legalMoves().filter((m) => m.action === "transfer");
    if (moves.length === 1) playMove(moves[0]);
    else if (moves.length > 1) openChooser(null, moves, t("chooseTransfer"));
  }

  // The hint folds away (on a phone it is a sheet over the table) until the next one is asked for.
  function closeHint() {
    state.hint = null;
    $("hint-panel").hidden = true;
    $("hint-button").focus();
  }

  function askHint() {
    if (!state.game || state.game.status !== "playing" || legalMoves().length === 0) return;
    $("hint-panel").hidden = false;
    $("evaluation").textContent = t("hintThinking");
    $("hint-moves").replaceChildren();
    $("hint-note").textContent = "";
    busyWith(async () => {
      const hint = await api("GET", `/v1/games/${encodeURIComponent(state.id)}/hint?seat=0`, undefined, { retry: true });
      clearMessage();
      state.hint = hint;
      state.hintFor = state.game.history.length;
    }, "hint");
  }

  // -- the card tracker (GET /v1/games/{id}/tracker) -------------------------------------------

  // The game view shown: a tracker answer fetched for another one is stale.
  const trackerKey = () => (state.game
    ? `${state.id}:${state.game.history.length}:${state.game.status}:${state.game.position.to_move}`
    : null);

  // Fetch the tracker once the game view is shown, never while a move is on its way (so it never
  // slows one), and drop an answer that comes back for a view no longer shown.
  async function refreshTracker() {
    const key = trackerKey();
    if (!key || state.busy || state.trackerAsked === key) return;
    if ((state.tracker && state.tracker.key === key) || (state.trackerError && state.trackerError.key === key)) return;
    state.trackerAsked = key;
    const id = state.id;
    const plies = state.game.history.length;
    try {
      const data = await api("GET", `/v1/games/${encodeURIComponent(id)}/tracker?seat=0`);
      if (trackerKey() !== key) return;
      state.tracker = { key, id, plies, data };
      state.trackerError = null;
    } catch (error) {
      if (trackerKey() !== key) return;
      state.trackerError = { key, text: error instanceof ApiFailure ? error.describe() : String(error) };
    } finally {
      if (state.trackerAsked === key) state.trackerAsked = null;
    }
    renderTracker();
  }

  // One card's chance: the glyph and the percentage, with the card's name for screen readers.
  function chanceItem(card, chance) {
    const item = document.createElement("li");
    item.className = "chance";
    item.dataset.card = card;
    item.dataset.chance = String(chance);
    const name = document.createElement("span");
    name.className = "sr-label";
    name.textContent = t("trackerChance", { card: cardName(card), p: pct(chance) });
    const glyph = miniCard(card);
    glyph.setAttribute("aria-hidden", "true");
    const value = document.createElement("span");
    value.className = "pct";
    value.setAttribute("aria-hidden", "true");
    value.textContent = pct(chance);
    const meter = document.createElement("span");
    meter.className = "meter";
    meter.setAttribute("aria-hidden", "true");
    const fill = document.createElement("span");
    fill.className = "fill";
    fill.style.width = `${(clamp01(chance) * 100).toFixed(1)}%`;
    meter.append(fill);
    item.append(name, glyph, value, meter);
    return item;
  }

  // What another seat holds, as far as seat 0 can tell: the cards known, then its likeliest unseen ones.
  function trackerSeat(data, pos, seat) {
    const box = document.createElement("section");
    box.className = "tracker-seat";
    box.dataset.seat = String(seat);
    const head = document.createElement("h3");
    head.id = `tracker-seat-${seat}`;
    const count = pos.hand_counts[seat];
    head.textContent = t("trackerSeat", { name: seatName(seat), n: count })
      + (pos.finished.includes(seat) ? ` · ${t("roleDone")}` : "");
    box.setAttribute("aria-labelledby", head.id);
    box.append(head);
    if (count === 0) return box;
    const trumpSuit = suitOf(pos.trump);
    const known = data.known[String(seat)] || [];
    const knownLine = document.createElement("p");
    knownLine.className = "tracker-known small";
    if (known.length) {
      const cards = document.createElement("span");
      cards.className = "mini-cards inline";
      cards.append(...sortHand(known, trumpSuit).map(miniCard));
      knownLine.append(document.createTextNode(t("known") + " "), cards);
    } else {
      knownLine.textContent = t("trackerKnownNone");
    }
    box.append(knownLine);
    if (known.length >= count) return box;
    const likely = Object.entries(data.cards)
      .map(([card, row]) => [card, Number(row[seat]) || 0])
      .filter(([, chance]) => chance >= TRACKER_MIN)
      .sort((a, b) => b[1] - a[1]);
    const label = document.createElement("p");
    label.className = "tracker-likely-label small";
    label.textContent = t(likely.length ? "trackerLikely" : "trackerLikelyNone", { p: pct(TRACKER_MIN) });
    box.append(label);
    if (likely.length) {
      const list = document.createElement("ul");
      list.className = "likely";
      list.append(...likely.slice(0, TRACKER_TOP).map(([card, chance]) => chanceItem(card, chance)));
      if (likely.length > TRACKER_TOP) {
        const more = document.createElement("li");
        more.className = "more muted small";
        more.textContent = t("trackerMore", { n: likely.length - TRACKER_TOP });
        list.append(more);
      }
      box.append(list);
    }
    return box;
  }

  // The tracker panel folds to its heading (a disclosure button), and is remembered so.
  function foldTracker(folded) {
    $("tracker-toggle").setAttribute("aria-expanded", String(!folded));
    $("tracker-body").hidden = folded;
  }

  function renderTracker() {
    const panel = $("tracker-panel");
    const game = state.game;
    panel.hidden = !game || reviewOpen();
    if (panel.hidden) return;
    const pos = game.position;
    const key = trackerKey();
    const fresh = !!(state.tracker && state.tracker.key === key);
    const failed = state.trackerError && state.trackerError.key === key ? state.trackerError.text : null;
    // While the new answer is on its way the last one of this game stays, marked as updating.
    const data = state.tracker && state.tracker.id === state.id ? state.tracker.data : null;
    panel.classList.toggle("stale", !fresh);
    if (data) panel.dataset.plies = String(state.tracker.plies); // the moves the tracker shown had seen
    panel.setAttribute("aria-busy", String(!fresh && !failed));
    let status;
    if (failed) status = t("trackerError", { what: failed });
    else if (!fresh) status = t("trackerLoading");
    else status = t("trackerStock", { n: pos.stock, m: Object.keys(data.cards).length });
    $("tracker-status").textContent = status;
    const gone = data ? data.gone : [];
    $("tracker-gone-title").textContent = t("trackerGone", { n: gone.length });
    const goneBox = $("tracker-gone");
    if (gone.length) goneBox.replaceChildren(...sortHand(gone, suitOf(pos.trump)).map(miniCard));
    else {
      const none = document.createElement("span");
      none.className = "muted small";
      none.textContent = t("trackerGoneNone");
      goneBox.replaceChildren(none);
    }
    const seats = [];
    if (data) for (let seat = 0; seat < pos.players; seat++) if (seat !== data.seat) seats.push(trackerSeat(data, pos, seat));
    $("tracker-seats").replaceChildren(...seats);
    const notes = { weighted: "trackerWeighted", tempered: "trackerWeighted", collapsed: "trackerCollapsed" };
    $("tracker-note").textContent = data ? t(notes[data.beliefs] || "trackerUniform") : "";
  }

  // -- the review of a finished game: a job (POST /v1/games/{id}/analysis, then GET /v1/jobs/{id}) --

  const reviewOpen = () => !!(state.review && state.review.open && state.review.id === state.id);
  const reviewed = () => (reviewOpen() ? state.review.data.moves[state.review.at] || null : null);
  const canReview = () => !!(state.game && state.game.status === "over" && !state.game.match);
  const points = (x) => (Number(x) * 100).toFixed(1);

  function openReview() {
    if (state.busy || !canReview()) return;
    if (state.review && state.review.id === state.id) {
      state.review.open = true;
      render();
      keepFocus();
      return;
    }
    const id = state.id;
    busyWith(async () => {
      try {
        const data = await reviewJob(id);
        clearMessage();
        state.review = { id, data, at: 0, open: true };
      } finally {
        state.reviewProgress = null;
      }
    }, "review");
  }

  // Queue the review and follow its job until it is done; the status line shows its progress.
  async function reviewJob(id) {
    const path = `/v1/games/${encodeURIComponent(id)}/analysis?seat=0&iterations=${REVIEW_ITERATIONS}`;
    let job = await api("POST", path, undefined, { retry: ["busy", "too_many_requests", "network"] });
    const where = `/v1/jobs/${encodeURIComponent(job.id)}`;
    for (;;) {
      state.reviewProgress = job.progress;
      renderReviewProgress();
      if (job.status === "done") return job.result;
      if (job.status === "failed") throw new ApiFailure(500, "internal", job.error || "");
      await new Promise((done) => setTimeout(done, REVIEW_POLL_MS));
      job = await api("GET", where, undefined, { retry: ["network", "busy"] });
    }
  }

  // The review's progress bar: decisions done of the seat's total, while its job runs.
  function renderReviewProgress() {
    const bar = $("review-progress");
    const progress = state.busy === "review" ? state.reviewProgress : null;
    bar.hidden = !progress;
    if (!progress) return;
    bar.max = Math.max(1, progress.total);
    bar.value = progress.done;
    const text = t("reviewProgress", { n: progress.done, of: progress.total });
    bar.setAttribute("aria-valuetext", text);
    bar.title = text;
    if (state.busy === "review") $("status").textContent = text;
  }

  function closeReview() {
    if (!reviewOpen()) return;
    state.review.open = false;
    render();
    $("review-button").focus();
  }

  function stepReview(to) {
    if (!reviewOpen() || state.busy) return;
    const last = state.review.data.moves.length - 1;
    state.review.at = Math.max(0, Math.min(last, to));
    render();
    keepFocus();
  }

  function labelBadge(label) {
    const badge = document.createElement("span");
    badge.className = `verdict-badge label-${LABELS.includes(label) ? label : "unscored"}`;
    badge.textContent = t("label_" + label);
    return badge;
  }

  function reviewLine(text, score, cls) {
    const line = document.createElement("div");
    line.className = "review-move " + cls;
    const what = document.createElement("span");
    what.className = "what";
    what.textContent = text;
    line.append(what);
    if (score !== null && score !== undefined) {
      const value = document.createElement("span");
      value.className = "pct";
      value.textContent = pct(score);
      value.title = t("winChance");
      line.append(value, bar(score));
    }
    return line;
  }

  function renderReview() {
    const panel = $("review");
    const open = reviewOpen();
    panel.hidden = !open;
    document.body.classList.toggle("reviewing", open);
    $("review-button").hidden = !canReview();
    $("review-button").disabled = !!state.busy;
    if (!open) return;
    const { data, at } = state.review;
    const moves = data.moves;
    const entry = moves[at] || null;
    $("review-prev").disabled = !!state.busy || at <= 0;
    $("review-next").disabled = !!state.busy || at >= moves.length - 1;
    $("review-step").textContent = entry
      ? t("reviewStatus", { n: at + 1, of: moves.length, ply: entry.ply + 1 })
      : t("reviewEmpty");

    const detail = $("review-detail");
    detail.replaceChildren();
    detail.dataset.label = entry ? entry.label : "";
    if (entry) {
      const verdict = document.createElement("p");
      verdict.className = "verdict";
      verdict.append(labelBadge(entry.label));
      if (entry.exact) verdict.append(provenBadge());
      let note;
      if (entry.label === "forced") note = t("reviewOnly");
      else if (entry.label === "unscored") note = t("reviewUnscored");
      else if (sameMove(entry.move, entry.best)) note = t("reviewSame");
      else note = t("reviewCost", { n: points(entry.loss) });
      verdict.append(document.createTextNode(" " + note));
      detail.append(
        verdict,
        reviewLine(t("reviewYou", { move: moveText(entry.move) }), entry.played_score, "played"),
        reviewLine(t("reviewEngine", { move: moveText(entry.best) }), entry.best_score, "best"),
      );
    }

    const summary = data.summary;
    const counts = LABELS.filter((label) => summary.labels[label])
      .map((label) => `${t("label_" + label)} ${summary.labels[label]}`).join(", ");
    $("review-summary").textContent = t("reviewSummary", {
      n: summary.decisions, counts: counts || "–", mean: summary.mean_loss === null ? "–" : points(summary.mean_loss),
    });

    const rows = $("review-rows");
    rows.replaceChildren(
      ...moves.map((move, index) => {
        const row = document.createElement("tr");
        row.className = `label-${move.label}` + (index === at ? " current" : "");
        if (index === at) row.setAttribute("aria-current", "step");
        const first = document.createElement("td");
        const jump = document.createElement("button");
        jump.type = "button";
        jump.className = "jump";
        jump.textContent = String(move.ply + 1);
        jump.disabled = !!state.busy;
        jump.setAttribute("aria-label", `${t("reviewPly")} ${move.ply + 1}: ${moveText(move.move)}, ${t("label_" + move.label)}`);
        jump.addEventListener("click", () => stepReview(index));
        first.append(jump);
        const cells = [
          moveText(move.move),
          moveText(move.best),
          move.label === "forced" || move.label === "unscored" ? "–" : points(move.loss),
        ].map((text) => {
          const cell = document.createElement("td");
          cell.textContent = text;
          return cell;
        });
        const verdict = document.createElement("td");
        verdict.append(labelBadge(move.label));
        row.append(first, ...cells, verdict);
        return row;
      }),
    );
    const current = rows.querySelector("tr.current");
    if (current && typeof current.scrollIntoView === "function") current.scrollIntoView({ block: "nearest" });
  }

  // The cards of the reviewed decision in the hand: the one played and the engine's.
  function markReviewedCards(entry) {
    for (const [move, cls] of [[entry.move, "played"], [entry.best, "engine"]]) {
      const card = move && move.card;
      const button = card && $("hand").querySelector(`button[data-card="${card}"]`);
      if (button) button.classList.add(cls);
    }
  }

  // -- games ---------------------------------------------------------------------------------

  const chosenLevel = () => {
    const checked = $("levels").querySelector("input[name=level]:checked");
    return checked && LEVELS[checked.value] ? checked.value : "medium";
  };

  function readForm() {
    const preset = $("preset").value;
    const players = Number($("players").value);
    const level = chosenLevel();
    const expert = $("engine").value; // "": the difficulty chooses
    const engine = expert || LEVELS[level].engine;
    const timeMs = expert ? Number($("time-ms").value) : LEVELS[level].timeMs;
    const seedText = $("seed").value.trim();
    if (seedText !== "" && !/^\d+$/.test(seedText)) throw new Error(t("badSeed"));
    const maxMs = state.limits ? state.limits.time_ms : Infinity; // unknown: the server judges
    if (searches(engine) && !(Number.isInteger(timeMs) && timeMs >= 1 && timeMs <= maxMs)) {
      throw new Error(t("badTime", { max: maxMs }));
    }
    // Left blank, the server draws the seed (63 bits) and shows it only once the game is over: a
    // seed deals every hand. Kept as its digits, since JavaScript numbers stop at 2^53.
    const seed = seedText === "" ? null : seedText.replace(/^0+(?=\d)/, "");
    if (seed !== null && BigInt(seed) > MAX_SEED) throw new Error(t("badSeed"));
    const games = Number($("games").value || "1");
    const maxGames = state.limits ? state.limits.match_games : Infinity;
    if (!(Number.isInteger(games) && games >= 1 && games <= maxGames)) throw new Error(t("badGames", { max: maxGames }));
    const options = {};
    for (const box of $("side-rules").querySelectorAll("input[type=checkbox]")) {
      if (box.checked && !box.disabled) options[box.name] = JSON.parse(box.dataset.toggle);
    }
    return { preset, players, level: expert ? null : level, engine, timeMs, seed, games, options };
  }

  function startGame(setup) {
    const engineSeat = searches(setup.engine)
      ? { engine: setup.engine, limits: { time_ms: setup.timeMs } }
      : { engine: setup.engine };
    const seats = ["human"];
    for (let i = 1; i < setup.players; i++) seats.push(engineSeat);
    const options = setup.options || {};
    const rules = Object.keys(options).length ? { preset: setup.preset, ...options } : setup.preset;
    const request = { rules, players: setup.players, seats };
    if ((setup.games || 1) > 1) request.match = { games: setup.games };
    busyWith(async () => {
      state.token = null;
      // Sent again only when refused before anything was made (a lost answer could mean two games).
      const created = await api("POST", "/v1/games", withSeed(request, setup.seed), { retry: ["busy", "too_many_requests"] });
      clearMessage();
      state.id = created.id;
      state.token = created.tokens[0];
      state.setup = { ...setup, seed: null }; // a seed shows every hand: the page forgets it
      state.hint = null;
      state.choosing = null;
      state.picked = new Set();
      // The deal first, then the engines' moves before yours, one at a time.
      const deal = { ...created.game.position, table: [], to_move: null };
      state.game = created.game.history.length ? { ...created.game, history: [], legal_moves: [], position: deal } : created.game;
      saveGame({ id: state.id, token: state.token, setup: state.setup });
      store.set("localStorage", SETUP_KEY, JSON.stringify({ ...setup, seed: undefined }));
      showGame();
      if (created.game.history.length) await playBack(deal, [], created.game);
    });
  }

  function showGame() {
    $("setup").hidden = true;
    $("game").hidden = false;
    $("new-game-top").hidden = false;
    render();
    keepFocus();
  }

  function showSetup() {
    state.choosing = null;
    $("game").hidden = true;
    $("setup").hidden = false;
    $("new-game-top").hidden = true;
    $("back-to-game").hidden = !state.game && !savedGame();
    $("preset").focus();
  }

  // The saved game's key (its id and seat 0's token): kept in localStorage, so every tab and a
  // browser restart find it (a key kept per tab by an older page is taken up too).
  function savedGame() {
    for (const area of ["localStorage", "sessionStorage"]) {
      let record = null;
      try { record = JSON.parse(store.get(area, GAME_KEY) || "null"); } catch { record = null; }
      if (record && record.id && record.token) return record;
    }
    return null;
  }

  function saveGame(record) {
    store.set("localStorage", GAME_KEY, record ? JSON.stringify(record) : null);
    store.set("sessionStorage", GAME_KEY, null);
  }

  // Tell the other tabs the game moved on (they listen for the storage event).
  function announceMoved() {
    if (state.id && state.game) store.set("localStorage", MOVED_KEY, `${state.id}:${state.game.history.length}`);
  }

  async function resume() {
    const record = savedGame();
    if (!record) return;
    state.id = record.id;
    state.token = record.token;
    state.setup = record.setup || null;
    await busyWith(async () => {
      try {
        state.game = await api("GET", `/v1/games/${encodeURIComponent(state.id)}?seat=0`);
      } catch (error) {
        if (error instanceof ApiFailure && [401, 403, 404].includes(error.status)) {
          saveGame(null); // the server will never show it: forget it
          state.id = state.token = state.game = null;
          throw new GoneGame(error);
        }
        state.game = null;
        throw error;
      }
    });
    if (state.game) showGame();
    else $("back-to-game").hidden = !savedGame(); // the server could not be reached: try again from here
  }

  // -- rendering -----------------------------------------------------------------------------

  // Whether an engine searches (takes a time per move): as GET /v1/rules says, or, before it has
  // answered, as the difficulties use it.
  function searches(name) {
    if (state.engines[name]) return state.engines[name].searches;
    return Object.values(LEVELS).some((level) => level.engine === name && level.timeMs);
  }

  // The time field's note: which engines it is for (none known yet: no note).
  function showTimeNote() {
    const names = Object.values(state.engines).filter((engine) => engine.searches)
      .map((engine) => engine.name.toUpperCase()).join(", ");
    $("time-note").textContent = names ? t("timeNote", { engines: names }) : "";
  }

  // The form's lists from GET /v1/rules: the engines, the side rules a tick switches on, the limits.
  function buildForm(rules) {
    for (const [name, preset] of Object.entries(rules.presets || {})) {
      state.presets[name] = preset;
      if (preset.min_players && preset.max_players) state.playersRange[name] = [preset.min_players, preset.max_players];
    }
    state.limits = rules.limits || null;
    const select = $("engine");
    for (const engine of rules.engine_details || []) {
      state.engines[engine.name] = engine;
      const option = document.createElement("option");
      option.value = engine.name;
      option.dataset.i18n = engine.label;
      option.dataset.i18nFallback = engine.name;
      option.textContent = t(engine.label, null, engine.name);
      select.append(option);
    }
    const box = $("side-rules");
    for (const option of rules.options || []) {
      if (option.toggle === null || option.toggle === undefined) continue;
      const label = document.createElement("label");
      label.className = "check";
      label.id = `option-${option.name}`;
      const input = document.createElement("input");
      input.type = "checkbox";
      input.name = option.name;
      input.dataset.toggle = JSON.stringify(option.toggle);
      input.dataset.requires = JSON.stringify(option.requires || {});
      const name = document.createElement("b");
      name.dataset.i18n = `option_${option.name}`;
      name.dataset.i18nFallback = option.name;
      name.textContent = t(name.dataset.i18n, null, option.name);
      const note = document.createElement("span");
      note.dataset.i18n = `option_${option.name}_note`;
      note.dataset.i18nFallback = option.description;
      note.textContent = t(note.dataset.i18n, null, option.description);
      const text = document.createElement("span");
      text.append(name, " — ", note);
      label.append(input, text);
      box.append(label);
    }
    if (state.limits) {
      $("time-ms").max = String(state.limits.time_ms);
      $("games").max = String(state.limits.match_games);
    }
    showTimeNote();
  }

  function fillPlayers() {
    const preset = $("preset").value;
    const [low, high] = state.playersRange[preset] || [1, 0]; // none until GET /v1/rules answers
    const select = $("players");
    const before = Number(select.value) || 2;
    select.replaceChildren();
    for (let n = low; n <= high; n++) {
      const option = document.createElement("option");
      option.value = String(n);
      option.textContent = String(n);
      select.append(option);
    }
    select.value = String(Math.min(Math.max(before, low), high));
  }

  // A side rule that needs other options (twos_last: the 52-card deck) is off where the preset
  // has other values.
  function syncRuleFields() {
    const preset = state.presets[$("preset").value] || {};
    for (const box of $("side-rules").querySelectorAll("input[type=checkbox]")) {
      const requires = JSON.parse(box.dataset.requires || "{}");
      box.disabled = Object.entries(requires).some(([name, value]) => preset[name] !== value);
      box.closest("label").classList.toggle("disabled", box.disabled);
    }
  }

  function syncEngineFields() {
    const expert = $("engine").value;
    $("time-ms").disabled = !searches(expert);
    $("levels").classList.toggle("overridden", !!expert);
    $("level-note").textContent = expert ? t("levelOverridden") : t("levelNote_" + chosenLevel());
  }

  function render() {
    if (!state.game) return;
    const game = shownGame();
    const entry = reviewed(); // while reviewing: the decision shown, and the table as it was then
    const pos = entry ? entry.position : game.position;
    const over = game.status === "over";
    const trumpSuit = suitOf(pos.trump);
    const myTurn = !over && pos.to_move === 0 && legalMoves().length > 0 && game === state.game;
    $("table").dataset.plies = String(game.history.length); // the moves the table shown has seen

    renderStatus(game, pos, over);
    renderReviewProgress();
    renderOpponents(pos);

    // stock, trump, discard
    const trumpCard = cardFace(pos.trump);
    trumpCard.id = "trump-card";
    trumpCard.classList.add("trump-card");
    $("trump-card").replaceWith(trumpCard);
    const suitSpan = document.createElement("span");
    suitSpan.className = isRed(pos.trump) ? "red" : "";
    suitSpan.textContent = SUIT_GLYPH[trumpSuit];
    const suitName = document.createElement("span");
    suitName.className = "suit-name";
    suitName.textContent = ` ${t("suitLong_" + trumpSuit)} (${cardText(pos.trump)})`;
    $("trump-suit").replaceChildren(suitSpan, suitName);
    $("stock-count").textContent = String(pos.stock);
    $("discard-count").textContent = String(pos.discard.length);
    const pile = document.querySelector(".pile");
    pile.classList.toggle("empty-stock", pos.stock <= 1); // only the trump card is left, or none
    pile.classList.toggle("drawn", pos.stock === 0);
    $("stock-back").title = `${t("stock")}: ${pos.stock}`;
    $("discard-cards").replaceChildren(...pos.discard.map(miniCard));

    renderTable(pos);
    if (reviewOpen()) $("recent").replaceChildren();
    else renderRecent(game);
    renderHand(pos, trumpSuit, myTurn);
    if (entry) markReviewedCards(entry);
    renderChooser();

    // action buttons
    const take = actionMove("take");
    const pass = actionMove("pass");
    const transfers = legalMoves().filter((m) => m.action === "transfer");
    $("take-button").disabled = state.busy || !take;
    $("pass-button").disabled = state.busy || !pass;
    $("transfer-button").hidden = transfers.length === 0;
    $("transfer-button").disabled = state.busy || transfers.length === 0;
    $("hint-button").disabled = state.busy || !myTurn;
    $("actions").hidden = over;
    $("moves-panel").hidden = over;

    renderSetup(pos);
    renderMatch(game);
    renderMoves();
    renderHint();
    renderTracker();
    renderHistory(game);
    renderOver(game, over && !reviewOpen());
    renderReview();

    // The seed comes only with a finished game (before, it would show every hand).
    const seed = over && typeof game.seed === "string" ? game.seed : null;
    const info = [seed !== null ? t("gameInfo", { id: state.id, seed }) : t("gameInfoNoSeed", { id: state.id })];
    const setup = state.setup;
    if (setup && setup.level) info.push(t("gameLevel", { level: t("level_" + setup.level) }));
    else if (setup && setup.engine) info.push(setup.timeMs && searches(setup.engine) ? `${setup.engine} ${setup.timeMs} ms` : setup.engine);
    $("game-info").textContent = info.join(" · ");
    $("replay").hidden = !(state.setup && seed !== null);
    if (!state.busy) refreshTracker(); // after the game view is shown
  }

  // The setup's decisions as buttons (docs/rules.md §1.7): what the seat may do before the first lead.
  function renderSetup(pos) {
    const panel = $("setup-panel");
    const setup = pos.phase === "setup" ? pos.setup : null;
    panel.hidden = !setup;
    if (!setup) return;
    const moves = legalMoves();
    let text = t("setupWait");
    if (setup.step === "redeal" && pos.to_move === 0) text = t("setupRedeal");
    else if (setup.step === "pick" && pos.to_move === 0) text = t("setupPick");
    else if (setup.step === "swap" && pos.to_move === 0) {
      const trumpSuit = suitOf(pos.trump);
      const low = pos.hand.filter((c) => suitOf(c) === trumpSuit).sort((a, b) => RANKS.indexOf(rankOf(a)) - RANKS.indexOf(rankOf(b)))[0];
      const cede = state.game.position.rules && state.game.position.rules.trump_swap_cedes_lead === false ? "" : t("setupCede");
      text = t("setupSwap", { low: low ? cardText(low) : "?", trump: cardText(pos.trump), cede });
    }
    $("setup-text").textContent = text;
    const sets = $("setup-sets");
    sets.replaceChildren();
    if (setup.sets) {
      setup.sets.forEach((part, index) => {
        const row = document.createElement("div");
        row.className = "setup-set";
        const label = document.createElement("span");
        label.className = "label";
        label.textContent = t("setOf", { n: index });
        row.append(label, ...sortHand(part, suitOf(pos.trump)).map(miniCard));
        sets.append(row);
      });
    }
    $("setup-buttons").replaceChildren(
      ...moves.map((move) => {
        const button = document.createElement("button");
        button.type = "button";
        button.className = "action setup-move";
        button.textContent = moveText(move);
        button.disabled = state.busy;
        button.addEventListener("click", () => playMove(move));
        return button;
      }),
    );
  }

  // A match's standings, dealer, trump history, tribute and last game (docs/rules.md §1.9).
  function renderMatch(game) {
    const panel = $("match-panel");
    const match = game.match;
    panel.hidden = !match;
    if (!match) return;
    $("match-title").textContent = t("match", { n: match.game, of: match.games });
    const lines = [t("dealer", { name: seatName(match.dealer) })];
    if (match.trump_suits.length) lines.push(t("trumpHistory", { suits: match.trump_suits.map((s) => SUIT_GLYPH[s]).join(" ") }));
    const tribute = match.tribute;
    if (tribute) {
      const names = { giver: seatName(tribute.giver), receiver: seatName(tribute.receiver) };
      lines.push(tribute.card ? t("tributeGiven", { ...names, card: cardText(tribute.card) }) : t("tributeHidden", names));
    }
    if (match.sitting_out !== null && match.sitting_out !== undefined) lines.push(t("sittingOut", { name: seatName(match.sitting_out) }));
    $("match-info").textContent = lines.join(" · ");
    $("standings").replaceChildren(
      ...match.standings.map((row, seat) => {
        const tr = document.createElement("tr");
        for (const value of [seatName(seat), row.won, row.lost, row.drawn, row.score]) {
          const td = document.createElement("td");
          td.textContent = String(value);
          tr.append(td);
        }
        return tr;
      }),
    );
    const prev = match.previous;
    let what = "";
    if (prev) {
      if (prev.trump_repeat) what = t("prevRepeat", { name: seatName(prev.loser) });
      else if (prev.loser !== null) what = t("prevLoser", { name: seatName(prev.loser) });
      else if (prev.winner !== null) what = t("prevAllTrumps", { name: seatName(prev.winner) });
      else what = t("prevDraw");
    }
    $("match-previous").textContent = prev ? t("previousGame", { n: prev.game, what }) : "";
  }

  function renderStatus(game, pos, over) {
    const status = $("status");
    status.classList.toggle("over", over);
    let text;
    if (state.busy === "review") {
      const progress = state.reviewProgress;
      text = progress ? t("reviewProgress", { n: progress.done, of: progress.total }) : t("reviewThinking");
    }
    else if (over) text = game.match ? t("matchOver") : t("statusOver");
    else if (state.busy === "move") text = state.playback ? t("statusBusy") : t("statusThinking");
    else if (pos.phase === "setup") text = pos.to_move === 0 ? t("beforePlay") : t("setupWait");
    else if (pos.to_move !== 0) text = t("statusWait", { name: seatName(pos.to_move) });
    else if (pos.defender === 0) {
      text = legalMoves().some((m) => m.action === "transfer") ? t("statusDefendTransfer") : t("statusDefend");
    } else if (pos.table.length === 0) text = t("statusLead");
    else if (legalMoves().every((m) => m.action === "pass")) {
      text = pos.taking ? t("statusPassOnlyTaking", { name: seatName(pos.defender) }) : t("statusPassOnly");
    } else if (pos.taking) text = t("statusThrowTaking", { name: seatName(pos.defender) });
    else text = t("statusThrow");
    status.textContent = text;
  }

  function renderOpponents(pos) {
    const box = $("opponents");
    box.replaceChildren();
    for (let seat = 1; seat < pos.players; seat++) {
      const el = document.createElement("div");
      el.className = "opponent";
      el.dataset.seat = String(seat);
      // Seats go round the table from your left: with three opponents or more the first and the
      // last sit at the table's sides.
      if (pos.players >= 4 && (seat === 1 || seat === pos.players - 1)) el.classList.add("flank");
      if (pos.attacker === seat && pos.phase !== "setup") el.classList.add("attacking");
      if (pos.defender === seat && pos.phase !== "setup") el.classList.add("defending");
      const done = pos.finished.includes(seat);
      if (pos.to_move === seat) el.classList.add("to-move");
      if (done) el.classList.add("finished");

      const head = document.createElement("div");
      head.className = "opponent-head";
      const name = document.createElement("span");
      name.className = "opponent-name";
      name.textContent = seatName(seat);
      head.append(name);
      const badge = (cls, text) => {
        const b = document.createElement("span");
        b.className = "badge " + cls;
        b.textContent = text;
        head.append(b);
      };
      if (done) badge("done", t("roleDone"));
      else if (pos.phase === "setup") { /* no bout yet: nobody attacks or defends */ }
      else if (pos.to_move !== null && pos.attacker === seat) badge("attacker", t("roleAttacker"));
      if (pos.phase !== "setup" && pos.to_move !== null && pos.defender === seat) {
        badge(pos.taking ? "taking" : "defender", pos.taking ? t("roleTaking") : t("roleDefender"));
      }
      el.append(head);

      const count = pos.hand_counts[seat];
      const backs = document.createElement("div");
      backs.className = "backs";
      const fan = document.createElement("span");
      fan.className = "backs-fan";
      fan.setAttribute("aria-hidden", "true");
      for (let i = 0; i < Math.min(count, 8); i++) {
        const back = document.createElement("span");
        back.className = "card back";
        fan.append(back);
      }
      const countText = document.createElement("span");
      countText.className = "count";
      countText.textContent = t("cards", { n: count });
      backs.append(fan, countText);
      el.append(backs);

      const known = (pos.known && pos.known[String(seat)]) || [];
      if (known.length) {
        const line = document.createElement("div");
        line.className = "known";
        line.append(document.createTextNode(t("known") + " "));
        const cards = document.createElement("span");
        cards.className = "mini-cards inline";
        cards.append(...sortHand(known, suitOf(pos.trump)).map(miniCard));
        line.append(cards);
        el.append(line);
      }
      box.append(el);
    }
  }

  function renderTable(pos) {
    const table = $("table");
    table.replaceChildren();
    if (pos.table.length === 0) {
      const empty = document.createElement("span");
      empty.className = "empty";
      empty.textContent = t("emptyTable");
      table.append(empty);
      return;
    }
    const targets = new Set(
      state.choosing ? state.choosing.moves.filter((m) => m.action === "defend").map((m) => m.target) : [],
    );
    for (const pair of pos.table) {
      const el = document.createElement("div");
      el.className = "pair" + (pair.defense ? "" : " undefended");
      let attack;
      if (targets.has(pair.attack)) {
        attack = cardFace(pair.attack, "button");
        attack.type = "button";
        attack.classList.add("target");
        const move = state.choosing.moves.find((m) => m.action === "defend" && m.target === pair.attack);
        attack.addEventListener("click", () => playMove(move));
      } else {
        attack = cardFace(pair.attack);
      }
      attack.classList.add("attack");
      el.append(attack);
      if (pair.defense) {
        const defense = cardFace(pair.defense);
        defense.classList.add("defense");
        el.append(defense);
      }
      table.append(el);
    }
  }

  // The rules of the game shown, as an object of every option (the presets come from /v1/rules).
  function gameRules() {
    const rules = state.game ? state.game.position.rules : null;
    const name = rules && typeof rules === "object" ? rules.preset : rules;
    const preset = state.presets[name] || { first_attacker: name === "tan" ? "seat0" : "lowest_trump" };
    return rules && typeof rules === "object" ? { ...preset, ...rules } : preset;
  }

  // Why an engine leads the first bout, before the player has moved (docs/rules.md §1.2): in Durak
  // the seat holding the lowest trump leads.
  function whyLead(game) {
    const number = game.match ? game.match.game : null;
    const ours = game.history.filter((entry) => number === null || entry.game === number);
    if (ours.some((entry) => entry.seat === 0)) return null;
    const lead = ours.find((entry) => entry.move.action === "attack");
    if (!lead || lead.seat === 0 || (number !== null && number > 1)) return null;
    return gameRules().first_attacker === "lowest_trump" ? t("whyLeadLowest", { name: seatName(lead.seat) }) : null;
  }

  function renderRecent(game) {
    const box = $("recent");
    box.replaceChildren();
    const history = game.history;
    let start = history.length;
    while (start > 0 && history[start - 1].seat !== 0) start--;
    if (start === history.length) return;
    const why = whyLead(game);
    if (why) {
      const note = document.createElement("span");
      note.className = "why";
      note.textContent = why + " ";
      box.append(note);
    }
    box.append(document.createTextNode(t(start === 0 ? "recentStart" : "recent") + " "));
    const shown = Math.max(start, history.length - RECENT_MAX);
    if (shown > start) box.append(document.createTextNode("… "));
    for (const entry of history.slice(shown)) {
      const chip = document.createElement("span");
      chip.className = "move-chip";
      chip.textContent = `${shortSeatName(entry.seat)}: ${moveText(entry.move)}`;
      box.append(chip);
    }
  }

  function renderHand(pos, trumpSuit, myTurn) {
    const hand = $("hand");
    const focused = document.activeElement && hand.contains(document.activeElement) ? document.activeElement.dataset.card : null;
    hand.replaceChildren();
    $("hand-count").textContent = `(${t("cards", { n: pos.hand.length })})`;
    const role = $("my-role");
    let mine = null;
    if (pos.finished.includes(0)) mine = ["done", t("roleDone")];
    else if (pos.phase !== "setup" && state.game.status === "playing" && pos.defender === 0) {
      mine = pos.taking ? ["taking", t("roleTaking")] : ["defender", t("roleDefender")];
    } else if (pos.phase !== "setup" && state.game.status === "playing" && pos.attacker === 0) mine = ["attacker", t("roleAttacker")];
    role.hidden = !mine;
    role.className = "badge " + (mine ? mine[0] : "");
    role.textContent = mine ? mine[1] : "";
    const sorted = sortHand(pos.hand, trumpSuit);
    const plain = document.createElement("div");
    plain.className = "suit-group";
    const trumps = document.createElement("div");
    trumps.className = "suit-group trumps";
    const label = document.createElement("span");
    label.className = "group-label";
    label.textContent = `${t("trump")} `;
    const glyph = document.createElement("span");
    glyph.className = trumpSuit === "h" || trumpSuit === "d" ? "red" : "";
    glyph.textContent = SUIT_GLYPH[trumpSuit];
    label.append(glyph);
    trumps.append(label);
    const tilt = (index, count) => (count > 1 ? (index - (count - 1) / 2) * Math.min(3, 18 / count) : 0);
    const count = sorted.length;
    sorted.forEach((card, index) => {
      const button = cardFace(card, "button");
      button.type = "button";
      button.style.setProperty("--tilt", `${tilt(index, count).toFixed(2)}deg`);
      const legal = myTurn && movesWithCard(card).length > 0;
      button.classList.toggle("legal", legal);
      button.classList.toggle("trump", suitOf(card) === trumpSuit);
      button.classList.toggle("chosen", !!(state.choosing && state.choosing.card === card));
      const picked = !!(state.picked && state.picked.has(card));
      button.classList.toggle("picked", picked);
      if (picked) button.setAttribute("aria-description", t("pickedUp"));
      // A card that cannot be played stays readable and focusable; a click says why not.
      if (reviewOpen()) button.disabled = true;
      else if (!legal || state.busy) button.setAttribute("aria-disabled", "true");
      if (suitOf(card) === trumpSuit) button.setAttribute("aria-label", `${cardName(card)}, ${t("trumpCard")}`);
      button.addEventListener("click", () => { if (!state.dragged) clickCard(card); });
      button.addEventListener("pointerdown", (event) => startDrag(event, card, button));
      (suitOf(card) === trumpSuit ? trumps : plain).append(button);
    });
    if (plain.childElementCount) hand.append(plain);
    if (trumps.childElementCount > 1) hand.append(trumps);
    squeezeFan(hand, count, trumps.childElementCount > 1 && plain.childElementCount > 0);
    if (focused) {
      const again = hand.querySelector(`button[data-card="${focused}"]`);
      if (again && !again.disabled) again.focus();
    }
  }

  // Overlap the fanned cards more as the hand grows, so that it fits its width in one row.
  function squeezeFan(hand, count, twoGroups) {
    const card = hand.querySelector(".card");
    if (!card || count < 2) return;
    const width = card.offsetWidth;
    const room = hand.clientWidth - (twoGroups ? 30 : 0) - 20; // the padding, the gap, the tilt
    const step = Math.min(width * 0.62, (room - width) / (count - 1));
    hand.style.setProperty("--fan-step", `${Math.max(10, step) - width}px`);
  }

  function renderChooser() {
    const box = $("chooser");
    if (!state.choosing) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    $("chooser-title").textContent = state.choosing.title;
    const options = $("chooser-options");
    options.replaceChildren(
      ...state.choosing.moves.map((move) => {
        const button = document.createElement("button");
        button.type = "button";
        button.className = "choice";
        button.textContent = chooserLabel(move);
        button.disabled = state.busy;
        button.addEventListener("click", () => playMove(move));
        return button;
      }),
    );
  }

  function renderMoves() {
    const list = $("moves");
    list.replaceChildren(
      ...legalMoves().map((move, index) => {
        const item = document.createElement("li");
        const button = document.createElement("button");
        button.type = "button";
        button.className = "move";
        button.disabled = state.busy;
        const num = document.createElement("span");
        num.className = "num";
        num.textContent = digitFor(index);
        button.append(num, document.createTextNode(moveText(move)));
        button.addEventListener("click", () => playMove(move));
        item.append(button);
        return item;
      }),
    );
  }

  const pct = (x) => `${Math.round(x * 100)}%`;
  const clamp01 = (x) => Math.min(1, Math.max(0, Number(x) || 0));

  // A bar as long as the chance (drawn for the eye only: the text says the number).
  function bar(score, extra = "") {
    const el = document.createElement("div");
    el.className = "bar" + (extra ? " " + extra : "");
    el.setAttribute("aria-hidden", "true");
    const fill = document.createElement("div");
    fill.className = "fill";
    fill.style.width = `${(clamp01(score) * 100).toFixed(1)}%`;
    el.append(fill);
    return el;
  }

  // Marks a value the engine has proven (nothing hidden is left), in words.
  function provenBadge() {
    const badge = document.createElement("span");
    badge.className = "proven";
    badge.textContent = t("proven");
    return badge;
  }

  // The digit that plays a numbered row: 1–9, then 0 for the tenth.
  const digitFor = (index) => (index < 9 ? String(index + 1) : index === 9 ? "0" : "");

  // The hint's rows, best first: by win chance, then by how much the search tried them.
  function hintRows() {
    const hint = hintShown();
    if (!hint) return [];
    return [...hint.moves].sort((a, b) => (b.score - a.score) || ((b.visits || 0) - (a.visits || 0)));
  }

  // The hint for the view shown, or null when there is none (or it was asked for another turn).
  const hintShown = () => (state.hint && state.game && state.hintFor === state.game.history.length ? state.hint : null);

  // With three seats or more, the score is the chance of not being the one left with cards
  // (docs/rules.md §1.5: every seat but the loser scores 1).
  const chanceWord = () => (state.game && state.game.position.players >= 3 ? t("notFoolChance") : t("winChance"));

  // A proven value in words: certain win, draw or loss (a draw scores one half, docs/rules.md §1.5).
  const outcome = (score) => (score >= 0.999 ? "win" : score <= 0.001 ? "loss" : "draw");
  const certainty = (score) => t({ win: "certainWin", loss: "certainLoss", draw: "certainDraw" }[outcome(score)]);

  // What a hinted score says: a percentage, or the proven outcome in words.
  const valueText = (entry) => (entry.exact ? certainty(entry.score) : pct(entry.score));

  // The search's figures, for the tooltip: the 95% interval and the tries.
  function statsText(entry) {
    if (entry.exact) return t("provenNote");
    const lines = [t("interval", { lo: pct(entry.ci95[0]), hi: pct(entry.ci95[1]) })];
    if (entry.visits !== undefined) lines.push(t("visits", { n: Number(entry.visits).toLocaleString(state.lang) }));
    return lines.join(" · ");
  }

  function renderHint() {
    const panel = $("hint-panel");
    const hint = hintShown();
    if (!hint) {
      if (state.busy !== "hint") panel.hidden = true;
      return;
    }
    panel.hidden = false;
    const ev = hint.evaluation;
    const evaluation = $("evaluation");
    evaluation.replaceChildren();
    evaluation.dataset.exact = String(!!ev.exact);
    const label = document.createElement("span");
    label.className = "label";
    label.textContent = ev.exact ? `${t("now")}: ${certainty(ev.score)}` : `${t("now")}: ${chanceWord()} ${pct(ev.score)}`;
    evaluation.title = statsText(ev);
    evaluation.append(label, bar(ev.score, "eval"));

    $("hint-moves").replaceChildren(
      ...hintRows().map((entry, index) => {
        const item = document.createElement("li");
        const button = document.createElement("button");
        button.type = "button";
        button.className = "hint-move" + (index === 0 ? " best" : "");
        button.dataset.score = String(entry.score);
        button.dataset.exact = String(!!entry.exact);
        button.dataset.move = JSON.stringify(entry.move);
        button.disabled = !!state.busy;
        const num = document.createElement("span");
        num.className = "num";
        num.textContent = digitFor(index);
        num.setAttribute("aria-hidden", "true");
        const what = document.createElement("span");
        what.className = "what";
        what.textContent = moveText(entry.move);
        const value = document.createElement("span");
        value.className = "pct" + (entry.exact ? ` certain ${outcome(entry.score)}` : "");
        value.textContent = valueText(entry);
        button.append(num, what, value, bar(entry.score));
        const stats = statsText(entry);
        button.title = stats;
        const spoken = entry.exact ? valueText(entry) : `${chanceWord()} ${pct(entry.score)}`;
        const key = digitFor(index) ? `${t("key")} ${digitFor(index)}: ` : "";
        button.setAttribute("aria-label", `${key}${moveText(entry.move)}, ${spoken}`);
        button.setAttribute("aria-description", stats);
        button.addEventListener("click", () => playMove(entry.move));
        item.append(button);
        return item;
      }),
    );
    const s = hint.stats;
    const note = $("hint-note");
    note.textContent = (state.game.position.players >= 3 ? t("hintNoteFool") : t("hintNote"))
      + (s.calibrated ? " " + t("hintCalibrated") : "");
    note.title = t("stats", { alg: s.algorithm, it: Number(s.iterations).toLocaleString(state.lang), ms: Math.round(s.time_ms) });
  }

  function renderHistory(game) {
    const list = $("history");
    const atBottom = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
    list.replaceChildren(
      ...game.history.map((entry) => {
        const item = document.createElement("li");
        if (entry.seat === 0) item.className = "mine";
        const who = document.createElement("span");
        who.className = "who";
        who.textContent = shortSeatName(entry.seat);
        const what = document.createElement("span");
        what.textContent = moveText(entry.move);
        what.title = entry.notation;
        item.append(who, what);
        return item;
      }),
    );
    if (atBottom) list.scrollTop = list.scrollHeight;
  }

  function renderOver(game, over) {
    const panel = $("over");
    const appearing = over && panel.hidden;
    panel.hidden = !over;
    document.body.classList.toggle("game-over", over);
    if (!over) return;
    if (appearing && typeof panel.scrollIntoView === "function") setTimeout(() => panel.scrollIntoView({ block: "nearest" }), 0);
    const loser = game.loser;
    const winner = game.match && game.match.previous ? game.match.previous.winner : null;
    let text;
    if (loser === 0) text = t("resultLose");
    else if ((loser === null || loser === undefined) && winner !== null && winner !== undefined) {
      text = t("resultAllTrumps", { name: seatName(winner) });
    } else if (loser === null || loser === undefined) text = t("resultDraw");
    else text = t("resultWin", { name: seatName(loser) });
    $("over-title").textContent = text;
    const scores = game.scores || [];
    $("scores").replaceChildren(
      ...scores.map((score, seat) => {
        const row = document.createElement("tr");
        if (seat === loser) row.className = "loser";
        const who = document.createElement("td");
        who.textContent = seatName(seat) + (seat === loser ? ` — ${t("loser")}` : "");
        const value = document.createElement("td");
        value.textContent = String(score);
        row.append(who, value);
        return row;
      }),
    );
  }

  // -- keys ----------------------------------------------------------------------------------

  function onKey(event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA")) return;
    if (reviewOpen() && !$("game").hidden) {
      const at = state.review.at;
      const step = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: Infinity }[event.key];
      if (event.key === "Escape") { closeReview(); event.preventDefault(); return; }
      if (step !== undefined) { stepReview(step); event.preventDefault(); return; }
    }
    if (event.key === "Escape") {
      if (skipPlayback() || state.choosing) { closeChooser(); event.preventDefault(); }
      else if (!$("hint-panel").hidden) { closeHint(); event.preventDefault(); }
      return;
    }
    if ($("game").hidden || !state.game) return;
    const key = event.key.toLowerCase();
    if (key === "n") { showSetup(); event.preventDefault(); return; }
    if (state.busy) return;
    let handled = true;
    if (key === "h") askHint();
    else if (key === "t") { const m = actionMove("take"); if (m) playMove(m); }
    else if (key === "p") { const m = actionMove("pass"); if (m) playMove(m); }
    else if (key === "c") transfer();
    else if (/^[0-9]$/.test(key)) {
      // A digit plays a numbered row: the chooser's, else the hint's (best first), else the legal moves'.
      const index = key === "0" ? 9 : Number(key) - 1;
      let list = legalMoves();
      if (state.choosing) list = state.choosing.moves;
      else if (hintShown()) list = hintRows().map((entry) => entry.move);
      const move = list[index];
      if (move) playMove(move);
    } else handled = false;
    if (handled) event.preventDefault();
  }

  // -- start ---------------------------------------------------------------------------------

  // The form's lists come from GET /v1/rules; then the last choices that need them are put back.
  async function loadForm() {
    try {
      buildForm(await api("GET", "/v1/rules"));
    } catch (error) {
      showError(error); // the difficulties still choose an engine; the server judges the rest
    }
    fillPlayers();
    restoreLists();
  }

  // The form's last choices that need no list from the server, at once; the rest after loadForm.
  function restoreForm() {
    let saved = null;
    try { saved = JSON.parse(store.get("localStorage", SETUP_KEY) || "null"); } catch { saved = null; }
    state.saved = saved && typeof saved === "object" ? saved : null;
    if (state.saved) {
      if (saved.preset) $("preset").value = saved.preset;
      if (saved.level && LEVELS[saved.level]) $("level-" + saved.level).checked = true;
      if (saved.games) $("games").value = String(saved.games);
    }
    syncEngineFields();
    syncRuleFields();
  }

  function restoreLists() {
    const saved = state.saved;
    if (saved) {
      if (saved.players) $("players").value = String(saved.players);
      if (!(saved.level && LEVELS[saved.level]) && saved.engine) {
        $("engine").value = saved.engine;
        if (saved.timeMs) $("time-ms").value = String(saved.timeMs);
        $("advanced").open = true;
      }
      const options = saved.options || {};
      for (const box of $("side-rules").querySelectorAll("input[type=checkbox]")) box.checked = !!options[box.name];
    }
    syncEngineFields();
    syncRuleFields();
  }

  function init() {
    const stored = store.get("localStorage", LANG_KEY);
    const guess = (navigator.language || "").toLowerCase().startsWith("vi") ? "vi" : "en";
    setLanguage(stored && TEXT[stored] ? stored : guess);

    fillPlayers();
    restoreForm();
    $("preset").addEventListener("change", () => { fillPlayers(); syncRuleFields(); });
    $("engine").addEventListener("change", syncEngineFields);
    for (const radio of $("levels").querySelectorAll("input[name=level]")) radio.addEventListener("change", syncEngineFields);
    $("lang").addEventListener("change", (event) => setLanguage(event.target.value));
    setPace(store.get("localStorage", PACE_KEY) || "normal");
    $("pace").addEventListener("change", (event) => setPace(event.target.value));
    $("table").addEventListener("click", skipPlayback);
    $("setup-form").addEventListener("submit", (event) => {
      event.preventDefault();
      let setup;
      try { setup = readForm(); } catch (error) { showError(error); return; }
      startGame(setup);
    });
    $("message-close").addEventListener("click", clearMessage);
    $("take-button").addEventListener("click", () => { const m = actionMove("take"); if (m) playMove(m); });
    $("pass-button").addEventListener("click", () => { const m = actionMove("pass"); if (m) playMove(m); });
    $("transfer-button").addEventListener("click", transfer);
    $("hint-button").addEventListener("click", askHint);
    $("hint-close").addEventListener("click", closeHint);
    // On a phone the hand and the action bar are fixed at the bottom: the page keeps room for them.
    if (typeof ResizeObserver === "function") {
      new ResizeObserver(() => {
        document.documentElement.style.setProperty("--dock-h", `${$("dock").offsetHeight}px`);
      }).observe($("dock"));
    }
    $("chooser-cancel").addEventListener("click", closeChooser);
    $("new-game-top").addEventListener("click", showSetup);
    $("new-game-over").addEventListener("click", showSetup);
    $("back-to-game").addEventListener("click", () => { if (state.game) showGame(); else resume(); });
    window.addEventListener("storage", (event) => {
      if (event.key === GAME_KEY || event.key === MOVED_KEY) refreshGame();
    });
    document.addEventListener("visibilitychange", () => { if (!document.hidden) refreshGame(); });
    $("replay").addEventListener("click", () => {
      if (state.setup && state.game && typeof state.game.seed === "string") startGame({ ...state.setup, seed: state.game.seed });
    });
    $("review-button").addEventListener("click", openReview);
    $("review-close").addEventListener("click", closeReview);
    $("review-prev").addEventListener("click", () => { if (state.review) stepReview(state.review.at - 1); });
    $("review-next").addEventListener("click", () => { if (state.review) stepReview(state.review.at + 1); });
    foldTracker(store.get("localStorage", TRACKER_KEY) === "closed");
    $("tracker-toggle").addEventListener("click", () => {
      const folded = $("tracker-toggle").getAttribute("aria-expanded") === "true";
      foldTracker(folded);
      store.set("localStorage", TRACKER_KEY, folded ? "closed" : null);
    });
    document.addEventListener("keydown", onKey);

    loadForm(); // the engines, side rules, seat ranges and limits
    resume();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
