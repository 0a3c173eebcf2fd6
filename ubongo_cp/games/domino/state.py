"""Domino, nezlob se!: the race game engine (rules DN-1 ... DN-12).

Rules DN-1 ... DN-12 of ``RULES.md`` section 5 (seed 003). The state follows
the OpenSpiel contract of :mod:`ubongo_cp.games.base`; hidden hands are
exposed per player through :meth:`DominoState.observation`.

Conventions
-----------
* Dominoes and action ids: :mod:`ubongo_cp.games.domino.actions`. Before
  the first attachment (DN-2), attach side 0 attaches to the start domino's
  high half and side 1 to its low half, and the path is then turned to run
  towards the new domino; for a double start domino only side 0 is offered.
* The *path* is a list of field symbols; field ``i`` and ``i ^ 1`` form one
  domino (every domino is two fields, DN-3), so ``path_ids[i // 2]`` is the
  domino lying on field ``i``. Field indices grow towards Domina. Before the
  first attachment the path is the start domino ``[lo, hi]`` with no
  direction (DN-2).
* ``start`` is the index of the start field, ``domina`` the index of
  Domina's field (always the last field, DN-7). A pawn position is a field
  index, :data:`~ubongo_cp.games.domino.actions.OFF` (waiting beside the
  start, not yet on the path) or :data:`~ubongo_cp.games.domino.actions.OUT`
  (fell off the path, DN-11).

A turn is a sequence of actions by the same player (DN-4): zero, one or two
attachments, then the end of the turn. The turn ends by itself after an
attachment when no second attachment is possible (DN-6: the pawn was not on
the path at the start of the turn, two were attached already, or no domino in
hand fits the new end); otherwise the player picks a second attachment on the
same side or ``END_TURN``. So every decision node offers a real choice
except a forced pass (``[END_TURN]``).

Chance: the shuffle (DN-1) comes from ``numpy.random.default_rng(seed)``;
the stock is a face-down pile drawn from the top. A swapped domino goes back
at a uniformly random depth of the pile, drawn from
``numpy.random.default_rng((seed, k))`` for the ``k``-th swap of the game, so
a clone replays the same chance events and the state carries no generator to
copy. Game records (:mod:`ubongo_cp.games.domino.records`) store the depth
of every swap.

Decisions where the seed is silent are fields of :class:`DominoSettings`
with the defaults of ``RULES.md``; a few readings of the text are listed in
the Notes of :class:`DominoState`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from ...errors import InputError, flag_argument, seat_argument, whole_argument
from ..base import TERMINAL, GameFacts, GameState, action_type_reason, copy_history, is_int
from .actions import (DOMINO_SETS, END_TURN, HAND_SIZE, MOVE_STEPS, NUM_ACTIONS, NUM_ATTACH,
                      NUM_DOMINOES, OFF, OUT, SWAP_BASE, action_name, decode_attach, domino_name, is_attach,
                      is_swap, parse_domino)

__all__ = [
    "FACTS",
    "DominoSettings",
    "settings_argument",
    "DominoObservation",
    "DominoState",
    "new_game",
    "game_seed",
]

#: Engine bound on rounds (not a rule; see :class:`DominoSettings`).
DEFAULT_MAX_ROUNDS = 500

#: The game's facts. Length bound with the default settings: a turn is at
#: most two actions (attach + attach, attach + end turn, a swap, or a pass;
#: DN-4, DN-6, DN-10), 4 turns a round, and the engine ends the game after
#: ``max_rounds`` rounds: 2 x 4 x 500 = 4000 (:meth:`DominoState.max_game_length`
#: for other settings). Nobody wins when every pawn fell off or the round
#: bound ended the game, so the returns sum to 0 or 1.
FACTS = GameFacts(name="domino", min_players=2, max_players=4, chance_nodes=False, sampled_chance=True,
                  returns_sum=(0.0, 1.0), max_game_length=2 * 4 * DEFAULT_MAX_ROUNDS, title="Domino",
                  hidden_information=True)   # DN-1: each player's hand is hidden from the others

#: The rule behind each ``end_reason`` (:data:`~ubongo_cp.games.domino.actions.END_REASONS`), named when a move
#: of a finished game is refused.
_END_RULES = {"finish": "DN-11", "all_out": "DN-11", "stalled": "DN-12",
              "round_limit": "the engine's round limit, settings.max_rounds"}


@dataclass(frozen=True)
class DominoSettings:
    """Every configurable decision of ``RULES.md`` section 5, with its default.

    Parameters
    ----------
    num_players : int
        2 to 4 players (section 5 introduction).
    domino_set : {"double-five", "one-to-six"}
        The 21 dominoes 0-0 ... 5-5 (default) or 1-1 ... 6-6 (*configurable*).
    first_player : int
        Seat that plays first (DN-1; default seat 0).
    may_decline : bool
        A player may always attach fewer dominoes than it could (default
        True). When False, a player who can attach must (also the second
        domino of DN-6), and may then neither pass nor swap.
    eliminated_field_free : bool
        The field of a pawn that falls off (DN-11) is free again (default
        True). When False the pawn stays on the field it left as an obstacle
        that other pawns jump over (DN-8) and do not enter on (DN-5).
    all_out_winner : {"nobody", "last_out"}
        Who wins when every pawn fell off (default "nobody"; "last_out": the
        last pawn to fall off).
    stall_ties : {"share", "nobody"}
        Pawns equally near Domina under DN-12 share the win (default), or
        nobody wins. Only ``stall_distance="free_fields"`` can make two
        pawns equally near (two pawns never share a field).
    stall_distance : {"fields", "free_fields"}
        How DN-12 measures "nearest Domina": fields along the path, counting
        fields that hold other pawns (default, RULES.md DN-12: a queue of
        pawns 6, 5, 4 and 3 fields from Domina is won by the pawn 3 away),
        or the fields a move must count to land on Domina, fields of other
        pawns not counted as in DN-8 (that queue is then a four-way tie).
    max_rounds : int
        Engine bound, not a rule: the game ends with ``end_reason ==
        "round_limit"`` and no winner when round ``max_rounds`` is over. It
        only matters when no pawn is on the path and every player keeps
        declining (the rules then never end the game, DN-12 needs an empty
        stock).

    Raises
    ------
    InputError
        If a value is out of range or of the wrong type: the counts and the
        seat must be whole numbers, ``may_decline`` and
        ``eliminated_field_free`` True or False (a string such as ``"no"``
        would read as true).
    """

    num_players: int = 4
    domino_set: str = "double-five"
    first_player: int = 0
    may_decline: bool = True
    eliminated_field_free: bool = True
    all_out_winner: str = "nobody"
    stall_ties: str = "share"
    stall_distance: str = "fields"
    max_rounds: int = DEFAULT_MAX_ROUNDS

    def __post_init__(self) -> None:
        players = whole_argument("num_players", self.num_players, None)
        if not 2 <= players <= 4:
            raise InputError(f"must be 2, 3 or 4, got {self.num_players!r}", argument="num_players")
        if not isinstance(self.domino_set, str) or self.domino_set not in DOMINO_SETS:
            raise InputError(f"unknown domino_set {self.domino_set!r} "
                             f"(choose from {', '.join(DOMINO_SETS)})")
        # Checked values are stored as plain ints and bools (a numpy int stays JSON-ready in a record).
        for name, value in (("num_players", players),
                            ("first_player", seat_argument("first_player", self.first_player, players)),
                            ("may_decline", flag_argument("may_decline", self.may_decline)),
                            ("eliminated_field_free", flag_argument("eliminated_field_free",
                                                                    self.eliminated_field_free)),
                            ("max_rounds", whole_argument("max_rounds", self.max_rounds, 1))):
            object.__setattr__(self, name, value)
        if self.all_out_winner not in ("nobody", "last_out"):
            raise InputError(f"all_out_winner must be 'nobody' or 'last_out', got {self.all_out_winner!r}")
        if self.stall_ties not in ("share", "nobody"):
            raise InputError(f"stall_ties must be 'share' or 'nobody', got {self.stall_ties!r}")
        if self.stall_distance not in ("fields", "free_fields"):
            raise InputError(f"stall_distance must be 'fields' or 'free_fields', "
                             f"got {self.stall_distance!r}")

    @property
    def max_game_length(self) -> int:
        """Upper bound on the number of actions in a game.

        At most two actions per turn (attach + attach, attach + end turn, a
        swap, or a pass), ``num_players`` turns per round, ``max_rounds``
        rounds.
        """
        return 2 * self.num_players * self.max_rounds


def settings_argument(settings) -> DominoSettings:
    """``settings`` when it is a :class:`DominoSettings`, the default ones for None; else an :class:`InputError`
    saying how to make them (not an AttributeError from inside).

    Examples
    --------
    >>> settings_argument(None).num_players
    4
    >>> settings_argument({"num_players": 2})
    Traceback (most recent call last):
    ...
    ubongo_cp.errors.InputError: settings must be DominoSettings (e.g. DominoSettings(num_players=2)) or None, got dict
    """
    if settings is None:
        return DominoSettings()
    if not isinstance(settings, DominoSettings):
        raise InputError("settings must be DominoSettings (e.g. DominoSettings(num_players=2)) or None, got "
                         f"{type(settings).__name__}")
    return settings


@dataclass(frozen=True)
class DominoObservation:
    """What ``player`` sees: the public table and its own hand only.

    Attributes
    ----------
    player : int
        The observer.
    hand : tuple of (int, int)
        The observer's own dominoes as ``(lo, hi)``; other hands are hidden.
    hand_sizes : tuple of int
        Number of dominoes in every hand.
    stock_size : int
        Face-down dominoes left (their order is hidden).
    path : tuple of int
        Field symbols, start of the list first.
    start, domina : int
        Index of the start field and of Domina's field (-1 before DN-2).
    pawns : tuple of int
        Field index, :data:`OFF` or :data:`OUT` per player.
    current_player : int
        Player to act or :data:`~ubongo_cp.games.base.TERMINAL`.
    attached_this_turn : int
        Dominoes the current player attached so far this turn.
    round : int
        Current round, from 1.
    """

    player: int
    hand: tuple[tuple[int, int], ...]
    hand_sizes: tuple[int, ...]
    stock_size: int
    path: tuple[int, ...]
    start: int
    domina: int
    pawns: tuple[int, ...]
    current_player: int
    attached_this_turn: int
    round: int


class DominoState(GameState):
    """State of a game of Domino, nezlob se! (DN-1 ... DN-12).

    Build one with :func:`new_game` (shuffled deal) or
    :meth:`DominoState.from_deal` (a given deal, e.g. a hand-built position).

    Parameters
    ----------
    settings : DominoSettings
    start_domino : int
        Domino id turned up in the middle (DN-1).
    hands : sequence of sequence of int
        ``num_players`` hands of domino ids.
    stock : sequence of int
        Face-down pile, top first.
    seed : int or None
        Seed of the swap chance events (see the module docstring), a whole
        number >= 0 (else an :class:`~ubongo_cp.errors.InputError`); None
        draws a fresh one (:func:`game_seed`), kept in ``state.seed`` and the
        game's record.

    Notes
    -----
    Readings of the rule text (seed 003) used here:

    * DN-2: until the first attachment every player in turn may attach to
      either half of the start domino; a player who does not has lost its
      turn but may still swap under DN-10.
    * DN-5: an entering pawn stands on the start field, or when that is
      taken on the next free field towards Domina ("next" in the direction
      of the path, the seed's "další volné pole"). So a pawn that enters
      while an earlier pawn still stands on the start field (it entered
      this round and has not moved yet, DN-5) lands ahead of it; once the
      earlier pawn has moved on, later pawns enter behind it.
    * DN-6: the second domino continues from the first one on the same side
      (end or before start), and "already on the path" means at the start of
      the turn, so the turn a pawn enters (DN-5) has one attachment.
    * DN-7: "every pawn is on the path" counts fallen pawns as having been on
      it: front attachments are allowed once every player has entered.
      Domina never leaves the last field: attachments at the end move her
      there, attachments before the start do not change the last field. The
      start field keeps its place in the path.
    * DN-8 / DN-11: a move of 1 never overshoots (Domina's field is free).
      A pawn that overshoots is out, skips its turns and keeps its hand.
    * DN-9: one domino is drawn after the move, unless the pawn fell off or
      the game is over.
    * DN-12: the game stalls when the last ``k`` consecutive turns, each
      begun with an empty stock, attached nothing, ``k`` being the number of players
      still in the game (one round); the pawn nearest Domina wins, measured
      by ``settings.stall_distance`` (pawns off the path are not candidates).
    """

    facts = FACTS
    #: The rules that make the action ids: attaching (DN-3), ending the turn (DN-4), swapping (DN-10).
    action_ids_rule = "DN-3, DN-4, DN-10"

    __slots__ = (
        "settings", "num_players", "dominoes", "seed", "hands", "stock", "path", "path_ids",
        "start", "domina", "pawns", "blocked", "entered", "all_entered", "cur",
        "attached", "side", "on_path_at_start", "entered_now", "stall", "round", "turns",
        "swaps", "eliminated", "_history", "swap_depths", "end_reason", "_returns", "deal",
        "_forced_depth",
    )

    def __init__(self, settings: DominoSettings, start_domino: int,
                 hands: Sequence[Sequence[int]], stock: Sequence[int], seed: int | None = 0) -> None:
        settings = settings_argument(settings)
        n = settings.num_players
        self.settings = settings
        self.num_players = n
        self.dominoes = DOMINO_SETS[settings.domino_set]
        # The swaps draw from default_rng((seed, k)): a seed numpy refuses would fail mid-game, at the first swap.
        self.seed = game_seed(seed)
        _check_deal(start_domino, hands, stock, n)
        self.hands = [list(h) for h in hands]
        self.stock = list(reversed(list(stock)))      # top of the pile = end of the list
        lo, hi = self.dominoes[start_domino]
        self.path = [lo, hi]
        self.path_ids = [start_domino]
        self.start = -1                               # DN-2: no direction yet
        self.domina = -1
        self.pawns = [OFF] * n
        self.blocked: list[int] = []
        self.entered = [False] * n
        self.all_entered = False
        self.cur = settings.first_player
        self.attached = 0
        self.side = 0
        self.on_path_at_start = False
        self.entered_now = False
        self.stall = 0
        self.round = 1
        self.turns = 0
        self.swaps = 0
        self.eliminated: list[int] = []
        self._history: list[int] = []
        self.swap_depths: list[int] = []
        self.end_reason: str | None = None
        self._returns: list[float] | None = None
        self._forced_depth: int | None = None
        self.deal = {"start": int(start_domino), "hands": [list(map(int, h)) for h in hands],
                     "stock": list(map(int, stock))}

    @classmethod
    def from_deal(cls, settings: DominoSettings, start_domino: int | str,
                  hands: Sequence[Sequence[int | str]], stock: Sequence[int | str],
                  seed: int | None = 0) -> "DominoState":
        """A state from a given deal; dominoes as ids or ``"a-b"`` names.

        Raises
        ------
        InputError
            If the deal is not 21 distinct dominoes with ``HAND_SIZE`` per
            hand (DN-1).
        """
        settings = settings_argument(settings)
        ds = settings.domino_set

        def ident(x: int | str) -> Any:
            # A name is parsed, a whole number taken as an id; anything else (2.7, inf, True) is left for
            # the deal's check to refuse: int() would make 2.7 domino 2.
            return parse_domino(x, ds) if isinstance(x, str) else int(x) if is_int(x) else x

        return cls(settings, ident(start_domino), [[ident(x) for x in h] for h in hands],
                   [ident(x) for x in stock], seed)

    # -- OpenSpiel contract -------------------------------------------------

    def current_player(self) -> int:
        """Player to act, or :data:`~ubongo_cp.games.base.TERMINAL`."""
        return TERMINAL if self._returns is not None else self.cur

    def is_terminal(self) -> bool:
        """True once a pawn reached Domina, the game stalled or every pawn is out."""
        return self._returns is not None

    def returns(self) -> list[float]:
        """1 for the winner, ``1/k`` each for ``k`` DN-12 co-winners, else 0.

        All zeros while the game runs or when nobody wins.
        """
        return list(self._returns) if self._returns is not None else [0.0] * self.num_players

    def legal_actions(self) -> list[int]:
        """Sorted legal action ids of the current player (empty when terminal).

        Notes
        -----
        O(hand size): attachments from the hand (DN-2, DN-3, DN-6, DN-7),
        swaps (DN-10), and :data:`END_TURN` (DN-4; withheld when
        ``may_decline`` is False and an attachment exists).
        """
        if self._returns is not None:
            return []
        hand = self.hands[self.cur]
        doms = self.dominoes
        path = self.path
        acts: list[int] = []
        if self.attached == 0:
            if self.start < 0:                                   # DN-2 first attachment
                ends = ((0, path[1]),) if path[0] == path[1] else ((0, path[1]), (1, path[0]))
            elif self.all_entered:                               # DN-7 both ends
                ends = ((0, path[-1]), (1, path[0]))
            else:
                ends = ((0, path[-1]),)
        else:                                                    # DN-6 second, same side
            ends = ((self.side, path[-1] if self.side == 0 else path[0]),)
        for d in hand:
            lo, hi = doms[d]
            for side, sym in ends:
                if lo == sym:
                    acts.append(4 * d + 2 * side)
                elif hi == sym:
                    acts.append(4 * d + 2 * side + 1)
        if acts and not self.settings.may_decline:
            acts.sort()
            return acts
        if self.attached == 0 and self.stock and len(hand) == HAND_SIZE:   # DN-10
            acts.extend(SWAP_BASE + d for d in hand)
        acts.append(END_TURN)
        acts.sort()
        return acts

    def _apply_action(self, action: int) -> None:
        """Play ``action``; an illegal one raises an error naming the rule (DN-2 ... DN-10)."""
        why = self.why_illegal(action)
        if why is not None:
            raise self._illegal(action, why)
        self._apply(action)

    def max_game_length(self) -> int:
        """``settings.max_game_length``: two actions per turn at most, ``max_rounds`` rounds (:data:`FACTS`)."""
        return self.settings.max_game_length

    def picture(self):
        """The path, pawns and hands as a matplotlib figure (:func:`ubongo_cp.games.domino.render.figure`)."""
        from .render import figure

        return figure(self)

    def num_distinct_actions(self) -> int:
        """Every attachment, move, swap and the end of a turn (:mod:`.actions`)."""
        return NUM_ACTIONS

    def action_to_string(self, action: int) -> str:
        """Readable name, e.g. ``"attach 2-5 at end as 5|2"`` (see :func:`action_name`).

        Before the first attachment (DN-2) an attachment names the half of
        the start domino it touches: ``"attach 2-5 to start half 5 as 5|2"``.
        """
        if self.start < 0 and 0 <= action < NUM_ATTACH:
            d, side, flip = decode_attach(action)
            lo, hi = self.dominoes[d]
            near, far = (hi, lo) if flip else (lo, hi)
            half = self.path[1] if side == 0 else self.path[0]
            return f"attach {lo}-{hi} to start half {half} as {near}|{far}"
        return action_name(action, self.settings.domino_set)

    def clone(self) -> "DominoState":
        """An independent copy (hand-written: no deepcopy in the hot path)."""
        c = object.__new__(DominoState)
        c.settings = self.settings
        c.num_players = self.num_players
        c.dominoes = self.dominoes
        c.seed = self.seed
        c.hands = [h[:] for h in self.hands]
        c.stock = self.stock[:]
        c.path = self.path[:]
        c.path_ids = self.path_ids[:]
        c.start = self.start
        c.domina = self.domina
        c.pawns = self.pawns[:]
        c.blocked = self.blocked[:]
        c.entered = self.entered[:]
        c.all_entered = self.all_entered
        c.cur = self.cur
        c.attached = self.attached
        c.side = self.side
        c.on_path_at_start = self.on_path_at_start
        c.entered_now = self.entered_now
        c.stall = self.stall
        c.round = self.round
        c.turns = self.turns
        c.swaps = self.swaps
        c.eliminated = self.eliminated[:]
        c._history = self._history[:]
        c.swap_depths = self.swap_depths[:]
        c.end_reason = self.end_reason
        c._returns = None if self._returns is None else self._returns[:]
        c._forced_depth = None
        c.deal = copy_history([self.deal])[0]     # the record's deal: the clone's own
        return c

    def __getstate__(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.__slots__}

    def __setstate__(self, state: dict[str, Any]) -> None:
        for k, v in state.items():
            setattr(self, k, v)

    # -- rule checks ----------------------------------------------------------

    def why_illegal(self, action: int) -> str | None:
        """``None`` if ``action`` is legal, else the reason naming the rule broken."""
        if self._returns is not None:
            return f"the game is over ({_END_RULES[self.end_reason or '']})"
        wrong_type = action_type_reason(action)
        if wrong_type is not None:
            return wrong_type
        unknown = self._no_such_action_reason(int(action))
        if unknown is not None:
            return unknown
        p = self.cur
        hand = self.hands[p]
        if action == END_TURN or is_swap(action):
            if not self.settings.may_decline and any(is_attach(a) for a in self.legal_actions()):
                return "the player can attach and may_decline is False (DN-4 decision)"
            if action == END_TURN:
                return None
            d = action - SWAP_BASE
            if self.attached:
                return "a swap needs a turn without attachment (DN-10)"
            if d not in hand:
                return f"{domino_name(d, self.settings.domino_set)} is not in player {p}'s hand (DN-10)"
            if len(hand) != HAND_SIZE:
                return f"a swap needs {HAND_SIZE} dominoes in hand, player {p} holds {len(hand)} (DN-10)"
            if not self.stock:
                return "the stock is empty (DN-10)"
            return None
        d, side, flip = decode_attach(action)
        lo, hi = self.dominoes[d]
        name = f"{lo}-{hi}"
        if d not in hand:
            return f"{name} is not in player {p}'s hand (DN-4)"
        if self.attached >= 2:
            return "at most two dominoes per turn (DN-4)"
        if flip and lo == hi:
            return f"{name} is a double: only flip 0 (DN-3)"
        near = hi if flip else lo
        if self.attached == 1:
            if not self.on_path_at_start:
                return f"player {p}'s pawn was not on the path at the start of the turn (DN-6)"
            if side != self.side:
                return "the second domino must continue from the first in a row (DN-6)"
        if self.start < 0:
            if side == 1 and self.path[0] == self.path[1]:
                return "the start domino is a double: attach at side 0 (DN-2)"
            sym = self.path[1] if side == 0 else self.path[0]
        else:
            if side == 1 and not self.all_entered:
                return "attaching before the start needs every pawn on the path (DN-7)"
            sym = self.path[-1] if side == 0 else self.path[0]
        if near != sym:
            return f"{name} touches with {near} but the path shows {sym} there (DN-3)"
        return None

    # -- transitions ----------------------------------------------------------

    def _apply(self, action: int) -> None:
        """Apply a legal action (no checks)."""
        self._history.append(int(action))
        if action < NUM_ATTACH:
            self._attach(action >> 2, (action >> 1) & 1, action & 1)
        elif action < END_TURN:
            self._end_turn(action - SWAP_BASE)
        else:
            self._end_turn(None)

    def _attach(self, d: int, side: int, flip: int) -> None:
        p = self.cur
        lo, hi = self.dominoes[d]
        near, far = (hi, lo) if flip else (lo, hi)
        self.hands[p].remove(d)
        path = self.path
        if self.start < 0:
            # DN-2: the path runs from the start domino towards the first
            # attached one; the start domino's other half is the start field.
            if side == 1:
                path.reverse()
            path.append(near)
            path.append(far)
            self.path_ids.append(d)
            self.start = 0
            self.domina = 3
            side = 0
        elif side == 0:
            path.append(near)
            path.append(far)
            self.path_ids.append(d)
            self.domina = len(path) - 1                           # DN-7 Domina moves
        else:
            path[0:0] = (far, near)                               # DN-7 before the start
            self.path_ids.insert(0, d)
            self.start += 2
            self.domina += 2                                      # same field, shifted index
            pawns = self.pawns
            for q in range(self.num_players):
                if pawns[q] >= 0:
                    pawns[q] += 2
            self.blocked = [f + 2 for f in self.blocked]
        self.attached += 1
        self.stall = 0
        if self.attached == 1:
            self.side = side
            if self.pawns[p] == OFF:                              # DN-5 entering
                f = self.start                                    # the start field, or the next
                while f in self.pawns or f in self.blocked:       # free one towards Domina
                    f += 1
                self.pawns[p] = f
                self.entered[p] = True
                self.entered_now = True
                self.all_entered = all(self.entered)
        # The turn ends by itself unless a second attachment is possible (DN-6).
        if self.attached == 2 or not self.on_path_at_start:
            self._end_turn(None)
            return
        sym = path[-1] if self.side == 0 else path[0]
        doms = self.dominoes
        for e in self.hands[p]:
            lo, hi = doms[e]
            if lo == sym or hi == sym:
                return
        self._end_turn(None)

    def _end_turn(self, swap: int | None) -> None:
        p = self.cur
        hand = self.hands[p]
        if swap is not None:                                      # DN-10
            hand.remove(swap)
            hand.append(self.stock.pop())
            depth = self._forced_depth
            if depth is None:
                depth = int(np.random.default_rng((self.seed, self.swaps)).integers(len(self.stock) + 1))
            self._forced_depth = None
            self.swaps += 1
            self.swap_depths.append(depth)
            self.stock.insert(len(self.stock) - depth, swap)      # depth 0 = top
        k = self.attached
        pos = self.pawns[p]
        self.turns += 1
        if pos >= 0 and not self.entered_now:                     # DN-8 movement
            steps = MOVE_STEPS[k]
            pawns, blocked, domina = self.pawns, self.blocked, self.domina
            f = pos
            while steps:
                f += 1
                if f > domina:
                    break
                if f not in pawns and f not in blocked:
                    steps -= 1
            if f == domina and not steps:                         # DN-11 exact finish
                self.pawns[p] = f
                self._finish([1.0 if q == p else 0.0 for q in range(self.num_players)], "finish")
                return
            if f > domina:                                        # DN-11 overshoot
                self.pawns[p] = OUT
                self.eliminated.append(p)
                if not self.settings.eliminated_field_free:
                    self.blocked.append(pos)
                if len(self.eliminated) == self.num_players:
                    res = [0.0] * self.num_players
                    if self.settings.all_out_winner == "last_out":
                        res[p] = 1.0
                    self._finish(res, "all_out")
                    return
            else:
                self.pawns[p] = f
        begun_empty = not self.stock      # the turn began with an empty stock (a swap keeps its size)
        if self.pawns[p] != OUT and len(hand) < HAND_SIZE and self.stock:   # DN-9
            hand.append(self.stock.pop())
        # DN-12: a whole round without attachment once the stock is empty: only turns begun with an empty
        # stock count (the player who drew the last domino has a turn with it before the game can stall).
        if k == 0 and begun_empty:
            self.stall += 1
            if self.stall >= self.num_players - len(self.eliminated):
                self._finish(self._nearest(), "stalled")
                return
        else:
            self.stall = 0
        # Next player still in the game; a wrap starts a new round (DN-4).
        n = self.num_players
        q = (p + 1) % n
        while self.pawns[q] == OUT:
            q = (q + 1) % n
        fp = self.settings.first_player
        if (q - fp) % n <= (p - fp) % n:
            if self.round == self.settings.max_rounds:          # the engine's bound, not a rule
                self._finish([0.0] * n, "round_limit")
                return
            self.round += 1
        self.cur = q
        self.attached = 0
        self.entered_now = False
        self.on_path_at_start = self.pawns[q] >= 0

    def _nearest(self) -> list[float]:
        """DN-12 outcome: the pawn(s) nearest Domina (``settings.stall_distance``) win."""
        n = self.num_players
        measure = (self.free_fields_to_domina if self.settings.stall_distance == "free_fields"
                   else self.fields_to_domina)
        dist = [measure(q) for q in range(n)]
        on = [d for d in dist if d is not None]
        res = [0.0] * n
        if not on:
            return res
        best = min(on)
        winners = [q for q in range(n) if dist[q] == best]
        if len(winners) > 1 and self.settings.stall_ties == "nobody":
            return res
        for q in winners:
            res[q] = 1.0 / len(winners)
        return res

    def _finish(self, returns: list[float], reason: str) -> None:
        self._returns = returns
        self.end_reason = reason
        self.attached = 0

    # -- queries ----------------------------------------------------------------

    @property
    def direction_set(self) -> bool:
        """True once the first domino is attached (DN-2)."""
        return self.start >= 0

    def _seat(self, player) -> int:
        """``player`` as a seat ``0 .. num_players - 1``; else an InputError (a negative index would read
        another seat, e.g. a hidden hand, DN-1)."""
        return seat_argument("player", player, self.num_players)

    def fields_to_domina(self, player: int) -> int | None:
        """Fields from ``player``'s pawn to Domina's field (``None`` if off the path or out).

        Raises
        ------
        InputError
            If ``player`` is not a seat ``0 .. num_players - 1``.
        """
        pos = self.pawns[self._seat(player)]
        return None if pos < 0 else self.domina - pos

    def free_fields_to_domina(self, player: int) -> int | None:
        """Fields a move must count to reach Domina exactly (fields of other pawns skipped, DN-8).

        ``None`` if the pawn is not on the path.

        Raises
        ------
        InputError
            If ``player`` is not a seat ``0 .. num_players - 1``.
        """
        pos = self.pawns[self._seat(player)]
        if pos < 0:
            return None
        return sum(1 for f in range(pos + 1, self.domina + 1)
                   if f not in self.pawns and f not in self.blocked)

    def winners(self) -> list[int]:
        """Players with a positive return (empty while running or when nobody won)."""
        return [q for q, r in enumerate(self.returns()) if r > 0]

    def observation(self, player: int) -> DominoObservation:
        """What ``player`` sees: its own hand, the sizes of the others (hidden hands, DN-1).

        Raises
        ------
        InputError
            If ``player`` is not a seat ``0 .. num_players - 1`` (``-1`` is no
            seat: it would show the last seat's hidden hand).
        """
        player = self._seat(player)
        doms = self.dominoes
        return DominoObservation(
            player=player,
            hand=tuple(sorted(doms[d] for d in self.hands[player])),
            hand_sizes=tuple(len(h) for h in self.hands),
            stock_size=len(self.stock),
            path=tuple(self.path),
            start=self.start,
            domina=self.domina,
            pawns=tuple(self.pawns),
            current_player=self.current_player(),
            attached_this_turn=self.attached,
            round=self.round,
        )

    def observation_string(self, player: int) -> str:
        """Text rendering of :meth:`observation` (the other hands show as ``?``).

        Raises
        ------
        InputError
            If ``player`` is not a seat ``0 .. num_players - 1``.
        """
        return self._render(self._seat(player))

    def __str__(self) -> str:
        return self._render(None)

    def __repr__(self) -> str:
        return (f"DominoState(players={self.num_players}, round={self.round}, "
                f"path={len(self.path)} fields, stock={len(self.stock)}, "
                f"current={self.current_player()})")

    def _render(self, viewer: int | None) -> str:
        """The path as ``[a|b]`` dominoes with a marker line: pawn digits, ``D`` Domina, ``S`` start."""
        ds = self.settings.domino_set
        blocks = "".join(f"[{self.path[i]}|{self.path[i + 1]}]" for i in range(0, len(self.path), 2))
        marks = [" "] * len(blocks)

        def col(f: int) -> int:
            return 5 * (f // 2) + (1 if f % 2 == 0 else 3)

        if self.start >= 0:
            marks[col(self.start)] = "S"
            marks[col(self.domina)] = "D"
        for f in self.blocked:
            marks[col(f)] = "x"
        for q, f in enumerate(self.pawns):
            if f >= 0:
                marks[col(f)] = str(q)
        if self._returns is not None:
            status = f"game over ({self.end_reason}), winners: {self.winners() or 'nobody'}"
        else:
            status = f"player {self.cur} to act, {self.attached} attached this turn"
        lines = [f"round {self.round}, {status}; stock {len(self.stock)}",
                 "path " + blocks, "     " + "".join(marks).rstrip()]
        if self.start < 0:
            lines[-1] = "     (start domino; the first attachment sets the direction, DN-2)"
        for q in range(self.num_players):
            pos = self.pawns[q]
            where = ("off the path" if pos == OFF else "out" if pos == OUT
                     else f"field {pos - self.start} from start, {self.domina - pos} to Domina")
            if viewer is None or viewer == q:
                hand = " ".join(domino_name(d, ds) for d in sorted(self.hands[q]))
            else:
                hand = " ".join("?" for _ in self.hands[q])
            lines.append(f"player {q}: {where}; hand {hand or '-'}")
        return "\n".join(lines)


def game_seed(seed: int | None) -> int:
    """The seed a game is played with: ``seed`` when it is a whole number >= 0, a fresh one from the operating
    system's entropy when it is None (as the other engines take None), in the range of the seeds a simulation
    gives its games (``0 .. 2**63 - 2``); else an :class:`~ubongo_cp.errors.InputError` naming it. A game keeps
    the number (``state.seed``, its record), so a game of a fresh seed replays too.

    Examples
    --------
    >>> game_seed(7), 0 <= game_seed(None) < 2**63 - 1
    (7, True)
    """
    if seed is None:
        return int(np.random.default_rng().integers(2**63 - 1))
    return whole_argument("seed", seed, 0)


def new_game(settings: DominoSettings | None = None, seed: int | None = 0) -> DominoState:
    """A shuffled game (DN-1): start domino, ``HAND_SIZE`` dominoes per hand, the rest as stock.

    Parameters
    ----------
    settings : DominoSettings, optional
        Default: 4 players, every documented default.
    seed : int or None
        Seeds the shuffle (``numpy.random.default_rng(seed).permutation(21)``)
        and the swap chance events; a whole number >= 0 (else an
        :class:`~ubongo_cp.errors.InputError`), or None for a fresh one
        (:func:`game_seed`: ``state.seed`` names it). Default 0: the same
        game each time (the other engines default to a fresh seed).

    Examples
    --------
    >>> s = new_game(DominoSettings(num_players=2), seed=1)
    >>> len(s.stock) + sum(map(len, s.hands)) + len(s.path_ids)
    21
    """
    settings = settings_argument(settings)
    seed = game_seed(seed)
    order = [int(x) for x in np.random.default_rng(seed).permutation(NUM_DOMINOES)]
    n = settings.num_players
    hands = [order[1 + HAND_SIZE * q: 1 + HAND_SIZE * (q + 1)] for q in range(n)]
    stock = order[1 + HAND_SIZE * n:]
    return DominoState(settings, order[0], hands, stock, seed)


def _check_deal(start: int, hands: Sequence[Sequence[int]], stock: Sequence[int], n: int) -> None:
    """DN-1: 21 distinct dominoes, ``HAND_SIZE`` per hand, ``num_players`` hands."""
    if len(hands) != n:
        raise InputError(f"deal has {len(hands)} hands for {n} players (DN-1)")
    for q, h in enumerate(hands):
        if len(h) != HAND_SIZE:
            raise InputError(f"hand {q} has {len(h)} dominoes, expected {HAND_SIZE} (DN-1)")
    every = [start, *[d for h in hands for d in h], *stock]
    bad = [d for d in every if not (is_int(d) and 0 <= d < NUM_DOMINOES)]
    if bad:
        raise InputError(f"deal has unknown domino ids {bad}")
    if sorted(every) != list(range(NUM_DOMINOES)):
        dup = sorted({d for d in every if every.count(d) > 1})
        missing = sorted(set(range(NUM_DOMINOES)) - set(every))
        raise InputError(f"deal must hold each of the {NUM_DOMINOES} dominoes once "
                         f"(duplicated ids {dup}, missing ids {missing}) (DN-1)")
