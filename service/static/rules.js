/* Wiring: the rules page of Tấn (a classic script, not a module) — shows the rule book in the
 * language the game page uses (kept in localStorage under "tan.lang"), and switches it. */
"use strict";

(() => {
  const LANG_KEY = "tan.lang";
  const TITLES = { vi: "Luật chơi — Tấn / Durak", en: "Rules — Tấn / Durak" };

  function stored() {
    try { return window.localStorage.getItem(LANG_KEY); } catch { return null; }
  }

  function show(lang) {
    const chosen = TITLES[lang] ? lang : "en";
    for (const article of document.querySelectorAll("article[data-lang]")) article.hidden = article.dataset.lang !== chosen;
    document.documentElement.lang = chosen;
    document.title = TITLES[chosen];
    document.getElementById("lang").value = chosen;
    try { window.localStorage.setItem(LANG_KEY, chosen); } catch { /* storage unavailable */ }
  }

  function init() {
    const guess = (navigator.language || "").toLowerCase().startsWith("vi") ? "vi" : "en";
    show(stored() || guess);
    document.getElementById("lang").addEventListener("change", (event) => show(event.target.value));
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
