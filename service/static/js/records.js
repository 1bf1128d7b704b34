/* Action helpers and a view: games as text (docs/notation.md) — a game's record shown as text to
 * copy or download, and a game opened again from its text.
 *
 * The page never writes or reads the notation itself: POST /v1/records/convert answers a record in
 * both its forms (the library's own writing), and a stored game's text comes from
 * GET /v1/games/{id}/record?format=text.
 */

import { api } from "./api.js";
import { el } from "./faces.js";
import { t } from "./i18n.js";

// A record (its JSON, or its text) in both forms: {record, text}; a bad one is refused with its reason.
export function convertRecord(record) {
  return api("POST", "/v1/records/convert", { record }, { retry: ["busy", "network"] });
}

// A stored game's record as `seat` saw it, as text (game `number` of a match, when given).
export function storedGameText(id, seat, number = null) {
  const query = new URLSearchParams({ seat: String(seat), format: "text" });
  if (Number.isInteger(number)) query.set("game", String(number));
  return api("GET", `/v1/games/${encodeURIComponent(id)}/record?${query}`, undefined, { retry: ["busy", "network"] });
}

// What a person pasted: a JSON record (an object) as such, anything else as text.
export function pastedRecord(text) {
  const trimmed = String(text || "").trim();
  if (trimmed.startsWith("{")) {
    try { return JSON.parse(trimmed); } catch { return trimmed; }
  }
  return trimmed;
}

// A game's text, to read, copy or download (as `name`.txt): the same panel for every mode.
export function gameTextPanel(text, name, id) {
  const panel = el("section", "panel game-text");
  panel.setAttribute("aria-label", t("gameAsText"));
  panel.append(el("h3", "", t("gameAsText")));
  const area = el("textarea", "game-text-area");
  area.readOnly = true;
  area.value = text;
  area.rows = Math.min(12, text.split("\n").length + 1);
  area.id = id;
  area.setAttribute("aria-label", t("gameAsText"));
  const copy = el("button", "secondary", t("copyText"));
  copy.type = "button";
  copy.addEventListener("click", () => {
    area.select();
    if (navigator.clipboard) navigator.clipboard.writeText(text).catch(() => document.execCommand("copy"));
    else document.execCommand("copy");
  });
  const download = el("a", "button secondary", t("downloadText"));
  download.href = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
  download.download = `${name}.txt`;
  const actions = el("div", "follow-tools");
  actions.append(copy, download);
  panel.append(area, actions);
  return panel;
}
