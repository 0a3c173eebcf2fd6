/* fast1 of _bits.c: the whole subtree below a level by a plain recursion, for a board of one or two
 * 64-bit words held as one integer. Included by _bits.c once per board type, with:
 *
 *   BB        the board's type (uint64_t, or unsigned __int128 for two words)
 *   BW        its words (1 or 2)
 *   FN(name)  the name of this instance's function ``name`` (a suffix per board type)
 *   BB_CTZ(x) the lowest set bit of a nonzero BB
 *   BB_GOAL(f), BB_GM(f, j)  the goal and the grid's masks (Fast) as BB
 *
 * and undefines them at its end.
 *
 * The search is run_w's (same order, same nodes, the same memo) where it can be simpler: rule FIRST,
 * every counter item at most 1 or with its copies all to be placed (the items with a copy left are
 * ``avail``; k->left is kept only with copies; k->avail is set only for the dead-region test), only
 * counting (no batch, no limit, no tally, no cardinality). wq: the
 * weight of the restricted item's option placed below the prefix (0: none yet). The node budget is not
 * checked: run_w calls it only from the level set by set_fast on, where few pieces are left. */

/* A board of BW words at p (word w holds bits 64 w ..), as one BB, and back. */
static inline __attribute__((always_inline)) BB FN(load)(const uint64_t *p)
{
    BB x = 0;
    for (int w = BW - 1; w >= 0; w--)
        x = (BB)(x << 32 << 32) | (BB)p[w];
    return x;
}

static inline __attribute__((always_inline)) void FN(store)(uint64_t *p, BB x)
{
    for (int w = 0; w < BW; w++, x = x >> 32 >> 32)
        p[w] = (uint64_t)x;
}

typedef void (*FN(Fn))(const Fast *, int32_t, BB, uint64_t, int32_t, int32_t);

/* The dead-region test in the other cases (fast->dead 3): as run_w's. */
static __attribute__((noinline)) int FN(dead)(const Fast *f, BB NB, int32_t o, uint64_t na)
{
    Kernel *k = f->k;
    uint64_t B[BW];
    FN(store)(B, NB);
    k->avail = na;
    return dead_region(k, B, k->obrd + (int64_t)o * BW, k->cap, BW);
}

/* The slot of the first empty goal bit of board B at level L (board[L] is B), -1 when there is none. */
static inline __attribute__((always_inline)) int32_t FN(slot)(const Fast *restrict f, BB B, int32_t L)
{
    const BB E = BB_GOAL(f) & ~B;
    if (!E)
        return -1;
    const int c = BB_CTZ(E);
    if (f->next) /* the probes are the K bits after c */
        return (c << f->K) | (int32_t)((B >> c >> 1) & f->np1);
    return slot_of(&f->k->list, c, f->board + (int64_t)L * BW);
}

/* The node at level L where two pieces are left (f->lvl2; no copies, the restricted item placed): the same
 * nodes and solutions as FN(body), without its passes. Each placement at the first empty bit that fits is a
 * node; below it the last piece can only be the rest of the region, a node (and a solution) exactly when the
 * rest is an option of the other piece (connected, so no cell of it is walled in, and in the list of its
 * first bit): then the level below is searched as FN(body) would. */
static inline __attribute__((always_inline)) void FN(last2)(const Fast *restrict f, int32_t L, BB B, uint64_t avail,
                                                            int32_t wq, int32_t sl, FN(Fn) rec_plain)
{
    const BB E = BB_GOAL(f) & ~B;
    const BB *mw = (const BB *)f->mw;
    const uint64_t bm = f->bmask[sl];
    long long fits = 0;
    for (uint64_t rem = bm & avail; rem; rem &= rem - 1) {
        const int t = ctz64(rem);
        const int32_t i = f->bstart[sl] + popcount64(bm & ((1ull << t) - 1));
        const int32_t end = f->boff[i + 1];
        const uint64_t other = avail & ~(1ull << t);
        for (int32_t e = f->boff[i]; e < end; e++) {
            const BB m = mw[e];
            const int fit = !(m & B);
            fits += fit;
            if (__builtin_expect(fit & ((last_items(f, (uint64_t)(E & ~m)) & other) != 0), 0)) {
                const BB NB = B | m;
                f->chosen[L] = f->id1[e];
                FN(store)(f->board + (int64_t)(L + 1) * BW, NB);
                rec_plain(f, L + 1, NB, other, wq, FN(slot)(f, NB, L + 1));
            }
        }
    }
    f->k->nodes += fits;
}

