// The card picker's reading of typed cards (service/static/js/picker.js): loose spellings to the
// canonical form, several cards at once, and what it offers of the cards it is given.
import assert from "node:assert/strict";
import test from "node:test";
import { notCardsText, parseCard, parseCards, ranksOf, suitLetters, suitsOf } from "../../service/static/js/picker.js";
import { state } from "../../service/static/js/store.js";

test("a typed card reads in its canonical form", () => {
  assert.equal(parseCard("7c"), "7c");
  assert.equal(parseCard("10h"), "Th");
  assert.equal(parseCard("Q♥"), "Qh");
  assert.equal(parseCard("q h"), "Qh");
  assert.equal(parseCard(" a♤ "), "As");
  assert.equal(parseCard("TD"), "Td");
  assert.equal(parseCard("10♧"), "Tc");
  assert.equal(parseCard("K♦", "vi"), "Kd");
  assert.equal(parseCard("9 spades"), "9s");
});

test("the Vietnamese page reads its own suit letters: no entry means another card than it says", () => {
  // cơ (hearts), rô (diamonds), chuồn / nhép (clubs), bích (spades): "7c" is 7 cơ, not 7 of clubs.
  assert.equal(parseCard("7c", "vi"), "7h");
  assert.equal(parseCard("Kr", "vi"), "Kd");
  assert.equal(parseCard("9b", "vi"), "9s");
  assert.equal(parseCard("9n", "vi"), "9c");
  assert.equal(parseCard("9ch", "vi"), "9c");
  assert.equal(parseCard("10 cơ", "vi"), "Th");
  assert.equal(parseCard("Q nhép", "vi"), "Qc");
  assert.equal(parseCard("A chuon", "vi"), "Ac");
  assert.equal(parseCard("J♣", "vi"), "Jc");
  // English letters other than the Vietnamese ones are not read there (a player would not type them,
  // and "c" would mean two suits): the page says which letters it reads.
  for (const text of ["7h", "7d", "7s"]) assert.equal(parseCard(text, "vi"), null, text);
  // And the English page reads English letters only: "b", "r", "n" are no suits there.
  assert.equal(parseCard("7c", "en"), "7c");
  for (const text of ["7b", "7r", "7n"]) assert.equal(parseCard(text, "en"), null, text);
  assert.deepEqual(suitLetters("vi"), ["b", "c", "r", "ch", "n"]);
  assert.deepEqual(suitLetters("en"), ["s", "h", "d", "c"]);
  assert.deepEqual(parseCards("7 cơ, 10 b Q♥ 8 rô", "vi"), { cards: ["7h", "Ts", "Qh", "8d"], bad: [] });
});

test("text that is no card is said as such, with the suit letters the page reads", () => {
  state.lang = "vi";
  assert.match(notCardsText(["11x"]), /^Không phải lá bài: 11x .*b c r ch n/u);
  state.lang = "en";
  assert.equal(notCardsText(["11x", "7q"]), "Not a card: 11x 7q (suits typed as s h d c, or ♠♥♦♣).");
});

test("text that is not one card reads as none", () => {
  for (const text of ["", "7", "c", "1h", "11h", "7x", "7cc", "7c 8d", "Z♥", "7ơ", null, 7]) assert.equal(parseCard(text), null, String(text));
});

test("several typed cards read in order, once each, with the pieces that are not cards", () => {
  assert.deepEqual(parseCards("7c 10h, Q♥"), { cards: ["7c", "Th", "Qh"], bad: [] });
  assert.deepEqual(parseCards("10 h  7c 7C"), { cards: ["Th", "7c"], bad: [] });
  assert.deepEqual(parseCards("7c 1x"), { cards: ["7c"], bad: ["1x"] });
  assert.deepEqual(parseCards(""), { cards: [], bad: [] });
});

test("the picker offers the ranks and suits of the cards it is given, in the deck's order", () => {
  const cards = ["Ah", "6s", "6c", "Ts"];
  assert.deepEqual(ranksOf(cards), ["6", "T", "A"]);
  assert.deepEqual(suitsOf(cards, "6"), ["s", "c"]);
  assert.deepEqual(suitsOf(cards, "7"), []);
});
