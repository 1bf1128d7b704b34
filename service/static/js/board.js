/* Mode: the analysis board (its own view, actions and wiring, over follow.js) — set up any
 * position (docs/api.md §2.2) with the card picker, or open one from a review step or from the
 * table assistant; ask a hint and the evaluation; play moves for any seat to see what follows (the
 * follower, follow.js, offers what POST /v1/next allows); and, from a review step, try another move
 * and compare its evaluation with the move played.
 *
 * The position is judged by the server when it is opened (a refused one is shown with its reason
 * and nothing changes); the page checks nothing of it itself.
 */

import { api } from "./api.js";
import { LINE_PLIES, cardText, lineText, moveText, sameMove, valueText } from "./cards.js";
import { SEARCH_ITERATIONS } from "./constants.js";
import { moveEvent, positionGame, readGame, seatLabel } from "./entry.js";
import { cardChip, choice, el } from "./faces.js";
import { createFollower } from "./follow.js";
import { rulesOf, sideRulesFieldset } from "./form.js";
import { t } from "./i18n.js";
import { clearMessage, showError, showMessage } from "./messages.js";
import { cardPicker } from "./picker.js";
import { storage } from "./storage.js";
import { serverRules } from "./server-rules.js";

export const BOARD_KEY = "tan.board"; // the board's game, as entry.js keeps it

const section = () => document.getElementById("board");

let follower = null;
let form = null; // the position being set up (see blankForm)
let compared = null; // {tried, played: evaluations after each} for the game shown
let opening = null; // a position being opened (from a review step, the assistant): the mode waits

const blankForm = (rules) => ({
  rules, preset: "tan", options: {}, players: 2, seat: 0, trump: null, hand: [], known: {}, counts: {}, table: [], discard: [],
  inStock: [], stock: 0, attacker: 1, defender: 0, toMove: 1, taking: false, picking: "hand",
});

function ensureFollower() {
  if (follower) return follower;
  follower = createFollower({
    root: section(),
    onChange: (game) => { storage.set("localStorage", BOARD_KEY, JSON.stringify(game)); },
    actions: () => [editButton()],
    note: whatIfNote,
  });
  return follower;
}

// Open the mode: the board's last game, else the set-up form.
export async function openBoard() {
  const board = ensureFollower();
  if (opening && await opening) return;
  if (board.game) { hideForm(); board.render(); return; }
  const saved = readGame(storage.get("localStorage", BOARD_KEY) || "null");
  if (saved && (saved.kind === "position" || saved.from) && await board.load(saved)) { hideForm(); return; }
  await showForm();
}

// Play on from `position` (a review step's, the assistant's), or from a record `game` as entry.js
// keeps one: `from` says where it came from.
export function openOnBoard(position, from, recordGame = null) {
  const board = ensureFollower();
  compared = null;
  const game = recordGame ? { ...recordGame, from } : positionGame(position, from);
  opening = board.load(game).then((done) => {
    if (done) {
      storage.set("localStorage", BOARD_KEY, JSON.stringify(game));
      hideForm();
    }
    return done;
  }).finally(() => { opening = null; });
  return opening;
}

export function redrawBoard() {
  if (follower && follower.answer && section().querySelector(".position-form[hidden]")) follower.render();
  else if (form) drawForm();
}

function hideForm() {
  const box = section().querySelector(".position-form");
  if (box) box.hidden = true;
}

function editButton() {
  const b = el("button", "secondary", t("boardEdit"));
  b.type = "button";
  b.dataset.role = "edit";
  b.addEventListener("click", () => {
    const start = follower.game.start;
    section().querySelector(".follow-view")?.remove();
    follower.game = follower.answer = null;
    storage.set("localStorage", BOARD_KEY, null);
    showForm(start);
  });
  return b;
}

// -- what if: from a review step, another move tried -------------------------------------------

