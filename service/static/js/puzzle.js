/* Pure: puzzles (docs/api.md §3 "Puzzles") — which moves to offer, whether a pick is the answer,
 * what the answer proves, and which puzzle comes next (no DOM: unit-tested by node, tests/web). */

import { sameMove } from "./cards.js";
import { RANKS } from "./constants.js";

// The moves a puzzle offers (its rows), in a fixed order that tells nothing (the API ranks them
// best first): attacks, defences, transfers, then the rest, each by suit and rank.
const ACTION_ORDER = ["attack", "defend", "transfer", "take", "pass", "redeal", "keep", "pick", "swap"];
const cardKey = (card) => (card ? card[1] + String(RANKS.indexOf(card[0])).padStart(2, "0") : "");
const moveKey = (move) => [
  String(ACTION_ORDER.indexOf(move.action)).padStart(2, "0"), cardKey(move.target), cardKey(move.card), String(move.set ?? ""),
].join(":");

export function offeredMoves(puzzle) {
  const key = (entry) => moveKey(entry.move);
  return [...puzzle.moves].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

// The verdict on a pick: `right` when it is the answer; the pick's and the answer's rows (their
// scores and intervals, to show why).
export function judged(puzzle, move) {
  const row = puzzle.moves.find((entry) => sameMove(entry.move, move)) || null;
  const best = puzzle.moves.find((entry) => sameMove(entry.move, puzzle.answer.move)) || null;
  return { right: sameMove(move, puzzle.answer.move), picked: row, best };
}

// What makes the answer clear: the key of its words ("puzzleProven_win", "puzzleMargin") and their values.
export function answerReason(answer) {
  if (answer.proven) return { key: "puzzleProven_" + answer.outcome, vars: {} };
  return {
    key: "puzzleMargin",
    vars: { lo: Math.round(answer.ci95[0] * 100), hi: Math.round(answer.ci95[1] * 100), margin: Math.round(answer.margin * 100) },
  };
}

// The puzzles in the order they are offered: those not solved yet first (in the set's order), then
// the solved ones, so a returning player starts on a new one.
export function puzzleOrder(puzzles, solved) {
  const done = new Set(solved || []);
  return [...puzzles.filter((p) => !done.has(p.id)), ...puzzles.filter((p) => done.has(p.id))];
}

// The index after `at` among `count` puzzles, round again after the last.
export const nextIndex = (at, count) => (count ? (at + 1) % count : 0);

// The solved ids kept across visits, read from storage's text (anything unreadable: none).
export function readSolved(text) {
  try {
    const ids = JSON.parse(text || "[]");
    return Array.isArray(ids) ? ids.filter((id) => typeof id === "string") : [];
  } catch {
    return [];
  }
}
