/* tengen.search._uct: a native playout Monte Carlo tree search for Go, of the classic computer-Go kind (Mogo,
 * Fuego, Pachi): UCT with RAVE, heavy playouts with the Mogo heuristics, root parallelism, tree reuse.
 *
 * One concern per header: _uct_board.h (the fast board: tengen.go's board core, go/_board_core.h, with the
 * playouts' additions), _uct_patterns.h (the 3x3 pattern table), _uct_ladder.h (ladder reading: atari
 * escapes that a chase of ataris still catches), _uct_playout.h (the playout policy),
 * _uct_tree.h (nodes, selection), _uct_knowledge.h (new nodes' prior knowledge). This file is the search loop and
 * the Python API. tengen.search.native_uct is the public wrapper; nothing else should call this module.
 *
 * Parallelism: root parallelism (Cazenave and Jouandeau 2007, "On the parallelization of UCT"; Chaslot,
 * Winands and van den Herik 2008, "Parallel Monte-Carlo tree search"): each of T threads grows its own tree
 * from the same root with its own random numbers; the root children's statistics are summed. No locks in the
 * search; the GIL is released while searching and taken only to call the Python prior.
 *
 * Python API (positions: `stones` a buffer of height * width int8, 1 Black, -1 White, 0 empty, row-major;
 * points as flat indices row * width + col, -1 for a pass; colours 1 / -1):
 *   policy_move(stones, width, height, to_play, last=None, ko=-1, seed=0) -> (point, rule)
 *   pattern_match(stones, width, height, point) -> bool
 *   pass_alive(stones, width, height) -> area score (Black minus White) when every point is pass-alive, else None
 *   playouts(stones, width, height, to_play, komi, n, seed=0, ko=-1, last=None, mercy=0)
 *       -> (Black's wins (a tie counts 1/2), moves played, seconds, mean final ownership as float64 bytes, Black's view)
 *   playout_checksum(stones, width, height, to_play, komi, n, seed=0, ko=-1, last=None, mercy=0)
 *       -> (64-bit FNV-1a hash of every playout's moves and colours, moves played, Black's wins): the same
 *          playouts as `playouts` with the same arguments; a check that an optimisation keeps the moves
 *   Engine(width, height, threads=1, seed=0, max_nodes=..., rave_equivalence=1000, expand_threshold=4,
 *          fpu=1.0, exploration=0, prior=None, prior_weight=0, prior_depth=2, prior_visits=200, mercy=0,
 *          knowledge=False, prior_decay=0)
 *     .search(stones, to_play, komi, playouts, seconds=0, ko=-1, last=None, path=None, early_stop=True) -> dict
 *     .clear()
 * `mercy`: the playouts' mercy rule, a lead in stones on the board (0: off; _uct_playout.h). `knowledge`: new
 * nodes' children start with the default prior knowledge's virtual games (_uct_knowledge.h).
 * Bad arguments raise ValueError (or TypeError); nothing crashes. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#include "_uct_board.h"
#include "_uct_patterns.h"
#include "_uct_ladder.h"
#include "_uct_playout.h"
#include "_uct_tree.h"
#include "_uct_knowledge.h"

#define UCT_MAX_DEPTH 512
#define UCT_SEQ_CAP (3 * UB_MAX_SIDE * UB_MAX_SIDE + UCT_MAX_DEPTH + 8)
#define UCT_MAX_THREADS 256

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ------------------------------------------------------------------ positions from Python */

/* Fill `b` from a stones buffer; ValueError (returns -1) on a bad size, value, colour, ko or last move. */
static int parse_position(UBoard *b, Py_buffer *stones, int w, int h, int to_play, int ko, PyObject *last) {
    if (w < 2 || h < 2 || w > UB_MAX_SIDE || h > UB_MAX_SIDE) {
        PyErr_Format(PyExc_ValueError, "board size %dx%d out of range 2..%d", w, h, UB_MAX_SIDE); return -1;
    }
    if (stones->len != (Py_ssize_t)w * h) {
        PyErr_Format(PyExc_ValueError, "stones: %zd values for a %dx%d board", stones->len, w, h); return -1;
    }
    if (to_play != 1 && to_play != -1) { PyErr_SetString(PyExc_ValueError, "to_play must be 1 (Black) or -1 (White)"); return -1; }
    ub_clear(b, w, h);
    const int8_t *v = (const int8_t *)stones->buf;
    for (int r = 0; r < h; r++)
        for (int c = 0; c < w; c++) {
            int8_t x = v[r * w + c];
            if (x != 0 && x != 1 && x != -1) { PyErr_SetString(PyExc_ValueError, "stones must be 1, -1 or 0"); return -1; }
            if (x) ub_put(b, ub_point(b, r, c), bc_from_sign(x));
        }
    for (int p = 0; p < b->g.N; p++)
        if ((b->g.color[p] == BC_BLACK || b->g.color[p] == BC_WHITE) && b->g.plibs[b->g.head[p]] == 0) {
            PyErr_SetString(PyExc_ValueError, "stones: a chain without liberties"); return -1;
        }
    for (int p = 0; p < b->g.N; p++)
        if ((b->g.color[p] == BC_BLACK || b->g.color[p] == BC_WHITE) && b->g.head[p] == p && bc_in_atari(&b->g, p)) ub_note_atari(b, p);
    b->to_play = to_play == 1 ? BC_BLACK : BC_WHITE;
    if (ko != -1) {
        if (ko < 0 || ko >= w * h) { PyErr_SetString(PyExc_ValueError, "ko point off the board"); return -1; }
        b->g.ko = ub_point(b, ko / w, ko % w);
        if (b->g.color[b->g.ko] != BC_EMPTY) { PyErr_SetString(PyExc_ValueError, "ko point is not empty"); return -1; }
    }
    if (last && last != Py_None) {
        long m = PyLong_AsLong(last);
        if (m == -1 && PyErr_Occurred()) return -1;
        if (m < -1 || m >= (long)w * h) { PyErr_SetString(PyExc_ValueError, "last move off the board"); return -1; }
        b->last = m == -1 ? UB_PASS : ub_point(b, (int)m / w, (int)m % w);
        if (m == -1) b->npass = 1;
    }
    return 0;
}

