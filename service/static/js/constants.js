/* Pure: the page's constants — the cards' ranks and suits, the difficulties, the searches' budget
 * and the names of what is kept in the browser's storage. */

export const RANKS = "23456789TJQKA";
export const SUIT_GLYPH = { s: "♠", h: "♥", d: "♦", c: "♣" };
export const SUIT_ORDER = "shcd"; // alternate black and red in the hand

// The engine and its thinking time behind each difficulty: Easy plays the greedy policy, Medium
// and Hard search (ISMCTS) for a short and a longer time a move (BENCHMARKS.md: strength grows
// with the time).
export const LEVELS = {
  easy: { engine: "greedy" },
  medium: { engine: "ismcts", timeMs: 100 },
  hard: { engine: "ismcts", timeMs: 600 },
};

// Each hint's and each reviewed decision's search (the server caps it): one budget and one seed
// (the API's default, 0) for both, so the review of a decision is the search its hint ran.
export const SEARCH_ITERATIONS = 5000;
export const GAME_KEY = "tan.game";
export const MOVED_KEY = "tan.moved"; // "id:plies" of the last move this browser saw, for the other tabs
export const LANG_KEY = "tan.lang";
export const SETUP_KEY = "tan.setup";
