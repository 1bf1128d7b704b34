/* Wiring: the keyboard — H hint, digits, T take, P pass, C transfer, Esc, arrows in a review,
 * N new game — each key calls one of the `handlers` app.js gives. */

import { $ } from "./dom.js";
import { legalMoves } from "./moves.js";
import { hintRows, hintShown, reviewOpen } from "./selectors.js";
import { state } from "./store.js";

export function onKey(event, handlers) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  if (target && (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA")) return;
  if (reviewOpen(state) && !$("game").hidden) {
    const dir = { ArrowLeft: -1, ArrowRight: 1 }[event.key];
    const step = { Home: 0, End: Infinity }[event.key];
    if (event.key === "Escape") { handlers.closeReview(); event.preventDefault(); return; }
    if (dir !== undefined) { handlers.stepDecision(dir); event.preventDefault(); return; }
    if (step !== undefined) { handlers.stepReview(step); event.preventDefault(); return; }
    if (event.key.toLowerCase() === "m") { handlers.stepMistake(); event.preventDefault(); return; }
  }
  if (event.key === "Escape") {
    if (handlers.skipPlayback() || state.choosing) { handlers.closeChooser(); event.preventDefault(); }
    else if (!$("hint-panel").hidden) { handlers.closeHint(); event.preventDefault(); }
    return;
  }
  if ($("game").hidden || !state.game) return;
  const key = event.key.toLowerCase();
  if (key === "n") { handlers.showSetup(); event.preventDefault(); return; }
  if (state.busy) return;
  let handled = true;
  if (key === "h") handlers.askHint();
  else if (key === "t") handlers.playAction("take");
  else if (key === "p") handlers.playAction("pass");
  else if (key === "c") handlers.transfer();
  else if (/^[0-9]$/.test(key)) {
    // A digit plays a numbered row: the chooser's, else the hint's (best first), else the legal moves'.
    const index = key === "0" ? 9 : Number(key) - 1;
    let list = legalMoves(state);
    if (state.choosing) list = state.choosing.moves;
    else if (hintShown(state)) list = hintRows(state).map((entry) => entry.move);
    const move = list[index];
    if (move) handlers.playMove(move);
  } else handled = false;
  if (handled) event.preventDefault();
}
