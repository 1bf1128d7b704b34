/* View: a game's text, to read, copy or download — the same panel for every mode. */

import { el } from "./faces.js";
import { t } from "./i18n.js";

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
