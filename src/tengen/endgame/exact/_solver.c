/* Native exhaustive local solver: the exact solver's search (its Python port, devkit/python_search.py, is a test oracle).
 *
 * Positions (Black stones, White stones, ko ban) of a sealed region's local game (rules:
 * _solver_rules.h, a port of exact/rules.py) live in an open-addressing transposition table; an
 * iterative depth-first search with Tarjan's strongly connected components values each position by its
 * thermograph record (_solver_store.h: exact rationals, interned records, memoised combinations). Loops
 * are valued by fixed points from each position's count bounds, kos by phantoms (a banned retake is a
 * hole its parent fills), exactly as the Python port does; tengen/endgame/exact/solve.py states the
 * conventions (tests compare the two engines position by position).
 * run_line_search is the search with no repetitions (positional superko on the local line) on the
 * same tables, what solve_region's repetitions="superko" re-search runs.
 *
 * Memory: the position table (a 56-byte position, 5 bytes a move, a 32-byte slot at most half full) and the
 * records and memo: 300 to 500 bytes a position (866 MB for the 14-point edge strip's 1.8 million positions
 * searched and 1.0 million merged). The budget counts both, so it bounds the memory. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <time.h>

#include "_solver_rules.h"
#include "_solver_store.h"

enum { ST_OK = 0, ST_BUDGET = 1, ST_ERROR = 2, ST_NOT_SEALED = 3, ST_TIME = 4 };
enum { F_SETTLED = 1, F_IN_TT = 2, F_ONSTACK = 4, F_OPEN = 8, F_LOOP_VALUED = 16, F_GENERALISED = 32, F_VISITED = 64, F_MEMBER = 128,
       F_ALIAS = 256 /* stands for its canonical position, its one child */,
       F_FIXED_KO = 512 /* its kos valued by the taker's phantom fixed point (taker_fixed_point) */,
       F_TEMP = 1024 /* line superko: its value relied on a position of the line it was valued on (run_line_search) */ };

#define LINE_FREE (1 << 30)  /* a line-superko value relying on no position of its line (LineSuperkoSolver's free) */

typedef struct {
    uint64_t b, w;
    uint8_t ban, nl, nr;
    uint8_t kcap;      /* kid slots held at child_off (line superko: a later visit's kept options reuse them) */
    uint16_t flags;
    int8_t lo, hi;
    int16_t stands;
    int32_t child_off;
    int32_t idx, low;  /* Tarjan's index and low link (low: the position inside its loop while valued) */
    int32_t r[3];      /* (rec, lo, hi) record ids; NONE_REC = None */
    int32_t extra;     /* index into extras, -1 */
} Node;

/* Table slots hold the key beside the position's id, so a lookup reads one slot and no position. */
typedef struct { uint64_t b, w; int32_t id; uint8_t ban; } Slot;  /* id -1: empty */

typedef struct {
    Q black_exit, white_exit;
    int bm, wm, taker;  /* taker: 1 Black, -1 White */
} Ko;

typedef struct {
    int32_t cautious;  /* value inside an undecided loop, or NONE_REC */
    int32_t open;      /* index into opens, or -1 */
    int has_ko, has_phantom;
    Ko ko;
    Q phantom;
} Extra;

typedef struct {
    int32_t key;  /* the open position */
    int8_t banned_side;
    int16_t banned_index, nl, nr, nopens;
    int16_t stands;
    int64_t lists_off;  /* 3 x (nl + nr) record ids */
    int64_t opens_off;  /* nopens x (side, j, node) */
} Open;

typedef struct {
    int32_t L[3][64], R[3][64];
    int nl, nr;
} Lists;

typedef struct {
    PyObject_HEAD
    Region reg;
    int moves_all, sacrifices, loop_passes, merge_settled;
    int64_t max_nodes;
    double seconds;
    volatile int stop_requested;  /* set by stop() from another thread while solve() runs without the GIL */
    Store st;
    Node *nodes;
    int64_t nnodes, capnodes;
    Slot *table;
    uint64_t tmask;
    int32_t *kids;
    uint8_t *kid_pts;
    int64_t nkids, capkids, capkidpts;
    Extra *extras;
    int64_t nextras, capextras;
    Open *opens;
    int64_t nopens, capopens;
    int32_t *arena;  /* open lists and open triples */
    int64_t narena, caparena;
    int64_t *ocache;  /* (open, which, phantom) -> result: 4 int64 per slot */
    uint64_t ocmask;
    int64_t nocache;
    int32_t *tstack;
    int64_t ntstack, captstack;
    int64_t counter, visited, loops, loop_members, plain, bans, aliases;
    int32_t root;
    int status;
    /* line superko (search.LineSuperkoSolver): the current line's stones by depth and a hash set of them */
    int line_superko;
    int32_t enter_low;  /* set by enter: the least depth of a position on the line an option would repeat */
    uint64_t *lb, *lw;
    int64_t nline, caplb, caplw;
    int32_t *lslots;    /* open addressing: a depth on the line, -1 empty */
    uint64_t lmask;
} Search;

/* ------------------------------------------------------------------ nodes */
static uint64_t key_hash(uint64_t b, uint64_t w, uint8_t ban) {
    return mix64(b * 0x9e3779b97f4a7c15ULL ^ mix64(w + 0x632be59bd9b4e019ULL) ^ ((uint64_t)ban << 7));
}


static void table_rehash(Search *s) {
    uint64_t nm = s->tmask * 2 + 1;
    Slot *t = huge_pages(malloc((nm + 1) * sizeof(Slot)), (nm + 1) * sizeof(Slot));
    if (!t) { solver_error = ERR_MEMORY; return; }
    for (uint64_t i = 0; i <= nm; i++) t[i].id = -1;
    for (uint64_t i = 0; i <= s->tmask; i++) {
        Slot *o = &s->table[i];
        if (o->id < 0) continue;
        uint64_t p = key_hash(o->b, o->w, o->ban) & nm;
        while (t[p].id >= 0) p = (p + 1) & nm;
        t[p] = *o;
    }
    free(s->table);
    s->table = t;
    s->tmask = nm;
}

static int32_t node_find(Search *s, uint64_t b, uint64_t w, uint8_t ban) {
    uint64_t p = key_hash(b, w, ban) & s->tmask;
    while (s->table[p].id >= 0) {
        Slot *o = &s->table[p];
        if (o->b == b && o->w == w && o->ban == ban) return o->id;
        p = (p + 1) & s->tmask;
    }
    return -1;
}

static int32_t node_add_hashed(Search *s, uint64_t b, uint64_t w, uint8_t ban, uint64_t h) {
    uint64_t p = h & s->tmask;
    while (s->table[p].id >= 0) {
        Slot *o = &s->table[p];
        if (o->b == b && o->w == w && o->ban == ban) return o->id;
        p = (p + 1) & s->tmask;
    }
    if (s->nnodes >= INT32_MAX - 1) { solver_error = ERR_MEMORY; return -1; }
    s->nodes = grow(s->nodes, &s->capnodes, s->nnodes + 1, sizeof(Node));
    if (solver_error) return -1;
    int32_t id = (int32_t)s->nnodes++;
    Node *n = &s->nodes[id];
    memset(n, 0, sizeof *n);
    n->b = b; n->w = w; n->ban = ban;
    n->r[0] = n->r[1] = n->r[2] = NONE_REC;
    n->extra = -1;
    n->child_off = -1;
    Slot slot = {b, w, id, ban};
    s->table[p] = slot;
    if ((uint64_t)s->nnodes * 2 > s->tmask) table_rehash(s);
    return id;
}

static int32_t node_add(Search *s, uint64_t b, uint64_t w, uint8_t ban) { return node_add_hashed(s, b, w, ban, key_hash(b, w, ban)); }

static Extra *node_extra(Search *s, int32_t id) {
    if (s->nodes[id].extra >= 0) return &s->extras[s->nodes[id].extra];
    s->extras = grow(s->extras, &s->capextras, s->nextras + 1, sizeof(Extra));
    if (solver_error) return NULL;
    Extra *e = &s->extras[s->nextras];
    memset(e, 0, sizeof *e);
    e->cautious = NONE_REC;
    e->open = -1;
    s->nodes[id].extra = (int32_t)s->nextras++;
    return e;
}

static inline int32_t bound_rec(Search *s, int32_t id, int which) {  /* which 1: lowest count, 2: highest */
    return store_number(&s->st, q_int(which == 1 ? s->nodes[id].lo : s->nodes[id].hi));
}

static inline int is_plain(const Node *n) {
    return !(n->flags & F_OPEN) && n->r[0] >= 0 && n->r[0] == n->r[1] && n->r[1] == n->r[2];
}

/* ------------------------------------------------------------------ valuing (search.Solver) */
/* Solver._at_rest: a cold but unsettled position counts as it stands, within its options' stops. */
static int32_t at_rest(Search *s, int32_t rec, const int32_t *L, int nl, const int32_t *R, int nr, int has_lists, int stands) {
    if (rec < 0) return rec;
    Rec *g = &s->st.recs[rec];
    if (!g->is_number) return rec;
    Q x = g->number, st = q_int(stands);
    if (q_eq(x, st)) return rec;
    if (has_lists) {
        Q ls0 = Q_NEG_INF, rs0 = Q_INF;
        for (int i = 0; i < nl; i++) if (L[i] >= 0) ls0 = q_max(ls0, s->st.recs[L[i]].rs);
        for (int i = 0; i < nr; i++) if (R[i] >= 0) rs0 = q_min(rs0, s->st.recs[R[i]].ls);
        return store_number(&s->st, q_min(q_max(st, ls0), rs0));
    }
    return (q_cmp(g->ls, st) <= 0 && q_cmp(st, g->rs) <= 0) ? store_number(&s->st, st) : rec;
}

static int32_t close_open(Search *s, int32_t op_index, int which, int32_t phantom);

