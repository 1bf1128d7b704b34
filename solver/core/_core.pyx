# cython: language_level=3
"""The fast game core: docs/rules.md over 64-bit card sets, without the interpreter.

This is the same game as `solver/game/reference.py`, written for speed: a state is
a plain struct that copies with one `memcpy`, moves are ints, and whole random
games run in `nogil` loops. The differential tests drive both implementations
through random games and hold them to identical moves and states; the rule
readings they share are in docs/rules.md.

The rule questions on public fields (`solver.game.phases`: a redeal offered, a
win by trumps, the trump ace's loss, the scores) cannot be called without the
interpreter, so each is mirrored here over bit sets and names its source;
`Rules.has_setup` is read once, into the C rules.

Only `solver` modules import this one; everyone else uses the Python faces.
"""

cimport cython
from libc.stdint cimport uint8_t, uint32_t, uint64_t
from libc.string cimport memcpy, memset

from time import perf_counter

from solver.game.cards import Card
from solver.game.moves import Action, Move
from solver.game import phases
from solver.game.rules import DefenderEmpty, FirstAttacker, RefillOrder, Rules, Throwers

# The four cards of one rank: bits r, r+13, r+26, r+39.
cdef uint64_t RANK_BITS = (<uint64_t>1) | (<uint64_t>1 << 13) | (<uint64_t>1 << 26) | (<uint64_t>1 << 39)
cdef uint64_t SUIT_BITS = 0x1FFF
# BEATERS[trump suit][card]: every card that beats it (docs/rules.md §1.3); RANK_CARDS[card]: its rank's four cards.
cdef uint64_t BEATERS[4][52]
cdef uint64_t RANK_CARDS[52]
# The cards of each deck in index order (docs/rules.md §1.1).
cdef uint8_t DECK52[52]
cdef uint8_t DECK36[36]


cdef void _init_tables() noexcept:
    cdef int trump, card, suit, n36 = 0
    cdef uint64_t higher
    for card in range(52):
        DECK52[card] = card
        if rank_of(card) >= RANK_SIX:
            DECK36[n36] = card
            n36 += 1
        suit = suit_of(card)
        RANK_CARDS[card] = RANK_BITS << rank_of(card)
        higher = (SUIT_BITS << (RANKS * suit)) & ~((<uint64_t>2 << card) - 1)
        for trump in range(4):
            BEATERS[trump][card] = higher if suit == trump else higher | (SUIT_BITS << (RANKS * trump))


_init_tables()


# -- random numbers: xoroshiro128+ seeded through splitmix64 -------------------------

cdef inline uint64_t splitmix64(uint64_t* x) noexcept nogil:
    x[0] += <uint64_t>0x9E3779B97F4A7C15
    cdef uint64_t z = x[0]
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)


cdef void rng_seed(Rng* rng, uint64_t seed) noexcept nogil:
    cdef uint64_t x = seed
    rng.s0 = splitmix64(&x)
    rng.s1 = splitmix64(&x)
    if rng.s0 == 0 and rng.s1 == 0:
        rng.s1 = 1


cdef inline uint64_t rotl(uint64_t x, int k) noexcept nogil:
    return (x << k) | (x >> (64 - k))


cdef uint64_t rng_next(Rng* rng) noexcept nogil:
    cdef uint64_t s0 = rng.s0
    cdef uint64_t s1 = rng.s1
    cdef uint64_t result = s0 + s1
    s1 ^= s0
    rng.s0 = rotl(s0, 24) ^ s1 ^ (s1 << 16)
    rng.s1 = rotl(s1, 37)
    return result


cdef int rng_below(Rng* rng, int n) noexcept nogil:
    """Uniform in 0…n-1 (n ≤ 2^16 here, so the multiply-shift bias is below 2^-16)."""
    return <int>(((rng_next(rng) >> 32) * <uint64_t>n) >> 32)


# -- card sets -----------------------------------------------------------------------

cdef inline int select_bit(uint64_t bits, int k) noexcept nogil:
    """Index of the k-th (from 0) set bit of `bits`."""
    return tan_select(bits, k)


cdef inline uint64_t beaters(const State* s, int card) noexcept nogil:
    """Every card that beats `card` (docs/rules.md §1.3): higher of its suit, or any trump if it is not trump."""
    return BEATERS[s.trump_suit][card]


# -- seats ---------------------------------------------------------------------------

cdef inline int step(const State* s, int seat) noexcept nogil:
    """The seat after `seat` around the table."""
    seat += 1
    return 0 if seat == s.players else seat


cdef int next_active(const State* s, int seat) noexcept nogil:
    """The next seat after `seat` in play order that has not finished (docs/rules.md §1.2)."""
    cdef int i, other = seat
    for i in range(s.players):
        other = step(s, other)
        if (s.active >> other) & 1:
            return other
    return seat


cdef inline uint32_t thrower_bits(const State* s) noexcept nogil:
    """Who may throw in, a bit per seat, as `throwers` says (docs/rules.md §1.4, "Throwing in"):
    every active seat but the defender, its two neighbours — the main attacker and the next active
    seat after the defender — or the main attacker alone."""
    cdef uint32_t bits = <uint32_t>1 << s.attacker
    if s.rules.throwers == THROWERS_ALL:
        bits = s.active
    elif s.rules.throwers == THROWERS_NEIGHBOURS:
        bits |= <uint32_t>1 << next_active(s, s.defender)
    return bits & ~(<uint32_t>1 << s.defender)


