/* A followed game's view: the table as the following seat sees it, the entry of what happens next,
 * undo, a hint, the evaluation and the card tracker. Shared by the table assistant (a game from
 * its deal) and the analysis board (a game from a position).
 *
 * Every answer comes from the server: POST /v1/next says after each entry what the seat sees and
 * what may be entered next (docs/api.md §3), so only what can have happened is offered; an entry
 * the server refuses changes nothing. POST /v1/hint and POST /v1/evaluate take the same game.
 */

import { api } from "./api.js";
import { cardName, cardText, chanceWord, moveText, pct, rankedMoves, sortHand, suitOf } from "./cards.js";
import { bar, cardFace, el, miniCard } from "./faces.js";
import { cardsOfMoves, drawEvent, eventText, moveEvent, movesOfCard, nextBody, plainMoves, seatLabel, undone, withEvent } from "./entry.js";
import { t } from "./i18n.js";
import { cardPicker } from "./picker.js";
import { ApiFailure, clearMessage, showError, showMessage } from "./messages.js";
import { SEARCH_ITERATIONS } from "./state.js";

export const TRACKER_SHOWN = 4; // each other seat's likeliest unseen cards shown
const button = (text, onClick, className = "secondary") => {
  const node = el("button", className, text);
  node.type = "button";
  node.addEventListener("click", onClick);
  return node;
};

/* A follower draws one game in `root`. `onChange(game)` is told of every accepted entry (to keep
 * it); `actions()` gives the mode's own buttons. `hintBody(follower)` may say what a hint reads. */
