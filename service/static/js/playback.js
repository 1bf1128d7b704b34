/* Action: following the engines' moves — an answer's new entries shown one at a time, at the pace
 * the player chose, and read out to screen readers.
 *
 * Your own move lands on the table at once, while the server answers; then each engine move of
 * the answer is a step of the store (`changed({step: seat})`: motion.js flies its cards from the
 * seat that played them), one after another, from the history's `after` states (docs/api.md §3).
 */

import { endedPosition, moveText, seatName } from "./cards.js";
import { shownGame } from "./selectors.js";
import { storage } from "./storage.js";
import { changed, state } from "./store.js";

export const PACES = { off: 0, normal: 700, slow: 1500 }; // ms between two engine moves

export const PACE_KEY = "tan.pace";
export const SETUP_ACTIONS = ["redeal", "keep", "pick", "swap"];

let wake = null; // ends the pause between two moves of a playback
export const sleep = (ms) => new Promise((done) => { wake = done; setTimeout(done, ms); });

export const entrySpoken = (entry) => `${seatName(entry.seat)}: ${moveText(entry.move)}`;

// Cards that came into seat 0's hand from the table during a reply: marked for a moment.
export function pickedUp(hand, baseHand, entries, pendingTable) {
  const tables = [pendingTable, ...entries.map((entry) => entry.after.table)];
  const seen = new Set(tables.flatMap((table) => table.flatMap((pair) => [pair.attack, pair.defense])).filter(Boolean));
  return hand.filter((card) => !baseHand.includes(card) && seen.has(card));
}

// The game number of a history entry (a match's; a single game's entries have none).
const gameOf = (entry) => entry.game ?? null;

// Play the new entries of an answer back one at a time (or at once, with the pace off). In a match
// the playback stops at the end of the game being played: the between-games screen shows its
// result, and its "Next game" plays the next game's first moves (resumeMatch). The game has ended
// when the answer's moves go on into another game, and also when none has come yet but the
// answer's match is at another game (your own move ended it, and the next deal opens with your own
// setup decision): that result comes first too.
export async function playBack(base, history, answer) {
  const all = answer.history.slice(history.length);
  const number = history.length ? gameOf(history[history.length - 1]) : all.length ? gameOf(all[0]) : null;
  const cut = number === null ? -1 : all.findIndex((entry) => gameOf(entry) !== number);
  const entries = cut < 0 ? all : all.slice(0, cut);
  const moved = answer.match && answer.status !== "over" && answer.match.game !== number;
  if (number !== null && (cut >= 0 || moved)) {
    const played = entries.filter((entry) => entry.seat === 0 && entry.move.card).map((entry) => entry.move.card);
    const ended = [...history, ...entries];
    state.between = { game: number, history: ended, position: endedPosition(base, ended, base.hand.filter((card) => !played.includes(card))) };
  }
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
  const pendingTable = state.pending ? shownGame(state).position.table : [];
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
      changed({ step: entries[at].seat });
      if (entries[at].seat !== 0) changed({ say: entrySpoken(entries[at]) });
    }
    if (state.skip || state.pace === "off") {
      const rest = entries.slice(state.playback.at + 1).filter((entry) => entry.seat !== 0);
      if (rest.length) changed({ say: rest.map(entrySpoken).join("; ") });
    }
    if (!state.skip && state.pace !== "off") await sleep(Math.min(300, PACES[state.pace]));
    state.playback = null;
  } else {
    state.pending = null;
    const theirs = entries.filter((entry) => entry.seat !== 0);
    if (theirs.length) changed({ say: theirs.map(entrySpoken).join("; ") });
  }
  state.picked = new Set(pickedUp(state.game.position.hand, base.hand, entries, pendingTable));
}

// The pace of the engines' moves, kept for the next visit; "off" ends a pause at once.
export function choosePace(pace) {
  state.pace = PACES[pace] === undefined ? "normal" : pace;
  storage.set("localStorage", PACE_KEY, state.pace);
  if (state.pace === "off" && wake) wake();
}

// Esc or a click on the table shows the rest of a reply at once.
export function skipPlayback() {
  if (!state.playback) return false;
  state.skip = true;
  if (wake) wake();
  return true;
}
