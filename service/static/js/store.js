/* Store: the play mode's one state, and who is told when it changes.
 *
 * Actions change `state` and then call `changed(event)`; app.js subscribes the views, which draw
 * the state anew. Most changes need only that redraw (`changed()`); an event says what else the
 * moment asks for, that no state keeps:
 *   {focus: true}       redraw, then put the keyboard focus somewhere useful ("chooser": on its
 *                       first row; "card", with `card`: on that card of the hand; else on that id)
 *   {step: seat}        redraw one move of a playback, the cards flying from `seat`
 *   {say: text}         read a line out to screen readers
 *   {error}             show an error;  {message: text, kind}: a line (null: clear it)
 *   {screen: "game"}    show the game's screen;  {backToGame: true}: offer to try the saved game again
 *   {progress: true}    the review's progress only;  {tracker: true}: the card tracker only
 *   {retrying: true}    the note that a request is being sent again
 *   {reveal: "board"}   the board scrolled into view (a review just opened)
 * Nothing here touches the page: node imports it as it is.
 */

export const state = {
  lang: "vi",
  game: null, // the GET /v1/games/{id}?seat=0 answer
  id: null,
  token: null,
  setup: null, // the form's values of this game, for "replay"
  hint: null,
  hintFor: -1, // history length the hint was computed for
  choosing: null, // {card, moves, title} while the chooser is open
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
  picked: new Set(), // cards seat 0 just picked up from the table, marked in the hand
  whyNot: null, // {card, plies}: why the card tried cannot be played, shown beside the hand
};

const listeners = new Set();

/** Call `listener(state, event)` after each change; the returned function stops it. */
export function subscribe(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Tell every listener the state changed (`event`: what else the moment asks for, above). */
export function changed(event = {}) {
  for (const listener of [...listeners]) listener(state, event);
}