static int get_stones(PyObject *obj, Py_buffer *view) {
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS) < 0) {
        PyErr_SetString(PyExc_TypeError, "stones must be a contiguous buffer of int8 (bytes or a numpy int8 array)");
        return -1;
    }
    if (view->itemsize != 1) {
        PyBuffer_Release(view);
        PyErr_SetString(PyExc_ValueError, "stones must be int8");
        return -1;
    }
    return 0;
}

/* The position of a call's arguments: the stones buffer parsed into `b` (-1 with the Python error set). */
static int position_from(PyObject *obj, UBoard *b, int w, int h, int to_play, int ko, PyObject *last) {
    Py_buffer view;
    if (get_stones(obj, &view) < 0) return -1;
    int err = parse_position(b, &view, w, h, to_play, ko, last);
    PyBuffer_Release(&view);
    return err < 0 ? -1 : 0;
}

static inline long flat(const UBoard *b, int p) { return p < 0 ? -1 : (long)(p / b->g.S - 1) * b->g.w + (p % b->g.S - 1); }

/* ------------------------------------------------------------------ module functions */

static PyObject *py_policy_move(PyObject *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"stones", "width", "height", "to_play", "last", "ko", "seed", NULL};
    PyObject *obj, *last = Py_None; int w, h, to_play, ko = -1; unsigned long long seed = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "Oiii|OiK", kwlist, &obj, &w, &h, &to_play, &last, &ko, &seed)) return NULL;
    UBoard b;
    if (position_from(obj, &b, w, h, to_play, ko, last) < 0) return NULL;
    uint64_t rng = seed * 0x9E3779B97F4A7C15ULL + 1;
    int rule, p = up_policy(&b, &rng, &rule);
    return Py_BuildValue("ls", flat(&b, p), RULE_NAMES[rule]);
}

static PyObject *py_pattern_match(PyObject *self, PyObject *args) {
    PyObject *obj; int w, h, point;
    if (!PyArg_ParseTuple(args, "Oiii", &obj, &w, &h, &point)) return NULL;
    UBoard b;
    if (position_from(obj, &b, w, h, 1, -1, NULL) < 0) return NULL;
    if (point < 0 || point >= w * h) { PyErr_SetString(PyExc_ValueError, "point off the board"); return NULL; }
    int p = ub_point(&b, point / w, point % w);
    if (b.g.color[p] != BC_EMPTY) Py_RETURN_FALSE;
    return PyBool_FromLong(up_match(&b, p));
}

static PyObject *py_pass_alive(PyObject *self, PyObject *args) {
    PyObject *obj; int w, h;
    if (!PyArg_ParseTuple(args, "Oii", &obj, &w, &h)) return NULL;
    UBoard b;
    if (position_from(obj, &b, w, h, 1, -1, NULL) < 0) return NULL;
    BCBenson *work = (BCBenson *)PyMem_Malloc(sizeof(BCBenson));
    if (!work) return PyErr_NoMemory();
    int score = 0, settled = ub_settled(&b, work, &score);
    PyMem_Free(work);
    if (!settled) Py_RETURN_NONE;
    return PyLong_FromLong(score);
}

/* ------------------------------------------------------------------ test-only: the board, move by move */

/* height * width bytes, row-major, of f(b, p) for every point p of the board. */
static PyObject *point_bytes(const UBoard *b, int (*f)(const UBoard *, int)) {
    const int w = b->g.w, h = b->g.h;
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)w * h);
    if (!out) return NULL;
    int8_t *v = (int8_t *)PyBytes_AS_STRING(out);
    for (int r = 0; r < h; r++)
        for (int c = 0; c < w; c++) v[r * w + c] = (int8_t)f(b, ub_point(b, r, c));
    return out;
}
static int stone_at(const UBoard *b, int p) { return bc_sign(b->g.color[p]); }
static int legal_at(const UBoard *b, int p) { return ub_legal(b, p, b->to_play); }
static int eyes_at(const UBoard *b, int p) {  /* 1: an eye of Black's (ub_is_eye), 2: of White's */
    return b->g.color[p] == BC_EMPTY ? ub_is_eye(b, p, BC_BLACK) | ub_is_eye(b, p, BC_WHITE) << 1 : 0;
}
/* height * width bytes, row-major, of a frame array. */
static PyObject *frame_bytes(const UBoard *b, const int8_t *frame) {
    const int w = b->g.w, h = b->g.h;
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)w * h);
    if (!out) return NULL;
    int8_t *v = (int8_t *)PyBytes_AS_STRING(out);
    for (int r = 0; r < h; r++)
        for (int c = 0; c < w; c++) v[r * w + c] = frame[ub_point(b, r, c)];
    return out;
}

/* The end of a trace: the core's area count, the playouts' (ub_area, ub_owner), Benson by the playouts' rule. */
static PyObject *trace_end(const UBoard *b) {
    int8_t *area = PyMem_Calloc(BC_MAXP, 1), *own = PyMem_Calloc(BC_MAXP, 1);
    BCFill *fill = PyMem_Malloc(sizeof(BCFill));
    BCBenson *benson = PyMem_Malloc(sizeof(BCBenson));
    PyObject *out = NULL;
    if (area && own && fill && benson) {
        bc_area(&b->g, b->g.color, area, fill);
        bc_benson(&b->g, BC_BLACK, benson, own, BC_SAFE_VITAL);
        bc_benson(&b->g, BC_WHITE, benson, own, BC_SAFE_VITAL);
        out = Py_BuildValue("{s:N,s:i,s:N,s:N}", "area", frame_bytes(b, area), "ub_area", ub_area(b), "owner",
                            point_bytes(b, ub_owner), "benson", frame_bytes(b, own));
    } else PyErr_NoMemory();
    PyMem_Free(area); PyMem_Free(own); PyMem_Free(fill); PyMem_Free(benson);
    return out;
}

