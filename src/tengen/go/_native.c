/* Native rules core for tengen: the board of _board_core.h (chains as rings with pseudo-liberty sums, so
 * atari is an O(1) test; captures, suicide, simple ko, the empties, flood fills for area counting, Benson's
 * unconditional life) with what the rules core adds: Zobrist hashing, the colour a ko forbids, prisoners,
 * snapshot undo (a persistent stack that copies share) and fast uniform random playouts.
 * The Python class tengen.go.board.Board is the only public API; this module is its engine. Colours cross
 * to Python as 1 (Black), -1 (White), 0 (empty). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "_board_core.h"

/* Error codes shared with Python (tengen.go.board). */
#define OK 0
#define ERR_OCCUPIED -1
#define ERR_SUICIDE -2
#define ERR_KO -3
#define ERR_OFFBOARD -4

/* Zobrist keys are per (row, col) of a frame this wide, so that hashes do not depend on board width (27:
   hashes keep the values they had when this was the frame of the largest board). */
#define ZOBRIST_STRIDE 27
_Static_assert(BC_MAX_SIDE + 2 <= ZOBRIST_STRIDE, "a board wider than the Zobrist frame");

/* What the rules core keeps beside the board: in every snapshot. */
typedef struct {
    int32_t ko_color;        /* colour that may not retake at g.ko (BC_BLACK / BC_WHITE), 0 without a ko */
    int32_t captures_black;  /* stones captured by Black */
    int32_t captures_white;
    int32_t last_ncaptured;
    uint64_t hash;
} Scalars;

typedef struct {
    Scalars sc;
    BCBoard g;
} State;

/* One undo snapshot: the Scalars and the board packed to its size (bc_pack). Snapshots form a persistent
   stack: a copied board shares its history with the original (reference counts), so copying a board late
   in a game costs one state, not the whole game. */
typedef struct Snap {
    Py_ssize_t refs;
    struct Snap *parent;  /* the snapshot below; this one holds a reference to it */
    char data[];          /* snap_bytes */
} Snap;

static void snap_release(Snap *s) {
    while (s && --s->refs == 0) { Snap *below = s->parent; PyMem_Free(s); s = below; }
}

typedef struct {
    PyObject_HEAD
    int w, h;
    State *st;          /* the state; st->g is the board */
    size_t snap_bytes;
    int32_t *captured;  /* points captured by the last move (scratch, not in snapshots), N of them */
    Snap *undo;         /* top of the (shared) stack of snapshots */
    Py_ssize_t undo_len;
    uint32_t *mark;     /* scratch for liberty counts, N of them */
    uint32_t stamp;
} BoardObject;

static uint64_t zobrist_keys[2 * ZOBRIST_STRIDE * ZOBRIST_STRIDE];

static void init_zobrist(void) {
    uint64_t seed = 0x74656e67656eULL; /* "tengen" */
    for (size_t i = 0; i < sizeof(zobrist_keys) / sizeof(zobrist_keys[0]); i++)
        zobrist_keys[i] = bc_splitmix64(&seed);
}

static inline uint64_t zkey(const BCBoard *g, int p, int color) {
    int q = (p / g->S) * ZOBRIST_STRIDE + p % g->S;
    return zobrist_keys[2 * q + (color == BC_WHITE)];
}

static inline int idx(BoardObject *b, int row, int col) { return bc_point(&b->st->g, row, col); }

/* A colour from Python (1 Black, -1 White) in the core's code; 0 and -1 with ValueError set otherwise. */
static int color_arg(int v) {
    if (v == 1) return BC_BLACK;
    if (v == -1) return BC_WHITE;
    PyErr_Format(PyExc_ValueError, "colour %d: must be 1 (Black) or -1 (White)", v);
    return 0;
}