static int32_t *open_list(Search *s, const Open *op, int which) { return s->arena + op->lists_off + (int64_t)which * (op->nl + op->nr); }

/* _fill: an open position's option lists with the phantom in the banned slot (OMIT for None). */
static void open_fill(Search *s, const Open *op, int which, int32_t phantom, Lists *out, int slot) {
    int32_t *src = open_list(s, op, which);
    out->nl = op->nl; out->nr = op->nr;
    memcpy(out->L[slot], src, (size_t)op->nl * sizeof(int32_t));
    memcpy(out->R[slot], src + op->nl, (size_t)op->nr * sizeof(int32_t));
    int32_t v = phantom == NONE_REC ? OMIT_REC : phantom;
    if (op->banned_side == 0) out->L[slot][op->banned_index] = v; else out->R[slot][op->banned_index] = v;
}

/* Copy only the entries in use (a Lists is 1.5 kB; most hold a handful of options). */
static void lists_copy(Lists *dst, const Lists *src) {
    dst->nl = src->nl; dst->nr = src->nr;
    for (int w = 0; w < 3; w++) {
        memcpy(dst->L[w], src->L[w], (size_t)src->nl * sizeof(int32_t));
        memcpy(dst->R[w], src->R[w], (size_t)src->nr * sizeof(int32_t));
    }
}

/* Whether two of a Lists' slots hold the same options (then they make the same record). */
static int same_slots(const Lists *l, int a, int b) {
    return memcmp(l->L[a], l->L[b], (size_t)l->nl * sizeof(int32_t)) == 0 &&
           memcmp(l->R[a], l->R[b], (size_t)l->nr * sizeof(int32_t)) == 0;
}

static int32_t rec_of_lists(Search *s, const Lists *l, int slot) {
    return store_record(&s->st, l->L[slot], l->nl, l->R[slot], l->nr);
}

/* essential_options: greedily drop options of `side` that change neither extreme's record. Returns how
   many are left (their indices in keep[]); -1 when a combination is unknown. */
static int essential_options(Search *s, const Lists *lo, int lo_slot, const Lists *hi, int hi_slot, int side, int keep_index, int *keep) {
    int n = side == 0 ? lo->nl : lo->nr, k = n;
    for (int i = 0; i < n; i++) keep[i] = i;
    int32_t base[2] = {rec_of_lists(s, lo, lo_slot), rec_of_lists(s, hi, hi_slot)};
    const Lists *ls[2] = {lo, hi};
    int slots[2] = {lo_slot, hi_slot};
    for (int jj = 0; jj < n; jj++) {
        int j = jj;
        if (j == keep_index) continue;
        int trial[64], tn = 0;
        for (int x = 0; x < k; x++) if (keep[x] != j) trial[tn++] = keep[x];
        if (tn == k) continue;
        int ok = 1;
        for (int e = 0; e < 2 && ok; e++) {
            const Lists *l = ls[e];
            int32_t cut[64];
            for (int x = 0; x < tn; x++) cut[x] = side == 0 ? l->L[slots[e]][trial[x]] : l->R[slots[e]][trial[x]];
            const int32_t *cl = side == 0 ? cut : l->L[slots[e]], *cr = side == 1 ? cut : l->R[slots[e]];
            int ncl = side == 0 ? tn : l->nl, ncr = side == 1 ? tn : l->nr;
            if (ncl == 0 && ncr == 0) { ok = 0; break; }
            int32_t got = store_record(&s->st, cl, ncl, cr, ncr);
            if (got != base[e]) ok = 0;
        }
        if (ok) { memcpy(keep, trial, (size_t)tn * sizeof(int)); k = tn; }
    }
    return k;
}

/* Solver._strict_chain: the ko chain when the ko is a simple ko with one exit per side. */
static int strict_chain(Search *s, int32_t key, Lists *lists, int side, int k, const Open *op, Ko *out) {
    for (int which = 1; which <= 2; which++) {
        for (int i = 0; i < lists->nl; i++) if (lists->L[which][i] == OMIT_REC) return 0;
        for (int i = 0; i < lists->nr; i++) if (lists->R[which][i] == OMIT_REC) return 0;
    }
    int other = 1 - side;
    int32_t ph_lo = bound_rec(s, key, 1), ph_hi = bound_rec(s, key, 2);
    Lists x;
    open_fill(s, op, 1, ph_lo, &x, 0);
    open_fill(s, op, 2, ph_hi, &x, 1);
    int keep[64], nk;
    nk = essential_options(s, &x, 0, &x, 1, other, op->banned_index, keep);
    if (nk != 1 || keep[0] != op->banned_index) return 0;
    nk = essential_options(s, &x, 0, &x, 1, side, -1, keep);
    if (nk != 1) return 0;
    int32_t e_lo = side == 0 ? x.L[0][keep[0]] : x.R[0][keep[0]], e_hi = side == 0 ? x.L[1][keep[0]] : x.R[1][keep[0]];
    if (e_lo != e_hi) return 0;
    int32_t exit_taker = e_lo;
    Lists a;
    a.nl = lists->nl; a.nr = lists->nr;
    memcpy(a.L[0], lists->L[1], sizeof(int32_t) * (size_t)a.nl);
    memcpy(a.R[0], lists->R[1], sizeof(int32_t) * (size_t)a.nr);
    memcpy(a.L[1], lists->L[2], sizeof(int32_t) * (size_t)a.nl);
    memcpy(a.R[1], lists->R[2], sizeof(int32_t) * (size_t)a.nr);
    int32_t r_lo = rec_of_lists(s, &x, 0), r_hi = rec_of_lists(s, &x, 1);
    if (side == 0) { a.L[0][k] = r_lo; a.L[1][k] = r_hi; } else { a.R[0][k] = r_lo; a.R[1][k] = r_hi; }
    for (int e = 0; e < 2; e++) {
        for (int i = 0; i < a.nl; i++) if (a.L[e][i] < 0) return 0;
        for (int i = 0; i < a.nr; i++) if (a.R[e][i] < 0) return 0;
    }
    nk = essential_options(s, &a, 0, &a, 1, side, k, keep);
    if (nk != 1 || keep[0] != k) return 0;
    nk = essential_options(s, &a, 0, &a, 1, other, -1, keep);
    if (nk != 1) return 0;
    int32_t o_lo = other == 0 ? a.L[0][keep[0]] : a.R[0][keep[0]], o_hi = other == 0 ? a.L[1][keep[0]] : a.R[1][keep[0]];
    if (o_lo != o_hi) return 0;
    int32_t l_id = side == 0 ? exit_taker : o_lo, r_id = side == 0 ? o_lo : exit_taker;
    Rec *l = &s->st.recs[l_id], *r = &s->st.recs[r_id];
    if (!l->has_mean || !r->has_mean) return 0;
    Q lm = l->mean, rm = r->mean;
    if (q_inf(lm) || q_inf(rm) || q_cmp(lm, rm) < 0) return 0;  /* simple_ko raises UnsupportedKo */
    Ko ko = {lm, rm, side == 0 ? 2 : 1, side == 0 ? 1 : 2, side == 0 ? 1 : -1};
    Q t = q_div_int(q_sub(lm, rm), 3);
    if ((!l->is_number && q_cmp(l->temperature, t) > 0) || (!r->is_number && q_cmp(r->temperature, t) > 0)) return 0;
    *out = ko;
    return 1;
}

static inline Q ko_mean(const Ko *k) { return q_sub(k->black_exit, q_mul_int(q_div_int(q_sub(k->black_exit, k->white_exit), 3), k->bm)); }
static inline Q ko_temperature(const Ko *k) { return q_div_int(q_sub(k->black_exit, k->white_exit), 3); }

/* Whether lo and hi agree as values, each at rest against its own option lists (Solver._close). */
static int same_at_rest(Search *s, int32_t lo, const Lists *ll, int lslot, int32_t hi, const Lists *hl, int hslot, int stands) {
    int32_t a = at_rest(s, lo, ll->L[lslot], ll->nl, ll->R[lslot], ll->nr, 1, stands);
    int32_t b = at_rest(s, hi, hl->L[hslot], hl->nl, hl->R[hslot], hl->nr, 1, stands);
    return a >= 0 && b >= 0 && a == b;
}

static inline Q q_mul(Q a, Q b) { return q_make((__int128)a.n * b.n, (__int128)a.d * b.d); }
static inline Q q_div(Q a, Q b) { return q_make((__int128)a.n * b.d, (__int128)a.d * b.n); }

#define PHANTOM_MAX_DEN ((int64_t)1 << 16)  /* a phantom's denominator, and its numerator's size, kept small */
#define PHANTOM_STEPS 16                    /* iterations looking for the fixed point */

/* The count of `key` at rest with every ko it takes valued against a phantom worth phi (the option lists in
   g's slot 0): 1 and *mean, or 0 where a record is unknown or the count infinite (Solver._taker_fixed_point). */

static int mean_with_phantom(Search *s, int32_t key, const Lists *lists, const int32_t *opens, int nopens, Q phi,
                             Lists *g, Q *mean) {
    if (q_inf(phi) || phi.d > PHANTOM_MAX_DEN || phi.n > (PHANTOM_MAX_DEN << 8) || phi.n < -(PHANTOM_MAX_DEN << 8))
        return 0;  /* the walls' arithmetic stays far from overflow */
    int32_t phantom = store_number(&s->st, phi);
    if (phantom < 0 || solver_error) return 0;
    lists_copy(g, lists);
    for (int o = 0; o < nopens; o++) {
        int32_t v = close_open(s, opens[3 * o + 2], 0, phantom);
        if (v < 0 || solver_error) return 0;
        if (opens[3 * o] == 0) g->L[0][opens[3 * o + 1]] = v; else g->R[0][opens[3 * o + 1]] = v;
    }
    int32_t rec = at_rest(s, rec_of_lists(s, g, 0), g->L[0], g->nl, g->R[0], g->nr, 1, s->nodes[key].stands);
    if (rec < 0 || solver_error) return 0;
    const Rec *r = &s->st.recs[rec];
    if (!r->has_mean || q_inf(r->mean)) return 0;
    *mean = r->mean;
    return 1;
}

