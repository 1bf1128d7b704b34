/* View: the card tracker's panel — what each other seat holds, as far as seat 0 can tell, from the
 * tracker's answer (tracker.js fetches it). */

import { cardName, clamp01, pct, seatName, sortHand, suitOf } from "./cards.js";
import { $ } from "./dom.js";
import { miniCard } from "./faces.js";
import { t } from "./i18n.js";
import { reviewOpen, trackerKey } from "./selectors.js";

export const TRACKER_KEY = "tan.tracker"; // "closed" when the tracker panel is folded
export const TRACKER_TOP = 4; // an opponent's likeliest unseen cards shown, whatever their chances

// One card's chance: the glyph and the percentage, with the card's name for screen readers.
export function chanceItem(card, chance) {
  const item = document.createElement("li");
  item.className = "chance";
  item.dataset.card = card;
  item.dataset.chance = String(chance);
  const name = document.createElement("span");
  name.className = "sr-label";
  name.textContent = t("trackerChance", { card: cardName(card), p: pct(chance) });
  const glyph = miniCard(card);
  glyph.setAttribute("aria-hidden", "true");
  const value = document.createElement("span");
  value.className = "pct";
  value.setAttribute("aria-hidden", "true");
  value.textContent = pct(chance);
  const meter = document.createElement("span");
  meter.className = "meter";
  meter.setAttribute("aria-hidden", "true");
  const fill = document.createElement("span");
  fill.className = "fill";
  fill.style.width = `${(clamp01(chance) * 100).toFixed(1)}%`;
  meter.append(fill);
  item.append(name, glyph, value, meter);
  return item;
}

// A seat's `count` likeliest cards of a tracker's `cards` (best first; ties in the answer's order),
// or, when the tracker weighed nothing (`beliefs` uniform: no move to learn from, or none that
// fits), the one chance every card it may hold has (`even`, their mean: the sampled worlds differ
// by their noise only).
export function likeliest(cards, seat, count, beliefs) {
  const chances = Object.entries(cards).map(([card, row]) => [card, Number(row[seat]) || 0]).filter(([, p]) => p > 0);
  if (!chances.length) return { top: [], even: null };
  if (!WEIGHED.includes(beliefs)) return { top: [], even: chances.reduce((sum, [, p]) => sum + p, 0) / chances.length };
  return { top: [...chances].sort((a, b) => b[1] - a[1]).slice(0, count), even: null };
}

export const WEIGHED = ["weighted", "tempered"]; // the tracker's `beliefs` that weighed the history

// What another seat holds, as far as seat 0 can tell: the cards known, then its likeliest unseen ones.
export function trackerSeat(data, pos, seat) {
  const box = document.createElement("section");
  box.className = "tracker-seat";
  box.dataset.seat = String(seat);
  const head = document.createElement("h3");
  head.id = `tracker-seat-${seat}`;
  const count = pos.hand_counts[seat];
  head.textContent = t("trackerSeat", { name: seatName(seat), n: count })
    + (pos.finished.includes(seat) ? ` · ${t("roleDone")}` : "");
  box.setAttribute("aria-labelledby", head.id);
  box.append(head);
  if (count === 0) return box;
  const trumpSuit = suitOf(pos.trump);
  const known = data.known[String(seat)] || [];
  const knownLine = document.createElement("p");
  knownLine.className = "tracker-known small";
  if (known.length) {
    const cards = document.createElement("span");
    cards.className = "mini-cards inline";
    cards.append(...sortHand(known, trumpSuit).map(miniCard));
    knownLine.append(document.createTextNode(t("known") + " "), cards);
  } else {
    knownLine.textContent = t("trackerKnownNone");
  }
  box.append(knownLine);
  if (known.length >= count) return box;
  // The few likeliest, however likely: a floor (say 30%) is rarely reached early in a game and
  // would say nothing; when every card is as likely as any other, that is said instead.
  const { top, even } = likeliest(data.cards, seat, TRACKER_TOP, data.beliefs);
  const label = document.createElement("p");
  label.className = "tracker-likely-label small";
  label.textContent = even === null ? t("trackerLikely") : t("trackerEven", { p: pct(even) });
  box.append(label);
  if (even === null && top.length) {
    const list = document.createElement("ul");
    list.className = "likely";
    list.append(...top.map(([card, chance]) => chanceItem(card, chance)));
    box.append(list);
  }
  return box;
}

// The cards seat 0 has not seen: the tracker's, but those it knows lie in the stock.
export function unseenCount(data, pos) {
  const inStock = new Set(pos.in_stock || []);
  return Object.keys(data.cards).filter((card) => !inStock.has(card)).length;
}

// The tracker panel folds to its heading (a disclosure button), and is remembered so.
export function foldTracker(folded) {
  $("tracker-toggle").setAttribute("aria-expanded", String(!folded));
  $("tracker-body").hidden = folded;
}

export function renderTracker(state) {
  const panel = $("tracker-panel");
  const game = state.game;
  // Not at a game's end (nothing is hidden any longer to track) nor between two games of a match.
  panel.hidden = !game || reviewOpen(state) || game.status !== "playing" || !!state.between;
  if (panel.hidden) return;
  const pos = game.position;
  const key = trackerKey(state);
  const fresh = !!(state.tracker && state.tracker.key === key);
  const failed = state.trackerError && state.trackerError.key === key ? state.trackerError.text : null;
  // Only the answer for the view shown: while the next one is on its way the panel says it is
  // updating rather than show counts that no longer match the table.
  const data = fresh ? state.tracker.data : null;
  panel.classList.toggle("stale", !fresh);
  if (data) panel.dataset.plies = String(state.tracker.plies); // the moves the tracker shown had seen
  panel.setAttribute("aria-busy", String(!fresh && !failed));
  let status;
  if (failed) status = t("trackerError", { what: failed });
  else if (!fresh) status = t("trackerLoading");
  else status = t("trackerStock", { n: pos.stock, m: unseenCount(data, pos) });
  $("tracker-status").textContent = status;
  // A redeal's shown hand went back into the stock: seen, and known to lie there.
  const inStock = pos.in_stock || [];
  $("tracker-in-stock").hidden = !data || !inStock.length;
  $("tracker-in-stock").replaceChildren(
    ...(data && inStock.length ? [document.createTextNode(t("trackerInStock") + " "), ...sortHand(inStock, suitOf(pos.trump)).map(miniCard)] : []),
  );
  // The discard pile is the view's own while the tracker's answer is on its way: never a count
  // that contradicts the board's ("Discarded (0)" beside "Discard: 4").
  const gone = data ? data.gone : pos.discard;
  $("tracker-gone-title").textContent = t("trackerGone", { n: gone.length });
  const goneBox = $("tracker-gone");
  if (gone.length) goneBox.replaceChildren(...sortHand(gone, suitOf(pos.trump)).map(miniCard));
  else {
    const none = document.createElement("span");
    none.className = "muted small";
    none.textContent = t("trackerGoneNone");
    goneBox.replaceChildren(none);
  }
  const seats = [];
  if (data) for (let seat = 0; seat < pos.players; seat++) if (seat !== data.seat) seats.push(trackerSeat(data, pos, seat));
  $("tracker-seats").replaceChildren(...seats);
  const notes = { weighted: "trackerWeighted", tempered: "trackerWeighted", collapsed: "trackerCollapsed" };
  $("tracker-note").textContent = data ? t(notes[data.beliefs] || "trackerUniform") : "";
}
