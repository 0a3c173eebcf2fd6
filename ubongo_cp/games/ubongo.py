"""The Ubongo gem game (2005 edition): board, rounds, movement, gems and scoring.

Rules UG-1 ... UG-10 of ``RULES.md`` section 2 (seeds 001 and 004). The state
follows the OpenSpiel contract of :mod:`ubongo_cp.games.base`:

* Setup (UG-2): players ``0..n-1`` in turn choose a starting field; action
  ``f`` (0..5) = red field ``f``.
* Each round (UG-4) starts with a chance node, the die roll: action ``k``
  (0..5) = face ``k + 1``, probability 1/6 each. Applying it draws every
  player's solve time on the task of that face of its own card from the
  state's generator (:class:`~ubongo_cp.games.players.SolveTimeModel`),
  decides who solved before the timer (UG-7), with one re-turn of the timer
  when nobody did (UG-8), and ranks the solvers by finishing time (UG-5).
* The solvers then act in finishing order: action ``f`` = move the pawn to
  field ``f`` (at most 3/2/1/0 fields away for 1st/2nd/3rd/4th, either way,
  staying allowed; UG-5); the two front gems of that lane are taken at once
  (UG-6).
* After 9 rounds (UG-3/UG-10; more in the all-cards variant) the game ends;
  :meth:`UbongoState.returns` gives 1 to the single UG-10 winner, or splits
  1 equally among players with equal sorted gem counts.

Board conventions: ``board[lane, hole]`` is a gem colour ``0..C-1`` or
:data:`EMPTY`; hole 0 is the front, next to the red field of the lane.
Chance is drawn from ``state.rng`` (a :class:`numpy.random.Generator`):
gem shuffle and card shuffle at construction, then per round the die roll
(when sampled with :meth:`UbongoState.sample_chance`) and one
``standard_normal(n_players)`` call for the solve times.
"""

from __future__ import annotations

import copy
from typing import Sequence

import numpy as np

from ..errors import IllegalActionError, InputError
from .base import CHANCE, TERMINAL, GameState
from .players import SolveTimeModel, TaskDeck, sorted_counts

