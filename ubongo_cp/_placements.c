/* Placements of a run of orientations in a region's array: the C fill of ubongo_cp.cover's table; and the
 * distinct orientations of shapes of one size, for ubongo_cp.grids.
 *
 * ubongo_cp.cover._placements describes the array (a region's cells as the bits of one mask, every
 * translation a shift) and the table. In short: the fits of an orientation are the positions p at
 * which every cell f of the orientation lies on a region cell, the AND over its cells of the region's
 * mask shifted down by f, ANDed with the positions a shape may be moved to. Here the masks are
 * W 64-bit words, the shifted masks one row of W words per flat offset.
 *
 * Python interface (CPython C API, buffers through the buffer protocol, no numpy):
 *
 *   fits(shifted, rows, positions, k) -> (masks, n)
 *       The fit masks of n orientations of k cells: shifted, uint64 (R x W), the region's mask shifted
 *       down by each flat offset; rows, int64 (n x k), the row of shifted for each cell of each
 *       orientation; positions, uint64 (W). masks: bytes, n x W uint64; n: the number of fits.
 *   fill(masks, W, k, flats, item, offset, dim, of_type, rank, first_type,
 *        indptr, indices, option_type, orientation, option_offset, o0, e0) -> int
 *       Write the fits as options o0, o0 + 1, ... (their items from index e0 on), orientation by
 *       orientation, positions ascending (the order of the numpy fill): flats, int64 (n x k), the flat
 *       offsets of the cells; item, uint32 per position of the array, the item there; offset, int32
 *       (positions x dim), the translation of each position; of_type, int32 per orientation, its
 *       type; rank, int16, its index among its type's; first_type, the item of type 0. An option's
 *       items: item[p + flat] for each cell, then first_type + its type. The outputs: indptr, uint32
 *       (entry o0 + 1 + i is e0 + (k + 1)(i + 1)); indices, uint32; option_type, int32;
 *       orientation, int16; option_offset, int32 (dim per option). Returns the number written.
 *   bounds(cells, dim) -> (low, high, digest, coordinates)
 *       The least and the largest coordinate per axis of a region's cells (tuples of dim integers), a
 *       64-bit digest of the cells in order (FNV-1a over each axis's coordinates, then over those; equal
 *       cells, equal digests), and the cells' coordinates packed (bytes: dim int64 per cell, in order).
 *   flatten(cells, strides, base) -> bytes
 *       Each cell's flat position in a row-major array of these strides, less base: int64 per cell. cells:
 *       the cells, or their coordinates packed (any contiguous buffer of int64, dim per cell: bounds()'s, or
 *       an array of shapes' cells).
 *   layout(where, area, first_optional, low, size, top) -> (item, offset, shifted)
 *       A region's tables in its array (ubongo_cp.cover._region_layout): where, int64 per cell, its position
 *       (the area cells, then the optional cells); low and size, the translation at position 0 and the
 *       array's shape (dim ints each). item: uint32 per position, the item there (cell i: i; optional cell i:
 *       first_optional + i; none: the largest uint32); offset: int32 per position and axis, the translation
 *       there; shifted: uint64, top rows of W = ceil(positions / 64) words, row f the mask of the cells'
 *       positions shifted down by f (None when top is 0). All three bytearrays.
 *   image_keys(cells, N, n, din, columns, count, dim, radix, mask, codes[, nested]) -> extent
 *       The keys of count images of N shapes of n cells (ubongo_cp.grids.base.image_keys): cells, N * n
 *       tuples of din integers (nested true: N sequences of n such tuples, the shapes); columns, int64 (din x (dim + 1) count), the maps side by side, map k's
 *       coordinate i in column i * count + k, its key in base radix in column dim * count + k. Each image is
 *       moved to normal position: its keys less the key of its least coordinates, ANDed with mask. codes,
 *       int64 (N x n x count). extent: a bound on the spread of an image's coordinates on one axis (from the
 *       spread of each input within a shape; the keys are those of the cells when it is below radix less 1).
 *   distinct(codes, N, n, count, radix, dim, keys, cells, of_shape, rank, kept, least)
 *       -> (rows, counts, reach, unique)
 *       Each shape's images with their keys sorted, those equal to an earlier image of the shape dropped
 *       (ubongo_cp.grids.base.Grid.orientations_lazy): keys, int64 (rows x n), and cells, int64
 *       (rows x n x dim, the keys' digits), of the kept images, shape by shape in the order of the maps;
 *       of_shape, int32, and rank, int16 (its index among its shape's), per row; kept, bool (N x count);
 *       least, int64 (N x n), each shape's least image's keys; counts, kept images per shape; reach,
 *       1 + the largest coordinate per axis; unique, True when the least images are all different (each shape a type of
 *       its own: they are then not hashed to be grouped), False when two are equal or the shapes are more than
 *       LEASTS_COMPARED. The outputs are sized for N * count rows.
 *   forms(shapes, N, n, columns, count, dim, radix, keys, cells, of_shape, rank, kept, least)
 *       -> (rows, counts, reach, unique) or None
 *       image_keys (shapes: N sequences of n tuples of dim integers, mask -1) then distinct in one pass, the same
 *       outputs: each image's keys found as it is reached (no codes in between), a kept image's cells from its
 *       coordinates (no key divided into digits). None, nothing written, when the maps have no forms (keys_by_forms),
 *       n is above 8, or an image's coordinates may reach radix less 1 (image_keys' extent): the caller then takes
 *       the two calls.
 *
 *   orientations(cells, maps, count, dim) -> list
 *       The distinct images of a shape (cells: tuples or lists of dim ints) under the first count maps (int64,
 *       count x dim x dim, row-major: coordinate i of an image is the sum over d of map[i][d] times coordinate d),
 *       each in normal position (its least coordinate 0 on every axis), its cells sorted, as a tuple of tuples; in
 *       the order of the maps, an image equal to an earlier one left out (ubongo_cp.grids.Grid.orientations).
 *       OverflowError for coordinates or map entries too large to be summed safely.
 *   counts(indices, n) -> list
 *       How often each of n items occurs in indices (uint32: an exact-cover table's; ValueError for an index
 *       of n or more).
 *   members(cls, batch, n) -> list
 *       n new instances of the type cls (made by its __new__ with no arguments; its __init__ not run), instance i
 *       with the attributes batch (the object batch) and number (i): the members of an orientation batch
 *       (ubongo_cp.grids.base.LazyOrientations), one call instead of n calls of Python code.
 *   masks(indptr, indices, n) -> list
 *       Each option's items below n (at most 64) as the bits of one int (bit i: item i): the cells an option
 *       covers, for ubongo_cp.solvers.orbits.
 *   representatives(rows, start, stop) -> (reps, short)
 *       The options of start .. stop - 1 that no option permutation of rows (a tuple of int32 buffers) maps
 *       below themselves, in order, and whether some row fixes each (bools): the least option of each orbit of a
 *       range closed under the group, for ubongo_cp.solvers.orbits.
 *   orbits(indptr, indices, option_type, type_item, perms, n_cells) -> [(ptr, items), ...]
 *       The fixed-point matrices of ubongo_cp.solvers.fixed, one per option permutation (see the function).
 *   images(indptr, indices, option_type, item_map, type_map, n_items, n_types, out[, width]) -> None
 *       The image of every option under G maps of the items (ubongo_cp.cover.ExactCoverInstance
 *       .option_perm_lists): an option's key is its type and its sorted cell items (the items an item map
 *       sends to -1, the types', left out); its image under map g is the option whose key is
 *       (type_map[g][type], the sorted images of its cell items), or -1 when there is none. indptr,
 *       uint32 (n + 1), and indices, uint32, the options' items; option_type, int32 (n); item_map, int32
 *       (G x n_items), -1 for an item that is not a cell (row 0 tells which are); type_map, int32
 *       (G x n_types); out, int64 (G x n; int32 with width 4, as the kernels take permutations), written. Two
 *       options with one key: the later one is the image.

 * Every index is checked against its buffer's size and every buffer's start against the alignment of its items
 * (ValueError, nothing written out of bounds). Cells are tuples or lists of ints (TypeError otherwise: the
 * callers then take their Python way); only ints are read, so no Python code runs while a list is read. Keys
 * that would pass 62 bits are an OverflowError.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <stdint.h>
#include <string.h>

/* Most cells of a piece and most coordinates of a cell: far beyond any polyform, small enough that no size
 * computed from them overflows. */
#define MAX_CELLS (1 << 20)
#define MAX_DIM 16
/* Most words of a fit mask whose bits fill() counts in one pass over every mask (more: mask by mask). */
#define MAX_SUMMED_WORDS 64
/* Largest radix of the keys of image_keys() and distinct(): a key's digits are then found without overflow. */
#define RADIX_MAX (INT64_C(1) << 31)
#define LEASTS_COMPARED 512   /* leasts_unique: at most this many shapes compared pairwise */

/* a * b, or -1 when it overflows (a, b >= 0). */
static Py_ssize_t times(Py_ssize_t a, Py_ssize_t b)
{
    Py_ssize_t r;
    return __builtin_mul_overflow(a, b, &r) ? -1 : r;
}

/* Whether buffer b holds exactly count items of size bytes each, its start aligned for them (a division, never
 * an overflowing product). */
static int aligned(const Py_buffer *b, Py_ssize_t size)
{
    return (uintptr_t)b->buf % (uintptr_t)size == 0;
}

static int holds(const Py_buffer *b, Py_ssize_t count, Py_ssize_t size)
{
    return count >= 0 && b->len % size == 0 && b->len / size == count && aligned(b, size);
}

/* Releases n buffers taken by PyArg_ParseTuple. */
static void release(Py_buffer **held, size_t n)
{
    for (size_t i = 0; i < n; i++)
        PyBuffer_Release(held[i]);
}

typedef struct {
    Py_buffer shifted, rows, positions;
    Py_ssize_t n_rows, words, n;
} Fits;

static void fits_release(Fits *f)
{
    PyBuffer_Release(&f->shifted);
    PyBuffer_Release(&f->rows);
    PyBuffer_Release(&f->positions);
}

/* Checks the sizes and the row indices; 0 on success, -1 with an exception set. */
static int fits_check(Fits *f, Py_ssize_t k)
{
    f->words = f->positions.len / 8;
    if (k <= 0 || k > MAX_CELLS || f->words <= 0 || f->positions.len % 8 || f->shifted.len % (8 * f->words)
        || f->rows.len % (8 * k) || !aligned(&f->shifted, 8) || !aligned(&f->rows, 8) || !aligned(&f->positions, 8)) {
        PyErr_SetString(PyExc_ValueError, "placements: buffer sizes do not match");
        return -1;
    }
    f->n_rows = f->shifted.len / (8 * f->words);
    f->n = f->rows.len / (8 * k);
    const int64_t *rows = f->rows.buf;
    /* 0 <= row < n_rows for every row: the sign bit of ~row (row >= 0) and of row - n_rows (row < n_rows; no
     * overflow for a row >= 0) both set, ANDed over the rows: a pass of SSE2 words, no comparison per row */
    Py_ssize_t count = f->n * k;
    uint64_t inside = UINT64_MAX, n_rows = (uint64_t)f->n_rows;
    for (Py_ssize_t i = 0; i < count; i++)
        inside &= ~(uint64_t)rows[i] & ((uint64_t)rows[i] - n_rows);
    if (!(inside >> 63)) {
        PyErr_SetString(PyExc_ValueError, "placements: a cell's row is outside the shifted masks");
        return -1;
    }
    return 0;
}

/* The fit mask of orientation o (W words) into m; returns its number of bits. K: the cells of a piece, and
 * WW: the words of a mask, constants where the compiler may unroll (0: k and f->words, at run time). */
static inline __attribute__((always_inline)) long long fit_mask(const Fits *f, Py_ssize_t K, Py_ssize_t k,
                                                                 Py_ssize_t WW, Py_ssize_t o, uint64_t *restrict m)
{
    const uint64_t *shifted = f->shifted.buf, *positions = f->positions.buf;
    const int64_t *row = (const int64_t *)f->rows.buf + o * k;
    Py_ssize_t W = WW ? WW : f->words, n = K ? K : k;
    long long bits = 0;
    if (n <= 8) {   /* each cell's row of shifted masks found once, not once per word */
        const uint64_t *at[8];
        for (Py_ssize_t j = 0; j < n; j++)
            at[j] = shifted + row[j] * W;
        for (Py_ssize_t w = 0; w < W; w++) {
            uint64_t x = positions[w];
            for (Py_ssize_t j = 0; j < n; j++)
                x &= at[j][w];
            m[w] = x;
            bits += __builtin_popcountll(x);
        }
        return bits;
    }
    for (Py_ssize_t w = 0; w < W; w++) {
        uint64_t x = positions[w];
        for (Py_ssize_t j = 0; j < n; j++)
            x &= shifted[row[j] * W + w];
        m[w] = x;
        bits += __builtin_popcountll(x);
    }
    return bits;
}

/* BODY(K, WW) with the cells of a piece and the words of a mask as constants where they are common (4 to 6 cells,
 * 1 to 6 words: the compiler unrolls their loops), else with the values k and W; BODY returns. */
#define BY_WORDS(K, W, BODY)                                                                                    \
    switch (W) {                                                                                                \
    case 1: BODY(K, 1)                                                                                          \
    case 2: BODY(K, 2)                                                                                          \
    case 3: BODY(K, 3)                                                                                          \
    case 4: BODY(K, 4)                                                                                          \
    case 5: BODY(K, 5)                                                                                          \
    case 6: BODY(K, 6)                                                                                          \
    default: BODY(K, W)                                                                                         \
    }
#define BY_SIZE(k, W, BODY)                                                                                     \
    switch (k) {                                                                                                \
    case 4: BY_WORDS(4, W, BODY)                                                                                \
    case 5: BY_WORDS(5, W, BODY)                                                                                \
    case 6: BY_WORDS(6, W, BODY)                                                                                \
    default: BODY(k, W)                                                                                         \
    }

/* Every orientation's fit mask into m (n x W words); returns the number of fits. */
static inline __attribute__((always_inline)) long long fit_masks(const Fits *f, Py_ssize_t k, uint64_t *m)
{
    long long total = 0;
#define LOOP(K, WW)                                                                                             \
    {                                                                                                           \
        for (Py_ssize_t o = 0; o < f->n; o++, m += f->words)                                                    \
            total += fit_mask(f, K, k, WW, o, m);                                                               \
        return total;                                                                                           \
    }
    BY_SIZE(k, f->words, LOOP)
#undef LOOP
}

/* The fits of n > 0 masks of W words (total) and how far they reach: the highest set bit of them all (top) and
 * the largest sum of an orientation's highest fit and the flat offset of one of its k cells (reach; -1 and -1
 * without fits); the flat offsets' least and largest value over every orientation (lo, hi). */
