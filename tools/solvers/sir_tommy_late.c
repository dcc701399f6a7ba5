/* The late-Ace search of tools/solvers/sir_tommy_late.py: an exact search of a Sir Tommy deal
   from its first Ace, the holding piles' earlier cards assigned as they leave.

   No card reaches a foundation before the first Ace is turned (index T of the deal), so the
   T cards before it all lie on the holding piles then, each pile holding its cards in the order
   they were turned. Rather than choosing the piles card by card (4^T ways), a pile is
   described by the last of those T cards that has left it, L (INF: none yet), and the later
   cards put on it since the Ace (its "late" stack, bottom first). One of the T cards, index i,
   may leave through pile p when p's late stack is empty and i < L(p); then L(p) = i. Any
   order in which the T cards leave with these rules is an order a real placement of them allows
   (put on pile p the cards that left through p: each left as its pile's top), and every real
   play is one of these orders (a pile's cards leave top first: in falling index order). Of the
   piles i may leave through, the one with the smallest L is taken: every other choice leaves a
   larger L where this one leaves a smaller, so it allows no more.

   Every move after the Ace is searched: a late top or one of the T cards to a foundation when
   its rank is next (the i-th card of rank r needs i of rank r - 1 there), the current card to a
   foundation or onto each holding pile, then the next draw. Pruning, each rule sound:
   - positions already searched (exact keys: which of the T cards have left, the piles as a
     set, the draw count), as a search that returned has shown them lost;
   - a late top of rank r goes to a foundation at once when all four cards of rank r - 1 are
     there (it can take no place another card needs, and it only uncovers its pile);
   - one of the T cards above every pile's L can never leave: lost;
   - a counting rule (dead()): a card that must leave its stack after the cards above it, and
     needs more cards of the rank below than can ever reach the foundations, never leaves.

   Returns 1 (a win: the moves in line), 0 (no win: lost), -1 at the node limit, -2 out of
   memory. */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define INF 63
#define MAXT 52

typedef struct {
    uint8_t L, n, s[14];
} Pile;

typedef struct {
    uint64_t mask; /* which of the T cards have left */
    uint8_t t;     /* index of the current card (52: none left to draw) */
    Pile p[4];
} State;

typedef struct {
    const uint8_t *cards;
    int T;
    uint64_t full;
    int64_t nodes, limit, stored;
    uint64_t *tab; /* 3 words a key */
    uint64_t size;
    uint8_t *line; /* 2 bytes a move: kind << 4 | pile, argument */
    int nline, best;
} Search;

enum { POP_LATE = 0, POP_EARLY = 1, TO_FOUND = 2, TO_PILE = 3 };

static int pile_cmp(const Pile *a, const Pile *b) {
    if (a->L != b->L)
        return a->L - b->L;
    if (a->n != b->n)
        return a->n - b->n;
    return memcmp(a->s, b->s, a->n);
}

/* The exact key of a position with its piles sorted (piles are interchangeable). */
static void key_of(const State *s, uint64_t k[3]) {
    const Pile *q[4] = {&s->p[0], &s->p[1], &s->p[2], &s->p[3]};
    for (int i = 1; i < 4; i++)
        for (int j = i; j > 0 && pile_cmp(q[j - 1], q[j]) > 0; j--) {
            const Pile *x = q[j];
            q[j] = q[j - 1];
            q[j - 1] = x;
        }
    k[0] = s->mask | (uint64_t)s->t << 52 | 1ULL << 63;
    unsigned __int128 w = 0;
    int pos = 0;
    for (int i = 0; i < 4; i++, pos += 6)
        w |= (unsigned __int128)q[i]->L << pos;
    for (int i = 0; i < 4; i++, pos += 4)
        w |= (unsigned __int128)q[i]->n << pos;
    for (int i = 0; i < 4; i++)
        for (int c = 0; c < q[i]->n; c++, pos += 4)
            w |= (unsigned __int128)q[i]->s[c] << pos; /* at most 13 late cards: 92 bits */
    k[1] = (uint64_t)w;
    k[2] = (uint64_t)(w >> 64);
}

