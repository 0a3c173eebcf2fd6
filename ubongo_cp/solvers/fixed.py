"""The count up to symmetry from fixed points: Burnside's lemma, each symmetry's invariant solutions searched apart.

The number of solutions up to the region's symmetries (UP-5) is, by
Burnside's lemma, ``(sum over the symmetries g of Fix(g)) / |G|``, where
``Fix(g)`` counts the solutions that ``g`` maps onto themselves and
``Fix(identity)`` is the whole count. The orbit decomposition
(:mod:`.orbits`) gets the sum by testing every solution it meets against
every symmetry, which rules out the bitboard kernel's memo (a subtree's
solutions are added without being met). Where pieces have copies the memo
spares most of the search (20 L pentominoes in 10x10: 192,494 nodes
against 1,850,998 without it), so the kernel counts the whole tree with its
memo and each ``Fix(g)`` comes from a search of its own:

A solution that ``g`` maps onto itself is a union of orbits of ``<g>`` on
its placements, and each such orbit is a set of pairwise disjoint
placements. So ``Fix(g)`` is the number of exact covers of the region by
those orbits (:func:`fixed_point_matrices`): one option per orbit whose
placements are pairwise disjoint and use no piece type with one copy twice,
covering the union of their cells and those types. The type with copies
has no item: in a cover of the whole region its placements number the
region's area, less the other pieces', divided by its size, which is its
number of copies. These searches cover half the region or less, and the
orbits leave few choices: they take a fraction of the whole count's time.

This applies to an instance with one piece type with copies at most and no
optional pieces, cells or ranges (:func:`applies`).

References
----------
.. [1] W. Burnside, *Theory of Groups of Finite Order* (1897): the number of
   orbits of a group is the mean number of points its elements fix.
"""

from __future__ import annotations

from array import array

TYPE_CHECKING = False   # typing not imported at run time (start-up)
if TYPE_CHECKING:
    from ..exactcover import ExactCoverMatrix

__all__ = ["applies", "fixed_point_matrices"]


def applies(instance) -> bool:
    """Whether the fixed-point count fits ``instance``: exactly one piece type with more than one copy, every type
    placed as often as it has copies (no optional pieces, no ranges) and no optional cells."""
    copies = getattr(instance, "copies", ())
    region = getattr(instance, "region", None)
    return sum(c > 1 for c in copies) == 1 and not instance.optional_pieces and not instance.has_ranges and \
        region is not None and not region.optional


def fixed_point_matrices(instance) -> list[ExactCoverMatrix]:
    """For each symmetry of ``instance`` but the identity, the exact-cover matrix whose covers are the solutions that
    the symmetry maps onto themselves.

    Parameters
    ----------
    instance : ExactCoverInstance
        An instance :func:`applies` to.

    Returns
    -------
    list of ExactCoverMatrix
        In the order of :attr:`~ubongo_cp.cover.ExactCoverInstance.option_perm_lists`. Primary items: the
        region's cells (items ``0 .. n_cells - 1``, as the instance's), then one per piece type with one copy;
        one option per orbit of the symmetry on the placements that can lie in such a solution (module
        docstring). A matrix's number of exact covers is ``Fix(g)``.
    """
    from ..exactcover import ExactCoverMatrix, MatrixTable   # not loaded by a count that only asks :func:`applies`

    table = instance.table
    indptr, indices, option_type = table.indptr, table.indices, table.option_type
    n_cells, n_options = instance.n_cells, instance.n_options
    single = [c == 1 for c in instance.copies]
    type_item: dict[int, int] = {}   # a type with one copy -> its item in the matrices
    for t, one in enumerate(single):
        if one:
            type_item[t] = n_cells + len(type_item)
    names = tuple(f"c{i}" for i in range(n_cells)) + tuple(f"t{t}" for t in type_item)
    from ..cover import _c_fill

    native = _c_fill()
    if native is not None and n_options:
        perms = b"".join(instance.option_perm_rows)   # the permutations one after the other (int32)
        items_of = array("i", [type_item.get(t, -1) for t in range(len(single))])
        matrices = []
        for ptr_bytes, items_bytes in native.orbits(indptr, indices, option_type, items_of, perms, n_cells):
            ptr, items = array("I"), array("I")
            ptr.frombytes(ptr_bytes)
            items.frombytes(items_bytes)
            labels = tuple(f"orbit {j + 1}" for j in range(len(ptr) - 1))
            matrices.append(ExactCoverMatrix(names, len(names), MatrixTable(ptr, items), labels))
        return matrices
    return _matrices(instance, names, type_item, single)


def _matrices(instance, names: tuple[str, ...], type_item: dict[int, int],
              single: list[bool]) -> list[ExactCoverMatrix]:
    """:func:`fixed_point_matrices` in Python (without the C extension): each permutation's orbits followed."""
    from ..exactcover import ExactCoverMatrix, MatrixTable

    table = instance.table
    indptr, indices, option_type = table.indptr, table.indices, table.option_type
    n_cells, n_options = instance.n_cells, instance.n_options
    cells = [[i for i in indices[indptr[o]:indptr[o + 1]] if i < n_cells] for o in range(n_options)]
    masks = [sum(1 << i for i in c) for c in cells]
    matrices = []
    for perm in instance.option_perm_lists:
        ptr, items = array("I", [0]), array("I")
        for o in range(n_options):
            image = perm[o]
            if image < o:
                continue   # an orbit is taken at its least option
            orbit, union, ok = [o], masks[o], True
            while image != o:
                if image < o or union & masks[image]:
                    ok = False   # met from a lesser option, or two placements of the orbit overlap
                    break
                orbit.append(image)
                union |= masks[image]
                image = perm[image]
            if not ok:
                continue
            types = [option_type[p] for p in orbit if single[option_type[p]]]
            if len(set(types)) != len(types):
                continue   # a type with one copy placed twice
            for p in orbit:
                items.extend(cells[p])
            items.extend([type_item[t] for t in types])
            ptr.append(len(items))
        labels = tuple(f"orbit {j + 1}" for j in range(len(ptr) - 1))
        matrices.append(ExactCoverMatrix(names, len(names), MatrixTable(ptr, items), labels))
    return matrices