export function createFollower({ root, onChange = () => {}, actions = () => [], note = () => null }) {
  const self = {
    game: null, // the entered game (entry.js)
    answer: null, // POST /v1/next's answer for it
    hint: null, // POST /v1/hint's answer, for `hintFor` entries
    hintFor: -1,
    evaluation: null, // POST /v1/evaluate's answer, for `evaluationFor` entries
    evaluationFor: -1,
    card: null, // another seat's card picked, while its moves are chosen
    drawn: [], // the cards of a draw picked so far
    busy: false,
  };

  const entries = () => (self.game ? self.game.events.length : -1);
  const mine = () => (self.answer ? self.answer.position.seat : 0);

  // One request at a time; the view says it is busy, and an error is shown without a change.
  async function work(task) {
    if (self.busy) return false;
    self.busy = true;
    root.setAttribute("aria-busy", "true");
    render();
    try {
      await task();
      return true;
    } catch (error) {
      showError(error);
      return false;
    } finally {
      self.busy = false;
      root.removeAttribute("aria-busy");
      render();
    }
  }

  // Show `game` (a new one, or one read back): asked of the server first, shown once it answers.
  self.load = (game) => work(async () => {
    const answer = await api("POST", "/v1/next", nextBody(game), { retry: ["busy", "network"] });
    clearMessage();
    Object.assign(self, { game, answer, card: null, drawn: [], hint: null, evaluation: null });
  });

  // Enter one event: kept only once the server has accepted it.
  self.enter = (event) => work(async () => {
    const game = withEvent(self.game, event);
    const answer = await api("POST", "/v1/next", nextBody(game), { retry: ["busy", "network"] });
    clearMessage();
    Object.assign(self, { game, answer, card: null, drawn: [] });
    onChange(game);
  });

  self.undo = () => {
    if (!self.game || !self.game.events.length) return;
    const game = undone(self.game);
    work(async () => {
      const answer = await api("POST", "/v1/next", nextBody(game), { retry: ["busy", "network"] });
      clearMessage();
      Object.assign(self, { game, answer, card: null, drawn: [] });
      onChange(game);
    });
  };

  // A record is read with its whole history; a position played on is asked as it stands now.
  const seenNow = () => (self.game.kind === "record" ? nextBody(self.game) : { position: self.answer.position });

  self.askHint = () => work(async () => {
    const at = entries();
    const hint = await api("POST", "/v1/hint", { ...seenNow(), limits: { iterations: SEARCH_ITERATIONS } }, { retry: true });
    clearMessage();
    Object.assign(self, { hint, hintFor: at });
  });

  self.askEvaluation = () => work(async () => {
    const at = entries();
    const evaluation = await api("POST", "/v1/evaluate", { ...seenNow(), limits: { iterations: SEARCH_ITERATIONS } }, { retry: true });
    clearMessage();
    Object.assign(self, { evaluation, evaluationFor: at });
  });

  // A card another seat played, picked: its one move is entered, or its moves are offered.
  function pickCard(card) {
    const moves = movesOfCard(self.answer.moves, card);
    if (moves.length === 1) self.enter(moveEvent(self.answer.to_move, moves[0]));
    else { self.card = card; render(); }
  }

  function refuse(text) {
    showMessage(t("notOffered", { what: text }));
  }

  function pickDrawn(card) {
    if (!self.drawn.includes(card)) self.drawn = [...self.drawn, card];
    if (self.drawn.length === self.answer.draw.count) self.enter(drawEvent(self.drawn));
    else render();
  }

  // -- drawing ----------------------------------------------------------------------------

  function seatsRow(pos) {
    const row = el("div", "follow-seats");
    for (let seat = 0; seat < pos.players; seat++) {
      const chip = el("div", "follow-seat");
      chip.dataset.seat = String(seat);
      if (seat === pos.seat) chip.classList.add("mine");
      if (self.answer.to_move === seat) chip.classList.add("to-move");
      const head = el("div", "follow-seat-head");
      head.append(el("span", "name", seatLabel(seat, pos.seat)), el("span", "count", t("cards", { n: pos.hand_counts[seat] })));
      const done = pos.finished.includes(seat);
      let role = null;
      if (done) role = t("roleDone");
      else if (pos.to_move !== null || self.answer.draw) {
        if (seat === pos.attacker) role = t("roleAttacker");
        else if (seat === pos.defender) role = pos.taking ? t("roleTaking") : t("roleDefender");
      }
      if (role) head.append(el("span", "badge", role));
      if (self.answer.scores) {
        const score = el("span", "badge score", t("seatScore", { n: self.answer.scores[seat] }));
        score.dataset.score = String(self.answer.scores[seat]);
        head.append(score);
      }
      chip.append(head);
      const known = (pos.known && pos.known[String(seat)]) || [];
      if (known.length) {
        const line = el("div", "known small", t("known") + " ");
        const cards = el("span", "mini-cards inline");
        cards.append(...sortHand(known, suitOf(pos.trump)).map(miniCard));
        line.append(cards);
        chip.append(line);
      }
      row.append(chip);
    }
    return row;
  }

  function deckLine(pos) {
    const line = el("div", "follow-deck");
    const trump = miniCard(pos.trump);
    trump.classList.add("trump");
    line.append(el("span", "", `${t("trump")}: `), trump, el("span", "", ` · ${t("stock")}: ${pos.stock} · ${t("discard")}: ${pos.discard.length}`));
    if (pos.discard.length) {
      const list = el("details", "discard-list");
      list.append(el("summary", "", t("discardCards")));
      const cards = el("div", "mini-cards");
      cards.append(...sortHand(pos.discard, suitOf(pos.trump)).map(miniCard));
      list.append(cards);
      line.append(list);
    }
    return line;
  }

  function tableView(pos) {
    const table = el("div", "follow-table");
    table.setAttribute("aria-label", t("table"));
    if (!pos.table.length) table.append(el("span", "empty muted", t("emptyTable")));
    for (const pair of pos.table) {
      const box = el("div", "pair" + (pair.defense ? "" : " undefended"));
      const attack = cardFace(pair.attack);
      attack.classList.add("attack");
      box.append(attack);
      if (pair.defense) {
        const defense = cardFace(pair.defense);
        defense.classList.add("defense");
        box.append(defense);
      }
      table.append(box);
    }
    return table;
  }

  function handView(pos) {
    const box = el("div", "follow-hand");
    box.append(el("h3", "", `${t("yourHand")} (${pos.hand.length})`));
    const cards = el("div", "mini-cards hand-cards");
    cards.append(...sortHand(pos.hand, suitOf(pos.trump)).map((card) => {
      const mini = miniCard(card);
      mini.dataset.card = card;
      return mini;
    }));
    box.append(cards);
    return box;
  }

  function statusText() {
    const answer = self.answer;
    const pos = answer.position;
    if (answer.draw) return t("followDraw", { n: answer.draw.count });
    if (answer.to_move === null) return pos.phase === "setup" ? t("followSecret") : t("followOver");
    if (answer.to_move === pos.seat) return t("followYourMove");
    return t("followTheirMove", { name: seatLabel(answer.to_move, pos.seat) });
  }

  function moveButtons(moves, seat) {
    const box = el("div", "follow-moves");
    for (const move of moves) {
      const b = button(moveText(move), () => self.enter(moveEvent(seat, move)), "action follow-move");
      b.dataset.move = JSON.stringify(move);
      b.disabled = self.busy;
      box.append(b);
    }
    return box;
  }

  function entryPanel() {
    const answer = self.answer;
    const pos = answer.position;
    const panel = el("section", "follow-entry");
    panel.setAttribute("aria-label", t("followEntry"));
    if (answer.draw) {
      const free = answer.draw.from.filter((card) => !self.drawn.includes(card));
      for (const card of answer.draw.with) if (!self.drawn.includes(card)) self.drawn = [...self.drawn, card];
      const chosen = el("p", "small", self.drawn.length ? t("drawnSoFar", { cards: self.drawn.map(cardText).join(" ") }) : "");
      panel.append(chosen);
      if (self.drawn.length) panel.append(button(t("drawAgain"), () => { self.drawn = []; render(); }));
      if (self.drawn.length === answer.draw.count) {
        const done = button(t("drawDone"), () => self.enter(drawEvent(self.drawn)), "primary");
        done.dataset.role = "draw-done";
        done.disabled = self.busy;
        panel.append(done);
      }
      else panel.append(cardPicker({ cards: free, onPick: pickDrawn, onRefuse: refuse, label: t("followDraw", { n: answer.draw.count }), id: `${root.id}-entry-picker` }));
      return panel;
    }
    if (answer.to_move === null) return panel;
    if (answer.to_move === pos.seat) {
      panel.append(moveButtons(answer.moves, pos.seat));
      return panel;
    }
    const plain = plainMoves(answer.moves);
    if (plain.length) panel.append(moveButtons(plain, answer.to_move));
    if (self.card) {
      panel.append(el("p", "small", t("cardDoes", { card: cardName(self.card) })));
      panel.append(moveButtons(movesOfCard(answer.moves, self.card), answer.to_move));
      panel.append(button(t("cancel"), () => { self.card = null; render(); }));
    } else if (cardsOfMoves(answer.moves).length) {
      panel.append(el("p", "small", t("pickTheirCard", { name: seatLabel(answer.to_move, pos.seat) })));
      panel.append(cardPicker({ cards: cardsOfMoves(answer.moves), onPick: pickCard, onRefuse: refuse, label: t("pickTheirCard", { name: seatLabel(answer.to_move, pos.seat) }), id: `${root.id}-entry-picker` }));
    }
    return panel;
  }

  function toolbar() {
    const bar = el("div", "follow-tools");
    const undo = button(t("undo"), self.undo);
    undo.dataset.role = "undo";
    undo.disabled = self.busy || !self.game.events.length;
    const hint = button(t("hint"), self.askHint, "hint");
    hint.dataset.role = "hint";
    hint.disabled = self.busy || self.answer.to_move !== self.answer.position.seat || !!self.answer.draw;
    const evaluate = button(t("followEvaluate"), self.askEvaluation);
    evaluate.dataset.role = "evaluate";
    evaluate.disabled = self.busy || !!self.answer.draw || self.answer.to_move === null;
    bar.append(undo, hint, evaluate, ...actions(self));
    return bar;
  }

  function hintPanel() {
    const hint = self.hintFor === entries() ? self.hint : null;
    if (!hint) return null;
    const panel = el("section", "panel follow-hint");
    panel.setAttribute("aria-label", t("hintTitle"));
    panel.append(el("h3", "", t("hintTitle")));
    const list = el("ol", "hint-moves");
    for (const entry of rankedMoves(hint.moves)) {
      const row = button("", () => self.enter(moveEvent(hint.seat, entry.move)), "hint-move");
      row.dataset.move = JSON.stringify(entry.move);
      row.dataset.score = String(entry.score);
      row.disabled = self.busy;
      row.append(el("span", "what", moveText(entry.move)), el("span", "pct", pct(entry.score)), bar(entry.score));
      const item = el("li");
      item.append(row);
      list.append(item);
    }
    panel.append(el("p", "evaluation", `${t("now")}: ${chanceWord(hint.chance)} ${pct(hint.evaluation.score)}`), list);
    return panel;
  }

  function evaluationPanel() {
    const ev = self.evaluationFor === entries() ? self.evaluation : null;
    if (!ev) return null;
    const pos = self.answer.position;
    const panel = el("section", "panel follow-evaluation");
    panel.setAttribute("aria-label", t("followEvaluation"));
    panel.append(el("h3", "", t("followEvaluation")));
    const scores = el("ul", "follow-scores");
    ev.scores.forEach((score, seat) => {
      const item = el("li", "", `${seatLabel(seat, pos.seat)}: ${pct(score)}`);
      item.dataset.seat = String(seat);
      scores.append(item);
    });
    panel.append(scores, el("h3", "", t("trackerTitle")));
    for (let seat = 0; seat < pos.players; seat++) {
      if (seat === pos.seat || pos.hand_counts[seat] === 0) continue;
      const likely = Object.entries(ev.cards).map(([card, row]) => [card, Number(row[seat]) || 0])
        .filter(([, chance]) => chance > 0).sort((a, b) => b[1] - a[1]).slice(0, TRACKER_SHOWN);
      const line = el("p", "small follow-likely", `${seatLabel(seat, pos.seat)}: `);
      line.dataset.seat = String(seat);
      line.append(...likely.flatMap(([card, chance]) => [miniCard(card), document.createTextNode(` ${pct(chance)}  `)]));
      panel.append(line);
    }
    return panel;
  }

  function historyList(pos) {
    const box = el("details", "follow-history");
    box.open = true;
    box.append(el("summary", "", t("history")));
    const list = el("ol", "history");
    list.append(...self.game.events.map((event) => el("li", "", eventText(event, pos.seat))));
    box.append(list);
    return box;
  }

  function render() {
    if (!self.answer) return;
    const pos = self.answer.position;
    const status = el("p", "status follow-status", statusText());
    status.setAttribute("aria-live", "polite");
    const parts = [status];
    const told = note(self);
    if (told) parts.push(told);
    parts.push(seatsRow(pos), deckLine(pos), tableView(pos), handView(pos), entryPanel(), toolbar());
    const hint = hintPanel();
    if (hint) parts.push(hint);
    const ev = evaluationPanel();
    if (ev) parts.push(ev);
    parts.push(historyList(pos));
    const view = el("div", "follow-view");
    view.dataset.entries = String(entries());
    view.dataset.toMove = self.answer.to_move === null ? "" : String(self.answer.to_move);
    view.append(...parts);
    // What the person was doing survives the new view: the focused tool, and a card half typed.
    const focused = document.activeElement && root.contains(document.activeElement) ? document.activeElement : null;
    const keep = focused && focused.dataset ? focused.dataset.role : null;
    const old = root.querySelector(".follow-view");
    const typing = old ? old.querySelector(".picker-input") : null;
    const typed = typing ? typing.value : "";
    old?.remove();
    root.append(view);
    if (keep) view.querySelector(`[data-role="${keep}"]`)?.focus({ preventScroll: true });
    const input = view.querySelector(".picker-input");
    if (input && typed && !self.busy) input.value = typed;
    if (input && focused === typing) input.focus({ preventScroll: true });
  }

  self.render = render;
  self.failed = (error) => error instanceof ApiFailure;
  return self;
}
