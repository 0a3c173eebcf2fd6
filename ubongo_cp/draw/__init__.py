"""Pictures of polyomino puzzles with matplotlib: regions, pieces, solutions, card sides.

:mod:`.canvas` holds the drawing surface in millimetres (:class:`Canvas`,
the page object every picture is drawn on) and the colour and outline
primitives; :mod:`.puzzle` draws the parts of a puzzle on it. The booklet
(:mod:`ubongo_cp.booklet`), the playtest cards, ``ubongo-cp solve --draw``
and the notebook pictures (``_repr_svg_`` of pieces, regions, card sides,
results and batch rows) all draw through these functions.

Importing this package imports matplotlib (about 0.3 s); the puzzle modules
(:mod:`ubongo_cp.pieces`, :mod:`ubongo_cp.cards`, ...) import it only when a
picture is asked for.
"""

from .canvas import PALETTE, Canvas, colour_of, piece_colours
from .puzzle import die_face, draw_region, draw_solution, draw_unsolved

__all__ = ["PALETTE", "Canvas", "colour_of", "piece_colours", "die_face", "draw_region", "draw_solution",
           "draw_unsolved"]
