"""One branch of a search: the solutions holding a prefix of placements, with the weight each stands for.

The orbit decomposition (:mod:`.orbits`) divides a count into branches; a
search with no decomposition is the one branch of the whole tree
(:func:`whole_branch`), or of the whole tree with one piece restricted to a
placement per orbit (:func:`free_restriction`, a small count). Kept apart
from :mod:`.orbits` so that a search with no symmetry to use, or a small
count, does not load the decomposition.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..structs import NamedTuple

TYPE_CHECKING = False

if TYPE_CHECKING:
    from ..cover import ExactCoverInstance

__all__ = ["Branch", "whole_branch", "free_restriction"]


class Branch(NamedTuple):
    """One branch of a :class:`~ubongo_cp.solvers.orbits.BranchPlan`: the solutions holding ``prefix``, each
    standing for ``weight``.

    Attributes
    ----------
    prefix : tuple of int
        Option ids placed before the search.
    weight : int or fractions.Fraction
        The number of solutions of the whole instance that each solution of the branch stands for
        (a fraction with a ``copies`` level: a solution holding several representatives is found once
        per representative).
    test : tuple of int
        Group elements (indices into ``instance.option_perms``) that may fix a solution of the branch:
        a solution's stabiliser order (UP-5) is 1 + the number of them that map it onto itself.
    transversals : tuple of tuple of int, or None
        Per level, outermost first, the group elements (``-1``: the identity) whose images of a
        solution are the solutions it stands for: the images ``t_1(t_2(...t_m(S)))``; ``None`` when
        the plan cannot list them (a ``copies`` level).
    restrict : tuple or None
        ``(type, {option: transversal})``: inside the search, the piece type's placements are
        restricted to these representatives, one per orbit of the residual group ``H`` (a ``piece``
        level done by the kernel); a solution's weight is then further multiplied by the length of its
        representative's transversal, and the transversal is a last level of :attr:`transversals`.
    residual : int
        ``|H|``, the order of the group left at the branch (before a restriction).
    """

    prefix: tuple[int, ...]
    weight: object
    test: tuple[int, ...]
    transversals: tuple[tuple[int, ...], ...] | None
    restrict: tuple | None = None
    residual: int = 1

    @property
    def free_weight(self) -> int:
        """The weight of a representative whose solutions no symmetry of :attr:`test` fixes; 0: none such.

        A representative of :attr:`restrict` whose orbit under ``H`` is whole (its weight ``|H|``) has a
        trivial stabiliser in ``H``, and a solution holding it is fixed by no symmetry of ``H`` but the
        identity (they fix the prefix placement by placement, so they would have to fix the
        representative). That settles the solution's stabiliser only when the symmetries to test are
        ``H``'s: when :attr:`test` is larger (a copy of the restricted type in the prefix, which a
        symmetry outside ``H`` may swap with it), each solution is tested.
        """
        return self.residual if len(self.test) + 1 == self.residual else 0


def whole_branch(n_sym: int, test: bool = True) -> Branch:
    """The branch of the whole tree of an instance with ``n_sym`` non-identity symmetries: its solutions
    tested against them for the Burnside sum (``test``), or not."""
    return Branch((), 1, tuple(range(n_sym)) if test else (), ((-1,),), None, n_sym + 1)


def free_restriction(instance: ExactCoverInstance) -> Branch | None:
    """The whole tree of ``instance`` as one branch, a piece type restricted inside the search to one placement per
    orbit of the whole group ``G`` where no placement of it is fixed by a symmetry but the identity.

    The type has one copy and every symmetry maps it onto itself (a ``piece`` level of
    :func:`.orbits.symmetry_plan`, done by the kernel at the first level). No solution is then fixed by a symmetry
    either (it would fix its one placement of the type): each solution orbit is found once, through its solution
    holding a representative, weighted ``|G|``, and no solution is tested against the symmetries. The type with the
    fewest orbits (then the first). On a rectangle such a type is a piece none of whose own symmetries is one of the
    rectangle's (the pentominoes F, L, N, P, Y, and V and W where the rectangle is not a square): in 3x20 the V (18
    orbits of its 72 placements) turns the tree of 46,550 nodes into one of 27,463, where the plan's 10 branches
    take 5,283 nodes but cost more to plan than the nodes they spare (:func:`~ubongo_cp.solvers.base.small_search`).

    Returns
    -------
    Branch or None
        ``None`` without such a type, with optional pieces, without symmetry or without the C extension.
    """
    if instance.optional_pieces or getattr(instance, "has_ranges", False) or len(instance.region_symmetries) <= 1:
        return None
    from ..grids.base import c_placements

    rows = tuple(instance.option_perm_rows)
    native = c_placements()
    if not rows or native is None or not maps_onto(rows):
        return None
    maps = instance.symmetry_type_maps
    best = None
    for t, cands in enumerate(instance.type_options):
        if instance.copies[t] != 1 or any(m[t] != t for m in maps):
            continue
        reps, short = native.representatives(rows, cands.start, cands.stop)
        if reps and not any(short) and (best is None or len(reps) < len(best[1])):
            best = (t, reps)
    if best is None:
        return None
    whole = tuple(range(-1, len(rows)))  # a representative's transversal: every symmetry, the identity first
    return Branch((), 1, tuple(range(len(rows))), (), (best[0], dict.fromkeys(best[1], whole)), len(rows) + 1)


def maps_onto(rows: Sequence[bytes]) -> bool:
    """Whether every option permutation (the kernel's int32 rows) maps placements onto placements (none to -1, as on
    a whole instance): then the orbits of a group partition a set closed under it. No entry is -1 exactly when no
    row holds four bytes 0xff in a row: -1 is four of them, and any four bytes in a row hold one entry's most
    significant byte, 0xff only in a negative entry (every entry is -1 or more)."""
    return not any(b"\xff\xff\xff\xff" in row for row in rows)
