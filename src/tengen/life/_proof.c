/* Life and death proved by depth-first proof-number search (df-pn: A. Nagai, "Df-pn algorithm for searching
 * AND/OR trees and its applications", 2002; A. Kishimoto and M. Mueller, "Search versus knowledge for solving
 * life and death problems in Go", AAAI 2005, and "A solution to the GHI problem for depth-first proof-number
 * search", 2004) over one local problem: can the attacker capture the target chain?
 *
 * The local game. The board (sides 1..25) is copied into a padded mailbox; only the region's points (at most
 * PF_MAX_REGION) may be played. Stones outside the region are walls: a chain holding a point outside the
 * region is never captured, and an empty point outside the region is played by nobody (a liberty of the
 * outside). Captures as usual, suicide illegal (except a move joining a wall, which is never captured).
 * Kos by komaster: the komaster may make every ko capture, the other side none (a ko capture takes one
 * stone with a single stone left with one liberty); the opponent of the komaster therefore never retakes and
 * the ko point needs no place in the hash. The attacker never passes (a pass lets the defender pass back:
 * the game ends with the target on the board); the defender may pass.
 * Terminal tests: the target captured (attacker wins); the target pass-alive by Benson over the defender's
 * region chains (regions reaching outside the region do not count: conservative); the target with a liberty
 * outside the region, or joined to a wall (escaped: the caller chooses who wins it, so it can tell whether a
 * result rests on the escape). A position repeated on the path, or the depth cap, counts as the defender's
 * (flagged: an attack proved despite them stands, a defence found with them is not a proof).
 * Transposition table: 2^tt_bits entries in buckets of 4 (least work replaced), keyed by a Zobrist hash of
 * the stones and the side to move. Proof numbers start from the target's liberties and single-point eyes
 * (and, where the caller gives move costs from a network's policy, each move's cost for its mover);
 * with the target in atari the defender's moves are only those that can save it (the liberty, captures of an
 * adjacent chain), where the attacker is komaster (else a move that turns the capture into a ko capture the
 * attacker may not make saves it too: found by the exhaustive cross-check in the tests). A search may focus
 * one side's moves near the group (`relevant`), which can only prove that side's goal (the caller then
 * searches in full). The best child's threshold uses the 1+epsilon trick. Plain C; Python's API only in the
 * boundary function at the end. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PF_MAX_SIDE 25
#define PF_STRIDE (PF_MAX_SIDE + 2)
#define PF_CELLS (PF_STRIDE * (PF_MAX_SIDE + 2))
#define PF_MAX_REGION 128
#define PF_MAX_DEPTH 200
#define PF_MAX_LINE 60
#define PF_INF 0x3FFFFFFFu

enum { EMPTY = 0, BLACK = 1, WHITE = 2, EDGE = 3 };
enum { RES_DEFENDER = 0, RES_ATTACKER = 1, RES_UNKNOWN = -1 };
enum { T_NONE = 0, T_CAPTURED = 1, T_BENSON = 2, T_ESCAPED = 3, T_NO_MOVE = 4 };

typedef struct {
    uint8_t c[PF_CELLS];
    uint64_t hash;
    int tomove;
} Pos;

typedef struct {
    uint64_t key;
    uint32_t phi, delta, work;
} Entry;

typedef struct {
    int move;      /* cell, or -1 for a pass */
    uint64_t key;  /* child's hash */
    uint32_t phi, delta;  /* child's, from the child's mover's side */
    int terminal;  /* a terminal child: values fixed */
} Child;

typedef struct {
    int w, h, stride;
    uint8_t region[PF_CELLS];   /* 1: playable */
    int regpts[PF_MAX_REGION];
    int nreg;
    int target, attacker, defender, komaster;  /* target: a cell of the group's chain in atari (rescue) */
    int group[PF_MAX_REGION];   /* the group's cells: it lives while a defender stone stands on one */
    int ngroup;
    int escape_attacker;        /* an escaped target counts as the attacker's */
    uint64_t zob[PF_CELLS][3];
    uint64_t zob_side;
    Entry *tt;
    uint64_t tt_mask;           /* bucket index mask */
    uint32_t mark[PF_CELLS];
    uint32_t gen;
    Child *kids;                /* PF_MAX_DEPTH levels of (nreg + 1) */
    uint64_t path[PF_MAX_DEPTH + 1];
    long long nodes, max_nodes;
    double deadline;            /* CLOCK_MONOTONIC seconds, 0: none */
    int aborted, seen_escape, seen_cut, seen_repeat, seen_focus;
    int focus;                  /* 0, or the colour whose moves are only those near the group (`relevant`) */
    int has_cost;               /* move costs given (a network's policy): added to a new child's proof number */
    uint8_t cost[2][PF_CELLS];  /* per colour (index colour - 1): the cost of a move at each cell */
    uint8_t pass_cost[2];
} Search;