/* The placements at slot sl of board B that fit (no bit covered, of the restricted item its options of positive
 * weight only), in list order, into ce; returns their number. No copies: every item of avail has all its options. */
static inline __attribute__((always_inline)) int32_t FN(fits)(const Fast *restrict f, BB B, uint64_t avail, int32_t sl,
                                                              int32_t *restrict ce)
{
    const int32_t qtype = f->qtype;
    const uint64_t bm = f->bmask[sl];
    const BB *mw = (const BB *)f->mw;
    const int32_t *boff = f->boff, *bstart = f->bstart + sl, *id1 = f->id1, *qw = f->qw;
    int32_t n = 0;
    for (uint64_t rem = bm & avail; rem; rem &= rem - 1) {
        const int t = ctz64(rem);
        const int32_t i = *bstart + popcount64(bm & ((1ull << t) - 1));
        const int32_t end = boff[i + 1];
        if (t == qtype) /* only its options of positive weight */
            for (int32_t e = boff[i]; e < end; e++) {
                ce[n] = e;
                n += !(mw[e] & B) & (qw[id1[e]] > 0);
            }
        else /* four entries a turn (most blocks hold one to four): fewer loop exits to predict; the
              * entries read past the block's end are within the list (room for three more) */
            for (int32_t e = boff[i]; e < end; e += 4) {
                ce[n] = e;
                n += !(mw[e] & B);
                ce[n] = e + 1;
                n += (e + 1 < end) & !(mw[e + 1] & B);
                ce[n] = e + 2;
                n += (e + 2 < end) & !(mw[e + 2] & B);
                ce[n] = e + 3;
                n += (e + 3 < end) & !(mw[e + 3] & B);
            }
    }
    return n;
}

/* FN(body)'s solution (sl < 0) and its memo look-up on entering a memo level: 1 when the node is answered; else
 * *ms is the memo's entry to store into when the node is done (NULL: none) and s0, w0 the counts before it. */
static inline __attribute__((always_inline)) int FN(enter)(const Fast *restrict f, int32_t L, BB B, uint64_t avail,
                                                           int32_t wq, int32_t sl, const int memo, uint64_t **msp,
                                                           uint64_t *Bw, long long *s0, long long *w0, long long *n0)
{
    Kernel *k = f->k;
    if (sl < 0) {
        if (avail & f->lo_mask)
            return 1;
        long long w = wq ? wq : 1;
        k->solutions++;
        k->weighted += w;
        k->fixed += w * ((f->qtype >= 0 && w == f->hsize) || !f->nperms ? 1 : stabiliser(k, L));
        return 1;
    }
    const int32_t qtype = f->qtype;
    *msp = NULL;
    if (memo && (!f->nperms || (qtype >= 0 && wq == f->hsize))) { /* memo: L is a memo level */
        FN(store)(Bw, B);
        uint64_t *ms = memo_slot(k, Bw, avail, BW);
        const uint64_t *hit = memo_find(k, ms, Bw, avail, BW);
        if (hit) {
            long long m = qtype >= 0 && wq ? wq : 1;
            k->solutions += (long long)(hit[BW + 1] & 0xFFFFFFFFu);
            k->weighted += m * (long long)(hit[BW + 1] >> 32);
            k->fixed += m * (long long)(hit[BW + 1] >> 32);
            k->memo_hits++;
            return 1;
        }
        *msp = ms;
        *s0 = k->solutions;
        *w0 = k->weighted;
        *n0 = k->nodes;
    }
    return 0;
}

/* FN(body)'s memo store when the node at a memo level is done (ms from FN(enter)). */
static inline __attribute__((always_inline)) void FN(leave)(const Fast *restrict f, uint64_t avail, uint64_t *ms,
                                                            const uint64_t *Bw, long long s0, long long w0,
                                                            long long n0)
{
    Kernel *k = f->k;
    long long got = k->solutions - s0;
    long long v = f->qtype >= 0 && (avail >> f->qtype & 1) ? k->weighted - w0 : got;
    if (got <= 0xFFFFFFFFll && v <= 0xFFFFFFFFll)
        memo_put(k, ms, Bw, avail, (uint64_t)got | (uint64_t)v << 32, k->nodes - n0, BW);
}

