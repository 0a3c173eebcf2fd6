"""BurrTools ``.xmpuzzle`` files: read a problem as pieces and a region, write one, on squares, cubes, triangles, hexagons.

BurrTools [1]_ is the puzzle designers' reference solver; its ``.xmpuzzle``
file is gzip-compressed XML (BurrTools also reads it uncompressed, and so
does :func:`read_xmpuzzle`). The parts this module reads and writes::

    <puzzle version="2">
      <gridType type="0"/>                      0 = bricks (cubes; a plane of squares is z depth 1),
                                                1 = triangular prisms (a plane of triangles is z depth 1)
      <colors><color red= green= blue=/></colors>   colour k of a voxel is the k-th entry (1-based)
      <shapes>
        <voxel x="3" y="2" z="1" name="L4" type="0">###__#</voxel>
      </shapes>
      <problems>
        <problem name="..." state="0">
          <shapes><shape id="0" count="2"/> ...</shapes>     piece = shape id (0-based), used count times
                  <shape id="1" min="0" max="2"/>               or between min and max times
          <result id="5"/>                                    the shape to build (the region)
          <bitmap/>                                           colour constraints (pairs)
        </problem>
      </problems>
      <comment/>
    </puzzle>

A ``<voxel>`` lists its x*y*z voxels, x fastest, then y, then z: ``#``
filled, ``_`` empty, ``+`` variable, each maybe followed by a colour number.
BurrTools draws y upwards, so a cell ``(row, col)`` (row 0 at the top) is
voxel ``x = col``, ``y = height - 1 - row``, ``z = 0``.

Reading takes one problem: each ``<shape id count>`` gives ``count`` copies
of one :class:`Piece` (not told apart, UP-5); a range ``<shape id min max>``
(BurrTools' ``problem.cpp``: both attributes, ``min <= max``; neither and
no ``count``: once) gives ``max`` copies and the range in
:attr:`BurrToolsProblem.ranges` (for :func:`ubongo_cp.cover.build_instance`).
Pieces are named by the shape's ``name``
(when the names are distinct and hold no space or ``#``) or BurrTools' label
``S<id+1>``, and ``<result>`` gives the :class:`Region`,
on the grid (:mod:`ubongo_cp.grids`) the file's shapes make:

- brick grid, every shape flat: squares. BurrTools turns pieces in space: a
  flat piece turned over is its mirror image (UP-3), and one drawn standing
  up (flat in x or y) is turned into the plane, as here;
- brick grid, a shape in more than one layer: cubes, voxel ``(x, y, z)`` the
  cell ``(layer z, row height - 1 - y, col x)``; pieces turn in space
  (orientation mode ``free``: the 24 rotations, as in BurrTools);
- triangular-prism grid, every shape one layer deep: triangles, voxel
  ``(x, y)`` pointing up when ``x + y`` is even (``voxel_1.cpp``), as the
  triangle grid's ``(row, col)`` with ``row + col`` even; and when every
  shape is made of whole hexagons of 6 triangles, all on one hexagon
  tiling, hexagons: BurrTools' manual models polyhexes so ("hexagons with 6
  triangles", chapter "Simulating non-cubic spacegrids"), read here as the
  hex grid's cells (:func:`ubongo_cp.grids.triangle.as_hexagons`).

Its assembly count is the count up to the region's symmetries
(``count_reduced``).

Anything else is refused, naming the file, the XML line and what is wrong,
never read in part: the sphere, rhombic and tetra-octa grids, prisms in more
than one layer, variable voxels in a piece, colour constraints (coloured voxels in result and piece),
disconnected pieces, a shape listed twice in one problem. Variable voxels of the result (``+``: filled or not)
are the region's optional cells (:attr:`Region.optional`), covered at most
once. A problem's ``maxHoles`` (the most variable voxels left empty) is
refused where it limits the count: with pieces used a range of times
(BurrTools applies it only then) and reachable by some choice of counts.
Piece groups (disassembly only) and stored solutions
are ignored.

References
----------
.. [1] A. Röver et al., *BurrTools*, https://github.com/burr-tools/burr-tools
   (``src/lib/puzzle.cpp``: the page "The xmpuzzle format"; ``voxel.cpp``,
   ``problem.cpp`` and ``gridtype.h`` for the elements above).
"""

from __future__ import annotations

import gzip
import io
import os
import re
import zlib
from collections import Counter
from dataclasses import dataclass, field
from numbers import Integral
from typing import Mapping, NamedTuple, Sequence

from .errors import InputError
from .geometry import MAX_REGION_CELLS, Cell, max_cells_hint
from .grids import CUBE, HEX, SQUARE, TRIANGLE, Grid
from .grids.triangle import as_hexagons, hexagon_triangles
from .io import atomic_write_bytes, check_output_file, read_bytes, signature, text_head, wide_codec
from .pieces import Piece, Region, grid_mismatch, name_problem

__all__ = ["GRID_TYPES", "BurrToolsProblem", "read_xmpuzzle", "write_xmpuzzle"]

#: BurrTools' grid types (``gridType_c::gridType`` in ``src/lib/gridtype.h``);
#: 0 holds squares and cubes, 1 triangles (and hexagons of 6); the others are refused.
GRID_TYPES = {0: "bricks", 1: "triangular prisms", 2: "spheres", 3: "rhombic dodecahedra",
              4: "tetrahedra and octahedra"}
