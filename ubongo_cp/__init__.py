"""ubongo-cp: a constraint-solver research toolkit for tile-laying games.

Data flows one way: pieces and regions (:mod:`ubongo_cp.pieces`,
:mod:`ubongo_cp.cards`) → placements as one exact-cover instance
(:mod:`ubongo_cp.cover`) → a solver backend (:mod:`ubongo_cp.solvers`) →
results → reports and pictures.
"""

__version__ = "0.1.0"
