"""Ubongo Duel (RULES.md section 3): ``state`` (UD-1 ... UD-7), ``sim`` (matches, handicap sweep), ``records``, ``render``.

The players' only model is the shared solve-time model
(:mod:`ubongo_cp.games.tasks`); a match has no decisions, so there is no
``agents`` module. Importing the package registers its record format with
:mod:`ubongo_cp.games.base`.
"""

from . import records
from .state import FACTS, DuelState

__all__ = ["FACTS", "DuelState", "records"]