cdef inline int first_thrower(const State* s) noexcept nogil:
    """The first thrower in order from the main attacker who has not passed, or -1 (docs/rules.md §1.4)."""
    cdef int i, seat = s.attacker
    cdef uint32_t waiting = thrower_bits(s) & ~s.passed
    if not waiting:
        return -1
    for i in range(s.players):
        if (waiting >> seat) & 1:
            return seat
        seat = step(s, seat)
    return -1


cdef int attack_limit(const State* s) noexcept nogil:
    """Most attack cards this bout: the defender's cards at bout start, capped (docs/rules.md §1.4)."""
    cdef int cap = s.rules.max_attack
    cdef int limit = tan_popcount(s.hands[s.defender]) + s.n_defended
    if not s.defended_once and s.rules.first_bout_max_attack > 0:
        cap = s.rules.first_bout_max_attack
    if cap > 0 and cap < limit:
        return cap
    return limit


# -- state ---------------------------------------------------------------------------

cdef inline size_t header_size(const State* s) noexcept nogil:
    """Bytes of a state before its repetition history."""
    return <size_t>(<const char*>&s.history[0] - <const char*>s)


cdef void state_copy(State* dst, const State* src) noexcept nogil:
    """Copy a state; only the used part of the repetition history is copied."""
    memcpy(dst, src, header_size(src) + src.history_len * sizeof(uint64_t))


cdef uint64_t bout_key(const State* s) noexcept nogil:
    """Hash of a bout-start state: hands and main attacker (stock and discard are fixed between resets)."""
    cdef uint64_t h = <uint64_t>(s.attacker + 1) * <uint64_t>0x9E3779B97F4A7C15
    cdef int seat
    for seat in range(s.players):
        h = (h ^ s.hands[seat]) * <uint64_t>0xBF58476D1CE4E5B9
        h ^= h >> 31
    return h


cdef inline void set_over(State* s, int loser) noexcept nogil:
    """Game over: the loser, and the winner (docs/rules.md §1.8) unless all trumps named one."""
    s.over = 1
    s.loser = loser
    s.to_move = -1
    if s.winner < 0 and loser >= 0:
        s.winner = s.two_out if s.rules.twos_last and s.two_out >= 0 else s.first_out


cdef inline int check_trump_ace(State* s) noexcept nogil:
    """thối A chủ (docs/rules.md §1.5): an active seat holding only the trump ace, stock empty, loses
    (mirrors `solver.game.phases.trump_ace_loses`)."""
    cdef int seat
    cdef uint64_t ace
    if not s.rules.trump_ace_last_loses or s.n_stock > 0:
        return 0
    ace = <uint64_t>1 << (s.trump_suit * RANKS + RANK_ACE)
    for seat in range(s.players):
        if (s.active >> seat) & 1 and s.hands[seat] == ace:
            set_over(s, seat)
            return 1
    return 0


cdef inline int draw_up(State* s, int seat) noexcept nogil:
    """Seat draws from the top of the stock up to hand_size; returns the cards drawn."""
    cdef int drawn = s.rules.hand_size - tan_popcount(s.hands[seat])
    cdef int i
    if drawn <= 0:
        return 0
    if drawn > s.n_stock:
        drawn = s.n_stock
    for i in range(drawn):
        s.n_stock -= 1
        s.hands[seat] |= <uint64_t>1 << s.stock[s.n_stock]
    return drawn


cdef inline void refill(State* s) noexcept nogil:
    """Refill in `refill_order` from the bout's main attacker (docs/rules.md §1.4)."""
    cdef int i, seat, drawn = 0
    cdef int defender_last = s.rules.refill_order == REFILL_ATTACKER_OTHERS_DEFENDER
    if s.n_stock == 0:
        return
    drawn += draw_up(s, s.attacker)
    if not defender_last:
        drawn += draw_up(s, s.defender)
    seat = s.attacker
    for i in range(1, s.players):
        seat = step(s, seat)
        if seat != s.defender and (s.active >> seat) & 1:
            drawn += draw_up(s, seat)
    if defender_last:
        drawn += draw_up(s, s.defender)
    if drawn:
        s.history_len = 0


cdef inline void clear_table(State* s) noexcept nogil:
    s.n_table = 0
    s.n_defended = 0
    s.table_cards = 0
    s.undefended = 0
    s.table_rank_cards = 0
    s.taking = 0
    s.passed = 0


cdef inline void start_bout(State* s, int attacker) noexcept nogil:
    """A new bout: attacker leads, the next active seat defends; record it for repetition (docs/rules.md §1.5)."""
    cdef int i, count = 0
    cdef uint64_t key
    s.attacker = attacker
    s.defender = next_active(s, attacker)
    s.to_move = attacker
    s.bout_active = s.active
    key = bout_key(s)
    for i in range(s.history_len):
        if s.history[i] == key:
            count += 1
    if count >= 2 or s.history_len >= HISTORY_CAP:
        set_over(s, -1)
        return
    s.history[s.history_len] = key
    s.history_len += 1


