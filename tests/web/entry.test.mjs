// A game being entered (service/static/js/entry.js): its request body, entries, undo, the moves
// split for entry, entries in words, and a game read back from storage.
import assert from "node:assert/strict";
import test from "node:test";
import * as entry from "../../service/static/js/entry.js";
import { state } from "../../service/static/js/store.js";

const DEAL = { rules: "durak", players: 2, seat: 1, hand: ["6s", "7s", "8s", "9s", "Ts", "Js"], trump: "7c", first_attacker: 0 };

test("a dealt game's body is its record, events included", () => {
  let game = entry.dealtGame(DEAL);
  game = entry.withEvent(game, entry.moveEvent(0, { action: "attack", card: "6h" }));
  game = entry.withEvent(game, entry.moveEvent(1, { action: "take" }));
  assert.deepEqual(entry.nextBody(game), {
    record: { ...DEAL, events: [{ seat: 0, move: { action: "attack", card: "6h" } }, { seat: 1, move: { action: "take" } }] },
  });
});

test("undo takes back the last entry only, and nothing when there is none", () => {
  const first = entry.dealtGame(DEAL);
  const one = entry.withEvent(first, entry.moveEvent(0, { action: "attack", card: "6h" }));
  const two = entry.withEvent(one, entry.drawEvent(["Ah"]));
  assert.deepEqual(entry.undone(two), one);
  assert.deepEqual(entry.undone(entry.undone(two)), first);
  assert.equal(entry.undone(first), first);
  assert.equal(one.events.length, 1); // entries never change a game in place
});

test("a position's body carries its events beside it", () => {
  const position = { rules: "tan", players: 2, seat: 0 };
  const game = entry.withEvent(entry.positionGame(position, "review"), entry.moveEvent(1, "pass"));
  assert.deepEqual(entry.nextBody(game), { position, events: [{ seat: 1, move: "pass" }] });
  assert.equal(game.from, "review");
});

test("offered moves split into their cards, one card's moves and the moves without a card", () => {
  const moves = [
    { action: "defend", card: "9c", target: "7c" }, { action: "defend", card: "9c", target: "8c" },
    { action: "transfer", card: "7h" }, { action: "take" },
  ];
  assert.deepEqual(entry.cardsOfMoves(moves), ["9c", "7h"]);
  assert.deepEqual(entry.movesOfCard(moves, "9c").length, 2);
  assert.deepEqual(entry.plainMoves(moves), [{ action: "take" }]);
});

test("entries read in words, seats counted from 1", () => {
  state.lang = "en";
  assert.equal(entry.eventText(entry.moveEvent(0, { action: "attack", card: "Th" }), 1), "Seat 1: attack 10♥");
  assert.equal(entry.eventText(entry.moveEvent(1, { action: "take" }), 1), "Seat 2 (you): take");
  assert.equal(entry.eventText(entry.drawEvent(["Ah", "6s"]), 1), "You drew A♥ 6♠");
});

test("only a game this page stored reads back", () => {
  const game = entry.withEvent(entry.dealtGame(DEAL), entry.drawEvent(["Ah"]));
  assert.deepEqual(entry.readGame(JSON.stringify(game)), game);
  for (const text of ["", "null", "{}", '{"kind": "x", "start": {}, "events": []}', '{"kind": "record", "start": {}}', "[1]"]) {
    assert.equal(entry.readGame(text), null, text);
  }
});

test("a game kept on the server comes back as it was entered", () => {
  const game = { ...entry.withEvent(entry.dealtGame(DEAL), entry.drawEvent(["Ah"])), id: "x".repeat(24) };
  assert.deepEqual(entry.gameOfFollowed({ id: game.id, ...entry.nextBody(game) }), game);
  const board = { ...entry.withEvent(entry.positionGame({ seat: 0 }), entry.moveEvent(1, "take")), id: "y".repeat(24) };
  assert.deepEqual(entry.gameOfFollowed({ id: board.id, ...entry.nextBody(board) }), board);
});

test("a new game's id is 24 URL-safe characters, new each time", () => {
  const id = entry.newFollowedId();
  assert.match(id, /^[A-Za-z0-9_-]{24}$/);
  assert.notEqual(entry.newFollowedId(), id);
  assert.equal(entry.newFollowedId((bytes) => bytes.fill(63)), "_".repeat(24));
});

