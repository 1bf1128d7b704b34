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