/* _fixed_point: the fixed point phi = mean(phi in the banned slots) reached from the count bound above
   (from_above) or below, by iteration with secant steps. 1 with *phi and g's slot 0 at it, or 0. */
static int fixed_point_from(Search *s, int32_t key, const Lists *lists, const int32_t *opens, int nopens,
                            int from_above, Q *phi, Lists *g) {
    int32_t bound = bound_rec(s, key, from_above ? 2 : 1);
    if (bound < 0 || !s->st.recs[bound].is_number) return 0;
    Q x0 = s->st.recs[bound].number, y0, x1, y1, c, yc, mid, ym;
    if (q_inf(x0) || !mean_with_phantom(s, key, lists, opens, nopens, x0, g, &y0)) return 0;
    if (q_eq(y0, x0)) { *phi = x0; return 1; }
    x1 = y0;
    for (int step = 0; step < PHANTOM_STEPS && !solver_error; step++) {
        if (!mean_with_phantom(s, key, lists, opens, nopens, x1, g, &y1)) return 0;
        if (q_eq(y1, x1)) { *phi = x1; return 1; }
        Q dx = q_sub(x1, x0), dy = q_sub(y1, y0);
        if (!q_eq(dx, Q_ZERO) && !q_eq(dx, dy)) {
            Q slope = q_div(dy, dx);
            c = q_div(q_sub(y1, q_mul(slope, x1)), q_sub(q_int(1), slope));
            if ((q_cmp(c, x1) <= 0) == from_above && mean_with_phantom(s, key, lists, opens, nopens, c, g, &yc) &&
                q_eq(yc, c)) {
                mid = q_div_int(q_add(c, x1), 2);
                if (mean_with_phantom(s, key, lists, opens, nopens, mid, g, &ym) &&
                    q_eq(ym, q_add(y1, q_mul(slope, q_sub(mid, x1)))) &&
                    mean_with_phantom(s, key, lists, opens, nopens, c, g, &yc)) {
                    *phi = c;
                    return 1;
                }
            }
        }
        x0 = x1; y0 = y1; x1 = y1;
    }
    return 0;
}

/* Solver._taker_fixed_point: the kos taken from this position valued by the phantom rule beyond the textbook
   shape: where one side takes, the fixed point at the taker's end (the greatest for Black, the least for
   White); where both do, the fixed point when it is unique. 1 with *phi and g's slot 0 at it, or 0. */
static int taker_fixed_point(Search *s, int32_t key, const Lists *lists, const int32_t *opens, int nopens, Q *phi,
                             Lists *g) {
    int one_side = 1;
    for (int o = 1; o < nopens; o++) if (opens[3 * o] != opens[0]) one_side = 0;
    if (one_side) return fixed_point_from(s, key, lists, opens, nopens, opens[0] == 0, phi, g);
    Q low;  /* the search from above runs last, so g is left at its fixed point */
    return fixed_point_from(s, key, lists, opens, nopens, 0, &low, g) &&
           fixed_point_from(s, key, lists, opens, nopens, 1, phi, g) && q_eq(low, *phi);
}

/* Solver._close: (rec, lo, hi) of a position, valuing the kos its options take (opens: (side, j, open
   index)), and in `used` the option lists each record was made from, kos closed (for at_rest). */
static void close_kos(Search *s, int32_t key, Lists *lists, const int32_t *opens, int nopens, int32_t out[3], Lists *used) {
    int stands = s->nodes[key].stands;
    if (nopens == 0) {
        lists_copy(used, lists);
        int32_t hi = rec_of_lists(s, lists, 2);
        int same12 = same_slots(lists, 1, 2);
        int32_t lo = same12 ? hi : rec_of_lists(s, lists, 1);
        int32_t rec = same_slots(lists, 0, 2) ? hi : same_slots(lists, 0, 1) ? lo : rec_of_lists(s, lists, 0);
        if ((lo < 0 && hi < 0) || (lo >= 0 && hi >= 0 && (same12 || same_at_rest(s, lo, lists, 1, hi, lists, 2, stands)))) {
            out[0] = rec >= 0 ? rec : hi; out[1] = out[2] = hi;
            if (rec < 0) {  /* the record at rest against the lists it came from */
                memcpy(used->L[0], lists->L[2], (size_t)lists->nl * sizeof(int32_t));
                memcpy(used->R[0], lists->R[2], (size_t)lists->nr * sizeof(int32_t));
            }
            memcpy(used->L[1], lists->L[2], (size_t)lists->nl * sizeof(int32_t));
            memcpy(used->R[1], lists->R[2], (size_t)lists->nr * sizeof(int32_t));
            return;
        }
        out[0] = rec; out[1] = lo; out[2] = hi;
        return;
    }
    int32_t ph[3] = {NONE_REC, bound_rec(s, key, 1), bound_rec(s, key, 2)};
    Lists f;
    lists_copy(&f, lists);
    for (int which = 1; which <= 2; which++)
        for (int o = 0; o < nopens; o++) {
            int side = opens[3 * o], j = opens[3 * o + 1];
            int32_t v = close_open(s, opens[3 * o + 2], which, ph[which]);
            if (side == 0) f.L[which][j] = v; else f.R[which][j] = v;
        }
    int32_t hi = rec_of_lists(s, &f, 2), lo = same_slots(&f, 1, 2) ? hi : rec_of_lists(s, &f, 1);
    used->nl = f.nl; used->nr = f.nr;
    if (lo >= 0 && hi >= 0 && same_at_rest(s, lo, &f, 1, hi, &f, 2, stands)) {
        out[0] = out[1] = out[2] = hi;
        for (int w = 0; w < 3; w++) {
            memcpy(used->L[w], f.L[2], (size_t)f.nl * sizeof(int32_t));
            memcpy(used->R[w], f.R[2], (size_t)f.nr * sizeof(int32_t));
        }
        return;
    }
    if (nopens == 1 && s->opens[opens[2]].nopens == 0) {
        Ko ko;
        if (strict_chain(s, key, lists, opens[0], opens[1], &s->opens[opens[2]], &ko)) {
            Q m = ko_mean(&ko);
            int32_t phantom = store_number(&s->st, m);
            Lists g;
            lists_copy(&g, lists);
            int32_t v = close_open(s, opens[2], 0, phantom);
            if (opens[0] == 0) g.L[0][opens[1]] = v; else g.R[0][opens[1]] = v;
            int32_t rec = rec_of_lists(s, &g, 0);
            if (rec >= 0 && s->st.recs[rec].has_mean && q_eq(s->st.recs[rec].mean, m) &&
                q_eq(s->st.recs[rec].temperature, ko_temperature(&ko))) {
                Extra *e = node_extra(s, key);
                if (!e) return;
                e->has_ko = 1; e->ko = ko; e->has_phantom = 1; e->phantom = m;
                out[0] = out[1] = out[2] = rec;
                for (int w = 0; w < 3; w++) {
                    memcpy(used->L[w], g.L[0], (size_t)g.nl * sizeof(int32_t));
                    memcpy(used->R[w], g.R[0], (size_t)g.nr * sizeof(int32_t));
                }
                return;
            }
        }
    }
    {
        Q phi;
        Lists g;
        if (taker_fixed_point(s, key, lists, opens, nopens, &phi, &g)) {
            Extra *e = node_extra(s, key);
            if (!e) return;
            e->has_phantom = 1; e->phantom = phi;
            s->nodes[key].flags |= F_FIXED_KO;
            out[0] = rec_of_lists(s, &g, 0); out[1] = lo; out[2] = hi;  /* the brackets say whether it matters */
            memcpy(used->L[0], g.L[0], (size_t)g.nl * sizeof(int32_t));
            memcpy(used->R[0], g.R[0], (size_t)g.nr * sizeof(int32_t));
            for (int w = 1; w < 3; w++) {
                memcpy(used->L[w], f.L[w], (size_t)f.nl * sizeof(int32_t));
                memcpy(used->R[w], f.R[w], (size_t)f.nr * sizeof(int32_t));
            }
            return;
        }
        if (solver_error) return;
    }
    Lists g;
    lists_copy(&g, lists);
    for (int o = 0; o < nopens; o++) {
        int32_t v = close_open(s, opens[3 * o + 2], 0, NONE_REC);
        if (opens[3 * o] == 0) g.L[0][opens[3 * o + 1]] = v; else g.R[0][opens[3 * o + 1]] = v;
    }
    out[0] = rec_of_lists(s, &g, 0); out[1] = lo; out[2] = hi;
    if (!(out[0] >= 0 && lo >= 0 && hi >= 0 && s->st.recs[out[0]].kind == K_UNBOUNDED &&
          s->st.recs[lo].kind == K_UNBOUNDED && s->st.recs[hi].kind == K_UNBOUNDED))
        s->nodes[key].flags |= F_GENERALISED;  /* (an unanswered threat whatever the ko: not what decides) */
    memcpy(used->L[0], g.L[0], (size_t)g.nl * sizeof(int32_t));
    memcpy(used->R[0], g.R[0], (size_t)g.nr * sizeof(int32_t));
    for (int w = 1; w < 3; w++) {
        memcpy(used->L[w], f.L[w], (size_t)f.nl * sizeof(int32_t));
        memcpy(used->R[w], f.R[w], (size_t)f.nr * sizeof(int32_t));
    }
}

