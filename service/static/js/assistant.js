/* Mode: the table assistant (its own view, actions and wiring, over follow.js) — follow a real
 * game at a table from your seat, with hints on the way.
 *
 * First the deal as you saw it — the rules, the seats, your seat, your hand, the trump card and
 * who leads — then every move at the table as it happens, and your own draws; the follower
 * (follow.js) offers only what POST /v1/next says can have happened. The game is kept in
 * localStorage after every accepted entry, so a reload or a new tab carries on, and on the server
 * under a secret id (PUT /v1/followed/{id}), so its link (`#assistant/{id}`) opens it on another
 * device or after the browser lost it.
 */

import { api } from "./api.js";
import { SUIT_GLYPH } from "./constants.js";
import { dealtGame, gameOfFollowed, importedGame, newFollowedId, nextBody, readGame, recordOf } from "./entry.js";
import { cardChip, choice, el } from "./faces.js";
import { createFollower } from "./follow.js";
import { rulesOf, sideRulesFieldset } from "./form.js";
import { t } from "./i18n.js";
import { showError, showMessage } from "./messages.js";
import { cardPicker } from "./picker.js";
import { reviewStepOnBoard } from "./board.js";
import { convertRecord, pastedRecord, reviewRecord } from "./records.js";
import { recordReviewPanel } from "./record-review.js";
import { storage } from "./storage.js";
import { state } from "./store.js";
import { serverRules } from "./server-rules.js";
import { gameTextPanel } from "./text-panel.js";

export const ASSISTANT_KEY = "tan.assistant"; // the followed game, as entry.js keeps it



const section = () => document.getElementById("assistant");
let follower = null;
// The deal being entered: {preset, players, seat, leader, hand, trump, picking, options (the side
// rules ticked: name -> value), match (null, or a match game's {game, dealer, winner, loser, tribute})}.
let form = null;
let kept = null; // {id, entries, ok}: what the server last kept of the game shown
let exported = null; // {game, text}: the game shown as text (docs/notation.md), until the next entry
let reviewed = null; // {game, data: POST /v1/analyze's review, at: the decision shown} of a finished game
let reviewing = null; // {game, progress: {done, total}}: its review's job, while it runs

// Keep the game here and on the server; a server that cannot keep it now is said, not an error:
// the next entry tries again.
function keep(game) {
  storage.set("localStorage", ASSISTANT_KEY, JSON.stringify(game));
  if (!game.id) return;
  api("PUT", `/v1/followed/${encodeURIComponent(game.id)}`, nextBody(game), { retry: ["busy"] })
    .then(() => { kept = { id: game.id, entries: game.events.length, ok: true }; })
    .catch(() => { kept = { id: game.id, entries: game.events.length, ok: false }; })
    .finally(() => { if (follower && follower.game === game) showKept(); });
}

// The note of where the game is kept, put in place alone: the rest of the view (a card being
// typed, say) is left as it is.
function showKept() {
  const view = section().querySelector(".follow-view");
  const note = keptNote(follower);
  if (!view || !note) return;
  const old = view.querySelector(".follow-kept");
  if (old) old.replaceWith(note);
  else view.querySelector(".follow-status")?.after(note);
}

// Where the game is kept: its link once the server has it.
function keptNote(self) {
  if (!self.game || !self.game.id || !kept || kept.id !== self.game.id) return null;
  const line = el("p", "small muted follow-kept");
  if (!kept.ok) { line.textContent = t("keptNot"); return line; }
  const link = el("a", "", t("keptLink"));
  link.href = `${location.origin}${location.pathname}#assistant/${self.game.id}`;
  link.id = "assistant-link";
  line.append(document.createTextNode(t("keptOn") + " "), link);
  return line;
}

export const savedAssistantGame = () => readGame(storage.get("localStorage", ASSISTANT_KEY) || "null");

// Open the mode: the game of the link's id (kept on the server), else the game kept in this
// browser, else the deal's form.
export async function openAssistant(actions = () => [], id = null) {
  const root = section();
  if (!follower) {
    follower = createFollower({
      root,
      onChange: keep,
      actions: (self) => [...actions(self), reviewButton(self), textButton(self), newGameButton()].filter(Boolean),
      note: (self) => [keptNote(self), exported && exported.game === self.game ? gameTextPanel(exported.text, "tan-game", "assistant-text") : null,
        reviewNote(self)],
    });
  }
  if (id && !(follower.game && follower.game.id === id)) {
    let answer = null;
    try { answer = await api("GET", `/v1/followed/${encodeURIComponent(id)}`, undefined, { retry: ["busy", "network"] }); } catch (error) { showError(error); }
    if (answer && await follower.load(gameOfFollowed(answer))) {
      storage.set("localStorage", ASSISTANT_KEY, JSON.stringify(follower.game));
      kept = { id, entries: follower.game.events.length, ok: true };
      showFollowing();
      follower.render();
      return;
    }
  }
  const saved = savedAssistantGame();
  if (follower.game) { showFollowing(); follower.render(); return; }
  if (saved && await follower.load(saved)) { showFollowing(); return; }
  await showForm();
}