static inline __attribute__((always_inline)) void count_core(const uint64_t *mask, Py_ssize_t n, Py_ssize_t W,
                                                             const int64_t *flat, Py_ssize_t k, Py_ssize_t *total,
                                                             int64_t *top, int64_t *reach, int64_t *lo, int64_t *hi)
{
    Py_ssize_t t = 0;
    int64_t tp = -1, r = -1, l = flat[0], h = flat[0];
    for (Py_ssize_t o = 0; o < n; o++, mask += W, flat += k) {
        int64_t at = -1;   /* the highest fit of this orientation */
        for (Py_ssize_t w = 0; w < W; w++) {
            t += __builtin_popcountll(mask[w]);
            at = mask[w] ? 64 * w + 63 - __builtin_clzll(mask[w]) : at;
        }
        int64_t most = flat[0];
        for (Py_ssize_t j = 0; j < k; j++) {
            most = flat[j] > most ? flat[j] : most;
            l = flat[j] < l ? flat[j] : l;
        }
        h = most > h ? most : h;
        tp = at > tp ? at : tp;
        most = most > INT64_MAX / 2 ? INT64_MAX / 2 : most;   /* no overflow below (then hi fails the check) */
        r = at >= 0 && at + most > r ? at + most : r;
    }
    *total = t, *top = tp, *reach = r, *lo = l, *hi = h;
}

/* count_core with the common sizes as constants, where the compiler unrolls its loops: 0, or -1 for no mask
 * or more than MAX_SUMMED_WORDS words (the caller then checks mask by mask). */
static inline __attribute__((always_inline)) int count_fits(const uint64_t *mask, Py_ssize_t n, Py_ssize_t W,
                                                             const int64_t *flat, Py_ssize_t k, Py_ssize_t *total,
                                                             int64_t *top, int64_t *reach, int64_t *lo, int64_t *hi)
{
    if (W > MAX_SUMMED_WORDS || n == 0)
        return -1;
#define COUNT(K, WW)                                                                                            \
    {                                                                                                           \
        count_core(mask, n, WW, flat, K, total, top, reach, lo, hi);                                            \
        return 0;                                                                                               \
    }
    BY_SIZE(k, W, COUNT)
#undef COUNT
}

#define POPCOUNT_USERS(SUFFIX, ATTR)                                                                             \
    ATTR static long long fit_masks##SUFFIX(const Fits *f, Py_ssize_t k, uint64_t *m)                            \
    {                                                                                                            \
        return fit_masks(f, k, m);                                                                               \
    }                                                                                                            \
    ATTR static int count_fits##SUFFIX(const uint64_t *mask, Py_ssize_t n, Py_ssize_t W, const int64_t *flat,    \
                                       Py_ssize_t k, Py_ssize_t *total, int64_t *top, int64_t *reach, int64_t *lo, \
                                       int64_t *hi)                                                              \
    {                                                                                                            \
        return count_fits(mask, n, W, flat, k, total, top, reach, lo, hi);                                       \
    }

POPCOUNT_USERS(_generic, )
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
/* The same code for processors with the POPCNT instruction (chosen at run time, hwpop): without it a
 * population count is a library call. */
POPCOUNT_USERS(_popcnt, __attribute__((target("popcnt"))))
#define HAVE_POPCNT_VARIANT 1
#endif

static int hwpop;   /* the processor has POPCNT (set when the module is loaded) */

static PyObject *fits(PyObject *self, PyObject *args)
{
    Fits f;
    Py_ssize_t k;
    if (!PyArg_ParseTuple(args, "y*y*y*n", &f.shifted, &f.rows, &f.positions, &k))
        return NULL;
    PyObject *masks = NULL;
    long long total = 0;
    if (fits_check(&f, k))
        goto done;
    Py_ssize_t size = times(times(f.n, f.words), 8);
    if (size < 0) {
        PyErr_SetString(PyExc_ValueError, "placements: buffer sizes do not match");
        goto done;
    }
    masks = PyBytes_FromStringAndSize(NULL, size);
    if (!masks)
        goto done;
    uint64_t *m = (uint64_t *)PyBytes_AS_STRING(masks);
#ifdef HAVE_POPCNT_VARIANT
    if (hwpop)
        total = fit_masks_popcnt(&f, k, m);
    else
#endif
        total = fit_masks_generic(&f, k, m);
done:
    fits_release(&f);
    if (!masks)
        return NULL;
    PyObject *result = Py_BuildValue("(NL)", masks, total);
    return result;
}

/* The rows of one orientation's fits (mask m of W words): K cells (a constant where the compiler may
 * unroll), DIM coordinates per translation (0: dim, at run time). Every index was checked before. */
static inline __attribute__((always_inline)) void write_fits(const uint64_t *m, Py_ssize_t W, const int64_t *cells, Py_ssize_t K,
                              const uint32_t *item_at, const int32_t *offset_at, Py_ssize_t DIM, Py_ssize_t dim,
                              uint32_t type_item, int32_t t, int16_t r, uint32_t *restrict *out,
                              uint32_t *restrict *ptr, int32_t *restrict *ot, int16_t *restrict *orn,
                              int32_t *restrict *off, uint32_t *e)
{
    uint32_t *o_out = *out, *o_ptr = *ptr;
    int32_t *o_ot = *ot, *o_off = *off;
    int16_t *o_orn = *orn;
    uint32_t ee = *e, width = (uint32_t)K + 1;
    Py_ssize_t d = DIM ? DIM : dim;
    for (Py_ssize_t w = 0; w < W; w++) {
        uint64_t bits = m[w];
        while (bits) {
            Py_ssize_t p = 64 * w + __builtin_ctzll(bits);
            bits &= bits - 1;
            const uint32_t *at = item_at + p;
            for (Py_ssize_t j = 0; j < K; j++)
                o_out[j] = at[cells[j]];
            o_out[K] = type_item;
            o_out += width;
            ee += width;
            *o_ptr++ = ee;
            *o_ot++ = t;
            *o_orn++ = r;
            const int32_t *x = offset_at + p * d;
            for (Py_ssize_t i = 0; i < d; i++)
                o_off[i] = x[i];
            o_off += d;
        }
    }
    *out = o_out, *ptr = o_ptr, *ot = o_ot, *orn = o_orn, *off = o_off, *e = ee;
}

/* Whether a buffer of fill() starts off the alignment of its items (held: its buffers in the order of its
 * arguments; out of line, so that the fill's loops compile apart from its checks). */
static __attribute__((noinline)) int misaligned(Py_buffer **held)
{
    static const Py_ssize_t size[] = {1, 1, 4, 4, 4, 2, 4, 4, 4, 2, 4};   /* masks, flats: copied */
    for (size_t i = 0; i < sizeof size / sizeof size[0]; i++)
        if (!aligned(held[i], size[i]))
            return 1;
    return 0;
}

static PyObject *fill(PyObject *self, PyObject *args)
{
    Py_ssize_t W, k, dim, first_type, o0, e0;
    Py_buffer masks, flats, item, offset, of_type, rank, indptr, indices, otype, orient, ooffset;
    if (!PyArg_ParseTuple(args, "y*nny*y*y*ny*y*nw*w*w*w*w*nn", &masks, &W, &k, &flats, &item, &offset, &dim,
                          &of_type, &rank, &first_type, &indptr, &indices, &otype, &orient, &ooffset, &o0, &e0))
        return NULL;
    Py_buffer *held[] = {&masks, &flats, &item, &offset, &of_type, &rank, &indptr, &indices, &otype, &orient,
                         &ooffset};
    PyObject *result = NULL;
    uint64_t *mask = NULL;   /* private copies: an output that shares memory with them cannot change them */
    int64_t *flat = NULL;
    Py_ssize_t n = 0, n_pos = item.len / 4, width = k + 1;
    if (W <= 0 || W > masks.len / 8 || k <= 0 || k > MAX_CELLS || dim <= 0 || dim > MAX_DIM || o0 < 0 || e0 < 0
        || masks.len % (8 * W)) {
        PyErr_SetString(PyExc_ValueError, "placements: buffer sizes do not match");
        goto done;
    }
    n = masks.len / (8 * W);
    if (flats.len % 8 || flats.len / 8 % k || flats.len / 8 / k != n || of_type.len != 4 * n || rank.len != 2 * n
        || offset.len % (4 * dim) || offset.len / (4 * dim) != n_pos || item.len % 4 || misaligned(held)) {
        PyErr_SetString(PyExc_ValueError, "placements: buffer sizes do not match");
        goto done;
    }
    mask = PyMem_Malloc(masks.len ? (size_t)masks.len : 1);
    flat = PyMem_Malloc(flats.len ? (size_t)flats.len : 1);
    if (!mask || !flat) {
        PyErr_NoMemory();
        goto done;
    }
    memcpy(mask, masks.buf, (size_t)masks.len);
    memcpy(flat, flats.buf, (size_t)flats.len);
    Py_ssize_t total = 0;
    int64_t top, reach, lo, hi;
    int summed;
#ifdef HAVE_POPCNT_VARIANT
    if (hwpop)
        summed = count_fits_popcnt(mask, n, W, flat, k, &total, &top, &reach, &lo, &hi);
    else
#endif
        summed = count_fits_generic(mask, n, W, flat, k, &total, &top, &reach, &lo, &hi);
    /* every fit's cells and translation inside the arrays (0 <= flat < n_pos and top < n_pos: no overflow): at
     * once in the pass above, else orientation by orientation */
    if (summed != 0 || (top >= 0 && (lo < 0 || hi >= n_pos || top >= n_pos || reach >= n_pos))) {
        total = 0;
        for (Py_ssize_t o = 0; o < n; o++) {
            const uint64_t *m = mask + o * W;
            Py_ssize_t at = -1;
            for (Py_ssize_t w = 0; w < W; w++)
                if (m[w]) {
                    total += __builtin_popcountll(m[w]);
                    at = 64 * w + 63 - __builtin_clzll(m[w]);
                }
            if (at < 0)
                continue;
            for (Py_ssize_t j = 0; j < k; j++)
                if (flat[o * k + j] < 0 || flat[o * k + j] >= n_pos || at >= n_pos || at + flat[o * k + j] >= n_pos) {
                    PyErr_SetString(PyExc_ValueError, "placements: a fit lies outside the array");
                    goto done;
                }
        }
    }
    if (o0 > PY_SSIZE_T_MAX - total - 1) {
        PyErr_SetString(PyExc_ValueError, "placements: too many options for the table");
        goto done;
    }
    Py_ssize_t options = o0 + total, items = times(total, width), coords = times(options, dim);
    if (items < 0 || coords < 0 || e0 > PY_SSIZE_T_MAX - items || e0 + items > (Py_ssize_t)UINT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "placements: too many options for the table");
        goto done;
    }
    if (indptr.len / 4 < options + 1 || indices.len / 4 < e0 + items || otype.len / 4 < options
        || orient.len / 2 < options || ooffset.len / 4 < coords) {
        PyErr_SetString(PyExc_ValueError, "placements: an output buffer is too small");
        goto done;
    }
    const uint32_t *item_at = item.buf;
    const int32_t *offset_at = offset.buf, *types = of_type.buf;
    const int16_t *ranks = rank.buf;
    uint32_t *out = (uint32_t *)indices.buf + e0, *ptr = (uint32_t *)indptr.buf + o0 + 1;
    int32_t *ot = (int32_t *)otype.buf + o0, *off = (int32_t *)ooffset.buf + o0 * dim;
    int16_t *orn = (int16_t *)orient.buf + o0;
    uint32_t e = (uint32_t)e0;
#define WRITE(K, DIM)                                                                                           \
    for (Py_ssize_t o = 0; o < n; o++)                                                                          \
        write_fits(mask + o * W, W, flat + o * k, K, item_at, offset_at, DIM, dim, (uint32_t)(first_type + types[o]), \
                   types[o], ranks[o], &out, &ptr, &ot, &orn, &off, &e)
    if (k == 5 && dim == 2)
        WRITE(5, 2);
    else if (k == 4 && dim == 2)
        WRITE(4, 2);
    else if (k == 6 && dim == 2)
        WRITE(6, 2);
    else if (k == 5 && dim == 3)
        WRITE(5, 3);
    else if (k == 4 && dim == 3)
        WRITE(4, 3);
    else
        WRITE(k, 0);
#undef WRITE
    result = PyLong_FromSsize_t(total);
done:
    PyMem_Free(mask);
    PyMem_Free(flat);
    release(held, sizeof held / sizeof held[0]);
    return result;
}

/* The n keys of one image in ascending order (insertion sort: n is a piece's size). */
static inline __attribute__((always_inline)) void sort_keys(int64_t *a, Py_ssize_t n)
{
    for (Py_ssize_t i = 1; i < n; i++) {
        int64_t v = a[i];
        Py_ssize_t j = i;
        for (; j > 0 && a[j - 1] > v; j--)
            a[j] = a[j - 1];
        a[j] = v;
    }
}

/* The five keys of one image in ascending order: a sorting network of nine exchanges (no branch to mispredict). */
static inline __attribute__((always_inline)) void sort_five(int64_t *a)
{
    static const int pairs[9][2] = {{0, 1}, {3, 4}, {2, 4}, {2, 3}, {1, 4}, {0, 3}, {0, 2}, {1, 3}, {1, 2}};
    for (int i = 0; i < 9; i++) {
        int64_t x = a[pairs[i][0]], y = a[pairs[i][1]];
        a[pairs[i][0]] = x < y ? x : y;
        a[pairs[i][1]] = x < y ? y : x;
    }
}

/* -1, 0 or 1 as the sorted keys a are lexicographically below, equal to or above b. */
static inline __attribute__((always_inline)) int compare_keys(const int64_t *a, const int64_t *b, Py_ssize_t n)
{
    for (Py_ssize_t i = 0; i < n; i++)
        if (a[i] != b[i])
            return a[i] < b[i] ? -1 : 1;
    return 0;
}

/* distinct()'s and forms()'s checks of their sizes and output buffers (b: keys, cells, of_shape, rank, kept, least;
 * out of line: they leave the search loop's code as it is); 0, or -1 with ValueError. */
static __attribute__((noinline)) int distinct_sizes(Py_ssize_t N, Py_ssize_t n, Py_ssize_t count, Py_ssize_t radix,
                                                    Py_ssize_t dim, Py_buffer **b)
{
    if (N < 0 || n <= 0 || n > MAX_CELLS || count <= 0 || count > 1024 || radix < 2 || radix > RADIX_MAX || dim <= 0
        || dim > MAX_DIM) {
        PyErr_SetString(PyExc_ValueError, "orientations: sizes out of range");
        return -1;
    }
    Py_ssize_t images = times(N, count), entries = times(images, n), coords = times(entries, dim);
    if (images < 0 || entries < 0 || coords < 0 || !holds(b[0], entries, 8) || !holds(b[1], coords, 8)
        || !holds(b[2], images, 4) || !holds(b[3], images, 2) || !holds(b[4], images, 1)
        || !holds(b[5], times(N, n), 8)) {
        PyErr_SetString(PyExc_ValueError, "orientations: buffer sizes do not match");
        return -1;
    }
    return 0;
}

/* distinct()'s check of its codes (entries keys): the keys ORed (one vectorised pass), a number of the bit length of
 * the largest key (*largest); 0, or -1 with ValueError for a key that is negative or beyond 62 bits. */