/* _trace(stones, width, height, to_play, moves) -> (steps, end), for the tests only: `moves` (flat points, -1
   a pass) played in turn on the playout search's board from the position; per move (stones after, stones
   captured, the legal points of the side to move next, the eyes by ub_is_eye, the ko point or -1); at the end
   (trace_end) a dict of area (the core's count), ub_area, owner and benson. A move that is not legal on this
   board raises ValueError. */
static PyObject *py_trace(PyObject *self, PyObject *args) {
    PyObject *obj, *moves; int w, h, to_play;
    if (!PyArg_ParseTuple(args, "OiiiO", &obj, &w, &h, &to_play, &moves)) return NULL;
    UBoard *b = (UBoard *)PyMem_Malloc(sizeof(UBoard));
    if (!b) return PyErr_NoMemory();
    PyObject *seq = NULL, *steps = NULL, *result = NULL;
    if (position_from(obj, b, w, h, to_play, -1, NULL) < 0) goto done;
    if (!(seq = PySequence_Fast(moves, "moves must be a sequence of points")) || !(steps = PyList_New(0))) goto done;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq); i++) {
        long m = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (m == -1 && PyErr_Occurred()) goto done;
        int p = m == -1 ? UB_PASS : m >= 0 && m < (long)w * h ? ub_point(b, (int)m / w, (int)m % w) : -3;
        if (p == -3 || (p != UB_PASS && !ub_legal(b, p, b->to_play))) {
            PyErr_Format(PyExc_ValueError, "move %zd (%ld) is not legal", i, m); goto done;
        }
        int captured = ub_play(b, p);
        PyObject *step = Py_BuildValue("(NiNNl)", point_bytes(b, stone_at), captured, point_bytes(b, legal_at),
                                       point_bytes(b, eyes_at), b->g.ko < 0 ? -1L : flat(b, b->g.ko));
        if (!step || PyList_Append(steps, step) < 0) { Py_XDECREF(step); goto done; }
        Py_DECREF(step);
    }
    PyObject *end = trace_end(b);
    if (end) result = Py_BuildValue("(ON)", steps, end);
done:
    Py_XDECREF(seq); Py_XDECREF(steps); PyMem_Free(b);
    return result;
}

/* The arguments `playouts` and `playout_checksum` share: the position, komi, count, seed and mercy stones. */
typedef struct { UBoard root; double komi; long n; unsigned long long seed; int mercy; } PlayoutArgs;

static int playout_args(PyObject *args, PyObject *kw, PlayoutArgs *a) {
    static char *kwlist[] = {"stones", "width", "height", "to_play", "komi", "n", "seed", "ko", "last", "mercy", NULL};
    PyObject *obj, *last = Py_None; int w, h, to_play, ko = -1;
    a->mercy = 0; a->seed = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "Oiiidl|KiOi", kwlist, &obj, &w, &h, &to_play, &a->komi, &a->n, &a->seed,
                                     &ko, &last, &a->mercy))
        return -1;
    if (a->n < 0) { PyErr_SetString(PyExc_ValueError, "n must be at least 0"); return -1; }
    if (!isfinite(a->komi)) { PyErr_SetString(PyExc_ValueError, "komi must be finite"); return -1; }
    if (a->mercy < 0) { PyErr_SetString(PyExc_ValueError, "mercy must be at least 0"); return -1; }
    if (position_from(obj, &a->root, w, h, to_play, ko, last) < 0) return -1;
    a->mercy = up_mercy_for(&a->root, a->mercy);
    return 0;
}

static PyObject *py_playouts(PyObject *self, PyObject *args, PyObject *kw) {
    PlayoutArgs a;
    if (playout_args(args, kw, &a) < 0) return NULL;
    const int w = a.root.g.w, h = a.root.g.h, mercy = a.mercy; const long n = a.n;
    const double komi = a.komi; const unsigned long long seed = a.seed;
    double *own = (double *)PyMem_Calloc((size_t)w * h, sizeof(double));
    if (!own) return PyErr_NoMemory();
    int16_t *seq = (int16_t *)PyMem_Malloc(UCT_SEQ_CAP * sizeof(int16_t));
    uint8_t *seq_color = (uint8_t *)PyMem_Malloc(UCT_SEQ_CAP);
    UBoard *b = (UBoard *)PyMem_Malloc(sizeof(UBoard));
    if (!seq || !seq_color || !b) {
        PyMem_Free(own); PyMem_Free(seq); PyMem_Free(seq_color); PyMem_Free(b); return PyErr_NoMemory();
    }
    long wins2 = 0, moves = 0;
    double t0 = now_seconds();
    Py_BEGIN_ALLOW_THREADS
    uint64_t rng = seed * 0x9E3779B97F4A7C15ULL + 1;
    for (long i = 0; i < n; i++) {
        ub_copy(b, &a.root);
        int nseq = 0;
        wins2 += up_playout(b, komi, mercy, &rng, seq, seq_color, &nseq, UCT_SEQ_CAP);
        moves += nseq;
        for (int r = 0; r < h; r++)
            for (int c = 0; c < w; c++) own[r * w + c] += ub_owner(b, ub_point(b, r, c));
    }
    Py_END_ALLOW_THREADS
    double seconds = now_seconds() - t0;
    for (int i = 0; i < w * h; i++) own[i] = n ? own[i] / n : 0.0;
    PyObject *bytes = PyBytes_FromStringAndSize((const char *)own, (Py_ssize_t)w * h * (Py_ssize_t)sizeof(double));
    PyMem_Free(own); PyMem_Free(seq); PyMem_Free(seq_color); PyMem_Free(b);
    if (!bytes) return NULL;
    return Py_BuildValue("(dldN)", 0.5 * wins2, moves, seconds, bytes);
}

