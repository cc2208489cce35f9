/* Exact thermography in C for the native local solver: rationals with 64-bit numerator / denominator
 * (every operation checked; an overflow sets solver_error and the caller falls back to Python's
 * Fraction path), walls as piecewise-linear functions of the temperature, and thermograph records
 * built from their options' records. A line-by-line port of tengen/cgt/walls.py and
 * tengen/cgt/thermo.py (`combine`), which stay the reference: tests compare the two. */
#ifndef TENGEN_SOLVER_THERMO_H
#define TENGEN_SOLVER_THERMO_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ errors */
enum { ERR_NONE = 0, ERR_OVERFLOW = 1, ERR_WALL = 2, ERR_MEMORY = 3, ERR_INTERNAL = 4 };
static _Thread_local int solver_error = ERR_NONE;  /* per thread: searches release the GIL */

/* ------------------------------------------------------------------ rationals */
/* d > 0: the finite number n / d in lowest terms; d == 0: an infinity whose sign is n (+-1). */
typedef struct { int64_t n, d; } Q;

static const Q Q_ZERO = {0, 1};
static const Q Q_INF = {1, 0};
static const Q Q_NEG_INF = {-1, 0};

static inline int q_inf(Q a) { return a.d == 0; }
static inline Q q_int(int64_t n) { Q r = {n, 1}; return r; }

static __int128 gcd128(__int128 a, __int128 b) {
    if (a < 0) a = -a;
    if (b < 0) b = -b;
    while (b) { __int128 t = a % b; a = b; b = t; }
    return a;
}

static inline uint64_t gcd64(uint64_t a, uint64_t b) {
    if (!a) return b;
    if (!b) return a;
    int shift = __builtin_ctzll(a | b);
    a >>= __builtin_ctzll(a);
    do {
        b >>= __builtin_ctzll(b);
        if (a > b) { uint64_t t = a; a = b; b = t; }
        b -= a;
    } while (b);
    return a << shift;
}

static Q q_make(__int128 n, __int128 d) {
    if (d < 0) { n = -n; d = -d; }
    if (d == 0) { solver_error = ERR_INTERNAL; return Q_ZERO; }
    if (d == 1) {
        if (n > INT64_MAX || n < -INT64_MAX) { solver_error = ERR_OVERFLOW; return Q_ZERO; }
        return q_int((int64_t)n);
    }
    if (n <= INT64_MAX && n >= -INT64_MAX && d <= INT64_MAX) {
        int64_t nn = (int64_t)n, dd = (int64_t)d;
        uint64_t g = gcd64((uint64_t)(nn < 0 ? -nn : nn), (uint64_t)dd);
        if (g > 1) { nn /= (int64_t)g; dd /= (int64_t)g; }
        Q r = {nn, dd};
        return r;
    }
    __int128 g = gcd128(n, d);
    if (g > 1) { n /= g; d /= g; }
    if (n > INT64_MAX || n < -INT64_MAX || d > INT64_MAX) { solver_error = ERR_OVERFLOW; return Q_ZERO; }
    Q r = {(int64_t)n, (int64_t)d};
    return r;
}

static inline int q_cmp(Q a, Q b) {
    if (q_inf(a) || q_inf(b)) {
        int x = q_inf(a) ? (a.n > 0 ? 1 : -1) : 0, y = q_inf(b) ? (b.n > 0 ? 1 : -1) : 0;
        return (x > y) - (x < y);
    }
    if (a.d == b.d) return (a.n > b.n) - (a.n < b.n);
    __int128 l = (__int128)a.n * b.d, r = (__int128)b.n * a.d;
    return (l > r) - (l < r);
}
static inline int q_eq(Q a, Q b) { return a.n == b.n && a.d == b.d; }
static inline Q q_neg(Q a) { Q r = {-a.n, a.d}; return r; }
static inline Q q_max(Q a, Q b) { return q_cmp(a, b) >= 0 ? a : b; }
static inline Q q_min(Q a, Q b) { return q_cmp(a, b) <= 0 ? a : b; }