static __attribute__((noinline)) int code_bits(const Py_buffer *codes, Py_ssize_t entries, uint64_t *largest)
{
    if (!holds(codes, entries, 8)) {
        PyErr_SetString(PyExc_ValueError, "orientations: buffer sizes do not match");
        return -1;
    }
    const int64_t *code = codes->buf;
    uint64_t beyond = 0, any = 0;
    for (Py_ssize_t i = 0; i < entries; i++)
        any |= (uint64_t)code[i];
    if (any >> 62)   /* every key at least 0 and at most 2 ** 62: checked one by one only then */
        for (Py_ssize_t i = 0; i < entries; i++)
            beyond |= (uint64_t)code[i] > (UINT64_C(1) << 62);
    *largest = any;
    if (beyond) {
        PyErr_SetString(PyExc_ValueError, "orientations: a key is negative or beyond 62 bits");
        return -1;
    }
    return 0;
}

/* A shape of n cells from their keys (each the digits of a cell's coordinates in base radix, the first coordinate
 * the most significant) as a tuple of tuples of dim ints. NULL with an exception when memory runs out. */
static PyObject *shape_of_keys(const int64_t *keys, Py_ssize_t n, Py_ssize_t dim, int64_t radix)
{
    PyObject *shape = PyTuple_New(n);
    if (!shape)
        return NULL;
    for (Py_ssize_t j = 0; j < n; j++) {
        int64_t rest = keys[j];
        PyObject *cell = PyTuple_New(dim);
        if (!cell)
            goto fail;
        PyTuple_SET_ITEM(shape, j, cell);
        for (Py_ssize_t d = dim - 1; d >= 0; d--) {
            PyObject *v = PyLong_FromLongLong(d ? rest % radix : rest);
            if (!v)
                goto fail;
            PyTuple_SET_ITEM(cell, d, v);
            rest /= radix;
        }
    }
    return shape;
fail:
    Py_DECREF(shape);
    return NULL;
}

/* Each of U forms' (form, U x din) value at each of a shape's n cells (xs, din inputs each) into value (U x n), and
 * its least and (unless NULL) largest value over the shape into lo and hi (U each). */
static inline __attribute__((always_inline)) void form_values(const int64_t *xs, const int64_t *form, Py_ssize_t U,
                                                              Py_ssize_t n, Py_ssize_t din, int64_t *value,
                                                              int64_t *lo, int64_t *hi)
{
    for (Py_ssize_t u = 0; u < U; u++) {
        const int64_t *f = form + u * din;
        int64_t least = 0, most = 0;
        for (Py_ssize_t j = 0; j < n; j++) {
            int64_t v = 0;
            for (Py_ssize_t d = 0; d < din; d++)
                v += xs[j * din + d] * f[d];
            value[u * n + j] = v;
            least = j == 0 || v < least ? v : least;
            most = j == 0 || v > most ? v : most;
        }
        lo[u] = least;
        if (hi)
            hi[u] = most;
    }
}

/* Whether an image (n sorted keys) equals an earlier image kept of its shape (kept of them: their keys at earlier,
 * their words in word), image k of the shape; the shape's least image so far (low, its word *lowest) updated and,
 * packed (the keys as one word, n keys of bits bits: ordered as the keys' sequences, equal exactly when they are),
 * the image's word put after the kept ones' (kept only when the caller keeps the image) and its bit set in *filter,
 * a bit per word of the shape's images so far (by a hash of it: a word whose bit is not set is unlike them all, with
 * no comparison). */
static inline __attribute__((always_inline)) int seen_before(const int64_t *image, Py_ssize_t n, Py_ssize_t k,
                                                             int bits, int packed, uint64_t *lowest, int64_t *low,
                                                             uint64_t *filter, uint64_t *word, Py_ssize_t kept,
                                                             const int64_t *earlier)
{
    int seen = 0;
    if (packed) {
        uint64_t w = 0;
        for (Py_ssize_t j = 0; j < n; j++)
            w = w << bits | (uint64_t)image[j];
        if (k == 0 || w < *lowest) {
            *lowest = w;
            memcpy(low, image, sizeof(int64_t) * (size_t)n);
        }
        uint64_t bit = UINT64_C(1) << (w * UINT64_C(0x9E3779B97F4A7C15) >> 58);
        if (*filter & bit)
            for (Py_ssize_t r = 0; r < kept; r++)
                seen |= word[r] == w;
        *filter |= bit;
        word[kept] = w;
    }
    else {
        if (k == 0 || compare_keys(image, low, n) < 0)
            memcpy(low, image, sizeof(int64_t) * (size_t)n);
        for (Py_ssize_t r = 0; r < kept && !seen; r++)
            seen = compare_keys(image, earlier + r * n, n) == 0;
    }
    return seen;
}

/* Where search() reads each image's keys: from codes (distinct(): code, N x n x count, cell j's key in image k at
 * [s][j][k]; a kept image's cells the keys' digits in base radix, inverse its reciprocal for a multiplication), or,
 * code NULL, through the maps' forms (forms(): at, the shapes' cells, dim ints each; U forms, form, U x dim; use,
 * count x dim, the form of each map's coordinate; weight, dim, the keys' weights; value, scratch of U x (n + 2)). */
typedef struct {
    const int64_t *code;
    Py_ssize_t radix;
    uint64_t inverse;
    const int64_t *at, *form, *weight;
    const int32_t *use;
    Py_ssize_t U;
    int64_t *value;
} Images;

/* What search() writes: the kept images' keys (key, rows x n) and cells (cell, rows x n x dim), each row's shape and
 * rank, which images are kept (keep, N x count), each shape's least image's keys (low) and number of rows
 * (per_shape), the largest coordinate per axis (top, updated); image (n), and word (count), scratch. */
typedef struct {
    int64_t *image, *top, *key, *cell, *low;
    uint64_t *word;
    int32_t *shape_of;
    int16_t *ranks;
    uint8_t *keep;
    Py_ssize_t *per_shape;
} Kept;

/* The search of distinct() and forms(): each shape's images in the order of the symmetries, each kept unless equal
 * to an earlier one of its shape (its sorted keys, packed in one word when they fit: seen_before), its keys and
 * cells written out; the number of images kept in all. With fused (forms()), each image's keys are found through
 * the maps' forms as it is reached (keys_by_forms): each form's value at each cell of the shape less its least
 * value over the shape (then the spread of each form's values), an image's coordinate i at cell j its form's
 * value at j, its key their sum weighted; each key with its cell's index in its 3 low bits while the image is sorted
 * (n at most 8), so that a kept image's cells are read from the values (no key divided into digits), the same rows
 * as image_keys then distinct. Inlined with constant fused, n and dim where they are common (the compiler unrolls
 * the loops over a piece's cells and a cell's axes). */
static inline __attribute__((always_inline)) Py_ssize_t search_core(
    const Images *in, const Kept *out, Py_ssize_t N, Py_ssize_t n, Py_ssize_t count, Py_ssize_t dim, int bits,
    int packed, int fused)
{
    const int64_t *code = in->code, *form = in->form;
    const int32_t *use = in->use;
    Py_ssize_t radix = in->radix, U = in->U;
    uint64_t inverse = in->inverse;
    int64_t *image = out->image, *key = out->key, *cell = out->cell, *low = out->low, *value = in->value;
    uint64_t *word = out->word;
    int32_t *shape_of = out->shape_of;
    int16_t *ranks = out->ranks;
    uint8_t *keep = out->keep;
    uint64_t lowest = 0;
    Py_ssize_t m = 0;
    int64_t own[8], tagged[8], w[MAX_DIM], most[MAX_DIM], reach[MAX_DIM];   /* locals (registers when n and dim are
                                      * constants: the stores to the outputs cannot change them) */
    const int64_t *of[MAX_DIM];   /* fused: the image's coordinates per axis, of[i][j] at cell j, their largest reach */
    int64_t *spread = fused ? value + U * n : NULL;
    if (n <= 8)
        image = own;
    for (Py_ssize_t d = 0; d < dim; d++) {
        most[d] = out->top[d];
        w[d] = fused ? in->weight[d] : 0;
    }
    for (Py_ssize_t s = 0; s < N; s++) {
        const int64_t *c = fused ? NULL : code + s * n * count;   /* c[j * count + k]: cell j's key in image k */
        if (fused)
            form_values(in->at + s * n * dim, form, U, n, dim, value, spread + U, spread);
        for (Py_ssize_t u = 0; fused && u < U; u++) {   /* each form's values less their least, and their spread */
            for (Py_ssize_t j = 0; j < n; j++)
                value[u * n + j] -= spread[U + u];
            spread[u] -= spread[U + u];
        }
        Py_ssize_t first = m;
        uint64_t filter = 0;   /* (seen_before) */
        for (Py_ssize_t k = 0; k < count; k++) {
            if (fused) {
                const int32_t *uk = use + k * dim;
                for (Py_ssize_t i = 0; i < dim; i++) {
                    of[i] = value + uk[i] * n;
                    reach[i] = spread[uk[i]];
                }
                for (Py_ssize_t j = 0; j < n; j++) {
                    int64_t v = 0;
                    for (Py_ssize_t i = 0; i < dim; i++)
                        v += w[i] * of[i][j];
                    tagged[j] = (int64_t)((uint64_t)v << 3 | (uint64_t)j);
                }
                if (n == 5)
                    sort_five(tagged);
                else
                    sort_keys(tagged, n);
                for (Py_ssize_t j = 0; j < n; j++)
                    image[j] = tagged[j] >> 3;
            }
            else {
                for (Py_ssize_t j = 0; j < n; j++)
                    image[j] = c[j * count + k];
                if (n == 5)
                    sort_five(image);
                else
                    sort_keys(image, n);
            }
            int seen = seen_before(image, n, k, bits, packed, &lowest, low + s * n, &filter, word, m - first,
                                   key + first * n);
            keep[s * count + k] = !seen;
            if (seen)
                continue;
            memcpy(key + m * n, image, sizeof(int64_t) * (size_t)n);
            int64_t *o = cell + m * n * dim;
            if (fused) {
                for (Py_ssize_t j = 0; j < n; j++, o += dim) {   /* the cell's coordinates */
                    Py_ssize_t at = (Py_ssize_t)(tagged[j] & 7);
                    for (Py_ssize_t i = 0; i < dim; i++)
                        o[i] = of[i][at];
                }
                for (Py_ssize_t i = 0; i < dim; i++)
                    most[i] = reach[i] > most[i] ? reach[i] : most[i];
            }
            else {
                for (Py_ssize_t j = 0; j < n; j++, o += dim) {   /* the key's digits in base radix, the first axis
                                                                   * the rest */
                    int64_t rest = image[j];
                    for (Py_ssize_t d = dim - 1; d > 0; d--) {
                        int64_t q = rest < (INT64_C(1) << 32)   /* a multiplication: a division per cell is slow */
                            ? (int64_t)(((unsigned __int128)(uint64_t)rest * inverse) >> 64) : rest / radix;
                        o[d] = rest - q * radix;
                        rest = q;
                    }
                    o[0] = rest;
                    for (Py_ssize_t d = 1; d < dim; d++)
                        most[d] = o[d] > most[d] ? o[d] : most[d];
                }
                /* the first coordinate, the keys' most significant digit: largest in the last (largest) key */
                most[0] = cell[(m * n + n - 1) * dim] > most[0] ? cell[(m * n + n - 1) * dim] : most[0];
            }
            shape_of[m] = (int32_t)s;
            ranks[m] = (int16_t)(m - first);
            m++;
        }
        out->per_shape[s] = m - first;
    }
    for (Py_ssize_t d = 0; d < dim; d++)
        out->top[d] = most[d];
    return m;
}

/* search_core with the common sizes as constants (out of line: compiled apart from the callers' checks). */
static __attribute__((noinline)) Py_ssize_t search(const Images *in, const Kept *out, Py_ssize_t N, Py_ssize_t n,
                                                   Py_ssize_t count, Py_ssize_t dim, int bits, int packed)
{
#define CORE(F, NN, DD) return search_core(in, out, N, NN, count, DD, bits, packed, F)
#define SIZES(F)                              \
    if (dim == 2 && packed) {                 \
        if (n == 5)                           \
            CORE(F, 5, 2);                    \
        if (n == 4)                           \
            CORE(F, 4, 2);                    \
        if (n == 6)                           \
            CORE(F, 6, 2);                    \
    }                                         \
    if (dim == 3 && n == 5 && packed)         \
        CORE(F, 5, 3);                        \
    CORE(F, n, dim)
    if (in->code == NULL) {
        SIZES(1);
    }
    SIZES(0);
#undef SIZES
#undef CORE
}

/* Whether the N shapes' least images (n sorted keys each) are all different (then each shape is a type of its
 * own: cover._types_of hashes no key); 0 also when there are too many to compare pairwise (the caller then
 * groups them by their keys). */
static __attribute__((noinline)) int leasts_unique(const int64_t *least, Py_ssize_t N, Py_ssize_t n)
{
    if (N > LEASTS_COMPARED)
        return 0;
    for (Py_ssize_t a = 1; a < N; a++)   /* the last keys first: the first is most often 0, a cell at the origin */
        for (Py_ssize_t b = 0; b < a; b++)
            if (least[a * n + n - 1] == least[b * n + n - 1] && compare_keys(least + a * n, least + b * n, n) == 0)
                return 0;
    return 1;
}

/* distinct()'s and forms()'s result (rows, counts, reach, unique) from the m rows kept, per_shape (N counts), top
 * (the largest coordinate per axis) and least (each shape's least image's n keys); NULL with an exception. */
static PyObject *distinct_result(Py_ssize_t m, const Py_ssize_t *per_shape, Py_ssize_t N, const int64_t *top,
                                 Py_ssize_t dim, const int64_t *least, Py_ssize_t n)
{
    PyObject *result = NULL, *counts = PyList_New(N), *reach = counts ? PyTuple_New(dim) : NULL;
    if (!reach)
        goto done;
    for (Py_ssize_t s = 0; s < N; s++) {
        PyObject *number = PyLong_FromSsize_t(per_shape[s]);
        if (!number)
            goto done;
        PyList_SET_ITEM(counts, s, number);
    }
    for (Py_ssize_t d = 0; d < dim; d++) {
        PyObject *v = PyLong_FromLongLong(top[d] + 1);
        if (!v)
            goto done;
        PyTuple_SET_ITEM(reach, d, v);
    }
    result = Py_BuildValue("nOOO", m, counts, reach, leasts_unique(least, N, n) ? Py_True : Py_False);
done:
    Py_XDECREF(counts);
    Py_XDECREF(reach);
    return result;
}

