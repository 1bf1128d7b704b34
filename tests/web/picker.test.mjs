// The card picker's reading of typed cards (service/static/js/picker.js): loose spellings to the
// canonical form, several cards at once, and what it offers of the cards it is given.
import assert from "node:assert/strict";
import test from "node:test";
import { parseCard, parseCards, ranksOf, suitsOf } from "../../service/static/js/picker.js";

test("a typed card reads in its canonical form", () => {
  assert.equal(parseCard("7c"), "7c");
  assert.equal(parseCard("10h"), "Th");
  assert.equal(parseCard("Q♥"), "Qh");
  assert.equal(parseCard("q h"), "Qh");
  assert.equal(parseCard(" a♤ "), "As");
  assert.equal(parseCard("TD"), "Td");
  assert.equal(parseCard("10♧"), "Tc");
  assert.equal(parseCard("Kr"), "Kd"); // rô: diamonds
  assert.equal(parseCard("9b"), "9s"); // bích: spades
});

test("text that is not one card reads as none", () => {
  for (const text of ["", "7", "c", "1h", "11h", "7x", "7cc", "7c 8d", "Z♥", null, 7]) assert.equal(parseCard(text), null, String(text));
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