static const int DIRS_N = 4;

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static uint64_t splitmix(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static inline void nbrs(const Search *s, int p, int out[4]) {
    out[0] = p - 1; out[1] = p + 1; out[2] = p - s->stride; out[3] = p + s->stride;
}

static inline uint32_t sat_add(uint32_t a, uint32_t b) {
    uint64_t t = (uint64_t)a + b;
    return t >= PF_INF ? PF_INF : (uint32_t)t;
}

/* The chain at p: its cells into `stones` (may be NULL), its liberty count; *outside set when it holds a
 * point outside the region (a wall), *outlib when a liberty lies outside the region. */
static int chain_info(Search *s, const Pos *b, int p, int *stones, int *nstones, int *libs_out, int *outside,
                      int *outlib, int *lib_cells, int max_lib_cells) {
    int stack[PF_CELLS], sp = 0, n = 0, libs = 0, nb[4];
    uint8_t color = b->c[p];
    s->gen += 2;
    uint32_t g_stone = s->gen, g_lib = s->gen + 1;
    *outside = 0; *outlib = 0;
    stack[sp++] = p; s->mark[p] = g_stone;
    while (sp) {
        int q = stack[--sp];
        if (stones) stones[n] = q;
        n++;
        if (!s->region[q]) *outside = 1;
        nbrs(s, q, nb);
        for (int d = 0; d < DIRS_N; d++) {
            int r = nb[d];
            if (b->c[r] == EMPTY) {
                if (s->mark[r] != g_lib) {
                    s->mark[r] = g_lib;
                    if (lib_cells && libs < max_lib_cells) lib_cells[libs] = r;
                    libs++;
                    if (!s->region[r]) *outlib = 1;
                }
            } else if (b->c[r] == color && s->mark[r] != g_stone) {
                s->mark[r] = g_stone; stack[sp++] = r;
            }
        }
    }
    if (nstones) *nstones = n;
    if (libs_out) *libs_out = libs;
    return n;
}

static inline int chain_libs(Search *s, const Pos *b, int p) {
    int libs, out, outlib;
    chain_info(s, b, p, NULL, NULL, &libs, &out, &outlib, NULL, 0);
    return libs;
}

/* Play `color` at p on b (p empty and in the region). 0: illegal (suicide, or a ko capture the rule
 * forbids); 1: played. */
static int play(Search *s, Pos *b, int p, int color) {
    int nb[4], stones[PF_CELLS], n, libs, out, outlib, captured = 0, last_captured = -1;
    uint8_t opp = (uint8_t)(3 - color);
    b->c[p] = (uint8_t)color;
    b->hash ^= s->zob[p][color];
    nbrs(s, p, nb);
    for (int d = 0; d < DIRS_N; d++) {
        int r = nb[d];
        if (b->c[r] != opp) continue;
        chain_info(s, b, r, stones, &n, &libs, &out, &outlib, NULL, 0);
        if (libs == 0 && !out) {
            for (int i = 0; i < n; i++) { b->c[stones[i]] = EMPTY; b->hash ^= s->zob[stones[i]][opp]; }
            captured += n; last_captured = stones[0];
        }
    }
    chain_info(s, b, p, NULL, &n, &libs, &out, &outlib, NULL, 0);
    if (libs == 0 && !out) return 0;  /* suicide (captures would have left a liberty) */
    if (captured == 1 && n == 1 && libs == 1 && color != s->komaster) {
        (void)last_captured;
        return 0;  /* a ko capture by the side that is not komaster */
    }
    b->hash ^= s->zob_side;
    b->tomove = 3 - b->tomove;
    return 1;
}

static void do_pass(Search *s, Pos *b) {
    b->hash ^= s->zob_side;
    b->tomove = 3 - b->tomove;
}

/* Benson's pass-alive test for the target, over the defender's chains that lie wholly in the region;
 * regions (components of non-defender cells) reaching outside the region are never vital. */
static int benson_alive(Search *s, const Pos *b) {
    int cells = s->stride * (s->h + 2);
    static __thread int chain_id[PF_CELLS], region_id[PF_CELLS];
    int nchains = 0, nregions = 0;
    int chain_alive[PF_MAX_REGION + 1], chain_vital[PF_MAX_REGION + 1];
    int reg_ok[PF_CELLS / 2 + 2];
    uint8_t dc = (uint8_t)s->defender;
    int stack[PF_CELLS], nb[4];
    for (int i = 0; i < cells; i++) { chain_id[i] = -1; region_id[i] = -1; }
    /* chains of the defender in the region */
    for (int k = 0; k < s->nreg; k++) {
        int p = s->regpts[k];
        if (b->c[p] != dc || chain_id[p] >= 0) continue;
        int sp = 0, wall = 0;
        stack[sp++] = p; chain_id[p] = nchains;
        int members[PF_CELLS], nm = 0;
        while (sp) {
            int q = stack[--sp]; members[nm++] = q;
            if (!s->region[q]) wall = 1;
            nbrs(s, q, nb);
            for (int d = 0; d < DIRS_N; d++)
                if (b->c[nb[d]] == dc && chain_id[nb[d]] < 0) { chain_id[nb[d]] = nchains; stack[sp++] = nb[d]; }
        }
        if (wall) { for (int i = 0; i < nm; i++) chain_id[members[i]] = -2; continue; }
        chain_alive[nchains] = 1;
        nchains++;
        if (nchains > PF_MAX_REGION) return 0;
    }
    int any = 0;
    for (int i = 0; i < s->ngroup; i++) if (chain_id[s->group[i]] >= 0) any = 1;
    if (!any) return 0;
    /* regions: components of non-defender cells (empty or attacker) inside the board */
    int reg_start[PF_CELLS / 2 + 2], reg_len[PF_CELLS / 2 + 2];
    static __thread int reg_cells[PF_CELLS];
    int ncells = 0;
    for (int k = 0; k < s->nreg; k++) {
        int p = s->regpts[k];
        if (b->c[p] == dc || b->c[p] == EDGE || region_id[p] >= 0) continue;
        int sp = 0, outside = 0;
        stack[sp++] = p; region_id[p] = nregions;
        reg_start[nregions] = ncells;
        while (sp) {
            int q = stack[--sp]; reg_cells[ncells++] = q;
            if (!s->region[q]) outside = 1;
            nbrs(s, q, nb);
            for (int d = 0; d < DIRS_N; d++) {
                int r = nb[d];
                if (b->c[r] != dc && b->c[r] != EDGE && region_id[r] < 0) { region_id[r] = nregions; stack[sp++] = r; }
            }
        }
        reg_len[nregions] = ncells - reg_start[nregions];
        reg_ok[nregions] = !outside;
        nregions++;
        if (nregions >= PF_CELLS / 2) return 0;
    }
    /* iterate: a chain needs two vital regions; a region adjacent to a dead chain is spoiled */
    for (;;) {
        for (int c = 0; c < nchains; c++) chain_vital[c] = 0;
        for (int r = 0; r < nregions; r++) {
            if (!reg_ok[r]) continue;
            /* the chains bordering the region, and for each whether every empty cell is its liberty */
            int border[8], nborder = 0, ok = 1;
            for (int i = 0; i < reg_len[r] && ok; i++) {
                int q = reg_cells[reg_start[r] + i];
                nbrs(s, q, nb);
                for (int d = 0; d < DIRS_N; d++) {
                    int cid = chain_id[nb[d]];
                    if (b->c[nb[d]] != dc) continue;
                    if (cid < 0) continue;            /* a wall (-2, or a chain wholly outside: -1): never captured */
                    if (!chain_alive[cid]) { ok = 0; break; }
                    int seen = 0;
                    for (int j = 0; j < nborder; j++) if (border[j] == cid) seen = 1;
                    if (!seen && nborder < 8) border[nborder++] = cid;
                }
            }
            if (!ok) { reg_ok[r] = 0; continue; }
            for (int j = 0; j < nborder; j++) {
                int cid = border[j], vital = 1;
                for (int i = 0; i < reg_len[r] && vital; i++) {
                    int q = reg_cells[reg_start[r] + i];
                    if (b->c[q] != EMPTY) continue;
                    int adj = 0;
                    nbrs(s, q, nb);
                    for (int d = 0; d < DIRS_N; d++) if (chain_id[nb[d]] == cid) adj = 1;
                    if (!adj) vital = 0;
                }
                if (vital) chain_vital[cid]++;
            }
        }
        int changed = 0;
        for (int c = 0; c < nchains; c++)
            if (chain_alive[c] && chain_vital[c] < 2) { chain_alive[c] = 0; changed = 1; }
        if (!changed) break;
    }
    for (int i = 0; i < s->ngroup; i++) {
        int cid = chain_id[s->group[i]];
        if (cid >= 0 && chain_alive[cid]) return 1;
    }
    return 0;
}

/* The terminal state of b: T_CAPTURED (no defender stone on the group's cells), T_ESCAPED (one of its
 * chains has a liberty outside the region or holds a wall), T_BENSON (one is pass-alive; with `full`) or
 * T_NONE. *target_libs, *eyes: of its chain with the most liberties; s->target is set to a cell of its
 * chain when it has only one. */
static int terminal(Search *s, const Pos *b, int full, int *target_libs, int *eyes) {
    int libs, out, outlib, n, libcells[8], best_libs = -1, nb[4], stones[PF_CELLS];
    uint8_t done[PF_CELLS];
    memset(done, 0, (size_t)s->stride * (s->h + 2));
    *target_libs = 0; *eyes = 0;
    for (int g = 0; g < s->ngroup; g++) {
        int p = s->group[g];
        if (b->c[p] != s->defender || done[p]) continue;
        chain_info(s, b, p, stones, &n, &libs, &out, &outlib, libcells, 8);
        if (out || outlib) return T_ESCAPED;
        for (int i = 0; i < n; i++) done[stones[i]] = 1;
        if (libs > best_libs) {
            best_libs = libs;
            s->target = p;
            int e = 0;
            for (int i = 0; i < libs && i < 8; i++) {
                int q = libcells[i], eye = 1;
                nbrs(s, q, nb);
                for (int d = 0; d < DIRS_N; d++) if (b->c[nb[d]] != s->defender && b->c[nb[d]] != EDGE) eye = 0;
                e += eye;
            }
            *eyes = e;
        }
    }
    if (best_libs < 0) return T_CAPTURED;
    *target_libs = best_libs;
    if (full && best_libs >= 2 && benson_alive(s, b)) return T_BENSON;
    return T_NONE;
}

/* Whether the group stands in one chain (the forced rescue applies only then). */
static int group_one_chain(Search *s, const Pos *b) {
    int first = -1;
    for (int g = 0; g < s->ngroup; g++) if (b->c[s->group[g]] == s->defender) { first = s->group[g]; break; }
    if (first < 0) return 0;
    int stones[PF_CELLS], n, libs, out, outlib;
    chain_info(s, b, first, stones, &n, &libs, &out, &outlib, NULL, 0);
    for (int g = 0; g < s->ngroup; g++) {
        int p = s->group[g];
        if (b->c[p] != s->defender) continue;
        if (s->mark[p] != s->gen) return 0;  /* chain_info marked its stones with s->gen */
    }
    return 1;
}

static Entry *tt_find(Search *s, uint64_t key) {
    Entry *bucket = s->tt + ((key & s->tt_mask) << 2);
    for (int i = 0; i < 4; i++) if (bucket[i].key == key && bucket[i].work) return &bucket[i];
    return NULL;
}

static void tt_store(Search *s, uint64_t key, uint32_t phi, uint32_t delta, uint32_t work) {
    Entry *bucket = s->tt + ((key & s->tt_mask) << 2), *victim = &bucket[0];
    if (work == 0) work = 1;
    for (int i = 0; i < 4; i++) {
        if (bucket[i].key == key || bucket[i].work == 0) { victim = &bucket[i]; break; }
        if (bucket[i].work < victim->work) victim = &bucket[i];
    }
    victim->key = key; victim->phi = phi; victim->delta = delta; victim->work = work;
}

/* The side to move's (phi, delta) for a terminal result. */
static void terminal_values(const Search *s, int mover, int attacker_wins, uint32_t *phi, uint32_t *delta) {
    int mover_wins = (mover == s->attacker) == attacker_wins;
    *phi = mover_wins ? 0 : PF_INF;
    *delta = mover_wins ? PF_INF : 0;
}

static int terminal_winner(Search *s, int t) {
    if (t == T_CAPTURED) return 1;
    if (t == T_ESCAPED) { s->seen_escape = 1; return s->escape_attacker; }
    return 0;
}

/* Heuristic start values for a non-terminal position, from its mover's side. */
static void init_values(const Search *s, int mover, int libs, int eyes, int near, uint32_t *phi, uint32_t *delta) {
    int pn = libs + 2 * eyes + (near ? 0 : 1);   /* the attacker's proof: more liberties, more eyes, harder */
    int dn = 5 - libs - 2 * eyes;                /* the defender's */
    if (pn < 1) pn = 1;
    if (dn < 1) dn = 1;
    if (mover == s->attacker) { *phi = (uint32_t)pn; *delta = (uint32_t)dn; }
    else { *phi = (uint32_t)dn; *delta = (uint32_t)pn; }
}

/* Whether p touches the target chain or one of its liberties (an attacker's "near" move). */
static int near_target(Search *s, const Pos *b, int p) {
    int nb[4], nb2[4];
    nbrs(s, p, nb);
    uint8_t dc = (uint8_t)s->defender;
    for (int d = 0; d < DIRS_N; d++) {
        if (b->c[nb[d]] == dc) return 1;
        if (b->c[nb[d]] == EMPTY) {
            nbrs(s, nb[d], nb2);
            for (int e = 0; e < DIRS_N; e++) if (b->c[nb2[e]] == dc) return 1;
        }
    }
    return 0;
}

/* The moves that can save the target in atari at `lib`: the liberty and captures of adjacent chains in
 * atari (their last liberties); into `moves`, returns their count. */
static int rescue_moves(Search *s, const Pos *b, int *moves) {
    int stones[PF_CELLS], n, libs, out, outlib, libcells[2], nm = 0, nb[4];
    chain_info(s, b, s->target, stones, &n, &libs, &out, &outlib, libcells, 2);
    if (libs >= 1 && s->region[libcells[0]]) moves[nm++] = libcells[0];
    uint8_t ac = (uint8_t)s->attacker;
    int target_stones[PF_CELLS];
    memcpy(target_stones, stones, sizeof(int) * n);
    for (int i = 0; i < n; i++) {
        nbrs(s, target_stones[i], nb);
        for (int d = 0; d < DIRS_N; d++) {
            if (b->c[nb[d]] != ac) continue;
            int l2, o2, ol2, lc[2];
            chain_info(s, b, nb[d], NULL, NULL, &l2, &o2, &ol2, lc, 2);
            if (l2 == 1 && !o2 && s->region[lc[0]]) {
                int dup = 0;
                for (int j = 0; j < nm; j++) if (moves[j] == lc[0]) dup = 1;
                if (!dup) moves[nm++] = lc[0];
            }
        }
    }
    return nm;
}

/* Whether p lies near the group: it touches a defender stone, an empty point next to one, or an attacker
 * stone next to one (a focused side's moves: Kishimoto and Mueller's searches restrict the moves of the side
 * trying to prove its goal, which keeps a proof sound; the other side's moves are never restricted). */
static int relevant(Search *s, const Pos *b, int p) {
    int nb[4], nb2[4];
    nbrs(s, p, nb);
    uint8_t dc = (uint8_t)s->defender, ac = (uint8_t)s->attacker;
    for (int d = 0; d < DIRS_N; d++) {
        uint8_t v = b->c[nb[d]];
        if (v == dc) return 1;
        if (v == EMPTY || v == ac) {
            nbrs(s, nb[d], nb2);
            for (int e = 0; e < DIRS_N; e++) if (b->c[nb2[e]] == dc) return 1;
        }
    }
    return 0;
}

static void mid(Search *s, Pos *b, int depth, uint32_t thphi, uint32_t thdelta, uint32_t *ophi, uint32_t *odelta);

static int budget_spent(Search *s) {
    if (s->aborted) return 1;
    if (s->max_nodes > 0 && s->nodes >= s->max_nodes) { s->aborted = 1; return 1; }
    if (s->deadline > 0 && (s->nodes & 255) == 0 && now_seconds() > s->deadline) { s->aborted = 1; return 1; }
    return 0;
}

static void mid(Search *s, Pos *b, int depth, uint32_t thphi, uint32_t thdelta, uint32_t *ophi, uint32_t *odelta) {
    int mover = b->tomove, libs, eyes;
    s->nodes++;
    int t = terminal(s, b, 1, &libs, &eyes);
    if (t != T_NONE) {
        terminal_values(s, mover, terminal_winner(s, t), ophi, odelta);
        tt_store(s, b->hash, *ophi, *odelta, 1);
        return;
    }
    for (int i = depth - 2; i >= 0; i -= 1) {
        if (s->path[i] == b->hash) {
            s->seen_repeat = 1;
            terminal_values(s, mover, 0, ophi, odelta);
            return;
        }
    }
    if (depth >= PF_MAX_DEPTH) {
        s->seen_cut = 1;
        terminal_values(s, mover, 0, ophi, odelta);
        return;
    }
    if (budget_spent(s)) {
        Entry *e = tt_find(s, b->hash);
        *ophi = e ? e->phi : 1; *odelta = e ? e->delta : 1;
        return;
    }
    long long start_nodes = s->nodes;
    Child *kids = s->kids + (size_t)depth * (s->nreg + 1);
    int nk = 0, cand[PF_MAX_REGION + 1], ncand = 0;
    if (mover == s->defender && libs == 1 && s->komaster == s->attacker && group_one_chain(s, b)) {
        ncand = rescue_moves(s, b, cand);
    } else {
        for (int k = 0; k < s->nreg; k++) {
            int p = s->regpts[k];
            if (b->c[p] != EMPTY) continue;
            if (mover == s->focus && !relevant(s, b, p)) { s->seen_focus = 1; continue; }
            cand[ncand++] = p;
        }
        if (mover == s->defender) cand[ncand++] = -1;
    }
    for (int i = 0; i < ncand; i++) {
        Pos child = *b;
        int m = cand[i];
        if (m < 0) do_pass(s, &child);
        else if (!play(s, &child, m, mover)) continue;
        Child *k = &kids[nk++];
        k->move = m; k->key = child.hash; k->terminal = 0;
        int cl, ce, ct = terminal(s, &child, 0, &cl, &ce);
        int cm = child.tomove;
        if (ct != T_NONE) {
            terminal_values(s, cm, terminal_winner(s, ct), &k->phi, &k->delta);
            k->terminal = 1;
            continue;
        }
        /* the attacker to move with the target in atari captures it, unless only a forbidden ko takes it */
        Entry *e = tt_find(s, child.hash);
        if (e) { k->phi = e->phi; k->delta = e->delta; }
        else {
            init_values(s, cm, cl, ce, m >= 0 && mover == s->attacker ? near_target(s, b, m) : 1, &k->phi, &k->delta);
            /* a move the policy rates unlikely starts harder to prove for its mover (Gao, Mueller and Hayward,
             * "Focused depth-first proof number search using convolutional neural networks for the game of
             * Hex", IJCAI 2017: the network's move probabilities initialise the proof numbers) */
            if (s->has_cost) k->delta = sat_add(k->delta, m < 0 ? s->pass_cost[mover - 1] : s->cost[mover - 1][m]);
        }
    }
    uint32_t phi_n = PF_INF, delta_n = 0;
    if (nk == 0) {
        terminal_values(s, mover, mover == s->defender, ophi, odelta);  /* no move: the mover loses */
        tt_store(s, b->hash, *ophi, *odelta, 1);
        return;
    }
    s->path[depth] = b->hash;
    for (;;) {
        phi_n = PF_INF; delta_n = 0;
        int best = -1;
        uint32_t d1 = PF_INF, d2 = PF_INF;
        for (int i = 0; i < nk; i++) {
            Child *k = &kids[i];  /* values from the table when made, then from each search's return (a
                                     * re-read would undo a path-dependent return: a loop) */
            delta_n = sat_add(delta_n, k->phi);
            if (k->delta < d1) { d2 = d1; d1 = k->delta; best = i; }
            else if (k->delta < d2) d2 = k->delta;
        }
        phi_n = d1;
        if (phi_n >= thphi || delta_n >= thdelta || s->aborted) break;
        Child *k = &kids[best];
        uint64_t cth = (uint64_t)thdelta + k->phi - delta_n;
        uint32_t child_thphi = cth >= PF_INF ? PF_INF : (uint32_t)cth;
        /* the 1+epsilon trick (Pawlewicz and Lew, "Improving depth-first PN-search: 1+epsilon trick", CG 2006):
         * the best child is searched until its delta passes d2 * (1 + 1/4), not just d2 + 1, so the search
         * switches between siblings less often */
        uint32_t d2_eps = d2 >= PF_INF / 2 ? PF_INF : d2 + (d2 >> 1);
        uint32_t grown = d2_eps > sat_add(d2, 1) ? d2_eps : sat_add(d2, 1);
        uint32_t child_thdelta = thphi < grown ? thphi : grown;
        Pos child = *b;
        if (k->move < 0) do_pass(s, &child);
        else play(s, &child, k->move, mover);
        mid(s, &child, depth + 1, child_thphi, child_thdelta, &k->phi, &k->delta);
        if (s->aborted) {
            /* recompute once for the values returned, then stop */
            phi_n = PF_INF; delta_n = 0;
            for (int i = 0; i < nk; i++) { delta_n = sat_add(delta_n, kids[i].phi); if (kids[i].delta < phi_n) phi_n = kids[i].delta; }
            break;
        }
    }
    long long work = s->nodes - start_nodes + 1;
    if (!s->aborted || phi_n == 0 || delta_n == 0)
        tt_store(s, b->hash, phi_n, delta_n, work > 0xFFFFFFF ? 0xFFFFFFF : (uint32_t)work);
    *ophi = phi_n; *odelta = delta_n;
}

/* The principal line from b by the table: the winner's quickest proved move, the loser's most resisting
 * one (the most work). Returns the length; `end` gets the last position. */
static int principal_line(Search *s, const Pos *root, int *line, Pos *end) {
    Pos b = *root;
    int n = 0;
    uint64_t seen[PF_MAX_LINE + 1];
    seen[0] = b.hash;
    while (n < PF_MAX_LINE) {
        int libs, eyes;
        if (terminal(s, &b, 1, &libs, &eyes) != T_NONE) break;
        Entry *e = tt_find(s, b.hash);
        if (!e || (e->phi != 0 && e->delta != 0)) break;
        int mover = b.tomove, cand[PF_MAX_REGION + 1], ncand = 0;
        if (mover == s->defender && libs == 1 && s->komaster == s->attacker && group_one_chain(s, &b))
            ncand = rescue_moves(s, &b, cand);
        else {
            for (int k = 0; k < s->nreg; k++) if (b.c[s->regpts[k]] == EMPTY) cand[ncand++] = s->regpts[k];
            if (mover == s->defender) cand[ncand++] = -1;
        }
        int winning = e->phi == 0, best = -2;
        uint32_t best_work = 0;
        Pos best_pos;
        for (int i = 0; i < ncand; i++) {
            Pos child = b;
            int m = cand[i];
            if (m < 0) do_pass(s, &child);
            else if (!play(s, &child, m, mover)) continue;
            int cl, ce, ct = terminal(s, &child, 1, &cl, &ce);
            uint32_t cphi, cdelta, cwork;
            if (ct != T_NONE) {
                int aw = ct == T_CAPTURED ? 1 : ct == T_ESCAPED ? s->escape_attacker : 0;
                terminal_values(s, child.tomove, aw, &cphi, &cdelta);
                cwork = 1;
            } else {
                Entry *ce2 = tt_find(s, child.hash);
                if (!ce2) continue;
                cphi = ce2->phi; cdelta = ce2->delta; cwork = ce2->work;
            }
            int repeated = 0;
            for (int j = 0; j <= n; j++) if (seen[j] == child.hash) repeated = 1;
            if (repeated) continue;
            if (winning) {
                if (cdelta != 0) continue;
                if (best == -2 || cwork < best_work) { best = m; best_work = cwork; best_pos = child; }
            } else {
                if (cphi != 0) continue;
                if (best == -2 || cwork > best_work) { best = m; best_work = cwork; best_pos = child; }
            }
        }
        if (best == -2) break;
        line[n++] = best;
        b = best_pos;
        seen[n] = b.hash;
    }
    *end = b;
    return n;
}

/* solve(width, height, cells, region, target, attacker, to_move, komaster, escape_attacker, max_nodes,
 *       seconds, tt_bits[, group[, focus[, costs]]]) -> (result, nodes, line, end_reason, flags)
 * group (optional, width*height bytes): the defender's stones, with the target's chain, that make the
 * group: the attacker must leave no defender stone on any of their points; the defender lives where one
 * of its chains there is pass-alive or escapes.
 * cells, region: bytes of width*height (row-major; cells 0 empty / 1 Black / 2 White; region 1 playable);
 * target a row-major index; colours 1 / 2. result 1: the attacker captures the target (proved), 0: it
 * cannot (proved, subject to flags), -1: the budget ran out. line: row-major moves, -1 a pass. end_reason:
 * the line's last position's terminal test (0 none, 1 captured, 2 Benson, 3 escaped). flags: 1 an escape
 * terminal was met, 2 the depth cap, 4 a repetition, 8 a focused side's move left out. focus: 0, or the
 * colour (1 / 2) whose moves are only those near the group (`relevant`). costs (optional, 2 * (width*height + 1)
 * bytes, or empty for none): Black's cost of a move at each point (row-major) and of a pass, then White's; a
 * child's proof number for its mover starts that much higher (move ordering only: a proof stays a proof). */
static PyObject *py_solve(PyObject *self, PyObject *args) {
    int w, h, target, attacker, to_move, komaster, escape_attacker, tt_bits, focus = 0;
    long long max_nodes;
    double seconds;
    Py_buffer cells, region;
    Py_buffer group = {0}, costs = {0};
    if (!PyArg_ParseTuple(args, "iiy*y*iiiiiLdi|y*iy*", &w, &h, &cells, &region, &target, &attacker, &to_move,
                          &komaster, &escape_attacker, &max_nodes, &seconds, &tt_bits, &group, &focus, &costs))
        return NULL;
    PyObject *result = NULL;
    Search *s = NULL;
    const char *err = NULL;
    if (w < 1 || h < 1 || w > PF_MAX_SIDE || h > PF_MAX_SIDE) err = "board sides must be 1..25";
    else if (cells.len != (Py_ssize_t)w * h || region.len != (Py_ssize_t)w * h
             || (group.buf && group.len != (Py_ssize_t)w * h)) err = "cells, region and group must hold width*height bytes";
    else if (costs.buf && costs.len != 0 && costs.len != 2 * ((Py_ssize_t)w * h + 1))
        err = "costs must hold 2 * (width*height + 1) bytes (or none)";
    else if (target < 0 || target >= w * h) err = "target off the board";
    else if ((attacker != BLACK && attacker != WHITE) || (to_move != BLACK && to_move != WHITE)
             || (komaster != BLACK && komaster != WHITE)) err = "colours must be 1 (Black) or 2 (White)";
    else if (tt_bits < 8 || tt_bits > 24) err = "tt_bits must be 8..24";
    else if (max_nodes < 1) err = "max_nodes must be at least 1";
    else if (focus != 0 && focus != BLACK && focus != WHITE) err = "focus must be 0, 1 (Black) or 2 (White)";
    if (err) { PyErr_SetString(PyExc_ValueError, err); goto done; }
    s = calloc(1, sizeof(Search));
    if (!s) { PyErr_NoMemory(); goto done; }
    s->w = w; s->h = h; s->stride = w + 2;
    Pos root;
    memset(&root, EDGE, sizeof(root.c));
    const uint8_t *cb = cells.buf, *rb = region.buf;
    for (int r = 0; r < h && !err; r++)
        for (int c = 0; c < w; c++) {
            int p = (r + 1) * s->stride + c + 1;
            if (cb[r * w + c] > 2) { err = "cells must be 0, 1 or 2"; break; }
            root.c[p] = cb[r * w + c];
            if (rb[r * w + c]) {
                if (s->nreg >= PF_MAX_REGION) { err = "the region holds more than 128 points"; break; }
                s->region[p] = 1;
                s->regpts[s->nreg++] = p;
            }
        }
    s->target = (target / w + 1) * s->stride + target % w + 1;
    s->attacker = attacker; s->defender = 3 - attacker; s->komaster = komaster;
    s->escape_attacker = escape_attacker ? 1 : 0;
    s->focus = focus;
    if (!err && costs.buf && costs.len > 0) {
        const uint8_t *kb = costs.buf;
        s->has_cost = 1;
        for (int col = 0; col < 2; col++) {
            const uint8_t *ck = kb + (size_t)col * ((size_t)w * h + 1);
            for (int r = 0; r < h; r++)
                for (int c = 0; c < w; c++) s->cost[col][(r + 1) * s->stride + c + 1] = ck[r * w + c];
            s->pass_cost[col] = ck[(size_t)w * h];
        }
    }
    if (!err && s->nreg == 0) err = "the region is empty";
    if (!err && root.c[s->target] != s->defender) err = "the target is not a stone of the defender";
    if (!err) {
        /* the group: the target's chain, and the defender's stones the group mask names */
        int stones[PF_CELLS], n, libs, out, outlib;
        chain_info(s, &root, s->target, stones, &n, &libs, &out, &outlib, NULL, 0);
        for (int i = 0; i < n && s->ngroup < PF_MAX_REGION; i++) s->group[s->ngroup++] = stones[i];
        const uint8_t *gb = group.buf;
        for (int r = 0; gb && r < h; r++)
            for (int c = 0; c < w; c++) {
                int p = (r + 1) * s->stride + c + 1, dup = 0;
                if (!gb[r * w + c] || root.c[p] != s->defender) continue;
                for (int i = 0; i < s->ngroup; i++) if (s->group[i] == p) dup = 1;
                if (dup) continue;
                if (s->ngroup >= PF_MAX_REGION) { err = "the group holds more than 128 stones"; break; }
                s->group[s->ngroup++] = p;
            }
    }
    if (err) { PyErr_SetString(PyExc_ValueError, err); goto done; }
    uint64_t seed = 0x74656e67656eull;
    for (int i = 0; i < PF_CELLS; i++) for (int c = 0; c < 3; c++) s->zob[i][c] = splitmix(&seed);
    s->zob_side = splitmix(&seed);
    root.hash = 0;
    for (int i = 0; i < PF_CELLS; i++) if (root.c[i] == BLACK || root.c[i] == WHITE) root.hash ^= s->zob[i][root.c[i]];
    root.tomove = to_move;
    if (to_move == WHITE) root.hash ^= s->zob_side;
    s->tt_mask = ((uint64_t)1 << (tt_bits - 2)) - 1;
    s->tt = calloc((size_t)1 << tt_bits, sizeof(Entry));
    s->kids = malloc(sizeof(Child) * (size_t)PF_MAX_DEPTH * (s->nreg + 1));
    if (!s->tt || !s->kids) { PyErr_NoMemory(); goto done; }
    s->max_nodes = max_nodes;
    s->deadline = seconds > 0 ? now_seconds() + seconds : 0;
    uint32_t phi = 0, delta = 0;
    int res;
    int line[PF_MAX_LINE], nline;
    Pos end;
    Py_BEGIN_ALLOW_THREADS
    mid(s, &root, 0, PF_INF, PF_INF, &phi, &delta);
    nline = principal_line(s, &root, line, &end);
    Py_END_ALLOW_THREADS
    {
        int mover_wins = phi == 0, mover_loses = delta == 0;
        if (!mover_wins && !mover_loses) res = RES_UNKNOWN;
        else res = (mover_wins == (to_move == attacker)) ? RES_ATTACKER : RES_DEFENDER;
    }
    int libs, eyes, end_reason = terminal(s, &end, 1, &libs, &eyes);
    PyObject *pyline = PyList_New(nline);
    if (!pyline) goto done;
    for (int i = 0; i < nline; i++) {
        int m = line[i], v = m < 0 ? -1 : ((m / s->stride) - 1) * w + (m % s->stride) - 1;
        PyList_SET_ITEM(pyline, i, PyLong_FromLong(v));
    }
    int flags = (s->seen_escape ? 1 : 0) | (s->seen_cut ? 2 : 0) | (s->seen_repeat ? 4 : 0) | (s->seen_focus ? 8 : 0);
    result = Py_BuildValue("(iLNii)", res, s->nodes, pyline, end_reason, flags);
done:
    if (s) { free(s->tt); free(s->kids); free(s); }
    PyBuffer_Release(&cells);
    PyBuffer_Release(&region);
    if (group.buf) PyBuffer_Release(&group);
    if (costs.buf) PyBuffer_Release(&costs);
    return result;
}

static PyMethodDef METHODS[] = {
    {"solve", py_solve, METH_VARARGS, "solve(width, height, cells, region, target, attacker, to_move, komaster, "
     "escape_attacker, max_nodes, seconds, tt_bits[, group[, focus[, costs]]]) -> (result, nodes, line, end_reason, flags)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef MODULE = {PyModuleDef_HEAD_INIT, "_proof", "df-pn life and death over a local problem", -1, METHODS};

PyMODINIT_FUNC PyInit__proof(void) { return PyModule_Create(&MODULE); }