static void ocache_rehash(Search *s) {
    uint64_t nm = s->ocmask * 2 + 1;
    int64_t *t = malloc((nm + 1) * 4 * sizeof(int64_t));
    if (!t) { solver_error = ERR_MEMORY; return; }
    for (uint64_t i = 0; i <= nm; i++) t[4 * i] = -1;
    for (uint64_t i = 0; i <= s->ocmask; i++) {
        if (s->ocache[4 * i] < 0) continue;
        uint64_t p = mix64((uint64_t)s->ocache[4 * i] * 1000003ULL + (uint64_t)s->ocache[4 * i + 1] * 7 + (uint64_t)(s->ocache[4 * i + 2] + 3)) & nm;
        while (t[4 * p] >= 0) p = (p + 1) & nm;
        memcpy(t + 4 * p, s->ocache + 4 * i, 4 * sizeof(int64_t));
    }
    free(s->ocache);
    s->ocache = t;
    s->ocmask = nm;
}

/* Solver.close_open: the record of an open position whose banned retake is worth `phantom`. */
static int32_t close_open(Search *s, int32_t op_index, int which, int32_t phantom) {
    uint64_t p = mix64((uint64_t)op_index * 1000003ULL + (uint64_t)which * 7 + (uint64_t)(phantom + 3)) & s->ocmask;
    while (s->ocache[4 * p] >= 0) {
        int64_t *e = s->ocache + 4 * p;
        if (e[0] == op_index && e[1] == which && e[2] == phantom) return (int32_t)e[3];
        p = (p + 1) & s->ocmask;
    }
    Open op = s->opens[op_index];
    int32_t out;
    Lists l;
    if (op.nopens == 0) {
        open_fill(s, &op, which, phantom, &l, 0);
        out = at_rest(s, rec_of_lists(s, &l, 0), l.L[0], l.nl, l.R[0], l.nr, 1, op.stands);
    } else {
        for (int w = 0; w < 3; w++) open_fill(s, &op, w, phantom, &l, w);
        int32_t tr[3];
        Lists used;
        close_kos(s, op.key, &l, s->arena + op.opens_off, op.nopens, tr, &used);
        out = at_rest(s, tr[which], used.L[which], used.nl, used.R[which], used.nr, 1, op.stands);
    }
    if (solver_error) return NONE_REC;
    /* the table may have grown during the recursion: probe again */
    p = mix64((uint64_t)op_index * 1000003ULL + (uint64_t)which * 7 + (uint64_t)(phantom + 3)) & s->ocmask;
    while (s->ocache[4 * p] >= 0) p = (p + 1) & s->ocmask;
    s->ocache[4 * p] = op_index; s->ocache[4 * p + 1] = which; s->ocache[4 * p + 2] = phantom; s->ocache[4 * p + 3] = out;
    if ((uint64_t)++s->nocache * 2 > s->ocmask) ocache_rehash(s);
    return out;
}

static int32_t *node_kids(Search *s, const Node *n) { return s->kids + n->child_off; }
static inline int node_nkids(const Node *n) { return (n->flags & F_ALIAS) ? 1 : n->nl + n->nr; }

/* Solver._acyclic: the value of a position whose options are all valued. */
static void value_acyclic(Search *s, int32_t key) {
    Node *n = &s->nodes[key];
    if (n->flags & F_ALIAS) {  /* the canonical position's value, kos and all */
        Node *t = &s->nodes[node_kids(s, n)[0]];
        if (t->flags & F_OPEN) {
            int32_t open = s->extras[t->extra].open;
            Extra *e = node_extra(s, key);
            if (!e) return;
            e->open = open;
            s->nodes[key].flags |= F_OPEN;
        } else {
            for (int w = 0; w < 3; w++) n->r[w] = t->r[w];
        }
        return;
    }
    int nk = n->nl + n->nr;
    int32_t *kids = node_kids(s, n);
    int plain = 1;
    for (int c = 0; c < nk && plain; c++) if (kids[c] < 0 || !is_plain(&s->nodes[kids[c]])) plain = 0;
    if (plain) {
        int32_t L[64], R[64];
        for (int c = 0; c < n->nl; c++) L[c] = s->nodes[kids[c]].r[0];
        for (int c = 0; c < n->nr; c++) R[c] = s->nodes[kids[n->nl + c]].r[0];
        int32_t rec = at_rest(s, store_record(&s->st, L, n->nl, R, n->nr), L, n->nl, R, n->nr, 1, n->stands);
        n->r[0] = n->r[1] = n->r[2] = rec;
        s->plain++;
        return;
    }
    Lists lists;
    lists.nl = n->nl; lists.nr = n->nr;
    int32_t opens[3 * 64];
    int nopens = 0, banned_side = -1, banned_index = -1;
    for (int c = 0; c < nk; c++) {
        int side = c < n->nl ? 0 : 1, j = side == 0 ? c : c - n->nl;
        int32_t *slot[3] = {side == 0 ? &lists.L[0][j] : &lists.R[0][j], side == 0 ? &lists.L[1][j] : &lists.R[1][j],
                            side == 0 ? &lists.L[2][j] : &lists.R[2][j]};
        int32_t child = kids[c];
        if (child < 0) {
            banned_side = side; banned_index = j;
            for (int w = 0; w < 3; w++) *slot[w] = NONE_REC;
            continue;
        }
        Node *cn = &s->nodes[child];
        if (cn->flags & F_OPEN) {
            opens[3 * nopens] = side; opens[3 * nopens + 1] = j; opens[3 * nopens + 2] = s->extras[cn->extra].open;
            nopens++;
            for (int w = 0; w < 3; w++) *slot[w] = NONE_REC;
            continue;
        }
        for (int w = 0; w < 3; w++) *slot[w] = cn->r[w];
        if (cn->r[0] == NONE_REC) {
            *slot[0] = cn->r[1 + side];
            s->nodes[key].flags |= F_LOOP_VALUED;
        }
    }
    n = &s->nodes[key];
    if (banned_side >= 0) {
        s->opens = grow(s->opens, &s->capopens, s->nopens + 1, sizeof(Open));
        s->arena = grow(s->arena, &s->caparena, s->narena + 3 * nk + 3 * nopens, sizeof(int32_t));
        Extra *e = node_extra(s, key);
        if (solver_error || !e) return;
        Open *op = &s->opens[s->nopens];
        op->key = key; op->banned_side = (int8_t)banned_side; op->banned_index = (int16_t)banned_index;
        op->nl = (int16_t)lists.nl; op->nr = (int16_t)lists.nr; op->nopens = (int16_t)nopens; op->stands = n->stands;
        op->lists_off = s->narena;
        for (int w = 0; w < 3; w++) {
            memcpy(s->arena + s->narena, lists.L[w], (size_t)lists.nl * sizeof(int32_t));
            memcpy(s->arena + s->narena + lists.nl, lists.R[w], (size_t)lists.nr * sizeof(int32_t));
            s->narena += nk;
        }
        op->opens_off = s->narena;
        memcpy(s->arena + s->narena, opens, (size_t)(3 * nopens) * sizeof(int32_t));
        s->narena += 3 * nopens;
        e->open = (int32_t)s->nopens++;
        s->nodes[key].flags |= F_OPEN;
        return;
    }
    int32_t closed[3];
    Lists used;
    close_kos(s, key, &lists, opens, nopens, closed, &used);
    n = &s->nodes[key];
    int32_t res[3];
    for (int w = 0; w < 3; w++) res[w] = at_rest(s, closed[w], used.L[w], used.nl, used.R[w], used.nr, 1, n->stands);
    if (res[1] >= 0 && res[1] == res[2]) res[0] = res[2];
    for (int w = 0; w < 3; w++) n->r[w] = res[w];
}

/* Solver._loop_option for an option outside the loop: its record while valuing the loop from its lowest
   (which 1) or highest (2) counts (a banned retake: the phantom at this position's bound). */
static int32_t loop_option(Search *s, int32_t key, int32_t child, int which) {
    if (child < 0) return bound_rec(s, key, which);
    Node *cn = &s->nodes[child];
    if (cn->flags & F_OPEN) return close_open(s, s->extras[cn->extra].open, which, bound_rec(s, key, which));
    return cn->r[which];
}

/* Solver._solve_loop: least and greatest fixed points; where they differ the value stays open (None) and
   the cautious value (nobody wins the repetition) is kept. Each member's options are read once: a member
   of the loop (by its place in it, F_MEMBER marks them meanwhile) or a record that stays fixed while the
   loop is valued (one for each run). An alias is never a member (its canonical position cannot reach it). */
