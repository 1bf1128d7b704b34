/* A match's panel, the move log, and the game over. */

import { cardText, moveText, seatName, shortSeatName } from "./cards.js";
import { t } from "./i18n.js";
import { $, SUIT_GLYPH } from "./state.js";

// A match's standings, dealer, trump history, tribute and last game (docs/rules.md §1.9).
export function renderMatch(game) {
  const panel = $("match-panel");
  const match = game.match;
  panel.hidden = !match;
  if (!match) return;
  $("match-title").textContent = t("match", { n: match.game, of: match.games });
  const lines = [t("dealer", { name: seatName(match.dealer) })];
  if (match.trump_suits.length) lines.push(t("trumpHistory", { suits: match.trump_suits.map((s) => SUIT_GLYPH[s]).join(" ") }));
  const tribute = match.tribute;
  if (tribute) {
    const names = { giver: seatName(tribute.giver), receiver: seatName(tribute.receiver) };
    lines.push(tribute.card ? t("tributeGiven", { ...names, card: cardText(tribute.card) }) : t("tributeHidden", names));
  }
  if (match.sitting_out !== null && match.sitting_out !== undefined) lines.push(t("sittingOut", { name: seatName(match.sitting_out) }));
  $("match-info").textContent = lines.join(" · ");
  $("standings").replaceChildren(
    ...match.standings.map((row, seat) => {
      const tr = document.createElement("tr");
      for (const value of [seatName(seat), row.won, row.lost, row.drawn, row.score]) {
        const td = document.createElement("td");
        td.textContent = String(value);
        tr.append(td);
      }
      return tr;
    }),
  );
  const prev = match.previous;
  let what = "";
  if (prev) {
    if (prev.trump_repeat) what = t("prevRepeat", { name: seatName(prev.loser) });
    else if (prev.loser !== null) what = t("prevLoser", { name: seatName(prev.loser) });
    else if (prev.winner !== null) what = t("prevAllTrumps", { name: seatName(prev.winner) });
    else what = t("prevDraw");
  }
  $("match-previous").textContent = prev ? t("previousGame", { n: prev.game, what }) : "";
}

export function renderHistory(game) {
  const list = $("history");
  const atBottom = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
  list.replaceChildren(
    ...game.history.map((entry) => {
      const item = document.createElement("li");
      if (entry.seat === 0) item.className = "mine";
      const who = document.createElement("span");
      who.className = "who";
      who.textContent = shortSeatName(entry.seat);
      const what = document.createElement("span");
      what.textContent = moveText(entry.move);
      what.title = entry.notation;
      item.append(who, what);
      return item;
    }),
  );
  if (atBottom) list.scrollTop = list.scrollHeight;
}

export function renderOver(game, over) {
  const panel = $("over");
  const appearing = over && panel.hidden;
  panel.hidden = !over;
  document.body.classList.toggle("game-over", over);
  if (!over) return;
  if (appearing && typeof panel.scrollIntoView === "function") setTimeout(() => panel.scrollIntoView({ block: "nearest" }), 0);
  const loser = game.loser;
  const winner = game.match && game.match.previous ? game.match.previous.winner : null;
  let text;
  if (loser === 0) text = t("resultLose");
  else if ((loser === null || loser === undefined) && winner !== null && winner !== undefined) {
    text = t("resultAllTrumps", { name: seatName(winner) });
  } else if (loser === null || loser === undefined) text = t("resultDraw");
  else text = t("resultWin", { name: seatName(loser) });
  $("over-title").textContent = text;
  const scores = game.scores || [];
  $("scores").replaceChildren(
    ...scores.map((score, seat) => {
      const row = document.createElement("tr");
      if (seat === loser) row.className = "loser";
      const who = document.createElement("td");
      who.textContent = seatName(seat) + (seat === loser ? ` — ${t("loser")}` : "");
      const value = document.createElement("td");
      value.textContent = String(score);
      row.append(who, value);
      return row;
    }),
  );
}
