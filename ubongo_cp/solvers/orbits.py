"""The orbit decomposition: count exact covers by searching one placement per symmetry orbit of one piece.

Let G be the region's symmetries that map the instance onto itself (all of
the region's symmetry group in free mode, UP-3; with one-sided or fixed
pieces those that map the piece multiset onto itself, relabelling a piece
as its mirror image where needed;
:attr:`~ubongo_cp.cover.ExactCoverInstance.option_perms`). G acts on the
solutions. Pick a piece type P with one copy that every symmetry in G maps
to itself (``symmetry_type_maps``) and split P's placements into G-orbits; keep only one *representative* placement per
orbit. Every solution orbit holds a solution with P at a representative, and
``g`` maps the solutions with P at ``r`` one-to-one onto those with P at
``g(r)``, so the fixed count (UP-5) is recovered exactly::

    count = sum over orbits O of P's placements of |O| x #{solutions with P at rep(O)}

computed as one search over the restricted instance in which each solution
found is weighted by the size of its representative's orbit. The reduced
count follows from Burnside's lemma without remembering any solution: the
images a found solution stands for share its stabiliser, so the driver adds
``weight x |stabiliser|`` per solution found and divides the sum by ``|G|``
(:func:`~ubongo_cp.solvers.base.drive`; a representative with a full orbit
has a trivial stabiliser, so no symmetry need be tried for it).
The piece is the one with the fewest orbits (e.g. X in the 6x10 rectangle:
32 placements, 8 orbits of size 4), so the search space shrinks about ``|G|``-fold.

Why P must have one copy: with two copies, a solution may hold P at two
representatives and would be found (and weighted) twice. Why every symmetry
must map P to itself: a reflection that maps a one-sided F to its mirror
image maps "F at ``r``" to "F' at ``g(r)``", not to "F at ``g(r)``".
Counts with multiplicities need nothing else: a solution is a set of
placements, and G permutes these sets. Each solution found also stands for its images under one symmetry per
placement of its representative's orbit (:meth:`Decomposition.images`), so
the solutions handed on are all the solutions, as with a plain search. When
no piece qualifies, or the instance has optional pieces (a solution need not
use P at all), or G is trivial, :func:`orbit_plan` returns ``None`` and the
driver (:func:`~ubongo_cp.solvers.base.drive`) runs the plain search.

References
----------
.. [1] D. E. Knuth, "Dancing Links", arXiv:cs/0011047 (2000), §"Applications
   to polyominoes": restricting the X pentomino to one quadrant of the 6x10
   rectangle to count the 2339 essentially different tilings.
.. [2] W. Burnside, *Theory of Groups of Finite Order* (1897): orbit counting.
"""

from __future__ import annotations

from array import array
from itertools import compress
from collections.abc import Iterator, Sequence

from .. import structs
from ..cover import ExactCoverInstance, kept
from ..grids.base import c_placements
from ..structs import NamedTuple, Struct
from .branch import Branch, maps_onto

TYPE_CHECKING = False

if TYPE_CHECKING:
    import numpy as np

__all__ = ["SymmetryPlan", "orbit_plan", "Decomposition"]


class SymmetryPlan(Struct):
    """How the orbit decomposition restricts one piece.

    A struct, not a named tuple: a count makes one only where numpy is loaded (:func:`orbit_plan`), and a named
    tuple's class is compiled as its module is imported.

    Attributes
    ----------
    piece : int
        Index (into ``instance.types``) of the restricted piece type.
    group_order : int
        ``|G|``: the identity plus the region symmetries that map placements to placements.
    keep : numpy.ndarray of bool, shape (n_options,)
        Options kept (all options of other pieces, P's representatives).
    weight : numpy.ndarray of int64, shape (n_options,)
        For P's representatives, the size of their orbit; 0 elsewhere.
    """

    piece: int
    group_order: int
    keep: np.ndarray
    weight: np.ndarray

    def __init__(self, piece: int, group_order: int, keep: np.ndarray, weight: np.ndarray) -> None:
        self._set(piece=piece, group_order=group_order, keep=keep, weight=weight)

    @property
    def n_orbits(self) -> int:
        """Number of orbits of the restricted piece's placements."""
        return int((self.weight > 0).sum())


