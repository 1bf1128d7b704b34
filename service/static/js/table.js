/* View: the table — status, opponents, the bout, the hand, the chooser, the moves and the setup
 * decisions. Each panel is drawn from the state; a click calls one of the `handlers` app.js gives. */

import { cardName, cardText, digitFor, leadText, moveText, seatName, shortSeatName, sortHand, suitOf, whyNot } from "./cards.js";
import { SUIT_GLYPH } from "./constants.js";
import { $ } from "./dom.js";
import { justDragged, startDrag } from "./drag.js";
import { cardFace, miniCard } from "./faces.js";
import { t } from "./i18n.js";
import { legalMoves, movesWithCard } from "./moves.js";
import { reviewOpen } from "./selectors.js";

export const RECENT_MAX = 8; // the engines' replies shown above the hand (the history has them all)

// The setup's decisions as buttons (docs/rules.md §1.7): what the seat may do before the first lead.
export function renderSetup(pos, state, handlers) {
  const panel = $("setup-panel");
  const setup = pos.phase === "setup" ? pos.setup : null;
  panel.hidden = !setup;
  if (!setup) return;
  const moves = legalMoves(state);
  let text = t("setupWait");
  // Asked with nothing to decide (docs/rules.md §1.7): keep is the only move.
  const keepOnly = pos.to_move === 0 && moves.length === 1 && moves[0].action === "keep";
  if (keepOnly) text = t(setup.step === "swap" ? "setupSwapNone" : "setupRedealNone");
  else if (setup.step === "redeal" && pos.to_move === 0) text = t("setupRedeal");
  else if (setup.step === "pick" && pos.to_move === 0) text = t("setupPick");
  else if (setup.step === "swap" && pos.to_move === 0) {
    // Which trump is the lowest is the rules' to say (the swap move names no card): not named here.
    const cede = state.game.position.rules && state.game.position.rules.trump_swap_cedes_lead === false ? "" : t("setupCede");
    text = t("setupSwap", { trump: cardText(pos.trump), cede });
  }
  $("setup-text").textContent = text;
  const sets = $("setup-sets");
  sets.replaceChildren();
  if (setup.sets) {
    setup.sets.forEach((part, index) => {
      const row = document.createElement("div");
      row.className = "setup-set";
      const label = document.createElement("span");
      label.className = "label";
      label.textContent = t("setOf", { n: index + 1 }); // as the pick buttons count them
      const trumpSuit = suitOf(pos.trump);
      const cards = sortHand(part, trumpSuit).map((card) => {
        const mini = miniCard(card);
        if (suitOf(card) === trumpSuit) {
          mini.classList.add("trump");
          mini.title = `${cardName(card)}, ${t("trumpCard")}`;
        }
        return mini;
      });
      const trumps = part.filter((card) => suitOf(card) === trumpSuit).length;
      const count = document.createElement("span");
      count.className = "small muted";
      count.textContent = t("setTrumps", { n: trumps });
      row.append(label, ...cards, count);
      sets.append(row);
    });
  }
  $("setup-buttons").replaceChildren(
    ...moves.map((move) => moveButton(move, "action setup-move", moveText(move), state, handlers)),
  );
}

export function renderStatus(game, pos, over, state) {
  const status = $("status");
  status.classList.toggle("over", over);
  let text;
  if (state.busy === "review") {
    const progress = state.reviewProgress;
    text = progress ? t("reviewProgress", { n: progress.done, of: progress.total }) : t("reviewThinking");
  }
  else if (over) text = game.match ? t("matchOver") : t("statusOver");
  else if (game.status === "between") text = t("betweenGames", { n: state.between.game });
  else if (state.busy === "move") text = state.playback ? t("statusBusy") : t("statusThinking");
  else if (pos.phase === "setup") text = pos.to_move === 0 ? t("beforePlay") : t("setupWait");
  else if (pos.to_move !== 0) text = t("statusWait", { name: seatName(pos.to_move) });
  else if (pos.defender === 0 && pos.table.length && pos.table.every((pair) => pair.defense)) {
    // Every card beaten and still to move (ôm khi đã đỡ, docs/rules.md §1.7): pass lets the defence stand.
    const take = legalMoves(state).some((m) => m.action === "take");
    text = take ? t("statusBeatenTake") : t("statusBeaten");
  } else if (pos.defender === 0) {
    text = legalMoves(state).some((m) => m.action === "transfer") ? t("statusDefendTransfer") : t("statusDefend");
  } else if (pos.table.length === 0) text = t("statusLead");
  else if (legalMoves(state).every((m) => m.action === "pass")) {
    text = pos.taking ? t("statusPassOnlyTaking", { name: seatName(pos.defender) }) : t("statusPassOnly");
  } else if (pos.taking) text = t("statusThrowTaking", { name: seatName(pos.defender) });
  else text = t("statusThrow");
  status.textContent = text;
}

