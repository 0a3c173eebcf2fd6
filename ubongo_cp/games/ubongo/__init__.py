"""The Ubongo gem game (RULES.md section 2): ``state`` (UG-1 ... UG-10), ``agents``, ``sim``, ``records``, ``render``.

Importing the package registers its record format with
:mod:`ubongo_cp.games.base`.
"""

from . import records
from .state import FACTS, UbongoState

__all__ = ["FACTS", "UbongoState", "records"]