// The moment the review step opened: the record up to the decision (what the seat had seen, so its
// history weighs the hidden cards as the review's did), or the bare position.
function momentBody(game) {
  const at = game.from.at || 0;
  if (game.kind === "record") return { record: { ...game.start, events: game.events.slice(0, at) } };
  return { position: game.start };
}

function whatIfNote(self) {
  const from = self.game && self.game.from;
  if (!from || from.kind !== "review") return null;
  const box = el("div", "panel what-if");
  box.append(el("p", "small", t("whatIfStep", {
    played: moveText(from.played), p: from.played_score === null ? "–" : valueText({ score: from.played_score, exact: from.played_exact }),
    best: moveText(from.best), b: from.best_score === null ? "–" : valueText({ score: from.best_score, exact: from.best_exact }),
  })));
  const at = from.at || 0;
  const seat = self.game.start.seat;
  const first = self.game.events[at];
  const tried = first && first.seat === seat ? first.move : null;
  if (!tried) { box.append(el("p", "small muted", t("whatIfHow"))); return box; }
  if (compared && compared.events === JSON.stringify(first)) {
    const row = (move) => compared.hint.moves.find((entry) => sameMove(entry.move, move)) || null;
    const said = (entry) => (entry ? valueText(entry) : "–");
    const best = row(compared.hint.best);
    const line = el("p", "what-if-result");
    line.textContent = t("whatIfResult", {
      tried: moveText(tried), p: said(row(tried)), played: moveText(from.played), q: said(row(from.played)),
    });
    box.append(line);
    if (best) {
      box.append(el("p", "small what-if-best", t("whatIfBest", { best: moveText(best.move), b: said(best) })));
      const expected = lineText(best.line, (other) => seatLabel(other, seat));
      if (expected) box.append(el("p", "small muted what-if-line", expected));
    }
    return box;
  }
  const go = el("button", "primary", t("whatIfCompare"));
  go.type = "button";
  go.dataset.role = "compare";
  go.disabled = self.busy || sameMove(tried, from.played);
  go.addEventListener("click", () => compare(self, first));
  box.append(go);
  return box;
}

// The move tried, the move played and the engine's best, from ONE search of the moment — the
// hint the review's decision was (its budget, seed and history; calibrated as the game's when its
// record names its engines) — with the line the engine expects after its best.
async function compare(self, first) {
  try {
    const hint = await api("POST", "/v1/hint", {
      ...momentBody(self.game), limits: { iterations: SEARCH_ITERATIONS }, pv: LINE_PLIES,
    }, { retry: true });
    clearMessage();
    compared = { events: JSON.stringify(first), hint };
  } catch (error) {
    showError(error);
  }
  self.render();
}

// -- the set-up form --------------------------------------------------------------------------

async function showForm(start = null) {
  let rules;
  try { rules = await serverRules(); } catch (error) { showError(error); return; }
  form = start ? formOf(start, rules) : form || blankForm(rules);
  form.rules = rules;
  drawForm();
}

// A position back in the form's fields (to edit the one shown).
function formOf(pos, rules) {
  const known = {};
  for (const [seat, cards] of Object.entries(pos.known || {})) known[seat] = [...cards];
  const counts = {};
  pos.hand_counts.forEach((n, seat) => { counts[seat] = n; });
  return {
    rules, preset: typeof pos.rules === "string" ? pos.rules : pos.rules.preset, players: pos.players, seat: pos.seat,
    options: typeof pos.rules === "string" ? {} : Object.fromEntries(Object.entries(pos.rules).filter(([name]) => name !== "preset")),
    trump: pos.trump, hand: [...pos.hand], known, counts, table: pos.table.map((pair) => ({ ...pair })),
    discard: [...(pos.discard || [])], inStock: [...(pos.in_stock || [])], stock: pos.stock, attacker: pos.attacker, defender: pos.defender,
    toMove: pos.to_move === null ? pos.attacker : pos.to_move, taking: !!pos.taking, picking: "hand",
  };
}

