/* _uct_patterns.h: the 3x3 playout patterns of Gelly, Wang, Munos and Teytaud (2006), "Modification of UCT
 * with patterns in Monte-Carlo Go" (the Mogo patterns), as one lookup table over every 3x3 neighbourhood.
 *
 * A neighbourhood is the colours of the 8 points around an empty centre, in the order NW N NE W E SW S SE,
 * two bits each (0 empty, 1 black, 2 white, 3 off the board): 4^8 = 65,536 codes. At module init every code
 * is tested against every pattern under the 8 rotations and reflections and both colourings (the paper's
 * patterns describe shapes where the centre is the vital point for either side: the same hane or cut is
 * urgent to whoever moves), and the table keeps one bit per code (8 KB). The board keeps every point's code
 * up to date as stones come and go (tengen.search._uct_board), so a playout reads a point's pattern in one load
 * and one bit test.
 *
 * The patterns, written here from the paper's figures; the centre is the move. X and O are stones of the
 * two colours, '.' empty, 'x' anything but X, 'o' anything but O, '#' off the board, '?' anything:
 *   hane: enclosing hane, non-cutting hane, magari, thin hane; the diagonal attachment (katatsuke);
 *   cut1: the unprotected cut and the peeped cut; cut2 (de); the keima cut;
 *   edge (first line): chase, block the side cut, block the side connection, sagari, the side cut. */
#ifndef TENGEN_UCT_PATTERNS_H
#define TENGEN_UCT_PATTERNS_H

#include <stdint.h>

static const char *const UP_PATTERNS[][3] = {
    /* hane */
    {"XOX", "...", "???"},   /* enclosing hane */
    {"XO.", "...", "?.?"},   /* non-cutting hane */
    {"XO?", "X..", "x.?"},   /* magari */
    {"XOO", "...", "?.?"},   /* thin hane */
    {".O.", "X..", "..."},   /* diagonal attachment (katatsuke) */
    /* cut1, cut2, keima cut */
    {"XO?", "O.o", "?o?"},   /* unprotected cut */
    {"XO?", "O.X", "???"},   /* peeped cut */
    {"?X?", "O.O", "ooo"},   /* cut2 (de) */
    {"OX?", "o.O", "???"},   /* keima cut */
    /* edge: the bottom row is off the board, the move on the first line */
    {"X.?", "O.?", "##?"},   /* chase */
    {"OX?", "X.O", "###"},   /* block the side cut */
    {"?X?", "x.O", "###"},   /* block the side connection */
    {"?XO", "x.x", "###"},   /* sagari */
    {"?OX", "X.O", "###"},   /* the side cut */
};
#define UP_NPATTERNS ((int)(sizeof(UP_PATTERNS) / sizeof(UP_PATTERNS[0])))

static uint64_t up_bits[1 << 10];  /* bit `code`: some pattern matches (65,536 bits, 8 KB) */


/* The 3x3 cells (row, col) of the 8 neighbours in code order. */
static const int UP_CELL_R[8] = {0, 0, 0, 1, 1, 2, 2, 2};
static const int UP_CELL_C[8] = {0, 1, 2, 0, 2, 0, 1, 2};

static int up_cell_matches(char ch, int v, int swap) {
    if (swap) ch = ch == 'X' ? 'O' : ch == 'O' ? 'X' : ch == 'x' ? 'o' : ch == 'o' ? 'x' : ch;
    switch (ch) {
    case 'X': return v == 1;
    case 'O': return v == 2;
    case '.': return v == 0;
    case 'x': return v != 1;
    case 'o': return v != 2;
    case '#': return v == 3;
    default: return 1;  /* '?' */
    }
}

/* Whether the codes' cells could stand on a board: off-board cells form whole rows and columns. */
static int up_code_possible(int code) {
    int v[3][3];
    v[1][1] = 0;
    for (int i = 0; i < 8; i++) v[UP_CELL_R[i]][UP_CELL_C[i]] = (code >> (2 * i)) & 3;
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) {
            if (v[r][c] != 3) continue;
            /* an off-board cell lies in an off-board edge row or column */
            int in_row = (r != 1) && v[r][0] == 3 && v[r][1] == 3 && v[r][2] == 3;
            int in_col = (c != 1) && v[0][c] == 3 && v[1][c] == 3 && v[2][c] == 3;
            if (!in_row && !in_col) return 0;
        }
    return 1;
}

static void up_init(void) {
    for (int code = 0; code < (1 << 16); code++) {
        up_bits[code >> 6] &= ~(1ULL << (code & 63));
        if (!up_code_possible(code)) continue;
        int v[3][3];
        v[1][1] = 0;
        for (int i = 0; i < 8; i++) v[UP_CELL_R[i]][UP_CELL_C[i]] = (code >> (2 * i)) & 3;
        int found = 0;
        for (int k = 0; k < UP_NPATTERNS && !found; k++)
            for (int sym = 0; sym < 8 && !found; sym++)
                for (int swap = 0; swap < 2 && !found; swap++) {
                    int ok = 1;
                    for (int r = 0; r < 3 && ok; r++)
                        for (int c = 0; c < 3 && ok; c++) {
                            if (r == 1 && c == 1) continue;
                            int rr = r, cc = c, t;
                            if (sym & 4) cc = 2 - cc;                    /* reflect */
                            for (int q = 0; q < (sym & 3); q++) { t = rr; rr = cc; cc = 2 - t; }  /* rotate 90 */
                            ok = up_cell_matches(UP_PATTERNS[k][r][c], v[rr][cc], swap);
                        }
                    if (ok) found = 1;
                }
        if (found) up_bits[code >> 6] |= 1ULL << (code & 63);
    }
}

/* Whether a pattern matches around the empty point p (its neighbourhood code is kept by the board). */
static inline int up_match(const UBoard *b, int p) { unsigned x = b->code[p]; return (int)((up_bits[x >> 6] >> (x & 63)) & 1); }

#endif