cdef void end_bout(State* s, int took) noexcept nogil:
    """Table away, refill, finishing, game over, next attacker (docs/rules.md §1.4-§1.5)."""
    cdef int i, seat, defender = s.defender
    if took:
        s.hands[defender] |= s.table_cards
    else:
        s.defended_once = 1
        s.history_len = 0
    clear_table(s)
    refill(s)
    if check_trump_ace(s):
        return
    if s.n_stock == 0:
        seat = s.attacker
        for i in range(s.players):
            if i:
                seat = step(s, seat)
            if (s.active >> seat) & 1 and s.hands[seat] == 0:
                s.finished[s.n_finished] = seat
                s.n_finished += 1
                s.active &= ~(<uint32_t>1 << seat)
                if s.first_out < 0:
                    s.first_out = seat
                if s.two_out < 0 and s.last_played[seat] != 255 and rank_of(s.last_played[seat]) == RANK_TWO:
                    s.two_out = seat
    if tan_popcount(s.active) <= 1:
        set_over(s, tan_lowbit(s.active) if s.active else -1)
        return
    if took or not ((s.active >> defender) & 1):
        start_bout(s, next_active(s, defender))
    else:
        start_bout(s, defender)


cdef inline void put_attack(State* s, int card) noexcept nogil:
    cdef uint64_t bit = <uint64_t>1 << card
    s.attack_cards[s.n_table] = card
    s.defense_cards[s.n_table] = 255
    s.n_table += 1
    s.table_cards |= bit
    s.undefended |= bit
    s.table_rank_cards |= RANK_CARDS[card]
    s.passed = 0


cdef void apply_move(State* s, int move) noexcept nogil:
    """Apply a legal move of the seat to move (the caller guarantees legality)."""
    apply_inline(s, move)


cdef inline void apply_inline(State* s, int move) noexcept nogil:
    cdef int kind = move_kind(move)
    cdef int card = move_card(move)
    cdef int target = move_target(move)
    cdef int seat = s.to_move
    cdef int i, nxt
    if s.phase == PHASE_SETUP:
        apply_setup(s, kind, card)
        return
    if last_word(s):
        # take_when_beaten (docs/rules.md §1.8): the defender takes the beaten table or lets it stand.
        end_bout(s, kind == MK_TAKE)
        return
    if kind == MK_ATTACK:
        s.hands[seat] &= ~(<uint64_t>1 << card)
        s.last_played[seat] = card
        put_attack(s, card)
        # While taking, throw-ins stay undefended and the order restarts (docs/rules.md §1.4).
        s.to_move = s.attacker if s.taking else s.defender
    elif kind == MK_DEFEND:
        s.hands[seat] &= ~(<uint64_t>1 << card)
        s.last_played[seat] = card
        for i in range(s.n_table):
            if s.attack_cards[i] == target:
                s.defense_cards[i] = card
                break
        s.undefended &= ~(<uint64_t>1 << target)
        s.table_cards |= <uint64_t>1 << card
        s.table_rank_cards |= RANK_CARDS[card]
        s.n_defended += 1
        s.passed = 0
        if s.hands[seat] == 0:
            if s.rules.defender_refill and s.n_stock > 0:
                draw_up(s, seat)
                s.history_len = 0
            else:
                end_bout(s, 0)
                return
        s.to_move = s.defender if s.undefended else s.attacker
    elif kind == MK_TAKE:
        if not s.rules.throw_in_after_take:
            end_bout(s, 1)
            return
        s.taking = 1
        s.passed = 0
        s.to_move = s.attacker
    elif kind == MK_PASS:
        s.passed |= <uint32_t>1 << seat
        nxt = first_thrower(s)
        if nxt < 0:
            if s.rules.take_when_beaten and not s.taking:
                s.to_move = s.defender  # the defender's last word
            else:
                end_bout(s, s.taking)
                return
        else:
            s.to_move = nxt
    else:  # MK_TRANSFER
        s.hands[seat] &= ~(<uint64_t>1 << card)
        s.last_played[seat] = card
        put_attack(s, card)
        s.attacker = seat
        s.defender = next_active(s, seat)
        s.to_move = s.defender
    if s.rules.trump_ace_last_loses:
        check_trump_ace(s)


cdef int gen_moves(const State* s, int* moves) noexcept nogil:
    """Every legal move of the seat to move (docs/rules.md §1.4, "Whose turn")."""
    cdef int n = 0, t, c
    cdef uint64_t hand, targets, b
    if s.over:
        return 0
    if s.phase == PHASE_SETUP:
        return setup_moves(s, moves)
    hand = s.hands[s.to_move]
    if s.n_table == 0:
        b = playable(s, hand)
        while b:
            moves[n] = make_move(MK_ATTACK, tan_lowbit(b), 0)
            n += 1
            b &= b - 1
        return n
    if s.undefended and not s.taking:
        targets = s.undefended
        while targets:
            t = tan_lowbit(targets)
            targets &= targets - 1
            b = hand & beaters(s, t)
            while b:
                moves[n] = make_move(MK_DEFEND, tan_lowbit(b), t)
                n += 1
                b &= b - 1
        moves[n] = MK_TAKE
        n += 1
        if can_transfer(s):
            b = playable(s, hand) & s.table_rank_cards
            while b:
                moves[n] = make_move(MK_TRANSFER, tan_lowbit(b), 0)
                n += 1
                b &= b - 1
        return n
    if last_word(s):
        moves[0] = MK_TAKE
        moves[1] = MK_PASS
        return 2
    if s.n_table < attack_limit(s):
        b = playable(s, hand) & s.table_rank_cards
        while b:
            moves[n] = make_move(MK_ATTACK, tan_lowbit(b), 0)
            n += 1
            b &= b - 1
    moves[n] = MK_PASS
    return n + 1


