/* Exact cover of at most 256 bit items by a bitboard backtrack: the kernel of ubongo_cp.solvers.bitboard.
 *
 * bitboard.py's module docstring describes the search, the node measure, the dead-region test and
 * the references. In short: every option is a mask of W 64-bit words over the *bit items* (the
 * primary items first, the *goal*; then secondary items, covered at most once) and belongs to at
 * most one *counter item* (a piece type) with bounds [lo..hi]. A level takes the empty goal bit chosen
 * by the rule (FIRST: the lowest; MRV: the one with the fewest fitting options, ties to the lowest)
 * and tries, in list order, every option there that fits: no bit of its mask is covered and its
 * counter item is below its upper bound. A *node* is an option placed. Nothing is unlinked: each
 * level keeps its board, so backtracking costs nothing.
 *
 * Python interface (CPython C API, buffers through the buffer protocol, no numpy):
 *
 *   Kernel(W, nbits, ngoal, indptr, indices, bitof, otype, lo, hi, rule, nbr, cap, kcard, probes)
 *       indptr, indices: uint32 buffers, the options in CSR form over the instance's items; bitof: int32
 *       per item, its bit (bit b of word w of a mask is bit 64 w + b) or -1 (a counter item);
 *       otype: int32 per option (-1: no counter item); lo, hi: int32 per counter item (at most 63);
 *       rule: 0 FIRST, 1 MRV; nbr: uint64 buffer, ngoal x W neighbour masks of the goal bits, and
 *       cap: the largest region the dead-region test floods (nbr empty or cap 0: no test);
 *       kcard: the number of options a solution must hold, or -1; probes: K of the FIRST lists.
 *   Kernel.start(prefix, perms, nperms, qtype, qweights, hsize) -> bool
 *       Restart the search below the options of ``prefix`` (int32 buffer), placed first (False when
 *       they overlap or exceed a bound: nothing below). qtype >= 0 restricts that counter item to the
 *       options of positive weight in qweights (int32 per option); a solution's weight is the weight
 *       of its option of qtype (1 without). Each solution adds its weight to ``weighted`` and weight x
 *       its stabiliser order to ``fixed``: 1 + how many of the nperms option permutations of perms
 *       (int32 buffer) map it onto itself, or just 1 when its weight is hsize.
 *   Kernel.step(stop_nodes, batch, out, out_len, out_nodes) -> (code, n_out)
 *       Run until done (4), the solution limit (3), ``batch`` solutions written (2) or the node
 *       budget (1). out: int32, batch x depth option ids (each row increasing); out_len int32;
 *       out_nodes int64. batch 0 only counts.
 *   Kernel.probe(n, seed) -> (sum, sum of squares of the node estimates, the same of the solutions,
 *       the probes ending in a solution): n of Knuth's random probes down the tree below the prefix (probe_w).
 *   Kernel.children() -> (bit, [options])
 *       The branch right below the prefix: the goal bit chosen and the options placed there, in
 *       order (bit -1: the prefix is a solution; -2: nothing below it).
 *   Kernel.set_memo(lo, hi, bits)
 *       The memo from the next start() on: at the levels lo .. hi, a table of 2^bits entries (bits 0: none)
 *       of (board, counter items left) -> (solutions, weight sum) below, looked up on entering a level
 *       and stored when it is done. It needs at most one counter item above 1 (else it stays off: the
 *       board and the items left then tell that item's copies left) and is
 *       used only while counting (no limit, no tally, batch 0: a step with a batch turns it off, or
 *       refuses once it has answered a node), and only at the nodes below which no solution needs its
 *       stabiliser (no permutations, or the restricted item placed at an option of weight hsize; a start
 *       with permutations and no restricted item leaves it off).
 *   Kernel.set_fast(level)
 *       From that level on (-1: never), a whole subtree is searched by a plain recursion (fast1): the
 *       same nodes, where the search has one or two words (_bits_fast.h), rule FIRST, every counter item
 *       at most 1 (on one word: or with all its copies to be placed), only counting; elsewhere the level
 *       is ignored. The node budget is checked between two such subtrees only.
 *   Kernel.set_limit(n), Kernel.set_tally(on), Kernel.tally() -> {used-type mask: solutions}
 *   Kernel.nodes, .solutions, .fixed, .depth, .dropped, .memo_hits, .memo_stores: counters, the output
 *       row length, the options the dead-region test removed before any search, the memo's work.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

#define MAXW 4
#if defined(__SIZEOF_INT128__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* two words as one integer (fast1 on two words); little-endian only, where its low word comes first in memory
 * (ent_mask reads fast1's entries as words) */
typedef unsigned __int128 u128;
#define HAVE_U128 1
#define FAST_WORDS 2 /* fast1 takes boards of up to this many words */
#else
#define FAST_WORDS 1
#endif
#define MAXTYPES 63
#define RULE_FIRST 0
#define RULE_MRV 1

/* what step() returns */
#define RET_BUDGET 1
#define RET_FULL 2
#define RET_LIMIT 3
#define RET_DONE 4
/* where the machine resumes */
#define ST_ENTER 0
#define ST_TRY 1
#define ST_BACK 2
#define ST_DONE 3

/* The rule's lists of options. FIRST: the options whose lowest goal bit is b, split by the *pattern*
 * of K probe bits (the goal bits those options cover most often; a missing probe is b itself, always
 * empty): the list of (b, pattern) holds the options covering no probe bit set in the pattern. MRV:
 * every option covering b (K = 0). Slot s = b * 2^K + pattern. A list is one block per counter item
 * that has options in it, in increasing item order (bmask[s]: those items; the untyped options form
 * the last item, ntypes); the block of item t is block bstart[s] + (number of items of bmask[s]
 * below t), holding the entries blo[i] .. blo[i + 1] - 1 (the blocks one after the other, blo[nblocks] the number
 * of entries); an entry is W mask words and the option id:
 * in ent (stride W + 1 words) on boards of more than FAST_WORDS words, else in fast1's mw and id1, which every
 * rule then reads (ent_mask, ent_id: the entries held once, the lists' memory a third smaller on one word). */
typedef struct {
    int K, NP, next, words;
    int32_t *probe; /* ngoal x K */
    int32_t *bstart, *blo;
    uint64_t *bmask;
    uint64_t *ent;
    /* for fast1 (W <= FAST_WORDS): per entry its mask and the goal bits next to it (with the dead-region
     * test), each one integer of W words (uint64_t, u128), its option and its counter item; blo[nblocks] = the
     * number of entries, so block i ends at blo[i + 1] */
    void *mw, *bw;
    int32_t *id1;
    int8_t *ty1;
    int32_t maxlen; /* the most entries in one slot's list */
    /* fast1's last two pieces (one word, each counter item [1..1], no untyped option): the options the search
     * may place, a hash table of 2^hbits masks (0: empty) -> the counter items with that mask (hval) */
    uint64_t *hkey, *hval;
    int hbits;
} List;

typedef struct {
    PyObject_HEAD
    int W, rule, state, tally_on, uniform, hwpop;
    int cell_dead;              /* every counter item's options cover 2 or more goal bits (or it has none):
                                   one walled-in empty goal bit is dead whatever is left (fillable) */
    int32_t nbits, ngoal, nopts, ntypes, depth, kcard, cap, level, base, nperms, n_lo, unit, dropped;
    int32_t qtype, hsize;       /* the restricted counter item of this start (-1: none), |H| */
    int32_t *qw;                /* nopts: weight of each option of qtype (0: left out) */
    long long weighted;         /* sum over the solutions of their weight */
    uint64_t goal[MAXW];
    uint64_t *omask;            /* nopts x W */
    uint64_t *obrd;             /* nopts x W: the goal bits next to each option (nbr given) */
    int32_t *otype;             /* nopts: its counter item, ntypes for none */
    int32_t *lo, *hi, *tsize;   /* ntypes + 1; tsize: goal bits of each of its options, -1 if they differ */
    int32_t *lo_types;          /* the n_lo types with lo > 0, checked at a solution */
    int32_t *by_size;           /* types by decreasing tsize (the area test with kcard) */
    /* fillable: the distinct sizes (tsize > 0) in increasing order and the counter items of each, and the
     * counter items whose options differ in size */
    int nsizes;
    int32_t zsize[MAXTYPES + 1];
    uint64_t zmask[MAXTYPES + 1], fmixed;
    List list;                  /* the rule's lists */
    uint64_t *nbr;              /* ngoal x W, or NULL */
    /* search state */
    long long nodes, solutions, fixed, limit;
    uint64_t *board;            /* (depth + 1) x W: the board on entering each level */
    int32_t *left;              /* copies left per counter item (hi - options chosen) */
    uint64_t avail;             /* bit t: left[t] > 0 (the untyped item: always) */
    int32_t *chosen, *lslot, *lpos, *lhi, *ltype;
    uint64_t *lrem;             /* per level: the items of its list still to visit */
    uint8_t *in_sol;
    int32_t *perms;             /* nperms x nopts */
    /* the tally: open addressing, key = used-type mask + 1 (0: empty slot) */
    uint64_t *tkeys;
    long long *tvals;
    int64_t tcap, tlen;
    /* the memo (see memo_slot): a lossy table of (board, types left) -> solutions below */
    int memo_ok;                /* the instance allows it: at most one counter item above 1 */
    int single;                 /* every counter item at most 1 */
    int fast_ok;                /* fast1 may take it: every counter item at most 1, or exactly its bounds' */
    int memo_on, memo_active;   /* asked for (set_memo); used by this start */
    int32_t memo_lo, memo_hi;   /* the levels that look up and store */
    int memo_bits;              /* the table holds 2^memo_bits entries */
    int mstride, mdirty;        /* words per entry (4 or 8); entries stored since the table was cleared */
    int mfilled;                /* the table's pages asked for at once (memo_fill) */
    uint64_t *mtab;             /* buckets of two entries (memo_slot): board (W words), avail (0: an empty entry),
                                   solutions (low 32 bits) and weight sum (high 32 bits), the epoch it was stored
                                   in (above 8 bits) and its subtree's size (memo_put, the low 8 bits) */
    void *mraw;                 /* the memory mtab lies in (memo_table) */
    uint64_t mepoch;            /* the entries of another epoch are empty: a new epoch clears the table */
    long long memo_hits, memo_stores;
    long long *msol, *mwt, *mnod; /* per level: solutions, weight sum and nodes on entering it */
    uint8_t *mflag;             /* per level: store its count when it is done */
    int32_t *pw;                /* per level: weight of the restricted item's option placed below the prefix (0: none) */
    int32_t fast_lo;            /* the levels from which fast1 searches a whole subtree (-1: none) */
    int32_t *fce;               /* (depth + 1) x list.maxlen: fast1's entries that fit, per level */
    uint64_t lo_mask;           /* the counter items with lo > 0 */
    /* one word and a grid: the neighbours of the bits of any X are (X & gmask[j]) << gshift[j] and
     * (X >> gshift[j]) & gmask[j], j < grid (at most 4 shifts; grid 0: they are not) */
    int grid;
    int gshift[4];
    uint64_t gmask[4];
#ifdef HAVE_U128
    u128 gmask2[4]; /* two words: the same masks (grid, gshift as for one word) */
#endif
    /* a clone (Kernel.clone) shares the read-only tables of the kernel it was cloned from, which it keeps
     * alive: the option masks, types, bounds and sizes, the neighbour masks and the lists */
    PyObject *parent;
} Kernel;

/* ------------------------------------------------------------------ helpers */
static inline int ctz64(uint64_t x) { return __builtin_ctzll(x); }
#define popcount64 __builtin_popcountll

static int tally_add(Kernel *k, uint64_t mask, long long n)
{
    if (2 * (k->tlen + 1) > k->tcap) {
        int64_t cap = k->tcap ? 2 * k->tcap : 64;
        uint64_t *keys = calloc((size_t)cap, sizeof(uint64_t));
        long long *vals = calloc((size_t)cap, sizeof(long long));
        if (!keys || !vals) {
            free(keys);
            free(vals);
            return 0;
        }
        for (int64_t s = 0; s < k->tcap; s++)
            if (k->tkeys[s]) {
                int64_t p = (int64_t)((k->tkeys[s] * 0x9E3779B97F4A7C15ull) >> 7) & (cap - 1);
                while (keys[p])
                    p = (p + 1) & (cap - 1);
                keys[p] = k->tkeys[s];
                vals[p] = k->tvals[s];
            }
        free(k->tkeys);
        free(k->tvals);
        k->tkeys = keys;
        k->tvals = vals;
        k->tcap = cap;
    }
    uint64_t key = mask + 1;
    int64_t p = (int64_t)((key * 0x9E3779B97F4A7C15ull) >> 7) & (k->tcap - 1);
    while (k->tkeys[p] && k->tkeys[p] != key)
        p = (p + 1) & (k->tcap - 1);
    if (!k->tkeys[p]) {
        k->tkeys[p] = key;
        k->tlen++;
    }
    k->tvals[p] += n;
    return 1;
}

/* 1 + the number of the given symmetries that map the current solution (levels 0 .. L-1) onto
 * itself; a symmetry is rejected at the first option whose image is not in the solution. */
static inline long long stabiliser(const Kernel *k, int32_t L)
{
    long long s = 1;
    const int32_t n = k->nopts;
    for (int32_t j = 0; j < L; j++)
        k->in_sol[k->chosen[j]] = 1;
    for (int32_t g = 0; g < k->nperms; g++) {
        const int32_t *perm = k->perms + (int64_t)g * n;
        int32_t j = 0;
        for (; j < L; j++) {
            int32_t img = perm[k->chosen[j]];
            if (img < 0 || !k->in_sol[img])
                break;
        }
        s += j == L;
    }
    for (int32_t j = 0; j < L; j++)
        k->in_sol[k->chosen[j]] = 0;
    return s;
}