static int layout(BoardObject *b, int w, int h) {
    b->w = w; b->h = h;
    size_t n = (size_t)(h + 2) * (w + 2);
    b->st = PyMem_Malloc(sizeof(State));
    b->captured = PyMem_Calloc(n, sizeof(int32_t));
    b->mark = PyMem_Calloc(n, sizeof(uint32_t));
    if (!b->st || !b->captured || !b->mark) return -1;
    b->snap_bytes = sizeof(Scalars) + bc_packed_bytes((int)n);
    b->stamp = 0;
    b->undo = NULL; b->undo_len = 0;
    return 0;
}

static void clear_board(BoardObject *b) {
    memset(&b->st->sc, 0, sizeof(Scalars));
    bc_clear(&b->st->g, b->w, b->h);
}

static uint32_t next_stamp(BoardObject *b) {
    if (++b->stamp == 0) { memset(b->mark, 0, sizeof(uint32_t) * b->st->g.N); b->stamp = 1; }
    return b->stamp;
}

/* Recompute every chain and the hash from the colours (after setup stones). */
static int rebuild(BoardObject *b) {
    BCFill *w = PyMem_Malloc(sizeof(BCFill));
    if (!w) { PyErr_NoMemory(); return -1; }
    BCBoard *g = &b->st->g;
    bc_rebuild(g, w);
    PyMem_Free(w);
    b->st->sc.hash = 0;
    for (int p = 0; p < g->N; p++)
        if (g->color[p] == BC_BLACK || g->color[p] == BC_WHITE) b->st->sc.hash ^= zkey(g, p, g->color[p]);
    return 0;
}

static int legality(BoardObject *b, int color, int p, int suicide_ok) {
    const BCBoard *g = &b->st->g;
    if (g->color[p] == BC_BORDER) return ERR_OFFBOARD;
    if (g->color[p] != BC_EMPTY) return ERR_OCCUPIED;
    if (p == g->ko && color == b->st->sc.ko_color) return ERR_KO;
    return suicide_ok || bc_not_suicide(g, p, color) ? OK : ERR_SUICIDE;
}

/* Place a stone (legality already checked). Returns the number of stones captured; the points the move
   emptied (captures, then the mover's own chain after a suicide) go to b->captured. */
static int do_play(BoardObject *b, int color, int p) {
    Scalars *sc = &b->st->sc;
    BCBoard *g = &b->st->g;
    BCTaken t;
    bc_play(g, p, color, BC_TIE_KEEPS_MOVE, &t);
    sc->hash ^= zkey(g, p, color);
    int n = 0;
    for (int i = 0; i < t.nchains; i++) {  /* the rings of the chains taken off, still linked */
        int h = t.heads[i], s = h, was = t.suicide && i == t.nchains - 1 ? color : BC_OPP(color);
        do { b->captured[n++] = s; sc->hash ^= zkey(g, s, was); s = g->next[s]; } while (s != h);
    }
    sc->ko_color = g->ko >= 0 ? BC_OPP(color) : 0;
    if (color == BC_BLACK) { sc->captures_black += t.captured; sc->captures_white += t.suicide; }
    else { sc->captures_white += t.captured; sc->captures_black += t.suicide; }
    sc->last_ncaptured = n;
    return n;
}

static int push_snapshot(BoardObject *b) {
    Snap *s = PyMem_Malloc(sizeof(Snap) + b->snap_bytes);
    if (!s) { PyErr_NoMemory(); return -1; }
    s->refs = 1;
    s->parent = b->undo;  /* the board's reference to the old top passes to the new snapshot */
    memcpy(s->data, &b->st->sc, sizeof(Scalars));
    bc_pack(&b->st->g, s->data + sizeof(Scalars));
    b->undo = s;
    b->undo_len++;
    return 0;
}

/* ---------- real liberties ---------- */

