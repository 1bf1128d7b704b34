// The store's events (service/static/js/store.js) reach the page: every key an action puts in a
// `changed({...})` is one app.js's `draw` (or focus.js's `focusAfter`) reads, and store.js names it.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import test from "node:test";

const DIR = new URL("../../service/static/js/", import.meta.url);
const source = (name) => readFileSync(new URL(name, DIR), "utf8");

// Each key of each `changed({ key: …, other })` in the page's modules, with where it is.
function keysSent() {
  const sent = new Map();
  for (const name of readdirSync(DIR).filter((file) => file.endsWith(".js"))) {
    for (const call of source(name).matchAll(/\bchanged\(\{([^}]*)\}\)/g)) {
      for (const [, key] of call[1].matchAll(/(?:^|,)\s*(\w+)\s*(?::|,|$)/g)) sent.set(key, name);
    }
  }
  return sent;
}

test("the actions send their events in the store's words", () => {
  const sent = keysSent();
  assert.ok(sent.size >= 8, `too few events found: ${[...sent.keys()]}`);
  assert.equal(sent.get("step"), "playback.js");
  assert.equal(sent.get("reveal"), "review.js");
});

test("every event an action sends is drawn by app.js and named by store.js", () => {
  const read = source("app.js") + source("focus.js");
  const store = source("store.js").split("*/")[0]; // its header, which lists the events
  for (const [key, where] of keysSent()) {
    const drawn = new RegExp(`event\\.${key}\\b|"${key}" in event`).test(read);
    assert.ok(drawn, `${where} sends {${key}}, which app.js never reads`);
    assert.match(store, new RegExp(`\\b${key}\\b`), `store.js does not name the event {${key}} ${where} sends`);
  }
});