/* The real counter items of the current solution (levels 0 .. L-1), as a mask. */
static inline uint64_t used_items(const Kernel *k, int32_t L)
{
    uint64_t u = 0;
    for (int32_t j = 0; j < L; j++) {
        int32_t t = k->otype[k->chosen[j]];
        if (t < k->ntypes)
            u |= 1ull << t;
    }
    return u;
}

/* The memo's bucket for board B and the items left ``avail``: two entries of mstride words (2^memo_bits entries in
 * all), looked up both (memo_find), stored by memo_put. */
static inline __attribute__((always_inline)) uint64_t *memo_slot(const Kernel *k, const uint64_t *B, uint64_t avail,
                                                                  const int W)
{
    uint64_t x = avail * 0xC2B2AE3D27D4EB4Full;
    for (int w = 0; w < W; w++)
        x = (x ^ B[w]) * 0x9E3779B97F4A7C15ull, x ^= x >> 29;
    x *= 0xBF58476D1CE4E5B9ull;
    return k->mtab + (int64_t)(x >> 1 >> (64 - k->memo_bits)) * 2 * k->mstride;
}

/* The entry of bucket ms that holds board B with the items left ``avail`` (stored in this epoch), NULL if none. */
static inline __attribute__((always_inline)) const uint64_t *memo_find(const Kernel *k, const uint64_t *ms,
                                                                        const uint64_t *B, uint64_t avail, const int W)
{
    for (int j = 0; j < 2; j++, ms += k->mstride) {
        int same = ms[W] == avail && ms[W + 2] >> 8 == k->mepoch;
        for (int w = 0; same && w < W; w++)
            same = ms[w] == B[w];
        if (same)
            return ms;
    }
    return NULL;
}

/* The pages of n bytes at p (those wholly inside), asked of the system at once (Linux: MADV_POPULATE_WRITE), zeroed
 * where they were not there yet, a page already there left as it is: for memory about to be written all over, whose
 * fresh pages would otherwise come one page fault each on first touch, or two for a page read first (the shared
 * zero page, then its copy). Measured here: 128 pages asked for at once in 45-95 us, against some 160 us written
 * one by one and 290 us read then written. Nothing on other systems, or where the call fails (the pages then come
 * on first touch); nothing under FILL_BYTES (a few pages, most often the heap's, there already). */
#define FILL_BYTES (64 * 1024)
static void fill_pages(void *p, size_t n)
{
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
    const long page = sysconf(_SC_PAGESIZE);
    if (!p || n < FILL_BYTES || page <= 0)
        return;
    const uintptr_t lo = ((uintptr_t)p + (uintptr_t)page - 1) & ~((uintptr_t)page - 1);
    const uintptr_t hi = ((uintptr_t)p + n) & ~((uintptr_t)page - 1);
    if (lo < hi)
        (void)madvise((void *)lo, hi - lo, MADV_POPULATE_WRITE);
#else
    (void)p, (void)n;
#endif
}

/* The memo's zeroed table of 2^memo_bits entries of mstride words, its entries on 64-byte lines (mtab, in mraw); 0
 * when memory runs out. Made by the first start that uses the memo (Kernel_start), not by set_memo: a kernel whose
 * searches all test symmetries without a restriction (the whole search of a small tree, .base.small_search) never
 * uses it, and once a table has been freed, calloc hands the next one out of the heap, cleared whole (3x20 counted
 * again and again in one process: 1.22 -> 1.16 ms a count). From calloc: a large table fresh from the system is
 * pages zeroed when first touched, so a short search pays only for the entries it stores (zeroing the 512 KiB of
 * the default table took a third of a millisecond, as long as a card's whole search). */
static int memo_table(Kernel *k)
{
    k->mraw = calloc(((size_t)1 << k->memo_bits) * (size_t)k->mstride * 8 + 64, 1);
    if (!k->mraw)
        return 0;
    k->mtab = (uint64_t *)(((uintptr_t)k->mraw + 63) & ~(uintptr_t)63);
    k->mfilled = 0;
    return 1;
}

/* The memo's stores after which its table's pages are asked for at once (memo_fill). */
#define MEMO_FILL_STORES 32

/* The memo table's pages asked for at once (fill_pages) once a search has stored MEMO_FILL_STORES entries, so that
 * it will likely touch most of them: each page of the table (calloc's) is first read by a look-up, then written by
 * a store. A short search (a card) stores fewer entries and touches few pages. */
static __attribute__((noinline)) void memo_fill(Kernel *k)
{
    k->mfilled = 1;
    if (k->mtab)
        fill_pages(k->mtab, ((size_t)1 << k->memo_bits) * (size_t)k->mstride * 8);
}

/* Store into bucket ms: board B with the items left ``avail``, its counts (solutions | weight sum << 32) and the
 * nodes of its subtree. The bucket's first entry keeps the larger subtree of the two (by bit length): a new one at
 * least as large moves the first entry to the second, a smaller one takes the second; so a subtree met often near
 * the leaves does not push out one that spares a larger search (with one entry a slot, 20 L pentominoes in 10x10
 * took 287,465 nodes, against 192,494). */
static inline __attribute__((always_inline)) void memo_put(Kernel *k, uint64_t *ms, const uint64_t *B, uint64_t avail,
                                                           uint64_t counts, long long nodes, const int W)
{
    const uint64_t size = nodes > 0 ? (uint64_t)(64 - __builtin_clzll((uint64_t)nodes)) : 0;
    uint64_t *e = ms + k->mstride;
    if (ms[W + 2] >> 8 != k->mepoch)
        e = ms;
    else if ((ms[W + 2] & 0xFF) <= size) {
        for (int w = 0; w < W + 3; w++)
            e[w] = ms[w];
        e = ms;
    }
    for (int w = 0; w < W; w++)
        e[w] = B[w];
    e[W] = avail;
    e[W + 1] = counts;
    e[W + 2] = k->mepoch << 8 | size;
    if (++k->memo_stores == MEMO_FILL_STORES && !k->mfilled)
        memo_fill(k);
    k->mdirty = 1;
}

/* Can a region of s goal bits be filled by the counter items with a copy left? Necessary conditions
 * only: s a multiple of the gcd of their sizes and at least the smallest. */
static inline int fillable(const Kernel *k, int s)
{
    if (k->uniform)
        return s % k->unit == 0;
    const uint64_t av = k->avail;
    if (av & k->fmixed)
        return 1;
    int g = 0, mn = 0;
    for (int i = 0; i < k->nsizes && g != 1; i++) { /* the sizes with a copy left, smallest first */
        if (!(av & k->zmask[i]))
            continue;
        int a = g, b = k->zsize[i];
        if (!mn)
            mn = b;
        while (b) {
            int r = a % b;
            a = b;
            b = r;
        }
        g = a;
    }
    if (g == 0)
        return 0;
    return s >= mn && s % g == 0;
}

/* The area test with a cardinality: e empty goal bits must be the area of exactly j more options. */
static inline int area_ok(const Kernel *k, int e, int j)
{
    int most = 0, least = 0, left = j;
    for (int32_t r = 0; r < k->ntypes && left > 0; r++) {
        int32_t t = k->by_size[r];
        int avail = k->left[t];
        int take = avail < left ? avail : left;
        most += take * k->tsize[t];
        left -= take;
    }
    if (left > 0 || e > most)
        return 0;
    left = j;
    for (int32_t r = k->ntypes - 1; r >= 0 && left > 0; r--) {
        int32_t t = k->by_size[r];
        int avail = k->left[t];
        int take = avail < left ? avail : left;
        least += take * k->tsize[t];
        left -= take;
    }
    return e >= least;
}

/* A dead region next to the option just placed: flooding from each empty goal bit of ``seed_mask``
 * over the empty goal bits of board B, a region that closes with at most ``cap`` bits and cannot be
 * filled by the pieces left. */
static inline __attribute__((always_inline)) int dead_region(const Kernel *k, const uint64_t *B,
                                                              const uint64_t *seed_mask, int cap, const int W)
{
    const uint64_t *nbr = k->nbr;
    uint64_t E[MAXW], seeds[MAXW];
    int any = 0;
    for (int w = 0; w < W; w++) {
        E[w] = k->goal[w] & ~B[w];
        seeds[w] = seed_mask[w] & E[w];
        any |= seeds[w] != 0;
    }
    if (!any)
        return 0;
    for (int sw = 0; sw < W; sw++) {
        while (seeds[sw]) {
            int b0 = 64 * sw + ctz64(seeds[sw]);
            const uint64_t *n0 = nbr + (int64_t)b0 * W;
            uint64_t touch = 0;
            for (int w = 0; w < W; w++)
                touch |= n0[w] & E[w];
            if (!touch) { /* the common case: one bit walled in */
                if (!fillable(k, 1))
                    return 1;
                seeds[sw] &= seeds[sw] - 1;
                continue;
            }
            if (cap <= 1) {
                seeds[sw] &= seeds[sw] - 1;
                continue;
            }
            uint64_t comp[MAXW] = {0}, front[MAXW] = {0};
            comp[sw] = front[sw] = 1ull << (b0 & 63);
            int size = 1, open = 1;
            while (open && size <= cap) {
                uint64_t nxt[MAXW] = {0};
                if (W == 1 && k->grid) { /* the neighbours of the whole front at once */
                    const uint64_t x = front[0];
                    for (int j = 0; j < k->grid; j++)
                        nxt[0] |= ((x & k->gmask[j]) << k->gshift[j]) | ((x >> k->gshift[j]) & k->gmask[j]);
                } else
                    for (int w = 0; w < W; w++) {
                        uint64_t x = front[w];
                        while (x) {
                            const uint64_t *nb = nbr + (int64_t)(64 * w + ctz64(x)) * W;
                            x &= x - 1;
                            for (int v = 0; v < W; v++)
                                nxt[v] |= nb[v];
                        }
                    }
                open = 0;
                for (int w = 0; w < W; w++) {
                    nxt[w] &= E[w] & ~comp[w];
                    comp[w] |= nxt[w];
                    front[w] = nxt[w];
                    size += popcount64(nxt[w]);
                    open |= nxt[w] != 0;
                }
            }
            if (!open && size <= cap && !fillable(k, size))
                return 1;
            for (int w = 0; w < W; w++)
                seeds[w] &= ~comp[w];
        }
    }
    return 0;
}

/* Entry e's W mask words and its option id (List: ent, or fast1's mw and id1 on up to FAST_WORDS words; mw's
 * integers of two words hold their low word first, as fast_set writes them on a little-endian machine). */
static inline __attribute__((always_inline)) const uint64_t *ent_mask(const List *L, int32_t e, const int W)
{
    return W <= FAST_WORDS ? (const uint64_t *)L->mw + (int64_t)e * W : L->ent + (int64_t)e * (W + 1);
}

static inline __attribute__((always_inline)) int32_t ent_id(const List *L, int32_t e, const int W)
{
    return W <= FAST_WORDS ? L->id1[e] : (int32_t)L->ent[(int64_t)e * (W + 1) + W];
}

/* The slot of goal bit c's list at board B. */
static inline __attribute__((always_inline)) int32_t slot_of(const List *L, int c, const uint64_t *B)
{
    if (L->next) { /* the probes are the K goal bits after c */
        int p = c + 1, w = p >> 6, sh = p & 63;
        uint64_t x = w < L->words ? B[w] >> sh : 0; /* c + 1 = 64 W: no bit after c */
        if (sh && w + 1 < L->words)
            x |= B[w + 1] << (64 - sh);
        return (c << L->K) | (int32_t)(x & (uint64_t)(L->NP - 1));
    }
    int32_t s = c << L->K;
    const int32_t *pr = L->probe + (int64_t)c * L->K;
    for (int j = 0; j < L->K; j++)
        s |= (int32_t)((B[pr[j] >> 6] >> (pr[j] & 63)) & 1) << j;
    return s;
}

/* The block of item t in slot s (t in bmask[s]). */
static inline __attribute__((always_inline)) int32_t block_of(const List *L, int32_t s, int t)
{
    return L->bstart[s] + popcount64(L->bmask[s] & ((1ull << t) - 1));
}

/* The goal bit to branch on at board B (-1 when every goal bit is covered). */
static inline __attribute__((always_inline)) int choose(const Kernel *k, const uint64_t *B, const int W)
{
    int c = -1;
    for (int w = 0; w < W; w++) {
        uint64_t x = k->goal[w] & ~B[w];
        if (x) {
            c = 64 * w + ctz64(x);
            break;
        }
    }
    if (c < 0 || k->rule == RULE_FIRST)
        return c;
    /* MRV: the empty goal bit with the fewest fitting options, ties to the lowest */
    const List *L = &k->list;
    int best = 1 << 30, bc = c;
    for (int w = 0; w < W && best > 0; w++) {
        uint64_t x = k->goal[w] & ~B[w];
        while (x && best > 0) {
            int b = 64 * w + ctz64(x);
            x &= x - 1;
            int n = 0;
            uint64_t rem = L->bmask[b] & k->avail;
            while (rem && n < best) {
                int32_t i = block_of(L, b, ctz64(rem));
                rem &= rem - 1;
                for (int32_t e = L->blo[i]; e < L->blo[i + 1] && n < best; e++) {
                    const uint64_t *m = ent_mask(L, e, W);
                    uint64_t hit = 0;
                    for (int v = 0; v < W; v++)
                        hit |= m[v] & B[v];
                    n += hit == 0;
                }
            }
            if (n < best) {
                best = n;
                bc = b;
            }
        }
    }
    return bc;
}

static inline __attribute__((always_inline)) void take(Kernel *k, int32_t o)
{
    int32_t t = k->otype[o];
    if (--k->left[t] == 0)
        k->avail &= ~(1ull << t);
}

static inline __attribute__((always_inline)) void untake(Kernel *k, int32_t o)
{
    int32_t t = k->otype[o];
    k->left[t]++;
    k->avail |= 1ull << t;
}

/* Every goal bit covered at this level: a solution when the counter items' lower bounds and the
 * cardinality hold. */
