/* Tấn — play bài Tấn / Durak against the engines, with hints.
 *
 * Plain JavaScript, no build step and nothing fetched from elsewhere: the page talks only
 * to this service's API (docs/api.md §3). The human is seat 0; its token lives in sessionStorage
 * (this tab only), the chosen language in localStorage.
 */
"use strict";

(() => {
  // -- words ---------------------------------------------------------------------------------

  const TEXT = {
    vi: {
      title: "Tấn", language: "Ngôn ngữ", newGame: "Ván mới", close: "Đóng",
      setupTitle: "Ván mới",
      intro: "Chơi với máy. Bạn ngồi ghế 0; nhấn Gợi ý để xem cơ hội thắng của từng nước đi.",
      preset: "Luật chơi", preset_tan: "Tấn (52 lá)", preset_durak: "Durak (36 lá)",
      preset_perevodnoy: "Durak chuyển (36 lá)",
      players: "Số người chơi", engine: "Máy chơi",
      engine_ismcts: "ISMCTS (mạnh nhất)", engine_pimc: "PIMC",
      engine_greedy: "Tham lam (greedy)", engine_random: "Ngẫu nhiên (random)",
      timeMs: "Thời gian mỗi nước (ms)", timeNote: "Chỉ cho ISMCTS và PIMC.",
      backToGame: "Về ván đang chơi", seed: "Mã ván (seed)", seedPlaceholder: "để trống: ngẫu nhiên", deal: "Chia bài",
      trump: "Chủ", stock: "Nọc", discard: "Rác", discardCards: "Bài đã vào rác", table: "Bàn",
      yourHand: "Bài của bạn", cancel: "Hủy", actions: "Nước đi",
      attack: "Tấn", defend: "Đỡ", take: "Ôm", pass: "Bỏ qua", transfer: "Chuyển", hint: "Gợi ý",
      gameOver: "Hết ván", seat: "Ghế", score: "Điểm", replay: "Chơi lại ván này",
      hintTitle: "Gợi ý", legalMoves: "Nước đi hợp lệ", history: "Diễn biến",
      hintNote: "Cơ hội thắng = điểm kỳ vọng (thắng 1, hòa ½, thua 0), ước lượng bằng tìm kiếm trên các bài chưa biết.",
      keys: "Phím: H gợi ý · T ôm · P bỏ qua · C chuyển · 1–9 chọn nước đi · Esc hủy · N ván mới · ← → xem lại",
      footer: "Tấn: bộ giải và gợi ý cho bài Tấn / Durak.", rulesLink: "Luật (JSON)",
      you: "Bạn", seatName: "Máy {n}", cards: "{n} lá", known: "Đã biết:",
      roleAttacker: "tấn", roleDefender: "đỡ", roleTaking: "ôm", roleDone: "hết bài",
      emptyTable: "Bàn trống",
      statusLead: "Lượt bạn: tấn — đánh một lá bất kỳ.",
      statusDefend: "Lượt bạn: đỡ — chặn lá đang tấn bằng lá lớn hơn cùng chất hoặc bằng chủ, hoặc ôm.",
      statusDefendTransfer: "Lượt bạn: đỡ, chuyển (lá cùng số) hoặc ôm.",
      statusThrow: "Lượt bạn: tấn thêm lá cùng số với bài trên bàn, hoặc bỏ qua.",
      statusThrowTaking: "{name} đang ôm — bạn có thể cho thêm lá cùng số, hoặc bỏ qua.",
      statusWait: "{name} đang đi.", statusOver: "Hết ván.", statusBusy: "Máy đang đánh…",
      recent: "Vừa rồi:", hintThinking: "Đang tính…",
      winChance: "Cơ hội thắng", position: "Thế bài", interval: "khoảng tin cậy 95%: {lo}–{hi}",
      proven: "đã chứng minh", visits: "{n} lượt thử", best: "tốt nhất",
      stats: "{alg}: {it} vòng lặp trong {ms} ms",
      resultWin: "Bạn thắng! {name} thua.", resultWinAlone: "Bạn thắng!",
      resultLose: "Bạn thua — còn bài trên tay khi người khác đã hết.",
      resultDraw: "Hòa — không ai thua.", loser: "thua",
      gameInfo: "Ván {id} · mã ván {seed}", gameInfoNoSeed: "Ván {id}",
      noLegal: "Lá này không đánh được lúc này.",
      chooseFor: "Đánh {card} thế nào?", chooseTransfer: "Chuyển lá nào?",
      chooseTarget: "Dùng {card} đỡ lá nào? (bấm lá trên bàn hoặc chọn)",
      beat: "đỡ {target}", attackWith: "tấn {card}", defendWith: "đỡ {target} bằng {card}",
      transferWith: "chuyển {card}", takeMove: "ôm", passMove: "bỏ qua",
      error: "Lỗi", networkError: "Không gọi được máy chủ: {what}",
      busy: "Máy chủ đang bận; thử lại sau {s} giây.",
      gameGone: "Ván đã lưu không còn nữa: {what}", badSeed: "Mã ván phải là số nguyên không âm.",
      badTime: "Thời gian mỗi nước phải từ 1 đến 10000 ms.",
      suit_s: "bích", suit_h: "cơ", suit_d: "rô", suit_c: "chuồn",
      sideRules: "Luật phụ", rule_redeal: "Xả chủ",
      rule_redeal_note: "không có chủ thì được lật bài, chọn một trong hai bộ mới.",
      rule_swap: "Đổi 2 chủ", rule_swap_note: "ai có lá chủ nhỏ nhất được đổi lấy lá chủ lật.",
      rule_all_trumps: "Thắng trắng", rule_all_trumps_note: "cả bài đầu ván đều là chủ thì thắng ngay.",
      rule_take: "Ôm khi đã đỡ", rule_take_note: "đỡ hết rồi vẫn được ôm cả bàn.",
      rule_twos: "Đút 2", rule_twos_note: "lá 2 chỉ được đánh khi trên tay toàn lá 2 (52 lá).",
      rule_tribute: "Cúng chủ",
      rule_tribute_note: "(đấu nhiều ván) người thua ván trước cúng lá chủ lớn nhất cho người về nhất.",
      rule_repeat: "Thua trắng", rule_repeat_note: "(đấu nhiều ván) chủ lặp lại 3 ván liền thì người chia thua.",
      games: "Số ván của trận", gamesNote: "1: một ván lẻ; nhiều hơn: đấu liền các ván, tính điểm.",
      badGames: "Số ván phải từ 1 đến 100.",
      beforePlay: "Trước khi đánh",
      setupRedeal: "Bạn không có lá chủ nào: xả bài (lật cho mọi người xem, chọn một trong hai bộ mới) hay giữ?",
      setupPick: "Chọn một trong hai bộ bài mới:",
      setupSwap: "Bạn có {low}, lá chủ nhỏ nhất: đổi lấy lá chủ lật {trump}{cede}, hay giữ?",
      setupCede: " (đổi thì người sau bạn đánh trước)",
      setupWait: "Đang chờ một người chơi quyết định trước khi đánh…",
      redealMove: "xả bài", keepMove: "giữ", pickMove: "chọn bộ {n}", swapMove: "đổi lấy lá chủ lật",
      setOf: "Bộ {n}", match: "Trận đấu: ván {n}/{of}", won: "Thắng", lost: "Thua", drawn: "Hòa",
      dealer: "Người chia: {name}", trumpHistory: "Chủ các ván: {suits}",
      tributeGiven: "{giver} cúng {card} cho {receiver}.", tributeHidden: "{giver} cúng một lá chủ cho {receiver}.",
      previousGame: "Ván {n}: {what}", prevLoser: "{name} thua", prevDraw: "hòa", prevAllTrumps: "{name} thắng trắng",
      prevRepeat: "chủ lặp lại: {name} (người chia) thua", sittingOut: "{name} đứng ngoài ván này.",
      matchOver: "Hết trận.", resultAllTrumps: "{name} thắng trắng.",
      review: "Xem lại ván", reviewTitle: "Xem lại ván", reviewClose: "Đóng", reviewNav: "Các nước của bạn",
      reviewPrev: "Nước trước", reviewNext: "Nước sau", reviewPly: "Nước", reviewPlayed: "Bạn đánh",
      reviewBest: "Máy chọn", reviewLoss: "Thiệt", reviewLabel: "Đánh giá",
      reviewNote: "Thiệt = cơ hội thắng của nước máy chọn trừ cơ hội thắng của nước bạn đánh, tính từ những gì bạn thấy lúc đó. Dưới 5 điểm: tốt; dưới 10: chưa chuẩn; dưới 20: sai lầm; từ 20: sai nghiêm trọng.",
      reviewThinking: "Đang xem lại từng nước của bạn…", reviewStatus: "Xem lại: nước {n}/{of} của bạn (nước thứ {ply} của ván).",
      reviewEmpty: "Bạn chưa đi nước nào trong ván này.",
      reviewYou: "Bạn đánh: {move}", reviewEngine: "Máy chọn: {move}", reviewSame: "Máy cũng chọn nước này.",
      reviewOnly: "Nước duy nhất được đi.", reviewCost: "Thiệt {n} điểm cơ hội thắng.",
      reviewUnscored: "Máy chưa kịp thử nước bạn đánh.",
      reviewSummary: "{n} nước: {counts}. Thiệt trung bình {mean} điểm.",
      label_good: "tốt", label_inaccuracy: "chưa chuẩn", label_mistake: "sai lầm", label_blunder: "sai nghiêm trọng",
      label_forced: "bắt buộc", label_unscored: "chưa chấm",
      trackerTitle: "Theo dõi bài", trackerStock: "Nọc còn {n} lá · {m} lá bạn chưa thấy",
      trackerGone: "Đã vào rác ({n})", trackerGoneNone: "Chưa có lá nào vào rác.",
      trackerSeat: "{name} · {n} lá", trackerKnownNone: "Chưa biết chắc lá nào.",
      trackerLikely: "Có thể đang cầm (từ {p} trở lên):", trackerLikelyNone: "Chưa lá nào có khả năng từ {p} trở lên.",
      trackerMore: "và {n} lá nữa", trackerChance: "{card}: {p}",
      trackerWeighted: "Khả năng ước lượng từ những nước đối thủ đã đi.",
      trackerUniform: "Chưa có nước nào để suy ra: mọi lá bạn chưa thấy đều có khả năng như nhau.",
      trackerCollapsed: "Cách đánh không khớp với mô hình: mọi lá bạn chưa thấy được coi như nhau.",
      trackerLoading: "Đang cập nhật…", trackerError: "Không tải được: {what}",
    },
    en: {
      title: "Tấn", language: "Language", newGame: "New game", close: "Close",
      setupTitle: "New game",
      intro: "Play against the engines. You sit in seat 0; press Hint to see each move's chance to win.",
      preset: "Rules", preset_tan: "Tấn (52 cards)", preset_durak: "Durak (36 cards)",
      preset_perevodnoy: "Transfer Durak (36 cards)",
      players: "Players", engine: "Engine",
      engine_ismcts: "ISMCTS (strongest)", engine_pimc: "PIMC",
      engine_greedy: "Greedy", engine_random: "Random",
      timeMs: "Time per move (ms)", timeNote: "For ISMCTS and PIMC only.",
      backToGame: "Back to the game", seed: "Seed", seedPlaceholder: "blank: random", deal: "Deal",
      trump: "Trump", stock: "Stock", discard: "Discard", discardCards: "Discarded cards", table: "Table",
      yourHand: "Your hand", cancel: "Cancel", actions: "Moves",
      attack: "Attack", defend: "Defend", take: "Take", pass: "Pass", transfer: "Transfer", hint: "Hint",
      gameOver: "Game over", seat: "Seat", score: "Score", replay: "Replay this deal",
      hintTitle: "Hint", legalMoves: "Legal moves", history: "History",
      hintNote: "Win chance = expected score (win 1, draw ½, lose 0), estimated by searching the unseen cards.",
      keys: "Keys: H hint · T take · P pass · C transfer · 1–9 pick a move · Esc cancel · N new game · ← → review",
      footer: "Tấn: a solver and hint service for bài Tấn / Durak.", rulesLink: "Rules (JSON)",
      you: "You", seatName: "Seat {n}", cards: "{n} cards", known: "Known:",
      roleAttacker: "attacks", roleDefender: "defends", roleTaking: "takes", roleDone: "finished",
      emptyTable: "The table is empty",
      statusLead: "Your turn: attack — lead any card.",
      statusDefend: "Your turn: defend — beat the attack card with a higher card of its suit or a trump, or take.",
      statusDefendTransfer: "Your turn: defend, transfer (a card of the same rank) or take.",
      statusThrow: "Your turn: throw in a card of a rank on the table, or pass.",
      statusThrowTaking: "{name} takes — you may throw in cards of a rank on the table, or pass.",
      statusWait: "{name} is to move.", statusOver: "Game over.", statusBusy: "The engines are playing…",
      recent: "Since your move:", hintThinking: "Thinking…",
      winChance: "Win chance", position: "Position", interval: "95% interval: {lo}–{hi}",
      proven: "proven", visits: "{n} visits", best: "best",
      stats: "{alg}: {it} iterations in {ms} ms",
      resultWin: "You win! {name} is the fool.", resultWinAlone: "You win!",
      resultLose: "You lose — you are the fool (durak), left holding cards.",
      resultDraw: "Draw — nobody loses.", loser: "fool",
      gameInfo: "Game {id} · seed {seed}", gameInfoNoSeed: "Game {id}",
      noLegal: "That card cannot be played now.",
      chooseFor: "Play {card} how?", chooseTransfer: "Transfer which card?",
      chooseTarget: "Beat which card with {card}? (click it on the table or pick)",
      beat: "beat {target}", attackWith: "attack {card}", defendWith: "beat {target} with {card}",
      transferWith: "transfer {card}", takeMove: "take", passMove: "pass",
      error: "Error", networkError: "Cannot reach the server: {what}",
      busy: "The server is busy; try again in {s} s.",
      gameGone: "The saved game is gone: {what}", badSeed: "The seed must be a whole number, 0 or more.",
      badTime: "Time per move must be 1 to 10000 ms.",
      suit_s: "spades", suit_h: "hearts", suit_d: "diamonds", suit_c: "clubs",
      sideRules: "Side rules", rule_redeal: "Redeal without trump",
      rule_redeal_note: "a hand with no trump may be shown and swapped for one of two new hands.",
      rule_swap: "Trump swap", rule_swap_note: "the lowest trump may be swapped for the turned-up trump card.",
      rule_all_trumps: "All trumps wins", rule_all_trumps_note: "a first hand of nothing but trumps wins at once.",
      rule_take: "Take when beaten", rule_take_note: "after beating every card the defender may still take.",
      rule_twos: "Twos last", rule_twos_note: "a 2 is played only from a hand of 2s (52 cards).",
      rule_tribute: "Tribute",
      rule_tribute_note: "(matches) the last loser gives its highest trump to the last winner.",
      rule_repeat: "Trump repeat", rule_repeat_note: "(matches) the same trump three games running: the dealer loses.",
      games: "Games in the match", gamesNote: "1: a single game; more: games in a row, with standings.",
      badGames: "Games must be 1 to 100.",
      beforePlay: "Before the first lead",
      setupRedeal: "You hold no trump: redeal (show your hand and take one of two new ones) or keep it?",
      setupPick: "Pick one of the two new hands:",
      setupSwap: "You hold {low}, the lowest trump: swap it for the trump card {trump}{cede}, or keep it?",
      setupCede: " (then the seat after you leads)",
      setupWait: "Waiting for a player's decision before the first lead…",
      redealMove: "redeal", keepMove: "keep", pickMove: "pick set {n}", swapMove: "swap for the trump card",
      setOf: "Set {n}", match: "Match: game {n} of {of}", won: "Won", lost: "Lost", drawn: "Drawn",
      dealer: "Dealer: {name}", trumpHistory: "Trumps so far: {suits}",
      tributeGiven: "{giver} gave {card} to {receiver}.", tributeHidden: "{giver} gave a trump to {receiver}.",
      previousGame: "Game {n}: {what}", prevLoser: "{name} lost", prevDraw: "a draw", prevAllTrumps: "{name} won with all trumps",
      prevRepeat: "the trump came again: {name} (the dealer) lost", sittingOut: "{name} sits this game out.",
      matchOver: "Match over.", resultAllTrumps: "{name} won with a hand of trumps.",
      review: "Review this game", reviewTitle: "Game review", reviewClose: "Close", reviewNav: "Your moves",
      reviewPrev: "Previous", reviewNext: "Next", reviewPly: "Move", reviewPlayed: "You played",
      reviewBest: "Engine's choice", reviewLoss: "Cost", reviewLabel: "Verdict",
      reviewNote: "Cost = the win chance of the engine's choice minus that of your move, judged from what you could see then. Below 5 points: good; below 10: inaccuracy; below 20: mistake; 20 or more: blunder.",
      reviewThinking: "Reviewing each of your moves…", reviewStatus: "Review: your move {n} of {of} (move {ply} of the game).",
      reviewEmpty: "You made no move in this game.",
      reviewYou: "You played: {move}", reviewEngine: "Engine's choice: {move}", reviewSame: "The engine chose it too.",
      reviewOnly: "The only legal move.", reviewCost: "It cost {n} points of win chance.",
      reviewUnscored: "The search did not try your move.",
      reviewSummary: "{n} moves: {counts}. Mean cost {mean} points.",
      label_good: "good", label_inaccuracy: "inaccuracy", label_mistake: "mistake", label_blunder: "blunder",
      label_forced: "forced", label_unscored: "unscored",
      trackerTitle: "Card tracker", trackerStock: "Stock: {n} cards · {m} cards you have not seen",
      trackerGone: "Discarded ({n})", trackerGoneNone: "No card discarded yet.",
      trackerSeat: "{name} · {n} cards", trackerKnownNone: "No card known for sure.",
      trackerLikely: "Probably holds ({p} or more):", trackerLikelyNone: "No card at {p} or more yet.",
      trackerMore: "and {n} more", trackerChance: "{card}: {p}",
      trackerWeighted: "Chances estimated from the moves your opponents made.",
      trackerUniform: "No move to learn from yet: every card you have not seen is equally likely.",
      trackerCollapsed: "The play fits no deal the model expects: every card you have not seen counts alike.",
      trackerLoading: "Updating…", trackerError: "Could not load: {what}",
    },
  };

  const RANKS = "23456789TJQKA";
  const SUIT_GLYPH = { s: "♠", h: "♥", d: "♦", c: "♣" };
  const SUIT_ORDER = "shcd"; // alternate black and red in the hand
  const PLAYERS_FALLBACK = { tan: [2, 4], durak: [2, 6], perevodnoy: [2, 6] };
  const SEARCH_ENGINES = ["ismcts", "pimc"];
  const MAX_SEED = 2n ** 63n - 1n; // the API's largest seed
  const GAME_KEY = "tan.game";
  const LANG_KEY = "tan.lang";
  const SETUP_KEY = "tan.setup";
  const RECENT_MAX = 8; // the engines' replies shown above the hand (the history has them all)
  const REVIEW_ITERATIONS = 5000; // each decision's search in a review (the server caps it)
  const LABELS = ["good", "inaccuracy", "mistake", "blunder", "forced", "unscored"];
  const TRACKER_KEY = "tan.tracker"; // "closed" when the tracker panel is folded
  const TRACKER_TOP = 6; // an opponent's likeliest unseen cards shown
  const TRACKER_MIN = 0.3; // from this chance on

  const $ = (id) => document.getElementById(id);

  const state = {
    lang: "vi",
    game: null, // the GET /v1/games/{id}?seat=0 answer
    id: null,
    token: null,
    setup: null, // the form's values of this game, for "replay"
    hint: null,
    hintFor: -1, // history length the hint was computed for
    choosing: null, // {card, moves} while the chooser is open
    tracker: null, // {key, id, plies, data: the GET /v1/games/{id}/tracker?seat=0 answer}
    trackerAsked: null, // the key of the tracker request in flight
    trackerError: null,
    busy: false, // false, or what is being waited for: "move" (engines reply too), "hint" or "review"
    review: null, // {id, data: the GET /v1/games/{id}/analysis answer, at: the decision shown, open}
    playersRange: { ...PLAYERS_FALLBACK },
  };

  // -- storage that may be missing (private windows, file://) ---------------------------------

  const store = {
    get(area, key) {
      try { return window[area].getItem(key); } catch { return null; }
    },
    set(area, key, value) {
      try {
        if (value === null) window[area].removeItem(key); else window[area].setItem(key, value);
      } catch { /* storage unavailable: keep in memory only */ }
    },
  };

  // -- language ------------------------------------------------------------------------------

  function t(key, vars) {
    const words = TEXT[state.lang] || TEXT.en;
    let text = key in words ? words[key] : TEXT.en[key] ?? key;
    if (vars) for (const [name, value] of Object.entries(vars)) text = text.split(`{${name}}`).join(String(value));
    return text;
  }

  function setLanguage(lang) {
    state.lang = TEXT[lang] ? lang : "en";
    store.set("localStorage", LANG_KEY, state.lang);
    document.documentElement.lang = state.lang;
    $("lang").value = state.lang;
    for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
    for (const el of document.querySelectorAll("[data-i18n-label]")) el.setAttribute("aria-label", t(el.dataset.i18nLabel));
    for (const el of document.querySelectorAll("[data-i18n-placeholder]")) el.placeholder = t(el.dataset.i18nPlaceholder);
    document.title = state.lang === "vi" ? "Tấn — chơi bài Tấn / Durak" : "Tấn — play bài Tấn / Durak";
    render();
  }

  // -- messages ------------------------------------------------------------------------------

  function showMessage(text, kind = "error") {
    const box = $("message");
    $("message-text").textContent = text;
    box.classList.toggle("info", kind !== "error");
    box.hidden = false;
  }

  function clearMessage() {
    $("message").hidden = true;
    $("message-text").textContent = "";
  }

  class ApiFailure extends Error {
    constructor(status, code, detail, retryAfter) {
      super(detail);
      this.status = status;
      this.code = code;
      this.retryAfter = retryAfter;
    }
    describe() {
      if (this.status === 0) return t("networkError", { what: this.message });
      if (this.status === 503 && this.retryAfter) return `${t("busy", { s: this.retryAfter })} (${this.message})`;
      return `${t("error")} ${this.status} (${this.code}): ${this.message}`;
    }
  }

  function showError(error) {
    const text = error instanceof ApiFailure ? error.describe() : `${t("error")}: ${error && error.message ? error.message : error}`;
    showMessage(text, "error");
  }

  // -- the API -------------------------------------------------------------------------------

  async function api(method, path, body) {
    const headers = { Accept: "application/json" };
    if (state.token) headers.Authorization = `Bearer ${state.token}`;
    if (body !== undefined) headers["Content-Type"] = "application/json";
    let response;
    try {
      const text = body === undefined || typeof body === "string" ? body : JSON.stringify(body);
      response = await fetch(path, { method, headers, body: text });
    } catch (error) {
      throw new ApiFailure(0, "network", String(error && error.message ? error.message : error));
    }
    const text = await response.text();
    let data = null;
    try { data = text ? JSON.parse(text) : null; } catch { data = null; }
    if (data && typeof data.seed === "number") data.seed = exactSeed(text);
    if (!response.ok) {
      const detail = data && typeof data.detail === "string" ? data.detail : text || response.statusText;
      const code = data && data.code ? data.code : "http_" + response.status;
      throw new ApiFailure(response.status, code, detail, response.headers.get("Retry-After"));
    }
    return data;
  }

  // A game view's seed (its last field) as the digits sent, not a number rounded past 2^53.
  function exactSeed(text) {
    const found = /"seed":\s*(\d+)\s*\}\s*$/.exec(text);
    return found ? found[1] : null;
  }

  // The request's JSON with `seed` written as its digits (a JavaScript number would round it).
  function withSeed(request, seed) {
    const text = JSON.stringify(request);
    return seed === null || seed === undefined ? text : `{"seed":${seed},${text.slice(1)}`;
  }

  // Run one request at a time; the page shows it is busy meanwhile.
  async function busyWith(work, kind = "move") {
    if (state.busy) return undefined;
    state.busy = kind;
    document.body.classList.add("busy");
    document.body.setAttribute("aria-busy", "true");
    render();
    try {
      return await work();
    } catch (error) {
      showError(error);
      return undefined;
    } finally {
      state.busy = false;
      document.body.classList.remove("busy");
      document.body.removeAttribute("aria-busy");
      render();
      keepFocus();
    }
  }

  // After a re-render the focused button may be gone: put keyboard focus somewhere useful.
  function keepFocus() {
    const active = document.activeElement;
    const visible = active && active.isConnected && active.getClientRects().length > 0;
    if (active && active !== document.body && visible && !active.disabled) return;
    if ($("game").hidden) return;
    const candidates = [
      reviewOpen() && ($("review-next").disabled ? $("review-prev") : $("review-next")),
      state.choosing && $("chooser-options").querySelector("button"),
      $("hand").querySelector("button.card.legal:not([disabled])"),
      !$("over").hidden && $("new-game-over"),
      $("hint-button"),
    ];
    const target = candidates.find((el) => el && !el.disabled && el.getClientRects().length > 0);
    if (target) target.focus({ preventScroll: true });
  }

  // -- cards and moves -----------------------------------------------------------------------

  const rankOf = (card) => card[0];
  const suitOf = (card) => card[1];
  const rankText = (card) => (rankOf(card) === "T" ? "10" : rankOf(card));
  const isRed = (card) => suitOf(card) === "h" || suitOf(card) === "d";
  const cardText = (card) => rankText(card) + SUIT_GLYPH[suitOf(card)];
  const cardName = (card) => `${rankText(card)} ${t("suit_" + suitOf(card))}`;

  function miniCard(card) {
    const span = document.createElement("span");
    span.className = "mini" + (isRed(card) ? " red" : "");
    span.textContent = cardText(card);
    span.title = cardName(card);
    return span;
  }

  function cardFace(card, element = "span") {
    const el = document.createElement(element);
    el.className = "card" + (isRed(card) ? " red" : "");
    el.dataset.card = card;
    const rank = document.createElement("span");
    rank.className = "rank";
    rank.textContent = rankText(card);
    const suit = document.createElement("span");
    suit.className = "suit";
    suit.textContent = SUIT_GLYPH[suitOf(card)];
    el.append(rank, suit);
    el.setAttribute("aria-label", cardName(card));
    if (element === "span") el.setAttribute("role", "img");
    return el;
  }

  // A move in words of the page's language, with cards as glyphs.
  function moveText(move) {
    switch (move.action) {
      case "attack": return t("attackWith", { card: cardText(move.card) });
      case "defend": return t("defendWith", { target: cardText(move.target), card: cardText(move.card) });
      case "transfer": return t("transferWith", { card: cardText(move.card) });
      case "take": return t("takeMove");
      case "pass": return t("passMove");
      case "redeal": return t("redealMove");
      case "keep": return t("keepMove");
      case "pick": return t("pickMove", { n: move.set });
      case "swap": return t("swapMove");
      default: return JSON.stringify(move);
    }
  }

  const sameMove = (a, b) =>
    a.action === b.action && (a.card || null) === (b.card || null) && (a.target || null) === (b.target || null)
    && (a.set ?? null) === (b.set ?? null);

  function seatName(seat) {
    if (seat === 0) return t("you");
    const spec = state.game && state.game.seats ? state.game.seats[seat] : null;
    const engine = spec && spec.engine ? ` (${spec.engine})` : "";
    return t("seatName", { n: seat }) + engine;
  }

  const shortSeatName = (seat) => (seat === 0 ? t("you") : t("seatName", { n: seat }));

  function sortHand(hand, trumpSuit) {
    const key = (card) => {
      const trump = suitOf(card) === trumpSuit ? 1 : 0;
      return trump * 1000 + SUIT_ORDER.indexOf(suitOf(card)) * 100 + RANKS.indexOf(rankOf(card));
    };
    return [...hand].sort((a, b) => key(a) - key(b));
  }

  const legalMoves = () => (state.game && state.game.status === "playing" ? state.game.legal_moves || [] : []);
  const movesWithCard = (card) => legalMoves().filter((m) => m.card === card);

  // -- playing -------------------------------------------------------------------------------

  function playMove(move) {
    if (state.busy || !state.game) return;
    closeChooser();
    // expected_ply: the move is meant for the game as shown; if it moved on (another tab, a
    // lost answer), the server refuses it with 409 game_moved_on and the page shows the game again.
    const body = { seat: 0, move, expected_ply: state.game.history.length };
    busyWith(async () => {
      const path = `/v1/games/${encodeURIComponent(state.id)}`;
      let answer;
      try {
        answer = await api("POST", `${path}/moves`, body);
      } catch (error) {
        if (!(error instanceof ApiFailure) || error.code !== "game_moved_on") throw error;
        state.game = await api("GET", `${path}?seat=0`);
        state.hint = null;
        throw error;
      }
      clearMessage();
      state.game = answer;
      state.hint = null;
    });
  }

  function clickCard(card) {
    const moves = movesWithCard(card);
    if (moves.length === 0) {
      showMessage(t("noLegal"), "info");
      return;
    }
    if (moves.length === 1) {
      playMove(moves[0]);
      return;
    }
    const title = moves.every((m) => m.action === "defend")
      ? t("chooseTarget", { card: cardText(card) })
      : t("chooseFor", { card: cardText(card) });
    openChooser(card, moves, title);
  }

  function openChooser(card, moves, title) {
    state.choosing = { card, moves, title };
    render();
    const first = $("chooser-options").querySelector("button");
    if (first) first.focus();
  }

  function closeChooser() {
    if (!state.choosing) return;
    const card = state.choosing.card;
    state.choosing = null;
    render();
    const back = card && $("hand").querySelector(`button[data-card="${card}"]`);
    if (back && !back.disabled) back.focus();
  }

  function chooserLabel(move) {
    if (move.action === "defend" && state.choosing && state.choosing.card) return t("beat", { target: cardText(move.target) });
    return moveText(move);
  }

  function actionMove(action) {
    return legalMoves().find((m) => m.action === action);
  }

  function transfer() {
    const moves = legalMoves().filter((m) => m.action === "transfer");
    if (moves.length === 1) playMove(moves[0]);
    else if (moves.length > 1) openChooser(null, moves, t("chooseTransfer"));
  }

  function askHint() {
    if (!state.game || state.game.status !== "playing" || legalMoves().length === 0) return;
    $("hint-panel").hidden = false;
    $("evaluation").textContent = t("hintThinking");
    $("hint-moves").replaceChildren();
    $("hint-stats").textContent = "";
    busyWith(async () => {
      const hint = await api("GET", `/v1/games/${encodeURIComponent(state.id)}/hint?seat=0`);
      clearMessage();
      state.hint = hint;
      state.hintFor = state.game.history.length;
    }, "hint");
  }

  // -- the card tracker (GET /v1/games/{id}/tracker) -------------------------------------------

  // The game view shown: a tracker answer fetched for another one is stale.
  const trackerKey = () => (state.game
    ? `${state.id}:${state.game.history.length}:${state.game.status}:${state.game.position.to_move}`
    : null);

  // Fetch the tracker once the game view is shown, never while a move is on its way (so it never
  // slows one), and drop an answer that comes back for a view no longer shown.
  async function refreshTracker() {
    const key = trackerKey();
    if (!key || state.busy || state.trackerAsked === key) return;
    if ((state.tracker && state.tracker.key === key) || (state.trackerError && state.trackerError.key === key)) return;
    state.trackerAsked = key;
    const id = state.id;
    const plies = state.game.history.length;
    try {
      const data = await api("GET", `/v1/games/${encodeURIComponent(id)}/tracker?seat=0`);
      if (trackerKey() !== key) return;
      state.tracker = { key, id, plies, data };
      state.trackerError = null;
    } catch (error) {
      if (trackerKey() !== key) return;
      state.trackerError = { key, text: error instanceof ApiFailure ? error.describe() : String(error) };
    } finally {
      if (state.trackerAsked === key) state.trackerAsked = null;
    }
    renderTracker();
  }

  // One card's chance: the glyph and the percentage, with the card's name for screen readers.
  function chanceItem(card, chance) {
    const item = document.createElement("li");
    item.className = "chance";
    item.dataset.card = card;
    item.dataset.chance = String(chance);
    const name = document.createElement("span");
    name.className = "sr-label";
    name.textContent = t("trackerChance", { card: cardName(card), p: pct(chance) });
    const glyph = miniCard(card);
    glyph.setAttribute("aria-hidden", "true");
    const value = document.createElement("span");
    value.className = "pct";
    value.setAttribute("aria-hidden", "true");
    value.textContent = pct(chance);
    const meter = document.createElement("span");
    meter.className = "meter";
    meter.setAttribute("aria-hidden", "true");
    const fill = document.createElement("span");
    fill.className = "fill";
    fill.style.width = `${(clamp01(chance) * 100).toFixed(1)}%`;
    meter.append(fill);
    item.append(name, glyph, value, meter);
    return item;
  }

  // What another seat holds, as far as seat 0 can tell: the cards known, then its likeliest unseen ones.
  function trackerSeat(data, pos, seat) {
    const box = document.createElement("section");
    box.className = "tracker-seat";
    box.dataset.seat = String(seat);
    const head = document.createElement("h3");
    head.id = `tracker-seat-${seat}`;
    const count = pos.hand_counts[seat];
    head.textContent = t("trackerSeat", { name: seatName(seat), n: count })
      + (pos.finished.includes(seat) ? ` · ${t("roleDone")}` : "");
    box.setAttribute("aria-labelledby", head.id);
    box.append(head);
    if (count === 0) return box;
    const trumpSuit = suitOf(pos.trump);
    const known = data.known[String(seat)] || [];
    const knownLine = document.createElement("p");
    knownLine.className = "tracker-known small";
    if (known.length) {
      const cards = document.createElement("span");
      cards.className = "mini-cards inline";
      cards.append(...sortHand(known, trumpSuit).map(miniCard));
      knownLine.append(document.createTextNode(t("known") + " "), cards);
    } else {
      knownLine.textContent = t("trackerKnownNone");
    }
    box.append(knownLine);
    if (known.length >= count) return box;
    const likely = Object.entries(data.cards)
      .map(([card, row]) => [card, Number(row[seat]) || 0])
      .filter(([, chance]) => chance >= TRACKER_MIN)
      .sort((a, b) => b[1] - a[1]);
    const label = document.createElement("p");
    label.className = "tracker-likely-label small";
    label.textContent = t(likely.length ? "trackerLikely" : "trackerLikelyNone", { p: pct(TRACKER_MIN) });
    box.append(label);
    if (likely.length) {
      const list = document.createElement("ul");
      list.className = "likely";
      list.append(...likely.slice(0, TRACKER_TOP).map(([card, chance]) => chanceItem(card, chance)));
      if (likely.length > TRACKER_TOP) {
        const more = document.createElement("li");
        more.className = "more muted small";
        more.textContent = t("trackerMore", { n: likely.length - TRACKER_TOP });
        list.append(more);
      }
      box.append(list);
    }
    return box;
  }

  // The tracker panel folds to its heading (a disclosure button), and is remembered so.
  function foldTracker(folded) {
    $("tracker-toggle").setAttribute("aria-expanded", String(!folded));
    $("tracker-body").hidden = folded;
  }

  function renderTracker() {
    const panel = $("tracker-panel");
    const game = state.game;
    panel.hidden = !game || reviewOpen();
    if (panel.hidden) return;
    const pos = game.position;
    const key = trackerKey();
    const fresh = !!(state.tracker && state.tracker.key === key);
    const failed = state.trackerError && state.trackerError.key === key ? state.trackerError.text : null;
    // While the new answer is on its way the last one of this game stays, marked as updating.
    const data = state.tracker && state.tracker.id === state.id ? state.tracker.data : null;
    panel.classList.toggle("stale", !fresh);
    if (data) panel.dataset.plies = String(state.tracker.plies); // the moves the tracker shown had seen
    panel.setAttribute("aria-busy", String(!fresh && !failed));
    let status;
    if (failed) status = t("trackerError", { what: failed });
    else if (!fresh) status = t("trackerLoading");
    else status = t("trackerStock", { n: pos.stock, m: Object.keys(data.cards).length });
    $("tracker-status").textContent = status;
    const gone = data ? data.gone : [];
    $("tracker-gone-title").textContent = t("trackerGone", { n: gone.length });
    const goneBox = $("tracker-gone");
    if (gone.length) goneBox.replaceChildren(...sortHand(gone, suitOf(pos.trump)).map(miniCard));
    else {
      const none = document.createElement("span");
      none.className = "muted small";
      none.textContent = t("trackerGoneNone");
      goneBox.replaceChildren(none);
    }
    const seats = [];
    if (data) for (let seat = 0; seat < pos.players; seat++) if (seat !== data.seat) seats.push(trackerSeat(data, pos, seat));
    $("tracker-seats").replaceChildren(...seats);
    const notes = { weighted: "trackerWeighted", tempered: "trackerWeighted", collapsed: "trackerCollapsed" };
    $("tracker-note").textContent = data ? t(notes[data.beliefs] || "trackerUniform") : "";
  }

  // -- the review of a finished game (GET /v1/games/{id}/analysis) ----------------------------

  const reviewOpen = () => !!(state.review && state.review.open && state.review.id === state.id);
  const reviewed = () => (reviewOpen() ? state.review.data.moves[state.review.at] || null : null);
  const canReview = () => !!(state.game && state.game.status === "over" && !state.game.match);
  const points = (x) => (Number(x) * 100).toFixed(1);

  function openReview() {
    if (state.busy || !canReview()) return;
    if (state.review && state.review.id === state.id) {
      state.review.open = true;
      render();
      keepFocus();
      return;
    }
    const id = state.id;
    busyWith(async () => {
      const path = `/v1/games/${encodeURIComponent(id)}/analysis?seat=0&iterations=${REVIEW_ITERATIONS}`;
      const data = await api("GET", path);
      clearMessage();
      state.review = { id, data, at: 0, open: true };
    }, "review");
  }

  function closeReview() {
    if (!reviewOpen()) return;
    state.review.open = false;
    render();
    $("review-button").focus();
  }

  function stepReview(to) {
    if (!reviewOpen() || state.busy) return;
    const last = state.review.data.moves.length - 1;
    state.review.at = Math.max(0, Math.min(last, to));
    render();
    keepFocus();
  }

  function labelBadge(label) {
    const badge = document.createElement("span");
    badge.className = `verdict-badge label-${LABELS.includes(label) ? label : "unscored"}`;
    badge.textContent = t("label_" + label);
    return badge;
  }

  function reviewLine(text, score, cls) {
    const line = document.createElement("div");
    line.className = "review-move " + cls;
    const what = document.createElement("span");
    what.className = "what";
    what.textContent = text;
    line.append(what);
    if (score !== null && score !== undefined) {
      const value = document.createElement("span");
      value.className = "pct";
      value.textContent = pct(score);
      value.title = t("winChance");
      line.append(value, bar(score, null));
    }
    return line;
  }

  function renderReview() {
    const panel = $("review");
    const open = reviewOpen();
    panel.hidden = !open;
    document.body.classList.toggle("reviewing", open);
    $("review-button").hidden = !canReview();
    $("review-button").disabled = !!state.busy;
    if (!open) return;
    const { data, at } = state.review;
    const moves = data.moves;
    const entry = moves[at] || null;
    $("review-prev").disabled = !!state.busy || at <= 0;
    $("review-next").disabled = !!state.busy || at >= moves.length - 1;
    $("review-step").textContent = entry
      ? t("reviewStatus", { n: at + 1, of: moves.length, ply: entry.ply + 1 })
      : t("reviewEmpty");

    const detail = $("review-detail");
    detail.replaceChildren();
    detail.dataset.label = entry ? entry.label : "";
    if (entry) {
      const verdict = document.createElement("p");
      verdict.className = "verdict";
      verdict.append(labelBadge(entry.label));
      if (entry.exact) verdict.append(provenBadge());
      let note;
      if (entry.label === "forced") note = t("reviewOnly");
      else if (entry.label === "unscored") note = t("reviewUnscored");
      else if (sameMove(entry.move, entry.best)) note = t("reviewSame");
      else note = t("reviewCost", { n: points(entry.loss) });
      verdict.append(document.createTextNode(" " + note));
      detail.append(
        verdict,
        reviewLine(t("reviewYou", { move: moveText(entry.move) }), entry.played_score, "played"),
        reviewLine(t("reviewEngine", { move: moveText(entry.best) }), entry.best_score, "best"),
      );
    }

    const summary = data.summary;
    const counts = LABELS.filter((label) => summary.labels[label])
      .map((label) => `${t("label_" + label)} ${summary.labels[label]}`).join(", ");
    $("review-summary").textContent = t("reviewSummary", {
      n: summary.decisions, counts: counts || "–", mean: summary.mean_loss === null ? "–" : points(summary.mean_loss),
    });

    const rows = $("review-rows");
    rows.replaceChildren(
      ...moves.map((move, index) => {
        const row = document.createElement("tr");
        row.className = `label-${move.label}` + (index === at ? " current" : "");
        if (index === at) row.setAttribute("aria-current", "step");
        const first = document.createElement("td");
        const jump = document.createElement("button");
        jump.type = "button";
        jump.className = "jump";
        jump.textContent = String(move.ply + 1);
        jump.disabled = !!state.busy;
        jump.setAttribute("aria-label", `${t("reviewPly")} ${move.ply + 1}: ${moveText(move.move)}, ${t("label_" + move.label)}`);
        jump.addEventListener("click", () => stepReview(index));
        first.append(jump);
        const cells = [
          moveText(move.move),
          moveText(move.best),
          move.label === "forced" || move.label === "unscored" ? "–" : points(move.loss),
        ].map((text) => {
          const cell = document.createElement("td");
          cell.textContent = text;
          return cell;
        });
        const verdict = document.createElement("td");
        verdict.append(labelBadge(move.label));
        row.append(first, ...cells, verdict);
        return row;
      }),
    );
    const current = rows.querySelector("tr.current");
    if (current && typeof current.scrollIntoView === "function") current.scrollIntoView({ block: "nearest" });
  }

  // The cards of the reviewed decision in the hand: the one played and the engine's.
  function markReviewedCards(entry) {
    for (const [move, cls] of [[entry.move, "played"], [entry.best, "engine"]]) {
      const card = move && move.card;
      const button = card && $("hand").querySelector(`button[data-card="${card}"]`);
      if (button) button.classList.add(cls);
    }
  }

  // -- games ---------------------------------------------------------------------------------

  function readForm() {
    const preset = $("preset").value;
    const players = Number($("players").value);
    const engine = $("engine").value;
    const timeMs = Number($("time-ms").value);
    const seedText = $("seed").value.trim();
    if (seedText !== "" && !/^\d+$/.test(seedText)) throw new Error(t("badSeed"));
    if (SEARCH_ENGINES.includes(engine) && !(Number.isInteger(timeMs) && timeMs >= 1 && timeMs <= 10000)) {
      throw new Error(t("badTime"));
    }
    // Left blank, the server draws the seed (63 bits) and shows it only once the game is over: a
    // seed deals every hand. Kept as its digits, since JavaScript numbers stop at 2^53.
    const seed = seedText === "" ? null : seedText.replace(/^0+(?=\d)/, "");
    if (seed !== null && BigInt(seed) > MAX_SEED) throw new Error(t("badSeed"));
    const games = Number($("games").value || "1");
    if (!(Number.isInteger(games) && games >= 1 && games <= 100)) throw new Error(t("badGames"));
    const options = {};
    for (const box of $("side-rules").querySelectorAll("input[type=checkbox]")) {
      if (!box.checked || box.disabled) continue;
      if (box.name === "trump_repeat") options.trump_repeat_limit = 3;
      else options[box.name] = true;
    }
    return { preset, players, engine, timeMs, seed, games, options };
  }

  function startGame(setup) {
    const engineSeat = SEARCH_ENGINES.includes(setup.engine)
      ? { engine: setup.engine, limits: { time_ms: setup.timeMs } }
      : { engine: setup.engine };
    const seats = ["human"];
    for (let i = 1; i < setup.players; i++) seats.push(engineSeat);
    const options = setup.options || {};
    const rules = Object.keys(options).length ? { preset: setup.preset, ...options } : setup.preset;
    const request = { rules, players: setup.players, seats };
    if ((setup.games || 1) > 1) request.match = { games: setup.games };
    busyWith(async () => {
      state.token = null;
      const created = await api("POST", "/v1/games", withSeed(request, setup.seed));
      clearMessage();
      state.id = created.id;
      state.token = created.tokens[0];
      state.setup = { ...setup, seed: null };
      state.game = created.game;
      state.hint = null;
      state.choosing = null;
      store.set("sessionStorage", GAME_KEY, JSON.stringify({ id: state.id, token: state.token, setup: state.setup }));
      store.set("localStorage", SETUP_KEY, JSON.stringify({ ...setup, seed: undefined }));
      showGame();
    });
  }

  function showGame() {
    $("setup").hidden = true;
    $("game").hidden = false;
    $("new-game-top").hidden = false;
    render();
    keepFocus();
  }

  function showSetup() {
    state.choosing = null;
    $("game").hidden = true;
    $("setup").hidden = false;
    $("new-game-top").hidden = true;
    $("back-to-game").hidden = !state.game;
    $("preset").focus();
  }

  async function resume() {
    const saved = store.get("sessionStorage", GAME_KEY);
    if (!saved) return;
    let record;
    try { record = JSON.parse(saved); } catch { store.set("sessionStorage", GAME_KEY, null); return; }
    if (!record || !record.id || !record.token) return;
    state.id = record.id;
    state.token = record.token;
    state.setup = record.setup || null;
    await busyWith(async () => {
      try {
        state.game = await api("GET", `/v1/games/${encodeURIComponent(state.id)}?seat=0`);
      } catch (error) {
        store.set("sessionStorage", GAME_KEY, null);
        state.id = state.token = state.game = null;
        throw new Error(t("gameGone", { what: error instanceof ApiFailure ? error.describe() : error }));
      }
    });
    if (state.game) showGame();
  }

  // -- rendering -----------------------------------------------------------------------------

  function fillPlayers() {
    const preset = $("preset").value;
    const [low, high] = state.playersRange[preset] || [2, 4];
    const select = $("players");
    const before = Number(select.value) || 2;
    select.replaceChildren();
    for (let n = low; n <= high; n++) {
      const option = document.createElement("option");
      option.value = String(n);
      option.textContent = String(n);
      select.append(option);
    }
    select.value = String(Math.min(Math.max(before, low), high));
  }

  function syncRuleFields() {
    const box = $("side-rules").querySelector("input[name=twos_last]");
    box.disabled = $("preset").value !== "tan"; // 2s are only in the 52-card deck
    $("twos-last-option").classList.toggle("disabled", box.disabled);
  }

  function syncEngineFields() {
    const search = SEARCH_ENGINES.includes($("engine").value);
    $("time-ms").disabled = !search;
  }

  function render() {
    if (!state.game) return;
    const game = state.game;
    const entry = reviewed(); // while reviewing: the decision shown, and the table as it was then
    const pos = entry ? entry.position : game.position;
    const over = game.status === "over";
    const trumpSuit = suitOf(pos.trump);
    const myTurn = !over && pos.to_move === 0 && legalMoves().length > 0;

    renderStatus(game, pos, over);
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
    suitName.textContent = ` ${t("suit_" + trumpSuit)} (${cardText(pos.trump)})`;
    $("trump-suit").replaceChildren(suitSpan, suitName);
    $("stock-count").textContent = String(pos.stock);
    $("discard-count").textContent = String(pos.discard.length);
    const pile = document.querySelector(".pile");
    pile.classList.toggle("empty-stock", pos.stock <= 1); // only the trump card is left, or none
    pile.classList.toggle("drawn", pos.stock === 0);
    $("stock-back").title = `${t("stock")}: ${pos.stock}`;
    $("discard-cards").replaceChildren(...pos.discard.map(miniCard));

    renderTable(pos);
    if (reviewOpen()) $("recent").replaceChildren();
    else renderRecent(game);
    renderHand(pos, trumpSuit, myTurn);
    if (entry) markReviewedCards(entry);
    renderChooser();

    // action buttons
    const take = actionMove("take");
    const pass = actionMove("pass");
    const transfers = legalMoves().filter((m) => m.action === "transfer");
    $("take-button").disabled = state.busy || !take;
    $("pass-button").disabled = state.busy || !pass;
    $("transfer-button").hidden = transfers.length === 0;
    $("transfer-button").disabled = state.busy || transfers.length === 0;
    $("hint-button").disabled = state.busy || !myTurn;
    $("actions").hidden = over;
    $("moves-panel").hidden = over;

    renderSetup(pos);
    renderMatch(game);
    renderMoves();
    renderHint();
    renderTracker();
    renderHistory(game);
    renderOver(game, over && !reviewOpen());
    renderReview();

    // The seed comes only with a finished game (before, it would show every hand).
    const seed = over && typeof game.seed === "string" ? game.seed : null;
    $("game-info").textContent = seed !== null
      ? t("gameInfo", { id: state.id, seed })
      : t("gameInfoNoSeed", { id: state.id });
    $("replay").hidden = !(state.setup && seed !== null);
    if (!state.busy) refreshTracker(); // after the game view is shown
  }

  // The setup's decisions as buttons (docs/rules.md §1.7): what the seat may do before the first lead.
  function renderSetup(pos) {
    const panel = $("setup-panel");
    const setup = pos.phase === "setup" ? pos.setup : null;
    panel.hidden = !setup;
    if (!setup) return;
    const moves = legalMoves();
    let text = t("setupWait");
    if (setup.step === "redeal" && pos.to_move === 0) text = t("setupRedeal");
    else if (setup.step === "pick" && pos.to_move === 0) text = t("setupPick");
    else if (setup.step === "swap" && pos.to_move === 0) {
      const trumpSuit = suitOf(pos.trump);
      const low = pos.hand.filter((c) => suitOf(c) === trumpSuit).sort((a, b) => RANKS.indexOf(rankOf(a)) - RANKS.indexOf(rankOf(b)))[0];
      const cede = state.game.position.rules && state.game.position.rules.trump_swap_cedes_lead === false ? "" : t("setupCede");
      text = t("setupSwap", { low: low ? cardText(low) : "?", trump: cardText(pos.trump), cede });
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
        label.textContent = t("setOf", { n: index });
        row.append(label, ...sortHand(part, suitOf(pos.trump)).map(miniCard));
        sets.append(row);
      });
    }
    $("setup-buttons").replaceChildren(
      ...moves.map((move) => {
        const button = document.createElement("button");
        button.type = "button";
        button.className = "action setup-move";
        button.textContent = moveText(move);
        button.disabled = state.busy;
        button.addEventListener("click", () => playMove(move));
        return button;
      }),
    );
  }

  // A match's standings, dealer, trump history, tribute and last game (docs/rules.md §1.9).
  function renderMatch(game) {
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

  function renderStatus(game, pos, over) {
    const status = $("status");
    status.classList.toggle("over", over);
    let text;
    if (state.busy === "review") text = t("reviewThinking");
    else if (over) text = game.match ? t("matchOver") : t("statusOver");
    else if (state.busy === "move") text = t("statusBusy");
    else if (pos.phase === "setup") text = pos.to_move === 0 ? t("beforePlay") : t("setupWait");
    else if (pos.to_move !== 0) text = t("statusWait", { name: seatName(pos.to_move) });
    else if (pos.defender === 0) {
      text = legalMoves().some((m) => m.action === "transfer") ? t("statusDefendTransfer") : t("statusDefend");
    } else if (pos.table.length === 0) text = t("statusLead");
    else if (pos.taking) text = t("statusThrowTaking", { name: seatName(pos.defender) });
    else text = t("statusThrow");
    status.textContent = text;
  }

  function renderOpponents(pos) {
    const box = $("opponents");
    box.replaceChildren();
    for (let seat = 1; seat < pos.players; seat++) {
      const el = document.createElement("div");
      el.className = "opponent";
      el.dataset.seat = String(seat);
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
        cards.className = "mini-cards";
        cards.style.display = "inline-flex";
        cards.append(...sortHand(known, suitOf(pos.trump)).map(miniCard));
        line.append(cards);
        el.append(line);
      }
      box.append(el);
    }
  }

  function renderTable(pos) {
    const table = $("table");
    table.replaceChildren();
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
        attack.addEventListener("click", () => playMove(move));
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

  function renderRecent(game) {
    const box = $("recent");
    box.replaceChildren();
    const history = game.history;
    let start = history.length;
    while (start > 0 && history[start - 1].seat !== 0) start--;
    if (start === history.length) return;
    box.append(document.createTextNode(t("recent") + " "));
    const shown = Math.max(start, history.length - RECENT_MAX);
    if (shown > start) box.append(document.createTextNode("… "));
    for (const entry of history.slice(shown)) {
      const chip = document.createElement("span");
      chip.className = "move-chip";
      chip.textContent = `${shortSeatName(entry.seat)}: ${moveText(entry.move)}`;
      box.append(chip);
    }
  }

  function renderHand(pos, trumpSuit, myTurn) {
    const hand = $("hand");
    const focused = document.activeElement && hand.contains(document.activeElement) ? document.activeElement.dataset.card : null;
    hand.replaceChildren();
    $("hand-count").textContent = `(${t("cards", { n: pos.hand.length })})`;
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
    for (const card of sorted) {
      const button = cardFace(card, "button");
      button.type = "button";
      const legal = myTurn && movesWithCard(card).length > 0;
      button.classList.toggle("legal", legal);
      button.classList.toggle("trump", suitOf(card) === trumpSuit);
      button.classList.toggle("chosen", !!(state.choosing && state.choosing.card === card));
      button.disabled = state.busy || !legal;
      button.addEventListener("click", () => clickCard(card));
      (suitOf(card) === trumpSuit ? trumps : plain).append(button);
    }
    if (plain.childElementCount) hand.append(plain);
    if (trumps.childElementCount > 1) hand.append(trumps);
    if (focused) {
      const again = hand.querySelector(`button[data-card="${focused}"]`);
      if (again && !again.disabled) again.focus();
    }
  }

  function renderChooser() {
    const box = $("chooser");
    if (!state.choosing) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    $("chooser-title").textContent = state.choosing.title;
    const options = $("chooser-options");
    options.replaceChildren(
      ...state.choosing.moves.map((move) => {
        const button = document.createElement("button");
        button.type = "button";
        button.className = "choice";
        button.textContent = chooserLabel(move);
        button.disabled = state.busy;
        button.addEventListener("click", () => playMove(move));
        return button;
      }),
    );
  }

  function renderMoves() {
    const list = $("moves");
    list.replaceChildren(
      ...legalMoves().map((move, index) => {
        const item = document.createElement("li");
        const button = document.createElement("button");
        button.type = "button";
        button.className = "move";
        button.disabled = state.busy;
        const num = document.createElement("span");
        num.className = "num";
        num.textContent = index < 9 ? String(index + 1) : "";
        button.append(num, document.createTextNode(moveText(move)));
        button.addEventListener("click", () => playMove(move));
        item.append(button);
        return item;
      }),
    );
  }

  const pct = (x) => `${Math.round(x * 100)}%`;
  const clamp01 = (x) => Math.min(1, Math.max(0, Number(x) || 0));

  function bar(score, ci, extra = "") {
    const el = document.createElement("div");
    el.className = "bar" + (extra ? " " + extra : "");
    el.setAttribute("aria-hidden", "true");
    const fill = document.createElement("div");
    fill.className = "fill";
    fill.style.width = `${(clamp01(score) * 100).toFixed(1)}%`;
    el.append(fill);
    if (ci) {
      const interval = document.createElement("div");
      interval.className = "interval";
      interval.style.left = `${(clamp01(ci[0]) * 100).toFixed(1)}%`;
      interval.style.width = `${((clamp01(ci[1]) - clamp01(ci[0])) * 100).toFixed(1)}%`;
      el.append(interval);
    }
    return el;
  }

  function provenBadge() {
    const badge = document.createElement("span");
    badge.className = "proven";
    badge.textContent = `✓ ${t("proven")}`;
    return badge;
  }

  function renderHint() {
    const panel = $("hint-panel");
    const hint = state.hint;
    if (!hint || state.hintFor !== (state.game ? state.game.history.length : -1)) {
      if (!state.busy) panel.hidden = true;
      return;
    }
    panel.hidden = false;
    const ev = hint.evaluation;
    const evaluation = $("evaluation");
    evaluation.replaceChildren();
    evaluation.dataset.exact = String(!!ev.exact);
    const label = document.createElement("span");
    label.className = "label";
    label.textContent = `${t("position")}: ${pct(ev.score)}`;
    evaluation.append(label);
    if (ev.exact) evaluation.append(provenBadge());
    const note = document.createElement("div");
    note.className = "muted small";
    note.textContent = t("interval", { lo: pct(ev.ci95[0]), hi: pct(ev.ci95[1]) });
    evaluation.append(bar(ev.score, ev.ci95, "eval"), note);

    $("hint-moves").replaceChildren(
      ...hint.moves.map((entry, index) => {
        const item = document.createElement("li");
        const button = document.createElement("button");
        button.type = "button";
        button.className = "hint-move" + (index === 0 ? " best" : "");
        button.dataset.score = String(entry.score);
        button.dataset.exact = String(!!entry.exact);
        button.disabled = state.busy;
        const what = document.createElement("span");
        what.className = "what";
        what.textContent = moveText(entry.move);
        what.title = entry.notation;
        if (entry.exact) what.append(provenBadge());
        const value = document.createElement("span");
        value.className = "pct";
        value.textContent = pct(entry.score);
        value.title = t("winChance");
        const ci = document.createElement("span");
        ci.className = "ci";
        ci.textContent = t("interval", { lo: pct(entry.ci95[0]), hi: pct(entry.ci95[1]) });
        if (!entry.exact) ci.textContent += ` · ${t("visits", { n: entry.visits })}`;
        button.append(what, value, bar(entry.score, entry.ci95), ci);
        button.setAttribute(
          "aria-label",
          `${moveText(entry.move)}: ${t("winChance")} ${pct(entry.score)}, ${ci.textContent}${entry.exact ? ", " + t("proven") : ""}`,
        );
        button.addEventListener("click", () => playMove(entry.move));
        item.append(button);
        return item;
      }),
    );
    const s = hint.stats;
    $("hint-stats").textContent = t("stats", {
      alg: s.algorithm, it: Number(s.iterations).toLocaleString(state.lang), ms: Math.round(s.time_ms),
    });
  }

  function renderHistory(game) {
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
        what.textContent = entry.notation;
        item.append(who, what);
        return item;
      }),
    );
    if (atBottom) list.scrollTop = list.scrollHeight;
  }

  function renderOver(game, over) {
    const panel = $("over");
    panel.hidden = !over;
    if (!over) return;
    const loser = game.loser;
    const winner = game.match && game.match.previous ? game.match.previous.winner : null;
    let text;
    if (loser === 0) text = t("resultLose");
    else if ((loser === null || loser === undefined) && winner !== null && winner !== undefined) {
      text = t("resultAllTrumps", { name: seatName(winner) });
    } else if (loser === null || loser === undefined) text = t("resultDraw");
    else text = t("resultWin", { name: seatName(loser) });
    $("result").textContent = text;
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

  // -- keys ----------------------------------------------------------------------------------

  function onKey(event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA")) return;
    if (reviewOpen() && !$("game").hidden) {
      const at = state.review.at;
      const step = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: Infinity }[event.key];
      if (event.key === "Escape") { closeReview(); event.preventDefault(); return; }
      if (step !== undefined) { stepReview(step); event.preventDefault(); return; }
    }
    if (event.key === "Escape") {
      if (state.choosing) { closeChooser(); event.preventDefault(); }
      return;
    }
    if ($("game").hidden || !state.game) return;
    const key = event.key.toLowerCase();
    if (key === "n") { showSetup(); event.preventDefault(); return; }
    if (state.busy) return;
    let handled = true;
    if (key === "h") askHint();
    else if (key === "t") { const m = actionMove("take"); if (m) playMove(m); }
    else if (key === "p") { const m = actionMove("pass"); if (m) playMove(m); }
    else if (key === "c") transfer();
    else if (/^[1-9]$/.test(key)) {
      const list = state.choosing ? state.choosing.moves : legalMoves();
      const move = list[Number(key) - 1];
      if (move) playMove(move);
    } else handled = false;
    if (handled) event.preventDefault();
  }

  // -- start ---------------------------------------------------------------------------------

  async function loadPresets() {
    try {
      const rules = await api("GET", "/v1/rules");
      for (const [name, preset] of Object.entries(rules.presets || {})) {
        if (preset.min_players && preset.max_players) state.playersRange[name] = [preset.min_players, preset.max_players];
      }
    } catch (error) {
      showError(error); // the fallback ranges still work
    }
    fillPlayers();
  }

  function restoreForm() {
    let saved = null;
    try { saved = JSON.parse(store.get("localStorage", SETUP_KEY) || "null"); } catch { saved = null; }
    if (saved && typeof saved === "object") {
      if (saved.preset) $("preset").value = saved.preset;
      fillPlayers();
      if (saved.players) $("players").value = String(saved.players);
      if (saved.engine) $("engine").value = saved.engine;
      if (saved.timeMs) $("time-ms").value = String(saved.timeMs);
      if (saved.games) $("games").value = String(saved.games);
      const options = saved.options || {};
      for (const box of $("side-rules").querySelectorAll("input[type=checkbox]")) {
        box.checked = box.name === "trump_repeat" ? !!options.trump_repeat_limit : !!options[box.name];
      }
    }
    syncEngineFields();
    syncRuleFields();
  }

  function init() {
    const stored = store.get("localStorage", LANG_KEY);
    const guess = (navigator.language || "").toLowerCase().startsWith("vi") ? "vi" : "en";
    setLanguage(stored && TEXT[stored] ? stored : guess);

    fillPlayers();
    restoreForm();
    $("preset").addEventListener("change", () => { fillPlayers(); syncRuleFields(); });
    $("engine").addEventListener("change", syncEngineFields);
    $("lang").addEventListener("change", (event) => setLanguage(event.target.value));
    $("setup-form").addEventListener("submit", (event) => {
      event.preventDefault();
      let setup;
      try { setup = readForm(); } catch (error) { showError(error); return; }
      startGame(setup);
    });
    $("message-close").addEventListener("click", clearMessage);
    $("take-button").addEventListener("click", () => { const m = actionMove("take"); if (m) playMove(m); });
    $("pass-button").addEventListener("click", () => { const m = actionMove("pass"); if (m) playMove(m); });
    $("transfer-button").addEventListener("click", transfer);
    $("hint-button").addEventListener("click", askHint);
    $("chooser-cancel").addEventListener("click", closeChooser);
    $("new-game-top").addEventListener("click", showSetup);
    $("new-game-over").addEventListener("click", showSetup);
    $("back-to-game").addEventListener("click", () => { if (state.game) showGame(); });
    $("replay").addEventListener("click", () => {
      if (state.setup && state.game && typeof state.game.seed === "string") startGame({ ...state.setup, seed: state.game.seed });
    });
    $("review-button").addEventListener("click", openReview);
    $("review-close").addEventListener("click", closeReview);
    $("review-prev").addEventListener("click", () => { if (state.review) stepReview(state.review.at - 1); });
    $("review-next").addEventListener("click", () => { if (state.review) stepReview(state.review.at + 1); });
    foldTracker(store.get("localStorage", TRACKER_KEY) === "closed");
    $("tracker-toggle").addEventListener("click", () => {
      const folded = $("tracker-toggle").getAttribute("aria-expanded") === "true";
      foldTracker(folded);
      store.set("localStorage", TRACKER_KEY, folded ? "closed" : null);
    });
    document.addEventListener("keydown", onKey);

    loadPresets(); // refines the seat ranges; keeps what is chosen
    resume();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
