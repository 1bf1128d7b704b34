/* View: the play mode's two screens — the new-game form and the game's table. */

import { $ } from "./dom.js";

// The game's screen; `draw()` then draws it.
export function showGameScreen(draw) {
  const fromSetup = !$("setup").hidden;
  $("setup").hidden = true;
  $("game").hidden = false;
  $("new-game-top").hidden = false;
  if (fromSetup) window.scrollTo(0, 0); // the table from its top, not where the form was scrolled to
  draw();
}

// The new-game form; "back to the game" is offered when there is one (`hasGame`).
export function showSetupScreen(hasGame) {
  $("game").hidden = true;
  $("setup").hidden = false;
  $("new-game-top").hidden = true;
  $("back-to-game").hidden = !hasGame;
  $("preset").focus();
}
