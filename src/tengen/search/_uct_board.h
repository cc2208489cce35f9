/* _uct_board.h: the playout search's board (tengen.search._uct): the board core of tengen.go (_board_core.h:
 * frame, chains with pseudo-liberty sums, captures, the empties, simple ko, Benson, the random numbers) with
 * what the playouts add, built for speed, not for rules variety.
 *
 * Up to 19x19 (UB_MAX_SIDE: what the engine promises; the core holds up to 25). Suicide is illegal; simple ko
 * only (the Python wrapper checks superko at the root). Added here: the side to move and the last two moves,
 * the chains that came into atari (the playout policy's answers), and for each empty point the colours of its
 * 8 neighbours as a 16-bit code (patterns, eyes and quick liberty tests read it). No hash: tree reuse compares
 * the colour arrays. The whole board is one plain struct: copying it is one memcpy. */
#ifndef TENGEN_UCT_BOARD_H
#define TENGEN_UCT_BOARD_H

#include <stdint.h>
#include <string.h>

#include "_board_core.h"

#define UB_MAX_SIDE 19
#define UB_MAXP ((UB_MAX_SIDE + 2) * (UB_MAX_SIDE + 2))   /* the frame of the largest board the engine plays */
#define UB_PASS (-1)
#define UB_NONE (-2)   /* no last move (start of a game or a position given without history) */
#define UB_MAX_ATARI 64

typedef struct {
    BCBoard g;          /* the board (colours BC_EMPTY, BC_BLACK, BC_WHITE, BC_BORDER) */
    int to_play;        /* BC_BLACK or BC_WHITE */
    int last, last2;    /* the last two moves (a point, UB_PASS or UB_NONE) */
    int npass;          /* consecutive passes at the end */
    int natari;         /* chain heads that came into atari (checked again when read: entries may be stale) */
    int last_atari;     /* 0 when neither the last move's chain nor an opponent chain next to it is in atari (then
                           the playout's answer to atari has nothing to look at); nonzero: it may be (ub_play) */
    int16_t atari[UB_MAX_ATARI];
    uint16_t code[BC_MAXP];  /* per point: the colours of its 8 neighbours (see UB_NB_OFFSETS), kept as stones come and go */
} UBoard;

/* A point's 3x3 neighbourhood code: the colours (0 empty, 1 black, 2 white, 3 off the board) of its 8
   neighbours in the order NW N NE W E SW S SE, two bits each; what depends on the neighbourhood alone is
   read from it by bit operations (no table; the patterns' bit table is 8 KB, tengen.search._uct_patterns). */
#define UB_ORTH_LO 0x1144u   /* the low bits of the N, W, E, S fields */
#define UB_DIAG_LO 0x4411u   /* the low bits of the NW, NE, SW, SE fields */
/* The orthogonal neighbours that are empty (one bit each). */
static inline unsigned ub_code_orth_empty(unsigned x) { return ~(x | (x >> 1)) & UB_ORTH_LO; }
/* ub_is_eye's rule on a code: every orthogonal neighbour c or off the board (the core's bc_is_own_eye); no
   diagonal of the opponent when one is off the board, else at most one. */
static inline int ub_code_eye(unsigned x, int c) {
    unsigned hi = x >> 1;
    unsigned orth_ok = c == BC_BLACK ? (x & UB_ORTH_LO) : (hi & UB_ORTH_LO);  /* fields 1 or 3 (Black), 2 or 3 */
    if (orth_ok != UB_ORTH_LO) return 0;
    unsigned edge = x & hi & UB_DIAG_LO;
    unsigned bad = (c == BC_BLACK ? hi & ~x : x & ~hi) & UB_DIAG_LO;
    return edge ? bad == 0 : (bad & (bad - 1)) == 0;
}

static inline int ub_point(const UBoard *b, int row, int col) { return bc_point(&b->g, row, col); }

/* dst = src, copying only the points in use (a playout's start: about 10 KB on 19x19). */
static inline void ub_copy(UBoard *dst, const UBoard *src) {
    bc_copy(&dst->g, &src->g);
    memcpy(&dst->to_play, &src->to_play, offsetof(UBoard, code) - offsetof(UBoard, to_play));
    memcpy(dst->code, src->code, (size_t)src->g.N * sizeof(uint16_t));
}