def orbit_plan(instance: ExactCoverInstance) -> SymmetryPlan | None:
    """Plan the orbit decomposition of ``instance`` (see the module docstring).

    Returns
    -------
    SymmetryPlan or None
        ``None`` when it does not apply: trivial symmetry group, optional
        pieces, or no piece type with one copy that every symmetry maps to itself.

    Notes
    -----
    Cost ``O(|G| x placements)`` once the instance's option permutations are known.

    Examples
    --------
    >>> from ubongo_cp.pieces import load_pieces, Region
    >>> from ubongo_cp.cover import build_instance
    >>> plan = orbit_plan(build_instance(load_pieces("pentominoes").pieces, Region.rectangle(6, 10)))
    >>> load_pieces("pentominoes").pieces[plan.piece].name  # the piece type with the fewest orbits
    'X'
    >>> plan.group_order, plan.n_orbits, int(plan.weight.sum())
    (4, 8, 32)
    """
    import numpy as np

    if instance.optional_pieces or getattr(instance, "has_ranges", False) or len(instance.region_symmetries) <= 1 \
            or instance.n_options == 0:
        return None
    maps = instance.symmetry_type_maps
    unique = [t for t, k in enumerate(instance.type_counts.tolist()) if k == 1 and all(m[t] == t for m in maps)]
    perms = instance.option_perms
    if not unique or not perms:
        return None
    order = len(perms) + 1
    best = None
    for p in unique:
        opts = np.asarray(instance.item_options[instance.n_cells + p], dtype=np.int64)
        if len(opts) == 0:
            return None  # the pre-check reports this piece; nothing to plan
        orbit_min = opts.copy()
        for perm in perms:
            orbit_min = np.minimum(orbit_min, perm[opts])
        reps, sizes = np.unique(orbit_min, return_counts=True)
        score = (len(reps), -int((sizes == order).sum()), p)
        if best is None or score < best[0]:
            best = (score, p, reps, sizes)
    _, piece, reps, sizes = best
    keep = instance.option_type != piece
    keep[reps] = True
    weight = np.zeros(instance.n_options, dtype=np.int64)
    weight[reps] = sizes
    return SymmetryPlan(piece, order, keep, weight)


class Decomposition:
    """The restricted instance of a plan, and the map of its solutions back to the whole instance.

    Parameters
    ----------
    instance : ExactCoverInstance
        The whole instance.
    plan : SymmetryPlan
        From :func:`orbit_plan`.

    Attributes
    ----------
    restricted : ExactCoverInstance
        ``instance`` with only the options in ``plan.keep`` (the search runs on it).
    """

    def __init__(self, instance: ExactCoverInstance, plan: SymmetryPlan) -> None:
        self.instance = instance
        self.plan = plan
        self.restricted, self._original = _restrict(instance, plan.keep)
        self._cosets = _coset_perms(plan, instance.option_perms)

    def lift(self, options: Sequence[int]) -> tuple[np.ndarray, int]:
        """A solution of the restricted instance as option ids of the whole one, and its weight.

        The weight is the size of the orbit of the restricted piece's
        placement: the number of solutions of the whole instance it stands for.
        """
        import numpy as np

        original = self._original[np.asarray(options, dtype=np.int64)]
        rep = original[self.instance.option_type[original] == self.plan.piece][0]
        return original, int(self.plan.weight[rep])

    def images(self, original: np.ndarray) -> Iterator[list[int]]:
        """The solutions a lifted solution stands for (itself first), each sorted, lazily."""
        instance = self.instance
        rep = int(original[instance.option_type[original] == self.plan.piece][0])
        for perm in self._cosets[rep]:
            yield sorted(int(o) for o in (original if perm is None else perm[original]))

    def stats(self) -> dict:
        """What the decomposition did, for ``SolveResult.stats``."""
        plan = self.plan
        return {"symmetry": "orbits", "symmetry_piece": self.instance.type_piece(plan.piece).name,
                "group_order": plan.group_order, "orbits": plan.n_orbits}