test("the side rules' events are the record's, and read in words", () => {
  state.lang = "en";
  const hand = ["6s", "7s", "8s", "9s", "Ts", "Js"];
  const sets = [["6d", "7d", "8d", "9d", "Td", "Jd"], ["6c", "7c", "8c", "9c", "Tc", "Jc"]];
  assert.deepEqual(entry.redealEvent(1, hand, sets), { seat: 1, move: { action: "redeal" }, shown: hand, sets });
  assert.deepEqual(entry.redealEvent(0, hand), { seat: 0, move: { action: "redeal" }, shown: hand });
  assert.deepEqual(entry.tributeEvent("Ah", ["6s"]), { tribute: "Ah", inspected: ["6s"] });
  assert.deepEqual(entry.tributeEvent(null), { tribute: null });
  assert.deepEqual(entry.allTrumpsEvent(0, ["6h"]), { all_trumps: 0, shown: ["6h"] });
  assert.equal(entry.eventText(entry.redealEvent(0, ["6s", "Th"]), 1), "Seat 1: redeal (6♠ 10♥)");
  assert.equal(entry.eventText(entry.tributeEvent("Ah", ["6s"]), 1), "Tribute A♥ · hand seen: 6♠");
  assert.equal(entry.eventText(entry.tributeEvent(null), 1), "A trump was given");
  assert.equal(entry.eventText(entry.allTrumpsEvent(1, ["6h"]), 1), "Seat 2 (you) shows all trumps and wins: 6♥");
});

test("a match game's deal carries its match block and the tribute owed", () => {
  const match = { match: { game: 2, dealer: 1, previous_winner: 0, previous_loser: 1, trump_suits: [] }, tribute: [1, 0] };
  const game = entry.dealtGame({ ...DEAL, match });
  assert.deepEqual(game.start.match, match.match);
  assert.deepEqual(game.start.tribute, [1, 0]);
  assert.equal("tribute" in entry.dealtGame({ ...DEAL, match: { ...match, tribute: null } }).start, false);
});

test("one mover alone, or several entries each under its seat", () => {
  const one = { movers: [{ seat: 1, moves: [] }], tributes: [], all_trumps: [] };
  assert.equal(entry.soleMover(one), one.movers[0]);
  assert.equal(entry.soleMover({ ...one, tributes: [{ card: null }] }), null);
  assert.equal(entry.soleMover({ ...one, movers: [...one.movers, { seat: 0, moves: [] }] }), null);
});

test("a review step on the board names the seats as the game it came from did; a table's from 1", () => {
  state.lang = "vi";
  const fromReview = entry.positionGame({ seat: 0 }, { kind: "review" });
  const name = entry.namerOf(fromReview);
  assert.equal(name(0, 0), "Bạn");
  assert.equal(name(1, 0), "Máy 1", "as the game against the engines named it, not Ghế 2");
  assert.equal(entry.eventText(entry.moveEvent(1, { action: "take" }), 0, name), "Máy 1: ôm");
  assert.equal(entry.namerOf(entry.positionGame({ seat: 0 }))(1, 0), "Ghế 2");
  state.lang = "en";
});

test("a finished game at a table says who won, from the scores the server gives", () => {
  state.lang = "en";
  assert.equal(entry.resultWords([1, 0], 0), "Game over: Seat 2 lost; you won.");
  assert.equal(entry.resultWords([1, 0], 1), "Game over: you lost.");
  assert.equal(entry.resultWords([1, 1, 0], 0), "Game over: Seat 3 lost; you won.");
  assert.equal(entry.resultWords([0, 1, 0], 0), "Game over: Seat 2 won.", "a hand of trumps");
  assert.equal(entry.resultWords([0.5, 0.5], 0), "Game over: a draw.");
  assert.equal(entry.resultWords([1, 0.5, 0.5], 1), "Game over: a draw.");
  state.lang = "vi";
  assert.equal(entry.resultWords([1, 0], 0), "Hết ván: Ghế 2 thua; bạn thắng.");
  state.lang = "en";
});
