/* Exact cover by Knuth's Algorithm X (Algorithm M with multiplicities), dancing cells.
 *
 * The C kernel of ubongo_cp.solvers.dancing: the same search as the numba
 * kernel of _dance_numba.py, step for step (same sparse-set swaps, hence the
 * same search tree, node counts and order of the solutions). The module
 * docstring of dancing.py describes the algorithm, the conventions and the
 * references (Knuth, TAOCP Vol. 4B, 7.2.2.1, Algorithms X and M; Briggs and
 * Torczon's sparse sets); the steps are labelled X1..X8 / M1..M9 here as
 * there.
 *
 * Python interface (CPython C API, arrays through the buffer protocol, no
 * numpy headers needed):
 *
 *   Engine(indptr, indices, n_items, n_primary, bound, slack, depth, mult, colours)
 *       indptr, indices: uint32 buffers (CSR options); bound, slack: int32
 *       buffers of length n_items; depth: levels to allocate; mult: 0 or 1;
 *       colours: a uint32 buffer with the colour of each entry (0: none), or
 *       empty bytes when no entry has one (Algorithm C's colours). The data
 *       are copied. Attribute ``bad``: the first option that lists an item
 *       twice, or -1.
 *   Engine.step(stop_nodes, batch, out, out_len, out_nodes) -> (pc, n_out)
 *       Runs until done (pc 4), the node budget (pc 1) or ``batch``
 *       rows written to out (int32, batch x depth), out_len (int32),
 *       out_nodes (int64) (pc 2); batch 0 only counts. A row is a solution
 *       (its options sorted, out_len > 0) or, with a cutoff, a prefix: the
 *       options x_0 .. x_{l-1} of a live node at level l == cutoff, in level
 *       order (-1 for a null move), with out_len = -l.
 *   Engine.descend(path) -> int
 *       From the root (a new or reset engine): take the branches of ``path``
 *       (int32 buffer: the option of each level, -1 for a null move) without
 *       counting nodes, and stop on entering the level below them; the
 *       search then never goes back above it (the subtree below a prefix).
 *       1 when the node was reached, 0 when the path dies on the way, -1
 *       when it names a branch the level does not have.
 *   Engine.mark(), Engine.reset(), Engine.reset_root(): remember the state
 *       on entering the current level; go back to it; go back to the root.
 *   Engine.probe(u, est_nodes, est_solutions[, weights, target])
 *       Knuth's random probes below the marked node: probe p takes at each
 *       level the branch floor(u[p, l] x degree) (u: float64, n x depth)
 *       and writes his estimates of the subtree's nodes and solutions
 *       (float64 buffers of length n); the engine is reset to the mark.
 *       With weights (int32, one per option), a solution counts only when
 *       the weights of its options sum to target.
 *   Engine.set_cutoff(level): report live nodes of that level as prefixes
 *       instead of searching below them (0: no cutoff).
 *   Engine.fraction() -> float: the share of the subtree searched so far,
 *       each branch of a level weighing 1/degree of its parent's share.
 *   Engine.nodes, .solutions, .prefixes, .pc, .level: the counters.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define PC_X2 0   /* enter level l (also the start) */
#define PC_X5 1   /* try x_l (after a stop on the node budget) */
#define PC_X8 2   /* leave level l (after a stop on a full solution buffer) */
#define PC_X6 3   /* try again */
#define PC_DONE 4 /* search space exhausted */

#define K_COVER 0      /* chosen item covered (bound reached 0, no slack): try its options */
#define K_COVER_NULL 1 /* covered with slack left: its options, then the null move */
#define K_TWEAK 2      /* bound stays >= 1: tweak its options one by one */

/* Memory layout (the sparse sets of dancing.py's docstring, regrouped so that
 * the inner loops touch few cache lines):
 *   ent[q] = {item, where, lo, hi}: entry q's item, its position in that item's
 *            list, and the entries lo .. hi-1 of its option (dancing.py's
 *            indices[q], where[q], indptr[opt_of[q]] and indptr[opt_of[q]+1]);
 *   itm[i] = {start, end, apos, last1}: item i's list is cells[start .. end)
 *            (its length is dancing.py's size[i]), apos its position in the
 *            active set, last1 = start + 1 for a primary item (its list is down
 *            to one option when end == last1), UINT32_MAX for a secondary one.
 *            A level saves and restores the ends (saved_end). */
typedef struct { uint32_t item, where, lo, hi; } Ent;
typedef struct { uint32_t start, end, apos, last1; } Itm;

typedef struct {
    PyObject_HEAD
    int64_t n_items, n_primary, n_opts, m, depth;
    int mult, colours;
    long long bad;
    uint32_t *indptr, *opt_of, *cells, *active;
    uint32_t *clr;         /* colour of each entry (0: none); NULL without colours */
    Ent *ent;
    Itm *itm;
    int32_t *bound, *slack;
    int32_t *level_item, *level_pos, *level_end, *level_kind, *x;
    uint32_t *saved_end;   /* depth x n_items: the list ends saved by each level */
    int64_t *saved_active; /* depth x 2 */
    long long pc, level, nodes, solutions, n_pa, n_act;
    /* the subtree interface: the prefix taken by descend, the cutoff level, probes, the mark */
    int32_t *path;         /* depth: the option of each level of the prefix */
    long long path_len, cutoff, prefixes, pdepth, halt, bad_path, probing;
    const double *u;       /* the probe's random numbers, one per level */
    double *deg;           /* depth: the probe's branching degree at each level */
    uint32_t *init_end, *mark_end;
    int32_t *init_bound, *mark_bound;
    long long has_mark, mark_level, mark_pa, mark_act, mark_nodes, mark_solutions;
} Engine;

/* ---------------------------------------------------------------- sparse sets */
static inline void deactivate(Engine *e, uint32_t j, int64_t *n_pa, int64_t *n_act)
{
    /* Swap item j past the end of the active set. */
    uint32_t *active = e->active;
    Itm *itm = e->itm;
    int64_t na = --(*n_act);
    uint32_t other = active[na];
    uint32_t p = itm[j].apos;
    active[p] = other;
    itm[other].apos = p;
    active[na] = j;
    itm[j].apos = (uint32_t)na;
    if (j < e->n_primary)
        --(*n_pa);
}

