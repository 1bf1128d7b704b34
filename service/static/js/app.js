/* Wiring: Tấn — play bài Tấn / Durak against the engines, with hints — the page's entry module.
 *
 * Plain ES modules, no build step and nothing fetched from elsewhere: the page talks only to this
 * service's API (docs/api.md §3). The human is seat 0; the game's id and token live in
 * localStorage, so the game survives a reload, a second tab and a browser restart; the chosen
 * language, the pace of the engines' moves and the form's last choices are kept there too.
 *
 * Wiring: data flows one way. Actions (play, playback, hint, review, session, tracker, busy) call
 * the API and change the store (store.js); the store tells this module, which draws the views
 * (render(state, handlers) and the panels); a view's click or a key calls a handler below, which
 * calls an action. No action draws, and no view imports an action.
 */

import { busyWith } from "./busy.js";
import { GAME_KEY, LANG_KEY, LEVELS, MOVED_KEY, SETUP_KEY } from "./constants.js";
import { $ } from "./dom.js";
import { focusAfter, keepFocus } from "./focus.js";
import {
  buildForm, fillPlayers, labelPresets, presetValue, readForm, showTimeNote, syncEngineFields, syncRuleFields,
} from "./form.js";
import { foldHint, showThinking } from "./hint-panel.js";
import { askHint, canAskHint, dismissHint } from "./hint.js";
import { t, TEXT } from "./i18n.js";
import { onKey } from "./keys.js";
import { clearMessage, renderRetry, showError, showMessage } from "./messages.js";
import { initModes } from "./modes.js";
import { announce, step } from "./motion.js";
import { clickCard, closeChooser, dropCard, dropChooser, playAction, playMove, refreshGame, transfer } from "./play.js";
import { choosePace, PACE_KEY, resumeMatch, skipPlayback } from "./playback.js";
import { render } from "./render.js";
import { boardInView, chosenGame, renderReviewProgress, showGameText } from "./review-panel.js";
import { closeReview, gameText, openReview, reopenReview, stepDecision, stepMistake, stepReview } from "./review.js";
import { showGameScreen, showSetupScreen } from "./screens.js";
import { keepRules, serverRules } from "./server-rules.js";
import { resume, savedGame, startGame } from "./session.js";
import { storage } from "./storage.js";
import { state, subscribe } from "./store.js";
import { fitHand } from "./table.js";
import { foldTracker, renderTracker, TRACKER_KEY } from "./tracker-panel.js";
import { refreshTracker } from "./tracker.js";

// What the views' clicks and the keys do: an action, and the moment's own touch of the page.
const handlers = {
  playMove,
  clickCard,
  dropCard,
  playAction,
  transfer,
  closeChooser,
  skipPlayback,
  stepReview,
  stepDecision,
  stepMistake,
  closeReview,
  openReview,
  askHint() {
    if (!canAskHint()) return;
    showThinking();
    askHint();
  },
  closeHint() {
    dismissHint();
    foldHint();
  },
  showSetup() {
    dropChooser();
    showSetupScreen(!!state.game || !!savedGame());
  },
  showGame() {
    showGameScreen(redraw);
    keepFocus(state);
  },
  async showGameText() {
    try {
      const text = await gameText();
      if (text !== null) showGameText(text);
    } catch (error) { showError(error); }
  },
};

// The game drawn anew from the state (the body marked while a request is on its way); the card
// tracker asked for once the view is shown, never while a move is on its way.
function redraw() {
  document.body.classList.toggle("busy", !!state.busy);
  if (state.busy) document.body.setAttribute("aria-busy", "true");
  else document.body.removeAttribute("aria-busy");
  render(state, handlers);
  if (state.game && !state.busy) refreshTracker();
}

// Each change of the store drawn (store.js says what each event asks for).
function draw(_state, event) {
  if (event.say) announce(event.say);
  else if (event.error) showError(event.error);
  else if ("message" in event) {
    if (event.message === null) clearMessage(); else showMessage(event.message, event.kind);
  } else if (event.retrying) renderRetry(state);
  else if (event.progress) renderReviewProgress(state);
  else if (event.tracker) renderTracker(state);
  else if (event.backToGame) $("back-to-game").hidden = !savedGame();
  else if (event.reveal === "board") boardInView(state);
  else if (event.screen === "game") handlers.showGame();
  else {
    if (event.step !== undefined) step(state, event.step, redraw);
    else redraw();
    focusAfter(state, event);
  }
}

export function setPace(pace) {
  choosePace(pace);
  $("pace").value = state.pace;
}

