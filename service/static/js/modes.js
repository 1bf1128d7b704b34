/* Wiring: the page's modes — play against the engines (the new-game form and the table), the table
 * assistant (#assistant), the analysis board (#board) and puzzles (#puzzles). The address's hash names the mode, so
 * a reload stays in it and Back goes to the last one; the play mode's own screens are left as
 * they were (the play modules show and hide them).
 */

import { followedAnswer, openAssistant, redrawAssistant } from "./assistant.js";
import { openBoard, openOnBoard, redrawBoard, reviewStepOnBoard } from "./board.js";
import { $ } from "./dom.js";
import { t } from "./i18n.js";
import { storedGameRecord } from "./records.js";
import { openPuzzles, redrawPuzzles } from "./puzzles.js";
import { reviewed } from "./selectors.js";
import { resume, savedGame } from "./session.js";
import { state } from "./store.js";

export const MODES = ["play", "assistant", "board", "puzzles"];
// `#assistant/{id}`: the assistant with the game the server keeps under that id.
export const modeOf = (hash) => {
  const name = String(hash || "").replace(/^#/, "").split("/")[0];
  return MODES.includes(name) && name !== "play" ? name : "play";
};
export const idOf = (hash) => String(hash || "").replace(/^#/, "").split("/")[1] || null;

let current = "play";
let playScreens = null; // which of the play mode's screens were shown when it was left

export function showMode(mode) {
  const leaving = current;
  current = mode;
  for (const name of MODES) {
    const link = $(`mode-${name}`);
    if (link) {
      if (name === mode) link.setAttribute("aria-current", "page"); else link.removeAttribute("aria-current");
    }
  }
  document.body.dataset.mode = mode; // the play mode's own tools (the engines' pace) hide in the others
  $("assistant").hidden = mode !== "assistant";
  $("board").hidden = mode !== "board";
  $("puzzles").hidden = mode !== "puzzles";
  if (mode !== "play") {
    if (leaving === "play") playScreens = { setup: !$("setup").hidden, game: !$("game").hidden, top: !$("new-game-top").hidden };
    $("setup").hidden = true;
    $("game").hidden = true;
    $("new-game-top").hidden = true;
  }
  if (mode === "assistant") openAssistant(assistantActions, idOf(location.hash));
  else if (mode === "board") openBoard();
  else if (mode === "puzzles") openPuzzles();
  else if (leaving !== "play") {
    const shown = playScreens || { setup: true, game: false, top: false };
    $("setup").hidden = !shown.setup;
    $("game").hidden = !shown.game;
    $("new-game-top").hidden = !shown.top;
    if (!state.game && savedGame()) resume();
  }
}

// The assistant's own button: its position now, on the board.
function assistantActions(follower) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "secondary";
  b.dataset.role = "to-board";
  b.textContent = t("toBoard");
  b.disabled = follower.busy || !follower.answer || !!follower.answer.draw;
  b.addEventListener("click", () => {
    const answer = followedAnswer();
    if (!answer) return;
    openOnBoard(answer.position, { kind: "assistant" }); // first: the board's mode then waits for it
    location.hash = "#board";
  });
  return [b];
}

// A review step's "try on the board": the review panel is the play mode's; its button is added here.
function addReviewButton() {
  const head = document.querySelector("#review .review-head");
  if (!head || $("review-board")) return;
  const b = document.createElement("button");
  b.type = "button";
  b.id = "review-board";
  b.className = "secondary";
  b.dataset.i18n = "reviewOnBoard";
  b.textContent = t("reviewOnBoard");
  b.addEventListener("click", async () => {
    const entry = reviewed(state);
    if (!entry) return;
    // The game's record as the seat saw it, so the board asks the review's very question (its
    // history, its engines' scale); without it, the step's position alone.
    const record = await storedGameRecord(state.review.id, 0, state.review.game).catch(() => null);
    reviewStepOnBoard(entry, { record }); // first: the board's mode then waits for it
    location.hash = "#board";
  });
  head.append(b);
}

// Start the modes; true when the page opens in the play mode (which then resumes its game).
export function initModes() {
  addReviewButton();
  window.addEventListener("hashchange", () => showMode(modeOf(location.hash)));
  $("lang").addEventListener("change", () => { if (current === "assistant") redrawAssistant(); else if (current === "board") redrawBoard(); else if (current === "puzzles") redrawPuzzles(); });
  const mode = modeOf(location.hash);
  if (mode !== "play") showMode(mode);
  return mode === "play";
}
