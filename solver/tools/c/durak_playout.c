/*
 * durak_playout.c: the hand-written C speed reference for Tấn's random playouts.
 *
 * Plays whole games of 2-seat `durak` (docs/rules.md, with its readings of
 * the seeds) from uniformly shuffled decks, choosing uniformly at
 * random among the legal moves at every turn, and prints one JSON line:
 *
 *   {"playouts", "seconds", "playouts_per_s", "plies_per_game",
 *    "loss_rate_by_seat": [p_seat0_loses, p_seat1_loses], "draw_rate",
 *    "seed", "plies", "losses": [seat0, seat1], "draws"}   (the last four: raw counts)
 *
 * Usage: durak_playout [games=1000000] [seed=1]
 *
 * The rules, fixed at compile time (the `durak` preset, 2 seats):
 *   36 cards (6..A), hands of 6, max_attack 6, no first-bout cap,
 *   throw_in_after_take on, refill order attacker then defender,
 *   the lowest trump leads the first bout, no transfer, defender_empty end_bout,
 *   no trump-ace rule; repetition: a draw on the third occurrence of a bout start.
 *
 * Legal moves, exactly as in docs/rules.md:
 *   lead           the main attacker plays any card of its hand;
 *   defender       `defend t with c` for every undefended t and every c in hand
 *                  that beats t, and `take`;
 *   throw-in phase (everything beaten, or the defender taking): the main
 *                  attacker (the only thrower with two seats) plays any card
 *                  whose rank is on the table while the table holds fewer than
 *                  `limit` attack cards, or passes (always legal).
 * Every move, forced or not, counts as a ply.
 *
 * Build with -DDURAK_CHECK to verify card conservation after every move, and
 * with -DDURAK_TRACE to print each game (deck, moves, legal-move counts, loser)
 * as a JSON line so another implementation can replay it.
 *
 * Cards are indices suit*13 + rank (rank 0 = '2', as solver/game/cards.py); a hand
 * is a 64-bit set of indices.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__BMI2__)
#include <immintrin.h>
#endif

#define SEATS 2
#define DECK 36
#define HAND 6
#define MAX_ATTACK 6
#define LOW_RANK 4        /* '6': the 36-card deck */
#define REPETITION_CAP 512 /* docs/rules.md: bout starts with no defence and no draw */

typedef uint64_t cards_t;

/* ------------------------------------------------------------------ random */

