/* View: a card of the hand dragged onto the table — the lifted card follows the pointer, and where
 * it is let go is handed to `onDrop(card, attack)` (play.js dropCard). */

import { movesWithCard } from "./moves.js";
import { reviewOpen } from "./selectors.js";

let dragged = false; // a card was just dragged: the click that ends the drag is not a click

export const justDragged = () => dragged;

// Where a dragged card was let go: on the felt (and on which attack card, if any), or nowhere.
export function dropTarget(x, y) {
  const el = document.elementFromPoint(x, y);
  if (!el || !el.closest(".board")) return null;
  const pair = el.closest(".pair");
  return { attack: pair ? pair.querySelector(".attack").dataset.card : null };
}

export function startDrag(event, card, button, state, onDrop) {
  dragged = false;
  if (event.button !== 0 || state.busy || reviewOpen(state) || movesWithCard(state, card).length === 0) return;
  const start = { x: event.clientX, y: event.clientY };
  let ghost = null;
  const follow = (e) => {
    const dx = e.clientX - start.x;
    const dy = e.clientY - start.y;
    if (!ghost && Math.hypot(dx, dy) < 8) return;
    if (!ghost) {
      const rect = button.getBoundingClientRect();
      ghost = button.cloneNode(true);
      ghost.classList.add("ghost", "dragging");
      ghost.setAttribute("aria-hidden", "true");
      ghost.style.left = `${rect.left}px`;
      ghost.style.top = `${rect.top}px`;
      document.body.append(ghost);
      button.classList.add("lifted");
      dragged = true;
    }
    ghost.style.transform = `translate(${dx}px, ${dy}px) rotate(-4deg)`;
    document.querySelector(".board").classList.toggle("drop", !!dropTarget(e.clientX, e.clientY));
  };
  const stop = (e) => {
    window.removeEventListener("pointermove", follow);
    window.removeEventListener("pointerup", stop);
    window.removeEventListener("pointercancel", stop);
    if (!ghost) return;
    ghost.remove();
    button.classList.remove("lifted");
    document.querySelector(".board").classList.remove("drop");
    const target = e.type === "pointerup" ? dropTarget(e.clientX, e.clientY) : null;
    if (target) onDrop(card, target.attack);
  };
  window.addEventListener("pointermove", follow);
  window.addEventListener("pointerup", stop);
  window.addEventListener("pointercancel", stop);
}