static inline void remove_entry(Itm *restrict itm, uint32_t *restrict cells, Ent *restrict ent,
                                uint32_t q, uint32_t jq)
{
    /* Swap entry q past the end of item jq's list, which shrinks by one. */
    uint32_t last = itm[jq].end - 1;
    uint32_t loc = ent[q].where;
    uint32_t other = cells[last];
    cells[loc] = other;
    ent[other].where = loc;
    cells[last] = q;
    ent[q].where = last;
    itm[jq].end = last;
}

/* Invariant used by the hiding loops below: an option still in the list of an
 * item active before the current cover step holds active items only (when an
 * item is covered its options leave every list of an item active then, and a
 * restore brings back a state where this held). So when X4 walks the chosen
 * item's options, or X5 the options of an item it just deactivated, every
 * entry other than the walked item's own entry k = cells[t] belongs to an
 * item active before the step: the apos tests of the numba kernel (and of
 * Knuth's algorithm) always pass, and the own entry is skipped by splitting
 * the option's entries at k. The entries are visited in the same order, so
 * the swaps (hence the lists' orders) are the numba kernel's. */

/* Remove entries lo .. hi-1 (of one option) from their items' lists. */
static inline void hide_entries(Itm *restrict itm, uint32_t *restrict cells, Ent *restrict ent,
                                uint32_t lo, uint32_t hi)
{
    for (uint32_t q = lo; q < hi; q++)
        remove_entry(itm, cells, ent, q, ent[q].item);
}

/* The same, but 0 as soon as an item still active (apos < na) and primary would
 * lose its last option (a dead end), before removing anything of that entry. */
static inline int hide_entries_checked(Itm *restrict itm, uint32_t *restrict cells, Ent *restrict ent,
                                       uint32_t lo, uint32_t hi, uint32_t na)
{
    for (uint32_t q = lo; q < hi; q++) {
        uint32_t jq = ent[q].item;
        if (itm[jq].end == itm[jq].last1 && itm[jq].apos < na)
            return 0;
        remove_entry(itm, cells, ent, q, jq);
    }
    return 1;
}

/* X4: hide every option of the chosen item i (already inactive). */
static void hide_chosen(Engine *e, uint32_t i)
{
    Itm *restrict itm = e->itm;
    uint32_t *restrict cells = e->cells;
    Ent *restrict ent = e->ent;
    uint32_t s = itm[i].start, end = itm[i].end;
    for (uint32_t t = s; t < end; t++) {
        uint32_t k = cells[t];
        const Ent r = ent[k];
        hide_entries(itm, cells, ent, r.lo, k);
        hide_entries(itm, cells, ent, k + 1, r.hi);
    }
}

/* X5: hide the remaining options of j, another item of the option just tried;
 * 0 on a dead end (an active primary item loses its last option). */
static int hide_other(Engine *e, uint32_t j, int64_t n_act)
{
    Itm *restrict itm = e->itm;
    uint32_t *restrict cells = e->cells;
    Ent *restrict ent = e->ent;
    const uint32_t na = (uint32_t)n_act;
    uint32_t s = itm[j].start, end = itm[j].end;
    for (uint32_t t = s; t < end; t++) {
        uint32_t k = cells[t];
        const Ent r = ent[k];
        if (!hide_entries_checked(itm, cells, ent, r.lo, k, na) ||
            !hide_entries_checked(itm, cells, ent, k + 1, r.hi, na))
            return 0;
    }
    return 1;
}

/* M6: hide_other with multiplicities: dead when an active primary item's list
 * becomes shorter than max(bound - slack, 0). */
static int hide_other_m(Engine *e, uint32_t j, int64_t n_act)
{
    Itm *restrict itm = e->itm;
    uint32_t *restrict cells = e->cells;
    Ent *restrict ent = e->ent;
    const int32_t *bound = e->bound, *slack = e->slack;
    const int64_t n_primary = e->n_primary;
    uint32_t s = itm[j].start, end = itm[j].end;
    for (uint32_t t = s; t < end; t++) {
        uint32_t k = cells[t];
        const Ent r = ent[k];
        for (uint32_t q = r.lo; q < r.hi; q++) {
            if (q == k)
                continue;
            uint32_t jq = ent[q].item;
            if (itm[jq].apos < n_act && jq < n_primary) {
                int64_t b = bound[jq], sl = slack[jq];
                if (b > sl && (int64_t)(itm[jq].end - itm[jq].start) <= b - sl)
                    return 0;
            }
            remove_entry(itm, cells, ent, q, jq);
        }
    }
    return 1;
}

/* With colours (Algorithm C) the invariant above fails: an option that gives a
 * secondary item the colour it was purified with stays in the lists of the
 * active items while that item is inactive. The loops below therefore test
 * every entry's item (as Knuth's SSXCC does): an item inactive before the
 * step keeps its list, and the entries are visited in the same order as
 * without colours. They run only when the instance has colours. */

/* X4 with colours: hide every option of the chosen item i from the active items' lists. */
static void hide_chosen_c(Engine *e, uint32_t i, int64_t n_act)
{
    Itm *restrict itm = e->itm;
    uint32_t *restrict cells = e->cells;
    Ent *restrict ent = e->ent;
    uint32_t s = itm[i].start, end = itm[i].end;
    for (uint32_t t = s; t < end; t++) {
        uint32_t k = cells[t];
        const Ent r = ent[k];
        for (uint32_t q = r.lo; q < r.hi; q++) {
            uint32_t jq = ent[q].item;
            if (q != k && itm[jq].apos < n_act)
                remove_entry(itm, cells, ent, q, jq);
        }
    }
}

/* X5 with colours: hide the options of j (deactivated in this step) that do not give it
 * ``colour`` (all of them for colour 0: covering; else Algorithm C's purification), from
 * the lists of the items active before the step (apos < old_act); 0 on a dead end. */
static int hide_other_c(Engine *e, uint32_t j, uint32_t colour, int64_t old_act, int64_t n_act)
{
    Itm *restrict itm = e->itm;
    uint32_t *restrict cells = e->cells;
    Ent *restrict ent = e->ent;
    const uint32_t *clr = e->clr;
    uint32_t s = itm[j].start, end = itm[j].end;
    for (uint32_t t = s; t < end; t++) {
        uint32_t k = cells[t];
        if (colour && clr[k] == colour)
            continue; /* a compatible option stays */
        const Ent r = ent[k];
        for (uint32_t q = r.lo; q < r.hi; q++) {
            if (q == k)
                continue;
            uint32_t jq = ent[q].item;
            uint32_t a = itm[jq].apos;
            if (a >= old_act)
                continue;
            if (itm[jq].end == itm[jq].last1 && a < n_act)
                return 0;
            remove_entry(itm, cells, ent, q, jq);
        }
    }
    return 1;
}