static int count_libs(BoardObject *b, int p, int32_t *out) {
    const BCBoard *g = &b->st->g;
    const int S = g->S;
    int h = g->head[p], s = h, n = 0;
    uint32_t st = next_stamp(b);
    do {
        const int nb[4] = {s - S, s - 1, s + 1, s + S};
        for (int k = 0; k < 4; k++) {
            int m = nb[k];
            if (g->color[m] == BC_EMPTY && b->mark[m] != st) { b->mark[m] = st; if (out) out[n] = m; n++; }
        }
        s = g->next[s];
    } while (s != h);
    return n;
}

/* ---------- Python type ---------- */

static PyTypeObject BoardType;

static int Board_init(BoardObject *self, PyObject *args, PyObject *kw) {
    int w, h;
    if (!PyArg_ParseTuple(args, "ii", &w, &h)) return -1;
    if (w < 1 || h < 1 || w > BC_MAX_SIDE || h > BC_MAX_SIDE) {
        PyErr_Format(PyExc_ValueError, "board size %dx%d out of range 1..%d", w, h, BC_MAX_SIDE); return -1;
    }
    PyMem_Free(self->st); PyMem_Free(self->captured); PyMem_Free(self->mark); snap_release(self->undo);
    self->st = NULL; self->captured = NULL; self->mark = NULL; self->undo = NULL;
    if (layout(self, w, h) < 0) { PyErr_NoMemory(); return -1; }
    clear_board(self);
    return 0;
}

static void Board_dealloc(BoardObject *self) {
    PyMem_Free(self->st); PyMem_Free(self->captured); PyMem_Free(self->mark); snap_release(self->undo);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Every method but __init__ needs the state: a NativeBoard made without __init__ (NativeBoard.__new__) has none. */
static int ready(BoardObject *b) {
    if (b->st) return 1;
    PyErr_SetString(PyExc_ValueError, "the board is not initialised");
    return 0;
}

static int check_point(BoardObject *b, int r, int c) {
    if (r < 0 || c < 0 || r >= b->h || c >= b->w) { PyErr_SetString(PyExc_IndexError, "point off board"); return -1; }
    return 0;
}

static PyObject *Board_play(BoardObject *self, PyObject *args) {
    int color, r, c, suicide_ok, record = 1;
    if (!ready(self) || !PyArg_ParseTuple(args, "iiip|p", &color, &r, &c, &suicide_ok, &record)) return NULL;
    if (!(color = color_arg(color))) return NULL;
    if (r < 0 || c < 0 || r >= self->h || c >= self->w) return PyLong_FromLong(ERR_OFFBOARD);
    int p = idx(self, r, c);
    int code = legality(self, color, p, suicide_ok);
    if (code != OK) return PyLong_FromLong(code);
    if (record && push_snapshot(self) < 0) return NULL;
    return PyLong_FromLong(do_play(self, color, p));
}

static PyObject *Board_legality(BoardObject *self, PyObject *args) {
    int color, r, c, suicide_ok;
    if (!ready(self) || !PyArg_ParseTuple(args, "iiip", &color, &r, &c, &suicide_ok)) return NULL;
    if (!(color = color_arg(color))) return NULL;
    if (r < 0 || c < 0 || r >= self->h || c >= self->w) return PyLong_FromLong(ERR_OFFBOARD);
    return PyLong_FromLong(legality(self, color, idx(self, r, c), suicide_ok));
}

static PyObject *Board_pass_move(BoardObject *self, PyObject *args) {
    int record = 1;
    if (!ready(self) || !PyArg_ParseTuple(args, "|p", &record)) return NULL;
    if (record && push_snapshot(self) < 0) return NULL;
    self->st->g.ko = -1; self->st->sc.ko_color = 0; self->st->sc.last_ncaptured = 0;
    Py_RETURN_NONE;
}

static PyObject *Board_undo(BoardObject *self, PyObject *noargs) {
    if (!ready(self)) return NULL;
    Snap *top = self->undo;
    if (!top) Py_RETURN_FALSE;
    memcpy(&self->st->sc, top->data, sizeof(Scalars));
    bc_unpack(&self->st->g, top->data + sizeof(Scalars));
    self->undo = top->parent;
    if (self->undo) self->undo->refs++;
    snap_release(top);
    self->undo_len--;
    Py_RETURN_TRUE;
}

static PyObject *point_tuple(BoardObject *b, int p) {
    return Py_BuildValue("(ii)", bc_row(&b->st->g, p), bc_col(&b->st->g, p));
}

/* A list of the points out[0 .. n) as (row, col). */
static PyObject *point_list(BoardObject *b, const int32_t *out, int n) {
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *t = point_tuple(b, out[i]);
        if (!t) { Py_DECREF(list); return NULL; }
        PyList_SET_ITEM(list, i, t);
    }
    return list;
}

