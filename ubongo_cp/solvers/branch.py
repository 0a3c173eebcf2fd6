"""One branch of a search: the solutions holding a prefix of placements, with the weight each stands for.

The orbit decomposition (:mod:`.orbits`) divides a count into branches; a
search with no decomposition is the one branch of the whole tree
(:func:`whole_branch`). Kept apart from :mod:`.orbits` so that a search
with no symmetry to use does not load the decomposition.
"""

from __future__ import annotations

from ..structs import NamedTuple

__all__ = ["Branch", "whole_branch"]


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
