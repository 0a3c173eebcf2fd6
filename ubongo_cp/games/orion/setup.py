"""Orion Duel setup (OD-1): token counts and spacings as options, layouts, validation.

RULES.md §4, OD-1: one player places the galaxies, the other the black
holes, and the galaxy player chooses who starts. The counts and spacings
are *configurable* (:class:`SetupRules`):

* default (RULES.md decision): 8 galaxies at least 3 apart (hex distance),
  7 black holes at least 3 apart and at least 2 from any galaxy;
* :meth:`SetupRules.literal` (the seed's wording read literally): galaxies
  "with at least 2 fields between them" (distance >= 3), black holes "at
  least 2 fields from each other and at least 1 field from any galaxy"
  (distance >= 2 and >= 1).

Token counts come from the rules, not from the engine, so a custom board
(:class:`.board.Board`) is played with as many tokens as it can hold.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from ...errors import InputError, as_written, seat_argument, seed_argument
from ..base import is_int
from .board import Board, default_board
from .hexgrid import Hex, distance

__all__ = ["SetupRules", "Setup", "validate_setup", "random_setup"]


@dataclass(frozen=True)
class SetupRules:
    """Token counts and minimum spacings of OD-1 (hex distances).

    Parameters
    ----------
    galaxies, black_holes : int
        Number of galaxy / black hole tokens (RULES.md §4: 8 and 7).
    galaxy_spacing : int
        Least hex distance between two galaxies (default 3).
    hole_spacing : int
        Least hex distance between two black holes (default 3; the seed
        read literally: 2).
    hole_galaxy_spacing : int
        Least hex distance between a black hole and a galaxy (default 2;
        the seed read literally: 1). At least 1: two tokens never share a hex.

    Raises
    ------
    InputError
        For a negative count or a spacing below 1.

    Examples
    --------
    >>> SetupRules().hole_spacing, SetupRules.literal().hole_spacing
    (3, 2)
    """

    galaxies: int = 8
    black_holes: int = 7
    galaxy_spacing: int = 3
    hole_spacing: int = 3
    hole_galaxy_spacing: int = 2

    def __post_init__(self) -> None:
        for name in ("galaxies", "black_holes"):
            v = getattr(self, name)
            if not is_int(v) or v < 0:
                raise InputError(f"OD-1: {name.replace('_', ' ')} must be a whole number >= 0, got {v!r}")
        for name in ("galaxy_spacing", "hole_spacing", "hole_galaxy_spacing"):
            v = getattr(self, name)
            if not is_int(v) or v < 1:
                raise InputError(f"OD-1: {name.replace('_', ' ')} must be a whole number >= 1, got {v!r}")

    @classmethod
    def literal(cls, galaxies: int = 8, black_holes: int = 7) -> "SetupRules":
        """The seed's spacings read literally: galaxies >= 3, black holes >= 2, hole-galaxy >= 1."""
        return cls(galaxies, black_holes, 3, 2, 1)

    def to_json(self) -> dict:
        """Plain-JSON form (the dataclass fields)."""
        return {"galaxies": self.galaxies, "black_holes": self.black_holes,
                "galaxy_spacing": self.galaxy_spacing, "hole_spacing": self.hole_spacing,
                "hole_galaxy_spacing": self.hole_galaxy_spacing}

    @classmethod
    def from_json(cls, data) -> "SetupRules":
        """The inverse of :meth:`to_json`: an object of some of the fields, the others at their defaults.

        Raises
        ------
        InputError
            For anything but an object, a field :meth:`to_json` does not
            write, or a value the constructor refuses.
        """
        known = tuple(cls().to_json())
        if not isinstance(data, dict):
            raise InputError(f"must be an object of OD-1 counts and spacings, got {as_written(data)}")
        unknown = [k for k in data if k not in known]
        if unknown:
            raise InputError(f"unknown field {as_written(unknown[0])} (known: {', '.join(known)})")
        return cls(**data)


@dataclass(frozen=True)
class Setup:
    """A token layout, the starting player and who placed the galaxies (OD-1).

    Parameters
    ----------
    galaxies : tuple of (q, r)
        Galaxy token hexes.
    black_holes : tuple of (q, r)
        Black hole token hexes.
    first_player : int
        Who moves first (0 or 1); the galaxy player chooses (OD-1).
    galaxy_player : int or None
        Who placed the galaxies (0 or 1; the other placed the black holes);
        None when not recorded (records written before version 2).
    """

    galaxies: tuple[Hex, ...]
    black_holes: tuple[Hex, ...]
    first_player: int = 0
    galaxy_player: int | None = None

    def to_json(self) -> dict:
        """Plain-JSON form (lists of ``[q, r]``; ``galaxy_player`` only when known)."""
        out = {"galaxies": [list(h) for h in self.galaxies],
               "black_holes": [list(h) for h in self.black_holes],
               "first_player": self.first_player}
        if self.galaxy_player is not None:
            out["galaxy_player"] = self.galaxy_player
        return out


