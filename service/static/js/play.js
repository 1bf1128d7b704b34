/* Playing: a move sent, a card clicked, dragged or refused (and why), the chooser. */

import { api } from "./api.js";
import { busyWith } from "./busy.js";
import { cardText, moveText, sameMove, whyNot } from "./cards.js";
import { t } from "./i18n.js";
import { ApiFailure, clearMessage, showMessage } from "./messages.js";
import { legalMoves, movesWithCard } from "./moves.js";
import { playBack } from "./playback.js";
import { render } from "./render.js";
import { reviewOpen } from "./review.js";
import { announceMoved, resume, savedGame } from "./session.js";
import { $, state } from "./state.js";

export function playMove(move) {
  if (state.busy || !state.game) return;
  closeChooser();
  state.whyNot = null;
  const base = state.game.position;
  const history = state.game.history;
  state.picked = new Set();
  state.hint = null;
  state.pending = { move, base };
  // expected_ply: the move is meant for the game as shown; if it moved on (another tab, a lost
  // answer), the server refuses it with 409 game_moved_on and the game is shown as it is now.
  const body = { seat: 0, move, expected_ply: history.length };
  busyWith(async () => {
    try {
      let answer;
      try {
        answer = await api("POST", `/v1/games/${encodeURIComponent(state.id)}/moves`, body, { retry: true });
      } catch (error) {
        answer = await movedElsewhere(error, history);
      }
      clearMessage();
      await playBack(base, history, answer);
      announceMoved();
    } finally {
      state.pending = null;
      state.playback = null;
    }
  });
}

// Why a card of the hand cannot be played now, in a sentence: the API's reason (cards.js whyNot).
export const whyNotNow = (card) => whyNot(state.game, card, !!state.busy);

// A move refused because the game went on without this page (played in another tab, or sent
// twice over a lost connection): the game as it is now, or the refusal if it has not moved.
export async function movedElsewhere(error, history) {
  const stale = error instanceof ApiFailure && ["not_your_turn", "illegal_move", "game_over", "game_moved_on"].includes(error.code);
  if (!stale) throw error;
  const now = await api("GET", `/v1/games/${encodeURIComponent(state.id)}?seat=0`, undefined, { retry: true });
  if (now.history.length <= history.length) throw error;
  const mine = now.history[history.length];
  const sent = state.pending && mine.seat === 0 && sameMove(mine.move, state.pending.move);
  if (!sent) setTimeout(() => showMessage(t("gameChanged"), "info"), 0);
  return now;
}

// Another tab moved or started a game: show the game as it is now.
export async function refreshGame() {
  const saved = savedGame();
  if (state.busy || $("game").hidden && !saved) return;
  if (!saved || (state.id && saved.id !== state.id)) { resume(); return; }
  if (!state.id) return;
  const id = state.id;
  try {
    const now = await api("GET", `/v1/games/${encodeURIComponent(id)}?seat=0`);
    if (state.busy || id !== state.id || !state.game || now.history.length === state.game.history.length) return;
    state.game = now;
    state.hint = null;
    state.choosing = null;
    render();
  } catch { /* the next move or reload tells */ }
}

export function clickCard(card) {
  if (state.busy) return;
  const moves = movesWithCard(card);
  if (moves.length === 0) {
    // Said beside the hand (table.js renderWhyNot) until the game moves on or another card is tried.
    state.whyNot = { card, plies: state.game ? state.game.history.length : 0 };
    render();
    return;
  }
  state.whyNot = null;
  if (moves.length === 1) {
    playMove(moves[0]);
    return;
  }
  const title = moves.every((m) => m.action === "defend")
    ? t("chooseTarget", { card: cardText(card) })
    : t("chooseFor", { card: cardText(card) });
  openChooser(card, moves, title);
}

// Where a dragged card was let go: on the felt (and on which attack card, if any), or nowhere.
export function dropTarget(x, y) {
  const el = document.elementFromPoint(x, y);
  if (!el || !el.closest(".board")) return null;
  const pair = el.closest(".pair");
  return { attack: pair ? pair.querySelector(".attack").dataset.card : null };
}

// A card let go on the table: onto an attack card it beats, that defence; else as a click.
export function dropCard(card, attack) {
  const move = attack && movesWithCard(card).find((m) => m.action === "defend" && m.target === attack);
  if (move) playMove(move);
  else clickCard(card);
}

export function startDrag(event, card, button) {
  state.dragged = false;
  if (event.button !== 0 || state.busy || reviewOpen() || movesWithCard(card).length === 0) return;
  const start = { x: event.clientX, y: event.clientY };
  let ghost = null;
  const follow = (e) => {
    const dx = e.clientX - start.x;
    const dy = e.clientY - start.y;
    if (!ghost && Math.hypot(dx, dy) < 8) return;
    if (!ghost) {
      const rect = button.getBoundingClientRect();
      ghost = button.cloneNode(true);
      ghost.classList.add("ghost", "dragging");
      ghost.setAttribute("aria-hidden", "true");
      ghost.style.left = `${rect.left}px`;
      ghost.style.top = `${rect.top}px`;
      document.body.append(ghost);
      button.classList.add("lifted");
      state.dragged = true;
    }
    ghost.style.transform = `translate(${dx}px, ${dy}px) rotate(-4deg)`;
    document.querySelector(".board").classList.toggle("drop", !!dropTarget(e.clientX, e.clientY));
  };
  const stop = (e) => {
    window.removeEventListener("pointermove", follow);
    window.removeEventListener("pointerup", stop);
    window.removeEventListener("pointercancel", stop);
    if (!ghost) return;
    ghost.remove();
    button.classList.remove("lifted");
    document.querySelector(".board").classList.remove("drop");
    const target = e.type === "pointerup" ? dropTarget(e.clientX, e.clientY) : null;
    if (target) dropCard(card, target.attack);
  };
  window.addEventListener("pointermove", follow);
  window.addEventListener("pointerup", stop);
  window.addEventListener("pointercancel", stop);
}

export function openChooser(card, moves, title) {
  state.choosing = { card, moves, title };
  render();
  const first = $("chooser-options").querySelector("button");
  if (first) first.focus();
}

export function closeChooser() {
  if (!state.choosing) return;
  const card = state.choosing.card;
  state.choosing = null;
  render();
  const back = card && $("hand").querySelector(`button[data-card="${card}"]`);
  if (back && !back.disabled) back.focus();
}

export function chooserLabel(move) {
  if (move.action === "defend" && state.choosing && state.choosing.card) return t("beat", { target: cardText(move.target) });
  return moveText(move);
}

export function actionMove(action) {
  return legalMoves().find((m) => m.action === action);
}

export function transfer() {
  const moves = legalMoves().filter((m) => m.action === "transfer");
  if (moves.length === 1) playMove(moves[0]);
  else if (moves.length > 1) openChooser(null, moves, t("chooseTransfer"));
}
