"""The grid protocol and what every grid shares: orientations, canonical forms, connectivity, colourings.

A grid module (:mod:`.square`, :mod:`.hex`, :mod:`.triangle`, :mod:`.cube`)
defines one subclass of :class:`Grid` and its one instance; the subclass
supplies a few primitives and this class derives the rest from them:

======================  =======================================================
primitive               meaning
======================  =======================================================
``neighbours``          the cells sharing an edge (a face, for cubes) with a cell
``image``               a cell list under symmetry ``k`` (not translated back)
``shift``               the translation that normalises a cell set
``offset_ok``,          which translations keep the grid onto itself (all of them
``translations``        but for triangles), one by one and as the bits of an
                        array of them (placements)
``parse``/``format``    the text layout of the grid in piece and region files;
``render``              the same layout with any character per cell (solutions)
``text_size``           rows and columns (and layers) of that layout
``box``                 the cells of a box of that layout (a parallelogram on
                        hexagons and triangles)
``polygons``,           the drawing: each cell's outline in the plane (cell
``edge_neighbours``,    units, x to the right, y downwards), the cell across
``locate``              each edge, the cell holding a point (2-D grids; the cube
                        grid draws its layers on the square grid, ``plane``)
======================  =======================================================

Symmetries are numbered ``0 .. n_symmetries - 1``, the identity first, then
the rest of the rotations, then the improper ones; an orientation mode
allows a prefix of them (:attr:`Grid.modes`). Cells are tuples of ints; a
*shape* is a sorted tuple of cells in normal position (:meth:`Grid.normalize`).

numpy is imported by the methods that use it, not by the modules: reading
a file and building a command line stay light.

Nothing above this package looks at a grid's name: pieces, regions,
placements, solvers, colouring proofs, censuses, files and pictures all go
through these methods.
"""

from __future__ import annotations

from array import array
from collections import deque
from functools import lru_cache
from itertools import accumulate, chain, product, repeat
from operator import mul
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence

from ..errors import InputError
from ..structs import NamedTuple, Struct

TYPE_CHECKING = False

if TYPE_CHECKING:
    from typing import Any, overload

    import numpy as np

__all__ = ["Cell", "Shape", "Grid", "Colouring", "Plane", "Orientations", "OrientationBatch", "LazyOrientations"]

#: A cell: a tuple of ints (``(row, col)`` on squares and triangles, axial ``(q, r)`` on hexagons,
#: ``(layer, row, col)`` on cubes).
Cell = tuple[int, ...]
#: A shape: sorted cells in normal position.
Shape = tuple[Cell, ...]


class Colouring(NamedTuple):
    """A two-colouring of a grid with weights +1 / -1, periodic under translations (a colouring proof).

    Attributes
    ----------
    name : str
        E.g. ``"checkerboard"``.
    table : nested tuples of int
        The weight of a cell is ``table[x0 % 2][x1 % 2]...``, one index per
        coordinate (period 2 in every direction).
    colours : (str, str)
        Names of the +1 and -1 colours, for messages.
    """

    name: str
    table: tuple
    colours: tuple[str, str]

    @property
    def period(self) -> tuple[int, ...]:
        """The period in each coordinate (the table's shape)."""
        shape, t = [], self.table
        while isinstance(t, tuple):
            shape.append(len(t))
            t = t[0]
        return tuple(shape)

    def weight(self, cell: Cell) -> int:
        """+1 or -1."""
        t: Any = self.table
        for x in cell:
            t = t[x % len(t)]
        return t

    @staticmethod
    def tabulate(weight: Callable[[Cell], int], dim: int) -> tuple:
        """The period-2 table of a weight function of a cell's coordinates (``dim`` of them)."""
        def level(prefix):
            if len(prefix) == dim:
                return weight(prefix)
            return tuple(level(prefix + (b,)) for b in (0, 1))
        return level(())


class Orientations(list[Shape]):
    """A shape's distinct orientations (a list of :data:`Shape`, :meth:`Grid.orientations`) computed with
    numpy (:meth:`Grid.orientations_many`), that keeps their cells as an array too.

    Attributes
    ----------
    array : numpy.ndarray
        int64, shape (orientations, cells, dim): the cells of each orientation, in the list's order.
    """

    __slots__ = ("array",)
    array: np.ndarray


class OrientationBatch:
    """The distinct orientations of several shapes of one size, computed together with numpy
    (:meth:`Grid.orientations_lazy`) and held as arrays: rows of every shape's orientations, shape by shape,
    each shape's in the order of the symmetries. Their tuples (:class:`Orientations`) are made when first
    asked for (:meth:`lists`).

    Attributes
    ----------
    keys : numpy.ndarray
        int64, shape (rows, cells): each orientation's cells as keys in base :attr:`radix` (the first
        coordinate the most significant), sorted (the cells' order in the shape).
    cells : numpy.ndarray
        int64, shape (rows, cells, dim): the cells of each orientation (normal position), in that order.
    of_shape : numpy.ndarray
        int32, shape (rows,): the index of each row's shape.
    counts : list of int
        The number of orientations of each shape.
    starts : list of int
        The first row of each shape, then the number of rows (one more entry than shapes).
    radix : int
        The base of :attr:`keys` (beyond every coordinate of an orientation).
    kept : numpy.ndarray
        bool, shape (shapes, symmetries): which symmetries' images are kept (unlike an earlier image).
    reach : tuple of int
        1 + the largest coordinate of any orientation, per axis (normal position).
    members : list of LazyOrientations
        Each shape's orientations, in order (:meth:`Grid.orientations_lazy` returns them).
    least : numpy.ndarray
        int64, shape (shapes, cells): each shape's least orientation's keys (as :attr:`keys`).
    leasts : list of Shape
        Each shape's least orientation (:attr:`LazyOrientations.least`), in order: made when first asked for
        (a set of distinct pieces, :attr:`unique`, is grouped into types without them).
    unique : bool
        True when the shapes' least orientations are known to be all different (found by the C extension): each
        shape is then a type of its own (:func:`ubongo_cp.cover.piece_types`), with no key to hash.
    """

    __slots__ = ("keys", "cells", "of_shape", "counts", "starts", "radix", "kept", "reach", "members", "least",
                 "unique", "_leasts", "_lists", "_rank")

    def __init__(self, keys, cells, of_shape, counts: list[int], radix: int, kept, reach: tuple[int, ...],
                 least) -> None:
        self.keys, self.cells, self.of_shape, self.counts, self.radix = keys, cells, of_shape, counts, radix
        self.kept, self.reach, self.least = kept, reach, least
        self.starts = [0, *accumulate(counts)]
        self.members: list[LazyOrientations] = []
        self.unique = False
        self._leasts: list[Shape] | None = None
        self._lists: list[Orientations] | None = None
        self._rank: Any = None

    @property
    def leasts(self) -> list[Shape]:
        """Each shape's least orientation as a tuple of cells, made once."""
        if self._leasts is None:
            n = self.least.shape[1]
            self._leasts = list(zip(*[iter(_cells_of_keys(self.least, self.radix, self.cells.shape[2]))] * n))
        return self._leasts

    def lists(self) -> list[Orientations]:
        """Each shape's orientations as tuples of cells (:meth:`Grid.orientations_many`), made once."""
        if self._lists is None:
            n = self.keys.shape[1]
            flat = list(zip(*[iter(_cells_of_keys(self.keys, self.radix, self.cells.shape[2]))] * n))
            out = []
            for a, b in zip(self.starts, self.starts[1:]):
                images_of = Orientations(flat[a:b])
                images_of.array = self.cells[a:b]
                out.append(images_of)
            self._lists = out
        return self._lists

    def rank(self):
        """int16, shape (rows,): each row's index among its shape's orientations, made once."""
        if self._rank is None:
            import numpy as np

            self._rank = (self.kept.cumsum(axis=1, dtype=np.int16) - np.int16(1))[self.kept]
        return self._rank


