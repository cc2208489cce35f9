/* _uct_knowledge.h: default prior knowledge for new tree nodes, after Fuego's GoUctDefaultPriorKnowledge (Enzenberger,
 * Mueller, Arneson and Segal 2010, "Fuego: an open-source framework for board games and Go engine based on Monte
 * Carlo tree search"; the version of Fuego 0.4, the plain arm of the Cortigo study) and Gelly and Silver (2007),
 * "Combining online and offline knowledge in UCT" (a prior as virtual games: a value and a count).
 *
 * When a node is expanded, the playout policy (tengen.search._uct_playout) is asked what it would play at the
 * node's position, and each child starts with virtual games, in both its own and its AMAF statistics:
 *   - the policy has a move of its own there (an answer to the last move's atari, a 3x3 pattern next to the last
 *     move, or a capture anywhere): those moves 1.0 x 9 games; other moves a self-atari 0.0 x 9, a 3x3 pattern
 *     match 0.6 x 9, the rest 0.4 x 9;
 *   - the policy would play at random, but some empty point matches a 3x3 pattern: self-ataris 0.0 x 3,
 *     pattern matches 1.0 x 3, the rest 0.5 x 3;
 *   - no pattern anywhere: self-ataris 0.0 x 3, the rest no virtual games;
 *   - the pass 0.0 x 9 in every case;
 *   - but on boards of 13 x 13 and more, a move with no stone within two points (its 5 x 5 square empty) is
 *     valued by its line, as Pachi's prior does on large boards (Baudis 2011, "MCTS with information sharing",
 *     its `b19` prior) and Fuego's root filter for the first line: the first and second lines 0.0 x 9, the third
 *     and fourth 0.7 x 9 (no pattern, atari or self-atari can lie in such a square).
 * And a move that extends an own chain in atari into a ladder that catches it (tengen.search._uct_ladder) is
 * valued as a self-atari, 0.0 x 9, whatever else it is (Fuego's root filter drops such moves at the root,
 * GoUctDefaultRootFilter; here at every new node).
 * A self-atari is a move after which its chain has one liberty (captures counted). The virtual games are kept
 * apart from the real ones (UNode.known_n, known_v): the search reports real visits and win rates, and a node
 * is expanded after real visits only. */
#ifndef TENGEN_UCT_KNOWLEDGE_H
#define TENGEN_UCT_KNOWLEDGE_H

#define UK_STRONG_COUNT 9   /* virtual games where the policy has a move of its own, and for the pass */
#define UK_WEAK_COUNT 3     /* virtual games where the policy would play at random */

/* The captures of opponent chains in atari anywhere on the board (the policy's rule 3), into cand (room for
   UB_MAX_ATARI); returns their number. */
static int uk_captures(const UBoard *b, int c, int *cand) {
    int n = 0;
    for (int p = 0; p < b->g.N && n < UB_MAX_ATARI; p++) {
        if (b->g.color[p] != BC_OPP(c) || b->g.head[p] != p || !bc_in_atari(&b->g, p)) continue;
        int lib = bc_atari_lib(&b->g, p);
        if (ub_legal(b, lib, c)) up_add(cand, &n, lib);
    }
    return n;
}

/* The win sum of count virtual games worth tenths / 10 of a win each, in the tree's units (2 a win). */
static inline float uk_virtual_wins(int count, int tenths) { return (float)(2 * count * tenths) / 10.0f; }

/* A fresh child's virtual games: count games worth tenths / 10 of a win each. */
static inline void uk_set(UNode *ch, int count, int tenths) {
    float wins = uk_virtual_wins(count, tenths);
    ch->visits = (uint32_t)count; ch->wins = wins;
    ch->amaf_visits = (uint32_t)count; ch->amaf_wins = wins;
    ch->known_n = (uint8_t)count; ch->known_v = (uint8_t)tenths;
}

#define UK_LARGE_BOARD 13   /* the line rule's smallest side */

/* The line (1: the edge) of an empty point p whose 5 x 5 square holds no stone; 0 when a stone lies in it. */
static int uk_empty_area_line(const UBoard *b, int p) {
    const int S = b->g.S, row = p / S - 1, col = p % S - 1;
    for (int dr = -2; dr <= 2; dr++)
        for (int dc = -2; dc <= 2; dc++) {
            int r = row + dr, c = col + dc;
            if (r < 0 || c < 0 || r >= b->g.h || c >= b->g.w) continue;
            int q = bc_point(&b->g, r, c);
            if (b->g.color[q] == BC_BLACK || b->g.color[q] == BC_WHITE) return 0;
        }
    int line = row, k;
    if ((k = b->g.h - 1 - row) < line) line = k;
    if (col < line) line = col;
    if ((k = b->g.w - 1 - col) < line) line = k;
    return line + 1;
}

/* The liberties of colour c's chains in atari where c's extension is caught in a ladder, into out (room for
   UB_MAX_ATARI); returns their number. */
static int uk_lost_ladders(const UBoard *b, int c, int *out) {
    int n = 0;
    for (int p = 0; p < b->g.N && n < UB_MAX_ATARI; p++) {
        if (b->g.color[p] != c || b->g.head[p] != p || !bc_in_atari(&b->g, p)) continue;
        int lib = bc_atari_lib(&b->g, p);
        if (ub_legal(b, lib, c) && ul_escape_fails(b, lib, c)) up_add(out, &n, lib);
    }
    return n;
}

/* Whether m is one of the n points in a. */
static inline int uk_among(const int *a, int n, int m) {
    for (int k = 0; k < n; k++) if (a[k] == m) return 1;
    return 0;
}

/* Give the n fresh children ch of a node at position b their virtual games (see the header). */
static void uk_initialize(const UBoard *b, UNode *ch, int n) {
    int c = b->to_play, best[UB_MAX_ATARI + 32], nbest = 0, captures, lost[UB_MAX_ATARI];
    const int nlost = uk_lost_ladders(b, c, lost);
    if (b->last >= 0) {
        nbest = up_atari_answers(b, c, best, &captures);
        if (!nbest) nbest = up_pattern_moves(b, c, best);
    }
    if (!nbest) nbest = uk_captures(b, c, best);
    int any_pattern = 0;
    if (!nbest)
        for (int i = 0; i < n && !any_pattern; i++) any_pattern = ch[i].move >= 0 && up_match(b, ch[i].move);
    for (int i = 0; i < n; i++) {
        int m = ch[i].move;
        if (m < 0) { uk_set(&ch[i], UK_STRONG_COUNT, 0); continue; }
        int line = b->g.w >= UK_LARGE_BOARD && b->g.h >= UK_LARGE_BOARD ? uk_empty_area_line(b, m) : 0;
        if (line && line <= 4) { uk_set(&ch[i], UK_STRONG_COUNT, line <= 2 ? 0 : 7); continue; }
        int self_atari = ub_libs_after2(b, m, c) < 2;
        if (uk_among(lost, nlost, m)) { uk_set(&ch[i], UK_STRONG_COUNT, 0); continue; }
        if (nbest) {
            if (uk_among(best, nbest, m)) uk_set(&ch[i], UK_STRONG_COUNT, 10);
            else uk_set(&ch[i], UK_STRONG_COUNT, self_atari ? 0 : up_match(b, m) ? 6 : 4);
        } else if (self_atari) uk_set(&ch[i], UK_WEAK_COUNT, 0);
        else if (any_pattern) uk_set(&ch[i], UK_WEAK_COUNT, up_match(b, m) ? 10 : 5);
    }
}

#endif
