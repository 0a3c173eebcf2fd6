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

/* sl: FN(slot)(f, B, L), worked out by the caller. */
static inline __attribute__((always_inline)) void FN(body)(const Fast *restrict f, int32_t L, BB B, uint64_t avail,
                                                           int32_t wq, int32_t sl, const int memo,
                                                           FN(Fn) rec_memo, FN(Fn) rec_plain)
{
    Kernel *k = f->k;
    if (sl < 0) {
        if (avail & f->lo_mask)
            return;
        long long w = wq ? wq : 1;
        k->solutions++;
        k->weighted += w;
        k->fixed += w * ((f->qtype >= 0 && w == f->hsize) || !f->nperms ? 1 : stabiliser(k, L));
        return;
    }
    const int32_t qtype = f->qtype;
    /* the memo, as in run_w */
    uint64_t *ms = NULL, Bw[BW];
    long long s0 = 0, w0 = 0;
    if (memo && (!f->nperms || (qtype >= 0 && wq == f->hsize))) { /* memo: L is a memo level */
        FN(store)(Bw, B);
        ms = memo_slot(k, Bw, avail, BW);
        int same = ms[BW] == avail && ms[BW + 2] == k->mepoch;
        for (int w = 0; same && w < BW; w++)
            same = ms[w] == Bw[w];
        if (same) {
            long long m = qtype >= 0 && wq ? wq : 1;
            k->solutions += (long long)(ms[BW + 1] & 0xFFFFFFFFu);
            k->weighted += m * (long long)(ms[BW + 1] >> 32);
            k->fixed += m * (long long)(ms[BW + 1] >> 32);
            k->memo_hits++;
            return;
        }
        s0 = k->solutions;
        w0 = k->weighted;
    }
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
        for (uint64_t rem = bm & avail; rem; rem &= rem - 1) {
            const int t = ctz64(rem);
            const int32_t i = f->bstart[sl] + popcount64(bm & ((1ull << t) - 1));
            const int32_t end = boff[i + 1];
            if (t == qtype) /* only its options of positive weight */
                for (int32_t e = boff[i]; e < end; e++) {
                    ce[n] = e;
                    n += !(mw[e] & B) & (f->qw[f->id1[e]] > 0);
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
        const int32_t s2 = FN(slot)(f, NB, L + 1);
        if (BW == 1 && L + 1 == f->lvl2 && s2 >= 0 && (qtype < 0 || !(na >> qtype & 1)) &&
            (L + 1 > f->memo_hi || L + 2 < f->memo_lo)) { /* no memo at the two levels (last2 searches plain) */
            FN(last2)(f, L + 1, NB, na, nw, s2, rec_plain);
            continue;
        }
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
    if (memo && ms) {
        long long got = k->solutions - s0;
        long long v = qtype >= 0 && (avail >> qtype & 1) ? k->weighted - w0 : got;
        if (got <= 0xFFFFFFFFll && v <= 0xFFFFFFFFll) {
            for (int w = 0; w < BW; w++)
                ms[w] = Bw[w];
            ms[BW] = avail;
            ms[BW + 1] = (uint64_t)got | (uint64_t)v << 32;
            ms[BW + 2] = k->mepoch;
            if (++k->memo_stores == MEMO_FILL_STORES && !k->mfilled)
                memo_fill(k);
            k->mdirty = 1;
        }
    }
}

/* two variants each: at the memo's levels (memo) and below them (plain: no memo code to carry) */
static void FN(generic_plain)(const Fast *f, int32_t L, BB B, uint64_t avail, int32_t wq, int32_t sl);
static void FN(generic)(const Fast *f, int32_t L, BB B, uint64_t avail, int32_t wq, int32_t sl)
{
    FN(body)(f, L, B, avail, wq, sl, 1, FN(generic), FN(generic_plain));
}
static void FN(generic_plain)(const Fast *f, int32_t L, BB B, uint64_t avail, int32_t wq, int32_t sl)
{
    FN(body)(f, L, B, avail, wq, sl, 0, FN(generic), FN(generic_plain));
}

#ifdef FAST1_POPCNT
/* with the POPCNT instruction, and with BMI1 and BMI2 besides (chosen at run time, as run below: k->hwpop 1, 2) */
#define FAST1_VARIANT(NAME, TARGET)                                                                            \
    __attribute__((target(TARGET))) static void FN(NAME##_plain)(const Fast *f, int32_t L, BB B, uint64_t avail,  \
                                                                 int32_t wq, int32_t sl);                      \
    __attribute__((target(TARGET))) static void FN(NAME)(const Fast *f, int32_t L, BB B, uint64_t avail,          \
                                                         int32_t wq, int32_t sl)                               \
    {                                                                                                          \
        FN(body)(f, L, B, avail, wq, sl, 1, FN(NAME), FN(NAME##_plain));                                      \
    }                                                                                                          \
    __attribute__((target(TARGET))) static void FN(NAME##_plain)(const Fast *f, int32_t L, BB B, uint64_t avail,  \
                                                                 int32_t wq, int32_t sl)                       \
    {                                                                                                          \
        FN(body)(f, L, B, avail, wq, sl, 0, FN(NAME), FN(NAME##_plain));                                      \
    }
FAST1_VARIANT(popcnt, "popcnt")
FAST1_VARIANT(bmi, "popcnt,bmi,bmi2")
#undef FAST1_VARIANT
#endif

/* The whole subtree below level L, whose board is board[L]. */
static void FN(run)(const Fast *f, int32_t L, uint64_t avail, int32_t wq)
{
    const BB B = FN(load)(f->board + (int64_t)L * BW);
    const int32_t sl = FN(slot)(f, B, L);
    const int memo = L >= f->memo_lo && L <= f->memo_hi;
#ifdef FAST1_POPCNT
    if (f->k->hwpop) {
        if (f->k->hwpop == 2)
            (memo ? FN(bmi) : FN(bmi_plain))(f, L, B, avail, wq, sl);
        else
            (memo ? FN(popcnt) : FN(popcnt_plain))(f, L, B, avail, wq, sl);
        return;
    }
#endif
    (memo ? FN(generic) : FN(generic_plain))(f, L, B, avail, wq, sl);
}

#undef BB
#undef BW
#undef FN
#undef BB_CTZ
#undef BB_GOAL
#undef BB_GM