/* 1 when the position is new (then it is added), 0 when it was searched, -2 when full. */
static int add(Search *d, const State *s) {
    uint64_t k[3];
    key_of(s, k);
    uint64_t h = k[0] * 0x9E3779B97F4A7C15ULL ^ k[1] * 0xC2B2AE3D27D4EB4FULL ^ k[2] * 0x165667B19E3779F9ULL;
    h ^= h >> 29;
    uint64_t i = h & (d->size - 1);
    while (d->tab[3 * i]) {
        if (d->tab[3 * i] == k[0] && d->tab[3 * i + 1] == k[1] && d->tab[3 * i + 2] == k[2])
            return 0;
        i = (i + 1) & (d->size - 1);
    }
    if (2 * d->stored >= (int64_t)d->size)
        return -2;
    d->tab[3 * i] = k[0];
    d->tab[3 * i + 1] = k[1];
    d->tab[3 * i + 2] = k[2];
    d->stored++;
    return 1;
}

/* Cards of each rank on the foundations: the T cards that left, and the later cards turned
   before the current one that are on no late stack. */
static void counts(const Search *d, const State *s, int *cnt) {
    memset(cnt, 0, 13 * sizeof(int));
    for (int i = 0; i < d->T; i++)
        if (s->mask >> i & 1)
            cnt[d->cards[i]]++;
    for (int i = d->T; i < s->t; i++)
        cnt[d->cards[i]]++;
    for (int p = 0; p < 4; p++)
        for (int c = 0; c < s->p[p].n; c++)
            cnt[s->p[p].s[c]]--;
}

static int wanted(const int *cnt, int r) {
    return (r ? cnt[r - 1] : 4) > cnt[r];
}

/* True when the position is lost by the two rules of the header. The counting rule: a card of
   rank r that leaves as the i-th of its rank needs i cards of rank r - 1 on the foundations
   first, and in its stack the cards above it leave first, the cards of rank r among them
   before it. The stacks are the late stacks and, when one pile has the largest L alone, the T
   cards above every other pile's L, which can only leave through it (in falling index order).
   Every other card counts as free to leave at any moment; a stack card counts once the rule
   has freed it and every card above it. A card never freed never leaves in any play. */
static int dead(const Search *d, const State *s, const int *cnt) {
    int l1 = 0, l2 = 0;
    for (int p = 0; p < 4; p++) {
        int L = s->p[p].L;
        if (L > l1) {
            l2 = l1;
            l1 = L;
        } else if (L > l2)
            l2 = L;
    }
    for (int i = l1 + 1; i < d->T; i++)
        if (!(s->mask >> i & 1))
            return 1;
    uint8_t buf[MAXT];
    int nf = 0;
    int held[13] = {0};
    for (int i = l2 + 1; i < d->T && i < l1; i++)
        if (!(s->mask >> i & 1)) {
            buf[nf++] = d->cards[i];
            held[d->cards[i]]++;
        }
    for (int p = 0; p < 4; p++)
        for (int c = 0; c < s->p[p].n; c++)
            held[s->p[p].s[c]]++;
    int freed[14]; /* freed[r + 1]: cards of rank r that can reach the foundations */
    freed[0] = 4;
    for (int r = 0; r < 13; r++)
        freed[r + 1] = 4 - held[r];
    int depth[5];
    for (int p = 0; p < 4; p++)
        depth[p] = s->p[p].n;
    depth[4] = nf;
    int changed = 1;
    while (changed) {
        changed = 0;
        for (int p = 0; p < 5; p++) {
            const uint8_t *st = p < 4 ? s->p[p].s : buf;
            int n = p < 4 ? s->p[p].n : nf;
            while (depth[p]) {
                int x = st[depth[p] - 1], need = cnt[x] + 1;
                for (int j = depth[p]; j < n; j++)
                    need += st[j] == x;
                if (freed[x] < need)
                    break;
                freed[x + 1]++;
                depth[p]--;
                changed = 1;
            }
        }
    }
    for (int p = 0; p < 5; p++)
        if (depth[p])
            return 1;
    return 0;
}

