/* Mode: one followed game (createFollower), its store, actions and view in one closure — the
 * table as the following seat sees it, the entry of what happens next, undo, a hint, the evaluation and
 * the card tracker. Shared by the table assistant (a game from its deal) and the analysis board
 * (a game from a position).
 *
 * Every answer comes from the server: POST /v1/next says after each entry what the seat sees and
 * what may be entered next (docs/api.md §3), so only what can have happened is offered; an entry
 * the server refuses changes nothing. POST /v1/hint and POST /v1/evaluate take the same game.
 */

import { api } from "./api.js";
import { LINE_PLIES, cardName, cardText, certainty, chanceWord, lineText, moveText, outcome, pct, rankedMoves, sortHand, suitOf, valueText } from "./cards.js";
import { SEARCH_ITERATIONS } from "./constants.js";
import { allTrumpsEvent, cardsOfMoves, drawEvent, eventText, moveEvent, movesOfCard, namerOf, nextBody, plainMoves, redealEvent, resultWords, soleMover, tributeEvent, undone, withEvent } from "./entry.js";
import { bar, cardFace, el, miniCard } from "./faces.js";
import { ApiFailure } from "./failures.js";
import { t } from "./i18n.js";
import { clearMessage, showError, showMessage } from "./messages.js";
import { cardPicker } from "./picker.js";
import { nowValue } from "./review-steps.js";

export const TRACKER_SHOWN = 4; // each other seat's likeliest unseen cards shown
const button = (text, onClick, className = "secondary") => {
  const node = el("button", className, text);
  node.type = "button";
  node.addEventListener("click", onClick);
  return node;
};

/* A follower draws one game in `root`. `onChange(game)` is told of every accepted entry (to keep
 * it); `actions()` gives the mode's own buttons, `note()` the mode's own lines under the status
 * (an element, a list of them, or null). */