static inline __attribute__((always_inline)) int bounds_met(const Kernel *k, int32_t level)
{
    int ok = k->kcard < 0 || level == k->kcard;
    for (int32_t r = 0; ok && r < k->n_lo; r++)
        ok = k->hi[k->lo_types[r]] - k->left[k->lo_types[r]] >= k->lo[k->lo_types[r]];
    return ok;
}

/* With a cardinality: no more options can complete board B at this level (too many placed, or its empty
 * goal bits are not the area of the options still to place). */
static inline __attribute__((always_inline)) int card_dead(const Kernel *k, const uint64_t *B, int32_t level, const int W)
{
    int e = 0;
    for (int w = 0; w < W; w++)
        e += popcount64(k->goal[w] & ~B[w]);
    return level >= k->kcard || !area_ok(k, e, k->kcard - level);
}

/* The options the search places at goal bit c of board B, in list order, into out (room for nopts): no bit
 * of theirs covered, a copy of their counter item left, and of the restricted item its representatives
 * only. Returns their number. */
static inline __attribute__((always_inline)) int32_t fitting(const Kernel *k, const uint64_t *B, int c, int32_t *out,
                                                             const int W)
{
    const List *L = &k->list;
    const int32_t sl = slot_of(L, c, B);
    uint64_t rem = L->bmask[sl] & k->avail;
    int32_t n = 0;
    while (rem) {
        const int t = ctz64(rem);
        const int32_t i = block_of(L, sl, t);
        rem &= rem - 1;
        for (int32_t e = L->blo[i]; e < L->blo[i + 1]; e++) {
            const uint64_t *m = ent_mask(L, e, W);
            uint64_t hit = 0;
            for (int v = 0; v < W; v++)
                hit |= m[v] & B[v];
            const int32_t o = ent_id(L, e, W);
            if (!hit && (t != k->qtype || k->qw[o] > 0))
                out[n++] = o;
        }
    }
    return n;
}

/* ------------------------------------------------------------------ the search */
/* the kinds of FN(hot)'s children at a level: a memo level, the level of the last two pieces outside the memo's
 * levels (FN(last2), one word), or any other */
#define HOT_MEMO 0
#define HOT_PLAIN 1
#define HOT_LAST2 2

/* What fast1 reads, gathered once per step (nothing in it changes during a step). */
typedef struct {
    Kernel *k;
    const void *mw, *bw; /* the lists' entries: mask and neighbours, one BB each (List.mw, bw) */
    const uint64_t *bmask, *nbr;
    const int32_t *id1, *bstart, *boff, *qw;
    const int8_t *ty; /* each entry's counter item (List.ty1) */
    uint64_t *board;
    int32_t *chosen;
    uint64_t goal, lo_mask, np1;
    int K, next, NT, qtype, hsize, nperms;
    /* the dead-region test: 0 none; 1 cap 1 where a walled-in empty bit is always dead (the pieces left
     * never matter: Kernel.cell_dead), by the neighbour masks; 2 the same by the grid's two shifts; 3 any
     * other (run_w's dead_region) */
    int dead;
    uint64_t gm[4];
    int gd[4], ngrid; /* the grid's shifts (Kernel.grid, gshift, gmask; masks 0 past ngrid) */
#ifdef HAVE_U128
    u128 goal2, gm2[4]; /* two words: the goal and the grid's masks */
#endif
    int32_t memo_lo, memo_hi; /* the memo's levels (memo_lo > memo_hi: none) */
    int32_t *left; /* with copies: the copies left of each counter item (Kernel.left), kept by fast1 */
    int copies;
    int32_t *ce, maxlen; /* fast1's buffer: per level, room for the longest list (the entries that fit) */
    int32_t *cs;         /* FN(hot): per level, the slot of each child in ce (-1: a solution) */
    int hot;             /* FN(hot) searches: dead 2 (or 1 on a grid of 3 or 4 shifts), no copies, the lists split by
                          * probes (next) */
    /* FN(hot)'s function of each level L (FN(pick)): 3 x (L a memo level) + the kind of its children (FN(kind)) */
    int8_t hsel[MAXW * 64 + 3];
    int32_t lvl2; /* the level where two pieces are left, answered by FN(last2) in FN(hot) (-1: none) */
    const uint64_t *hkey, *hval;
    int hbits;
} Fast;

static void fast_init(Fast *f, Kernel *k)
{
    const List *Ls = &k->list;
    f->k = k;
    f->mw = Ls->mw, f->bw = Ls->bw, f->bmask = Ls->bmask, f->nbr = k->nbr;
    f->id1 = Ls->id1, f->ty = Ls->ty1, f->bstart = Ls->bstart, f->boff = Ls->blo, f->qw = k->qw;
    f->board = k->board, f->chosen = k->chosen;
    f->goal = k->goal[0], f->lo_mask = k->lo_mask, f->np1 = (uint64_t)(Ls->NP - 1);
    f->K = Ls->K, f->next = Ls->next, f->NT = k->ntypes, f->qtype = k->qtype;
    f->dead = k->nbr == NULL || k->cap <= 0 ? 0
              : k->cap > 1                 ? 3
              : k->cell_dead               ? (k->grid == 2 ? 2 : 1)
              : k->uniform && k->unit == 1 ? 0
                                           : 3;
    f->ngrid = k->grid;
    for (int j = 0; j < 4; j++)
        f->gm[j] = j < k->grid ? k->gmask[j] : 0, f->gd[j] = j < k->grid ? k->gshift[j] : 0;
#ifdef HAVE_U128
    if (k->W == 2) {
        f->goal2 = (u128)k->goal[1] << 64 | k->goal[0];
        for (int j = 0; j < 4; j++)
            f->gm2[j] = j < k->grid ? k->gmask2[j] : 0;
    }
#endif
    f->hsize = k->hsize, f->nperms = k->nperms;
    f->memo_lo = k->memo_active ? k->memo_lo : 1;
    f->memo_hi = k->memo_active ? k->memo_hi : 0;
    f->ce = k->fce, f->maxlen = Ls->maxlen;
    f->left = k->left, f->copies = !k->single;
    f->hkey = Ls->hkey, f->hval = Ls->hval, f->hbits = Ls->hbits;
    /* FN(hot): a walled-in empty bit always dead, the neighbours by the grid's 2 to 4 shifts */
    f->hot = (f->dead == 2 || (f->dead == 1 && k->grid >= 2)) && !f->copies && f->next;
    f->lvl2 = Ls->hkey && f->hot ? k->ntypes - 2 : -1; /* (a table only without copies: FN(hot) takes dead 2) */
    f->cs = k->fce + ((size_t)k->depth + 1) * ((size_t)Ls->maxlen + 1);
    for (int32_t L = 0; L <= k->depth + 2 && L < (int32_t)sizeof f->hsel; L++) {
        const int memo = L >= f->memo_lo && L <= f->memo_hi, memo1 = L + 1 >= f->memo_lo && L + 1 <= f->memo_hi;
        const int memo2 = L + 2 >= f->memo_lo && L + 2 <= f->memo_hi;
        f->hsel[L] = (int8_t)(3 * memo + (memo1 ? HOT_MEMO : k->W == 1 && L + 1 == f->lvl2 && !memo2 ? HOT_LAST2 : HOT_PLAIN));
    }
}

/* The counter items that have the option of mask x (one word), from the hash table of fast1's last two pieces:
 * each mask lies within LAST_PROBE entries of its hash, so four tests without a branch */
#define LAST_PROBE 4
static inline __attribute__((always_inline)) uint64_t last_items(const Fast *f, uint64_t x)
{
    const uint64_t h = (x * 0x9E3779B97F4A7C15ull) >> (64 - f->hbits);
    uint64_t v = 0;
    for (int j = 0; j < LAST_PROBE; j++)
        v |= f->hkey[h + j] == x ? f->hval[h + j] : 0;
    return v;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define FAST1_POPCNT 1 /* fast1 also with the POPCNT instruction (chosen at run time, as run below) */
#endif

/* fast1 on one word */
#define BB uint64_t
#define BW 1
#define FN(name) fast1_##name
#define BB_CTZ(x) ctz64(x)
#define BB_GOAL(f) ((f)->goal)
#define BB_GM(f, j) ((f)->gm[j])
#include "_bits_fast.h" /* which undefines these six */

#ifdef HAVE_U128
/* fast1 on two words, as one 128-bit integer */
static inline __attribute__((always_inline)) int ctz128(u128 x)
{
    const uint64_t lo = (uint64_t)x;
    return lo ? ctz64(lo) : 64 + ctz64((uint64_t)(x >> 64));
}
#define BB u128
#define BW 2
#define FN(name) fast2_##name
#define BB_CTZ(x) ctz128(x)
#define BB_GOAL(f) ((f)->goal2)
#define BB_GM(f, j) ((f)->gm2[j])
#include "_bits_fast.h" /* which undefines these six */
#endif

static inline __attribute__((always_inline)) int run_w(Kernel *k, long long stop_nodes, int32_t *out,
                                                        int32_t *out_len, long long *out_nodes, long long batch,
                                                        long long *n_out_p, const int W)
{
    const List *L = &k->list;
    const int32_t *blo = L->blo;
    const uint64_t *bmask = L->bmask;
    uint64_t *board = k->board;
    int32_t *chosen = k->chosen, *lslot = k->lslot, *lpos = k->lpos, *lhi = k->lhi, *ltype = k->ltype;
    const int32_t qtype = k->qtype, *qw = k->qw;
    uint64_t *lrem = k->lrem;
    const int32_t depth = k->depth, kcard = k->kcard, cap = k->cap;
    const int prune = k->nbr != NULL && cap > 0;
    const int memo = k->memo_active;
    const int32_t memo_lo = k->memo_lo, memo_hi = k->memo_hi;
    int32_t *pw = k->pw;
    uint8_t *mflag = k->mflag;
    int32_t level = k->level;
    long long nodes = k->nodes, n_out = 0;
    int ret = RET_DONE;
    /* fast1 below k->fast_lo where nothing needs this machine */
    /* with copies on one word only: on two, the recursion measured no faster than this machine (20 L in
     * 10x10 slower, 20 P in 5x20 even), on one 1.7x faster (two tetromino sets in 8x5) */
    const int32_t fast_lo = W <= FAST_WORDS && k->rule == RULE_FIRST && (k->single || (k->fast_ok && W == 1)) &&
                                    kcard < 0 && batch == 0 &&
                                    !k->tally_on && k->limit >= ((long long)1 << 62) && k->fast_lo >= 0
                                ? k->fast_lo
                                : INT32_MAX;
    Fast fast;
    int fast_ready = 0;

    for (;;) {
        if (k->state == ST_ENTER && level >= fast_lo) {
            uint64_t avail = k->avail;
            k->nodes = nodes;
            mflag[level] = 0;
            if (!fast_ready) {
                fast_init(&fast, k);
                fast_ready = 1;
            }
#ifdef HAVE_U128
            if (W == 2)
                fast2_run(&fast, level, avail, pw[level]);
            else
#endif
                fast1_run(&fast, level, avail, pw[level]);
            nodes = k->nodes;
            k->avail = avail;
            k->state = ST_BACK;
            goto back;
        }
        if (k->state == ST_ENTER) {
            const uint64_t *B = board + (int64_t)level * W;
            int c = choose(k, B, W);
            mflag[level] = 0;
            if (c < 0) {
                /* every goal bit covered: a solution if the lower bounds and the cardinality hold */
                k->state = ST_BACK;
                if (!bounds_met(k, level))
                    continue;
                long long wq = 1;
                if (qtype >= 0) /* the restricted item's option below the prefix (the prefix may hold a copy) */
                    for (int32_t j = k->base; j < level; j++)
                        if (k->otype[chosen[j]] == qtype) {
                            wq = qw[chosen[j]];
                            break;
                        }
                k->solutions++;
                k->weighted += wq;
                k->fixed += wq * ((qtype >= 0 && wq == k->hsize) || !k->nperms ? 1 : stabiliser(k, level));
                if (k->tally_on && !tally_add(k, used_items(k, level), 1)) {
                    ret = -1;
                    break;
                }
                if (batch > 0) {
                    int32_t *row = out + n_out * depth;
                    for (int32_t t = 0; t < level; t++) { /* insertion sort: rows hold increasing ids */
                        int32_t v = chosen[t], s = t;
                        while (s > 0 && row[s - 1] > v) {
                            row[s] = row[s - 1];
                            s--;
                        }
                        row[s] = v;
                    }
                    out_len[n_out] = level;
                    out_nodes[n_out] = nodes;
                    n_out++;
                }
                if (k->solutions >= k->limit) {
                    ret = RET_LIMIT;
                    k->state = ST_DONE;
                    break;
                }
                if (batch > 0 && n_out == batch) {
                    ret = RET_FULL;
                    break;
                }
                continue;
            }
            if (kcard >= 0 && card_dead(k, B, level, W)) {
                k->state = ST_BACK;
                continue;
            }
            /* the memo: the solutions below this node depend only on its board and the items left; it is
             * used only where no solution below needs its stabiliser (then fixed grows as weighted) */
            if (memo && level >= memo_lo && level <= memo_hi &&
                (!k->nperms || (qtype >= 0 && pw[level] == k->hsize))) {
                const uint64_t *ms = memo_find(k, memo_slot(k, B, k->avail, W), B, k->avail, W);
                if (ms) {
                    long long m = qtype >= 0 && pw[level] ? pw[level] : 1;
                    k->solutions += (long long)(ms[W + 1] & 0xFFFFFFFFu);
                    k->weighted += m * (long long)(ms[W + 1] >> 32);
                    k->fixed += m * (long long)(ms[W + 1] >> 32);
                    k->memo_hits++;
                    k->state = ST_BACK;
                    continue;
                }
                mflag[level] = 1;
                k->msol[level] = k->solutions;
                k->mwt[level] = k->weighted;
                k->mnod[level] = nodes;
            }
            int32_t sl = slot_of(L, c, B);
            lslot[level] = sl;
            lrem[level] = bmask[sl];
            lpos[level] = lhi[level] = 0;
            ltype[level] = -2;
            k->state = ST_TRY;
        }
        if (k->state == ST_TRY) {
            const uint64_t *B = board + (int64_t)level * W;
            int32_t e = lpos[level], ehi = lhi[level], t = ltype[level];
            uint64_t rem = lrem[level];
            for (;;) {
                if (t != qtype) {
                    for (; e < ehi; e++) {
                        const uint64_t *m = ent_mask(L, e, W);
                        uint64_t hit = 0;
                        for (int v = 0; v < W; v++)
                            hit |= m[v] & B[v];
                        if (!hit)
                            goto found;
                    }
                } else { /* the restricted item: its representatives only */
                    for (; e < ehi; e++) {
                        const uint64_t *m = ent_mask(L, e, W);
                        uint64_t hit = 0;
                        for (int v = 0; v < W; v++)
                            hit |= m[v] & B[v];
                        if (!hit && qw[ent_id(L, e, W)] > 0)
                            goto found;
                    }
                }
                rem &= k->avail;
                if (!rem)
                    break;
                t = ctz64(rem);
                int32_t i = block_of(L, lslot[level], t);
                rem &= rem - 1;
                e = blo[i];
                ehi = blo[i + 1];
            }
            k->state = ST_BACK;
            goto back;
        found:
            if (nodes >= stop_nodes) {
                lpos[level] = e;
                lhi[level] = ehi;
                lrem[level] = rem;
                ltype[level] = t;
                ret = RET_BUDGET;
                break;
            }
            nodes++;
            lpos[level] = e + 1;
            lhi[level] = ehi;
            lrem[level] = rem;
            ltype[level] = t;
            {
                const uint64_t *m = ent_mask(L, e, W);
                int32_t o = ent_id(L, e, W);
                uint64_t *NB = board + (int64_t)(level + 1) * W;
                for (int v = 0; v < W; v++)
                    NB[v] = B[v] | m[v];
                chosen[level] = o;
                take(k, o);
                if (prune && dead_region(k, NB, k->obrd + (int64_t)o * W, cap, W)) {
                    untake(k, o);
                    continue; /* the next option at this level */
                }
            }
            pw[level + 1] = qtype >= 0 && !pw[level] && k->otype[chosen[level]] == qtype ? qw[chosen[level]] : pw[level];
            level++;
            k->state = ST_ENTER;
            continue;
        }
    back:
        if (k->state == ST_BACK) {
            if (mflag[level]) { /* this node is done: remember what lies below it */
                mflag[level] = 0;
                long long n = k->solutions - k->msol[level];
                /* the weight sum below, with the restricted item's weight when it is placed below */
                long long v = qtype >= 0 && (k->avail >> qtype & 1) ? k->weighted - k->mwt[level] : n;
                if (n <= 0xFFFFFFFFll && v <= 0xFFFFFFFFll) {
                    const uint64_t *B = board + (int64_t)level * W;
                    memo_put(k, memo_slot(k, B, k->avail, W), B, k->avail, (uint64_t)n | (uint64_t)v << 32,
                             nodes - k->mnod[level], W);
                }
            }
            if (level <= k->base) {
                k->state = ST_DONE;
                ret = RET_DONE;
                break;
            }
            level--;
            untake(k, chosen[level]);
            k->state = ST_TRY;
            continue;
        }
        if (k->state == ST_DONE) {
            ret = RET_DONE;
            break;
        }
    }
    k->level = level;
    k->nodes = nodes;
    *n_out_p = n_out;
    return ret;
}

/* Kernel_init's last look at the options: the goal bits next to each (obrd, from nbr), and the options that wall in
 * a region the other pieces cannot fill even on an empty board, which no solution holds (drop, counted in
 * dropped). Compiled once per processor variant (walls, as run): the dead-region test's population counts. */
static inline __attribute__((always_inline)) void walls_w(Kernel *k, uint8_t *drop, const int W)
{
    uint64_t B[MAXW];
    for (int32_t o = 0; o < k->nopts; o++) {
        const uint64_t *m = k->omask + (int64_t)o * W;
        uint64_t *br = k->obrd + (int64_t)o * W;
        for (int w = 0; w < W; w++) {
            uint64_t x = m[w] & k->goal[w];
            while (x) {
                const uint64_t *nb = k->nbr + (int64_t)(64 * w + ctz64(x)) * W;
                x &= x - 1;
                for (int v = 0; v < W; v++)
                    br[v] |= nb[v];
            }
        }
        for (int w = 0; w < W; w++) {
            br[w] &= k->goal[w] & ~m[w];
            B[w] = m[w];
        }
        take(k, o);
        if (dead_region(k, B, br, k->ngoal, W)) {
            drop[o] = 1;
            k->dropped++;
        }
        untake(k, o);
    }
}

typedef int (*RunFn)(Kernel *, long long, int32_t *, int32_t *, long long *, long long, long long *);

#define RUNNERS(SUFFIX, ATTR)                                                                                  \
    ATTR static int run1##SUFFIX(Kernel *k, long long s, int32_t *o, int32_t *l, long long *n, long long b,   \
                                 long long *p)                                                                \
    {                                                                                                          \
        return run_w(k, s, o, l, n, b, p, 1);                                                                  \
    }                                                                                                          \
    ATTR static int run2##SUFFIX(Kernel *k, long long s, int32_t *o, int32_t *l, long long *n, long long b,   \
                                 long long *p)                                                                \
    {                                                                                                          \
        return run_w(k, s, o, l, n, b, p, 2);                                                                  \
    }                                                                                                          \
    ATTR static int run4##SUFFIX(Kernel *k, long long s, int32_t *o, int32_t *l, long long *n, long long b,   \
                                 long long *p)                                                                \
    {                                                                                                          \
        return run_w(k, s, o, l, n, b, p, 4);                                                                  \
    }                                                                                                          \
    ATTR static int choose##SUFFIX(const Kernel *k, const uint64_t *B)                                         \
    {                                                                                                          \
        return k->W == 1 ? choose(k, B, 1) : k->W == 2 ? choose(k, B, 2) : choose(k, B, 4);                    \
    }                                                                                                          \
    ATTR static void walls##SUFFIX(Kernel *k, uint8_t *drop)                                                   \
    {                                                                                                          \
        if (k->W == 1)                                                                                         \
            walls_w(k, drop, 1);                                                                               \
        else                                                                                                   \
            walls_w(k, drop, k->W);                                                                            \
    }