class LazyOrientations(Sequence[Shape]):
    """A shape's distinct orientations held in an :class:`OrientationBatch` (:meth:`Grid.orientations_lazy`):
    a sequence of :data:`Shape`, its tuples made when an element is first read, its cells an array at once.

    Attributes
    ----------
    batch : OrientationBatch
        The arrays of the shapes computed together.
    number : int
        This shape's index in the batch.
    least : Shape
        The least orientation (``min(self)``, without making the others' tuples; the batch's, made once).
    array : numpy.ndarray
        int64, shape (orientations, cells, dim): the cells of each orientation, in order (a view of the batch's).
    """

    __slots__ = ("batch", "number")

    def __init__(self, batch: OrientationBatch, number: int) -> None:
        self.batch, self.number = batch, number

    @property
    def least(self) -> Shape:
        """The least orientation (``min(self)``, without making the others' tuples)."""
        return self.batch.leasts[self.number]

    @property
    def array(self) -> np.ndarray:
        """int64, shape (orientations, cells, dim): the cells of each orientation, in order."""
        starts = self.batch.starts
        return self.batch.cells[starts[self.number]:starts[self.number + 1]]

    def shapes(self) -> Orientations:
        """The orientations as a list of :data:`Shape` (made once for the whole batch)."""
        return self.batch.lists()[self.number]

    def __len__(self) -> int:
        return self.batch.counts[self.number]

    if TYPE_CHECKING:
        @overload
        def __getitem__(self, i: int) -> Shape: ...

        @overload
        def __getitem__(self, i: slice) -> list[Shape]: ...

    def __getitem__(self, i):
        return self.shapes()[i]

    def __iter__(self) -> Iterator[Shape]:
        return iter(self.shapes())

    def __repr__(self) -> str:
        return repr(self.shapes())


class Plane(Struct):
    """How the cells of one picture lie in the plane: the 2-D grid they are drawn on.

    A struct, not a named tuple: only drawings make one, and a named tuple's class is compiled as its module
    is imported, by every command.

    Attributes
    ----------
    grid : Grid
        A grid with polygons (the picture's own grid for 2-D grids; the
        square grid for cube layers).
    map : callable
        Cells of the picture's grid -> cells of :attr:`grid` (a list, same order).
    captions : tuple of (float, float, str)
        Text to write under parts of the picture (``x``, ``y`` in cell units,
        centre of the text's top), e.g. the layers of a cube region.
    frames : tuple of (float, float, float, float)
        Boxes ``(x, y, width, height)`` in cell units drawn faintly around
        parts of the picture: each layer's footprint in a picture of a cube
        shape of several layers, so that a cell of one layer can be matched
        by eye with the cell above or below it in the next.
    """

    grid: Grid
    map: Callable[[Iterable[Cell]], list]
    captions: tuple[tuple[float, float, str], ...]
    frames: tuple[tuple[float, float, float, float], ...]

    def __init__(self, grid: Grid, map: Callable[[Iterable[Cell]], list],
                 captions: tuple[tuple[float, float, str], ...] = (),
                 frames: tuple[tuple[float, float, float, float], ...] = ()) -> None:
        self._set(grid=grid, map=map, captions=captions, frames=frames)


@lru_cache(maxsize=64)
def _class_maps(grid: Grid, count: int) -> tuple[tuple[int, ...], ...] | None:
    """For :meth:`Grid.orientation_signatures`: how the first ``count`` maps of ``grid`` (:attr:`Grid.linear`)
    permute the classes of coordinates modulo 2 (in :func:`itertools.product` order), each distinct permutation
    once, as the class each class's count comes from; None on a grid without such maps or whose translations do
    not all keep it (triangles). Made once per grid and mode."""
    dim = grid.dim
    classes = list(product(range(2), repeat=dim))
    if grid.linear is None or not all(map(grid.offset_ok, classes)):
        return None
    out: dict[tuple[int, ...], None] = {}
    for m in grid.linear[:count]:
        # modulo 2 the map is linear: a class's image is the sum (exclusive or of the indices) of the images of
        # its coordinates' unit classes; unit a's image has bit r where the map's entry (r, a) is odd
        units = [sum([(m[r * dim + a] & 1) << (dim - 1 - r) for r in range(dim)]) for a in range(dim)]
        source = [0] * len(classes)
        for i in range(len(classes)):
            image = 0
            for a in range(dim):
                if i >> (dim - 1 - a) & 1:
                    image ^= units[a]
            source[image] = i
        out[tuple(source)] = None
    return tuple(out)


@lru_cache(maxsize=64)
def _residue_weights(grid: Grid, colouring: Colouring) -> list[list[int]]:
    """For :meth:`Grid.achievable_from`: per offset class a translation may have on ``grid``, the weight of each
    residue class of a cell's coordinates under ``colouring``'s period (a cell's weight depends on these only),
    moved by it; the classes in :func:`itertools.product` order (:meth:`Grid.residue_signatures`). Made once per
    grid and colouring."""
    classes = list(product(*(range(p) for p in colouring.period)))
    if colouring.period == (2,) * grid.dim:   # modulo 2 a class moved by an offset class: exclusive or of indices
        flat = [colouring.weight(key) for key in classes]
        return [[flat[k ^ i] for k in range(len(classes))] for i, o in enumerate(classes) if grid.offset_ok(o)]
    return [[colouring.weight(tuple(a + b for a, b in zip(key, o))) for key in classes]
            for o in classes if grid.offset_ok(o)]