def validate_setup(setup: Setup, board: Board | None = None,
                   rules: SetupRules | None = None) -> None:
    """Check a token layout against OD-1; raise on the first problem.

    Parameters
    ----------
    setup : Setup
        The layout to check.
    board : Board, optional
        The board (default :func:`.board.default_board`).
    rules : SetupRules, optional
        Token counts and spacings (default :class:`SetupRules` ()).

    Raises
    ------
    InputError
        For a ``setup`` that is not a :class:`Setup`; naming the rule (OD-1) and the offending hexes: wrong counts, a
        token off the board or repeated, two galaxies (or two black holes)
        too close, a black hole too close to a galaxy, a first or galaxy
        player other than 0 or 1.

    Examples
    --------
    >>> validate_setup(Setup(((0, 0),), (), 0), rules=SetupRules(1, 0))
    >>> validate_setup(Setup(((0, 0), (1, 1)), (), 0), rules=SetupRules(2, 0))
    Traceback (most recent call last):
    ...
    ubongo_cp.errors.InputError: OD-1: galaxies (0, 0) and (1, 1) are 2 apart; they must be at least 3 apart
    """
    if not isinstance(setup, Setup):
        raise InputError(f"a setup is a Setup (galaxies, black holes, first player; random_setup(seed) makes one), "
                         f"got {type(setup).__name__}")
    board = board or default_board()
    rules = rules or SetupRules()
    cells = set(board.hexes)
    gal: list[Hex] = [(h[0], h[1]) for h in setup.galaxies]
    hol: list[Hex] = [(h[0], h[1]) for h in setup.black_holes]
    if not is_int(setup.first_player) or setup.first_player not in (0, 1):
        raise InputError(f"OD-1: first player must be 0 or 1, got {setup.first_player!r}")
    if setup.galaxy_player is not None and (not is_int(setup.galaxy_player)
                                            or setup.galaxy_player not in (0, 1)):
        raise InputError(f"OD-1: galaxy player must be 0 or 1, got {setup.galaxy_player!r}")
    if len(gal) != rules.galaxies:
        raise InputError(f"OD-1: {len(gal)} galaxies placed, {rules.galaxies} required")
    if len(hol) != rules.black_holes:
        raise InputError(f"OD-1: {len(hol)} black holes placed, {rules.black_holes} required")
    for kind, hs in (("galaxy", gal), ("black hole", hol)):
        for h in hs:
            if h not in cells:
                raise InputError(f"OD-1: {kind} at {h} is off the board")
    seen: dict[Hex, str] = {}
    for kind, hs in (("galaxy", gal), ("black hole", hol)):
        for h in hs:
            if h in seen:
                raise InputError(f"OD-1: two tokens on {h} ({seen[h]} and {kind})")
            seen[h] = kind
    for kind, hs, least in (("galaxies", gal, rules.galaxy_spacing),
                            ("black holes", hol, rules.hole_spacing)):
        for a, b in itertools.combinations(hs, 2):
            if distance(a, b) < least:
                raise InputError(f"OD-1: {kind} {a} and {b} are {distance(a, b)} apart; "
                                 f"they must be at least {least} apart")
    for h in hol:
        for g in gal:
            if distance(h, g) < rules.hole_galaxy_spacing:
                raise InputError(f"OD-1: black hole {h} is {distance(h, g)} from galaxy {g}; "
                                 f"it must be at least {rules.hole_galaxy_spacing} away")


def random_setup(seed: int | np.random.Generator | None = None, board: Board | None = None, *,
                 first_player: int | None = None, rules: SetupRules | None = None,
                 max_tries: int = 10_000) -> Setup:
    """A uniformly shuffled, greedily built valid OD-1 layout (seeded).

    Hexes are visited in random order and a token is put on each hex that
    keeps the layout valid; a dead end restarts. ``first_player`` defaults
    to a fair coin; then the galaxy player is drawn by a fair coin (one more
    draw after the layout, so layouts do not depend on it).

    Raises
    ------
    InputError
        If no valid layout was found in ``max_tries`` attempts (a board too
        small for the token counts and spacings), for a ``seed`` numpy
        cannot seed from (:func:`~ubongo_cp.errors.seed_argument`), or a
        ``first_player`` other than None, 0 or 1.

    Examples
    --------
    >>> s = random_setup(7)
    >>> validate_setup(s); len(s.galaxies), len(s.black_holes)
    (8, 7)
    """
    board = board or default_board()
    rules = rules or SetupRules()
    if first_player is not None:   # a layout of player 2 (or of True) was returned, refused only when played
        first_player = seat_argument("first_player", first_player, 2)
    rng = np.random.default_rng(seed_argument("seed", seed))
    hexes = list(board.hexes)
    for _ in range(max_tries):
        order = [hexes[i] for i in rng.permutation(len(hexes))]
        gal: list[Hex] = []
        for h in order:
            if len(gal) == rules.galaxies:
                break
            if all(distance(h, g) >= rules.galaxy_spacing for g in gal):
                gal.append(h)
        if len(gal) < rules.galaxies:
            continue
        hol: list[Hex] = []
        for h in order[::-1]:
            if len(hol) == rules.black_holes:
                break
            if (all(distance(h, b) >= rules.hole_spacing for b in hol)
                    and all(distance(h, g) >= rules.hole_galaxy_spacing for g in gal)):
                hol.append(h)
        if len(hol) < rules.black_holes:
            continue
        fp = int(rng.integers(2)) if first_player is None else first_player
        return Setup(tuple(gal), tuple(hol), fp, int(rng.integers(2)))
    raise InputError(f"OD-1: no valid layout of {rules.galaxies} galaxies and {rules.black_holes} "
                     f"black holes found on board '{board.name}' in {max_tries} tries")