static Q q_add(Q a, Q b) {
    if (q_inf(a)) return a;
    if (q_inf(b)) return b;
    if (a.d == 1 && b.d == 1) {
        int64_t s;
        if (__builtin_add_overflow(a.n, b.n, &s)) { solver_error = ERR_OVERFLOW; return Q_ZERO; }
        return q_int(s);
    }
    if (a.d < ((int64_t)1 << 30) && b.d < ((int64_t)1 << 30) && a.n < ((int64_t)1 << 31) && a.n > -((int64_t)1 << 31) &&
        b.n < ((int64_t)1 << 31) && b.n > -((int64_t)1 << 31)) {
        int64_t n, d;
        if (a.d == b.d) { n = a.n + b.n; d = a.d; }
        else { n = a.n * b.d + b.n * a.d; d = a.d * b.d; }
        uint64_t g = gcd64((uint64_t)(n < 0 ? -n : n), (uint64_t)d);
        if (g > 1) { n /= (int64_t)g; d /= (int64_t)g; }
        Q r = {n, d};
        return r;
    }
    return q_make((__int128)a.n * b.d + (__int128)b.n * a.d, (__int128)a.d * b.d);
}
static inline Q q_sub(Q a, Q b) { return q_add(a, q_neg(b)); }
static Q q_mul_int(Q a, int64_t k) {
    if (q_inf(a)) { Q r = {k > 0 ? a.n : (k < 0 ? -a.n : 0), k ? 0 : 1}; return r; }
    if (k == 0) return Q_ZERO;
    if (k == 1) return a;
    if (k == -1) return q_neg(a);
    return q_make((__int128)a.n * k, a.d);
}
static Q q_div_int(Q a, int64_t k) { return q_make(a.n, (__int128)a.d * k); }
static int64_t q_floor(Q a) {
    int64_t f = a.n / a.d;
    if ((a.n % a.d) != 0 && a.n < 0) f -= 1;
    return f;
}

/* ------------------------------------------------------------------ walls */
/* A continuous piecewise-linear function on [0, inf): segments (t0, v0, slope); the last runs to
   infinity. A constant +-inf wall (one segment) stands for a threat. Slopes are integers. */
#define MAXSEG 64
typedef struct { Q t0, v0; int64_t s; } Seg;
typedef struct { int len; Seg s[MAXSEG]; } Wall;

static inline int wall_infinite(const Wall *w) { return q_inf(w->s[0].v0); }

/* A Wall holds room for MAXSEG segments; copy only those in use. */
static inline void wall_copy(Wall *dst, const Wall *src) {
    dst->len = src->len;
    memcpy(dst->s, src->s, (size_t)src->len * sizeof(Seg));
}

static void wall_const(Wall *w, Q v) { w->len = 1; w->s[0].t0 = Q_ZERO; w->s[0].v0 = v; w->s[0].s = 0; }

static void wall_push(Wall *w, Q t0, Q v0, int64_t s) {
    if (w->len >= MAXSEG) { solver_error = ERR_WALL; return; }
    w->s[w->len].t0 = t0; w->s[w->len].v0 = v0; w->s[w->len].s = s; w->len++;
}

/* Merge collinear neighbours; an infinite wall becomes a single constant segment (walls.py _normalise). */
static void wall_normalise(Wall *w) {
    if (w->len == 0) { solver_error = ERR_INTERNAL; return; }
    if (q_inf(w->s[0].v0)) { Q v = w->s[0].v0; wall_const(w, v); return; }
    int k = 0;
    for (int i = 0; i < w->len; i++) {
        Seg g = w->s[i];
        if (k > 0) {
            Seg p = w->s[k - 1];
            if (p.s == g.s && q_eq(q_add(p.v0, q_mul_int(q_sub(g.t0, p.t0), p.s)), g.v0)) continue;
        }
        w->s[k++] = g;
    }
    w->len = k;
}

static void wall_shifted(Wall *out, const Wall *w, int64_t k) {
    if (wall_infinite(w)) { wall_copy(out, w); return; }
    out->len = 0;
    for (int i = 0; i < w->len; i++)
        wall_push(out, w->s[i].t0, q_add(w->s[i].v0, q_mul_int(w->s[i].t0, k)), w->s[i].s + k);
    wall_normalise(out);
}

