/* The legal moves of the game shown, as the API listed them. */

import { state } from "./state.js";

// None while a move is on its way, played back or a match is between two games: only the moves of
// the position shown are offered.
export const legalMoves = () => (state.game && state.game.status === "playing" && !state.pending && !state.playback
  && !state.between ? state.game.legal_moves || [] : []);
export const movesWithCard = (card) => legalMoves().filter((m) => m.card === card);