__all__ = [
    "NUM_LANES",
    "HOLES_PER_LANE",
    "NUM_GEMS",
    "DEFAULT_COLOUR_COUNTS",
    "EMPTY",
    "MOVE_ALLOWANCE",
    "CARDS_PER_PLAYER",
    "UbongoState",
    "take_gems",
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
#: Die faces (UG-4, six symbols numbered 1..6).
NUM_FACES = 6
#: Default sand timer in seconds (RULES.md section 2, *configurable*).
DEFAULT_TIMER = 60.0

_SETUP, _ROLL, _MOVE, _OVER = "setup", "roll", "move", "over"


def take_gems(board: np.ndarray, lane: int, k: int = 2) -> list[int]:
    """Remove and return the ``k`` front gems of ``lane``, skipping empty holes (UG-6).

    Parameters
    ----------
    board : numpy.ndarray, shape (6, 12)
        Gem colours, :data:`EMPTY` for an empty hole; modified in place.
    lane : int
        Lane index 0..5.
    k : int
        Gems to take (2 by UG-6; fewer if the lane holds fewer).

    Returns
    -------
    list of int
        The colours taken, front first (length ``min(k, gems in lane)``).

    Examples
    --------
    >>> b = np.full((6, 12), EMPTY); b[0, [2, 5, 7]] = [3, 1, 4]
    >>> take_gems(b, 0), b[0, 7]
    ([3, 1], np.int64(4))
    """
    taken = []
    row = board[lane]
    for h in range(row.shape[0]):
        if len(taken) == k:
            break
        if row[h] != EMPTY:
            taken.append(int(row[h]))
            row[h] = EMPTY
    return taken


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
        The rated classic deck (``game == "classic"``).
    num_players : int
        2 to 4 (material: up to 4 players).
    side : {"easy", "hard"}
        Card side for the whole game (UG-1).
    skills : sequence of float, optional
        Skill per player (default all 1.0); see
        :class:`~ubongo_cp.games.players.SolveTimeModel`.
    model : SolveTimeModel, optional
        Solve-time model (default ``SolveTimeModel()``); any object with
        ``sample(ratios, skills, rng)`` works (tests use
        :class:`~ubongo_cp.games.players.ScriptedTimes`).
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
        Source of every chance event.
    board : array-like, shape (6, 12), optional
        A hand-built gem layout instead of the shuffle (tests).
    cards : sequence of str, optional
        The cards in play, in dealing order, instead of the shuffle; must
        hold a multiple of ``num_players`` card ids of ``side``.
    pawns : sequence of int, optional
        Starting fields; skips the setup phase.

    Raises
    ------
    InputError
        For a bad player count, side, skill, colour counts, board, card list
        or pawn list, or a deck with too few cards for UG-3.
    """

    def __init__(self, deck: TaskDeck, num_players: int = 4, side: str = "easy", *,
                 skills: Sequence[float] | None = None, model=None, timer: float = DEFAULT_TIMER,
                 move_time: float = 0.0, all_cards: bool = False,
                 colour_counts: Sequence[int] = DEFAULT_COLOUR_COUNTS,
                 seed: int | np.random.Generator | None = None, board=None,
                 cards: Sequence[str] | None = None, pawns: Sequence[int] | None = None) -> None:
        if deck.game != "classic":
            raise InputError(f"the gem game needs the classic deck, not the {deck.game} deck", path=deck.path)
        if not 2 <= num_players <= 4:
            raise InputError(f"the gem game takes 2 to 4 players, not {num_players}")
        if side not in ("easy", "hard"):  # UG-1
            raise InputError(f"side {side!r} is not 'easy' or 'hard' (UG-1)")
        self.num_players = num_players
        self.side = side
        self.deck = deck
        self.model = model if model is not None else SolveTimeModel()
        self.skills = np.ones(num_players) if skills is None else np.asarray(skills, dtype=float)
        if self.skills.shape != (num_players,) or not (self.skills > 0).all():
            raise InputError(f"skills {list(skills)} must be {num_players} numbers > 0")
        if not (timer > 0 and move_time >= 0):
            raise InputError(f"timer {timer} must be > 0 and move time {move_time} >= 0")
        self.timer = float(timer)
        self.move_time = float(move_time)
        self.rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
        ratios = deck.side_ratios(side)
        self._ratio_of = {c: ratios[k] for k, c in enumerate(deck.cards[side])}

        # UG-2 / material: 72 gems shuffled into the 6 x 12 holes.
        colour_counts = tuple(int(c) for c in colour_counts)
        if sum(colour_counts) != NUM_GEMS or min(colour_counts) < 0:
            raise InputError(f"colour counts {colour_counts} must be >= 0 and sum to {NUM_GEMS}")
        self.num_colours = len(colour_counts)
        if board is None:
            gems = np.repeat(np.arange(self.num_colours, dtype=np.int64), colour_counts)
            self.board = self.rng.permutation(gems).reshape(NUM_LANES, HOLES_PER_LANE)
        else:
            self.board = np.array(board, dtype=np.int64)
            if self.board.shape != (NUM_LANES, HOLES_PER_LANE) or not (
                    (self.board >= EMPTY) & (self.board < self.num_colours)).all():
                raise InputError(f"board must be 6 x 12 colours 0..{self.num_colours - 1} or {EMPTY}")
        self.total_gems = int((self.board != EMPTY).sum())

        # UG-3: 9 cards per player (or every card), shuffled; UG-10: rounds.
        if cards is None:
            ids = deck.cards[side]
            n_cards = len(ids) if all_cards else CARDS_PER_PLAYER * num_players
            if len(ids) < n_cards or len(ids) < num_players:
                raise InputError(f"side {side} of the deck has {len(ids)} cards; "
                                 f"{num_players} players need {n_cards} (UG-3)", path=deck.path)
            perm = self.rng.permutation(len(ids))
            self.cards = [ids[i] for i in perm[:n_cards]]
            self.cards = self.cards[: len(self.cards) // num_players * num_players]
        else:
            self.cards = [str(c) for c in cards]
            unknown = [c for c in self.cards if c not in self._ratio_of]
            if unknown or not self.cards or len(self.cards) % num_players:
                raise InputError(f"cards {self.cards} must be a non-empty multiple of {num_players} "
                                 f"card ids of side {side}" + (f"; unknown: {unknown}" if unknown else ""))
        self.num_rounds = len(self.cards) // num_players

        self.gems = np.zeros((num_players, self.num_colours), dtype=np.int64)
        self.round = 0
        self.die_holder = 0  # UG-9: die and timer pass to the left each round
        self.history: list[dict] = []
        self._queue: list[tuple[int, int]] = []  # (player, allowance) still to move, UG-5 order
        if pawns is None:
            self.pawns = np.full(num_players, -1, dtype=np.int64)
            self._phase = _SETUP
        else:
            self.pawns = np.array(pawns, dtype=np.int64)
            if self.pawns.shape != (num_players,) or not ((self.pawns >= 0) & (self.pawns < NUM_LANES)).all():
                raise InputError(f"pawns {list(pawns)} must be {num_players} fields 0..5")
            self._phase = _ROLL

    # ------------------------------------------------------------------ API
    def current_player(self) -> int:
        if self._phase == _SETUP:
            return int(np.flatnonzero(self.pawns < 0)[0])
        if self._phase == _ROLL:
            return CHANCE
        if self._phase == _MOVE:
            return self._queue[0][0]
        return TERMINAL

    def legal_actions(self) -> list[int]:
        if self._phase == _SETUP:
            return list(range(NUM_LANES))  # UG-2: any red field
        if self._phase == _ROLL:
            return list(range(NUM_FACES))
        if self._phase == _MOVE:
            player, allowance = self._queue[0]
            pos = int(self.pawns[player])
            return list(range(max(0, pos - allowance), min(NUM_LANES - 1, pos + allowance) + 1))
        return []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self._phase != _ROLL:
            return []
        return [(a, 1.0 / NUM_FACES) for a in range(NUM_FACES)]

    def sample_chance(self) -> int:
        """Draw the die roll from ``self.rng`` (one ``integers(6)`` call)."""
        return int(self.rng.integers(NUM_FACES))

    def is_terminal(self) -> bool:
        return self._phase == _OVER

    def returns(self) -> list[float]:
        """1 for the UG-10 winner; 1/k each for k tied winners; 0 before the end."""
        out = [0.0] * self.num_players
        if self._phase == _OVER:
            winners = ug10_winners(self.gems.tolist())
            for p in winners:
                out[p] = 1.0 / len(winners)
        return out

    def apply_action(self, action: int) -> None:
        action = int(action)
        if self._phase == _OVER:
            raise self._illegal(action, "the game is over (UG-10)")
        if action not in self.legal_actions():
            raise self._illegal(action, self._why_illegal(action))
        if self._phase == _SETUP:
            self.pawns[self.current_player()] = action  # UG-2
            if (self.pawns >= 0).all():
                self._phase = _ROLL
        elif self._phase == _ROLL:
            self._roll(action + 1)
        else:
            player, _ = self._queue.pop(0)
            self._move_and_take(player, action)
            if not self._queue:
                self._end_round()

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
        new.board = self.board.copy()
        new.gems = self.gems.copy()
        new.pawns = self.pawns.copy()
        new.rng = copy.deepcopy(self.rng)
        new.history = [dict(h) for h in self.history]
        new._queue = list(self._queue)
        new.cards = list(self.cards)
        if hasattr(self.model, "calls"):  # a scripted model has a cursor
            new.model = copy.deepcopy(self.model)
        return new

    def __str__(self) -> str:
        lines = [f"Ubongo gem game, {self.num_players} players, {self.side} side, "
                 f"round {min(self.round + 1, self.num_rounds)}/{self.num_rounds}, phase {self._phase}"]
        for lane in range(NUM_LANES):
            here = "".join(str(p) for p in range(self.num_players) if self.pawns[p] == lane)
            holes = " ".join("." if g == EMPTY else str(g) for g in self.board[lane])
            lines.append(f"  field {lane} [{here:>4}] | {holes}")
        for p in range(self.num_players):
            lines.append(f"  player {p}: gems {self.gems[p].tolist()} score {'-'.join(map(str, sorted_counts(self.gems[p].tolist())))}")
        return "\n".join(lines)

    @property
    def phase(self) -> str:
        """"setup", "roll" (chance), "move" or "over"."""
        return self._phase

    def move_allowance(self) -> int:
        """Fields the player to move may move (UG-5: 3/2/1/0 by finishing rank).

        Raises
        ------
        IllegalActionError
            Outside the move phase.
        """
        if self._phase != _MOVE:
            raise IllegalActionError(f"no move pending in phase {self._phase} (UG-5)")
        return self._queue[0][1]

    # ------------------------------------------------------------ internals
    def lanes(self) -> list[list[int]]:
        """Gem colours per lane, front to back, empty holes skipped (strategy view)."""
        return [[int(g) for g in row if g != EMPTY] for row in self.board]

    def card_of(self, player: int) -> str:
        """Card dealt to ``player`` this round (UG-4)."""
        return self.cards[self.round * self.num_players + player]

    def _roll(self, face: int) -> None:
        """UG-4 die roll; UG-7 solve times vs timer; UG-8 re-turn; UG-5 ranking."""
        n = self.num_players
        ratios = np.array([self._ratio_of[self.card_of(p)][face - 1] for p in range(n)])
        times = np.asarray(self.model.sample(ratios, self.skills, self.rng), dtype=float)
        limit = self.timer
        extended = not (times <= limit).any()
        if extended:  # UG-8: nobody solved, the timer is turned once more for everybody
            limit = 2.0 * self.timer
        order = sorted((p for p in range(n) if times[p] <= limit), key=lambda p: (times[p], p))
        # UG-5 ranking by finishing order; UG-7: moving and taking must also fit in the time.
        self._queue = [(p, MOVE_ALLOWANCE[rank]) for rank, p in enumerate(order)
                       if times[p] + self.move_time <= limit]
        self.history.append({"round": self.round, "face": face, "cards": [self.card_of(p) for p in range(n)],
                             "times": times.tolist(), "extended": extended, "finish_order": order,
                             "moves": []})
        self._phase = _MOVE
        if not self._queue:
            self._end_round()

    def _move_and_take(self, player: int, field: int) -> None:
        """UG-5 move, then UG-6: take the two front gems at once."""
        self.pawns[player] = field
        taken = take_gems(self.board, field)
        for g in taken:
            self.gems[player, g] += 1
        self.history[-1]["moves"].append((player, field, taken))

    def _end_round(self) -> None:
        """UG-9: cards removed, die and timer pass left; UG-10 after the last round."""
        self.round += 1
        self.die_holder = (self.die_holder + 1) % self.num_players
        self._phase = _OVER if self.round >= self.num_rounds else _ROLL

    def _why_illegal(self, action: int) -> str:
        if self._phase == _SETUP:
            return f"a pawn starts on one of the red fields 0..{NUM_LANES - 1} (UG-2)"
        if self._phase == _ROLL:
            return f"the die has faces 1..{NUM_FACES}, actions 0..{NUM_FACES - 1} (UG-4)"
        player, allowance = self._queue[0]
        return (f"player {player} on field {int(self.pawns[player])} may move at most {allowance} "
                f"field(s) within 0..{NUM_LANES - 1} (UG-5)")