static PyObject *Board_last_captured(BoardObject *self, PyObject *noargs) {
    if (!ready(self)) return NULL;
    return point_list(self, self->captured, self->st->sc.last_ncaptured);
}

static PyObject *Board_get(BoardObject *self, PyObject *args) {
    int r, c;
    if (!ready(self) || !PyArg_ParseTuple(args, "ii", &r, &c)) return NULL;
    if (check_point(self, r, c) < 0) return NULL;
    return PyLong_FromLong(bc_sign(self->st->g.color[idx(self, r, c)]));
}

static PyObject *Board_set_stones(BoardObject *self, PyObject *args) {
    /* Setup (AB/AW/AE): a bytes object of h*w signed colours; chains are rebuilt, ko cleared. */
    Py_buffer buf;
    if (!ready(self) || !PyArg_ParseTuple(args, "y*", &buf)) return NULL;
    if (buf.len != self->w * self->h) { PyBuffer_Release(&buf); PyErr_SetString(PyExc_ValueError, "wrong size"); return NULL; }
    const int8_t *src = buf.buf;
    BCBoard *g = &self->st->g;
    for (int r = 0; r < self->h; r++)
        for (int c = 0; c < self->w; c++) g->color[idx(self, r, c)] = (uint8_t)bc_from_sign(src[r * self->w + c]);
    PyBuffer_Release(&buf);
    self->st->sc.ko_color = 0;
    if (rebuild(self) < 0) return NULL;
    Py_RETURN_NONE;
}

/* The h*w points of a frame array of the board as bytes, row-major. */
static PyObject *frame_bytes(BoardObject *b, const int8_t *frame) {
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)b->w * b->h);
    if (!out) return NULL;
    int8_t *dst = (int8_t *)PyBytes_AS_STRING(out);
    for (int r = 0; r < b->h; r++)
        for (int c = 0; c < b->w; c++) dst[r * b->w + c] = frame[idx(b, r, c)];
    return out;
}

static PyObject *Board_stones(BoardObject *self, PyObject *noargs) {
    if (!ready(self)) return NULL;
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)self->w * self->h);
    if (!out) return NULL;
    int8_t *dst = (int8_t *)PyBytes_AS_STRING(out);
    for (int r = 0; r < self->h; r++)
        for (int c = 0; c < self->w; c++) dst[r * self->w + c] = (int8_t)bc_sign(self->st->g.color[idx(self, r, c)]);
    return out;
}

/* The stone at (row, col) from the arguments: its frame point, -1 for an empty point, -2 with an error set. */
static int stone_arg(BoardObject *self, PyObject *args) {
    int r, c;
    if (!ready(self) || !PyArg_ParseTuple(args, "ii", &r, &c)) return -2;
    if (check_point(self, r, c) < 0) return -2;
    int p = idx(self, r, c), cp = self->st->g.color[p];
    return cp == BC_BLACK || cp == BC_WHITE ? p : -1;
}

static PyObject *Board_liberties(BoardObject *self, PyObject *args) {
    int p = stone_arg(self, args);
    if (p == -2) return NULL;
    return PyLong_FromLong(p < 0 ? 0 : count_libs(self, p, NULL));
}

