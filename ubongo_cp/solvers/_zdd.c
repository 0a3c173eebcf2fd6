/* DXZ: Algorithm X with a memo of the remaining items, building a decision diagram of all exact covers.
 *
 * The C part of ubongo_cp.solvers.zdd (its module docstring describes the method, the diagram and
 * the references: Nishino, Yasuda, Minato and Nagata, "Dancing with Decision Diagrams", AAAI-17;
 * Knuth, TAOCP Vol. 4B, 7.2.2.1; Minato's zero-suppressed decision diagrams).
 *
 * The search is Knuth's Algorithm X on sparse sets ("dancing cells"): item i's remaining options
 * are the entries cells[start[i] .. end[i]); an option leaves the lists of the items still active
 * when one of its items is covered; each level saves the list ends and restores them before its
 * next branch. Items are of four kinds:
 *   bit-must       (multiplicity [1..1]: a region cell, a piece type with one copy),
 *   bit-optional   ([0..1]: a secondary item),
 *   counter-must   ([u..v], v >= 2, u >= 1: a piece type with k copies [k..k], or a range of copies),
 *   counter-opt    ([0..k], k >= 2: a secondary piece type with k copies).
 * The search branches only on bit-must items (MRV: fewest options left, ties to the lowest id);
 * every option must hold one, so a state with no bit-must item left is a leaf: a solution when
 * every counter-must item [u..v] has been used at least u times (v - u or fewer left: Knuth's
 * DLX6 memo on the items left with the multiplicities left). The *state* is the set of active items and
 * the remaining capacity of each counter item, packed into W 64-bit words (one bit per bit item,
 * a small field per counter); the options left in a state are exactly those whose items are all
 * active with capacity, so the solutions below a state depend on the state alone. A memo maps each
 * state seen to the diagram node of its solutions (DXZ); a child's state is its parent's minus the
 * option's precomputed delta, so it is looked up *before* the option is applied to the lists.
 *
 * The diagram: node n = (var, lo, hi) stands for the family F(lo) + { {var} + S : S in F(hi) };
 * node 0 is the empty family, node 1 the family holding the empty set; children are created
 * before their parents, so node ids are a topological order. The node of a state is the chain
 * over the chosen item's options: lo = the options tried before, hi = the sub-diagram. A unique
 * table shares equal (var, lo, hi) triples. Every path to node 1 is one solution, and two paths
 * differ in the option they take for some item, so counts add (no ordering of the variables is
 * needed for counting, sampling or frequencies).
 *
 * Python interface (arrays through the buffer protocol):
 *   Builder(indptr, indices, weights, lo, hi, classes=False, colours=b"")
 *       colours: uint32 per entry (0: none; empty: no colours), on secondary items only (Algorithm C).
 *       uint32 CSR options, uint32 weight per entry (1 but for a counter item covered several times
 *       by one option), int32 bounds per item. With `classes`, each distinct solution state (the
 *       optional items left) gets its own terminal: a node (n_opts + class, 0, 1); leaf_keys()
 *       returns their states, so the paths to each count the solutions by the items they used.
 *       .bad: -1, or the first option that holds no bit-must item (then build() refuses).
 *   Builder.build(seconds, memory_bytes, unique, step_budget) -> status
 *       0 done, 1 time limit, 2 memory limit, 4 step budget spent (call again to go on);
 *       raises KeyboardInterrupt on a signal. seconds < 0, memory_bytes <= 0, step_budget <= 0: no
 *       limit. `unique`: share equal nodes through a unique table.
 *   Builder.nodes(var, lo, hi)                      copy the nodes into uint32 buffers.
 *   .root .n_nodes .states .steps .hits .work .peak_bytes .bytes
 *       work: the steps Algorithm X (the same item choices, no memo) would have spent below the
 *       states found in the memo, so (steps + work) / steps is the memo's saving so far.
 *   counts(var, lo, hi, weight, out_u64) -> overflowed
 *                                                   the solutions below each node; an option's
 *                                                   weight (uint64, empty: all 1) multiplies the
 *                                                   solutions holding it (orbit representatives).
 *   frequencies(var, lo, hi, counts, root, paths_u64, freq_u64) -> overflowed
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BOT 0u
#define TOP 1u
#define EMPTY UINT32_MAX
#define K_BIT_MUST 0
#define K_BIT_OPT 1
#define K_CNT_MUST 2
#define K_CNT_OPT 3
#define HEARTBEAT 16384

typedef struct { uint32_t item, where, opt, w; } Ent;
typedef struct { uint32_t start, end, apos, kind; } Itm;

typedef struct {
    uint32_t item, pos, len, result, opt, applied;
    uint64_t work; /* Algorithm X's steps below this state so far */
} Frame;

typedef struct {
    PyObject_HEAD
    /* the instance */
    int64_t n_items, n_opts, m, W;
    uint32_t *indptr, *cells, *active;
    Ent *ent;
    Itm *itm;
    int32_t *bound;
    uint64_t *delta;      /* n_opts x W: the state's decrease when an option is taken */
    uint64_t *must_bits;  /* W: bits of the bit-must items */
    uint64_t *must_cnt;   /* W: fields of the counter-must items with lo == hi (all used at a leaf) */
    uint32_t *rng;        /* n_rng x 3: (bit position, width, hi - lo) of the counters with 0 < lo < hi */
    int64_t n_rng;
    /* colours (Algorithm C): a secondary item with coloured entries holds a field in the state: 0 free,
     * c its colour, all ones taken by an uncoloured entry */
    uint32_t *ecol;       /* m: colour of each entry (0: none), or NULL */
    uint32_t *cpos, *cwid; /* n_items: field of each colour item (cwid 0: not one) */
    uint64_t *root_key;
    long long bad;
    /* the search */
    int64_t max_depth, n_act;
    Frame *frames;
    uint64_t *keys;       /* (max_depth + 1) x W */
    uint32_t *saved_end;  /* max_depth x n_items */
    int64_t *saved_act;
    /* the diagram */
    uint32_t *nvar, *nlo, *nhi;
    int64_t n_nodes, cap_nodes;
    uint32_t *uslot;      /* unique table */
    int64_t ucap, ucount;
    /* the memo */
    uint32_t *mslot;
    uint64_t *mkey;
    uint32_t *mval;
    uint64_t *mwork;      /* per memo entry: the search steps Algorithm X would spend below the state */
    int64_t mcap, mcount, marena;
    /* leaf classes: one terminal node per distinct solution state (the secondary items left) */
    int classes_on;
    uint64_t *ckey;
    int64_t n_classes, cap_classes;
    /* results and accounting */
    long long root, steps, hits, done, states, depth;
    uint64_t work;        /* steps Algorithm X would have spent on the states found in the memo */
    long long bytes, peak_bytes, fixed_bytes, limit_bytes;
} Builder;

