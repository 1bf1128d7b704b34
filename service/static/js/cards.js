/* Pure: cards, moves and numbers in words (no DOM: unit-tested by node, tests/web). */

import { RANKS, SUIT_GLYPH, SUIT_ORDER } from "./constants.js";
import { t } from "./i18n.js";

export const rankOf = (card) => card[0];
export const suitOf = (card) => card[1];
export const rankText = (card) => (rankOf(card) === "T" ? "10" : rankOf(card));
export const isRed = (card) => suitOf(card) === "h" || suitOf(card) === "d";
export const cardText = (card) => rankText(card) + SUIT_GLYPH[suitOf(card)];
export const cardName = (card) => `${rankText(card)} ${t("suit_" + suitOf(card))}`;

// A move in words of the page's language, with cards as glyphs.
export function moveText(move) {
  switch (move.action) {
    case "attack": return t("attackWith", { card: cardText(move.card) });
    case "defend": return t("defendWith", { target: cardText(move.target), card: cardText(move.card) });
    case "transfer": return t("transferWith", { card: cardText(move.card) });
    case "take": return t("takeMove");
    case "pass": return t("passMove");
    case "redeal": return t("redealMove");
    case "keep": return t("keepMove");
    case "pick": return t("pickMove", { n: move.set + 1 }); // the API counts sets from 0, players from 1
    case "swap": return t("swapMove");
    default: return JSON.stringify(move);
  }
}

// Why a card of seat 0's hand cannot be played now, in a sentence of the page's language: over,
// not our turn (or waiting for an answer), else the reason the game view's `unplayable` gives for
// the card (docs/api.md §3) — the page re-derives no rule.
export function whyNot(game, card, waiting) {
  if (!game || game.status !== "playing") return t("why_game_over");
  if (waiting || game.position.to_move !== 0) return t("why_not_your_turn");
  const refused = (game.unplayable || {})[card];
  const words = refused ? t("why_" + refused.reason, { card: cardText(card) }, "") : "";
  return words || t("noLegal");
}

export const sameMove = (a, b) =>
  a.action === b.action && (a.card || null) === (b.card || null) && (a.target || null) === (b.target || null)
  && (a.set ?? null) === (b.set ?? null);

export const seatName = (seat) => (seat === 0 ? t("you") : t("seatName", { n: seat }));

// Plies of each move's line a hint asks for (at most the server's `limits.pv`).
export const LINE_PLIES = 6;

// The line the search expects after a move (a hint's `line`, docs/api.md §3 "Lines"): who plays
// what, each seat named by `nameOf`, then the chance where it ends; "" for no line beyond the move.
export function lineText(line, nameOf = seatName) {
  if (!line || line.moves.length < 2) return "";
  const plies = line.moves.map((ply) => `${nameOf(ply.seat)}: ${moveText(ply.move)}`).join(" → ");
  return line.score === null ? plies : `${plies} (${pct(line.score)})`;
}
export const shortSeatName = seatName;

// Who leads the first bout and why, as the view's `lead` says (docs/api.md §3): the page works out
// no rule of who leads.
export const leadText = (lead) => t("lead_" + lead.reason, { name: seatName(lead.seat) });

export function sortHand(hand, trumpSuit) {
  const key = (card) => {
    const trump = suitOf(card) === trumpSuit ? 1 : 0;
    return trump * 1000 + SUIT_ORDER.indexOf(suitOf(card)) * 100 + RANKS.indexOf(rankOf(card));
  };
  return [...hand].sort((a, b) => key(a) - key(b));
}

// The table after a move of seat 0, drawn before the server answers (the move alone, nothing the
// rules do after it: the answer's `after` states take over).
export function tableAfter(table, move) {
  if (move.action === "attack" || move.action === "transfer") return [...table, { attack: move.card, defense: null }];
  if (move.action === "defend") return table.map((pair) => (pair.attack === move.target ? { ...pair, defense: move.card } : pair));
  return table;
}

// The last bout as it lay when a game ended: the table before the last move, with that move's card
// on it (from the history's `after` states, docs/api.md §3). The end of a game clears the table, so
// the engines' last cards would otherwise never be seen.
export function lastBout(history) {
  if (!history.length) return [];
  const before = history.length > 1 ? history[history.length - 2].after.table : [];
  return tableAfter(before, history[history.length - 1].move);
}

// A match's game that just ended as it lay at its end (the between-games screen shows it, not the
// next deal): the hands, stock and discard before its last move, that move's card gone from its
// hand, the table left for the last bout (lastBout) and nobody to move. The last entry's own `after`
// is the next game's deal (docs/api.md §3), so the entry before it says how the game stood.
export function endedPosition(base, history, hand) {
  const last = history[history.length - 1];
  const before = history.length > 1 ? history[history.length - 2].after
    : { ...base, discard: base.discard.length };
  const counts = [...before.hand_counts];
  if (last && last.move.card) counts[last.seat] = Math.max(0, counts[last.seat] - 1);
  return framePosition(base, base, { ...before, hand_counts: counts, table: [], to_move: null }, hand);
}

// The position as everyone saw it after a history entry, with seat 0's hand as given.
export function framePosition(base, final, after, hand) {
  return {
    ...final,
    hand,
    hand_counts: after.hand_counts,
    table: after.table,
    stock: after.stock,
    discard: final.discard.slice(0, after.discard),
    attacker: after.attacker,
    defender: after.defender,
    to_move: after.to_move,
    taking: after.taking,
    finished: base.finished,
    known: base.known,
    passed: [],
    phase: final.phase === "setup" ? "setup" : "play",
  };
}

// What a hint's, an evaluation's or a review's scores are the chance of, as the API names it
// (`chance`: `win` with two seats, `not_loser` with more, docs/api.md §3): the page counts no seats.
export const chanceWord = (chance) => t("chance_" + chance);

export const points = (x) => (Number(x) * 100).toFixed(1);
export const pct = (x) => `${Math.round(x * 100)}%`;
export const clamp01 = (x) => Math.min(1, Math.max(0, Number(x) || 0));

// The digit that plays a numbered row: 1–9, then 0 for the tenth.
export const digitFor = (index) => (index < 9 ? String(index + 1) : index === 9 ? "0" : "");

// A proven value in words: certain win, draw or loss (a draw scores one half, docs/rules.md §1.5).
export const outcome = (score) => (score >= 0.999 ? "win" : score <= 0.001 ? "loss" : "draw");
export const certainty = (score) => t({ win: "certainWin", loss: "certainLoss", draw: "certainDraw" }[outcome(score)]);

// What a score says, in a hint as in a review: a percentage, or the proven outcome in words.
export const valueText = (entry) => (entry.exact ? certainty(entry.score) : pct(entry.score));

// A hint's rows, best first (docs/api.md §3): by what each costs against the best move in the
// search's own scores (`loss`: a calibrated chance may read 99% for several), then by chance,
// then by how much the search tried them; a move never tried comes last.
export function rankedMoves(moves) {
  const cost = (entry) => (entry.loss === null || entry.loss === undefined ? Infinity : entry.loss);
  return [...moves].sort((a, b) => (cost(a) - cost(b)) || (b.score - a.score) || ((b.visits || 0) - (a.visits || 0)));
}

// What a move costs against the best, as a row shows it: nothing for the best (or within the
// search's noise, a `good` move), "?" when the search tried it too few times to tell (`uncertain`:
// its interval reaches the best's), else minus its points.
export function costPoints(entry) {
  if (entry.loss === null || entry.loss === undefined || entry.label === "good" || entry.label === "forced") return "";
  return entry.label === "uncertain" ? "?" : `−${points(entry.loss)}`;
}
