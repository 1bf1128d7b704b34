/* Action: games as records — a stored game's record as text (docs/notation.md), a record
 * converted, what a person pasted read as a record (text-panel.js shows a game's text), and the
 * review of a record (a game followed at a table, POST /v1/analyze).
 *
 * The page never writes or reads the notation itself: POST /v1/records/convert answers a record in
 * both its forms (the library's own writing), and a stored game's text comes from
 * GET /v1/games/{id}/record?format=text.
 */

import { api } from "./api.js";
import { SEARCH_ITERATIONS } from "./constants.js";
import { ApiFailure } from "./failures.js";

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

// A stored game's record as `seat` saw it, as JSON (docs/api.md §2.3; game `number` of a match).
export function storedGameRecord(id, seat, number = null) {
  const query = new URLSearchParams({ seat: String(seat) });
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

export const RECORD_REVIEW_POLL_MS = 300; // how often a record's review job is read

// The review of a record's seat (a game followed at a table, or opened from its text): a job
// (POST /v1/analyze, then GET /v1/jobs/{id}) followed to its end with the budget and seed a game
// against the engines is reviewed with; `onProgress({done, total})` after each read.
export async function reviewRecord(record, onProgress = () => {}, seed = 0) {
  const body = { record, limits: { iterations: SEARCH_ITERATIONS }, seed };
  let job = await api("POST", "/v1/analyze", body, { retry: ["busy", "too_many_requests", "network"] });
  const where = `/v1/jobs/${encodeURIComponent(job.id)}`;
  for (;;) {
    onProgress(job.progress);
    if (job.status === "done") return job.result;
    if (job.status === "failed" || job.status === "cancelled") throw new ApiFailure(500, "internal", job.error || job.status);
    await new Promise((done) => setTimeout(done, RECORD_REVIEW_POLL_MS));
    job = await api("GET", where, undefined, { retry: ["network", "busy"] });
  }
}