export function setLanguage(lang) {
  state.lang = TEXT[lang] ? lang : "en";
  storage.set("localStorage", LANG_KEY, state.lang);
  document.documentElement.lang = state.lang;
  $("lang").value = state.lang;
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n, null, el.dataset.i18nFallback);
  for (const el of document.querySelectorAll("[data-i18n-label]")) el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  for (const el of document.querySelectorAll("[data-i18n-placeholder]")) el.placeholder = t(el.dataset.i18nPlaceholder);
  document.title = state.lang === "vi" ? "Tấn — chơi bài Tấn / Durak" : "Tấn — play bài Tấn / Durak";
  showTimeNote(state);
  labelPresets(state);
  redraw();
}

// The form's lists come from GET /v1/rules; then the last choices that need them are put back.
export async function loadForm() {
  try {
    const rules = await serverRules();
    keepRules(rules);
    buildForm(rules, state);
  } catch (error) {
    showError(error); // the difficulties still choose an engine; the server judges the rest
  }
  fillPlayers(state);
  restoreLists();
}

// The form's last choices that need no list from the server, at once; the rest after loadForm.
export function restoreForm() {
  let saved = null;
  try { saved = JSON.parse(storage.get("localStorage", SETUP_KEY) || "null"); } catch { saved = null; }
  state.saved = saved && typeof saved === "object" ? saved : null;
  if (state.saved) {
    if (saved.preset) $("preset").value = saved.preset;
    if (saved.level && LEVELS[saved.level]) $("level-" + saved.level).checked = true;
    if (saved.games) $("games").value = String(saved.games);
  }
  syncEngineFields(state);
  syncRuleFields(state);
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
    for (const pick of $("side-rules").querySelectorAll("select")) {
      pick.value = options[pick.name] ?? presetValue(state.presets[$("preset").value], pick);
    }
  }
  syncEngineFields(state);
  syncRuleFields(state);
}

export function init() {
  subscribe(draw);
  const stored = storage.get("localStorage", LANG_KEY);
  const guess = (navigator.language || "").toLowerCase().startsWith("vi") ? "vi" : "en";
  setLanguage(stored && TEXT[stored] ? stored : guess);

  fillPlayers(state);
  restoreForm();
  $("preset").addEventListener("change", () => { fillPlayers(state); syncRuleFields(state); });
  $("engine").addEventListener("change", () => syncEngineFields(state));
  for (const radio of $("levels").querySelectorAll("input[name=level]")) radio.addEventListener("change", () => syncEngineFields(state));
  $("lang").addEventListener("change", (event) => setLanguage(event.target.value));
  setPace(storage.get("localStorage", PACE_KEY) || "normal");
  $("pace").addEventListener("change", (event) => setPace(event.target.value));
  $("table").addEventListener("click", skipPlayback);
  $("setup-form").addEventListener("submit", (event) => {
    event.preventDefault();
    let setup;
    try { setup = readForm(state); } catch (error) { showError(error); return; }
    startGame(setup);
  });
  $("message-close").addEventListener("click", clearMessage);
  $("take-button").addEventListener("click", () => playAction("take"));
  $("pass-button").addEventListener("click", () => playAction("pass"));
  $("transfer-button").addEventListener("click", transfer);
  $("hint-button").addEventListener("click", handlers.askHint);
  $("hint-close").addEventListener("click", handlers.closeHint);
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
  $("new-game-top").addEventListener("click", handlers.showSetup);
  $("new-game-over").addEventListener("click", handlers.showSetup);
  $("next-game").addEventListener("click", () => busyWith(resumeMatch));
  $("back-to-game").addEventListener("click", () => { if (state.game) handlers.showGame(); else resume(); });
  window.addEventListener("storage", (event) => {
    if (event.key === GAME_KEY || event.key === MOVED_KEY) refreshGame($("game").hidden);
  });
  document.addEventListener("visibilitychange", () => { if (!document.hidden) refreshGame($("game").hidden); });
  $("replay").addEventListener("click", () => {
    if (state.setup && state.game && typeof state.game.seed === "string") startGame({ ...state.setup, seed: state.game.seed });
  });
  $("review-button").addEventListener("click", () => openReview(chosenGame()));
  $("text-button").addEventListener("click", handlers.showGameText);
  $("review-close").addEventListener("click", closeReview);
  $("review-prev").addEventListener("click", () => stepDecision(-1));
  $("review-next").addEventListener("click", () => stepDecision(1));
  $("review-mistake").addEventListener("click", stepMistake);
  foldTracker(storage.get("localStorage", TRACKER_KEY) === "closed");
  $("tracker-toggle").addEventListener("click", () => {
    const folded = $("tracker-toggle").getAttribute("aria-expanded") === "true";
    foldTracker(folded);
    storage.set("localStorage", TRACKER_KEY, folded ? "closed" : null);
  });
  document.addEventListener("keydown", (event) => onKey(event, handlers));

  loadForm(); // the engines, side rules, seat ranges and limits
  // The play mode carries on its game (and the review this tab had open); the assistant and board their own.
  if (initModes()) resume().then(reopenReview);
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
else init();
