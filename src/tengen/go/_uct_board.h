/* _uct_board.h: the playout engine's own board (tengen.go._uct), built for speed, not for rules variety.
 *
 * Up to 19x19. Points live on a frame one point wider on every side (border points), index
 * p = (row + 1) * S + col + 1 with S = width + 2. Chains are rings (`next`) with a head (`head`), a stone
 * count and pseudo-liberties kept as count, sum and sum of squares: a chain is in atari exactly when all its
 * pseudo-liberties are one point, i.e. count * sum(x^2) == sum(x)^2, and that point is sum / count (an O(1)
 * test and an O(1) answer). Simple ko only (the Python wrapper checks superko at the root); suicide is
 * illegal. Each empty point keeps the colours of its 8 neighbours as a 16-bit code (patterns, eyes and quick
 * liberty tests read it). No hash: tree reuse compares the colour arrays. The whole board is one plain struct:
 * copying it is one memcpy. */
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
    int last_atari;     /* 0 when neither the last move's chain nor an opponent chain next to it is in atari (then
                           the playout's answer to atari has nothing to look at); nonzero: it may be (ub_play) */
    int stones[3];      /* stones on the board by colour (index UB_BLACK, UB_WHITE) */
    int16_t atari[UB_MAX_ATARI];
    uint8_t color[UB_MAXP];
    int16_t head[UB_MAXP], next[UB_MAXP];
    int16_t empties[UB_MAXP], empty_pos[UB_MAXP];
    int16_t nstones[UB_MAXP], plibs[UB_MAXP];   /* per chain head */
    int32_t libsum[UB_MAXP], libsum2[UB_MAXP];  /* per chain head: sum and sum of squares of pseudo-liberties */
    uint16_t code[UB_MAXP];  /* per point: the colours of its 8 neighbours (see UB_NB_OFFSETS), kept as stones come and go */
} UBoard;

/* A point's 3x3 neighbourhood code: the colours (0 empty, 1 black, 2 white, 3 off the board) of its 8
   neighbours in the order NW N NE W E SW S SE, two bits each; what depends on the neighbourhood alone is
   read from it by bit operations (no table; the patterns' bit table is 8 KB, tengen.go._uct_patterns). */
#define UB_ORTH_LO 0x1144u   /* the low bits of the N, W, E, S fields */
#define UB_DIAG_LO 0x4411u   /* the low bits of the NW, NE, SW, SE fields */
/* The orthogonal neighbours that are empty (one bit each). */
static inline unsigned ub_code_orth_empty(unsigned x) { return ~(x | (x >> 1)) & UB_ORTH_LO; }
/* ub_is_eye's rule on a code: every orthogonal neighbour c or off the board; no diagonal of the opponent when
   one is off the board, else at most one. */
static inline int ub_code_eye(unsigned x, int c) {
    unsigned hi = x >> 1;
    unsigned orth_ok = c == UB_BLACK ? (x & UB_ORTH_LO) : (hi & UB_ORTH_LO);  /* fields 1 or 3 (Black), 2 or 3 */
    if (orth_ok != UB_ORTH_LO) return 0;
    unsigned edge = x & hi & UB_DIAG_LO;
    unsigned bad = (c == UB_BLACK ? hi & ~x : x & ~hi) & UB_DIAG_LO;
    return edge ? bad == 0 : (bad & (bad - 1)) == 0;
}