/* M6 with colours: hide_other_c with Algorithm M's dead-end test. */
static int hide_other_m_c(Engine *e, uint32_t j, uint32_t colour, int64_t old_act, int64_t n_act)
{
    Itm *restrict itm = e->itm;
    uint32_t *restrict cells = e->cells;
    Ent *restrict ent = e->ent;
    const uint32_t *clr = e->clr;
    const int32_t *bound = e->bound, *slack = e->slack;
    const int64_t n_primary = e->n_primary;
    uint32_t s = itm[j].start, end = itm[j].end;
    for (uint32_t t = s; t < end; t++) {
        uint32_t k = cells[t];
        if (colour && clr[k] == colour)
            continue;
        const Ent r = ent[k];
        for (uint32_t q = r.lo; q < r.hi; q++) {
            if (q == k)
                continue;
            uint32_t jq = ent[q].item;
            uint32_t a = itm[jq].apos;
            if (a >= old_act)
                continue;
            if (a < n_act && jq < n_primary) {
                int64_t b = bound[jq], sl = slack[jq];
                if (b > sl && (int64_t)(itm[jq].end - itm[jq].start) <= b - sl)
                    return 0;
            }
            remove_entry(itm, cells, ent, q, jq);
        }
    }
    return 1;
}

/* M5 tweak: hide option o from the lists of all active items (its branching item too). */
static void tweak(Engine *e, uint32_t o, int64_t n_act)
{
    for (uint32_t q = e->indptr[o]; q < e->indptr[o + 1]; q++) {
        uint32_t jq = e->ent[q].item;
        if (e->itm[jq].apos < n_act)
            remove_entry(e->itm, e->cells, e->ent, q, jq);
    }
}

/* M6 [Try x_l]: option o covers its items other than i once more. A coloured
 * entry (colours only on secondary items with bound 1) purifies its item
 * instead, once: when the item is still active. */
static int use_option_m(Engine *e, uint32_t o, uint32_t i, int64_t *n_pa, int64_t *n_act)
{
    const uint32_t *indptr = e->indptr;
    const Ent *ent = e->ent;
    const uint32_t *clr = e->clr;
    int32_t *bound = e->bound;
    const int64_t old_act = *n_act;
    for (uint32_t q = indptr[o]; q < indptr[o + 1]; q++) {
        uint32_t j = ent[q].item;
        if (j == i)
            continue;
        if (clr && clr[q]) {
            if (e->itm[j].apos < *n_act)
                deactivate(e, j, n_pa, n_act);
        } else {
            bound[j] -= 1;
            if (bound[j] == 0)
                deactivate(e, j, n_pa, n_act);
        }
    }
    for (uint32_t q = indptr[o]; q < indptr[o + 1]; q++) {
        uint32_t j = ent[q].item;
        if (j == i)
            continue;
        if (clr) {
            if (clr[q]) {
                uint32_t a = e->itm[j].apos;
                if (a >= *n_act && a < old_act && !hide_other_m_c(e, j, clr[q], old_act, *n_act))
                    return 0;
            } else if (bound[j] == 0 && !hide_other_m_c(e, j, 0, old_act, *n_act)) {
                return 0;
            }
        } else if (bound[j] == 0 && !hide_other_m(e, j, *n_act)) {
            return 0;
        }
    }
    return 1;
}

/* M7: give back the bounds use_option_m took from o's items. */
static void unuse_option_m(Engine *e, uint32_t o, uint32_t i)
{
    const uint32_t *clr = e->clr;
    for (uint32_t q = e->indptr[o]; q < e->indptr[o + 1]; q++) {
        uint32_t j = e->ent[q].item;
        if (j != i && !(clr && clr[q]))
            e->bound[j] += 1;
    }
}

/* The least option id left in item i's list (Knuth's order of a tweaked item's options). */
static inline uint32_t least_option(const Engine *e, uint32_t i)
{
    uint32_t s0 = e->itm[i].start;
    uint32_t o = e->opt_of[e->cells[s0]];
    for (uint32_t t = s0 + 1; t < e->itm[i].end; t++) {
        uint32_t ot = e->opt_of[e->cells[t]];
        if (ot < o)
            o = ot;
    }
    return o;
}

/* A level's state: the ends of the items active at the save and the active
 * counts. Only active items' lists change while the level's subtree is
 * searched (an inactive item's options are gone from every active list), and
 * restoring the active count brings back exactly the items active at the
 * save (in some order), so saving and restoring their ends suffices: O(n_act)
 * instead of O(n_items). */
static inline void save_state(Engine *e, int64_t level, int64_t n_pa, int64_t n_act)
{
    uint32_t *saved = e->saved_end + level * e->n_items;
    const Itm *itm = e->itm;
    const uint32_t *active = e->active;
    for (int64_t t = 0; t < n_act; t++) {
        uint32_t j = active[t];
        saved[j] = itm[j].end;
    }
    e->saved_active[2 * level] = n_pa;
    e->saved_active[2 * level + 1] = n_act;
}

static inline void restore_state(Engine *e, int64_t level, int64_t *n_pa, int64_t *n_act)
{
    const uint32_t *saved = e->saved_end + level * e->n_items;
    Itm *itm = e->itm;
    const uint32_t *active = e->active;
    *n_pa = e->saved_active[2 * level];
    *n_act = e->saved_active[2 * level + 1];
    for (int64_t t = 0; t < *n_act; t++) {
        uint32_t j = active[t];
        itm[j].end = saved[j];
    }
}

/* ------------------------------------------------------------------ the search */
/* Write a row of the output: the solution x_0 .. x_{l-1} sorted (out_len = m > 0,
 * null moves left out) or, for a prefix, the options in level order (out_len = -l). */
