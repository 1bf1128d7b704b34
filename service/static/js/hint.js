/* The hint panel (GET /v1/games/{id}/hint). */

import { api } from "./api.js";
import { busyWith } from "./busy.js";
import {
  LINE_PLIES, certainty, chanceWord, costPoints, digitFor, lineText, moveText, outcome, pct, points, rankedMoves, seatName, valueText,
} from "./cards.js";
import { bar } from "./faces.js";
import { t } from "./i18n.js";
import { clearMessage } from "./messages.js";
import { legalMoves } from "./moves.js";
import { playMove } from "./play.js";
import { $, SEARCH_ITERATIONS, state } from "./state.js";


// The hint folds away (on a phone it is a sheet over the table) until the next one is asked for.
export function closeHint() {
  state.hint = null;
  $("hint-panel").hidden = true;
  $("hint-button").focus();
}

export function askHint() {
  if (!state.game || state.game.status !== "playing" || legalMoves().length === 0) return;
  $("hint-panel").hidden = false;
  $("evaluation").textContent = t("hintThinking");
  $("hint-moves").replaceChildren();
  $("hint-note").textContent = "";
  busyWith(async () => {
    // The review's budget and seed: a move played from the hint is reviewed by this very search.
    // `pv`: each move's line, drawn after the search (docs/api.md §3 "Lines"): the search is the same.
    const path = `/v1/games/${encodeURIComponent(state.id)}/hint?seat=0&iterations=${SEARCH_ITERATIONS}&pv=${LINE_PLIES}`;
    const hint = await api("GET", path, undefined, { retry: true });
    clearMessage();
    state.hint = hint;
    state.hintFor = state.game.history.length;
  }, "hint");
}

// The hint's rows, best first (cards.js rankedMoves).
export function hintRows() {
  const hint = hintShown();
  return hint ? rankedMoves(hint.moves) : [];
}

// The hint for the view shown, or null when there is none (or it was asked for another turn).
export const hintShown = () => (state.hint && state.game && state.hintFor === state.game.history.length ? state.hint : null);

// The search's figures, for the tooltip: the 95% interval and the tries.
export function statsText(entry) {
  if (entry.exact) return t("provenNote");
  const lines = [t("interval", { lo: pct(entry.ci95[0]), hi: pct(entry.ci95[1]) })];
  if (entry.visits !== undefined) lines.push(t("visits", { n: Number(entry.visits).toLocaleString(state.lang) }));
  return lines.join(" · ");
}

export function renderHint() {
  const panel = $("hint-panel");
  const hint = hintShown();
  if (!hint) {
    if (state.busy !== "hint") panel.hidden = true;
    return;
  }
  panel.hidden = false;
  const ev = hint.evaluation;
  const evaluation = $("evaluation");
  evaluation.replaceChildren();
  evaluation.dataset.exact = String(!!ev.exact);
  const label = document.createElement("span");
  label.className = "label";
  label.textContent = ev.exact ? `${t("now")}: ${certainty(ev.score)}` : `${t("now")}: ${chanceWord(hint.chance)} ${pct(ev.score)}`;
  evaluation.title = statsText(ev);
  evaluation.append(label, bar(ev.score, "eval"));

  $("hint-moves").replaceChildren(
    ...hintRows().map((entry, index) => {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.className = "hint-move" + (index === 0 ? " best" : "");
      button.dataset.score = String(entry.score);
      button.dataset.exact = String(!!entry.exact);
      button.dataset.move = JSON.stringify(entry.move);
      button.disabled = !!state.busy;
      const num = document.createElement("span");
      num.className = "num";
      num.textContent = digitFor(index);
      num.setAttribute("aria-hidden", "true");
      const what = document.createElement("span");
      what.className = "what";
      what.textContent = moveText(entry.move);
      const value = document.createElement("span");
      value.className = "pct" + (entry.exact ? ` certain ${outcome(entry.score)}` : "");
      value.textContent = valueText(entry);
      // What the move costs against the best, in the review's points and with its label: the
      // rows stay apart when the chances all read 99%.
      const cost = document.createElement("span");
      cost.className = `cost label-${entry.label || "unscored"}`;
      cost.dataset.label = entry.label || "";
      cost.textContent = costPoints(entry);
      if (cost.textContent) cost.title = t("hintCost", { n: points(entry.loss), label: t("label_" + entry.label) });
      button.dataset.label = entry.label || "";
      button.append(num, what, value, cost, bar(entry.score));
      const stats = [statsText(entry), lineText(entry.line)].filter(Boolean).join("\n");
      button.title = stats;
      const spoken = (entry.exact ? valueText(entry) : `${chanceWord(hint.chance)} ${pct(entry.score)}`)
        + (cost.textContent ? `, ${cost.title}` : "");
      const key = digitFor(index) ? `${t("key")} ${digitFor(index)}: ` : "";
      button.setAttribute("aria-label", `${key}${moveText(entry.move)}, ${spoken}`);
      button.setAttribute("aria-description", stats);
      button.addEventListener("click", () => playMove(entry.move));
      item.append(button);
      return item;
    }),
  );
  const s = hint.stats;
  const note = $("hint-note");
  note.textContent = t("hintNote_" + hint.chance) + " " + t("hintCostNote") + (s.calibrated ? " " + t("hintCalibrated") : "");
  note.title = t("stats", { alg: s.algorithm, it: Number(s.iterations).toLocaleString(state.lang), ms: Math.round(s.time_ms) });
}
