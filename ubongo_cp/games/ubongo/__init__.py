"""The Ubongo gem game (RULES.md section 2): ``state`` (UG-1 ... UG-10), ``agents`` (movement strategies), ``sim``, ``render``.

The game keeps no records (see ``docs/games.md``): a game is reproduced from
the rated deck, the settings and the seed.
"""

from .state import FACTS, UbongoState

__all__ = ["FACTS", "UbongoState"]