static inline void write_row(const Engine *e, int64_t level, int prefix, int32_t *row, int32_t *len)
{
    const int32_t *x = e->x;
    if (prefix) {
        for (int64_t t = 0; t < level; t++)
            row[t] = x[t];
        *len = (int32_t)(-level);
        return;
    }
    int64_t m = 0;
    for (int64_t t = 0; t < level; t++) {
        int32_t v = x[t]; /* insertion sort: rows hold increasing option ids */
        if (v < 0)
            continue; /* a level that chose no option (M5's null move) */
        int64_t s = m;
        while (s > 0 && row[s - 1] > v) {
            row[s] = row[s - 1];
            s--;
        }
        row[s] = v;
        m++;
    }
    *len = (int32_t)m;
}

/* The branch a level takes when it is not searched in full: the option named by
 * the prefix being descended, or a random one in a probe. Sets level_pos (cover
 * levels) and returns 1, or 0 when the prefix names no branch of the level. */
static int pick_cover_branch(Engine *e, int64_t level, uint32_t i)
{
    int32_t end = e->level_end[level];
    if (level < e->path_len) {
        int32_t want = e->path[level];
        int null = e->mult && e->level_kind[level] == K_COVER_NULL;
        if (want < 0) {
            if (!null)
                return 0;
            e->level_pos[level] = end - 1;
            return 1;
        }
        uint32_t s = e->itm[i].start;
        for (int32_t p = 0; p < end - null; p++)
            if (e->opt_of[e->cells[s + (uint32_t)p]] == (uint32_t)want) {
                e->level_pos[level] = p;
                return 1;
            }
        return 0;
    }
    /* a probe: branch floor(u x degree) of this level's degree */
    int32_t r = (int32_t)(e->u[level] * (double)end);
    if (r >= end)
        r = end - 1;
    e->level_pos[level] = r;
    e->deg[level] = (double)end;
    e->pdepth = level + 1;
    return 1;
}

