/* The rollout searches of tools/solvers/solve_sir_tommy.py (class Rollouts), compiled.

   The same searches move for move: the same rollouts, the same children in the same order,
   the same node count and the same line of operations; tests/test_solvers.py checks that both
   give the same answer and the same node count. The Python class is the reference and says why
   each rule is as it is; this file only makes it about twenty times faster.

   One call, st_search(), runs one search: width 0 the nested Monte Carlo search (level 1),
   width > 0 the beam. Ranks are 0 (Ace) .. 12 (King); rank 13 is each pile's bottom marker. */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define WIN (52 * 64)
#define CAP 56   /* a pile: the marker and at most 52 cards */
#define OPS 168  /* a line: at most 51 draws, 52 placings and 52 foundation moves */
#define LIMIT (-1000000)

enum { OP_PILE = 0, OP_CURRENT = 8, OP_HOLD = 16, OP_DRAW = 24 };

typedef struct {
    uint8_t pile[4][CAP];
    uint8_t len[4]; /* with the marker */
    uint8_t cnt[13]; /* cards of each rank on the foundations */
    uint8_t nops;
    uint8_t ops[OPS];
} State;

typedef struct {
    const uint8_t *cards;
    int n, policy;
    int64_t nodes, limit;
} Deal;

static int wants(const uint8_t *cnt, int r) {
    return r < 13 && (r ? cnt[r - 1] : 4) > cnt[r];
}

/* Every foundation move from the holding piles, the pile whose card below the top is lowest
   first (Rollouts.play). */
static void play(State *s) {
    for (;;) {
        int best = -1, below = 99;
        for (int p = 0; p < 4; p++) {
            int len = s->len[p];
            if (wants(s->cnt, s->pile[p][len - 1])) {
                int b = len > 2 ? s->pile[p][len - 2] : -1;
                if (b < below) {
                    below = b;
                    best = p;
                }
            }
        }
        if (best < 0)
            return;
        s->cnt[s->pile[best][--s->len[best]]]++;
        s->ops[s->nops++] = OP_PILE + best;
    }
}

/* A holding pile's place in the policy's order for card q (Rollouts.pile_key). */
static int pile_key(const State *s, int p, int q, int policy) {
    int len = s->len[p];
    int top = s->pile[p][len - 1];
    if (len == 1)
        return 20;
    if (top >= q)
        return top - q;
    int lower = 0;
    for (int i = 1; i < len; i++)
        lower += s->pile[p][i] < q;
    if (lower > 15)
        lower = 15;
    return policy ? 40 + lower * 16 + q - top : 40 + (q - top) * 16 + lower;
}

/* The policy's pile for q: the lowest key, then the lowest pile. */
static int policy_pile(const State *s, int q, int policy) {
    int best = 0, best_key = pile_key(s, 0, q, policy);
    for (int p = 1; p < 4; p++) {
        int key = pile_key(s, p, q, policy);
        if (key < best_key) {
            best_key = key;
            best = p;
        }
    }
    return best;
}

/* A rollout from card k (Rollouts.score): its score, or LIMIT past the node limit. */
static int score(Deal *d, int k, const State *from) {
    if (d->nodes >= d->limit)
        return LIMIT;
    State s;
    memcpy(s.pile, from->pile, sizeof s.pile);
    memcpy(s.len, from->len, sizeof s.len);
    memcpy(s.cnt, from->cnt, sizeof s.cnt);
    s.nops = 0;
    int steps = 0;
    for (;;) {
        steps++;
        play(&s);
        s.nops = 0;
        if (k == d->n)
            break;
        int q = d->cards[k++];
        if (wants(s.cnt, q)) {
            s.cnt[q]++;
            continue;
        }
        int p = policy_pile(&s, q, d->policy);
        s.pile[p][s.len[p]++] = (uint8_t)q;
    }
    d->nodes += steps;
    int played = 0;
    for (int r = 0; r < 13; r++)
        played += s.cnt[r];
    if (played == 52)
        return WIN;
    int blocked = 0;
    for (int p = 0; p < 4; p++)
        for (int i = 2; i < s.len[p]; i++)
            blocked += s.pile[p][i] > s.pile[p][i - 1];
    return played * 64 - blocked;
}

