/* The page's constants, its one state object, and storage that may be missing (private windows, file://). */

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
export const $ = (id) => document.getElementById(id);

export const state = {
  lang: "vi",
  game: null, // the GET /v1/games/{id}?seat=0 answer
  id: null,
  token: null,
  setup: null, // the form's values of this game, for "replay"
  hint: null,
  hintFor: -1, // history length the hint was computed for
  choosing: null, // {card, moves} while the chooser is open
  tracker: null, // {key, id, plies, data: the GET /v1/games/{id}/tracker?seat=0 answer}
  trackerAsked: null, // the key of the tracker request in flight
  trackerError: null,
  busy: false, // false, or what is being waited for: "move" (engines reply too), "hint" or "review"
  review: null, // {id, game: in a match its number, data: the review its job answered, at: the decision shown, open}
  reviewProgress: null, // {done, total} of the review's job while it runs
  playersRange: {}, // [fewest, most] seats of each preset, from GET /v1/rules
  presets: {}, // every option of each preset, from GET /v1/rules
  engines: {}, // each engine a seat may be, by name, from GET /v1/rules (engine_details)
  reviewBounds: null, // [{label, below}] of the review's labels, mildest first, from GET /v1/rules
  limits: null, // the most the server accepts (seats, match_games, time_ms), from GET /v1/rules
  saved: null, // the form's last choices, put back once GET /v1/rules has built the form
  pace: "normal", // how engine moves are shown: "off" (at once), "normal" or "slow"
  pending: null, // {move, base}: seat 0's move on its way, shown on the table at once
  playback: null, // {base, history, entries, at}: an answer's new moves, shown one at a time
  between: null, // {game, history}: a match's game just ended, its result shown until "Next game"
  skip: false, // show the rest of the playback at once
  retrying: false, // a request refused by a busy server is being sent again
  wake: null, // ends the pause between two moves of a playback
  picked: new Set(), // cards seat 0 just picked up from the table, marked in the hand
  whyNot: null, // {card, plies}: why the card tried cannot be played, shown beside the hand
  dragged: false, // a card was just dragged: the click that ends the drag is not a click
};

export const store = {
  get(area, key) {
    try { return window[area].getItem(key); } catch { return null; }
  },
  set(area, key, value) {
    try {
      if (value === null) window[area].removeItem(key); else window[area].setItem(key, value);
    } catch { /* storage unavailable: keep in memory only */ }
  },
};
