// The play mode's logic without a browser: the store (service/static/js/store.js), its selectors,
// and the actions that call the API and change the store (play, playback, session, hint, review,
// tracker, busy). The API client asks the global `fetch`: here a stand-in server answers each
// request from a table, in the shapes of docs/api.md §3, and records what the page sent.
import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";
import { api } from "../../service/static/js/api.js";
import { busyWith } from "../../service/static/js/busy.js";
import { ApiFailure } from "../../service/static/js/failures.js";
import { askHint } from "../../service/static/js/hint.js";
import { actionMove, legalMoves } from "../../service/static/js/moves.js";
import { clickCard, closeChooser, dropCard, playAction, playMove, transfer } from "../../service/static/js/play.js";
import { playBack, resumeMatch, skipPlayback } from "../../service/static/js/playback.js";
import { closeReview, openReview, reopenReview, stepDecision, stepMistake, stepReview } from "../../service/static/js/review.js";
import {
  canReview, hintRows, hintShown, reviewableGames, reviewed, reviewGame, reviewOpen, shownGame, trackerKey,
} from "../../service/static/js/selectors.js";
import { gameRequest, startGame } from "../../service/static/js/session.js";
import { changed, state, subscribe } from "../../service/static/js/store.js";
import { refreshTracker } from "../../service/static/js/tracker.js";

// ---- a stand-in server and the store's events ----------------------------------------------------

