/* Action: GET /v1/rules, asked once for every mode, and what the play mode keeps of it — each
 * preset and its seats, the engines, the limits and the review's bounds. */

import { api } from "./api.js";
import { state } from "./store.js";

let rulesAnswer = null; // the answer's promise: asked once, asked again after a failure
export function serverRules() {
  if (!rulesAnswer) {
    rulesAnswer = api("GET", "/v1/rules", undefined, { retry: ["busy", "network"] })
      .catch((error) => { rulesAnswer = null; throw error; });
  }
  return rulesAnswer;
}

// The rules' lists the new-game form and the game need, kept in the store (form.js buildForm draws them).
export function keepRules(rules) {
  for (const [name, preset] of Object.entries(rules.presets || {})) {
    state.presets[name] = preset;
    if (preset.min_players && preset.max_players) state.playersRange[name] = [preset.min_players, preset.max_players];
  }
  state.limits = rules.limits || null;
  state.reviewBounds = rules.review_labels || null;
  for (const engine of rules.engine_details || []) state.engines[engine.name] = engine;
}