static int wall_index(const Wall *w, Q t) {
    int i = 0;
    for (int j = 0; j < w->len; j++) {
        if (q_cmp(w->s[j].t0, t) <= 0) i = j; else break;
    }
    return i;
}

static Q wall_at(const Wall *w, Q t) {
    const Seg *g = &w->s[wall_index(w, t)];
    if (q_inf(g->v0)) return g->v0;
    return q_add(g->v0, q_mul_int(q_sub(t, g->t0), g->s));
}

static int64_t wall_slope_below(const Wall *w, Q t) {
    int i = 0;
    for (int j = 0; j < w->len; j++)
        if (q_cmp(w->s[j].t0, t) < 0) i = j;
    return w->s[i].s;
}

/* The common refinement of two walls, one piece at a time (walls.py _merged). */
typedef struct {
    const Wall *a, *b;
    int i, j, done;
    Q t;
} Merge;
typedef struct { Q start; int has_end; Q end; Q va; int64_t sa; Q vb; int64_t sb; } Piece;

static void merge_init(Merge *m, const Wall *a, const Wall *b) { m->a = a; m->b = b; m->i = m->j = 0; m->done = 0; m->t = Q_ZERO; }

static int merge_next(Merge *m, Piece *p) {
    if (m->done) return 0;
    const Seg *sa = &m->a->s[m->i], *sb = &m->b->s[m->j];
    int has_ta = m->i + 1 < m->a->len, has_tb = m->j + 1 < m->b->len;
    Q ta = has_ta ? m->a->s[m->i + 1].t0 : Q_ZERO, tb = has_tb ? m->b->s[m->j + 1].t0 : Q_ZERO;
    p->start = m->t;
    p->has_end = has_ta || has_tb;
    if (!has_tb) p->end = ta;
    else if (!has_ta) p->end = tb;
    else p->end = q_min(ta, tb);
    p->va = q_eq(sa->t0, m->t) ? sa->v0 : q_add(sa->v0, q_mul_int(q_sub(m->t, sa->t0), sa->s));
    p->sa = sa->s;
    p->vb = q_eq(sb->t0, m->t) ? sb->v0 : q_add(sb->v0, q_mul_int(q_sub(m->t, sb->t0), sb->s));
    p->sb = sb->s;
    if (!p->has_end) { m->done = 1; return 1; }
    m->t = p->end;
    if (has_ta && q_eq(ta, p->end)) m->i++;
    if (has_tb && q_eq(tb, p->end)) m->j++;
    return 1;
}

/* Pointwise maximum (dir +1, walls.py wall_max) or minimum (dir -1; walls.py computes it as -max(-a, -b):
   the function, and so its normalised segments, is the same). Where one input is the result throughout,
   it is returned as it is. */
static void wall_extreme(Wall *out, const Wall *a, const Wall *b, int dir) {
    if (wall_infinite(a) || wall_infinite(b)) {
        if ((wall_infinite(a) && dir * a->s[0].v0.n > 0) || (wall_infinite(b) && dir * b->s[0].v0.n < 0)) wall_copy(out, a);
        else wall_copy(out, b);
        return;
    }
    Wall tmp;
    tmp.len = 0;
    int from_a = 1, from_b = 1;
    Merge m;
    Piece p;
    merge_init(&m, a, b);
    while (merge_next(&m, &p)) {
        int c = q_cmp(p.va, p.vb);
        int first_a = dir * c > 0 || (c == 0 && dir * (p.sa - p.sb) >= 0);
        Q v_chosen = first_a ? p.va : p.vb, v_other = first_a ? p.vb : p.va;
        int64_t s_chosen = first_a ? p.sa : p.sb, s_other = first_a ? p.sb : p.sa;
        if (c != 0 || p.sa != p.sb) {
            if (first_a) from_b = 0; else from_a = 0;
        }
        wall_push(&tmp, p.start, v_chosen, s_chosen);
        if (dir * (s_other - s_chosen) > 0) {  /* the other one overtakes at cx */
            Q cx = q_add(p.start, q_div_int(q_sub(v_chosen, v_other), s_other - s_chosen));
            if (!p.has_end || q_cmp(cx, p.end) < 0) {
                wall_push(&tmp, cx, q_add(v_chosen, q_mul_int(q_sub(cx, p.start), s_chosen)), s_other);
                from_a = from_b = 0;
            }
        }
    }
    if (from_a) { wall_copy(out, a); return; }
    if (from_b) { wall_copy(out, b); return; }
    wall_normalise(&tmp);
    wall_copy(out, &tmp);
}

