/* Pure: selectors — the legal moves of the game shown, as the API listed them (reads of a state). */

// None while a move is on its way, played back or a match is between two games: only the moves of
// the position shown are offered.
export const legalMoves = (state) => (state.game && state.game.status === "playing" && !state.pending && !state.playback
  && !state.between ? state.game.legal_moves || [] : []);
export const movesWithCard = (state, card) => legalMoves(state).filter((m) => m.card === card);
export const actionMove = (state, action) => legalMoves(state).find((m) => m.action === action);
