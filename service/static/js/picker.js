/* View: the card picker — tap a rank then a suit, or type a card (`7c`, `10h`, `Q♥`, `q h`; on
 * the Vietnamese page its own suit letters: `7c` is 7 cơ, `10b`, `Qr`, `9n`).
 *
 * Which cards may be picked is always given by the caller, from the server (a deck of
 * GET /v1/rules, or the cards of the moves POST /v1/next offers): the picker knows no rule. The
 * parsing helpers are pure (no DOM) and unit-tested by node (tests/web/picker.test.mjs).
 */

import { cardName, cardText, isRed } from "./cards.js";
import { RANKS } from "./constants.js";
import { language, t } from "./i18n.js";
import { showMessage } from "./messages.js";

// The suits as each language's players write them: letters of their own suit names, so no letter
// means one suit on one page and another suit on the other ("c" is clubs in English, cơ — hearts —
// in Vietnamese). Vietnamese: bích, cơ, rô, chuồn or nhép. The server keeps its own notation
// (docs/notation.md: s h d c); the page reads the language's letters and sends the canonical card.
export const SUIT_LETTERS = {
  en: { s: "s", h: "h", d: "d", c: "c" },
  vi: { b: "s", c: "h", r: "d", ch: "c", n: "c" },
};
// Every symbol docs/rules.md §1.1 reads (filled and hollow) and the suits' whole names, in either
// language (with or without the accents): each names one suit on either page.
const SUIT_WORDS = {
  "♠": "s", "♥": "h", "♦": "d", "♣": "c", "♤": "s", "♡": "h", "♢": "d", "♧": "c",
  spade: "s", spades: "s", heart: "h", hearts: "h", diamond: "d", diamonds: "d", club: "c", clubs: "c",
  "bích": "s", bich: "s", "cơ": "h", "rô": "d", ro: "d", "chuồn": "c", chuon: "c", "nhép": "c", nhep: "c",
};
const RANK_WORDS = { 10: "T" };
const RANK = "(10|[2-9tjqka])";

// The suit a piece of text names on the page of `lang`, or null.
function suitOf(text, lang) {
  const key = text.toLowerCase();
  return (SUIT_LETTERS[lang] || SUIT_LETTERS.en)[key] || SUIT_WORDS[key] || null;
}

// The suit letters a language reads, for the page to show ("b c r n ch" on the Vietnamese page).
export const suitLetters = (lang) => Object.keys(SUIT_LETTERS[lang] || SUIT_LETTERS.en);

// One card from loose text, in its canonical form (`Th`), or null when it is not a card. The rank
// comes first: 2–9, 10 or T, J, Q, K, A (either case); then the suit: a letter of the page's
// language (`lang`: SUIT_LETTERS), a symbol or a suit's name, spaces allowed between them. Whether
// the card is in the game's deck is the caller's question.
export function parseCard(text, lang = "en") {
  if (typeof text !== "string") return null;
  const found = new RegExp(`^\\s*${RANK}\\s*(\\p{L}+|[♠♥♦♣♤♡♢♧])\\s*$`, "iu").exec(text.normalize("NFC"));
  if (!found) return null;
  const rankText = found[1].toUpperCase();
  const rank = RANK_WORDS[rankText] || rankText;
  const suit = suitOf(found[2], lang);
  return RANKS.includes(rank) && suit ? rank + suit : null;
}

// Several cards from text separated by spaces or commas (`7c 10h, Q♥`): the cards read, in
// order and without repeats, and the pieces that are not cards. `10 h` and `7 cơ` with a space
// are one card each.
export function parseCards(text, lang = "en") {
  const pieces = String(text || "").normalize("NFC")
    .replace(new RegExp(`(^|[\\s,;])${RANK}\\s+(?=(?:\\p{L}+|[♠♥♦♣♤♡♢♧])(?:[\\s,;]|$))`, "giu"), (all, lead, rank) => lead + rank)
    .split(/[\s,;]+/u).filter(Boolean);
  const cards = [];
  const bad = [];
  for (const piece of pieces) {
    const card = parseCard(piece, lang);
    if (card === null) bad.push(piece);
    else if (!cards.includes(card)) cards.push(card);
  }
  return { cards, bad };
}

// What the page says of typed text that is no card: the text, and the suit letters it reads.
export const notCardsText = (bad, lang = language()) =>
  t("notACard", { what: bad.join(" "), letters: suitLetters(lang).join(" ") });

// The ranks and suits to offer, in the deck's order, for the cards that may be picked.
export const ranksOf = (cards) => [...RANKS].filter((rank) => cards.some((card) => card[0] === rank));
export const suitsOf = (cards, rank) => ["s", "h", "d", "c"].filter((suit) => cards.includes(rank + suit));

/* A picker element: rank buttons, then suit buttons for the chosen rank, and a text field.
 * `options`: {cards: the cards that may be picked, picked: cards already chosen (shown marked and
 * not offered again), onPick(card), label, id}. Typed text that is no card is said here; a card
 * outside `cards` (or already picked) calls `onRefuse(text)`, and the caller says why.
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
  input.placeholder = t("pickerPlaceholder", { letters: suitLetters(language()).join(" ") });
  input.setAttribute("aria-label", t("pickerType"));
  const go = document.createElement("button");
  go.type = "button";
  go.className = "secondary picker-add";
  go.textContent = t("pickerAdd");
  typed.append(input, go);
  // The cards offered are picked; what is left (text that is no card, a card not offered) stays
  // in the field, said: one word mistyped does not drop the rest of the batch.
  const add = () => {
    const { cards: read, bad } = parseCards(input.value, language());
    if (!read.length && !bad.length) return;
    const taken = read.filter((card) => free.includes(card));
    const unoffered = read.filter((card) => !free.includes(card));
    input.value = [...bad, ...unoffered.map(cardText)].join(" ");
    if (bad.length) showMessage(notCardsText(bad));
    else if (unoffered.length && onRefuse) onRefuse(unoffered.map(cardText).join(" "));
    for (const card of taken) onPick(card);
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