cdef inline int setup_moves(const State* s, int* moves) noexcept nogil:
    """The choices of the seat asked in the setup (docs/rules.md §1.7): two, or only keep for a seat
    asked with nothing to decide (it holds a trump, or not the lowest one)."""
    if s.setup_step == STEP_PICK:
        moves[0] = make_move(MK_PICK, 0, 0)
        moves[1] = make_move(MK_PICK, 1, 0)
        return 2
    if s.setup_step == STEP_REDEAL and not may_redeal(s, s.to_move):
        moves[0] = MK_KEEP
        return 1
    if s.setup_step == STEP_SWAP and not may_swap(s, s.to_move):
        moves[0] = MK_KEEP
        return 1
    moves[0] = MK_REDEAL if s.setup_step == STEP_REDEAL else MK_SWAP
    moves[1] = MK_KEEP
    return 2


cdef uint64_t playable(const State* s, uint64_t hand) noexcept nogil:
    """The cards of `hand` that may be led, thrown in or transferred: under đút 2 (docs/rules.md §1.8)
    a 2 only from a hand of 2s."""
    if s.rules.twos_last and (hand & ~RANK_BITS):
        return hand & ~RANK_BITS
    return hand


cdef int last_word(const State* s) noexcept nogil:
    """The defender's last word (take_when_beaten, docs/rules.md §1.8): all beaten, all passed."""
    return (s.rules.take_when_beaten and s.n_table > 0 and not s.undefended and not s.taking
            and s.to_move == s.defender)


cdef int can_transfer_c(const State* s) noexcept nogil:
    """`can_transfer` for other modules."""
    return can_transfer(s)


cdef uint64_t beaters_c(const State* s, int card) noexcept nogil:
    """`beaters` for other modules."""
    return beaters(s, card)


cdef inline int can_transfer(const State* s) noexcept nogil:
    """Transfer is open: rule on, nothing beaten, and the next seat can face one more card."""
    if not s.rules.transfer or s.n_defended > 0:
        return 0
    return tan_popcount(s.hands[next_active(s, s.defender)]) >= s.n_table + 1


cdef int random_move(const State* s, Rng* rng) noexcept nogil:
    """A uniformly random legal move, chosen by counting instead of listing."""
    return random_inline(s, rng)


cdef inline int random_inline(const State* s, Rng* rng) noexcept nogil:
    cdef int total, k, t, count
    cdef uint64_t hand, targets, b, throwable
    cdef int choices[2]
    if s.phase == PHASE_SETUP:
        return choices[rng_below(rng, setup_moves(s, choices))]
    hand = s.hands[s.to_move]
    if s.n_table == 0:
        hand = playable(s, hand)
        return make_move(MK_ATTACK, select_bit(hand, rng_below(rng, tan_popcount(hand))), 0)
    if s.undefended and not s.taking:
        total = 1
        targets = s.undefended
        while targets:
            t = tan_lowbit(targets)
            targets &= targets - 1
            total += tan_popcount(hand & beaters(s, t))
        throwable = playable(s, hand) & s.table_rank_cards if can_transfer(s) else 0
        total += tan_popcount(throwable)
        k = rng_below(rng, total)
        targets = s.undefended
        while targets:
            t = tan_lowbit(targets)
            targets &= targets - 1
            b = hand & beaters(s, t)
            count = tan_popcount(b)
            if k < count:
                return make_move(MK_DEFEND, select_bit(b, k), t)
            k -= count
        if k == 0:
            return MK_TAKE
        return make_move(MK_TRANSFER, select_bit(throwable, k - 1), 0)
    if last_word(s):
        return MK_TAKE if rng_below(rng, 2) == 0 else MK_PASS
    throwable = playable(s, hand) & s.table_rank_cards if s.n_table < attack_limit(s) else 0
    k = rng_below(rng, tan_popcount(throwable) + 1)
    if k == 0:
        return MK_PASS
    return make_move(MK_ATTACK, select_bit(throwable, k - 1), 0)


cdef int playout(State* s, Rng* rng) noexcept nogil:
    """Play uniformly random moves to the end of the game; returns the plies played."""
    cdef int plies = 0
    while not s.over:
        apply_inline(s, random_inline(s, rng))
        plies += 1
    return plies


cdef void state_scores(const State* s, double* scores) noexcept nogil:
    """docs/rules.md §1.5 scores of a finished game (loser 0; no loser: seats in the last bout 0.5;
    mirrors `solver.game.phases.final_scores`)."""
    cdef int seat
    for seat in range(s.players):
        if s.loser >= 0:
            scores[seat] = 0.0 if seat == s.loser else 1.0
        elif s.winner >= 0:  # won with a hand of trumps before the first lead (docs/rules.md §1.7)
            scores[seat] = 1.0 if seat == s.winner else 0.0
        else:
            scores[seat] = 0.5 if (s.bout_active >> seat) & 1 else 1.0


cdef inline void state_clear(State* s, const RulesC* rules, int players) noexcept nogil:
    """An empty state of these rules: nothing dealt, nobody out, no winner, no setup."""
    memset(s, 0, header_size(s))
    s.rules = rules[0]
    s.players = players
    s.defender = 1 % players  # before the first bout, as the reference has it
    s.loser = -1
    s.winner = -1
    s.first_out = -1
    s.two_out = -1
    s.tribute_giver = -1
    s.tribute_receiver = -1
    s.swapper = -1
    memset(s.last_played, 255, sizeof(s.last_played))


