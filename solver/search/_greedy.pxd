# cython: language_level=3
"""The greedy policy: the one definition behind the `greedy` player, the playout policy and the
opponent model of the tree and of the belief weighing.

Its per-move helpers are `cdef inline` here, so the tree (solver/search/_tree.pyx) and the
belief weighing (solver/search/_beliefs.pyx) compile them in place; solver/search/_greedy.pyx
holds the playouts and the Python faces (`greedy_code`, `greedy_examples`).
"""

from libc.stdint cimport uint64_t

from solver.core._core cimport (
    MK_ATTACK, MK_DEFEND, MK_KEEP, MK_PASS, MK_PICK, MK_REDEAL, MK_SWAP, MK_TAKE, MK_TRANSFER, PHASE_SETUP,
    RANK_JACK, RANK_QUEEN, STEP_PICK, STEP_REDEAL, Rng, State, attack_limit, beaters_c, can_transfer_c,
    card_cost, gen_moves, is_trump, last_word, make_move, playable, random_move, rank_of, rng_below, tan_lowbit,
    tan_popcount,
)


cdef inline int cheapest(const State* s, uint64_t cards) noexcept nogil:
    """The card of `cards` of least `card_cost` (the lowest suit among equals): the lowest
    non-trump by rank, else the lowest trump (cards must not be empty)."""
    cdef uint64_t plain = cards & ~s.trump_mask
    cdef int card, best = -1, best_rank = 99
    if not plain:
        return tan_lowbit(cards)  # trumps are one suit: the lowest bit is the lowest trump
    while plain:
        card = tan_lowbit(plain)
        plain &= plain - 1
        if rank_of(card) < best_rank:
            best_rank = rank_of(card)
            best = card
    return best


cdef inline int hand_value(const State* s, uint64_t cards) noexcept nogil:
    """How good a hand looks before play, to pick between two offered hands (docs/rules.md §1.7):
    its trumps first, then its ranks. Not `card_cost` summed: every trump outweighs any ranks."""
    cdef int value = 100 * tan_popcount(cards & s.trump_mask)
    while cards:
        value += rank_of(tan_lowbit(cards))
        cards &= cards - 1
    return value


cdef inline int greedy_setup(const State* s) noexcept nogil:
    """The greedy policy's setup decisions (docs/rules.md §1.7)."""
    cdef int choices[2]
    if gen_moves(s, choices) == 1:
        return choices[0]  # asked with nothing to decide: keep
    if s.setup_step == STEP_REDEAL:
        return MK_REDEAL
    if s.setup_step == STEP_PICK:
        return make_move(MK_PICK, 1 if hand_value(s, s.redeal_sets[1]) > hand_value(s, s.redeal_sets[0]) else 0, 0)
    if s.rules.trump_swap_cedes_lead and rank_of(s.trump_card) < RANK_JACK:
        return MK_KEEP
    return MK_SWAP


cdef inline int greedy_move(const State* s) noexcept nogil:
    """The greedy policy: the one definition behind the `greedy` player, the playout
    policy and the opponent model. It reads only what the seat to move can see.

    Lead the lowest card (trumps last); transfer with a plain card; defend each
    card as cheaply as possible but take rather than beat with a high trump
    (queen or better) while the stock holds more than six cards, or when a card
    cannot be beaten; throw in the cheapest card of a rank on the table when it
    is a plain card below the jack, or any plain card while the defender takes
    or once the stock is empty, or a trump once the stock is empty and the hand
    holds at most two cards; else pass. With the defender's last word, let the
    defence stand. Under đút 2 a 2 is played only when the rules allow it.
    Before the first lead: redeal a trumpless hand and pick the new hand with
    more trumps (then the higher cards); swap for the trump card unless that
    gives up the lead for a card below the jack.
    """
    cdef uint64_t hand, b, targets
    cdef int t, c, best_card = -1, best_target = -1, best_cost = 1000, cost
    if s.phase == PHASE_SETUP:
        return greedy_setup(s)
    hand = s.hands[s.to_move]
    if s.n_table == 0:
        return make_move(MK_ATTACK, cheapest(s, playable(s, hand)), 0)
    if s.undefended and not s.taking:
        if can_transfer_c(s):
            b = playable(s, hand) & s.table_rank_cards & ~s.trump_mask
            if b:
                return make_move(MK_TRANSFER, tan_lowbit(b), 0)
        targets = s.undefended
        while targets:
            t = tan_lowbit(targets)
            targets &= targets - 1
            b = hand & beaters_c(s, t)
            if not b:
                return MK_TAKE
            c = cheapest(s, b)
            cost = card_cost(s, c)
            if is_trump(s, c) and rank_of(c) >= RANK_QUEEN and s.n_stock > 6:
                return MK_TAKE
            if cost < best_cost:
                best_cost = cost
                best_card = c
                best_target = t
        return make_move(MK_DEFEND, best_card, best_target)
    if last_word(s):
        return MK_PASS
    if s.n_table < attack_limit(s):
        b = playable(s, hand) & s.table_rank_cards
        if b:
            c = cheapest(s, b)
            if not is_trump(s, c):
                if rank_of(c) < RANK_JACK or s.taking or s.n_stock == 0:
                    return make_move(MK_ATTACK, c, 0)
            elif s.n_stock == 0 and tan_popcount(hand) <= 2:
                return make_move(MK_ATTACK, c, 0)
    return MK_PASS


cdef inline int heuristic_move(const State* s, Rng* rng, int noise) noexcept nogil:
    """The greedy move, or a uniformly random one `noise` times in 64 (playouts and the model)."""
    if noise > 0 and rng_below(rng, 64) < noise:
        return random_move(s, rng)
    return greedy_move(s)


cdef int greedy_playout(State* s, Rng* rng, int noise) noexcept nogil