RUNNERS(_generic, )
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
/* The same code for processors with the POPCNT instruction (chosen at run time): without it the
 * population counts of the dead-region test and the lists are library calls. */
RUNNERS(_popcnt, __attribute__((target("popcnt"))))
/* and for those with BMI1 and BMI2 besides (shifts by any register, trailing zeros, and-not: some 7 % less time
 * on the 6x10 count) */
RUNNERS(_bmi, __attribute__((target("popcnt,bmi,bmi2"))))
#define HAVE_POPCNT_VARIANT 1
#endif

/* The most this processor runs of the search's variants (Kernel.hwpop): 2 with POPCNT, BMI1 and BMI2; 1 with
 * POPCNT; 0 plain C (and on other processors or compilers). */
static int cpu_level(void)
{
#ifdef HAVE_POPCNT_VARIANT
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("popcnt"))
        return 0;
    return __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2") ? 2 : 1;
#else
    return 0;
#endif
}

static int run(Kernel *k, long long s, int32_t *o, int32_t *l, long long *n, long long b, long long *p)
{
#ifdef HAVE_POPCNT_VARIANT
    if (k->hwpop == 2)
        return k->W == 1 ? run1_bmi(k, s, o, l, n, b, p) : k->W == 2 ? run2_bmi(k, s, o, l, n, b, p)
                                                                    : run4_bmi(k, s, o, l, n, b, p);
    if (k->hwpop)
        return k->W == 1 ? run1_popcnt(k, s, o, l, n, b, p) : k->W == 2 ? run2_popcnt(k, s, o, l, n, b, p)
                                                                       : run4_popcnt(k, s, o, l, n, b, p);
#endif
    return k->W == 1 ? run1_generic(k, s, o, l, n, b, p) : k->W == 2 ? run2_generic(k, s, o, l, n, b, p)
                                                                     : run4_generic(k, s, o, l, n, b, p);
}

static void walls(Kernel *k, uint8_t *drop)
{
#ifdef HAVE_POPCNT_VARIANT
    if (k->hwpop == 2) {
        walls_bmi(k, drop);
        return;
    }
    if (k->hwpop) {
        walls_popcnt(k, drop);
        return;
    }
#endif
    walls_generic(k, drop);
}

static int choose_any(const Kernel *k, const uint64_t *B)
{
#ifdef HAVE_POPCNT_VARIANT
    if (k->hwpop == 2)
        return choose_bmi(k, B);
    if (k->hwpop)
        return choose_popcnt(k, B);
#endif
    return choose_generic(k, B);
}

/* ------------------------------------------------------------------ set-up */
static void list_free(List *L)
{
    free(L->probe), free(L->bstart), free(L->blo), free(L->bmask), free(L->ent);
    free(L->mw), free(L->bw), free(L->id1), free(L->ty1), free(L->hkey), free(L->hval);
    memset(L, 0, sizeof *L);
}

/* The tables a clone shares with its parent (read-only once Kernel_init has built them). */
#define SHARED_TABLES(k)                                                                                   \
    {(void **)&(k)->omask, (void **)&(k)->obrd, (void **)&(k)->otype, (void **)&(k)->lo, (void **)&(k)->hi,  \
     (void **)&(k)->tsize, (void **)&(k)->lo_types, (void **)&(k)->by_size, (void **)&(k)->nbr}

static void kernel_free(Kernel *k)
{
    if (k->parent) { /* the shared tables belong to the parent */
        void **shared[] = SHARED_TABLES(k);
        for (size_t i = 0; i < sizeof shared / sizeof shared[0]; i++)
            *shared[i] = NULL;
        memset(&k->list, 0, sizeof k->list);
        Py_CLEAR(k->parent);
    }
    void **ptrs[] = {(void **)&k->omask, (void **)&k->obrd, (void **)&k->otype, (void **)&k->lo,
                     (void **)&k->hi, (void **)&k->tsize, (void **)&k->lo_types, (void **)&k->by_size,
                     (void **)&k->nbr, (void **)&k->board, (void **)&k->left, (void **)&k->chosen,
                     (void **)&k->lslot, (void **)&k->lpos, (void **)&k->lhi, (void **)&k->ltype, (void **)&k->qw,
                     (void **)&k->lrem, (void **)&k->in_sol, (void **)&k->perms, (void **)&k->tkeys,
                     (void **)&k->tvals, (void **)&k->mraw, (void **)&k->msol, (void **)&k->mwt, (void **)&k->mnod,
                     (void **)&k->mflag, (void **)&k->pw, (void **)&k->fce};
    for (size_t i = 0; i < sizeof ptrs / sizeof ptrs[0]; i++) {
        free(*ptrs[i]);
        *ptrs[i] = NULL;
    }
    k->mtab = NULL; /* it lay in mraw */
    list_free(&k->list);
    k->tcap = k->tlen = 0;
}

static void Kernel_dealloc(Kernel *k)
{
    kernel_free(k);
    Py_TYPE(k)->tp_free((PyObject *)k);
}

/* One word: are the neighbour masks those of bits at most four shifts apart, as on a grid (see Kernel.grid)? */
static void grid_shifts(Kernel *k)
{
    k->grid = 0;
    if (k->W > FAST_WORDS || !k->nbr)
        return;
    const int32_t ng = k->ngoal, W = k->W;
#ifdef HAVE_U128
    typedef u128 wide;
#else
    typedef uint64_t wide;
#endif
    int d[4] = {0, 0, 0, 0}, nd = 0;
    wide m[4] = {0, 0, 0, 0};
    for (int32_t b = 0; b < ng; b++)
        for (int w = 0; w < W; w++)
            for (uint64_t x = k->nbr[(int64_t)b * W + w]; x; x &= x - 1) {
                int c = 64 * w + ctz64(x), j;
                if (c <= b)
                    continue;
                for (j = 0; j < nd && d[j] != c - b; j++)
                    ;
                if (j == nd) {
                    if (nd == 4)
                        return;
                    d[nd++] = c - b;
                }
                m[j] |= (wide)1 << b;
            }
    for (int32_t b = 0; b < ng; b++) {
        wide x = (wide)1 << b, n = 0;
        for (int j = 0; j < nd; j++)
            n |= ((x & m[j]) << d[j]) | ((x >> d[j]) & m[j]);
        for (int w = 0; w < W; w++, n = n >> 32 >> 32)
            if ((uint64_t)n != k->nbr[(int64_t)b * W + w])
                return;
    }
    k->grid = nd;
    for (int j = 0; j < nd; j++) {
        k->gshift[j] = d[j];
        k->gmask[j] = (uint64_t)m[j];
#ifdef HAVE_U128
        k->gmask2[j] = m[j];
#endif
    }
}

/* Entry e of fast1's integers of W words (List.mw, bw) set to the W words x (word w: bits 64 w ..). */
static void fast_set(void *arr, int W, int32_t e, const uint64_t *x)
{
#ifdef HAVE_U128
    if (W == 2) {
        ((u128 *)arr)[e] = (u128)x[1] << 64 | x[0];
        return;
    }
#endif
    ((uint64_t *)arr)[e] = x[0];
}

/* The rule's lists over the options not in ``drop`` (see List), options by increasing id within a
 * block; K probes per goal bit, fewer if the lists would exceed ``budget`` entries. */