static PyObject *py_playout_checksum(PyObject *self, PyObject *args, PyObject *kw) {
    PlayoutArgs a;
    if (playout_args(args, kw, &a) < 0) return NULL;
    const int mercy = a.mercy; const long n = a.n;
    const double komi = a.komi; const unsigned long long seed = a.seed;
    int16_t *seq = (int16_t *)PyMem_Malloc(UCT_SEQ_CAP * sizeof(int16_t));
    uint8_t *seq_color = (uint8_t *)PyMem_Malloc(UCT_SEQ_CAP);
    UBoard *b = (UBoard *)PyMem_Malloc(sizeof(UBoard));
    if (!seq || !seq_color || !b) { PyMem_Free(seq); PyMem_Free(seq_color); PyMem_Free(b); return PyErr_NoMemory(); }
    uint64_t rng = seed * 0x9E3779B97F4A7C15ULL + 1, hash = 0xCBF29CE484222325ULL;
    long wins2 = 0, moves = 0;
    for (long i = 0; i < n; i++) {
        ub_copy(b, &a.root);
        int nseq = 0;
        wins2 += up_playout(b, komi, mercy, &rng, seq, seq_color, &nseq, UCT_SEQ_CAP);
        moves += nseq;
        for (int k = 0; k <= nseq; k++) {  /* each move, then an end-of-playout mark */
            uint32_t x = k < nseq ? ((uint32_t)(uint16_t)seq[k] << 8) | seq_color[k] : 0xFFFFFFFFu;
            for (int j = 0; j < 4; j++) { hash ^= (x >> (8 * j)) & 0xFF; hash *= 0x100000001B3ULL; }
        }
    }
    PyMem_Free(seq); PyMem_Free(seq_color); PyMem_Free(b);
    return Py_BuildValue("(Kld)", (unsigned long long)hash, moves, 0.5 * wins2);
}

/* ------------------------------------------------------------------ the engine */

typedef struct {
    UTree tree;
    UBoard root;        /* the position at the tree's root (what tree reuse compares against) */
    int has_root;
    double komi;
    uint64_t rng;
    int64_t done;       /* playouts of the current search */
    int64_t moves;      /* moves played in them (tree and playout) */
    int64_t mercy_stops;  /* those of them the mercy rule ended */
    int16_t seq[UCT_SEQ_CAP];
    uint8_t seq_color[UCT_SEQ_CAP];
} UThread;

typedef struct {
    PyObject_HEAD
    int w, h, nthreads;
    int64_t max_nodes;
    UParams P;
    PyObject *prior;    /* callable(stones bytes, to_play) -> float64 buffer of height * width, or NULL */
    UThread **th;
    uint64_t seed, searches;
    int busy;
    int mercy;          /* the mercy rule's lead in stones (0: off) */
    /* the current search */
    int mercy_now;      /* mercy, or 0 when the root already has such a lead */
    atomic_int stop;
    int64_t budget;     /* playouts per thread (0: time only) */
    int early_stop;     /* stop a thread when its most visited root move cannot be overtaken */
    double deadline;    /* 0: none */
    PyObject *err_type, *err_value, *err_tb;
} EngineObject;

typedef struct { EngineObject *E; int index; } WorkerArg;

/* Ask the Python prior for the children of node `ni` at position b (takes the GIL). */
static void ask_prior(EngineObject *E, UTree *t, int64_t ni, const UBoard *b) {
    UNode *node = &t->pool[ni];
    node->has_prior = 1;
    PyGILState_STATE g = PyGILState_Ensure();
    if (E->err_type) { PyGILState_Release(g); return; }
    int w = b->g.w, h = b->g.h;
    PyObject *bytes = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)w * h), *res = NULL;
    if (bytes) {
        int8_t *v = (int8_t *)PyBytes_AS_STRING(bytes);
        for (int r = 0; r < h; r++)
            for (int c = 0; c < w; c++) {
                int cp = b->g.color[ub_point(b, r, c)];
                v[r * w + c] = (int8_t)bc_sign(cp);
            }
        res = PyObject_CallFunction(E->prior, "Oi", bytes, bc_sign(b->to_play));
        Py_DECREF(bytes);
    }
    if (res) {
        Py_buffer view;
        if (PyObject_GetBuffer(res, &view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) == 0) {
            if (view.len != (Py_ssize_t)w * h * (Py_ssize_t)sizeof(double) || !view.format || strcmp(view.format, "d") != 0)
                PyErr_Format(PyExc_ValueError, "the prior must return %d float64 values", w * h);
            else {
                const double *p = (const double *)view.buf;
                UNode *ch = &t->pool[node->children];
                for (int i = 0; i < node->nchildren; i++) {
                    int m = ch[i].move;
                    double x = m < 0 ? 0.0 : p[flat(b, m)];
                    ch[i].prior = isfinite(x) ? (float)x : 0.0f;
                }
            }
            PyBuffer_Release(&view);
        }
        Py_DECREF(res);
    }
    if (PyErr_Occurred()) {
        PyErr_Fetch(&E->err_type, &E->err_value, &E->err_tb);
        atomic_store(&E->stop, 1);
    }
    PyGILState_Release(g);
}

