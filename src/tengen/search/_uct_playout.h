/* _uct_playout.h: the playout policy and the playout, in the priority order of Gelly, Wang, Munos and
 * Teytaud (2006), "Modification of UCT with patterns in Monte-Carlo Go" (Mogo):
 *   1. answer atari: capture the chain of the last move when it is in atari; save own chains next to the last
 *      move that it put in atari, by capturing an opponent chain in atari that touches them, or by extending at
 *      the liberty when the chain then has >= 2 liberties and, with exactly two, is not caught in a ladder
 *      (tengen.search._uct_ladder; Pachi's playouts check their escapes so) (one of these at random);
 *   2. a 3x3 pattern (tengen.search._uct_patterns) at one of the 8 neighbours of the last move (at random among
 *      the matches), not a self-atari nor an escape into a lost ladder;
 *   3. with probability UP_CAPTURE_ANY_PERCENT %, capture any opponent chain in atari;
 *   4. a random legal move that does not fill an own eye; a move that leaves a chain of >= 3 stones in
 *      self-atari is drawn again (up to UP_SELF_ATARI_REDRAWS times). No such move: pass.
 * A playout ends after two passes, which the policy plays only when the side to move has no legal move but
 * filling its own eyes (rule 4 found nothing), after 3 x the board's points in moves, or (the mercy rule, when
 * on) as soon as one side leads by `mercy` stones on the board (then scored by that stone count); else it is scored by area
 * (tengen.search._uct_board's ub_area: stones, and empty points whose neighbours are all one colour, so eyes count)
 * with komi. Benson's pass-alive test (ub_settled) is not run in the playouts: measured on 19x19 it costs about
 * 7.5 us a call, while a playout reaches its end only about 13 moves (~1 us) after the whole board is
 * pass-alive (and in 600 playouts checked, the Benson area then equalled the final area count every time). */
#ifndef TENGEN_UCT_PLAYOUT_H
#define TENGEN_UCT_PLAYOUT_H

#define UP_CAPTURE_ANY_PERCENT 50
#define UP_SELF_ATARI_REDRAWS 3

enum { RULE_PASS = 0, RULE_CAPTURE, RULE_ESCAPE, RULE_PATTERN, RULE_CAPTURE_ANY, RULE_RANDOM };
static const char *const RULE_NAMES[] = {"pass", "capture", "escape", "pattern", "capture_any", "random"};

static inline int up_pick(const int *cand, int n, uint64_t *rng) { return cand[n == 1 ? 0 : bc_randint(rng, (uint32_t)n)]; }

static inline void up_add(int *cand, int *n, int p) {
    for (int i = 0; i < *n; i++) if (cand[i] == p) return;
    cand[(*n)++] = p;
}

/* Rule 1's candidates: the moves that answer an atari the last move (the opponent's) made, into cand (room for
   32); returns their number, the first *captures of them capturing the last move's chain. */
static int up_atari_answers(const UBoard *b, int c, int *cand, int *captures) {
    int last = b->last, n = 0;
    const int S = b->g.S;
    *captures = 0;
    if (last < 0 || !b->last_atari || b->g.color[last] != BC_OPP(c)) return 0;
    int h = b->g.head[last];
    if (bc_in_atari(&b->g, h)) {
        int lib = bc_atari_lib(&b->g, h);
        if (ub_legal(b, lib, c)) up_add(cand, &n, lib);
    }
    *captures = n;
    const int nb[4] = {last - S, last - 1, last + 1, last + S};
    int done[4], nd = 0;
    for (int i = 0; i < 4; i++) {
        if (b->g.color[nb[i]] != c) continue;
        int own = b->g.head[nb[i]], k = 0;
        while (k < nd && done[k] != own) k++;
        if (k < nd || !bc_in_atari(&b->g, own)) continue;
        done[nd++] = own;
        int s = own;  /* capture an opponent chain in atari touching it */
        do {
            const int sn[4] = {s - S, s - 1, s + 1, s + S};
            for (int j = 0; j < 4 && n < 28; j++) {
                if (b->g.color[sn[j]] != BC_OPP(c) || !bc_in_atari(&b->g, b->g.head[sn[j]])) continue;
                int lib = bc_atari_lib(&b->g, b->g.head[sn[j]]);
                if (ub_legal(b, lib, c)) up_add(cand, &n, lib);
            }
            s = b->g.next[s];
        } while (s != own);
        int lib = bc_atari_lib(&b->g, own);  /* extend */
        if (ub_legal(b, lib, c) && ub_libs_after2(b, lib, c) >= 2 && !ul_escape_fails(b, lib, c)) up_add(cand, &n, lib);
    }
    return n;
}

/* Rule 1: answer atari around the last move (one of rule 1's candidates at random). */
static int up_answer_atari(const UBoard *b, int c, uint64_t *rng, int *rule) {
    int cand[32], captures, n = up_atari_answers(b, c, cand, &captures);
    if (!n) return UB_PASS;
    int p = up_pick(cand, n, rng);
    int i = 0;
    while (cand[i] != p) i++;
    *rule = i < captures ? RULE_CAPTURE : RULE_ESCAPE;
    return p;
}

/* Rule 2's candidates: the empty neighbours of the last move where a pattern matches and the move is legal and
   no self-atari, into cand (room for 8); returns their number. */
