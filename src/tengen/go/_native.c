/* Native rules core for tengen: a Go board with incremental chains (pseudo-liberties with sum and
 * sum-of-squares, so atari is an O(1) test), captures, ko, suicide, Zobrist hashing, snapshot undo (a
 * persistent stack that copies share),
 * flood fills for area counting, Benson's unconditional life and fast random playouts.
 * The Python class tengen.go.board.Board is the only public API; this module is its engine. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define EMPTY 0
#define BLACK 1
#define WHITE -1
#define BORDER 2
#define MAX_SIDE 25

/* Error codes shared with Python (tengen.go.board). */
#define OK 0
#define ERR_OCCUPIED -1
#define ERR_SUICIDE -2
#define ERR_KO -3
#define ERR_OFFBOARD -4

typedef struct {
    int32_t ko;         /* point forbidden by simple ko, or -1 */
    int32_t ko_color;   /* colour that may not retake there */
    int32_t nempty;
    int32_t captures_black;  /* stones captured by Black */
    int32_t captures_white;
    int32_t last_ncaptured;
    uint64_t hash;
} Scalars;

/* One undo snapshot. Snapshots form a persistent stack: a copied board shares its history with the
   original (reference counts), so copying a board late in a game costs one state, not the whole game. */
typedef struct Snap {
    Py_ssize_t refs;
    struct Snap *parent;  /* the snapshot below; this one holds a reference to it */
    char data[];          /* state_bytes */
} Snap;

static void snap_release(Snap *s) {
    while (s && --s->refs == 0) { Snap *below = s->parent; PyMem_Free(s); s = below; }
}

typedef struct {
    PyObject_HEAD
    int w, h, S, size;
    size_t state_bytes;
    char *state;        /* one block: Scalars + every per-point array; a snapshot is one memcpy */
    Scalars *sc;
    int8_t *color;
    int32_t *next, *head, *nstones, *plibs, *libsum, *empties, *empty_pos;
    int64_t *libsum2;
    int32_t *captured;  /* points captured by the last move (scratch, not in snapshots) */
    Snap *undo;         /* top of the (shared) stack of snapshots */
    Py_ssize_t undo_len;
    uint32_t *mark;     /* scratch for flood fills */
    uint32_t stamp;
    const uint64_t *zob; /* keys: zob[2*p] black, zob[2*p+1] white */
} BoardObject;

static uint64_t zobrist_keys[2 * (MAX_SIDE + 2) * (MAX_SIDE + 2)];

