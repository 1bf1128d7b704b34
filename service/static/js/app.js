/* Tấn — play bài Tấn / Durak against the engines, with hints: the page's entry module.
 *
 * Plain ES modules, no build step and nothing fetched from elsewhere: the page talks only to this
 * service's API (docs/api.md §3). The human is seat 0; the game's id and token live in
 * localStorage, so the game survives a reload, a second tab and a browser restart; the chosen
 * language, the pace of the engines' moves and the form's last choices are kept there too.
 * This module wires the page's controls and starts it; each panel has its own module.
 */

import { busyWith } from "./busy.js";
import { buildForm, fillPlayers, labelPresets, readForm, serverRules, showTimeNote, syncEngineFields, syncRuleFields } from "./form.js";
import { askHint, closeHint } from "./hint.js";
import { t, TEXT } from "./i18n.js";
import { onKey } from "./keys.js";
import { clearMessage, showError } from "./messages.js";
import { initModes } from "./modes.js";
import { actionMove, closeChooser, playMove, refreshGame, transfer } from "./play.js";
import { PACE_KEY, resumeMatch, setPace, skipPlayback } from "./playback.js";
import { render } from "./render.js";
import { chosenGame, closeReview, openReview, showGameText, stepReview } from "./review.js";
import { resume, showGame, showSetup, startGame } from "./session.js";
import { $, GAME_KEY, LANG_KEY, LEVELS, MOVED_KEY, SETUP_KEY, state, store } from "./state.js";
import { fitHand } from "./table.js";
import { foldTracker, TRACKER_KEY } from "./tracker.js";

export function setLanguage(lang) {
  state.lang = TEXT[lang] ? lang : "en";
  store.set("localStorage", LANG_KEY, state.lang);
  document.documentElement.lang = state.lang;
  $("lang").value = state.lang;
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n, null, el.dataset.i18nFallback);
  for (const el of document.querySelectorAll("[data-i18n-label]")) el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  for (const el of document.querySelectorAll("[data-i18n-placeholder]")) el.placeholder = t(el.dataset.i18nPlaceholder);
  document.title = state.lang === "vi" ? "Tấn — chơi bài Tấn / Durak" : "Tấn — play bài Tấn / Durak";
  showTimeNote();
  labelPresets();
  render();
}

// The form's lists come from GET /v1/rules; then the last choices that need them are put back.
export async function loadForm() {
  try {
    buildForm(await serverRules());
  } catch (error) {
    showError(error); // the difficulties still choose an engine; the server judges the rest
  }
  fillPlayers();
  restoreLists();
}

// The form's last choices that need no list from the server, at once; the rest after loadForm.
export function restoreForm() {
  let saved = null;
  try { saved = JSON.parse(store.get("localStorage", SETUP_KEY) || "null"); } catch { saved = null; }
  state.saved = saved && typeof saved === "object" ? saved : null;
  if (state.saved) {
    if (saved.preset) $("preset").value = saved.preset;
    if (saved.level && LEVELS[saved.level]) $("level-" + saved.level).checked = true;
    if (saved.games) $("games").value = String(saved.games);
  }
  syncEngineFields();
  syncRuleFields();
}

export function restoreLists() {
  const saved = state.saved;
  if (saved) {
    if (saved.players) $("players").value = String(saved.players);
    if (!(saved.level && LEVELS[saved.level]) && saved.engine) {
      $("engine").value = saved.engine;
      if (saved.timeMs) $("time-ms").value = String(saved.timeMs);
      $("advanced").open = true;
    }
    const options = saved.options || {};
    for (const box of $("side-rules").querySelectorAll("input[type=checkbox]")) box.checked = !!options[box.name];
  }
  syncEngineFields();
  syncRuleFields();
}

export function init() {
  const stored = store.get("localStorage", LANG_KEY);
  const guess = (navigator.language || "").toLowerCase().startsWith("vi") ? "vi" : "en";
  setLanguage(stored && TEXT[stored] ? stored : guess);

  fillPlayers();
  restoreForm();
  $("preset").addEventListener("change", () => { fillPlayers(); syncRuleFields(); });
  $("engine").addEventListener("change", syncEngineFields);
  for (const radio of $("levels").querySelectorAll("input[name=level]")) radio.addEventListener("change", syncEngineFields);
  $("lang").addEventListener("change", (event) => setLanguage(event.target.value));
  setPace(store.get("localStorage", PACE_KEY) || "normal");
  $("pace").addEventListener("change", (event) => setPace(event.target.value));
  $("table").addEventListener("click", skipPlayback);
  $("setup-form").addEventListener("submit", (event) => {
    event.preventDefault();
    let setup;
    try { setup = readForm(); } catch (error) { showError(error); return; }
    startGame(setup);
  });
  $("message-close").addEventListener("click", clearMessage);
  $("take-button").addEventListener("click", () => { const m = actionMove("take"); if (m) playMove(m); });
  $("pass-button").addEventListener("click", () => { const m = actionMove("pass"); if (m) playMove(m); });
  $("transfer-button").addEventListener("click", transfer);
  $("hint-button").addEventListener("click", askHint);
  $("hint-close").addEventListener("click", closeHint);
  // On a phone the hand and the action bar are fixed at the bottom: the page keeps room for them.
  if (typeof ResizeObserver === "function") {
    new ResizeObserver(() => {
      document.documentElement.style.setProperty("--dock-h", `${$("dock").offsetHeight}px`);
    }).observe($("dock"));
  }
  // The hand is fanned to its width: again when that changes (a phone turned, the dock shown).
  if (typeof ResizeObserver === "function") {
    let fitted = 0;
    new ResizeObserver(() => {
      if ($("hand").clientWidth !== fitted) { fitted = $("hand").clientWidth; fitHand(); }
    }).observe($("hand"));
  }
  $("chooser-cancel").addEventListener("click", closeChooser);
  $("new-game-top").addEventListener("click", showSetup);
  $("new-game-over").addEventListener("click", showSetup);
  $("next-game").addEventListener("click", () => busyWith(resumeMatch));
  $("back-to-game").addEventListener("click", () => { if (state.game) showGame(); else resume(); });
  window.addEventListener("storage", (event) => {
    if (event.key === GAME_KEY || event.key === MOVED_KEY) refreshGame();
  });
  document.addEventListener("visibilitychange", () => { if (!document.hidden) refreshGame(); });
  $("replay").addEventListener("click", () => {
    if (state.setup && state.game && typeof state.game.seed === "string") startGame({ ...state.setup, seed: state.game.seed });
  });
  $("review-button").addEventListener("click", () => openReview(chosenGame()));
  $("text-button").addEventListener("click", showGameText);
  $("review-close").addEventListener("click", closeReview);
  $("review-prev").addEventListener("click", () => { if (state.review) stepReview(state.review.at - 1); });
  $("review-next").addEventListener("click", () => { if (state.review) stepReview(state.review.at + 1); });
  foldTracker(store.get("localStorage", TRACKER_KEY) === "closed");
  $("tracker-toggle").addEventListener("click", () => {
    const folded = $("tracker-toggle").getAttribute("aria-expanded") === "true";
    foldTracker(folded);
    store.set("localStorage", TRACKER_KEY, folded ? "closed" : null);
  });
  document.addEventListener("keydown", onKey);

  loadForm(); // the engines, side rules, seat ranges and limits
  if (initModes()) resume(); // the play mode carries on its game; the assistant and board their own
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
else init();
