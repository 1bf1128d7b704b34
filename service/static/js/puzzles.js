/* Mode: puzzles (#puzzles; its own state, actions and view in one closure) — positions from games
 * where one move is clearly best (docs/api.md §3 "Puzzles"), the set GET /v1/puzzles answers: the
 * position from the seat to move's view, the moves to choose from, then right or wrong, why (proven,
 * or the search's margin with its intervals), every move's value and the answer's line, and the next
 * puzzle. Which puzzles were solved is kept in the browser, so a returning player starts on a new one.
 */

import { api } from "./api.js";
import { chanceWord, moveText, pct, sortHand, valueText } from "./cards.js";
import { cardFace, el, miniCard, provenBadge } from "./faces.js";
import { t } from "./i18n.js";
import { clearMessage, showError } from "./messages.js";
import { answerReason, judged, nextIndex, offeredMoves, puzzleOrder, readSolved } from "./puzzle.js";
import { SEARCH_ITERATIONS } from "./constants.js";
import { savedGame } from "./session.js";
import { storage } from "./storage.js";

export const SOLVED_KEY = "tan.puzzles.solved";

const section = () => document.getElementById("puzzles");

// `mine`: the last ask for puzzles of your own game — null, "asking", or {found, checked}.
const mode = { puzzles: null, at: 0, picked: null, loading: null, error: null, mine: null };

const solvedIds = () => readSolved(storage.get("localStorage", SOLVED_KEY));

function markSolved(id) {
  const ids = solvedIds();
  if (!ids.includes(id)) storage.set("localStorage", SOLVED_KEY, JSON.stringify([...ids, id]));
}

// Open the mode: the puzzles asked of the server once, then the first one not solved yet.
export async function openPuzzles() {
  if (!mode.puzzles && !mode.loading) {
    mode.loading = api("GET", "/v1/puzzles", undefined, { retry: ["busy", "network"] })
      .then((answer) => {
        clearMessage();
        Object.assign(mode, { puzzles: puzzleOrder(answer.puzzles, solvedIds()), at: 0, picked: null, error: null });
      })
      .catch((error) => { mode.error = error; showError(error); })
      .finally(() => { mode.loading = null; render(); });
  }
  render();
  return mode.loading;
}

export const redrawPuzzles = () => render();

// Puzzles from your own last game (the play mode's, kept in this browser): its record as your seat
// saw it, sent to POST /v1/puzzles, whose puzzles (your mistakes first) go before the shipped ones.
async function fromMyGame() {
  const saved = savedGame();
  if (!saved || mode.mine === "asking") return;
  mode.mine = "asking";
  render();
  try {
    const record = await api("GET", `/v1/games/${encodeURIComponent(saved.id)}/record?seat=0`, undefined,
      { retry: ["busy", "network"], token: saved.token });
    const answer = await api("POST", "/v1/puzzles", { record, limits: { iterations: SEARCH_ITERATIONS }, seed: 0 }, { retry: true });
    clearMessage();
    const found = new Set(answer.puzzles.map((p) => p.id));
    const rest = (mode.puzzles || []).filter((p) => !found.has(p.id));
    Object.assign(mode, { puzzles: [...answer.puzzles, ...rest], at: 0, picked: null,
      mine: { found: answer.puzzles.length, checked: answer.checked } });
  } catch (error) {
    mode.mine = null;
    showError(error);
  }
  render();
}

function pick(move) {
  const puzzle = mode.puzzles[mode.at];
  mode.picked = move;
  if (judged(puzzle, move).right) markSolved(puzzle.id);
  render();
  const verdict = section().querySelector("[data-role=puzzle-verdict]");
  if (verdict) verdict.focus();
}

function next() {
  mode.at = nextIndex(mode.at, mode.puzzles.length);
  mode.picked = null;
  render();
  const first = section().querySelector("[data-role=puzzle-move]");
  if (first) first.focus();
}

// -- the view -----------------------------------------------------------------------------------

const seatWord = (puzzle) => (seat) => (seat === puzzle.seat ? t("you") : t("tableSeat", { n: seat + 1 }));

function render() {
  const root = section();
  if (!root) return;
  root.replaceChildren();
  const head = el("h2", "", t("modePuzzles"));
  root.append(head);
  if (!mode.puzzles) {
    root.append(el("p", "puzzle-note", mode.error ? t("puzzlesUnavailable") : t("puzzlesLoading")));
    return;
  }
  if (!mode.puzzles.length) {
    root.append(el("p", "puzzle-note", t("puzzlesNone")));
    return;
  }
  root.append(mineView());
  const puzzle = mode.puzzles[mode.at];
  const solved = new Set(solvedIds());
  const count = el("p", "puzzle-count", t("puzzleCount", { n: mode.at + 1, total: mode.puzzles.length, solved: solved.size }));
  root.append(count, positionView(puzzle), movesView(puzzle));
  if (mode.picked) root.append(answerView(puzzle));
}

// The ask for puzzles of your own last game, and what it found.
function mineView() {
  const box = el("div", "puzzle-mine");
  if (savedGame()) {
    const b = el("button", "secondary", t("puzzlesMine"));
    b.type = "button";
    b.dataset.role = "puzzles-mine";
    b.disabled = mode.mine === "asking";
    b.addEventListener("click", fromMyGame);
    box.append(b);
  }
  if (mode.mine) {
    const said = mode.mine === "asking" ? t("puzzlesMineAsking")
      : mode.mine.found ? t("puzzlesMineFound", { n: mode.mine.found, m: mode.mine.checked })
        : t("puzzlesMineNone", { m: mode.mine.checked });
    const note = el("p", "puzzle-note", said);
    note.dataset.role = "puzzles-mine-note";
    note.setAttribute("aria-live", "polite");
    box.append(note);
  }
  return box;
}

