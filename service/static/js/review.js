/* The review of a finished game (in a match, of any game that has ended): a job
   (POST /v1/games/{id}/analysis, then GET /v1/jobs/{id}); and that game as text. */

import { api } from "./api.js";
import { busyWith, keepFocus } from "./busy.js";
import { chanceWord, moveText, points, sameMove, valueText } from "./cards.js";
import { bar, provenBadge } from "./faces.js";
import { t } from "./i18n.js";
import { ApiFailure, clearMessage, showError } from "./messages.js";
import { gameTextPanel, storedGameText } from "./records.js";
import { render } from "./render.js";
import { $, SEARCH_ITERATIONS, state } from "./state.js";

export const LABELS = ["good", "inaccuracy", "mistake", "blunder", "forced", "unscored"];
const sameReview = (game) => !!(state.review && state.review.id === state.id && state.review.game === game);
export const reviewOpen = () => !!(state.review && state.review.open && sameReview(state.review.game));
export const reviewed = () => (reviewOpen() ? state.review.data.moves[state.review.at] || null : null);

// The game of a match a review is of: `game` when given, else the last one that ended (the last
// game once the match is over); null for a single game, or while no game of the match has ended.
// A game nothing was played in (its dealer lost at once, docs/rules.md §1.9) has no review: the
// match block's `previous.played` says so.
export function reviewGame(game) {
  const match = state.game && state.game.match;
  if (!match) return null;
  if (Number.isInteger(game)) return game;
  if (state.game.status === "over") return match.game;
  const last = match.previous;
  if (!last || !last.played) return null;
  return last.game;
}
// The games of a match that is over that can be reviewed, for the chooser beside the review button:
// each game the history shows a move of (a game its dealer lost at once has none).
export function reviewableGames(game) {
  if (!game || !game.match || game.status !== "over") return [];
  return [...new Set(game.history.map((entry) => entry.game))].sort((a, b) => a - b);
}

// The game the chooser names (the last one until another is chosen); none for a single game.
export const chosenGame = () => ($("review-game").hidden ? undefined : Number($("review-game").value));

export const canReview = () =>
  !!(state.game && (state.game.match ? reviewGame() !== null : state.game.status === "over"));

export function openReview(game) {
  if (state.busy || !canReview()) return;
  const number = reviewGame(game);
  if (sameReview(number)) {
    state.review.open = true;
    render();
    keepFocus();
    boardInView();
    return;
  }
  const id = state.id;
  busyWith(async () => {
    try {
      const data = await reviewJob(id, number);
      clearMessage();
      state.review = { id, game: number, data, at: 0, open: true };
      setTimeout(boardInView, 0); // once drawn
    } finally {
      state.reviewProgress = null;
    }
  }, "review");
}

// The board at the top of the window when a review opens (the game over, gone, may have left the
// page scrolled down): stepping then shows the table as it was beside the review's panel.
export function boardInView() {
  const board = document.querySelector(".board");
  if (!board || !reviewOpen()) return;
  const rect = board.getBoundingClientRect();
  if (rect.top < 0 || rect.bottom > window.innerHeight) window.scrollBy({ top: rect.top - 8, behavior: "instant" });
}

const REVIEW_POLL_MS = 300; // how often a queued review's progress is read

// Queue the review and follow its job until it is done; the status line shows its progress.
async function reviewJob(id, game) {
  const which = game === null ? "" : `&game=${game}`;
  const path = `/v1/games/${encodeURIComponent(id)}/analysis?seat=0&iterations=${SEARCH_ITERATIONS}${which}`;
  let job = await api("POST", path, undefined, { retry: ["busy", "too_many_requests", "network"] });
  const where = `/v1/jobs/${encodeURIComponent(job.id)}`;
  for (;;) {
    state.reviewProgress = job.progress;
    renderReviewProgress();
    if (job.status === "done") return job.result;
    if (job.status === "failed" || job.status === "cancelled") {
      throw new ApiFailure(500, "internal", job.error || job.status);
    }
    await new Promise((done) => setTimeout(done, REVIEW_POLL_MS));
    job = await api("GET", where, undefined, { retry: ["network", "busy"] });
  }
}