static PyObject *distinct(PyObject *self, PyObject *args)
{
    Py_ssize_t N, n, count, radix, dim;
    Py_buffer codes, keys, cells, of_shape, rank, kept, least;
    if (!PyArg_ParseTuple(args, "y*nnnnnw*w*w*w*w*w*", &codes, &N, &n, &count, &radix, &dim, &keys, &cells,
                          &of_shape, &rank, &kept, &least))
        return NULL;
    Py_buffer *held[] = {&codes, &keys, &cells, &of_shape, &rank, &kept, &least};
    PyObject *result = NULL;
    int64_t *image = NULL, *top = NULL;
    uint64_t largest;
    if (distinct_sizes(N, n, count, radix, dim, held + 1) < 0
        || code_bits(&codes, times(times(N, count), n), &largest) < 0)
        goto done;
    image = PyMem_Malloc(sizeof(int64_t) * (size_t)(n + dim + count));
    if (!image) {
        PyErr_NoMemory();
        goto done;
    }
    /* An image's sorted keys as one word (the first key the most significant) when n keys of `bits` bits fit in
     * 63: the words are then ordered as the keys' sequences, and equal exactly when they are. */
    int bits = 1;
    while (bits < 63 && largest >> bits)
        bits++;
    int packed = n * bits <= 63;
    uint64_t *word = (uint64_t *)(image + n + dim);   /* the words of the shape's kept images */
    uint64_t inverse = UINT64_MAX / (uint64_t)radix + 1;   /* x / radix = x * inverse >> 64 for x < 2 ** 32 */
    top = image + n;   /* the largest coordinate of a kept image, per axis */
    for (Py_ssize_t d = 0; d < dim; d++)
        top[d] = -1;
    Py_ssize_t *per_shape = PyMem_Malloc(sizeof(Py_ssize_t) * (size_t)(N ? N : 1));
    if (!per_shape) {
        PyErr_NoMemory();
        goto done;
    }
    Images in = {.code = codes.buf, .radix = radix, .inverse = inverse};
    Kept out = {image, top, keys.buf, cells.buf, least.buf, word, of_shape.buf, rank.buf, kept.buf, per_shape};
    Py_ssize_t m = search(&in, &out, N, n, count, dim, bits, packed);
    result = distinct_result(m, per_shape, N, top, dim, least.buf, n);
    PyMem_Free(per_shape);
done:
    PyMem_Free(image);
    release(held, sizeof held / sizeof held[0]);
    return result;
}

/* An exact int of one digit (below 2 ** 30 in size, every coordinate of a cell in practice) read without a call;
 * 1 when it is one (its value in *out), else 0 (the caller reads it with PyLong_AsLongLong). */
static inline __attribute__((always_inline)) int small_int(PyObject *v, int64_t *out)
{
#if PY_VERSION_HEX >= 0x030C0000
    if (!PyUnstable_Long_IsCompact((PyLongObject *)v))
        return 0;
    *out = (int64_t)PyUnstable_Long_CompactValue((PyLongObject *)v);
#else
    Py_ssize_t size = Py_SIZE(v);
    if (size < -1 || size > 1)
        return 0;
    *out = (int64_t)size * (int64_t)((PyLongObject *)v)->ob_digit[0];   /* size 0: the digit is allocated */
#endif
    return 1;
}

/* The dim integers of cell c of a sequence made by PySequence_Fast into out; 0, or -1 with an exception:
 * TypeError for a cell that is not a tuple or a list of ints (the caller may convert it and try again),
 * ValueError for one of another length, OverflowError for an int beyond 64 bits. Only ints are read (never
 * __index__), so no Python code runs and the borrowed items stay valid. */
static inline __attribute__((always_inline)) int cell_coords(PyObject *seq, Py_ssize_t c, Py_ssize_t dim, int64_t *out)
{
    PyObject *cell = PySequence_Fast_GET_ITEM(seq, c), **items;
    Py_ssize_t size;
    if (PyTuple_Check(cell))
        items = &PyTuple_GET_ITEM(cell, 0), size = PyTuple_GET_SIZE(cell);
    else if (PyList_Check(cell))
        items = &PyList_GET_ITEM(cell, 0), size = PyList_GET_SIZE(cell);
    else {
        PyErr_SetString(PyExc_TypeError, "cells: a cell is not a tuple or a list of integers");
        return -1;
    }
    if (size != dim) {
        PyErr_SetString(PyExc_ValueError, "cells: a cell has another number of coordinates");
        return -1;
    }
    for (Py_ssize_t d = 0; d < dim; d++) {
        if (PyLong_CheckExact(items[d]) && small_int(items[d], out + d))
            continue;
        if (!PyLong_Check(items[d])) {
            PyErr_SetString(PyExc_TypeError, "cells: a coordinate is not an integer");
            return -1;
        }
        long long v = PyLong_AsLongLong(items[d]);
        if (v == -1 && PyErr_Occurred())
            return -1;
        out[d] = v;
    }
    return 0;
}

/* The keys of every image of the N shapes (image_keys), inlined with constant din and dim; 0 when the key of an
 * image's least coordinates would pass 62 bits (nothing else can: image_keys bounds every sum), else 1. */
static inline __attribute__((always_inline)) int keys_of(const int64_t *at, const int64_t *col, int64_t *out,
                                                         Py_ssize_t N, Py_ssize_t n, Py_ssize_t din, Py_ssize_t count,
                                                         Py_ssize_t dim, int64_t radix, int64_t mask)
{
    Py_ssize_t width = (dim + 1) * count;
    int64_t raw[MAX_DIM + 1], low[MAX_DIM];
    for (Py_ssize_t s = 0; s < N; s++) {
        const int64_t *xs = at + s * n * din;
        int64_t *os = out + s * n * count;
        for (Py_ssize_t k = 0; k < count; k++) {
            int64_t cf[MAX_DIM + 1][MAX_DIM];   /* map k's coefficients, read once (registers, for constant sizes) */
            for (Py_ssize_t i = 0; i <= dim; i++)
                for (Py_ssize_t d = 0; d < din; d++)
                    cf[i][d] = col[d * width + i * count + k];
            for (Py_ssize_t j = 0; j < n; j++) {
                for (Py_ssize_t i = 0; i <= dim; i++) {
                    int64_t v = 0;
                    for (Py_ssize_t d = 0; d < din; d++)
                        v += xs[j * din + d] * cf[i][d];
                    raw[i] = v;
                }
                for (Py_ssize_t i = 0; i < dim; i++)
                    if (j == 0 || raw[i] < low[i])
                        low[i] = raw[i];
                os[j * count + k] = raw[dim];
            }
            int64_t shift = 0;
            for (Py_ssize_t i = 0; i < dim; i++)
                if (__builtin_mul_overflow(shift, radix, &shift) || __builtin_add_overflow(shift, low[i], &shift)
                    || shift > (INT64_C(1) << 62) || shift < -(INT64_C(1) << 62))
                    return 0;
            shift &= mask;
            for (Py_ssize_t j = 0; j < n; j++)
                os[j * count + k] -= shift;
        }
    }
    return 1;
}

/* keys_of with the common din and dim as constants (out of line: compiled apart from image_keys' checks). */
static __attribute__((noinline)) int all_keys(const int64_t *at, const int64_t *col, int64_t *out, Py_ssize_t N,
                                              Py_ssize_t n, Py_ssize_t din, Py_ssize_t count, Py_ssize_t dim,
                                              int64_t radix, int64_t mask)
{
    if (din == 2 && dim == 2 && n == 5)   /* (the free polyforms of five cells: their loops unrolled) */
        return keys_of(at, col, out, N, 5, 2, count, 2, radix, mask);
    if (din == 4 && dim == 2 && n == 5)
        return keys_of(at, col, out, N, 5, 4, count, 2, radix, mask);
    if (din == 2 && dim == 2)
        return keys_of(at, col, out, N, n, 2, count, 2, radix, mask);
    if (din == 3 && dim == 3)
        return keys_of(at, col, out, N, n, 3, count, 3, radix, mask);
    if (din == 4 && dim == 2)
        return keys_of(at, col, out, N, n, 4, count, 2, radix, mask);
    return keys_of(at, col, out, N, n, din, count, dim, radix, mask);
}

/* The keys of every image of the N shapes (image_keys) through the maps' forms: each distinct coordinate column
 * of the maps (a linear form of a cell's din inputs, U of them: on every grid few, each image coordinate being
 * plus or minus one of a handful) evaluated once per shape and cell, with its least value over the shape (value,
 * U x n; least, U); image k's coordinate i is form use[k * dim + i], its keys the forms' values weighted by
 * weight[i] (radix ** (dim - 1 - i)) less the key of their least values, ANDed with mask. The same keys as
 * keys_of when each map's key column is the weighted sum of its coordinate columns (image_keys checks it, and
 * that no sum passes 62 bits), at a few operations per cell and image instead of a product per coordinate.
 * Inlined with constant n, din and dim where they are common. */
static inline __attribute__((always_inline)) void keys_by_forms(const int64_t *at, const int64_t *form, Py_ssize_t U,
                                                                const int32_t *use, const int64_t *weight,
                                                                int64_t *out, Py_ssize_t N, Py_ssize_t n,
                                                                Py_ssize_t din, Py_ssize_t count, Py_ssize_t dim,
                                                                int64_t mask, int64_t *value, int64_t *least)
{
    int64_t w[MAX_DIM];
    for (Py_ssize_t i = 0; i < dim; i++)
        w[i] = weight[i];
    for (Py_ssize_t s = 0; s < N; s++) {
        int64_t *os = out + s * n * count;
        form_values(at + s * n * din, form, U, n, din, value, least, NULL);
        for (Py_ssize_t k = 0; k < count; k++) {
            const int32_t *uk = use + k * dim;
            int64_t shift = 0;
            for (Py_ssize_t i = 0; i < dim; i++)
                shift += w[i] * least[uk[i]];
            shift &= mask;
            for (Py_ssize_t j = 0; j < n; j++) {
                int64_t key = -shift;
                for (Py_ssize_t i = 0; i < dim; i++)
                    key += w[i] * value[uk[i] * n + j];
                os[j * count + k] = key;
            }
        }
    }
}

/* keys_by_forms with the common sizes as constants (out of line). */
static __attribute__((noinline)) void all_keys_by_forms(const int64_t *at, const int64_t *form, Py_ssize_t U,
                                                        const int32_t *use, const int64_t *weight, int64_t *out,
                                                        Py_ssize_t N, Py_ssize_t n, Py_ssize_t din, Py_ssize_t count,
                                                        Py_ssize_t dim, int64_t mask, int64_t *value, int64_t *least)
{
    if (din == 2 && dim == 2 && n == 5)
        keys_by_forms(at, form, U, use, weight, out, N, 5, 2, count, 2, mask, value, least);
    else if (din == 4 && dim == 2 && n == 5)
        keys_by_forms(at, form, U, use, weight, out, N, 5, 4, count, 2, mask, value, least);
    else if (din == 3 && dim == 3 && n == 5)
        keys_by_forms(at, form, U, use, weight, out, N, 5, 3, count, 3, mask, value, least);
    else if (din == 2 && dim == 2)
        keys_by_forms(at, form, U, use, weight, out, N, n, 2, count, 2, mask, value, least);
    else if (din == 4 && dim == 2)
        keys_by_forms(at, form, U, use, weight, out, N, n, 4, count, 2, mask, value, least);
    else if (din == 3 && dim == 3)
        keys_by_forms(at, form, U, use, weight, out, N, n, 3, count, 3, mask, value, least);
    else
        keys_by_forms(at, form, U, use, weight, out, N, n, din, count, dim, mask, value, least);
}

/* The maps' forms for keys_by_forms (form, U x din, the distinct coordinate columns; use, count x dim, the form of
 * each map's coordinate; weight, dim), when every map's key column is its coordinate columns weighted by
 * radix ** (dim - 1 - i) and no image key's sum can pass 62 bits (the cells' inputs at most xmax in size); the
 * number of forms U, or 0 (then keys_of finds the keys). form holds dim * count * din entries. */
static __attribute__((noinline)) Py_ssize_t map_forms(const int64_t *col, Py_ssize_t din, Py_ssize_t count,
                                                      Py_ssize_t dim, int64_t radix, uint64_t xmax, int64_t *form,
                                                      int32_t *use, int64_t *weight)
{
    Py_ssize_t width = (dim + 1) * count, U = 0;
    int64_t wi = 1;
    for (Py_ssize_t i = dim - 1; i >= 0; i--) {
        weight[i] = wi;
        if (i && __builtin_mul_overflow(wi, radix, &wi))
            return 0;
    }
    uint64_t largest = 0;   /* the largest sum of a form's coefficients in size */
    for (Py_ssize_t k = 0; k < count; k++) {
        for (Py_ssize_t d = 0; d < din; d++) {   /* the key column: the weighted coordinate columns */
            int64_t sum = 0, term;
            for (Py_ssize_t i = 0; i < dim; i++)
                if (__builtin_mul_overflow(weight[i], col[d * width + i * count + k], &term)
                    || __builtin_add_overflow(sum, term, &sum))
                    return 0;
            if (sum != col[d * width + dim * count + k])
                return 0;
        }
        for (Py_ssize_t i = 0; i < dim; i++) {
            Py_ssize_t u = 0;
            for (; u < U; u++) {
                Py_ssize_t d = 0;
                while (d < din && form[u * din + d] == col[d * width + i * count + k])
                    d++;
                if (d == din)
                    break;
            }
            if (u == U) {
                uint64_t size = 0;
                for (Py_ssize_t d = 0; d < din; d++) {
                    int64_t c = form[U * din + d] = col[d * width + i * count + k];
                    size += c < 0 ? 0 - (uint64_t)c : (uint64_t)c;   /* (image_keys bounds each below 2 ** 62) */
                }
                largest = size > largest ? size : largest;
                U++;
            }
            use[k * dim + i] = (int32_t)u;
        }
    }
    /* every value of a form at most xmax * largest in size, every key's sum of weighted values below 2 ** 62 */
    uint64_t bound, total = 0, term;
    if (__builtin_mul_overflow(xmax, largest, &bound))
        return 0;
    for (Py_ssize_t i = 0; i < dim; i++)
        if (__builtin_mul_overflow((uint64_t)weight[i], bound, &term) || __builtin_add_overflow(total, term, &total))
            return 0;
    return total < (UINT64_C(1) << 62) ? U : 0;
}

/* read_shapes()'s pass over the N shapes' inputs (at, n cells of din each): per input the largest spread of a
 * shape's values (spread); returns the largest input in size. Inlined with a constant din where it is common. */
static inline __attribute__((always_inline)) uint64_t shape_ranges(const int64_t *at, Py_ssize_t N, Py_ssize_t n,
                                                                   Py_ssize_t din, uint64_t *spread)
{
    uint64_t xmax = 0, most[MAX_DIM];
    int64_t lo[MAX_DIM], hi[MAX_DIM];
    for (Py_ssize_t d = 0; d < din; d++)
        most[d] = 0;
    for (Py_ssize_t s = 0; s < N; s++) {
        const int64_t *v = at + s * n * din;
        for (Py_ssize_t d = 0; d < din; d++)
            lo[d] = hi[d] = v[d];
        for (Py_ssize_t j = 0; j < n * din; j += din)
            for (Py_ssize_t d = 0; d < din; d++) {
                lo[d] = v[j + d] < lo[d] ? v[j + d] : lo[d];
                hi[d] = v[j + d] > hi[d] ? v[j + d] : hi[d];
            }
        for (Py_ssize_t d = 0; d < din; d++) {
            uint64_t a = lo[d] < 0 ? 0 - (uint64_t)lo[d] : (uint64_t)lo[d], b = hi[d] < 0 ? 0 - (uint64_t)hi[d] : (uint64_t)hi[d];
            xmax = a > xmax ? a : xmax;
            xmax = b > xmax ? b : xmax;
            most[d] = (uint64_t)hi[d] - (uint64_t)lo[d] > most[d] ? (uint64_t)hi[d] - (uint64_t)lo[d] : most[d];
        }
    }
    for (Py_ssize_t d = 0; d < din; d++)
        spread[d] = most[d];
    return xmax;
}