@lru_cache(maxsize=64)
def _imbalance_vectors(grid: Grid, mode: str) -> tuple[tuple[tuple[int, ...], ...], ...] | None:
    """For :meth:`Grid.colouring_imbalances`: per colouring of ``grid`` (in order), the distinct vectors ``v`` such
    that a placement of a shape in ``mode`` covers weight ``sum(counts[k] * v[k])`` for one of them, ``counts``
    being the shape's own cells counted by class modulo 2 (:meth:`Grid.class_counts`): one per class permutation
    of a map (:func:`_class_maps`) and offset class (:func:`_residue_weights`). A signature's weight in
    :meth:`Grid.achievable_from` is ``sum(counts[inverse[j]] * weights[j])`` over ``j``, that is the counts dotted
    with the vector that adds ``weights[j]`` at ``inverse[j]``: the same values, summed without making the
    signatures. None where :meth:`Grid.orientation_signatures` has no class maps (triangles). Made once per grid
    and mode."""
    dim = grid.dim
    maps = _class_maps(grid, grid.modes[mode])
    if maps is None or any(c.period != (2,) * dim for c in grid.colourings):
        return None
    out = []
    for colouring in grid.colourings:
        vectors: dict[tuple[int, ...], None] = {}
        for weights in _residue_weights(grid, colouring):
            for inverse in maps:
                vector = [0] * len(inverse)
                for j, k in enumerate(inverse):
                    vector[k] += weights[j]
                vectors[tuple(vector)] = None
        out.append(tuple(vectors))
    return tuple(out)