cdef void state_deal(State* s, const RulesC* rules, int players, const uint8_t* deck, int first_attacker,
                     int tribute_giver, int tribute_receiver, uint64_t chance_seed) noexcept nogil:
    """Deal an ordered deck (index 0 on top) as docs/rules.md §1.2 says, then play the setup's
    forced steps (§1.7); first_attacker < 0: by the rules; tribute_giver < 0: no tribute."""
    cdef int i, seat, dealt = players * rules.hand_size
    cdef int lowest = 64, low
    state_clear(s, rules, players)
    for i in range(dealt):
        s.hands[i % players] |= <uint64_t>1 << deck[i]
    if dealt < rules.deck:
        s.trump_card = deck[dealt]
        s.stock[0] = deck[dealt]
        s.n_stock = rules.deck - dealt
        for i in range(1, s.n_stock):
            s.stock[i] = deck[rules.deck - i]
    else:
        s.trump_card = deck[rules.deck - 1]
    s.trump_suit = suit_of(s.trump_card)
    s.trump_mask = SUIT_BITS << (RANKS * s.trump_suit)
    s.active = (<uint32_t>1 << players) - 1
    if first_attacker < 0:
        first_attacker = 0
        if rules.lowest_trump_first:
            for seat in range(players):
                if s.hands[seat] & s.trump_mask:
                    low = tan_lowbit(s.hands[seat] & s.trump_mask)
                    if low < lowest:
                        lowest = low
                        first_attacker = seat
    s.history_len = 0
    s.leader = first_attacker
    rng_seed(&s.chance, chance_seed)
    if rules.tribute and tribute_giver >= 0:
        s.tribute_giver = tribute_giver
        s.tribute_receiver = tribute_receiver
    if rules.has_setup:
        s.phase = PHASE_SETUP
        advance_setup(s)
    else:
        start_play(s)


# -- the setup (docs/rules.md §1.7) -------------------------------------------------------

cdef inline void start_play(State* s) noexcept nogil:
    """The first bout begins with the seat that leads."""
    s.phase = PHASE_PLAY
    s.setup_step = STEP_NONE
    start_bout(s, s.leader)
    check_trump_ace(s)


cdef inline int setup_seat(const State* s, int k) noexcept nogil:
    """The k-th seat of the setup order (play order from the would-be leader), or -1."""
    cdef int i, seat = s.leader, count = 0
    for i in range(s.players):
        if (s.active >> seat) & 1:
            if count == k:
                return seat
            count += 1
        seat = step(s, seat)
    return -1


cdef inline int low_trump(const State* s) noexcept nogil:
    """The deck's lowest trump: the 2 in 52 cards, the 6 in 36."""
    return s.trump_suit * RANKS + (RANK_TWO if s.rules.deck == 52 else RANK_SIX)


cdef inline int redeal_asked(const State* s, int seat) noexcept nogil:
    """The seat is asked in the xả chủ round: not redealt yet, two new hands above the trump card,
    whatever it holds (mirrors `solver.game.phases.redeal_asked`)."""
    return (s.rules.redeal_without_trump and not ((s.redealt >> seat) & 1)
            and s.n_stock - 1 >= 2 * s.rules.hand_size)


cdef inline int may_redeal(const State* s, int seat) noexcept nogil:
    """xả chủ is offered: asked, and no trump in hand (mirrors `solver.game.phases.redeal_offered`)."""
    return redeal_asked(s, seat) and not (s.hands[seat] & s.trump_mask)


cdef inline int may_swap(const State* s, int seat) noexcept nogil:
    """The seat asked in the đổi 2 chủ round holds the lowest trump."""
    return (s.hands[seat] >> low_trump(s)) & 1


cdef inline void ask_swap(State* s, int k) noexcept nogil:
    """Ask the k-th seat of the setup order whether to swap; after the last, play (docs/rules.md §1.7)."""
    cdef int seat = setup_seat(s, k)
    if seat < 0:
        start_play(s)
        return
    s.setup_step = STEP_SWAP
    s.to_move = seat


cdef inline int setup_index(const State* s, int seat) noexcept nogil:
    """The place of `seat` in the setup order."""
    cdef int k = 0
    while setup_seat(s, k) != seat:
        k += 1
    return k


cdef inline void give_tribute(State* s, int giver, int receiver) noexcept nogil:
    """cúng chủ: the loser's highest trump to the winner, and the loser draws one card."""
    cdef uint64_t trumps = s.hands[giver] & s.trump_mask
    cdef int card
    if (s.redealt >> giver) & 1 or not trumps:
        return
    card = tan_highbit(trumps)
    s.hands[giver] &= ~(<uint64_t>1 << card)
    s.hands[receiver] |= <uint64_t>1 << card
    if s.n_stock > 0:
        s.n_stock -= 1
        s.hands[giver] |= <uint64_t>1 << s.stock[s.n_stock]


