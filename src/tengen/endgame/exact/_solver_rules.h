/* The local game's rules over 64-bit masks: a port of tengen/endgame/exact/rules.py's LocalRegion
 * (`dilate`, `chain`, `play`, `analyze`, `candidates`, `pointless_sacrifice`, `independent_parts`),
 * which stays the reference (tests replay both on random positions). Colour indices: 0 Black, 1 White. */
#ifndef TENGEN_SOLVER_RULES_H
#define TENGEN_SOLVER_RULES_H

#include <stdint.h>

#define NO_TWO_EYES 7

typedef struct {
    int n, chunks;
    uint64_t full;
    uint64_t nb[64];
    uint64_t wall[2], breach[2];
    int suicide;
    int offset;  /* added to every count: outside points the game plays, less what the marked game gave them */
    uint64_t table[8][256];  /* dilation by bytes: table[k][x] = neighbours of the points of x << 8k */
} Region;

static void region_tables(Region *r) {
    r->chunks = (r->n + 7) / 8;
    for (int k = 0; k < 8; k++) {
        r->table[k][0] = 0;
        for (int x = 1; x < 256; x++) {
            int low = __builtin_ctz((unsigned)x), j = 8 * k + low;
            r->table[k][x] = r->table[k][x & (x - 1)] | (j < r->n ? r->nb[j] : 0);
        }
    }
}

typedef struct {
    int settled, count, stands, lo, hi, threat, not_sealed;
    uint64_t open, unsafe;
    uint64_t owned[2], territory[2];  /* what can never change hands: safe stones and dead areas; territory */
} Info;

static inline uint64_t lowbit(uint64_t m) { return m & (~m + 1); }
static inline int bit_index(uint64_t m) { return __builtin_ctzll(m); }
static inline int popcount(uint64_t m) { return __builtin_popcountll(m); }

static inline uint64_t dilate(const Region *r, uint64_t m) {
    uint64_t out = 0;
    for (int k = 0; m; k++, m >>= 8) out |= r->table[k][m & 255];
    return out;
}

static uint64_t chain_of(const Region *r, uint64_t seed, uint64_t stones) {
    uint64_t ch = seed, frontier = seed;
    while (frontier) {
        frontier = dilate(r, frontier) & stones & ~ch;
        ch |= frontier;
    }
    return ch;
}

static void safe_and_unsafe(const Region *r, uint64_t b, uint64_t w, uint64_t safe[2], uint64_t unsafe[2]) {
    uint64_t stones[2] = {b, w};
    for (int c = 0; c < 2; c++) {
        safe[c] = unsafe[c] = 0;
        uint64_t rest = stones[c];
        while (rest) {
            uint64_t ch = chain_of(r, lowbit(rest), stones[c]);
            rest &= ~ch;
            if (ch & r->wall[c]) safe[c] |= ch; else unsafe[c] |= ch;
        }
    }
}

static int independent_parts(const Region *r, uint64_t b, uint64_t w) {
    uint64_t safe[2], unsafe[2];
    safe_and_unsafe(r, b, w, safe, unsafe);
    uint64_t space = r->full & ~(safe[0] | safe[1]), rest = space;
    int parts = 0;
    while (rest) { rest &= ~chain_of(r, lowbit(rest), space); parts++; }
    return parts;
}

/* LocalRegion.play: 1 when legal (out: stones after, ko ban as 0 or 1 + point + 64 * barred-is-White). */
static int rules_play(const Region *r, uint64_t b, uint64_t w, int c, int i, uint64_t *ob, uint64_t *ow, uint8_t *oban) {
    uint64_t bit = (uint64_t)1 << i;
    if ((b | w) & bit) return 0;
    uint64_t own = c == 0 ? b : w, opp = c == 0 ? w : b;
    own |= bit;
    uint64_t opp_wall = r->wall[1 - c], own_wall = r->wall[c];
    uint64_t empty = r->full & ~(own | opp), captured = 0, adj = r->nb[i] & opp;
    while (adj) {
        uint64_t ch = chain_of(r, lowbit(adj), opp);
        adj &= ~ch;
        if (ch & opp_wall) continue;
        if (!(dilate(r, ch) & empty)) captured |= ch;
    }
    if (captured) { opp &= ~captured; empty |= captured; }
    uint64_t mine = chain_of(r, bit, own);
    uint8_t ban = 0;
    if (!(mine & own_wall)) {
        uint64_t libs = dilate(r, mine) & empty;
        if (!libs) {
            if (!r->suicide || (mine == bit && !captured)) return 0;
            own &= ~mine;
        } else if (mine == bit && captured && (captured & (captured - 1)) == 0 && libs == captured) {
            /* a ko only when the retake would capture this stone alone (so recreate the position) */
            int more = 0;
            uint64_t around = r->nb[bit_index(captured)] & own & ~bit;
            while (around && !more) {
                uint64_t ch = chain_of(r, lowbit(around), own);
                around &= ~ch;
                if (!(ch & own_wall) && (dilate(r, ch) & empty) == captured) more = 1;
            }
            if (!more) ban = (uint8_t)(1 + bit_index(captured) + (c == 0 ? 64 : 0));  /* the opponent is barred */
        }
    }
    *ob = c == 0 ? own : opp;
    *ow = c == 0 ? opp : own;
    *oban = ban;
    return 1;
}