static void solve_loop(Search *s, const int32_t *scc, int64_t m) {
    memo_clear(&s->st.scratch);
    s->st.scratch_on = 1;
    int64_t total = 0;
    for (int64_t i = 0; i < m; i++) {
        s->nodes[scc[i]].low = (int32_t)i;
        s->nodes[scc[i]].flags |= F_MEMBER;
        total += node_nkids(&s->nodes[scc[i]]);
    }
    int32_t *est[3] = {NULL, malloc((size_t)m * sizeof(int32_t)), malloc((size_t)m * sizeof(int32_t))};
    int64_t *off = malloc((size_t)(m + 1) * sizeof(int64_t)), *computed = malloc((size_t)m * sizeof(int64_t));
    int64_t *changed_at = malloc((size_t)m * sizeof(int64_t));
    int32_t *pos = malloc((size_t)(total + 1) * sizeof(int32_t)), *fixed[3] = {NULL, malloc((size_t)(total + 1) * sizeof(int32_t)),
                                                                               malloc((size_t)(total + 1) * sizeof(int32_t))};
    int16_t *stands = malloc((size_t)m * sizeof(int16_t));
    uint8_t *nl = malloc((size_t)m), *nr = malloc((size_t)m);
    if (!est[1] || !est[2] || !off || !computed || !changed_at || !pos || !fixed[1] || !fixed[2] || !stands || !nl || !nr) {
        solver_error = ERR_MEMORY;
        goto done;
    }
    int64_t t = 0;
    for (int64_t i = 0; i < m; i++) {
        int32_t k = scc[i];
        if (s->nodes[k].flags & F_ALIAS) { solver_error = ERR_INTERNAL; goto done; }
        off[i] = t;
        nl[i] = s->nodes[k].nl; nr[i] = s->nodes[k].nr; stands[i] = s->nodes[k].stands;
        for (int c = 0; c < nl[i] + nr[i]; c++) {
            int32_t child = s->kids[s->nodes[k].child_off + c];
            if (child >= 0 && (s->nodes[child].flags & F_MEMBER)) {
                pos[t] = s->nodes[child].low;
                fixed[1][t] = fixed[2][t] = NONE_REC;
            } else {
                pos[t] = -1;
                fixed[1][t] = loop_option(s, k, child, 1);
                fixed[2][t] = loop_option(s, k, child, 2);
                if (solver_error) goto done;
            }
            t++;
        }
    }
    off[m] = t;
    /* Gauss-Seidel passes as in Python; a member none of whose loop options changed since it was last
       valued would get the same record again, so it is skipped (same passes, same results) */
    for (int which = 1; which <= 2; which++) {
        int64_t step = 0;
        for (int64_t i = 0; i < m; i++) { est[which][i] = bound_rec(s, scc[i], which); computed[i] = -1; changed_at[i] = 0; }
        for (int pass = 0; pass < s->loop_passes; pass++) {
            int changed = 0;
            for (int64_t i = 0; i < m; i++) {
                if (computed[i] >= 0) {
                    int need = 0;
                    for (int64_t o = off[i]; o < off[i + 1] && !need; o++)
                        if (pos[o] >= 0 && changed_at[pos[o]] > computed[i]) need = 1;
                    if (!need) continue;
                }
                computed[i] = ++step;
                int32_t L[64], R[64];
                for (int c = 0; c < nl[i]; c++) { int64_t o = off[i] + c; L[c] = pos[o] >= 0 ? est[which][pos[o]] : fixed[which][o]; }
                for (int c = 0; c < nr[i]; c++) { int64_t o = off[i] + nl[i] + c; R[c] = pos[o] >= 0 ? est[which][pos[o]] : fixed[which][o]; }
                int32_t nw = at_rest(s, store_record(&s->st, L, nl[i], R, nr[i]), L, nl[i], R, nr[i], 1, stands[i]);
                if (solver_error) goto done;
                if (nw == NONE_REC) nw = est[which][i];
                if (nw != est[which][i]) { est[which][i] = nw; changed_at[i] = ++step; changed = 1; }
            }
            if (!changed) break;
        }
    }
    for (int64_t i = 0; i < m; i++) {
        int32_t k = scc[i];
        int32_t lo = est[1][i], hi = est[2][i];
        if (lo == hi) { s->nodes[k].r[0] = s->nodes[k].r[1] = s->nodes[k].r[2] = lo; continue; }
        /* cautious: Black's options at their lowest fixed point, White's at their highest */
        int32_t L[64], R[64];
        for (int c = 0; c < nl[i]; c++) { int64_t o = off[i] + c; L[c] = pos[o] >= 0 ? est[1][pos[o]] : fixed[1][o]; }
        for (int c = 0; c < nr[i]; c++) { int64_t o = off[i] + nl[i] + c; R[c] = pos[o] >= 0 ? est[2][pos[o]] : fixed[2][o]; }
        int32_t cautious = at_rest(s, store_record(&s->st, L, nl[i], R, nr[i]), L, nl[i], R, nr[i], 1, stands[i]);
        Extra *e = node_extra(s, k);
        if (!e) goto done;
        e->cautious = cautious;
        Node *n = &s->nodes[k];
        n->r[0] = NONE_REC; n->r[1] = lo; n->r[2] = hi;
        n->flags |= F_LOOP_VALUED;
    }
done:
    s->st.scratch_on = 0;
    for (int64_t i = 0; i < m; i++) s->nodes[scc[i]].flags &= (uint16_t)~F_MEMBER;
    free(est[1]); free(est[2]); free(off); free(computed); free(changed_at); free(pos); free(fixed[1]); free(fixed[2]);
    free(stands); free(nl); free(nr);
}

/* ------------------------------------------------------------------ the search */
static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ------------------------------------------------------------------ the line (line superko) */
/* The stones of the positions on the current line, by depth, and a hash set on them, so that whether a move
   repeats the line costs one probe (LineSuperkoSolver.path). Entries come and go last in, first out, so
   emptying the top's slot leaves the table as if the others alone had been inserted (no tombstones). */
static inline uint64_t line_hash(uint64_t b, uint64_t w) { return mix64(b * 0x9e3779b97f4a7c15ULL ^ mix64(w + 0x2545f4914f6cdd1dULL)); }

/* The depth of the position with these stones on the current line, or -1. */
static int32_t line_find(const Search *s, uint64_t b, uint64_t w) {
    if (!s->lslots) return -1;
    for (uint64_t p = line_hash(b, w) & s->lmask; s->lslots[p] >= 0; p = (p + 1) & s->lmask) {
        int32_t d = s->lslots[p];
        if (s->lb[d] == b && s->lw[d] == w) return d;
    }
    return -1;
}

static void line_insert(Search *s, int32_t depth) {
    uint64_t p = line_hash(s->lb[depth], s->lw[depth]) & s->lmask;
    while (s->lslots[p] >= 0) p = (p + 1) & s->lmask;
    s->lslots[p] = depth;
}

/* Put (b, w) at the end of the line (its depth: the line's length). 0, or -1 out of memory. */
static int line_push(Search *s, uint64_t b, uint64_t w) {
    if (s->nline >= INT32_MAX - 1) { solver_error = ERR_MEMORY; return -1; }
    s->lb = grow(s->lb, &s->caplb, s->nline + 1, sizeof(uint64_t));
    s->lw = grow(s->lw, &s->caplw, s->nline + 1, sizeof(uint64_t));
    if (solver_error) return -1;
    if (!s->lslots || (uint64_t)(s->nline + 1) * 2 > s->lmask) {  /* at most half full: rebuild twice as large */
        uint64_t nm = s->lslots ? s->lmask * 2 + 1 : 255;
        int32_t *t = malloc((nm + 1) * sizeof(int32_t));
        if (!t) { solver_error = ERR_MEMORY; return -1; }
        free(s->lslots);
        s->lslots = t;
        s->lmask = nm;
        for (uint64_t i = 0; i <= nm; i++) t[i] = -1;
        for (int32_t d = 0; d < s->nline; d++) line_insert(s, d);
    }
    s->lb[s->nline] = b; s->lw[s->nline] = w;
    line_insert(s, (int32_t)s->nline++);
    return 0;
}

/* Take the last position off the line. */
static void line_pop(Search *s) {
    int32_t d = (int32_t)--s->nline;
    uint64_t p = line_hash(s->lb[d], s->lw[d]) & s->lmask;
    while (s->lslots[p] != d) p = (p + 1) & s->lmask;
    s->lslots[p] = -1;
}

/* Enter a position: a settled one is valued at once (returns 0); otherwise its options are generated
   (new positions added to the table) and it goes on Tarjan's stack (returns 1). -1: stop (status set).
   Line superko: no Tarjan stack; an option whose stones are those of a position on the line is dropped
   (s->enter_low: the least depth of those, LINE_FREE for none), and a position entered again (on another
   line) writes its kept options over its earlier ones where they fit. */
static int enter(Search *s, int32_t id, double deadline) {
    Node *n = &s->nodes[id];
    Info info;
    rules_analyze(&s->reg, n->b, n->w, &info);
    n->flags |= F_VISITED;
    if (info.not_sealed) { s->status = ST_NOT_SEALED; return -1; }
    if (info.settled) {
        int32_t rec = store_number(&s->st, info.threat ? (info.threat > 0 ? Q_INF : Q_NEG_INF) : q_int(info.count));
        n->r[0] = n->r[1] = n->r[2] = rec;
        n->flags |= F_SETTLED | F_IN_TT;
        return 0;
    }
    n->lo = (int8_t)info.lo; n->hi = (int8_t)info.hi; n->stands = (int16_t)info.stands;
    uint64_t cb = n->b, cw = n->w;
    if (s->merge_settled) rules_canonical(&info, n->b, n->w, &cb, &cw);
    int alias = cb != n->b || cw != n->w;
    if (alias) s->aliases++; else s->visited++;
    if (s->visited + s->aliases > s->max_nodes) { s->status = ST_BUDGET; return -1; }  /* bounds the tables */
    if ((s->visited & 1023) == 0 && (s->stop_requested || (deadline > 0 && now_seconds() > deadline))) {
        s->status = ST_TIME;
        return -1;
    }
    n->idx = n->low = (int32_t)s->counter++;
    s->bans += n->ban != 0;
    s->enter_low = LINE_FREE;
    if (!s->line_superko) {
        n->flags |= F_ONSTACK;
        s->tstack = grow(s->tstack, &s->captstack, s->ntstack + 1, sizeof(int32_t));
        if (solver_error) return -1;
        s->tstack[s->ntstack++] = id;
    }
    uint64_t b = n->b, w = n->w;
    uint8_t ban = n->ban;
    if (alias) {  /* its one child: the canonical position */
        int32_t t = node_add(s, cb, cw, ban);
        s->kids = grow(s->kids, &s->capkids, s->nkids + 1, sizeof(int32_t));
        s->kid_pts = grow(s->kid_pts, &s->capkidpts, s->nkids + 1, sizeof(uint8_t));
        if (solver_error) return -1;
        n = &s->nodes[id];
        n->flags |= F_ALIAS;
        n->child_off = (int32_t)s->nkids;
        n->kcap = 1;
        n->nl = n->nr = 0;
        s->kids[s->nkids] = t;
        s->kid_pts[s->nkids++] = 0;
        return 1;
    }
    int32_t kids[128];
    uint8_t pts[128], bans[128], barred[128];
    uint64_t kb[128], kw[128], hashes[128];
    int counts[2] = {0, 0}, total = 0;
    for (int c = 0; c < 2; c++) {
        uint64_t rest = rules_candidates(&s->reg, b, w, c, &info, s->moves_all);
        while (rest) {
            int i = bit_index(rest);
            rest &= rest - 1;
            uint64_t nb_, nw_;
            uint8_t nban;
            if (!rules_play(&s->reg, b, w, c, i, &nb_, &nw_, &nban)) continue;
            if (!s->sacrifices && rules_pointless(&s->reg, b, w, c, i, nb_, nw_, &info)) continue;
            barred[total] = ban && (ban - 1) % 64 == i && ((ban - 1) / 64) == c;
            if (s->line_superko && !barred[total]) {  /* a repetition of the line: illegal */
                int32_t d = line_find(s, nb_, nw_);
                if (d >= 0) { if (d < s->enter_low) s->enter_low = d; continue; }
            }
            kb[total] = nb_; kw[total] = nw_; bans[total] = nban;
            hashes[total] = key_hash(nb_, nw_, nban);
            __builtin_prefetch(&s->table[hashes[total] & s->tmask]);
            pts[total++] = (uint8_t)i;
            counts[c]++;
        }
    }
    /* the lookups after every prefetch: their cache misses overlap */
    for (int k = 0; k < total; k++) {
        kids[k] = barred[k] ? -1 : node_add_hashed(s, kb[k], kw[k], bans[k], hashes[k]);
        if (solver_error) return -1;
    }
    n = &s->nodes[id];
    if (n->child_off < 0 || total > n->kcap) {  /* a first visit, or more options kept than it held */
        s->kids = grow(s->kids, &s->capkids, s->nkids + total, sizeof(int32_t));
        s->kid_pts = grow(s->kid_pts, &s->capkidpts, s->nkids + total, sizeof(uint8_t));
        if (solver_error) return -1;
        n = &s->nodes[id];
        n->child_off = (int32_t)s->nkids;
        n->kcap = (uint8_t)total;
        s->nkids += total;
    }
    n->nl = (uint8_t)counts[0]; n->nr = (uint8_t)counts[1];
    memcpy(s->kids + n->child_off, kids, (size_t)total * sizeof(int32_t));
    memcpy(s->kid_pts + n->child_off, pts, (size_t)total);
    if (s->nkids > INT32_MAX - 256) { solver_error = ERR_MEMORY; return -1; }
    return 1;
}

