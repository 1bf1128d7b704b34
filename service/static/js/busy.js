/* One request at a time, the page marked busy meanwhile; keyboard focus kept somewhere useful. */

import { showError } from "./messages.js";
import { render } from "./render.js";
import { reviewOpen } from "./review.js";
import { $, state } from "./state.js";

// Run one request at a time; the page shows it is busy meanwhile.
export async function busyWith(work, kind = "move") {
  if (state.busy) return undefined;
  state.busy = kind;
  document.body.classList.add("busy");
  document.body.setAttribute("aria-busy", "true");
  render();
  try {
    return await work();
  } catch (error) {
    showError(error);
    return undefined;
  } finally {
    state.busy = false;
    document.body.classList.remove("busy");
    document.body.removeAttribute("aria-busy");
    render();
    keepFocus();
  }
}

// After a re-render the focused button may be gone: put keyboard focus somewhere useful.
export function keepFocus() {
  const active = document.activeElement;
  const visible = active && active.isConnected && active.getClientRects().length > 0;
  // A card of the hand once the game (or a match's game) is over plays nothing again: not a place to stay.
  const dead = !!(active && active.closest && active.closest("#hand") && !$("over").hidden);
  if (active && active !== document.body && visible && !active.disabled && !dead) return;
  if ($("game").hidden) return;
  const candidates = [
    reviewOpen() && ($("review-next").disabled ? $("review-prev") : $("review-next")),
    state.choosing && $("chooser-options").querySelector("button"),
    !$("over").hidden && ($("next-game").hidden ? $("new-game-over") : $("next-game")),
    $("hand").querySelector("button.card.legal:not([disabled])"),
    $("hint-button"),
  ];
  const target = candidates.find((el) => el && !el.disabled && el.getClientRects().length > 0);
  if (target) target.focus({ preventScroll: true });
}
