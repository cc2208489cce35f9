/* The native solver's record store: interned thermograph records (equal records share one id, as the
 * Python search interns them), and the memoised combination of option sets (thermo.py `combine`,
 * keyed by the sets of option ids as search.Solver.record keys them). */
#ifndef TENGEN_SOLVER_STORE_H
#define TENGEN_SOLVER_STORE_H

#include <sys/mman.h>

#include "_solver_thermo.h"

#define NONE_REC (-1)  /* an unknown record (Python None) */
#define OMIT_REC (-2)  /* a banned retake left out (Python _OMIT) */

/* A memo of option-set combinations: keys [nl, nr, ids..., result] one after another in ckeys; slots
   hold (low 32 bits of the key's hash) << 32 | offset into ckeys, -1 when empty. */
typedef struct {
    int32_t *ckeys;
    int64_t nckeys, capckeys;
    int64_t *ctable;
    uint64_t cmask;
    int64_t ncombos;
} Memo;

/* What option filtering reads of every option (kept apart from the walls: a small array stays in cache). */
typedef struct { Q ls, rs, mean; int32_t has_mean, ge_rs_le_ls; } Hot;

typedef struct {
    Rec *recs;
    Hot *hot;
    int64_t caphot;
    int32_t nrecs, caprecs;
    Seg *segs;
    int64_t nsegs, capsegs;
    int32_t *table;  /* interning: slot -> record id or -1 */
    uint64_t mask;
    Memo global;   /* combinations met while searching */
    Memo scratch;  /* those met while a loop is iterated (most never recur): kept apart, cleared per loop */
    int scratch_on;
    int64_t scratch_combos;
    int32_t small[257];  /* integer numbers -128..128 -> record id (or -1) */
} Store;

/* Large tables are read at random: ask for huge pages (fewer TLB misses) where the system offers them. */
static void *huge_pages(void *p, size_t bytes) {
#ifdef MADV_HUGEPAGE
    if (p && bytes >= ((size_t)8 << 20)) {
        uintptr_t start = ((uintptr_t)p + ((uintptr_t)2 << 20) - 1) & ~(((uintptr_t)2 << 20) - 1);
        uintptr_t end = ((uintptr_t)p + bytes) & ~(((uintptr_t)2 << 20) - 1);
        if (end > start) madvise((void *)start, end - start, MADV_HUGEPAGE);
    }
#endif
    return p;
}

static void *grow(void *p, int64_t *cap, int64_t need, size_t size) {
    if (need <= *cap) return p;
    int64_t c = *cap ? *cap : 1024;
    while (c < need) c *= 2;
    void *q = realloc(p, (size_t)c * size);
    if (!q) { solver_error = ERR_MEMORY; return p; }
    *cap = c;
    return huge_pages(q, (size_t)c * size);
}

static uint64_t mix64(uint64_t x) {
    x ^= x >> 33; x *= 0xff51afd7ed558ccdULL; x ^= x >> 33; x *= 0xc4ceb9fe1a85ec53ULL; x ^= x >> 33;
    return x;
}
static inline uint64_t hq(uint64_t h, Q q) { return mix64(h ^ mix64((uint64_t)q.n * 31 + (uint64_t)q.d)); }

#define MEMO_START_BITS 12

static int memo_init(Memo *m) {
    memset(m, 0, sizeof *m);
    m->cmask = (1u << MEMO_START_BITS) - 1;
    m->ctable = malloc((m->cmask + 1) * sizeof(int64_t));
    if (!m->ctable) return -1;
    memset(m->ctable, 0xff, (m->cmask + 1) * sizeof(int64_t));
    return 0;
}

/* Empty a memo (a large one goes back to its starting size). */
static void memo_clear(Memo *m) {
    if (m->cmask > (1u << 16)) {
        free(m->ctable);
        free(m->ckeys);
        if (memo_init(m) < 0) solver_error = ERR_MEMORY;
        return;
    }
    memset(m->ctable, 0xff, (m->cmask + 1) * sizeof(int64_t));
    m->nckeys = 0;
    m->ncombos = 0;
}

