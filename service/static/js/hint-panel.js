/* View: the hint panel — the evaluation, and each move with its chance and cost (hint.js asks). */

import {
  certainty, chanceWord, costPoints, digitFor, lineText, moveText, outcome, pct, points, valueText,
} from "./cards.js";
import { $ } from "./dom.js";
import { bar } from "./faces.js";
import { t } from "./i18n.js";
import { nowValue } from "./review-steps.js";
import { hintRows, hintShown } from "./selectors.js";

// The panel opened while the hint is being thought of (until then, the last hint's rows go).
export function showThinking() {
  $("hint-panel").hidden = false;
  $("evaluation").textContent = t("hintThinking");
  $("hint-moves").replaceChildren();
  $("hint-note").textContent = "";
}

// The hint folds away (on a phone it is a sheet over the table), the focus back on its button.
export function foldHint() {
  $("hint-panel").hidden = true;
  $("hint-button").focus();
}

// The search's figures, for the tooltip: the 95% interval and the tries.
export function statsText(entry, lang) {
  if (entry.exact) return t("provenNote");
  const lines = [t("interval", { lo: pct(entry.ci95[0]), hi: pct(entry.ci95[1]) })];
  if (entry.visits !== undefined) lines.push(t("visits", { n: Number(entry.visits).toLocaleString(lang) }));
  return lines.join(" · ");
}

export function renderHint(state, handlers) {
  const panel = $("hint-panel");
  const hint = hintShown(state);
  if (!hint) {
    if (state.busy !== "hint") panel.hidden = true;
    return;
  }
  panel.hidden = false;
  const ev = nowValue(hint, hintRows(state)); // the best row's value: "now" never reads below that row
  const evaluation = $("evaluation");
  evaluation.replaceChildren();
  evaluation.dataset.exact = String(!!ev.exact);
  const label = document.createElement("span");
  label.className = "label";
  label.textContent = ev.exact ? `${t("now")}: ${certainty(ev.score)}` : `${t("now")}: ${chanceWord(hint.chance)} ${pct(ev.score)}`;
  evaluation.title = statsText(ev, state.lang);
  evaluation.append(label, bar(ev.score, "eval"));

  $("hint-moves").replaceChildren(
    ...hintRows(state).map((entry, index) => {
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
      if (cost.textContent) {
        cost.title = entry.label === "uncertain" // tried too few times to tell: its range, no cost
          ? `${t("label_uncertain")}: ${statsText(entry, state.lang)}`
          : t("hintCost", { n: points(entry.loss), label: t("label_" + entry.label) });
      }
      button.dataset.label = entry.label || "";
      button.append(num, what, value, cost, bar(entry.score));
      const stats = [statsText(entry, state.lang), lineText(entry.line)].filter(Boolean).join("\n");
      button.title = stats;
      const spoken = (entry.exact ? valueText(entry) : `${chanceWord(hint.chance)} ${pct(entry.score)}`)
        + (cost.textContent ? `, ${cost.title}` : "");
      const key = digitFor(index) ? `${t("key")} ${digitFor(index)}: ` : "";
      button.setAttribute("aria-label", `${key}${moveText(entry.move)}, ${spoken}`);
      button.setAttribute("aria-description", stats);
      button.addEventListener("click", () => handlers.playMove(entry.move));
      item.append(button);
      return item;
    }),
  );
  const s = hint.stats;
  const note = $("hint-note");
  note.textContent = t("hintNote_" + hint.chance) + " " + t("hintCostNote") + (s.calibrated ? " " + t("hintCalibrated") : "");
  note.title = t("stats", { alg: s.algorithm, it: Number(s.iterations).toLocaleString(state.lang), ms: Math.round(s.time_ms) });
}
