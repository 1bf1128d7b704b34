// The page's modes from the address's hash (service/static/js/modes.js): the assistant with a kept
// game's id, the board, and the play mode for anything else.
import assert from "node:assert/strict";
import test from "node:test";
import { idOf, modeOf } from "../../service/static/js/modes.js";

test("the hash names the mode, and the assistant's kept game", () => {
  assert.equal(modeOf("#assistant"), "assistant");
  assert.equal(modeOf("#assistant/abcdefghijklmnopqrstuvwx"), "assistant");
  assert.equal(idOf("#assistant/abcdefghijklmnopqrstuvwx"), "abcdefghijklmnopqrstuvwx");
  assert.equal(idOf("#assistant"), null);
  assert.equal(modeOf("#board"), "board");
  for (const hash of ["", "#", "#play", "#nothing", "#review"]) assert.equal(modeOf(hash), "play", hash);
});
