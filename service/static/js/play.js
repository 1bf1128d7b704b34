/* Action: playing — a move sent, a card clicked or let go on the table (or refused, and why), the
 * chooser of a card's moves, a game moved on in another tab. */

import { api } from "./api.js";
import { busyWith } from "./busy.js";
import { cardText, sameMove } from "./cards.js";
import { ApiFailure } from "./failures.js";
import { t } from "./i18n.js";
import { legalMoves, movesWithCard } from "./moves.js";
import { playBack } from "./playback.js";
import { announceMoved, resume, savedGame } from "./session.js";
import { changed, state } from "./store.js";

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
  return busyWith(async () => {
    try {
      let answer;
      try {
        answer = await api("POST", `/v1/games/${encodeURIComponent(state.id)}/moves`, body, { retry: true });
      } catch (error) {
        answer = await movedElsewhere(error, history);
      }
      changed({ message: null });
      await playBack(base, history, answer);
      announceMoved();
    } finally {
      state.pending = null;
      state.playback = null;
    }
  });
}

// A move refused because the game went on without this page (played in another tab, or sent
// twice over a lost connection): the game as it is now, or the refusal if it has not moved.
export async function movedElsewhere(error, history) {
  const stale = error instanceof ApiFailure && ["not_your_turn", "illegal_move", "game_over", "game_moved_on"].includes(error.code);
  if (!stale) throw error;
  const now = await api("GET", `/v1/games/${encodeURIComponent(state.id)}?seat=0`, undefined, { retry: true });
  if (now.history.length <= history.length) throw error;
  const mine = now.history[history.length];
  const sent = state.pending && mine.seat === 0 && sameMove(mine.move, state.pending.move);
  if (!sent) setTimeout(() => changed({ message: t("gameChanged"), kind: "info" }), 0);
  return now;
}

// Another tab moved or started a game: show the game as it is now. `away`: the play mode's game
// screen is not shown.
export async function refreshGame(away) {
  const saved = savedGame();
  if (state.busy || away && !saved) return;
  if (!saved || (state.id && saved.id !== state.id)) { resume(); return; }
  if (!state.id) return;
  const id = state.id;
  try {
    const now = await api("GET", `/v1/games/${encodeURIComponent(id)}?seat=0`);
    if (state.busy || id !== state.id || !state.game || now.history.length === state.game.history.length) return;
    state.game = now;
    state.hint = null;
    state.choosing = null;
    changed();
  } catch { /* the next move or reload tells */ }
}

export function clickCard(card) {
  if (state.busy) return;
  const moves = movesWithCard(state, card);
  if (moves.length === 0) {
    // Said beside the hand (table.js renderWhyNot) until the game moves on or another card is tried.
    state.whyNot = { card, plies: state.game ? state.game.history.length : 0 };
    changed();
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

// A card let go on the table: onto an attack card it beats, that defence; else as a click.
export function dropCard(card, attack) {
  const move = attack && movesWithCard(state, card).find((m) => m.action === "defend" && m.target === attack);
  if (move) playMove(move);
  else clickCard(card);
}

export function openChooser(card, moves, title) {
  state.choosing = { card, moves, title };
  changed({ focus: "chooser" });
}

export function closeChooser() {
  if (!state.choosing) return;
  const card = state.choosing.card;
  state.choosing = null;
  changed({ focus: "card", card });
}

// The chooser put away without a redraw: the game's screen is being left (session's new game).
export function dropChooser() {
  state.choosing = null;
}

export function transfer() {
  const moves = legalMoves(state).filter((m) => m.action === "transfer");
  if (moves.length === 1) playMove(moves[0]);
  else if (moves.length > 1) openChooser(null, moves, t("chooseTransfer"));
}

// The move of the take or pass button (or key), when it is legal.
export function playAction(action) {
  const move = legalMoves(state).find((m) => m.action === action);
  if (move) playMove(move);
}