/* ------------------------------------------------------------------ memory */
static void account(Builder *b, long long delta)
{
    b->bytes += delta;
    if (b->bytes > b->peak_bytes)
        b->peak_bytes = b->bytes;
}

/* 1 when growing by `more` bytes stays within the limit */
static int may_grow(Builder *b, long long more)
{
    return b->limit_bytes <= 0 || b->bytes + more <= b->limit_bytes;
}

static inline uint64_t mix64(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

static inline uint64_t hash_key(const uint64_t *k, int64_t W)
{
    uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (int64_t w = 0; w < W; w++)
        h = mix64(h ^ k[w]) + 0x9e3779b97f4a7c15ULL * (uint64_t)(w + 1);
    return h;
}

static inline uint64_t hash_node(uint32_t v, uint32_t lo, uint32_t hi)
{
    return mix64(((uint64_t)v << 32 | lo) ^ mix64((uint64_t)hi + 0x632be59bd9b4e019ULL));
}

/* ----------------------------------------------------------------- nodes */
static int grow_unique(Builder *b)
{
    int64_t ncap = b->ucap ? 2 * b->ucap : 1024;
    if (!may_grow(b, (ncap - b->ucap) * 4))
        return 0;
    uint32_t *slot = malloc((size_t)ncap * 4);
    if (!slot)
        return 0;
    memset(slot, 0xff, (size_t)ncap * 4);
    uint64_t mask = (uint64_t)ncap - 1;
    for (int64_t s = 0; s < b->ucap; s++) {
        uint32_t n = b->uslot[s];
        if (n == EMPTY)
            continue;
        uint64_t h = hash_node(b->nvar[n], b->nlo[n], b->nhi[n]) & mask;
        while (slot[h] != EMPTY)
            h = (h + 1) & mask;
        slot[h] = n;
    }
    free(b->uslot);
    account(b, (ncap - b->ucap) * 4);
    b->uslot = slot;
    b->ucap = ncap;
    return 1;
}

static int grow_nodes(Builder *b)
{
    int64_t ncap = b->cap_nodes ? 2 * b->cap_nodes : 1024;
    if (ncap > (int64_t)EMPTY - 1)
        return 0;
    if (!may_grow(b, (ncap - b->cap_nodes) * 12))
        return 0;
    uint32_t *v = realloc(b->nvar, (size_t)ncap * 4);
    if (!v)
        return 0;
    b->nvar = v;
    uint32_t *l = realloc(b->nlo, (size_t)ncap * 4);
    if (!l)
        return 0;
    b->nlo = l;
    uint32_t *h = realloc(b->nhi, (size_t)ncap * 4);
    if (!h)
        return 0;
    b->nhi = h;
    account(b, (ncap - b->cap_nodes) * 12);
    b->cap_nodes = ncap;
    return 1;
}

/* The node (v, lo, hi), shared through the unique table when `unique`; EMPTY when out of memory. */
static uint32_t make_node(Builder *b, uint32_t v, uint32_t lo, uint32_t hi, int unique)
{
    if (hi == BOT)
        return lo;
    uint64_t h = 0;
    if (unique) {
        if (2 * (b->ucount + 1) > b->ucap && !grow_unique(b))
            return EMPTY;
        uint64_t mask = (uint64_t)b->ucap - 1;
        h = hash_node(v, lo, hi) & mask;
        for (;;) {
            uint32_t n = b->uslot[h];
            if (n == EMPTY)
                break;
            if (b->nvar[n] == v && b->nlo[n] == lo && b->nhi[n] == hi)
                return n;
            h = (h + 1) & mask;
        }
    }
    if (b->n_nodes == b->cap_nodes && !grow_nodes(b))
        return EMPTY;
    uint32_t n = (uint32_t)b->n_nodes++;
    b->nvar[n] = v;
    b->nlo[n] = lo;
    b->nhi[n] = hi;
    if (unique) {
        b->uslot[h] = n;
        b->ucount++;
    }
    return n;
}

/* ------------------------------------------------------------------ memo */
static int grow_memo(Builder *b)
{
    int64_t W = b->W;
    int64_t ncap = b->mcap ? 2 * b->mcap : 1024;
    /* slots: 4 bytes per slot; arena: W words, a node and a work figure per entry, for ncap / 2 entries */
    long long more = (ncap - b->mcap) * 4 + (ncap / 2 - b->marena) * (8 * W + 12);
    if (!may_grow(b, more))
        return 0;
    uint64_t *k = realloc(b->mkey, (size_t)(ncap / 2) * 8 * (size_t)W);
    if (!k)
        return 0;
    b->mkey = k;
    uint32_t *val = realloc(b->mval, (size_t)(ncap / 2) * 4);
    if (!val)
        return 0;
    b->mval = val;
    uint64_t *work = realloc(b->mwork, (size_t)(ncap / 2) * 8);
    if (!work)
        return 0;
    b->mwork = work;
    uint32_t *slot = malloc((size_t)ncap * 4);
    if (!slot)
        return 0;
    memset(slot, 0xff, (size_t)ncap * 4);
    uint64_t mask = (uint64_t)ncap - 1;
    for (int64_t e = 0; e < b->mcount; e++) {
        uint64_t h = hash_key(b->mkey + e * W, W) & mask;
        while (slot[h] != EMPTY)
            h = (h + 1) & mask;
        slot[h] = (uint32_t)e;
    }
    free(b->mslot);
    account(b, more);
    b->mslot = slot;
    b->mcap = ncap;
    b->marena = ncap / 2;
    return 1;
}

/* The slot where `key` is, or where it would go; its node (EMPTY when absent) and work. */
static inline uint64_t memo_find(Builder *b, const uint64_t *key, uint32_t *value, uint64_t *work)
{
    int64_t W = b->W;
    uint64_t mask = (uint64_t)b->mcap - 1;
    uint64_t h = hash_key(key, W) & mask;
    for (;;) {
        uint32_t e = b->mslot[h];
        if (e == EMPTY) {
            *value = EMPTY;
            return h;
        }
        const uint64_t *k = b->mkey + (int64_t)e * W;
        int64_t w = 0;
        while (w < W && k[w] == key[w])
            w++;
        if (w == W) {
            *value = b->mval[e];
            *work = b->mwork[e];
            return h;
        }
        h = (h + 1) & mask;
    }
}

static int memo_insert(Builder *b, const uint64_t *key, uint32_t value, uint64_t work)
{
    if (2 * (b->mcount + 1) > b->mcap && !grow_memo(b))
        return 0;
    uint32_t old;
    uint64_t old_work;
    uint64_t h = memo_find(b, key, &old, &old_work);
    if (old != EMPTY)
        return 1;
    int64_t e = b->mcount++;
    memcpy(b->mkey + e * b->W, key, (size_t)b->W * 8);
    b->mval[e] = value;
    b->mwork[e] = work;
    b->mslot[h] = (uint32_t)e;
    return 1;
}

/* ------------------------------------------------------------ sparse sets */
static inline void deactivate(Builder *b, uint32_t j)
{
    uint32_t *active = b->active;
    Itm *itm = b->itm;
    int64_t na = --b->n_act;
    uint32_t other = active[na], p = itm[j].apos;
    active[p] = other;
    itm[other].apos = p;
    active[na] = j;
    itm[j].apos = (uint32_t)na;
}

static inline void drop_entry(Builder *b, uint32_t q)
{
    /* entry q leaves its item's list (swapped past the end) */
    Ent *ent = b->ent;
    Itm *it = b->itm + ent[q].item;
    uint32_t last = --it->end, loc = ent[q].where, other = b->cells[last];
    b->cells[loc] = other;
    ent[other].where = loc;
    b->cells[last] = q;
    ent[q].where = last;
}

/* Hide the options left in item j's list from the other items' lists; 0 when an active bit-must
 * item loses its last option (a dead end), checked only when `check`. */
static int hide_options(Builder *b, uint32_t j, int check)
{
    Itm *itm = b->itm;
    const Ent *ent = b->ent;
    const uint32_t *indptr = b->indptr;
    uint32_t s = itm[j].start, e = itm[j].end;
    for (uint32_t t = s; t < e; t++) {
        uint32_t k = b->cells[t], o = ent[k].opt;
        for (uint32_t q = indptr[o]; q < indptr[o + 1]; q++) {
            if (q == k)
                continue;
            uint32_t jq = ent[q].item;
            if (check && itm[jq].kind == K_BIT_MUST && itm[jq].end == itm[jq].start + 1 &&
                itm[jq].apos < b->n_act)
                return 0;
            drop_entry(b, q);
        }
    }
    return 1;
}

static inline void save_state(Builder *b, int64_t d)
{
    uint32_t *saved = b->saved_end + d * b->n_items;
    for (int64_t t = 0; t < b->n_act; t++) {
        uint32_t j = b->active[t];
        saved[j] = b->itm[j].end;
    }
    b->saved_act[d] = b->n_act;
}

static inline void restore_state(Builder *b, int64_t d)
{
    const uint32_t *saved = b->saved_end + d * b->n_items;
    b->n_act = b->saved_act[d];
    for (int64_t t = 0; t < b->n_act; t++) {
        uint32_t j = b->active[t];
        b->itm[j].end = saved[j];
    }
}

/* Take option o (out of every list already, chosen for item i, entry k): its other items lose
 * capacity, those at zero are covered; 0 on a dead end (the caller restores). */
static int apply_option(Builder *b, uint32_t o, uint32_t k)
{
    const uint32_t *indptr = b->indptr;
    Ent *ent = b->ent;
    for (uint32_t q = indptr[o]; q < indptr[o + 1]; q++) {
        if (q == k || (b->ecol && b->ecol[q]))
            continue; /* a coloured entry shares its item: the state's field holds the colour */
        uint32_t j = ent[q].item;
        b->bound[j] -= (int32_t)ent[q].w;
        if (b->bound[j] == 0)
            deactivate(b, j);
    }
    for (uint32_t q = indptr[o]; q < indptr[o + 1]; q++) {
        if (q == k || (b->ecol && b->ecol[q]))
            continue;
        uint32_t j = ent[q].item;
        if (b->bound[j] == 0 && !hide_options(b, j, 1))
            return 0;
    }
    return 1;
}

static void unapply_option(Builder *b, uint32_t o, uint32_t k)
{
    for (uint32_t q = b->indptr[o]; q < b->indptr[o + 1]; q++)
        if (q != k && !(b->ecol && b->ecol[q]))
            b->bound[b->ent[q].item] += (int32_t)b->ent[q].w;
}

static inline uint64_t field_of(const uint64_t *key, uint32_t pos, uint32_t wid)
{
    return (key[pos / 64] >> (pos % 64)) & (((uint64_t)1 << wid) - 1);
}

/* With colours: 1 when option o agrees with the colours of state `key` (a coloured entry finds its
 * item free or of its colour, an uncoloured one finds it free); then writes the child's fields. */
static int colour_fits(const Builder *b, const uint64_t *key, uint64_t *child, uint32_t o)
{
    for (uint32_t q = b->indptr[o]; q < b->indptr[o + 1]; q++) {
        uint32_t j = b->ent[q].item, wid = b->cwid[j];
        if (!wid)
            continue;
        uint32_t pos = b->cpos[j];
        uint64_t v = field_of(key, pos, wid), mask = (((uint64_t)1 << wid) - 1);
        uint64_t want = b->ecol[q] ? b->ecol[q] : mask;
        if (v != 0 && (v != want || !b->ecol[q]))
            return 0;
        if (child) {
            child[pos / 64] &= ~(mask << (pos % 64));
            child[pos / 64] |= want << (pos % 64);
        }
    }
    return 1;
}

/* 1 when every counter item of option o (but entry k) has capacity for it */
static inline int fits(const Builder *b, uint32_t o, uint32_t k)
{
    for (uint32_t q = b->indptr[o]; q < b->indptr[o + 1]; q++)
        if (q != k && b->bound[b->ent[q].item] < (int32_t)b->ent[q].w)
            return 0;
    return 1;
}

/* ---------------------------------------------------------------- search */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* TOP, BOT for a leaf state (no bit-must item left), EMPTY otherwise */
static inline uint32_t leaf(const Builder *b, const uint64_t *key)
{
    int64_t W = b->W;
    for (int64_t w = 0; w < W; w++)
        if (key[w] & b->must_bits[w])
            return EMPTY;
    for (int64_t w = 0; w < W; w++)
        if (key[w] & b->must_cnt[w])
            return BOT;
    for (int64_t r = 0; r < b->n_rng; r++) { /* a range [lo..hi]: at most hi - lo copies left unused */
        const uint32_t *f = b->rng + 3 * r;
        if (((key[f[0] / 64] >> (f[0] % 64)) & (((uint64_t)1 << f[1]) - 1)) > f[2])
            return BOT;
    }
    return TOP;
}

/* With leaf classes, the node of a solution state: one node (var = n_opts + class) per distinct
 * state, found again through the memo; EMPTY when out of memory. */
static uint32_t leaf_class(Builder *b, const uint64_t *key)
{
    uint32_t n;
    uint64_t w;
    memo_find(b, key, &n, &w);
    if (n != EMPTY)
        return n;
    if (b->n_classes == b->cap_classes) {
        int64_t ncap = b->cap_classes ? 2 * b->cap_classes : 64;
        if (!may_grow(b, (ncap - b->cap_classes) * 8 * b->W))
            return EMPTY;
        uint64_t *k = realloc(b->ckey, (size_t)ncap * 8 * (size_t)b->W);
        if (!k)
            return EMPTY;
        account(b, (ncap - b->cap_classes) * 8 * b->W);
        b->ckey = k;
        b->cap_classes = ncap;
    }
    n = make_node(b, (uint32_t)(b->n_opts + b->n_classes), BOT, TOP, 0);
    if (n == EMPTY)
        return EMPTY;
    memcpy(b->ckey + b->n_classes * b->W, key, (size_t)b->W * 8);
    b->n_classes++;
    if (!memo_insert(b, key, n, 0))
        return EMPTY;
    return n;
}

#define ST_DONE 0
#define ST_TIME 1
#define ST_MEMORY 2
#define ST_SIGNAL 3
#define ST_BUDGET 4

static inline uint64_t sat_add(uint64_t a, uint64_t b)
{
    uint64_t s;
    return __builtin_add_overflow(a, b, &s) ? UINT64_MAX : s;
}

/* The search, from the root or from where a step budget stopped it (b->depth >= 0). Stops on the
 * time limit, the memory limit, a signal, or after `budget` more steps (ST_BUDGET: resumable). */
static int search(Builder *b, double deadline, int unique, long long budget, PyThreadState **ts)
{
    const int64_t W = b->W;
    Frame *fr = b->frames;
    uint64_t *keys = b->keys;
    long long steps = 0, hits = 0;
    uint64_t work = 0;
    int64_t d;
    uint32_t sub;
    uint64_t sub_work;
    int status = ST_DONE;

    if (b->depth >= 0) {
        d = b->depth;
        goto resume;
    }
    d = 0;
    memcpy(keys, b->root_key, (size_t)W * 8);
    sub = leaf(b, keys);
    if (sub == TOP && b->classes_on)
        sub = leaf_class(b, keys);
    else if (sub == EMPTY)
        goto enter;
    b->root = sub;
    return sub == EMPTY ? ST_MEMORY : ST_DONE;
enter:
    /* a state not in the memo, at depth d: choose the bit-must item with the fewest options */
    {
        uint32_t best_i = EMPTY, best = UINT32_MAX;
        for (int64_t t = 0; t < b->n_act; t++) {
            uint32_t j = b->active[t];
            if (b->itm[j].kind != K_BIT_MUST)
                continue;
            uint32_t len = b->itm[j].end - b->itm[j].start;
            if (len < best || (len == best && j < best_i)) {
                best = len;
                best_i = j;
                if (len == 0)
                    break;
            }
        }
        fr[d].result = BOT;
        fr[d].applied = 0;
        fr[d].work = 0;
        if (best_i == EMPTY || best == 0) {
            fr[d].len = fr[d].pos = 0;
            goto finish;
        }
        deactivate(b, best_i);
        hide_options(b, best_i, 0);
        save_state(b, d);
        fr[d].item = best_i;
        fr[d].pos = 0;
        fr[d].len = best;
    }
next:
    if (fr[d].pos == fr[d].len)
        goto finish;
    if (steps == budget) {
        status = ST_BUDGET;
        goto stop;
    }
    if ((steps + 1) % HEARTBEAT == 0) {
        if (deadline >= 0 && now() > deadline) {
            status = ST_TIME;
            goto stop;
        }
        PyEval_RestoreThread(*ts);
        int sig = PyErr_CheckSignals();
        *ts = PyEval_SaveThread();
        if (sig) {
            status = ST_SIGNAL;
            goto stop;
        }
    }
resume:
    steps++;
    {
        uint32_t k = b->cells[b->itm[fr[d].item].start + fr[d].pos];
        uint32_t o = b->ent[k].opt;
        fr[d].opt = o;
        fr[d].applied = 0;
        sub_work = 0;
        uint64_t *key = keys + d * W, *child = key + W;
        if (!fits(b, o, k) || (b->ecol && !colour_fits(b, key, NULL, o))) {
            sub = BOT;
            goto got;
        }
        const uint64_t *dl = b->delta + (int64_t)o * W;
        for (int64_t w = 0; w < W; w++)
            child[w] = key[w] - dl[w];
        if (b->ecol)
            colour_fits(b, key, child, o);
        sub = leaf(b, child);
        if (sub == TOP && b->classes_on) {
            sub = leaf_class(b, child);
            if (sub == EMPTY) {
                status = ST_MEMORY;
                goto stop;
            }
            goto got;
        }
        if (sub != EMPTY)
            goto got;
        memo_find(b, child, &sub, &sub_work);
        if (sub != EMPTY) {
            hits++;
            work = sat_add(work, sub_work);
            goto got;
        }
        fr[d].applied = 1;
        if (!apply_option(b, o, k)) {
            if (!memo_insert(b, child, BOT, 0)) {
                status = ST_MEMORY;
                goto stop;
            }
            sub = BOT;
            goto got;
        }
        d++;
        goto enter;
    }
finish:
    if (!memo_insert(b, keys + d * W, fr[d].result, fr[d].work)) {
        status = ST_MEMORY;
        goto stop;
    }
    sub = fr[d].result;
    sub_work = fr[d].work;
    if (d == 0) {
        b->root = sub;
        goto stop;
    }
    d--;
got:
    fr[d].work = sat_add(fr[d].work, sat_add(sub_work, 1));
    if (fr[d].applied) {
        uint32_t k = b->cells[b->itm[fr[d].item].start + fr[d].pos];
        unapply_option(b, fr[d].opt, k);
        restore_state(b, d);
        fr[d].applied = 0;
    }
    if (sub != BOT) {
        uint32_t n = make_node(b, fr[d].opt, fr[d].result, sub, unique);
        if (n == EMPTY) {
            status = ST_MEMORY;
            goto stop;
        }
        fr[d].result = n;
    }
    fr[d].pos++;
    goto next;
stop:
    b->steps += steps;
    b->hits += hits;
    b->work = sat_add(b->work, work);
    b->depth = status == ST_BUDGET ? d : -1;
    return status;
}

/* --------------------------------------------------------------- Python glue */
static void builder_free(Builder *b)
{
    void **ptrs[] = {(void **)&b->indptr, (void **)&b->cells, (void **)&b->active, (void **)&b->ent,
                     (void **)&b->itm, (void **)&b->bound, (void **)&b->delta, (void **)&b->must_bits,
                     (void **)&b->must_cnt, (void **)&b->root_key, (void **)&b->frames, (void **)&b->keys,
                     (void **)&b->saved_end, (void **)&b->saved_act, (void **)&b->nvar, (void **)&b->nlo,
                     (void **)&b->nhi, (void **)&b->uslot, (void **)&b->mslot, (void **)&b->mkey,
                     (void **)&b->mval, (void **)&b->mwork, (void **)&b->ckey, (void **)&b->rng,
                     (void **)&b->ecol, (void **)&b->cpos, (void **)&b->cwid};
    for (size_t k = 0; k < sizeof ptrs / sizeof ptrs[0]; k++) {
        free(*ptrs[k]);
        *ptrs[k] = NULL;
    }
}

static void free_tables(Builder *b)
{
    /* after the build only the nodes are kept */
    free(b->uslot);
    free(b->mslot);
    free(b->mkey);
    free(b->mval);
    free(b->mwork);
    b->states = b->mcount;
    b->uslot = b->mslot = b->mval = NULL;
    b->mkey = b->mwork = NULL;
    account(b, -(b->ucap * 4 + b->mcap * 4 + b->marena * (8 * b->W + 12)));
    b->ucap = b->ucount = b->mcap = b->mcount = b->marena = 0;
}

static void Builder_dealloc(Builder *b)
{
    builder_free(b);
    Py_TYPE(b)->tp_free((PyObject *)b);
}

static int Builder_init(Builder *b, PyObject *args, PyObject *kwds)
{
    Py_buffer bp = {0}, bx = {0}, bw = {0}, bl = {0}, bh = {0}, bc = {0};
    int ok = 0, classes = 0;
    (void)kwds;
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*|py*", &bp, &bx, &bw, &bl, &bh, &classes, &bc))
        return -1;
    builder_free(b);
    b->classes_on = classes;
    b->n_classes = b->cap_classes = 0;
    if (bp.len % 4 || bp.len < 4 || bx.len % 4 || bw.len != bx.len || bl.len % 4 || bh.len != bl.len ||
        (bc.buf && bc.len && bc.len != bx.len)) {
        PyErr_SetString(PyExc_ValueError, "malformed builder arguments");
        goto done;
    }
    int64_t n_opts = bp.len / 4 - 1, m = bx.len / 4, n_items = bl.len / 4;
    const uint32_t *indptr = bp.buf, *indices = bx.buf, *weights = bw.buf;
    const int32_t *lo = bl.buf, *hi = bh.buf;
    if (indptr[0] != 0 || indptr[n_opts] != (uint32_t)m) {
        PyErr_SetString(PyExc_ValueError, "indptr must rise from 0 to len(indices)");
        goto done;
    }
    for (int64_t o = 0; o < n_opts; o++)
        if (indptr[o + 1] < indptr[o]) {
            PyErr_SetString(PyExc_ValueError, "indptr must not decrease");
            goto done;
        }
    for (int64_t q = 0; q < m; q++)
        if (indices[q] >= (uint32_t)n_items || weights[q] < 1) {
            PyErr_SetString(PyExc_ValueError, "an item id is out of range or a weight below 1");
            goto done;
        }
    b->n_items = n_items;
    b->n_opts = n_opts;
    b->m = m;
    /* the state's layout: a bit per item with hi == 1, then a field per counter in one word */
    int64_t *pos = malloc((size_t)(n_items + 1) * 8), *width = malloc((size_t)(n_items + 1) * 8);
    b->cpos = calloc((size_t)n_items + 1, 4);
    b->cwid = calloc((size_t)n_items + 1, 4);
    if (!pos || !width || !b->cpos || !b->cwid) {
        free(pos);
        free(width);
        PyErr_NoMemory();
        goto done;
    }
    if (bc.buf && bc.len) {
        const uint32_t *col = bc.buf;
        uint32_t top = 0;
        for (int64_t q = 0; q < m; q++)
            if (col[q]) {
                if (hi[indices[q]] != 1 || lo[indices[q]] != 0 || weights[q] != 1) {
                    PyErr_SetString(PyExc_ValueError, "a colour on an item that is not secondary");
                    free(pos);
                    free(width);
                    goto done;
                }
                top = col[q] > top ? col[q] : top;
            }
        if (top) {
            uint32_t wd = 0;
            while (((uint64_t)1 << wd) <= (uint64_t)top + 1)
                wd++;
            b->ecol = malloc((size_t)m * 4 + 4);
            if (!b->ecol) {
                free(pos);
                free(width);
                PyErr_NoMemory();
                goto done;
            }
            memcpy(b->ecol, col, (size_t)m * 4);
            for (int64_t q = 0; q < m; q++)
                if (col[q])
                    b->cwid[indices[q]] = wd; /* a colour item: a field of wd bits, 0 free */
        }
    }
    int64_t nbits = 0;
    for (int64_t i = 0; i < n_items; i++) {
        if (hi[i] < 0 || lo[i] < 0 || lo[i] > hi[i]) {
            PyErr_Format(PyExc_ValueError, "item %lld has bounds [%d..%d]; need 0 <= lo <= hi", (long long)i,
                         lo[i], hi[i]);
            free(pos);
            free(width);
            goto done;
        }
        width[i] = 0;
        if (hi[i] == 1 && !b->cwid[i])
            pos[i] = nbits++;
    }
    for (int64_t i = 0; i < n_items; i++) {
        if (hi[i] <= 1 && !b->cwid[i])
            continue;
        int64_t wd = b->cwid[i];
        if (!wd)
            while (((int64_t)1 << wd) <= hi[i])
                wd++;
        if (nbits / 64 != (nbits + wd - 1) / 64)
            nbits = (nbits / 64 + 1) * 64; /* a field never straddles two words */
        pos[i] = nbits;
        width[i] = wd;
        nbits += wd;
    }
    int64_t W = nbits ? (nbits + 63) / 64 : 1;
    b->W = W;
    b->max_depth = n_items + 2;
    size_t ni = (size_t)n_items + 1, mm = (size_t)m + 1, dd = (size_t)b->max_depth + 1;
    b->indptr = malloc((size_t)(n_opts + 1) * 4);
    b->cells = malloc(mm * 4);
    b->active = malloc(ni * 4);
    b->ent = malloc(mm * sizeof(Ent));
    b->itm = calloc(ni, sizeof(Itm));
    b->bound = malloc(ni * 4);
    b->delta = calloc((size_t)(n_opts + 1) * (size_t)W, 8);
    b->must_bits = calloc((size_t)W, 8);
    b->must_cnt = calloc((size_t)W, 8);
    b->rng = calloc(3 * ni, 4);
    b->n_rng = 0;
    b->root_key = calloc((size_t)W, 8);
    b->frames = calloc(dd, sizeof(Frame));
    b->keys = calloc((dd + 1) * (size_t)W, 8);
    b->saved_end = calloc(dd * ni, 4);
    b->saved_act = calloc(dd, 8);
    if (!b->indptr || !b->cells || !b->active || !b->ent || !b->itm || !b->bound || !b->delta ||
        !b->must_bits || !b->must_cnt || !b->rng || !b->root_key || !b->frames || !b->keys || !b->saved_end ||
        !b->saved_act) {
        free(pos);
        free(width);
        PyErr_NoMemory();
        goto done;
    }
    b->fixed_bytes = (long long)((n_opts + 1) * 4 + mm * 4 * 2 + ni * 4 * 5 + mm * sizeof(Ent) +
                                 ni * sizeof(Itm) + (size_t)(n_opts + 1) * W * 8 + dd * sizeof(Frame) +
                                 (dd + 1) * W * 8 + dd * ni * 4 + dd * 8);
    account(b, b->fixed_bytes);
    memcpy(b->indptr, indptr, (size_t)bp.len);
    b->bad = -1;
    for (int64_t i = 0; i < n_items; i++) {
        b->bound[i] = hi[i];
        b->itm[i].kind = hi[i] == 1 ? (lo[i] ? K_BIT_MUST : K_BIT_OPT) : (lo[i] ? K_CNT_MUST : K_CNT_OPT);
        if (b->cwid[i]) {
            b->cpos[i] = (uint32_t)pos[i];
            continue; /* a colour item: its field starts at 0 (free); the child's is written, not subtracted */
        }
        if (hi[i] == 1) {
            if (lo[i])
                b->must_bits[pos[i] / 64] |= 1ULL << (pos[i] % 64);
            b->root_key[pos[i] / 64] |= 1ULL << (pos[i] % 64);
        } else if (hi[i] > 1) {
            if (lo[i] == hi[i])
                b->must_cnt[pos[i] / 64] |= (((uint64_t)1 << width[i]) - 1) << (pos[i] % 64);
            else if (lo[i]) {
                uint32_t *f = b->rng + 3 * b->n_rng++;
                f[0] = (uint32_t)pos[i];
                f[1] = (uint32_t)width[i];
                f[2] = (uint32_t)(hi[i] - lo[i]);
            }
            b->root_key[pos[i] / 64] += (uint64_t)hi[i] << (pos[i] % 64);
        }
    }
    /* options: entries, deltas, and the first option without a bit-must item */
    for (int64_t o = 0; o < n_opts; o++) {
        int has_must = 0, dead = 0;
        for (uint32_t q = indptr[o]; q < indptr[o + 1]; q++) {
            uint32_t i = indices[q];
            dead |= (int32_t)weights[q] > hi[i];
            b->ent[q].item = i;
            b->ent[q].opt = (uint32_t)o;
            b->ent[q].w = weights[q];
            b->itm[i].end++;
            if (hi[i] == 1 && lo[i] == 1 && weights[q] == 1)
                has_must = 1;
            if (b->cwid[i])
                ;
            else if (hi[i] == 1)
                b->delta[o * W + pos[i] / 64] |= 1ULL << (pos[i] % 64);
            else if (hi[i] > 1)
                b->delta[o * W + pos[i] / 64] += (uint64_t)weights[q] << (pos[i] % 64);
        }
        if (!has_must && !dead && b->bad < 0)
            b->bad = o; /* an option that can never be taken (past an item's bound) does not count */
    }
    free(pos);
    free(width);
    uint32_t acc = 0;
    for (int64_t i = 0; i < n_items; i++) {
        uint32_t n = b->itm[i].end;
        b->itm[i].start = acc;
        b->itm[i].end = acc; /* filled below */
        acc += n;
    }
    for (int64_t q = 0; q < m; q++) {
        Itm *it = b->itm + indices[q];
        b->cells[it->end] = (uint32_t)q;
        b->ent[q].where = it->end;
        it->end++;
    }
    for (int64_t i = 0; i < n_items; i++)
        b->active[i] = b->itm[i].apos = (uint32_t)i;
    b->n_act = n_items;
    /* items without capacity (taken by fixed options) start covered; a bad weight hides its option */
    for (int64_t i = 0; i < n_items; i++)
        if (hi[i] == 0)
            deactivate(b, (uint32_t)i);
    for (int64_t i = 0; i < n_items; i++)
        if (hi[i] == 0)
            hide_options(b, (uint32_t)i, 0);
    /* an option covering an item more often than its capacity is never part of a cover */
    for (int64_t o = 0; o < n_opts; o++) {
        int over = 0;
        for (uint32_t q = indptr[o]; q < indptr[o + 1]; q++)
            over |= (int32_t)weights[q] > hi[indices[q]];
        if (!over)
            continue;
        for (uint32_t q = indptr[o]; q < indptr[o + 1]; q++) {
            const Itm *it = b->itm + indices[q];
            if (it->apos < b->n_act && b->ent[q].where < it->end)
                drop_entry(b, q);
        }
    }
    b->nvar = b->nlo = b->nhi = NULL;
    b->n_nodes = b->cap_nodes = 0;
    if (!grow_nodes(b)) {
        PyErr_NoMemory();
        goto done;
    }
    b->nvar[0] = b->nvar[1] = UINT32_MAX;
    b->nlo[0] = b->nhi[0] = BOT;
    b->nlo[1] = b->nhi[1] = TOP;
    b->n_nodes = 2;
    b->root = BOT;
    b->done = 0;
    b->depth = -1;
    ok = 1;
done:
    PyBuffer_Release(&bp);
    PyBuffer_Release(&bx);
    PyBuffer_Release(&bw);
    PyBuffer_Release(&bl);
    PyBuffer_Release(&bh);
    if (bc.buf)
        PyBuffer_Release(&bc);
    if (!ok)
        builder_free(b);
    return ok ? 0 : -1;
}

static PyObject *Builder_build(Builder *b, PyObject *args)
{
    double seconds;
    long long memory, budget;
    int unique;
    if (!PyArg_ParseTuple(args, "dLpL", &seconds, &memory, &unique, &budget))
        return NULL;
    if (!b->indptr) {
        PyErr_SetString(PyExc_RuntimeError, "builder not initialised");
        return NULL;
    }
    if (b->done) {
        PyErr_SetString(PyExc_RuntimeError, "the diagram is built: build() runs once, or on after a step budget");
        return NULL;
    }
    if (b->bad >= 0) {
        PyErr_Format(PyExc_ValueError, "option %lld covers no item of multiplicity [1..1]", b->bad);
        return NULL;
    }
    b->limit_bytes = memory;
    if (!b->mcap && (!grow_memo(b) || (unique && !grow_unique(b)))) {
        b->done = 1;
        return PyLong_FromLong(ST_MEMORY);
    }
    double deadline = seconds < 0 ? -1.0 : now() + seconds;
    PyThreadState *ts = PyEval_SaveThread();
    int status = search(b, deadline, unique, budget <= 0 ? -1 : budget, &ts);
    PyEval_RestoreThread(ts);
    if (status == ST_BUDGET)
        return PyLong_FromLong(status);
    b->done = 1;
    free_tables(b);
    if (status == ST_SIGNAL)
        return NULL; /* the exception set by PyErr_CheckSignals */
    return PyLong_FromLong(status);
}

static PyObject *Builder_nodes(Builder *b, PyObject *args)
{
    Py_buffer bv = {0}, bl = {0}, bh = {0};
    if (!PyArg_ParseTuple(args, "w*w*w*", &bv, &bl, &bh))
        return NULL;
    size_t need = (size_t)b->n_nodes * 4;
    int ok = (size_t)bv.len >= need && (size_t)bl.len >= need && (size_t)bh.len >= need;
    if (ok) {
        memcpy(bv.buf, b->nvar, need);
        memcpy(bl.buf, b->nlo, need);
        memcpy(bh.buf, b->nhi, need);
    }
    PyBuffer_Release(&bv);
    PyBuffer_Release(&bl);
    PyBuffer_Release(&bh);
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "node buffers too small");
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *Builder_leaf_keys(Builder *b, PyObject *Py_UNUSED(ignored))
{
    return PyBytes_FromStringAndSize((const char *)b->ckey, (Py_ssize_t)(b->n_classes * b->W * 8));
}

static PyMethodDef Builder_methods[] = {
    {"leaf_keys", (PyCFunction)Builder_leaf_keys, METH_NOARGS,
     "leaf_keys() -> bytes: the state of each leaf class (n_classes x words uint64)"},
    {"build", (PyCFunction)Builder_build, METH_VARARGS,
     "build(seconds, memory_bytes, unique, step_budget) -> 0 done, 1 time limit, 2 memory limit, 4 step "
     "budget spent (call again to go on)"},
    {"nodes", (PyCFunction)Builder_nodes, METH_VARARGS, "nodes(var, lo, hi): copy the nodes (uint32 buffers)"},
    {NULL, NULL, 0, NULL}};

static PyMemberDef Builder_members[] = {
    {"root", T_LONGLONG, offsetof(Builder, root), READONLY, "root node"},
    {"n_nodes", T_LONGLONG, offsetof(Builder, n_nodes), READONLY, "nodes, the two terminals included"},
    {"steps", T_LONGLONG, offsetof(Builder, steps), READONLY, "options tried (search steps)"},
    {"hits", T_LONGLONG, offsetof(Builder, hits), READONLY, "states found in the memo"},
    {"work", T_ULONGLONG, offsetof(Builder, work), READONLY,
     "steps Algorithm X would have spent below the states found in the memo (saturating)"},
    {"bytes", T_LONGLONG, offsetof(Builder, bytes), READONLY, "bytes held now"},
    {"peak_bytes", T_LONGLONG, offsetof(Builder, peak_bytes), READONLY, "most bytes held at once"},
    {"bad", T_LONGLONG, offsetof(Builder, bad), READONLY, "first option without a [1..1] item, or -1"},
    {"states", T_LONGLONG, offsetof(Builder, states), READONLY, "states the memo held"},
    {"n_classes", T_LONGLONG, offsetof(Builder, n_classes), READONLY, "leaf classes (0 without them)"},
    {"words", T_LONGLONG, offsetof(Builder, W), READONLY, "64-bit words per state"},
    {NULL, 0, 0, 0, NULL}};

static PyTypeObject BuilderType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ubongo_cp.solvers._zdd.Builder",
    .tp_basicsize = sizeof(Builder),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "DXZ: the decision diagram of every exact cover of one instance.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Builder_init,
    .tp_dealloc = (destructor)Builder_dealloc,
    .tp_methods = Builder_methods,
    .tp_members = Builder_members,
};