static int store_init(Store *st) {
    memset(st, 0, sizeof *st);
    st->mask = (1u << 12) - 1;
    st->table = malloc((st->mask + 1) * sizeof(int32_t));
    if (!st->table || memo_init(&st->global) < 0 || memo_init(&st->scratch) < 0) return -1;
    memset(st->table, 0xff, (st->mask + 1) * sizeof(int32_t));
    for (int i = 0; i < 257; i++) st->small[i] = -1;
    return 0;
}

static void store_free(Store *st) {
    free(st->recs); free(st->hot); free(st->segs); free(st->table);
    free(st->global.ckeys); free(st->global.ctable); free(st->scratch.ckeys); free(st->scratch.ctable);
    memset(st, 0, sizeof *st);
}

static void rec_wall(const Store *st, const Rec *r, int left, Wall *out) {
    int32_t off = left ? r->lw_off : r->rw_off;
    int len = left ? r->lw_len : r->rw_len;
    out->len = len;
    memcpy(out->s, st->segs + off, (size_t)len * sizeof(Seg));
}

static uint64_t wall_hash(uint64_t h, const Wall *w) {
    for (int i = 0; i < w->len; i++) h = hq(hq(h, w->s[i].t0), w->s[i].v0) ^ mix64((uint64_t)w->s[i].s + 7);
    return mix64(h + (uint64_t)w->len);
}

static int segs_eq(const Seg *a, const Wall *w) {
    for (int i = 0; i < w->len; i++)
        if (!q_eq(a[i].t0, w->s[i].t0) || !q_eq(a[i].v0, w->s[i].v0) || a[i].s != w->s[i].s) return 0;
    return 1;
}

static void store_rehash(Store *st) {
    uint64_t nm = st->mask * 2 + 1;
    int32_t *t = malloc((nm + 1) * sizeof(int32_t));
    if (!t) { solver_error = ERR_MEMORY; return; }
    memset(t, 0xff, (nm + 1) * sizeof(int32_t));
    for (int32_t i = 0; i < st->nrecs; i++) {
        uint64_t s = st->recs[i].hash & nm;
        while (t[s] >= 0) s = (s + 1) & nm;
        t[s] = i;
    }
    free(st->table);
    st->table = t;
    st->mask = nm;
}

/* The id of the record with these contents (a number is keyed by its value; any other record by its
   walls, stops and flags, as Solver.record interns them). */
static int32_t store_intern(Store *st, Rec *r, const Wall *lw, const Wall *rw) {
    uint64_t h;
    if (r->is_number) h = hq(0x9e3779b97f4a7c15ULL, r->number);
    else {
        h = wall_hash(wall_hash(0x1234567ULL, lw), rw);
        h = hq(hq(h, r->ls), r->rs) ^ (uint64_t)(r->ge_rs * 2 + r->le_ls);
        h = mix64(h);
    }
    r->hash = h;
    uint64_t s = h & st->mask;
    while (st->table[s] >= 0) {
        Rec *o = &st->recs[st->table[s]];
        if (o->hash == h && o->is_number == r->is_number) {
            if (r->is_number) { if (q_eq(o->number, r->number)) return st->table[s]; }
            else if (o->lw_len == lw->len && o->rw_len == rw->len && q_eq(o->ls, r->ls) && q_eq(o->rs, r->rs) &&
                     o->ge_rs == r->ge_rs && o->le_ls == r->le_ls && segs_eq(st->segs + o->lw_off, lw) &&
                     segs_eq(st->segs + o->rw_off, rw))
                return st->table[s];
        }
        s = (s + 1) & st->mask;
    }
    int64_t cap = st->caprecs;
    st->recs = grow(st->recs, &cap, st->nrecs + 1, sizeof(Rec));
    st->caprecs = (int32_t)cap;
    st->hot = grow(st->hot, &st->caphot, st->nrecs + 1, sizeof(Hot));
    st->segs = grow(st->segs, &st->capsegs, st->nsegs + lw->len + rw->len, sizeof(Seg));
    if (solver_error) return NONE_REC;
    r->lw_off = (int32_t)st->nsegs;
    r->lw_len = (int16_t)lw->len;
    memcpy(st->segs + st->nsegs, lw->s, (size_t)lw->len * sizeof(Seg));
    st->nsegs += lw->len;
    r->rw_off = (int32_t)st->nsegs;
    r->rw_len = (int16_t)rw->len;
    memcpy(st->segs + st->nsegs, rw->s, (size_t)rw->len * sizeof(Seg));
    st->nsegs += rw->len;
    int32_t id = st->nrecs++;
    st->recs[id] = *r;
    Hot hot = {r->ls, r->rs, r->mean, r->has_mean, r->ge_rs * 2 + r->le_ls};
    st->hot[id] = hot;
    st->table[s] = id;
    if ((uint64_t)st->nrecs * 2 > st->mask) store_rehash(st);
    return id;
}

