/* _board_core.h: the one Go board of tengen's native code. Plain C (no Python.h), static inline; included by
 * the rules core (tengen.go._native, the engine of tengen.go.Board) and by the playout search
 * (tengen.search._uct), which keep only their own additions on top of it (the rules core: Zobrist hashing,
 * snapshots, the ko colour, prisoners, its uniform playouts; the playout search: 8-neighbour codes, patterns,
 * its playout policy and tree).
 *
 * Size: 1..BC_MAX_SIDE points a side (25, as far as GTP vertices go; the playout search plays 2..19).
 * Frame: the points live on a frame one point wider on every side (border points), index
 * p = (row + 1) * S + col + 1 with S = width + 2; N = (height + 2) * S points in all.
 * Colours: BC_EMPTY 0, BC_BLACK 1, BC_WHITE 2, BC_BORDER 3 (two bits, so 8 neighbours fit a 16-bit code);
 * the opponent of c is 3 - c. Python sees 1 / -1 / 0 (bc_from_sign, bc_sign).
 * Chains: rings (`next`) with a head (`head`); per head a stone count and the pseudo-liberties as count, sum
 * and sum of squares: a chain is in atari exactly when all its pseudo-liberties are one point, i.e.
 * count * sum(x^2) == sum(x)^2, and that point is sum / count (an O(1) test and an O(1) answer).
 * Empties: every empty point in a list, with its place in the list (O(1) add and remove).
 * Ko: `ko` is the point a single-stone capture forbids to retake at once (simple ko), or -1; who may not
 * retake is the caller's (the rules core keeps the colour, the playout search's side to move alternates).
 * Suicide: bc_play takes the mover's chain off when it has no liberty left (where the caller's rules let it
 * play there); bc_not_suicide tells beforehand.
 * Also here: the own-eye test, the area count, Benson's pass-alive test, the random numbers. Bounds: the
 * functions trust their points (on the frame, and empty where they place a stone); the Python entry points
 * of the two extensions check what they are given. */
#ifndef TENGEN_BOARD_CORE_H
#define TENGEN_BOARD_CORE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define BC_MAX_SIDE 25
#define BC_MAXP ((BC_MAX_SIDE + 2) * (BC_MAX_SIDE + 2))
#define BC_EMPTY 0
#define BC_BLACK 1
#define BC_WHITE 2
#define BC_BORDER 3
#define BC_OPP(c) (3 - (c))

/* The per-point arrays, BC_MAXP each (N of them in use): the board's fields and what bc_pack copies. */
#define BC_POINT_ARRAYS(X)                                                                               \
    X(uint8_t, color)      /* BC_EMPTY, BC_BLACK, BC_WHITE, BC_BORDER */                                 \
    X(int16_t, head)       /* a stone's chain head */                                                    \
    X(int16_t, next)       /* the next stone of its chain's ring */                                      \
    X(int16_t, empties)    /* the empty points, nempty of them */                                        \
    X(int16_t, empty_pos)  /* an empty point's place in empties, else -1 */                              \
    X(int16_t, nstones)    /* per head: stones */                                                        \
    X(int16_t, plibs)      /* per head: pseudo-liberties (count) */                                      \
    X(int32_t, libsum)     /* per head: their sum */                                                     \
    X(int32_t, libsum2)    /* per head: their sum of squares (at most 1,200 * 728^2 < 2^31) */

typedef struct {
    int w, h, S, N;     /* width, height, stride, points in the frame */
    int ko;             /* the point a simple ko forbids, or -1 */
    int nempty;
    int stones[3];      /* stones on the board by colour (index BC_BLACK, BC_WHITE) */
#define BC_FIELD(type, name) type name[BC_MAXP];
    BC_POINT_ARRAYS(BC_FIELD)
#undef BC_FIELD
} BCBoard;

static inline int bc_point(const BCBoard *b, int row, int col) { return (row + 1) * b->S + col + 1; }
static inline int bc_row(const BCBoard *b, int p) { return p / b->S - 1; }
static inline int bc_col(const BCBoard *b, int p) { return p % b->S - 1; }
/* Python's colours (1 Black, -1 White, 0 empty) and back. */
static inline int bc_from_sign(int v) { return v > 0 ? BC_BLACK : v < 0 ? BC_WHITE : BC_EMPTY; }
static inline int bc_sign(int c) { return c == BC_BLACK ? 1 : c == BC_WHITE ? -1 : 0; }

