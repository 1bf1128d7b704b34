# cython: language_level=3
"""Declarations of the fast game core: card bitsets, the state struct, moves.

A card is an index `suit * 13 + rank` (solver/game/cards.py), read through
`rank_of` and `suit_of` against the named ranks (`RANK_JACK`, …); a set of cards
is a `uint64_t` with one bit per index. A move is an `int`: kind in bits 0-3,
card (or the chosen set of a pick) in bits 4-9, target (for defend) in bits
10-15 — built and read only through `make_move`, `move_kind`, `move_card` and
`move_target`. Everything here is plain C data so the search can run it
without the interpreter (`nogil`).
"""

from libc.stdint cimport int8_t, uint8_t, uint32_t, uint64_t

# The array sizes come from solver/game/bounds.py, passed by setup.py as macros.
cdef extern from *:
    """
    #if !defined(TAN_MAX_SEATS) || !defined(TAN_HISTORY_CAP) || !defined(TAN_MAX_TABLE) || !defined(TAN_MAX_MOVES)
    #error "build with setup.py: it defines the TAN_* limits from solver/game/bounds.py"
    #endif
    enum { MAX_SEATS = TAN_MAX_SEATS, HISTORY_CAP = TAN_HISTORY_CAP,
           MAX_TABLE = TAN_MAX_TABLE, MAX_MOVES = TAN_MAX_MOVES };
    """
    enum:
        MAX_SEATS
        HISTORY_CAP
        MAX_TABLE
        MAX_MOVES

cdef enum MoveKind:
    MK_ATTACK = 0
    MK_DEFEND = 1
    MK_TAKE = 2
    MK_PASS = 3
    MK_TRANSFER = 4
    # The setup before the first lead (docs/rules.md §1.7).
    MK_REDEAL = 5
    MK_KEEP = 6
    MK_PICK = 7
    MK_SWAP = 8

cdef enum Phase:
    PHASE_PLAY = 0
    PHASE_SETUP = 1

cdef enum SetupStep:
    STEP_NONE = 0
    STEP_REDEAL = 1     # a trumpless seat: redeal or keep
    STEP_PICK = 2       # the seat that redealt: pick 0 or pick 1
    STEP_SWAP = 3       # the lowest trump's holder: swap or keep


# A card's rank: 0 is the two, 12 the ace (solver/game/cards.py); a 36-card deck starts at the six.
cdef enum:
    RANKS = 13          # ranks in a suit: card = suit * RANKS + rank
    RANK_TWO = 0
    RANK_SIX = 4
    RANK_JACK = 9
    RANK_QUEEN = 10
    RANK_KING = 11
    RANK_ACE = 12


cdef inline int rank_of(int card) noexcept nogil:
    return card % RANKS


cdef inline int suit_of(int card) noexcept nogil:
    return card // RANKS


cdef inline int make_move(int kind, int card, int target) noexcept nogil:
    return kind | (card << 4) | (target << 10)


cdef inline int move_kind(int move) noexcept nogil:
    return move & 15


cdef inline int move_card(int move) noexcept nogil:
    return (move >> 4) & 63


cdef inline int move_target(int move) noexcept nogil:
    return (move >> 10) & 63

cdef enum RefillOrderC:
    REFILL_ATTACKER_DEFENDER_OTHERS = 0
    REFILL_ATTACKER_OTHERS_DEFENDER = 1

cdef enum ThrowersC:
    THROWERS_ALL = 0
    THROWERS_NEIGHBOURS = 1
    THROWERS_ATTACKER = 2

ctypedef struct Rng:
    uint64_t s0
    uint64_t s1

ctypedef struct RulesC:
    int deck
    int hand_size
    int max_attack              # 0: no cap
    int first_bout_max_attack   # 0: none
    int throw_in_after_take
    int throwers                # ThrowersC
    int transfer
    int refill_order
    int defender_refill         # defender_empty == refill
    int trump_ace_last_loses
    int lowest_trump_first
    int redeal_without_trump
    int tribute
    int all_trumps_wins
    int trump_swap
    int trump_swap_cedes_lead
    int take_when_beaten
    int twos_last
    int has_setup               # Rules.has_setup: a setup before the first lead