/* Conway temperature of a number: -1/2^k for a dyadic with denominator 2^k (k >= 1), else -1. */
static Q number_temperature(Q x) {
    if (q_inf(x) || x.d == 1 || (x.d & (x.d - 1)) != 0) return q_int(-1);
    Q r = {-1, x.d};
    return r;
}

static int32_t store_number(Store *st, Q x) {
    int small = !q_inf(x) && x.d == 1 && x.n >= -128 && x.n <= 128;
    if (small && st->small[x.n + 128] >= 0) return st->small[x.n + 128];
    Rec r;
    memset(&r, 0, sizeof r);
    Wall w;
    wall_const(&w, x);
    r.is_number = 1; r.has_mean = 1; r.ge_rs = 1; r.le_ls = 1; r.kind = K_NUMBER;
    r.temperature = number_temperature(x); r.mean = x; r.number = x; r.ls = x; r.rs = x;
    int32_t id = store_intern(st, &r, &w, &w);
    if (small && id >= 0) st->small[x.n + 128] = id;
    return id;
}

/* {lefts | rights} from the options' records: thermo.py `combine`, line by line. */
static int32_t store_combine(Store *st, const int32_t *L, int nl, const int32_t *R, int nr) {
    Q ls0 = Q_NEG_INF, rs0 = Q_INF;
    for (int i = 0; i < nl; i++) ls0 = q_max(ls0, st->recs[L[i]].rs);
    for (int i = 0; i < nr; i++) rs0 = q_min(rs0, st->recs[R[i]].ls);
    if (q_inf(ls0) && ls0.n > 0 && q_inf(rs0) && rs0.n > 0) return store_number(st, Q_INF);
    if (q_inf(ls0) && ls0.n < 0 && q_inf(rs0) && rs0.n < 0) return store_number(st, Q_NEG_INF);
    int lo_closed = !q_inf(ls0), hi_closed = !q_inf(rs0);
    int ge_rs = 1, le_ls = 1;
    for (int i = 0; i < nl; i++) {
        const Rec *o = &st->recs[L[i]];
        if (q_eq(o->rs, ls0) && o->ge_rs) { lo_closed = 0; le_ls = 0; }
    }
    for (int i = 0; i < nr; i++) {
        const Rec *o = &st->recs[R[i]];
        if (q_eq(o->ls, rs0) && o->le_ls) { hi_closed = 0; ge_rs = 0; }
    }
    int c = q_cmp(ls0, rs0);
    if (c < 0 || (c == 0 && lo_closed && hi_closed))
        return store_number(st, simplest_between(ls0, rs0, lo_closed, hi_closed));
    /* dominated options drop out (their walls never reach the scaffold) */
    int32_t keep_l[128], keep_r[128];
    int kl = 0, kr = 0;
    for (int i = 0; i < nl && kl < 128; i++) {
        const Rec *o = &st->recs[L[i]];
        if (q_eq(o->rs, ls0) || !o->has_mean || q_cmp(o->mean, ls0) > 0) keep_l[kl++] = L[i];
    }
    for (int i = 0; i < nr && kr < 128; i++) {
        const Rec *o = &st->recs[R[i]];
        if (q_eq(o->ls, rs0) || !o->has_mean || q_cmp(o->mean, rs0) < 0) keep_r[kr++] = R[i];
    }
    if (!kl) { for (int i = 0; i < nl && i < 128; i++) keep_l[i] = L[i]; kl = nl < 128 ? nl : 128; }
    if (!kr) { for (int i = 0; i < nr && i < 128; i++) keep_r[i] = R[i]; kr = nr < 128 ? nr : 128; }
    Wall ls_w, rs_w, tmp, w, acc;
    if (kl == 0) wall_const(&ls_w, Q_NEG_INF);
    for (int i = 0; i < kl; i++) {
        rec_wall(st, &st->recs[keep_l[i]], 0, &w);
        wall_shifted(&tmp, &w, -1);
        if (i == 0) wall_copy(&ls_w, &tmp); else { wall_max(&acc, &ls_w, &tmp); wall_copy(&ls_w, &acc); }
    }
    if (kr == 0) wall_const(&rs_w, Q_INF);
    for (int i = 0; i < kr; i++) {
        rec_wall(st, &st->recs[keep_r[i]], 1, &w);
        wall_shifted(&tmp, &w, 1);
        if (i == 0) wall_copy(&rs_w, &tmp); else { wall_min(&acc, &rs_w, &tmp); wall_copy(&rs_w, &acc); }
    }
    Rec r;
    memset(&r, 0, sizeof r);
    r.ls = ls0; r.rs = rs0; r.ge_rs = (uint8_t)ge_rs; r.le_ls = (uint8_t)le_ls;
    Q t = first_crossing(&ls_w, &rs_w);
    if (q_inf(t)) {
        r.temperature = Q_INF; r.kind = K_UNBOUNDED;
        return store_intern(st, &r, &ls_w, &rs_w);
    }
    Q mean = wall_at(&ls_w, t);
    Wall mast, lw, rw;
    wall_const(&mast, mean);
    wall_max(&lw, &ls_w, &mast);
    wall_min(&rw, &rs_w, &mast);
    r.temperature = t; r.mean = mean; r.has_mean = 1;
    if (q_cmp(t, Q_ZERO) == 0) r.kind = K_INFINITESIMAL;
    else {
        int64_t sl = wall_slope_below(&lw, t), sr = wall_slope_below(&rw, t);
        if (sl == 0 && sr != 0) r.kind = K_BLACK_SENTE;
        else if (sr == 0 && sl != 0) r.kind = K_WHITE_SENTE;
        else r.kind = K_GOTE;
    }
    return store_intern(st, &r, &lw, &rw);
}

