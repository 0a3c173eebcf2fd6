"""Orion Duel (RULES.md section 4): hex engine, records, pictures, SAT analysis, agents.

Modules: :mod:`.hexgrid` (axial geometry), :mod:`.board` and :mod:`.tiles`
(the board and tile set as data), :mod:`.engine` (OD-1 ... OD-7),
:mod:`.records` (JSON game records), :mod:`.render` (ASCII and
matplotlib), :mod:`.sat` (CP-SAT reachability analysis), :mod:`.agents`,
:mod:`.study` (tournaments) and :mod:`.cli`.
"""

from .board import Board, default_board
from .engine import OrionGame, OrionState, Setup, random_setup, validate_setup
from .tiles import Tile, TileSet, default_tiles

__all__ = ["Board", "default_board", "Tile", "TileSet", "default_tiles", "OrionGame",
           "OrionState", "Setup", "random_setup", "validate_setup"]
