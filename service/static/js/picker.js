/* View: the card picker — tap a rank then a suit, or type a card (`7c`, `10h`, `Q♥`, `q h`).
 *
 * Which cards may be picked is always given by the caller, from the server (a deck of
 * GET /v1/rules, or the cards of the moves POST /v1/next offers): the picker knows no rule. The
 * parsing helpers are pure (no DOM) and unit-tested by node (tests/web/picker.test.mjs).
 */

import { cardName, cardText, isRed } from "./cards.js";
import { RANKS } from "./constants.js";
import { t } from "./i18n.js";

// The suit letters and every symbol docs/rules.md §1.1 reads (filled and hollow), and the
// Vietnamese suit names' first letters where they differ: bích, cơ, rô, chuồn / nhép.
const SUITS = { s: "s", h: "h", d: "d", c: "c", "♠": "s", "♥": "h", "♦": "d", "♣": "c",
  "♤": "s", "♡": "h", "♢": "d", "♧": "c", b: "s", r: "d", n: "c" };
const RANK_WORDS = { 10: "T" };

// One card from loose text, in its canonical form (`Th`), or null when it is not a card. The rank
// comes first: 2–9, 10 or T, J, Q, K, A (either case); then the suit: a letter or a symbol,
// spaces allowed between them. Whether the card is in the game's deck is the caller's question.
export function parseCard(text) {
  if (typeof text !== "string") return null;
  const found = /^\s*(10|[2-9tjqka])\s*([shdcbrn♠♥♦♣♤♡♢♧])\s*$/iu.exec(text);
  if (!found) return null;
  const rankText = found[1].toUpperCase();
  const rank = RANK_WORDS[rankText] || rankText;
  const suit = SUITS[found[2].toLowerCase()];
  return RANKS.includes(rank) && suit ? rank + suit : null;
}

// Several cards from text separated by spaces or commas (`7c 10h, Q♥`): the cards read, in
// order and without repeats, and the pieces that are not cards. `10 h` with a space is one card.
export function parseCards(text) {
  const pieces = String(text || "").replace(/(10|[2-9tjqka])\s+(?=[shdcbrn♠♥♦♣♤♡♢♧](?:[\s,;]|$))/giu, "$1")
    .split(/[\s,;]+/u).filter(Boolean);
  const cards = [];
  const bad = [];
  for (const piece of pieces) {
    const card = parseCard(piece);
    if (card === null) bad.push(piece);
    else if (!cards.includes(card)) cards.push(card);
  }
  return { cards, bad };
}

// The ranks and suits to offer, in the deck's order, for the cards that may be picked.
export const ranksOf = (cards) => [...RANKS].filter((rank) => cards.some((card) => card[0] === rank));
export const suitsOf = (cards, rank) => ["s", "h", "d", "c"].filter((suit) => cards.includes(rank + suit));

/* A picker element: rank buttons, then suit buttons for the chosen rank, and a text field.
 * `options`: {cards: the cards that may be picked, picked: cards already chosen (shown marked and
 * not offered again), onPick(card), label, id}. Typed text that names a card outside `cards`
 * calls `onRefuse(text)`; the caller says why.
 */
export function cardPicker({ cards, picked = [], onPick, onRefuse, label, id }) {
  const box = document.createElement("div");
  box.className = "picker";
  if (id) box.id = id;
  box.setAttribute("role", "group");
  if (label) box.setAttribute("aria-label", label);
  const free = cards.filter((card) => !picked.includes(card));
  let rank = null;

  const ranks = document.createElement("div");
  ranks.className = "picker-ranks";
  const suits = document.createElement("div");
  suits.className = "picker-suits";

  const drawSuits = () => {
    suits.replaceChildren();
    for (const button of ranks.querySelectorAll("button")) button.setAttribute("aria-pressed", String(button.dataset.rank === rank));
    if (rank === null) return;
    for (const suit of ["s", "h", "d", "c"]) {
      const card = rank + suit;
      const button = document.createElement("button");
      button.type = "button";
      button.className = "picker-suit" + (isRed(card) ? " red" : "");
      button.dataset.card = card;
      button.textContent = cardText(card);
      button.setAttribute("aria-label", cardName(card));
      button.disabled = !free.includes(card);
      button.addEventListener("click", () => { rank = null; drawSuits(); onPick(card); });
      suits.append(button);
    }
    const first = suits.querySelector("button:not(:disabled)");
    if (first) first.focus({ preventScroll: true });
  };

  for (const r of ranksOf(cards)) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "picker-rank";
    button.dataset.rank = r;
    button.textContent = r === "T" ? "10" : r;
    button.setAttribute("aria-pressed", "false");
    button.disabled = !free.some((card) => card[0] === r);
    button.addEventListener("click", () => { rank = rank === r ? null : r; drawSuits(); });
    ranks.append(button);
  }

  // A plain group, not a form: the picker sits inside the set-up forms, and a form in a form
  // would submit the outer one. Enter in the field, or the button, adds the cards typed.
  const typed = document.createElement("div");
  typed.className = "picker-typed";
  const input = document.createElement("input");
  input.type = "text";
  input.autocomplete = "off";
  input.spellcheck = false;
  input.setAttribute("autocapitalize", "off");
  input.setAttribute("enterkeyhint", "done");
  input.className = "picker-input";
  input.placeholder = t("pickerPlaceholder");
  input.setAttribute("aria-label", t("pickerType"));
  const go = document.createElement("button");
  go.type = "button";
  go.className = "secondary picker-add";
  go.textContent = t("pickerAdd");
  typed.append(input, go);
  const add = () => {
    const { cards: read, bad } = parseCards(input.value);
    if (!read.length && !bad.length) return;
    const refused = [...bad, ...read.filter((card) => !free.includes(card))];
    if (refused.length) { if (onRefuse) onRefuse(refused.join(" ")); return; }
    input.value = "";
    for (const card of read) onPick(card);
  };
  input.addEventListener("keydown", (event) => {
    if (event.key !== "Enter") return;
    event.preventDefault(); // not the set-up form's submit
    add();
  });
  go.addEventListener("click", add);

  box.append(ranks, suits, typed);
  return box;
}