cdef void advance_setup(State* s) noexcept nogil:
    """Play the setup's forced steps until a seat must decide or the first bout begins."""
    cdef int k, seat
    cdef uint64_t hand
    while True:
        seat = setup_seat(s, s.redeal_next)
        if seat < 0:
            break
        if redeal_asked(s, seat):
            s.setup_step = STEP_REDEAL
            s.to_move = seat
            return
        s.redeal_next += 1
    if s.tribute_giver >= 0:
        give_tribute(s, s.tribute_giver, s.tribute_receiver)
        s.tribute_giver = -1
        s.tribute_receiver = -1
    if s.rules.all_trumps_wins:
        for k in range(s.players):
            seat = setup_seat(s, k)
            if seat < 0:
                break
            hand = s.hands[seat]
            # Mirrors solver.game.phases.all_trumps_win.
            if (not ((s.redealt >> seat) & 1) and tan_popcount(hand) >= s.rules.hand_size
                    and not (hand & ~s.trump_mask)):
                s.winner = seat
                s.setup_step = STEP_NONE
                set_over(s, -1)
                return
    # Mirrors solver.game.phases.swap_asked: every seat is asked in turn, whoever holds the low trump.
    if s.rules.trump_swap and s.n_stock > 0 and low_trump(s) != s.trump_card:
        ask_swap(s, 0)
        return
    start_play(s)


cdef void apply_setup(State* s, int kind, int choice) noexcept nogil:
    """A setup decision (docs/rules.md §1.7); `choice` is the set a pick takes."""
    cdef int seat = s.to_move, i, j, n = 0, h = s.rules.hand_size, low
    cdef uint8_t rest[52]
    cdef uint8_t tmp
    cdef uint64_t b
    if kind == MK_REDEAL:
        # The hand is shown and set aside; the stock's next two hands are offered.
        s.shown = s.hands[seat]
        s.hands[seat] = 0
        s.redeal_sets[0] = 0
        s.redeal_sets[1] = 0
        for j in range(2):
            for i in range(h):
                s.n_stock -= 1
                s.redeal_sets[j] |= <uint64_t>1 << s.stock[s.n_stock]
        s.setup_step = STEP_PICK
        return
    if kind == MK_PICK:
        s.hands[seat] = s.redeal_sets[choice]
        # Above the trump card, top first: the stock, then the other hand and the shown one
        # (each in card order), shuffled by the game's chance generator.
        for i in range(s.n_stock - 1, 0, -1):
            rest[n] = s.stock[i]
            n += 1
        b = s.redeal_sets[1 - choice]
        while b:
            rest[n] = tan_lowbit(b)
            n += 1
            b &= b - 1
        b = s.shown
        while b:
            rest[n] = tan_lowbit(b)
            n += 1
            b &= b - 1
        for i in range(n - 1, 0, -1):
            j = rng_below(&s.chance, i + 1)
            tmp = rest[i]
            rest[i] = rest[j]
            rest[j] = tmp
        for i in range(n):
            s.stock[n - i] = rest[i]
        s.n_stock = n + 1
        s.shown = 0
        s.redeal_sets[0] = 0
        s.redeal_sets[1] = 0
        s.redealt |= <uint32_t>1 << seat
        s.setup_step = STEP_NONE
        s.redeal_next += 1
        advance_setup(s)
        return
    if kind == MK_SWAP:
        low = low_trump(s)
        s.hands[seat] &= ~(<uint64_t>1 << low)
        s.hands[seat] |= <uint64_t>1 << s.trump_card
        s.stock[0] = low
        s.trump_card = low
        s.swapper = seat
        if s.rules.trump_swap_cedes_lead:
            s.leader = next_active(s, seat)
        start_play(s)
        return
    # keep: nothing changes; the round goes on.
    if s.setup_step == STEP_REDEAL:
        s.redeal_next += 1
        s.setup_step = STEP_NONE
        advance_setup(s)
    else:
        ask_swap(s, setup_index(s, seat) + 1)


cdef void state_shuffle_deal(State* s, const RulesC* rules, int players, Rng* rng) noexcept nogil:
    """Shuffle a fresh deck with `rng` (Fisher-Yates) and deal it."""
    cdef uint8_t deck[52]
    cdef int i, j, n = rules.deck
    cdef uint8_t tmp
    if n == 52:
        memcpy(deck, DECK52, n)
    else:
        memcpy(deck, DECK36, n)
    for i in range(n - 1, 0, -1):
        j = rng_below(rng, i + 1)
        tmp = deck[i]
        deck[i] = deck[j]
        deck[j] = tmp
    state_deal(s, rules, players, deck, -1, -1, -1, rng_next(rng) if rules.redeal_without_trump else 0)


# -- Python faces ----------------------------------------------------------------------

cdef RulesC rules_to_c(rules: Rules):
    cdef RulesC r
    r.deck = rules.deck
    r.hand_size = rules.hand_size
    r.max_attack = rules.max_attack or 0
    r.first_bout_max_attack = rules.first_bout_max_attack or 0
    r.throw_in_after_take = rules.throw_in_after_take
    r.throwers = _THROWERS[rules.throwers]
    r.transfer = rules.transfer
    r.refill_order = (REFILL_ATTACKER_OTHERS_DEFENDER
                      if rules.refill_order is RefillOrder.ATTACKER_OTHERS_DEFENDER
                      else REFILL_ATTACKER_DEFENDER_OTHERS)
    r.defender_refill = rules.defender_empty is DefenderEmpty.REFILL
    r.trump_ace_last_loses = rules.trump_ace_last_loses
    r.lowest_trump_first = rules.first_attacker is FirstAttacker.LOWEST_TRUMP
    r.redeal_without_trump = rules.redeal_without_trump
    r.tribute = rules.tribute
    r.all_trumps_wins = rules.all_trumps_wins
    r.trump_swap = rules.trump_swap
    r.trump_swap_cedes_lead = rules.trump_swap_cedes_lead
    r.take_when_beaten = rules.take_when_beaten
    r.twos_last = rules.twos_last
    r.has_setup = rules.has_setup
    return r


