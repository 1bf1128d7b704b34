/* View: the review of a game followed at a table (the table assistant, a game opened from its
 * text) — the decision shown with its verdict, what it cost and both moves' chances, Previous /
 * Next, the table of every decision and "Try on the analysis board". Drawn from POST /v1/analyze's
 * review (docs/api.md "Reviews") with the review panel's own pieces (review-panel.js), so both
 * reviews word a decision alike; the caller acts on `onStep(index)` and `onBoard(entry)`.
 */

import { moveText, points, sameMove } from "./cards.js";
import { el, provenBadge } from "./faces.js";
import { t } from "./i18n.js";
import { LABELS, labelBadge, reviewLine, reviewNote } from "./review-panel.js";

const button = (text, onClick, className = "secondary") => {
  const node = el("button", className, text);
  node.type = "button";
  node.addEventListener("click", onClick);
  return node;
};

// The verdict's note, as the game review words it.
function verdictNote(entry) {
  if (entry.label === "forced") return t("reviewOnly");
  if (entry.label === "unscored") return t("reviewUnscored");
  if (sameMove(entry.move, entry.best)) return t("reviewSame");
  if (entry.label === "good") return t("reviewNoise");
  return t("reviewCost", { n: points(entry.loss) });
}

/* `review`: {data: the review, at: the decision shown}; `bounds`: GET /v1/rules' `review_labels`
 * (or null); `busy`: buttons off. */
export function recordReviewPanel({ review, bounds = null, busy = false, onStep, onBoard }) {
  const { data, at } = review;
  const moves = data.moves;
  const entry = moves[at] || null;
  const panel = el("section", "panel review follow-review");
  panel.setAttribute("aria-label", t("reviewTitle"));
  panel.append(el("h3", "", t("reviewTitle")));
  const step = el("p", "review-step", entry ? t("reviewStatus", { n: at + 1, of: moves.length, ply: entry.ply + 1 }) : t("reviewEmpty"));
  step.setAttribute("aria-live", "polite");
  panel.append(step);
  if (entry) {
    const detail = el("div", "review-detail");
    detail.dataset.label = entry.label;
    const verdict = el("p", "verdict");
    verdict.append(labelBadge(entry.label));
    if (entry.exact) verdict.append(provenBadge());
    verdict.append(document.createTextNode(" " + verdictNote(entry)));
    detail.append(
      verdict,
      reviewLine(t("reviewYou", { move: moveText(entry.move) }), entry.played_score, "played", entry.chance, entry.exact),
      reviewLine(t("reviewEngine", { move: moveText(entry.best) }), entry.best_score, "best", entry.chance, entry.exact),
    );
    panel.append(detail);
  }
  const nav = el("div", "review-nav");
  const prev = button(t("reviewPrev"), () => onStep(at - 1));
  prev.dataset.role = "review-prev";
  prev.disabled = busy || at <= 0;
  const next = button(t("reviewNext"), () => onStep(at + 1));
  next.dataset.role = "review-next";
  next.disabled = busy || at >= moves.length - 1;
  nav.append(prev, next);
  if (entry) {
    const board = button(t("reviewOnBoard"), () => onBoard(entry));
    board.dataset.role = "review-board";
    board.disabled = busy;
    nav.append(board);
  }
  panel.append(nav);

  const summary = data.summary;
  const counts = LABELS.filter((label) => summary.labels[label]).map((label) => `${t("label_" + label)} ${summary.labels[label]}`).join(", ");
  panel.append(el("p", "small review-summary", t("reviewSummary", {
    n: summary.decisions, counts: counts || "–", mean: summary.mean_loss === null ? "–" : points(summary.mean_loss),
  })));

  const wrap = el("div", "review-table-wrap");
  const table = el("table", "review-table");
  const head = el("tr");
  for (const key of ["reviewPly", "reviewPlayed", "reviewBest", "reviewLoss", "reviewLabel"]) head.append(el("th", "", t(key)));
  const thead = el("thead");
  thead.append(head);
  const body = el("tbody");
  moves.forEach((move, index) => {
    const row = el("tr", `label-${move.label}` + (index === at ? " current" : ""));
    if (index === at) row.setAttribute("aria-current", "step");
    const first = el("td");
    const jump = button(String(move.ply + 1), () => onStep(index), "jump");
    jump.disabled = busy;
    jump.setAttribute("aria-label", `${t("reviewPly")} ${move.ply + 1}: ${moveText(move.move)}, ${t("label_" + move.label)}`);
    first.append(jump);
    const cost = move.label === "forced" || move.label === "unscored" ? "–" : points(move.loss);
    const verdict = el("td");
    verdict.append(labelBadge(move.label));
    row.append(first, el("td", "", moveText(move.move)), el("td", "", moveText(move.best)), el("td", "", cost), verdict);
    body.append(row);
  });
  table.append(thead, body);
  wrap.append(table);
  panel.append(wrap, el("p", "muted small", reviewNote(bounds, moves.length ? moves[0].chance : null)));
  return panel;
}