/* The line of a rollout from card k (Rollouts.finish), in s. */
static void finish(Deal *d, int k, State *s) {
    for (;;) {
        play(s);
        if (k == d->n)
            return;
        int q = d->cards[k];
        if (wants(s->cnt, q)) {
            s->cnt[q]++;
            s->ops[s->nops++] = OP_CURRENT;
        } else {
            int p = policy_pile(s, q, d->policy);
            s->pile[p][s->len[p]++] = (uint8_t)q;
            s->ops[s->nops++] = OP_HOLD + p;
        }
        k++;
        if (k < d->n)
            s->ops[s->nops++] = OP_DRAW;
    }
}

static int same_pile(const State *s, int a, int b) {
    return s->len[a] == s->len[b] && memcmp(s->pile[a], s->pile[b], s->len[a]) == 0;
}

/* The positions after card k, each distinct placing once, the policy's choice first
   (Rollouts.children); s makes its foundation moves first. Returns how many (at most 5). */
static int children(Deal *d, State *s, int k, State *out) {
    int q = d->cards[k];
    int draw = k + 1 < d->n;
    int m = 0;
    play(s);
    if (wants(s->cnt, q)) {
        out[m] = *s;
        out[m].cnt[q]++;
        out[m].ops[out[m].nops++] = OP_CURRENT;
        if (draw)
            out[m].ops[out[m].nops++] = OP_DRAW;
        m++;
    }
    int order[4], keys[4];
    for (int p = 0; p < 4; p++) {
        int key = pile_key(s, p, q, d->policy), i = p;
        while (i > 0 && keys[i - 1] > key) {
            keys[i] = keys[i - 1];
            order[i] = order[i - 1];
            i--;
        }
        keys[i] = key;
        order[i] = p;
    }
    for (int i = 0; i < 4; i++) {
        int p = order[i], seen = 0;
        for (int j = 0; j < i; j++)
            seen |= same_pile(s, order[j], p);
        if (seen)
            continue;
        out[m] = *s;
        out[m].pile[p][out[m].len[p]++] = (uint8_t)q;
        out[m].ops[out[m].nops++] = OP_HOLD + p;
        if (draw)
            out[m].ops[out[m].nops++] = OP_DRAW;
        m++;
    }
    return m;
}

/* A key for the holding piles as a set (the order of the piles does not matter). */
static uint64_t piles_key(const State *s) {
    uint64_t h[4];
    for (int p = 0; p < 4; p++) {
        uint64_t x = 1469598103934665603ULL ^ s->len[p];
        for (int i = 1; i < s->len[p]; i++)
            x = (x ^ s->pile[p][i]) * 1099511628211ULL;
        h[p] = x;
    }
    for (int i = 1; i < 4; i++)
        for (int j = i; j > 0 && h[j - 1] > h[j]; j--) {
            uint64_t t = h[j];
            h[j] = h[j - 1];
            h[j - 1] = t;
        }
    uint64_t key = 0;
    for (int p = 0; p < 4; p++)
        key = (key ^ h[p]) * 0x9E3779B97F4A7C15ULL + (key >> 29);
    return key | 1; /* 0 marks a free slot */
}

/* Adds key to an open-addressing set of `size` slots (a power of two): 0 if it was there. */
static int add_key(uint64_t *set, int size, uint64_t key) {
    int i = (int)(key & (uint64_t)(size - 1));
    while (set[i]) {
        if (set[i] == key)
            return 0;
        i = (i + 1) & (size - 1);
    }
    set[i] = key;
    return 1;
}

typedef struct {
    int score, index;
} Ranked;

static int by_score(const void *a, const void *b) {
    const Ranked *x = a, *y = b;
    if (x->score != y->score)
        return y->score - x->score;
    return x->index - y->index;
}

static int won(Deal *d, int k, State *s, uint8_t *line) {
    finish(d, k, s);
    memcpy(line, s->ops, s->nops);
    return s->nops;
}

