"""Domino, nezlob se! (RULES.md section 5): ``actions``, ``state`` (DN-1 ... DN-12), ``agents``, ``sim``, ``records``, ``render``.

Importing the package registers its record format with
:mod:`ubongo_cp.games.base`.
"""

from . import records
from .state import FACTS, DominoSettings, DominoState, new_game

__all__ = ["FACTS", "DominoSettings", "DominoState", "new_game", "records"]