/* image_keys()'s and forms()'s reading of the shapes and their checks: the N shapes' cells (cells_in: N * n tuples
 * of din ints, or with nested N sequences of n such tuples) into *at (din int64 per cell, PyMem_Malloc), the maps'
 * forms (map_forms: *form, with weight and use after the forms, PyMem_Malloc; *U the number, 0 when the keys are to
 * be summed map by map) and a bound on the spread of an image's coordinates on one axis (*extent). 0, or -1 with an
 * exception (*at and *form then NULL or to be freed by the caller all the same). */
static int read_shapes(PyObject *cells_in, Py_ssize_t N, Py_ssize_t n, Py_ssize_t din, const Py_buffer *columns,
                       Py_ssize_t count, Py_ssize_t dim, Py_ssize_t radix, int nested, int64_t **at_out,
                       int64_t **form_out, Py_ssize_t *U, uint64_t *extent_out)
{
    if (N < 0 || n <= 0 || n > MAX_CELLS || din <= 0 || din > MAX_DIM || dim <= 0 || dim > MAX_DIM || count <= 0
        || count > 1024 || radix < 2 || radix > RADIX_MAX) {
        PyErr_SetString(PyExc_ValueError, "orientations: sizes out of range");
        return -1;
    }
    Py_ssize_t cells = times(N, n), width = (dim + 1) * count;
    if (cells < 0 || !holds(columns, times(din, width), 8)) {
        PyErr_SetString(PyExc_ValueError, "orientations: buffer sizes do not match");
        return -1;
    }
    PyObject *seq = PySequence_Fast(cells_in, "orientations: the cells are not a sequence");
    if (!seq)
        return -1;
    int result = -1;
    if (PySequence_Fast_GET_SIZE(seq) != (nested ? N : cells)) {
        PyErr_SetString(PyExc_ValueError, nested ? "orientations: not N shapes" : "orientations: not N * n cells");
        goto done;
    }
    int64_t *at = *at_out = PyMem_Malloc(sizeof(int64_t) * (size_t)(cells * din + 1));
    if (!at) {
        PyErr_NoMemory();
        goto done;
    }
    uint64_t xmax, cmax = 0;   /* every sum of products at most xmax * cmax: below 2 ** 62, or refused */
    uint64_t spread[MAX_DIM];   /* per input, the largest spread of a shape's values */
    if (nested)   /* each shape's n cells */
        for (Py_ssize_t s = 0; s < N; s++) {
            PyObject *shape = PySequence_Fast(PySequence_Fast_GET_ITEM(seq, s), "orientations: a shape is not a "
                                              "sequence of cells");
            int read = shape ? 0 : -1;
            if (shape && PySequence_Fast_GET_SIZE(shape) != n) {
                PyErr_SetString(PyExc_ValueError, "orientations: a shape has not n cells");
                read = -1;
            }
            for (Py_ssize_t j = 0; read == 0 && j < n; j++)
                read = cell_coords(shape, j, din, at + (s * n + j) * din);
            Py_XDECREF(shape);
            if (read < 0)
                goto done;
        }
    else
        for (Py_ssize_t c = 0; c < cells; c++)   /* each cell's din integers (coordinates, or more) */
            if (cell_coords(seq, c, din, at + c * din) < 0)
                goto done;
    xmax = din == 2 ? shape_ranges(at, N, n, 2, spread) : din == 3 ? shape_ranges(at, N, n, 3, spread)
        : shape_ranges(at, N, n, din, spread);
    const int64_t *col = columns->buf;
    for (Py_ssize_t i = 0; i < width; i++) {
        uint64_t sum = 0;
        for (Py_ssize_t d = 0; d < din; d++) {
            int64_t v = col[d * width + i];
            sum += v < -(INT64_C(1) << 40) || v > (INT64_C(1) << 40) ? UINT64_C(1) << 62 : (uint64_t)(v < 0 ? -v : v);
        }
        cmax = sum > cmax ? sum : cmax;
    }
    if (cmax && xmax > (UINT64_C(1) << 62) / cmax) {
        PyErr_SetString(PyExc_OverflowError, "orientations: the images' keys would pass 62 bits");
        goto done;
    }
    uint64_t extent = 0;   /* at least the spread of an image's coordinates on one axis (at most 2 xmax cmax) */
    for (Py_ssize_t i = 0; i < dim * count; i++) {
        uint64_t sum = 0;
        for (Py_ssize_t d = 0; d < din; d++) {
            int64_t m = col[d * width + i];
            sum += (m < 0 ? 0 - (uint64_t)m : (uint64_t)m) * spread[d];
        }
        extent = sum > extent ? sum : extent;
    }
    *extent_out = extent;
    Py_ssize_t forms = times(times(dim, count), din);   /* (at most 16 * 1024 * 16) */
    int64_t *form = *form_out = PyMem_Malloc(sizeof(int64_t) * (size_t)(forms + dim)
                                             + sizeof(int32_t) * (size_t)(dim * count));
    if (!form) {
        PyErr_NoMemory();
        goto done;
    }
    int64_t *weight = form + forms;
    *U = map_forms(col, din, count, dim, radix, xmax, form, (int32_t *)(weight + dim), weight);
    result = 0;
done:
    Py_DECREF(seq);
    return result;
}

static PyObject *image_keys(PyObject *self, PyObject *args)
{
    Py_ssize_t N, n, din, count, dim, radix, U = 0;
    long long mask;
    PyObject *cells_in;
    Py_buffer columns, codes;
    int nested = 0;
    if (!PyArg_ParseTuple(args, "Onnny*nnnLw*|p", &cells_in, &N, &n, &din, &columns, &count, &dim, &radix, &mask,
                          &codes, &nested))
        return NULL;
    Py_buffer *held[] = {&columns, &codes};
    PyObject *result = NULL;
    int64_t *at = NULL, *form = NULL, *value = NULL;
    uint64_t extent;
    if (read_shapes(cells_in, N, n, din, &columns, count, dim, radix, nested, &at, &form, &U, &extent) < 0)
        goto done;
    Py_ssize_t entries = times(times(N, n), count);
    if (entries < 0 || !holds(&codes, entries, 8)) {
        PyErr_SetString(PyExc_ValueError, "orientations: buffer sizes do not match");
        goto done;
    }
    Py_ssize_t forms = dim * count * din;
    int64_t *weight = form + forms;
    int32_t *use = (int32_t *)(weight + dim);
    if (U) {   /* each form's value at each cell of a shape, then its least value */
        value = PyMem_Malloc(sizeof(int64_t) * (size_t)(U * (n + 1)));
        if (!value) {
            PyErr_NoMemory();
            goto done;
        }
        all_keys_by_forms(at, form, U, use, weight, codes.buf, N, n, din, count, dim, mask, value, value + U * n);
    }
    else if (!all_keys(at, columns.buf, codes.buf, N, n, din, count, dim, radix, mask)) {
        PyErr_SetString(PyExc_OverflowError, "orientations: the images' keys would pass 62 bits");
        goto done;
    }
    result = PyLong_FromUnsignedLongLong(extent);
done:
    PyMem_Free(at);
    PyMem_Free(form);
    PyMem_Free(value);
    release(held, sizeof held / sizeof held[0]);
    return result;
}

static PyObject *forms(PyObject *self, PyObject *args)
{
    Py_ssize_t N, n, count, dim, radix, U = 0;
    PyObject *cells_in;
    Py_buffer columns, keys, cells, of_shape, rank, kept, least;
    if (!PyArg_ParseTuple(args, "Onny*nnnw*w*w*w*w*w*", &cells_in, &N, &n, &columns, &count, &dim, &radix, &keys,
                          &cells, &of_shape, &rank, &kept, &least))
        return NULL;
    Py_buffer *held[] = {&columns, &keys, &cells, &of_shape, &rank, &kept, &least};
    PyObject *result = NULL;
    int64_t *at = NULL, *form = NULL, *value = NULL;
    Py_ssize_t *per_shape = NULL;
    uint64_t extent, largest = 0, limit = 1, term;
    if (distinct_sizes(N, n, count, radix, dim, held + 1) < 0
        || read_shapes(cells_in, N, n, dim, &columns, count, dim, radix, 1, &at, &form, &U, &extent) < 0)
        goto done;
    Py_ssize_t forms = dim * count * dim;
    int64_t *weight = form + forms;
    int32_t *use = (int32_t *)(weight + dim);
    /* the keys those of the cells (every coordinate of an image below radix), each at most extent times the sum of
     * the weights (largest), with room for a cell's index in 3 bits: else None */
    int taken = n <= 8 && U > 0 && extent + 2 <= (uint64_t)radix;
    for (Py_ssize_t d = 0; taken && d < dim; d++)
        taken = !__builtin_mul_overflow(limit, (uint64_t)radix, &limit) && limit <= (UINT64_C(1) << 59)
            && !__builtin_mul_overflow(extent, (uint64_t)weight[d], &term) && !__builtin_add_overflow(largest, term, &largest);
    if (!taken) {
        result = Py_NewRef(Py_None);
        goto done;
    }
    int bits = 1;   /* (distinct()'s packed words) */
    while (bits < 63 && largest >> bits)
        bits++;
    value = PyMem_Malloc(sizeof(int64_t) * (size_t)(U * (n + 2) + dim + count));
    per_shape = PyMem_Malloc(sizeof(Py_ssize_t) * (size_t)(N ? N : 1));
    if (!value || !per_shape) {
        PyErr_NoMemory();
        goto done;
    }
    int64_t *top = value + U * (n + 2);   /* the largest coordinate of a kept image, per axis */
    for (Py_ssize_t d = 0; d < dim; d++)
        top[d] = -1;
    Images in = {.at = at, .form = form, .weight = weight, .use = use, .U = U, .value = value};
    Kept out = {NULL, top, keys.buf, cells.buf, least.buf, (uint64_t *)(top + dim), of_shape.buf, rank.buf, kept.buf,
                per_shape};
    Py_ssize_t m = search(&in, &out, N, n, count, dim, bits, n * bits <= 63);
    result = distinct_result(m, per_shape, N, top, dim, least.buf, n);
done:
    PyMem_Free(at);
    PyMem_Free(form);
    PyMem_Free(value);
    PyMem_Free(per_shape);
    release(held, sizeof held / sizeof held[0]);
    return result;
}

/* The cells of a region as a sequence (PySequence_Fast: a new reference), dim checked; NULL with an exception. */
static PyObject *region_cells(PyObject *cells, Py_ssize_t dim)
{
    if (dim <= 0 || dim > MAX_DIM) {
        PyErr_SetString(PyExc_ValueError, "region: dim out of range");
        return NULL;
    }
    return PySequence_Fast(cells, "region: the cells are not a sequence");
}

/* The dim coordinates of a cell that is a tuple of dim exact ints of one digit each (small_int) into out, with one
 * type check per object: 1, else 0 (nothing promised in out: the caller reads the cell with cell_coords, which
 * converts or refuses the others). */
static inline __attribute__((always_inline)) int tuple_coords(PyObject *cell, Py_ssize_t dim, int64_t *out)
{
    if (!PyTuple_CheckExact(cell) || PyTuple_GET_SIZE(cell) != dim)
        return 0;
    for (Py_ssize_t d = 0; d < dim; d++) {
        PyObject *v = PyTuple_GET_ITEM(cell, d);
        if (!PyLong_CheckExact(v) || !small_int(v, out + d))
            return 0;
    }
    return 1;
}

/* cell_coords out of line: the rare cell tuple_coords does not read, kept out of the loops that call it. */
static __attribute__((noinline)) int other_coords(PyObject *seq, Py_ssize_t c, Py_ssize_t dim, int64_t *out)
{
    return cell_coords(seq, c, dim, out);
}

/* bounds()' pass over the n > 0 cells of a sequence (PySequence_Fast): their coordinates packed into at, the least
 * and largest per axis and a digest; 0, or -1 with an exception (cell_coords). Inlined with a constant dim where
 * it is common (the loops over a cell's axes unrolled, the running values in registers). */
static inline __attribute__((always_inline)) int bounds_core(PyObject *seq, Py_ssize_t n, Py_ssize_t dim,
                                                             int64_t *restrict at, int64_t *lo, int64_t *hi,
                                                             uint64_t *digest)
{
    uint64_t lane[MAX_DIM];   /* FNV-1a over each axis's coordinates, in order (one chain per axis: no wait for the
                               * previous axis's product), then over the lanes */
    int64_t least[MAX_DIM], most[MAX_DIM];
    PyObject *const *items = PySequence_Fast_ITEMS(seq);   /* (a tuple's or a list's: no branch on it per cell) */
    for (Py_ssize_t d = 0; d < dim; d++) {
        least[d] = INT64_MAX;
        most[d] = INT64_MIN;
        lane[d] = 0xcbf29ce484222325u ^ (uint64_t)n;
    }
    for (Py_ssize_t c = 0; c < n; c++, at += dim) {
        if (!tuple_coords(items[c], dim, at) && other_coords(seq, c, dim, at) < 0)
            return -1;
        for (Py_ssize_t d = 0; d < dim; d++) {
            least[d] = at[d] < least[d] ? at[d] : least[d];
            most[d] = at[d] > most[d] ? at[d] : most[d];
            lane[d] = (lane[d] ^ (uint64_t)at[d]) * 0x100000001b3u;
        }
    }
    uint64_t h = 0xcbf29ce484222325u;
    for (Py_ssize_t d = 0; d < dim; d++) {
        h = (h ^ lane[d]) * 0x100000001b3u;
        lo[d] = least[d];
        hi[d] = most[d];
    }
    *digest = h;
    return 0;
}

static PyObject *bounds(PyObject *self, PyObject *args)
{
    PyObject *cells, *seq, *low = NULL, *high = NULL, *coords = NULL, *result = NULL;
    Py_ssize_t dim;
    if (!PyArg_ParseTuple(args, "On", &cells, &dim) || !(seq = region_cells(cells, dim)))
        return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    int64_t lo[MAX_DIM], hi[MAX_DIM];
    if (n == 0) {
        PyErr_SetString(PyExc_ValueError, "region: no cells");
        goto done;
    }
    if (n > PY_SSIZE_T_MAX / 8 / dim) {
        PyErr_NoMemory();
        goto done;
    }
    coords = PyBytes_FromStringAndSize(NULL, 8 * n * dim);
    if (!coords)
        goto done;
    uint64_t digest;
    int read = dim == 2 ? bounds_core(seq, n, 2, (int64_t *)PyBytes_AS_STRING(coords), lo, hi, &digest)
        : dim == 3 ? bounds_core(seq, n, 3, (int64_t *)PyBytes_AS_STRING(coords), lo, hi, &digest)
        : bounds_core(seq, n, dim, (int64_t *)PyBytes_AS_STRING(coords), lo, hi, &digest);
    if (read < 0)
        goto done;
    low = PyTuple_New(dim);
    high = PyTuple_New(dim);
    if (!low || !high)
        goto done;
    for (Py_ssize_t d = 0; d < dim; d++) {
        PyObject *a = PyLong_FromLongLong(lo[d]), *b = PyLong_FromLongLong(hi[d]);
        if (a)
            PyTuple_SET_ITEM(low, d, a);
        if (b)
            PyTuple_SET_ITEM(high, d, b);
        if (!a || !b)
            goto done;
    }
    PyObject *hash = PyLong_FromUnsignedLongLong(digest);
    if (hash) {
        result = PyTuple_Pack(4, low, high, hash, coords);
        Py_DECREF(hash);
    }
done:
    Py_XDECREF(low);
    Py_XDECREF(high);
    Py_XDECREF(coords);
    Py_DECREF(seq);
    return result;
}

