/* _uct_ladder.h: ladder reading for the playout search (tengen.search._uct): whether a chain in atari that
 * extends at its liberty is caught all the same by a chase of ataris, the attacker choosing each time the atari
 * that works and the defender extending (or escaping by a capture, read as an escape).
 *
 * Why: the playouts answer an atari by extending whenever the chain then has two liberties, and they do not
 * follow the chase that comes next, so running out of a ladder looked good to the search and to its default
 * knowledge (the escape was one of "the policy's moves", 1.0 x 9 virtual wins): chased chains were a large share
 * of the stones lost in the calibration games (docs/BENCHMARKS.md, the PBN calibration's seventh sample).
 * Pachi's playout policy checks its atari escapes for ladders in the same way (Baudis 2011, "MCTS with
 * information sharing", tactics/ladder.c); Fuego's root filter drops the losing ladder escapes at the root
 * (GoUctDefaultRootFilter, Enzenberger et al. 2010).
 *
 * The read plays on board copies (a copy is the used points only, about 10 KB on 19x19), within a budget of
 * UL_BUDGET boards and UL_MAX_DEPTH ataris; past either the chain counts as escaped (the playouts' old view).
 * It runs only where an extension leaves exactly two liberties, so a read is rare and usually a few boards. */
#ifndef TENGEN_UCT_LADDER_H
#define TENGEN_UCT_LADDER_H

#define UL_BUDGET 200
#define UL_MAX_DEPTH 32

/* Up to `max` distinct liberties of the chain with head h into libs; returns how many were found. */
static int ul_chain_libs(const BCBoard *g, int h, int *libs, int max) {
    const int S = g->S;
    int n = 0, s = h;
    do {
        const int nb[4] = {s - S, s - 1, s + 1, s + S};
        for (int i = 0; i < 4; i++) {
            int q = nb[i], k = 0;
            if (g->color[q] != BC_EMPTY) continue;
            while (k < n && libs[k] != q) k++;
            if (k == n) { libs[n++] = q; if (n == max) return n; }
        }
        s = g->next[s];
    } while (s != h);
    return n;
}

/* Whether a chain of the other colour touching chain h is in atari (h's owner may escape by taking it). */
static int ul_can_capture(const BCBoard *g, int h) {
    const int S = g->S, opp = BC_OPP(g->color[h]);
    int s = h;
    do {
        const int nb[4] = {s - S, s - 1, s + 1, s + S};
        for (int i = 0; i < 4; i++)
            if (g->color[nb[i]] == opp && bc_in_atari(g, g->head[nb[i]])) return 1;
        s = g->next[s];
    } while (s != h);
    return 0;
}

/* The liberties colour d would have after playing p, counted up to 3; 3 also when the move captures (a
   capture is read as an escape). No board is played. */
static int ul_libs_after3(const UBoard *b, int p, int d) {
    const BCBoard *g = &b->g;
    const int S = g->S, nb[4] = {p - S, p - 1, p + 1, p + S};
    int libs[8] = {0}, n = 0;
#define UL_ADD(q) do { int _q = (q), _k = 0; if (_q == p) break; while (_k < n && libs[_k] != _q) _k++; \
                       if (_k == n) { libs[n++] = _q; if (n >= 3) return 3; } } while (0)
    for (int i = 0; i < 4; i++) {
        int q = nb[i], cq = g->color[q];
        if (cq == BC_EMPTY) UL_ADD(q);
        else if (cq == BC_OPP(d) && bc_in_atari(g, g->head[q])) return 3;
        else if (cq == d) {
            int other[4], m = ul_chain_libs(g, g->head[q], other, 4);
            for (int k = 0; k < m; k++) UL_ADD(other[k]);
        }
    }
#undef UL_ADD
    return n;
}

static int ul_chased_escapes(const UBoard *t, int s, int d, int depth, int *budget);

/* Colour d's chain through stone s is in atari and d is to move: whether it escapes (by a capture next to it,
   or by extending and then surviving the chase). */
static int ul_atari_escapes(const UBoard *b, int s, int d, int depth, int *budget) {
    const BCBoard *g = &b->g;
    int h = g->head[s];
    if (ul_can_capture(g, h)) return 1;
    int lib = bc_atari_lib(g, h);
    if (!ub_legal(b, lib, d)) return 0;
    int n = ul_libs_after3(b, lib, d);
    if (n >= 3) return 1;
    if (n <= 1) return 0;
    if (--*budget < 0) return 1;
    UBoard t;
    ub_copy(&t, b);
    t.to_play = d;
    ub_play(&t, lib);
    return ul_chased_escapes(&t, s, d, depth, budget);
}

/* Colour d's chain through stone s has just extended to two liberties and the attacker is to move: whether it
   escapes every atari the attacker can give at one of them (an atari that would be a self-atari is not given). */
static int ul_chased_escapes(const UBoard *t, int s, int d, int depth, int *budget) {
    if (depth >= UL_MAX_DEPTH) return 1;
    int libs[3], n = ul_chain_libs(&t->g, t->g.head[s], libs, 3);
    if (n != 2) return n > 2;
    const int a = BC_OPP(d);
    for (int k = 0; k < 2; k++) {
        int x = libs[k];
        if (!ub_legal(t, x, a) || ub_libs_after2(t, x, a) < 2) continue;
        if (--*budget < 0) return 1;
        UBoard u;
        ub_copy(&u, t);
        u.to_play = a;
        ub_play(&u, x);
        if (u.g.color[s] != d || !bc_in_atari(&u.g, u.g.head[s])) continue;
        if (!ul_atari_escapes(&u, s, d, depth + 1, budget)) return 0;
    }
    return 1;
}

/* Whether colour d, extending at lib, the only liberty of a chain of its in atari, is caught in a ladder: the
   chain then has exactly two liberties and the attacker captures it by ataris whatever d does. */
static int ul_escape_fails(const UBoard *b, int lib, int d) {
    if (ul_libs_after3(b, lib, d) != 2) return 0;
    int budget = UL_BUDGET;
    UBoard t;
    ub_copy(&t, b);
    t.to_play = d;
    ub_play(&t, lib);
    return !ul_chased_escapes(&t, lib, d, 0, &budget);
}

/* Whether p, played by colour d, extends an own chain in atari (p is its liberty) into a ladder that catches it. */
static int ul_lost_escape(const UBoard *b, int p, int d) {
    const BCBoard *g = &b->g;
    const int S = g->S, nb[4] = {p - S, p - 1, p + 1, p + S};
    for (int i = 0; i < 4; i++)
        if (g->color[nb[i]] == d && bc_in_atari(g, g->head[nb[i]])) return ul_escape_fails(b, p, d);
    return 0;
}

#endif