function positionView(puzzle) {
  const pos = puzzle.position;
  const name = seatWord(puzzle);
  const box = el("div", "puzzle-position");
  box.dataset.role = "puzzle-position";
  const facts = el("p", "puzzle-facts");
  const others = pos.hand_counts.map((n, seat) => [seat, n]).filter(([seat]) => seat !== pos.seat)
    .map(([seat, n]) => t("puzzleHandCount", { name: name(seat), n })).join(" · ");
  facts.append(
    el("span", "", t("puzzleStock", { n: pos.stock })), " · ", el("span", "", t("puzzleDiscard", { n: (pos.discard || []).length })),
    " · ", el("span", "", others),
  );
  const trump = el("div", "puzzle-trump");
  trump.append(el("span", "puzzle-label", t("puzzleTrump")), cardFace(pos.trump));
  const table = el("div", "puzzle-table");
  table.append(el("span", "puzzle-label", t("puzzleTable")));
  if (!pos.table.length) table.append(el("span", "puzzle-empty", t("puzzleTableEmpty")));
  for (const pair of pos.table) {
    const stack = el("span", "puzzle-pair");
    stack.append(cardFace(pair.attack));
    if (pair.defense) stack.append(cardFace(pair.defense));
    table.append(stack);
  }
  const known = el("div", "puzzle-known");
  for (const [seat, cards] of Object.entries(pos.known || {})) {
    if (!cards.length || Number(seat) === pos.seat) continue;
    const line = el("p", "");
    line.append(t("puzzleKnown", { name: name(Number(seat)) }), " ");
    for (const card of cards) line.append(miniCard(card), " ");
    known.append(line);
  }
  if (pos.taking) known.append(el("p", "", t("puzzleTaking", { name: name(pos.defender) })));
  const role = pos.defender === pos.seat ? "puzzleYouDefend" : "puzzleYouAttack";
  const task = el("p", "puzzle-task", `${t(role, { name: name(pos.attacker) })} ${t("puzzleFind")}`);
  const hand = el("div", "puzzle-table puzzle-hand");
  hand.append(el("span", "puzzle-label", t("puzzleHand")));
  for (const card of sortHand(pos.hand, pos.trump[1])) hand.append(cardFace(card));
  box.append(task, facts, trump, table, known, hand);
  return box;
}

function movesView(puzzle) {
  const list = el("div", "puzzle-moves");
  list.setAttribute("role", "group");
  list.setAttribute("aria-label", t("puzzleChoose"));
  for (const { move, notation } of offeredMoves(puzzle)) {
    const b = el("button", "secondary", moveText(move));
    b.type = "button";
    b.dataset.role = "puzzle-move";
    b.dataset.notation = notation;
    if (mode.picked) {
      b.disabled = true;
      const verdict = judged(puzzle, move);
      if (verdict.right) b.classList.add("right");
      else if (judged(puzzle, mode.picked).picked === verdict.picked) b.classList.add("wrong");
    }
    b.addEventListener("click", () => pick(move));
    list.append(b);
  }
  return list;
}

function answerView(puzzle) {
  const verdict = judged(puzzle, mode.picked);
  const box = el("div", "puzzle-answer");
  const said = el("p", verdict.right ? "puzzle-verdict right" : "puzzle-verdict wrong",
    verdict.right ? t("puzzleRight") : t("puzzleWrong", { move: moveText(puzzle.answer.move) }));
  said.dataset.role = "puzzle-verdict";
  said.tabIndex = -1;
  said.setAttribute("aria-live", "polite");
  const reason = answerReason(puzzle.answer);
  const why = el("p", "puzzle-why", t(reason.key, { ...reason.vars, chance: chanceWord(puzzle.chance) }));
  if (puzzle.answer.proven) why.prepend(provenBadge(), " ");
  box.append(said, why);
  if (puzzle.missed && puzzle.played) box.append(el("p", "puzzle-played", t("puzzlePlayed", { move: moveText(puzzle.played) })));
  const line = puzzle.line && puzzle.line.moves.length > 1
    ? puzzle.line.moves.map((ply) => `${seatWord(puzzle)(ply.seat)}: ${moveText(ply.move)}`).join(" → ")
    : "";
  if (line) {
    const p = el("p", "puzzle-line", `${t("puzzleLine")} ${line}`);
    p.dataset.role = "puzzle-line";
    box.append(p);
  }
  const rows = el("ol", "puzzle-rows");
  for (const entry of puzzle.moves) {
    const interval = entry.exact ? "" : ` (${pct(entry.ci95[0])}–${pct(entry.ci95[1])})`;
    const row = el("li", "", `${moveText(entry.move)}: ${valueText(entry)}${interval}`);
    if (verdict.picked === entry && !verdict.right) row.classList.add("wrong");
    rows.append(row);
  }
  const nextButton = el("button", "", t("puzzleNext"));
  nextButton.type = "button";
  nextButton.dataset.role = "puzzle-next";
  nextButton.addEventListener("click", next);
  box.append(rows, nextButton);
  return box;
}
