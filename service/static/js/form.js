/* View: the new-game form, built from GET /v1/rules (server-rules.js asks it), and read back. */

import { LEVELS } from "./constants.js";
import { $ } from "./dom.js";
import { t } from "./i18n.js";
import { searches } from "./selectors.js";

const MAX_SEED = 2n ** 63n - 1n; // the API's largest seed

export const chosenLevel = () => {
  const checked = $("levels").querySelector("input[name=level]:checked");
  return checked && LEVELS[checked.value] ? checked.value : "medium";
};

export function readForm(state) {
  const preset = $("preset").value;
  const players = Number($("players").value);
  const level = chosenLevel();
  const expert = $("engine").value; // "": the difficulty chooses
  const engine = expert || LEVELS[level].engine;
  const timeMs = expert ? Number($("time-ms").value) : LEVELS[level].timeMs;
  const seedText = $("seed").value.trim();
  if (seedText !== "" && !/^\d+$/.test(seedText)) throw new Error(t("badSeed"));
  const maxMs = state.limits ? state.limits.time_ms : Infinity; // unknown: the server judges
  if (searches(state, engine) && !(Number.isInteger(timeMs) && timeMs >= 1 && timeMs <= maxMs)) {
    throw new Error(t("badTime", { max: maxMs }));
  }
  // Left blank, the server draws the seed (63 bits) and shows it only once the game is over: a
  // seed deals every hand. Kept as its digits, since JavaScript numbers stop at 2^53.
  const seed = seedText === "" ? null : seedText.replace(/^0+(?=\d)/, "");
  if (seed !== null && BigInt(seed) > MAX_SEED) throw new Error(t("badSeed"));
  const games = Number($("games").value || "1");
  const maxGames = state.limits ? state.limits.match_games : Infinity;
  if (!(Number.isInteger(games) && games >= 1 && games <= maxGames)) throw new Error(t("badGames", { max: maxGames }));
  const options = {};
  for (const box of $("side-rules").querySelectorAll("input[type=checkbox]")) {
    if (box.checked && !box.disabled) options[box.name] = JSON.parse(box.dataset.toggle);
  }
  for (const pick of $("side-rules").querySelectorAll("select")) {
    if (pick.value !== presetValue(state.presets[preset], pick)) options[pick.name] = pick.value;
  }
  return { preset, players, level: expert ? null : level, engine, timeMs, seed, games, options };
}

// The time field's note: which engines it is for (none known yet: no note).
export function showTimeNote(state) {
  const names = Object.values(state.engines).filter((engine) => engine.searches)
    .map((engine) => engine.name.toUpperCase()).join(", ");
  $("time-note").textContent = names ? t("timeNote", { engines: names }) : "";
}

// The form's lists from GET /v1/rules (server-rules.js keepRules has kept them in the state): the
// engines, the side rules a tick switches on, the limits.
export function buildForm(rules, state) {
  labelPresets(state);
  const select = $("engine");
  for (const engine of rules.engine_details || []) {
    const option = document.createElement("option");
    option.value = engine.name;
    option.dataset.i18n = engine.label;
    option.dataset.i18nFallback = engine.name;
    option.textContent = t(engine.label, null, engine.name);
    select.append(option);
  }
  $("side-rules").append(...sideRuleBoxes(rules, "option"));
  if (state.limits) {
    $("time-ms").max = String(state.limits.time_ms);
    $("games").max = String(state.limits.match_games);
  }
  showTimeNote(state);
}

// A tick box for each side rule of GET /v1/rules (an option with a `toggle`), its name and note in
// the page's language: the new-game form's and the table assistant's. The box's `data-toggle` is
// the option's value when ticked, `data-requires` the preset values it needs (syncRuleFields).
// A house rule picked from a list (a choice, its `toggle` the choices offered: who may throw in)
// is a list instead, set to the preset's value (presetValue) until a player picks another.
export function sideRuleBoxes(rules, idPrefix) {
  const boxes = [];
  for (const option of rules.options || []) {
    if (option.toggle === null || option.toggle === undefined) continue;
    const label = document.createElement("label");
    label.className = "check";
    label.id = `${idPrefix}-${option.name}`;
    const input = document.createElement(Array.isArray(option.toggle) ? "select" : "input");
    if (Array.isArray(option.toggle)) {
      for (const value of option.toggle) {
        const choice = document.createElement("option");
        choice.value = value;
        choice.dataset.i18n = `option_${option.name}_${value}`;
        choice.dataset.i18nFallback = value;
        choice.textContent = t(choice.dataset.i18n, null, value);
        input.append(choice);
      }
      input.dataset.default = option.default;
    } else {
      input.type = "checkbox";
      input.dataset.toggle = JSON.stringify(option.toggle);
    }
    input.name = option.name;
    input.dataset.requires = JSON.stringify(option.requires || {});
    const name = document.createElement("b");
    name.dataset.i18n = `option_${option.name}`;
    name.dataset.i18nFallback = option.name;
    name.textContent = t(name.dataset.i18n, null, option.name);
    const note = document.createElement("span");
    note.dataset.i18n = `option_${option.name}_note`;
    note.dataset.i18nFallback = option.description;
    note.textContent = t(note.dataset.i18n, null, option.description);
    const text = document.createElement("span");
    text.append(name, " — ", note);
    label.append(input, text);
    boxes.push(label);
  }
  return boxes;
}

