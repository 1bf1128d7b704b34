/* Action: games as text (docs/notation.md) — a stored game's record as text, a record converted,
 * and what a person pasted read as a record (text-panel.js shows a game's text).
 *
 * The page never writes or reads the notation itself: POST /v1/records/convert answers a record in
 * both its forms (the library's own writing), and a stored game's text comes from
 * GET /v1/games/{id}/record?format=text.
 */

import { api } from "./api.js";

// A record (its JSON, or its text) in both forms: {record, text}; a bad one is refused with its reason.
export function convertRecord(record) {
  return api("POST", "/v1/records/convert", { record }, { retry: ["busy", "network"] });
}

// A stored game's record as `seat` saw it, as text (game `number` of a match, when given).
export function storedGameText(id, seat, number = null) {
  const query = new URLSearchParams({ seat: String(seat), format: "text" });
  if (Number.isInteger(number)) query.set("game", String(number));
  return api("GET", `/v1/games/${encodeURIComponent(id)}/record?${query}`, undefined, { retry: ["busy", "network"] });
}

// What a person pasted: a JSON record (an object) as such, anything else as text.
export function pastedRecord(text) {
  const trimmed = String(text || "").trim();
  if (trimmed.startsWith("{")) {
    try { return JSON.parse(trimmed); } catch { return trimmed; }
  }
  return trimmed;
}