static PyObject *Board_chain_liberties(BoardObject *self, PyObject *args) {
    int p = stone_arg(self, args);
    if (p == -2) return NULL;
    if (p < 0) return PyList_New(0);
    int n = count_libs(self, p, self->captured);
    self->st->sc.last_ncaptured = 0;
    return point_list(self, self->captured, n);
}

static PyObject *Board_chain(BoardObject *self, PyObject *args) {
    int p = stone_arg(self, args);
    if (p == -2) return NULL;
    if (p < 0) return PyList_New(0);
    const BCBoard *g = &self->st->g;
    int h = g->head[p], s = h;
    PyObject *list = PyList_New(g->nstones[h]);
    if (!list) return NULL;
    for (Py_ssize_t i = 0; i < g->nstones[h]; i++) {
        PyObject *t = point_tuple(self, s);
        if (!t) { Py_DECREF(list); return NULL; }
        PyList_SET_ITEM(list, i, t);
        s = g->next[s];
    }
    return list;
}

static PyObject *Board_legal_moves(BoardObject *self, PyObject *args) {
    int color, suicide_ok;
    if (!ready(self) || !PyArg_ParseTuple(args, "ip", &color, &suicide_ok)) return NULL;
    if (!(color = color_arg(color))) return NULL;
    PyObject *list = PyList_New(0);
    if (!list) return NULL;
    for (int r = 0; r < self->h; r++)
        for (int c = 0; c < self->w; c++)
            if (legality(self, color, idx(self, r, c), suicide_ok) == OK) {
                PyObject *t = Py_BuildValue("(ii)", r, c);
                if (!t || PyList_Append(list, t) < 0) { Py_XDECREF(t); Py_DECREF(list); return NULL; }
                Py_DECREF(t);
            }
    return list;
}

static PyObject *Board_benson(BoardObject *self, PyObject *noargs) {
    if (!ready(self)) return NULL;
    int8_t *own = PyMem_Calloc(BC_MAXP, 1);
    BCBenson *work = PyMem_Malloc(sizeof(BCBenson));
    PyObject *out = NULL;
    if (own && work) {
        bc_benson(&self->st->g, BC_BLACK, work, own, BC_SAFE_TOUCHED);
        bc_benson(&self->st->g, BC_WHITE, work, own, BC_SAFE_TOUCHED);
        out = frame_bytes(self, own);
    } else PyErr_NoMemory();
    PyMem_Free(own); PyMem_Free(work);
    return out;
}

/* Area ownership: stones not marked dead count for their colour; empty regions (dead stones removed)
 * that reach only one colour count for it. `dead` is a bytes mask h*w (non-zero = dead). */
static PyObject *Board_area(BoardObject *self, PyObject *args) {
    Py_buffer buf;
    if (!ready(self) || !PyArg_ParseTuple(args, "y*", &buf)) return NULL;
    if (buf.len != self->w * self->h) { PyBuffer_Release(&buf); PyErr_SetString(PyExc_ValueError, "wrong size"); return NULL; }
    const int8_t *dead = buf.buf;
    const BCBoard *g = &self->st->g;
    uint8_t *col = PyMem_Malloc(BC_MAXP);
    int8_t *own = PyMem_Malloc(BC_MAXP);
    BCFill *work = PyMem_Malloc(sizeof(BCFill));
    PyObject *out = NULL;
    if (col && own && work) {
        memcpy(col, g->color, (size_t)g->N);
        for (int r = 0; r < self->h; r++)
            for (int c = 0; c < self->w; c++) if (dead[r * self->w + c]) col[idx(self, r, c)] = BC_EMPTY;
        bc_area(g, col, own, work);
        out = frame_bytes(self, own);
    } else PyErr_NoMemory();
    PyBuffer_Release(&buf);
    PyMem_Free(col); PyMem_Free(own); PyMem_Free(work);
    return out;
}