typedef struct { int32_t node, pos, low; int awaiting; } Frame;

static void finish(Search *s, int32_t id) {
    /* pop its strongly connected component and value it */
    int64_t start = s->ntstack;
    do { start--; } while (s->tstack[start] != id);
    int64_t m = s->ntstack - start;
    /* popped order: the top of the stack first */
    int32_t *scc = malloc((size_t)m * sizeof(int32_t));
    if (!scc) { solver_error = ERR_MEMORY; return; }
    for (int64_t i = 0; i < m; i++) scc[i] = s->tstack[s->ntstack - 1 - i];
    s->ntstack = start;
    for (int64_t i = 0; i < m; i++) s->nodes[scc[i]].flags &= (uint16_t)~F_ONSTACK;
    if (m == 1) value_acyclic(s, id);
    else { s->loops++; s->loop_members += m; solve_loop(s, scc, m); }
    for (int64_t i = 0; i < m; i++) s->nodes[scc[i]].flags |= F_IN_TT;
    free(scc);
}

static int run_search(Search *s, uint64_t b, uint64_t w) {
    double deadline = s->seconds > 0 ? now_seconds() + s->seconds : 0;
    int32_t root = node_add(s, b, w, 0);
    if (solver_error) return ST_ERROR;
    s->root = root;
    if (s->nodes[root].flags & F_VISITED) return ST_OK;
    int e = enter(s, root, deadline);
    if (e < 0) return solver_error ? ST_ERROR : s->status;
    if (e == 0) return ST_OK;
    Frame *stack = NULL;
    int64_t nstack = 0, capstack = 0;
    stack = grow(stack, &capstack, 1, sizeof(Frame));
    if (solver_error) return ST_ERROR;
    stack[nstack++] = (Frame){root, 0, s->nodes[root].idx, 0};
    while (nstack) {
        Frame *f = &stack[nstack - 1];
        Node *n = &s->nodes[f->node];
        int nk = node_nkids(n);
        if (f->pos < nk) {
            int32_t child = s->kids[n->child_off + f->pos];
            if (f->awaiting) {
                f->awaiting = 0;
                if (!(s->nodes[child].flags & F_IN_TT) && s->nodes[child].low < f->low) f->low = s->nodes[child].low;
                f->pos++;
                continue;
            }
            if (child < 0 || (s->nodes[child].flags & F_IN_TT)) { f->pos++; continue; }
            if (s->nodes[child].flags & F_ONSTACK) {
                if (s->nodes[child].idx < f->low) f->low = s->nodes[child].idx;
                f->pos++;
                continue;
            }
            int got = enter(s, child, deadline);
            if (got < 0) { free(stack); return solver_error ? ST_ERROR : s->status; }
            if (got == 0) { f->pos++; continue; }
            f->awaiting = 1;
            stack = grow(stack, &capstack, nstack + 1, sizeof(Frame));
            if (solver_error) { free(stack); return ST_ERROR; }
            stack[nstack++] = (Frame){child, 0, s->nodes[child].idx, 0};
            continue;
        }
        n->low = f->low;
        int32_t id = f->node;
        nstack--;
        if (s->nodes[id].low == s->nodes[id].idx) {
            finish(s, id);
            if (solver_error) { free(stack); return ST_ERROR; }
        }
    }
    free(stack);
    return solver_error ? ST_ERROR : ST_OK;
}

/* ------------------------------------------------------------------ line superko (search.LineSuperkoSolver) */
/* A frame of the line search: a position on the line (its depth: the frame's index), the next of its kept
   options, the least depth on the line its value relies on so far, and where its list of options valued for
   this line only (`made`) starts on the shared made stack. */
typedef struct { int32_t node, pos, low; int64_t made_start; int awaiting; } LineFrame;

/* Whether `child` is among the options the frame has valued for this line only (at most 128). */
static int line_made(const int32_t *made, int64_t start, int64_t end, int32_t child) {
    for (int64_t i = start; i < end; i++) if (made[i] == child) return 1;
    return 0;
}

/* A value kept for one line only is dropped before its position is valued again on another. */
static void line_forget(Search *s, int32_t id) {
    Node *n = &s->nodes[id];
    n->flags &= (uint16_t)~(F_TEMP | F_IN_TT | F_OPEN);
    n->r[0] = n->r[1] = n->r[2] = NONE_REC;
}

/* Put an entered position on the line and on the frame stack. 0, or -1 out of memory. */
static int line_open_frame(Search *s, LineFrame **stack, int64_t *nstack, int64_t *cap, int32_t id, int64_t nmade) {
    if (line_push(s, s->nodes[id].b, s->nodes[id].w) < 0) return -1;
    *stack = grow(*stack, cap, *nstack + 1, sizeof(LineFrame));
    if (solver_error) return -1;
    (*stack)[(*nstack)++] = (LineFrame){id, 0, s->enter_low, nmade, 0};
    return 0;
}

/* LineSuperkoSolver.value / _line_visit without recursion: a depth-first search along lines of play in
   which a move recreating the stones of a position on its own line is illegal (positional superko on the
   local line), so every position is valued once its kept options are (value_acyclic; kos by phantoms as in
   the main search). A value relying on a position still on the line (its low < its depth) is marked
   F_TEMP: valued again on every other line that reaches it (the graph-history interaction). As in Python,
   once a position is valued, the options it valued for its line only stop being marked and keep their
   values, which a later line reaching them another way reuses (a partial answer, search.LineSuperkoSolver's
   docstring says why); the root's keep theirs, for the readout. Budget, time limit, stop() and memory errors stop it as run_search. */
static int run_line_search(Search *s, uint64_t b, uint64_t w) {
    double deadline = s->seconds > 0 ? now_seconds() + s->seconds : 0;
    int32_t root = node_add(s, b, w, 0);
    if (solver_error) return ST_ERROR;
    s->root = root;
    int e = enter(s, root, deadline);
    if (e < 0) return solver_error ? ST_ERROR : s->status;
    if (e == 0) return ST_OK;
    LineFrame *stack = NULL;
    int32_t *made = NULL;
    int64_t nstack = 0, capstack = 0, nmade = 0, capmade = 0;
    int status = ST_OK;
    int32_t ret = LINE_FREE;  /* the low a finished frame hands its parent */
    if (line_open_frame(s, &stack, &nstack, &capstack, root, 0) < 0) { status = ST_ERROR; goto out; }
    while (nstack) {
        LineFrame *f = &stack[nstack - 1];
        Node *n = &s->nodes[f->node];
        int nk = n->nl + n->nr;
        if (f->pos < nk) {
            int32_t child = s->kids[n->child_off + f->pos];
            if (f->awaiting) {  /* back from the child's frame */
                f->awaiting = 0;
                if (ret < f->low) f->low = ret;
                if (s->nodes[child].flags & F_TEMP) {
                    made = grow(made, &capmade, nmade + 1, sizeof(int32_t));
                    if (solver_error) { status = ST_ERROR; goto out; }
                    made[nmade++] = child;
                }
                f->pos++;
                continue;
            }
            if (child < 0 || line_made(made, f->made_start, nmade, child)) { f->pos++; continue; }
            uint16_t flags = s->nodes[child].flags;
            if ((flags & F_IN_TT) && !(flags & F_TEMP)) { f->pos++; continue; }
            if (flags & F_TEMP) line_forget(s, child);  /* valued on another line: value it again on this one */
            int got = enter(s, child, deadline);
            if (got < 0) { status = solver_error ? ST_ERROR : s->status; goto out; }
            if (got == 0) { f->pos++; continue; }  /* settled: relies on nothing */
            if (nstack > INT32_MAX - 2) { solver_error = ERR_MEMORY; status = ST_ERROR; goto out; }
            f->awaiting = 1;
            if (line_open_frame(s, &stack, &nstack, &capstack, child, nmade) < 0) { status = ST_ERROR; goto out; }
            continue;
        }
        int32_t id = f->node, low = f->low, depth = (int32_t)(nstack - 1);
        int64_t made_start = f->made_start;
        value_acyclic(s, id);
        if (solver_error) { status = ST_ERROR; goto out; }
        s->nodes[id].flags |= F_IN_TT;
        line_pop(s);
        if (depth) for (int64_t i = made_start; i < nmade; i++) s->nodes[made[i]].flags &= (uint16_t)~F_TEMP;
        nmade = made_start;
        if (low < depth) s->nodes[id].flags |= F_TEMP;
        ret = low;
        nstack--;
    }
out:
    free(stack);
    free(made);
    s->nline = 0;  /* (a stopped search leaves its line behind: nothing reads it again) */
    if (s->lslots) for (uint64_t i = 0; i <= s->lmask; i++) s->lslots[i] = -1;
    return solver_error ? ST_ERROR : status;
}