/* Expand node ni at position b: one child per legal move that fills no own eye, and a pass (with the default
   knowledge's virtual games when it is on). */
static void expand(EngineObject *E, UTree *t, int64_t ni, const UBoard *b) {
    int c = b->to_play, moves[UB_MAXP], n = 0;
    for (int r = 0; r < b->g.h; r++)
        for (int col = 0; col < b->g.w; col++) {
            int p = ub_point(b, r, col);
            if (ub_legal(b, p, c) && !ub_is_eye(b, p, c)) moves[n++] = p;
        }
    moves[n++] = UB_PASS;
    if (t->used + n > t->cap) return;  /* the pool is full: the tree stops growing */
    int64_t first = t->used;
    t->used += n;
    for (int i = 0; i < n; i++) {
        UNode *ch = &t->pool[first + i];
        memset(ch, 0, sizeof(UNode));
        ch->children = -1; ch->move = (int16_t)moves[i];
    }
    if (E->P.knowledge) uk_initialize(b, &t->pool[first], n);
    t->pool[ni].children = (int32_t)first;
    t->pool[ni].nchildren = (int16_t)n;
    t->pool[ni].has_prior = 0;
}

/* One playout through the tree of thread th. */
static void run_one(EngineObject *E, UThread *th) {
    UTree *t = &th->tree;
    const UParams *P = &E->P;
    UBoard b;
    ub_copy(&b, &th->root);
    int64_t path[UCT_MAX_DEPTH + 1];
    int depth = 0, nseq = 0;
    path[0] = t->root;
    int64_t ni = t->root;
    while (depth < UCT_MAX_DEPTH && b.npass < 2) {
        UNode *node = &t->pool[ni];
        if (node->children < 0) {
            if (depth > 0 && ut_real_visits(node) < (uint32_t)P->expand_threshold) break;
            expand(E, t, ni, &b);
            node = &t->pool[ni];
            if (node->children < 0) break;
        }
        if (E->prior && !node->has_prior && (depth <= P->prior_depth || ut_real_visits(node) >= (uint32_t)P->prior_visits)) {
            ask_prior(E, t, ni, &b);
            if (atomic_load(&E->stop) && E->err_type) return;
        }
        int64_t ci = ut_select(t, P, ni, &th->rng);
        th->seq[nseq] = t->pool[ci].move; th->seq_color[nseq] = (uint8_t)b.to_play; nseq++;
        ub_play(&b, t->pool[ci].move);
        path[++depth] = ci;
        ni = ci;
    }
    int r;
    if (b.npass >= 2) {
        double score = ub_area(&b) - th->komi;
        r = score > 0 ? 2 : score < 0 ? 0 : 1;
    } else {
        r = up_playout(&b, th->komi, E->mercy_now, &th->rng, th->seq, th->seq_color, &nseq, UCT_SEQ_CAP);
        int d = b.g.stones[BC_BLACK] - b.g.stones[BC_WHITE];
        th->mercy_stops += E->mercy_now && (d >= E->mercy_now || -d >= E->mercy_now);
    }
    th->moves += nseq;
    /* back up the result and the all-moves-as-first statistics */
    uint8_t first_[UB_MAXP + 1], *first = first_ + 1;  /* first[m]: who played m first from here on; first[UB_PASS] = 0 */
    memset(first_, 0, sizeof(first_));
    t->pool[path[0]].visits++;
    for (int k = 1; k <= depth; k++) {
        UNode *nd = &t->pool[path[k]];
        nd->visits++;
        nd->wins += th->seq_color[k - 1] == BC_BLACK ? r : 2 - r;
    }
    for (int k = nseq - 1; k >= 0; k--) {
        int m = th->seq[k];
        if (m >= 0) first[m] = th->seq_color[k];
        if (k > depth) continue;
        UNode *nd = &t->pool[path[k]];
        if (nd->children < 0) continue;
        int mover = th->seq_color[k];
        float gain = (float)(mover == BC_BLACK ? r : 2 - r);
        UNode *ch = &t->pool[nd->children];
        for (int i = 0; i < nd->nchildren; i++) {  /* branch-free: about half the children are hits, at random */
            int hit = first[ch[i].move] == mover;
            ch[i].amaf_visits += (uint32_t)hit; ch[i].amaf_wins += hit ? gain : 0.0f;
        }
    }
}

/* Whether the most visited root child can no longer be overtaken within the remaining budget. */
static int decided(const EngineObject *E, const UThread *th) {
    const UTree *t = &th->tree;
    const UNode *root = &t->pool[t->root];
    if (!E->early_stop || E->budget <= 0 || root->children < 0) return 0;
    uint32_t best = 0, second = 0;
    const UNode *ch = &t->pool[root->children];
    for (int i = 0; i < root->nchildren; i++) {
        uint32_t v = ut_real_visits(&ch[i]);
        if (v > best) { second = best; best = v; } else if (v > second) second = v;
    }
    return (int64_t)(best - second) > E->budget - th->done;
}

static void *worker(void *arg) {
    WorkerArg *a = (WorkerArg *)arg;
    EngineObject *E = a->E;
    UThread *th = E->th[a->index];
    while (!atomic_load(&E->stop)) {
        if (E->budget > 0 && th->done >= E->budget) break;
        if ((th->done & 15) == 0 && th->done > 0) {
            if (E->deadline > 0 && now_seconds() >= E->deadline) { atomic_store(&E->stop, 1); break; }
            if (decided(E, th)) break;
        }
        run_one(E, th);
        th->done++;
    }
    return NULL;
}