class Grid:
    """One grid: its cells, neighbours, symmetry group, text layout and drawing.

    Subclasses set the class attributes and implement the primitives of the
    module docstring; one instance per grid exists (``SQUARE``, ``HEX``,
    ``TRIANGLE``, ``CUBE``), pickled by name.

    Attributes
    ----------
    name : str
        The key in files (``grid: hex``) and in :data:`ubongo_cp.grids.GRIDS`.
    cell_noun : str
        What a cell is called (``"square"``, ``"hexagon"``, ...), for messages.
    text_chars : str
        The characters of the text layout (cells and empty ones).
    layer_separator : str
        What separates the layers of the text layout, for messages (on cubes, "a line of '-'"); empty on flat
        grids.
    dim : int
        Coordinates per cell.
    n_symmetries : int
        Order of the symmetry group (8, 12, 12, 48).
    n_rotations : int
        How many of them, leading, are rotations (4, 6, 6, 24).
    symmetries : tuple
        Its elements, numbered as ``k`` in :meth:`transform`: integer
        matrices on squares and cubes, ``(sixth-turns, reflected)`` on
        hexagons and triangles.
    modes : dict of str -> int
        Orientation mode -> how many leading symmetries it allows.
    origins : tuple of Cell
        One cell of each class of cells under translation (one but for
        triangles: an up and a down one), for Redelmeier's enumeration.
    colourings : tuple of Colouring
        The colouring arguments checked before a search (:mod:`ubongo_cp.colouring`).
    vertex_degree : int
        Cells meeting at a vertex inside a shape (4, 3, 6; drawing labels).
    """

    name: str = ""
    cell_noun: str = "cell"
    text_chars: str = ""
    layer_separator: str = ""
    dim: int = 2
    n_symmetries: int = 1
    n_rotations: int = 1
    symmetries: tuple = ()
    modes: Mapping[str, int] = {"fixed": 1}
    origins: tuple[Cell, ...] = ()
    colourings: tuple[Colouring, ...] = ()
    vertex_degree: int = 0

    def __reduce__(self):
        from . import get_grid

        return get_grid, (self.name,)

    def __repr__(self) -> str:
        return f"<{self.name} grid>"

    # ------------------------------------------------------------ primitives
    def neighbours(self, cell: Cell) -> tuple[Cell, ...]:  # pragma: no cover - abstract
        """The cells sharing an edge (a face) with ``cell``."""
        raise NotImplementedError

    def image(self, cells: Sequence[Cell], k: int) -> list[Cell]:  # pragma: no cover - abstract
        """The cells under symmetry ``k`` (same order, not translated back)."""
        raise NotImplementedError

    def shift(self, cells: Sequence[Cell]) -> Cell:  # pragma: no cover - abstract
        """The translation (added to every cell) that puts ``cells`` in normal position."""
        raise NotImplementedError

    #: How far from 0 normal position may leave each coordinate's minimum (:meth:`shift`): 0 on every axis but
    #: the column of triangles (1: a shape whose leftmost triangle needs an odd column).
    normal_lead: tuple[int, ...] = (0, 0)

    def offset_ok(self, offset: Cell) -> bool:
        """Whether translating by ``offset`` maps the grid onto itself (cell classes kept)."""
        return True

    def translations(self, low: Cell, size: tuple[int, ...]) -> int:
        """The translations among those of an array that keep the grid onto itself (:meth:`offset_ok`), as bits.

        Bit ``p`` stands for the translation ``low + x``, ``x`` the ``p``-th index of an array of shape ``size``
        in row-major order: every bit (the array's every translation) but on triangles. The placements
        slide shapes over a region in such an array (:func:`ubongo_cp.cover.build_instance`): a grid's
        cells are the coordinates in which each translation is a shift.
        """
        total = 1
        for n in size:
            total *= n
        return (1 << total) - 1

    def parse(self, lines: Sequence[str], *, path: str | None = None, first_line: int = 1) -> Shape:
        """Cells of a text picture (rows top first; comment lines removed) in normal position."""
        raise NotImplementedError  # pragma: no cover - abstract

    def format(self, cells: Iterable[Cell]) -> str:
        """The text picture of a shape (what :meth:`parse` reads back)."""
        raise NotImplementedError  # pragma: no cover - abstract

    def render(self, owner: Mapping[Cell, str], *, empty: str = ".") -> str:
        """The text layout with one given character per cell (``empty`` where the picture has no cell)."""
        raise NotImplementedError  # pragma: no cover - abstract

    def text_size(self, cells: Iterable[Cell]) -> tuple[int, ...]:
        """Rows and columns (and layers first, on cubes) of the shape's text picture."""
        raise NotImplementedError  # pragma: no cover - abstract

    def box(self, *dims: int) -> Shape:
        """The cells of a box of the text layout: ``rows, cols`` (``layers, rows, cols`` on cubes)."""
        raise NotImplementedError  # pragma: no cover - abstract

    def polygons(self, cells: Sequence[Cell]) -> np.ndarray:
        """Outline of each cell, shape (n, corners, 2): (x, y) in cell units, y downwards (2-D grids)."""
        raise NotImplementedError  # pragma: no cover - abstract

    def edge_neighbours(self, cell: Cell) -> tuple[Cell, ...]:
        """The cell across each edge of ``cell``'s polygon (edge ``i`` joins corners ``i`` and ``i + 1``)."""
        raise NotImplementedError  # pragma: no cover - abstract

    def locate(self, x: float, y: float) -> Cell:
        """The cell whose polygon holds the point ``(x, y)`` (cell units)."""
        raise NotImplementedError  # pragma: no cover - abstract

    def plane(self, frame: Iterable[Cell]) -> Plane:
        """How a picture of the cells ``frame`` (and of subsets of them) is drawn: on this grid itself."""
        return Plane(self, lambda cells: [tuple(c) for c in cells])

    # ---------------------------------------------------------------- derived
    @property
    def every_mode(self) -> str:
        """The orientation mode with the most orientations (the grid's whole symmetry group)."""
        return max(self.modes, key=self.modes.__getitem__)

    def mode_problem(self, mode: str) -> str | None:
        """Why ``mode`` is not an orientation mode of this grid (its modes, and the grids that have it); else None."""
        if not isinstance(mode, str):
            return f"an orientation mode is a name, one of {', '.join(self.modes)} (got {mode!r})"
        if mode in self.modes:
            return None
        from . import GRIDS

        elsewhere = [g.name for g in GRIDS.values() if mode in g.modes]
        if len(elsewhere) > 1:   # "the square, hex and triangle grids"
            where = f"; {mode} is a mode of the {', '.join(elsewhere[:-1])} and {elsewhere[-1]} grids"
        else:
            where = f"; {mode} is a mode of the {elsewhere[0]} grid" if elsewhere else ""
        return (f"orientation mode {mode!r} does not exist on the {self.name} grid (its modes: "
                f"{', '.join(self.modes)}{where})")

    def check_mode(self, mode: str) -> None:
        """Raise :class:`ValueError` unless ``mode`` is one of :attr:`modes`."""
        problem = self.mode_problem(mode)
        if problem:
            raise ValueError(problem)

    def normalize(self, cells: Iterable[Cell]) -> Shape:
        """Translate ``cells`` to normal position; return them sorted."""
        cells = [tuple(c) for c in cells]
        if not cells:
            return ()
        t = self.shift(cells)
        return tuple(sorted(tuple(a + b for a, b in zip(c, t)) for c in cells))

    def map_cells(self, cells: Sequence[Cell], k: int) -> list[Cell]:
        """Each cell's image under symmetry ``k``, the set put in normal position (same order as ``cells``)."""
        raw = self.image([tuple(c) for c in cells], k)
        t = self.shift(raw)
        return [tuple(a + b for a, b in zip(c, t)) for c in raw]

    def map_onto(self, cells: Sequence[Cell], k: int) -> list[Cell]:
        """Each cell's image under symmetry ``k``, translated as ``cells`` themselves lie (same order as ``cells``).

        For a symmetry of the set (one of :meth:`symmetry_group`) the images
        are the set's own cells, wherever the set lies: a permutation of
        ``cells``. :meth:`map_cells` puts the images in normal position
        instead, which is the set's place only when it is in normal position.
        """
        cells = [tuple(c) for c in cells]
        if not cells:
            return []
        if self.linear is not None and len(cells[0]) == 2:   # normal position: each coordinate's least at 0
            a, b, c, d = self.linear[k]
            xs = [a * x + b * y for x, y in cells]
            ys = [c * x + d * y for x, y in cells]
            dx = min([x for x, _ in cells]) - min(xs)
            dy = min([y for _, y in cells]) - min(ys)
            return [(x + dx, y + dy) for x, y in zip(xs, ys)]
        if self.linear is not None and len(cells[0]) == 3:
            m = self.linear[k]
            images = [[r[0] * x + r[1] * y + r[2] * z for x, y, z in cells] for r in (m[0:3], m[3:6], m[6:9])]
            moves = [min(col) - min(image) for col, image in zip(zip(*cells), images)]
            return [(x + moves[0], y + moves[1], z + moves[2]) for x, y, z in zip(*images)]
        t = self.shift(cells)
        return [tuple(a - b for a, b in zip(c, t)) for c in self.map_cells(cells, k)]

    def transform(self, cells: Iterable[Cell], k: int) -> Shape:
        """The shape's image under symmetry ``k`` (normal position, sorted)."""
        return self.normalize(self.image([tuple(c) for c in cells], k))

    def map_array(self, shapes: np.ndarray, k: int) -> np.ndarray:
        """:meth:`map_cells` for many shapes at once: an int array (N, n, dim) -> the images, each in normal position.

        Grids with integer symmetry matrices (:meth:`matrix`) compute it with
        one product; others shape by shape.
        """
        import numpy as np

        m = self.matrix(k)
        if m is None:
            return np.array([self.map_cells([tuple(c) for c in s], k) for s in shapes.tolist()],
                            dtype=np.int64).reshape(shapes.shape)
        raw = shapes @ m.T
        return raw - raw.min(axis=1, keepdims=True)

    def matrix(self, k: int) -> np.ndarray | None:
        """Symmetry ``k`` as an integer matrix on cell coordinates, when it is one (normal position: minima 0)."""
        return None

    #: The symmetries as flat integer matrices (row-major) on cell coordinates, when every one is linear and
    #: normal position puts every coordinate's minimum at 0 (squares, hexagons, cubes); else None.
    linear: tuple[tuple[int, ...], ...] | None = None

    def orientations(self, cells: Iterable[Cell], mode: str = "free") -> list[Shape]:
        """The distinct fixed orientations of a shape in ``mode``: its images under the first
        ``modes[mode]`` symmetries (:meth:`transform`), each kept once, in the order of the symmetries.

        Raises
        ------
        ValueError
            For a mode the grid does not have.
        """
        self.check_mode(mode)
        cells = [tuple(c) for c in cells]
        count = self.modes[mode]
        native = c_placements() if self.linear is not None and cells and len(cells[0]) == self.dim else None
        if native is not None:   # in one pass in C
            try:
                return native.orientations(cells, _flat_maps(self.linear, count), count, self.dim)
            except (TypeError, OverflowError):   # not ints, or far out: the same images in Python
                pass
        seen: dict[Shape, None] = {}
        if self.linear is not None and cells and len(cells[0]) == 2:   # :meth:`transform` in one loop
            for a, b, c, d in self.linear[:count]:
                img = [(a * x + b * y, c * x + d * y) for x, y in cells]
                x0 = min([x for x, _ in img])
                y0 = min([y for _, y in img])
                seen.setdefault(tuple(sorted([(x - x0, y - y0) for x, y in img])), None)
            return list(seen)
        if self.linear is not None and cells and len(cells[0]) == 3:
            for a, b, c, d, e, f, g, h, i in self.linear[:count]:
                img3 = [(a * x + b * y + c * z, d * x + e * y + f * z, g * x + h * y + i * z) for x, y, z in cells]
                x0 = min([x for x, _, _ in img3])
                y0 = min([y for _, y, _ in img3])
                z0 = min([z for _, _, z in img3])
                seen.setdefault(tuple(sorted([(x - x0, y - y0, z - z0) for x, y, z in img3])), None)
            return list(seen)
        for k in range(count):
            seen.setdefault(self.transform(cells, k), None)
        return list(seen)

    def orientations_many(self, shapes: Sequence[Shape], mode: str = "free") -> list[list[Shape]]:
        """:meth:`orientations` of many shapes of one size at once, with numpy (same lists, same order).

        Returns
        -------
        list of Orientations
            One list per shape (of :data:`Shape`, in the order of the
            symmetries); each holds its orientations' cells as an int array
            too, shape (orientations, cells, dim) (:attr:`Orientations.array`).

        Raises
        ------
        ValueError
            For a mode the grid does not have.
        """
        out: list[list[Shape]] = []
        for found in self.orientations_lazy(shapes, mode):
            out.append(found.shapes() if isinstance(found, LazyOrientations) else found)  # type: ignore[arg-type]
        return out

    def orientations_lazy(self, shapes: Sequence[Shape], mode: str = "free") -> list[Sequence[Shape]]:
        """:meth:`orientations` of many shapes of one size at once, with numpy, held as arrays: their tuples
        are made when first read (for :func:`ubongo_cp.cover.build_instance`, which reads the arrays).

        Every symmetry's images of every shape are computed at once
        (``_codes``: one pass in C, :func:`image_keys`), each in normal
        position, its cells as one integer key per cell, sorted; each shape's
        images equal to an earlier one are dropped (each image's keys
        compared with those of the shape's earlier images), and the rest make
        one :class:`OrientationBatch` (one pass in C, the extension's
        ``distinct``; without the extension, with numpy: for many shapes,
        :func:`numpy.unique` of the keys, the shape's index first). Where the
        grid's maps are linear (:attr:`linear`) and its ``_codes`` this
        class's, the extension's ``forms`` does both in one pass (each
        image's keys found as it is reached, a kept image's cells from its
        coordinates): the same arrays.

        Returns
        -------
        list of LazyOrientations
            One per shape, in the order of ``shapes`` (its orientations in
            the order of the symmetries); plain lists (:meth:`orientations`)
            on a grid without a vectorised form of its symmetries.

        Raises
        ------
        ValueError
            For a mode the grid does not have.
        """
        self.check_mode(mode)
        if not shapes:
            return []
        import numpy as np

        n, dim = len(shapes[0]), len(shapes[0][0])
        radix = 4 * n + 5      # beyond every coordinate of an image in normal position; odd (``_codes`` of triangles)
        count = self.modes[mode]
        native = c_placements()
        if native is not None and self.linear is not None and type(self)._codes is Grid._codes:
            outputs = _distinct_outputs(len(shapes), n, count, dim)   # the images' keys and the repeats in one pass
            try:
                found = native.forms(shapes, len(shapes), n, _code_columns(self.linear, count, radix), count, dim,
                                     radix, *outputs)
            except (TypeError, OverflowError):   # cells not tuples or lists of ints, or far out: the ways below
                found = None
            if found is not None:
                return _native_batch(native, outputs, found, radix)
        found = self._codes(shapes, count, radix)   # (N, n, count): each image's cells' keys
        if found is not None and found[1] + 2 > radix:         # cells further apart than a connected shape's
            radix = 4 * found[1] + 5
            found = None if radix ** dim >= 1 << 62 else self._codes(shapes, self.modes[mode], radix)
        if found is None:
            return [self.orientations(s, mode) for s in shapes]
        codes = found[0]
        n_shapes, _, count = codes.shape
        if native is not None:                                 # the same arrays, made in one pass in C
            outputs = _distinct_outputs(n_shapes, n, count, dim)
            return _native_batch(native, outputs, native.distinct(np.ascontiguousarray(codes), n_shapes, n, count,
                                                                  radix, dim, *outputs), radix)
        keys, cells, shape_of, counts, kept, reach, least = self._distinct(codes, radix, dim)
        batch = OrientationBatch(keys, cells, shape_of, counts, radix, kept, reach, least)
        batch.members = list(map(LazyOrientations, repeat(batch, n_shapes), range(n_shapes)))
        return list(batch.members)

    @staticmethod
    def _distinct(codes, radix: int, dim: int) -> tuple:
        """:meth:`orientations_lazy` with numpy, without the C extension: from the images' keys (N, n, count),
        the kept images' sorted keys and cells, each one's shape, the number per shape, which are kept, the reach
        and each shape's least image's keys."""
        import numpy as np

        n_shapes, n, count = codes.shape
        sorted_keys = np.sort(codes.transpose(0, 2, 1), axis=2)          # (N, count, n), each image's sorted
        words = _packed(sorted_keys, radix ** dim)            # (N, count) each, in the order of the images' keys
        if n_shapes * count * count * n <= _PAIRWISE_MAX:     # each image against the shape's earlier ones
            same = _earlier(count)                             # (N, count, count) once broadcast
            for word in words:
                same = same & (word[:, :, None] == word[:, None, :])
            kept = ~same.any(axis=2)                           # (N, count): each image unlike an earlier one
        else:                                                  # each image with its shape first, made unique
            rows = np.empty((n_shapes, count, n + 1), dtype=np.int64)
            rows[:, :, 0] = np.arange(n_shapes)[:, None]
            rows[:, :, 1:] = sorted_keys
            rows = rows.reshape(-1, n + 1)
            kept = np.zeros(n_shapes * count, dtype=bool)
            kept[np.unique(rows.view(np.dtype((np.void, rows.itemsize * (n + 1)))).ravel(), return_index=True)[1]] = True
            kept = kept.reshape(n_shapes, count)
        shape_of, symmetry = kept.nonzero()                    # the kept images, shape by shape, in order
        counts = kept.sum(axis=1).tolist()
        keys = sorted_keys[shape_of, symmetry]                 # (orientations, n)
        columns = _key_columns(keys, radix, dim)
        cells = np.stack(columns, axis=2)                      # (orientations, n, dim)
        reach = tuple(int(column.max()) + 1 for column in columns)
        if len(words) == 1:                                    # each shape's least image: its least word
            least = sorted_keys[np.arange(n_shapes), words[0].argmin(axis=1)]
        else:                                                  # the first of its images sorted by their keys
            flat_keys = sorted_keys.reshape(-1, n)
            least = flat_keys[np.lexsort(np.vstack([flat_keys.T[::-1], np.arange(n_shapes).repeat(count)]))[::count]]
        return keys, cells, shape_of.astype(np.int32), counts, kept, reach, least

    def _codes(self, shapes: Sequence[Shape], count: int, radix: int):
        """The first ``count`` symmetries' images of shapes of one size (N shapes of n cells), each in normal
        position, its cells as keys in base ``radix`` (the first coordinate the most significant): an int array
        (N, n, count), and the largest spread of an image's coordinates on one axis (the keys are the cells'
        when it is below ``radix - 1``); None if the grid has no vectorised form (:attr:`linear`).

        The maps give every image's coordinates and keys (:func:`_code_columns`, :func:`image_keys`); the key
        of each image's least coordinates is then taken from its cells' keys."""
        if self.linear is None:
            return None
        n_shapes, n, dim = len(shapes), len(shapes[0]), len(shapes[0][0])
        return image_keys(shapes, n_shapes, n, _code_columns(self.linear, count, radix), count, dim, radix,
                          nested=True)

    def symmetry_group(self, cells: Iterable[Cell]) -> list[int]:
        """The symmetries (indices) that map the shape onto itself, identity first."""
        base = self.normalize(cells)
        return [k for k in range(self.n_symmetries) if self.transform(base, k) == base]

    def canonical(self, cells: Iterable[Cell], mode: str = "free") -> Shape:
        """The least image in ``mode`` (normal position, as a sorted tuple of cells)."""
        return min(self.orientations(cells, mode))

    def least_images(self, shapes: np.ndarray, count: int) -> tuple[np.ndarray, np.ndarray]:
        """For each shape of an int array (N, n, dim), the least of its images under the first ``count`` symmetries.

        Returns
        -------
        keys : numpy.ndarray, shape (N, n)
            Each image's cells (normal position) encoded in a mixed radix and
            sorted: equal exactly for shapes that are images of each other.
        images : numpy.ndarray, shape (N, n, dim)
            The least image of each shape, cells sorted.
        """
        import numpy as np

        n_shapes, n, dim = shapes.shape
        span = int((shapes.max(axis=1) - shapes.min(axis=1)).max()) if shapes.size else 0
        radix = 4 * max(n, span + 1) + 4   # beyond every coordinate of an image in normal position
        best: Any = None
        best_image: Any = None
        rows = np.arange(n_shapes)
        for k in range(count):
            image = self.map_array(shapes, k)
            code = np.zeros((n_shapes, n), dtype=np.int64)
            for axis in range(dim):
                code = code * radix + image[:, :, axis]
            order = np.argsort(code, axis=1)
            code = np.take_along_axis(code, order, axis=1)
            image = np.take_along_axis(image, order[:, :, None], axis=1)
            if best is None:
                best, best_image = code, image
                continue
            diff = code != best
            first = np.where(diff.any(axis=1), diff.argmax(axis=1), 0)
            smaller = code[rows, first] < best[rows, first]
            best[smaller] = code[smaller]
            best_image[smaller] = image[smaller]
        return best, best_image

    def canonical_many(self, shapes: np.ndarray, mode: str = "free") -> list[Shape]:
        """:meth:`canonical` of each shape of an int array (N, n, dim), computed with numpy."""
        _, images = self.least_images(shapes, self.modes[mode])
        return [tuple(map(tuple, s)) for s in images.tolist()]

    def is_connected(self, cells: Iterable[Cell]) -> bool:
        """True when the cells form one connected component (an empty set is not)."""
        cells = {tuple(c) for c in cells}
        if not cells:
            return False
        start = next(iter(cells))
        seen = {start}
        todo = deque([start])
        while todo:
            for nb in self.neighbours(todo.popleft()):
                if nb in cells and nb not in seen:
                    seen.add(nb)
                    todo.append(nb)
        return len(seen) == len(cells)

    def frame(self, cells: Iterable[Cell], margin: int = 1) -> list[Cell]:
        """Every cell whose coordinates lie within ``margin`` of the cells' bounding box (a connected block)."""
        import numpy as np

        arr = np.array([tuple(c) for c in cells])
        lo, hi = arr.min(axis=0) - margin, arr.max(axis=0) + margin
        return [tuple(int(v) for v in c) for c in product(*(range(a, b + 1) for a, b in zip(lo, hi)))]

    @staticmethod
    def _sizes(dims: tuple[int, ...], count: int, what: str) -> tuple[int, ...]:
        """``dims`` when it is ``count`` positive sizes; else an :class:`InputError` naming ``what``."""
        if len(dims) != count or min(dims, default=0) < 1:
            raise InputError(f"{what} needs {count} sizes of at least 1, got {'x'.join(map(str, dims)) or 'none'}")
        return dims

    def random_cell(self, rng, dims: tuple[int, ...]) -> Cell:
        """A cell of :meth:`box` ``(*dims)`` drawn uniformly with the numpy generator ``rng``."""
        box = self.box(*dims)
        return tuple(box[int(rng.integers(len(box)))])

    def has_hole(self, cells: Iterable[Cell]) -> bool:
        """True when some cell outside the shape is enclosed by it (not connected to the outside)."""
        cells = {tuple(c) for c in cells}
        return not self.is_connected(set(self.frame(cells, 2)) - cells)

    def residue_signatures(self, shapes: Iterable[Shape], period: tuple[int, ...]) -> frozenset[tuple[int, ...]]:
        """The distinct residue-class counts of ``shapes``: for each shape, how many of its cells fall in each class of
        coordinates modulo ``period`` (the classes in :func:`itertools.product` order). What the colouring
        proofs need of a piece's orientations, the same for every colouring of that period: made once for all of
        them (:meth:`achievable_from`, :mod:`ubongo_cp.colouring`).

        Raises
        ------
        ValueError
            For a period other than 2 on every axis (that of every grid's colourings, :class:`Colouring`).
        """
        dim = len(period)
        if period != (2,) * dim:
            raise ValueError(f"colourings have period 2 on every axis, not {period}")
        shapes = list(shapes)
        bits = max(map(len, shapes), default=0).bit_length()   # each class's count in a field of one int: no carry
        if dim == 2:
            b0 = 2 * bits
            keys = {sum([1 << ((x & 1) * b0 + (y & 1) * bits) for x, y in shape]) for shape in shapes}
        else:
            steps = [bits << (dim - 1 - i) for i in range(dim)]
            keys = {sum([1 << sum(map(mul, map((1).__and__, cell), steps)) for cell in shape]) for shape in shapes}
        mask = (1 << bits) - 1
        return frozenset(tuple(k >> (i * bits) & mask for i in range(1 << dim)) for k in keys)

    def orientation_signatures(self, cells: Shape, mode: str, period: tuple[int, ...]) -> frozenset[tuple[int, ...]]:
        """:meth:`residue_signatures` of the shape's orientations in ``mode``, each up to a translation of the grid,
        which :meth:`achievable_from` runs through (the weights it gives are the same).

        On a grid of integer maps (:attr:`linear`) whose every translation keeps it (squares, hexagons, cubes),
        the shape's residue counts permuted as each map permutes the classes (:func:`_class_maps`), the
        orientations' cells not made: a map sends a cell's class (its coordinates modulo 2) to the class of its
        image, and the translation to normal position moves every class alike. Else the orientations' own
        signatures.

        Raises
        ------
        ValueError
            For a mode the grid does not have, or a period other than 2 on every axis.
        """
        self.check_mode(mode)
        maps = _class_maps(self, self.modes[mode]) if period == (2,) * self.dim else None
        if maps is None:
            return self.residue_signatures(self.orientations(cells, mode), period)
        counts = self.class_counts(cells)
        return frozenset(tuple(map(counts.__getitem__, inverse)) for inverse in maps)

    def class_counts(self, cells: Iterable[Cell]) -> list[int]:
        """How many of ``cells`` fall in each class of coordinates modulo 2, the classes in
        :func:`itertools.product` order (a class's index: the first coordinate's bit the most significant)."""
        dim = self.dim
        counts = [0] * (1 << dim)
        if dim == 2:
            for x, y in cells:
                counts[(x & 1) << 1 | y & 1] += 1
        else:
            for cell in cells:
                counts[sum([(x & 1) << (dim - 1 - a) for a, x in enumerate(cell)])] += 1
        return counts

    def colouring_imbalances(self, cells: Shape, mode: str) -> tuple[frozenset[int], ...] | None:
        """Per colouring of the grid (:attr:`colourings`, in order), the weights a placement of the shape's
        orientations in ``mode`` can cover: :meth:`achievable_from` of :meth:`orientation_signatures`, summed from
        the shape's class counts and the grid's vectors for the mode (:func:`_imbalance_vectors`), made once.
        None where the orientations' own signatures are needed (triangles).

        Raises
        ------
        ValueError
            For a mode the grid does not have.
        """
        self.check_mode(mode)
        vectors = _imbalance_vectors(self, mode)
        if vectors is None:
            return None
        counts = self.class_counts(cells)
        if len(counts) == 4:   # a plane's four classes: the products written out
            w, x, y, z = counts
            return tuple(frozenset([w * p + x * q + y * r + z * s for p, q, r, s in some]) for some in vectors)
        return tuple(frozenset([sum(map(mul, counts, v)) for v in some]) for some in vectors)

    def achievable_from(self, signatures: Iterable[tuple[int, ...]], colouring: Colouring) -> frozenset[int]:
        """The weights under ``colouring`` a placement of shapes of these :meth:`residue_signatures` (under its
        period) can cover: one per signature and translation class."""
        moved = _residue_weights(self, colouring)
        return frozenset(sum(map(mul, counts, weights)) for counts in signatures for weights in moved)

    def segments(self, owner: Mapping[Cell, object], x0: float, y0: float, cs: float, *, inner: bool) -> list:
        """Edges to stroke in a picture of ``owner`` (cell -> its piece), in mm (origin ``(x0, y0)``, cell size ``cs``).

        ``inner``: the edges between cells of one owner (a piece's cell
        grid); else those between different owners and around the outside.
        Each shared edge once, drawn from the smaller cell.
        """
        cells = list(owner)
        if not cells:
            return []
        polys = (self.polygons(cells) * cs + (x0, y0)).tolist()
        out: list = []
        for cell, poly in zip(cells, polys):
            who = owner[cell]
            k = len(poly)
            for i, nb in enumerate(self.edge_neighbours(cell)):
                other = owner.get(nb, out)          # ``out``: no cell there
                if other is not out and nb < cell:
                    continue
                if (other is not out and other == who) if inner else (other is out or other != who):
                    out.append((tuple(poly[i]), tuple(poly[(i + 1) % k])))
        return out

    def label_candidates(self, cells: Sequence[Cell]) -> list[tuple[float, float]]:
        """Points (x, y) inside a shape where a label may sit: cell centres, shared edges, inner corners."""
        cells = [tuple(c) for c in cells]
        cellset = set(cells)
        polys = self.polygons(cells)
        points = [tuple(p.mean(axis=0)) for p in polys]
        corners: dict[tuple[float, float], int] = {}
        for cell, poly in zip(cells, polys):
            for i, nb in enumerate(self.edge_neighbours(cell)):
                a, b = poly[i], poly[(i + 1) % len(poly)]
                if nb in cellset and nb > cell:
                    points.append(((a[0] + b[0]) / 2, (a[1] + b[1]) / 2))
            for x, y in poly:
                key = (round(float(x), 6), round(float(y), 6))
                corners[key] = corners.get(key, 0) + 1
        points += [p for p, n in corners.items() if n == self.vertex_degree]
        return [(float(x), float(y)) for x, y in points]