/* ------------------------------------------------------- counts, frequencies */
static PyObject *zdd_counts(PyObject *self, PyObject *args)
{
    Py_buffer bv = {0}, bl = {0}, bh = {0}, bw = {0}, bo = {0};
    (void)self;
    if (!PyArg_ParseTuple(args, "y*y*y*y*w*", &bv, &bl, &bh, &bw, &bo))
        return NULL;
    int64_t n = bl.len / 4, n_w = bw.len / 8;
    int over = 0, ok = bv.len == bl.len && bh.len == bl.len && bo.len == n * 8 && n >= 2;
    if (ok) {
        const uint32_t *var = bv.buf, *lo = bl.buf, *hi = bh.buf;
        const uint64_t *w = bw.buf;
        uint64_t *c = bo.buf;
        c[0] = 0;
        c[1] = 1;
        for (int64_t k = 2; k < n; k++) {
            uint64_t up = c[hi[k]];
            if (var[k] < (uint64_t)n_w) /* beyond the weights (a leaf class): weight 1 */
                over |= __builtin_mul_overflow(up, w[var[k]], &up);
            over |= __builtin_add_overflow(c[lo[k]], up, &c[k]);
        }
    }
    PyBuffer_Release(&bv);
    PyBuffer_Release(&bl);
    PyBuffer_Release(&bh);
    PyBuffer_Release(&bw);
    PyBuffer_Release(&bo);
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "counts: bad buffers");
        return NULL;
    }
    return PyBool_FromLong(over);
}