// The language changed: words drawn again.
export function redrawAssistant() {
  if (follower && follower.answer && !section().querySelector(".deal-form:not([hidden])")) follower.render();
  else if (form) drawForm();
}

// The game so far as text, to copy or download (POST /v1/records/convert writes it).
function textButton(self) {
  const b = el("button", "secondary", t("gameAsText"));
  b.type = "button";
  b.dataset.role = "as-text";
  b.disabled = !self.game || self.busy;
  b.addEventListener("click", async () => {
    const game = self.game;
    try {
      const answer = await convertRecord(recordOf(game));
      exported = { game, text: answer.text };
      if (follower.game === game) follower.render();
    } catch (error) { showError(error); }
  });
  return b;
}

// -- the review of a finished game ---------------------------------------------------------------

// "Review this game", once the game is over (the server gave its scores): the record's seat's
// decisions reviewed as a game against the engines is (POST /v1/analyze, records.js).
function reviewButton(self) {
  const over = !!(self.game && self.game.kind === "record" && self.answer && self.answer.scores);
  if (!over) return null;
  const b = el("button", "primary", t("review"));
  b.type = "button";
  b.dataset.role = "review";
  b.disabled = self.busy || !!reviewing;
  b.addEventListener("click", () => reviewFinished(self));
  return b;
}

async function reviewFinished(self) {
  const game = self.game;
  if (reviewed && reviewed.game === game) { reviewed.at = 0; self.render(); return; }
  reviewing = { game, progress: null };
  self.render();
  try {
    const data = await reviewRecord(recordOf(game), (progress) => {
      reviewing = { game, progress };
      if (follower.game === game) self.render();
    });
    reviewed = { game, data, at: 0 };
  } catch (error) {
    showError(error);
  } finally {
    reviewing = null;
    if (follower.game === game) self.render();
  }
}

// The review under the status: its progress while its job runs, then its panel.
function reviewNote(self) {
  if (reviewing && reviewing.game === self.game) {
    const progress = reviewing.progress;
    const line = el("p", "small review-progress-note", progress ? t("reviewProgress", { n: progress.done, of: progress.total }) : t("reviewStarting"));
    line.setAttribute("aria-live", "polite");
    return line;
  }
  if (!reviewed || reviewed.game !== self.game) return null;
  return recordReviewPanel({
    review: reviewed,
    bounds: state.reviewBounds,
    busy: self.busy,
    onStep: (index) => {
      reviewed.at = Math.max(0, Math.min(reviewed.data.moves.length - 1, index));
      self.render();
    },
    onBoard: (entry) => {
      reviewStepOnBoard(entry, { names: "table" }); // first: the board's mode then waits for it
      location.hash = "#board";
    },
  });
}

// A game opened from its text (or its JSON record), pasted: followed on from where it ends.
function importBox() {
  const box = el("details", "import-game");
  box.append(el("summary", "", t("importTitle")));
  const area = el("textarea", "game-text-area");
  area.id = "assistant-import-text";
  area.rows = 6;
  area.placeholder = t("importNote");
  area.setAttribute("aria-label", t("importTitle"));
  area.value = form.importText || "";
  area.addEventListener("input", () => { form.importText = area.value; });
  box.open = !!form.importText;
  const open = el("button", "secondary", t("importOpen"));
  open.type = "button";
  open.id = "assistant-import";
  open.addEventListener("click", async () => {
    let answer = null;
    try { answer = await convertRecord(pastedRecord(area.value)); } catch (error) { showError(error); return; }
    const game = importedGame(answer.record, newFollowedId());
    if (await follower.load(game)) {
      keep(game);
      showFollowing();
    }
  });
  box.append(area, open);
  return box;
}

function newGameButton() {
  const b = el("button", "secondary", t("newTableGame"));
  b.type = "button";
  b.dataset.role = "new";
  b.addEventListener("click", () => {
    storage.set("localStorage", ASSISTANT_KEY, null);
    follower.game = follower.answer = null;
    section().querySelector(".follow-view")?.remove();
    showForm();
  });
  return b;
}