/* Keep the subtree of the new root when `path` (moves from the old root) leads to it; else a fresh tree. */
static int reuse_or_reset(EngineObject *E, UThread *th, const UBoard *root, double komi, const int *path, int npath) {
    UTree *t = &th->tree;
    int reused = 0;
    if (th->has_root && t->root >= 0 && komi == th->komi && npath >= 0) {
        UBoard b;
        ub_copy(&b, &th->root);
        int64_t ni = t->root, ok = 1;
        for (int i = 0; i < npath && ok; i++) {
            int m = path[i] < 0 ? UB_PASS : ub_point(&b, path[i] / b.g.w, path[i] % b.g.w);
            if (m != UB_PASS && !ub_legal(&b, m, b.to_play)) { ok = 0; break; }
            ub_play(&b, m);
            const UNode *node = &t->pool[ni];
            int64_t next = -1;
            if (node->children >= 0)
                for (int k = 0; k < node->nchildren; k++)
                    if (t->pool[node->children + k].move == m) { next = node->children + k; break; }
            if (next < 0) ok = 0; else ni = next;
        }
        if (ok && memcmp(b.g.color, root->g.color, (size_t)b.g.N) == 0 && b.to_play == root->to_play && b.g.ko == root->g.ko) {
            UTree fresh;
            if (ut_alloc(&fresh, E->max_nodes) < 0) return -1;
            fresh.used = 1; fresh.root = 0;
            ut_copy(t, ni, &fresh, 0);
            free(t->pool);
            *t = fresh;
            reused = 1;
        }
    }
    if (!reused) ut_reset(t);
    ub_copy(&th->root, root);
    th->has_root = 1;
    th->komi = komi;
    return 0;
}

static PyObject *Engine_search(EngineObject *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"stones", "to_play", "komi", "playouts", "seconds", "ko", "last", "path", "early_stop", NULL};
    PyObject *obj, *last = Py_None, *pathobj = Py_None; int to_play, ko = -1, early_stop = 1; double komi, seconds = 0;
    long long playouts;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OidL|diOOp", kwlist, &obj, &to_play, &komi, &playouts, &seconds, &ko,
                                     &last, &pathobj, &early_stop))
        return NULL;
    if (self->busy) { PyErr_SetString(PyExc_RuntimeError, "the engine is already searching"); return NULL; }
    if (!isfinite(komi)) { PyErr_SetString(PyExc_ValueError, "komi must be finite"); return NULL; }
    if (!(seconds >= 0) || !isfinite(seconds)) { PyErr_SetString(PyExc_ValueError, "seconds must be finite and >= 0"); return NULL; }
    if (playouts < 0) { PyErr_SetString(PyExc_ValueError, "playouts must be at least 0"); return NULL; }
    if (playouts == 0 && seconds == 0) { PyErr_SetString(PyExc_ValueError, "give playouts or seconds (or both)"); return NULL; }
    UBoard root;
    if (position_from(obj, &root, self->w, self->h, to_play, ko, last) < 0) return NULL;
    int path[UCT_MAX_DEPTH], npath = -1;
    if (pathobj != Py_None) {
        PyObject *seq = PySequence_Fast(pathobj, "path must be a sequence of points");
        if (!seq) return NULL;
        Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
        npath = 0;
        for (Py_ssize_t i = 0; i < n; i++) {
            long m = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
            if (m == -1 && PyErr_Occurred()) { Py_DECREF(seq); return NULL; }
            if (m < -1 || m >= (long)self->w * self->h) { Py_DECREF(seq); PyErr_SetString(PyExc_ValueError, "path: point off the board"); return NULL; }
            if (npath < UCT_MAX_DEPTH) path[npath++] = (int)m; else npath = -1;
            if (npath < 0) break;
        }
        Py_DECREF(seq);
    }
    int64_t reused = 0;
    for (int i = 0; i < self->nthreads; i++) {
        if (reuse_or_reset(self, self->th[i], &root, komi, path, npath) < 0) return PyErr_NoMemory();
        reused += ut_real_visits(&self->th[i]->tree.pool[self->th[i]->tree.root]);
    }
    self->searches++;
    self->budget = playouts > 0 ? (playouts + self->nthreads - 1) / self->nthreads : 0;
    self->early_stop = early_stop;
    self->mercy_now = up_mercy_for(&root, self->mercy);
    atomic_store(&self->stop, 0);
    self->busy = 1;
    double t0 = now_seconds();
    self->deadline = seconds > 0 ? t0 + seconds : 0;
    pthread_t tids[UCT_MAX_THREADS];
    WorkerArg wargs[UCT_MAX_THREADS];
    int started[UCT_MAX_THREADS];
    for (int i = 0; i < self->nthreads; i++) {
        UThread *th = self->th[i];
        uint64_t s = self->seed ^ (0xA0761D6478BD642FULL * (self->searches + 1)) ^ (0xE7037ED1A0B428DBULL * (uint64_t)(i + 1));
        th->rng = bc_splitmix64(&s) | 1;
        th->done = 0; th->moves = 0; th->mercy_stops = 0;
        wargs[i].E = self; wargs[i].index = i;
    }
    Py_BEGIN_ALLOW_THREADS
    for (int i = 1; i < self->nthreads; i++)  /* a thread that cannot start leaves its tree as it is */
        started[i] = pthread_create(&tids[i], NULL, worker, &wargs[i]) == 0;
    worker(&wargs[0]);
    for (int i = 1; i < self->nthreads; i++)
        if (started[i]) pthread_join(tids[i], NULL);
    Py_END_ALLOW_THREADS
    double elapsed = now_seconds() - t0;
    self->busy = 0;
    if (self->err_type) {
        PyErr_Restore(self->err_type, self->err_value, self->err_tb);
        self->err_type = self->err_value = self->err_tb = NULL;
        for (int i = 0; i < self->nthreads; i++) self->th[i]->has_root = 0;  /* the trees are incomplete */
        return NULL;
    }
    /* the root children's statistics summed over the threads */
    int np = self->w * self->h + 1;
    double *vis = (double *)PyMem_Calloc((size_t)np * 5, sizeof(double));
    if (!vis) return PyErr_NoMemory();
    double *wins = vis + np, *avis = vis + 2 * np, *awins = vis + 3 * np, *prior = vis + 4 * np;
    int64_t done = 0, nodes = 0, root_visits = 0, moves_played = 0, mercy_stops = 0;
    for (int i = 0; i < self->nthreads; i++) {
        UThread *th = self->th[i];
        UTree *t = &th->tree;
        const UNode *r = &t->pool[t->root];
        done += th->done;
        moves_played += th->moves; mercy_stops += th->mercy_stops;
        nodes += t->used;
        root_visits += ut_real_visits(r);
        if (r->children < 0) continue;
        for (int k = 0; k < r->nchildren; k++) {
            const UNode *c = &t->pool[r->children + k];
            int j = c->move < 0 ? np - 1 : (int)flat(&th->root, c->move);
            const double kn = c->known_n, kw = 0.5 * uk_virtual_wins(c->known_n, c->known_v);  /* left out */
            vis[j] += c->visits - kn; wins[j] += 0.5 * c->wins - kw; avis[j] += c->amaf_visits - kn;
            awins[j] += 0.5 * c->amaf_wins - kw;
            prior[j] += c->prior / self->nthreads;
        }
    }
    PyObject *moves = PyList_New(0);
    for (int j = 0; moves && j < np; j++) {
        if (vis[j] == 0 && avis[j] == 0 && prior[j] == 0 && !(j == np - 1 && root_visits > 0)) continue;
        PyObject *item = Py_BuildValue("(iddddd)", j == np - 1 ? -1 : j, vis[j], vis[j] > 0 ? wins[j] / vis[j] : 0.0,
                                       avis[j], avis[j] > 0 ? awins[j] / avis[j] : 0.0, prior[j]);
        if (!item || PyList_Append(moves, item) < 0) { Py_XDECREF(item); Py_CLEAR(moves); break; }
        Py_DECREF(item);
    }
    PyMem_Free(vis);
    if (!moves) return NULL;
    return Py_BuildValue("{s:N,s:L,s:d,s:L,s:L,s:L,s:L,s:L}", "moves", moves, "playouts", (long long)done, "seconds", elapsed,
                         "reused", (long long)reused, "nodes", (long long)nodes, "root_visits", (long long)root_visits,
                         "moves_played", (long long)moves_played, "mercy_stops", (long long)mercy_stops);
}