/* ------------------------------------------------------------------ random numbers */

/* splitmix64: seeds and keys. */
static inline uint64_t bc_splitmix64(uint64_t *x) {
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}
/* xorshift64*: the playouts' random numbers (one state per thread; the state must not be 0). */
static inline uint64_t bc_rand64(uint64_t *s) {
    uint64_t x = *s;
    x ^= x >> 12; x ^= x << 25; x ^= x >> 27;
    *s = x;
    return x * 0x2545F4914F6CDD1DULL;
}
static inline uint32_t bc_rand32(uint64_t *s) { return (uint32_t)(bc_rand64(s) >> 32); }
/* A draw from 0 .. n - 1 (multiply-shift). */
static inline uint32_t bc_randint(uint64_t *s, uint32_t n) { return (uint32_t)(((uint64_t)bc_rand32(s) * n) >> 32); }

/* ------------------------------------------------------------------ the frame, copies */

/* An empty board of w x h (1..BC_MAX_SIDE each; returns -1 otherwise): border points round it, every
   point of it empty and in the empties list in row-major order. */
static int bc_clear(BCBoard *b, int w, int h) {
    if (w < 1 || h < 1 || w > BC_MAX_SIDE || h > BC_MAX_SIDE) return -1;
    b->w = w; b->h = h; b->S = w + 2; b->N = (h + 2) * (w + 2);
    b->ko = -1; b->nempty = 0;
    b->stones[0] = b->stones[1] = b->stones[2] = 0;
#define BC_ZERO(type, name) memset(b->name, 0, (size_t)b->N * sizeof(type));
    BC_POINT_ARRAYS(BC_ZERO)
#undef BC_ZERO
    for (int p = 0; p < b->N; p++) { b->color[p] = BC_BORDER; b->empty_pos[p] = -1; }
    for (int r = 0; r < h; r++)
        for (int c = 0; c < w; c++) {
            int p = bc_point(b, r, c);
            b->color[p] = BC_EMPTY;
            b->empty_pos[p] = (int16_t)b->nempty;
            b->empties[b->nempty++] = (int16_t)p;
        }
    return 0;
}

/* A board in as few bytes as its size needs (the scalars, then the N points of each array): the rules
   core's undo snapshots. */
static inline size_t bc_packed_bytes(int N) {
    size_t n = offsetof(BCBoard, color);
#define BC_SIZE(type, name) n += (size_t)N * sizeof(type);
    BC_POINT_ARRAYS(BC_SIZE)
#undef BC_SIZE
    return n;
}
static inline void bc_pack(const BCBoard *b, char *dst) {
    memcpy(dst, b, offsetof(BCBoard, color)); dst += offsetof(BCBoard, color);
#define BC_OUT(type, name) memcpy(dst, b->name, (size_t)b->N * sizeof(type)); dst += (size_t)b->N * sizeof(type);
    BC_POINT_ARRAYS(BC_OUT)
#undef BC_OUT
}
static inline void bc_unpack(BCBoard *b, const char *src) {
    memcpy(b, src, offsetof(BCBoard, color)); src += offsetof(BCBoard, color);
#define BC_IN(type, name) memcpy(b->name, src, (size_t)b->N * sizeof(type)); src += (size_t)b->N * sizeof(type);
    BC_POINT_ARRAYS(BC_IN)
#undef BC_IN
}
/* dst = src, copying only the points in use. */
static inline void bc_copy(BCBoard *dst, const BCBoard *src) {
    memcpy(dst, src, offsetof(BCBoard, color));
#define BC_CP(type, name) memcpy(dst->name, src->name, (size_t)src->N * sizeof(type));
    BC_POINT_ARRAYS(BC_CP)
#undef BC_CP
}

/* ------------------------------------------------------------------ chains */

