/* _uct_tree.h: the search tree of tengen.search._uct: UCT with RAVE (AMAF) and an additive move prior.
 *
 * Sources: Kocsis and Szepesvari (2006), "Bandit based Monte-Carlo planning" (UCT); Gelly and Silver (2007),
 * "Combining online and offline knowledge in UCT", and Gelly and Silver (2011), "Monte-Carlo tree search and
 * rapid action value estimation in computer Go" (RAVE / all-moves-as-first values); Silver's thesis (2009)
 * for the minimum-MSE schedule of beta; Rosin (2011), "Multi-armed bandits with episode context" (the
 * additive prior term); Fuego's SgAdditiveKnowledge (Enzenberger et al.) for the slower-fading weight.
 *
 * A child's selection value, for the player choosing at its parent:
 *     v = (1 - beta) * Q + beta * Q_amaf + c * sqrt(ln N / n) + W * p / (1 + n)
 *     beta = n_amaf / (n + n_amaf + n * n_amaf / E)
 * Q = wins / n, Q_amaf = AMAF wins / n_amaf, E the equivalence parameter (`rave_equivalence`: the number of
 * real visits at which beta has fallen to about one half when n_amaf >> n; Silver's formula with
 * b^2 = 1 / (4E)), c the UCB exploration (default 0, as in Gelly and Silver), W the prior weight and p the
 * prior's probability of the move; with `prior_decay` K > 0 the prior term is W * p * sqrt(K / (n + K)) instead
 * (Fuego's additive knowledge, PredictorWeight with its predictor decay, default there 5), which fades as the
 * square root of the visits rather than as 1 / (1 + n). First-play urgency: a child with no visit takes its AMAF value when it
 * has AMAF samples (beta = 1), else `fpu` (default 1.0: every such move is tried once before any is repeated);
 * the pass child takes 0 until visited (it is not sampled by AMAF). With the default knowledge on
 * (_uct_knowledge.h), a child starts with virtual games in both Q and Q_amaf; the prior term's n counts real
 * visits only.
 *
 * The nodes live in one pool allocated per tree (a cap on memory: when it is full the tree stops growing and
 * the search goes on with playouts from the leaves). A node's children are contiguous in the pool. */
#ifndef TENGEN_UCT_TREE_H
#define TENGEN_UCT_TREE_H

#include <math.h>
#include <stdlib.h>

typedef struct {
    int32_t children;   /* index of the first child, -1 when not expanded */
    uint32_t visits;
    float wins;         /* for the player who played `move` (2 per win, 1 per tie, halved when read) */
    float amaf_wins;
    uint32_t amaf_visits;
    float prior;        /* the prior's probability of `move` at the parent's position */
    int16_t move;       /* point of the frame, or UB_PASS */
    int16_t nchildren;
    uint8_t has_prior;  /* the prior was asked for this node's children */
    uint8_t known_n;    /* virtual games of the default knowledge (_uct_knowledge.h), in visits and AMAF visits */
    uint8_t known_v;    /* their value in tenths of a win */
    uint8_t pad;
} UNode;

typedef struct {
    UNode *pool;
    int64_t cap, used;
    int64_t root;       /* -1: no tree */
} UTree;

typedef struct {
    double rave_equivalence, fpu, exploration, prior_weight;
    double prior_decay;  /* 0: the prior term W p / (1 + n); K > 0: W p sqrt(K / (n + K)) (Fuego's) */
    int expand_threshold, prior_depth, prior_visits;
    int knowledge;      /* 1: new children start with the default knowledge's virtual games (_uct_knowledge.h) */
} UParams;

/* A node's real visits (less the default knowledge's virtual games). */
static inline uint32_t ut_real_visits(const UNode *nd) { return nd->visits - nd->known_n; }

static int ut_alloc(UTree *t, int64_t cap) {
    t->pool = (UNode *)malloc((size_t)cap * sizeof(UNode));
    if (!t->pool) return -1;
    t->cap = cap; t->used = 0; t->root = -1;
    return 0;
}

static void ut_reset(UTree *t) {
    t->used = 1; t->root = 0;
    UNode *r = &t->pool[0];
    memset(r, 0, sizeof(UNode));
    r->children = -1; r->move = UB_NONE;
}

/* The child to descend into from node `ni` (whose side to move is the chooser). The blend of Q and Q_amaf is
   computed with one division: (1 - beta) Q + beta Q_amaf = ((1 + na / E) wins + amaf_wins) / (2 (n + na + n na / E))
   (wins counted 2 a win), in single precision. */
static int64_t ut_select(const UTree *t, const UParams *P, int64_t ni, uint64_t *rng) {
    const UNode *node = &t->pool[ni];
    const UNode *ch = &t->pool[node->children];
    const float inv_e = (float)(1.0 / P->rave_equivalence), fpu = (float)P->fpu;
    const float expl = (float)P->exploration, pw = (float)P->prior_weight, pk = (float)P->prior_decay;
    const float logn = expl > 0 ? (float)log((double)node->visits + 1.0) : 0.0f;
    float best = -INFINITY;
    int bi = 0, ties = 0;
    for (int i = 0; i < node->nchildren; i++) {
        const UNode *c = &ch[i];
        const uint32_t vn = c->visits, vna = c->amaf_visits;
        const float n = (float)vn, na = (float)vna;
        float v;
        if ((vn | vna) == 0) v = c->move == UB_PASS ? 0.0f : fpu;
        else {
            const float k = na * inv_e;
            v = ((1.0f + k) * c->wins + c->amaf_wins) / (2.0f * (n + na + n * k));
            if (expl > 0 && vn > 0) v += expl * sqrtf(logn / n);
        }
        if (pw > 0) {  /* the prior fades over real visits */
            const float rn = (float)ut_real_visits(c);
            v += pk > 0 ? pw * c->prior * sqrtf(pk / (rn + pk)) : pw * c->prior / (1.0f + rn);
        }
        if (v > best) { best = v; bi = i; ties = 1; }
        else if (v == best && bc_randint(rng, (uint32_t)++ties) == 0) bi = i;  /* ties broken at random */
    }
    return node->children + bi;
}

/* Copy the subtree under src[si] into dst (a fresh pool) as node di. Where dst runs out of room a node is
   copied without its children (a leaf again; it is expanded anew when visited). */
static void ut_copy(const UTree *src, int64_t si, UTree *dst, int64_t di) {
    const UNode *s = &src->pool[si];
    UNode *d = &dst->pool[di];
    *d = *s;
    d->children = -1; d->nchildren = 0; d->has_prior = 0;
    if (s->children < 0 || dst->used + s->nchildren > dst->cap) return;
    int64_t first = dst->used;
    dst->used += s->nchildren;
    d->children = (int32_t)first; d->nchildren = s->nchildren; d->has_prior = s->has_prior;
    for (int i = 0; i < s->nchildren; i++) ut_copy(src, s->children + i, dst, first + i);
}

#endif