static void sort_unique(int32_t *a, int *n) {
    for (int i = 1; i < *n; i++) {
        int32_t x = a[i];
        int j = i - 1;
        while (j >= 0 && a[j] > x) { a[j + 1] = a[j]; j--; }
        a[j + 1] = x;
    }
    int k = 0;
    for (int i = 0; i < *n; i++) if (k == 0 || a[k - 1] != a[i]) a[k++] = a[i];
    *n = k;
}

static void memo_rehash(Memo *st) {
    uint64_t nm = st->cmask * 2 + 1;
    if (nm > 0xffffffffULL) { solver_error = ERR_MEMORY; return; }
    int64_t *t = huge_pages(malloc((nm + 1) * sizeof(int64_t)), (nm + 1) * sizeof(int64_t));
    if (!t) { solver_error = ERR_MEMORY; return; }
    memset(t, 0xff, (nm + 1) * sizeof(int64_t));
    for (uint64_t s = 0; s <= st->cmask; s++) {
        int64_t v = st->ctable[s];
        if (v == -1) continue;
        uint64_t p = ((uint64_t)v >> 32) & nm;
        while (t[p] != -1) p = (p + 1) & nm;
        t[p] = v;
    }
    free(st->ctable);
    st->ctable = t;
    st->cmask = nm;
}

static uint32_t combo_hash(const int32_t *key, int len) {
    uint64_t h = 0x51ed27ULL;
    for (int i = 0; i < len; i++) h = mix64(h ^ (uint64_t)(uint32_t)key[i]);
    return (uint32_t)h;
}