/* Random playout: uniform over legal moves that do not fill the mover's own single-point eye (the core's
 * plain own-eye test); pass when none; two passes end. Uniformity: draw empty points without replacement
 * (xorshift64*, modulo the points left) until one qualifies. */
static PyObject *Board_playout(BoardObject *self, PyObject *args) {
    int color, max_moves, suicide_ok;
    unsigned long long seed;
    if (!ready(self) || !PyArg_ParseTuple(args, "iKip", &color, &seed, &max_moves, &suicide_ok)) return NULL;
    if (!(color = color_arg(color))) return NULL;
    BCBoard *g = &self->st->g;
    uint64_t s = seed ? seed : 0x9E3779B97F4A7C15ULL;
    int passes = 0, moves = 0;
    while (passes < 2 && moves < max_moves) {
        int n = g->nempty, chosen = -1;
        while (n > 0) {
            int i = (int)(bc_rand64(&s) % (uint64_t)n);
            int p = g->empties[i];
            if (!bc_is_own_eye(g, p, color) && legality(self, color, p, suicide_ok) == OK) { chosen = p; break; }
            /* move the rejected point past the live range (keeps the empties list a valid set) */
            n--;
            int q = g->empties[n];
            g->empties[i] = (int16_t)q; g->empty_pos[q] = (int16_t)i;
            g->empties[n] = (int16_t)p; g->empty_pos[p] = (int16_t)n;
        }
        if (chosen >= 0) { do_play(self, color, chosen); passes = 0; }
        else { g->ko = -1; self->st->sc.ko_color = 0; passes++; }
        moves++;
        color = BC_OPP(color);
    }
    return Py_BuildValue("(ii)", moves, bc_sign(color));
}

static PyObject *Board_copy(BoardObject *self, PyObject *args) {
    int with_undo = 1;
    if (!ready(self) || !PyArg_ParseTuple(args, "|p", &with_undo)) return NULL;
    BoardObject *b = (BoardObject *)BoardType.tp_alloc(&BoardType, 0);
    if (!b) return NULL;
    if (layout(b, self->w, self->h) < 0) { Py_DECREF(b); return PyErr_NoMemory(); }
    b->st->sc = self->st->sc;
    bc_copy(&b->st->g, &self->st->g);
    if (with_undo && self->undo) {  /* share the history: snapshots are never written after a push */
        b->undo = self->undo;
        b->undo->refs++;
        b->undo_len = self->undo_len;
    }
    return (PyObject *)b;
}

static PyObject *Board_get_ko(BoardObject *self, void *closure) {
    if (!ready(self)) return NULL;
    if (self->st->g.ko < 0) Py_RETURN_NONE;
    return Py_BuildValue("(Ni)", point_tuple(self, self->st->g.ko), bc_sign(self->st->sc.ko_color));
}
static PyObject *Board_get_hash(BoardObject *self, void *closure) {
    if (!ready(self)) return NULL;
    return PyLong_FromUnsignedLongLong(self->st->sc.hash);
}
static PyObject *Board_get_captures(BoardObject *self, void *closure) {
    if (!ready(self)) return NULL;
    return Py_BuildValue("(ii)", self->st->sc.captures_black, self->st->sc.captures_white);
}
static PyObject *Board_get_undo_depth(BoardObject *self, void *closure) { return PyLong_FromSsize_t(self->undo_len); }
static PyObject *Board_get_empty_count(BoardObject *self, void *closure) {
    if (!ready(self)) return NULL;
    return PyLong_FromLong(self->st->g.nempty);
}

static PyObject *Board_set_captures(BoardObject *self, PyObject *args) {
    int cb, cw;
    if (!ready(self) || !PyArg_ParseTuple(args, "ii", &cb, &cw)) return NULL;
    self->st->sc.captures_black = cb; self->st->sc.captures_white = cw;
    Py_RETURN_NONE;
}