#: Up to how many key comparisons (shapes x images squared x cells) :meth:`Grid.orientations_many` finds the
#: repeated images by comparing each with the earlier ones of its shape (above: with :func:`numpy.unique`).
_PAIRWISE_MAX = 1 << 20


def _distinct_outputs(n_shapes: int, n: int, count: int, dim: int) -> tuple:
    """The arrays the C extension's ``distinct`` and ``forms`` write (:meth:`Grid.orientations_lazy`), sized for
    every image of ``n_shapes`` shapes of ``n`` cells under ``count`` maps: keys, cells, shape of each row, its rank,
    which images are kept, each shape's least image's keys."""
    import numpy as np

    rows = n_shapes * count
    return (np.empty((rows, n), dtype=np.int64), np.empty((rows, n, dim), dtype=np.int64),
            np.empty(rows, dtype=np.int32), np.empty(rows, dtype=np.int16), np.empty((n_shapes, count), dtype=bool),
            np.empty((n_shapes, n), dtype=np.int64))


def _native_batch(native, outputs: tuple, found: tuple, radix: int) -> list[Sequence[Shape]]:
    """The members of the :class:`OrientationBatch` of the C extension's ``distinct`` or ``forms``: ``outputs``
    (:func:`_distinct_outputs`) as they wrote them, ``found`` what they returned (rows, counts, reach, unique)."""
    keys, cells, shape_of, rank, kept, least = outputs
    rows, counts, reach, unique = found
    batch = OrientationBatch(keys[:rows], cells[:rows], shape_of[:rows], counts, radix, kept, reach, least)
    batch._rank = rank[:rows]
    batch.unique = unique
    batch.members = native.members(LazyOrientations, batch, len(counts))   # (in C: no Python call each)
    return list(batch.members)


