/* The keyboard: H hint, digits, T take, P pass, C transfer, Esc, arrows in a review, N new game. */

import { askHint, closeHint, hintRows, hintShown } from "./hint.js";
import { legalMoves } from "./moves.js";
import { actionMove, closeChooser, playMove, transfer } from "./play.js";
import { skipPlayback } from "./playback.js";
import { closeReview, reviewOpen, stepReview } from "./review.js";
import { showSetup } from "./session.js";
import { $, state } from "./state.js";

export function onKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  if (target && (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA")) return;
  if (reviewOpen() && !$("game").hidden) {
    const at = state.review.at;
    const step = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: Infinity }[event.key];
    if (event.key === "Escape") { closeReview(); event.preventDefault(); return; }
    if (step !== undefined) { stepReview(step); event.preventDefault(); return; }
  }
  if (event.key === "Escape") {
    if (skipPlayback() || state.choosing) { closeChooser(); event.preventDefault(); }
    else if (!$("hint-panel").hidden) { closeHint(); event.preventDefault(); }
    return;
  }
  if ($("game").hidden || !state.game) return;
  const key = event.key.toLowerCase();
  if (key === "n") { showSetup(); event.preventDefault(); return; }
  if (state.busy) return;
  let handled = true;
  if (key === "h") askHint();
  else if (key === "t") { const m = actionMove("take"); if (m) playMove(m); }
  else if (key === "p") { const m = actionMove("pass"); if (m) playMove(m); }
  else if (key === "c") transfer();
  else if (/^[0-9]$/.test(key)) {
    // A digit plays a numbered row: the chooser's, else the hint's (best first), else the legal moves'.
    const index = key === "0" ? 9 : Number(key) - 1;
    let list = legalMoves();
    if (state.choosing) list = state.choosing.moves;
    else if (hintShown()) list = hintRows().map((entry) => entry.move);
    const move = list[index];
    if (move) playMove(move);
  } else handled = false;
  if (handled) event.preventDefault();
}