function showFollowing() {
  const formBox = section().querySelector(".deal-form");
  if (formBox) formBox.hidden = true;
}

async function showForm() {
  let rules;
  try { rules = await serverRules(); } catch (error) { showError(error); return; }
  if (!form) form = { preset: "tan", players: 2, seat: 0, leader: 0, hand: [], trump: null, picking: "hand", options: {}, match: null, rules };
  form.rules = rules;
  drawForm();
}

function drawForm() {
  const root = section();
  let box = root.querySelector(".deal-form");
  if (!box) { box = el("form", "panel deal-form"); box.noValidate = true; root.prepend(box); }
  box.hidden = false;
  const presets = form.rules.presets;
  const preset = presets[form.preset];
  const deck = form.rules.decks[String(preset.deck)];
  form.hand = form.hand.filter((card) => deck.includes(card)).slice(0, preset.hand_size);
  if (form.trump && !deck.includes(form.trump)) form.trump = null;

  const select = (id, label, values, chosen, onChange) => {
    const field = el("div", "field");
    const name = el("label", "", label);
    name.htmlFor = id;
    const input = choice(id, values, chosen, (value) => { onChange(value); drawForm(); });
    field.append(name, input);
    return field;
  };
  const seats = [...Array(form.players).keys()].map((seat) => [seat, t("tableSeat", { n: seat + 1 })]);
  const fields = el("div", "deal-fields");
  fields.append(
    select("assistant-preset", t("preset"), Object.keys(presets).map((name) => [name, t("preset_" + name, null, name)]), form.preset,
      (value) => { form.preset = value; form.players = Math.min(Math.max(form.players, presets[value].min_players), presets[value].max_players); }),
    select("assistant-players", t("players"),
      [...Array(preset.max_players - preset.min_players + 1).keys()].map((i) => [i + preset.min_players, String(i + preset.min_players)]),
      form.players, (value) => { form.players = Number(value); form.seat = Math.min(form.seat, form.players - 1); form.leader = Math.min(form.leader, form.players - 1); }),
    select("assistant-seat", t("yourSeat"), seats, form.seat, (value) => { form.seat = Number(value); }),
    select("assistant-leader", t("whoLeads"), seats, form.leader, (value) => { form.leader = Number(value); }),
  );

  const cardsLine = (what, cards, max) => {
    const line = el("div", "deal-cards");
    line.dataset.field = what;
    const chosen = el("span", "mini-cards inline");
    for (const card of cards) {
      chosen.append(cardChip(card, () => {
        if (what === "hand") form.hand = form.hand.filter((c) => c !== card); else form.trump = null;
        form.picking = what;
        drawForm();
      }));
    }
    const pick = el("button", form.picking === what ? "primary" : "secondary", t(what === "hand" ? "pickHand" : "pickTrump", { n: cards.length, of: max }));
    pick.type = "button";
    pick.dataset.role = `pick-${what}`;
    pick.setAttribute("aria-pressed", String(form.picking === what));
    pick.addEventListener("click", () => { form.picking = what; drawForm(); });
    line.append(pick, chosen);
    return line;
  };

  // The side rules, as the new-game form offers them; one a preset cannot have is off.
  const sideRules = sideRulesFieldset(form.rules, preset, form.options, "assistant", drawForm);
  const matchLine = el("label", "check");
  const inMatch = el("input");
  inMatch.type = "checkbox";
  inMatch.id = "assistant-match";
  inMatch.checked = !!form.match;
  inMatch.addEventListener("change", () => {
    form.match = inMatch.checked ? { game: 2, dealer: 0, winner: null, loser: null, tribute: false, suits: ["s"] } : null;
    drawForm();
  });
  matchLine.append(inMatch, el("span", "", t("matchGame")));
  sideRules.append(matchLine);
  if (form.match) sideRules.append(matchFields(seats));

  const taken = [...form.hand, ...(form.trump ? [form.trump] : [])];
  const picker = cardPicker({
    cards: deck,
    picked: taken,
    id: "assistant-picker",
    label: t(form.picking === "hand" ? "pickHand" : "pickTrump", { n: form.picking === "hand" ? form.hand.length : form.trump ? 1 : 0, of: form.picking === "hand" ? preset.hand_size : 1 }),
    onPick: (card) => {
      if (form.picking === "trump") { form.trump = card; if (form.hand.length < preset.hand_size) form.picking = "hand"; }
      else if (form.hand.length < preset.hand_size) {
        form.hand = [...form.hand, card];
        if (form.hand.length === preset.hand_size && !form.trump) form.picking = "trump";
      } else { showMessage(t("handFull", { n: preset.hand_size })); return; }
      drawForm();
      document.querySelector("#assistant-picker .picker-input")?.focus({ preventScroll: true });
    },
    onRefuse: (text) => showMessage(t("cardPlaced", { what: text })),
  });
  const start = el("button", "primary", t("followStart"));
  start.type = "submit";
  start.id = "assistant-start";
  const title = el("h2", "", t("modeAssistant"));
  box.replaceChildren(title, el("p", "intro", t("assistantIntro")), fields, sideRules,
    cardsLine("hand", form.hand, preset.hand_size), cardsLine("trump", form.trump ? [form.trump] : [], 1), picker, start, importBox());
  box.onsubmit = (event) => {
    event.preventDefault();
    if (form.hand.length !== preset.hand_size || !form.trump) { showMessage(t("dealIncomplete", { n: preset.hand_size })); return; }
    const dealt = dealtGame({ rules: rulesOf(form.preset, form.options), players: form.players, seat: form.seat, hand: form.hand, trump: form.trump, first_attacker: form.leader, match: matchOf(form.match) });
    const game = { ...dealt, id: newFollowedId() };
    follower.load(game).then((done) => {
      if (!done) return; // refused: the form stays as it is, with the server's reason shown
      keep(game);
      showFollowing();
    });
  };
}