static inline void wall_max(Wall *out, const Wall *a, const Wall *b) { wall_extreme(out, a, b, 1); }
static inline void wall_min(Wall *out, const Wall *a, const Wall *b) { wall_extreme(out, a, b, -1); }

/* The least t >= 0 where the left scaffold meets the right one; +inf when they never meet. */
static Q first_crossing(const Wall *l, const Wall *r) {
    if ((wall_infinite(l) && l->s[0].v0.n > 0) || (wall_infinite(r) && r->s[0].v0.n < 0)) return Q_INF;
    if (wall_infinite(l) || wall_infinite(r)) return Q_ZERO;
    Merge m;
    Piece p;
    merge_init(&m, l, r);
    while (merge_next(&m, &p)) {
        Q gap = q_sub(p.va, p.vb);
        if (q_cmp(gap, Q_ZERO) <= 0) return p.start;
        int64_t closing = p.sb - p.sa;
        if (closing > 0) {
            Q c = q_add(p.start, q_div_int(gap, closing));
            if (!p.has_end || q_cmp(c, p.end) <= 0) return c;
        }
    }
    return Q_INF;
}

/* ------------------------------------------------------------------ numbers */
static int q_inside(Q x, Q lo, Q hi, int lo_closed, int hi_closed) {
    int cl = q_cmp(x, lo), ch = q_cmp(x, hi);
    return (cl > 0 || (lo_closed && cl == 0)) && (ch < 0 || (hi_closed && ch == 0));
}

/* The simplest number between lo and hi (numbers.py simplest_between; the interval is never empty here). */
static Q simplest_between(Q lo, Q hi, int lo_closed, int hi_closed) {
    int c = q_cmp(lo, hi);
    if (c > 0 || (c == 0 && !(lo_closed && hi_closed))) { solver_error = ERR_INTERNAL; return Q_ZERO; }
    if (c == 0) return lo;
    if (q_inside(Q_ZERO, lo, hi, lo_closed, hi_closed)) return Q_ZERO;
    if (q_cmp(hi, Q_ZERO) <= 0) return q_neg(simplest_between(q_neg(hi), q_neg(lo), hi_closed, lo_closed));
    int64_t fl = q_floor(lo);
    Q n = q_int(fl + 1);
    if (lo_closed && lo.d == 1) n = q_int(fl);
    if (q_inside(n, lo, hi, lo_closed, hi_closed)) return n;
    for (int64_t den = 2; den > 0 && den < ((int64_t)1 << 60); den *= 2) {
        int64_t k = q_floor(q_mul_int(lo, den));
        Q c1 = q_make(k, den), c2 = q_make((__int128)k + 1, den);
        if (q_inside(c1, lo, hi, lo_closed, hi_closed)) return c1;
        if (q_inside(c2, lo, hi, lo_closed, hi_closed)) return c2;
    }
    solver_error = ERR_OVERFLOW;
    return Q_ZERO;
}

/* ------------------------------------------------------------------ records */
enum { K_NUMBER, K_INFINITESIMAL, K_GOTE, K_BLACK_SENTE, K_WHITE_SENTE, K_UNBOUNDED };

/* A thermograph record (thermo.py Thermo): walls, temperature (+inf: unbounded), mean (absent when
   unbounded), the number when it is one, stops, the two infinitesimal flags, the kind. */
typedef struct {
    int32_t lw_off, rw_off;  /* segments in the record arena */
    int16_t lw_len, rw_len;
    uint8_t is_number, has_mean, ge_rs, le_ls, kind;
    Q temperature, mean, number, ls, rs;
    uint64_t hash;
} Rec;

#endif