/* A cell's flat position: its coordinates times the strides, less base (unsigned: a position out of range wraps,
 * and the fill's checks refuse it). */
static inline __attribute__((always_inline)) int64_t position(const char *at, const int64_t *stride, Py_ssize_t dim,
                                                              long long base)
{
    uint64_t v = 0;
    for (Py_ssize_t d = 0; d < dim; d++) {
        int64_t x;
        memcpy(&x, at + 8 * d, 8);   /* one int64 (a move): no alignment promised for packed coordinates */
        v += (uint64_t)x * (uint64_t)stride[d];
    }
    return (int64_t)(v - (uint64_t)base);
}

static PyObject *flatten(PyObject *self, PyObject *args)
{
    PyObject *cells, *strides, *seq, *result = NULL;
    long long base;
    if (!PyArg_ParseTuple(args, "OO!L", &cells, &PyTuple_Type, &strides, &base))
        return NULL;
    Py_ssize_t dim = PyTuple_GET_SIZE(strides);
    int64_t stride[MAX_DIM], at[MAX_DIM];
    if (dim <= 0 || dim > MAX_DIM) {
        PyErr_SetString(PyExc_ValueError, "region: dim out of range");
        return NULL;
    }
    for (Py_ssize_t d = 0; d < dim; d++) {
        stride[d] = PyLong_AsLongLong(PyTuple_GET_ITEM(strides, d));
        if (stride[d] == -1 && PyErr_Occurred())
            return NULL;
        if (stride[d] < 0 || stride[d] > (1LL << 40)) {
            PyErr_SetString(PyExc_ValueError, "region: a stride is out of range");
            return NULL;
        }
    }
    if (PyObject_CheckBuffer(cells)) {   /* packed coordinates (bounds(), an int64 array): no cell read again */
        Py_buffer packed;
        if (PyObject_GetBuffer(cells, &packed, PyBUF_C_CONTIGUOUS) < 0)
            return NULL;
        Py_ssize_t n = packed.len / 8 / dim;
        if (packed.len != 8 * n * dim)
            PyErr_SetString(PyExc_ValueError, "region: packed coordinates of another number of axes");
        else if ((result = PyBytes_FromStringAndSize(NULL, 8 * n))) {
            int64_t *out = (int64_t *)PyBytes_AS_STRING(result);
            const char *in = packed.buf;
            if (dim == 2)   /* (a constant dim: the loop over the axes unrolled) */
                for (Py_ssize_t c = 0; c < n; c++)
                    out[c] = position(in + 16 * c, stride, 2, base);
            else if (dim == 3)
                for (Py_ssize_t c = 0; c < n; c++)
                    out[c] = position(in + 24 * c, stride, 3, base);
            else
                for (Py_ssize_t c = 0; c < n; c++)
                    out[c] = position(in + 8 * c * dim, stride, dim, base);
        }
        PyBuffer_Release(&packed);
        return result;
    }
    if (!(seq = region_cells(cells, dim)))
        return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    result = PyBytes_FromStringAndSize(NULL, 8 * n);
    if (!result)
        goto done;
    int64_t *out = (int64_t *)PyBytes_AS_STRING(result);
    for (Py_ssize_t c = 0; c < n; c++) {
        if (cell_coords(seq, c, dim, at) < 0) {
            Py_CLEAR(result);
            goto done;
        }
        out[c] = position((const char *)at, stride, dim, base);
    }
done:
    Py_DECREF(seq);
    return result;
}

/* The dim ints of a tuple into out (each within +-2 ** 40); 0, or -1 with ValueError. */
static int small_ints(PyObject *tuple, Py_ssize_t dim, int64_t *out)
{
    if (!PyTuple_Check(tuple) || PyTuple_GET_SIZE(tuple) != dim) {
        PyErr_SetString(PyExc_ValueError, "region: low and size need one int per axis");
        return -1;
    }
    for (Py_ssize_t d = 0; d < dim; d++) {
        long long v = PyLong_AsLongLong(PyTuple_GET_ITEM(tuple, d));
        if (v == -1 && PyErr_Occurred())
            return -1;
        if (v < -(1LL << 40) || v > (1LL << 40)) {
            PyErr_SetString(PyExc_ValueError, "region: low or size out of range");
            return -1;
        }
        out[d] = v;
    }
    return 0;
}

static PyObject *layout(PyObject *self, PyObject *args)
{
    Py_buffer where;
    Py_ssize_t area, first_optional, top;
    PyObject *low_in, *size_in;
    if (!PyArg_ParseTuple(args, "y*nnO!O!n", &where, &area, &first_optional, &PyTuple_Type, &low_in, &PyTuple_Type,
                          &size_in, &top))
        return NULL;
    PyObject *item = NULL, *offset = NULL, *shifted = NULL, *result = NULL;
    uint64_t *mask = NULL;
    Py_ssize_t dim = PyTuple_GET_SIZE(size_in), n = where.len / 8, total = 1;
    int64_t low[MAX_DIM], size[MAX_DIM], index[MAX_DIM];
    if (dim <= 0 || dim > MAX_DIM || where.len % 8 || !aligned(&where, 8) || area < 0 || area > n
        || first_optional < 0 || first_optional > UINT32_MAX - n || top < 0) {
        PyErr_SetString(PyExc_ValueError, "region: sizes out of range");
        goto done;
    }
    if (small_ints(low_in, dim, low) < 0 || small_ints(size_in, dim, size) < 0)
        goto done;
    for (Py_ssize_t d = 0; d < dim; d++)
        if (size[d] <= 0 || (total = times(total, size[d])) < 0 || total > UINT32_MAX) {
            PyErr_SetString(PyExc_ValueError, "region: the array's size is out of range");
            goto done;
        }
    Py_ssize_t W = (total + 63) / 64, rows = times(top, W), coords = times(total, dim);
    if (rows < 0 || rows > PY_SSIZE_T_MAX / 8 || coords < 0 || coords > PY_SSIZE_T_MAX / 4) {
        PyErr_SetString(PyExc_ValueError, "region: the array's size is out of range");
        goto done;
    }
    const int64_t *at = where.buf;
    for (Py_ssize_t c = 0; c < n; c++)
        if (at[c] < 0 || at[c] >= total) {
            PyErr_SetString(PyExc_ValueError, "region: a cell lies outside the array");
            goto done;
        }
    item = PyByteArray_FromStringAndSize(NULL, 4 * total);
    offset = PyByteArray_FromStringAndSize(NULL, 4 * coords);
    if (!item || !offset)
        goto done;
    uint32_t *it = (uint32_t *)PyByteArray_AS_STRING(item);
    memset(it, 0xFF, (size_t)(4 * total));
    for (Py_ssize_t c = 0; c < n; c++)
        it[at[c]] = (uint32_t)(c < area ? c : first_optional + (c - area));
    int32_t *off = (int32_t *)PyByteArray_AS_STRING(offset);
    if (dim == 2)   /* rows then columns: loops the compiler vectorises */
        for (int64_t i = 0; i < size[0]; i++)
            for (int64_t j = 0; j < size[1]; j++, off += 2) {
                off[0] = (int32_t)(low[0] + i);
                off[1] = (int32_t)(low[1] + j);
            }
    else {
        for (Py_ssize_t d = 0; d < dim; d++)
            index[d] = 0;
        for (Py_ssize_t p = 0; p < total; p++, off += dim) {   /* positions in row-major order, the last axis fastest */
            for (Py_ssize_t d = 0; d < dim; d++)
                off[d] = (int32_t)(low[d] + index[d]);
            for (Py_ssize_t d = dim - 1; d >= 0 && ++index[d] == size[d]; d--)
                index[d] = 0;
        }
    }
    if (top) {
        Py_ssize_t padded = W + (top >> 6) + 2;   /* zero words past the end: the shifts read them */
        mask = PyMem_Calloc((size_t)padded, 8);
        shifted = PyByteArray_FromStringAndSize(NULL, 8 * rows);
        if (!mask || !shifted) {
            if (!mask)
                PyErr_NoMemory();
            goto done;
        }
        for (Py_ssize_t c = 0; c < n; c++)
            mask[at[c] >> 6] |= UINT64_C(1) << (at[c] & 63);
        uint64_t *row = (uint64_t *)PyByteArray_AS_STRING(shifted);
        for (Py_ssize_t f = 0; f < top; f++, row += W) {
            const uint64_t *from = mask + (f >> 6);
            int r = (int)(f & 63);
            if (r)
                for (Py_ssize_t w = 0; w < W; w++)
                    row[w] = from[w] >> r | from[w + 1] << (64 - r);
            else
                memcpy(row, from, (size_t)(8 * W));
        }
    }
    else
        shifted = Py_NewRef(Py_None);
    result = PyTuple_Pack(3, item, offset, shifted);
done:
    Py_XDECREF(item);
    Py_XDECREF(offset);
    Py_XDECREF(shifted);
    PyMem_Free(mask);
    PyBuffer_Release(&where);
    return result;
}

/* Checks an option table's row pointers (ptr, n + 1 of them, starting at 0, not falling, within the n_indices
 * entries) and its options' types (types, n of them, each below n_types): 0, or -1 with a ValueError naming the
 * function (name). */
static int check_table(const char *name, const uint32_t *ptr, Py_ssize_t n, Py_ssize_t n_indices,
                       const int32_t *types, Py_ssize_t n_types)
{
    if (ptr[0] != 0 || ptr[n] > (uint64_t)n_indices) {
        PyErr_Format(PyExc_ValueError, "%s: the options' items lie outside their buffer", name);
        return -1;
    }
    for (Py_ssize_t o = 0; o < n; o++)
        if (ptr[o + 1] < ptr[o] || types[o] < 0 || types[o] >= n_types) {
            PyErr_Format(PyExc_ValueError, "%s: an option's items or type are out of range", name);
            return -1;
        }
    return 0;
}

/* A 64-bit hash of a key: a type and its sorted cell items (a multiply-xorshift mix per item). */
static inline uint64_t key_hash(int32_t type, const int64_t *items, Py_ssize_t n)
{
    uint64_t h = 0x9E3779B97F4A7C15ULL * (uint64_t)(uint32_t)(type + 1);
    for (Py_ssize_t i = 0; i < n; i++) {
        h ^= (uint64_t)items[i];
        h *= 0xBF58476D1CE4E5B9ULL;
        h ^= h >> 31;
    }
    return h ^ (h >> 29);
}

/* A 64-bit hash of a key given as a type and the mask of its cell items (images_by_masks). */
static inline uint64_t mask_hash(int32_t type, uint64_t mask)
{
    uint64_t h = (mask ^ 0x9E3779B97F4A7C15ULL * (uint64_t)(uint32_t)(type + 1)) * 0xBF58476D1CE4E5B9ULL;
    h ^= h >> 31;
    h *= 0x94D049BB133111EBULL;
    return h ^ (h >> 29);
}

/* images() where every cell item is below 64: a key held as the mask of its cell items, its image under a map the
 * mask of their images, not sorted; the same keys and images (two items of a key mapped onto one, or onto an item
 * of 64 or more: no key, as a sorted key with that item twice or beyond every key's). Returns 1 when written, 0
 * when an option names a cell item twice (keys with it twice: the caller's sorted keys), -1 on an error (set). */
static int images_by_masks(const uint32_t *ptr, const uint32_t *idx, const int32_t *types, const int32_t *imap,
                           const int32_t *tmap, Py_ssize_t n, Py_ssize_t n_items, Py_ssize_t n_types, Py_ssize_t G,
                           int64_t *image, int32_t *image32, int wide)
{
    Py_ssize_t size = 1;
    while (size < 2 * n)
        size <<= 1;
    uint64_t *mk = PyMem_Malloc(8 * ((size_t)n + (size_t)size));
    if (!mk) {
        PyErr_NoMemory();
        return -1;
    }
    int64_t *slots = (int64_t *)(mk + n);
    for (Py_ssize_t o = 0; o < n; o++) {
        uint64_t m = 0;
        for (uint32_t j = ptr[o]; j < ptr[o + 1]; j++) {
            if (idx[j] >= (uint64_t)n_items) {
                PyErr_SetString(PyExc_ValueError, "images: an option's items or type are out of range");
                PyMem_Free(mk);
                return -1;
            }
            if (imap[idx[j]] < 0)
                continue;
            const uint64_t bit = (uint64_t)1 << idx[j];
            if (m & bit) {
                PyMem_Free(mk);
                return 0;
            }
            m |= bit;
        }
        mk[o] = m;
    }
    for (Py_ssize_t q = 0; q < size; q++)
        slots[q] = -1;
    for (Py_ssize_t o = 0; o < n; o++) { /* an equal key: the later option takes the slot (as a dict would) */
        Py_ssize_t q = (Py_ssize_t)(mask_hash(types[o], mk[o]) & (uint64_t)(size - 1));
        while (slots[q] >= 0 && !(mk[slots[q]] == mk[o] && types[slots[q]] == types[o]))
            q = (q + 1) & (size - 1);
        slots[q] = o;
    }
    for (Py_ssize_t g = 0; g < G; g++) {
        const int32_t *m = imap + g * n_items, *tm = tmap + g * n_types;
        for (Py_ssize_t o = 0; o < n; o++) {
            const int32_t t2 = tm[types[o]];
            int64_t found = -1;
            uint64_t y = 0;
            int none = t2 < 0;
            for (uint64_t x = mk[o]; x && !none; x &= x - 1) {
                const int32_t c = m[__builtin_ctzll(x)];
                none = c >= 64 || (y >> c & 1);
                y |= none ? 0 : (uint64_t)1 << c;
            }
            if (!none)
                for (Py_ssize_t q = (Py_ssize_t)(mask_hash(t2, y) & (uint64_t)(size - 1)); slots[q] >= 0;
                     q = (q + 1) & (size - 1))
                    if (mk[slots[q]] == y && types[slots[q]] == t2) {
                        found = slots[q];
                        break;
                    }
            if (wide)
                image[g * n + o] = found;
            else
                image32[g * n + o] = (int32_t)found;
        }
    }
    PyMem_Free(mk);
    return 1;
}

static PyObject *images(PyObject *self, PyObject *args)
{
    Py_buffer indptr, indices, otype, item_map, type_map, out;
    Py_ssize_t n_items, n_types;
    int width = 8;
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*nnw*|i", &indptr, &indices, &otype, &item_map, &type_map, &n_items,
                          &n_types, &out, &width))
        return NULL;
    Py_buffer *held[] = {&indptr, &indices, &otype, &item_map, &type_map, &out};
    PyObject *result = NULL;
    void *arena = NULL;   /* every array below, in one allocation */
    Py_ssize_t n = otype.len / 4, G = 0;
    /* an empty buffer holds no item to align (CPython gives an empty array an address of its own) */