_THROWERS = {Throwers.ALL: THROWERS_ALL, Throwers.NEIGHBOURS: THROWERS_NEIGHBOURS,
             Throwers.ATTACKER: THROWERS_ATTACKER}


# MoveKind order (_core.pxd).
_KINDS = (
    Action.ATTACK, Action.DEFEND, Action.TAKE, Action.PASS, Action.TRANSFER,
    Action.REDEAL, Action.KEEP, Action.PICK, Action.SWAP,
)
_KIND_OF = {action: i for i, action in enumerate(_KINDS)}
_STEPS = (None, "redeal", "pick", "swap")  # SetupStep order (_core.pxd)


def encode_move(move: Move) -> int:
    """The core's int for a `Move`."""
    card = move.card.index if move.card is not None else move.choice or 0
    return make_move(_KIND_OF[move.action], card, move.target.index if move.target is not None else 0)


def decode_move(int code) -> Move:
    """The `Move` for a core int."""
    action = _KINDS[move_kind(code)]
    if action is Action.DEFEND:
        return Move(action, Card.from_index(move_card(code)), Card.from_index(move_target(code)))
    if action in (Action.ATTACK, Action.TRANSFER):
        return Move(action, Card.from_index(move_card(code)))
    if action is Action.PICK:
        return Move(action, choice=move_card(code))
    return Move(action)


def _bits(uint64_t bits) -> list:
    out = []
    while bits:
        out.append(tan_lowbit(bits))
        bits &= bits - 1
    return out


