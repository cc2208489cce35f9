/* _uct_board.h: the playout engine's own board (tengen.go._uct), built for speed, not for rules variety.
 *
 * Up to 19x19. Points live on a frame one point wider on every side (border points), index
 * p = (row + 1) * S + col + 1 with S = width + 2. Chains are rings (`next`) with a head (`head`), a stone
 * count and pseudo-liberties kept as count, sum and sum of squares: a chain is in atari exactly when all its
 * pseudo-liberties are one point, i.e. count * sum(x^2) == sum(x)^2, and that point is sum / count (an O(1)
 * test and an O(1) answer). Simple ko only (the Python wrapper checks superko at the root); suicide is
 * illegal. Zobrist hash of the stones. The whole board is one plain struct: copying it is one memcpy. */
#ifndef TENGEN_UCT_BOARD_H
#define TENGEN_UCT_BOARD_H

#include <stdint.h>
#include <string.h>

#define UB_MAX_SIDE 19
#define UB_MAXP ((UB_MAX_SIDE + 2) * (UB_MAX_SIDE + 2))
#define UB_EMPTY 0
#define UB_BLACK 1
#define UB_WHITE 2
#define UB_BORDER 3
#define UB_PASS (-1)
#define UB_NONE (-2)   /* no last move (start of a game or a position given without history) */
#define UB_OPP(c) (3 - (c))
#define UB_MAX_ATARI 64

typedef struct {
    int w, h, S, N;     /* width, height, stride, points in the frame */
    int ko;             /* the point the side to move may not play (simple ko), or -1 */
    int to_play;        /* UB_BLACK or UB_WHITE */
    int last, last2;    /* the last two moves (a point, UB_PASS or UB_NONE) */
    int npass;          /* consecutive passes at the end */
    int nempty;
    int natari;         /* chain heads that came into atari (checked again when read: entries may be stale) */
    uint64_t hash;
    int16_t atari[UB_MAX_ATARI];
    uint8_t color[UB_MAXP];
    int16_t head[UB_MAXP], next[UB_MAXP];
    int16_t empties[UB_MAXP], empty_pos[UB_MAXP];
    int16_t nstones[UB_MAXP], plibs[UB_MAXP];   /* per chain head */
    int32_t libsum[UB_MAXP], libsum2[UB_MAXP];  /* per chain head: sum and sum of squares of pseudo-liberties */
} UBoard;

static uint64_t ub_zobrist[UB_MAXP][2];