static int dance(Engine *e, int64_t stop_nodes, int32_t *out, int32_t *out_len, int64_t *out_nodes,
                 int64_t batch, int64_t *n_out_p)
{
    const int64_t n_items = e->n_items, n_primary = e->n_primary, depth = e->depth;
    const int mult = e->mult, colours = e->colours;
    const uint32_t *indptr = e->indptr, *opt_of = e->opt_of, *clr = e->clr;
    const Ent *ent = e->ent;
    Itm *itm = e->itm;
    uint32_t *cells = e->cells, *active = e->active;
    int32_t *bound = e->bound, *slack = e->slack;
    int32_t *level_item = e->level_item, *level_pos = e->level_pos, *level_end = e->level_end;
    int32_t *level_kind = e->level_kind, *x = e->x;
    const int64_t path_len = e->path_len, cutoff = e->cutoff;
    const int probing = (int)e->probing;
    int64_t pc = e->pc, level = e->level, nodes = e->nodes, solutions = e->solutions;
    int64_t n_pa = e->n_pa, n_act = e->n_act, n_out = 0;

    for (;;) {
        if (pc == PC_X2) {
            /* X2 [Enter level l]: no active primary item left -> visit x_0 .. x_{l-1} */
            if (level == path_len && e->halt) {
                e->halt = 0; /* descend: the prefix's node is reached */
                break;
            }
            if (level < path_len && n_pa == 0) {
                e->bad_path = 1; /* the prefix goes on below a solution */
                pc = PC_DONE;
                break;
            }
            if (n_pa == 0 || level == cutoff) {
                int prefix = n_pa != 0; /* a live node at the cutoff: reported, not searched */
                if (prefix)
                    e->prefixes++;
                else
                    solutions++;
                if (batch > 0) {
                    write_row(e, level, prefix, out + n_out * depth, out_len + n_out);
                    out_nodes[n_out] = nodes;
                    n_out++;
                    if (n_out == batch) {
                        pc = PC_X8;
                        break;
                    }
                }
                pc = PC_X8;
                continue;
            }
            if (!mult) {
                /* X3 [Choose i]: MRV, least list length, ties to the lowest item id */
                int64_t i = n_items, best = 2147483647;
                for (int64_t t = 0; t < n_act; t++) {
                    uint32_t j = active[t];
                    if (j >= n_primary)
                        continue;
                    int64_t lj = itm[j].end - itm[j].start;
                    if (lj < best || (lj == best && j < i)) {
                        best = lj;
                        i = j;
                        if (lj == 0)
                            break;
                    }
                }
                /* X4 [Cover i]: deactivate i and hide its options */
                deactivate(e, (uint32_t)i, &n_pa, &n_act);
                if (colours)
                    hide_chosen_c(e, (uint32_t)i, n_act);
                else
                    hide_chosen(e, (uint32_t)i);
                level_item[level] = (int32_t)i;
                level_pos[level] = 0;
                level_end[level] = (int32_t)best;
                if (best >= 2) /* a forced move (or none) is never restored to */
                    save_state(e, level, n_pa, n_act);
                pc = PC_X5;
                continue;
            }
            /* M3 [Choose i]: least theta = len + 1 - max(bound - slack, 0); ties to the
             * smaller min(slack, bound), then the longer list, then the lowest id */
            int64_t i = n_items, best = 2147483647, best_s = 2147483647, best_l = -1;
            for (int64_t t = 0; t < n_act; t++) {
                uint32_t j = active[t];
                if (j >= n_primary)
                    continue;
                int64_t b = bound[j], sj = slack[j], lj = itm[j].end - itm[j].start;
                if (sj > b)
                    sj = b;
                int64_t th = lj + sj - b + 1;
                if (th < best || (th == best && (sj < best_s || (sj == best_s && (
                        lj > best_l || (lj == best_l && j < i)))))) {
                    best = th;
                    best_s = sj;
                    best_l = lj;
                    i = j;
                    if (th <= 0)
                        break;
                }
            }
            level_item[level] = (int32_t)i;
            level_pos[level] = 0;
            if (best <= 0) { /* too few options left for i's lower bound: no branch */
                level_kind[level] = K_COVER;
                level_end[level] = 0;
            } else if (bound[i] == 1) {
                /* M4 [Prepare to branch on i], bound reaching 0: cover i as X4 does */
                deactivate(e, (uint32_t)i, &n_pa, &n_act);
                if (colours)
                    hide_chosen_c(e, (uint32_t)i, n_act);
                else
                    hide_chosen(e, (uint32_t)i);
                level_kind[level] = slack[i] == 0 ? K_COVER : K_COVER_NULL;
                level_end[level] = (int32_t)(itm[i].end - itm[i].start) + level_kind[level];
                if (level_end[level] >= 2)
                    save_state(e, level, n_pa, n_act);
            } else {
                /* M4, bound staying above 0: i stays active, its options are tweaked; the
                 * level has theta branches (its options in turn, then maybe the null move) */
                bound[i] -= 1;
                level_kind[level] = K_TWEAK;
                level_end[level] = (int32_t)best;
            }
            pc = PC_X5;
        } else if (pc == PC_X5) {
            int alive;
            const int chosen = level < path_len || probing; /* one branch taken, not all */
            if (!mult || level_kind[level] != K_TWEAK) {
                /* X5 [Try x_l]: past the end of i's list -> X7 */
                if (level_pos[level] >= level_end[level]) {
                    /* X7 [Backtrack]: nothing to uncover, the parent level restores its state */
                    pc = PC_X8;
                    continue;
                }
                uint32_t i = (uint32_t)level_item[level];
                if (chosen && !pick_cover_branch(e, level, i)) {
                    e->bad_path = 1;
                    pc = PC_DONE;
                    break;
                }
                if (mult && level_kind[level] == K_COVER_NULL && level_pos[level] == level_end[level] - 1) {
                    x[level] = -1; /* M5: the null move */
                    level++;
                    pc = PC_X2;
                    continue;
                }
                if (level >= path_len) {
                    if (nodes >= stop_nodes && !probing)
                        break;
                    nodes++;
                }
                uint32_t k = cells[itm[i].start + (uint32_t)level_pos[level]];
                uint32_t o = opt_of[k];
                x[level] = (int32_t)o;
                if (mult) {
                    alive = use_option_m(e, o, i, &n_pa, &n_act);
                } else if (colours) {
                    /* cover (or purify) the other items j of x_l that are still active */
                    int64_t old_act = n_act;
                    for (uint32_t q = indptr[o]; q < indptr[o + 1]; q++)
                        if (q != k && itm[ent[q].item].apos < n_act)
                            deactivate(e, ent[q].item, &n_pa, &n_act);
                    alive = 1;
                    for (uint32_t q = indptr[o]; q < indptr[o + 1]; q++) {
                        uint32_t a = itm[ent[q].item].apos;
                        if (q != k && a >= n_act && a < old_act &&
                                !hide_other_c(e, ent[q].item, clr[q], old_act, n_act)) {
                            alive = 0;
                            break;
                        }
                    }
                } else {
                    /* cover the other items j of option x_l: deactivate them all, then
                     * hide their options (x_l itself left their lists in X4) */
                    for (uint32_t q = indptr[o]; q < indptr[o + 1]; q++)
                        if (q != k)
                            deactivate(e, ent[q].item, &n_pa, &n_act);
                    alive = 1;
                    for (uint32_t q = indptr[o]; q < indptr[o + 1]; q++)
                        if (q != k && !hide_other(e, ent[q].item, n_act)) {
                            alive = 0;
                            break;
                        }
                }
            } else {
                /* M5 [Possibly tweak x_l]: too few options left for i's lower bound -> M8 */
                uint32_t i = (uint32_t)level_item[level];
                if (chosen) {
                    /* one branch: tweak away the options before it (as the branches
                     * before it would have), then take it */
                    int32_t want = level < path_len ? e->path[level] : -2; /* -2: a probe */
                    int32_t r = 0;
                    int bad = 0;
                    if (want == -2) {
                        r = (int32_t)(e->u[level] * (double)level_end[level]);
                        if (r >= level_end[level])
                            r = level_end[level] - 1;
                        e->deg[level] = (double)level_end[level];
                        e->pdepth = level + 1;
                    }
                    for (;;) {
                        int64_t li = itm[i].end - itm[i].start;
                        if (li <= (int64_t)bound[i] - slack[i]) {
                            bad = 1; /* the level ends before the branch named */
                            break;
                        }
                        if (li == 0) {
                            bad = want >= 0; /* only the null move is left */
                            break;
                        }
                        uint32_t o = least_option(e, i);
                        if (want == -2) {
                            if (r == 0)
                                break;
                            r--;
                        } else if (want >= 0) {
                            if (o == (uint32_t)want)
                                break;
                            if (o > (uint32_t)want) {
                                bad = 1;
                                break;
                            }
                        }
                        tweak(e, o, n_act);
                        level_pos[level]++;
                    }
                    if (bad) {
                        e->bad_path = 1;
                        pc = PC_DONE;
                        break;
                    }
                }
                int64_t li = itm[i].end - itm[i].start;
                if (li <= (int64_t)bound[i] - slack[i]) {
                    bound[i] += 1; /* M8 [Restore i] */
                    pc = PC_X8;
                    continue;
                }
                if (li == 0) {
                    /* the null move: i takes no further option and leaves the active set */
                    deactivate(e, i, &n_pa, &n_act);
                    x[level] = -1;
                    level++;
                    pc = PC_X2;
                    continue;
                }
                if (level >= path_len) {
                    if (nodes >= stop_nodes && !probing)
                        break;
                    nodes++;
                }
                /* x_l: the least option id left in i's list (Knuth's list order) */
                uint32_t o = least_option(e, i);
                x[level] = (int32_t)o;
                tweak(e, o, n_act);
                save_state(e, level, n_pa, n_act);
                alive = use_option_m(e, o, i, &n_pa, &n_act);
            }
            if (alive) {
                level++;
                pc = PC_X2;
            } else {
                pc = PC_X6; /* dead end found while covering: X6 at this level */
            }
        } else if (pc == PC_X8) {
            /* X8 [Leave level l] */
            if (level == 0) {
                pc = PC_DONE;
                break;
            }
            level--;
            pc = PC_X6;
        } else if (pc == PC_X6) {
            /* X6 [Try again]: restore the state saved after X4 and take the next option;
             * a level above the prefix, or any level of a probe, tries no other branch */
            if (level < path_len || probing) {
                pc = PC_DONE;
                break;
            }
            if (mult) {
                int32_t o = x[level];
                uint32_t i = (uint32_t)level_item[level];
                if (o >= 0)
                    unuse_option_m(e, (uint32_t)o, i); /* M7 */
                if (level_kind[level] == K_TWEAK) {
                    if (o < 0) { /* the null move was the last branch: M8 [Restore i] */
                        bound[i] += 1;
                        pc = PC_X8;
                        continue;
                    }
                    level_pos[level]++;
                    restore_state(e, level, &n_pa, &n_act);
                    pc = PC_X5;
                    continue;
                }
            }
            level_pos[level]++;
            if (level_pos[level] < level_end[level])
                restore_state(e, level, &n_pa, &n_act);
            pc = PC_X5;
        } else {
            break;
        }
    }
    e->pc = pc;
    e->level = level;
    e->nodes = nodes;
    e->solutions = solutions;
    e->n_pa = n_pa;
    e->n_act = n_act;
    *n_out_p = n_out;
    return (int)pc;
}