// The docs/api.md §2.2 position the form says.
export function positionOf(f) {
  const known = {};
  const counts = [];
  for (let seat = 0; seat < f.players; seat++) {
    if (seat === f.seat) { counts.push(f.hand.length); continue; }
    counts.push(Number(f.counts[seat] ?? 0));
    if ((f.known[seat] || []).length) known[String(seat)] = [...f.known[seat]];
  }
  const position = {
    rules: rulesOf(f.preset, f.options), players: f.players, seat: f.seat, hand: [...f.hand], hand_counts: counts, trump: f.trump,
    stock: Number(f.stock), discard: [...f.discard], table: f.table.map((pair) => ({ attack: pair.attack, defense: pair.defense })),
    attacker: f.attacker, defender: f.defender, to_move: f.toMove, taking: f.taking, known,
  };
  if ((f.inStock || []).length) position.in_stock = [...f.inStock];
  return position;
}

const PICKING = (f) => {
  if (f.picking === "trump") return t("boardTrump");
  if (f.picking === "hand") return t("yourHand");
  if (f.picking === "discard") return t("discard");
  if (f.picking === "stock") return t("boardInStock");
  if (f.picking === "table") return t("boardAttack");
  if (f.picking.startsWith("defense:")) return t("boardDefense", { card: cardText(f.table[Number(f.picking.slice(8))].attack) });
  return t("boardKnown", { name: seatLabel(Number(f.picking.slice(6)), f.seat) });
};

// The cards placed (a hand, the known cards, the table, the discard). The trump card is not among
// them: it is turned up under the stock, and once the stock is drawn it lies in a hand, on the
// table or in the discard like any card (whether it may, the server says when the position opens).
export function placedCards(f) {
  const cards = [...f.hand, ...f.discard, ...(f.inStock || [])];
  for (const pair of f.table) { cards.push(pair.attack); if (pair.defense) cards.push(pair.defense); }
  for (const list of Object.values(f.known)) cards.push(...list);
  return cards;
}

// "Everything else is discarded": every card of the deck placed nowhere, in the discard — the
// trump card too once the stock is empty (while it lies under the stock it is not discarded).
export function restDiscarded(f, deck) {
  const placed = new Set(placedCards(f));
  const under = Number(f.stock) > 0 && f.trump ? f.trump : null;
  return [...f.discard, ...deck.filter((card) => !placed.has(card) && card !== under)];
}

function pick(card) {
  const f = form;
  if (f.picking === "trump") f.trump = card;
  else if (f.picking === "hand") f.hand = [...f.hand, card];
  else if (f.picking === "discard") f.discard = [...f.discard, card];
  else if (f.picking === "stock") {
    // A card known in the stock: the stock holds it and the trump card under it, at least.
    f.inStock = [...(f.inStock || []), card];
    f.stock = Math.max(Number(f.stock) || 0, f.inStock.length + 1);
  } else if (f.picking === "table") f.table = [...f.table, { attack: card, defense: null }];
  else if (f.picking.startsWith("defense:")) {
    const index = Number(f.picking.slice(8));
    f.table = f.table.map((pair, i) => (i === index ? { ...pair, defense: card } : pair));
    f.picking = "table";
  } else {
    const seat = f.picking.slice(6);
    f.known = { ...f.known, [seat]: [...(f.known[seat] || []), card] };
  }
  drawForm();
  document.querySelector("#board-picker .picker-input")?.focus({ preventScroll: true });
}

function remove(what, card) {
  const f = form;
  if (what === "trump") f.trump = null;
  else if (what === "hand") f.hand = f.hand.filter((c) => c !== card);
  else if (what === "discard") f.discard = f.discard.filter((c) => c !== card);
  else if (what === "stock") f.inStock = f.inStock.filter((c) => c !== card);
  else if (what === "table") f.table = f.table.filter((pair) => pair.attack !== card && pair.defense !== card);
  else { const seat = what.slice(6); f.known = { ...f.known, [seat]: f.known[seat].filter((c) => c !== card) }; }
  drawForm();
}