def _packed(keys, base: int) -> list:
    """Int arrays (..., n) of keys below ``base``, as few int64 words (...) as hold them, each key a digit in base
    ``base``: equal for two rows of keys exactly when the rows are."""
    n = keys.shape[-1]
    per = 1                                   # keys per word: base ** per below 2 ** 63
    while per < n and base ** (per + 1) < 1 << 63:
        per += 1
    return [keys[..., start:start + per] @ _powers(base, min(per, n - start)) for start in range(0, n, per)]


def image_keys(x, n_shapes: int, n: int, columns, count: int, dim: int, radix: int, even: bool = False,
               nested: bool = False):
    """The keys of ``count`` images of ``n_shapes`` shapes of ``n`` cells each, in normal position (a grid's
    ``_codes``): int64, shape (n_shapes, n, count); and the largest spread of an image's coordinates on one axis
    (the keys are those of the cells when it is below ``radix - 1``).

    Parameters
    ----------
    x : list of tuple of int
        ``n_shapes * n`` tuples of ``din`` integers: what the maps act on, per cell, shape by shape (its
        coordinates, or more); with ``nested``, ``n_shapes`` sequences of ``n`` such tuples (the shapes).
    columns : numpy.ndarray
        int64, shape (din, (dim + 1) * count): the maps side by side (:func:`side_by_side`), each giving an
        image's ``dim`` coordinates then its key in base ``radix`` (the first coordinate the most significant).
    even : bool
        Whether normal position rounds the shift of the keys down to an even number (triangles: the least row
        and column, less 1 when their sum is odd).
    nested : bool
        Whether ``x`` holds the shapes rather than their cells one after the other.

    Each image is moved to normal position by the key of its least coordinates; computed by the C extension
    when it is built (and the cells are tuples or lists of ints, the keys within 62 bits), else with one numpy
    matrix product."""
    import numpy as np

    native = c_placements()
    if native is not None:
        codes = np.empty((n_shapes, n, count), dtype=np.int64)
        try:
            return codes, native.image_keys(x, n_shapes, n, columns.shape[0], columns, count, dim, radix,
                                            -2 if even else -1, codes, nested)
        except (TypeError, OverflowError):   # cells not tuples or lists of ints, or far out: with numpy
            pass
    x = np.array(x, dtype=np.int64)
    if nested:
        x = x.reshape(n_shapes * n, -1)
    raw = (x @ columns).reshape(n_shapes, n, dim + 1, count)
    low = raw.min(axis=1)                             # (N, dim + 1, count): each image's least coordinates
    shift = low[:, 0]
    for axis in range(1, dim):
        shift = shift * radix + low[:, axis]
    extent = int((raw[:, :, :dim].max(axis=1) - low[:, :dim]).max()) if raw.size else 0
    return raw[:, :, dim] - (shift & ~1 if even else shift)[:, None], extent