static PyObject *zdd_frequencies(PyObject *self, PyObject *args)
{
    (void)self;
    Py_buffer bv = {0}, bl = {0}, bh = {0}, bc = {0}, bp = {0}, bf = {0};
    long long root;
    if (!PyArg_ParseTuple(args, "y*y*y*y*Lw*w*", &bv, &bl, &bh, &bc, &root, &bp, &bf))
        return NULL;
    int64_t n = bl.len / 4, n_opts = bf.len / 8;
    int over = 0;
    int ok = bv.len == bl.len && bh.len == bl.len && bc.len == n * 8 && bp.len == n * 8 && root >= 0 && root < n;
    if (ok) {
        const uint32_t *var = bv.buf, *lo = bl.buf, *hi = bh.buf;
        const uint64_t *c = bc.buf;
        uint64_t *p = bp.buf, *f = bf.buf;
        memset(p, 0, (size_t)n * 8);
        p[root] = 1;
        for (int64_t k = root; k >= 2 && ok; k--) {
            if (!p[k])
                continue;
            uint64_t prod;
            over |= __builtin_add_overflow(p[lo[k]], p[k], &p[lo[k]]);
            over |= __builtin_add_overflow(p[hi[k]], p[k], &p[hi[k]]);
            if (var[k] >= (uint32_t)n_opts)
                continue; /* a leaf class: its paths are all it has */
            over |= __builtin_mul_overflow(p[k], c[hi[k]], &prod);
            over |= __builtin_add_overflow(f[var[k]], prod, &f[var[k]]);
        }
    }
    PyBuffer_Release(&bv);
    PyBuffer_Release(&bl);
    PyBuffer_Release(&bh);
    PyBuffer_Release(&bc);
    PyBuffer_Release(&bp);
    PyBuffer_Release(&bf);
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "frequencies: bad buffers");
        return NULL;
    }
    return PyBool_FromLong(over);
}

static PyMethodDef zdd_functions[] = {
    {"counts", zdd_counts, METH_VARARGS, "counts(var, lo, hi, weight_u64, out_u64) -> overflowed"},
    {"frequencies", zdd_frequencies, METH_VARARGS,
     "frequencies(var, lo, hi, counts, root, paths_u64, freq_u64) -> overflowed"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef zdd_module = {
    PyModuleDef_HEAD_INIT, "_zdd",
    "C part of ubongo_cp.solvers.zdd (DXZ: the decision diagram of every exact cover).", -1, zdd_functions};

PyMODINIT_FUNC PyInit__zdd(void)
{
    if (PyType_Ready(&BuilderType) < 0)
        return NULL;
    PyObject *mod = PyModule_Create(&zdd_module);
    if (!mod)
        return NULL;
    Py_INCREF(&BuilderType);
    if (PyModule_AddObject(mod, "Builder", (PyObject *)&BuilderType) < 0) {
        Py_DECREF(&BuilderType);
        Py_DECREF(mod);
        return NULL;
    }
    return mod;
}