static uint64_t splitmix64(uint64_t *x) {
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static void init_zobrist(void) {
    uint64_t seed = 0x74656e67656eULL; /* "tengen" */
    for (size_t i = 0; i < sizeof(zobrist_keys) / sizeof(zobrist_keys[0]); i++)
        zobrist_keys[i] = splitmix64(&seed);
}

/* Keys are defined per (row, col) of a 27-wide frame so that hashes do not depend on board width. */
static inline uint64_t zkey(BoardObject *b, int p, int color) {
    int r = p / b->S, c = p % b->S;
    int q = r * (MAX_SIDE + 2) + c;
    return b->zob[2 * q + (color == WHITE)];
}

static inline int idx(BoardObject *b, int row, int col) { return (row + 1) * b->S + col + 1; }

#define NEIGHBOURS(b, p) { (p) - (b)->S, (p) - 1, (p) + 1, (p) + (b)->S }

static inline int in_atari(BoardObject *b, int h) {
    /* All pseudo-liberties equal <=> count * sum(x^2) == sum(x)^2. */
    int64_t n = b->plibs[h], s = b->libsum[h];
    return n > 0 && n * b->libsum2[h] == s * s;
}

static inline void add_lib(BoardObject *b, int h, int lib) {
    b->plibs[h]++; b->libsum[h] += lib; b->libsum2[h] += (int64_t)lib * lib;
}
static inline void remove_lib(BoardObject *b, int h, int lib) {
    b->plibs[h]--; b->libsum[h] -= lib; b->libsum2[h] -= (int64_t)lib * lib;
}

static inline void empties_remove(BoardObject *b, int p) {
    int i = b->empty_pos[p], last = b->empties[--b->sc->nempty];
    b->empties[i] = last; b->empty_pos[last] = i; b->empty_pos[p] = -1;
}
static inline void empties_add(BoardObject *b, int p) {
    b->empty_pos[p] = b->sc->nempty; b->empties[b->sc->nempty++] = p;
}

static int layout(BoardObject *b, int w, int h) {
    b->w = w; b->h = h; b->S = w + 2; b->size = (h + 2) * (w + 2);
    size_t n = (size_t)b->size;
    size_t off_color = sizeof(Scalars);
    size_t off_i32 = (off_color + n + 7) & ~(size_t)7;
    size_t off_i64 = off_i32 + 7 * n * sizeof(int32_t);
    off_i64 = (off_i64 + 7) & ~(size_t)7;
    b->state_bytes = off_i64 + n * sizeof(int64_t);
    b->state = PyMem_Calloc(1, b->state_bytes);
    b->captured = PyMem_Calloc(n, sizeof(int32_t));
    b->mark = PyMem_Calloc(n, sizeof(uint32_t));
    if (!b->state || !b->captured || !b->mark) return -1;
    b->sc = (Scalars *)b->state;
    b->color = (int8_t *)(b->state + off_color);
    int32_t *i32 = (int32_t *)(b->state + off_i32);
    b->next = i32; b->head = i32 + n; b->nstones = i32 + 2 * n; b->plibs = i32 + 3 * n;
    b->libsum = i32 + 4 * n; b->empties = i32 + 5 * n; b->empty_pos = i32 + 6 * n;
    b->libsum2 = (int64_t *)(b->state + off_i64);
    b->zob = zobrist_keys; b->stamp = 0;
    b->undo = NULL; b->undo_len = 0;
    return 0;
}

static void clear_board(BoardObject *b) {
    memset(b->state, 0, b->state_bytes);
    b->sc->ko = -1; b->sc->ko_color = 0;
    for (int p = 0; p < b->size; p++) {
        int r = p / b->S, c = p % b->S;
        int on = r >= 1 && r <= b->h && c >= 1 && c <= b->w;
        b->color[p] = on ? EMPTY : BORDER;
        b->empty_pos[p] = -1;
        if (on) empties_add(b, p);
    }
}

static uint32_t next_stamp(BoardObject *b) {
    if (++b->stamp == 0) { memset(b->mark, 0, sizeof(uint32_t) * b->size); b->stamp = 1; }
    return b->stamp;
}

/* Recompute every chain from the colour array (after setup stones). */
static void rebuild(BoardObject *b) {
    b->sc->nempty = 0; b->sc->hash = 0;
    for (int p = 0; p < b->size; p++) { b->empty_pos[p] = -1; b->head[p] = 0; b->plibs[p] = 0;
        b->libsum[p] = 0; b->libsum2[p] = 0; b->nstones[p] = 0; b->next[p] = p; }
    uint32_t st = next_stamp(b);
    int32_t *stack = b->captured;
    for (int p = 0; p < b->size; p++) {
        int c = b->color[p];
        if (c == EMPTY) { empties_add(b, p); continue; }
        if (c == BORDER) continue;
        b->sc->hash ^= zkey(b, p, c);
        if (b->mark[p] == st) continue;
        /* flood the chain, linking stones into a ring headed by p */
        int sp = 0, last = p; stack[sp++] = p; b->mark[p] = st; b->head[p] = p; b->next[p] = p;
        int count = 0;
        while (sp) {
            int q = stack[--sp]; count++;
            if (q != p) { b->head[q] = p; b->next[q] = b->next[last]; b->next[last] = q; last = q; }
            int nb[4] = NEIGHBOURS(b, q);
            for (int k = 0; k < 4; k++) {
                int n = nb[k];
                if (b->color[n] == EMPTY) add_lib(b, p, n);
                else if (b->color[n] == c && b->mark[n] != st) { b->mark[n] = st; stack[sp++] = n; }
            }
        }
        b->nstones[p] = count;
    }
}

static int legality(BoardObject *b, int color, int p, int suicide_ok) {
    if (b->color[p] == BORDER) return ERR_OFFBOARD;
    if (b->color[p] != EMPTY) return ERR_OCCUPIED;
    if (p == b->sc->ko && color == b->sc->ko_color) return ERR_KO;
    int nb[4] = NEIGHBOURS(b, p);
    for (int k = 0; k < 4; k++) {
        int n = nb[k], c = b->color[n];
        if (c == EMPTY) return OK;
        if (c == color && !in_atari(b, b->head[n])) return OK;
        if (c == -color && in_atari(b, b->head[n])) return OK;
    }
    return suicide_ok ? OK : ERR_SUICIDE;
}

/* Take a chain off the board (capture or suicide): stones become empty, the surrounding chains get
 * their liberties back. Writes the removed points to `out`; returns how many. */
static int remove_chain(BoardObject *b, int h, int32_t *out) {
    int color = b->color[h], n = 0, s = h;
    do {
        b->color[s] = EMPTY; empties_add(b, s);
        b->sc->hash ^= zkey(b, s, color);
        out[n++] = s;
        s = b->next[s];
    } while (s != h);
    s = h;
    do {
        int nb[4] = NEIGHBOURS(b, s);
        for (int k = 0; k < 4; k++) {
            int m = nb[k], c = b->color[m];
            if (c == BLACK || c == WHITE) add_lib(b, b->head[m], s);
        }
        s = b->next[s];
    } while (s != h);
    return n;
}

/* Place a stone (legality already checked). Returns the number of stones captured. */
static int do_play(BoardObject *b, int color, int p) {
    Scalars *sc = b->sc;
    b->color[p] = (int8_t)color; empties_remove(b, p);
    sc->hash ^= zkey(b, p, color);
    b->head[p] = p; b->next[p] = p; b->nstones[p] = 1;
    b->plibs[p] = 0; b->libsum[p] = 0; b->libsum2[p] = 0;
    int nb[4] = NEIGHBOURS(b, p);
    for (int k = 0; k < 4; k++) {
        int n = nb[k], c = b->color[n];
        if (c == EMPTY) add_lib(b, p, n);
        else if (c == BLACK || c == WHITE) remove_lib(b, b->head[n], p);
    }
    /* merge with friendly chains, smaller into larger */
    int h = p;
    for (int k = 0; k < 4; k++) {
        int n = nb[k];
        if (b->color[n] != color) continue;
        int h2 = b->head[n];
        if (h2 == h) continue;
        int big = h, small = h2;
        if (b->nstones[h2] > b->nstones[h]) { big = h2; small = h; }
        int s = small;
        do { b->head[s] = big; s = b->next[s]; } while (s != small);
        int t = b->next[big]; b->next[big] = b->next[small]; b->next[small] = t;
        b->nstones[big] += b->nstones[small]; b->plibs[big] += b->plibs[small];
        b->libsum[big] += b->libsum[small]; b->libsum2[big] += b->libsum2[small];
        h = big;
    }
    /* captures: collect dead enemy chains first, then remove them */
    int dead[4], ndead = 0, ncap = 0;
    for (int k = 0; k < 4; k++) {
        int n = nb[k];
        if (b->color[n] != -color) continue;
        int h2 = b->head[n];
        if (b->plibs[h2] != 0) continue;
        int seen = 0;
        for (int j = 0; j < ndead; j++) if (dead[j] == h2) seen = 1;
        if (!seen) dead[ndead++] = h2;
    }
    int last_captured = -1;
    for (int j = 0; j < ndead; j++) {
        int n = remove_chain(b, dead[j], b->captured + ncap);
        last_captured = b->captured[ncap + n - 1];
        ncap += n;
    }
    sc->ko = -1; sc->ko_color = 0;
    if (ncap == 1 && b->nstones[h] == 1 && b->plibs[h] == 1) { sc->ko = last_captured; sc->ko_color = -color; }
    if (color == BLACK) sc->captures_black += ncap; else sc->captures_white += ncap;
    /* suicide (only reachable where the rules allow it): the mover's chain dies */
    if (b->plibs[h] == 0) {
        int nself = remove_chain(b, h, b->captured + ncap);
        if (color == BLACK) sc->captures_white += nself; else sc->captures_black += nself;
        ncap += nself;
    }
    sc->last_ncaptured = ncap;
    return ncap;
}

static int push_snapshot(BoardObject *b) {
    Snap *s = PyMem_Malloc(sizeof(Snap) + b->state_bytes);
    if (!s) { PyErr_NoMemory(); return -1; }
    s->refs = 1;
    s->parent = b->undo;  /* the board's reference to the old top passes to the new snapshot */
    memcpy(s->data, b->state, b->state_bytes);
    b->undo = s;
    b->undo_len++;
    return 0;
}

/* ---------- real liberties, chains ---------- */

static int count_libs(BoardObject *b, int p, int32_t *out) {
    int h = b->head[p], s = h, n = 0;
    uint32_t st = next_stamp(b);
    do {
        int nb[4] = NEIGHBOURS(b, s);
        for (int k = 0; k < 4; k++) {
            int m = nb[k];
            if (b->color[m] == EMPTY && b->mark[m] != st) { b->mark[m] = st; if (out) out[n] = m; n++; }
        }
        s = b->next[s];
    } while (s != h);
    return n;
}

/* ---------- Benson's unconditional life ---------- */

/* Fills own[p] with +1/-1 for pass-alive stones and the regions they make safe. */
static void benson_for(BoardObject *b, int color, int8_t *own) {
    int size = b->size;
    int32_t *region = PyMem_Calloc(size, sizeof(int32_t));      /* region id per point, -1 none */
    int32_t *stack = PyMem_Calloc(size, sizeof(int32_t));
    int32_t *chain_alive = PyMem_Calloc(size, sizeof(int32_t)); /* per head: 1 alive candidate */
    int32_t *vital = PyMem_Calloc(size, sizeof(int32_t));       /* per head: vital region count */
    int32_t *region_ok = PyMem_Calloc(size, sizeof(int32_t));   /* per region id */
    int32_t *region_start = PyMem_Calloc(size + 1, sizeof(int32_t));
    int32_t *region_pts = PyMem_Calloc(size, sizeof(int32_t));
    if (!region || !stack || !chain_alive || !vital || !region_ok || !region_start || !region_pts) goto done;
    for (int p = 0; p < size; p++) region[p] = -1;
    /* regions: maximal connected sets of points that are not `color` (empty or enemy) */
    int nreg = 0, npts = 0;
    for (int p = 0; p < size; p++) {
        if (b->color[p] == BORDER || b->color[p] == color || region[p] >= 0) continue;
        region_start[nreg] = npts;
        int sp = 0; stack[sp++] = p; region[p] = nreg;
        while (sp) {
            int q = stack[--sp]; region_pts[npts++] = q;
            int nb[4] = NEIGHBOURS(b, q);
            for (int k = 0; k < 4; k++) {
                int n = nb[k];
                if (b->color[n] == BORDER || b->color[n] == color || region[n] >= 0) continue;
                region[n] = nreg; stack[sp++] = n;
            }
        }
        nreg++;
    }
    region_start[nreg] = npts;
    for (int p = 0; p < size; p++) if (b->color[p] == color && b->head[p] == p) chain_alive[p] = 1;
    for (int r = 0; r < nreg; r++) region_ok[r] = 1;
    int changed = 1;
    while (changed) {
        changed = 0;
        /* count healthy (vital) regions per chain: every empty point of the region is a liberty */
        for (int p = 0; p < size; p++) vital[p] = 0;
        for (int r = 0; r < nreg; r++) {
            if (!region_ok[r]) continue;
            /* chains bordering the region */
            int bord[64], nb_count = 0, overflow = 0;
            uint32_t st = next_stamp(b);
            for (int i = region_start[r]; i < region_start[r + 1]; i++) {
                int q = region_pts[i];
                int nb[4] = NEIGHBOURS(b, q);
                for (int k = 0; k < 4; k++) {
                    int n = nb[k];
                    if (b->color[n] != color) continue;
                    int h = b->head[n];
                    if (b->mark[h] == st) continue;
                    b->mark[h] = st;
                    if (nb_count < 64) bord[nb_count++] = h; else overflow = 1;
                }
            }
            if (overflow) continue;  /* pathological; treat the region as vital to nobody */
            for (int j = 0; j < nb_count; j++) {
                int h = bord[j], healthy = 1;
                for (int i = region_start[r]; i < region_start[r + 1] && healthy; i++) {
                    int q = region_pts[i];
                    if (b->color[q] != EMPTY) continue;
                    int adj = 0, nb[4] = NEIGHBOURS(b, q);
                    for (int k = 0; k < 4; k++) if (b->color[nb[k]] == color && b->head[nb[k]] == h) adj = 1;
                    if (!adj) healthy = 0;
                }
                if (healthy) vital[h]++;
            }
        }
        for (int p = 0; p < size; p++) {
            if (chain_alive[p] && vital[p] < 2) { chain_alive[p] = 0; changed = 1; }
        }
        /* a region bordered by a removed chain is no longer healthy for anyone */
        for (int r = 0; r < nreg; r++) {
            if (!region_ok[r]) continue;
            for (int i = region_start[r]; i < region_start[r + 1] && region_ok[r]; i++) {
                int q = region_pts[i], nb[4] = NEIGHBOURS(b, q);
                for (int k = 0; k < 4; k++) {
                    int n = nb[k];
                    if (b->color[n] == color && !chain_alive[b->head[n]]) { region_ok[r] = 0; changed = 1; break; }
                }
            }
        }
    }
    for (int p = 0; p < size; p++)
        if (b->color[p] == color && chain_alive[b->head[p]]) own[p] = (int8_t)color;
    /* safe regions: bordered only by alive chains, and every empty point a liberty of an alive chain */
    for (int r = 0; r < nreg; r++) {
        if (!region_ok[r]) continue;
        int safe = 1, borders = 0;
        for (int i = region_start[r]; i < region_start[r + 1] && safe; i++) {
            int q = region_pts[i], nb[4] = NEIGHBOURS(b, q), adj = 0;
            for (int k = 0; k < 4; k++)
                if (b->color[nb[k]] == color) { borders = 1; if (chain_alive[b->head[nb[k]]]) adj = 1; }
            if (b->color[q] == EMPTY && !adj) safe = 0;
        }
        if (safe && borders)
            for (int i = region_start[r]; i < region_start[r + 1]; i++) own[region_pts[i]] = (int8_t)color;
    }
done:
    PyMem_Free(region); PyMem_Free(stack); PyMem_Free(chain_alive); PyMem_Free(vital);
    PyMem_Free(region_ok); PyMem_Free(region_start); PyMem_Free(region_pts);
}

/* ---------- Python type ---------- */

static PyTypeObject BoardType;

static int Board_init(BoardObject *self, PyObject *args, PyObject *kw) {
    int w, h;
    if (!PyArg_ParseTuple(args, "ii", &w, &h)) return -1;
    if (w < 1 || h < 1 || w > MAX_SIDE || h > MAX_SIDE) {
        PyErr_Format(PyExc_ValueError, "board size %dx%d out of range 1..%d", w, h, MAX_SIDE); return -1;
    }
    if (layout(self, w, h) < 0) { PyErr_NoMemory(); return -1; }
    clear_board(self);
    return 0;
}

static void Board_dealloc(BoardObject *self) {
    PyMem_Free(self->state); PyMem_Free(self->captured); PyMem_Free(self->mark); snap_release(self->undo);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int check_point(BoardObject *b, int r, int c) {
    if (r < 0 || c < 0 || r >= b->h || c >= b->w) { PyErr_SetString(PyExc_IndexError, "point off board"); return -1; }
    return 0;
}

static PyObject *Board_play(BoardObject *self, PyObject *args) {
    int color, r, c, suicide_ok, record = 1;
    if (!PyArg_ParseTuple(args, "iiip|p", &color, &r, &c, &suicide_ok, &record)) return NULL;
    if (r < 0 || c < 0 || r >= self->h || c >= self->w) return PyLong_FromLong(ERR_OFFBOARD);
    int p = idx(self, r, c);
    int code = legality(self, color, p, suicide_ok);
    if (code != OK) return PyLong_FromLong(code);
    if (record && push_snapshot(self) < 0) return NULL;
    return PyLong_FromLong(do_play(self, color, p));
}

static PyObject *Board_legality(BoardObject *self, PyObject *args) {
    int color, r, c, suicide_ok;
    if (!PyArg_ParseTuple(args, "iiip", &color, &r, &c, &suicide_ok)) return NULL;
    if (r < 0 || c < 0 || r >= self->h || c >= self->w) return PyLong_FromLong(ERR_OFFBOARD);
    return PyLong_FromLong(legality(self, color, idx(self, r, c), suicide_ok));
}

static PyObject *Board_pass_move(BoardObject *self, PyObject *args) {
    int record = 1;
    if (!PyArg_ParseTuple(args, "|p", &record)) return NULL;
    if (record && push_snapshot(self) < 0) return NULL;
    self->sc->ko = -1; self->sc->ko_color = 0; self->sc->last_ncaptured = 0;
    Py_RETURN_NONE;
}

static PyObject *Board_undo(BoardObject *self, PyObject *noargs) {
    Snap *top = self->undo;
    if (!top) Py_RETURN_FALSE;
    memcpy(self->state, top->data, self->state_bytes);
    self->undo = top->parent;
    if (self->undo) self->undo->refs++;
    snap_release(top);
    self->undo_len--;
    Py_RETURN_TRUE;
}

static PyObject *point_tuple(BoardObject *b, int p) {
    return Py_BuildValue("(ii)", p / b->S - 1, p % b->S - 1);
}

static PyObject *Board_last_captured(BoardObject *self, PyObject *noargs) {
    int n = self->sc->last_ncaptured;
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (int i = 0; i < n; i++) PyList_SET_ITEM(list, i, point_tuple(self, self->captured[i]));
    return list;
}

static PyObject *Board_get(BoardObject *self, PyObject *args) {
    int r, c;
    if (!PyArg_ParseTuple(args, "ii", &r, &c)) return NULL;
    if (check_point(self, r, c) < 0) return NULL;
    return PyLong_FromLong(self->color[idx(self, r, c)]);
}

static PyObject *Board_set_stones(BoardObject *self, PyObject *args) {
    /* Setup (AB/AW/AE): a bytes object of h*w signed colours; chains are rebuilt, ko cleared. */
    Py_buffer buf;
    if (!PyArg_ParseTuple(args, "y*", &buf)) return NULL;
    if (buf.len != self->w * self->h) { PyBuffer_Release(&buf); PyErr_SetString(PyExc_ValueError, "wrong size"); return NULL; }
    const int8_t *src = buf.buf;
    for (int r = 0; r < self->h; r++)
        for (int c = 0; c < self->w; c++) {
            int8_t v = src[r * self->w + c];
            self->color[idx(self, r, c)] = v > 0 ? BLACK : v < 0 ? WHITE : EMPTY;
        }
    PyBuffer_Release(&buf);
    self->sc->ko = -1; self->sc->ko_color = 0;
    rebuild(self);
    Py_RETURN_NONE;
}

static PyObject *Board_stones(BoardObject *self, PyObject *noargs) {
    PyObject *out = PyBytes_FromStringAndSize(NULL, self->w * self->h);
    if (!out) return NULL;
    int8_t *dst = (int8_t *)PyBytes_AS_STRING(out);
    for (int r = 0; r < self->h; r++)
        for (int c = 0; c < self->w; c++) dst[r * self->w + c] = self->color[idx(self, r, c)];
    return out;
}

static PyObject *Board_liberties(BoardObject *self, PyObject *args) {
    int r, c;
    if (!PyArg_ParseTuple(args, "ii", &r, &c)) return NULL;
    if (check_point(self, r, c) < 0) return NULL;
    int p = idx(self, r, c);
    if (self->color[p] != BLACK && self->color[p] != WHITE) return PyLong_FromLong(0);
    return PyLong_FromLong(count_libs(self, p, NULL));
}

static PyObject *Board_chain_liberties(BoardObject *self, PyObject *args) {
    int r, c;
    if (!PyArg_ParseTuple(args, "ii", &r, &c)) return NULL;
    if (check_point(self, r, c) < 0) return NULL;
    int p = idx(self, r, c);
    if (self->color[p] != BLACK && self->color[p] != WHITE) return PyList_New(0);
    int n = count_libs(self, p, self->captured);
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (int i = 0; i < n; i++) PyList_SET_ITEM(list, i, point_tuple(self, self->captured[i]));
    self->sc->last_ncaptured = 0;
    return list;
}

static PyObject *Board_chain(BoardObject *self, PyObject *args) {
    int r, c;
    if (!PyArg_ParseTuple(args, "ii", &r, &c)) return NULL;
    if (check_point(self, r, c) < 0) return NULL;
    int p = idx(self, r, c);
    if (self->color[p] != BLACK && self->color[p] != WHITE) return PyList_New(0);
    int h = self->head[p], s = h;
    PyObject *list = PyList_New(0);
    if (!list) return NULL;
    do {
        PyObject *t = point_tuple(self, s);
        if (!t || PyList_Append(list, t) < 0) { Py_XDECREF(t); Py_DECREF(list); return NULL; }
        Py_DECREF(t); s = self->next[s];
    } while (s != h);
    return list;
}

static PyObject *Board_legal_moves(BoardObject *self, PyObject *args) {
    int color, suicide_ok;
    if (!PyArg_ParseTuple(args, "ip", &color, &suicide_ok)) return NULL;
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
    int8_t *own = PyMem_Calloc(self->size, 1);
    if (!own) return PyErr_NoMemory();
    benson_for(self, BLACK, own);
    benson_for(self, WHITE, own);
    PyObject *out = PyBytes_FromStringAndSize(NULL, self->w * self->h);
    if (out) {
        int8_t *dst = (int8_t *)PyBytes_AS_STRING(out);
        for (int r = 0; r < self->h; r++)
            for (int c = 0; c < self->w; c++) dst[r * self->w + c] = own[idx(self, r, c)];
    }
    PyMem_Free(own);
    return out;
}

/* Area ownership: stones not marked dead count for their colour; empty regions (dead stones removed)
 * that reach only one colour count for it. `dead` is a bytes mask h*w (non-zero = dead). */
static PyObject *Board_area(BoardObject *self, PyObject *args) {
    Py_buffer buf;
    if (!PyArg_ParseTuple(args, "y*", &buf)) return NULL;
    if (buf.len != self->w * self->h) { PyBuffer_Release(&buf); PyErr_SetString(PyExc_ValueError, "wrong size"); return NULL; }
    const int8_t *dead = buf.buf;
    int8_t *col = PyMem_Calloc(self->size, 1);
    int32_t *stack = PyMem_Calloc(self->size, sizeof(int32_t));
    int32_t *members = PyMem_Calloc(self->size, sizeof(int32_t));
    PyObject *out = PyBytes_FromStringAndSize(NULL, self->w * self->h);
    if (!col || !stack || !members || !out) { PyBuffer_Release(&buf); PyMem_Free(col); PyMem_Free(stack); PyMem_Free(members); Py_XDECREF(out); return PyErr_NoMemory(); }
    for (int p = 0; p < self->size; p++) col[p] = self->color[p];
    for (int r = 0; r < self->h; r++)
        for (int c = 0; c < self->w; c++) if (dead[r * self->w + c]) col[idx(self, r, c)] = EMPTY;
    PyBuffer_Release(&buf);
    int8_t *own = PyMem_Calloc(self->size, 1);
    uint32_t st = next_stamp(self);
    for (int p = 0; p < self->size; p++) {
        if (col[p] == BLACK || col[p] == WHITE) { own[p] = col[p]; continue; }
        if (col[p] != EMPTY || self->mark[p] == st) continue;
        int sp = 0, nm = 0, reach_b = 0, reach_w = 0;
        stack[sp++] = p; self->mark[p] = st;
        while (sp) {
            int q = stack[--sp]; members[nm++] = q;
            int nb[4] = NEIGHBOURS(self, q);
            for (int k = 0; k < 4; k++) {
                int n = nb[k];
                if (col[n] == BLACK) reach_b = 1;
                else if (col[n] == WHITE) reach_w = 1;
                else if (col[n] == EMPTY && self->mark[n] != st) { self->mark[n] = st; stack[sp++] = n; }
            }
        }
        int v = reach_b && !reach_w ? BLACK : reach_w && !reach_b ? WHITE : EMPTY;
        for (int i = 0; i < nm; i++) own[members[i]] = (int8_t)v;
    }
    int8_t *dst = (int8_t *)PyBytes_AS_STRING(out);
    for (int r = 0; r < self->h; r++)
        for (int c = 0; c < self->w; c++) dst[r * self->w + c] = own[idx(self, r, c)];
    PyMem_Free(col); PyMem_Free(stack); PyMem_Free(members); PyMem_Free(own);
    return out;
}

static inline uint64_t rng_next(uint64_t *s) {
    /* xorshift64* */
    uint64_t x = *s; x ^= x >> 12; x ^= x << 25; x ^= x >> 27; *s = x; return x * 0x2545F4914F6CDD1DULL;
}

static inline int is_own_eye(BoardObject *b, int color, int p) {
    int nb[4] = NEIGHBOURS(b, p);
    for (int k = 0; k < 4; k++) { int c = b->color[nb[k]]; if (c != color && c != BORDER) return 0; }
    return 1;
}

/* Random playout: uniform over legal moves that do not fill the mover's own single-point eye; pass
 * when none; two passes end. Uniformity: draw empty points without replacement until one qualifies. */
static PyObject *Board_playout(BoardObject *self, PyObject *args) {
    int color, max_moves, suicide_ok;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "iKip", &color, &seed, &max_moves, &suicide_ok)) return NULL;
    uint64_t s = seed ? seed : 0x9E3779B97F4A7C15ULL;
    int passes = 0, moves = 0;
    while (passes < 2 && moves < max_moves) {
        int n = self->sc->nempty, chosen = -1;
        while (n > 0) {
            int i = (int)(rng_next(&s) % (uint64_t)n);
            int p = self->empties[i];
            if (!is_own_eye(self, color, p) && legality(self, color, p, suicide_ok) == OK) { chosen = p; break; }
            /* move the rejected point past the live range (keeps the empties list a valid set) */
            n--;
            int q = self->empties[n];
            self->empties[i] = q; self->empty_pos[q] = i;
            self->empties[n] = p; self->empty_pos[p] = n;
        }
        if (chosen >= 0) { do_play(self, color, chosen); passes = 0; }
        else { self->sc->ko = -1; self->sc->ko_color = 0; passes++; }
        moves++;
        color = -color;
    }
    return Py_BuildValue("(ii)", moves, color);
}