const json = (body, status = 200, headers = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", ...headers } });
const refusal = (status, code) => json({ code, detail: code }, status);

// Answer `routes["METHOD /path"]` (a Response, or a function of the request giving one; a list is
// answered one item a request); record every request.
function serve(routes) {
  const asked = [];
  globalThis.fetch = async (path, init) => {
    const request = {
      method: init.method, path, text: init.body,
      body: init.body === undefined ? undefined : JSON.parse(init.body),
      auth: init.headers.Authorization,
    };
    asked.push(request);
    const key = `${init.method} ${path.split("?")[0]}`;
    let answer = routes[key];
    if (Array.isArray(answer)) answer = answer.shift();
    if (typeof answer === "function") answer = await answer(request);
    return answer || refusal(404, "not_found");
  };
  return asked;
}

let events = [];
subscribe((_state, event) => events.push(event));

const FRESH = JSON.parse(JSON.stringify({ ...state, picked: [] }));
beforeEach(() => {
  Object.assign(state, JSON.parse(JSON.stringify(FRESH)), { picked: new Set(), lang: "en", pace: "off" });
  events = [];
});

// ---- game views, as GET /v1/games/{id}?seat=0 answers them ---------------------------------------

function position(overrides = {}) {
  return {
    players: 2, hand: ["6s", "7s", "9h", "Kd"], hand_counts: [4, 4], table: [], stock: 10, discard: [],
    trump: "Ah", attacker: 0, defender: 1, to_move: 0, taking: false, finished: [], known: {},
    phase: "play", passed: [], ...overrides,
  };
}

// The `after` state of a history entry (docs/api.md §3): what everyone saw after it.
const after = (overrides = {}) => ({
  hand_counts: [4, 4], table: [], stock: 10, discard: 0, attacker: 0, defender: 1, to_move: 0, taking: false,
  ...overrides,
});

function view(overrides = {}) {
  return {
    status: "playing", position: position(), history: [],
    legal_moves: [{ action: "attack", card: "6s" }, { action: "attack", card: "7s" }, { action: "attack", card: "9h" }],
    ...overrides,
  };
}

function playing(game = view()) {
  state.id = "g1";
  state.token = "token-0";
  state.game = game;
}

// ---- the store and its selectors -----------------------------------------------------------------

test("the store tells each listener of a change and what the moment asks for, until it stops listening", () => {
  const heard = [];
  const stop = subscribe((seen, event) => heard.push([seen, event]));
  changed();
  changed({ focus: true });
  stop();
  changed();
  assert.deepEqual(heard, [[state, {}], [state, { focus: true }]]);
});

test("no move is offered while one is on its way, played back, or a match is between two games", () => {
  playing();
  assert.equal(legalMoves(state).length, 3);
  assert.deepEqual(actionMove(state, "attack"), { action: "attack", card: "6s" });
  assert.equal(actionMove(state, "take"), undefined);
  for (const [field, value] of [["pending", { move: {}, base: {} }], ["playback", { at: 0 }], ["between", { game: 1 }]]) {
    state[field] = value;
    assert.deepEqual(legalMoves(state), [], field);
    state[field] = null;
  }
  state.game = view({ status: "over" });
  assert.deepEqual(legalMoves(state), []);
});

test("the move on its way is shown on the table at once, from the hand it left", () => {
  playing();
  const base = state.game.position;
  state.pending = { move: { action: "attack", card: "7s" }, base };
  const shown = shownGame(state);
  assert.deepEqual(shown.position.hand, ["6s", "9h", "Kd"]);
  assert.deepEqual(shown.position.table, [{ attack: "7s", defense: null }]);
  assert.equal(shown.position.to_move, null);
  assert.deepEqual(shown.legal_moves, []);
  assert.equal(state.game.position.hand.length, 4, "the game itself is not changed");
});

test("a hint is the hint of the turn it was asked for only", () => {
  playing();
  state.hint = { moves: [{ move: { action: "attack", card: "6s" }, score: 0.4, loss: 0.1 }, { move: { action: "attack", card: "9h" }, score: 0.6, loss: 0 }] };
  state.hintFor = 0;
  assert.equal(hintShown(state), state.hint);
  assert.deepEqual(hintRows(state).map((row) => row.move.card), ["9h", "6s"], "best first");
  state.game = view({ history: [{ seat: 0, move: { action: "attack", card: "6s" }, after: after() }] });
  assert.equal(hintShown(state), null);
  assert.deepEqual(hintRows(state), []);
});

test("which game of a match a review is of: the one asked, the last one over, none before one ended", () => {
  playing(view({ match: { game: 2, games: 3, previous: { game: 1, played: true } } }));
  assert.equal(reviewGame(state), 1);
  assert.equal(reviewGame(state, 2), 2);
  assert.equal(canReview(state), true);
  state.game.match.previous = { game: 1, played: false }; // its dealer lost at once: nothing to review
  assert.equal(reviewGame(state), null);
  assert.equal(canReview(state), false);
  playing(view({ status: "over" }));
  assert.equal(reviewGame(state), null, "a single game has no number");
  assert.equal(canReview(state), true);
  const over = { status: "over", match: { game: 3 }, history: [{ game: 1 }, { game: 3 }, { game: 1 }] };
  assert.deepEqual(reviewableGames(over), [1, 3]);
});

test("the tracker's key names the view shown: a move, a turn or the end makes it another", () => {
  assert.equal(trackerKey(state), null);
  playing();
  const key = trackerKey(state);
  state.game = { ...state.game, position: { ...state.game.position, to_move: 1 } };
  assert.notEqual(trackerKey(state), key);
});

// ---- busy ----------------------------------------------------------------------------------------

test("one request at a time: the state is busy meanwhile, and a failure is told, not thrown", async () => {
  let release;
  const first = busyWith(() => new Promise((done) => { release = done; }), "hint");
  assert.equal(state.busy, "hint");
  assert.equal(await busyWith(async () => "second"), undefined, "a second request waits for none: it is dropped");
  release("first");
  assert.equal(await first, "first");
  assert.equal(state.busy, false);
  assert.deepEqual(events, [{}, { focus: true }]);
  events = [];
  const failure = new Error("lost");
  assert.equal(await busyWith(async () => { throw failure; }), undefined);
  assert.deepEqual(events, [{}, { error: failure }, { focus: true }]);
});

// ---- playing -------------------------------------------------------------------------------------

test("a move is sent for the game as shown, drawn at once, and the engines' reply read out", async () => {
  playing();
  const move = { action: "attack", card: "7s" };
  const answer = view({
    position: position({ hand: ["6s", "9h", "Kd"], hand_counts: [3, 4], table: [{ attack: "7s", defense: "8s" }], to_move: 0 }),
    history: [
      { seat: 0, move, after: after({ table: [{ attack: "7s", defense: null }], hand_counts: [3, 4], to_move: 1 }) },
      { seat: 1, move: { action: "defend", card: "8s", target: "7s" }, after: after({ table: [{ attack: "7s", defense: "8s" }], hand_counts: [3, 3] }) },
    ],
  });
  let meanwhile = null;
  const asked = serve({
    "POST /v1/games/g1/moves": () => {
      meanwhile = { busy: state.busy, table: shownGame(state).position.table, offered: legalMoves(state).length };
      return json(answer);
    },
  });
  await playMove(move);
  assert.deepEqual(asked.map((r) => [r.method, r.path, r.body, r.auth]),
    [["POST", "/v1/games/g1/moves", { seat: 0, move, expected_ply: 0 }, "Bearer token-0"]]);
  assert.deepEqual(meanwhile, { busy: "move", table: [{ attack: "7s", defense: null }], offered: 0 });
  assert.deepEqual(state.game, answer);
  assert.equal(state.pending, null);
  assert.equal(state.busy, false);
  const said = events.filter((e) => e.say).map((e) => e.say);
  assert.equal(said.length, 1, "only the engines' moves are read out");
  assert.match(said[0], /^Seat 1: /);
  assert.ok(events.some((e) => "message" in e && e.message === null), "the message line is cleared");
});

test("at a pace, each engine move is a step of its own, and a skip shows the rest at once", async () => {
  playing();
  state.pace = "normal";
  const entries = [
    { seat: 0, move: { action: "attack", card: "6s" }, after: after({ table: [{ attack: "6s", defense: null }], to_move: 1 }) },
    { seat: 1, move: { action: "take" }, after: after({ to_move: 2 }) },
    { seat: 1, move: { action: "pass" }, after: after({ to_move: 0 }) },
  ];
  const answer = view({ history: entries });
  serve({ "POST /v1/games/g1/moves": json(answer) });
  const played = playMove({ action: "attack", card: "6s" });
  await new Promise((done) => setTimeout(done, 0));
  assert.ok(skipPlayback(), "a reply is being played back");
  await played;
  assert.equal(skipPlayback(), false, "nothing is played back any more");
  const steps = events.filter((e) => e.step !== undefined).map((e) => e.step);
  assert.deepEqual(steps, [0], "the own move, then the skip: the rest at once");
  assert.deepEqual(events.filter((e) => e.say).length, 1, "the rest read out in one line");
  assert.equal(state.playback, null);
});

test("a move refused because the game went on elsewhere shows the game as it is now", async () => {
  playing();
  const move = { action: "attack", card: "6s" };
  const now = view({ history: [{ seat: 0, move: { action: "attack", card: "9h" }, after: after() }] });
  serve({ "POST /v1/games/g1/moves": refusal(409, "game_moved_on"), "GET /v1/games/g1": json(now) });
  await playMove(move);
  assert.deepEqual(state.game, now);
  await new Promise((done) => setTimeout(done, 0));
  const told = events.filter((e) => e.kind === "info");
  assert.equal(told.length, 1, "another tab played another move: said so");
  assert.match(told[0].message, /another tab/);
});

test("a refused move the game did not go past is told, and the game stays as it was", async () => {
  playing();
  const game = state.game;
  serve({ "POST /v1/games/g1/moves": refusal(422, "illegal_move"), "GET /v1/games/g1": json(view()) });
  await playMove({ action: "attack", card: "6s" });
  assert.equal(state.game, game);
  assert.equal(state.pending, null);
  const [told] = events.filter((e) => e.error);
  assert.ok(told.error instanceof ApiFailure);
  assert.equal(told.error.code, "illegal_move");
});

test("a card with no move says why beside the hand; a card with several opens the chooser", () => {
  playing(view({ legal_moves: [{ action: "defend", card: "Kd", target: "Qd" }, { action: "defend", card: "Kd", target: "Jd" }] }));
  clickCard("6s");
  assert.deepEqual(state.whyNot, { card: "6s", plies: 0 });
  clickCard("Kd");
  assert.equal(state.whyNot, null);
  assert.deepEqual(state.choosing.moves.map((m) => m.target), ["Qd", "Jd"]);
  assert.match(state.choosing.title, /K♦/);
  assert.deepEqual(events.at(-1), { focus: "chooser" });
  closeChooser();
  assert.equal(state.choosing, null);
  assert.deepEqual(events.at(-1), { focus: "card", card: "Kd" }, "the focus goes back to the card");
});

test("a card let go on an attack card it beats defends it; let go elsewhere it is a click", async () => {
  playing(view({ legal_moves: [{ action: "defend", card: "Kd", target: "Qd" }, { action: "defend", card: "Kd", target: "Jd" }] }));
  const asked = serve({ "POST /v1/games/g1/moves": json(view()) });
  dropCard("Kd", null);
  assert.equal(state.choosing.card, "Kd", "no target: as a click, the chooser");
  closeChooser();
  await dropCard("Kd", "Jd");
  assert.deepEqual(asked[0].body.move, { action: "defend", card: "Kd", target: "Jd" });
});

test("take, pass and transfer play their move only when it is legal", async () => {
  playing(view({ legal_moves: [{ action: "transfer", card: "6h" }, { action: "transfer", card: "6d" }, { action: "take" }] }));
  const asked = serve({ "POST /v1/games/g1/moves": json(view()) });
  playAction("pass");
  assert.equal(asked.length, 0);
  transfer();
  assert.deepEqual(state.choosing.moves.map((m) => m.card), ["6h", "6d"], "two transfers: the chooser");
  state.choosing = null;
  await playAction("take");
  await new Promise((done) => setTimeout(done, 0));
  assert.deepEqual(asked.map((r) => r.body.move), [{ action: "take" }]);
});

// ---- a match played back -------------------------------------------------------------------------

test("a match's playback stops at the end of its game; Next game plays the next one's first moves", async () => {
  playing(view({ match: { game: 1, games: 2 } }));
  const base = state.game.position;
  const entries = [
    { game: 1, seat: 1, move: { action: "take" }, after: after() },
    { game: 2, seat: 1, move: { action: "attack", card: "9s" }, after: after({ table: [{ attack: "9s", defense: null }] }) },
  ];
  const answer = view({ history: entries, match: { game: 2, games: 2 } });
  await playBack(base, [], answer);
  assert.equal(state.between.game, 1);
  assert.deepEqual(state.between.history, [entries[0]]);
  assert.equal(shownGame(state).status, "between");
  assert.equal(shownGame(state).position.trump, base.trump, "the table is the game that ended, not the next deal");
  assert.deepEqual(shownGame(state).history, [entries[0]]);
  assert.equal(events.filter((e) => e.say).length, 1, "only game 1's move so far");
  await resumeMatch();
  assert.equal(state.between, null);
  assert.equal(events.filter((e) => e.say).length, 2, "then game 2's");
});

test("a match game your own move ended shows its result first, though the next deal opens with your decision", async () => {
  // Seat 0 plays its last card; the next deal opens with seat 0's own setup decision, so the answer
  // has no move of game 2 yet: only its match block says game 1 is over.
  playing(view({ match: { game: 1, games: 2 }, position: position({ hand: ["6s"], hand_counts: [1, 3], trump: "Ah" }) }));
  const base = state.game.position;
  const before = after({ hand_counts: [1, 3], table: [{ attack: "9h", defense: null }], to_move: 0 });
  const mine = { game: 1, seat: 0, move: { action: "defend", target: "9h", card: "Kh" }, after: after({ hand_counts: [6, 6] }) };
  const next = view({
    history: [{ game: 1, seat: 1, move: { action: "attack", card: "9h" }, after: before }, mine],
    match: { game: 2, games: 2, previous: { game: 1, played: true } },
    position: position({ hand: ["2c", "3c", "4c", "5c", "6c", "7c"], hand_counts: [6, 6], trump: "Qd", phase: "setup" }),
    legal_moves: [{ action: "redeal" }, { action: "keep" }],
  });
  await playBack(base, next.history.slice(0, 1), next);
  assert.equal(state.between?.game, 1, "the between-games screen, before the decision");
  const shown = shownGame(state);
  assert.equal(shown.status, "between");
  assert.deepEqual(legalMoves(state), [], "no setup decision until Next game");
  assert.equal(shown.position.trump, "Ah");
  assert.deepEqual(shown.position.hand_counts, [0, 3], "the hands as the game ended, not the next deal's");
  await resumeMatch();
  assert.equal(shownGame(state).position.trump, "Qd");
  assert.equal(legalMoves(state).length, 2);
});

// ---- a new game ----------------------------------------------------------------------------------

test("a new game's request: the human in seat 0, the engine in each other seat, side rules and a match", () => {
  state.engines = { ismcts: { name: "ismcts", searches: true }, greedy: { name: "greedy", searches: false } };
  const setup = { preset: "tan", players: 3, engine: "ismcts", timeMs: 100, games: 3, options: { twos_last: true } };
  assert.deepEqual(gameRequest(setup), {
    rules: { preset: "tan", twos_last: true }, players: 3, match: { games: 3 },
    seats: ["human", { engine: "ismcts", limits: { time_ms: 100 } }, { engine: "ismcts", limits: { time_ms: 100 } }],
  });
  assert.deepEqual(gameRequest({ preset: "durak", players: 2, engine: "greedy", timeMs: 100, games: 1 }),
    { rules: "durak", players: 2, seats: ["human", { engine: "greedy" }] });
});

test("a new game is dealt with the seed's digits as typed, shown, then the engines' first moves", async () => {
  const created = view({ history: [{ seat: 1, move: { action: "attack", card: "9s" }, after: after() }] });
  const asked = serve({ "POST /v1/games": json({ id: "g2", tokens: ["t0", "t1"], game: created }, 201) });
  const seed = "9223372036854775807"; // past 2^53: a number would round it
  await startGame({ preset: "durak", players: 2, engine: "greedy", games: 1, seed });
  assert.ok(asked[0].text.startsWith(`{"seed":${seed},`));
  assert.equal(asked[0].auth, undefined, "no token is sent for a new game");
  assert.equal(state.id, "g2");
  assert.equal(state.token, "t0");
  assert.equal(state.setup.seed, null, "a seed shows every hand: forgotten");
  assert.deepEqual(state.game, created);
  const shown = events.findIndex((e) => e.screen === "game");
  const said = events.findIndex((e) => e.say);
  assert.ok(shown >= 0 && shown < said, "the deal is shown before the engines' moves are read out");
});

// ---- the hint, the tracker and the review --------------------------------------------------------

test("a hint is asked with the review's budget and each move's line, and kept for its turn", async () => {
  playing();
  const hint = { moves: [], evaluation: { score: 0.5 }, chance: "win", stats: {} };
  const asked = serve({ "GET /v1/games/g1/hint": json(hint) });
  await askHint();
  const query = new URLSearchParams(asked[0].path.split("?")[1]);
  assert.deepEqual(Object.fromEntries(query), { seat: "0", iterations: "5000", pv: "6" });
  assert.deepEqual(state.hint, hint);
  assert.equal(state.hintFor, 0);
  assert.equal(state.busy, false);
  state.game = view({ status: "over" });
  assert.equal(await askHint(), undefined, "no hint once the game is over");
  assert.equal(asked.length, 1);
});

test("the tracker's answer for a view no longer shown is dropped, and asked once for each view", async () => {
  playing();
  let answer;
  const data = { seat: 0, cards: {}, known: {}, gone: [], beliefs: "uniform" };
  const asked = serve({ "GET /v1/games/g1/tracker": [() => new Promise((done) => { answer = done; }), json(data)] });
  const asking = refreshTracker();
  await refreshTracker(); // the same view's request is on its way: not asked again
  assert.equal(asked.length, 1);
  state.game = view({ history: [{ seat: 0, move: { action: "attack", card: "6s" }, after: after() }] });
  answer(json(data));
  await asking;
  assert.equal(state.tracker, null, "the answer was for the view before");
  assert.equal(state.trackerAsked, null);
  await refreshTracker();
  assert.equal(state.tracker.plies, 1);
  assert.deepEqual(events.filter((e) => e.tracker).length, 1);
});

test("a review follows its job to the end (none kept yet), then steps through its decisions", async () => {
  playing(view({ status: "over" }));
  const moves = [0, 1, 2].map((ply) => ({ ply, move: { action: "take" }, best: { action: "take" }, label: "forced" }));
  const result = { moves, summary: { decisions: 3, labels: { forced: 3 }, mean_loss: null } };
  const asked = serve({
    "GET /v1/games/g1/review": json(null), // none kept yet
    "POST /v1/games/g1/analysis": json({ id: "j1", status: "queued", progress: { done: 0, total: 3 } }, 202),
    "GET /v1/jobs/j1": json({ id: "j1", status: "done", progress: { done: 3, total: 3 }, result }),
  });
  await openReview();
  assert.deepEqual(asked.map((r) => r.path.split("?")[0]), ["/v1/games/g1/review", "/v1/games/g1/analysis", "/v1/jobs/j1"]);
  assert.deepEqual(events.filter((e) => e.progress).length, 2, "its progress is drawn as it goes");
  assert.equal(reviewOpen(state), true);
  assert.deepEqual(reviewed(state), moves[0]);
  stepReview(7);
  assert.deepEqual(reviewed(state), moves[2], "a step past the end stops at the last decision");
  stepReview(-1);
  assert.deepEqual(reviewed(state), moves[0]);
  closeReview();
  assert.equal(reviewOpen(state), false);
  assert.deepEqual(events.at(-1), { focus: "review-button" });
  await new Promise((done) => setTimeout(done, 0));
  assert.ok(events.some((e) => e.reveal === "board"), "once drawn, the board is brought into view");
  events = [];
  await openReview();
  assert.equal(asked.length, 3, "opened again: the review kept, not asked again");
  assert.equal(reviewOpen(state), true);
  assert.deepEqual(events, [{ focus: true }, { reveal: "board" }]);
});

test("a review kept with the game opens at once, with no job queued; Next skips forced moves", async () => {
  playing(view({ status: "over" }));
  const moves = ["forced", "good", "forced", "mistake", "good"].map((label, ply) => ({
    ply, move: { action: "take" }, best: { action: "take" }, label,
  }));
  const result = { moves, summary: { decisions: 5, labels: {}, mean_loss: null } };
  const asked = serve({ "GET /v1/games/g1/review": json(result) });
  await openReview();
  assert.deepEqual(asked.map((r) => r.method + " " + r.path), ["GET /v1/games/g1/review?seat=0&iterations=5000"]);
  assert.equal(state.review.at, 1, "opens on the first decision that was a choice");
  stepDecision(1);
  assert.equal(state.review.at, 3, "the forced move between is skipped");
  stepDecision(-1);
  assert.equal(state.review.at, 1);
  stepMistake();
  assert.equal(state.review.at, 3, "the next mistake");
});

test("after a reload the review this tab had open is open again at its decision, read back", async () => {
  const kept = new Map();
  globalThis.window = { sessionStorage: { getItem: (k) => kept.get(k) ?? null, setItem: (k, v) => kept.set(k, v), removeItem: (k) => kept.delete(k) } };
  try {
    playing(view({ status: "over" }));
    const moves = ["good", "forced", "mistake"].map((label, ply) => ({ ply, move: { action: "take" }, best: { action: "take" }, label }));
    const asked = serve({ "GET /v1/games/g1/review": () => json({ moves, summary: { decisions: 3, labels: {}, mean_loss: null } }) });
    await openReview();
    stepMistake();
    state.review = null; // the page reloaded: nothing in memory
    await reopenReview();
    assert.equal(reviewOpen(state), true);
    assert.equal(state.review.at, 2, "at the decision it showed");
    assert.deepEqual(asked.map((r) => r.method), ["GET", "GET"], "read back, no job queued");
    closeReview();
    state.review = null;
    await reopenReview();
    assert.equal(state.review, null, "closed before the reload: stays closed");
  } finally {
    delete globalThis.window;
  }
});

test("a review whose job failed is told, and opens nothing", async () => {
  playing(view({ status: "over" }));
  serve({
    "GET /v1/games/g1/review": json(null),
    "POST /v1/games/g1/analysis": json({ id: "j2", status: "failed", error: "worker lost", progress: null }, 202),
  });
  await openReview();
  assert.equal(reviewOpen(state), false);
  assert.equal(state.reviewProgress, null);
  const [told] = events.filter((e) => e.error);
  assert.equal(told.error.message, "worker lost");
});

// ---- the API client ------------------------------------------------------------------------------

test("a request a busy server refused is sent again quietly, the note shown meanwhile", async () => {
  const asked = serve({ "GET /v1/rules": [refusal(503, "busy"), json({ presets: {} })] });
  assert.deepEqual(await api("GET", "/v1/rules", undefined, { retry: ["busy"] }), { presets: {} });
  assert.equal(asked.length, 2);
  assert.equal(state.retrying, false);
  assert.deepEqual(events.filter((e) => e.retrying), [{ retrying: true }, { retrying: true }], "shown, then taken away");
  serve({ "GET /v1/rules": refusal(503, "busy") });
  await assert.rejects(api("GET", "/v1/rules"), (error) => error.code === "busy", "not retried unless asked");
});