static int build_list(Kernel *k, List *L, int anchored, int K, const uint8_t *drop, int64_t budget)
{
    const int W = k->W, S = W + 1;
    const int32_t ng = k->ngoal, no = k->nopts, nt = k->ntypes + 1;
    int ok = 0;
    int32_t *order = malloc(((size_t)no + 1) * sizeof(int32_t));
    int32_t *tcount = calloc((size_t)nt + 1, sizeof(int32_t));
    int32_t *gstart = calloc((size_t)ng + 2, sizeof(int32_t));
    int32_t *gopt = NULL, *hpat = NULL, *freq = calloc((size_t)ng + 1, sizeof(int32_t)), *ecur = NULL, *slast = NULL;
    if (!order || !tcount || !gstart || !freq)
        goto done;
    /* options by (item, id): a counting sort over the items */
    for (int32_t o = 0; o < no; o++)
        tcount[k->otype[o] + 1]++;
    for (int32_t t = 1; t <= nt; t++)
        tcount[t] += tcount[t - 1];
    for (int32_t o = 0; o < no; o++)
        order[tcount[k->otype[o]]++] = o;
    /* each goal bit's options, in that order (a CSR: gstart, gopt) */
    for (int pass = 0; pass < 2; pass++) {
        for (int32_t r = 0; r < no; r++) {
            int32_t o = order[r];
            if (drop[o])
                continue;
            const uint64_t *m = k->omask + (int64_t)o * W;
            for (int w = 0; w < W; w++) {
                uint64_t x = m[w] & k->goal[w];
                while (x) {
                    int b = 64 * w + ctz64(x);
                    x &= x - 1;
                    if (pass == 0)
                        gstart[b + 1]++;
                    else
                        gopt[gstart[b]++] = o;
                    if (anchored)
                        goto next;
                }
            }
        next:;
        }
        if (pass == 0) {
            for (int32_t b = 0; b < ng; b++)
                gstart[b + 1] += gstart[b];
            gopt = malloc(((size_t)gstart[ng] + 1) * sizeof(int32_t));
            if (!gopt)
                goto done;
        } else {
            for (int32_t b = ng; b > 0; b--)
                gstart[b] = gstart[b - 1];
            gstart[0] = 0;
        }
    }
    /* probes: the goal bits the options of b cover most often (ties to the lowest), padded with b */
    L->K = anchored ? (K < 0 ? -K : K) : 0;
    L->next = K < 0 && L->K > 0 && k->nbits == ng; /* no bit beyond the goal can be set */
    L->words = W;
    L->probe = malloc(((size_t)ng * (L->K > 0 ? L->K : 1) + 1) * sizeof(int32_t));
    if (!L->probe)
        goto done;
    for (int32_t b = 0; b < ng && L->K > 0; b++) {
        memset(freq, 0, (size_t)ng * sizeof(int32_t));
        for (int32_t q = gstart[b]; q < gstart[b + 1]; q++) {
            const uint64_t *m = k->omask + (int64_t)gopt[q] * W;
            for (int w = 0; w < W; w++) {
                uint64_t x = m[w] & k->goal[w];
                while (x) {
                    freq[64 * w + ctz64(x)]++;
                    x &= x - 1;
                }
            }
        }
        freq[b] = 0;
        if (L->next) {
            for (int j = 0; j < L->K; j++)
                L->probe[(int64_t)b * L->K + j] = b + 1 + j < ng ? b + 1 + j : b;
            continue;
        }
        for (int j = 0; j < L->K; j++) {
            int32_t best = b;
            for (int32_t x = 0; x < ng; x++)
                if (freq[x] > (best == b ? 0 : freq[best]))
                    best = x;
            L->probe[(int64_t)b * L->K + j] = best;
            freq[best] = 0;
        }
    }
    /* sizes; fewer probes while over the budget */
    int64_t total, blocks;
    hpat = malloc(((size_t)gstart[ng] + 1) * sizeof(int32_t));
    if (!hpat)
        goto done;
    for (;;) {
        L->NP = 1 << L->K;
        /* the probes each option covers: it is in the list of pattern p when it covers none of p's */
        for (int32_t b = 0; b < ng; b++)
            for (int32_t q = gstart[b]; q < gstart[b + 1]; q++) {
                const uint64_t *m = k->omask + (int64_t)gopt[q] * W;
                int32_t h = 0;
                for (int j = 0; j < L->K; j++) {
                    int32_t x = L->probe[(int64_t)b * L->K + j];
                    h |= (int32_t)((m[x >> 6] >> (x & 63)) & 1) << j;
                }
                hpat[q] = h;
            }
        /* an option is in the lists of the patterns among the probes it leaves free (submasks of ~h) */
        total = 0;
        for (int32_t q = 0; q < gstart[ng]; q++)
            total += (int64_t)1 << (L->K - popcount64((uint64_t)hpat[q]));
        if (total <= budget || L->K == 0)
            break;
        for (int32_t b = 0; b < ng; b++) /* drop the last probe of every bit */
            for (int j = 0; j < L->K - 1; j++)
                L->probe[(int64_t)b * (L->K - 1) + j] = L->probe[(int64_t)b * L->K + j];
        L->K--;
    }
    const int32_t NP = L->NP, full = NP - 1;
    size_t slots = (size_t)ng * NP + 1;
    L->bstart = calloc(slots, sizeof(int32_t));
    L->bmask = calloc(slots, sizeof(uint64_t));
    ecur = calloc(slots, sizeof(int32_t));
    slast = malloc((size_t)NP * sizeof(int32_t));
    if (!L->bstart || !L->bmask || !ecur || !slast)
        goto done;
    /* per slot its entries (ecur) and blocks (bstart), visiting each option's patterns only */
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) { /* their starts; then the lists, options in (item, id) order within each */
            int32_t e0 = 0, i0 = 0;
            blocks = 0;
            for (size_t sl = 0; sl + 1 < slots; sl++) {
                int32_t ne = ecur[sl], nb = L->bstart[sl];
                ecur[sl] = e0, L->bstart[sl] = i0;
                e0 += ne, i0 += nb;
            }
            L->bstart[slots - 1] = i0;
            blocks = i0;
            /* each of these written all over below: their pages asked for at once */
            L->blo = malloc(((size_t)blocks + 1) * sizeof(int32_t));
            fill_pages(L->blo, ((size_t)blocks + 1) * sizeof(int32_t));
            if (W > FAST_WORDS) {
                L->ent = malloc(((size_t)total + 1) * S * sizeof(uint64_t));
                fill_pages(L->ent, ((size_t)total + 1) * S * sizeof(uint64_t));
            } else {
                L->mw = calloc(((size_t)total + 4) * W, sizeof(uint64_t)); /* fast1 reads up to 3 past a block */
                L->bw = calloc(((size_t)total + 1) * W, sizeof(uint64_t));
                L->id1 = malloc(((size_t)total + 1) * sizeof(int32_t));
                L->ty1 = malloc((size_t)total + 1);
                if (!L->mw || !L->bw || !L->id1 || !L->ty1)
                    goto done;
                fill_pages(L->mw, ((size_t)total + 4) * W * sizeof(uint64_t));
                if (k->obrd) /* else not written, nor read */
                    fill_pages(L->bw, ((size_t)total + 1) * W * sizeof(uint64_t));
                fill_pages(L->id1, ((size_t)total + 1) * sizeof(int32_t));
                fill_pages(L->ty1, (size_t)total + 1);
            }
            if (!L->blo || (W > FAST_WORDS && !L->ent))
                goto done;
        }
        for (int32_t b = 0; b < ng; b++) {
            int32_t *bcount = L->bstart + (int64_t)b * NP, *ecount = ecur + (int64_t)b * NP;
            for (int32_t p = 0; p < NP; p++)
                slast[p] = -1;
            for (int32_t q = gstart[b]; q < gstart[b + 1]; q++) {
                const int32_t o = gopt[q], t = k->otype[o], comp = ~hpat[q] & full;
                const uint64_t *m = k->omask + (int64_t)o * W;
                for (int32_t p = comp;; p = (p - 1) & comp) {
                    if (pass == 0) {
                        ecount[p]++;
                        if (slast[p] != t)
                            slast[p] = t, bcount[p]++;
                    } else {
                        int32_t e = ecount[p]++;
                        if (slast[p] != t) { /* a new block: bcount[p] is the next block of the slot */
                            slast[p] = t;
                            L->blo[bcount[p]++] = e;
                            L->bmask[(int64_t)b * NP + p] |= 1ull << t;
                        }
                        if (W > FAST_WORDS) {
                            uint64_t *dst = L->ent + (int64_t)e * S;
                            for (int w = 0; w < W; w++)
                                dst[w] = m[w];
                            dst[W] = (uint64_t)o;
                        } else {
                            fast_set(L->mw, W, e, m);
                            L->id1[e] = o;
                            L->ty1[e] = (int8_t)t;
                            if (k->obrd)
                                fast_set(L->bw, W, e, k->obrd + (int64_t)o * W);
                        }
                    }
                    if (!p)
                        break;
                }
            }
        }
        if (pass == 1) /* bcount ran on to the next slot's start: back to each slot's first block */
            for (size_t sl = slots - 1; sl > 0; sl--)
                L->bstart[sl] = L->bstart[sl - 1];
    }
    L->bstart[0] = 0;
    L->bstart[slots - 1] = (int32_t)blocks;
    L->blo[blocks] = (int32_t)total;
    L->maxlen = 0;
    for (size_t sl = 0; sl + 1 < slots; sl++) {
        const int32_t len = L->blo[L->bstart[sl + 1]] - L->blo[L->bstart[sl]];
        if (len > L->maxlen)
            L->maxlen = len;
    }
    ok = 1;
done:
    free(order), free(tcount), free(gstart), free(gopt), free(hpat), free(freq), free(ecur), free(slast);
    return ok;
}

/* The hash table of fast1's last two pieces (List.hkey), where it applies: one word, the goal only, the FIRST
 * lists with the probes after the anchor, every counter item [1..1] and every option in one, and the pieces'
 * sizes adding up to the goal (else, with fewer cells in the pieces, the last piece could fit at the first
 * empty bit without being the rest: a node FN(last2) would not count); 0 when memory runs out. */
static int build_last(Kernel *k, List *L, const uint8_t *drop)
{
    L->hkey = L->hval = NULL, L->hbits = 0;
    if (k->W != 1 || !L->next || k->nbits != k->ngoal || k->tsize[k->ntypes] != 0 || k->ntypes < 3)
        return 1;
    int64_t area = 0;
    for (int32_t t = 0; t < k->ntypes; t++) {
        if (k->lo[t] != 1 || k->hi[t] != 1 || k->tsize[t] <= 0) /* one size per item */
            return 1;
        area += k->tsize[t];
    }
    if (area != k->ngoal)
        return 1;
    int bits = 4;
    while (((int64_t)1 << bits) < 2 * (int64_t)k->nopts)
        bits++;
    /* Linear probing, no wrap, by Robin Hood insertion: a mask meeting one nearer its own hash (a later hash) takes
     * its place and moves it on, so each run of the table holds its masks in the order of their hashes, which
     * keeps the largest distance from a mask to its hash short (on the pentomino rectangles, in half the table
     * that insertion in option order needed); a mask met again (another
     * counter item's option of that mask) lies before the first mask of a later hash. A larger table while some
     * mask lies LAST_PROBE or more away. last_items reads any such table alike. */
    for (;; bits++) {
        free(L->hkey), free(L->hval);
        const size_t size = ((size_t)1 << bits) + LAST_PROBE - 1;
        L->hkey = calloc(size, sizeof(uint64_t));
        L->hval = calloc(size, sizeof(uint64_t));
        if (!L->hkey || !L->hval || bits > 30)
            return 0;
        L->hbits = bits;
        const int shift = 64 - bits;
        int far = 0;
        for (int32_t o = 0; o < k->nopts && !far; o++) {
            uint64_t x = k->omask[o], v = 1ull << k->otype[o];
            if (drop[o] || !x)
                continue;
            uint64_t h = (x * 0x9E3779B97F4A7C15ull) >> shift;
            for (uint64_t j = h;; j++) {
                if (j >= size || j - h >= LAST_PROBE) {
                    far = 1;
                    break;
                }
                const uint64_t y = L->hkey[j];
                if (!y || y == x) {
                    L->hkey[j] = x;
                    L->hval[j] |= v;
                    break;
                }
                const uint64_t hy = (y * 0x9E3779B97F4A7C15ull) >> shift;
                if (hy > h) { /* x takes y's place; y moves on */
                    const uint64_t w = L->hval[j];
                    L->hkey[j] = x, L->hval[j] = v;
                    x = y, v = w, h = hy;
                }
            }
        }
        if (!far)
            return 1;
    }
}

/* fast1's buffer (Kernel.fce) of a kernel whose lists are built; 0 when memory runs out. */
static int alloc_filter(Kernel *k)
{
    size_t n = ((size_t)k->depth + 1) * ((size_t)k->list.maxlen + 1);
    k->fce = malloc(2 * n * sizeof(int32_t)); /* the entries, then their children's slots (Fast.cs) */
    return k->fce != NULL;
}

/* The search state's arrays of a kernel whose W, nopts, ntypes and depth are set, zeroed; 0 when memory
 * runs out (what was allocated is freed with the kernel). */
static int alloc_state(Kernel *k)
{
    size_t no = (size_t)k->nopts + 1, nt = (size_t)k->ntypes + 2, dd = (size_t)k->depth + 1;
    k->board = calloc(dd * k->W, 8);
    k->left = calloc(nt, 4);
    k->chosen = calloc(dd, 4);
    k->lslot = calloc(dd, 4);
    k->lpos = calloc(dd, 4);
    k->lhi = calloc(dd, 4);
    k->ltype = calloc(dd, 4);
    k->qw = calloc(no, 4);
    k->lrem = calloc(dd, 8);
    k->in_sol = calloc(no, 1);
    k->msol = calloc(dd, sizeof(long long));
    k->mwt = calloc(dd, sizeof(long long));
    k->mnod = calloc(dd, sizeof(long long));
    k->mflag = calloc(dd, 1);
    k->pw = calloc(dd, 4);
    return k->board && k->left && k->chosen && k->lslot && k->lpos && k->lhi && k->ltype && k->qw && k->lrem &&
           k->in_sol && k->msol && k->mwt && k->mnod && k->mflag && k->pw;
}