/* Whether level L is one of the memo's. */
static inline __attribute__((always_inline)) int FN(memo_level)(const Fast *f, int32_t L)
{
    return L >= f->memo_lo && L <= f->memo_hi;
}

/* FN(hot)'s second pass: of the n entries in ce (placements that fit on board B), those whose placement walls in
 * no empty bit (the empty bits next to an empty bit, N, by the grid's NG shifts, 2 or 4) and leaves (plain: the child
 * below the memo's levels) options at the child's slot, kept in ce in order, their child's slot in cs (-1: a
 * solution). Returns their number. */
static inline __attribute__((always_inline)) int32_t FN(alive)(const Fast *restrict f, BB B, uint64_t avail, int32_t n,
                                                               int32_t *restrict ce, int32_t *restrict cs,
                                                               const int plain, const int NG)
{
    const uint64_t *bmask = f->bmask;
    const BB *mw = (const BB *)f->mw, *bw = (const BB *)f->bw;
    const int8_t *ty = f->ty;
    const int K = f->K;
    const uint64_t np1 = f->np1;
    const uint64_t typed = ~(1ull << f->NT); /* an option's item bit, cleared from avail by it: none for NT */
    const BB goal = BB_GOAL(f);
    const BB g0 = BB_GM(f, 0), g1 = BB_GM(f, 1), g2 = BB_GM(f, 2), g3 = BB_GM(f, 3);
    const int d0 = f->gd[0], d1 = f->gd[1], d2 = f->gd[2], d3 = f->gd[3];
    int32_t w = 0;
    for (int32_t j = 0; j < n; j++) {
        const int32_t e = ce[j];
        const BB NB = B | mw[e];
        const BB E2 = goal & ~NB;
        BB N = ((E2 & g0) << d0) | ((E2 >> d0) & g0) | ((E2 & g1) << d1) | ((E2 >> d1) & g1);
        if (NG > 2)
            N |= ((E2 & g2) << d2) | ((E2 >> d2) & g2) | ((E2 & g3) << d3) | ((E2 >> d3) & g3);
        int ok = !(bw[e] & E2 & ~N);
        const int c2 = E2 ? BB_CTZ(E2) : 0;
        const int32_t s2 = (c2 << K) | (int32_t)(NB >> c2 >> 1 & np1);
        const uint64_t na = avail & ~((1ull << ty[e]) & typed);
        ok &= !plain | !E2 | ((bmask[s2] & na) != 0);
        ce[w] = e;
        cs[w] = E2 ? s2 : -1;
        w += ok;
    }
    return w;
}

/* FN(body)'s node where f->hot (the dead-region test by the grid's two shifts, no copies, the lists split by
 * probes), once FN(enter) has not answered it: the same nodes in the same order, with what the general body decides
 * per entry decided once, each child's slot worked out once (in the second pass, kept in f->cs) and no board stored
 * (nothing reads it here). */
static inline __attribute__((always_inline)) void FN(hot)(const Fast *restrict f, int32_t L, BB B, uint64_t avail,
                                                          int32_t wq, int32_t sl, const int kind, FN(Fn) kid1,
                                                          FN(Fn) kid2)
{
    const int32_t qtype = f->qtype;
    const BB *mw = (const BB *)f->mw;
    const int32_t *id1 = f->id1, *qw = f->qw;
    const int8_t *ty = f->ty;
    const uint64_t typed = ~(1ull << f->NT);
    int32_t *ce = f->ce + (int64_t)L * f->maxlen, *cs = f->cs + (int64_t)L * f->maxlen;
    int32_t *chosen = f->chosen;
    const int plain = kind != HOT_MEMO;
    /* first the placements that fit */
    int32_t n = FN(fits)(f, B, avail, sl, ce);
    f->k->nodes += n;
    /* then the dead-region test and the child's slot */
    const int32_t w = f->ngrid > 2 ? FN(alive)(f, B, avail, n, ce, cs, plain, 4)
                                    : FN(alive)(f, B, avail, n, ce, cs, plain, 2);
    for (int32_t j = 0; j < w; j++) {
        const int32_t e = ce[j], s2 = cs[j];
        const int t = ty[e];
        const BB NB = B | mw[e];
        const int32_t o = id1[e];
        const uint64_t na = avail & ~((1ull << t) & typed);
        const int32_t nw = t == qtype && !wq ? qw[o] : wq;
        chosen[L] = o;
        if (kind == HOT_LAST2 && s2 >= 0 && (qtype < 0 || !(na >> qtype & 1)))
            FN(last2)(f, L + 1, NB, na, nw, s2, kid2);
        else
            kid1(f, L + 1, NB, na, nw, s2);
    }
}