def _restrict(instance: ExactCoverInstance, keep: np.ndarray) -> tuple[ExactCoverInstance, np.ndarray]:
    """The instance with only the options in ``keep``; and the original id of each kept option."""
    from array import array

    import numpy as np

    from ..cover import PlacementTable

    kept = np.nonzero(keep)[0]
    table = instance.table
    indptr, indices = array("I", [0]), array("I")
    for o in kept.tolist():
        indices.extend(table.indices[table.indptr[o]:table.indptr[o + 1]])
        indptr.append(len(indices))
    sub = structs.replace(instance, table=PlacementTable(
        indptr, indices, array("i", [table.option_type[o] for o in kept.tolist()]),
        array("h", [table.option_orientation[o] for o in kept.tolist()]),
        array("i", [v for o in kept.tolist() for v in table.option_offset[2 * o:2 * o + 2]])))
    return sub, kept


def _coset_perms(plan: SymmetryPlan, perms: list[np.ndarray]) -> dict[int, list]:
    """For each representative ``r``: one permutation per placement of r's orbit mapping r there (None = identity)."""
    import numpy as np

    out: dict[int, list] = {}
    for r in np.nonzero(plan.weight)[0]:
        r = int(r)
        targets = {r: None}
        for perm in perms:
            targets.setdefault(int(perm[r]), perm)
        out[r] = list(targets.values())
    return out



# ---------------------------------------------------------------------------------------------------------
# The whole reduction: a plan of branches (prefixes of fixed placements), searched one by one in C.

class BranchPlan(NamedTuple):
    """The orbit decomposition carried to the end (see :func:`symmetry_plan`).

    Attributes
    ----------
    branches : tuple of Branch
        The branches, in search order.
    group_order : int
        ``|G|``.
    levels : dict
        How many branching levels of each kind (``piece``, ``cell``, ``copies``) the plan used.
    """

    branches: tuple[Branch, ...]
    group_order: int
    levels: dict

    @property
    def enumerable(self) -> bool:
        """Every branch can list the solutions its own stand for (no ``copies`` level)."""
        return all(b.transversals is not None for b in self.branches)

    def stats(self) -> dict:
        """What the plan does, for ``SolveResult.stats``."""
        return {"symmetry": "orbits", "group_order": self.group_order, "branches": len(self.branches),
                **{f"levels_{k}": v for k, v in self.levels.items() if v}}


class _CellMasks(dict):
    """The cells of each option as a bit mask (bit ``i``: cell item ``i``), each made on first look-up (a plan looks
    at the options its representatives and prefixes meet, often few of the instance's); :func:`_cell_masks`."""

    def __init__(self, instance: ExactCoverInstance) -> None:
        super().__init__()
        table = instance.table
        self._indptr, self._indices = table.indptr, table.indices
        n_cells = instance.n_cells
        self._bit = [1 << i for i in range(n_cells)] + [0] * (instance.n_items - n_cells)

    def __missing__(self, o: int) -> int:
        # an option's items are distinct: the sum of their bits is their OR
        mask = self[o] = sum(map(self._bit.__getitem__, self._indices[self._indptr[o]:self._indptr[o + 1]]))
        return mask

    def of(self, options: Sequence[int]) -> list[int]:
        """The masks of ``options`` (those not made yet made in one pass, not kept)."""
        bit, indptr, indices = self._bit.__getitem__, self._indptr, self._indices
        return [sum(map(bit, indices[indptr[o]:indptr[o + 1]])) for o in options]


def _cell_masks(instance: ExactCoverInstance) -> list[int] | _CellMasks:
    """The cells of each option as a bit mask, looked up by option id: on a region of at most 64 cells every
    option's, made at once in C (the extension's ``masks``), as a list; else a :class:`_CellMasks`."""
    table = instance.table
    native = c_placements() if instance.n_cells <= 64 else None
    if native is not None and getattr(table.indices, "typecode", None) == "I":
        return native.masks(table.indptr, table.indices, instance.n_cells)
    return _CellMasks(instance)


def _masks_of(masks: list[int] | _CellMasks, options: Sequence[int]) -> array | list[int]:
    """The masks of ``options`` from :func:`_cell_masks`: as uint64 (an array, for the extension's ``missing``) where
    they were made in C."""
    if isinstance(masks, list):
        return array("Q", map(masks.__getitem__, options))
    return masks.of(options)


