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

import dataclasses
from dataclasses import dataclass
from typing import Iterator, Sequence

import numpy as np

from ..cover import ExactCoverInstance

__all__ = ["SymmetryPlan", "orbit_plan", "Decomposition"]


@dataclass(frozen=True)
class SymmetryPlan:
    """How the orbit decomposition restricts one piece.

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
    if instance.optional_pieces or len(instance.region_symmetries) <= 1 or instance.n_options == 0:
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
    kept = np.nonzero(keep)[0]
    lengths = np.diff(instance.indptr.astype(np.int64))[kept]
    indptr = np.zeros(len(kept) + 1, dtype=np.uint32)
    indptr[1:] = np.cumsum(lengths)
    indices = np.concatenate([instance.option_items(int(o)) for o in kept]).astype(np.uint32) \
        if len(kept) else np.zeros(0, np.uint32)
    sub = dataclasses.replace(instance, indptr=indptr, indices=indices, option_type=instance.option_type[kept],
                              option_orientation=instance.option_orientation[kept],
                              option_offset=instance.option_offset[kept])
    return sub, kept


def _coset_perms(plan: SymmetryPlan, perms: list[np.ndarray]) -> dict[int, list]:
    """For each representative ``r``: one permutation per placement of r's orbit mapping r there (None = identity)."""
    out: dict[int, list] = {}
    for r in np.nonzero(plan.weight)[0]:
        r = int(r)
        targets = {r: None}
        for perm in perms:
            targets.setdefault(int(perm[r]), perm)
        out[r] = list(targets.values())
    return out