/* LocalRegion.analyze: settledness, count, open points, the count as it stands, bounds, unsafe stones. */
static void rules_analyze(const Region *r, uint64_t b, uint64_t w, Info *out) {
    memset(out, 0, sizeof *out);
    uint64_t empty = r->full & ~(b | w);
    uint64_t safe[2], unsafe[2];
    safe_and_unsafe(r, b, w, safe, unsafe);
    int br0 = (safe[0] & r->breach[0]) != 0, br1 = (safe[1] & r->breach[1]) != 0;
    if (br0 || br1) {
        if (br0 && br1) { out->not_sealed = 1; return; }
        int threat = br0 ? 1 : -1;
        out->settled = 1; out->count = threat; out->stands = threat; out->lo = out->hi = threat; out->threat = threat;
        return;
    }
    uint64_t owned[2] = {safe[0], safe[1]};
    for (int c = 0; c < 2; c++) {
        uint64_t prey = unsafe[1 - c];
        if (!prey) continue;
        uint64_t space = empty | prey;
        uint64_t support = dilate(r, safe[c]) | r->wall[c];
        uint64_t rest = prey;
        while (rest) {
            uint64_t area = chain_of(r, lowbit(rest), space);
            rest &= ~area;
            if ((dilate(r, area) & ~area & ~safe[c]) || (area & r->wall[1 - c])) continue;
            if ((area & empty & ~support) && popcount(area) > NO_TWO_EYES) continue;
            owned[c] |= area;
            unsafe[1 - c] &= ~area;
            empty &= ~area;
        }
    }
    uint64_t live_unsafe = unsafe[0] | unsafe[1];
    int settled = !live_unsafe;
    uint64_t open = 0, rest = empty;
    uint64_t stones_b = owned[0] | unsafe[0], stones_w = owned[1] | unsafe[1];
    int count = popcount(stones_b) - popcount(stones_w), stands = count;
    uint64_t terr[2] = {0, 0};
    while (rest) {
        uint64_t area = chain_of(r, lowbit(rest), empty);
        rest &= ~area;
        uint64_t around = dilate(r, area);
        int black = (around & stones_b) || (area & r->wall[0]);
        int white = (around & stones_w) || (area & r->wall[1]);
        int touches_unsafe = (around & live_unsafe) != 0;
        int size = popcount(area);
        if (black != white) stands += black ? size : -size;
        if (black != white && !touches_unsafe) { count += black ? size : -size; terr[black ? 0 : 1] |= area; continue; }
        if (black && white && (area & (area - 1)) == 0 && !touches_unsafe && !(area & (r->breach[0] | r->breach[1])))
            continue;  /* a single dame point between safe stones: 0, and nobody plays there (LocalRegion.analyze) */
        settled = 0;
        open |= area;
    }
    int sb = popcount(owned[0] | terr[0]), sw = popcount(owned[1] | terr[1]);
    out->owned[0] = owned[0]; out->owned[1] = owned[1]; out->territory[0] = terr[0]; out->territory[1] = terr[1];
    out->settled = settled; out->count = count + r->offset; out->open = open; out->stands = stands + r->offset;
    out->lo = sb - (r->n - sb) + r->offset; out->hi = (r->n - sw) - sw + r->offset; out->unsafe = live_unsafe; out->threat = 0;
}

/* The canonical form of an unsettled position: dead areas and territory filled with their owner's stones.
   Nobody ever plays there again and the filled stones only join chains that are safe already, so the
   canonical position has the same analysis, moves and values (tests compare the engines with and without
   this merging). */
static void rules_canonical(const Info *info, uint64_t b, uint64_t w, uint64_t *cb, uint64_t *cw) {
    uint64_t black = info->owned[0] | info->territory[0], white = info->owned[1] | info->territory[1];
    *cb = (b & ~white) | black;
    *cw = (w & ~black) | white;
}

/* LocalRegion.pointless_sacrifice: a move into atari that captures nothing and threatens nothing. */
static int rules_pointless(const Region *r, uint64_t b, uint64_t w, int c, int i, uint64_t nb_, uint64_t nw_, const Info *info) {
    uint64_t own_after = c == 0 ? nb_ : nw_, opp_before = c == 0 ? w : b, opp_after = c == 0 ? nw_ : nb_;
    if (opp_after != opp_before) return 0;
    uint64_t mine = chain_of(r, (uint64_t)1 << i, own_after);
    if (mine & r->wall[c]) return 0;
    uint64_t around = dilate(r, mine);
    if (around & info->unsafe & opp_before) return 0;
    uint64_t empty_after = r->full & ~(nb_ | nw_);
    return popcount(around & empty_after) == 1;
}

/* LocalRegion.candidates ('all' or the 'local' contact heuristic). */
static uint64_t rules_candidates(const Region *r, uint64_t b, uint64_t w, int c, const Info *info, int moves_all) {
    uint64_t own = c == 0 ? b : w, opp = c == 0 ? w : b;
    uint64_t empty = r->full & ~(b | w);
    uint64_t own_eye = empty & ~dilate(r, r->full & ~own) & ~r->wall[1 - c];
    uint64_t rest = own_eye;
    while (rest) {
        uint64_t low = lowbit(rest);
        rest ^= low;
        uint64_t around = r->nb[bit_index(low)] & own;
        while (around) {
            uint64_t ch = chain_of(r, lowbit(around), own);
            around &= ~ch;
            if (!(ch & r->wall[c]) && (dilate(r, ch) & empty) == low) { own_eye &= ~low; break; }
        }
    }
    if (moves_all) return info->open & ~own_eye;
    uint64_t near_own = dilate(r, own) | r->wall[c];
    uint64_t contact = dilate(r, opp) | r->wall[1 - c] | dilate(r, info->unsafe);
    uint64_t support = near_own | dilate(r, near_own & empty) | dilate(r, info->unsafe & opp);
    return info->open & contact & support & ~own_eye;
}

#endif