static int up_pattern_moves(const UBoard *b, int c, int *cand) {
    int last = b->last, n = 0;
    if (last < 0) return 0;
    const int S = b->g.S, around[8] = {last - S - 1, last - S, last - S + 1, last - 1, last + 1, last + S - 1, last + S, last + S + 1};
    unsigned x = b->code[last], empty = ~(x | (x >> 1)) & 0x5555u;  /* the empty neighbours, from last's code */
    while (empty) {
        int i = __builtin_ctz(empty) >> 1;
        empty &= empty - 1;
        int p = around[i];
        if (!up_match(b, p) || !ub_legal(b, p, c)) continue;
        if (ub_libs_after2(b, p, c) < 2 || ul_lost_escape(b, p, c)) continue;
        cand[n++] = p;
    }
    return n;
}

/* Rule 2: a pattern at one of the 8 neighbours of the last move. */
static int up_pattern_move(const UBoard *b, int c, uint64_t *rng) {
    int cand[8], n = up_pattern_moves(b, c, cand);
    return n ? up_pick(cand, n, rng) : UB_PASS;
}

/* Rule 3: capture any opponent chain in atari (at random among them; the board's atari list). */
static int up_capture_any(UBoard *b, int c, uint64_t *rng) {
    int cand[UB_MAX_ATARI], n = 0;
    ub_prune_atari(b);
    for (int i = 0; i < b->natari; i++) {
        int h = b->atari[i];
        if (b->g.color[h] != BC_OPP(c)) continue;
        int lib = bc_atari_lib(&b->g, h);
        if (ub_legal(b, lib, c)) up_add(cand, &n, lib);
    }
    return n ? up_pick(cand, n, rng) : UB_PASS;
}

/* Rule 4: a random legal move that fills no own eye, big self-ataris redrawn. */
static int up_random_move(const UBoard *b, int c, uint64_t *rng) {
    int ne = b->g.nempty, redraws = UP_SELF_ATARI_REDRAWS, fallback = UB_PASS;
    if (!ne) return UB_PASS;
    int start = (int)bc_randint(rng, (uint32_t)ne);
    for (int i = 0; i < ne; i++) {
        int k = start + i; if (k >= ne) k -= ne;
        int p = b->g.empties[k];
        if (p == b->g.ko || ub_is_eye(b, p, c) || !ub_legal(b, p, c)) continue;
        if (ub_libs_after2(b, p, c) < 2 && ub_size_after(b, p, c) >= 3) {
            if (fallback == UB_PASS) fallback = p;
            if (redraws-- > 0) { start = (int)bc_randint(rng, (uint32_t)ne); i = -1; continue; }
            continue;  /* past the redraws: keep scanning for a move that is not a big self-atari */
        }
        return p;
    }
    return fallback;
}

/* The playout policy's move for the side to move (UB_PASS when none); `rule` gets which rule chose it. */
static int up_policy(UBoard *b, uint64_t *rng, int *rule) {
    int c = b->to_play, p;
    *rule = RULE_PASS;
    if (b->last >= 0) {
        p = up_answer_atari(b, c, rng, rule);
        if (p != UB_PASS) return p;
        p = up_pattern_move(b, c, rng);
        if (p != UB_PASS) { *rule = RULE_PATTERN; return p; }
    }
    if ((int)bc_randint(rng, 100) < UP_CAPTURE_ANY_PERCENT) {
        p = up_capture_any(b, c, rng);
        if (p != UB_PASS) { *rule = RULE_CAPTURE_ANY; return p; }
    }
    p = up_random_move(b, c, rng);
    if (p != UB_PASS) *rule = RULE_RANDOM;
    return p;
}

/* The mercy rule (as in Fuego's GoUctGlobalSearch, Pachi, Orego): a playout stops as soon as one side leads by
   at least `mercy` stones on the board (0: never), and is scored by that stone count with komi (a win for the
   leader whenever mercy > |komi|), not played out to the end. The callers switch it off (mercy 0) for a search
   or a run of playouts whose starting position already has such a lead, where it would end every playout at once
   and tell no move from another. */
static inline int up_mercy_for(const UBoard *b, int mercy) {
    int d = b->g.stones[BC_BLACK] - b->g.stones[BC_WHITE];
    return mercy > 0 && (d >= mercy || -d >= mercy) ? 0 : mercy;
}

/* Play the position out (in place). Each move is appended to seq (points, UB_PASS) with its colour in
   seq_color while *nseq < cap. `mercy`: the mercy rule's lead in stones (0: off). Returns 2 for a Black win
   by area with komi, 1 for a tie, 0 for a loss (wins counted twice). */
static int up_playout(UBoard *b, double komi, int mercy, uint64_t *rng, int16_t *seq, uint8_t *seq_color, int *nseq, int cap) {
    int max_moves = 3 * b->g.w * b->g.h, moves = 0, rule;
    while (b->npass < 2 && moves < max_moves) {
        int c = b->to_play;
        int p = up_policy(b, rng, &rule);
        ub_play(b, p);
        if (*nseq < cap) { seq[*nseq] = (int16_t)p; seq_color[*nseq] = (uint8_t)c; (*nseq)++; }
        moves++;
        if (mercy) {
            int d = b->g.stones[BC_BLACK] - b->g.stones[BC_WHITE];
            if (d >= mercy || -d >= mercy) {
                double score = d - komi;
                return score > 0 ? 2 : score < 0 ? 0 : 1;
            }
        }
    }
    double score = ub_area(b) - komi;
    return score > 0 ? 2 : score < 0 ? 0 : 1;
}

#endif