/* sl: FN(slot)(f, B, L), worked out by the caller; hot: f->hot (FN(hot) searches the node, its children's kind
 * hot - 1: HOT_MEMO, HOT_PLAIN, HOT_LAST2; rec_memo then the function of the children's level, rec_plain of the
 * level below). */
static inline __attribute__((always_inline)) void FN(body)(const Fast *restrict f, int32_t L, BB B, uint64_t avail,
                                                           int32_t wq, int32_t sl, const int memo, const int hot,
                                                           FN(Fn) rec_memo, FN(Fn) rec_plain)
{
    uint64_t *ms, Bw[BW];
    long long s0 = 0, w0 = 0, n0 = 0;
    if (FN(enter)(f, L, B, avail, wq, sl, memo, &ms, Bw, &s0, &w0, &n0))
        return;
    if (hot) {
        FN(hot)(f, L, B, avail, wq, sl, hot - 1, rec_memo, rec_plain);
        if (memo && ms)
            FN(leave)(f, avail, ms, Bw, s0, w0, n0);
        return;
    }
    Kernel *k = f->k;
    const int32_t qtype = f->qtype;
    const uint64_t bm = f->bmask[sl];
    const int NT = f->NT;
    const BB *mw = (const BB *)f->mw, *bw = (const BB *)f->bw;
    const int32_t *boff = f->boff;
    /* first the placements that fit, into this level's buffers, without a branch per entry (whether a
     * placement fits follows no pattern a processor can predict); then the children.
     * The node count includes the placements the dead-region test undoes */
    int32_t *ce = f->ce + (int64_t)L * f->maxlen;
    const int8_t *ty = f->ty;
    int32_t n = 0;
    long long fits = 0;
    const BB goal = BB_GOAL(f);
    /* a child below the memo's levels is searched only when it has options at its bit (or is a solution) */
    const int viab = f->next && (L + 1 > f->memo_hi || L + 1 < f->memo_lo);
    if (f->dead == 2 && !f->copies) {
        /* two passes: the placements that fit (about half of the lists), then the dead-region test and the
         * child's own placements on those only, in one loop for the node (with copies, where more of the
         * lists fit, one pass below: two tetromino sets in 8x5 took 10 % more instructions in two) */
        n = FN(fits)(f, B, avail, sl, ce);
        fits = n;
        const BB g0 = BB_GM(f, 0), g1 = BB_GM(f, 1);
        const int d0 = f->gd[0], d1 = f->gd[1];
        int32_t w = 0;
        for (int32_t j = 0; j < n; j++) {
            const int32_t e = ce[j];
            const BB m = mw[e];
            const BB E2 = goal & ~(B | m);
            const BB N = ((E2 & g0) << d0) | ((E2 >> d0) & g0) | ((E2 & g1) << d1) | ((E2 >> d1) & g1);
            ce[w] = e;
            int ok = !(bw[e] & E2 & ~N);
            if (viab) {
                const int c2 = E2 ? BB_CTZ(E2) : 0;
                const int32_t s2 = (c2 << f->K) | (int32_t)((B | m) >> c2 >> 1 & f->np1);
                const int t = ty[e]; /* no copies here: t is used up */
                ok &= !E2 | ((f->bmask[s2] & (t == NT ? avail : avail & ~(1ull << t))) != 0);
            }
            w += ok;
        }
        n = w;
    } else if (f->dead == 2)
        for (uint64_t rem = bm & avail; rem; rem &= rem - 1) {
            const int t = ctz64(rem);
            const int32_t i = f->bstart[sl] + popcount64(bm & ((1ull << t) - 1));
            const int32_t end = boff[i + 1];
            const int restricted = t == qtype; /* only its options of positive weight */
            /* the items left after an option of t: t's bit cleared with its last copy */
            const uint64_t na = t == NT || (f->copies && f->left[t] > 1) ? avail : avail & ~(1ull << t);
            const BB g0 = BB_GM(f, 0), g1 = BB_GM(f, 1);
            const int d0 = f->gd[0], d1 = f->gd[1];
            for (int32_t e = boff[i]; e < end; e++) {
                const BB m = mw[e];
                int fit = !(m & B);
                if (restricted)
                    fit &= f->qw[f->id1[e]] > 0;
                const BB E2 = goal & ~(B | m);
                const BB N = ((E2 & g0) << d0) | ((E2 >> d0) & g0) | ((E2 & g1) << d1) | ((E2 >> d1) & g1);
                ce[n] = e;
                int ok = fit & !(bw[e] & E2 & ~N);
                if (viab) {
                    const int c2 = E2 ? BB_CTZ(E2) : 0;
                    const int32_t s2 = (c2 << f->K) | (int32_t)((B | m) >> c2 >> 1 & f->np1);
                    ok &= !E2 | ((f->bmask[s2] & na) != 0);
                }
                n += ok;
                fits += fit;
            }
        }
    else
        for (uint64_t rem = bm & avail; rem; rem &= rem - 1) {
            const int t = ctz64(rem);
            const int32_t i = f->bstart[sl] + popcount64(bm & ((1ull << t) - 1));
            const int32_t end = boff[i + 1];
            const int restricted = t == qtype; /* only its options of positive weight */
            for (int32_t e = boff[i]; e < end; e++) {
                int fit = !(mw[e] & B);
                if (restricted)
                    fit &= f->qw[f->id1[e]] > 0;
                ce[n] = e;
                n += fit, fits += fit;
            }
        }
    k->nodes += fits;
    for (int32_t j = 0; j < n; j++) {
        const int32_t e = ce[j];
        const int t = ty[e];
        const BB NB = B | mw[e];
        const int32_t o = f->id1[e];
        const uint64_t na = t == NT || (f->copies && f->left[t] > 1) ? avail : avail & ~(1ull << t);
        const int32_t nw = t == qtype && !wq ? f->qw[o] : wq;
        f->chosen[L] = o;
        FN(store)(f->board + (int64_t)(L + 1) * BW, NB);
        if (f->dead == 1) {
            const BB E2 = goal & ~NB;
            int dead = 0;
            for (BB seeds = bw[e] & E2; seeds; seeds &= seeds - 1)
                if (!(FN(load)(f->nbr + (int64_t)BB_CTZ(seeds) * BW) & E2)) {
                    dead = 1;
                    break;
                }
            if (dead)
                continue;
        } else if (f->dead == 3 && FN(dead)(f, NB, o, na))
            continue;
        const int32_t s2 = FN(slot)(f, NB, L + 1); /* (the last two pieces' table: FN(hot)'s only, f->lvl2) */
        if (f->copies)
            f->left[t]--;
        if (L + 1 > f->memo_hi || L + 1 < f->memo_lo) {
            if (s2 < 0 || (f->bmask[s2] & na))
                rec_plain(f, L + 1, NB, na, nw, s2);
        } else
            rec_memo(f, L + 1, NB, na, nw, s2);
        if (f->copies)
            f->left[t]++;
    }
    if (memo && ms)
        FN(leave)(f, avail, ms, Bw, s0, w0, n0);
}