static inline int bc_in_atari(const BCBoard *b, int h) {
    int64_t n = b->plibs[h], s = b->libsum[h];
    return n > 0 && n * (int64_t)b->libsum2[h] == s * s;
}
/* The liberty of a chain in atari. */
static inline int bc_atari_lib(const BCBoard *b, int h) { return b->libsum[h] / b->plibs[h]; }

static inline void bc_add_lib(BCBoard *b, int h, int lib) { b->plibs[h]++; b->libsum[h] += lib; b->libsum2[h] += lib * lib; }
static inline void bc_remove_lib(BCBoard *b, int h, int lib) { b->plibs[h]--; b->libsum[h] -= lib; b->libsum2[h] -= lib * lib; }

static inline void bc_empties_remove(BCBoard *b, int p) {
    int i = b->empty_pos[p], last = b->empties[--b->nempty];
    b->empties[i] = (int16_t)last; b->empty_pos[last] = (int16_t)i; b->empty_pos[p] = -1;
}
static inline void bc_empties_add(BCBoard *b, int p) {
    b->empty_pos[p] = (int16_t)b->nempty; b->empties[b->nempty++] = (int16_t)p;
}

/* Which head a merged chain keeps when the two chains have as many stones: the chain of the stone just
   played (the rules core's rings) or the neighbour's (the playout search's). Either is a board; the rings'
   order, and with it the empties' order after a capture, is each engine's own and kept (its playouts). */
enum { BC_TIE_KEEPS_MOVE = 0, BC_TIE_KEEPS_NEIGHBOUR = 1 };

/* Put a stone of colour c at empty p and join it to its neighbours (no captures, no ko: the step shared by
   setup and play). */
static inline void bc_put(BCBoard *b, int p, int c, int ties) {
    const int S = b->S, nb[4] = {p - S, p - 1, p + 1, p + S};
    bc_empties_remove(b, p);
    b->color[p] = (uint8_t)c;
    b->head[p] = (int16_t)p; b->next[p] = (int16_t)p;
    b->nstones[p] = 1; b->plibs[p] = 0; b->libsum[p] = 0; b->libsum2[p] = 0;
    b->stones[c]++;
    for (int i = 0; i < 4; i++) {
        int n = nb[i], cn = b->color[n];
        if (cn == BC_EMPTY) bc_add_lib(b, p, n);
        else if (cn != BC_BORDER) bc_remove_lib(b, b->head[n], p);
    }
    for (int i = 0; i < 4; i++) {
        int n = nb[i];
        if (b->color[n] != c) continue;
        int big = b->head[n], small = b->head[p];
        if (big == small) continue;
        if (ties == BC_TIE_KEEPS_NEIGHBOUR ? b->nstones[big] < b->nstones[small] : b->nstones[big] <= b->nstones[small]) {
            int t = big; big = small; small = t;
        }
        int s = small;
        do { b->head[s] = (int16_t)big; s = b->next[s]; } while (s != small);
        int16_t t = b->next[big]; b->next[big] = b->next[small]; b->next[small] = t;
        b->nstones[big] += b->nstones[small]; b->plibs[big] += b->plibs[small];
        b->libsum[big] += b->libsum[small]; b->libsum2[big] += b->libsum2[small];
    }
}

/* Take the chain with head h off the board (a capture or a suicide); returns its stones. Its ring (`next`
   from h) is left as it was, so the caller can walk the points it emptied. */
static inline int bc_remove_chain(BCBoard *b, int h) {
    const int S = b->S;
    int n = 0, s = h, c = b->color[h];
    do {
        b->color[s] = BC_EMPTY; bc_empties_add(b, s); n++;
        s = b->next[s];
    } while (s != h);
    b->stones[c] -= n;
    s = h;
    do {
        const int nb[4] = {s - S, s - 1, s + 1, s + S};
        for (int i = 0; i < 4; i++) {
            int cn = b->color[nb[i]];
            if (cn == BC_BLACK || cn == BC_WHITE) bc_add_lib(b, b->head[nb[i]], s);
        }
        s = b->next[s];
    } while (s != h);
    return n;
}