function drawForm() {
  const f = form;
  const root = section();
  let box = root.querySelector(".position-form");
  if (!box) { box = el("form", "panel position-form"); box.noValidate = true; root.prepend(box); }
  box.hidden = false;
  const presets = f.rules.presets;
  const preset = presets[f.preset];
  const deck = f.rules.decks[String(preset.deck)];
  const seats = [...Array(f.players).keys()];
  const seatOptions = seats.map((seat) => [seat, seatLabel(seat, f.seat)]);

  const field = (label, input) => {
    const wrap = el("div", "field");
    const name = el("label", "", label);
    name.htmlFor = input.id;
    wrap.append(name, input);
    return wrap;
  };
  const select = (id, values, chosen, onChange) => choice(id, values, chosen, (value) => { onChange(value); drawForm(); });
  const number = (id, value, onChange) => {
    const input = el("input");
    input.id = id;
    input.type = "number";
    input.min = "0";
    input.inputMode = "numeric";
    input.value = String(value);
    input.addEventListener("input", () => onChange(Number(input.value)));
    return input;
  };
  const cardsLine = (what, label, cards) => {
    const line = el("div", "deal-cards");
    line.dataset.field = what;
    const b = el("button", f.picking === what ? "primary" : "secondary", label);
    b.type = "button";
    b.dataset.role = `pick-${what}`;
    b.setAttribute("aria-pressed", String(f.picking === what));
    b.addEventListener("click", () => { f.picking = what; drawForm(); });
    const chips = el("span", "mini-cards inline");
    for (const card of cards) {
      chips.append(cardChip(card, () => remove(what, card)));
    }
    line.append(b, chips);
    return line;
  };

  const top = el("div", "deal-fields");
  top.append(
    field(t("preset"), select("board-preset", Object.keys(presets).map((name) => [name, t("preset_" + name, null, name)]), f.preset, (v) => {
      f.preset = v; f.options = {}; f.players = Math.min(Math.max(f.players, presets[v].min_players), presets[v].max_players);
    })),
    field(t("players"), select("board-players", [...Array(preset.max_players - preset.min_players + 1).keys()]
      .map((i) => [i + preset.min_players, String(i + preset.min_players)]), f.players, (v) => {
      f.players = Number(v);
      for (const key of ["seat", "attacker", "defender", "toMove"]) f[key] = Math.min(f[key], f.players - 1);
    })),
    field(t("boardSeat"), select("board-seat", seatOptions, f.seat, (v) => { f.seat = Number(v); })),
    field(t("stock"), number("board-stock", f.stock, (v) => { f.stock = v; })),
    field(t("roleAttacker"), select("board-attacker", seatOptions, f.attacker, (v) => { f.attacker = Number(v); })),
    field(t("roleDefender"), select("board-defender", seatOptions, f.defender, (v) => { f.defender = Number(v); })),
    field(t("boardToMove"), select("board-to-move", seatOptions, f.toMove, (v) => { f.toMove = Number(v); })),
  );
  const taking = el("input");
  taking.type = "checkbox";
  taking.id = "board-taking";
  taking.checked = f.taking;
  taking.addEventListener("change", () => { f.taking = taking.checked; });
  const takingLabel = el("label", "check");
  takingLabel.append(taking, el("span", "", ` ${t("boardTaking")}`));
  top.append(takingLabel, sideRulesFieldset(f.rules, preset, f.options, "board", drawForm));

  const lines = [
    cardsLine("trump", t("boardTrump"), f.trump ? [f.trump] : []),
    cardsLine("hand", t("yourHand"), f.hand),
  ];
  for (const seat of seats) {
    if (seat === f.seat) continue;
    const line = cardsLine(`known:${seat}`, t("boardKnown", { name: seatLabel(seat, f.seat) }), f.known[seat] || []);
    const count = number(`board-count-${seat}`, f.counts[seat] ?? 0, (v) => { f.counts[seat] = v; });
    count.setAttribute("aria-label", t("boardCount", { name: seatLabel(seat, f.seat) }));
    count.className = "count-input";
    line.prepend(count);
    lines.push(line);
  }
  const tableLine = cardsLine("table", t("boardAttack"), f.table.map((pair) => pair.attack));
  for (const [index, pair] of f.table.entries()) {
    const beat = el("button", f.picking === `defense:${index}` ? "primary" : "secondary",
      pair.defense ? `${cardText(pair.attack)}/${cardText(pair.defense)}` : t("boardBeat", { card: cardText(pair.attack) }));
    beat.type = "button";
    beat.dataset.role = `defense-${index}`;
    beat.addEventListener("click", () => {
      if (pair.defense) f.table = f.table.map((p, i) => (i === index ? { ...p, defense: null } : p));
      else f.picking = `defense:${index}`;
      drawForm();
    });
    tableLine.append(beat);
  }
  const discardLine = cardsLine("discard", t("discard"), f.discard);
  const rest = el("button", "secondary", t("boardRestDiscarded"));
  rest.type = "button";
  rest.dataset.role = "rest-discarded";
  rest.title = t("boardRestNote");
  rest.addEventListener("click", () => { f.discard = restDiscarded(f, deck); drawForm(); });
  discardLine.append(rest);
  lines.push(tableLine, discardLine, cardsLine("stock", t("boardInStock"), f.inStock || []));

  const picker = cardPicker({ cards: deck, picked: f.picking === "trump" ? [] : placedCards(f), id: "board-picker", label: PICKING(f), onPick: pick,
    onRefuse: (text) => showMessage(t("cardPlaced", { what: text })) });
  const picking = el("p", "small picking", t("boardPicking", { what: PICKING(f) }));

  const json = el("details", "position-json");
  json.append(el("summary", "", t("boardJson")));
  const area = el("textarea");
  area.id = "board-json";
  area.rows = 6;
  area.spellcheck = false;
  area.setAttribute("aria-label", t("boardJson"));
  const useJson = el("button", "secondary", t("boardOpenJson"));
  useJson.type = "button";
  useJson.id = "board-open-json";
  useJson.addEventListener("click", () => {
    let position;
    try { position = JSON.parse(area.value); } catch { showMessage(t("boardBadJson")); return; }
    openOnBoard(position, null);
  });
  json.append(area, useJson);

  const open = el("button", "primary", t("boardOpen"));
  open.type = "submit";
  open.id = "board-open";
  box.replaceChildren(el("h2", "", t("modeBoard")), el("p", "intro", t("boardIntro")), top, ...lines, picking, picker, open, json);
  box.onsubmit = (event) => {
    event.preventDefault();
    if (!f.trump) { showMessage(t("boardNoTrump")); return; }
    openOnBoard(positionOf(f), null);
  };
}

// A review step opened on the board, and the moves and scores the review gave: with the game's
// `record` (as its seat saw it) the board plays on from the record up to the decision, so its hint
// is the review's very search; without it, from the step's position alone. `names`: "play" for a
// game against the engines (its seats named as that game named them), "table" for a game followed
// at a table (entry.js namerOf).
export function reviewStepOnBoard(entry, { record = null, names = "play" } = {}) {
  const from = {
    kind: "review", ply: entry.ply, played: entry.move, best: entry.best, played_score: entry.played_score,
    best_score: entry.best_score, played_exact: entry.played_exact ?? entry.exact, best_exact: entry.best_exact ?? entry.exact,
    names,
  };
  if (!record) return openOnBoard(entry.position, from);
  const { events, deck, result, ...start } = record; // the deck and result: not what the seat saw then
  return openOnBoard(null, { ...from, at: entry.index }, { kind: "record", start, events: events.slice(0, entry.index) });
}
