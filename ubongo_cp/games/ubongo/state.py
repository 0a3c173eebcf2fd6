"""The Ubongo gem game (2005 edition): board, rounds, movement, gems and scoring.

Rules UG-1 ... UG-10 of ``RULES.md`` section 2 (seeds 001 and 004). The state
follows the contract of :mod:`ubongo_cp.games.base`:

* Setup (UG-2): players ``0..n-1`` in turn choose a starting field; action
  ``f`` (0..5) = red field ``f``.
* Each round (UG-4) starts with a chance node, the die roll: action ``k``
  (0..5) = face ``k + 1``, probability 1/6 each. Applying it draws every
  player's solve time on the task of that face of its own card from the
  state's generator (:class:`~ubongo_cp.games.tasks.SolveTimeModel`),
  decides who solved before the timer (UG-7), with one re-turn of the timer
  when nobody did (UG-8), and ranks the solvers by finishing time (UG-5).
* The solvers then act in finishing order: action ``f`` = move the pawn to
  field ``f`` (at most 3/2/1/0 fields away for 1st/2nd/3rd/4th, either way,
  staying allowed; UG-5); the two front gems of that lane are taken at once
  (UG-6).
* After 9 rounds (UG-3/UG-10; more in the all-cards variant) the game ends;
  :meth:`UbongoState.returns` gives 1 to the single UG-10 winner, or splits
  1 equally among players with equal sorted gem counts.

Decision (RULES.md is silent): players who finish at exactly the same time
are ranked by seat, lower seat first. The solve-time model's times are
continuous, so this happens only with scripted times; it makes the ranking
deterministic.

Board conventions: ``board[lane, hole]`` is a gem colour ``0..C-1`` or
:data:`EMPTY`; hole 0 is the front, next to the red field of the lane. The
engine keeps each lane as the list of its gem colours front to back (empty
holes skipped), the view the movement strategies read.

Chance is drawn from ``state.rng`` (a :class:`numpy.random.Generator`): gem
shuffle and card shuffle at construction, then per round the die roll (one
``integers(6)`` call when the roll is applied, whichever face it is;
``sample_chance()`` gives the face that call draws) and one
``standard_normal(n_players)`` call for the solve times: a game replays from
its seed and its actions (:meth:`.base.GameState.sample_chance`).
"""

from __future__ import annotations

import copy
import reprlib
from typing import Sequence

import numpy as np

from ...errors import (IllegalActionError, InputError, as_written, flag_argument, seat_argument, seed_argument,
                       whole_argument)
from ...specs import game_spec
from ..base import CHANCE, TERMINAL, GameFacts, GameState, copy_history, is_number, read_only
from ..tasks import TaskDeck, engine_model, recorded_times_problem, skills_argument

__all__ = [
    "FACTS",
    "NUM_LANES",
    "HOLES_PER_LANE",
    "NUM_GEMS",
    "DEFAULT_COLOUR_COUNTS",
    "EMPTY",
    "MOVE_ALLOWANCE",
    "CARDS_PER_PLAYER",
    "NUM_FACES",
    "SIDES",
    "DEFAULT_TIMER",
    "UbongoState",
    "take_gems",
    "sorted_counts",
    "ug10_winners",
]

#: UG-2 / material: 6 lanes, each with a red pawn field at its head ...
NUM_LANES = 6
#: ... and 12 gem holes behind it.
HOLES_PER_LANE = 12
#: 72 gems fill the 6 x 12 holes exactly.
NUM_GEMS = NUM_LANES * HOLES_PER_LANE
#: 6 colours, 12 gems each (RULES.md section 2, *configurable*).
DEFAULT_COLOUR_COUNTS = (12,) * 6
#: Marker of an empty hole.
EMPTY = -1
#: UG-5: fields the 1st, 2nd, 3rd, 4th finisher may move (also with 2-3 players).
MOVE_ALLOWANCE = (3, 2, 1, 0)
#: UG-3: cards in play per player (9 rounds).
CARDS_PER_PLAYER = 9
#: UG-1: the card sides, in order (from the game's spec, the one table of game facts).
SIDES = game_spec("classic").side_names
#: Die faces (UG-4: six symbols numbered 1..6, one per task of a card side; from the spec).
NUM_FACES = game_spec("classic").side(SIDES[0]).faces
#: Default sand timer in seconds (RULES.md section 2, *configurable*).
DEFAULT_TIMER = 60.0

