// The page's pure helpers (service/static/js/cards.js): cards and moves in words, the hand's order,
// the frames of a playback, the numbered rows' digits.
import assert from "node:assert/strict";
import test from "node:test";
import * as cards from "../../service/static/js/cards.js";
import { state } from "../../service/static/js/store.js";

test("a card reads as its rank and suit glyph, ten as 10", () => {
  assert.equal(cards.cardText("Ts"), "10♠");
  assert.equal(cards.cardText("Ah"), "A♥");
  assert.equal(cards.isRed("Qd"), true);
  assert.equal(cards.isRed("Qc"), false);
});

test("moves read in the page's language", () => {
  state.lang = "en";
  assert.equal(cards.moveText({ action: "defend", card: "9c", target: "7c" }), "beat 7♣ with 9♣");
  assert.equal(cards.moveText({ action: "take" }), "take");
  state.lang = "vi";
  assert.notEqual(cards.moveText({ action: "take" }), "take");
  state.lang = "en";
});

test("who leads and what a chance is are worded from the API's names, not worked out", () => {
  state.lang = "en";
  assert.equal(cards.leadText({ seat: 2, reason: "lowest_trump" }), "First lead: Seat 2 (dealt the lowest trump).");
  assert.equal(cards.leadText({ seat: 0, reason: "last_winner" }), "First lead: You (won the last game).");
  assert.equal(cards.chanceWord("win"), "chance to win");
  assert.equal(cards.chanceWord("not_loser"), "chance of not being the fool");
  // A score reads alike in the hint and the review: a proven one in words, else a percentage.
  assert.equal(cards.valueText({ score: 1, exact: true }), "certain win");
  assert.equal(cards.valueText({ score: 0.5, exact: true }), "certain draw");
  assert.equal(cards.valueText({ score: 0.42, exact: false }), "42%");
  state.lang = "vi";
  assert.equal(cards.leadText({ seat: 1, reason: "trump_swap" }), "Đánh trước: Máy 1 (ghế sau người đã đổi lá chủ nhỏ nhất).");
  assert.equal(cards.chanceWord("not_loser"), "cơ hội không bị thua");
  state.lang = "en";
});

test("the same move is the same whatever fields are missing", () => {
  assert.ok(cards.sameMove({ action: "take" }, { action: "take", card: null }));
  assert.ok(!cards.sameMove({ action: "attack", card: "7c" }, { action: "attack", card: "7d" }));
  assert.ok(!cards.sameMove({ action: "pick", set: 0 }, { action: "pick", set: 1 }));
});

test("a hand sorts by suit, black and red in turn, trumps last, each by rank", () => {
  assert.deepEqual(cards.sortHand(["Ah", "2s", "Kd", "3h", "Tc"], "h"), ["2s", "Tc", "Kd", "3h", "Ah"]);
});

test("a move of seat 0 lands on the table before the answer", () => {
  const table = [{ attack: "7c", defense: null }];
  assert.deepEqual(cards.tableAfter(table, { action: "defend", card: "9c", target: "7c" }), [{ attack: "7c", defense: "9c" }]);
  assert.deepEqual(cards.tableAfter([], { action: "attack", card: "7c" }), [{ attack: "7c", defense: null }]);
  assert.equal(cards.tableAfter(table, { action: "take" }), table);
});

test("numbered rows play by 1-9 then 0", () => {
  assert.deepEqual([0, 8, 9, 10].map(cards.digitFor), ["1", "9", "0", ""]);
});

test("percentages and points round as shown", () => {
  assert.equal(cards.pct(0.506), "51%");
  assert.equal(cards.points(0.0333), "3.3");
  assert.equal(cards.clamp01(1.5), 1);
  assert.equal(cards.outcome(1), "win");
  assert.equal(cards.outcome(0.5), "draw");
});