static inline uint64_t ub_splitmix(uint64_t *x) {
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static void ub_init_zobrist(void) {
    uint64_t seed = 0x7563742d7a6f6272ULL;
    for (int p = 0; p < UB_MAXP; p++) { ub_zobrist[p][0] = ub_splitmix(&seed); ub_zobrist[p][1] = ub_splitmix(&seed); }
}

/* xorshift64*: the playouts' random numbers (one state per thread). */
static inline uint32_t ub_rand(uint64_t *s) {
    uint64_t x = *s;
    x ^= x >> 12; x ^= x << 25; x ^= x >> 27;
    *s = x;
    return (uint32_t)((x * 0x2545F4914F6CDD1DULL) >> 32);
}
static inline uint32_t ub_randint(uint64_t *s, uint32_t n) { return (uint32_t)(((uint64_t)ub_rand(s) * n) >> 32); }

static inline int ub_point(const UBoard *b, int row, int col) { return (row + 1) * b->S + col + 1; }

static void ub_clear(UBoard *b, int w, int h) {
    b->w = w; b->h = h; b->S = w + 2; b->N = (h + 2) * (w + 2);
    b->ko = -1; b->to_play = UB_BLACK; b->last = b->last2 = UB_NONE; b->npass = 0; b->nempty = 0; b->hash = 0;
    b->natari = 0;
    for (int p = 0; p < b->N; p++) { b->color[p] = UB_BORDER; b->empty_pos[p] = -1; }
    for (int r = 0; r < h; r++)
        for (int c = 0; c < w; c++) {
            int p = ub_point(b, r, c);
            b->color[p] = UB_EMPTY;
            b->empty_pos[p] = (int16_t)b->nempty;
            b->empties[b->nempty++] = (int16_t)p;
        }
}

static inline int ub_in_atari(const UBoard *b, int h) {
    int64_t n = b->plibs[h], s = b->libsum[h];
    return n > 0 && n * (int64_t)b->libsum2[h] == s * s;
}
/* The liberty of a chain in atari. */
static inline int ub_atari_lib(const UBoard *b, int h) { return b->libsum[h] / b->plibs[h]; }

static inline void ub_add_lib(UBoard *b, int h, int lib) { b->plibs[h]++; b->libsum[h] += lib; b->libsum2[h] += lib * lib; }
static inline void ub_remove_lib(UBoard *b, int h, int lib) { b->plibs[h]--; b->libsum[h] -= lib; b->libsum2[h] -= lib * lib; }

static inline void ub_empties_remove(UBoard *b, int p) {
    int i = b->empty_pos[p], last = b->empties[--b->nempty];
    b->empties[i] = (int16_t)last; b->empty_pos[last] = (int16_t)i; b->empty_pos[p] = -1;
}
static inline void ub_empties_add(UBoard *b, int p) {
    b->empty_pos[p] = (int16_t)b->nempty; b->empties[b->nempty++] = (int16_t)p;
}

/* Put a stone of colour c at empty p and join it to its neighbours (no captures, no ko: the step shared by
   setup and play). */
static void ub_put(UBoard *b, int p, int c) {
    const int S = b->S, nb[4] = {p - S, p - 1, p + 1, p + S};
    ub_empties_remove(b, p);
    b->color[p] = (uint8_t)c;
    b->head[p] = (int16_t)p; b->next[p] = (int16_t)p;
    b->nstones[p] = 1; b->plibs[p] = 0; b->libsum[p] = 0; b->libsum2[p] = 0;
    b->hash ^= ub_zobrist[p][c - 1];
    for (int i = 0; i < 4; i++) {
        int n = nb[i], cn = b->color[n];
        if (cn == UB_EMPTY) ub_add_lib(b, p, n);
        else if (cn != UB_BORDER) ub_remove_lib(b, b->head[n], p);
    }
    for (int i = 0; i < 4; i++) {
        int n = nb[i];
        if (b->color[n] != c) continue;
        int big = b->head[n], small = b->head[p];
        if (big == small) continue;
        if (b->nstones[big] < b->nstones[small]) { int t = big; big = small; small = t; }
        int s = small;
        do { b->head[s] = (int16_t)big; s = b->next[s]; } while (s != small);
        int16_t t = b->next[big]; b->next[big] = b->next[small]; b->next[small] = t;
        b->nstones[big] += b->nstones[small]; b->plibs[big] += b->plibs[small];
        b->libsum[big] += b->libsum[small]; b->libsum2[big] += b->libsum2[small];
    }
}

/* Remove the chain with head h; returns its stone count. */
static int ub_capture(UBoard *b, int h) {
    const int S = b->S;
    int n = 0, s = h, c = b->color[h];
    do {
        b->color[s] = UB_EMPTY; ub_empties_add(b, s); b->hash ^= ub_zobrist[s][c - 1]; n++;
        s = b->next[s];
    } while (s != h);
    s = h;
    do {
        const int nb[4] = {s - S, s - 1, s + 1, s + S};
        for (int i = 0; i < 4; i++) {
            int cn = b->color[nb[i]];
            if (cn == UB_BLACK || cn == UB_WHITE) ub_add_lib(b, b->head[nb[i]], s);
        }
        s = b->next[s];
    } while (s != h);
    return n;
}

/* Whether colour c may play p now: empty, not the ko point, not suicide. */
static inline int ub_legal(const UBoard *b, int p, int c) {
    if (b->color[p] != UB_EMPTY || p == b->ko) return 0;
    const int S = b->S, nb[4] = {p - S, p - 1, p + 1, p + S};
    for (int i = 0; i < 4; i++) {
        int n = nb[i], cn = b->color[n];
        if (cn == UB_EMPTY) return 1;
        if (cn == UB_BORDER) continue;
        int atari = ub_in_atari(b, b->head[n]);
        if (cn == c ? !atari : atari) return 1;
    }
    return 0;
}

static inline void ub_prune_atari_full(UBoard *b) {
    int k = 0;
    for (int i = 0; i < b->natari; i++) {
        int h = b->atari[i], ch = b->color[h];
        if ((ch == UB_BLACK || ch == UB_WHITE) && b->head[h] == h && ub_in_atari(b, h)) b->atari[k++] = (int16_t)h;
    }
    b->natari = k;
}

static inline void ub_note_atari(UBoard *b, int h) {
    for (int i = 0; i < b->natari; i++) if (b->atari[i] == h) return;
    if (b->natari == UB_MAX_ATARI) ub_prune_atari_full(b);
    if (b->natari < UB_MAX_ATARI) b->atari[b->natari++] = (int16_t)h;
}

/* Play a legal move p (or UB_PASS) for the side to move; returns the stones captured. */
static int ub_play(UBoard *b, int p) {
    int c = b->to_play;
    b->last2 = b->last; b->last = p;
    b->to_play = UB_OPP(c);
    if (p == UB_PASS) { b->npass++; b->ko = -1; return 0; }
    b->npass = 0;
    ub_put(b, p, c);
    const int S = b->S, nb[4] = {p - S, p - 1, p + 1, p + S};
    int captured = 0, ko = -1;
    for (int i = 0; i < 4; i++) {
        int n = nb[i];
        if (b->color[n] == UB_OPP(c) && b->plibs[b->head[n]] == 0) {
            int k = ub_capture(b, b->head[n]);
            captured += k;
            if (k == 1) ko = n;
        }
    }
    int h = b->head[p];
    b->ko = (captured == 1 && b->nstones[h] == 1 && ub_in_atari(b, h)) ? ko : -1;
    /* the chains that may have come into atari: the new one and its opponent neighbours */
    if (ub_in_atari(b, h)) ub_note_atari(b, h);
    for (int i = 0; i < 4; i++) {
        int n = nb[i];
        if (b->color[n] == UB_OPP(c) && ub_in_atari(b, b->head[n])) ub_note_atari(b, b->head[n]);
    }
    return captured;
}

/* Drop the stale entries of the atari list (chains captured, merged away or out of atari). */
static inline void ub_prune_atari(UBoard *b) { ub_prune_atari_full(b); }

/* Whether p is an eye of colour c: every neighbour c (or the edge), and at most one diagonal of the
   opponent (none on the edge). Playouts never fill such a point. */
static inline int ub_is_eye(const UBoard *b, int p, int c) {
    const int S = b->S;
    const int nb[4] = {p - S, p - 1, p + 1, p + S};
    for (int i = 0; i < 4; i++) { int cn = b->color[nb[i]]; if (cn != c && cn != UB_BORDER) return 0; }
    const int dg[4] = {p - S - 1, p - S + 1, p + S - 1, p + S + 1};
    int bad = 0, edge = 0;
    for (int i = 0; i < 4; i++) { int cn = b->color[dg[i]]; if (cn == UB_BORDER) edge = 1; else if (cn == UB_OPP(c)) bad++; }
    return edge ? bad == 0 : bad <= 1;
}

/* The liberties (counted up to `limit`) of the chain c would have after playing p, the stones of opponent
   chains it captures counted as liberties where they touch p. `size` (if not NULL) gets the chain's stones. */
static int ub_libs_after(const UBoard *b, int p, int c, int limit, int *size) {
    const int S = b->S, nb[4] = {p - S, p - 1, p + 1, p + S};
    int libs[8], n = 0, heads[4], nh = 0, stones = 1;
#define UB_ADD_LIB(x) do { int _x = (x), _k = 0; while (_k < n && libs[_k] != _x) _k++; \
        if (_k == n) { libs[n++] = _x; if (n >= limit && !size) return n; } } while (0)
    for (int i = 0; i < 4; i++) {
        int q = nb[i], cq = b->color[q];
        if (cq == UB_EMPTY) UB_ADD_LIB(q);
        else if (cq == UB_OPP(c) && ub_in_atari(b, b->head[q])) UB_ADD_LIB(q);
        else if (cq == c) {
            int h = b->head[q], k = 0;
            while (k < nh && heads[k] != h) k++;
            if (k == nh) { heads[nh++] = h; stones += b->nstones[h]; }
        }
    }
    if (size) *size = stones;
    for (int k = 0; k < nh && n < limit; k++) {
        int h = heads[k], s = h;
        do {
            const int sn[4] = {s - S, s - 1, s + 1, s + S};
            for (int i = 0; i < 4; i++)
                if (b->color[sn[i]] == UB_EMPTY && sn[i] != p) { UB_ADD_LIB(sn[i]); if (n >= limit) return n; }
            s = b->next[s];
        } while (s != h);
    }
#undef UB_ADD_LIB
    return n < limit ? n : limit;
}