#: The game's facts. Length bound with the default settings: 4 setup
#: actions (UG-2), then 9 rounds (UG-3) of one die roll and at most one move
#: per player (UG-5): 4 + 9 x (1 + 4) = 49. Other settings:
#: :meth:`UbongoState.max_game_length`.
FACTS = GameFacts(name="ubongo", min_players=2, max_players=4, chance_nodes=True, sampled_chance=True,
                  returns_sum=(1.0,), max_game_length=4 + CARDS_PER_PLAYER * (1 + 4), title="Ubongo")

_SETUP, _ROLL, _MOVE, _OVER = "setup", "roll", "move", "over"


def take_gems(lane: list[int], k: int = 2) -> list[int]:
    """Remove and return the ``k`` front gems of a lane (UG-6).

    Parameters
    ----------
    lane : list of int
        The gem colours of one lane, front first, empty holes skipped;
        modified in place.
    k : int
        Gems to take (2 by UG-6; fewer if the lane holds fewer).

    Returns
    -------
    list of int
        The colours taken, front first (length ``min(k, len(lane))``).

    Examples
    --------
    >>> lane = [3, 1, 4]
    >>> take_gems(lane), lane, take_gems([5]), take_gems([])
    ([3, 1], [4], [5], [])
    """
    taken = lane[:k]
    del lane[:k]
    return taken


def sorted_counts(counts: Sequence[int]) -> tuple[int, ...]:
    """Gem counts per colour sorted in descending order: the UG-10 score.

    Two players compare these tuples lexicographically (rule UG-10).

    >>> sorted_counts([4, 3, 2, 6, 1, 0]) > sorted_counts([6, 4, 2, 2, 2, 2])
    True
    """
    return tuple(sorted(counts, reverse=True))


def ug10_winners(counts: Sequence[Sequence[int]]) -> list[int]:
    """Players whose descending-sorted gem counts are lexicographically largest (UG-10).

    Colours are never summed; equal sequences share the win.

    Examples
    --------
    The worked example of seed 004 (A, B, C; C wins although A holds more):

    >>> ug10_winners([[6, 4, 2, 2, 2, 2], [2, 2, 0, 1, 2, 3], [4, 3, 2, 6, 1, 0]])
    [2]
    """
    keys = [sorted_counts(c) for c in counts]
    best = max(keys)
    return [p for p, k in enumerate(keys) if k == best]