test("why a card cannot be played is the API's reason, in the page's words", () => {
  const game = {
    status: "playing",
    position: { to_move: 0 },
    unplayable: { "2c": { reason: "twos_last", detail: "…" }, Kd: { reason: "rank_not_on_table", detail: "…" } },
  };
  state.lang = "en";
  assert.equal(cards.whyNot(game, "2c", false), "Twos last: a 2 may be played only from a hand of 2s.");
  assert.match(cards.whyNot(game, "Kd", false), /^You may only throw in a card of a rank already on the table; K♦ is not\.$/);
  assert.equal(cards.whyNot(game, "Kd", true), "Not your turn yet: wait for the engines.");
  assert.equal(cards.whyNot({ ...game, position: { to_move: 1 } }, "Kd", false), "Not your turn yet: wait for the engines.");
  assert.equal(cards.whyNot({ ...game, status: "over" }, "Kd", false), "The game is over.");
  assert.equal(cards.whyNot(game, "3c", false), "That card cannot be played now."); // no reason given: no guess
  assert.equal(cards.whyNot({ ...game, unplayable: { Kd: { reason: "a_new_reason" } } }, "Kd", false), "That card cannot be played now.");
  state.lang = "vi";
  assert.equal(cards.whyNot(game, "2c", false), "Đút 2: lá 2 chỉ được đánh khi trên tay toàn lá 2.");
});

test("the tracker shows a seat's few likeliest cards however likely, or says they are all alike", async () => {
  const { likeliest, unseenCount } = await import("../../service/static/js/tracker-panel.js");
  const cards = { "6s": [0, 0.12, 0.88], Ah: [0, 0.64, 0.36], Kd: [0, 0.2, 0.8], "7c": [0, 0.2, 0.8], Qh: [0, 0, 1] };
  assert.deepEqual(likeliest(cards, 1, 3, "weighted"), { top: [["Ah", 0.64], ["Kd", 0.2], ["7c", 0.2]], even: null });
  // Nothing weighed: every card alike, whatever noise the sampled worlds left.
  const alike = { "6s": [0, 0.26, 0.74], Ah: [0, 0.24, 0.76], Qh: [0, 0, 1] };
  assert.deepEqual(likeliest(alike, 1, 4, "uniform"), { top: [], even: 0.25 });
  assert.deepEqual(likeliest(alike, 1, 4, "collapsed"), { top: [], even: 0.25 });
  assert.deepEqual(likeliest({}, 1, 4, "weighted"), { top: [], even: null });
  // A redeal's shown hand, back in the stock, is seen: not counted among the unseen.
  assert.equal(unseenCount({ cards }, { in_stock: ["Qh"] }), 4);
  assert.equal(unseenCount({ cards }, {}), 5);
});

test("the review's note words the labels' bounds the API gives, in the hint's chance", async () => {
  const { reviewNote } = await import("../../service/static/js/review-panel.js");
  const bounds = [{ label: "good", below: 0.03 }, { label: "inaccuracy", below: 0.07 }, { label: "mistake", below: 0.36 }];
  state.lang = "en";
  assert.equal(reviewNote(bounds, "win"), "Cost = the chance to win of the engine's choice minus the chance to win of your move, "
    + "judged from what you could see then. Below 3 points: good; below 7 points: inaccuracy; below 36 points: mistake; "
    + "36 points or more: blunder. A move the search tried too few times, its range still reaching the best move's, "
    + "is “uncertain”: no cost is counted.");
  // The API's `chance` says which: the page counts no seats (a game of three seats says not_loser).
  state.game = { position: { players: 2 } };
  assert.match(reviewNote(null, "not_loser"), /^Cost = the chance of not being the fool of the engine's choice/);
  assert.match(reviewNote(bounds, null), /^Below 3 points: good; below 7 points: inaccuracy; below 36 points: mistake; 36 points or more: blunder\. /);
  state.lang = "vi";
  assert.match(reviewNote(bounds, "not_loser"), /cơ hội không bị thua của nước máy chọn.*Dưới 3 điểm: tốt/);
  state.game = null;
});

test("a game's last bout: the table before the last move, with that move's card on it", () => {
  const after = (table) => ({ table });
  const history = [
    { seat: 1, move: { action: "attack", card: "7c" }, after: after([{ attack: "7c", defense: null }]) },
    { seat: 0, move: { action: "defend", card: "9c", target: "7c" }, after: after([{ attack: "7c", defense: "9c" }]) },
    { seat: 1, move: { action: "attack", card: "9d" }, after: after([{ attack: "7c", defense: "9c" }, { attack: "9d", defense: null }]) },
    { seat: 0, move: { action: "defend", card: "Jd", target: "9d" }, after: after([]) },
  ];
  assert.deepEqual(cards.lastBout(history), [{ attack: "7c", defense: "9c" }, { attack: "9d", defense: "Jd" }]);
  assert.deepEqual(cards.lastBout([]), []);
});
