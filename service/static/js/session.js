/* Action: games — dealing one, keeping its key, resuming it. */

import { api, withSeed } from "./api.js";
import { busyWith } from "./busy.js";
import { GAME_KEY, MOVED_KEY, SETUP_KEY } from "./constants.js";
import { ApiFailure, GoneGame } from "./failures.js";
import { playBack } from "./playback.js";
import { searches } from "./selectors.js";
import { storage } from "./storage.js";
import { changed, state } from "./store.js";

// The POST /v1/games body of the new-game form's `setup` (form.js readForm): seat 0 is the human,
// every other seat the engine chosen.
export function gameRequest(setup) {
  const engineSeat = searches(state, setup.engine)
    ? { engine: setup.engine, limits: { time_ms: setup.timeMs } }
    : { engine: setup.engine };
  const seats = ["human"];
  for (let i = 1; i < setup.players; i++) seats.push(engineSeat);
  const options = setup.options || {};
  const rules = Object.keys(options).length ? { preset: setup.preset, ...options } : setup.preset;
  const body = { rules, players: setup.players, seats };
  if ((setup.games || 1) > 1) body.match = { games: setup.games };
  return body;
}

export function startGame(setup) {
  const body = gameRequest(setup);
  return busyWith(async () => {
    state.token = null;
    // Sent again only when refused before anything was made (a lost answer could mean two games).
    const created = await api("POST", "/v1/games", withSeed(body, setup.seed), { retry: ["busy", "too_many_requests"] });
    changed({ message: null });
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
    storage.set("localStorage", SETUP_KEY, JSON.stringify({ ...setup, seed: undefined }));
    changed({ screen: "game" });
    if (created.game.history.length) await playBack(deal, [], created.game);
  });
}

// The saved game's key (its id and seat 0's token): kept in localStorage, so every tab and a
// browser restart find it (a key kept per tab by an older page is taken up too).
export function savedGame() {
  for (const area of ["localStorage", "sessionStorage"]) {
    let record = null;
    try { record = JSON.parse(storage.get(area, GAME_KEY) || "null"); } catch { record = null; }
    if (record && record.id && record.token) return record;
  }
  return null;
}

export function saveGame(record) {
  storage.set("localStorage", GAME_KEY, record ? JSON.stringify(record) : null);
  storage.set("sessionStorage", GAME_KEY, null);
}

// Tell the other tabs the game moved on (they listen for the storage event).
export function announceMoved() {
  if (state.id && state.game) storage.set("localStorage", MOVED_KEY, `${state.id}:${state.game.history.length}`);
}

export async function resume() {
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
  if (state.game) changed({ screen: "game" });
  else changed({ backToGame: true }); // the server could not be reached: try again from here
}