/* An empty w x h board (2..UB_MAX_SIDE, checked by the caller), Black to play. */
static void ub_clear(UBoard *b, int w, int h) {
    bc_clear(&b->g, w, h);
    b->to_play = BC_BLACK; b->last = b->last2 = UB_NONE; b->npass = 0;
    b->natari = 0; b->last_atari = 1;
    const int N = b->g.N, S = b->g.S, off[8] = {-S - 1, -S, -S + 1, -1, 1, S - 1, S, S + 1};
    for (int p = 0; p < N; p++) b->code[p] = 0;
    for (int r = 0; r < h; r++)
        for (int c = 0; c < w; c++) {
            int p = ub_point(b, r, c), code = 0;
            for (int i = 0; i < 8; i++) code |= b->g.color[p + off[i]] << (2 * i);
            b->code[p] = (uint16_t)code;
        }
}

/* The codes round p after p became colour c (a stone; the core set its colour): p is neighbour 7 - i of its
   neighbour i. */
static inline void ub_code_put(UBoard *b, int p, int c) {
    const int S = b->g.S;
    uint16_t *code = b->code;
    code[p - S - 1] |= (uint16_t)(c << 14); code[p - S] |= (uint16_t)(c << 12); code[p - S + 1] |= (uint16_t)(c << 10);
    code[p - 1] |= (uint16_t)(c << 8); code[p + 1] |= (uint16_t)(c << 6);
    code[p + S - 1] |= (uint16_t)(c << 4); code[p + S] |= (uint16_t)(c << 2); code[p + S + 1] |= (uint16_t)c;
}
/* The codes round p after p became empty. */
static inline void ub_code_take(UBoard *b, int p) {
    const int S = b->g.S;
    uint16_t *code = b->code;
    code[p - S - 1] &= (uint16_t)~(3 << 14); code[p - S] &= (uint16_t)~(3 << 12); code[p - S + 1] &= (uint16_t)~(3 << 10);
    code[p - 1] &= (uint16_t)~(3 << 8); code[p + 1] &= (uint16_t)~(3 << 6);
    code[p + S - 1] &= (uint16_t)~(3 << 4); code[p + S] &= (uint16_t)~(3 << 2); code[p + S + 1] &= (uint16_t)~3;
}

/* A setup stone of colour c at empty p (no captures, no ko). */
static inline void ub_put(UBoard *b, int p, int c) {
    bc_put(&b->g, p, c, BC_TIE_KEEPS_NEIGHBOUR);
    ub_code_put(b, p, c);
}

/* Whether colour c may play p now: empty, not the ko point, not suicide. */
static inline int ub_legal(const UBoard *b, int p, int c) {
    if (b->g.color[p] != BC_EMPTY || p == b->g.ko) return 0;
    if (ub_code_orth_empty(b->code[p])) return 1;
    return bc_not_suicide(&b->g, p, c);
}