class UbongoState(GameState):
    """State of one Ubongo gem game (rules UG-1 ... UG-10).

    Parameters
    ----------
    deck : TaskDeck
        A rated deck: the classic deck, or any deck whose spec defines it
        (its sides, and the die faces of each, ``TaskDeck.spec``).
    num_players : int
        2 to 4 (material: up to 4 players).
    side : str
        Card side for the whole game (UG-1: ``"easy"`` or ``"hard"`` for the
        classic deck; a side of the deck's spec).
    skills : sequence of float, optional
        Skill per player (default all 1.0); see
        :class:`~ubongo_cp.games.tasks.SolveTimeModel`.
    model : SolveTimeModel, optional
        Solve-time model (default ``SolveTimeModel()``); any object with
        ``sample(ratios, skills, rng)`` works (tests use
        :class:`~ubongo_cp.games.tasks.ScriptedTimes`).
    timer : float
        Sand-timer length in seconds (default 60, *configurable*).
    move_time : float
        Seconds a solver needs to move and take gems after solving (UG-7,
        default 0 = instantaneous).
    all_cards : bool
        The all-cards variant of UG-3 (every card of the side is played,
        ``n_cards // num_players`` rounds; 18 rounds with two players).
    colour_counts : sequence of int
        Gems per colour, summing to 72 (default 12 of each of 6 colours).
    seed : int or numpy.random.Generator, optional
        Source of every chance event: a whole number >= 0 (or anything
        :func:`~ubongo_cp.errors.seed_argument` takes) or a generator.
    board : array-like, shape (6, 12), optional
        A hand-built gem layout instead of the shuffle (tests).
    cards : sequence of str, optional
        The cards in play, in dealing order, instead of the shuffle; must
        hold a multiple of ``num_players`` card ids of ``side``.
    pawns : sequence of int, optional
        Starting fields; skips the setup phase.
    gems : array-like, shape (num_players, num_colours), optional
        Gems the players hold already (hand-built positions; default none).

    Raises
    ------
    InputError
        For a deck that is not a :class:`~ubongo_cp.games.tasks.TaskDeck`,
        a bad player count, side, skill, model (one without a ``sample``
        method), timer, move time (also one not shorter than the timer:
        nobody could take a gem, UG-7), ``all_cards`` (True or False),
        colour counts, board, card list, pawn list or gem counts (whole
        numbers: 12.5 gems are not read as 12), seed, or a deck with too few
        cards for UG-3.
    """

    facts = FACTS

    def __init__(self, deck: TaskDeck, num_players: int = 4, side: str = "easy", *,
                 skills: Sequence[float] | None = None, model=None, timer: float = DEFAULT_TIMER,
                 move_time: float = 0.0, all_cards: bool = False,
                 colour_counts: Sequence[int] = DEFAULT_COLOUR_COUNTS,
                 seed: int | np.random.Generator | None = None, board=None,
                 cards: Sequence[str] | None = None, pawns: Sequence[int] | None = None,
                 gems=None) -> None:
        num_players = whole_argument("num_players", num_players, None)
        if not 2 <= num_players <= 4:
            raise InputError(f"the gem game takes 2 to 4 players, not {num_players}")
        model = engine_model(deck, side, "UG-1", model)  # the sides of the deck's spec: easy and hard for Ubongo
        all_cards = flag_argument("all_cards", all_cards)
        #: UG-4: the die has one face per task of a card side (six for Ubongo; the deck's spec says).
        self.num_faces = deck.faces(side)
        self.num_players = num_players
        self.side = side
        self.deck = deck
        self.model = model
        self.skills = read_only(np.ones(num_players) if skills is None else skills_argument(skills, num_players))
        if not (is_number(timer) and is_number(move_time) and 0 < timer < np.inf and 0 <= move_time < np.inf):
            raise InputError(f"timer {as_written(timer)} must be a finite number > 0 and move time {as_written(move_time)} "
                             ">= 0")
        if move_time >= timer:   # UG-7, and UG-8's re-turn only gives time to those who solve after the first
            raise InputError(f"a move time of {move_time:g} s is not shorter than the {timer:g} s timer: moving and "
                             "taking must also happen before the timer runs out (UG-7) and every solve takes some "
                             "time, so no player could ever take a gem (every game a shared win)")
        self.timer = float(timer)
        self.move_time = float(move_time)
        self.rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed_argument("seed", seed))
        ratios = deck.side_ratios(side)

        # UG-2 / material: 72 gems shuffled into the 6 x 12 holes.
        counts = _whole_array(colour_counts, 1)
        if counts is None or counts.sum() != NUM_GEMS or (counts < 0).any():
            raise InputError(f"colour counts {reprlib.repr(colour_counts)} must be whole numbers >= 0 summing to "
                             f"{NUM_GEMS} (the game's material)")
        colour_counts = tuple(counts.tolist())
        self.num_colours = len(colour_counts)
        self.colour_counts = colour_counts
        if board is None:
            shuffled = np.repeat(np.arange(self.num_colours, dtype=np.int64), colour_counts)
            layout: np.ndarray = self.rng.permutation(shuffled).reshape(NUM_LANES, HOLES_PER_LANE)
        else:
            given = _whole_array(board, 2)
            if given is None or given.shape != (NUM_LANES, HOLES_PER_LANE) or not (
                    (given >= EMPTY) & (given < self.num_colours)).all():
                raise InputError(f"board must be 6 x 12 colours 0..{self.num_colours - 1} or {EMPTY}")
            layout = given
        # Each lane: gem colours front to back, and the holes they lie in.
        rows = layout.tolist()
        self._lanes = [[g for g in row if g != EMPTY] for row in rows]
        self._holes = [[h for h, g in enumerate(row) if g != EMPTY] for row in rows]
        self.total_gems = sum(map(len, self._lanes))

        # UG-3: 9 cards per player (or every card), shuffled; UG-10: rounds.
        ids = deck.cards[side]
        index = {c: k for k, c in enumerate(ids)}
        if cards is None:
            n_cards = len(ids) if all_cards else CARDS_PER_PLAYER * num_players
            need = max(n_cards, num_players)  # every card is at least one card per player
            if len(ids) < need:
                each = "" if all_cards else f", {CARDS_PER_PLAYER} each"
                # a deck of at least a card per player can still be played with every card in play
                instead = ("" if all_cards or len(ids) < num_players else
                           f"; with every card in play (--all-cards) they need {num_players}")
                raise InputError(f"side {side} of the deck has {len(ids)} cards; "
                                 f"{num_players} players need {need}{each} (UG-3){instead}", path=deck.path)
            perm = self.rng.permutation(len(ids))[:n_cards]
            perm = perm[: len(perm) // num_players * num_players]
        else:
            unknown = [str(c) for c in cards if str(c) not in index]
            if unknown or not cards or len(cards) % num_players:
                raise InputError(f"cards {[str(c) for c in cards]} must be a non-empty multiple of "
                                 f"{num_players} card ids of side {side}"
                                 + (f"; unknown: {unknown}" if unknown else ""))
            twice = sorted({str(c) for c in cards if [str(d) for d in cards].count(str(c)) > 1})
            if twice:
                raise InputError(f"cards {twice} are dealt more than once (UG-3: each card once)")
            # a game from its start (UG-3): 9 cards per player, or in the variant every card (as many rounds
            # as there are cards for each player)
            nine, every = CARDS_PER_PLAYER * num_players, len(ids) // num_players * num_players
            if pawns is None and gems is None and len(cards) not in (nine, every):
                raise InputError(f"{len(cards)} cards dealt; a game of {num_players} players starts with {nine} "
                                 f"(UG-3: 9 per player) or, in the variant, every card ({every})")
            perm = np.array([index[str(c)] for c in cards])
        self.cards = [ids[i] for i in perm.tolist()]
        self.num_rounds = len(self.cards) // num_players
        # _rows[round, player, face - 1]: difficulty ratio of the task each player gets (UG-4).
        self._rows = read_only(ratios[perm].reshape(self.num_rounds, num_players, -1))

        # _gems[p][c]: gems of colour c player p holds; _pawns[p]: its field (-1 before UG-2 setup).
        if gems is None:
            self._gems = [[0] * self.num_colours for _ in range(num_players)]
        else:
            held = _whole_array(gems, 2)
            if held is None or held.shape != (num_players, self.num_colours) or (held < 0).any():
                raise InputError(f"gems must be {num_players} x {self.num_colours} counts >= 0")
            self._gems = held.tolist()
        # The game's material (RULES.md section 2: 72 gems, by default 12 of each colour): on the board and in
        # the players' hands never more of a colour than there are; a game from its start has all on the board.
        on_board = [int((layout == c).sum()) for c in range(self.num_colours)]
        in_hands = [sum(g[c] for g in self._gems) for c in range(self.num_colours)]
        start = pawns is None and gems is None
        if any(b + h > n or (start and b != n) for b, h, n in zip(on_board, in_hands, colour_counts)):
            raise InputError(f"the board holds {on_board} gems of each colour and the players {in_hands}; the "
                             f"game has {list(colour_counts)}" + (", all on the board at the start" if start else "")
                             + " (the game's material)")
        self.round = 0
        self.die_holder = 0  # UG-9: die and timer pass to the left each round
        self._history: list[dict] = []
        #: Every action applied, in order (the game record's moves, :mod:`ubongo_cp.games.ubongo.records`).
        self._actions: list[int] = []
        # The drawn start (gem layout, dealt cards) and hand-built parts, for records.
        self.start = {"board": layout.tolist(), "cards": list(self.cards),
                      "pawns": None,   # the checked starting fields, set below
                      "gems": None if gems is None else [g[:] for g in self._gems]}
        self._forced_times: list[float] | None = None  # set by a replay: the recorded solve times
        self._queue: list[tuple[int, int]] = []  # (player, allowance) still to move, UG-5 order
        if pawns is None:
            self._pawns = [-1] * num_players
            self._phase = _SETUP
            self._setup_actions = num_players
        else:
            fields = _whole_array(pawns, 1)
            if fields is None or fields.shape != (num_players,) or not ((fields >= 0) & (fields < NUM_LANES)).all():
                raise InputError(f"pawns {reprlib.repr(pawns)} must be {num_players} fields 0..{NUM_LANES - 1} "
                                 "(UG-2: red fields)")
            self._pawns = fields.tolist()
            self.start["pawns"] = self._pawns[:]
            self._phase = _ROLL
            self._setup_actions = 0

    # ------------------------------------------------------------------ API
    def current_player(self) -> int:
        phase = self._phase
        if phase == _MOVE:
            return self._queue[0][0]
        if phase == _ROLL:
            return CHANCE
        if phase == _SETUP:
            return self._pawns.index(-1)
        return TERMINAL

    def legal_actions(self) -> list[int]:
        if self._phase == _MOVE:
            player, allowance = self._queue[0]
            pos = self._pawns[player]
            return list(range(max(0, pos - allowance), min(NUM_LANES - 1, pos + allowance) + 1))
        if self._phase == _SETUP:
            return list(range(NUM_LANES))  # UG-2: any red field
        if self._phase == _ROLL:
            return list(range(self.num_faces))
        return []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self._phase != _ROLL:
            return []
        return [(a, 1.0 / self.num_faces) for a in range(self.num_faces)]

    def _chance_stream(self) -> tuple[np.random.Generator, int]:
        """Each die roll (UG-4) is one ``integers(6)`` call of ``self.rng`` (:meth:`.base.GameState.sample_chance`)."""
        return self.rng, self.num_faces

    def is_terminal(self) -> bool:
        return self._phase == _OVER

    def returns(self) -> list[float]:
        """1 for the UG-10 winner; 1/k each for k tied winners; 0 before the end."""
        out = [0.0] * self.num_players
        if self._phase == _OVER:
            winners = ug10_winners(self._gems)
            for p in winners:
                out[p] = 1.0 / len(winners)
        return out

    def max_game_length(self) -> int:
        """Setup actions (UG-2) plus, per round, one roll and at most one move per player (UG-5)."""
        return self._setup_actions + self.num_rounds * (1 + self.num_players)

    def _apply_action(self, action: int) -> None:
        self._apply_rules(action)
        self._actions.append(action)

    def _apply_rules(self, action: int) -> None:
        phase = self._phase
        if phase == _MOVE:
            player, allowance = self._queue[0]
            if not (0 <= action < NUM_LANES and abs(action - self._pawns[player]) <= allowance):
                raise self._illegal(action, self._why_illegal(action))
            del self._queue[0]
            self._move_and_take(player, action)
            if not self._queue:
                self._end_round()
        elif phase == _ROLL:
            if not 0 <= action < self.num_faces:
                raise self._illegal(action, self._why_illegal(action))
            self._draw_chance()
            self._roll(action + 1)
        elif phase == _SETUP:
            if not 0 <= action < NUM_LANES:
                raise self._illegal(action, self._why_illegal(action))
            self._pawns[self._pawns.index(-1)] = action  # UG-2
            if -1 not in self._pawns:
                self._phase = _ROLL
        else:
            raise self._illegal(action, "the game is over (UG-10)")

    action_ids_rule = "UG-2, UG-4, UG-5"

    @property
    def actions(self) -> list[int]:
        """A copy of the actions played so far (changing it leaves the state alone, as :attr:`history`)."""
        return list(self._actions)

    def num_distinct_actions(self) -> int:
        """A field of a lane (UG-2, UG-5) or a face of the die (UG-4), by the phase."""
        return max(NUM_LANES, self.num_faces)

    def action_to_string(self, action: int) -> str:
        if self._phase == _ROLL:
            return f"roll face {action + 1}"
        if self._phase == _SETUP:
            return f"start on field {action}"
        if self._phase == _MOVE:
            return f"move to field {action}"
        return str(action)

    def clone(self) -> "UbongoState":
        new = copy.copy(self)  # shares the immutable deck, model and ratio table
        new._lanes = [lane[:] for lane in self._lanes]
        new._holes = [holes[:] for holes in self._holes]
        new._gems = [g[:] for g in self._gems]
        new._pawns = self._pawns[:]
        new.rng = copy.deepcopy(self.rng)
        new._history = copy_history(self._history)
        new.start = copy_history([self.start])[0]
        new._actions = list(self._actions)
        new._queue = list(self._queue)
        new.cards = list(self.cards)
        if hasattr(self.model, "calls"):  # a scripted model has a cursor
            new.model = copy.deepcopy(self.model)
        return new

    def __str__(self) -> str:
        lines = [f"Ubongo gem game, {self.num_players} players, {self.side} side, "
                 f"round {min(self.round + 1, self.num_rounds)}/{self.num_rounds}, phase {self._phase}"]
        for lane, row in enumerate(self.board):
            here = "".join(str(p) for p in range(self.num_players) if self._pawns[p] == lane)
            holes = " ".join("." if g == EMPTY else str(g) for g in row)
            lines.append(f"  field {lane} [{here:>4}] | {holes}")
        for p in range(self.num_players):
            score = "-".join(map(str, sorted_counts(self._gems[p])))
            lines.append(f"  player {p}: gems {self._gems[p]} score {score}")
        return "\n".join(lines)

    def picture(self):
        """The board as a matplotlib figure (:func:`ubongo_cp.games.ubongo.render.figure`)."""
        from .render import figure

        return figure(self)

    @property
    def phase(self) -> str:
        """"setup", "roll" (chance), "move" or "over"."""
        return self._phase

    @property
    def board(self) -> np.ndarray:
        """The gem holes, shape ``(6, 12)``: colour or :data:`EMPTY` (a new array)."""
        board = np.full((NUM_LANES, HOLES_PER_LANE), EMPTY, dtype=np.int64)
        for f in range(NUM_LANES):
            board[f, self._holes[f]] = self._lanes[f]
        return board

    @property
    def gems(self) -> np.ndarray:
        """Gems held, shape ``(num_players, num_colours)``: ``gems[p, c]`` of colour ``c`` (a new array)."""
        return np.array(self._gems, dtype=np.int64)

    @property
    def pawns(self) -> np.ndarray:
        """Field of each pawn, shape ``(num_players,)``; -1 before the pawn is placed (UG-2) (a new array)."""
        return np.array(self._pawns, dtype=np.int64)

    def counts(self, player: int) -> list[int]:
        """Gems of ``player`` per colour (a copy; the strategies' view).

        Raises
        ------
        InputError
            If ``player`` is not a seat ``0 .. num_players - 1``.
        """
        return self._gems[seat_argument("player", player, self.num_players)][:]

    def mover(self) -> tuple[int, int, int]:
        """``(player, field, allowance)`` of the pending move (UG-5).

        Raises
        ------
        IllegalActionError
            Outside the move phase.
        """
        if self._phase != _MOVE:
            raise IllegalActionError(f"no move pending in phase {self._phase} (UG-5)")
        player, allowance = self._queue[0]
        return player, self._pawns[player], allowance

    def lanes(self) -> list[list[int]]:
        """Gem colours per lane, front to back, empty holes skipped (a copy; the strategies' view)."""
        return [lane[:] for lane in self._lanes]

    def card_of(self, player: int) -> str:
        """Card dealt to ``player`` this round (UG-4).

        Raises
        ------
        InputError
            If ``player`` is not a seat ``0 .. num_players - 1`` (a seat
            beyond them would read another player's card).
        IllegalActionError
            After the last round (UG-10): no card is dealt.
        """
        player = seat_argument("player", player, self.num_players)
        if self.round >= self.num_rounds:
            raise IllegalActionError(f"the game is over after round {self.num_rounds}: no card is dealt (UG-10)")
        return self.cards[self.round * self.num_players + player]

    # ------------------------------------------------------------ internals
    def _roll(self, face: int) -> None:
        """UG-4 die roll; UG-7 solve times vs timer; UG-8 re-turn; UG-5 ranking."""
        n = self.num_players
        if self._forced_times is not None:
            times, self._forced_times = self._forced_times, None
            problem = recorded_times_problem(times, self._rows[self.round, :, face - 1].tolist(), "UG-7")
            if problem:
                raise IllegalActionError(f"roll {face}: {problem}")
        else:
            times = np.asarray(self.model.sample(self._rows[self.round, :, face - 1], self.skills, self.rng),
                               dtype=float).tolist()
        limit = self.timer
        extended = not any(t <= limit for t in times)
        if extended:  # UG-8: nobody solved, the timer is turned once more for everybody
            limit = 2.0 * self.timer
        # UG-5 ranking by finishing time; equal times by seat (decision, module docstring).
        order = sorted((p for p in range(n) if times[p] <= limit), key=lambda p: (times[p], p))
        # UG-7: moving and taking must also fit in the time.
        move_time = self.move_time
        self._queue = [(p, MOVE_ALLOWANCE[rank]) for rank, p in enumerate(order)
                       if times[p] + move_time <= limit]
        self._history.append({"round": self.round, "face": face,
                             "cards": self.cards[self.round * n: (self.round + 1) * n],
                             "times": times, "extended": extended, "finish_order": order, "moves": []})
        self._phase = _MOVE
        if not self._queue:
            self._end_round()

    def _move_and_take(self, player: int, field: int) -> None:
        """UG-5 move, then UG-6: take the two front gems at once."""
        self._pawns[player] = field
        taken = take_gems(self._lanes[field])
        del self._holes[field][:len(taken)]
        held = self._gems[player]
        for g in taken:
            held[g] += 1
        self._history[-1]["moves"].append((player, field, taken))

    def _end_round(self) -> None:
        """UG-9: cards removed, die and timer pass left; UG-10 after the last round."""
        self.round += 1
        self.die_holder = (self.die_holder + 1) % self.num_players
        self._phase = _OVER if self.round >= self.num_rounds else _ROLL

    def _why_illegal(self, action: int) -> str:
        if self._phase == _SETUP:
            return f"a pawn starts on one of the red fields 0..{NUM_LANES - 1} (UG-2)"
        if self._phase == _ROLL:
            return f"the die has faces 1..{self.num_faces}, actions 0..{self.num_faces - 1} (UG-4)"
        player, allowance = self._queue[0]
        return (f"player {player} on field {self._pawns[player]} may move at most {allowance} "
                f"field(s) within 0..{NUM_LANES - 1} (UG-5)")


def _whole_array(values, ndim: int) -> np.ndarray | None:
    """``values`` as an int64 array of ``ndim`` dimensions when every entry is a whole number (an int or a
    numpy integer, not a bool: 12.5 gems or ``"12"`` are no count); else None."""
    try:
        entries = np.array(values, dtype=object)
        if entries.ndim != ndim or not all(isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))
                                           for v in entries.flat):
            return None
        return entries.astype(np.int64)
    except (TypeError, ValueError, OverflowError):   # ragged rows, a number beyond 64 bits
        return None
