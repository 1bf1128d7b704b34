/* Pure: a review's decisions as a player steps through them — which to show next (forced moves
 * skipped), the next mistake, the win-chance graph's points, a row's cost or its uncertain range —
 * and a hint's "now" (the best row's value). Everything is read from the API's answer
 * (docs/api.md §3, "Reviews"); nothing is re-derived. */

// The labels that count a real loss of winning chances (docs/api.md "Reviews": measured costs past
// `good`, whose interval lies below the best's); `uncertain` is not one of them.
export const MISTAKES = ["inaccuracy", "mistake", "blunder"];

// The decision to show after `at` going `dir` (+1 or -1): the next one that was a choice (not
// forced); `at` itself when there is none that way.
export function stepFrom(moves, at, dir) {
  for (let i = at + dir; i >= 0 && i < moves.length; i += dir) {
    if (moves[i].label !== "forced") return i;
  }
  return at;
}

// The first decision to show: the first that was a choice (0 when all were forced).
export const firstDecision = (moves) => {
  const i = moves.findIndex((move) => move.label !== "forced");
  return i < 0 ? 0 : i;
};

// The next decision after `at` that lost winning chances (going round to the first); null: none.
export function nextMistake(moves, at) {
  for (let k = 1; k <= moves.length; k += 1) {
    const i = (at + k) % moves.length;
    if (MISTAKES.includes(moves[i].label)) return i;
  }
  return null;
}

// The graph of the win chance over the game: one point a searched decision, at its index along x
// and the chance after the move played (`played_score`) up y, in a `width`×`height` box (y down);
// forced and unscored decisions have no point. Each point keeps its decision's index and label.
export function graphPoints(moves, width, height, pad = 4) {
  const span = Math.max(1, moves.length - 1);
  const points = [];
  moves.forEach((move, index) => {
    if (move.played_score === null || move.played_score === undefined) return;
    const x = pad + (index / span) * (width - 2 * pad);
    const y = pad + (1 - move.played_score) * (height - 2 * pad);
    points.push({ index, x: Math.round(x * 10) / 10, y: Math.round(y * 10) / 10, label: move.label, score: move.played_score });
  });
  return points;
}

// What a reviewed row costs, as its cost cell says it: "–" when nothing was measured (forced,
// unscored); for an `uncertain` row the range its interval allows ("0–53"); else the difference of
// the two chances as the page shows them (whole percentages: `pct`), so the cost is exactly the
// difference the player reads (the API's `loss` is that difference unrounded).
export function costText(move) {
  if (move.label === "forced" || move.label === "unscored") return "–";
  const whole = (x) => Math.round(Number(x) * 100);
  if (move.label === "uncertain" && move.played_ci95 && move.best_score !== null) {
    const low = Math.max(0, whole(move.best_score) - whole(move.played_ci95[1]));
    const high = Math.max(0, whole(move.best_score) - whole(move.played_ci95[0]));
    return `${low}–${high}`;
  }
  if (move.played_score === null || move.best_score === null) return "–";
  return String(Math.max(0, whole(move.best_score) - whole(move.played_score)));
}

// A hint's "now": the value of its best row (the position's chance with the best move, the same
// number as that row), else the evaluation when no row is given.
export function nowValue(hint, rows) {
  const best = rows && rows.length ? rows[0] : null;
  return best ? { score: best.score, ci95: best.ci95, exact: best.exact } : hint.evaluation;
}
