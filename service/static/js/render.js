/* View: the whole game drawn from the state, one panel after another; each panel's clicks call the
 * `handlers` app.js gives (render(state, handlers)). */

import { cardText, isRed, lastBout, suitOf } from "./cards.js";
import { SUIT_GLYPH } from "./constants.js";
import { $ } from "./dom.js";
import { cardFace, miniCard } from "./faces.js";
import { renderHint } from "./hint-panel.js";
import { t } from "./i18n.js";
import { renderHistory, renderMatch, renderOver } from "./match.js";
import { actionMove, legalMoves } from "./moves.js";
import { markReviewedCards, renderReview, renderReviewProgress } from "./review-panel.js";
import { reviewed, reviewOpen, searches, shownGame } from "./selectors.js";
import { renderChooser, renderHand, renderMoves, renderOpponents, renderRecent, renderSetup, renderStatus, renderTable, renderWhyNot } from "./table.js";
import { renderTracker } from "./tracker-panel.js";

export function render(state, handlers) {
  if (!state.game) return;
  const game = shownGame(state);
  const entry = reviewed(state); // while reviewing: the decision shown, and the table as it was then
  const pos = entry ? entry.position : game.position;
  const over = game.status === "over";
  const trumpSuit = suitOf(pos.trump);
  const myTurn = !over && pos.to_move === 0 && legalMoves(state).length > 0 && game === state.game;
  $("table").dataset.plies = String(game.history.length); // the moves the table shown has seen

  renderStatus(game, pos, over, state);
  renderReviewProgress(state);
  renderOpponents(pos);

  // stock, trump, discard
  const trumpCard = cardFace(pos.trump);
  trumpCard.id = "trump-card";
  trumpCard.classList.add("trump-card");
  $("trump-card").replaceWith(trumpCard);
  const suitSpan = document.createElement("span");
  suitSpan.className = isRed(pos.trump) ? "red" : "";
  suitSpan.textContent = SUIT_GLYPH[trumpSuit];
  const suitName = document.createElement("span");
  suitName.className = "suit-name";
  suitName.textContent = ` ${t("suitLong_" + trumpSuit)} (${cardText(pos.trump)})`;
  $("trump-suit").replaceChildren(suitSpan, suitName);
  $("stock-count").textContent = String(pos.stock);
  $("discard-count").textContent = String(pos.discard.length);
  const pile = document.querySelector(".pile");
  pile.classList.toggle("empty-stock", pos.stock <= 1); // only the trump card is left, or none
  pile.classList.toggle("drawn", pos.stock === 0);
  $("stock-back").title = `${t("stock")}: ${pos.stock}`;
  $("discard-cards").replaceChildren(...pos.discard.map(miniCard));

  // At a game's end the table is cleared: its last bout is shown instead, marked as such — between two
  // games of a match too, where the table is the game that ended until "Next game" deals the next.
  const between = game.status === "between";
  const ended = (over || between) && !entry && pos.table.length === 0 ? lastBout(game.history) : [];
  renderTable(ended.length ? { ...pos, table: ended } : pos, ended.length > 0, state, handlers);
  if (myTurn && pos.defender === 0 && !entry) keepTableInView();
  if (reviewOpen(state) || between) $("recent").replaceChildren(); // the moves of the game that ended: its result
  else renderRecent(game);
  renderHand(pos, trumpSuit, myTurn, state, handlers);
  renderWhyNot(game, state);
  if (entry) markReviewedCards(entry);
  renderChooser(state, handlers);

  // action buttons
  const take = actionMove(state, "take");
  const pass = actionMove(state, "pass");
  const transfers = legalMoves(state).filter((m) => m.action === "transfer");
  $("take-button").disabled = state.busy || !take;
  $("pass-button").disabled = state.busy || !pass;
  $("transfer-button").hidden = transfers.length === 0;
  $("transfer-button").disabled = state.busy || transfers.length === 0;
  $("hint-button").disabled = state.busy || !myTurn;
  $("actions").hidden = over || between;
  $("moves-panel").hidden = over || between;

  renderSetup(between ? { ...pos, phase: "play" } : pos, state, handlers); // the next game's setup waits for "Next game"
  renderMatch(game);
  renderMoves(state, handlers);
  renderHint(state, handlers);
  renderTracker(state);
  renderHistory(game);
  renderOver(game, over && !reviewOpen(state));
  renderReview(state, handlers);

  // The seed comes only with a finished game (before, it would show every hand).
  const seed = over && typeof game.seed === "string" ? game.seed : null;
  const info = [seed !== null ? t("gameInfo", { id: state.id, seed }) : t("gameInfoNoSeed", { id: state.id })];
  const setup = state.setup;
  if (setup && setup.level) info.push(t("gameLevel", { level: t("level_" + setup.level) }));
  else if (setup && setup.engine) info.push(setup.timeMs && searches(state, setup.engine) ? `${setup.engine} ${setup.timeMs} ms` : setup.engine);
  $("game-info").textContent = info.join(" · ");
  $("replay").hidden = !(state.setup && seed !== null);
}

// On a phone the hand dock covers the page's bottom: the card to answer is scrolled into view
// above it (on a desktop, into the window).
function keepTableInView() {
  const rect = $("table").getBoundingClientRect();
  const dock = $("dock").getBoundingClientRect();
  const fixed = getComputedStyle($("dock")).position === "fixed";
  const bottom = fixed ? dock.top : window.innerHeight;
  if (rect.bottom > bottom) window.scrollBy({ top: Math.min(rect.bottom - bottom + 8, rect.top - 8), behavior: "instant" });
  else if (rect.top < 0) window.scrollBy({ top: rect.top - 8, behavior: "instant" });
}
