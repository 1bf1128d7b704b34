/* View: elements that draw a card, a mini card, a removable card chip, a chance bar, a proven badge. */

import { cardName, cardText, clamp01, isRed, rankText, suitOf } from "./cards.js";
import { SUIT_GLYPH } from "./constants.js";
import { t } from "./i18n.js";

// An element with its class and text: the small builder the follower and its forms draw with.
export function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

// A <select> of `values` ([value, text] pairs) showing `chosen`; `onChange(value)` on a change.
export function choice(id, values, chosen, onChange) {
  const input = el("select");
  input.id = id;
  for (const [value, text] of values) {
    const option = el("option", "", text);
    option.value = String(value);
    input.append(option);
  }
  input.value = String(chosen);
  input.addEventListener("change", () => onChange(input.value));
  return input;
}

// A chosen card as a button that takes it away again (the set-up forms' hands, trumps, tables).
export function cardChip(card, onRemove) {
  const chip = el("button", isRed(card) ? "chip red" : "chip", cardText(card));
  chip.type = "button";
  chip.dataset.card = card;
  chip.setAttribute("aria-label", t("removeCard", { card: cardText(card) }));
  chip.addEventListener("click", onRemove);
  return chip;
}

export function miniCard(card) {
  const span = document.createElement("span");
  span.className = "mini" + (isRed(card) ? " red" : "");
  span.textContent = cardText(card);
  span.title = cardName(card);
  return span;
}

// A card: rank and suit in both top corners (a card beaten on the table, or overlapped in the
// fanned hand, still shows one of them), and the suit large in the middle.
export function cardFace(card, element = "span") {
  const el = document.createElement(element);
  el.className = "card" + (isRed(card) ? " red" : "");
  el.dataset.card = card;
  const corners = document.createElement("span");
  corners.className = "corners";
  corners.setAttribute("aria-hidden", "true");
  for (const side of ["left", "right"]) {
    const corner = document.createElement("span");
    corner.className = "corner " + side;
    const rank = document.createElement("span");
    rank.className = "rank";
    rank.textContent = rankText(card);
    const small = document.createElement("span");
    small.className = "pip";
    small.textContent = SUIT_GLYPH[suitOf(card)];
    corner.append(rank, small);
    corners.append(corner);
  }
  const suit = document.createElement("span");
  suit.className = "suit";
  suit.setAttribute("aria-hidden", "true");
  suit.textContent = SUIT_GLYPH[suitOf(card)];
  el.append(corners, suit);
  el.setAttribute("aria-label", cardName(card));
  if (element === "span") el.setAttribute("role", "img");
  return el;
}

// A bar as long as the chance (drawn for the eye only: the text says the number).
export function bar(score, extra = "") {
  const el = document.createElement("div");
  el.className = "bar" + (extra ? " " + extra : "");
  el.setAttribute("aria-hidden", "true");
  const fill = document.createElement("div");
  fill.className = "fill";
  fill.style.width = `${(clamp01(score) * 100).toFixed(1)}%`;
  el.append(fill);
  return el;
}

// Marks a value the engine has proven (nothing hidden is left), in words.
export function provenBadge() {
  const badge = document.createElement("span");
  badge.className = "proven";
  badge.textContent = t("proven");
  return badge;
}