/* What a move took off the board: the chains' heads in order (each ring still walkable from its head), the
   mover's own last where the move was a suicide. */
typedef struct {
    int captured;       /* opponent stones */
    int suicide;        /* the mover's stones (0 but where the caller's rules allow suicide) */
    int nchains;
    int16_t heads[5];
} BCTaken;

/* Play colour c at empty p (legality is the caller's): join, capture, take the mover's chain off if it has
   no liberty left, set the simple-ko point. Returns the opponent stones captured. */
static inline int bc_play(BCBoard *b, int p, int c, int ties, BCTaken *t) {
    bc_put(b, p, c, ties);
    const int S = b->S, nb[4] = {p - S, p - 1, p + 1, p + S};
    int ko = -1;
    t->captured = 0; t->suicide = 0; t->nchains = 0;
    for (int i = 0; i < 4; i++) {
        int n = nb[i];
        if (b->color[n] == BC_OPP(c) && b->plibs[b->head[n]] == 0) {
            int h = b->head[n], k = bc_remove_chain(b, h);
            t->heads[t->nchains++] = (int16_t)h;
            t->captured += k;
            if (k == 1) ko = n;
        }
    }
    int h = b->head[p];
    b->ko = (t->captured == 1 && b->nstones[h] == 1 && b->plibs[h] == 1) ? ko : -1;
    if (b->plibs[h] == 0) { t->heads[t->nchains++] = (int16_t)h; t->suicide = bc_remove_chain(b, h); }
    return t->captured;
}

/* Whether colour c playing at empty p keeps a liberty or captures (no suicide). */
static inline int bc_not_suicide(const BCBoard *b, int p, int c) {
    const int S = b->S, nb[4] = {p - S, p - 1, p + 1, p + S};
    for (int i = 0; i < 4; i++) {
        int n = nb[i], cn = b->color[n];
        if (cn == BC_EMPTY) return 1;
        if (cn == BC_BORDER) continue;
        int atari = bc_in_atari(b, b->head[n]);
        if (cn == c ? !atari : atari) return 1;
    }
    return 0;
}

/* Whether p is an own eye of c in the plain sense: every neighbour c or off the board (diagonals not
   read; the playout search adds its diagonal rule on its codes). */
static inline int bc_is_own_eye(const BCBoard *b, int p, int c) {
    const int S = b->S, nb[4] = {p - S, p - 1, p + 1, p + S};
    for (int i = 0; i < 4; i++) { int cn = b->color[nb[i]]; if (cn != c && cn != BC_BORDER) return 0; }
    return 1;
}

/* Scratch for the flood fills (a stack, the points of one region, what has been seen). */
typedef struct {
    int16_t stack[BC_MAXP], members[BC_MAXP];
    uint8_t seen[BC_MAXP];
} BCFill;

/* Every chain again from the colours alone (after setup stones): rings in flood order headed by each chain's
   first point in frame order, the empties in frame order, no ko. */
static void bc_rebuild(BCBoard *b, BCFill *w) {
    const int S = b->S, N = b->N;
    b->nempty = 0; b->ko = -1;
    b->stones[0] = b->stones[1] = b->stones[2] = 0;
    for (int p = 0; p < N; p++) {
        b->empty_pos[p] = -1; b->head[p] = 0; b->plibs[p] = 0; b->libsum[p] = 0; b->libsum2[p] = 0;
        b->nstones[p] = 0; b->next[p] = (int16_t)p;
    }
    memset(w->seen, 0, sizeof(w->seen));
    for (int p = 0; p < N; p++) {
        int c = b->color[p];
        if (c == BC_EMPTY) { bc_empties_add(b, p); continue; }
        if (c == BC_BORDER) continue;
        b->stones[c]++;
        if (w->seen[p]) continue;
        int sp = 0, last = p, count = 0;
        w->stack[sp++] = (int16_t)p; w->seen[p] = 1; b->head[p] = (int16_t)p;
        while (sp) {  /* flood the chain, linking its stones into a ring headed by p */
            int q = w->stack[--sp]; count++;
            if (q != p) { b->head[q] = (int16_t)p; b->next[q] = b->next[last]; b->next[last] = (int16_t)q; last = q; }
            const int nb[4] = {q - S, q - 1, q + 1, q + S};
            for (int k = 0; k < 4; k++) {
                int n = nb[k];
                if (b->color[n] == BC_EMPTY) bc_add_lib(b, p, n);
                else if (b->color[n] == c && !w->seen[n]) { w->seen[n] = 1; w->stack[sp++] = (int16_t)n; }
            }
        }
        b->nstones[p] = (int16_t)count;
    }
}

