// words.js: both languages have the same keys, every value is a string, and each key's
// placeholders ({name}) are the same in both, so no label or status falls back to the other language.
import assert from "node:assert/strict";
import test from "node:test";
import { WORDS } from "../../service/static/words.js";

const placeholders = (text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

test("Vietnamese and English have the same keys", () => {
  const vi = Object.keys(WORDS.vi).sort();
  const en = Object.keys(WORDS.en).sort();
  assert.deepEqual(vi.filter((key) => !(key in WORDS.en)), [], "keys only in vi");
  assert.deepEqual(en.filter((key) => !(key in WORDS.vi)), [], "keys only in en");
  assert.deepEqual(Object.keys(WORDS).sort(), ["en", "vi"]);
});

test("every word is a non-empty string with the same placeholders in both languages", () => {
  for (const key of Object.keys(WORDS.en)) {
    for (const lang of ["vi", "en"]) {
      assert.equal(typeof WORDS[lang][key], "string", `${lang}.${key}`);
      assert.ok(WORDS[lang][key].trim().length > 0, `${lang}.${key} is empty`);
    }
    assert.deepEqual(placeholders(WORDS.vi[key]), placeholders(WORDS.en[key]), `placeholders of ${key}`);
  }
});

test("a word after a number agrees with it, in both languages", async () => {
  const { t } = await import("../../service/static/js/i18n.js");
  const { state } = await import("../../service/static/js/store.js");
  state.lang = "en";
  assert.equal(t("cards", { n: 1 }), "1 card");
  assert.equal(t("cards", { n: 2 }), "2 cards");
  assert.equal(t("followDraw", { n: 1 }), "You drew 1 card: choose the card you drew.");
  assert.equal(t("trackerStock", { n: 1, m: 3 }), "Stock: 1 card · 3 cards you have not seen");
  state.lang = "vi";
  assert.equal(t("cards", { n: 1 }), "1 lá");
  assert.equal(t("followDraw", { n: 1 }), "Bạn vừa bốc 1 lá: chọn các lá bạn bốc được.");
  // No `{n:…|…}` is left unread in any word of either language.
  for (const lang of ["vi", "en"]) {
    state.lang = lang;
    for (const key of Object.keys(WORDS.en)) {
      const vars = Object.fromEntries(placeholders(WORDS[lang][key]).map((name) => [name, 1]));
      assert.doesNotMatch(t(key, vars), /\{\w+:/u, `${lang}.${key}`);
    }
  }
});

test("the server's error is shown as it words it, translated where the page has words for it", async () => {
  const { ApiFailure } = await import("../../service/static/js/failures.js");
  const { state } = await import("../../service/static/js/store.js");
  const card = new ApiFailure(422, "invalid_card", "line 3: '0: attack 11x': not a card: '11x' (expected rank then suit, e.g. '6s', '10h', 'Q♥')");
  state.lang = "en";
  assert.equal(card.describe(), "A card is written wrongly. Line 3: '0: attack 11x': not a card: '11x' (expected rank then suit, e.g. '6s', '10h', 'Q♥')");
  state.lang = "vi";
  assert.equal(card.describe(), "Có một lá bài viết sai. Dòng 3: '0: attack 11x': không phải lá bài: '11x' (hạng rồi chất, ví dụ '6♠', '10h', 'Q♥')");
  const move = new ApiFailure(422, "illegal_move", "illegal move: defend 7s with 9s");
  assert.equal(move.describe(), "Nước đi này không hợp lệ lúc này. Nước không hợp lệ: đỡ 7♠ bằng 9♠.");
  const counts = new ApiFailure(422, "count_mismatch", "cards do not add up to the 36-card deck: hands 12 + stock 10 + table 0 + discard 5 = 27");
  assert.equal(counts.describe(), "Số lá bài không khớp. Số lá không khớp với bộ 36 lá: trên tay 12 + nọc 10 + bàn 0 + rác 5 = 27.");
  state.lang = "en";
  assert.match(counts.describe(), /hands 12 \+ stock 10 \+ table 0 \+ discard 5 = 27\.$/u);
  // A detail that says nothing a player can act on stays out: the page's words alone.
  assert.doesNotMatch(new ApiFailure(500, "internal", "Traceback (most recent call last)").describe(), /Traceback/u);
});