static void note(Search *d, int depth, int kind, int pile, int arg) {
    d->line[2 * depth] = (uint8_t)(kind << 4 | pile);
    d->line[2 * depth + 1] = (uint8_t)arg;
}

/* The search from s, the moves so far depth long: 1 won (d->nline moves), 0 lost, -1 limit,
   -2 memory. */
static int search(Search *d, State *s, int depth) {
    if (++d->nodes > d->limit)
        return -1;
    int cnt[13];
    counts(d, s, cnt);
    /* late tops whose rank below is all on the foundations: at once */
    for (int moved = 1; moved;) {
        moved = 0;
        for (int p = 0; p < 4; p++) {
            Pile *q = &s->p[p];
            if (q->n) {
                int r = q->s[q->n - 1];
                if ((r ? cnt[r - 1] : 4) == 4) {
                    note(d, depth++, POP_LATE, p, 0);
                    q->n--;
                    cnt[r]++;
                    moved = 1;
                }
            }
        }
    }
    if (s->t == 52 && s->mask == d->full && !s->p[0].n && !s->p[1].n && !s->p[2].n && !s->p[3].n) {
        d->nline = depth;
        return 1;
    }
    int r = add(d, s);
    if (r <= 0)
        return r;
    if (dead(d, s, cnt))
        return 0;
    for (int p = 0; p < 4; p++) {
        Pile *q = &s->p[p];
        if (q->n && wanted(cnt, q->s[q->n - 1])) {
            State n = *s;
            n.p[p].n--;
            note(d, depth, POP_LATE, p, 0);
            if ((r = search(d, &n, depth + 1)))
                return r;
        }
    }
    for (int i = d->T - 1; i >= 0; i--) {
        if (s->mask >> i & 1 || !wanted(cnt, d->cards[i]))
            continue;
        int best = -1;
        for (int p = 0; p < 4; p++)
            if (!s->p[p].n && s->p[p].L > i && (best < 0 || s->p[p].L < s->p[best].L))
                best = p;
        if (best < 0)
            continue;
        State n = *s;
        n.mask |= 1ULL << i;
        n.p[best].L = (uint8_t)i;
        note(d, depth, POP_EARLY, best, i);
        if ((r = search(d, &n, depth + 1)))
            return r;
    }
    if (s->t < 52) {
        int c = d->cards[s->t];
        if (wanted(cnt, c)) {
            State n = *s;
            n.t++;
            note(d, depth, TO_FOUND, 0, 0);
            if ((r = search(d, &n, depth + 1)))
                return r;
        }
        for (int p = 0; p < 4; p++) {
            int same = 0;
            for (int o = 0; o < p; o++)
                same |= pile_cmp(&s->p[o], &s->p[p]) == 0;
            if (same)
                continue;
            State n = *s;
            n.p[p].s[n.p[p].n++] = (uint8_t)c;
            n.t++;
            note(d, depth, TO_PILE, p, 0);
            if ((r = search(d, &n, depth + 1)))
                return r;
        }
    }
    return 0;
}

/* cards: the deal's 52 ranks in the order turned (0 Ace .. 12 King); table_bits: log2 of the
   positions the table holds (half full at most). line: at least 2 * 256 bytes. */
int st_late(const uint8_t *cards, int64_t limit, int table_bits, int64_t *nodes, int64_t *stored,
            uint8_t *line, int *nline) {
    Search d;
    memset(&d, 0, sizeof d);
    d.cards = cards;
    while (d.T < 52 && cards[d.T])
        d.T++;
    d.full = d.T ? (1ULL << d.T) - 1 : 0;
    d.limit = limit;
    d.size = 1ULL << table_bits;
    d.tab = calloc(d.size * 3, sizeof(uint64_t));
    d.line = line;
    if (!d.tab)
        return -2;
    State s;
    memset(&s, 0, sizeof s);
    s.t = (uint8_t)d.T;
    for (int p = 0; p < 4; p++)
        s.p[p].L = INF;
    int r = search(&d, &s, 0);
    *nodes = d.nodes;
    *stored = d.stored;
    *nline = d.nline;
    free(d.tab);
    return r;
}