#: File versions BurrTools loads (``puzzle_c::puzzle_c``); both are read alike.
VERSIONS = ("1", "2")
#: BurrTools allows at most 63 colours (``puzzle_c::addColor``; colour 0 is "none").
MAX_COLOURS = 63
#: Refuse files that hold, or decompress to, more than this many bytes of XML (a gzip bomb).
MAX_XML_BYTES = 64 * 2**20
#: Most XML elements read from one file (each becomes an object: a bound on the parse's memory).
MAX_ELEMENTS = 100_000
#: Most voxels a ``<voxel>`` space may declare (x*y*z), and most in all of a file's shapes together:
#: checked before the voxels are read. A puzzle's shapes are a few hundred voxels each.
MAX_SHAPE_VOXELS = 1_000_000
MAX_FILE_VOXELS = 4_000_000
#: Most digits of a number in the file (a size, a count, a colour).
MAX_DIGITS = 9
_VOXELS = re.compile(r"([#+_])([0-9]*)")
_VOXEL_TEXT = re.compile(r"(?:[#+_][0-9]*)*")


class BurrToolsProblem(NamedTuple):
    """One problem of a ``.xmpuzzle`` file, as pieces and a region.

    Unpacks as ``pieces, region, *rest``.

    Attributes
    ----------
    pieces : list of Piece
        The pieces to place; a shape used ``k`` times is ``k`` equal
        :class:`Piece` objects with one name (UP-5).
    region : Region
        The result shape (its :attr:`~Region.grid` is the pieces').
    name : str
        The problem's name ("" when it has none).
    number : int
        Which problem this is, from 1 (BurrTools' ``burrTxt -o`` counts from 0).
    n_problems : int
        Problems in the file.
    colours : dict of str -> str
        Piece name -> ``"#rrggbb"``, for pieces whose voxels all carry one
        colour of the file's ``<colors>``.
    assemblies : int or None
        The assembly count BurrTools stored having solved the problem to the
        end (``state="2"``), else None; compare with ``count_reduced``.
    ranges : dict of str -> (int, int)
        Piece name -> ``(min, max)`` for a shape used a range of times
        (``pieces`` then holds ``max`` copies of it); empty when every count is fixed.
    """

    pieces: list[Piece]
    region: Region
    name: str
    number: int
    n_problems: int
    colours: dict[str, str]
    assemblies: int | None
    ranges: dict[str, tuple[int, int]] = {}


def read_xmpuzzle(path: str | os.PathLike, problem: int = 1, *,
                  max_cells: int = MAX_REGION_CELLS, hexagons: bool = True) -> BurrToolsProblem:
    """Read one problem of a BurrTools ``.xmpuzzle`` file as pieces and a region.

    Parameters
    ----------
    path : str or path
        The file, gzip-compressed (as BurrTools saves it) or plain XML.
    problem : int
        Which problem, 1-based (default: the first).
    max_cells : int
        Largest result shape accepted (cells), as for region files.
    hexagons : bool
        Read prisms that make whole hexagons as hexagons (the default);
        ``False`` keeps them triangles.

    Returns
    -------
    BurrToolsProblem
        Pieces and region on the grid the file's shapes make (module
        docstring): squares ``(row, col)``, row 0 at the top; cubes
        ``(layer, row, col)``; triangles; hexagons.

    Raises
    ------
    InputError
        Naming the file and, where it can, the line of the XML: unreadable,
        corrupt gzip, malformed XML or voxel spaces, no such problem, or
        content this reader refuses (module docstring); a result larger
        than ``max_cells``.

    See Also
    --------
    write_xmpuzzle : the inverse.
    ubongo_cp.cover.build_instance : the next step for the pieces and region.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from ubongo_cp.pieces import load_pieces
    >>> folder = tempfile.TemporaryDirectory()
    >>> out = pathlib.Path(folder.name) / "t.xmpuzzle"
    >>> ps = load_pieces("classic")
    >>> write_xmpuzzle(out, ps.select(["I2", "I2", "L4"]), Region.rectangle(2, 4))
    >>> pieces, region, *_ = read_xmpuzzle(out)
    >>> [p.name for p in pieces], region.area
    (['I2', 'I2', 'L4'], 8)
    >>> folder.cleanup()
    """
    if not isinstance(problem, Integral) or isinstance(problem, bool):   # "1" was said to be missing from the file
        raise InputError(f"problem is a problem's number (an int, from 1), got {type(problem).__name__} {problem!r}")
    where = os.fspath(path)
    root = _parse_xml(_xml_bytes(read_bytes(path, limit=MAX_XML_BYTES), where), where)
    return _Puzzle.from_tree(root, where).problem(problem, max_cells=max_cells, hexagons=hexagons)


