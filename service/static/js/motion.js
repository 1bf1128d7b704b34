/* View: a playback's moves as they happen — cards flying from the seat that played them (a table
 * picked up flies to the taker, a beaten one to the discard pile), and each move read out to
 * screen readers (the live region #announce). */

import { $ } from "./dom.js";
import { shownGame } from "./selectors.js";

const moving = (state) => state.pace !== "off" && !window.matchMedia("(prefers-reduced-motion: reduce)").matches;

// Read a move out to screen readers, one line per move.
export function announce(text) {
  const line = document.createElement("p");
  line.textContent = text;
  const box = $("announce");
  box.append(line);
  while (box.childElementCount > 6) box.firstElementChild.remove();
}

// Where a seat sits on the page: its place at the table, or your hand.
export function seatBox(seat) {
  if (seat === 0) return $("hand");
  return document.querySelector(`#opponents .opponent[data-seat="${seat}"]`) || $("opponents");
}

// Cards new on the table fly in from the seat that played them.
function flyIn(state, cards, seat) {
  if (!moving(state) || !cards.length) return;
  const from = seatBox(seat).getBoundingClientRect();
  const duration = state.pace === "slow" ? 650 : 350;
  for (const el of cards) {
    const to = el.getBoundingClientRect();
    const dx = from.left + from.width / 2 - (to.left + to.width / 2);
    const dy = from.top + from.height / 2 - (to.top + to.height / 2);
    el.animate([{ transform: `translate(${dx}px, ${dy}px) scale(0.8)`, opacity: 0.3 }, { transform: "none", opacity: 1 }],
      { duration, easing: "ease-out" });
  }
}

// The cards leaving the table fly to where they go: the taker's hand, or the discard pile.
function flyOut(state, elements, target) {
  if (!moving(state) || !elements.length) return;
  const to = target.getBoundingClientRect();
  const duration = state.pace === "slow" ? 700 : 400;
  for (const el of elements) {
    const from = el.getBoundingClientRect();
    const ghost = el.cloneNode(true);
    ghost.removeAttribute("id");
    ghost.classList.add("ghost");
    ghost.setAttribute("aria-hidden", "true");
    ghost.style.left = `${from.left}px`;
    ghost.style.top = `${from.top}px`;
    document.body.append(ghost);
    const dx = to.left + to.width / 2 - (from.left + from.width / 2);
    const dy = to.top + to.height / 2 - (from.top + from.height / 2);
    ghost.animate([{ transform: "none", opacity: 1 }, { transform: `translate(${dx}px, ${dy}px) scale(0.6)`, opacity: 0 }],
      { duration, easing: "ease-in" }).finished.then(() => ghost.remove(), () => ghost.remove());
  }
}

// Show the table change from one shown state to the next: what arrived and what left.
function animateTable(state, before, mover) {
  const now = shownGame(state).position;
  const had = new Set(before.table.flatMap((pair) => [pair.attack, pair.defense]).filter(Boolean));
  const arrived = [...$("table").querySelectorAll(".card[data-card]")].filter((el) => !had.has(el.dataset.card));
  flyIn(state, arrived, mover);
  if (before.table.length && !now.table.length && before.ghosts) {
    const taker = before.taking ? before.defender : null;
    flyOut(state, before.ghosts, taker === null ? $("deck-info") : seatBox(taker));
  }
}

// A snapshot of the table shown, for animateTable: its pairs, the take, and copies of its cards.
function tableSnapshot(state) {
  const pos = shownGame(state).position;
  const ghosts = [...$("table").querySelectorAll(".card[data-card]")];
  return { table: pos.table, taking: pos.taking, defender: pos.defender, ghosts };
}

// Draw one step of a playback (`draw()`), animating the table change it makes.
export function step(state, mover, draw) {
  const before = tableSnapshot(state);
  const rects = before.ghosts.map((el) => el.getBoundingClientRect());
  // Keep where the leaving cards were: they are redrawn as ghosts from these places.
  before.ghosts = before.ghosts.map((el, index) => {
    const copy = el.cloneNode(true);
    copy.getBoundingClientRect = () => rects[index];
    return copy;
  });
  draw();
  animateTable(state, before, mover);
}