def symmetry_plan(instance: ExactCoverInstance, *, enumerable: bool = False, max_branches: int = 32,
                  inner: bool = True) -> BranchPlan | None:
    """The orbit decomposition to the last symmetry: every solution orbit searched about once.

    Let ``H`` be the group of the instance's symmetries that fix every placement of the prefix
    (at first all of ``G``, :attr:`~ubongo_cp.cover.ExactCoverInstance.option_perms`). A level picks
    a *selector*, a placement that every solution holding the prefix contains exactly once and that
    the symmetries of a subgroup ``H'`` of ``H`` carry along with the solution, and keeps one
    placement per ``H'``-orbit, weighted by the orbit's size; the next level repeats this with the
    representative's stabiliser in ``H'``, until no symmetry is left:

    - ``piece``: the placement of a piece type with one copy left that every symmetry of ``H`` maps
      to itself (``H' = H``), fewest orbits first. This breaks the reflection that fixes a
      representative on a mirror line (X on the middle row of the 5x12 rectangle: a second piece's
      chirality, as in the standard reduction of the 6x10 count [1]_);
    - ``cell``: where no piece qualifies (every type has copies), the placement covering an empty
      cell fixed by the largest subgroup ``H'`` (a cell on a mirror line or at the centre);
    - ``copies`` (first level only, and when a ``cell`` level would gain less): one copy of a type
      with ``k`` copies restricted to orbit representatives, the weight ``|O| / k``: a solution holding
      ``j`` representatives is found ``j`` times (Algorithm M places the other copies).

    Counts stay exact: ``count = sum over branches of weight x solutions``, and by Burnside's lemma
    the number of solutions up to symmetry is ``sum of weight x (1 + symmetries of Branch.test fixing
    the solution) / |G|``.

    Parameters
    ----------
    instance : ExactCoverInstance
        Every piece used (no optional pieces).
    enumerable : bool
        Use no ``copies`` level (every branch can list the solutions it stands for).
    inner : bool
        A ``piece`` level below the first is left to the search (:attr:`Branch.restrict`: one search
        per branch, the piece restricted to representatives) instead of a branch per representative.
    max_branches : int
        Stop refining once the plan has this many branches (the rest are searched with their
        residual symmetry, each solution tested against it: the counts stay exact). Where every piece
        type has copies, ``cell`` levels can follow a mirror line cell by cell, a branch per symmetric
        placement on it, each a smaller tree searched anew: 52 T tetrominoes in the 16x13 band (no
        tiling) made 892 branches, planned in 40 ms and searched in 121,096 nodes, where the whole
        tree has 3,271; at 32 branches the count takes 6 ms (``benchmarks/bench_copies.py``).

    Returns
    -------
    BranchPlan or None
        ``None`` with optional pieces or without symmetry. Made once per instance and arguments
        (kept in the instance's ``derived``): a second count of the same instance plans nothing.

    References
    ----------
    .. [1] D. E. Knuth, "Dancing Links", arXiv:cs/0011047 (2000), "Applications to polyominoes".
    """
    return kept(instance, ("symmetry_plan", enumerable, max_branches, inner),
                lambda: _symmetry_plan(instance, enumerable, max_branches, inner))