static PyObject *Engine_clear(EngineObject *self, PyObject *noargs) {
    if (self->busy) { PyErr_SetString(PyExc_RuntimeError, "the engine is searching"); return NULL; }
    for (int i = 0; i < self->nthreads; i++) self->th[i]->has_root = 0;
    Py_RETURN_NONE;
}

static void Engine_free_threads(EngineObject *self) {
    if (!self->th) return;
    for (int i = 0; i < self->nthreads; i++)
        if (self->th[i]) { free(self->th[i]->tree.pool); PyMem_Free(self->th[i]); }
    PyMem_Free(self->th);
    self->th = NULL;
}

static int Engine_init(EngineObject *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"width", "height", "threads", "seed", "max_nodes", "rave_equivalence", "expand_threshold",
                             "fpu", "exploration", "prior", "prior_weight", "prior_depth", "prior_visits", "mercy",
                             "knowledge", "prior_decay", NULL};
    int w, h, threads = 1, expand_threshold = 4, prior_depth = 2, prior_visits = 200, mercy = 0, knowledge = 0;
    unsigned long long seed = 0; long long max_nodes = 4000000;
    double rave = 1000.0, fpu = 1.0, exploration = 0.0, prior_weight = 0.0, prior_decay = 0.0;
    PyObject *prior = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "ii|iKLdiddOdiiipd", kwlist, &w, &h, &threads, &seed, &max_nodes, &rave,
                                     &expand_threshold, &fpu, &exploration, &prior, &prior_weight, &prior_depth, &prior_visits,
                                     &mercy, &knowledge, &prior_decay))
        return -1;
    if (w < 2 || h < 2 || w > UB_MAX_SIDE || h > UB_MAX_SIDE) {
        PyErr_Format(PyExc_ValueError, "board size %dx%d out of range 2..%d", w, h, UB_MAX_SIDE); return -1;
    }
    if (threads < 1 || threads > UCT_MAX_THREADS) { PyErr_Format(PyExc_ValueError, "threads must be 1..%d", UCT_MAX_THREADS); return -1; }
    if (max_nodes < 2 * UB_MAXP || max_nodes > ((int64_t)1 << 31) - 1) { PyErr_SetString(PyExc_ValueError, "max_nodes must be 882..2^31-1"); return -1; }
    if (!(rave > 0) || !isfinite(rave)) { PyErr_SetString(PyExc_ValueError, "rave_equivalence must be positive"); return -1; }
    if (expand_threshold < 0) { PyErr_SetString(PyExc_ValueError, "expand_threshold must be at least 0"); return -1; }
    if (!isfinite(fpu) || !(exploration >= 0) || !isfinite(exploration) || !(prior_weight >= 0) || !isfinite(prior_weight)) {
        PyErr_SetString(PyExc_ValueError, "fpu must be finite; exploration and prior_weight finite and >= 0"); return -1;
    }
    if (!(prior_decay >= 0) || !isfinite(prior_decay)) {
        PyErr_SetString(PyExc_ValueError, "prior_decay must be finite and >= 0 (0: the 1 / (1 + n) fade)"); return -1;
    }
    if (prior != Py_None && !PyCallable_Check(prior)) { PyErr_SetString(PyExc_TypeError, "prior must be callable or None"); return -1; }
    if (prior_depth < -1 || prior_visits < 0) { PyErr_SetString(PyExc_ValueError, "prior_depth >= -1 and prior_visits >= 0"); return -1; }
    if (mercy < 0) { PyErr_SetString(PyExc_ValueError, "mercy must be at least 0 (0: off)"); return -1; }
    Engine_free_threads(self);
    Py_CLEAR(self->prior);
    self->w = w; self->h = h; self->nthreads = threads; self->max_nodes = max_nodes; self->seed = seed; self->searches = 0;
    self->P.rave_equivalence = rave; self->P.expand_threshold = expand_threshold; self->P.fpu = fpu;
    self->P.exploration = exploration; self->P.prior_weight = prior_weight; self->P.prior_depth = prior_depth;
    self->P.prior_decay = prior_decay;
    self->P.prior_visits = prior_visits > 0 ? prior_visits : INT32_MAX;
    self->mercy = mercy;
    self->P.knowledge = knowledge;
    if (prior != Py_None) { Py_INCREF(prior); self->prior = prior; }
    self->th = (UThread **)PyMem_Calloc((size_t)threads, sizeof(UThread *));
    if (!self->th) { PyErr_NoMemory(); return -1; }
    for (int i = 0; i < threads; i++) {
        self->th[i] = (UThread *)PyMem_Calloc(1, sizeof(UThread));
        if (!self->th[i] || ut_alloc(&self->th[i]->tree, max_nodes) < 0) { Engine_free_threads(self); PyErr_NoMemory(); return -1; }
    }
    return 0;
}