export function renderOpponents(pos) {
  const box = $("opponents");
  box.replaceChildren();
  for (let seat = 1; seat < pos.players; seat++) {
    const el = document.createElement("div");
    el.className = "opponent";
    el.dataset.seat = String(seat);
    // Seats go round the table from your left: with three opponents or more the first and the
    // last sit at the table's sides.
    if (pos.players >= 4 && (seat === 1 || seat === pos.players - 1)) el.classList.add("flank");
    if (pos.attacker === seat && pos.phase !== "setup") el.classList.add("attacking");
    if (pos.defender === seat && pos.phase !== "setup") el.classList.add("defending");
    const done = pos.finished.includes(seat);
    if (pos.to_move === seat) el.classList.add("to-move");
    if (done) el.classList.add("finished");

    const head = document.createElement("div");
    head.className = "opponent-head";
    const name = document.createElement("span");
    name.className = "opponent-name";
    name.textContent = seatName(seat);
    head.append(name);
    const badge = (cls, text) => {
      const b = document.createElement("span");
      b.className = "badge " + cls;
      b.textContent = text;
      head.append(b);
    };
    if (done) badge("done", t("roleDone"));
    else if (pos.phase === "setup") { /* no bout yet: nobody attacks or defends */ }
    else if (pos.to_move !== null && pos.attacker === seat) badge("attacker", t("roleAttacker"));
    if (pos.phase !== "setup" && pos.to_move !== null && pos.defender === seat) {
      badge(pos.taking ? "taking" : "defender", pos.taking ? t("roleTaking") : t("roleDefender"));
    }
    el.append(head);

    const count = pos.hand_counts[seat];
    const backs = document.createElement("div");
    backs.className = "backs";
    const fan = document.createElement("span");
    fan.className = "backs-fan";
    fan.setAttribute("aria-hidden", "true");
    for (let i = 0; i < Math.min(count, 8); i++) {
      const back = document.createElement("span");
      back.className = "card back";
      fan.append(back);
    }
    const countText = document.createElement("span");
    countText.className = "count";
    countText.textContent = t("cards", { n: count });
    backs.append(fan, countText);
    el.append(backs);

    const known = (pos.known && pos.known[String(seat)]) || [];
    if (known.length) {
      const line = document.createElement("div");
      line.className = "known";
      line.append(document.createTextNode(t("known") + " "));
      const cards = document.createElement("span");
      cards.className = "mini-cards inline";
      cards.append(...sortHand(known, suitOf(pos.trump)).map(miniCard));
      line.append(cards);
      el.append(line);
    }
    box.append(el);
  }
}

export function renderTable(pos, ended, state, handlers) {
  const table = $("table");
  table.replaceChildren();
  table.classList.toggle("ended", ended);
  if (ended) {
    const caption = document.createElement("p");
    caption.className = "ended-caption";
    caption.textContent = t("lastBout");
    table.append(caption);
  }
  if (pos.table.length === 0) {
    const empty = document.createElement("span");
    empty.className = "empty";
    empty.textContent = t("emptyTable");
    table.append(empty);
    return;
  }
  const targets = new Set(
    state.choosing ? state.choosing.moves.filter((m) => m.action === "defend").map((m) => m.target) : [],
  );
  for (const pair of pos.table) {
    const el = document.createElement("div");
    el.className = "pair" + (pair.defense ? "" : " undefended");
    let attack;
    if (targets.has(pair.attack)) {
      attack = cardFace(pair.attack, "button");
      attack.type = "button";
      attack.classList.add("target");
      const move = state.choosing.moves.find((m) => m.action === "defend" && m.target === pair.attack);
      attack.addEventListener("click", () => handlers.playMove(move));
    } else {
      attack = cardFace(pair.attack);
    }
    attack.classList.add("attack");
    el.append(attack);
    if (pair.defense) {
      const defense = cardFace(pair.defense);
      defense.classList.add("defense");
      el.append(defense);
    }
    table.append(el);
  }
}