// The review's progress bar: decisions done of the seat's total, while its job runs.
export function renderReviewProgress() {
  const bar = $("review-progress");
  const progress = state.busy === "review" ? state.reviewProgress : null;
  bar.hidden = !progress;
  if (!progress) return;
  bar.max = Math.max(1, progress.total);
  bar.value = progress.done;
  const text = t("reviewProgress", { n: progress.done, of: progress.total });
  bar.setAttribute("aria-valuetext", text);
  bar.title = text;
  if (state.busy === "review") $("status").textContent = text;
}

export function closeReview() {
  if (!reviewOpen()) return;
  state.review.open = false;
  render();
  $("review-button").focus();
}

export function stepReview(to) {
  if (!reviewOpen() || state.busy) return;
  const last = state.review.data.moves.length - 1;
  state.review.at = Math.max(0, Math.min(last, to));
  render();
  keepFocus();
}

export function labelBadge(label) {
  const badge = document.createElement("span");
  badge.className = `verdict-badge label-${LABELS.includes(label) ? label : "unscored"}`;
  badge.textContent = t("label_" + label);
  return badge;
}

export function reviewLine(text, score, cls, chance, exact) {
  const line = document.createElement("div");
  line.className = "review-move " + cls;
  const what = document.createElement("span");
  what.className = "what";
  what.textContent = text;
  line.append(what);
  if (score !== null && score !== undefined) {
    const value = document.createElement("span");
    value.className = "pct";
    value.textContent = valueText({ score, exact }); // a proven value in words, as the hint says it
    value.title = chanceWord(chance);
    line.append(value, bar(score));
  }
  return line;
}

// The game reviewed (the last one over, in a match) as text, to copy or download.
export async function showGameText() {
  if (!canReview()) return;
  try {
    const text = await storedGameText(state.id, 0, reviewGame());
    $("game-text").replaceChildren(gameTextPanel(text, "tan-game", "game-text-area"));
    $("game-text").hidden = false;
  } catch (error) { showError(error); }
}

