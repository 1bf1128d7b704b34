// The review's stepping and numbers (service/static/js/review-steps.js): forced moves skipped,
// the next mistake, the graph's points, a row's cost as the difference shown, a hint's "now".
import assert from "node:assert/strict";
import test from "node:test";
import { costPoints } from "../../service/static/js/cards.js";
import * as steps from "../../service/static/js/review-steps.js";

const row = (label, played, best, extra = {}) => ({
  label, played_score: played, best_score: best, loss: played === null ? 0 : Math.max(0, best - played), ply: 0, ...extra,
});

const game = [
  row("forced", null, null), row("good", 0.5, 0.52), row("forced", null, null),
  row("mistake", 0.3, 0.45), row("uncertain", 0.01, 0.54, { played_ci95: [0, 0.83] }), row("blunder", 0.1, 0.6),
];

test("Previous and Next step through decisions, skipping forced moves", () => {
  assert.equal(steps.firstDecision(game), 1);
  assert.equal(steps.stepFrom(game, 1, 1), 3);
  assert.equal(steps.stepFrom(game, 3, -1), 1);
  assert.equal(steps.stepFrom(game, 1, -1), 1, "no choice before the first: it stays");
  assert.equal(steps.stepFrom(game, 5, 1), 5);
  assert.equal(steps.firstDecision([row("forced", null, null)]), 0);
});

test("the next mistake skips good, forced and uncertain rows, and goes round", () => {
  assert.equal(steps.nextMistake(game, 1), 3);
  assert.equal(steps.nextMistake(game, 3), 5, "the uncertain row is no mistake");
  assert.equal(steps.nextMistake(game, 5), 3, "round to the first");
  assert.equal(steps.nextMistake([row("good", 0.5, 0.5), row("forced", null, null)], 0), null);
});

test("the graph has a point a searched decision, placed by its chance after the move", () => {
  const points = steps.graphPoints(game, 100, 50, 0);
  assert.deepEqual(points.map((p) => p.index), [1, 3, 4, 5]);
  assert.equal(points[0].x, 20); // decision 1 of 0..5
  assert.equal(points[0].y, 25); // 50% halfway down
  assert.equal(points[3].x, 100);
  assert.equal(points[3].y, 45); // 10%: near the bottom
  assert.equal(points[1].label, "mistake");
});

test("a row's cost is the difference of the two chances as shown; an uncertain one a range", () => {
  assert.equal(steps.costText(row("mistake", 0.0, 0.14, { loss: 0.228 })), "14", "the shown 0% against 14%, not the raw 22.8");
  assert.equal(steps.costText(row("inaccuracy", 0.514, 0.596)), "9"); // 51% against 60%
  assert.equal(steps.costText(row("forced", null, null)), "–");
  assert.equal(steps.costText(row("unscored", null, 0.5)), "–");
  assert.equal(steps.costText(game[4]), "0–54");
});

test("a hint's now is its best row's value, never below it", () => {
  const hint = { evaluation: { score: 0.53, ci95: [0.5, 0.56], exact: false } };
  const rows = [{ score: 0.6, ci95: [0.58, 0.62], exact: false }, { score: 0.4, ci95: [0.3, 0.5], exact: false }];
  assert.equal(steps.nowValue(hint, rows).score, 0.6);
  assert.equal(steps.nowValue(hint, []).score, 0.53);
  assert.equal(steps.nowValue(hint, [{ score: 0.5, ci95: [0.5, 0.5], exact: true }]).exact, true);
});

test("a hint's row barely tried is not costed: it reads ?, its range in the tooltip", () => {
  assert.equal(costPoints({ loss: 0.53, label: "uncertain" }), "?");
  assert.equal(costPoints({ loss: 0.53, label: "blunder" }), "−53.0");
  assert.equal(costPoints({ loss: 0.01, label: "good" }), "");
});