static inline uint64_t ub_splitmix(uint64_t *x) {
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
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
    b->ko = -1; b->to_play = UB_BLACK; b->last = b->last2 = UB_NONE; b->npass = 0; b->nempty = 0;
    b->stones[0] = b->stones[1] = b->stones[2] = 0;
    b->natari = 0; b->last_atari = 1;
    for (int p = 0; p < b->N; p++) { b->color[p] = UB_BORDER; b->empty_pos[p] = -1; }
    for (int r = 0; r < h; r++)
        for (int c = 0; c < w; c++) {
            int p = ub_point(b, r, c);
            b->color[p] = UB_EMPTY;
            b->empty_pos[p] = (int16_t)b->nempty;
            b->empties[b->nempty++] = (int16_t)p;
        }
    for (int p = 0; p < b->N; p++) b->code[p] = 0;
    const int S = b->S, off[8] = {-S - 1, -S, -S + 1, -1, 1, S - 1, S, S + 1};
    for (int r = 0; r < h; r++)
        for (int c = 0; c < w; c++) {
            int p = ub_point(b, r, c), code = 0;
            for (int i = 0; i < 8; i++) code |= b->color[p + off[i]] << (2 * i);
            b->code[p] = (uint16_t)code;
        }
}

/* Colour the point p (from empty to c, or from a stone to empty with c = 0) and update its neighbours' codes:
   p is neighbour 7 - i of its neighbour i. */
static inline void ub_set_color(UBoard *b, int p, int c) {
    const int S = b->S;
    b->color[p] = (uint8_t)c;
    uint16_t *code = b->code;
    if (c) {
        code[p - S - 1] |= (uint16_t)(c << 14); code[p - S] |= (uint16_t)(c << 12); code[p - S + 1] |= (uint16_t)(c << 10);
        code[p - 1] |= (uint16_t)(c << 8); code[p + 1] |= (uint16_t)(c << 6);
        code[p + S - 1] |= (uint16_t)(c << 4); code[p + S] |= (uint16_t)(c << 2); code[p + S + 1] |= (uint16_t)c;
    } else {
        code[p - S - 1] &= (uint16_t)~(3 << 14); code[p - S] &= (uint16_t)~(3 << 12); code[p - S + 1] &= (uint16_t)~(3 << 10);
        code[p - 1] &= (uint16_t)~(3 << 8); code[p + 1] &= (uint16_t)~(3 << 6);
        code[p + S - 1] &= (uint16_t)~(3 << 4); code[p + S] &= (uint16_t)~(3 << 2); code[p + S + 1] &= (uint16_t)~3;
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
    ub_set_color(b, p, c);
    b->head[p] = (int16_t)p; b->next[p] = (int16_t)p;
    b->nstones[p] = 1; b->plibs[p] = 0; b->libsum[p] = 0; b->libsum2[p] = 0;
    b->stones[c]++;
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
        ub_set_color(b, s, UB_EMPTY); ub_empties_add(b, s); n++;
        s = b->next[s];
    } while (s != h);
    b->stones[c] -= n;
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
    if (ub_code_orth_empty(b->code[p])) return 1;
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
    int h = b->head[p], self_atari = ub_in_atari(b, h), near = 0;
    b->ko = (captured == 1 && b->nstones[h] == 1 && self_atari) ? ko : -1;
    /* the chains that may have come into atari: the new one and its opponent neighbours */
    if (self_atari) ub_note_atari(b, h);
    for (int i = 0; i < 4; i++) {
        int n = nb[i];
        if (b->color[n] == UB_OPP(c) && ub_in_atari(b, b->head[n])) { ub_note_atari(b, b->head[n]); near = 1; }
    }
    b->last_atari = self_atari | near;
    return captured;
}

/* Drop the stale entries of the atari list (chains captured, merged away or out of atari). */
static inline void ub_prune_atari(UBoard *b) { ub_prune_atari_full(b); }

/* Whether p is an eye of colour c: every neighbour c (or the edge), and at most one diagonal of the
   opponent (none on the edge). Playouts never fill such a point. */
static inline int ub_is_eye(const UBoard *b, int p, int c) { return ub_code_eye(b->code[p], c); }

/* The liberties of the chain c would have after playing p, counted up to 2 (0, 1 or 2), the stones of
   opponent chains it captures counted as liberties where they touch p. O(1): a neighbour chain's pseudo-
   liberties other than p (its count, sum and sum of squares less p's m copies) are either none, all one
   point (sum / count) or at least two distinct points (count * sum2 != sum^2). */