/* ------------------------------------------------------------------ Python type */
static PyObject *q_py(Q q) {
    if (q_inf(q)) return Py_BuildValue("(Li)", (long long)q.n, 0);
    return Py_BuildValue("(LL)", (long long)q.n, (long long)q.d);
}

static void Search_dealloc(Search *s) {
    store_free(&s->st);
    free(s->nodes); free(s->table); free(s->kids); free(s->kid_pts); free(s->extras); free(s->opens);
    free(s->arena); free(s->ocache); free(s->tstack); free(s->lb); free(s->lw); free(s->lslots);
    Py_TYPE(s)->tp_free((PyObject *)s);
}

static int Search_init(Search *s, PyObject *args, PyObject *kw) {
    int n, suicide, moves_all, sacrifices, loop_passes, merge_settled = 1, offset = 0, line_superko = 0;
    PyObject *nb;
    unsigned long long wb, ww, bb, bw;
    long long max_nodes;
    double seconds;
    if (!PyArg_ParseTuple(args, "iOKKKKppiiLd|pip", &n, &nb, &wb, &ww, &bb, &bw, &suicide, &moves_all, &sacrifices,
                          &loop_passes, &max_nodes, &seconds, &merge_settled, &offset, &line_superko))
        return -1;
    if (n < 1 || n > 64) { PyErr_SetString(PyExc_ValueError, "the native solver takes regions of 1 to 64 points"); return -1; }
    if (offset <= -n || offset >= n) { PyErr_SetString(PyExc_ValueError, "offset: fewer than n points either way"); return -1; }
    if (!PyList_Check(nb) || PyList_GET_SIZE(nb) != n) { PyErr_SetString(PyExc_ValueError, "nb: a list of n masks"); return -1; }
    memset(&s->reg, 0, sizeof s->reg);
    s->reg.n = n;
    s->reg.full = n == 64 ? ~(uint64_t)0 : (((uint64_t)1 << n) - 1);
    for (int i = 0; i < n; i++) {
        s->reg.nb[i] = PyLong_AsUnsignedLongLongMask(PyList_GET_ITEM(nb, i));
        if (PyErr_Occurred()) return -1;
    }
    s->reg.wall[0] = wb; s->reg.wall[1] = ww; s->reg.breach[0] = bb; s->reg.breach[1] = bw;
    s->reg.suicide = suicide;
    s->reg.offset = offset;
    region_tables(&s->reg);
    s->moves_all = moves_all; s->sacrifices = sacrifices; s->loop_passes = loop_passes;
    /* line superko compares a line's positions by their stones: no merging of settled parts (their stones differ) */
    s->line_superko = line_superko; s->merge_settled = merge_settled && !line_superko;
    s->max_nodes = max_nodes; s->seconds = seconds;
    if (store_init(&s->st) < 0) { PyErr_NoMemory(); return -1; }
    s->tmask = (1u << 16) - 1;
    s->table = malloc((s->tmask + 1) * sizeof(Slot));
    s->ocmask = (1u << 8) - 1;
    s->ocache = malloc((s->ocmask + 1) * 4 * sizeof(int64_t));
    if (!s->table || !s->ocache) { PyErr_NoMemory(); return -1; }
    for (uint64_t i = 0; i <= s->tmask; i++) s->table[i].id = -1;
    for (uint64_t i = 0; i <= s->ocmask; i++) s->ocache[4 * i] = -1;
    s->root = -1;
    return 0;
}

static PyObject *Search_solve(Search *s, PyObject *args) {
    unsigned long long b, w;
    if (!PyArg_ParseTuple(args, "KK", &b, &w)) return NULL;
    if (s->root >= 0) { PyErr_SetString(PyExc_RuntimeError, "a Search solves one root"); return NULL; }
    int status, err;
    Py_BEGIN_ALLOW_THREADS
    solver_error = ERR_NONE;
    status = s->line_superko ? run_line_search(s, b, w) : run_search(s, b, w);
    err = solver_error;
    Py_END_ALLOW_THREADS
    return Py_BuildValue("(ii)", status, err);
}

static PyObject *Search_stop(Search *s, PyObject *unused) {
    (void)unused;
    s->stop_requested = 1;  /* the running search stops within 1024 positions, as at its time limit */
    Py_RETURN_NONE;
}

static PyObject *Search_stats(Search *s, PyObject *unused) {
    (void)unused;
    long long bytes = (long long)(s->capnodes * (int64_t)sizeof(Node) + (int64_t)(s->tmask + 1) * (int64_t)sizeof(Slot) + s->capkids * 5 +
                                  (int64_t)s->st.caprecs * (int64_t)sizeof(Rec) + s->st.capsegs * (int64_t)sizeof(Seg) +
                                  s->st.global.capckeys * 4 + s->st.caphot * (int64_t)sizeof(Hot) + (int64_t)(s->st.global.cmask + 1) * 8);
    return Py_BuildValue("{sLsLsLsLsLsLsLsisLsL}", "positions", (long long)s->visited, "loops", (long long)s->loops,
                         "loop_members", (long long)s->loop_members, "plain", (long long)s->plain,
                         "with_ko_ban", (long long)s->bans, "merged", (long long)s->aliases,
                         "table", (long long)s->nnodes, "records", (int)s->st.nrecs, "combinations",
                         (long long)(s->st.global.ncombos + s->st.scratch_combos), "bytes", bytes);
}

static int check_node(Search *s, long id) {
    if (id < 0 || id >= s->nnodes) { PyErr_SetString(PyExc_IndexError, "no such position"); return 0; }
    return 1;
}

static PyObject *ban_py(uint8_t ban) {
    if (!ban) Py_RETURN_NONE;
    return Py_BuildValue("(ii)", (ban - 1) % 64, (ban - 1) / 64 ? -1 : 1);
}

static PyObject *Search_find(Search *s, PyObject *args) {
    unsigned long long b, w;
    PyObject *ban;
    if (!PyArg_ParseTuple(args, "KKO", &b, &w, &ban)) return NULL;
    uint8_t code = 0;
    if (ban != Py_None) {
        int i, c;
        if (!PyArg_ParseTuple(ban, "ii", &i, &c)) return NULL;
        code = (uint8_t)(1 + i + (c == -1 ? 64 : 0));
    }
    int32_t id = node_find(s, b, w, code);
    if (id >= 0 && (s->nodes[id].flags & F_ALIAS)) id = s->kids[s->nodes[id].child_off];  /* its canonical position */
    return PyLong_FromLong(id);
}

static PyObject *Search_node(Search *s, PyObject *args) {
    long id;
    if (!PyArg_ParseTuple(args, "l", &id) || !check_node(s, id)) return NULL;
    Node *n = &s->nodes[id];
    return Py_BuildValue("(KKNiiiiiii)", (unsigned long long)n->b, (unsigned long long)n->w, ban_py(n->ban),
                         (int)n->flags, (int)n->r[0], (int)n->r[1], (int)n->r[2], (int)n->lo, (int)n->hi, (int)n->stands);
}

static PyObject *Search_kids(Search *s, PyObject *args) {
    long id;
    if (!PyArg_ParseTuple(args, "l", &id) || !check_node(s, id)) return NULL;
    Node *n = &s->nodes[id];
    if (n->child_off < 0) Py_RETURN_NONE;
    PyObject *sides = PyTuple_New(2);
    if (!sides) return NULL;
    for (int side = 0; side < 2; side++) {
        int cnt = side == 0 ? n->nl : n->nr, off = n->child_off + (side == 0 ? 0 : n->nl);
        PyObject *lst = PyList_New(cnt);
        if (!lst) { Py_DECREF(sides); return NULL; }
        for (int c = 0; c < cnt; c++) PyList_SET_ITEM(lst, c, Py_BuildValue("(ii)", (int)s->kid_pts[off + c], (int)s->kids[off + c]));
        PyTuple_SET_ITEM(sides, side, lst);
    }
    return sides;
}

static PyObject *wall_py(const Store *st, const Rec *r, int left) {
    Wall w;
    rec_wall(st, r, left, &w);
    PyObject *out = PyTuple_New(w.len);
    if (!out) return NULL;
    for (int i = 0; i < w.len; i++)
        PyTuple_SET_ITEM(out, i, Py_BuildValue("(NNL)", q_py(w.s[i].t0), q_py(w.s[i].v0), (long long)w.s[i].s));
    return out;
}

static const char *KIND_NAMES[] = {"number", "infinitesimal", "gote", "black_sente", "white_sente", "unbounded"};