static int Kernel_init(Kernel *k, PyObject *args, PyObject *kwds)
{
    int W, rule, kcard, cap, probes;
    int nbits, ngoal;
    Py_buffer bp = {0}, bi = {0}, bb = {0}, bt = {0}, bl = {0}, bh = {0}, bn = {0};
    uint8_t *drop = NULL;
    int ok = 0;
    if (!PyArg_ParseTuple(args, "iiiy*y*y*y*y*y*iy*iii", &W, &nbits, &ngoal, &bp, &bi, &bb, &bt, &bl, &bh, &rule,
                          &bn, &cap, &kcard, &probes))
        return -1;
    kernel_free(k);
    if (!(W == 1 || W == 2 || W == 4) || nbits < 0 || nbits > 64 * W || ngoal < 0 || ngoal > nbits ||
        (rule != RULE_FIRST && rule != RULE_MRV) || bp.len % 4 || bp.len < 4 || bi.len % 4 || bb.len % 4 ||
        bt.len % 4 || bl.len % 4 || bl.len != bh.len || bt.len + 4 != bp.len ||
        (bn.len && bn.len != (Py_ssize_t)ngoal * W * 8) || cap < 0 || probes < -7 || probes > 7 ||
        bl.len / 4 > MAXTYPES) {
        PyErr_SetString(PyExc_ValueError, "malformed bitboard kernel arguments");
        goto done;
    }
    k->W = W;
    k->rule = rule;
    k->nbits = nbits;
    k->ngoal = ngoal;
    k->nopts = (int32_t)(bt.len / 4);
    k->ntypes = (int32_t)(bl.len / 4);
    k->kcard = kcard;
    k->cap = cap;
    k->depth = ngoal + 1;
    k->dropped = 0;
    k->hwpop = cpu_level();
    memset(k->goal, 0, sizeof k->goal);
    for (int b = 0; b < ngoal; b++)
        k->goal[b / 64] |= 1ull << (b % 64);
    const int32_t NT = k->ntypes; /* the untyped options' item */
    size_t no = (size_t)k->nopts + 1, nt = (size_t)NT + 2;
    k->omask = malloc(no * W * 8);
    k->otype = malloc(no * 4);
    k->lo = malloc(nt * 4);
    k->hi = malloc(nt * 4);
    k->tsize = malloc(nt * 4);
    k->lo_types = malloc(nt * 4);
    k->by_size = malloc(nt * 4);
    drop = calloc(no, 1);
    if (!alloc_state(k) || !k->omask || !k->otype || !k->lo || !k->hi || !k->tsize || !k->lo_types || !k->by_size ||
        !drop) {
        PyErr_NoMemory();
        goto done;
    }
    /* each option's mask: its items' bits (an item of bit -1 is a counter item: the option's type) */
    {
        const uint32_t *indptr = bp.buf, *indices = bi.buf;
        const int32_t *bitof = bb.buf;
        const int64_t n_items = bb.len / 4, entries = bi.len / 4;
        memset(k->omask, 0, no * W * 8);
        for (int32_t o = 0; o < k->nopts; o++) {
            if (indptr[o] > indptr[o + 1] || indptr[o + 1] > entries) {
                PyErr_SetString(PyExc_ValueError, "indptr must rise to len(indices)");
                goto done;
            }
            uint64_t *m = k->omask + (int64_t)o * W;
            for (uint32_t q = indptr[o]; q < indptr[o + 1]; q++) {
                if (indices[q] >= n_items) {
                    PyErr_Format(PyExc_ValueError, "option %d names item %u, outside 0..%lld", o, indices[q],
                                 (long long)n_items - 1);
                    goto done;
                }
                int32_t b = bitof[indices[q]];
                if (b < 0)
                    continue;
                if (b >= nbits || (m[b >> 6] >> (b & 63) & 1)) {
                    PyErr_Format(PyExc_ValueError, "option %d: bit %d outside the bit items or named twice", o, b);
                    goto done;
                }
                m[b >> 6] |= 1ull << (b & 63);
            }
        }
    }
    memcpy(k->otype, bt.buf, (size_t)bt.len);
    memcpy(k->lo, bl.buf, (size_t)bl.len);
    memcpy(k->hi, bh.buf, (size_t)bh.len);
    k->lo[NT] = 0;
    k->hi[NT] = INT32_MAX;
    /* checks: masks inside the bit items, every option holding a goal bit, items in range, bounds */
    uint64_t inside[MAXW] = {0};
    for (int b = 0; b < nbits; b++)
        inside[b / 64] |= 1ull << (b % 64);
    for (int32_t t = 0; t <= NT; t++) {
        if (k->lo[t] < 0 || k->hi[t] < k->lo[t] || k->hi[t] < 1) {
            PyErr_Format(PyExc_ValueError, "bounds of counter item %d are [%d..%d]", t, k->lo[t], k->hi[t]);
            goto done;
        }
        k->tsize[t] = -2; /* no option yet */
    }
    k->uniform = 1;
    k->unit = -1;
    for (int32_t o = 0; o < k->nopts; o++) {
        const uint64_t *m = k->omask + (int64_t)o * W;
        int size = 0;
        for (int w = 0; w < W; w++) {
            if (m[w] & ~inside[w]) {
                PyErr_Format(PyExc_ValueError, "option %d covers a bit outside the %d bit items", o, nbits);
                goto done;
            }
            size += popcount64(m[w] & k->goal[w]);
        }
        if (size == 0) {
            PyErr_Format(PyExc_ValueError, "option %d covers no primary item", o);
            goto done;
        }
        int32_t t = k->otype[o];
        if (t < -1 || t >= NT) {
            PyErr_Format(PyExc_ValueError, "option %d has counter item %d, outside -1..%d", o, t, NT - 1);
            goto done;
        }
        if (t < 0)
            t = k->otype[o] = NT;
        k->tsize[t] = k->tsize[t] == -2 || k->tsize[t] == size ? size : -1;
        if (k->unit == -1)
            k->unit = size;
        else if (k->unit != size)
            k->uniform = 0;
    }
    k->n_lo = 0;
    k->lo_mask = 0;
    k->fast_lo = -1;
    int sized = 1;
    for (int32_t t = 0; t <= NT; t++) {
        if (k->lo[t] > 0)
            k->lo_types[k->n_lo++] = t, k->lo_mask |= 1ull << t;
        if (k->tsize[t] == -2)
            k->tsize[t] = 0; /* an item without options fills nothing */
        if (t < NT && k->tsize[t] < 0)
            sized = 0;
        if (t < NT)
            k->by_size[t] = t;
    }
    if (k->unit <= 0 || !sized)
        k->uniform = 0;
    k->nsizes = 0;
    k->fmixed = 0;
    for (int32_t t = 0; t <= NT; t++) {
        const int32_t z = k->tsize[t];
        if (z < 0) {
            k->fmixed |= 1ull << t;
            continue;
        }
        if (z == 0)
            continue;
        int i = 0;
        while (i < k->nsizes && k->zsize[i] < z)
            i++;
        if (i == k->nsizes || k->zsize[i] != z) { /* a new size: inserted in order */
            for (int j = k->nsizes; j > i; j--)
                k->zsize[j] = k->zsize[j - 1], k->zmask[j] = k->zmask[j - 1];
            k->zsize[i] = z, k->zmask[i] = 0, k->nsizes++;
        }
        k->zmask[i] |= 1ull << t;
    }
    k->cell_dead = 1;
    for (int32_t t = 0; t <= NT; t++)
        if (k->tsize[t] != 0 && k->tsize[t] < 2)
            k->cell_dead = 0;
    for (int32_t a = 1; a < NT; a++) { /* insertion sort by decreasing size */
        int32_t t = k->by_size[a], b = a;
        while (b > 0 && k->tsize[k->by_size[b - 1]] < k->tsize[t]) {
            k->by_size[b] = k->by_size[b - 1];
            b--;
        }
        k->by_size[b] = t;
    }
    if (kcard >= 0 && (!sized || k->tsize[NT] != 0)) {
        PyErr_SetString(PyExc_ValueError, "a cardinality needs every option to have a counter item, each of one size");
        goto done;
    }
    k->fast_ok = 1;
    int multi = 0; /* counter items above 1 */
    for (int32_t t = 0; t < NT; t++) {
        multi += k->hi[t] > 1;
        if (k->hi[t] > 1 && k->lo[t] != k->hi[t])
            k->fast_ok = 0; /* a range: a solution's bounds are not the items left (bounds_met) */
    }
    k->single = multi == 0;
    k->memo_ok = multi <= 1;
    k->memo_on = k->memo_active = 0;
    memcpy(k->left, k->hi, ((size_t)NT + 1) * 4);
    k->avail = (NT < 63 ? (1ull << (NT + 1)) - 1 : ~0ull);
    for (int32_t t = 0; t < NT; t++)
        if (k->hi[t] == 0)
            k->avail &= ~(1ull << t);
    k->grid = 0;
    if (bn.len && cap > 0) {
        k->nbr = malloc((size_t)bn.len);
        k->obrd = calloc(no * W, 8);
        if (!k->nbr || !k->obrd) {
            PyErr_NoMemory();
            goto done;
        }
        memcpy(k->nbr, bn.buf, (size_t)bn.len);
        grid_shifts(k);
        /* the goal bits next to each option, and the options that wall in a region the other pieces
         * cannot fill even on an empty board: no solution holds them */
        walls(k, drop);
    }
    if (!build_list(k, &k->list, rule == RULE_FIRST, probes, drop, (int64_t)1 << 22) || !alloc_filter(k) ||
        !build_last(k, &k->list, drop)) {
        PyErr_NoMemory();
        goto done;
    }
    k->limit = (long long)1 << 62;
    k->qtype = -1;
    k->state = ST_DONE;
    ok = 1;
done:
    free(drop);
    PyBuffer_Release(&bp);
    PyBuffer_Release(&bi);
    PyBuffer_Release(&bb);
    PyBuffer_Release(&bt);
    PyBuffer_Release(&bl);
    PyBuffer_Release(&bh);
    PyBuffer_Release(&bn);
    if (!ok)
        kernel_free(k);
    return ok ? 0 : -1;
}

/* Forget the current search: no option placed. */
static void clear_state(Kernel *k)
{
    memcpy(k->left, k->hi, ((size_t)k->ntypes + 1) * 4);
    memset(k->board, 0, (size_t)k->W * 8);
    k->avail = (k->ntypes < 63 ? (1ull << (k->ntypes + 1)) - 1 : ~0ull);
    k->level = k->base = 0;
}

/* Place the prefix; 0 when it overlaps or exceeds a bound. */
static int place_prefix(Kernel *k, const int32_t *prefix, int32_t n)
{
    const int W = k->W;
    clear_state(k);
    for (int32_t i = 0; i < n; i++) {
        int32_t o = prefix[i];
        if (o < 0 || o >= k->nopts || k->level >= k->depth - 1)
            return 0;
        const uint64_t *m = k->omask + (int64_t)o * W;
        uint64_t *B = k->board + (int64_t)k->level * W, *NB = B + W;
        for (int w = 0; w < W; w++) {
            if (m[w] & B[w])
                return 0;
            NB[w] = B[w] | m[w];
        }
        if (k->left[k->otype[o]] <= 0)
            return 0;
        take(k, o);
        k->chosen[k->level++] = o;
    }
    k->base = k->level;
    k->pw[k->base] = 0;
    return 1;
}

static PyObject *Kernel_start(Kernel *k, PyObject *args)
{
    Py_buffer bp = {0}, bg = {0}, bq = {0};
    int nperms, qtype, hsize;
    if (!k->omask) {
        PyErr_SetString(PyExc_RuntimeError, "kernel not initialised");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "y*y*iiy*i", &bp, &bg, &nperms, &qtype, &bq, &hsize))
        return NULL;
    PyObject *res = NULL;
    if (bp.len % 4 || nperms < 0 || bg.len != (Py_ssize_t)nperms * k->nopts * 4 || qtype < -1 ||
        qtype >= k->ntypes || (qtype >= 0 && bq.len != (Py_ssize_t)k->nopts * 4)) {
        PyErr_SetString(PyExc_ValueError, "malformed prefix or permutations");
        goto done;
    }
    free(k->perms);
    k->perms = NULL;
    k->nperms = 0;
    if (nperms) {
        k->perms = malloc((size_t)bg.len);
        if (!k->perms) {
            PyErr_NoMemory();
            goto done;
        }
        memcpy(k->perms, bg.buf, (size_t)bg.len);
        k->nperms = nperms;
    }
    /* the memo's entries hold for the same restriction only */
    if (k->mdirty && (qtype != k->qtype || (qtype >= 0 && memcmp(k->qw, bq.buf, (size_t)bq.len)))) {
        k->mepoch++; /* every entry stored so far is gone, without a pass over the table */
        k->mdirty = 0;
    }
    k->qtype = qtype;
    k->hsize = hsize;
    if (qtype >= 0)
        memcpy(k->qw, bq.buf, (size_t)bq.len);
    /* used only where no solution needs its stabiliser: a start testing symmetries and restricting no item
     * would only lose the look-ahead of the levels the memo takes */
    k->memo_active = k->memo_on && k->memo_ok && !k->tally_on && k->limit >= ((long long)1 << 62) &&
                     (!nperms || qtype >= 0);
    if (k->memo_active && !k->mtab && !memo_table(k)) {
        k->memo_active = 0;
        k->state = ST_DONE;
        PyErr_NoMemory();
        goto done;
    }
    k->memo_hits = k->memo_stores = 0;
    memset(k->mflag, 0, (size_t)k->depth + 1);
    k->nodes = k->solutions = k->fixed = k->weighted = 0;
    int feasible = place_prefix(k, bp.buf, (int32_t)(bp.len / 4));
    k->state = feasible ? ST_ENTER : ST_DONE;
    if (!feasible)
        clear_state(k);
    res = PyBool_FromLong(feasible);