static inline void ub_prune_atari_full(UBoard *b) {
    int k = 0;
    for (int i = 0; i < b->natari; i++) {
        int h = b->atari[i], ch = b->g.color[h];
        if ((ch == BC_BLACK || ch == BC_WHITE) && b->g.head[h] == h && bc_in_atari(&b->g, h)) b->atari[k++] = (int16_t)h;
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
    b->to_play = BC_OPP(c);
    if (p == UB_PASS) { b->npass++; b->g.ko = -1; return 0; }
    b->npass = 0;
    BCTaken taken;
    int captured = bc_play(&b->g, p, c, BC_TIE_KEEPS_NEIGHBOUR, &taken);
    ub_code_put(b, p, c);
    for (int i = 0; i < taken.nchains; i++) {  /* the rings of the chains taken off, still linked */
        int h = taken.heads[i], s = h;
        do { ub_code_take(b, s); s = b->g.next[s]; } while (s != h);
    }
    const int S = b->g.S, nb[4] = {p - S, p - 1, p + 1, p + S};
    int h = b->g.head[p], self_atari = bc_in_atari(&b->g, h), near = 0;
    /* the chains that may have come into atari: the new one and its opponent neighbours */
    if (self_atari) ub_note_atari(b, h);
    for (int i = 0; i < 4; i++) {
        int n = nb[i];
        if (b->g.color[n] == BC_OPP(c) && bc_in_atari(&b->g, b->g.head[n])) { ub_note_atari(b, b->g.head[n]); near = 1; }
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
    const BCBoard *g = &b->g;
    const int S = g->S, nb[4] = {p - S, p - 1, p + 1, p + S};
    int lib = -1;
#define UB_ADD_LIB(x) do { int _x = (x); if (lib < 0) lib = _x; else if (_x != lib) return 2; } while (0)
    for (int i = 0; i < 4; i++) {
        int q = nb[i], cq = g->color[q];
        if (cq == BC_EMPTY) UB_ADD_LIB(q);
        else if (cq == BC_OPP(c)) { if (bc_in_atari(g, g->head[q])) UB_ADD_LIB(q); }
        else if (cq == c) {
            int h = g->head[q], m = 0, seen = 0;
            for (int k = 0; k < 4; k++)
                if (g->color[nb[k]] == c && g->head[nb[k]] == h) { if (k < i) seen = 1; m++; }
            if (seen) continue;  /* this chain was counted at an earlier neighbour */
            int64_t n = g->plibs[h] - m, s = g->libsum[h] - (int64_t)m * p, s2 = g->libsum2[h] - (int64_t)m * p * p;
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
    const BCBoard *g = &b->g;
    const int S = g->S, nb[4] = {p - S, p - 1, p + 1, p + S};
    int heads[4], nh = 0, stones = 1;
    for (int i = 0; i < 4; i++) {
        if (g->color[nb[i]] != c) continue;
        int h = g->head[nb[i]], k = 0;
        while (k < nh && heads[k] != h) k++;
        if (k == nh) { heads[nh++] = h; stones += g->nstones[h]; }
    }
    return stones;
}

/* The playouts' area score (Black minus White, no komi) at their end: stones plus empty points whose stone
   neighbours are all one colour, read from the codes. Where every empty region is one point (a playout's end
   but for seki) it is the core's area count (bc_area); it never floods. */
static int ub_area(const UBoard *b) {
    int score = b->g.stones[BC_BLACK] - b->g.stones[BC_WHITE];
    for (int i = 0; i < b->g.nempty; i++) {
        unsigned x = b->code[b->g.empties[i]];
        /* the orthogonal neighbours' colours from the code: bit 0 of a field Black (or off the board), bit 1 White */
        unsigned lo = x & UB_ORTH_LO, hi = (x >> 1) & UB_ORTH_LO, border = lo & hi;
        int black = (lo & ~border) != 0, white = (hi & ~border) != 0;
        score += black - white;   /* both or neither: 0 */
    }
    return score;
}

/* Who owns each point at the end (+1 Black, -1 White, 0 neither), the same count as ub_area. */
static inline int ub_owner(const UBoard *b, int p) {
    const BCBoard *g = &b->g;
    int cp = g->color[p];
    if (cp == BC_BLACK) return 1;
    if (cp == BC_WHITE) return -1;
    const int S = g->S, nb[4] = {p - S, p - 1, p + 1, p + S};
    int seen = 0;
    for (int i = 0; i < 4; i++) { int cn = g->color[nb[i]]; if (cn == BC_BLACK || cn == BC_WHITE) seen |= cn; }
    return seen == BC_BLACK ? 1 : seen == BC_WHITE ? -1 : 0;
}

/* Whether every point of the board is owned unconditionally by one side (the core's Benson, both colours,
   a region owned where it is vital to a pass-alive chain); then *score gets the area count (Black minus
   White, no komi) of those owners. */
static int ub_settled(const UBoard *b, BCBenson *w, int *score) {
    int8_t own[BC_MAXP];
    memset(own, 0, sizeof(own));
    bc_benson(&b->g, BC_BLACK, w, own, BC_SAFE_VITAL);
    bc_benson(&b->g, BC_WHITE, w, own, BC_SAFE_VITAL);
    int s = 0;
    for (int r = 0; r < b->g.h; r++)
        for (int col = 0; col < b->g.w; col++) {
            int o = own[ub_point(b, r, col)];
            if (!o) return 0;
            s += o;
        }
    *score = s;
    return 1;
}

#endif
