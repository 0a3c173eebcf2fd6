"""Orion Duel (RULES.md section 4): hex engine, records, pictures, exact SAT analysis, agents.

Modules, in the layout shared by every game of :mod:`ubongo_cp.games`:
:mod:`.state` (the game state, OD-2 ... OD-7), :mod:`.agents`, :mod:`.sim`
(tournaments) and :mod:`.records` (JSON game records); and Orion's own:
:mod:`.hexgrid` (axial geometry), :mod:`.board` and :mod:`.tiles` (board
and tile sets as data), :mod:`.setup` (OD-1), :mod:`.wins` (OD-4),
:mod:`.graphs` (every graph search), :mod:`.render` (ASCII and
matplotlib), and the analysis: :mod:`.plans` (what a plan is, checked
through the engine), :mod:`.reach` (the CP-SAT reachability model),
:mod:`.distance` (``connect_distance``), :mod:`.blocking`
(``min_blocking_set``), :mod:`.safety` (``is_safe_connection``),
:mod:`.review` (a whole game) and :mod:`.brute` (the exact brute force
they are tested against); :mod:`.bitboard` plays the same game on integer
bitmasks, 30 times faster, for search (MCTS, tournaments).
"""

from . import records
from .board import Board, default_board
from .setup import Setup, SetupRules, random_setup, validate_setup
from .bitboard import BitOrionState
from .state import OrionGame, OrionState
from .tiles import Tile, TileSet, default_tiles, load_tiles

__all__ = ["records", "Board", "default_board", "Tile", "TileSet", "default_tiles", "load_tiles",
           "OrionGame", "OrionState", "BitOrionState", "Setup", "SetupRules", "random_setup", "validate_setup"]