static PyMethodDef Board_methods[] = {
    {"play", (PyCFunction)Board_play, METH_VARARGS, "play(color, row, col, suicide_ok, record=True) -> captured count or negative error code"},
    {"legality", (PyCFunction)Board_legality, METH_VARARGS, "legality(color, row, col, suicide_ok) -> 0 or negative error code"},
    {"pass_move", (PyCFunction)Board_pass_move, METH_VARARGS, "pass_move(record=True)"},
    {"undo", (PyCFunction)Board_undo, METH_NOARGS, "undo() -> bool"},
    {"last_captured", (PyCFunction)Board_last_captured, METH_NOARGS, "points captured by the last move"},
    {"get", (PyCFunction)Board_get, METH_VARARGS, "get(row, col) -> colour"},
    {"set_stones", (PyCFunction)Board_set_stones, METH_VARARGS, "set_stones(bytes h*w)"},
    {"stones", (PyCFunction)Board_stones, METH_NOARGS, "stones() -> bytes h*w"},
    {"liberties", (PyCFunction)Board_liberties, METH_VARARGS, "liberties(row, col) -> int"},
    {"chain_liberties", (PyCFunction)Board_chain_liberties, METH_VARARGS, "chain_liberties(row, col) -> list"},
    {"chain", (PyCFunction)Board_chain, METH_VARARGS, "chain(row, col) -> list"},
    {"legal_moves", (PyCFunction)Board_legal_moves, METH_VARARGS, "legal_moves(color, suicide_ok) -> list"},
    {"benson", (PyCFunction)Board_benson, METH_NOARGS, "benson() -> bytes h*w ownership of pass-alive areas"},
    {"area", (PyCFunction)Board_area, METH_VARARGS, "area(dead mask bytes) -> bytes h*w ownership"},
    {"playout", (PyCFunction)Board_playout, METH_VARARGS, "playout(color, seed, max_moves, suicide_ok) -> (moves, next colour)"},
    {"copy", (PyCFunction)Board_copy, METH_VARARGS, "copy(with_undo=True)"},
    {"set_captures", (PyCFunction)Board_set_captures, METH_VARARGS, "set_captures(black, white)"},
    {NULL}
};

static PyGetSetDef Board_getset[] = {
    {"ko", (getter)Board_get_ko, NULL, "((row, col), colour that may not retake) or None", NULL},
    {"hash", (getter)Board_get_hash, NULL, "Zobrist hash of the stones", NULL},
    {"captures", (getter)Board_get_captures, NULL, "(captured by Black, captured by White)", NULL},
    {"undo_depth", (getter)Board_get_undo_depth, NULL, "number of snapshots", NULL},
    {"empty_count", (getter)Board_get_empty_count, NULL, "number of empty points", NULL},
    {NULL}
};

static PyTypeObject BoardType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "tengen.go._native.NativeBoard",
    .tp_basicsize = sizeof(BoardObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Native Go board (engine of tengen.go.Board)",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Board_init,
    .tp_dealloc = (destructor)Board_dealloc,
    .tp_methods = Board_methods,
    .tp_getset = Board_getset,
};

static struct PyModuleDef native_module = {PyModuleDef_HEAD_INIT, "_native", "tengen native rules core", -1, NULL};

PyMODINIT_FUNC PyInit__native(void) {
    init_zobrist();
    if (PyType_Ready(&BoardType) < 0) return NULL;
    PyObject *m = PyModule_Create(&native_module);
    if (!m) return NULL;
    Py_INCREF(&BoardType);
    if (PyModule_AddObject(m, "NativeBoard", (PyObject *)&BoardType) < 0) { Py_DECREF(&BoardType); Py_DECREF(m); return NULL; }
    PyModule_AddIntConstant(m, "MAX_SIDE", BC_MAX_SIDE);
    return m;
}
