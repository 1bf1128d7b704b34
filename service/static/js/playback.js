/* Following the engines' moves: each shown one at a time, from the history's `after` states. */

import { framePosition, moveText, seatName, tableAfter } from "./cards.js";
import { render } from "./render.js";
import { $, state, store } from "./state.js";

//
// Your own move lands on the table at once, while the server answers; then each engine move of
// the answer is shown one at a time, from the history's `after` states (docs/api.md §3), at the
// pace the player chose, and read out to screen readers. Cards fly from the seat that played
// them; a table picked up flies to the taker, a beaten one to the discard pile.

export const PACES = { off: 0, normal: 700, slow: 1500 }; // ms between two engine moves

export const PACE_KEY = "tan.pace";
export const SETUP_ACTIONS = ["redeal", "keep", "pick", "swap"];
export const motion = () => state.pace !== "off" && !window.matchMedia("(prefers-reduced-motion: reduce)").matches;
export const sleep = (ms) => new Promise((done) => { state.wake = done; setTimeout(done, ms); });

// The game as the page shows it: the answer's last state, or the move being sent, or a frame of
// the reply being played back.
export function shownGame() {
  const game = state.game;
  const play = state.playback;
  if (play) {
    const entries = play.entries.slice(0, play.at + 1);
    const played = entries.filter((entry) => entry.seat === 0 && entry.move.card).map((entry) => entry.move.card);
    let hand = play.base.hand.filter((card) => !played.includes(card));
    // Cards drawn or taken by seat 0 come in the frame whose hand count says so (not only once the
    // playback is over): the answer's hand, when its size is the frame's.
    const count = entries[entries.length - 1].after.hand_counts[0];
    if (!state.between && count !== hand.length && game.position.hand.length === count) hand = game.position.hand;
    // The last game of a match played to its end is drawn from its own position, not the next deal's.
    const final = state.between ? play.base : game.position;
    const position = framePosition(play.base, final, entries[entries.length - 1].after, hand);
    return { ...game, status: "playing", legal_moves: [], history: [...play.history, ...entries], position };
  }
  if (state.between) {
    // Between two games of a match: the next deal, face up in your hand, no one to move yet.
    const position = { ...game.position, table: [], to_move: null };
    return { ...game, status: "between", legal_moves: [], history: state.between.history, position };
  }
  if (state.pending) {
    const { move, base } = state.pending;
    const position = {
      ...base,
      hand: base.hand.filter((card) => card !== move.card),
      table: tableAfter(base.table, move),
      to_move: null,
    };
    return { ...game, legal_moves: [], position };
  }
  return game;
}

// Read a move out to screen readers (the live region #announce), one line per move.
export function announce(text) {
  const line = document.createElement("p");
  line.textContent = text;
  const box = $("announce");
  box.append(line);
  while (box.childElementCount > 6) box.firstElementChild.remove();
}

export const entrySpoken = (entry) => `${seatName(entry.seat)}: ${moveText(entry.move)}`;

// Where a seat sits on the page: its place at the table, or your hand.
export function seatBox(seat) {
  if (seat === 0) return $("hand");
  return document.querySelector(`#opponents .opponent[data-seat="${seat}"]`) || $("opponents");
}