/* ----------------------------------------------------------- Python glue (X1) */
static void engine_free(Engine *e)
{
    void **ptrs[] = {(void **)&e->indptr, (void **)&e->opt_of, (void **)&e->cells, (void **)&e->active,
                     (void **)&e->ent, (void **)&e->itm, (void **)&e->bound,
                     (void **)&e->slack, (void **)&e->clr,
                     (void **)&e->level_item, (void **)&e->level_pos, (void **)&e->level_end,
                     (void **)&e->level_kind, (void **)&e->x, (void **)&e->saved_end,
                     (void **)&e->saved_active, (void **)&e->path, (void **)&e->deg,
                     (void **)&e->init_end, (void **)&e->mark_end, (void **)&e->init_bound,
                     (void **)&e->mark_bound};
    for (size_t k = 0; k < sizeof ptrs / sizeof ptrs[0]; k++) {
        free(*ptrs[k]);
        *ptrs[k] = NULL;
    }
}

static void Engine_dealloc(Engine *e)
{
    engine_free(e);
    Py_TYPE(e)->tp_free((PyObject *)e);
}

static int check_buffer(Py_buffer *b, const char *name, Py_ssize_t itemsize, Py_ssize_t n)
{
    if (b->len != n * itemsize) {
        PyErr_Format(PyExc_ValueError, "%s: expected %zd items of %zd bytes", name, n, itemsize);
        return 0;
    }
    return 1;
}

static int Engine_init(Engine *e, PyObject *args, PyObject *kwds)
{
    Py_buffer bi = {0}, bx = {0}, bb = {0}, bs = {0}, bc = {0};
    long long n_items, n_primary, depth;
    int mult, ok = 0;
    if (!PyArg_ParseTuple(args, "y*y*LLy*y*Lpy*", &bi, &bx, &n_items, &n_primary, &bb, &bs, &depth, &mult, &bc))
        return -1;
    engine_free(e);
    if (bi.len % 4 || bi.len < 4 || bx.len % 4 || n_items < 0 || depth < 1) {
        PyErr_SetString(PyExc_ValueError, "malformed engine arguments");
        goto done;
    }
    int64_t n_opts = bi.len / 4 - 1, m = bx.len / 4;
    if (!check_buffer(&bb, "bound", 4, n_items) || !check_buffer(&bs, "slack", 4, n_items) ||
        (bc.len && !check_buffer(&bc, "colours", 4, m)))
        goto done;
    e->n_items = n_items;
    e->n_primary = n_primary;
    e->n_opts = n_opts;
    e->m = m;
    e->depth = depth;
    e->mult = mult;
    e->colours = bc.len > 0;
    size_t ni = (size_t)n_items + 1, mm = (size_t)m + 1, dd = (size_t)depth;
    e->indptr = malloc((size_t)(n_opts + 1) * 4);
    e->opt_of = malloc(mm * 4);
    e->cells = malloc(mm * 4);
    e->active = malloc(ni * 4);
    e->ent = malloc(mm * sizeof(Ent));
    e->itm = calloc(ni, sizeof(Itm));
    e->bound = malloc(ni * 4);
    e->slack = malloc(ni * 4);
    e->level_item = calloc(dd, 4);
    e->level_pos = calloc(dd, 4);
    e->level_end = calloc(dd, 4);
    e->level_kind = calloc(dd, 4);
    e->x = calloc(dd, 4);
    e->saved_end = calloc(dd * ni, 4);
    e->saved_active = calloc(dd * 2, 8);
    e->path = calloc(dd, 4);
    e->deg = calloc(dd, sizeof(double));
    e->init_end = malloc(ni * 4);
    e->mark_end = malloc(ni * 4);
    e->init_bound = malloc(ni * 4);
    e->mark_bound = malloc(ni * 4);
    if (e->colours)
        e->clr = malloc(mm * 4);
    if (!e->indptr || !e->opt_of || !e->cells || !e->active || !e->ent || !e->itm ||
        !e->bound || !e->slack || !e->level_item || !e->level_pos ||
        !e->level_end || !e->level_kind || !e->x || !e->saved_end || !e->saved_active ||
        !e->path || !e->deg || !e->init_end || !e->mark_end || !e->init_bound || !e->mark_bound ||
        (e->colours && !e->clr)) {
        PyErr_NoMemory();
        goto done;
    }
    memcpy(e->indptr, bi.buf, (size_t)bi.len);
    memcpy(e->bound, bb.buf, (size_t)bb.len);
    memcpy(e->init_bound, bb.buf, (size_t)bb.len);
    memcpy(e->slack, bs.buf, (size_t)bs.len);
    if (e->colours)
        memcpy(e->clr, bc.buf, (size_t)bc.len);
    /* X1 [Initialize]: item lists and the active-item set; the first option repeating an item */
    {
        int64_t *stamp = malloc(ni * sizeof(int64_t));
        uint32_t *fill = malloc(ni * 4);
        if (!stamp || !fill) {
            free(stamp);
            free(fill);
            PyErr_NoMemory();
            goto done;
        }
        for (int64_t i = 0; i < n_items; i++)
            stamp[i] = -1;
        e->bad = -1;
        const uint32_t *indices = bx.buf;
        for (int64_t o = 0; o < n_opts; o++)
            for (uint32_t k = e->indptr[o]; k < e->indptr[o + 1]; k++) {
                uint32_t i = indices[k];
                if (stamp[i] == o && e->bad < 0)
                    e->bad = o;
                stamp[i] = o;
                e->opt_of[k] = (uint32_t)o;
                e->ent[k].lo = e->indptr[o];
                e->ent[k].hi = e->indptr[o + 1];
                e->ent[k].item = i;
                e->itm[i].end++;
            }
        /* item i's list: cells[start[i] .. start[i] + size[i]) holds entries k of
         * option order at the start; ent[k].where is k's position in it */
        uint32_t acc = 0;
        for (int64_t i = 0; i < n_items; i++) {
            uint32_t n = e->itm[i].end;
            e->itm[i].start = acc;
            fill[i] = acc;
            acc += n;
            e->itm[i].end = acc;
            e->itm[i].last1 = i < n_primary ? e->itm[i].start + 1 : UINT32_MAX;
        }
        for (int64_t k = 0; k < m; k++) {
            uint32_t i = indices[k];
            e->cells[fill[i]] = (uint32_t)k;
            e->ent[k].where = fill[i];
            fill[i]++;
        }
        for (int64_t i = 0; i < n_items; i++) {
            e->active[i] = e->itm[i].apos = (uint32_t)i;
            e->init_end[i] = e->itm[i].end;
        }
        free(stamp);
        free(fill);
    }
    e->pc = PC_X2;
    e->level = e->nodes = e->solutions = 0;
    e->n_pa = n_primary;
    e->n_act = n_items;
    e->path_len = e->prefixes = e->pdepth = e->halt = e->bad_path = e->probing = e->has_mark = 0;
    e->cutoff = -1;
    ok = 1;
done:
    PyBuffer_Release(&bi);
    PyBuffer_Release(&bx);
    PyBuffer_Release(&bb);
    PyBuffer_Release(&bs);
    PyBuffer_Release(&bc);
    if (!ok)
        engine_free(e);
    return ok ? 0 : -1;
}