def _symmetry_plan(instance: ExactCoverInstance, enumerable: bool, max_branches: int,
                   inner: bool) -> BranchPlan | None:
    """:func:`symmetry_plan`, made."""
    if instance.optional_pieces or getattr(instance, "has_ranges", False) or instance.n_options == 0 \
            or len(instance.region_symmetries) <= 1:
        return None
    rows = instance.option_perm_rows   # the kernel's int32 rows, read in place (no list of Python ints made)
    if not rows:
        return None
    perms: list = [None, *(memoryview(row).cast("i") for row in rows)]
    native = c_placements()
    tmaps = instance.symmetry_type_maps
    counts = list(instance.copies)
    n_cells, n_types, n_options = instance.n_cells, instance.n_types, instance.n_options
    option_type = instance.table.option_type
    masks = _cell_masks(instance)
    type_options = instance.type_options   # the options of type t: item n_cells + t's
    group = tuple(range(len(perms)))
    branches: list[Branch] = []
    levels = {"piece": 0, "cell": 0, "copies": 0}

    def image(g: int, o: int) -> int:
        return o if g == 0 else perms[g][o]

    # onto: an orbit's first member in increasing order is its least
    onto = maps_onto(rows)
    type_reps: dict = {}
    orbit_of_rep: dict = {}

    def fitting_reps(t: int, covered: int, H: tuple[int, ...]) -> tuple[list[int], list[bool]]:
        """The representatives (:func:`representatives`) of type ``t``'s placements that miss ``covered``, those
        of the whole type computed once per ``(t, H)``, and whether some symmetry of ``H`` other than the
        identity fixes each (its orbit shorter than ``|H|``).

        Every symmetry of ``H`` fixes the prefix, so ``covered`` is ``H``-invariant: an orbit's
        placements all miss it or all meet it, and filtering the type's orbits by their representative
        gives the orbits of the fitting placements, in the same order.
        """
        key = (t, H)
        held = type_reps.get(key)
        if held is None:
            reps, short = representatives(type_options[t], H)
            held = type_reps[key] = [reps, short, None]
        reps, short, rep_masks = held
        if not covered:
            return reps, short
        if rep_masks is None:
            rep_masks = held[2] = _masks_of(masks, reps)
        # those missing it: in C where the masks are (uint64: a region of at most 64 cells)
        keep = native.missing(rep_masks, covered) if type(rep_masks) is array else [not m & covered for m in rep_masks]
        return list(compress(reps, keep)), list(compress(short, keep))

    def representatives(cands: Sequence[int], H: tuple[int, ...]) -> tuple[list[int], list[bool]]:
        """The first placement of each ``H``-orbit of ``cands`` (increasing, closed under ``H``), in order, and
        whether its orbit is shorter than ``|H|`` (some symmetry of ``H`` other than the identity fixes it)."""
        moves = [perms[h] for h in H if h]
        if not onto or not moves:
            reps = [q for q, _ in orbits(cands, H)]
            return reps, [len(orbit(q, H)) < len(H) for q in reps]
        if native is not None and isinstance(cands, range) and cands.step == 1:   # a type's options: in C
            return native.representatives(tuple(rows[h - 1] for h in H if h), cands.start, cands.stop)
        reps = list(cands)   # those no smaller than any of their images
        for p in moves:
            reps = [q for q in reps if q <= p[q]]
        fixed: set[int] = set()   # |orbit| = |H| / |stabiliser|: short exactly when some symmetry fixes it
        for p in moves:
            fixed.update([q for q in reps if p[q] == q])
        return reps, [q in fixed for q in reps]

    def orbit(q: int, H: tuple[int, ...]) -> dict[int, int]:
        """{orbit element: a group element mapping ``q`` there}, the identity (0) first in ``H``; made once."""
        held = orbit_of_rep.get((q, H))
        if held is None:
            held = {q: 0}
            for h in H:
                if h:
                    x = perms[h][q]
                    if x >= 0 and x not in held:
                        held[x] = h
            orbit_of_rep[(q, H)] = held
        return held

    def orbits(cands: Sequence[int], H: tuple[int, ...]) -> list[tuple[int, dict[int, int]]]:
        """(representative, :func:`orbit`); the representative is the first of its orbit in ``cands``."""
        if onto:
            return [(q, orbit(q, H)) for q in representatives(cands, H)[0]]
        seen: set[int] = set()
        out = []
        for q in cands:
            if q not in seen:
                out.append((q, orbit(q, H)))
                seen.update(out[-1][1])
        return out

    held_types: dict = {}

    def invariant_types(H: tuple[int, ...]) -> list[int]:
        """The piece types that every symmetry of ``H`` maps onto themselves, in order; made once per ``H``."""
        held = held_types.get(H)
        if held is None:
            held = held_types[H] = [t for t in range(n_types) if all(tmaps[h][t] == t for h in H)]
        return held

    def emit(prefix, weight, H, test, trans, restrict=None):
        frozen = H if test is None else test
        branches.append(Branch(prefix, weight, tuple(g - 1 for g in frozen if g), trans, restrict, len(H)))

    def transversal(orbit: dict[int, int]) -> tuple[int, ...]:
        return tuple(-1 if g == 0 else g - 1 for g in orbit.values())

    transversals: dict = {}

    def rep_transversal(q: int, H: tuple[int, ...]) -> tuple[int, ...]:
        """:func:`transversal` of ``q``'s :func:`orbit`, made once."""
        held = transversals.get((q, H))
        if held is None:
            held = transversals[(q, H)] = transversal(orbit(q, H))
        return held

    def descend(prefix, covered, left, H, weight, test, trans, orb, kind, copies_weight=None):
        levels[kind] += 1
        for rep, orbit in orb:
            H2 = tuple(h for h in H if image(h, rep) == rep)
            left2 = dict(left)
            left2[option_type[rep]] -= 1
            if copies_weight is None:
                w = weight * len(orbit)
            else:
                from fractions import Fraction  # only here: the module costs a few milliseconds to import

                w = weight * Fraction(len(orbit), copies_weight)
            t2 = None if trans is None or copies_weight is not None else trans + (transversal(orbit),)
            refine(prefix + (rep,), covered | masks[rep], left2, H2, w, test, t2)

    def refine(prefix, covered, left, H, weight, test, trans):
        if len(H) == 1 or len(branches) >= max_branches:
            emit(prefix, weight, H, test, trans)
            return
        best = None
        for t in invariant_types(H):
            if left[t] != 1:
                continue
            reps, short = fitting_reps(t, covered, H)
            if not reps:
                return  # this piece fits nowhere: no solution below
            fixed = sum(short)
            # fewest orbits (then fewest placements some symmetry fixes); below the first level, where the
            # search itself restricts the type, a type with no such placement (nothing left to refine) first
            score = ((fixed > 0, len(reps), t) if inner and prefix else (len(reps), fixed, t))
            if best is None or score < best[0]:
                best = (score, t, reps, short)
        if best is not None:
            t = best[1]
            frozen = test if test is not None or counts[t] == 1 else H  # a copy may be swapped with t's
            if inner and prefix:
                levels["piece"] += 1
                # a representative no symmetry of H but the identity fixes: its orbit holds one image per
                # symmetry, the transversal H itself (as rep_transversal makes it, H's identity first)
                whole = tuple(g - 1 for g in H)
                emit(prefix, weight, H, frozen, trans,
                     (t, {q: rep_transversal(q, H) if s else whole for q, s in zip(best[2], best[3])}))
                return
            descend(prefix, covered, left, H, weight, frozen, trans, [(q, orbit(q, H)) for q in best[2]], "piece")
            return
        # no piece type qualifies: a cell on the most symmetric spot
        cperms: list = [None] + instance.cell_perms
        cell, Hc = None, (0,)
        for c in range(n_cells):
            if covered >> c & 1:
                continue
            fix = tuple(h for h in H if h == 0 or cperms[h][c] == c)
            if len(fix) > len(Hc):
                cell, Hc = c, fix
        copies = None
        if not prefix and not enumerable:
            for t in range(n_types):
                k = left[t]
                if k < 2 or any(tmaps[h][t] != t for h in H) or len(H) <= k * len(Hc):
                    continue
                cands = type_options[t]
                orb = orbits(cands, H)
                score = k * len(orb) / max(len(cands), 1)
                if copies is None or score < copies[0]:
                    copies = (score, t, k, orb)
        if copies is not None and copies[0] * len(Hc) < 1:
            descend(prefix, covered, left, H, weight, H, None, copies[3], "copies", copies_weight=copies[2])
            return
        if cell is None:
            emit(prefix, weight, H, test, trans)
            return
        if isinstance(masks, list):   # every option's cells at hand (made in C): the cell's options from them,
            # not every item's option list made for this one cell
            bit = 1 << cell
            cands = [q for q in range(n_options) if masks[q] & bit and not masks[q] & covered]
        else:
            cands = [q for q in instance.item_options[cell] if not masks[q] & covered]
        if not cands:
            return
        descend(prefix, covered, left, Hc, weight, H if test is None else test, trans, orbits(cands, Hc), "cell")

    refine((), 0, {t: counts[t] for t in range(n_types)}, group, 1, None, ())
    return BranchPlan(tuple(branches), len(group), levels)