def write_xmpuzzle(path: str | os.PathLike, pieces: Sequence[Piece], region: Region, *,
                   name: str = "", colours: Mapping[str, object] | None = None, comment: str = "",
                   ranges: Mapping[str, tuple[int, int]] | None = None) -> None:
    """Write pieces and a region as a one-problem BurrTools ``.xmpuzzle`` file.

    The region's grid gives BurrTools' grid: squares and cubes on the brick
    grid (``type="0"``; squares z depth 1), triangles on the
    triangular-prism grid (``type="1"``, z depth 1) and hexagons there too,
    each as a hexagon of 6 triangles (what :func:`read_xmpuzzle` reads back
    as hexagons). The region is the problem's result (its optional cells
    variable voxels, ``+``; not with hexagons), each distinct piece
    one shape named after it and used as many times as it appears in
    ``pieces``. The file is gzip-compressed XML, as BurrTools saves it,
    written atomically; the same input gives the same bytes.

    Parameters
    ----------
    path : str or path
        Output file (conventionally ``*.xmpuzzle``).
    pieces : sequence of Piece
        The pieces; a name given ``k`` times is one shape with ``count="k"``.
    region : Region
        The result shape.
    name : str
        The problem's name.
    colours : mapping of str -> colour, optional
        Piece name -> a matplotlib colour (``"#e69f00"``, ``"orange"``,
        ``(r, g, b)`` in 0..1); the piece's voxels get that colour. The
        result stays uncoloured, so colours add no constraint.
    comment : str
        The puzzle's comment; ", written by ubongo-cp VERSION" is added to it (the toolkit's mark:
        :func:`ubongo_cp.io.signature`).
    ranges : mapping of str -> (int, int), optional
        Piece name -> ``(min, max)``: the shape is used between min and max
        times (``min``/``max`` attributes instead of ``count``).

    Raises
    ------
    InputError
        No pieces, pieces on another grid than the region, two different
        pieces with one name, a colour for a piece not given or not a
        colour, more than 63 colours, a range for a piece not given or with
        min > max, a result or a shape's count over the limit that
        :func:`read_xmpuzzle` reads (:data:`~ubongo_cp.geometry.MAX_REGION_CELLS`),
        an unwritable ``path``, or one holding a file other than a BurrTools file the toolkit wrote
        (:func:`~ubongo_cp.io.check_output_file`); nothing is written then.

    See Also
    --------
    read_xmpuzzle : the inverse.
    """
    where = os.fspath(path)
    if not pieces:
        raise InputError("no pieces to write", path=where)
    from .cover import checked_puzzle

    pieces = checked_puzzle("write_xmpuzzle", pieces, region)   # not an AttributeError from inside
    check_output_file(path, ".xmpuzzle")
    mismatch = grid_mismatch(pieces, region)
    if mismatch:
        raise InputError(mismatch, path=where)
    shapes: dict[str, Piece] = {}
    for piece in pieces:
        if shapes.setdefault(piece.name, piece).cells != piece.cells:
            raise InputError(f"two different pieces are named {piece.name!r}", path=where)
    counts = Counter(piece.name for piece in pieces)
    attrs = {n: f'count="{k}"' for n, k in counts.items()}
    for piece_name, (low, high) in (ranges or {}).items():
        if piece_name not in shapes or not 0 <= low <= high:
            raise InputError(f"range {low}-{high} for {piece_name!r}: " + (
                "no such piece" if piece_name not in shapes else "need 0 <= min <= max"), path=where)
        attrs[piece_name] = f'count="{low}"' if low == high else f'min="{low}" max="{high}"'
    _check_readable(counts, ranges or {}, region, name, where)
    palette, voxel_colour = _colour_table(colours or {}, shapes, where)
    grid = region.grid
    out = io.StringIO()
    out.write(f'<?xml version="1.0"?>\n<puzzle version="2">\n <gridType type="{_GRID_TYPE[grid.name]}"/>\n'
              ' <colors>\n')
    out.write("".join(f'  <color red="{r}" green="{g}" blue="{b}"/>\n' for r, g, b in palette))
    out.write(" </colors>\n <shapes>\n" + "".join(_voxel_xml(p.cells, grid, p.name, voxel_colour.get(p.name, 0))
                                                   for p in shapes.values()))
    out.write(_voxel_xml(region.cells, grid, "Result", 0, region.optional) + " </shapes>\n <problems>\n")
    out.write(f'  <problem name="{_escape(name)}" state="0">\n   <shapes>\n')
    out.write("".join(f'    <shape id="{i}" {attrs[n]}/>\n' for i, n in enumerate(shapes)))
    out.write(f'   </shapes>\n   <result id="{len(shapes)}"/>\n   <bitmap/>\n  </problem>\n </problems>\n')
    # the toolkit's mark (ubongo_cp.io.check_output_file replaces only a file that carries it)
    comment = f"{comment}, written by {signature()}" if comment else f"written by {signature()}"
    out.write(f" <comment>{_escape(comment, attribute=False)}</comment>\n")
    out.write("</puzzle>\n")
    atomic_write_bytes(path, gzip.compress(out.getvalue().encode("utf-8"), mtime=0))


# --------------------------------------------------------------------- writing
def _check_readable(counts: Mapping[str, int], ranges: Mapping[str, tuple[int, int]], region: Region, name: str,
                    where: str) -> None:
    """Refuse a problem :func:`read_xmpuzzle` would refuse at its default limit (:data:`MAX_REGION_CELLS`).

    Raises
    ------
    InputError
        For a result of more cells, or a shape used more times, than that limit.
    """
    title = repr(name) if name else "the problem"
    if region.optional and region.grid is HEX:   # read back as triangles: pieces could lie across hexagons
        raise InputError(f"not written: the result of {title} has optional cells, and BurrTools holds hexagons as "
                         "triangles, which a result with variable voxels is read as", path=where)
    cells = region.area + len(region.optional)  # the cells written as the result
    if cells > MAX_REGION_CELLS:
        raise InputError(f"not written: the result of {title} has {cells} cells, over the limit of "
                         f"{MAX_REGION_CELLS} a BurrTools file is read with", path=where)
    if all(ranges.get(piece_name, (count, count))[1] == 0 for piece_name, count in counts.items()):
        raise InputError(f"not written: {title} would use no piece (every range is 0-0)", path=where)
    for piece_name, count in counts.items():
        most = ranges.get(piece_name, (count, count))[1]
        if most > MAX_REGION_CELLS:
            raise InputError(f"not written: {title} uses {piece_name} up to {most} times, over the limit of "
                             f"{MAX_REGION_CELLS} a BurrTools file is read with", path=where)


