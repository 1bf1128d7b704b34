/* Pure: the failures the page tells apart — the API's, by their codes, and a saved game that is gone. */

import { cardText, moveText } from "./cards.js";
import { language, t, TEXT } from "./i18n.js";

export class ApiFailure extends Error {
  constructor(status, code, detail, retryAfter) {
    super(detail);
    this.status = status;
    this.code = code;
    this.retryAfter = retryAfter;
  }
  // The failure in the page's language, from its code, and, where the server names what is wrong
  // in what was sent (a line, a card, a count), the server's own words, translated where the page
  // has words for them (serverWords).
  describe() {
    if (this.status === 0) return t("networkError");
    if (this.code === "busy") return t("busy", { s: this.retryAfter || 1 });
    const key = "err_" + this.code;
    const words = key in TEXT.en ? t(key) : t("errorOther", { status: this.status });
    if (!NAMED.has(this.code) || !this.message) return words;
    return `${words} ${serverWords(this.message, language())}`;
  }
}

// The codes of input the server refuses with a detail that names what is wrong (docs/api.md
// "Errors"); the others' details (an internal error, a token) say nothing a player can act on.
const NAMED = new Set([
  "invalid_card", "duplicate_card", "card_not_in_deck", "count_mismatch", "inconsistent_turn", "invalid_position",
  "invalid_seat", "bad_players", "invalid_move", "illegal_move", "invalid_record", "not_your_turn",
]);

// The server's phrases the Vietnamese page words itself (the server writes English): each a
// pattern and its words; whatever is left (a card, a number, a field's name) stays as written.
const VI_PHRASES = [
  [/\bline (\d+):/gu, "dòng $1:"],
  [/\bevents\[(\d+)\]:/gu, (all, i) => `sự kiện thứ ${Number(i) + 1}:`],
  [/\bnot a card: /gu, "không phải lá bài: "],
  [/\bnot a suit: /gu, "không phải chất bài: "],
  [/\(expected rank then suit, e\.g\. ([^)]*)\)/gu, "(hạng rồi chất, ví dụ $1)"],
  [/\bcards do not add up to the (\d+)-card deck: hands (\d+) \+ stock (\d+) \+ table (\d+) \+ discard (\d+)/gu,
    "số lá không khớp với bộ $1 lá: trên tay $2 + nọc $3 + bàn $4 + rác $5"],
  [/\+ set aside in the setup (\d+)/gu, "+ để riêng lúc chia $1"],
  [/the trump card (\S+) still lies at the bottom of the stock \(stock (\d+)\), so it cannot be here too/gu,
    "lá chủ $1 vẫn nằm dưới nọc (nọc $2 lá), nên không thể ở đây nữa"],
  [/hand_counts\[(\d+)\] is (\d+) but hand holds (\d+) cards/gu, "hand_counts[$1] là $2 nhưng trên tay có $3 lá"],
  [/\bknown: (\d+) cards known in seat (\d+)'s hand, which holds (\d+)/gu,
    (all, known, seat, holds) => `đã biết ${known} lá trên tay Ghế ${Number(seat) + 1}, mà ghế đó chỉ có ${holds} lá`],
  [/\bappears twice\b/gu, "xuất hiện hai lần"],
  [/\bis not in a (\d+)-card deck/gu, "không có trong bộ $1 lá"],
  [/\billegal move: /gu, "nước không hợp lệ: "],
  // Moves and cards in the server's notation, in the page's words and glyphs.
  [/\bdefend ([2-9TJQKA][shdc]) with ([2-9TJQKA][shdc])\b/gu, (all, target, card) => moveText({ action: "defend", target, card })],
  [/\b(attack|transfer) ([2-9TJQKA][shdc])\b/gu, (all, action, card) => moveText({ action, card })],
  [/\b([2-9TJQKA][shdc])\b/gu, (all, card) => cardText(card)],
];

// The server's detail as the page shows it: as written on the English page; on the Vietnamese
// page with the phrases it has words for translated. A sentence, ending with a full stop.
export function serverWords(detail, lang) {
  let text = String(detail).trim();
  if (lang === "vi") for (const [pattern, words] of VI_PHRASES) text = text.replace(pattern, words);
  text = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?)]$/u.test(text) ? text : `${text}.`;
}

// A saved game the server no longer has (or will not show): its code kept, the words the page's.
export class GoneGame extends Error {
  constructor(failure) {
    super(t("gameGone"));
    this.failure = failure;
  }
}
