/* View: the review's panel — the decision shown with its label and cost, the table of every
 * decision, the progress of its job; the game's text; the board kept in view (review.js acts). */

import { chanceWord, moveText, pct, points, sameMove, valueText } from "./cards.js";
import { $ } from "./dom.js";
import { bar, provenBadge } from "./faces.js";
import { t } from "./i18n.js";
import { MISTAKES, costText, graphPoints, nextMistake, stepFrom } from "./review-steps.js";
import { canReview, reviewableGames, reviewOpen } from "./selectors.js";
import { gameTextPanel } from "./text-panel.js";

export const LABELS = ["good", "inaccuracy", "mistake", "blunder", "uncertain", "forced", "unscored"];

// The game the chooser names (the last one until another is chosen); none for a single game.
export const chosenGame = () => ($("review-game").hidden ? undefined : Number($("review-game").value));

// The board at the top of the window when a review opens (the game over, gone, may have left the
// page scrolled down): stepping then shows the table as it was beside the review's panel.
export function boardInView(state) {
  const board = document.querySelector(".board");
  if (!board || !reviewOpen(state)) return;
  const rect = board.getBoundingClientRect();
  if (rect.top < 0 || rect.bottom > window.innerHeight) window.scrollBy({ top: rect.top - 8, behavior: "instant" });
}