/* ------------------------------------------------------------------ counting */

/* Area ownership on the frame of b for the colours `col` (b's, or b's with dead stones taken off): a stone
   counts for its colour, an empty region that reaches stones of one colour only counts for it; own[p] gets
   +1 (Black), -1 (White) or 0 for every point of the frame. */
static void bc_area(const BCBoard *b, const uint8_t *col, int8_t *own, BCFill *w) {
    const int S = b->S, N = b->N;
    memset(w->seen, 0, sizeof(w->seen));
    for (int p = 0; p < N; p++) {
        if (col[p] != BC_EMPTY) { own[p] = (int8_t)bc_sign(col[p]); continue; }  /* a stone, or 0 off the board */
        if (w->seen[p]) continue;
        int sp = 0, nm = 0, reach_b = 0, reach_w = 0;
        w->stack[sp++] = (int16_t)p; w->seen[p] = 1;
        while (sp) {
            int q = w->stack[--sp]; w->members[nm++] = (int16_t)q;
            const int nb[4] = {q - S, q - 1, q + 1, q + S};
            for (int k = 0; k < 4; k++) {
                int n = nb[k];
                if (col[n] == BC_BLACK) reach_b = 1;
                else if (col[n] == BC_WHITE) reach_w = 1;
                else if (col[n] == BC_EMPTY && !w->seen[n]) { w->seen[n] = 1; w->stack[sp++] = (int16_t)n; }
            }
        }
        int v = reach_b && !reach_w ? 1 : reach_w && !reach_b ? -1 : 0;
        for (int i = 0; i < nm; i++) own[w->members[i]] = (int8_t)v;
    }
}

/* ------------------------------------------------------------------ Benson's pass-alive test
 * Benson (1976), "Life in the game of Go": the chains of colour c that cannot be captured even if c always
 * passes. The c-enclosed regions are the maximal connected sets of points not of colour c; a region is vital
 * to a c chain when every empty point of it is a liberty of that chain (a region without an empty point is
 * vital to every chain round it); a region is healthy while every c chain bordering it is still in the set.
 * Chains with fewer than two healthy vital regions leave the set, until none does. What c owns
 * unconditionally: the stones of the chains left, and the healthy regions the rule names (their empty points
 * and any opponent stones in them, which are dead):
 *   BC_SAFE_VITAL: a region vital to one of the chains left (the playout search's pass_alive);
 *   BC_SAFE_TOUCHED: a region with a chain round it whose every empty point touches one of the chains left,
 *     not necessarily the same one (the rules core's benson(), tengen.go.benson; it owns more). */
enum { BC_SAFE_VITAL = 0, BC_SAFE_TOUCHED = 1 };
#define BC_VITAL_ALL 5   /* rnvital: the region has no empty point */

typedef struct {
    int16_t region[BC_MAXP];          /* region id of a point not of colour c (-1 otherwise) */
    int16_t chain_of[BC_MAXP];        /* chain index of a head of colour c */
    int16_t rstart[BC_MAXP + 1];      /* the chains bordering region r: border[rstart[r] .. rstart[r + 1]) */
    int16_t rvital[BC_MAXP][4];       /* the chains next to every empty point of region r */
    uint8_t rnvital[BC_MAXP], rhealthy[BC_MAXP], rtouched[BC_MAXP];
    int16_t border[4 * BC_MAXP];
    int16_t stack[BC_MAXP], mark[BC_MAXP];
    uint8_t alive[BC_MAXP];
    int16_t vitalcount[BC_MAXP];
} BCBenson;

/* Flood region r from p0: its bordering chains, the chains next to every empty point, whether every empty
   point touches a c stone. */
