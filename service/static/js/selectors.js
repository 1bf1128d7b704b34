/* Pure: selectors — what the play mode's state shows — the game drawn, the hint, the review, the
 * tracker's key. Pure reads of a state (store.js), for the actions and the views alike. */

import { framePosition, rankedMoves, tableAfter } from "./cards.js";
import { LEVELS } from "./constants.js";

// The game as the page shows it: the answer's last state, or the move being sent, or a frame of
// the reply being played back.
export function shownGame(state) {
  const game = state.game;
  const play = state.playback;
  if (play && state.between && play.at === play.entries.length - 1) {
    // The last move of a match's game: the game as it ended (its last entry's `after` is the next deal).
    return { ...game, status: "playing", legal_moves: [], history: state.between.history, position: state.between.position };
  }
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
    // Between two games of a match: the game that ended, as it ended (its last bout drawn on the
    // table by the view); the next deal waits for "Next game".
    return { ...game, status: "between", legal_moves: [], history: state.between.history, position: state.between.position };
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

// The hint for the view shown, or null when there is none (or it was asked for another turn).
export const hintShown = (state) =>
  (state.hint && state.game && state.hintFor === state.game.history.length ? state.hint : null);

// The hint's rows, best first (cards.js rankedMoves).
export function hintRows(state) {
  const hint = hintShown(state);
  return hint ? rankedMoves(hint.moves) : [];
}

const sameReview = (state, game) => !!(state.review && state.review.id === state.id && state.review.game === game);
export const reviewOpen = (state) => !!(state.review && state.review.open && sameReview(state, state.review.game));
// The decision the open review shows (and the table as it was then), or null.
export const reviewed = (state) => (reviewOpen(state) ? state.review.data.moves[state.review.at] || null : null);
// Whether the review of `game` (reviewGame's number) is the one kept.
export const reviewKept = (state, game) => sameReview(state, game);

// The game of a match a review is of: `game` when given, else the last one that ended (the last
// game once the match is over); null for a single game, or while no game of the match has ended.
// A game nothing was played in (its dealer lost at once, docs/rules.md §1.9) has no review: the
// match block's `previous.played` says so.
export function reviewGame(state, game) {
  const match = state.game && state.game.match;
  if (!match) return null;
  if (Number.isInteger(game)) return game;
  if (state.game.status === "over") return match.game;
  const last = match.previous;
  if (!last || !last.played) return null;
  return last.game;
}

// The games of a match that is over that can be reviewed, for the chooser beside the review button:
// each game the history shows a move of (a game its dealer lost at once has none).
export function reviewableGames(game) {
  if (!game || !game.match || game.status !== "over") return [];
  return [...new Set(game.history.map((entry) => entry.game))].sort((a, b) => a - b);
}

export const canReview = (state) =>
  !!(state.game && (state.game.match ? reviewGame(state) !== null : state.game.status === "over"));

// The game view shown: a tracker answer fetched for another one is stale.
export const trackerKey = (state) => (state.game
  ? `${state.id}:${state.game.history.length}:${state.game.status}:${state.game.position.to_move}`
  : null);

// Whether an engine searches (takes a time per move): as GET /v1/rules says, or, before it has
// answered, as the difficulties use it.
export function searches(state, name) {
  if (state.engines[name]) return state.engines[name].searches;
  return Object.values(LEVELS).some((level) => level.engine === name && level.timeMs);
}
