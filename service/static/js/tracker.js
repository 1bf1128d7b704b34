/* Action: the card tracker (GET /v1/games/{id}/tracker) of the game view shown. */

import { api } from "./api.js";
import { ApiFailure } from "./failures.js";
import { trackerKey } from "./selectors.js";
import { changed, state } from "./store.js";

// Fetch the tracker once the game view is shown, never while a move is on its way (so it never
// slows one), and drop an answer that comes back for a view no longer shown.
export async function refreshTracker() {
  const key = trackerKey(state);
  if (!key || state.busy || state.trackerAsked === key) return;
  if ((state.tracker && state.tracker.key === key) || (state.trackerError && state.trackerError.key === key)) return;
  state.trackerAsked = key;
  const id = state.id;
  const plies = state.game.history.length;
  try {
    const data = await api("GET", `/v1/games/${encodeURIComponent(id)}/tracker?seat=0`);
    if (trackerKey(state) !== key) return;
    state.tracker = { key, id, plies, data };
    state.trackerError = null;
  } catch (error) {
    if (trackerKey(state) !== key) return;
    state.trackerError = { key, text: error instanceof ApiFailure ? error.describe() : String(error) };
  } finally {
    if (state.trackerAsked === key) state.trackerAsked = null;
  }
  changed({ tracker: true });
}