/* The memo entry of a key (-1 when absent); *slot is where it is or would go. */
static int32_t combo_lookup(const Memo *st, const int32_t *key, int len, uint32_t tag, uint64_t *slot) {
    uint64_t s = tag & st->cmask;
    while (st->ctable[s] != -1) {
        int64_t v = st->ctable[s];
        if ((uint32_t)((uint64_t)v >> 32) == tag) {
            const int32_t *k = st->ckeys + (uint32_t)v;
            if (k[0] == key[0] && k[1] == key[1] && memcmp(k, key, (size_t)len * sizeof(int32_t)) == 0) { *slot = s; return k[len]; }
        }
        s = (s + 1) & st->cmask;
    }
    *slot = s;
    return -1;
}

static void combo_insert(Memo *st, const int32_t *key, int len, uint64_t slot, uint32_t tag, int32_t id) {
    if (st->nckeys + len + 1 > 0xffffffffLL) { solver_error = ERR_MEMORY; return; }
    st->ckeys = grow(st->ckeys, &st->capckeys, st->nckeys + len + 1, sizeof(int32_t));
    if (solver_error) return;
    memcpy(st->ckeys + st->nckeys, key, (size_t)len * sizeof(int32_t));
    st->ckeys[st->nckeys + len] = id;
    st->ctable[slot] = (int64_t)(((uint64_t)tag << 32) | (uint64_t)st->nckeys);
    st->nckeys += len + 1;
    if ((uint64_t)++st->ncombos * 2 > st->cmask) memo_rehash(st);
}

/* Options that `combine` drops before it looks at them (a stop below the best stop and a mast no better
   than it: dominated wall for wall) are dropped here first, so more option sets share a memo entry. */
static void drop_dominated(const Store *st, int32_t *a, int *n, int left) {
    if (*n < 2) return;
    Q best = left ? Q_NEG_INF : Q_INF;
    for (int i = 0; i < *n; i++) {
        const Hot *o = &st->hot[a[i]];
        best = left ? q_max(best, o->rs) : q_min(best, o->ls);
    }
    int k = 0;
    for (int i = 0; i < *n; i++) {
        const Hot *o = &st->hot[a[i]];
        Q stop = left ? o->rs : o->ls;
        if (q_eq(stop, best) || !o->has_mean || (left ? q_cmp(o->mean, best) > 0 : q_cmp(o->mean, best) < 0)) a[k++] = a[i];
    }
    *n = k;
}

/* Solver.record: None when an option is unknown; banned retakes left out (_OMIT) are dropped; the
   combination of the option sets is memoised. */
static int32_t store_record(Store *st, const int32_t *L0, int nl0, const int32_t *R0, int nr0) {
    int32_t key[2 + 256];
    int nl = 0, nr = 0;
    for (int i = 0; i < nl0; i++) if (L0[i] == NONE_REC) return NONE_REC;
    for (int i = 0; i < nr0; i++) if (R0[i] == NONE_REC) return NONE_REC;
    int32_t *L = key + 2, *R;
    for (int i = 0; i < nl0; i++) if (L0[i] != OMIT_REC && nl < 127) L[nl++] = L0[i];
    drop_dominated(st, L, &nl, 1);
    sort_unique(L, &nl);
    R = key + 2 + nl;
    for (int i = 0; i < nr0; i++) if (R0[i] != OMIT_REC && nr < 127) R[nr++] = R0[i];
    drop_dominated(st, R, &nr, 0);
    sort_unique(R, &nr);
    key[0] = nl; key[1] = nr;
    int len = 2 + nl + nr;
    uint64_t slot, scratch_slot = 0;
    uint32_t tag = combo_hash(key, len);
    int32_t id = combo_lookup(&st->global, key, len, tag, &slot);
    if (id >= 0) return id;
    if (st->scratch_on) {
        id = combo_lookup(&st->scratch, key, len, tag, &scratch_slot);
        if (id >= 0) return id;
    }
    id = store_combine(st, L, nl, R, nr);
    if (solver_error) return NONE_REC;
    if (st->scratch_on) {
        st->scratch_combos++;
        combo_insert(&st->scratch, key, len, scratch_slot, tag, id);
    } else {
        combo_insert(&st->global, key, len, slot, tag, id);
    }
    return solver_error ? NONE_REC : id;
}

#endif
