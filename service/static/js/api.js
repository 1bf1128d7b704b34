/* Action: the API client — requests, quiet retries (told to the store, whose note app.js draws), and seeds
 * kept as their digits. It asks the global `fetch`, which a node test may stand in for. */

import { ApiFailure } from "./failures.js";
import { changed, state } from "./store.js";

// Retry quietly what a busy server (503), a race (409), a flood guard (429) or a lost connection
// refused, with a growing pause (the server's Retry-After at least), so a move is never dropped.
export const RETRY_CODES = ["busy", "conflict", "too_many_requests", "network"];

export const RETRY_MAX = 40; // about five minutes at the longest pause
export const RETRY_PAUSE = [500, 8000]; // ms: the first pause, and the longest

// `retry`: true for every code above, or a list of the codes to retry; `token`: the seat's token
// to send (by default the play mode's game's, `state.token`).
export async function api(method, path, body, { retry = false, token = undefined } = {}) {
  let pause = RETRY_PAUSE[0];
  for (let attempt = 0; ; attempt++) {
    try {
      const answer = await request(method, path, body, token);
      if (state.retrying) retrying(false);
      return answer;
    } catch (error) {
      const codes = Array.isArray(retry) ? retry : retry ? RETRY_CODES : [];
      if (!(error instanceof ApiFailure && codes.includes(error.code) && attempt < RETRY_MAX)) {
        if (state.retrying) retrying(false);
        throw error;
      }
      retrying(true);
      const asked = Number(error.retryAfter) * 1000 || 0;
      await new Promise((done) => setTimeout(done, Math.max(pause, asked)));
      pause = Math.min(pause * 2, RETRY_PAUSE[1]);
    }
  }
}

// The quiet note while a request is being sent again: shown or taken away (messages.js renderRetry).
function retrying(now) {
  state.retrying = now;
  changed({ retrying: true });
}

export async function request(method, path, body, token = state.token) {
  const headers = { Accept: "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response;
  try {
    const text = body === undefined || typeof body === "string" ? body : JSON.stringify(body);
    response = await fetch(path, { method, headers, body: text });
  } catch (error) {
    throw new ApiFailure(0, "network", String(error && error.message ? error.message : error));
  }
  const text = await response.text();
  // A text answer (a record's text, docs/notation.md) is answered as it is.
  if (response.ok && (response.headers.get("Content-Type") || "").startsWith("text/plain")) return text;
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
export function exactSeed(text) {
  const found = /"seed":\s*(\d+)\s*\}\s*$/.exec(text);
  return found ? found[1] : null;
}

// The request's JSON with `seed` written as its digits (a JavaScript number would round it).
export function withSeed(request, seed) {
  const text = JSON.stringify(request);
  return seed === null || seed === undefined ? text : `{"seed":${seed},${text.slice(1)}`;
}