cdef class CoreGame:
    """A full-information game in the fast core, with a Python face for tests and tools."""

    def __init__(self, rules: Rules):
        self.rules = rules

    @staticmethod
    def deal(rules: Rules, int players, deck, int first_attacker=-1, tribute=None,
             uint64_t chance_seed=0) -> CoreGame:
        """Deal `deck` (cards or indices, top first) as docs/rules.md §1.2, then the setup's forced
        steps (§1.7); `tribute` is `(giver, receiver)` when a match owes one."""
        cdef uint8_t order[52]
        cdef RulesC r = rules_to_c(rules)
        cards = [c.index if isinstance(c, Card) else int(c) for c in deck]
        if len(cards) != rules.deck:
            raise ValueError(f"a {rules.deck}-card deck is needed, got {len(cards)} cards")
        for i, c in enumerate(cards):
            order[i] = c
        giver, receiver = tribute if tribute is not None else (-1, -1)
        game = CoreGame(rules)
        state_deal(&game.state, &r, players, order, first_attacker, giver, receiver, chance_seed)
        return game

    @staticmethod
    def from_fields(rules: Rules, int players, hands, stock, trump, table=(), int attacker=0,
                    int defender=1, int to_move=0, bint taking=False, passed=(), finished=(),
                    bint defended_once=False, setup=None, uint64_t chance_seed=0) -> CoreGame:
        """Any mid-game state: `hands` per seat, `stock` top first (trump card last), `table` pairs;
        `setup` (with `step`, `leader`, `redealt`, `sets`, `shown`, `tribute`) for a game still in
        its setup (docs/rules.md §1.7); `chance_seed` seeds its chance events to come."""
        cdef State* s
        cdef RulesC r = rules_to_c(rules)
        game = CoreGame(rules)
        s = &game.state
        state_clear(s, &r, players)
        rng_seed(&s.chance, chance_seed)
        for seat, hand in enumerate(hands):
            for c in hand:
                s.hands[seat] |= <uint64_t>1 << _index(c)
        stock = [_index(c) for c in stock]
        s.n_stock = len(stock)
        for i, c in enumerate(reversed(stock)):
            s.stock[i] = c
        s.trump_card = _index(trump)
        s.trump_suit = suit_of(s.trump_card)
        s.trump_mask = SUIT_BITS << (RANKS * s.trump_suit)
        for pair in table:
            attack, defense = pair
            put_attack(s, _index(attack))
            if defense is not None and defense != -1:
                d = _index(defense)
                s.defense_cards[s.n_table - 1] = d
                s.undefended &= ~(<uint64_t>1 << s.attack_cards[s.n_table - 1])
                s.table_cards |= <uint64_t>1 << d
                s.table_rank_cards |= RANK_BITS << rank_of(d)
                s.n_defended += 1
        s.active = (<uint32_t>1 << players) - 1
        for seat in finished:
            s.finished[s.n_finished] = seat
            s.n_finished += 1
            s.active &= ~(<uint32_t>1 << seat)
        s.bout_active = s.active
        s.attacker = attacker
        s.defender = defender
        s.to_move = to_move
        s.taking = taking
        s.passed = 0
        for seat in passed:
            s.passed |= <uint32_t>1 << seat
        s.defended_once = defended_once
        if setup is not None:
            s.phase = PHASE_SETUP
            s.setup_step = _STEPS.index(setup.step)
            s.leader = setup.leader
            for seat in setup.redealt:
                s.redealt |= <uint32_t>1 << seat
            for i, part in enumerate(setup.sets or ()):
                for c in part:
                    s.redeal_sets[i] |= <uint64_t>1 << _index(c)
            for c in setup.shown:
                s.shown |= <uint64_t>1 << _index(c)
            if setup.tribute is not None:
                s.tribute_giver, s.tribute_receiver = setup.tribute
            s.redeal_next = s.players
            if s.setup_step == STEP_REDEAL or s.setup_step == STEP_PICK:
                s.redeal_next = 0
                while setup_seat(s, s.redeal_next) != to_move:
                    s.redeal_next += 1
        elif s.n_table == 0 and to_move >= 0:
            # A bout start built mid-game is the first occurrence of its state (docs/rules.md §1.5).
            s.history[0] = bout_key(s)
            s.history_len = 1
        return game

    def copy(self) -> CoreGame:
        game = CoreGame(self.rules)
        state_copy(&game.state, &self.state)
        return game

    @property
    def over(self) -> bool:
        return bool(self.state.over)

    @property
    def to_move(self) -> int:
        return self.state.to_move

    def legal_codes(self) -> list:
        cdef int moves[MAX_MOVES]
        cdef int n = gen_moves(&self.state, moves)
        return [moves[i] for i in range(n)]

    def legal_moves(self) -> list:
        """Legal moves of the seat to move, sorted like the reference's."""
        return sorted(decode_move(code) for code in self.legal_codes())

    def play(self, move) -> None:
        """Apply a move (a `Move` or its core int) after checking it is legal."""
        code = move if isinstance(move, int) else encode_move(Move.parse(move))
        if code not in self.legal_codes():
            raise ValueError(f"illegal in the core: {decode_move(code)}")
        apply_move(&self.state, code)

    def playout(self, uint64_t seed) -> int:
        """Finish the game with uniformly random moves; returns the plies played."""
        cdef Rng rng
        rng_seed(&rng, seed)
        with nogil:
            n = playout(&self.state, &rng)
        return n

    def scores(self) -> list | None:
        cdef double scores[MAX_SEATS]
        if not self.state.over:
            return None
        state_scores(&self.state, scores)
        return [scores[i] for i in range(self.state.players)]

    def snapshot(self) -> dict:
        """The canonical comparable form shared with `reference.Game.snapshot()`."""
        cdef State* s = &self.state
        cdef uint64_t placed = 0
        hands = []
        for seat in range(s.players):
            hands.append(_bits(s.hands[seat]))
            placed |= s.hands[seat]
        stock = [s.stock[i] for i in range(s.n_stock - 1, -1, -1)]
        for c in stock:
            placed |= <uint64_t>1 << c
        placed |= s.table_cards | s.shown | s.redeal_sets[0] | s.redeal_sets[1]
        low = RANK_TWO if s.rules.deck == 52 else RANK_SIX
        discard = [c for c in range(52) if rank_of(c) >= low and not (placed >> c) & 1]
        return {
            "players": s.players,
            "hands": hands,
            "stock": stock,
            "trump": s.trump_card,
            "discard": discard,
            "table": [[s.attack_cards[i], -1 if s.defense_cards[i] == 255 else s.defense_cards[i]]
                      for i in range(s.n_table)],
            "attacker": s.attacker,
            "defender": s.defender,
            "to_move": s.to_move,
            "taking": bool(s.taking),
            "passed": [seat for seat in range(s.players) if (s.passed >> seat) & 1],
            "finished": [s.finished[i] for i in range(s.n_finished)],
            "defended_once": bool(s.defended_once),
            "over": bool(s.over),
            "loser": s.loser,
            "scores": self.scores(),
            "phase": phases.Phase.SETUP if s.phase == PHASE_SETUP else phases.Phase.PLAY,
            "setup_step": _STEPS[s.setup_step],
            "leader": s.leader,
            "redealt": [seat for seat in range(s.players) if (s.redealt >> seat) & 1],
            "redeal_sets": ([_bits(s.redeal_sets[0]), _bits(s.redeal_sets[1])]
                            if s.setup_step == STEP_PICK else None),
            "shown": _bits(s.shown),
            "tribute": [s.tribute_giver, s.tribute_receiver] if s.tribute_giver >= 0 else None,
            "winner": s.winner,
            "first_out": s.first_out,
            "two_out": s.two_out,
        }


cdef int _index(c) except -1:
    if isinstance(c, Card):
        return c.index
    if isinstance(c, str):
        return Card.parse(c).index
    return int(c)


def bench_playouts(rules, int players, long games, uint64_t seed) -> dict:
    """Deal and play `games` whole random games in one nogil loop; totals for the benchmark."""
    rules = Rules.from_json(rules)
    rules.check_players(players)
    cdef RulesC r = rules_to_c(rules)
    cdef State s
    cdef Rng rng
    cdef long g, plies = 0, draws = 0
    cdef long losses[MAX_SEATS]
    cdef int i
    memset(losses, 0, sizeof(losses))
    rng_seed(&rng, seed)
    start = perf_counter()
    with nogil:
        for g in range(games):
            state_shuffle_deal(&s, &r, players, &rng)
            plies += playout(&s, &rng)
            if s.loser >= 0:
                losses[s.loser] += 1
            else:
                draws += 1
    seconds = perf_counter() - start
    return {
        "playouts": games,
        "seconds": seconds,
        "plies": plies,
        "losses": [losses[i] for i in range(players)],
        "draws": draws,
    }
