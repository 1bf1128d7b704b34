/* Pure: the page's words in the chosen language (words.js). */

import { WORDS } from "../words.js";
import { state } from "./store.js";

export const TEXT = WORDS;

// The page's language now ("vi" or "en"): what typed text is read in (the card picker's suit letters).
export const language = () => (TEXT[state.lang] ? state.lang : "en");

// A word that follows a number: `{n:card|cards}` is "card" when `n` is 1, else "cards" (English
// needs it, "You drew 1 card"; Vietnamese does not: "1 lá", "2 lá").
export const plurals = (text, vars) =>
  text.replace(/\{(\w+):([^|{}]*)\|([^{}]*)\}/gu, (all, name, one, other) => (name in vars ? (Number(vars[name]) === 1 ? one : other) : all));

// `fallback`: the text when neither language has the key (an engine or a rule the server lists
// that this page has no words for: the server's own description).
export function t(key, vars, fallback) {
  const words = TEXT[state.lang] || TEXT.en;
  let text = key in words ? words[key] : TEXT.en[key] ?? fallback ?? key;
  if (vars) {
    text = plurals(text, vars);
    for (const [name, value] of Object.entries(vars)) text = text.split(`{${name}}`).join(String(value));
  }
  return text;
}
