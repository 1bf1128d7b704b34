// The analysis board's set-up (service/static/js/board.js): where the trump card may be placed, and
// "everything else is discarded".
import assert from "node:assert/strict";
import test from "node:test";
import { placedCards, positionOf, restDiscarded } from "../../service/static/js/board.js";

const DECK = ["6s", "7s", "8s", "6h", "7h", "8h"];
const form = (overrides = {}) => ({
  preset: "durak", options: {}, players: 2, seat: 0, trump: "6h", hand: ["7s"], known: { 1: ["8s"] }, counts: { 1: 1 },
  table: [], discard: [], inStock: [], stock: 0, attacker: 0, defender: 1, toMove: 0, taking: false, picking: "hand", ...overrides,
});

test("the trump card is not a placed card: once the stock is drawn it may lie in a hand", () => {
  assert.deepEqual(placedCards(form()), ["7s", "8s"]);
  assert.deepEqual(placedCards(form({ hand: ["6h", "7s"] })), ["6h", "7s", "8s"]);
});

test("everything else is discarded: the cards placed nowhere, the trump card only once the stock is empty", () => {
  assert.deepEqual(restDiscarded(form(), DECK), ["6s", "6h", "7h", "8h"]);
  assert.deepEqual(restDiscarded(form({ stock: 1 }), DECK), ["6s", "7h", "8h"]);
  assert.deepEqual(restDiscarded(form({ discard: ["8h"], table: [{ attack: "7h", defense: null }] }), DECK), ["8h", "6s", "6h"]);
  const position = positionOf(form({ discard: restDiscarded(form(), DECK) }));
  assert.deepEqual(position.discard, ["6s", "6h", "7h", "8h"]);
  assert.deepEqual(position.hand_counts, [1, 1]);
});

test("cards tapped into the stock stay out of the discard and go as the position's in_stock", () => {
  const f = form({ inStock: ["7h"], stock: 2 });
  assert.deepEqual(restDiscarded(f, DECK), ["6s", "8h"]);
  assert.deepEqual(positionOf(f).in_stock, ["7h"]);
  assert.equal("in_stock" in positionOf(form()), false);
});