// A picked house rule's value in a preset (GET /v1/rules' `presets`), else the option's default.
export const presetValue = (preset, pick) => (preset && pick.name in preset ? preset[pick.name] : pick.dataset.default);

// Whether a side rule's box is off for a preset: it needs option values the preset does not have.
export const ruleUnavailable = (box, preset) =>
  Object.entries(JSON.parse(box.dataset.requires || "{}")).some(([name, value]) => preset[name] !== value);

// The side rules as a fieldset for a set-up form (the table assistant's, the analysis board's):
// `options` (name -> value, changed in place) says which are ticked, a rule the `preset` cannot have
// is off, and `onChange()` follows each tick.
export function sideRulesFieldset(rules, preset, options, idPrefix, onChange) {
  const box = document.createElement("fieldset");
  box.className = "field side-rules";
  box.id = `${idPrefix}-side-rules`;
  const legend = document.createElement("legend");
  legend.textContent = t("sideRules");
  box.append(legend, ...sideRuleBoxes(rules, `${idPrefix}-option`));
  for (const tick of box.querySelectorAll("input[type=checkbox]")) {
    tick.disabled = ruleUnavailable(tick, preset);
    if (tick.disabled) delete options[tick.name];
    tick.checked = tick.name in options && JSON.stringify(options[tick.name]) === tick.dataset.toggle;
    tick.closest("label").classList.toggle("disabled", tick.disabled);
    tick.addEventListener("change", () => {
      if (tick.checked) options[tick.name] = JSON.parse(tick.dataset.toggle); else delete options[tick.name];
      onChange();
    });
  }
  for (const pick of box.querySelectorAll("select")) {
    pick.value = options[pick.name] ?? presetValue(preset, pick);
    pick.addEventListener("change", () => {
      if (pick.value === presetValue(preset, pick)) delete options[pick.name]; else options[pick.name] = pick.value;
      onChange();
    });
  }
  return box;
}

// The rules a set-up form says: the preset's name, or the preset and the options changed.
export const rulesOf = (preset, options) => (Object.keys(options).length ? { preset, ...options } : preset);

// Each preset's name with its deck, as GET /v1/rules gives it (before it answers: the name alone).
export function labelPresets(state) {
  for (const option of $("preset").options) {
    const preset = state.presets[option.value];
    const name = t(option.dataset.i18n, null, option.value);
    option.textContent = preset && preset.deck ? t("presetDeck", { name, n: preset.deck }) : name;
  }
}

export function fillPlayers(state) {
  const preset = $("preset").value;
  const [low, high] = state.playersRange[preset] || [1, 0]; // none until GET /v1/rules answers
  const select = $("players");
  const before = Number(select.value) || 2;
  select.replaceChildren();
  for (let n = low; n <= high; n++) {
    const option = document.createElement("option");
    option.value = String(n);
    option.textContent = String(n);
    select.append(option);
  }
  select.value = String(Math.min(Math.max(before, low), high));
}

// A side rule that needs other options (twos_last: the 52-card deck) is off where the preset
// has other values.
export function syncRuleFields(state) {
  const preset = state.presets[$("preset").value] || {};
  for (const box of $("side-rules").querySelectorAll("input[type=checkbox]")) {
    box.disabled = ruleUnavailable(box, preset);
    box.closest("label").classList.toggle("disabled", box.disabled);
  }
}

export function syncEngineFields(state) {
  const expert = $("engine").value;
  $("time-ms").disabled = !searches(state, expert);
  $("levels").classList.toggle("overridden", !!expert);
  $("level-note").textContent = expert ? t("levelOverridden") : t("levelNote_" + chosenLevel());
}