def c_placements():
    """The C extension ``ubongo_cp._placements`` (the distinct orientations here, the placement table's fill in
    :mod:`ubongo_cp.cover`), or None when it is not built (the install compiles it: ``setup.py``)."""
    if not _C_EXTENSION:
        try:
            from .. import _placements
        except ImportError:
            _C_EXTENSION.append(None)
        else:
            _C_EXTENSION.append(_placements)
    return _C_EXTENSION[0]


_C_EXTENSION: list = []    # the extension or None, once looked for


@lru_cache(maxsize=None)
def _flat_maps(linear: tuple[tuple[int, ...], ...], count: int) -> array:
    """The first ``count`` maps of :attr:`Grid.linear` as one int64 array (the C extension's ``orientations``)."""
    return array("q", chain.from_iterable(linear[:count]))


@lru_cache(maxsize=None)
def _powers(base: int, count: int):
    """int64, shape (count,): ``base ** (count - 1), ..., base, 1`` (the digits' weights of :func:`_packed`)."""
    import numpy as np

    return np.array([base ** (count - 1 - j) for j in range(count)], dtype=np.int64)


@lru_cache(maxsize=None)
def _earlier(count: int):
    """A bool array (count, count), true at ``[i, j]`` for ``j < i``."""
    import numpy as np

    return np.tri(count, count, -1, dtype=bool)