/* The stones of the chain c would have after playing p. */
static int ub_size_after(const UBoard *b, int p, int c) {
    const int S = b->S, nb[4] = {p - S, p - 1, p + 1, p + S};
    int heads[4], nh = 0, stones = 1;
    for (int i = 0; i < 4; i++) {
        if (b->color[nb[i]] != c) continue;
        int h = b->head[nb[i]], k = 0;
        while (k < nh && heads[k] != h) k++;
        if (k == nh) { heads[nh++] = h; stones += b->nstones[h]; }
    }
    return stones;
}

/* Area score (Black minus White, no komi): stones plus empty points whose neighbours are all one colour. */
static int ub_area(const UBoard *b) {
    const int S = b->S;
    int score = 0;
    for (int r = 0; r < b->h; r++)
        for (int col = 0; col < b->w; col++) {
            int p = (r + 1) * S + col + 1, cp = b->color[p];
            if (cp == UB_BLACK) score++;
            else if (cp == UB_WHITE) score--;
            else {
                int seen = 0;
                const int nb[4] = {p - S, p - 1, p + 1, p + S};
                for (int i = 0; i < 4; i++) { int cn = b->color[nb[i]]; if (cn == UB_BLACK || cn == UB_WHITE) seen |= cn; }
                score += seen == UB_BLACK ? 1 : seen == UB_WHITE ? -1 : 0;
            }
        }
    return score;
}

/* Who owns each point at the end (+1 Black, -1 White, 0 neither), the same count as ub_area. */
static inline int ub_owner(const UBoard *b, int p) {
    int cp = b->color[p];
    if (cp == UB_BLACK) return 1;
    if (cp == UB_WHITE) return -1;
    const int S = b->S, nb[4] = {p - S, p - 1, p + 1, p + S};
    int seen = 0;
    for (int i = 0; i < 4; i++) { int cn = b->color[nb[i]]; if (cn == UB_BLACK || cn == UB_WHITE) seen |= cn; }
    return seen == UB_BLACK ? 1 : seen == UB_WHITE ? -1 : 0;
}

#endif