export function createFollower({ root, onChange = () => {}, actions = () => [], note = () => null }) {
  const self = {
    game: null, // the entered game (entry.js)
    answer: null, // POST /v1/next's answer for it
    hint: null, // POST /v1/hint's answer, for `hintFor` entries
    hintFor: -1,
    evaluation: null, // POST /v1/evaluate's answer, for `evaluationFor` entries
    evaluationFor: -1,
    card: null, // another seat's card picked, while its moves are chosen
    naming: null, // cards being named for an entry: {title, need (count, with, from), then(cards)}
    named: [], // the cards named so far (the draw's, or the `naming`'s)
    busy: false,
  };

  const entries = () => (self.game ? self.game.events.length : -1);
  // The seats named as the game followed names them (entry.js namerOf).
  const seatLabel = (seat, seen) => namerOf(self.game)(seat, seen);
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
    Object.assign(self, { game, answer, card: null, naming: null, named: [], hint: null, evaluation: null });
  });

  // Enter one event: kept only once the server has accepted it.
  self.enter = (event) => work(async () => {
    const game = withEvent(self.game, event);
    const answer = await api("POST", "/v1/next", nextBody(game), { retry: ["busy", "network"] });
    clearMessage();
    Object.assign(self, { game, answer, card: null, naming: null, named: [] });
    onChange(game);
  });

  self.undo = () => {
    if (!self.game || !self.game.events.length) return;
    const game = undone(self.game);
    work(async () => {
      const answer = await api("POST", "/v1/next", nextBody(game), { retry: ["busy", "network"] });
      clearMessage();
      Object.assign(self, { game, answer, card: null, naming: null, named: [] });
      onChange(game);
    });
  };

  // A record is read with its whole history; a position played on is asked as it stands now.
  const seenNow = () => (self.game.kind === "record" ? nextBody(self.game) : { position: self.answer.position });

  self.askHint = () => work(async () => {
    const at = entries();
    // `pv`: each move's line, the continuation the search expects (docs/api.md §3 "Lines").
    const hint = await api("POST", "/v1/hint", { ...seenNow(), limits: { iterations: SEARCH_ITERATIONS }, pv: LINE_PLIES }, { retry: true });
    clearMessage();
    Object.assign(self, { hint, hintFor: at });
  });

  self.askEvaluation = () => work(async () => {
    const at = entries();
    const evaluation = await api("POST", "/v1/evaluate", { ...seenNow(), limits: { iterations: SEARCH_ITERATIONS } }, { retry: true });
    clearMessage();
    Object.assign(self, { evaluation, evaluationFor: at });
  });

  // A move chosen for a seat: entered at once, or, for a redeal, once the cards it shows (and,
  // the seat's own, the two hands offered to it) are named.
  function choose(mover, move) {
    if (move.action !== "redeal") { self.enter(moveEvent(mover.seat, move)); return; }
    const shown = mover.shown;
    const withShown = (cards) => {
      if (!mover.sets) { self.enter(redealEvent(mover.seat, cards)); return; }
      nameCards(t("nameSet", { n: 1 }), mover.sets, (first) => nameCards(t("nameSet", { n: 2 }),
        { ...mover.sets, from: mover.sets.from.filter((card) => !first.includes(card)) },
        (second) => self.enter(redealEvent(mover.seat, cards, [first, second]))));
    };
    if (shown.with.length === shown.count) withShown(shown.with);
    else nameCards(t("nameShown", { name: seatLabel(mover.seat, mine()) }), shown, withShown);
  }

  // Ask for `need.count` cards of `need.from` (those of `need.with` given), then `then(cards)`.
  function nameCards(title, need, then) {
    self.naming = { title, need, then };
    self.named = [...need.with];
    render();
  }

  // A card another seat played, picked: its one move is entered, or its moves are offered.
  function pickCard(mover, card) {
    const moves = movesOfCard(mover.moves, card);
    if (moves.length === 1) choose(mover, moves[0]);
    else { self.card = { seat: mover.seat, card }; render(); }
  }

  function refuse(text) {
    showMessage(t("notOffered", { what: text }));
  }

  // The naming under way: the draw the server asks for, else the one an entry started.
  const currentNaming = () => self.naming
    || (self.answer.draw ? { title: t("followDraw", { n: self.answer.draw.count }), need: self.answer.draw, then: (cards) => self.enter(drawEvent(cards)) } : null);

  function pickNamed(card) {
    const naming = currentNaming();
    if (!self.named.includes(card)) self.named = [...self.named, card];
    if (self.named.length === naming.need.count) naming.then(self.named);
    else render();
  }

  // A tribute entry chosen (for the receiver, by its card): entered once the hand it inspects is named.
  function chooseTribute(entry) {
    if (!entry.inspected) { self.enter(tributeEvent(entry.card)); return; }
    nameCards(t("nameInspected"), entry.inspected, (cards) => self.enter(tributeEvent(entry.card, cards)));
  }

  function chooseAllTrumps(entry) {
    const win = (cards) => self.enter(allTrumpsEvent(entry.seat, cards));
    if (entry.shown.with.length === entry.shown.count) win(entry.shown.with);
    else nameCards(t("nameShown", { name: seatLabel(entry.seat, mine()) }), entry.shown, win);
  }

  // -- drawing ----------------------------------------------------------------------------

  function seatsRow(pos) {
    const row = el("div", "follow-seats");
    for (let seat = 0; seat < pos.players; seat++) {
      const chip = el("div", "follow-seat");
      chip.dataset.seat = String(seat);
      if (seat === pos.seat) chip.classList.add("mine");
      if (self.answer.movers.some((mover) => mover.seat === seat)) chip.classList.add("to-move");
      const head = el("div", "follow-seat-head");
      head.append(el("span", "name", seatLabel(seat, pos.seat)), el("span", "count", t("cards", { n: pos.hand_counts[seat] })));
      const done = pos.finished.includes(seat);
      let role = null;
      if (done) role = t("roleDone");
      else if (pos.phase !== "setup" && (pos.to_move !== null || self.answer.draw)) {
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
    const naming = currentNaming();
    if (naming) return naming.title;
    if (answer.to_move === null) {
      if (answer.movers.length || answer.tributes.length || answer.all_trumps.length) return t("followWhich");
      return answer.scores ? resultWords(answer.scores, pos.seat, seatLabel) : t("followOver");
    }
    if (answer.to_move === pos.seat) return t("followYourMove");
    return t("followTheirMove", { name: seatLabel(answer.to_move, pos.seat) });
  }

  function moveButtons(mover, moves) {
    const box = el("div", "follow-moves");
    for (const move of moves) {
      const b = button(moveText(move), () => choose(mover, move), "action follow-move");
      b.dataset.move = JSON.stringify(move);
      b.disabled = self.busy;
      box.append(b);
    }
    return box;
  }

  // What one seat may do next: its moves as buttons, another seat's cards through the picker.
  function moverBox(mover, pos, titled, pickerId) {
    const box = el("div", "follow-mover");
    box.dataset.seat = String(mover.seat);
    if (titled) box.append(el("h4", "", seatLabel(mover.seat, pos.seat)));
    if (mover.seat === pos.seat) { box.append(moveButtons(mover, mover.moves)); return box; }
    const plain = plainMoves(mover.moves);
    if (plain.length) box.append(moveButtons(mover, plain));
    if (self.card && self.card.seat === mover.seat) {
      box.append(el("p", "small", t("cardDoes", { card: cardName(self.card.card) })));
      box.append(moveButtons(mover, movesOfCard(mover.moves, self.card.card)));
      box.append(button(t("cancel"), () => { self.card = null; render(); }));
    } else if (cardsOfMoves(mover.moves).length) {
      const label = t("pickTheirCard", { name: seatLabel(mover.seat, pos.seat) });
      box.append(el("p", "small", label));
      box.append(cardPicker({ cards: cardsOfMoves(mover.moves), onPick: (card) => pickCard(mover, card), onRefuse: refuse, label, id: pickerId }));
    }
    return box;
  }

  // The cards being named: those chosen so far, the picker for the rest, done once all are in.
  function namingBox(naming) {
    const box = el("div", "follow-naming");
    const { need } = naming;
    for (const card of need.with) if (!self.named.includes(card)) self.named = [...self.named, card];
    box.append(el("p", "small", self.named.length ? t("drawnSoFar", { cards: self.named.map(cardText).join(" ") }) : ""));
    if (self.named.length > need.with.length) box.append(button(t("drawAgain"), () => { self.named = [...need.with]; render(); }));
    if (self.naming) box.append(button(t("cancel"), () => { self.naming = null; self.named = []; render(); }));
    if (self.named.length === need.count) {
      const done = button(t("drawDone"), () => naming.then(self.named), "primary");
      done.dataset.role = "cards-done";
      done.disabled = self.busy;
      box.append(done);
    } else {
      const free = need.from.filter((card) => !self.named.includes(card));
      box.append(cardPicker({ cards: free, onPick: pickNamed, onRefuse: refuse, label: naming.title, id: `${root.id}-entry-picker` }));
    }
    return box;
  }

  // The tribute given next: a button for each entry, or, for the receiver, its card picked.
  function tributeBox(entries) {
    const box = el("div", "follow-tribute");
    box.append(el("h4", "", t("tributeTitle")));
    const cards = entries.filter((entry) => entry.card).map((entry) => entry.card);
    if (cards.length > 1) {
      box.append(el("p", "small", t("pickTribute")));
      box.append(cardPicker({ cards, onPick: (card) => chooseTribute(entries.find((entry) => entry.card === card)), onRefuse: refuse, label: t("pickTribute"), id: `${root.id}-tribute-picker` }));
    }
    for (const entry of entries) {
      if (cards.length > 1 && entry.card) continue;
      const b = button(entry.card ? t("tributeCard", { card: cardText(entry.card) }) : t("tributeUnseen"), () => chooseTribute(entry), "action follow-move");
      b.dataset.tribute = entry.card || "";
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
    const naming = currentNaming();
    if (naming) { panel.append(namingBox(naming)); return panel; }
    const only = soleMover(answer);
    let pickerId = `${root.id}-entry-picker`;
    for (const mover of answer.movers) {
      panel.append(moverBox(mover, pos, !only, pickerId));
      if (cardsOfMoves(mover.moves).length) pickerId = `${root.id}-entry-picker-${mover.seat}`;
    }
    if (answer.tributes.length) panel.append(tributeBox(answer.tributes));
    for (const entry of answer.all_trumps) {
      const b = button(t("allTrumpsWin", { name: seatLabel(entry.seat, pos.seat) }), () => chooseAllTrumps(entry), "action follow-move");
      b.dataset.allTrumps = String(entry.seat);
      b.disabled = self.busy;
      panel.append(b);
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
    const mover = self.answer.movers.find((each) => each.seat === self.answer.position.seat);
    hint.disabled = self.busy || !mover || !!currentNaming();
    const evaluate = button(t("followEvaluate"), self.askEvaluation);
    evaluate.dataset.role = "evaluate";
    evaluate.disabled = self.busy || !!currentNaming() || !self.answer.movers.length;
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
      const mover = self.answer.movers.find((each) => each.seat === hint.seat) || { seat: hint.seat, moves: [] };
      const row = button("", () => choose(mover, entry.move), "hint-move");
      row.dataset.move = JSON.stringify(entry.move);
      row.dataset.score = String(entry.score);
      row.disabled = self.busy;
      row.dataset.exact = String(!!entry.exact);
      // A proven value in words (certain win, draw or loss), as the game's hint says it.
      row.append(el("span", "pct" + (entry.exact ? ` certain ${outcome(entry.score)}` : ""), valueText(entry)), bar(entry.score));
      row.prepend(el("span", "what", moveText(entry.move)));
      const item = el("li");
      item.append(row);
      const line = lineText(entry.line, (seat) => seatLabel(seat, hint.seat));
      if (line) item.append(el("p", "small muted hint-line", line));
      list.append(item);
    }
    const now = nowValue(hint, rankedMoves(hint.moves)); // the best row's value: "now" never reads below it
    const nowLine = el("p", "evaluation", `${t("now")}: ${now.exact ? certainty(now.score) : `${chanceWord(hint.chance)} ${pct(now.score)}`}`);
    nowLine.dataset.exact = String(!!now.exact);
    panel.append(nowLine, list);
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
      const item = el("li", "", `${seatLabel(seat, pos.seat)}: ${valueText({ score, exact: ev.exact })}`); // proven: in words
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
    list.append(...self.game.events.map((event) => el("li", "", eventText(event, pos.seat, namerOf(self.game)))));
    box.append(list);
    return box;
  }

  function render() {
    if (!self.answer) return;
    const pos = self.answer.position;
    const status = el("p", "status follow-status", statusText());
    status.setAttribute("aria-live", "polite");
    const parts = [status];
    parts.push(...[note(self)].flat().filter(Boolean));
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