static PyObject *Board_copy(BoardObject *self, PyObject *args) {
    int with_undo = 1;
    if (!PyArg_ParseTuple(args, "|p", &with_undo)) return NULL;
    BoardObject *b = (BoardObject *)BoardType.tp_alloc(&BoardType, 0);
    if (!b) return NULL;
    if (layout(b, self->w, self->h) < 0) { Py_DECREF(b); return PyErr_NoMemory(); }
    memcpy(b->state, self->state, self->state_bytes);
    if (with_undo && self->undo) {  /* share the history: snapshots are never written after a push */
        b->undo = self->undo;
        b->undo->refs++;
        b->undo_len = self->undo_len;
    }
    return (PyObject *)b;
}

static PyObject *Board_get_ko(BoardObject *self, void *closure) {
    if (self->sc->ko < 0) Py_RETURN_NONE;
    return Py_BuildValue("(Ni)", point_tuple(self, self->sc->ko), self->sc->ko_color);
}
static PyObject *Board_get_hash(BoardObject *self, void *closure) { return PyLong_FromUnsignedLongLong(self->sc->hash); }
static PyObject *Board_get_captures(BoardObject *self, void *closure) {
    return Py_BuildValue("(ii)", self->sc->captures_black, self->sc->captures_white);
}
static PyObject *Board_get_undo_depth(BoardObject *self, void *closure) { return PyLong_FromSsize_t(self->undo_len); }
static PyObject *Board_get_empty_count(BoardObject *self, void *closure) { return PyLong_FromLong(self->sc->nempty); }

static PyObject *Board_set_captures(BoardObject *self, PyObject *args) {
    int cb, cw;
    if (!PyArg_ParseTuple(args, "ii", &cb, &cw)) return NULL;
    self->sc->captures_black = cb; self->sc->captures_white = cw;
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
    PyModule_AddIntConstant(m, "MAX_SIDE", MAX_SIDE);
    return m;
}