static void Engine_dealloc(EngineObject *self) {
    Engine_free_threads(self);
    Py_CLEAR(self->prior);
    Py_XDECREF(self->err_type); Py_XDECREF(self->err_value); Py_XDECREF(self->err_tb);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Engine_get_threads(EngineObject *self, void *closure) { return PyLong_FromLong(self->nthreads); }
static PyObject *Engine_get_mercy(EngineObject *self, void *closure) { return PyLong_FromLong(self->mercy); }

static PyMethodDef Engine_methods[] = {
    {"search", (PyCFunction)(void (*)(void))Engine_search, METH_VARARGS | METH_KEYWORDS,
     "search(stones, to_play, komi, playouts, seconds=0, ko=-1, last=None, path=None, early_stop=True) -> dict of the root's moves "
     "(point, visits, win rate, AMAF visits, AMAF win rate, prior) and playouts, seconds, reused, nodes, root_visits, "
     "moves_played (in the tree and the playouts), mercy_stops (playouts the mercy rule ended)"},
    {"clear", (PyCFunction)Engine_clear, METH_NOARGS, "forget the trees"},
    {NULL}
};

static PyGetSetDef Engine_getset[] = {
    {"threads", (getter)Engine_get_threads, NULL, "search threads (root parallelism)", NULL},
    {"mercy", (getter)Engine_get_mercy, NULL, "the playouts' mercy rule: a lead in stones on the board (0: off)", NULL},
    {NULL}
};

static PyTypeObject EngineType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "tengen.search._uct.Engine",
    .tp_basicsize = sizeof(EngineObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "UCT with RAVE over heavy playouts; one tree per thread (root parallelism), reused between moves",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Engine_init,
    .tp_dealloc = (destructor)Engine_dealloc,
    .tp_methods = Engine_methods,
    .tp_getset = Engine_getset,
};

static PyMethodDef module_methods[] = {
    {"policy_move", (PyCFunction)(void (*)(void))py_policy_move, METH_VARARGS | METH_KEYWORDS,
     "policy_move(stones, width, height, to_play, last=None, ko=-1, seed=0) -> (point, rule): the playout policy's move"},
    {"pattern_match", (PyCFunction)py_pattern_match, METH_VARARGS,
     "pattern_match(stones, width, height, point) -> whether a 3x3 Mogo pattern matches around the empty point"},
    {"pass_alive", (PyCFunction)py_pass_alive, METH_VARARGS,
     "pass_alive(stones, width, height) -> the area score (Black minus White, no komi) when Benson's algorithm finds "
     "every point owned unconditionally by one side, else None"},
    {"playouts", (PyCFunction)(void (*)(void))py_playouts, METH_VARARGS | METH_KEYWORDS,
     "playouts(stones, width, height, to_play, komi, n, seed=0, ko=-1, last=None, mercy=0) -> (black wins, moves, seconds, ownership)"},
    {"playout_checksum", (PyCFunction)(void (*)(void))py_playout_checksum, METH_VARARGS | METH_KEYWORDS,
     "playout_checksum(stones, width, height, to_play, komi, n, seed=0, ko=-1, last=None, mercy=0) -> (FNV-1a hash of the "
     "playouts' moves, moves, black wins): the same playouts as playouts() with the same arguments"},
    {"_trace", (PyCFunction)py_trace, METH_VARARGS,
     "_trace(stones, width, height, to_play, moves) -> (per move (stones, captured, legal, eyes, ko), end dict): "
     "the board move by move, for the tests only"},
    {NULL}
};

static struct PyModuleDef module_def = {PyModuleDef_HEAD_INIT, "_uct", "native playout MCTS (UCT + RAVE)", -1, module_methods};

PyMODINIT_FUNC PyInit__uct(void) {
    up_init();
    if (PyType_Ready(&EngineType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module_def);
    if (!m) return NULL;
    Py_INCREF(&EngineType);
    if (PyModule_AddObject(m, "Engine", (PyObject *)&EngineType) < 0) { Py_DECREF(&EngineType); Py_DECREF(m); return NULL; }
    PyModule_AddIntConstant(m, "MAX_SIDE", UB_MAX_SIDE);
    return m;
}
