/* The legal moves of the game shown, as the API listed them. */

import { state } from "./state.js";

export const legalMoves = () => (state.game && state.game.status === "playing" ? state.game.legal_moves || [] : []);
export const movesWithCard = (card) => legalMoves().filter((m) => m.card === card);