// The review's progress bar: decisions done of the seat's total, while its job runs.
export function renderReviewProgress(state) {
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

export function labelBadge(label) {
  const badge = document.createElement("span");
  badge.className = `verdict-badge label-${LABELS.includes(label) ? label : "unscored"}`;
  badge.textContent = t("label_" + label);
  return badge;
}

// One of the decision's two moves: its chance (a proven one in words, as the hint says it) and,
// when only estimated, the 95% interval beside it, in view (not only in a tooltip).
export function reviewLine(text, score, cls, chance, exact, ci95) {
  const line = document.createElement("div");
  line.className = "review-move " + cls;
  const what = document.createElement("span");
  what.className = "what";
  what.textContent = text;
  line.append(what);
  if (score !== null && score !== undefined) {
    const value = document.createElement("span");
    value.className = "pct";
    value.textContent = valueText({ score, exact });
    value.title = chanceWord(chance);
    line.append(value, bar(score));
    if (!exact && ci95) {
      const range = document.createElement("span");
      range.className = "range small muted";
      range.textContent = t("reviewRange", { lo: pct(ci95[0]), hi: pct(ci95[1]) });
      line.append(range);
    }
  }
  return line;
}

const SVG = "http://www.w3.org/2000/svg";
const GRAPH_W = 600;
const GRAPH_H = 90;

// The win-chance graph over the game: the chance after each of your moves (a point a searched
// decision), the 50% line, the mistakes marked by their label's colour, the decision shown ringed;
// a point clicked (or chosen by Enter) goes to that decision.
export function reviewGraph(state, handlers) {
  const { data, at } = state.review;
  const moves = data.moves;
  const chance = moves.length ? moves[0].chance : "win";
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${GRAPH_W} ${GRAPH_H}`);
  svg.setAttribute("class", "graph");
  svg.setAttribute("role", "group");
  svg.setAttribute("aria-label", t("reviewGraph", { chance: chanceWord(chance) }));
  const dots = graphPoints(moves, GRAPH_W, GRAPH_H, 10);
  const mid = document.createElementNS(SVG, "line");
  for (const [k, v] of [["x1", 0], ["x2", GRAPH_W], ["y1", GRAPH_H / 2], ["y2", GRAPH_H / 2], ["class", "mid"]]) mid.setAttribute(k, String(v));
  svg.append(mid);
  if (dots.length) {
    const area = document.createElementNS(SVG, "polyline");
    area.setAttribute("class", "curve");
    area.setAttribute("points", dots.map((p) => `${p.x},${p.y}`).join(" "));
    svg.append(area);
  }
  for (const point of dots) {
    // A point: its dot, and a wider clear circle around it that a finger can hit on a phone.
    const dot = document.createElementNS(SVG, "g");
    const move = moves[point.index];
    const mistake = MISTAKES.includes(point.label);
    for (const [cls, r] of [["hit", 16], ["dot", mistake || point.index === at ? 7 : 4.5]]) {
      const circle = document.createElementNS(SVG, "circle");
      circle.setAttribute("cx", String(point.x));
      circle.setAttribute("cy", String(point.y));
      circle.setAttribute("r", String(r));
      circle.setAttribute("class", cls);
      dot.append(circle);
    }
    dot.setAttribute("class", `point label-${point.label}` + (point.index === at ? " current" : ""));
    dot.setAttribute("tabindex", "0");
    dot.setAttribute("role", "button");
    dot.dataset.index = String(point.index);
    const said = t("reviewGraphPoint", {
      ply: move.ply + 1, value: valueText({ score: point.score, exact: move.played_exact }), label: t("label_" + point.label),
    });
    dot.setAttribute("aria-label", said);
    const title = document.createElementNS(SVG, "title");
    title.textContent = said;
    dot.append(title);
    dot.addEventListener("click", () => handlers.stepReview(point.index));
    dot.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") { handlers.stepReview(point.index); event.preventDefault(); }
    });
    svg.append(dot);
  }
  const caption = document.createElement("p");
  caption.className = "small muted";
  caption.textContent = t("reviewGraph", { chance: chanceWord(chance) });
  return [svg, caption];
}

// The game reviewed as text (review.js gameText), to copy or download.
export function showGameText(text) {
  $("game-text").replaceChildren(gameTextPanel(text, "tan-game", "game-text-area"));
  $("game-text").hidden = false;
}

export function renderReview(state, handlers) {
  const panel = $("review");
  const open = reviewOpen(state);
  panel.hidden = !open;
  document.body.classList.toggle("reviewing", open);
  $("review-button").hidden = !canReview(state);
  $("review-button").disabled = !!state.busy;
  renderGameChoice(state);
  $("text-button").hidden = !canReview(state);
  if (!canReview(state) && !$("game-text").hidden) { $("game-text").hidden = true; $("game-text").replaceChildren(); }
  if (!open) return;
  const { data, at } = state.review;
  $("review-title").textContent = state.review.game === null ? t("reviewTitle") : t("reviewTitleGame", { n: state.review.game });
  const moves = data.moves;
  const entry = moves[at] || null;
  $("review-prev").disabled = !!state.busy || stepFrom(moves, at, -1) === at;
  $("review-next").disabled = !!state.busy || stepFrom(moves, at, 1) === at;
  const mistake = nextMistake(moves, at);
  $("review-mistake").disabled = !!state.busy || mistake === null || mistake === at;
  $("review-mistake").title = mistake === null ? t("reviewNoMistake") : "";
  $("review-graph").replaceChildren(...reviewGraph(state, handlers));
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
    else if (entry.label === "uncertain") {
      note = t("reviewUncertain", { n: entry.played_visits ?? 0, lo: pct(entry.played_ci95[0]), hi: pct(entry.played_ci95[1]) });
    } else note = t("reviewCost", { n: costText(entry) }); // the difference of the two chances shown
    verdict.append(document.createTextNode(" " + note));
    const proven = (which) => entry[which] ?? entry.exact; // a review kept before these fields: both or none
    detail.append(
      verdict,
      reviewLine(t("reviewYou", { move: moveText(entry.move) }), entry.played_score, "played", entry.chance, proven("played_exact"), entry.played_ci95),
      reviewLine(t("reviewEngine", { move: moveText(entry.best) }), entry.best_score, "best", entry.chance, proven("best_exact"), entry.best_ci95),
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
      jump.addEventListener("click", () => handlers.stepReview(index));
      first.append(jump);
      const cells = [
        moveText(move.move),
        moveText(move.best),
        costText(move),
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
function renderGameChoice(state) {
  const choice = $("review-game");
  const games = canReview(state) ? reviewableGames(state.game) : [];
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
    parts.push(t("reviewUncertainNote"));
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