done:
    PyBuffer_Release(&bp);
    PyBuffer_Release(&bg);
    PyBuffer_Release(&bq);
    return res;
}

static PyObject *Kernel_step(Kernel *k, PyObject *args)
{
    long long stop_nodes, batch, n_out = 0;
    Py_buffer bo = {0}, bl = {0}, bn = {0};
    int ret;
    if (!k->omask) {
        PyErr_SetString(PyExc_RuntimeError, "kernel not initialised");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "LLw*w*w*", &stop_nodes, &batch, &bo, &bl, &bn))
        return NULL;
    if (batch < 0 || bo.len < batch * k->depth * 4 || bl.len < batch * 4 || bn.len < batch * 8) {
        PyErr_SetString(PyExc_ValueError, "output buffers too small for the batch");
        ret = -2;
    } else if (batch > 0 && k->memo_active && k->memo_hits) {
        PyErr_SetString(PyExc_ValueError, "solutions asked for after the memo skipped some");
        ret = -2;
    } else if (k->state == ST_DONE) {
        ret = RET_DONE;
    } else {
        if (batch > 0)
            k->memo_active = 0; /* every solution is visited */
        Py_BEGIN_ALLOW_THREADS
        ret = run(k, stop_nodes, bo.buf, bl.buf, bn.buf, batch, &n_out);
        Py_END_ALLOW_THREADS
        if (ret == -1)
            PyErr_NoMemory();
    }
    PyBuffer_Release(&bo);
    PyBuffer_Release(&bl);
    PyBuffer_Release(&bn);
    if (ret < 0)
        return NULL;
    return Py_BuildValue("iL", ret, n_out);
}

static PyObject *Kernel_children(Kernel *k, PyObject *Py_UNUSED(ignored))
{
    if (!k->omask) {
        PyErr_SetString(PyExc_RuntimeError, "kernel not initialised");
        return NULL;
    }
    if (k->state != ST_ENTER || k->level != k->base)
        return Py_BuildValue("i[]", -2);
    const int W = k->W;
    const uint64_t *B = k->board + (int64_t)k->level * W;
    int c = choose_any(k, B);
    if (c < 0)
        return Py_BuildValue("i[]", -1);
    if (k->kcard >= 0 && card_dead(k, B, k->level, W))
        return Py_BuildValue("i[]", -2);
    int32_t *opts = malloc(sizeof(int32_t) * (size_t)(k->nopts > 0 ? k->nopts : 1));
    if (!opts)
        return PyErr_NoMemory();
    const int32_t n = fitting(k, B, c, opts, W);
    PyObject *list = PyList_New(n);
    for (int32_t j = 0; list && j < n; j++) {
        PyObject *o = PyLong_FromLong((long)opts[j]);
        if (!o) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, j, o);
    }
    free(opts);
    if (!list)
        return NULL;
    return Py_BuildValue("iN", c, list);
}

/* One of Knuth's random probes [Knuth 1975] down the kernel's own tree below the prefix: at each node the
 * cell of the rule, the options the search places there (each one a node, whether or not the dead-region
 * test then undoes it), and one of the options that survive that test drawn uniformly (rng: xorshift64*).
 * Adds to *nodes the sum over the path's levels of the product of the earlier levels' surviving options
 * times the level's options placed (Knuth's estimate of the nodes below the prefix), and to *sols that
 * product times the solution's weight when the path ends in a solution (of its solutions). The memo is
 * not modelled (it only takes nodes away). live: room for nopts option ids. The board, the copies left and
 * the levels above the prefix are as they were after it. */
static inline __attribute__((always_inline)) void probe_w(Kernel *k, uint64_t *rng, int32_t *live, double *nodes,
                                                          double *sols, const int W)
{
    const int32_t qtype = k->qtype, kcard = k->kcard;
    const int prune = k->nbr != NULL && k->cap > 0;
    int32_t level = k->base;
    double prod = 1.0, n_est = 0.0, s_est = 0.0;
    long long wq = 0;
    for (;;) {
        const uint64_t *B = k->board + (int64_t)level * W;
        uint64_t *NB = k->board + (int64_t)(level + 1) * W;
        const int c = choose(k, B, W);
        if (c < 0) {
            if (bounds_met(k, level))
                s_est = prod * (double)(wq ? wq : 1);
            break;
        }
        if (kcard >= 0 && card_dead(k, B, level, W))
            break;
        const int32_t n_all = fitting(k, B, c, live, W);
        int32_t n_live = 0;
        for (int32_t j = 0; j < n_all; j++) { /* the options the dead-region test keeps, in place */
            const int32_t o = live[j];
            if (prune) {
                const uint64_t *m = k->omask + (int64_t)o * W;
                for (int v = 0; v < W; v++)
                    NB[v] = B[v] | m[v];
                take(k, o);
                const int dead = dead_region(k, NB, k->obrd + (int64_t)o * W, k->cap, W);
                untake(k, o);
                if (dead)
                    continue;
            }
            live[n_live++] = o;
        }
        n_est += prod * n_all;
        if (!n_live)
            break;
        *rng ^= *rng >> 12;
        *rng ^= *rng << 25;
        *rng ^= *rng >> 27;
        const uint64_t r = (*rng * 0x2545F4914F6CDD1Dull) >> 32;
        const int32_t o = live[(int32_t)((r * (uint64_t)n_live) >> 32)];
        prod *= n_live;
        const uint64_t *m = k->omask + (int64_t)o * W;
        for (int v = 0; v < W; v++)
            NB[v] = B[v] | m[v];
        take(k, o);
        k->chosen[level] = o;
        if (qtype >= 0 && !wq && k->otype[o] == qtype)
            wq = k->qw[o];
        level++;
    }
    while (level > k->base) {
        level--;
        untake(k, k->chosen[level]);
    }
    *nodes = n_est;
    *sols = s_est;
}

/* Kernel.probe(n, seed) -> (sum, sum of squares of the node estimates, the same of the solution
 * estimates, the number of probes that ended in a solution) over n probes below the prefix of the last
 * start() (zeros when nothing lies below it). */
static PyObject *Kernel_probe(Kernel *k, PyObject *args)
{
    long long n;
    unsigned long long seed;
    if (!k->omask) {
        PyErr_SetString(PyExc_RuntimeError, "kernel not initialised");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "LK", &n, &seed))
        return NULL;
    double sn = 0, sn2 = 0, ss = 0, ss2 = 0;
    long long hits = 0;
    if (k->state == ST_ENTER && k->level == k->base && n > 0) {
        int32_t *live = malloc(sizeof(int32_t) * (size_t)(k->nopts > 0 ? k->nopts : 1));
        if (!live)
            return PyErr_NoMemory();
        uint64_t rng = seed * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull;
        if (!rng)
            rng = 1;
        for (long long i = 0; i < n; i++) {
            double a, b;
            if (k->W == 1)
                probe_w(k, &rng, live, &a, &b, 1);
            else if (k->W == 2)
                probe_w(k, &rng, live, &a, &b, 2);
            else
                probe_w(k, &rng, live, &a, &b, 4);
            sn += a, sn2 += a * a, ss += b, ss2 += b * b;
            hits += b > 0;
        }
        free(live);
    }
    return Py_BuildValue("ddddL", sn, sn2, ss, ss2, hits);
}

static PyTypeObject KernelType;

/* Kernel.clone(): a kernel of the same instance and settings, sharing this one's read-only tables (no
 * second build: a search split over threads gives each thread its own clone), with a state of its own
 * and an empty memo; it searches nothing until start(). */
static PyObject *Kernel_clone(Kernel *k, PyObject *Py_UNUSED(ignored))
{
    if (!k->omask) {
        PyErr_SetString(PyExc_RuntimeError, "kernel not initialised");
        return NULL;
    }
    Kernel *c = (Kernel *)KernelType.tp_alloc(&KernelType, 0);
    if (!c)
        return NULL;
    memcpy((char *)c + sizeof(PyObject), (char *)k + sizeof(PyObject), sizeof(Kernel) - sizeof(PyObject));
    /* nothing of the search state is shared: those pointers are the clone's own from here on */
    c->board = NULL, c->left = NULL, c->chosen = NULL, c->lslot = NULL, c->lpos = NULL, c->lhi = NULL;
    c->ltype = NULL, c->qw = NULL, c->lrem = NULL, c->in_sol = NULL, c->perms = NULL, c->tkeys = NULL;
    c->tvals = NULL, c->mtab = NULL, c->mraw = NULL, c->msol = NULL, c->mwt = NULL, c->mnod = NULL, c->mflag = NULL, c->pw = NULL;
    c->fce = NULL;
    c->parent = k->parent ? k->parent : (PyObject *)k;
    Py_INCREF(c->parent);
    if (!alloc_state(c) || !alloc_filter(c))
        goto nomem;
    c->mepoch = 1; /* its table made by its first start that uses the memo (memo_table) */
    c->mdirty = 0;
    c->memo_active = 0;
    c->nperms = 0;
    c->tcap = c->tlen = 0;
    c->qtype = -1;
    c->nodes = c->solutions = c->fixed = c->weighted = 0;
    c->memo_hits = c->memo_stores = 0;
    c->state = ST_DONE;
    clear_state(c);
    return (PyObject *)c;
nomem:
    Py_DECREF(c);
    return PyErr_NoMemory();
}

static PyObject *Kernel_set_limit(Kernel *k, PyObject *args)
{
    long long n;
    if (!PyArg_ParseTuple(args, "L", &n))
        return NULL;
    k->limit = n < 1 ? ((long long)1 << 62) : n;
    Py_RETURN_NONE;
}

static PyObject *Kernel_set_memo(Kernel *k, PyObject *args)
{
    int lo, hi, bits;
    if (!PyArg_ParseTuple(args, "iii", &lo, &hi, &bits))
        return NULL;
    if (bits < 0 || bits > 28) {
        PyErr_SetString(PyExc_ValueError, "memo table of 2^0 .. 2^28 entries");
        return NULL;
    }
    free(k->mraw);
    k->mtab = NULL, k->mraw = NULL;
    k->memo_on = 0;
    if (bits > 0 && lo <= hi) {
        k->mstride = k->W + 3 <= 4 ? 4 : 8; /* the table: made by the first start that uses it (memo_table) */
        k->mepoch = 1;
        k->memo_bits = bits;
        k->memo_lo = lo;
        k->memo_hi = hi;
        k->memo_on = 1;
    }
    k->memo_active = 0;
    k->mdirty = 0;
    Py_RETURN_NONE;
}

static PyObject *Kernel_set_fast(Kernel *k, PyObject *args)
{
    int lo;
    if (!PyArg_ParseTuple(args, "i", &lo))
        return NULL;
    k->fast_lo = lo < 0 ? -1 : lo;
    Py_RETURN_NONE;
}

static PyObject *Kernel_set_tally(Kernel *k, PyObject *args)
{
    int on;
    if (!PyArg_ParseTuple(args, "p", &on))
        return NULL;
    free(k->tkeys);
    free(k->tvals);
    k->tkeys = NULL;
    k->tvals = NULL;
    k->tcap = k->tlen = 0;
    k->tally_on = on;
    Py_RETURN_NONE;
}

static PyObject *Kernel_tally(Kernel *k, PyObject *Py_UNUSED(ignored))
{
    PyObject *dict = PyDict_New();
    if (!dict)
        return NULL;
    for (int64_t s = 0; s < k->tcap; s++)
        if (k->tkeys[s]) {
            PyObject *mask = PyLong_FromUnsignedLongLong((unsigned long long)(k->tkeys[s] - 1));
            PyObject *n = mask ? PyLong_FromLongLong(k->tvals[s]) : NULL;
            const int failed = !n || PyDict_SetItem(dict, mask, n) < 0;
            Py_XDECREF(mask);
            Py_XDECREF(n);
            if (failed) {
                Py_DECREF(dict);
                return NULL;
            }
        }
    return dict;
}

/* The variant of the search run by this kernel: at most ``level`` (0: plain C, 1: with POPCNT, 2: with POPCNT, BMI1
 * and BMI2), as far as the processor has them (the choice of Kernel_init: the most it has); the one set. The same
 * nodes in the same order whichever runs (the tests run each). */
static PyObject *Kernel_set_instructions(Kernel *k, PyObject *args)
{
    int level;
    if (!PyArg_ParseTuple(args, "i", &level))
        return NULL;
    const int most = cpu_level();
    k->hwpop = level < 0 ? 0 : level < most ? level : most;
    return PyLong_FromLong(k->hwpop);
}

static PyMethodDef Kernel_methods[] = {
    {"start", (PyCFunction)Kernel_start, METH_VARARGS, "start(prefix, perms, nperms, qtype, qweights, hsize) -> bool"},
    {"step", (PyCFunction)Kernel_step, METH_VARARGS, "step(stop_nodes, batch, out, out_len, out_nodes) -> (code, n)"},
    {"children", (PyCFunction)Kernel_children, METH_NOARGS, "children() -> (bit, [options])"},
    {"probe", (PyCFunction)Kernel_probe, METH_VARARGS, "probe(n, seed) -> sums of n random probes' node and solution estimates and of their squares"},
    {"set_limit", (PyCFunction)Kernel_set_limit, METH_VARARGS, "set_limit(n): stop after n solutions"},
    {"set_memo", (PyCFunction)Kernel_set_memo, METH_VARARGS, "set_memo(lo, hi, bits): the memo at levels lo..hi (bits 0: none)"},
    {"set_fast", (PyCFunction)Kernel_set_fast, METH_VARARGS, "set_fast(level): whole subtrees by recursion from that level on (-1: none)"},
    {"set_tally", (PyCFunction)Kernel_set_tally, METH_VARARGS, "set_tally(on): count solutions per used-type mask"},
    {"tally", (PyCFunction)Kernel_tally, METH_NOARGS, "tally() -> {mask: solutions}"},
    {"clone", (PyCFunction)Kernel_clone, METH_NOARGS, "clone() -> a kernel sharing this one's tables, with a state of its own"},
    {"set_instructions", (PyCFunction)Kernel_set_instructions, METH_VARARGS,
     "set_instructions(level) -> the level set: the search's variant, at most level (0 plain C, 1 POPCNT, 2 POPCNT, BMI1 and BMI2) as far as the processor has them"},
    {NULL, NULL, 0, NULL}};