#: Characters XML 1.0 does not allow in a document, not even as references (control characters but tab and the
#: line ends, two non-characters).
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _escape(text: str, *, attribute: bool = True) -> str:
    """XML-escape an attribute value (white space runs become one space) or text; a character XML does not allow
    (a control character of a file name) or UTF-8 cannot hold becomes ``?``, so that the file reads back."""
    from xml.sax.saxutils import escape

    from .io import encodable

    text = _NOT_XML.sub("?", encodable(str(text)))
    return escape(" ".join(text.split()), {'"': "&quot;"}) if attribute else escape(text)


#: BurrTools' grid type of each grid written.
_GRID_TYPE = {"square": 0, "cube": 0, "triangle": 1, "hex": 1}


def _voxels(cells: Sequence[Cell], grid: Grid, optional: Sequence[Cell] = ()) -> tuple[set, set]:
    """The voxels ``(x, y, z)`` of a shape on ``grid`` and of its optional cells, smallest x, y and z 0 over both
    (y upwards)."""
    if grid is HEX:
        return _voxels([c for h in cells for c in hexagon_triangles((h[0], h[1]))], TRIANGLE,
                       [c for h in optional for c in hexagon_triangles((h[0], h[1]))])
    every = [*cells, *optional]
    if grid is CUBE:
        top = max(r for _, r, _ in every)
        raw = [{(c, top - r, z) for z, r, c in part} for part in (cells, optional)]
    else:
        top = max(r for r, _ in every)
        top += top % 2 if grid is TRIANGLE else 0      # an even offset keeps x + y's parity: up stays up
        raw = [{(c, top - r, 0) for r, c in part} for part in (cells, optional)]
    lo = [min(v[i] for v in raw[0] | raw[1]) for i in range(3)]
    if grid is TRIANGLE:
        lo[0] -= (lo[0] + lo[1]) % 2                   # triangles move by (dx, dy) with dx + dy even
    filled, variable = ({(v[0] - lo[0], v[1] - lo[1], v[2] - lo[2]) for v in part} for part in raw)
    return filled, variable


def _voxel_xml(cells: Sequence[Cell], grid: Grid, name: str, colour: int, optional: Sequence[Cell] = ()) -> str:
    """One ``<voxel>`` element: the shape's voxels (``#``, optional cells ``+``) in their bounding x * y * z space."""
    filled, variable = _voxels(cells, grid, optional)
    sx, sy, sz = (1 + max(v[i] for v in filled | variable) for i in range(3))
    mark = "#" + (str(colour) if colour else "")
    body = "".join(mark if (x, y, z) in filled else "+" if (x, y, z) in variable else "_"
                   for z in range(sz) for y in range(sy) for x in range(sx))
    return f'  <voxel x="{sx}" y="{sy}" z="{sz}" name="{_escape(name)}" type="0">{body}</voxel>\n'


def _colour_table(colours: Mapping[str, object], shapes: Mapping[str, Piece],
                  where: str) -> tuple[list[tuple[int, int, int]], dict[str, int]]:
    """``<colors>`` entries (8-bit RGB) and each piece's 1-based colour index."""
    from matplotlib.colors import to_rgb

    palette: list[tuple[int, int, int]] = []
    index: dict[str, int] = {}
    for piece_name, spec in colours.items():
        if piece_name not in shapes:
            raise InputError(f"a colour is given for {piece_name!r}, which is not among the pieces", path=where)
        try:
            r, g, b = (round(255 * v) for v in to_rgb(spec))  # type: ignore[arg-type]  # checked here
            rgb = (r, g, b)
        except (ValueError, TypeError):
            raise InputError(f"colour {spec!r} of piece {piece_name!r} is not a colour", path=where) from None
        if rgb not in palette:
            palette.append(rgb)
        index[piece_name] = palette.index(rgb) + 1
    if len(palette) > MAX_COLOURS:
        raise InputError(f"{len(palette)} colours; BurrTools allows at most {MAX_COLOURS}", path=where)
    return palette, index


# --------------------------------------------------------------------- reading
@dataclass
class _Node:
    """An XML element with the line it starts on (ElementTree keeps no lines)."""

    tag: str
    attrs: dict[str, str]
    line: int
    children: list["_Node"] = field(default_factory=list)
    text: list[str] = field(default_factory=list)

    def int_attr(self, key: str, where: str, *, default: int | None = None, what: str = "") -> int:
        """A non-negative decimal attribute (``default`` when missing)."""
        value, what = self.attrs.get(key, "").strip(), what or f"<{self.tag}>"
        if not value and default is not None:
            return default
        if not re.fullmatch(r"[0-9]+", value):
            shown = value if len(value) <= 20 else value[:20] + "..."
            raise InputError(f"{what}: {key}={shown!r} is not a whole number" if value else
                             f"{what} has no {key!r} attribute", path=where, line=self.line)
        if len(value.lstrip("0")) > MAX_DIGITS:
            raise InputError(f"{what}: {key} has {len(value)} digits, more than any BurrTools file holds",
                             path=where, line=self.line)
        return int(value)


