/* Pure: a game being entered — where it starts and the events entered since, with undo
 * (no DOM).
 *
 * The table assistant starts from a deal (a record of docs/api.md §2.3 without its events); the
 * analysis board from a position (§2.2). Either way the entries are a record's events — each
 * seat's moves `{seat, move}` and the following seat's own draws `{draw: [cards]}` — and
 * POST /v1/next says, after each, what the seat sees and what may be entered next. Nothing here
 * judges an entry: the server does. Unit-tested by node (tests/web/entry.test.mjs).
 *
 * Side-rule events (a redeal's shown hand, a swap, a tribute, a win by trumps) are more event
 * kinds: an event is whatever the record format holds, and `eventText` is the one place that
 * words them.
 */

import { cardText, moveText, seatName } from "./cards.js";
import { t } from "./i18n.js";

// The deal as the following seat saw it: rules, seats, its seat, its hand, the trump card, who leads,
// and in a match the game's `match` block and the tribute owed (`match`: {match, tribute} or null).
export function dealtGame({ rules, players, seat, hand, trump, first_attacker: first, match = null }) {
  const start = { rules, players, seat, hand: [...hand], trump, first_attacker: first };
  if (match) {
    start.match = match.match;
    if (match.tribute) start.tribute = match.tribute;
  }
  return { kind: "record", start, events: [] };
}

// A position to play on from (the analysis board), and where it came from (a review step, an
// assistant game), for the page to say.
export function positionGame(position, from = null) {
  return { kind: "position", start: position, events: [], from };
}

// The POST /v1/next (and /v1/hint, /v1/evaluate) body of the game so far.
export function nextBody(game) {
  if (game.kind === "record") return { record: recordOf(game) };
  return { position: game.start, events: [...game.events] };
}

// The record of a game entered from its deal (docs/api.md §2.3).
export const recordOf = (game) => ({ ...game.start, events: [...game.events] });

export const withEvent = (game, event) => ({ ...game, events: [...game.events, event] });
export const moveEvent = (seat, move) => ({ seat, move });
export const drawEvent = (cards) => ({ draw: [...cards] });
// The side rules' events (docs/rules.md §1.7): a redeal with the hand shown (and, the following
// seat's own, the two hands offered), the match's tribute (its card where the seat sees it, and
// the hand the receiver inspects), a win by a hand of trumps.
export function redealEvent(seat, shown, sets = null) {
  const event = { seat, move: { action: "redeal" }, shown: [...shown] };
  if (sets) event.sets = [[...sets[0]], [...sets[1]]];
  return event;
}
export function tributeEvent(card, inspected = null) {
  const event = { tribute: card || null };
  if (inspected) event.inspected = [...inspected];
  return event;
}
export const allTrumpsEvent = (seat, shown) => ({ all_trumps: seat, shown: [...shown] });

// The game without its last entry (a mistake undone); the same game when nothing was entered.
export const undone = (game) => (game.events.length ? { ...game, events: game.events.slice(0, -1) } : game);

// The one seat that may move next when nothing else may come (POST /v1/next's `movers`), or null
// while several entries may (then each is offered under its seat's name).
export const soleMover = (answer) =>
  (answer.movers.length === 1 && !answer.tributes.length && !answer.all_trumps.length ? answer.movers[0] : null);

// The moves offered (POST /v1/next's `moves`) split for entry: the cards they play, in the order
// given, the moves of one card, and the moves that play none (take, pass; setup decisions).
export const cardsOfMoves = (moves) => [...new Set(moves.filter((m) => m.card).map((m) => m.card))];
export const movesOfCard = (moves, card) => moves.filter((m) => m.card === card);
export const plainMoves = (moves) => moves.filter((m) => !m.card);

// A seat's name at a real table: seats count from 1 for people, and the following seat is "you".
export const seatLabel = (seat, mine) => (seat === mine ? t("tableYou", { n: seat + 1 }) : t("tableSeat", { n: seat + 1 }));

// A seat's name in a game followed: a position from a review step of a game against the engines
// (always seat 0's) names its seats as that game did ("You", "Seat 1" for the first engine), so the
// board and the game it came from speak of the same seats; any other game names them as a table.
export const namerOf = (game) => (game && game.from && game.from.kind === "review" && game.from.names !== "table"
  ? (seat) => seatName(seat)
  : seatLabel);

// A finished game's result in a sentence, from POST /v1/next's `scores` (docs/rules.md §1.5: the
// loser 0 and every other seat 1; in a draw 0.5; a hand of trumps 1 and every other seat 0): who
// lost (and so, you won), who won, or a draw. `nameOf(seat, mine)` names a seat.
export function resultWords(scores, mine, nameOf = seatLabel) {
  const losers = scores.flatMap((score, seat) => (score === 0 ? [seat] : []));
  const winners = scores.flatMap((score, seat) => (score === 1 ? [seat] : []));
  if (!losers.length) return t("followResultDraw");
  if (losers.length === 1) {
    return losers[0] === mine ? t("followResultYouLost") : t("followResultLost", { name: nameOf(losers[0], mine) });
  }
  if (winners.length === 1) {
    return winners[0] === mine ? t("followResultYouWon") : t("followResultWon", { name: nameOf(winners[0], mine) });
  }
  return t("followOver");
}

// One entry in words: who did what (a redeal with the hand it showed), what the following seat
// drew, a tribute, a win by trumps.
export function eventText(event, mine, seatLabel = namerOf(null)) {
  const cards = (list) => list.map(cardText).join(" ");
  if (event.draw) return t("drewCards", { cards: cards(event.draw) });
  if ("tribute" in event) {
    const given = event.tribute ? t("tributeCard", { card: cardText(event.tribute) }) : t("tributeUnseen");
    return event.inspected ? `${given} · ${t("inspectedCards", { cards: cards(event.inspected) })}` : given;
  }
  if ("all_trumps" in event) return `${t("allTrumpsWin", { name: seatLabel(event.all_trumps, mine) })}: ${cards(event.shown)}`;
  const text = `${seatLabel(event.seat, mine)}: ${moveText(event.move)}`;
  return event.shown ? `${text} (${cards(event.shown)})` : text;
}

// A new game's secret id on the server (PUT /v1/followed/{id}): 24 random URL-safe characters.
export function newFollowedId(random = (bytes) => crypto.getRandomValues(bytes)) {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  return [...random(new Uint8Array(24))].map((byte) => alphabet[byte % 64]).join("");
}

// A game as GET /v1/followed/{id} answers it, back in this module's form (under that id).
export function gameOfFollowed(answer) {
  if (answer.record) {
    const { events, ...start } = answer.record;
    return { kind: "record", start, events: [...events], id: answer.id };
  }
  return { kind: "position", start: answer.position, events: [...(answer.events || [])], from: null, id: answer.id };
}

// A game opened from a record (its JSON, as POST /v1/records/convert answers it), to go on entering
// under a new id: its result goes, since entries (or an undo) may follow.
export function importedGame(record, id) {
  const { events, result: _result, ...start } = record;
  return { kind: "record", start, events: [...events], id };
}

// A game read back from storage, or null when it is not one this page wrote (an older page's, or
// damaged): the server judges the rest when it is sent.
export function readGame(text) {
  let game = null;
  try { game = JSON.parse(text); } catch { return null; }
  if (!game || typeof game !== "object" || !Array.isArray(game.events) || !game.start || typeof game.start !== "object") return null;
  if (game.kind !== "record" && game.kind !== "position") return null;
  return game;
}