#define ALIGNED(b, size) ((b).len == 0 || aligned(&(b), size))
    if (n_items <= 0 || n_types <= 0 || n_items > INT32_MAX || n_types > INT32_MAX || otype.len % 4
        || indptr.len != times(n + 1, 4) || !ALIGNED(indptr, 4) || indices.len % 4 || item_map.len % (4 * n_items)
        || !ALIGNED(indices, 4) || !ALIGNED(otype, 4) || !ALIGNED(item_map, 4) || !ALIGNED(type_map, 4)
        || !ALIGNED(out, 4)) {
        PyErr_SetString(PyExc_ValueError, "images: buffer sizes do not match");
        goto done;
    }
    G = item_map.len / (4 * n_items);
    /* out: int64, or int32 (what the kernels take) with width 4 */
    const int wide = width != 4;
    if ((width != 4 && width != 8) || type_map.len != times(times(G, n_types), 4) || out.len != times(times(G, n), wide ? 8 : 4)
        || (wide && !ALIGNED(out, 8))) {
        PyErr_SetString(PyExc_ValueError, "images: buffer sizes do not match");
        goto done;
    }
#undef ALIGNED
    const uint32_t *ptr = indptr.buf, *idx = indices.buf;
    const int32_t *types = otype.buf, *imap = item_map.buf, *tmap = type_map.buf;
    int64_t *image = out.buf;
    int32_t *image32 = out.buf;
    if (G == 0 || n == 0) {
        result = Py_NewRef(Py_None);
        goto done;
    }
    if (check_table("images", ptr, n, indices.len / 4, types, n_types) < 0)
        goto done;
    for (Py_ssize_t i = 0; i < G * n_items; i++)
        if (imap[i] < -1 || imap[i] >= n_items || (imap[i] < 0) != (imap[i % n_items] < 0)) {
            PyErr_SetString(PyExc_ValueError, "images: an item map is out of range");
            goto done;
        }
    for (Py_ssize_t i = 0; i < G * n_types; i++)
        if (tmap[i] < -1 || tmap[i] >= n_types) {
            PyErr_SetString(PyExc_ValueError, "images: a type map is out of range");
            goto done;
        }
    Py_ssize_t top = -1; /* the last cell item */
    for (Py_ssize_t i = 0; i < n_items; i++)
        if (imap[i] >= 0)
            top = i;
    if (top < 64) {
        const int by_masks = images_by_masks(ptr, idx, types, imap, tmap, n, n_items, n_types, G, image, image32, wide);
        if (by_masks) {
            result = by_masks > 0 ? Py_NewRef(Py_None) : NULL;
            goto done;
        }
    }
    /* each option's key (its cell items, sorted, one after the other, as int64 for sort_keys) and where it
     * starts, its hash, the hash table's slots (an option, or -1) and a key's image */
    Py_ssize_t size = 1, widest = 0;
    while (size < 2 * n)
        size <<= 1;
    for (Py_ssize_t o = 0; o < n; o++)
        if ((Py_ssize_t)(ptr[o + 1] - ptr[o]) > widest)
            widest = ptr[o + 1] - ptr[o];
    arena = PyMem_Malloc(8 * ((size_t)ptr[n] + (size_t)(n + 1) + (size_t)n + (size_t)size + (size_t)widest + 1));
    if (!arena) {
        PyErr_NoMemory();
        goto done;
    }
    int64_t *keys = arena, *start = keys + ptr[n], *slots = start + n + 1, *buf = slots + size;
    uint64_t *hashes = (uint64_t *)(buf + widest + 1);
    int64_t e = 0;
    for (Py_ssize_t o = 0; o < n; o++) {
        start[o] = e;
        for (uint32_t j = ptr[o]; j < ptr[o + 1]; j++) {
            if (idx[j] >= (uint64_t)n_items) {
                PyErr_SetString(PyExc_ValueError, "images: an option's items or type are out of range");
                goto done;
            }
            if (imap[idx[j]] >= 0)
                keys[e++] = idx[j];
        }
        sort_keys(keys + start[o], e - start[o]);
    }
    start[n] = e;
    for (Py_ssize_t s = 0; s < size; s++)
        slots[s] = -1;
    for (Py_ssize_t o = 0; o < n; o++) {
        uint64_t h = hashes[o] = key_hash(types[o], keys + start[o], start[o + 1] - start[o]);
        Py_ssize_t s = (Py_ssize_t)(h & (uint64_t)(size - 1));
        while (slots[s] >= 0) {   /* an equal key: the later option takes the slot (as a dict would) */
            int64_t q = slots[s];
            if (hashes[q] == h && types[q] == types[o] && start[q + 1] - start[q] == start[o + 1] - start[o]
                && !memcmp(keys + start[q], keys + start[o], (size_t)(start[o + 1] - start[o]) * 8))
                break;
            s = (s + 1) & (size - 1);
        }
        slots[s] = o;
    }
    for (Py_ssize_t g = 0; g < G; g++) {
        const int32_t *m = imap + g * n_items, *tm = tmap + g * n_types;
        for (Py_ssize_t o = 0; o < n; o++) {
            int32_t t2 = tm[types[o]];
            int64_t len = start[o + 1] - start[o];
            if (t2 < 0) {
                if (wide)
                    image[g * n + o] = -1;
                else
                    image32[g * n + o] = -1;
                continue;
            }
            for (Py_ssize_t j = 0; j < len; j++)
                buf[j] = m[keys[start[o] + j]];
            sort_keys(buf, len);
            uint64_t h = key_hash(t2, buf, len);
            Py_ssize_t s = (Py_ssize_t)(h & (uint64_t)(size - 1));
            int64_t found = -1;
            for (; slots[s] >= 0; s = (s + 1) & (size - 1)) {
                int64_t q = slots[s];
                if (hashes[q] == h && types[q] == t2 && start[q + 1] - start[q] == len
                    && !memcmp(keys + start[q], buf, (size_t)len * 8)) {
                    found = q;
                    break;
                }
            }
            if (wide)
                image[g * n + o] = found;
            else
                image32[g * n + o] = (int32_t)found;
        }
    }
    result = Py_NewRef(Py_None);
done:
    PyMem_Free(arena);
    release(held, sizeof held / sizeof held[0]);
    return result;
}

/* orbits(indptr, indices, option_type, type_item, perms, n_cells) -> [(ptr, items), ...]: for each of the G option
 * permutations (perms, int32, G x n), the exact-cover matrix of the solutions it maps onto themselves
 * (ubongo_cp.solvers.fixed.fixed_point_matrices): one option per orbit of the permutation on the options, taken at
 * its least option, whose placements do not overlap (on the cell items, those below n_cells), which is met from no
 * lesser option (an image of -1 included), and which places no type of type_item >= 0 (int32 per type: the item
 * of a type with one copy, -1 for the others) twice; the option covers its placements' cell items (each
 * placement's in table order, in the orbit's order: o, perm[o], ...) then those types' items (in the same order).
 * ptr (uint32, options + 1) and items (uint32) as bytes. indptr, uint32 (n + 1), and indices, uint32, the
 * options' items; option_type, int32 (n). */
static PyObject *orbits(PyObject *self, PyObject *args)
{
    Py_buffer indptr, indices, otype, titem, perms;
    Py_ssize_t n_cells;
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*n", &indptr, &indices, &otype, &titem, &perms, &n_cells))
        return NULL;
    Py_buffer *held[] = {&indptr, &indices, &otype, &titem, &perms};
    PyObject *result = NULL;
    void *arena = NULL;
    Py_ssize_t n = otype.len / 4, n_types = titem.len / 4, G = 0;
#define ALIGNED(b) ((b).len == 0 || aligned(&(b), 4))
    if (n_cells < 0 || n_cells > INT32_MAX || otype.len % 4 || titem.len % 4 || indices.len % 4 || perms.len % 4
        || indptr.len != times(n + 1, 4) || !ALIGNED(indptr) || !ALIGNED(indices) || !ALIGNED(otype)
        || !ALIGNED(titem) || !ALIGNED(perms) || (n == 0 ? perms.len != 0 : perms.len % times(n, 4))) {
        PyErr_SetString(PyExc_ValueError, "orbits: buffer sizes do not match");
        goto done;
    }
#undef ALIGNED
    G = n ? perms.len / (4 * n) : 0;
    const uint32_t *ptr = indptr.buf, *idx = indices.buf;
    const int32_t *types = otype.buf, *item_of = titem.buf, *perm = perms.buf;
    if (check_table("orbits", ptr, n, indices.len / 4, types, n_types) < 0)
        goto done;
    for (Py_ssize_t i = 0; i < G * n; i++)
        if (perm[i] < -1 || perm[i] >= n) {
            PyErr_SetString(PyExc_ValueError, "orbits: a permutation's entry is out of range");
            goto done;
        }
    for (Py_ssize_t t = 0; t < n_types; t++)
        if (item_of[t] < -1) {
            PyErr_SetString(PyExc_ValueError, "orbits: a type's item is out of range");
            goto done;
        }
    /* per cell item the orbit that last covered it (g * n + o: one number per orbit), the orbit's options and its
     * types of one copy, and one matrix's ptr and items (each option in one orbit at most: its cells, one type) */
    size_t cells = (size_t)n_cells, nn = (size_t)n, entries = (size_t)ptr[n];
    arena = PyMem_Malloc(8 * cells + 4 * (nn + nn + (nn + 1) + entries + nn) + 8);
    if (!arena) {
        PyErr_NoMemory();
        goto done;
    }
    int64_t *stamp = arena;
    int32_t *orbit = (int32_t *)(stamp + cells), *single = orbit + nn;
    uint32_t *out_ptr = (uint32_t *)(single + nn), *out_items = out_ptr + nn + 1;
    for (size_t c = 0; c < cells; c++)
        stamp[c] = -1;
    result = PyList_New(G);
    if (!result)
        goto done;
    for (Py_ssize_t g = 0; g < G; g++) {
        const int32_t *p = perm + g * n;
        Py_ssize_t rows = 0, e = 0;
        out_ptr[0] = 0;
        for (Py_ssize_t o = 0; o < n; o++) {
            if (p[o] < o)
                continue;   /* an orbit is taken at its least option */
            const int64_t id = (int64_t)g * n + o;
            Py_ssize_t len = 0, ns = 0;
            int ok = 1;
            for (int32_t q = (int32_t)o;;) {
                for (uint32_t j = ptr[q]; j < ptr[q + 1]; j++)
                    if (idx[j] < (uint64_t)n_cells) {
                        if (stamp[idx[j]] == id) {
                            ok = 0;   /* two placements of the orbit overlap */
                            break;
                        }
                        stamp[idx[j]] = id;
                    }
                if (!ok)
                    break;
                orbit[len++] = q;
                q = p[q];
                if (q == o)
                    break;
                if (q < o || len == n) {
                    ok = 0;   /* met from a lesser option (or none) */
                    break;
                }
            }
            if (!ok)
                continue;
            for (Py_ssize_t k = 0; k < len && ok; k++) {
                const int32_t t = types[orbit[k]];
                if (item_of[t] < 0)
                    continue;
                for (Py_ssize_t m = 0; m < ns; m++)
                    if (single[m] == t) {
                        ok = 0;   /* a type with one copy placed twice */
                        break;
                    }
                single[ns++] = t;
            }
            if (!ok)
                continue;
            for (Py_ssize_t k = 0; k < len; k++)
                for (uint32_t j = ptr[orbit[k]]; j < ptr[orbit[k] + 1]; j++)
                    if (idx[j] < (uint64_t)n_cells)
                        out_items[e++] = idx[j];
            for (Py_ssize_t m = 0; m < ns; m++)
                out_items[e++] = (uint32_t)item_of[single[m]];
            out_ptr[++rows] = (uint32_t)e;
        }
        PyObject *pair = Py_BuildValue("(y#y#)", (const char *)out_ptr, (Py_ssize_t)(4 * (rows + 1)),
                                       (const char *)out_items, (Py_ssize_t)(4 * e));
        if (!pair) {
            Py_CLEAR(result);
            goto done;
        }
        PyList_SET_ITEM(result, g, pair);
    }
done:
    PyMem_Free(arena);
    release(held, sizeof held / sizeof held[0]);
    return result;
}

static int compare_int64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* orientations(cells, maps, count, dim) -> list of shapes: the images of a shape (cells: tuples of dim ints) under
 * the first count maps (int64, count x dim x dim: coordinate i of the image is sum_d map[i][d] x_d), each moved to
 * normal position (its least coordinate 0 on every axis) with its cells sorted, each kept once, in the order of
 * the maps (ubongo_cp.grids.Grid.orientations). */