@lru_cache(maxsize=None)
def _cells_by_key(radix: int, dim: int) -> list[Cell]:
    """The cell of ``dim`` coordinates whose digits in base ``radix`` make each key below ``radix ** dim`` (the
    first coordinate the most significant; :meth:`Grid.orientations_many`)."""
    return list(product(range(radix), repeat=dim))


#: Up to how many keys :meth:`Grid.orientations_many` looks each cell up in a table (:func:`_cells_by_key`;
#: above, each is decoded by division).
_CELLS_BY_KEY_MAX = 1 << 16


def _cells_of_keys(keys, radix: int, dim: int) -> Iterator[Cell]:
    """The cells of an int array of keys (any shape; their digits in base ``radix``, the first coordinate the most
    significant), in row-major order: a table look-up per key up to :data:`_CELLS_BY_KEY_MAX` keys."""
    if radix ** dim <= _CELLS_BY_KEY_MAX:
        return map(_cells_by_key(radix, dim).__getitem__, keys.ravel().tolist())
    return zip(*(column.tolist() for column in _key_columns(keys.ravel(), radix, dim)))


def _key_columns(keys, radix: int, dim: int) -> list:
    """The coordinates of an int array of keys (their digits in base ``radix``, the first coordinate the most
    significant): ``dim`` int arrays of the keys' shape, the first coordinate first."""
    import numpy as np

    digits = []                                            # each coordinate, the last first
    rest = keys
    for _ in range(dim - 1):
        rest, digit = np.divmod(rest, radix)
        digits.append(digit)
    return [rest, *digits[::-1]]


@lru_cache(maxsize=None)
def _code_columns(linear: tuple[tuple[int, ...], ...], count: int, radix: int):
    """The first ``count`` flat matrices of :attr:`Grid.linear`, each with a last row giving the image's key in
    base ``radix`` (the first coordinate the most significant), as :func:`side_by_side` columns: an int array
    (dim, (dim + 1) * count)."""
    import math

    import numpy as np

    dim = math.isqrt(len(linear[0]))
    maps = np.array(linear[:count], dtype=np.int64).reshape(count, dim, dim)
    weights = radix ** np.arange(dim - 1, -1, -1, dtype=np.int64)
    return side_by_side(np.concatenate([maps, (weights @ maps)[:, None, :]], axis=1))


def side_by_side(maps):
    """Integer maps ``maps[k]`` (an array (count, out, in): coordinate ``i`` of the image under map ``k`` is
    ``sum_j maps[k, i, j] x_j``) as one matrix (in, out * count) to multiply row vectors by: column
    ``i * count + k`` gives coordinate ``i`` under map ``k``."""
    import numpy as np

    count, n_out, n_in = maps.shape
    return np.ascontiguousarray(maps.transpose(2, 1, 0).reshape(n_in, n_out * count))
