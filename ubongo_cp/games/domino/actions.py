"""Domino, nezlob se!: the domino sets, dense action ids and their names.

Actions (dense ids, :data:`NUM_ACTIONS` in all; RULES.md section 5):

* ``attach``: ``4 * domino + 2 * side + flip`` for ids ``0..83``. ``side``
  0 attaches at the end of the path (after Domina's field), 1 before the
  start (DN-7). ``flip`` 0 puts the domino's low half against the path, 1 its
  high half (a double has only ``flip`` 0).
* ``swap``: ``84 + domino`` returns that domino face down and takes the top
  of the stock (DN-10), then ends the turn.
* ``end turn``: :data:`END_TURN` (105) ends the turn: the pawn moves (DN-8),
  the player draws (DN-9).

A *domino* is an id ``0..20`` into :data:`DOMINO_SETS` ``[domino_set]``, the
21 pairs ``(lo, hi)`` with ``lo <= hi`` in lexicographic order (``0-0, 0-1,
..., 5-5`` for the default double-five set).
"""

from __future__ import annotations

from ...errors import InputError

__all__ = [
    "DOMINO_SETS",
    "NUM_DOMINOES",
    "HAND_SIZE",
    "MOVE_STEPS",
    "NUM_ACTIONS",
    "NUM_ATTACH",
    "SWAP_BASE",
    "END_TURN",
    "OFF",
    "OUT",
    "END_REASONS",
    "encode_attach",
    "decode_attach",
    "encode_swap",
    "is_attach",
    "is_swap",
    "domino_name",
    "parse_domino",
    "action_name",
]


def _pairs(lo: int, hi: int) -> tuple[tuple[int, int], ...]:
    return tuple((a, b) for a in range(lo, hi + 1) for b in range(a, hi + 1))


#: The two 21-domino sets of ``RULES.md`` section 5: the default double-five
#: set (0-0 ... 5-5) and the *configurable* 1-1 ... 6-6 set.
DOMINO_SETS: dict[str, tuple[tuple[int, int], ...]] = {
    "double-five": _pairs(0, 5),
    "one-to-six": _pairs(1, 6),
}
#: Dominoes in the game (DN-1 material list).
NUM_DOMINOES = 21
#: DN-1 / DN-9 / DN-10: hand size at setup, refill limit, swap condition.
HAND_SIZE = 3
#: DN-8: fields moved after attaching 0, 1 or 2 dominoes.
MOVE_STEPS = (1, 2, 4)
#: Attach ids ``0..83``, swap ids ``84..104``, end-of-turn id 105.
NUM_ATTACH = 4 * NUM_DOMINOES
#: First swap action id (DN-10): ``SWAP_BASE + d`` swaps domino ``d``.
SWAP_BASE = NUM_ATTACH
#: The action id that ends the turn (moving the pawn, DN-8).
END_TURN = SWAP_BASE + NUM_DOMINOES
#: Number of action ids.
NUM_ACTIONS = END_TURN + 1
#: Pawn position: waiting beside the start field (DN-2), not yet on the path.
OFF = -1
#: Pawn position: fell off the path past Domina (DN-11), out of the game.
OUT = -2
#: ``end_reason`` values: a pawn reached Domina (DN-11), the DN-12 stalled
#: end, every pawn fell off (DN-11), the engine's round bound (not a rule).
END_REASONS = ("finish", "stalled", "all_out", "round_limit")


def encode_attach(domino: int, side: int, flip: int) -> int:
    """Action id of attaching ``domino`` at ``side`` (0 end, 1 before start) with ``flip``.

    Examples
    --------
    >>> encode_attach(17, 0, 1), decode_attach(71)
    (69, (17, 1, 1))
    """
    if not (0 <= domino < NUM_DOMINOES and side in (0, 1) and flip in (0, 1)):
        raise ValueError(f"bad attach ({domino}, {side}, {flip})")
    return 4 * domino + 2 * side + flip


def decode_attach(action: int) -> tuple[int, int, int]:
    """``(domino, side, flip)`` of an attach action id ``0..83``."""
    if not 0 <= action < NUM_ATTACH:
        raise ValueError(f"{action} is not an attach action")
    return action >> 2, (action >> 1) & 1, action & 1


def encode_swap(domino: int) -> int:
    """Action id of swapping ``domino`` with the top of the stock (DN-10)."""
    if not 0 <= domino < NUM_DOMINOES:
        raise ValueError(f"bad domino id {domino}")
    return SWAP_BASE + domino


def is_attach(action: int) -> bool:
    """True for attach ids ``0..83``."""
    return 0 <= action < NUM_ATTACH


def is_swap(action: int) -> bool:
    """True for swap ids ``84..104``."""
    return SWAP_BASE <= action < END_TURN


def domino_name(domino: int, domino_set: str = "double-five") -> str:
    """``"lo-hi"`` name of a domino id.

    Examples
    --------
    >>> domino_name(0), domino_name(20), domino_name(20, "one-to-six")
    ('0-0', '5-5', '6-6')
    """
    lo, hi = DOMINO_SETS[domino_set][domino]
    return f"{lo}-{hi}"


def parse_domino(text: str, domino_set: str = "double-five") -> int:
    """Domino id of ``"a-b"`` (either order).

    Raises
    ------
    InputError
        If ``text`` is not a domino of the set.

    Examples
    --------
    >>> parse_domino("5-2"), parse_domino("0-0"), parse_domino("5-5")
    (14, 0, 20)
    """
    try:
        a, b = (int(x) for x in str(text).split("-"))
    except ValueError:
        raise InputError(f"bad domino {text!r} (expected 'a-b')") from None
    pair = (min(a, b), max(a, b))
    try:
        return DOMINO_SETS[domino_set].index(pair)
    except ValueError:
        raise InputError(f"domino {text!r} is not in the {domino_set} set") from None


def action_name(action: int, domino_set: str = "double-five") -> str:
    """Readable name of an action id, independent of the state.

    An attachment shows the domino in path order (start side on the left):
    ``near|far`` at the end, ``far|near`` before the start.

    Examples
    --------
    >>> action_name(encode_attach(parse_domino("2-5"), 0, 1))
    'attach 2-5 at end as 5|2'
    >>> action_name(encode_attach(parse_domino("2-5"), 1, 0))
    'attach 2-5 before start as 5|2'
    >>> action_name(encode_swap(parse_domino("3-4"))), action_name(END_TURN)
    ('swap 3-4', 'end turn')
    """
    if is_attach(action):
        d, side, flip = decode_attach(action)
        lo, hi = DOMINO_SETS[domino_set][d]
        near, far = (hi, lo) if flip else (lo, hi)
        if side == 0:
            return f"attach {lo}-{hi} at end as {near}|{far}"
        return f"attach {lo}-{hi} before start as {far}|{near}"
    if is_swap(action):
        return f"swap {domino_name(action - SWAP_BASE, domino_set)}"
    if action == END_TURN:
        return "end turn"
    return f"unknown action {action}"
