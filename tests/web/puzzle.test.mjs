// The puzzles mode's pure logic (service/static/js/puzzle.js): the moves offered in an order that
// tells nothing, the verdict on a pick, the words of why the answer is clear, and the order of the
// puzzles (the unsolved first) kept across visits.
import assert from "node:assert/strict";
import test from "node:test";
import { answerReason, judged, nextIndex, offeredMoves, puzzleOrder, readSolved } from "../../service/static/js/puzzle.js";

const row = (move, notation, score) => ({ move, notation, score, ci95: [score - 0.05, score + 0.05], exact: false });
const PUZZLE = {
  id: "a",
  answer: { move: { action: "defend", card: "As", target: "9s" }, proven: false, outcome: null, score: 0.8, ci95: [0.74, 0.86], margin: 0.3 },
  moves: [
    row({ action: "defend", card: "As", target: "9s" }, "defend 9s with As", 0.8),
    row({ action: "take" }, "take", 0.5),
    row({ action: "defend", card: "Ts", target: "9s" }, "defend 9s with Ts", 0.45),
    row({ action: "transfer", card: "9h" }, "transfer 9h", 0.2),
  ],
};

test("the moves offered do not give the answer away: a fixed order by action, then card", () => {
  const offered = offeredMoves(PUZZLE).map((entry) => entry.notation);
  assert.deepEqual(offered, ["defend 9s with Ts", "defend 9s with As", "transfer 9h", "take"]);
  const shuffled = { ...PUZZLE, moves: [...PUZZLE.moves].reverse() };
  assert.deepEqual(offeredMoves(shuffled).map((entry) => entry.notation), offered);
});

test("a pick is right only when it is the answer, and the verdict carries both rows", () => {
  const right = judged(PUZZLE, { action: "defend", card: "As", target: "9s" });
  assert.equal(right.right, true);
  assert.equal(right.picked, PUZZLE.moves[0]);
  const wrong = judged(PUZZLE, { action: "take" });
  assert.equal(wrong.right, false);
  assert.equal(wrong.picked.notation, "take");
  assert.equal(wrong.best.notation, "defend 9s with As");
});

test("why the answer is clear: proven outcome, or the interval and margin in points", () => {
  assert.deepEqual(answerReason({ proven: true, outcome: "win" }), { key: "puzzleProven_win", vars: {} });
  assert.deepEqual(answerReason(PUZZLE.answer), { key: "puzzleMargin", vars: { lo: 74, hi: 86, margin: 30 } });
});

test("the unsolved puzzles come first, and the next wraps round", () => {
  const puzzles = [{ id: "a" }, { id: "b" }, { id: "c" }];
  assert.deepEqual(puzzleOrder(puzzles, ["a"]).map((p) => p.id), ["b", "c", "a"]);
  assert.deepEqual(puzzleOrder(puzzles, null).map((p) => p.id), ["a", "b", "c"]);
  assert.equal(nextIndex(0, 3), 1);
  assert.equal(nextIndex(2, 3), 0);
  assert.equal(nextIndex(0, 0), 0);
  assert.deepEqual(readSolved('["a", 3, "b"]'), ["a", "b"]);
  assert.deepEqual(readSolved("not json"), []);
  assert.deepEqual(readSolved(null), []);
  assert.deepEqual(readSolved('{"a": 1}'), []);
});