export function renderReview() {
  const panel = $("review");
  const open = reviewOpen();
  panel.hidden = !open;
  document.body.classList.toggle("reviewing", open);
  $("review-button").hidden = !canReview();
  $("review-button").disabled = !!state.busy;
  renderGameChoice();
  $("text-button").hidden = !canReview();
  if (!canReview() && !$("game-text").hidden) { $("game-text").hidden = true; $("game-text").replaceChildren(); }
  if (!open) return;
  const { data, at } = state.review;
  $("review-title").textContent = state.review.game === null ? t("reviewTitle") : t("reviewTitleGame", { n: state.review.game });
  const moves = data.moves;
  const entry = moves[at] || null;
  $("review-prev").disabled = !!state.busy || at <= 0;
  $("review-next").disabled = !!state.busy || at >= moves.length - 1;
  $("review-step").textContent = entry
    ? t("reviewStatus", { n: at + 1, of: moves.length, ply: entry.ply + 1 })
    : t("reviewEmpty");

  const detail = $("review-detail");
  detail.replaceChildren();
  detail.dataset.label = entry ? entry.label : "";
  if (entry) {
    const verdict = document.createElement("p");
    verdict.className = "verdict";
    verdict.append(labelBadge(entry.label));
    if (entry.exact) verdict.append(provenBadge());
    let note;
    if (entry.label === "forced") note = t("reviewOnly");
    else if (entry.label === "unscored") note = t("reviewUnscored");
    else if (sameMove(entry.move, entry.best)) note = t("reviewSame");
    else if (entry.label === "good") note = t("reviewNoise"); // within the search's noise: no cost shown
    else note = t("reviewCost", { n: points(entry.loss) });
    verdict.append(document.createTextNode(" " + note));
    detail.append(
      verdict,
      reviewLine(t("reviewYou", { move: moveText(entry.move) }), entry.played_score, "played", entry.chance, entry.exact),
      reviewLine(t("reviewEngine", { move: moveText(entry.best) }), entry.best_score, "best", entry.chance, entry.exact),
    );
  }

  $("review-note").textContent = reviewNote(state.reviewBounds, moves.length ? moves[0].chance : null);

  const summary = data.summary;
  const counts = LABELS.filter((label) => summary.labels[label])
    .map((label) => `${t("label_" + label)} ${summary.labels[label]}`).join(", ");
  $("review-summary").textContent = t("reviewSummary", {
    n: summary.decisions, counts: counts || "–", mean: summary.mean_loss === null ? "–" : points(summary.mean_loss),
  });

  const rows = $("review-rows");
  rows.replaceChildren(
    ...moves.map((move, index) => {
      const row = document.createElement("tr");
      row.className = `label-${move.label}` + (index === at ? " current" : "");
      if (index === at) row.setAttribute("aria-current", "step");
      const first = document.createElement("td");
      const jump = document.createElement("button");
      jump.type = "button";
      jump.className = "jump";
      jump.textContent = String(move.ply + 1);
      jump.disabled = !!state.busy;
      jump.setAttribute("aria-label", `${t("reviewPly")} ${move.ply + 1}: ${moveText(move.move)}, ${t("label_" + move.label)}`);
      jump.addEventListener("click", () => stepReview(index));
      first.append(jump);
      const cells = [
        moveText(move.move),
        moveText(move.best),
        move.label === "forced" || move.label === "unscored" ? "–" : points(move.loss),
      ].map((text) => {
        const cell = document.createElement("td");
        cell.textContent = text;
        return cell;
      });
      const verdict = document.createElement("td");
      verdict.append(labelBadge(move.label));
      row.append(first, ...cells, verdict);
      return row;
    }),
  );
  // The current row in view inside its own scrolling box only: scrolling the window would take the
  // board (the table as it was) out of view while stepping.
  const current = rows.querySelector("tr.current");
  const wrap = current && current.closest(".review-table-wrap");
  if (wrap) {
    const row = current.getBoundingClientRect();
    const box = wrap.getBoundingClientRect();
    const head = wrap.querySelector("thead");
    const top = box.top + (head ? head.offsetHeight : 0); // the sticky heading covers the top
    if (row.top < top) wrap.scrollTop -= top - row.top;
    else if (row.bottom > box.bottom) wrap.scrollTop += row.bottom - box.bottom;
  }
}

// The chooser of a finished match's game to review, kept as chosen while its games stay the same.
function renderGameChoice() {
  const choice = $("review-game");
  const games = canReview() ? reviewableGames(state.game) : [];
  choice.hidden = games.length < 2;
  choice.disabled = !!state.busy;
  const offered = [...choice.options].map((option) => Number(option.value));
  if (offered.join() !== games.join()) {
    choice.replaceChildren(...games.map((n) => new Option(t("reviewGameN", { n }), String(n))));
    if (games.length) choice.value = String(games[games.length - 1]);
  } else {
    for (const option of choice.options) option.textContent = t("reviewGameN", { n: option.value }); // the language
  }
}

// What the cost is, in the hint's words (the review's `chance`, as a hint's: docs/api.md §3; none
// without a decision reviewed), and the labels' bounds as GET /v1/rules gives them (none known yet:
// none said).
export function reviewNote(bounds, chance) {
  const parts = chance ? [t("reviewNote", { chance: chanceWord(chance) })] : [];
  if (bounds && bounds.length) {
    const below = bounds.map((b) => t("reviewBelow", { n: points(b.below).replace(/\.0$/, ""), label: t("label_" + b.label) }));
    const last = bounds[bounds.length - 1];
    below.push(t("reviewFrom", { n: points(last.below).replace(/\.0$/, ""), label: t("label_blunder") }));
    const text = below.join("; ");
    parts.push(text.charAt(0).toUpperCase() + text.slice(1) + ".");
  }
  return parts.join(" ");
}

// The cards of the reviewed decision in the hand: the one played and the engine's.
export function markReviewedCards(entry) {
  for (const [move, cls] of [[entry.move, "played"], [entry.best, "engine"]]) {
    const card = move && move.card;
    const button = card && $("hand").querySelector(`button[data-card="${card}"]`);
    if (button) button.classList.add(cls);
  }
}