static PyObject *orientations(PyObject *self, PyObject *args)
{
    PyObject *cells;
    Py_buffer bm = {0};
    Py_ssize_t count, dim;
    if (!PyArg_ParseTuple(args, "Oy*nn", &cells, &bm, &count, &dim))
        return NULL;
    PyObject *seq = NULL, *result = NULL;
    int64_t *at = NULL, *img = NULL, *keys = NULL;
    Py_ssize_t *kept = NULL;
    if (dim < 1 || dim > MAX_DIM || count < 1 || bm.itemsize != 8 || bm.len != (Py_ssize_t)(count * dim * dim * 8) ||
        !aligned(&bm, 8)) {
        PyErr_SetString(PyExc_ValueError, "orientations: count maps of dim x dim int64 needed");
        goto done;
    }
    seq = PySequence_Fast(cells, "orientations: cells must be a sequence");
    if (!seq)
        goto done;
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n < 1 || n > MAX_CELLS) {
        PyErr_SetString(PyExc_ValueError, "orientations: 1 to 2**20 cells needed");
        goto done;
    }
    at = PyMem_Malloc((size_t)(n * dim) * sizeof(int64_t));
    img = PyMem_Malloc((size_t)(count * n * dim) * sizeof(int64_t));
    keys = PyMem_Malloc((size_t)(count * n) * sizeof(int64_t));
    kept = PyMem_Malloc((size_t)count * sizeof(Py_ssize_t));
    if (!at || !img || !keys || !kept) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t c = 0; c < n; c++)
        if (cell_coords(seq, c, dim, at + c * dim) < 0)
            goto done;
    const int64_t *maps = bm.buf;
    const int64_t bound = INT64_C(1) << 40; /* coordinates and map entries within it: no sum overflows */
    int64_t top = 0;   /* the largest coordinate of an image in normal position */
    for (Py_ssize_t c = 0; c < n * dim; c++)
        if (at[c] > bound || at[c] < -bound) {
            PyErr_SetString(PyExc_OverflowError, "orientations: a coordinate is too large");
            goto done;
        }
    for (Py_ssize_t k = 0; k < count * dim * dim; k++)
        if (maps[k] > 64 || maps[k] < -64) {
            PyErr_SetString(PyExc_OverflowError, "orientations: a map's entry is too large");
            goto done;
        }
    for (Py_ssize_t k = 0; k < count; k++) {
        const int64_t *m = maps + k * dim * dim;
        int64_t *im = img + k * n * dim, low[MAX_DIM];
        for (Py_ssize_t c = 0; c < n; c++)
            for (Py_ssize_t i = 0; i < dim; i++) {
                int64_t v = 0;
                for (Py_ssize_t d = 0; d < dim; d++)
                    v += m[i * dim + d] * at[c * dim + d];
                im[c * dim + i] = v;
                if (c == 0 || v < low[i])
                    low[i] = v;
            }
        for (Py_ssize_t c = 0; c < n * dim; c++) {
            im[c] -= low[c % dim];
            if (im[c] > top)
                top = im[c];
        }
    }
    /* each image's cells as keys in base top + 1, the first coordinate the most significant; sorted */
    const int64_t radix = top + 1;
    int64_t weight[MAX_DIM];
    weight[dim - 1] = 1;
    for (Py_ssize_t i = dim - 2; i >= 0; i--)
        if (__builtin_mul_overflow(weight[i + 1], radix, &weight[i]) || weight[i] > (INT64_C(1) << 62) / radix) {
            PyErr_SetString(PyExc_OverflowError, "orientations: the cells are too far apart");
            goto done;
        }
    Py_ssize_t distinct = 0;
    for (Py_ssize_t k = 0; k < count; k++) {
        int64_t *ks = keys + k * n;
        const int64_t *im = img + k * n * dim;
        for (Py_ssize_t c = 0; c < n; c++) {
            int64_t v = 0;
            for (Py_ssize_t i = 0; i < dim; i++)
                v += im[c * dim + i] * weight[i];
            ks[c] = v;
        }
        if (n <= 32)
            for (Py_ssize_t a = 1; a < n; a++) { /* insertion sort */
                int64_t v = ks[a];
                Py_ssize_t b = a;
                while (b > 0 && ks[b - 1] > v) {
                    ks[b] = ks[b - 1];
                    b--;
                }
                ks[b] = v;
            }
        else
            qsort(ks, (size_t)n, sizeof(int64_t), compare_int64);
        int seen = 0;
        for (Py_ssize_t j = 0; j < distinct && !seen; j++)
            seen = memcmp(keys + kept[j] * n, ks, (size_t)n * sizeof(int64_t)) == 0;
        if (!seen)
            kept[distinct++] = k;
    }
    result = PyList_New(distinct);
    for (Py_ssize_t j = 0; result && j < distinct; j++) { /* each kept image's cells, decoded from its keys */
        PyObject *shape = shape_of_keys(keys + kept[j] * n, n, dim, radix);
        if (!shape)
            Py_CLEAR(result);
        else
            PyList_SET_ITEM(result, j, shape);
    }
done:
    Py_XDECREF(seq);
    PyMem_Free(at), PyMem_Free(img), PyMem_Free(keys), PyMem_Free(kept);
    PyBuffer_Release(&bm);
    return result;
}

/* counts(indices, n) -> list: how often each of n items occurs in indices (uint32). */
static PyObject *counts(PyObject *self, PyObject *args)
{
    Py_buffer b = {0};
    Py_ssize_t n;
    if (!PyArg_ParseTuple(args, "y*n", &b, &n))
        return NULL;
    PyObject *result = NULL;
    Py_ssize_t *tally = NULL;
    if (b.itemsize != 4 || b.len % 4 || n < 0 || n > PY_SSIZE_T_MAX / (Py_ssize_t)sizeof(Py_ssize_t)) {
        PyErr_SetString(PyExc_ValueError, "counts: uint32 indices and a number of items needed");
        goto done;
    }
    tally = PyMem_Calloc((size_t)n + 1, sizeof(Py_ssize_t));
    if (!tally) {
        PyErr_NoMemory();
        goto done;
    }
    const uint32_t *at = b.buf;
    for (Py_ssize_t i = 0, m = b.len / 4; i < m; i++) {
        if ((Py_ssize_t)at[i] >= n) {
            PyErr_Format(PyExc_ValueError, "counts: item %u outside 0..%zd", at[i], n - 1);
            goto done;
        }
        tally[at[i]]++;
    }
    result = PyList_New(n);
    for (Py_ssize_t i = 0; result && i < n; i++) {
        PyObject *v = PyLong_FromSsize_t(tally[i]);
        if (!v) {
            Py_CLEAR(result);
            break;
        }
        PyList_SET_ITEM(result, i, v);
    }
done:
    PyMem_Free(tally);
    PyBuffer_Release(&b);
    return result;
}

/* representatives(rows, start, stop) -> (reps, short): the options q of start .. stop - 1 that no permutation of
 * rows (a tuple of int32 buffers, one option permutation each, every image >= 0) maps below q, in increasing order
 * (the least of each orbit, when the range is closed under the group the rows and the identity form), and for
 * each whether some row maps it onto itself (a short orbit), as bools. */
static PyObject *representatives(PyObject *self, PyObject *args)
{
    PyObject *rows;
    Py_ssize_t start, stop;
    if (!PyArg_ParseTuple(args, "O!nn", &PyTuple_Type, &rows, &start, &stop))
        return NULL;
    const Py_ssize_t G = PyTuple_GET_SIZE(rows);
    Py_buffer *views = PyMem_Calloc((size_t)G + 1, sizeof(Py_buffer));
    const int32_t **perm = PyMem_Calloc((size_t)G + 1, sizeof(int32_t *));
    PyObject *reps = NULL, *shorts = NULL, *result = NULL;
    Py_ssize_t got = 0;
    if (!views || !perm) {
        PyErr_NoMemory();
        goto done;
    }
    for (; got < G; got++) {
        if (PyObject_GetBuffer(PyTuple_GET_ITEM(rows, got), &views[got], PyBUF_SIMPLE) < 0)
            goto done;
        if (!aligned(&views[got], 4) || views[got].len % 4 || start < 0 || stop < start || views[got].len / 4 < stop) {
            got++;
            PyErr_SetString(PyExc_ValueError, "representatives: int32 rows holding options start .. stop - 1 needed");
            goto done;
        }
        perm[got] = views[got].buf;
    }
    reps = PyList_New(0);
    shorts = PyList_New(0);
    if (!reps || !shorts)
        goto done;
    for (Py_ssize_t q = start; q < stop; q++) {
        int least = 1, fixed = 0;
        for (Py_ssize_t g = 0; g < G && least; g++) {
            const int32_t x = perm[g][q];
            least = x >= q;
            fixed |= x == q;
        }
        if (!least)
            continue;
        PyObject *v = PyLong_FromSsize_t(q);
        if (!v || PyList_Append(reps, v) < 0 || PyList_Append(shorts, fixed ? Py_True : Py_False) < 0) {
            Py_XDECREF(v);
            goto done;
        }
        Py_DECREF(v);
    }
    result = PyTuple_Pack(2, reps, shorts);
done:
    for (Py_ssize_t g = 0; g < got; g++)
        PyBuffer_Release(&views[g]);
    PyMem_Free(views);
    PyMem_Free(perm);
    Py_XDECREF(reps);
    Py_XDECREF(shorts);
    return result;
}

/* masks(indptr, indices, n) -> list: each option's items below n (at most 64) as the bits of an int. */
static PyObject *masks(PyObject *self, PyObject *args)
{
    Py_buffer bp = {0}, bi = {0};
    Py_ssize_t n;
    if (!PyArg_ParseTuple(args, "y*y*n", &bp, &bi, &n))
        return NULL;
    PyObject *result = NULL;
    if (bp.itemsize != 4 || bi.itemsize != 4 || bp.len % 4 || bi.len % 4 || bp.len < 4 || n < 0 || n > 64) {
        PyErr_SetString(PyExc_ValueError, "masks: uint32 indptr and indices, and at most 64 items, needed");
        goto done;
    }
    const uint32_t *ptr = bp.buf, *at = bi.buf;
    const Py_ssize_t options = bp.len / 4 - 1, entries = bi.len / 4;
    result = PyList_New(options);
    for (Py_ssize_t o = 0; result && o < options; o++) {
        if (ptr[o] > ptr[o + 1] || (Py_ssize_t)ptr[o + 1] > entries) {
            PyErr_SetString(PyExc_ValueError, "masks: indptr must rise to len(indices)");
            Py_CLEAR(result);
            break;
        }
        uint64_t m = 0;
        for (uint32_t q = ptr[o]; q < ptr[o + 1]; q++)
            if ((Py_ssize_t)at[q] < n)
                m |= (uint64_t)1 << at[q];
        PyObject *v = PyLong_FromUnsignedLongLong(m);
        if (!v) {
            Py_CLEAR(result);
            break;
        }
        PyList_SET_ITEM(result, o, v);
    }
done:
    PyBuffer_Release(&bp);
    PyBuffer_Release(&bi);
    return result;
}

/* missing(masks, covered) -> bytes: 1 for each mask (uint64) that has no bit of ``covered`` (an int below 2^64), else 0
 * (the symmetry plan's representatives that fit beside its prefix). */
static PyObject *missing(PyObject *self, PyObject *args)
{
    Py_buffer bm = {0};
    PyObject *cov;
    if (!PyArg_ParseTuple(args, "y*O", &bm, &cov))
        return NULL;
    PyObject *result = NULL;
    const uint64_t covered = PyLong_AsUnsignedLongLong(cov);
    if (covered == (uint64_t)-1 && PyErr_Occurred())
        goto done;
    if (bm.len % 8 || !aligned(&bm, 8)) {
        PyErr_SetString(PyExc_ValueError, "missing: uint64 masks needed");
        goto done;
    }
    const Py_ssize_t n = bm.len / 8;
    const uint64_t *m = bm.buf;
    result = PyBytes_FromStringAndSize(NULL, n);
    if (!result)
        goto done;
    char *out = PyBytes_AS_STRING(result);
    for (Py_ssize_t i = 0; i < n; i++)
        out[i] = !(m[i] & covered);
done:
    PyBuffer_Release(&bm);
    return result;
}

/* Names of the attributes members() sets (interned when the module is loaded). */
static PyObject *batch_name, *number_name;

/* The offset in an instance of cls of its slot name (a member descriptor of an object held in the instance, found
 * on cls), or -1 when the attribute is something else: members() then sets it by its name. */
static Py_ssize_t slot_offset(PyTypeObject *cls, PyObject *name)
{
    PyObject *descr = _PyType_Lookup(cls, name);   /* (borrowed) */
    if (!descr || Py_TYPE(descr) != &PyMemberDescr_Type)
        return -1;
    PyMemberDef *member = ((PyMemberDescrObject *)descr)->d_member;
    return member->type == T_OBJECT_EX && !(member->flags & READONLY) ? member->offset : -1;
}

static PyObject *members(PyObject *self, PyObject *args)
{
    PyTypeObject *cls;
    PyObject *batch;
    Py_ssize_t n;
    if (!PyArg_ParseTuple(args, "O!On", &PyType_Type, &cls, &batch, &n))
        return NULL;
    if (n < 0 || !cls->tp_new) {
        PyErr_SetString(PyExc_ValueError, "members: a negative number, or a type that makes no instances");
        return NULL;
    }
    /* the slots written straight into each new instance when cls's __new__ is object's (the slots then empty)
     * and its attributes are slots of objects (LazyOrientations' __slots__): no attribute look-up per instance */
    Py_ssize_t at_batch = cls->tp_new == PyBaseObject_Type.tp_new ? slot_offset(cls, batch_name) : -1;
    Py_ssize_t at_number = at_batch < 0 ? -1 : slot_offset(cls, number_name);
    PyObject *empty = PyTuple_New(0), *result = empty ? PyList_New(n) : NULL;
    for (Py_ssize_t i = 0; result && i < n; i++) {
        PyObject *member = cls->tp_new(cls, empty, NULL), *number = member ? PyLong_FromSsize_t(i) : NULL;
        if (member)
            PyList_SET_ITEM(result, i, member);   /* (held by the list from here: freed with it) */
        if (number && at_number >= 0) {
            *(PyObject **)((char *)member + at_batch) = Py_NewRef(batch);
            *(PyObject **)((char *)member + at_number) = number;   /* (the reference handed over) */
            continue;
        }
        if (!number || PyObject_SetAttr(member, batch_name, batch) < 0
            || PyObject_SetAttr(member, number_name, number) < 0)
            Py_CLEAR(result);
        Py_XDECREF(number);
    }
    Py_XDECREF(empty);
    return result;
}

static PyMethodDef methods[] = {
    {"missing", missing, METH_VARARGS, "missing(masks, covered) -> bytes: 1 where a mask has no bit of covered"},
    {"counts", counts, METH_VARARGS, "counts(indices, n) -> list of n ints"},
    {"orientations", orientations, METH_VARARGS, "orientations(cells, maps, count, dim) -> list of shapes"},
    {"masks", masks, METH_VARARGS, "masks(indptr, indices, n) -> list of ints"},
    {"members", members, METH_VARARGS, "members(cls, batch, n) -> list of n instances of cls"},
    {"representatives", representatives, METH_VARARGS, "representatives(rows, start, stop) -> (reps, short)"},
    {"fits", fits, METH_VARARGS, "fits(shifted, rows, positions, k) -> (fit masks, number of fits)"},
    {"fill", fill, METH_VARARGS, "fill(masks, W, k, flats, item, offset, dim, of_type, rank, first_type, "
                                 "indptr, indices, option_type, orientation, option_offset, o0, e0) -> n"},
    {"bounds", bounds, METH_VARARGS, "bounds(cells, dim) -> (least coordinates, largest coordinates, digest, "
                                     "packed coordinates)"},
    {"flatten", flatten, METH_VARARGS, "flatten(cells, strides, base) -> bytes: int64 per cell"},
    {"layout", layout, METH_VARARGS, "layout(where, area, first_optional, low, size, top) -> (item, offset, shifted)"},
    {"image_keys", image_keys, METH_VARARGS, "image_keys(cells, N, n, din, columns, count, dim, radix, mask, codes"
                                             "[, nested]) -> extent"},
    {"forms", forms, METH_VARARGS, "forms(shapes, N, n, columns, count, dim, radix, keys, cells, of_shape, rank, "
                                   "kept, least) -> (rows, counts, reach, unique) or None"},
    {"distinct", distinct, METH_VARARGS, "distinct(codes, N, n, count, radix, dim, keys, cells, of_shape, rank, "
                                         "kept, least) -> (rows, counts, reach, least shapes)"},
    {"orbits", orbits, METH_VARARGS, "orbits(indptr, indices, option_type, type_item, perms, n_cells) -> "
                                     "[(ptr, items), ...]"},
    {"images", images, METH_VARARGS, "images(indptr, indices, option_type, item_map, type_map, n_items, n_types, "
                                     "out[, width]) -> None"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_placements",
                                    "The C fill of ubongo_cp.cover's placement table and the distinct "
                                    "orientations of ubongo_cp.grids.", -1, methods};

PyMODINIT_FUNC PyInit__placements(void)
{
#ifdef HAVE_POPCNT_VARIANT
    __builtin_cpu_init();
    hwpop = __builtin_cpu_supports("popcnt");
#endif
    batch_name = PyUnicode_InternFromString("batch");
    number_name = PyUnicode_InternFromString("number");
    if (!batch_name || !number_name)
        return NULL;
    return PyModule_Create(&module);
}
