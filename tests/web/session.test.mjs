// The play mode's saved game (service/static/js/session.js and play.js refreshGame) under node: the
// game's key kept in the browser's storage (here an in-memory stand-in for localStorage and
// sessionStorage), resumed, forgotten when the server no longer shows it, and followed when
// another tab moves it on. The API is a stand-in `fetch`, as in play.test.mjs.
import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";
import { GAME_KEY, MOVED_KEY } from "../../service/static/js/constants.js";
import { GoneGame } from "../../service/static/js/failures.js";
import { refreshGame } from "../../service/static/js/play.js";
import { announceMoved, resume, savedGame, saveGame } from "../../service/static/js/session.js";
import { state, subscribe } from "../../service/static/js/store.js";

// The browser's Storage, kept in memory.
class MemoryStorage {
  constructor() { this.items = new Map(); }
  getItem(key) { return this.items.has(key) ? this.items.get(key) : null; }
  setItem(key, value) { this.items.set(key, String(value)); }
  removeItem(key) { this.items.delete(key); }
}

const json = (body, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

function serve(routes) {
  const asked = [];
  globalThis.fetch = async (path, init) => {
    asked.push({ method: init.method, path, auth: init.headers.Authorization });
    const answer = routes[`${init.method} ${path.split("?")[0]}`];
    return answer ? answer.clone() : json({ code: "not_found", detail: path }, 404);
  };
  return asked;
}

const view = (plies) => ({
  status: "playing", legal_moves: [],
  position: { players: 2, hand: [], table: [], to_move: 0 },
  history: Array.from({ length: plies }, (_, ply) => ({ seat: ply % 2, move: { action: "pass" } })),
});

let events = [];
subscribe((_state, event) => events.push(event));

beforeEach(() => {
  globalThis.window = { localStorage: new MemoryStorage(), sessionStorage: new MemoryStorage() };
  Object.assign(state, { id: null, token: null, game: null, setup: null, hint: null, choosing: null, busy: false });
  events = [];
});

test("without the browser's storage nothing is kept, and nothing fails", () => {
  delete globalThis.window;
  saveGame({ id: "g1", token: "t" });
  assert.equal(savedGame(), null);
});

test("a game's key is kept for every tab, and one kept per tab by an older page is taken up", () => {
  saveGame({ id: "g1", token: "t1", setup: { level: "easy" } });
  assert.deepEqual(savedGame(), { id: "g1", token: "t1", setup: { level: "easy" } });
  saveGame(null);
  assert.equal(savedGame(), null);
  window.sessionStorage.setItem(GAME_KEY, JSON.stringify({ id: "g0", token: "t0" }));
  assert.deepEqual(savedGame(), { id: "g0", token: "t0" });
  window.localStorage.setItem(GAME_KEY, "not json");
  assert.deepEqual(savedGame(), { id: "g0", token: "t0" }, "a key that does not read is passed over");
});

test("the other tabs are told how far the game went", () => {
  state.id = "g1";
  state.game = view(3);
  announceMoved();
  assert.equal(window.localStorage.getItem(MOVED_KEY), "g1:3");
});

test("the saved game is resumed with its own token, and its screen shown", async () => {
  saveGame({ id: "g1", token: "t1", setup: { level: "hard" } });
  const asked = serve({ "GET /v1/games/g1": json(view(2)) });
  await resume();
  assert.deepEqual(asked, [{ method: "GET", path: "/v1/games/g1?seat=0", auth: "Bearer t1" }]);
  assert.equal(state.game.history.length, 2);
  assert.deepEqual(state.setup, { level: "hard" });
  assert.deepEqual(events.at(-1), { screen: "game" });
});

test("a saved game the server no longer shows is forgotten, and said to be gone", async () => {
  saveGame({ id: "g1", token: "t1" });
  serve({}); // 404 not_found
  await resume();
  assert.equal(savedGame(), null);
  assert.equal(state.id, null);
  const [told] = events.filter((e) => e.error);
  assert.ok(told.error instanceof GoneGame);
  assert.equal(told.error.failure.code, "not_found");
  assert.deepEqual(events.at(-1), { backToGame: true });
});

test("a server out of reach keeps the saved game, to try again", async () => {
  saveGame({ id: "g1", token: "t1" });
  globalThis.fetch = async () => { throw new TypeError("Failed to fetch"); };
  await resume();
  assert.deepEqual(savedGame(), { id: "g1", token: "t1" });
  assert.equal(events.filter((e) => e.error)[0].error.code, "network");
  assert.deepEqual(events.at(-1), { backToGame: true });
});

test("another tab moved the game on: it is shown as it is now, its hint and chooser put away", async () => {
  saveGame({ id: "g1", token: "t1" });
  Object.assign(state, { id: "g1", token: "t1", game: view(1), hint: { moves: [] }, choosing: { moves: [] } });
  serve({ "GET /v1/games/g1": json(view(3)) });
  await refreshGame(false);
  assert.equal(state.game.history.length, 3);
  assert.equal(state.hint, null);
  assert.equal(state.choosing, null);
  assert.deepEqual(events, [{}]);
  events = [];
  await refreshGame(false); // nothing new: nothing redrawn
  assert.deepEqual(events, []);
});

test("another tab started another game: this one resumes it", async () => {
  saveGame({ id: "g2", token: "t2" });
  Object.assign(state, { id: "g1", token: "t1", game: view(1) });
  serve({ "GET /v1/games/g2": json(view(0)) });
  await refreshGame(false);
  for (let turn = 0; turn < 100 && !events.some((e) => e.screen === "game"); turn++) await new Promise((done) => setTimeout(done, 0));
  assert.equal(state.id, "g2");
  assert.equal(state.token, "t2");
  assert.equal(state.game.history.length, 0);
});

test("away from the game's screen, with no saved game, nothing is asked", async () => {
  const asked = serve({});
  await refreshGame(true);
  assert.deepEqual(asked, []);
});