/* Nested Monte Carlo search, level 1 (Rollouts.search). */
static int nested(Deal *d, State *start, uint8_t *line) {
    State s = *start, kids[5];
    int best = score(d, 0, &s);
    if (best == LIMIT)
        return -1;
    if (best == WIN)
        return won(d, 0, &s, line);
    for (int k = 0; k < d->n; k++) {
        int m = children(d, &s, k, kids);
        int follow = 0;
        for (int i = 1; i < m; i++) {
            int v = score(d, k + 1, &kids[i]);
            if (v == LIMIT)
                return -1;
            if (v == WIN)
                return won(d, k + 1, &kids[i], line);
            if (v > best) {
                best = v;
                follow = i;
            }
        }
        s = kids[follow];
    }
    return 0;
}

/* The beam of `width` positions ranked by their rollouts (Rollouts.beam). */
static int beam(Deal *d, State *start, int width, uint8_t *line) {
    int most = width * 5, size = 16, result = 0;
    while (size < 2 * most)
        size *= 2;
    State *layer = malloc(sizeof(State) * width), *next = malloc(sizeof(State) * most);
    int *scores = malloc(sizeof(int) * width), *next_scores = malloc(sizeof(int) * most);
    Ranked *ranked = malloc(sizeof(Ranked) * most);
    uint64_t *set = malloc(sizeof(uint64_t) * size);
    if (!layer || !next || !scores || !next_scores || !ranked || !set) {
        result = -2;
        goto out;
    }
    layer[0] = *start;
    scores[0] = score(d, 0, &layer[0]);
    if (scores[0] == LIMIT) {
        result = -1;
        goto out;
    }
    if (scores[0] == WIN) {
        result = won(d, 0, &layer[0], line);
        goto out;
    }
    int count = 1;
    for (int k = 0; k < d->n; k++) {
        int m = 0;
        memset(set, 0, sizeof(uint64_t) * size);
        for (int i = 0; i < count; i++) {
            int base = m, kids = children(d, &layer[i], k, &next[base]), first = 1;
            for (int j = 0; j < kids; j++) {
                State *kid = &next[base + j];
                if (!add_key(set, size, piles_key(kid))) {
                    first = 0;
                    continue;
                }
                int v;
                if (first) {
                    v = scores[i];
                    first = 0;
                } else {
                    v = score(d, k + 1, kid);
                    if (v == LIMIT) {
                        result = -1;
                        goto out;
                    }
                    if (v == WIN) {
                        result = won(d, k + 1, kid, line);
                        goto out;
                    }
                }
                if (base + j != m)
                    next[m] = *kid;
                ranked[m].score = v;
                ranked[m].index = m;
                next_scores[m] = v;
                m++;
            }
        }
        qsort(ranked, m, sizeof(Ranked), by_score);
        count = m < width ? m : width;
        for (int i = 0; i < count; i++) {
            layer[i] = next[ranked[i].index];
            scores[i] = next_scores[ranked[i].index];
        }
    }
out:
    free(layer);
    free(next);
    free(scores);
    free(next_scores);
    free(ranked);
    free(set);
    return result;
}

/* One search from a position: cards[0..n) the cards still to place (the first is the current
   card), piles[p] (lens[p] ranks, bottom first) the holding piles, cnt the cards of each rank
   on the foundations; policy 0 or 1; width 0 for the nested search, else the beam's width.
   *nodes is the deal's node count so far, raised by the rollouts; the search stops once it
   reaches limit. Returns the length of a winning line of operations written to line (at least
   OPS bytes), 0 when the search ends without a win, -1 at the node limit, -2 out of memory. */
int st_search(const uint8_t *cards, int n, const uint8_t *piles, const int *lens,
              const uint8_t *cnt, int policy, int width, int64_t *nodes, int64_t limit,
              uint8_t *line) {
    Deal d = {cards, n, policy, *nodes, limit};
    State s;
    int at = 0;
    for (int p = 0; p < 4; p++) {
        s.pile[p][0] = 13;
        memcpy(&s.pile[p][1], piles + at, lens[p]);
        s.len[p] = (uint8_t)(lens[p] + 1);
        at += lens[p];
    }
    memcpy(s.cnt, cnt, 13);
    s.nops = 0;
    int r = width ? beam(&d, &s, width, line) : nested(&d, &s, line);
    *nodes = d.nodes;
    return r;
}