static inline int ub_libs_after2(const UBoard *b, int p, int c) {
    unsigned e = ub_code_orth_empty(b->code[p]);
    if (e & (e - 1)) return 2;
    const int S = b->S, nb[4] = {p - S, p - 1, p + 1, p + S};
    int lib = -1;
#define UB_ADD_LIB(x) do { int _x = (x); if (lib < 0) lib = _x; else if (_x != lib) return 2; } while (0)
    for (int i = 0; i < 4; i++) {
        int q = nb[i], cq = b->color[q];
        if (cq == UB_EMPTY) UB_ADD_LIB(q);
        else if (cq == UB_OPP(c)) { if (ub_in_atari(b, b->head[q])) UB_ADD_LIB(q); }
        else if (cq == c) {
            int h = b->head[q], m = 0, seen = 0;
            for (int k = 0; k < 4; k++)
                if (b->color[nb[k]] == c && b->head[nb[k]] == h) { if (k < i) seen = 1; m++; }
            if (seen) continue;  /* this chain was counted at an earlier neighbour */
            int64_t n = b->plibs[h] - m, s = b->libsum[h] - (int64_t)m * p, s2 = b->libsum2[h] - (int64_t)m * p * p;
            if (n == 0) continue;
            if (n * s2 != s * s) return 2;
            UB_ADD_LIB((int)(s / n));
        }
    }
#undef UB_ADD_LIB
    return lib < 0 ? 0 : 1;
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
    int score = b->stones[UB_BLACK] - b->stones[UB_WHITE];
    for (int i = 0; i < b->nempty; i++) {
        unsigned x = b->code[b->empties[i]];
        /* the orthogonal neighbours' colours from the code: bit 0 of a field Black (or off the board), bit 1 White */
        unsigned lo = x & UB_ORTH_LO, hi = (x >> 1) & UB_ORTH_LO, border = lo & hi;
        int black = (lo & ~border) != 0, white = (hi & ~border) != 0;
        score += black - white;   /* both or neither: 0 */
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

/* ------------------------------------------------------------------ Benson's pass-alive test
 * Benson (1976), "Life in the game of Go": the chains of colour c that cannot be captured even if c always
 * passes. The c-enclosed regions are the maximal connected sets of points not of colour c; a region is vital
 * to a c chain when every empty point of it is a liberty of that chain; a region is healthy while every c
 * chain bordering it is still in the set. Chains with fewer than two healthy vital regions leave the set,
 * until none does. What c owns unconditionally: the stones of the chains left, and every healthy region that
 * is vital to one of them (its empty points and any opponent stones in it, which are dead). */
#define UB_BENSON_MAXR UB_MAXP

typedef struct {
    int16_t region[UB_MAXP];          /* region id of a point not of colour c (-1 otherwise) */
    int16_t chain_of[UB_MAXP];        /* chain index of a head of colour c */
    int16_t rstart[UB_BENSON_MAXR + 1], rvital[UB_BENSON_MAXR][4];
    uint8_t rnvital[UB_BENSON_MAXR], rhealthy[UB_BENSON_MAXR];
    int16_t border[4 * UB_MAXP];      /* the chains bordering each region, region r's at rstart[r] .. rstart[r + 1] */
    int16_t heads[UB_MAXP], stack[UB_MAXP], mark[UB_MAXP];
    uint8_t alive[UB_MAXP];
    int16_t vitalcount[UB_MAXP];
} UBenson;

/* Mark in own[] (+1 Black / -1 White by colour c) the points colour c owns unconditionally. */
static void ub_benson(const UBoard *b, int c, UBenson *w, int8_t *own) {
    const int S = b->S, nb4[4] = {-S, -1, 1, S};
    int nchains = 0, nregions = 0, nborder = 0;
    for (int p = 0; p < b->N; p++) { w->region[p] = -1; }
    for (int p = 0; p < b->N; p++)
        if (b->color[p] == c && b->head[p] == p) { w->chain_of[p] = (int16_t)nchains; w->heads[nchains] = (int16_t)p; nchains++; }
    for (int i = 0; i < nchains; i++) { w->mark[i] = -1; w->alive[i] = 1; }
    for (int p0 = 0; p0 < b->N; p0++) {
        int c0 = b->color[p0];
        if (c0 == c || c0 == UB_BORDER || w->region[p0] >= 0) continue;
        int r = nregions++, sp = 0, first_empty = 1, nv = 0;
        int16_t vital[4];
        w->rstart[r] = (int16_t)nborder;
        w->region[p0] = (int16_t)r; w->stack[sp++] = (int16_t)p0;
        while (sp) {
            int p = w->stack[--sp];
            int adj[4], na = 0;   /* the distinct c chains next to p */
            for (int i = 0; i < 4; i++) {
                int q = p + nb4[i], cq = b->color[q];
                if (cq == UB_BORDER) continue;
                if (cq == c) {
                    int x = w->chain_of[b->head[q]], k = 0;
                    while (k < na && adj[k] != x) k++;
                    if (k == na) adj[na++] = x;
                    if (w->mark[x] != r) { w->mark[x] = (int16_t)r; w->border[nborder++] = (int16_t)x; }
                } else if (w->region[q] < 0) { w->region[q] = (int16_t)r; w->stack[sp++] = (int16_t)q; }
            }
            if (b->color[p] != UB_EMPTY) continue;
            if (first_empty) { for (int k = 0; k < na; k++) vital[k] = (int16_t)adj[k]; nv = na; first_empty = 0; }
            else {  /* keep the chains next to every empty point so far */
                int k2 = 0;
                for (int k = 0; k < nv; k++) {
                    int keep = 0;
                    for (int j = 0; j < na; j++) keep |= adj[j] == vital[k];
                    if (keep) vital[k2++] = vital[k];
                }
                nv = k2;
            }
        }
        w->rnvital[r] = (uint8_t)nv;
        for (int k = 0; k < nv; k++) w->rvital[r][k] = vital[k];
    }
    w->rstart[nregions] = (int16_t)nborder;
    for (int changed = 1; changed;) {
        changed = 0;
        for (int i = 0; i < nchains; i++) w->vitalcount[i] = 0;
        for (int r = 0; r < nregions; r++) {
            int healthy = 1;
            for (int k = w->rstart[r]; k < w->rstart[r + 1] && healthy; k++) healthy = w->alive[w->border[k]];
            w->rhealthy[r] = (uint8_t)healthy;
            if (healthy) for (int k = 0; k < w->rnvital[r]; k++) w->vitalcount[w->rvital[r][k]]++;
        }
        for (int i = 0; i < nchains; i++)
            if (w->alive[i] && w->vitalcount[i] < 2) { w->alive[i] = 0; changed = 1; }
    }
    const int8_t mine = c == UB_BLACK ? 1 : -1;
    for (int p = 0; p < b->N; p++) {
        int cp = b->color[p];
        if (cp == UB_BORDER) continue;
        if (cp == c) { if (w->alive[w->chain_of[b->head[p]]]) own[p] = mine; }
        else { int r = w->region[p]; if (w->rhealthy[r] && w->rnvital[r] > 0) own[p] = mine; }
    }
}

/* Whether every point of the board is owned unconditionally by one side (Benson, both colours); then *score
   gets the area count (Black minus White, no komi) of those owners. */
static int ub_settled(const UBoard *b, UBenson *w, int *score) {
    int8_t own[UB_MAXP];
    memset(own, 0, sizeof(own));
    ub_benson(b, UB_BLACK, w, own);
    ub_benson(b, UB_WHITE, w, own);
    int s = 0;
    for (int r = 0; r < b->h; r++)
        for (int col = 0; col < b->w; col++) {
            int o = own[ub_point(b, r, col)];
            if (!o) return 0;
            s += o;
        }
    *score = s;
    return 1;
}

#endif