static void bc_benson_region(const BCBoard *b, int c, BCBenson *w, int r, int p0, int *nborder) {
    const int S = b->S, nb4[4] = {-S, -1, 1, S};
    int sp = 0, nv = BC_VITAL_ALL, touched = 1;
    int16_t vital[4];
    w->rstart[r] = (int16_t)*nborder;
    w->region[p0] = (int16_t)r; w->stack[sp++] = (int16_t)p0;
    while (sp) {
        int p = w->stack[--sp];
        int adj[4], na = 0;   /* the distinct c chains next to p */
        for (int i = 0; i < 4; i++) {
            int q = p + nb4[i], cq = b->color[q];
            if (cq == BC_BORDER) continue;
            if (cq == c) {
                int x = w->chain_of[b->head[q]], k = 0;
                while (k < na && adj[k] != x) k++;
                if (k == na) adj[na++] = x;
                if (w->mark[x] != r) { w->mark[x] = (int16_t)r; w->border[(*nborder)++] = (int16_t)x; }
            } else if (w->region[q] < 0) { w->region[q] = (int16_t)r; w->stack[sp++] = (int16_t)q; }
        }
        if (b->color[p] != BC_EMPTY) continue;
        touched &= na > 0;
        if (nv == BC_VITAL_ALL) { for (int k = 0; k < na; k++) vital[k] = (int16_t)adj[k]; nv = na; }
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
    w->rnvital[r] = (uint8_t)nv; w->rtouched[r] = (uint8_t)touched;
    if (nv != BC_VITAL_ALL) for (int k = 0; k < nv; k++) w->rvital[r][k] = vital[k];
}

/* Mark in own[] (+1 Black / -1 White by colour c) the points colour c owns unconditionally, by `rule`. */
static void bc_benson(const BCBoard *b, int c, BCBenson *w, int8_t *own, int rule) {
    int nchains = 0, nregions = 0, nborder = 0;
    for (int p = 0; p < b->N; p++) w->region[p] = -1;
    for (int p = 0; p < b->N; p++)
        if (b->color[p] == c && b->head[p] == p) w->chain_of[p] = (int16_t)nchains++;
    for (int i = 0; i < nchains; i++) { w->mark[i] = -1; w->alive[i] = 1; }
    for (int p0 = 0; p0 < b->N; p0++) {
        int c0 = b->color[p0];
        if (c0 == c || c0 == BC_BORDER || w->region[p0] >= 0) continue;
        bc_benson_region(b, c, w, nregions++, p0, &nborder);
    }
    w->rstart[nregions] = (int16_t)nborder;
    for (int changed = 1; changed;) {
        changed = 0;
        for (int i = 0; i < nchains; i++) w->vitalcount[i] = 0;
        for (int r = 0; r < nregions; r++) {
            int healthy = 1;
            for (int k = w->rstart[r]; k < w->rstart[r + 1] && healthy; k++) healthy = w->alive[w->border[k]];
            w->rhealthy[r] = (uint8_t)healthy;
            if (!healthy) continue;
            if (w->rnvital[r] == BC_VITAL_ALL)
                for (int k = w->rstart[r]; k < w->rstart[r + 1]; k++) w->vitalcount[w->border[k]]++;
            else
                for (int k = 0; k < w->rnvital[r]; k++) w->vitalcount[w->rvital[r][k]]++;
        }
        for (int i = 0; i < nchains; i++)
            if (w->alive[i] && w->vitalcount[i] < 2) { w->alive[i] = 0; changed = 1; }
    }
    const int8_t mine = (int8_t)bc_sign(c);
    for (int p = 0; p < b->N; p++) {
        int cp = b->color[p];
        if (cp == BC_BORDER) continue;
        if (cp == c) { if (w->alive[w->chain_of[b->head[p]]]) own[p] = mine; continue; }
        int r = w->region[p], bordered = w->rstart[r + 1] > w->rstart[r];
        int safe = rule == BC_SAFE_VITAL ? bordered && w->rnvital[r] > 0 : bordered && w->rtouched[r];
        if (w->rhealthy[r] && safe) own[p] = mine;
    }
}

#endif