// A match game's fields: its number, dealer, the last game's winner and loser, and whether a
// tribute is owed (as the person saw the match go; the server checks it against the rules).
function matchFields(seats) {
  const box = el("div", "deal-fields match-fields");
  const nobody = [["", t("nobody")], ...seats];
  const field = (id, label, input) => {
    const line = el("div", "field");
    const name = el("label", "", label);
    name.htmlFor = id;
    line.append(name, input);
    return line;
  };
  const number = el("input");
  number.type = "number";
  number.id = "assistant-match-game";
  number.min = "2";
  number.value = String(form.match.game);
  number.max = String(form.rules.limits ? form.rules.limits.match_games : 2);
  number.addEventListener("change", () => {
    form.match.game = Math.min(Math.max(2, Math.floor(Number(number.value)) || 2), Number(number.max) || 2);
    form.match.suits = [...Array(form.match.game - 1).keys()].map((i) => form.match.suits[i] || "s");
    drawForm();
  });
  const seatOrNull = (value) => (value === "" ? null : Number(value));
  box.append(
    field("assistant-match-game", t("matchNumber"), number),
    field("assistant-dealer", t("matchDealer"), choice("assistant-dealer", seats, form.match.dealer, (value) => { form.match.dealer = Number(value); drawForm(); })),
    field("assistant-winner", t("lastWinner"), choice("assistant-winner", nobody, form.match.winner ?? "", (value) => { form.match.winner = seatOrNull(value); drawForm(); })),
    field("assistant-loser", t("lastLoser"), choice("assistant-loser", nobody, form.match.loser ?? "", (value) => { form.match.loser = seatOrNull(value); drawForm(); })),
  );
  // The trump suit of each earlier game (the match block's `trump_suits`, for the trump repeat).
  const suits = Object.entries(SUIT_GLYPH);
  form.match.suits.forEach((suit, i) => {
    box.append(field(`assistant-suit-${i + 1}`, t("earlierTrump", { n: i + 1 }),
      choice(`assistant-suit-${i + 1}`, suits, suit, (value) => { form.match.suits[i] = value; })));
  });
  if (form.options.tribute) {
    const owed = el("label", "check");
    const tick = el("input");
    tick.type = "checkbox";
    tick.id = "assistant-tribute";
    tick.checked = form.match.tribute;
    tick.addEventListener("change", () => { form.match.tribute = tick.checked; });
    owed.append(tick, el("span", "", t("tributeOwed")));
    box.append(owed);
  }
  return box;
}

// The record's match block and tribute owed (docs/api.md §2.3) from a match game's fields.
function matchOf(match) {
  if (!match) return null;
  const block = { game: match.game, dealer: match.dealer, previous_winner: match.winner, previous_loser: match.loser, trump_suits: [...match.suits] };
  const owed = match.tribute && form.options.tribute && match.loser !== null && match.winner !== null;
  return { match: block, tribute: owed ? [match.loser, match.winner] : null };
}

// The game followed now (for the board to open its position), or null.
export const followedAnswer = () => (follower && follower.answer ? follower.answer : null);