static PyObject *Engine_step(Engine *e, PyObject *args)
{
    long long stop_nodes, batch;
    Py_buffer bo = {0}, bl = {0}, bn = {0};
    int64_t n_out = 0;
    int pc;
    if (!e->indptr) {
        PyErr_SetString(PyExc_RuntimeError, "engine not initialised");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "LLw*w*w*", &stop_nodes, &batch, &bo, &bl, &bn))
        return NULL;
    if (batch < 0 || bo.len < batch * e->depth * 4 || bl.len < batch * 4 || bn.len < batch * 8) {
        PyErr_SetString(PyExc_ValueError, "output buffers too small for the batch");
        pc = -1;
    } else if (e->pc == PC_DONE) {
        pc = PC_DONE;
    } else {
        Py_BEGIN_ALLOW_THREADS
        pc = dance(e, stop_nodes, bo.buf, bl.buf, bn.buf, batch, &n_out);
        Py_END_ALLOW_THREADS
    }
    PyBuffer_Release(&bo);
    PyBuffer_Release(&bl);
    PyBuffer_Release(&bn);
    if (pc < 0)
        return NULL;
    return Py_BuildValue("iL", pc, (long long)n_out);
}


/* ------------------------------------------------------- the subtree interface */
static void do_reset_root(Engine *e)
{
    /* Every list full, every item active (in any order: the search never depends on
     * the order of the active set), the bounds as given. */
    for (int64_t i = 0; i < e->n_items; i++)
        e->itm[i].end = e->init_end[i];
    memcpy(e->bound, e->init_bound, (size_t)e->n_items * 4);
    e->n_pa = e->n_primary;
    e->n_act = e->n_items;
    e->pc = PC_X2;
    e->level = e->nodes = e->solutions = e->prefixes = 0;
    e->path_len = e->pdepth = e->halt = e->bad_path = e->probing = e->has_mark = 0;
    e->cutoff = -1;
}

static void do_mark(Engine *e)
{
    for (int64_t t = 0; t < e->n_act; t++) {
        uint32_t j = e->active[t];
        e->mark_end[j] = e->itm[j].end;
    }
    memcpy(e->mark_bound, e->bound, (size_t)e->n_items * 4);
    e->mark_level = e->level;
    e->mark_pa = e->n_pa;
    e->mark_act = e->n_act;
    e->mark_nodes = e->nodes;
    e->mark_solutions = e->solutions;
    e->has_mark = 1;
}

static void do_reset(Engine *e)
{
    /* Only the items active at the mark have changed lists since (see save_state). */
    e->n_pa = e->mark_pa;
    e->n_act = e->mark_act;
    for (int64_t t = 0; t < e->n_act; t++) {
        uint32_t j = e->active[t];
        e->itm[j].end = e->mark_end[j];
    }
    memcpy(e->bound, e->mark_bound, (size_t)e->n_items * 4);
    e->level = e->mark_level;
    e->nodes = e->mark_nodes;
    e->solutions = e->mark_solutions;
    e->pc = PC_X2;
    e->probing = e->pdepth = 0;
}

static PyObject *Engine_descend(Engine *e, PyObject *args)
{
    Py_buffer bp = {0};
    int64_t n_out = 0;
    if (!e->indptr) {
        PyErr_SetString(PyExc_RuntimeError, "engine not initialised");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "y*", &bp))
        return NULL;
    int64_t n = bp.len / 4;
    if (bp.len % 4 || n >= e->depth || e->level != 0 || e->pc != PC_X2 || e->path_len != 0) {
        PyBuffer_Release(&bp);
        PyErr_SetString(PyExc_ValueError, "descend needs a path shorter than the depth, from the root");
        return NULL;
    }
    memcpy(e->path, bp.buf, (size_t)bp.len);
    PyBuffer_Release(&bp);
    e->path_len = n;
    e->halt = 1;
    e->bad_path = 0;
    int pc;
    Py_BEGIN_ALLOW_THREADS
    pc = dance(e, INT64_MAX, NULL, NULL, NULL, 0, &n_out);
    Py_END_ALLOW_THREADS
    e->halt = 0;
    if (e->bad_path)
        return PyLong_FromLong(-1);
    return PyLong_FromLong(pc == PC_X2 && e->level == n ? 1 : 0);
}

static PyObject *Engine_mark(Engine *e, PyObject *Py_UNUSED(args))
{
    if (!e->indptr || e->pc != PC_X2) {
        PyErr_SetString(PyExc_RuntimeError, "mark needs an engine that is entering a level");
        return NULL;
    }
    do_mark(e);
    Py_RETURN_NONE;
}

static PyObject *Engine_reset(Engine *e, PyObject *Py_UNUSED(args))
{
    if (!e->indptr || !e->has_mark) {
        PyErr_SetString(PyExc_RuntimeError, "reset needs a mark");
        return NULL;
    }
    do_reset(e);
    Py_RETURN_NONE;
}