static inline uint64_t splitmix64(uint64_t *x) {
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

typedef struct { uint64_t s[4]; } rng_t;

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

/* xoshiro256** (Blackman and Vigna). */
static inline uint64_t rng_next(rng_t *r) {
    uint64_t *s = r->s;
    const uint64_t result = rotl(s[1] * 5, 7) * 9;
    const uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

static void rng_seed(rng_t *r, uint64_t seed) {
    uint64_t x = seed;
    for (int i = 0; i < 4; i++) r->s[i] = splitmix64(&x);
}

/* A number in [0, n), n < 2^32: Lemire's multiply-shift on the high 32 bits
 * (no rejection step: the bias is below n / 2^32, about 1e-8 here). */
static inline uint32_t rng_below(rng_t *r, uint32_t n) {
    return (uint32_t)(((rng_next(r) >> 32) * n) >> 32);
}

/* ------------------------------------------------------------------ cards */

static inline int popcount(cards_t x) { return __builtin_popcountll(x); }
static inline int lowest(cards_t x) { return __builtin_ctzll(x); }

/* The k-th (from 0) set bit of x, as a one-bit set. */
static inline cards_t kth_bit(cards_t x, int k) {
#if defined(__BMI2__)
    return _pdep_u64((cards_t)1 << k, x);
#else
    while (k-- > 0) x &= x - 1;
    return x & -x;
#endif
}

static inline int rank_of(int card) { return card % 13; }

static cards_t full_deck;         /* the 36 cards */
static int ordered_deck[DECK];    /* their indices, in increasing order */
static cards_t rank_cards[13];    /* the four cards of each rank */
static cards_t beaters[4][52];    /* [trump suit][card]: the cards that beat it */

static void init_tables(void) {
    full_deck = 0;
    for (int suit = 0; suit < 4; suit++)
        for (int rank = LOW_RANK; rank < 13; rank++) full_deck |= (cards_t)1 << (suit * 13 + rank);
    int n = 0;
    for (cards_t rest = full_deck; rest; rest &= rest - 1) ordered_deck[n++] = lowest(rest);
    for (int rank = 0; rank < 13; rank++) {
        rank_cards[rank] = 0;
        for (int suit = 0; suit < 4; suit++) rank_cards[rank] |= (cards_t)1 << (suit * 13 + rank);
        rank_cards[rank] &= full_deck;
    }
    /* docs/rules.md §1.3: d beats a when same suit and higher rank, or d trump and a not. */
    for (int trump = 0; trump < 4; trump++)
        for (int a = 0; a < 52; a++) {
            cards_t set = 0;
            for (int d = 0; d < 52; d++) {
                int same = d / 13 == a / 13;
                if ((same && d % 13 > a % 13) || (!same && d / 13 == trump)) set |= (cards_t)1 << d;
            }
            beaters[trump][a] = set & full_deck;
        }
}

/* ------------------------------------------------------------------ one game */

typedef struct {
    uint64_t plies;
    uint64_t losses[SEATS];
    uint64_t draws;
} stats_t;

typedef struct { cards_t hand[SEATS]; int attacker; } bout_key_t;

#ifdef DURAK_TRACE
static const char RANKS[] = "23456789TJQKA";
static const char SUITS[] = "shdc";
static void trace_card(int card, int first) {
    printf("%s\"%c%c\"", first ? "" : ",", RANKS[card % 13], SUITS[card / 13]);
}
#define TRACE_LIMIT 65536
#define TRACE_MOVE(fmt, ...) do { printf("%s\"" fmt "\"", nplies_traced++ ? "," : "", __VA_ARGS__); \
    if (ncounts_traced < TRACE_LIMIT) counts_traced[ncounts_traced++] = (n); } while (0)
#endif

#ifdef DURAK_CHECK
static void check(const cards_t *hand, cards_t table, cards_t discard, const int *stock, int top) {
    cards_t all = table | discard;
    int n = popcount(table) + popcount(discard);
    for (int s = 0; s < SEATS; s++) {
        if (hand[s] & all) { fprintf(stderr, "card in two places\n"); abort(); }
        all |= hand[s];
        n += popcount(hand[s]);
    }
    for (int i = top; i < DECK; i++) {
        cards_t bit = (cards_t)1 << stock[i];
        if (all & bit) { fprintf(stderr, "stock card elsewhere\n"); abort(); }
        all |= bit;
        n++;
    }
    if (all != full_deck || n != DECK) { fprintf(stderr, "cards lost or made\n"); abort(); }
}
#define CHECK() check(hand, table, discard, stock, top)
#else
#define CHECK() ((void)0)
#endif

static void play_game(rng_t *rng, stats_t *stats) {
    int deck[DECK];
    int i;
    memcpy(deck, ordered_deck, sizeof deck);
    /* Fisher-Yates: a uniformly random order, index 0 = top. */
    for (i = DECK - 1; i > 0; i--) {
        int j = (int)rng_below(rng, (uint32_t)i + 1);
        int t = deck[i];
        deck[i] = deck[j];
        deck[j] = t;
    }

    /* docs/rules.md §1.2: one card at a time to seats 0, 1, ...; then the trump card,
     * which lies at the bottom of the stock and is drawn last. */
    cards_t hand[SEATS] = {0, 0};
    for (i = 0; i < SEATS * HAND; i++) hand[i % SEATS] |= (cards_t)1 << deck[i];
    const int trump_card = deck[SEATS * HAND];
    const int trump = trump_card / 13;
    int stock[DECK]; /* stock[top..DECK-1], top first */
    int top = SEATS * HAND;
    for (i = top; i < DECK - 1; i++) stock[i] = deck[i + 1];
    stock[DECK - 1] = trump_card;
    cards_t discard = 0, table = 0;
    const cards_t *beat = beaters[trump];

#ifdef DURAK_TRACE
    int nplies_traced = 0, ncounts_traced = 0;
    static uint32_t counts_traced[TRACE_LIMIT];
    printf("{\"deck\":[");
    for (i = 0; i < DECK; i++) trace_card(deck[i], i == 0);
    printf("],\"moves\":[");
#endif

    /* first_attacker = lowest_trump: the seat holding the lowest trump; seat 0 if none. */
    int attacker = 0;
    {
        cards_t trumps = (((cards_t)0x1fff) << (trump * 13)) & (hand[0] | hand[1]);
        if (trumps) attacker = (hand[1] >> lowest(trumps)) & 1;
    }

    bout_key_t history[REPETITION_CAP + 1];
    int nhistory = 0;
    uint64_t plies = 0;
    int loser = -1; /* -1: no loser */

    for (;;) {
        /* Bout start. Repetition (docs/rules.md): compare with the bout
         * starts since the last defence or draw (the stock is the same for all
         * of them); the third occurrence, or the cap, ends the game drawn. */
        {
            int seen = 0;
            for (int h = 0; h < nhistory; h++)
                seen += history[h].hand[0] == hand[0] && history[h].hand[1] == hand[1] &&
                        history[h].attacker == attacker;
            if (seen >= 2 || nhistory >= REPETITION_CAP) { loser = -1; break; }
            history[nhistory].hand[0] = hand[0];
            history[nhistory].hand[1] = hand[1];
            history[nhistory].attacker = attacker;
            nhistory++;
        }

        const int defender = attacker ^ 1;
        cards_t att = hand[attacker], def = hand[defender];
        /* limit = min(max_attack, defender's cards + defended pairs): constant in
         * a bout without refills, since each defence moves one card to the table. */
        const int limit = popcount(def) < MAX_ATTACK ? popcount(def) : MAX_ATTACK;

        /* The lead: any card of the attacker's hand. */
        {
            uint32_t n = (uint32_t)popcount(att);
            cards_t card = kth_bit(att, (int)rng_below(rng, n));
#ifdef DURAK_TRACE
            { int c = lowest(card); TRACE_MOVE("attack %c%c", RANKS[c % 13], SUITS[c / 13]); }
#endif
            plies++;
            att ^= card;
            table = card;
        }
        cards_t undefended = table;
        cards_t on_table_ranks = rank_cards[rank_of(lowest(table))];
        int attacks = 1;
        int taking = 0;
        int defended = 0; /* the bout ended as a defence */
        hand[attacker] = att;
        CHECK();

        for (;;) {
            if (!taking && undefended) {
                /* Defender to move: every (target, beating card) pair, and take. */
                uint32_t n = 1;
                for (cards_t u = undefended; u; u &= u - 1) n += (uint32_t)popcount(beat[lowest(u)] & def);
                uint32_t r = rng_below(rng, n);
                plies++;
                if (r == n - 1) {
#ifdef DURAK_TRACE
                    TRACE_MOVE("%s", "take");
#endif
                    taking = 1;
                    continue;
                }
                cards_t u = undefended;
                int target;
                cards_t options;
                for (;;) {
                    target = lowest(u);
                    options = beat[target] & def;
                    uint32_t k = (uint32_t)popcount(options);
                    if (r < k) break;
                    r -= k;
                    u &= u - 1;
                }
                cards_t card = kth_bit(options, (int)r);
#ifdef DURAK_TRACE
                { int c = lowest(card);
                  TRACE_MOVE("defend %c%c with %c%c", RANKS[target % 13], SUITS[target / 13],
                             RANKS[c % 13], SUITS[c / 13]); }
#endif
                def ^= card;
                hand[defender] = def;
                undefended ^= (cards_t)1 << target;
                table |= card;
                on_table_ranks |= rank_cards[rank_of(lowest(card))];
                CHECK();
                /* defender_empty = end_bout: an empty hand ends the bout as a defence
                 * (every attack card is beaten then, the limit sees to that). */
                if (!def) { defended = 1; break; }
            } else {
                /* Throw-in phase: the main attacker throws a card of a rank on the
                 * table while the limit allows, or passes. */
                cards_t throwable = attacks < limit ? att & on_table_ranks : 0;
                uint32_t n = (uint32_t)popcount(throwable) + 1;
                uint32_t r = rng_below(rng, n);
                plies++;
                if (r == n - 1) {
#ifdef DURAK_TRACE
                    TRACE_MOVE("%s", "pass");
#endif
                    defended = !taking;
                    break;
                }
                cards_t card = kth_bit(throwable, (int)r);
#ifdef DURAK_TRACE
                { int c = lowest(card); TRACE_MOVE("attack %c%c", RANKS[c % 13], SUITS[c / 13]); }
#endif
                att ^= card;
                hand[attacker] = att;
                table |= card;
                undefended |= card;
                attacks++;
                CHECK();
            }
        }

        /* End of the bout: the table to the discard pile, or into the taker's hand. */
        int reset = 0;
        if (defended) {
            discard |= table;
            reset = 1;
        } else {
            hand[defender] |= table;
        }
        table = 0;
        /* Refill, attacker_others_defender: the main attacker, then the defender. */
        for (int k = 0; k < SEATS; k++) {
            int seat = k == 0 ? attacker : defender;
            int need = HAND - popcount(hand[seat]);
            while (need-- > 0 && top < DECK) {
                hand[seat] |= (cards_t)1 << stock[top++];
                reset = 1;
            }
        }
        CHECK();
        if (reset) nhistory = 0;
        /* The end (docs/rules.md §1.5): with the stock empty, empty hands have finished;
         * the game is over when at most one seat holds cards. */
        if (top == DECK && (!hand[0] || !hand[1])) {
            loser = hand[0] ? 0 : hand[1] ? 1 : -1;
            break;
        }
        /* After a defence the defender attacks; after a take, the seat after the
         * defender, which with two seats is the same attacker. */
        if (defended) attacker = defender;
    }

    stats->plies += plies;
    if (loser < 0) stats->draws++;
    else stats->losses[loser]++;

#ifdef DURAK_TRACE
    printf("],\"counts\":[");
    for (i = 0; i < ncounts_traced; i++) printf("%s%" PRIu32, i ? "," : "", counts_traced[i]);
    if (loser < 0) printf("],\"loser\":null}\n");
    else printf("],\"loser\":%d}\n", loser);
#endif
}

/* ------------------------------------------------------------------ main */

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
    long long games = argc > 1 ? atoll(argv[1]) : 1000000;
    unsigned long long seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
    if (games <= 0) {
        fprintf(stderr, "usage: %s [games > 0] [seed]\n", argv[0]);
        return 2;
    }
    init_tables();
    rng_t rng;
    rng_seed(&rng, seed);
    stats_t stats;
    memset(&stats, 0, sizeof stats);

    double start = now();
    for (long long g = 0; g < games; g++) play_game(&rng, &stats);
    double seconds = now() - start;

    double n = (double)games;
#ifndef DURAK_TRACE
    printf("{\"playouts\": %lld, \"seconds\": %.6f, \"playouts_per_s\": %.1f, \"plies_per_game\": %.4f, "
           "\"loss_rate_by_seat\": [%.6f, %.6f], \"draw_rate\": %.6f, \"seed\": %llu, "
           "\"plies\": %" PRIu64 ", \"losses\": [%" PRIu64 ", %" PRIu64 "], \"draws\": %" PRIu64 "}\n",
           games, seconds, n / seconds, (double)stats.plies / n, (double)stats.losses[0] / n,
           (double)stats.losses[1] / n, (double)stats.draws / n, seed, stats.plies, stats.losses[0],
           stats.losses[1], stats.draws);
#else
    (void)n;
    (void)seconds;
#endif
    return 0;
}