static PyObject *Search_record(Search *s, PyObject *args) {
    long id;
    if (!PyArg_ParseTuple(args, "l", &id)) return NULL;
    if (id < 0 || id >= s->st.nrecs) { PyErr_SetString(PyExc_IndexError, "no such record"); return NULL; }
    const Rec *r = &s->st.recs[id];
    PyObject *mean = r->has_mean ? q_py(r->mean) : (Py_INCREF(Py_None), Py_None);
    PyObject *number = r->is_number ? q_py(r->number) : (Py_INCREF(Py_None), Py_None);
    return Py_BuildValue("(sNNNNNNNii)", KIND_NAMES[r->kind], wall_py(&s->st, r, 1), wall_py(&s->st, r, 0),
                         q_py(r->temperature), mean, number, q_py(r->ls), q_py(r->rs), (int)r->ge_rs, (int)r->le_ls);
}

static PyObject *Search_extra(Search *s, PyObject *args) {
    long id;
    if (!PyArg_ParseTuple(args, "l", &id) || !check_node(s, id)) return NULL;
    Node *n = &s->nodes[id];
    if (n->extra < 0) return Py_BuildValue("(iOO)", NONE_REC, Py_None, Py_None);
    Extra *e = &s->extras[n->extra];
    PyObject *ko = e->has_ko ? Py_BuildValue("(NNiii)", q_py(e->ko.black_exit), q_py(e->ko.white_exit), e->ko.bm, e->ko.wm, e->ko.taker)
                             : (Py_INCREF(Py_None), Py_None);
    PyObject *ph = e->has_phantom ? q_py(e->phantom) : (Py_INCREF(Py_None), Py_None);
    return Py_BuildValue("(iNN)", (int)e->cautious, ko, ph);
}

static PyObject *Search_number(Search *s, PyObject *args) {
    long long num, den;
    if (!PyArg_ParseTuple(args, "LL", &num, &den)) return NULL;
    solver_error = ERR_NONE;
    Q q = den == 0 ? (num > 0 ? Q_INF : Q_NEG_INF) : q_make(num, den);
    int32_t id = solver_error ? NONE_REC : store_number(&s->st, q);
    if (solver_error) { PyErr_SetString(PyExc_OverflowError, "number out of the native range"); return NULL; }
    return PyLong_FromLong(id);
}

static PyObject *Search_close_open(Search *s, PyObject *args) {
    long id;
    int which, phantom;
    if (!PyArg_ParseTuple(args, "lii", &id, &which, &phantom) || !check_node(s, id)) return NULL;
    Node *n = &s->nodes[id];
    if (!(n->flags & F_OPEN)) { PyErr_SetString(PyExc_ValueError, "not an open position"); return NULL; }
    solver_error = ERR_NONE;
    int32_t out = close_open(s, s->extras[n->extra].open, which, phantom);
    if (solver_error) { PyErr_SetString(PyExc_OverflowError, "native arithmetic out of range"); return NULL; }
    return PyLong_FromLong(out);
}

static PyObject *Search_split_count(Search *s, PyObject *unused) {
    (void)unused;
    long long count = 0;
    for (int64_t i = 0; i < s->nnodes; i++) {
        Node *n = &s->nodes[i];
        if ((n->flags & F_VISITED) && !(n->flags & (F_SETTLED | F_ALIAS)) && independent_parts(&s->reg, n->b, n->w) > 1) count++;
    }
    return PyLong_FromLongLong(count);
}

static PyObject *Search_count_flag(Search *s, PyObject *args) {
    int flag;
    if (!PyArg_ParseTuple(args, "i", &flag)) return NULL;
    long long count = 0;
    for (int64_t i = 0; i < s->nnodes; i++) count += (s->nodes[i].flags & flag) != 0;
    return PyLong_FromLongLong(count);
}

static int ids_from_list(PyObject *lst, int32_t *out, int *n) {
    if (!PyList_Check(lst) || PyList_GET_SIZE(lst) > 64) { PyErr_SetString(PyExc_ValueError, "a list of at most 64 record ids"); return 0; }
    *n = (int)PyList_GET_SIZE(lst);
    for (int i = 0; i < *n; i++) {
        long v = PyLong_AsLong(PyList_GET_ITEM(lst, i));
        if (v == -1 && PyErr_Occurred()) return 0;
        out[i] = (int32_t)v;
    }
    return 1;
}

static PyObject *keep_py(const int *keep, int k) {
    PyObject *out = PyList_New(k);
    if (!out) return NULL;
    for (int i = 0; i < k; i++) PyList_SET_ITEM(out, i, PyLong_FromLong(keep[i]));
    return out;
}

/* readout._essential_indices on record ids: Black's options the thermograph needs, then
   White's given those. */
static PyObject *Search_essential(Search *s, PyObject *args) {
    PyObject *lefts, *rights;
    if (!PyArg_ParseTuple(args, "OO", &lefts, &rights)) return NULL;
    Lists x;
    if (!ids_from_list(lefts, x.L[0], &x.nl) || !ids_from_list(rights, x.R[0], &x.nr)) return NULL;
    for (int i = 0; i < x.nl + x.nr; i++) {
        int32_t id = i < x.nl ? x.L[0][i] : x.R[0][i - x.nl];
        if (id < 0 || id >= s->st.nrecs) { PyErr_SetString(PyExc_IndexError, "no such record"); return NULL; }
    }
    memcpy(x.L[1], x.L[0], sizeof(int32_t) * (size_t)x.nl);
    memcpy(x.R[1], x.R[0], sizeof(int32_t) * (size_t)x.nr);
    int keep_l[64], keep_r[64];
    solver_error = ERR_NONE;
    int kl = essential_options(s, &x, 0, &x, 1, 0, -1, keep_l);
    Lists y;
    y.nl = kl; y.nr = x.nr;
    for (int i = 0; i < kl; i++) y.L[0][i] = y.L[1][i] = x.L[0][keep_l[i]];
    memcpy(y.R[0], x.R[0], sizeof(int32_t) * (size_t)x.nr);
    memcpy(y.R[1], x.R[0], sizeof(int32_t) * (size_t)x.nr);
    int kr = essential_options(s, &y, 0, &y, 1, 1, -1, keep_r);
    if (solver_error) { PyErr_SetString(PyExc_OverflowError, "native arithmetic out of range"); return NULL; }
    return Py_BuildValue("(NN)", keep_py(keep_l, kl), keep_py(keep_r, kr));
}

static PyObject *Search_root(Search *s, PyObject *unused) { (void)unused; return PyLong_FromLong(s->root); }

static PyMethodDef Search_methods[] = {
    {"solve", (PyCFunction)Search_solve, METH_VARARGS, "solve(b, w) -> (status, error): search from that root"},
    {"stats", (PyCFunction)Search_stats, METH_NOARGS, "counts: positions, loops, table, records, combinations, bytes"},
    {"stop", (PyCFunction)Search_stop, METH_NOARGS, "stop(): a solve running in another thread stops as at its time limit"},
    {"root", (PyCFunction)Search_root, METH_NOARGS, "the root position's id"},
    {"find", (PyCFunction)Search_find, METH_VARARGS, "find(b, w, ban) -> position id or -1"},
    {"node", (PyCFunction)Search_node, METH_VARARGS, "node(id) -> (b, w, ban, flags, rec, lo, hi, count lo, count hi, stands)"},
    {"kids", (PyCFunction)Search_kids, METH_VARARGS, "kids(id) -> None or ([(point, child id or -1)] for Black, for White)"},
    {"record", (PyCFunction)Search_record, METH_VARARGS, "record(id) -> the thermograph record's fields"},
    {"extra", (PyCFunction)Search_extra, METH_VARARGS, "extra(id) -> (cautious record, ko chain, phantom)"},
    {"number", (PyCFunction)Search_number, METH_VARARGS, "number(num, den) -> the record id of that number (den 0: +-inf)"},
    {"close_open", (PyCFunction)Search_close_open, METH_VARARGS, "close_open(id, which, phantom record or -1) -> record id"},
    {"essential", (PyCFunction)Search_essential, METH_VARARGS, "essential(left ids, right ids) -> the indices the thermograph needs"},
    {"count_flag", (PyCFunction)Search_count_flag, METH_VARARGS, "count_flag(flag) -> positions carrying it"},
    {"split_count", (PyCFunction)Search_split_count, METH_NOARGS, "positions searched that split into independent parts"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "tengen.endgame._solver.Search",
    .tp_basicsize = sizeof(Search),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One native exhaustive search of a sealed region's local game",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Search_init,
    .tp_dealloc = (destructor)Search_dealloc,
    .tp_methods = Search_methods,
};

static struct PyModuleDef solver_module = {PyModuleDef_HEAD_INIT, "_solver", "tengen native exhaustive local solver", -1, NULL};

PyMODINIT_FUNC PyInit__solver(void) {
    if (PyType_Ready(&SearchType) < 0) return NULL;
    PyObject *m = PyModule_Create(&solver_module);
    if (!m) return NULL;
    Py_INCREF(&SearchType);
    if (PyModule_AddObject(m, "Search", (PyObject *)&SearchType) < 0) { Py_DECREF(&SearchType); Py_DECREF(m); return NULL; }
    PyModule_AddIntConstant(m, "F_SETTLED", F_SETTLED);
    PyModule_AddIntConstant(m, "F_IN_TT", F_IN_TT);
    PyModule_AddIntConstant(m, "F_OPEN", F_OPEN);
    PyModule_AddIntConstant(m, "F_LOOP_VALUED", F_LOOP_VALUED);
    PyModule_AddIntConstant(m, "F_GENERALISED", F_GENERALISED);
    PyModule_AddIntConstant(m, "F_FIXED_KO", F_FIXED_KO);
    PyModule_AddIntConstant(m, "F_VISITED", F_VISITED);
    PyModule_AddIntConstant(m, "ST_OK", ST_OK);
    PyModule_AddIntConstant(m, "ST_BUDGET", ST_BUDGET);
    PyModule_AddIntConstant(m, "ST_ERROR", ST_ERROR);
    PyModule_AddIntConstant(m, "ST_NOT_SEALED", ST_NOT_SEALED);
    PyModule_AddIntConstant(m, "ST_TIME", ST_TIME);
    return m;
}