static PyObject *Engine_reset_root(Engine *e, PyObject *Py_UNUSED(args))
{
    if (!e->indptr) {
        PyErr_SetString(PyExc_RuntimeError, "engine not initialised");
        return NULL;
    }
    do_reset_root(e);
    Py_RETURN_NONE;
}

static PyObject *Engine_set_cutoff(Engine *e, PyObject *args)
{
    long long c;
    if (!PyArg_ParseTuple(args, "L", &c))
        return NULL;
    e->cutoff = c > 0 ? c : -1;
    Py_RETURN_NONE;
}

static PyObject *Engine_probe(Engine *e, PyObject *args)
{
    Py_buffer bu = {0}, bn = {0}, bs = {0}, bw = {0};
    long long target = -1;
    if (!e->indptr || !e->has_mark) {
        PyErr_SetString(PyExc_RuntimeError, "probe needs a mark");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "y*w*w*|y*L", &bu, &bn, &bs, &bw, &target))
        return NULL;
    int64_t n = bn.len / 8;
    int ok = bu.len == n * e->depth * 8 && bs.len == n * 8 && (!bw.buf || bw.len == e->n_opts * 4);
    if (ok) {
        const double *u = bu.buf;
        double *est_nodes = bn.buf, *est_sols = bs.buf;
        const int32_t *weight = bw.buf; /* a solution counts when its options' weights sum to target */
        Py_BEGIN_ALLOW_THREADS
        for (int64_t p = 0; p < n; p++) {
            int64_t n_out = 0, start = e->level, before = e->solutions;
            e->u = u + p * e->depth;
            e->probing = 1;
            e->pdepth = start;
            dance(e, INT64_MAX, NULL, NULL, NULL, 0, &n_out);
            /* Knuth's estimates: each option tried at level l stands for the product of the
             * degrees of levels start .. l; a solution for the product down to it */
            double w = 1.0, nodes = 0.0;
            for (int64_t l = start; l < e->pdepth; l++) {
                w *= e->deg[l];
                if (e->x[l] >= 0)
                    nodes += w;
            }
            int solved = e->solutions > before;
            if (solved && weight) {
                long long sum = 0;
                for (int64_t l = 0; l < e->pdepth; l++)
                    if (e->x[l] >= 0)
                        sum += weight[e->x[l]];
                solved = sum == target;
            }
            est_nodes[p] = nodes;
            est_sols[p] = solved ? w : 0.0;
            do_reset(e);
        }
        Py_END_ALLOW_THREADS
    }
    PyBuffer_Release(&bu);
    PyBuffer_Release(&bn);
    PyBuffer_Release(&bs);
    if (bw.buf)
        PyBuffer_Release(&bw);
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "probe: u must be n x depth doubles, the estimates n doubles, the "
                                          "weights one int32 per option");
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *Engine_fraction(Engine *e, PyObject *Py_UNUSED(args))
{
    /* Levels path_len .. level-1 are inside a branch; at X5 the current level's
     * branches before level_pos are done too. */
    double f = 0.0, w = 1.0;
    int64_t top = e->level + (e->pc == PC_X5 ? 1 : 0);
    if (e->pc == PC_DONE)
        return PyFloat_FromDouble(1.0);
    for (int64_t l = e->path_len; l < top && l < e->depth; l++) {
        int32_t end = e->level_end[l];
        if (end <= 0)
            break;
        f += w * (double)e->level_pos[l] / (double)end;
        w /= (double)end;
    }
    return PyFloat_FromDouble(f);
}

static PyMethodDef Engine_methods[] = {
    {"step", (PyCFunction)Engine_step, METH_VARARGS,
     "step(stop_nodes, batch, out, out_len, out_nodes) -> (pc, n_out)"},
    {"descend", (PyCFunction)Engine_descend, METH_VARARGS, "descend(path) -> 1 reached, 0 dead, -1 bad path"},
    {"mark", (PyCFunction)Engine_mark, METH_NOARGS, "remember the state on entering this level"},
    {"reset", (PyCFunction)Engine_reset, METH_NOARGS, "go back to the mark"},
    {"reset_root", (PyCFunction)Engine_reset_root, METH_NOARGS, "go back to the root"},
    {"set_cutoff", (PyCFunction)Engine_set_cutoff, METH_VARARGS, "set_cutoff(level): report live nodes there"},
    {"probe", (PyCFunction)Engine_probe, METH_VARARGS, "probe(u, est_nodes, est_solutions)"},
    {"fraction", (PyCFunction)Engine_fraction, METH_NOARGS, "share of the subtree searched so far"},
    {NULL, NULL, 0, NULL}};

static PyMemberDef Engine_members[] = {
    {"nodes", T_LONGLONG, offsetof(Engine, nodes), READONLY, "search-tree nodes (options tried)"},
    {"solutions", T_LONGLONG, offsetof(Engine, solutions), READONLY, "solutions found"},
    {"pc", T_LONGLONG, offsetof(Engine, pc), READONLY, "the step to run next"},
    {"level", T_LONGLONG, offsetof(Engine, level), READONLY, "the current level"},
    {"prefixes", T_LONGLONG, offsetof(Engine, prefixes), READONLY, "live nodes reported at the cutoff"},
    {"bad", T_LONGLONG, offsetof(Engine, bad), READONLY, "first option listing an item twice, or -1"},
    {NULL, 0, 0, 0, NULL}};

static PyTypeObject EngineType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ubongo_cp.solvers._dance.Engine",
    .tp_basicsize = sizeof(Engine),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Resumable Algorithm X / M search on one exact-cover instance.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Engine_init,
    .tp_dealloc = (destructor)Engine_dealloc,
    .tp_methods = Engine_methods,
    .tp_members = Engine_members,
};

static struct PyModuleDef dance_module = {
    PyModuleDef_HEAD_INIT, "_dance",
    "C kernel of ubongo_cp.solvers.dancing (Algorithms X and M on dancing cells).", -1, NULL};

PyMODINIT_FUNC PyInit__dance(void)
{
    if (PyType_Ready(&EngineType) < 0)
        return NULL;
    PyObject *mod = PyModule_Create(&dance_module);
    if (!mod)
        return NULL;
    Py_INCREF(&EngineType);
    if (PyModule_AddObject(mod, "Engine", (PyObject *)&EngineType) < 0) {
        Py_DECREF(&EngineType);
        Py_DECREF(mod);
        return NULL;
    }
    return mod;
}
