/* View: where the keyboard focus goes after a redraw (store.js events' `focus`). */

import { $ } from "./dom.js";
import { reviewOpen } from "./selectors.js";

// After a re-render the focused button may be gone: put keyboard focus somewhere useful.
export function keepFocus(state) {
  const active = document.activeElement;
  const visible = active && active.isConnected && active.getClientRects().length > 0;
  // A card of the hand once the game (or a match's game) is over plays nothing again: not a place to stay.
  const dead = !!(active && active.closest && active.closest("#hand") && !$("over").hidden);
  if (active && active !== document.body && visible && !active.disabled && !dead) return;
  if ($("game").hidden) return;
  const candidates = [
    reviewOpen(state) && ($("review-next").disabled ? $("review-prev") : $("review-next")),
    state.choosing && $("chooser-options").querySelector("button"),
    !$("over").hidden && ($("next-game").hidden ? $("new-game-over") : $("next-game")),
    $("hand").querySelector("button.card.legal:not([disabled])"),
    $("hint-button"),
  ];
  const target = candidates.find((el) => el && !el.disabled && el.getClientRects().length > 0);
  if (target) target.focus({ preventScroll: true });
}

// The focus an event asks for, once the page is drawn: true, somewhere useful; "chooser", its first
// row; "card", the hand's `event.card` (back from the chooser); else the element of that id.
export function focusAfter(state, event) {
  const wanted = event.focus;
  if (wanted === true) keepFocus(state);
  else if (wanted === "chooser") {
    const first = $("chooser-options").querySelector("button");
    if (first) first.focus();
  } else if (wanted === "card") {
    const back = event.card && $("hand").querySelector(`button[data-card="${event.card}"]`);
    if (back && !back.disabled) back.focus();
  } else if (wanted) $(wanted).focus();
}