static PyMemberDef Kernel_members[] = {
    {"nodes", T_LONGLONG, offsetof(Kernel, nodes), READONLY, "options placed since start()"},
    {"solutions", T_LONGLONG, offsetof(Kernel, solutions), READONLY, "solutions since start()"},
    {"fixed", T_LONGLONG, offsetof(Kernel, fixed), READONLY, "sum of weight x stabiliser order over the solutions"},
    {"weighted", T_LONGLONG, offsetof(Kernel, weighted), READONLY, "sum of the solutions' weights"},
    {"depth", T_INT, offsetof(Kernel, depth), READONLY, "length of an output row"},
    {"memo_hits", T_LONGLONG, offsetof(Kernel, memo_hits), READONLY, "nodes the memo answered since start()"},
    {"memo_stores", T_LONGLONG, offsetof(Kernel, memo_stores), READONLY, "nodes stored in the memo since start()"},
    {"dropped", T_INT, offsetof(Kernel, dropped), READONLY, "options the dead-region test removed at the start"},
    {"probes", T_INT, offsetof(Kernel, list.K), READONLY, "probe bits per list (FIRST)"},
    {NULL, 0, 0, 0, NULL}};

static PyTypeObject KernelType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ubongo_cp.solvers._bits.Kernel",
    .tp_basicsize = sizeof(Kernel),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Resumable bitboard exact-cover search of at most 256 bit items.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Kernel_init,
    .tp_dealloc = (destructor)Kernel_dealloc,
    .tp_methods = Kernel_methods,
    .tp_members = Kernel_members,
};

/* bit_tuples(tally) -> dict: a tally's keys (masks of piece types, integers in [0, 2**64)) as the tuples of
 * their set bits, lowest first; its values as they are. A subset analysis reads thousands of masks. */
typedef struct {
    uint64_t mask;
    PyObject *value; /* borrowed from the tally */
} MaskCount;

/* The order of the tuples of the set bits of two masks (lexicographic): at the lowest bit where they differ, the
 * mask holding it is the smaller, unless the other has no bit above it (its tuple ends there: a prefix). */
static int tuple_order(const void *pa, const void *pb)
{
    const uint64_t a = ((const MaskCount *)pa)->mask, b = ((const MaskCount *)pb)->mask, x = a ^ b;
    if (!x)
        return 0;
    const int t = __builtin_ctzll(x);
    if (a >> t & 1)
        return b >> t ? -1 : 1;
    return a >> t ? 1 : -1;
}

/* The bits of x in reverse order (bit t to bit 63 - t). */
static uint64_t reverse64(uint64_t x)
{
    x = (x >> 1 & 0x5555555555555555ull) | (x & 0x5555555555555555ull) << 1;
    x = (x >> 2 & 0x3333333333333333ull) | (x & 0x3333333333333333ull) << 2;
    x = (x >> 4 & 0x0F0F0F0F0F0F0F0Full) | (x & 0x0F0F0F0F0F0F0F0Full) << 4;
    x = (x >> 8 & 0x00FF00FF00FF00FFull) | (x & 0x00FF00FF00FF00FFull) << 8;
    x = (x >> 16 & 0x0000FFFF0000FFFFull) | (x & 0x0000FFFF0000FFFFull) << 16;
    return x >> 32 | x << 32;
}

/* The entries in tuple_order when every mask has as many bits (no tuple is a prefix of another): the mask holding
 * the lowest bit where two differ comes first, so the order is that of the reversed masks, largest first; by a
 * radix sort of their complements, a byte a pass (passes where every key has the same byte skipped). 0 when memory
 * runs out (the entries then unchanged). */
static int sort_equal_sizes(MaskCount *entries, Py_ssize_t n)
{
    uint64_t *key = malloc((size_t)n * 2 * sizeof(uint64_t));
    MaskCount *tmp = malloc((size_t)n * sizeof(MaskCount));
    if (!key || !tmp) {
        free(key);
        free(tmp);
        return 0;
    }
    uint64_t *key2 = key + n;
    MaskCount *src = entries, *dst = tmp;
    for (Py_ssize_t j = 0; j < n; j++)
        key[j] = ~reverse64(entries[j].mask);
    for (int shift = 0; shift < 64; shift += 8) {
        Py_ssize_t count[257] = {0};
        for (Py_ssize_t j = 0; j < n; j++)
            count[(key[j] >> shift & 255) + 1]++;
        if (count[(key[0] >> shift & 255) + 1] == n)
            continue;
        for (int b = 0; b < 256; b++)
            count[b + 1] += count[b];
        for (Py_ssize_t j = 0; j < n; j++) {
            const Py_ssize_t at = count[key[j] >> shift & 255]++;
            dst[at] = src[j];
            key2[at] = key[j];
        }
        MaskCount *m = src;
        src = dst, dst = m;
        uint64_t *k = key;
        key = key2, key2 = k;
    }
    if (src != entries)
        memcpy(entries, src, (size_t)n * sizeof(MaskCount));
    free(key < key2 ? key : key2);
    free(tmp);
    return 1;
}

static PyObject *bit_tuples(PyObject *self, PyObject *tally)
{
    if (!PyDict_Check(tally)) {
        PyErr_SetString(PyExc_TypeError, "bit_tuples: a dict of masks to counts is expected");
        return NULL;
    }
    const Py_ssize_t n = PyDict_GET_SIZE(tally);
    MaskCount *entries = PyMem_Malloc((size_t)(n + 1) * sizeof(MaskCount));
    PyObject *out = PyDict_New(), *key, *value;
    Py_ssize_t pos = 0, i = 0;
    if (!out || !entries) {
        Py_XDECREF(out);
        PyMem_Free(entries);
        return PyErr_NoMemory();
    }
    while (PyDict_Next(tally, &pos, &key, &value) && i < n) {
        unsigned long long m = PyLong_AsUnsignedLongLong(key);
        if (m == (unsigned long long)-1 && PyErr_Occurred())
            goto fail;
        entries[i].mask = m, entries[i].value = value, i++;
    }
    int equal = 1; /* every mask as many bits: a radix sort (a subset analysis of K pieces) */
    for (Py_ssize_t j = 1; j < i && equal; j++)
        equal = popcount64(entries[j].mask) == popcount64(entries[0].mask);
    if (!equal || i < 2 || !sort_equal_sizes(entries, i))
        qsort(entries, (size_t)i, sizeof(MaskCount), tuple_order);
    for (Py_ssize_t j = 0; j < i; j++) {
        unsigned long long m = entries[j].mask;
        value = entries[j].value;
        PyObject *bits = PyTuple_New(__builtin_popcountll(m));
        if (!bits)
            goto fail;
        for (Py_ssize_t i = 0; m; i++, m &= m - 1) {
            PyObject *b = PyLong_FromLong(__builtin_ctzll(m));
            if (!b) {
                Py_DECREF(bits);
                goto fail;
            }
            PyTuple_SET_ITEM(bits, i, b);
        }
        int failed = PyDict_SetItem(out, bits, value) < 0;
        Py_DECREF(bits);
        if (failed)
            goto fail;
    }
    PyMem_Free(entries);
    return out;
fail:
    PyMem_Free(entries);
    Py_DECREF(out);
    return NULL;
}

/* neighbour_masks(coords, dim, order, words) -> bytes: for each bit b (the cell order[b]), the mask of the bits of
 * the cells one step along one axis from it, in ``words`` 64-bit words (the lowest first, in the machine's byte
 * order, as Kernel takes its neighbour masks). ``coords``: the cells' int64 coordinates, ``dim`` per cell;
 * ``order``: int32, a permutation of the cells. Every pair of cells compared: a region has at most 64 x words. */
static PyObject *neighbour_masks(PyObject *self, PyObject *args)
{
    Py_buffer bc = {0}, bo = {0};
    int dim, W;
    if (!PyArg_ParseTuple(args, "y*iy*i", &bc, &dim, &bo, &W))
        return NULL;
    PyObject *out = NULL;
    int32_t *bit = NULL;
    const Py_ssize_t n = bo.len / 4;
    if (dim < 1 || bo.len % 4 || bc.len != n * dim * 8 || !(W == 1 || W == 2 || W == 4) || n > 64 * W) {
        PyErr_SetString(PyExc_ValueError, "malformed neighbour_masks arguments");
        goto done;
    }
    const int64_t *xy = bc.buf;
    const int32_t *order = bo.buf;
    bit = malloc(((size_t)n + 1) * sizeof(int32_t));
    if (!bit) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++)
        bit[i] = -1;
    for (Py_ssize_t b = 0; b < n; b++) {
        if (order[b] < 0 || order[b] >= n || bit[order[b]] >= 0) {
            PyErr_SetString(PyExc_ValueError, "order must be a permutation of the cells");
            goto done;
        }
        bit[order[b]] = (int32_t)b;
    }
    out = PyBytes_FromStringAndSize(NULL, n * W * 8);
    if (!out)
        goto done;
    uint64_t *m = (uint64_t *)PyBytes_AS_STRING(out);
    memset(m, 0, (size_t)n * W * 8);
    for (Py_ssize_t i = 0; i < n; i++)
        for (Py_ssize_t j = 0; j < i; j++) {
            const int64_t *a = xy + i * dim, *c = xy + j * dim;
            int apart = 0, step = 0;
            for (int d = 0; d < dim && apart < 2; d++)
                if (a[d] != c[d])
                    apart++, step = a[d] - c[d] == 1 || c[d] - a[d] == 1;
            if (apart == 1 && step) {
                const int32_t p = bit[i], q = bit[j];
                m[(int64_t)p * W + q / 64] |= 1ull << (q % 64);
                m[(int64_t)q * W + p / 64] |= 1ull << (p % 64);
            }
        }
done:
    free(bit);
    PyBuffer_Release(&bc);
    PyBuffer_Release(&bo);
    return out;
}

/* labelled_rows(keys, counts, labels) -> [(tuple of labels, count)]: for each key of the list ``keys`` (a tuple of
 * positions in ``labels``, 0 .. len - 1), the tuple of the labels at those positions and the key's value in the dict
 * ``counts``, in the order of ``keys``. A subset analysis names thousands of subsets. */
static PyObject *labelled_rows(PyObject *self, PyObject *args)
{
    PyObject *keys, *counts, *labels;
    if (!PyArg_ParseTuple(args, "O!O!O:labelled_rows", &PyList_Type, &keys, &PyDict_Type, &counts, &labels))
        return NULL;
    PyObject *seq = PySequence_Fast(labels, "labelled_rows: the labels must be a sequence");
    if (!seq)
        return NULL;
    const Py_ssize_t n = PyList_GET_SIZE(keys), nl = PySequence_Fast_GET_SIZE(seq);
    PyObject **lab = PySequence_Fast_ITEMS(seq);
    PyObject *out = PyList_New(n);
    if (!out)
        goto fail;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *key = PyList_GET_ITEM(keys, i);
        if (!PyTuple_Check(key)) {
            PyErr_SetString(PyExc_TypeError, "labelled_rows: the keys must be tuples of positions");
            goto fail;
        }
        PyObject *count = PyDict_GetItemWithError(counts, key); /* borrowed */
        if (!count) {
            if (!PyErr_Occurred())
                PyErr_SetObject(PyExc_KeyError, key);
            goto fail;
        }
        const Py_ssize_t m = PyTuple_GET_SIZE(key);
        PyObject *names = PyTuple_New(m);
        if (!names)
            goto fail;
        for (Py_ssize_t j = 0; j < m; j++) {
            const Py_ssize_t at = PyLong_AsSsize_t(PyTuple_GET_ITEM(key, j));
            if (at < 0 || at >= nl) {
                if (!PyErr_Occurred())
                    PyErr_SetString(PyExc_IndexError, "labelled_rows: a position outside the labels");
                Py_DECREF(names);
                goto fail;
            }
            Py_INCREF(lab[at]);
            PyTuple_SET_ITEM(names, j, lab[at]);
        }
        PyObject *row = PyTuple_Pack(2, names, count);
        Py_DECREF(names);
        if (!row)
            goto fail;
        PyList_SET_ITEM(out, i, row);
    }
    Py_DECREF(seq);
    return out;
fail:
    Py_XDECREF(out);
    Py_DECREF(seq);
    return NULL;
}

static PyMethodDef bits_functions[] = {
    {"bit_tuples", bit_tuples, METH_O,
     "bit_tuples(tally) -> the same dict keyed by the tuples of each mask's set bits, in the tuples' order"},
    {"neighbour_masks", neighbour_masks, METH_VARARGS,
     "neighbour_masks(coords, dim, order, words) -> each bit's mask of the cells one step along one axis"},
    {"labelled_rows", labelled_rows, METH_VARARGS,
     "labelled_rows(keys, counts, labels) -> [(the labels at each key's positions, counts[key])], in the keys' order"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef bits_module = {
    PyModuleDef_HEAD_INIT, "_bits", "C kernel of ubongo_cp.solvers.bitboard (bitboard exact cover).", -1,
    bits_functions};

PyMODINIT_FUNC PyInit__bits(void)
{
    if (PyType_Ready(&KernelType) < 0)
        return NULL;
    PyObject *mod = PyModule_Create(&bits_module);
    if (!mod)
        return NULL;
    Py_INCREF(&KernelType);
    if (PyModule_AddObject(mod, "Kernel", (PyObject *)&KernelType) < 0) {
        Py_DECREF(&KernelType);
        Py_DECREF(mod);
        return NULL;
    }
    return mod;
}
