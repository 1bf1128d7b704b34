/* Action: the hint (GET /v1/games/{id}/hint) for the game shown. */

import { api } from "./api.js";
import { busyWith } from "./busy.js";
import { LINE_PLIES } from "./cards.js";
import { SEARCH_ITERATIONS } from "./constants.js";
import { legalMoves } from "./moves.js";
import { changed, state } from "./store.js";

// Whether a hint can be asked for now: the game is being played and seat 0 has a move.
export const canAskHint = () => !!(state.game && state.game.status === "playing" && legalMoves(state).length > 0);

export function askHint() {
  if (!canAskHint()) return undefined;
  return busyWith(async () => {
    // The review's budget and seed: a move played from the hint is reviewed by this very search.
    // `pv`: each move's line, drawn after the search (docs/api.md §3 "Lines"): the search is the same.
    const path = `/v1/games/${encodeURIComponent(state.id)}/hint?seat=0&iterations=${SEARCH_ITERATIONS}&pv=${LINE_PLIES}`;
    const hint = await api("GET", path, undefined, { retry: true });
    changed({ message: null });
    state.hint = hint;
    state.hintFor = state.game.history.length;
  }, "hint");
}

// The hint put away (the panel folds, hint-panel.js foldHint) until the next one is asked for.
export function dismissHint() {
  state.hint = null;
}
