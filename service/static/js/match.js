/* View: a match's panel, the move log, and the game over. */

import { cardText, lastBout, leadText, moveText, seatName, shortSeatName } from "./cards.js";
import { SUIT_GLYPH } from "./constants.js";
import { $ } from "./dom.js";
import { miniCard } from "./faces.js";
import { t } from "./i18n.js";

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
      item.append(who, what);
      return item;
    }),
  );
  if (atBottom) list.scrollTop = list.scrollHeight;
}

// The last bout of a match's game that just ended, beside its result (the table shows the next
// deal): each attack card, and the card that beat it.
function renderLastBout(pairs) {
  const box = $("over-bout");
  box.hidden = !pairs.length;
  if (!pairs.length) return;
  box.replaceChildren(document.createTextNode(t("lastBout") + " "), ...pairs.flatMap((pair) => {
    const shown = document.createElement("span");
    shown.className = "bout-pair";
    shown.append(miniCard(pair.attack));
    if (pair.defense) shown.append("/", miniCard(pair.defense));
    return [shown, " "];
  }));
}

// A game's result in a sentence, from the loser (and, with none, the winner) the API gave.
function resultText(loser, winner) {
  const none = (seat) => seat === null || seat === undefined;
  if (loser === 0) return t("resultLose");
  if (none(loser) && !none(winner)) return t("resultAllTrumps", { name: seatName(winner) });
  if (none(loser)) return t("resultDraw");
  return t("resultWin", { name: seatName(loser) });
}

// The scores table: one row a seat, the loser marked.
function scoreRows(scores, loser) {
  return scores.map((score, seat) => {
    const row = document.createElement("tr");
    if (seat === loser) row.className = "loser";
    const who = document.createElement("td");
    who.textContent = seatName(seat) + (seat === loser ? ` — ${t("loser")}` : "");
    const value = document.createElement("td");
    value.textContent = String(score);
    row.append(who, value);
    return row;
  });
}

// The end of a game, of a match's game (the between-games screen: its result, the tribute, who
// deals and who leads next, "Next game"), or of a match (who won it, the standings).
export function renderOver(game, over) {
  const panel = $("over");
  const between = game.status === "between";
  const shown = over || between;
  const appearing = shown && panel.hidden;
  panel.hidden = !shown;
  document.body.classList.toggle("game-over", shown);
  document.body.classList.toggle("between-games", between);
  if (!shown) return;
  if (appearing && typeof panel.scrollIntoView === "function") setTimeout(() => panel.scrollIntoView({ block: "nearest" }), 0);
  const match = game.match;
  const prev = match ? match.previous : null;
  const lines = [];
  let title;
  let scores;
  let loser;
  if (between && prev) {
    title = `${t("gameEnded", { n: prev.game, of: match.games })} ${resultText(prev.loser, prev.winner)}`;
    scores = prev.scores;
    loser = prev.loser;
    const tribute = match.tribute;
    if (tribute) {
      const names = { giver: seatName(tribute.giver), receiver: seatName(tribute.receiver) };
      lines.push(tribute.card ? t("tributeGiven", { ...names, card: cardText(tribute.card) }) : t("tributeHidden", names));
    }
    lines.push(t("nextGame", { n: match.game, dealer: seatName(match.dealer) }), leadText(game.lead));
  } else if (match) {
    const winners = match.winners || [];
    title = winners.includes(0) && winners.length === 1 ? t("matchWonYou")
      : winners.length === 1 ? t("matchWon", { name: seatName(winners[0]) })
        : t("matchShared", { names: winners.map(seatName).join(", ") });
    if (prev) lines.push(t("previousGame", { n: prev.game, what: resultText(prev.loser, prev.winner) }));
    scores = match.standings.map((row) => row.score);
    loser = null;
  } else {
    title = resultText(game.loser, null);
    scores = game.scores || [];
    loser = game.loser;
  }
  renderLastBout(between ? lastBout(game.history) : []);
  $("over-title").textContent = title;
  $("over-detail").textContent = lines.join(" ");
  $("over-detail").hidden = !lines.length;
  $("scores").replaceChildren(...scoreRows(scores || [], loser));
  $("next-game").hidden = !between;
  for (const id of ["new-game-over"]) $(id).hidden = between;
}