// Why an engine led the game's first bout, until the player has moved: the view's `lead` (who and
// why, docs/api.md §3), not a rule worked out here.
export function whyLead(game) {
  const number = game.match ? game.match.game : null;
  const ours = game.history.filter((entry) => number === null || entry.game === number);
  if (ours.some((entry) => entry.seat === 0)) return null;
  const led = ours.some((entry) => entry.move.action === "attack");
  return led && game.lead && game.lead.seat !== 0 ? leadText(game.lead) : null;
}

export function renderRecent(game) {
  const box = $("recent");
  box.replaceChildren();
  const history = game.history;
  let start = history.length;
  while (start > 0 && history[start - 1].seat !== 0) start--;
  if (start === history.length) return;
  const why = whyLead(game);
  if (why) {
    const note = document.createElement("span");
    note.className = "why";
    note.textContent = why + " ";
    box.append(note);
  }
  box.append(document.createTextNode(t(start === 0 ? "recentStart" : "recent") + " "));
  const shown = Math.max(start, history.length - RECENT_MAX);
  if (shown > start) box.append(document.createTextNode("… "));
  for (const entry of history.slice(shown)) {
    const chip = document.createElement("span");
    chip.className = "move-chip";
    chip.textContent = `${shortSeatName(entry.seat)}: ${moveText(entry.move)}`;
    box.append(chip);
  }
}

export function renderHand(pos, trumpSuit, myTurn, state, handlers) {
  const hand = $("hand");
  const focused = document.activeElement && hand.contains(document.activeElement) ? document.activeElement.dataset.card : null;
  hand.replaceChildren();
  $("hand-count").textContent = `(${t("cards", { n: pos.hand.length })})`;
  const role = $("my-role");
  let mine = null;
  if (pos.finished.includes(0)) mine = ["done", t("roleDone")];
  else if (pos.phase !== "setup" && state.game.status === "playing" && pos.defender === 0) {
    mine = pos.taking ? ["taking", t("roleTaking")] : ["defender", t("roleDefender")];
  } else if (pos.phase !== "setup" && state.game.status === "playing" && pos.attacker === 0) mine = ["attacker", t("roleAttacker")];
  role.hidden = !mine;
  role.className = "badge " + (mine ? mine[0] : "");
  role.textContent = mine ? mine[1] : "";
  const sorted = sortHand(pos.hand, trumpSuit);
  const plain = document.createElement("div");
  plain.className = "suit-group";
  const trumps = document.createElement("div");
  trumps.className = "suit-group trumps";
  const label = document.createElement("span");
  label.className = "group-label";
  label.textContent = `${t("trump")} `;
  const glyph = document.createElement("span");
  glyph.className = trumpSuit === "h" || trumpSuit === "d" ? "red" : "";
  glyph.textContent = SUIT_GLYPH[trumpSuit];
  label.append(glyph);
  trumps.append(label);
  const tilt = (index, count) => (count > 1 ? (index - (count - 1) / 2) * Math.min(3, 18 / count) : 0);
  const count = sorted.length;
  sorted.forEach((card, index) => {
    const button = cardFace(card, "button");
    button.type = "button";
    button.style.setProperty("--tilt", `${tilt(index, count).toFixed(2)}deg`);
    const legal = myTurn && movesWithCard(state, card).length > 0;
    button.classList.toggle("legal", legal);
    button.classList.toggle("trump", suitOf(card) === trumpSuit);
    button.classList.toggle("chosen", !!(state.choosing && state.choosing.card === card));
    const picked = !reviewOpen(state) && !!(state.picked && state.picked.has(card)); // the game's last take, not the review's
    button.classList.toggle("picked", picked);
    if (picked) button.setAttribute("aria-description", t("pickedUp"));
    // A card that cannot be played stays readable and focusable; a click says why not.
    if (reviewOpen(state)) button.disabled = true;
    else if (!legal || state.busy) button.setAttribute("aria-disabled", "true");
    if (suitOf(card) === trumpSuit) button.setAttribute("aria-label", `${cardName(card)}, ${t("trumpCard")}`);
    button.addEventListener("click", () => { if (!justDragged()) handlers.clickCard(card); });
    button.addEventListener("pointerdown", (event) => startDrag(event, card, button, state, handlers.dropCard));
    (suitOf(card) === trumpSuit ? trumps : plain).append(button);
  });
  if (plain.childElementCount) hand.append(plain);
  if (trumps.childElementCount > 1) hand.append(trumps);
  fitHand(hand);
  if (focused) {
    const again = hand.querySelector(`button[data-card="${focused}"]`);
    if (again && !again.disabled) again.focus();
  }
}