def _xml_bytes(raw: bytes, where: str) -> bytes:
    """The XML of a file: gunzipped when it starts with the gzip magic number."""
    if raw[:2] != b"\x1f\x8b":
        if not text_head(raw).startswith("<"):
            raise InputError("not a BurrTools file: neither gzip-compressed nor XML", path=where)
        return raw
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(raw)) as stream:
            data = stream.read(MAX_XML_BYTES + 1)
    except (OSError, EOFError, zlib.error) as exc:
        raise InputError(f"corrupt gzip data ({exc})", path=where) from None
    if len(data) > MAX_XML_BYTES:
        raise InputError(f"decompresses to more than {MAX_XML_BYTES // 2**20} MiB of XML", path=where)
    return data


_DECLARATION = re.compile(rb"\s*<\?xml[^>]*?encoding\s*=\s*[\"']([^\"']*)[\"']")


def _decoded(data: bytes) -> bytes:
    """``data`` as the parser reads it: 8-bit text without a declared encoding is Latin-1.

    BurrTools writes its files without an XML declaration and with names in
    the system's 8-bit code page; such bytes are not UTF-8 (XML's default),
    so they are read as Latin-1 (ISO 8859-1) and handed on as UTF-8.
    """
    wide = wide_codec(data)
    if wide:   # UTF-16 or UTF-32 with its byte-order mark: handed on as UTF-8, as its declaration says then
        try:
            text = data.decode(wide)
        except UnicodeDecodeError:
            return data   # the parser names what it cannot read
        text = re.sub(r"""^(\ufeff?\s*<\?xml[^>]*?encoding\s*=\s*["'])[^"']*""", r"\1utf-8", text, count=1)
        return text.encode("utf-8")
    if data.startswith(b"\xef\xbb\xbf") or _DECLARATION.match(data):
        return data
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1").encode("utf-8")
    return data


def _parse_xml(data: bytes, where: str) -> _Node:
    """Parse XML into :class:`_Node` objects with line numbers (``defusedxml``'s hardened SAX parser).

    A DOCTYPE, entity declarations and external references are refused
    (``defusedxml``), and so is a file of more than :data:`MAX_ELEMENTS`
    elements, before they are all held.
    """
    from xml.sax import SAXException, SAXParseException
    from xml.sax.handler import ContentHandler

    import defusedxml.sax
    from defusedxml import DefusedXmlException, DTDForbidden

    stack: list[_Node] = []
    roots: list[_Node] = []

    class Handler(ContentHandler):
        locator = None
        elements = 0

        def setDocumentLocator(self, locator) -> None:
            self.locator = locator

        def line(self) -> int | None:
            return self.locator.getLineNumber() if self.locator is not None else None

        def startElement(self, tag: str, attrs) -> None:
            self.elements += 1
            if self.elements > MAX_ELEMENTS:
                raise InputError(f"more than {MAX_ELEMENTS:,} XML elements; not a puzzle this toolkit reads",
                                 path=where, line=self.line())
            node = _Node(tag, dict(attrs), self.line() or 0)
            (stack[-1].children if stack else roots).append(node)
            stack.append(node)

        def endElement(self, tag: str) -> None:
            stack.pop()

        def characters(self, content: str) -> None:
            if stack:
                stack[-1].text.append(content)

    handler = Handler()
    try:
        defusedxml.sax.parseString(_decoded(data), handler, forbid_dtd=True)
    except DTDForbidden:
        raise InputError("a DOCTYPE is not expected in a BurrTools file", path=where, line=handler.line()) from None
    except DefusedXmlException as exc:
        raise InputError(f"refused XML: {exc}", path=where, line=handler.line()) from None
    except SAXParseException as exc:
        raise InputError(f"malformed XML: {exc.getMessage()} (column {(exc.getColumnNumber() or 0) + 1})",
                         path=where, line=exc.getLineNumber()) from None
    except SAXException as exc:
        raise InputError(f"malformed XML: {exc.getMessage()}", path=where, line=handler.line()) from None
    except LookupError:  # an encoding Python does not know
        declared = _DECLARATION.match(data)
        name = declared.group(1).decode("ascii", "replace") if declared else "?"
        raise InputError(f"the XML declares an unknown encoding {name!r}", path=where, line=1) from None
    if not roots:
        raise InputError("malformed XML: no element", path=where)
    return roots[0]