// Cards new on the table fly in from the seat that played them.
export function flyIn(cards, seat) {
  if (!motion() || !cards.length) return;
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
export function flyOut(elements, target) {
  if (!motion() || !elements.length) return;
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
export function animateTable(before, mover) {
  const now = shownGame().position;
  const had = new Set(before.table.flatMap((pair) => [pair.attack, pair.defense]).filter(Boolean));
  const arrived = [...$("table").querySelectorAll(".card[data-card]")].filter((el) => !had.has(el.dataset.card));
  flyIn(arrived, mover);
  if (before.table.length && !now.table.length && before.ghosts) {
    const taker = before.taking ? before.defender : null;
    flyOut(before.ghosts, taker === null ? $("deck-info") : seatBox(taker));
  }
}

// A snapshot of the table shown, for animateTable: its pairs, the take, and copies of its cards.
export function tableSnapshot() {
  const pos = shownGame().position;
  const ghosts = [...$("table").querySelectorAll(".card[data-card]")];
  return { table: pos.table, taking: pos.taking, defender: pos.defender, ghosts };
}

// Render one step, animating the table change it makes.
export function step(mover) {
  const before = tableSnapshot();
  const rects = before.ghosts.map((el) => el.getBoundingClientRect());
  // Keep where the leaving cards were: they are redrawn as ghosts from these places.
  before.ghosts = before.ghosts.map((el, index) => {
    const copy = el.cloneNode(true);
    copy.getBoundingClientRect = () => rects[index];
    return copy;
  });
  render();
  animateTable(before, mover);
}

// Cards that came into seat 0's hand from the table during a reply: marked for a moment.
export function pickedUp(baseHand, entries, pendingTable) {
  const tables = [pendingTable, ...entries.map((entry) => entry.after.table)];
  const seen = new Set(tables.flatMap((table) => table.flatMap((pair) => [pair.attack, pair.defense])).filter(Boolean));
  return state.game.position.hand.filter((card) => !baseHand.includes(card) && seen.has(card));
}

// Play the new entries of an answer back one at a time (or at once, with the pace off).
// The game number of a history entry (a match's; a single game's entries have none).
const gameOf = (entry) => entry.game ?? null;

// Play the new entries of an answer back one at a time (or at once, with the pace off). In a match
// the playback stops at the end of the game being played: the between-games screen shows its
// result, and its "Next game" plays the next game's first moves (resumeMatch).
export async function playBack(base, history, answer) {
  const all = answer.history.slice(history.length);
  const number = history.length ? gameOf(history[history.length - 1]) : all.length ? gameOf(all[0]) : null;
  const cut = number === null ? -1 : all.findIndex((entry) => gameOf(entry) !== number);
  const entries = cut < 0 ? all : all.slice(0, cut);
  if (cut >= 0) state.between = { game: number, history: [...history, ...entries] };
  return playEntries(base, history, answer, entries);
}

// "Next game": the next game of the match from its deal, its engines' first moves one at a time.
export async function resumeMatch() {
  const between = state.between;
  state.between = null;
  if (!between || !state.game) return;
  const deal = { ...state.game.position, table: [], to_move: null, discard: [] };
  await playEntries(deal, between.history, state.game, state.game.history.slice(between.history.length));
}

async function playEntries(base, history, answer, entries) {
  const pendingTable = state.pending ? shownGame().position.table : [];
  state.game = answer;
  if (entries.length && state.pace !== "off") {
    state.playback = { base, history, entries, at: 0 };
    state.skip = false;
    const first = entries[0].seat === 0 && state.pending ? 0 : -1; // seat 0's own move is on the table already
    state.pending = null;
    for (let at = 0; at < entries.length; at++) {
      if (at > first && entries[at].seat !== 0 && !state.skip) await sleep(PACES[state.pace] || 0);
      if (state.skip || state.pace === "off") break;
      state.playback.at = at;
      step(entries[at].seat);
      if (entries[at].seat !== 0) announce(entrySpoken(entries[at]));
    }
    if (state.skip || state.pace === "off") {
      const rest = entries.slice(state.playback.at + 1).filter((entry) => entry.seat !== 0);
      if (rest.length) announce(rest.map(entrySpoken).join("; "));
    }
    if (!state.skip && state.pace !== "off") await sleep(Math.min(300, PACES[state.pace]));
    state.playback = null;
  } else {
    state.pending = null;
    const theirs = entries.filter((entry) => entry.seat !== 0);
    if (theirs.length) announce(theirs.map(entrySpoken).join("; "));
  }
  state.picked = new Set(pickedUp(base.hand, entries, pendingTable));
}

export function setPace(pace) {
  state.pace = PACES[pace] === undefined ? "normal" : pace;
  store.set("localStorage", PACE_KEY, state.pace);
  $("pace").value = state.pace;
  if (state.pace === "off" && state.wake) state.wake();
}

// Esc or a click on the table shows the rest of a reply at once.
export function skipPlayback() {
  if (!state.playback) return false;
  state.skip = true;
  if (state.wake) state.wake();
  return true;
}