/* two variants each: at the memo's levels (memo) and below them (plain: no memo code to carry), of FN(body) and
 * of FN(hot); ATTR: the processor variant's attribute (none: any x86-64 or other processor) */
#define FAST1_PAIR(NAME, ATTR)                                                                                 \
    ATTR static void FN(NAME##_plain)(const Fast *f, int32_t L, BB B, uint64_t avail, int32_t wq, int32_t sl);   \
    ATTR static void FN(NAME)(const Fast *f, int32_t L, BB B, uint64_t avail, int32_t wq, int32_t sl)            \
    {                                                                                                          \
        FN(body)(f, L, B, avail, wq, sl, 1, 0, FN(NAME), FN(NAME##_plain));                                   \
    }                                                                                                          \
    ATTR static void FN(NAME##_plain)(const Fast *f, int32_t L, BB B, uint64_t avail, int32_t wq, int32_t sl)    \
    {                                                                                                          \
        FN(body)(f, L, B, avail, wq, sl, 0, 0, FN(NAME), FN(NAME##_plain));                                   \
    }
/* FN(hot)'s functions, one per memo (M: the level is one of the memo's) and kind of children (C), so that what the
 * level decides is no branch shared by the levels: NAME_hMC; NAME_pick(f, level) the one of that level */
#define FAST1_HOT(NAME, ATTR, M, C)                                                                             \
    ATTR static void FN(NAME##_h##M##C)(const Fast *f, int32_t L, BB B, uint64_t avail, int32_t wq, int32_t sl)  \
    {                                                                                                          \
        FN(body)(f, L, B, avail, wq, sl, M, 1 + C, FN(NAME##_pick)(f, L + 1), FN(NAME##_pick)(f, L + 2));      \
    }
#define FAST1_VARIANT(NAME, ATTR)                                                                               \
    FAST1_PAIR(NAME, ATTR)                                                                                     \
    ATTR static void FN(NAME##_h00)(const Fast *, int32_t, BB, uint64_t, int32_t, int32_t);                     \
    ATTR static void FN(NAME##_h01)(const Fast *, int32_t, BB, uint64_t, int32_t, int32_t);                     \
    ATTR static void FN(NAME##_h02)(const Fast *, int32_t, BB, uint64_t, int32_t, int32_t);                     \
    ATTR static void FN(NAME##_h10)(const Fast *, int32_t, BB, uint64_t, int32_t, int32_t);                     \
    ATTR static void FN(NAME##_h11)(const Fast *, int32_t, BB, uint64_t, int32_t, int32_t);                     \
    ATTR static void FN(NAME##_h12)(const Fast *, int32_t, BB, uint64_t, int32_t, int32_t);                     \
    ATTR static inline FN(Fn) FN(NAME##_pick)(const Fast *f, int32_t level)                                    \
    {                                                                                                          \
        static const FN(Fn) fns[6] = {FN(NAME##_h00), FN(NAME##_h01), FN(NAME##_h02),                          \
                                      FN(NAME##_h10), FN(NAME##_h11), FN(NAME##_h12)};                         \
        return fns[f->hsel[level]];                                                                            \
    }                                                                                                          \
    FAST1_HOT(NAME, ATTR, 0, 0) FAST1_HOT(NAME, ATTR, 0, 1) FAST1_HOT(NAME, ATTR, 0, 2)                        \
    FAST1_HOT(NAME, ATTR, 1, 0) FAST1_HOT(NAME, ATTR, 1, 1) FAST1_HOT(NAME, ATTR, 1, 2)
FAST1_VARIANT(generic, )
#ifdef FAST1_POPCNT
/* with the POPCNT instruction, and with BMI1 and BMI2 besides (chosen at run time, as run below: k->hwpop 1, 2) */
FAST1_VARIANT(popcnt, __attribute__((target("popcnt"))))
FAST1_VARIANT(bmi, __attribute__((target("popcnt,bmi,bmi2"))))
#endif
#undef FAST1_VARIANT
#undef FAST1_HOT
#undef FAST1_PAIR

/* The whole subtree below level L, whose board is board[L]. */
static void FN(run)(const Fast *f, int32_t L, uint64_t avail, int32_t wq)
{
    const BB B = FN(load)(f->board + (int64_t)L * BW);
    const int32_t sl = FN(slot)(f, B, L);
    const int memo = FN(memo_level)(f, L);
    static const FN(Fn) fns[3][2] = {
        {FN(generic_plain), FN(generic)},
#ifdef FAST1_POPCNT
        {FN(popcnt_plain), FN(popcnt)},
        {FN(bmi_plain), FN(bmi)},
#endif
    };
#ifdef FAST1_POPCNT
    const int v = f->k->hwpop;
#else
    const int v = 0;
#endif
    if (!f->hot)
        fns[v][memo](f, L, B, avail, wq, sl);
#ifdef FAST1_POPCNT
    else if (v == 2)
        FN(bmi_pick)(f, L)(f, L, B, avail, wq, sl);
    else if (v == 1)
        FN(popcnt_pick)(f, L)(f, L, B, avail, wq, sl);
#endif
    else
        FN(generic_pick)(f, L)(f, L, B, avail, wq, sl);
}

#undef BB
#undef BW
#undef FN
#undef BB_CTZ
#undef BB_GOAL
#undef BB_GM
