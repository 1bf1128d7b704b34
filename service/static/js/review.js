/* Action: the review of a finished game (in a match, of any game that has ended) — the one kept
 * with the game (GET /v1/games/{id}/review: no search, so a reload shows it at once), else a job
 * (POST /v1/games/{id}/analysis, then GET /v1/jobs/{id}) followed to its end — then stepped
 * through, decision by decision (forced moves skipped) or mistake by mistake; and that game as text. */

import { api } from "./api.js";
import { busyWith } from "./busy.js";
import { SEARCH_ITERATIONS } from "./constants.js";
import { ApiFailure } from "./failures.js";
import { storedGameText } from "./records.js";
import { firstDecision, nextMistake, stepFrom } from "./review-steps.js";
import { canReview, reviewGame, reviewKept, reviewOpen } from "./selectors.js";
import { storage } from "./storage.js";
import { changed, state } from "./store.js";

// The review open in this tab ({id, game, at}), kept for a reload (sessionStorage: this tab only).
export const REVIEW_KEY = "tan.review";
const keepOpen = () => storage.set("sessionStorage", REVIEW_KEY, reviewOpen(state)
  ? JSON.stringify({ id: state.review.id, game: state.review.game, at: state.review.at }) : null);

export function openReview(game) {
  if (state.busy || !canReview(state)) return undefined;
  const number = reviewGame(state, game);
  if (reviewKept(state, number)) {
    state.review.open = true;
    keepOpen();
    changed({ focus: true });
    changed({ reveal: "board" });
    return undefined;
  }
  const id = state.id;
  return busyWith(async () => {
    try {
      const data = (await keptReview(id, number)) || (await reviewJob(id, number));
      changed({ message: null });
      state.review = { id, game: number, data, at: firstDecision(data.moves), open: true };
      keepOpen();
      setTimeout(() => changed({ reveal: "board" }), 0); // once drawn
    } finally {
      state.reviewProgress = null;
    }
  }, "review");
}

export const REVIEW_POLL_MS = 300; // how often a queued review's progress is read

const reviewQuery = (game) => `seat=0&iterations=${SEARCH_ITERATIONS}${game === null ? "" : `&game=${game}`}`;

// The review kept with the game (its job done before, in this tab or another, before a reload), or
// null when none is kept.
function keptReview(id, game) {
  return api("GET", `/v1/games/${encodeURIComponent(id)}/review?${reviewQuery(game)}`, undefined, { retry: ["busy", "network"] });
}

// Queue the review and follow its job until it is done; the status line shows its progress.
async function reviewJob(id, game) {
  const path = `/v1/games/${encodeURIComponent(id)}/analysis?${reviewQuery(game)}`;
  let job = await api("POST", path, undefined, { retry: ["busy", "too_many_requests", "network"] });
  const where = `/v1/jobs/${encodeURIComponent(job.id)}`;
  for (;;) {
    state.reviewProgress = job.progress;
    changed({ progress: true });
    if (job.status === "done") return job.result;
    if (job.status === "failed" || job.status === "cancelled") {
      throw new ApiFailure(500, "internal", job.error || job.status);
    }
    await new Promise((done) => setTimeout(done, REVIEW_POLL_MS));
    job = await api("GET", where, undefined, { retry: ["network", "busy"] });
  }
}

// After a reload: the review this tab had open, reopened at its decision (read back from the one
// kept with the game: no search).
export async function reopenReview() {
  let kept = null;
  try { kept = JSON.parse(storage.get("sessionStorage", REVIEW_KEY) || "null"); } catch { kept = null; }
  if (!kept || kept.id !== state.id || !canReview(state)) return;
  await openReview(kept.game);
  if (reviewOpen(state) && Number.isInteger(kept.at)) stepReview(kept.at);
}

export function closeReview() {
  if (!reviewOpen(state)) return;
  state.review.open = false;
  keepOpen();
  changed({ focus: "review-button" });
}

export function stepReview(to) {
  if (!reviewOpen(state) || state.busy) return;
  const last = state.review.data.moves.length - 1;
  state.review.at = Math.max(0, Math.min(last, to));
  keepOpen();
  changed({ focus: true });
}

// Previous / Next: the decision before or after the one shown that was a choice (forced moves,
// the only legal move, are skipped; the table of every decision still lists them).
export function stepDecision(dir) {
  if (!reviewOpen(state)) return;
  stepReview(stepFrom(state.review.data.moves, state.review.at, dir));
}

// The next decision that lost winning chances (after the one shown, going round).
export function stepMistake() {
  if (!reviewOpen(state)) return;
  const next = nextMistake(state.review.data.moves, state.review.at);
  if (next !== null) stepReview(next);
}

// The game reviewed (the last one over, in a match) as text, to copy or download: null when there
// is none to review.
export async function gameText() {
  if (!canReview(state)) return null;
  return storedGameText(state.id, 0, reviewGame(state));
}