ctypedef struct State:
    RulesC rules
    uint64_t hands[MAX_SEATS]
    uint64_t table_cards        # every card on the table, attack and defence
    uint64_t undefended         # attack cards not yet beaten
    uint64_t table_rank_cards   # every card (of the deck) whose rank is on the table
    uint64_t trump_mask         # the 13 bits of the trump suit
    uint8_t attack_cards[MAX_TABLE]
    uint8_t defense_cards[MAX_TABLE]   # 255 while undefended
    uint8_t stock[52]           # stock[0] is the bottom (the trump card while it lies there)
    uint8_t finished[MAX_SEATS]
    int n_table
    int n_defended
    int n_stock
    int n_finished
    int players
    int trump_card
    int trump_suit
    int attacker
    int defender
    int to_move                 # -1 once over
    int taking
    int defended_once
    int over
    int loser                   # -1: none
    uint32_t passed             # bit per seat
    uint32_t active             # bit per seat not finished
    uint32_t bout_active        # seats active when the bout began (for draws)
    # The setup (docs/rules.md §1.7) and the game's winner (§1.8).
    int phase
    int setup_step
    int leader                  # the seat that would lead
    int redeal_next             # seats of the redeal order already passed
    uint32_t redealt
    uint64_t redeal_sets[2]     # the two offered hands while a pick is pending
    uint64_t shown              # the hand shown by the seat picking
    int tribute_giver           # -1: no tribute still to come
    int tribute_receiver
    int swapper
    int winner                  # -1: none (yet)
    int first_out
    int two_out
    uint8_t last_played[MAX_SEATS]  # 255: none
    Rng chance                  # the game's chance events (the redeal's shuffle)
    int history_len             # bout-start keys since the last defence or draw
    uint64_t history[HISTORY_CAP]


cdef inline int is_trump(const State* s, int card) noexcept nogil:
    return (s.trump_mask >> card) & 1


cdef inline int card_cost(const State* s, int card) noexcept nogil:
    """What playing `card` gives away: its rank, every trump above every plain card (rank + 13).

    The one order of cards the search's heuristics spend them in: the greedy policy's cheapest
    card and cheapest defence, the ranks of the belief weighing's opponent models, and the learned
    models' card slots (solver/search/_model.pyx) all read it."""
    return rank_of(card) + (RANKS if is_trump(s, card) else 0)


cdef extern from *:
    """
    static inline int tan_popcount(unsigned long long x) { return __builtin_popcountll(x); }
    static inline int tan_lowbit(unsigned long long x) { return __builtin_ctzll(x); }
    static inline int tan_highbit(unsigned long long x) { return 63 - __builtin_clzll(x); }
    #if defined(__BMI2__)
    #include <immintrin.h>
    static inline int tan_select(unsigned long long x, int k) { return __builtin_ctzll(_pdep_u64(1ULL << k, x)); }
    #else
    static inline int tan_select(unsigned long long x, int k) { while (k-- > 0) x &= x - 1; return __builtin_ctzll(x); }
    #endif
    """
    int tan_popcount(unsigned long long x) nogil
    int tan_lowbit(unsigned long long x) nogil
    int tan_highbit(unsigned long long x) nogil
    int tan_select(unsigned long long x, int k) nogil

cdef void rng_seed(Rng* rng, uint64_t seed) noexcept nogil
cdef uint64_t rng_next(Rng* rng) noexcept nogil
cdef int rng_below(Rng* rng, int n) noexcept nogil

cdef void state_copy(State* dst, const State* src) noexcept nogil
cdef void state_deal(State* s, const RulesC* rules, int players, const uint8_t* deck, int first_attacker,
                     int tribute_giver, int tribute_receiver, uint64_t chance_seed) noexcept nogil
cdef void state_shuffle_deal(State* s, const RulesC* rules, int players, Rng* rng) noexcept nogil
cdef int gen_moves(const State* s, int* moves) noexcept nogil
cdef int random_move(const State* s, Rng* rng) noexcept nogil
cdef void apply_move(State* s, int move) noexcept nogil
cdef int attack_limit(const State* s) noexcept nogil
cdef int next_active(const State* s, int seat) noexcept nogil
cdef void state_scores(const State* s, double* scores) noexcept nogil
cdef int playout(State* s, Rng* rng) noexcept nogil
cdef uint64_t bout_key(const State* s) noexcept nogil
cdef int can_transfer_c(const State* s) noexcept nogil
cdef uint64_t beaters_c(const State* s, int card) noexcept nogil
cdef uint64_t playable(const State* s, uint64_t hand) noexcept nogil
cdef int last_word(const State* s) noexcept nogil


cdef class CoreGame:
    cdef State state
    cdef readonly object rules