@dataclass
class _Shape:
    """A ``<voxel>`` space: filled voxels with their colours, variable voxels."""

    index: int
    name: str
    line: int
    filled: dict[tuple[int, int, int], int]
    variable: int
    varying: frozenset = frozenset()     # the variable voxels (x, y, z)

    @property
    def label(self) -> str:
        """How BurrTools shows the shape: ``S<id+1>`` and its name."""
        return f"shape S{self.index + 1}" + (f" {self.name!r}" if self.name else "")

    def _check(self, where: str, role: str, variable: bool = False) -> None:
        if not self.filled:
            raise InputError(f"{self.label} ({role}) has no filled voxel", path=where, line=self.line)
        if self.variable and not variable:
            raise InputError(f"{self.label} ({role}) has {self.variable} variable voxel(s) ('+'); a piece's "
                             "voxels must be filled ('#') or empty ('_') (only the result may have variable ones)",
                             path=where, line=self.line)

    @property
    def voxels(self) -> set[tuple[int, int, int]]:
        """The filled and the variable voxels."""
        return set(self.filled) | set(self.varying)

    @property
    def flat(self) -> bool:
        """True when the filled and variable voxels lie in one plane x, y or z = const."""
        return any(len({v[axis] for v in self.voxels}) == 1 for axis in (2, 1, 0))

    def layers(self) -> str:
        """``"2x2x2"``: how many layers in x, y and z the voxels span."""
        return "x".join(str(len({v[a] for v in self.voxels})) for a in range(3))

    def cells(self, where: str, role: str, grid: Grid) -> tuple[Cell, ...]:
        """The filled voxels as cells of ``grid`` (square, cube or triangle) in normal position (a piece)."""
        return self.cells_and_optional(where, role, grid, variable=False)[0]

    def cells_and_optional(self, where: str, role: str, grid: Grid, *,
                           variable: bool = True) -> tuple[tuple[Cell, ...], tuple[Cell, ...]]:
        """The filled and the variable voxels as cells of ``grid``, both in the position of their union.

        Squares: the plane the shape lies in, z = const (as drawn in a 2-D
        puzzle), else y or x = const (a flat piece drawn standing up, which
        BurrTools turns into the plane). Triangles: one layer of prisms.
        Cubes: the voxels as they are.
        """
        self._check(where, role, variable)
        voxels = self.voxels
        mapped: dict[tuple[int, int, int], Cell]
        if grid is CUBE:
            mapped = {v: (v[2], -v[1], v[0]) for v in voxels}   # y points up, rows down
        elif grid is TRIANGLE:
            if len({v[2] for v in voxels}) != 1:
                raise InputError(f"{self.label} ({role}) is 3-D: its prisms span {self.layers()} layers in x, y "
                                 "and z; only one layer of prisms (triangles) is read", path=where, line=self.line)
            top = 2 * max(y for _, y, _ in voxels)          # even: row + col keeps x + y's parity
            mapped = {v: (top - v[1], v[0]) for v in voxels}
        else:
            plane = next((axes for depth, axes in ((2, (1, 0)), (1, (2, 0)), (0, (2, 1)))
                          if len({v[depth] for v in voxels}) == 1), None)
            if plane is None:
                raise InputError(f"{self.label} ({role}) is 3-D: its filled voxels span {self.layers()} layers in "
                                 "x, y and z; only 2-D puzzles (shapes one voxel deep) are read", path=where,
                                 line=self.line)
            row, col = plane
            mapped = {v: (-v[row], v[col]) for v in voxels}  # y (or z) points up, rows down
        shift = grid.shift(list(mapped.values()))

        def moved(vs):
            return tuple(sorted(tuple(a + b for a, b in zip(mapped[v], shift)) for v in vs))
        return moved(self.filled), moved(self.varying)

    @classmethod
    def from_node(cls, node: _Node, index: int, where: str) -> "_Shape":
        what = f"shape S{index + 1}"
        sx, sy, sz = (node.int_attr(k, where, what=what) for k in ("x", "y", "z"))
        if sx * sy * sz > MAX_SHAPE_VOXELS:
            raise InputError(f"{what}: a {sx}x{sy}x{sz} space of {sx * sy * sz:,} voxels, more than the "
                             f"{MAX_SHAPE_VOXELS:,} a puzzle's shape may have", path=where, line=node.line)
        if node.int_attr("type", where, what=what) != 0:
            raise InputError(f"{what}: unknown voxel type (BurrTools knows only 0)", path=where, line=node.line)
        text = "".join(node.text).strip()
        if len(text) > (2 + MAX_DIGITS) * sx * sy * sz:  # a state and a colour number per voxel at most
            raise InputError(f"{what}: {len(text):,} characters of voxels for a {sx}x{sy}x{sz} space",
                             path=where, line=node.line)
        if not _VOXEL_TEXT.fullmatch(text):
            bad = re.search(r"[^#+_0-9]", text)
            problem = f"unknown character {bad.group()!r}" if bad else "a colour number before the first voxel"
            raise InputError(f"{what}: {problem} in its voxels (expected '#', '+' or '_', each maybe followed "
                             "by a colour number)", path=where, line=node.line)
        tokens = _VOXELS.findall(text)
        if len(tokens) != sx * sy * sz:
            raise InputError(f"{what}: {len(tokens)} voxels given for a {sx}x{sy}x{sz} space "
                             f"({sx * sy * sz} expected)", path=where, line=node.line)
        if any(len(colour) > MAX_DIGITS for _, colour in tokens):
            raise InputError(f"{what}: a colour number of more than {MAX_DIGITS} digits", path=where, line=node.line)
        filled = {(i % sx, (i // sx) % sy, i // (sx * sy)): int(colour or 0)
                  for i, (state, colour) in enumerate(tokens) if state == "#"}
        varying = frozenset((i % sx, (i // sx) % sy, i // (sx * sy)) for i, (state, _) in enumerate(tokens)
                            if state == "+")
        return cls(index, node.attrs.get("name", "").strip(), node.line, filled, len(varying), varying)


def _check_declared_voxels(root: _Node, where: str) -> None:
    """Refuse shapes that declare more than :data:`MAX_FILE_VOXELS` voxels together, before any is read."""
    voxels = 0
    spaces = (v for node in root.children if node.tag == "shapes" for v in node.children if v.tag == "voxel")
    for index, v in enumerate(spaces):
        declared = 1
        for axis in ("x", "y", "z"):
            declared *= v.int_attr(axis, where, what=f"shape S{index + 1}")
        voxels += declared
        if voxels > MAX_FILE_VOXELS:
            raise InputError(f"the shapes declare more than {MAX_FILE_VOXELS:,} voxels in all; not a puzzle "
                             "this toolkit reads", path=where, line=v.line)


@dataclass
class _Puzzle:
    """The parts of a ``<puzzle>`` that the reader needs."""

    where: str
    colours: list[tuple[int, int, int]]
    shapes: list[_Shape]
    problems: list[_Node]
    grid_type: int = 0

    @classmethod
    def from_tree(cls, root: _Node, where: str) -> "_Puzzle":
        if root.tag != "puzzle":
            raise InputError(f"not a BurrTools puzzle: the root element is <{root.tag}>, not <puzzle>",
                             path=where, line=root.line)
        version = root.attrs.get("version")
        if version not in VERSIONS:
            raise InputError(f"<puzzle> version {version!r}: BurrTools files have version 1 or 2",
                             path=where, line=root.line)
        colours: list[tuple[int, int, int]] = []
        shapes: list[_Shape] = []
        problems: list[_Node] = []
        grid_type = 0   # no <gridType>: bricks, as in BurrTools
        _check_declared_voxels(root, where)
        for node in root.children:
            if node.tag == "gridType":
                grid_type = node.int_attr("type", where)
                if grid_type not in (0, 1):
                    kind = GRID_TYPES.get(grid_type, "unknown to BurrTools")
                    raise InputError(f"grid type {grid_type} ({kind}) is not read; only the brick grid (type 0: "
                                     "squares and cubes) and the triangular-prism grid (type 1: triangles, "
                                     "hexagons of 6 triangles) are", path=where, line=node.line)
            elif node.tag == "colors":
                colours += [(c.int_attr("red", where) & 0xFF, c.int_attr("green", where) & 0xFF,
                             c.int_attr("blue", where) & 0xFF) for c in node.children if c.tag == "color"]
            elif node.tag == "shapes":
                shapes += [_Shape.from_node(v, len(shapes) + i, where)
                           for i, v in enumerate(n for n in node.children if n.tag == "voxel")]
            elif node.tag == "problems":
                problems += [n for n in node.children if n.tag == "problem"]
        return cls(where, colours, shapes, problems, grid_type)

    def problem(self, number: int, *, max_cells: int, hexagons: bool = True) -> BurrToolsProblem:
        """Problem ``number`` (1-based) as pieces and a region."""
        where = self.where
        if not self.problems:
            raise InputError("the file defines no problem (no <problem> element)", path=where)
        if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= len(self.problems):
            raise InputError(f"no problem {number}: the file has {len(self.problems)} problem(s), "
                             f"numbered from 1", path=where)
        node = self.problems[number - 1]
        name = node.attrs.get("name", "").strip()
        title = f"problem {number}" + (f" {name!r}" if name else "")
        parts, result = self._parts(node, title)
        if not parts:
            raise InputError(f"{title} uses no piece", path=where, line=node.line)
        grid: Grid
        if self.grid_type == 1:
            grid = TRIANGLE
        else:   # bricks: squares when every shape of the problem is flat, else cubes
            grid = SQUARE if all(self.shapes[i].flat for i in [result] + [i for i, *_ in parts]) else CUBE
        region_cells, optional = self.shapes[result].cells_and_optional(where, f"the result of {title}", grid)
        piece_cells = {i: self.shapes[i].cells(where, f"a piece of {title}", grid) for i, *_ in parts}
        if grid is TRIANGLE and hexagons and not optional:
            as_hex = [h for c in [region_cells, *piece_cells.values()] if (h := as_hexagons(c)) is not None]
            if len(as_hex) == 1 + len(piece_cells):
                grid, region_cells = HEX, HEX.normalize(as_hex[0])
                piece_cells = {i: HEX.normalize(h) for i, h in zip(piece_cells, as_hex[1:])}
        region = Region(region_cells, where, grid, optional)
        if region.area + len(region.optional) > max_cells:
            raise InputError(f"the result of {title} has {region.area + len(region.optional)} cells, over the limit "
                             f"of {max_cells} ({max_cells_hint()})",
                             path=where, line=self.shapes[result].line)
        # Colour constraints: a coloured piece voxel may then lie only on result voxels of an allowed
        # colour (BurrTools' problem_c::placementAllowed); without coloured result voxels they are moot.
        coloured = [self.shapes[i].label for i, *_ in parts if any(self.shapes[i].filled.values())]
        if self.colours and coloured and any(self.shapes[result].filled.values()):
            raise InputError(f"{title} uses colour constraints (coloured voxels in its result and in "
                             f"{coloured[0]}); they are not read", path=where, line=node.line)
        self._check_max_holes(node, title, parts, piece_cells, region)
        names = self._names([shape for shape, *_ in parts])
        pieces: list[Piece] = []
        ranges = {names[i]: (low, high) for i, low, high in parts if low != high}
        for shape_id, _, count in parts:
            shape = self.shapes[shape_id]
            cells = piece_cells[shape_id]
            if not grid.is_connected(cells):
                raise InputError(f"{shape.label} (a piece of {title}) is not connected; pieces are polyforms "
                                 f"(connected {grid.cell_noun}s)", path=where, line=shape.line)
            if count > max_cells:
                raise InputError(f"{title} uses {shape.label} {count} times, over the limit of {max_cells}",
                                 path=where, line=node.line)
            pieces += [Piece(names[shape_id], cells, grid)] * count
        solved = node.attrs.get("state") == "2" and re.fullmatch(r"[0-9]{1,30}", node.attrs.get("assemblies", ""))
        assemblies = int(node.attrs["assemblies"]) if solved else None  # state 2: solved to the end
        one_colour = {names[i]: set(self.shapes[i].filled.values()) for i, *_ in parts}
        colours = {piece: "#{:02x}{:02x}{:02x}".format(*self.colours[k - 1]) for piece, used in one_colour.items()
                   if len(used) == 1 and 0 < (k := min(used)) <= len(self.colours)}
        return BurrToolsProblem(pieces, region, name, number, len(self.problems), colours, assemblies, ranges)

    def _check_max_holes(self, node: _Node, title: str, parts: list[tuple[int, int, int]],
                         piece_cells: dict[int, tuple[Cell, ...]], region: Region) -> None:
        """Refuse a problem's ``maxHoles`` where it limits the answer: with pieces used a range of times, at most
        that many variable voxels of the result stay empty (BurrTools' assemblers; with every count fixed the
        number of holes is the same in every assembly and the limit is not applied), a limit on the cells the
        pieces cover together, which is not modelled. A limit that no choice of counts reaches is read as none.
        """
        if "maxHoles" not in node.attrs or all(low == high for _, low, high in parts):
            return
        holes = node.int_attr("maxHoles", self.where, what=title)
        least = sum(low * len(piece_cells[i]) for i, low, _ in parts)   # the cells the fewest pieces cover
        if holes < len(region.optional) and least < region.area + len(region.optional) - holes:
            raise InputError(f"{title} allows at most {holes} empty variable voxel(s) (maxHoles) with pieces used "
                             f"a range of times; such a limit is not read (remove it, or fix the counts)",
                             path=self.where, line=node.line)

    def _parts(self, node: _Node, title: str) -> tuple[list[tuple[int, int, int]], int]:
        """``[(shape id, min, max), ...]`` of a problem (max > 0) and its result's shape id."""
        where = self.where
        parts: list[tuple[int, int, int]] = []
        results = [n for n in node.children if n.tag == "result"]
        if not results:
            raise InputError(f"{title} has no <result>", path=where, line=node.line)
        result = self._shape_id(results[-1], title)
        listed: dict[int, int] = {}   # shape id -> the line of its part
        for shape in (s for group in node.children if group.tag == "shapes"
                      for s in group.children if s.tag == "shape"):
            shape_id = self._shape_id(shape, title)
            if shape_id in listed:   # BurrTools' editor keeps one part per shape; two would be different pieces
                raise InputError(f"{title} lists {self.shapes[shape_id].label} twice (lines {listed[shape_id]} and "
                                 f"{shape.line}); list each shape once, with the count or range of its copies",
                                 path=where, line=shape.line)
            listed[shape_id] = shape.line
            if "count" in shape.attrs:
                low = high = shape.int_attr("count", where)
            elif "min" in shape.attrs and "max" in shape.attrs:  # BurrTools reads a range only with both
                low = shape.int_attr("min", where)
                high = shape.int_attr("max", where)
            else:
                low = high = 1
            if low > high:
                raise InputError(f"{title}: {self.shapes[shape_id].label} may be used min={low} to max={high} "
                                 "times; min must not exceed max", path=where, line=shape.line)
            if high:
                parts.append((shape_id, low, high))
        if any(shape_id == result for shape_id, *_ in parts):  # BurrTools' editor keeps the two apart
            raise InputError(f"{title}: its <result> is {self.shapes[result].label}, which is also one of its pieces; "
                             "the shape to build must be a shape of its own", path=where, line=results[-1].line)
        return parts, result

    def _shape_id(self, node: _Node, title: str) -> int:
        shape_id = node.int_attr("id", self.where, what=f"<{node.tag}> of {title}")
        if shape_id >= len(self.shapes):
            raise InputError(f"{title}: <{node.tag}> names shape id {shape_id}, but the file has "
                             f"{len(self.shapes)} shape(s) (ids from 0)", path=self.where, line=node.line)
        return shape_id

    def _names(self, shape_ids: list[int]) -> dict[int, str]:
        """Piece names: the shapes' names when distinct and valid piece names (``empty`` is kept for the cells left
        empty), else BurrTools' labels ``S<id+1>``."""
        names = {i: self.shapes[i].name or f"S{i + 1}" for i in shape_ids}
        if len(set(names.values())) < len(names) or any(name_problem(n, in_file=True) for n in names.values()):
            names = {i: f"S{i + 1}" for i in shape_ids}
        return names
