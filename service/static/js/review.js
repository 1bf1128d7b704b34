/* Action: the review of a finished game (in a match, of any game that has ended) — a job
 * (POST /v1/games/{id}/analysis, then GET /v1/jobs/{id}) followed to its end, then stepped through;
 * and that game as text. */

import { api } from "./api.js";
import { busyWith } from "./busy.js";
import { SEARCH_ITERATIONS } from "./constants.js";
import { ApiFailure } from "./failures.js";
import { storedGameText } from "./records.js";
import { canReview, reviewGame, reviewKept, reviewOpen } from "./selectors.js";
import { changed, state } from "./store.js";

export function openReview(game) {
  if (state.busy || !canReview(state)) return undefined;
  const number = reviewGame(state, game);
  if (reviewKept(state, number)) {
    state.review.open = true;
    changed({ focus: true });
    changed({ reveal: "board" });
    return undefined;
  }
  const id = state.id;
  return busyWith(async () => {
    try {
      const data = await reviewJob(id, number);
      changed({ message: null });
      state.review = { id, game: number, data, at: 0, open: true };
      setTimeout(() => changed({ reveal: "board" }), 0); // once drawn
    } finally {
      state.reviewProgress = null;
    }
  }, "review");
}

export const REVIEW_POLL_MS = 300; // how often a queued review's progress is read

// Queue the review and follow its job until it is done; the status line shows its progress.
async function reviewJob(id, game) {
  const which = game === null ? "" : `&game=${game}`;
  const path = `/v1/games/${encodeURIComponent(id)}/analysis?seat=0&iterations=${SEARCH_ITERATIONS}${which}`;
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

export function closeReview() {
  if (!reviewOpen(state)) return;
  state.review.open = false;
  changed({ focus: "review-button" });
}

export function stepReview(to) {
  if (!reviewOpen(state) || state.busy) return;
  const last = state.review.data.moves.length - 1;
  state.review.at = Math.max(0, Math.min(last, to));
  changed({ focus: true });
}

// The game reviewed (the last one over, in a match) as text, to copy or download: null when there
// is none to review.
export async function gameText() {
  if (!canReview(state)) return null;
  return storedGameText(state.id, 0, reviewGame(state));
}
