/* Games: dealing one, showing it, keeping its key, resuming it. */

import { api, withSeed } from "./api.js";
import { busyWith, keepFocus } from "./busy.js";
import { searches } from "./form.js";
import { ApiFailure, clearMessage, GoneGame } from "./messages.js";
import { playBack } from "./playback.js";
import { render } from "./render.js";
import { $, GAME_KEY, MOVED_KEY, SETUP_KEY, state, store } from "./state.js";

export function startGame(setup) {
  const engineSeat = searches(setup.engine)
    ? { engine: setup.engine, limits: { time_ms: setup.timeMs } }
    : { engine: setup.engine };
  const seats = ["human"];
  for (let i = 1; i < setup.players; i++) seats.push(engineSeat);
  const options = setup.options || {};
  const rules = Object.keys(options).length ? { preset: setup.preset, ...options } : setup.preset;
  const body = { rules, players: setup.players, seats };
  if ((setup.games || 1) > 1) body.match = { games: setup.games };
  busyWith(async () => {
    state.token = null;
    // Sent again only when refused before anything was made (a lost answer could mean two games).
    const created = await api("POST", "/v1/games", withSeed(body, setup.seed), { retry: ["busy", "too_many_requests"] });
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

export function showGame() {
  const fromSetup = !$("setup").hidden;
  $("setup").hidden = true;
  $("game").hidden = false;
  $("new-game-top").hidden = false;
  if (fromSetup) window.scrollTo(0, 0); // the table from its top, not where the form was scrolled to
  render();
  keepFocus();
}

export function showSetup() {
  state.choosing = null;
  $("game").hidden = true;
  $("setup").hidden = false;
  $("new-game-top").hidden = true;
  $("back-to-game").hidden = !state.game && !savedGame();
  $("preset").focus();
}

// The saved game's key (its id and seat 0's token): kept in localStorage, so every tab and a
// browser restart find it (a key kept per tab by an older page is taken up too).
export function savedGame() {
  for (const area of ["localStorage", "sessionStorage"]) {
    let record = null;
    try { record = JSON.parse(store.get(area, GAME_KEY) || "null"); } catch { record = null; }
    if (record && record.id && record.token) return record;
  }
  return null;
}

export function saveGame(record) {
  store.set("localStorage", GAME_KEY, record ? JSON.stringify(record) : null);
  store.set("sessionStorage", GAME_KEY, null);
}

// Tell the other tabs the game moved on (they listen for the storage event).
export function announceMoved() {
  if (state.id && state.game) store.set("localStorage", MOVED_KEY, `${state.id}:${state.game.history.length}`);
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
  if (state.game) showGame();
  else $("back-to-game").hidden = !savedGame(); // the server could not be reached: try again from here
}