// Why the card just tried cannot be played, beside the hand, while the game shown is the one it
// was tried in (a move, or a reply of the engines, takes it away).
export function renderWhyNot(game, state) {
  const box = $("why-not");
  const why = state.whyNot;
  const shown = !!(why && !reviewOpen(state) && state.game && why.plies === state.game.history.length
    && game.status === "playing");
  box.hidden = !shown;
  box.textContent = shown ? whyNot(state.game, why.card, !!state.busy) : ""; // the API's reason (cards.js whyNot)
}

// Fan the hand to fit its width: the cards overlap more as it grows, but each keeps its corner (rank
// and suit) in view beside the card over it, raised or not; past that, a suit group goes on in a
// row of its own, and a group longer than a row in more rows. Run again when the hand's width
// changes (a phone turned, the dock shown at the end of a game for its review).
export function fitHand(hand = $("hand")) {
  for (const extra of hand.querySelectorAll(".suit-group.more")) {
    extra.previousElementSibling.append(...extra.querySelectorAll("button.card"));
    extra.remove();
  }
  const first = hand.querySelector("button.card");
  if (!first || !first.offsetWidth || !hand.clientWidth) return; // not laid out (hidden): next time
  const px = (el, ...names) => names.reduce((sum, name) => sum + (parseFloat(getComputedStyle(el)[name]) || 0), 0);
  const width = first.offsetWidth;
  const least = first.querySelector(".corner").offsetWidth + 8; // the corner, and room for tilt and lift
  const room = hand.clientWidth - px(hand, "paddingLeft", "paddingRight") - 8; // 8: the fan's tilt
  const gap = px(hand, "columnGap");
  const groups = [...hand.querySelectorAll(":scope > .suit-group")].map((group) => ({
    group,
    cards: [...group.querySelectorAll("button.card")],
    // Its own padding and border, and the room each row of it has for cards.
    room: room - (group.offsetWidth - group.clientWidth) - px(group, "paddingLeft", "paddingRight"),
  }));
  const total = groups.reduce((sum, g) => sum + g.cards.length, 0);
  const fixed = groups.reduce((sum, g) => sum + (room - g.room) + width, 0) + gap * (groups.length - 1);
  let step = (room - fixed) / Math.max(1, total - groups.length); // all in one row
  if (step < least) {
    step = Infinity;
    for (const g of groups) {
      const perRow = Math.max(2, Math.floor((g.room - width) / least) + 1);
      let last = g.group;
      for (let at = perRow; at < g.cards.length; at += perRow) {
        const row = document.createElement("div");
        row.className = g.group.className + " more"; // no label: the group's first row has it
        row.append(...g.cards.slice(at, at + perRow));
        last.after(row);
        last = row;
      }
      const inRow = Math.min(perRow, g.cards.length);
      if (inRow > 1) step = Math.min(step, (g.room - width) / (inRow - 1));
    }
  }
  hand.style.setProperty("--fan-step", `${Math.min(width * 0.62, step) - width}px`);
}

export function renderChooser(state, handlers) {
  const box = $("chooser");
  if (!state.choosing) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  $("chooser-title").textContent = state.choosing.title;
  const options = $("chooser-options");
  options.replaceChildren(
    ...state.choosing.moves.map((move) => moveButton(move, "choice", chooserLabel(move, state), state, handlers)),
  );
}

export function renderMoves(state, handlers) {
  const list = $("moves");
  list.replaceChildren(
    ...legalMoves(state).map((move, index) => {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.className = "move";
      button.disabled = state.busy;
      const num = document.createElement("span");
      num.className = "num";
      num.textContent = digitFor(index);
      button.append(num, document.createTextNode(moveText(move)));
      button.addEventListener("click", () => handlers.playMove(move));
      item.append(button);
      return item;
    }),
  );
}

/** A button that plays `move` (shown as `label`), off while the page waits for an answer. */
function moveButton(move, className, label, state, handlers) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = className;
  button.textContent = label;
  button.disabled = state.busy;
  button.addEventListener("click", () => handlers.playMove(move));
  return button;
}

// A chooser's row: a defence names the attack card it beats (the card is the one chosen).
export function chooserLabel(move, state) {
  if (move.action === "defend" && state.choosing && state.choosing.card) return t("beat", { target: cardText(move.target) });
  return moveText(move);
}
