"""Ubongo Duel: a match to 5 on one side of the Duel deck, with the handicap variant.

Rules UD-1 ... UD-7 of ``RULES.md`` section 3 (seed 000). Both players solve
the same task at the same time, so the players take no decisions: the state
is a sequence of chance nodes (die rolls, action ``k`` = face ``k + 1`` of
the d20, probability 1/20 each). Applying a roll that completes a duel draws
the solve times from the state's generator and settles it:

* the faster player scores one step and both turn to the next card (UD-3);
* finishing times less than ``tie_window`` seconds apart (default 0.1 s:
  ``|t_a - t_b| < 0.1``) are "exactly the same moment": nobody scores and
  the same card is played again with a new roll (UD-6);
* a player gives up on a task after ``give_up`` seconds (a model parameter;
  a task with no solution is never solved); when neither solves, the
  players roll again on the same card (UD-5; they always agree);
* handicap variant (UD-7): while one player leads and either pawn stands on
  an orange field the duel takes two rolls; the leader solves the roll-1 task (no point), then
  the roll-2 task; the trailing player starts on roll 2 at once; the first
  to finish roll 2 scores. With equal scores a duel is normal. The give-up
  time applies to each task, as UD-5 speaks of one task ("the given
  figure", seed 000): the leader has ``give_up`` seconds for roll 1 and
  again for roll 2, so it may finish after up to twice ``give_up`` seconds
  and still score if the trailing player gave up.

The match ends when a player reaches 5 points (UD-4): ``returns()`` is
``[1, 0]`` or ``[0, 1]``. Cards are played in order 1..9 (UD-1); a full deck
of 9 cards is enough for any match (at most 4 + 4 + 1 scoring duels); a
shorter test deck is cycled.

Chance stream: each roll is one ``rng.integers(20)`` call when it is
applied, whichever face it is (``sample_chance()`` gives the face that call
draws: a match replays from its seed and its actions,
:meth:`.base.GameState.sample_chance`), each settled duel one
``standard_normal(2)`` call (``standard_normal(3)`` in a handicap duel:
leader roll 1, leader roll 2, trailing player roll 2).
"""

from __future__ import annotations

import copy
import math
from typing import Sequence

import numpy as np

from ...errors import IllegalActionError, InputError, as_written, seed_argument
from ...specs import game_spec
from ..base import CHANCE, TERMINAL, GameFacts, GameState, copy_history, is_number, read_only
from ..tasks import TaskDeck, engine_model, recorded_times_problem, skills_argument

__all__ = ["FACTS", "MAX_REROLLS", "TARGET", "NUM_FACES", "SIDES", "NUM_CARDS", "DEFAULT_ORANGE_FIELDS", "DEFAULT_GIVE_UP",
           "DEFAULT_TIE_WINDOW", "A_SCORES", "B_SCORES", "TIE", "NEITHER", "DuelState", "finish_time",
           "orange_fields_argument", "settle_duel", "unsolvable"]

#: UD-4: the first player to win 5 duels wins the match.
TARGET = 5
#: UD-1: the card sides both players may play, A and B (from the game's spec, the one table of game facts).
SIDES = game_spec("duel").side_names
#: UD-2: a 20-sided die picks the task, one per task of a card side (from the spec).
NUM_FACES = game_spec("duel").side(SIDES[0]).faces
#: UD-7: orange fields of the handicap board, 3 and 4 in each lane (*configurable*).
DEFAULT_ORANGE_FIELDS = (3, 4)
#: Seconds after which a player gives up on a task (UD-5), a model parameter.
DEFAULT_GIVE_UP = 300.0
#: Finishing times less than this many seconds apart count as "exactly the same moment" (UD-6).
DEFAULT_TIE_WINDOW = 0.1
#: Rolls in a row without a point on one card (UD-5 re-rolls, UD-6 ties) after which the
#: players are deemed unable to go on (e.g. equal skills without noise tie for ever).
MAX_REROLLS = 1000
#: Cards of a Duel deck side (UD-1: A1..A9 or B1..B9; from the spec).
NUM_CARDS = game_spec("duel").cards

#: The game's facts. Length bound: at most 9 scoring duels (4 + 4 + 1,
#: UD-4), one per card (UD-3); on each card fewer than ``MAX_REROLLS``
#: duels without a point before the engine gives up (UD-5, UD-6), so at most
#: ``MAX_REROLLS`` duels per card, each of at most 2 rolls (UD-7).
FACTS = GameFacts(name="duel", min_players=2, max_players=2, chance_nodes=True, sampled_chance=True,
                  returns_sum=(1.0,), max_game_length=NUM_CARDS * MAX_REROLLS * 2, title="Ubongo Duel")

#: Outcome codes of :func:`settle_duel`.
A_SCORES, B_SCORES, TIE, NEITHER = 0, 1, 2, 3


def unsolvable(card: str, rerolls: int) -> InputError:
    """The error for a card on which nobody ever scores (UD-5 / UD-6 without end)."""
    return InputError(f"no point scored on card {card} in {rerolls} rolls in a row (UD-5 re-rolls, "
                      "UD-6 ties): the skills, noise or give-up time make the deck unplayable")


def finish_time(task_times: Sequence[float], give_up: float = DEFAULT_GIVE_UP) -> float:
    """When a player who solves ``task_times`` one after the other finishes; ``inf`` if it gives up.

    The player gives up on a task that takes more than ``give_up`` seconds
    (UD-5), each task on its own (UD-7: the leader's two tasks).

    Examples
    --------
    >>> finish_time([40.0]), finish_time([301.0]), finish_time([250.0, 200.0]), finish_time([math.inf, 5.0])
    (40.0, inf, 450.0, inf)
    """
    total = 0.0
    for t in task_times:
        if not t <= give_up:
            return math.inf
        total += t
    return total


def orange_fields_argument(fields) -> frozenset[int]:
    """The orange fields of the handicap board (UD-7) as a set of scores, checked: whole numbers in
    ``1 .. TARGET - 1`` (a list, tuple, set or array of them; none is the board without orange fields).

    Raises
    ------
    InputError
        Naming the fields and what they must be.

    Examples
    --------
    >>> sorted(orange_fields_argument([4, 3])), orange_fields_argument(())
    ([3, 4], frozenset())
    """
    if not _numbers(fields) or not all(_whole(f) for f in fields):
        raise InputError(f"orange fields {as_written(fields)} must be whole numbers (UD-7)")
    orange = frozenset(int(f) for f in fields)
    if any(not 0 < f < TARGET for f in orange):
        raise InputError(f"orange fields {sorted(orange)} must lie in 1..{TARGET - 1} (UD-7)")
    return orange


def settle_duel(t_a: float, t_b: float, tie_window: float = DEFAULT_TIE_WINDOW) -> int:
    """Outcome of one duel from the two finishing times in seconds (``inf``: gave up).

    Returns :data:`A_SCORES` (0) or :data:`B_SCORES` (1) for the faster
    player (UD-3), :data:`TIE` (2) when both finished less than
    ``tie_window`` seconds apart (UD-6: "at exactly the same moment") and
    :data:`NEITHER` (3) when both gave up (UD-5).

    Examples
    --------
    >>> settle_duel(31.0, 42.5), settle_duel(50.0, 49.0), settle_duel(40.04, 40.06), settle_duel(40.051, 40.149)
    (0, 1, 2, 2)
    >>> settle_duel(40.0, 40.1), settle_duel(math.inf, 301.0), settle_duel(math.inf, math.inf)
    (0, 1, 3)
    """
    if t_a == math.inf and t_b == math.inf:
        return NEITHER
    if abs(t_a - t_b) < tie_window:
        return TIE
    return A_SCORES if t_a < t_b else B_SCORES


class DuelState(GameState):
    """State of one Ubongo Duel match (rules UD-1 ... UD-7).

    Parameters
    ----------
    deck : TaskDeck
        A rated deck: the Duel deck, or any deck whose spec defines it (its
        sides, and the die faces of each, ``TaskDeck.spec``).
    side : str
        The side both players use (UD-1: ``"A"`` or ``"B"`` for the Duel deck; a side of the deck's spec).
    skills : (float, float)
        Skills of players A (0) and B (1); see
        :class:`~ubongo_cp.games.tasks.SolveTimeModel`.
    model : SolveTimeModel, optional
        Solve-time model (default ``SolveTimeModel()``); any object with
        ``sample(ratios, skills, rng)`` works.
    handicap : bool
        Play the handicap variant (UD-7).
    orange_fields : sequence of int
        Scores (fields of each player's lane) that are orange: while one
        player leads and either pawn stands on one, duels are handicap
        duels (UD-7, default 3 and 4).
    give_up : float
        Seconds after which a player stops trying a task (UD-5; in a
        handicap duel each of the leader's two tasks, UD-7).
    tie_window : float
        Finishing times less than this many seconds apart are a tie (UD-6).
    max_rerolls : int
        Rolls in a row without a point on one card (UD-5, UD-6) after which
        :meth:`apply_action` raises :class:`~ubongo_cp.errors.InputError`
        (the skills and ``give_up`` make the card practically unsolvable).
    seed : int or numpy.random.Generator, optional
        Source of every chance event: a whole number >= 0 (or anything
        :func:`~ubongo_cp.errors.seed_argument` takes) or a generator.
    scores : (int, int)
        Starting scores (default 0, 0; tests start from hand-built scores).
    card_index : int
        Index of the current card in the stack (0 = card 1).

    Raises
    ------
    InputError
        For a wrong deck, side, skills, model (one without a ``sample``
        method), orange fields, scores or seed; during play,
        after ``max_rerolls`` rolls in a row without a point on one card.
    """

    facts = FACTS
    num_players = 2

    def __init__(self, deck: TaskDeck, side: str = "A", *, skills: Sequence[float] = (1.0, 1.0),
                 model=None, handicap: bool = False,
                 orange_fields: Sequence[int] = DEFAULT_ORANGE_FIELDS,
                 give_up: float = DEFAULT_GIVE_UP, tie_window: float = DEFAULT_TIE_WINDOW,
                 max_rerolls: int = MAX_REROLLS, seed: int | np.random.Generator | None = None,
                 scores: Sequence[int] = (0, 0), card_index: int = 0) -> None:
        model = engine_model(deck, side, "UD-1", model)  # the sides of the deck's spec: A and B for Ubongo Duel
        #: UD-2: the die has one face per task of a card side (a d20 for Ubongo Duel; the deck's spec says).
        self.num_faces = deck.faces(side)
        self.deck = deck
        self.side = side
        self.ratios = deck.side_ratios(side)
        self._rows = deck.side_rows(side)  # per card, the ratio of each face's task (UD-2)
        self._ids = deck.cards[side]
        checked = skills_argument(skills, 2)
        if not isinstance(handicap, (bool, np.bool_)):
            raise InputError(f"handicap must be true or false, got {as_written(handicap)}")
        orange = orange_fields_argument(orange_fields)
        if not _numbers((give_up, tie_window)):
            raise InputError(f"give-up time {as_written(give_up)} and tie window {as_written(tie_window)} must be numbers")
        if not _whole(max_rerolls) or max_rerolls < 1:
            raise InputError(f"max_rerolls must be a whole number >= 1, got {as_written(max_rerolls)}")
        if not _numbers(scores) or not all(_whole(x) for x in scores):
            raise InputError(f"scores {as_written(scores)} must be two whole numbers 0..{TARGET}")
        if not _whole(card_index) or not 0 <= card_index < len(deck.cards[side]):
            raise InputError(f"card index {as_written(card_index)} must be a whole number 0..{len(deck.cards[side]) - 1} "
                             "(UD-1: the cards of the stack)")
        self.skills = read_only(checked)
        a, b = self.skills.tolist()
        # UD-7 draws, leader first twice, then the trailing player: when A leads, when B leads.
        self._handicap_skills = (read_only(np.array((a, a, b))), read_only(np.array((b, b, a))))
        self.model = model
        self.handicap = bool(handicap)
        self.orange_fields = orange
        if not (give_up > 0 and 0 < tie_window < math.inf):
            raise InputError(f"give-up time {give_up} and tie window {tie_window} must be > 0")
        self.give_up = float(give_up)
        self.tie_window = float(tie_window)
        self.max_rerolls = int(max_rerolls)
        self._rerolls_here = 0
        self.rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed_argument("seed", seed))
        self.scores = [int(s) for s in scores]
        if len(self.scores) != 2 or not all(0 <= s <= TARGET for s in self.scores) or \
                self.scores.count(TARGET) > 1:
            raise InputError(f"scores {list(scores)} must be two numbers 0..{TARGET}, at most one at {TARGET}")
        self.card_index = int(card_index)
        self.roll1: int | None = None  # UD-7: the leader's extra roll, while pending
        self._history: list[dict] = []
        #: Every action applied, in order (the game record's moves, :mod:`ubongo_cp.games.duel.records`).
        self._actions: list[int] = []
        #: The starting scores and card (the game record's start).
        self.start = {"scores": list(self.scores), "card_index": self.card_index}
        self._forced_times: list[float] | None = None  # set by a replay: the recorded solve times
        self.rerolls = 0
        self.ties = 0

    # ------------------------------------------------------------------ API
    def current_player(self) -> int:
        return TERMINAL if TARGET in self.scores else CHANCE

    def legal_actions(self) -> list[int]:
        return [] if TARGET in self.scores else list(range(self.num_faces))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [] if TARGET in self.scores else [(a, 1.0 / self.num_faces) for a in range(self.num_faces)]

    def _chance_stream(self) -> tuple[np.random.Generator, int]:
        """Each roll of the d20 (UD-2) is one ``integers(20)`` call of ``self.rng`` (:meth:`.base.GameState.sample_chance`)."""
        return self.rng, self.num_faces

    def is_terminal(self) -> bool:
        return TARGET in self.scores  # UD-4

    def returns(self) -> list[float]:
        if TARGET not in self.scores:
            return [0.0, 0.0]
        return [1.0, 0.0] if self.scores[0] == TARGET else [0.0, 1.0]

    def max_game_length(self) -> int:
        """At most :data:`NUM_CARDS` cards x ``max_rerolls`` duels x 2 rolls (see :data:`FACTS`)."""
        return NUM_CARDS * self.max_rerolls * 2

    def leader(self) -> int | None:
        """The leading player, or None with equal scores."""
        a, b = self.scores
        return None if a == b else (0 if a > b else 1)

    def handicap_active(self) -> bool:
        """True when the next duel is a handicap duel (UD-7: one player leads and either pawn is on an orange field);
        False once the match is over (UD-4): no duel follows, so no roll is the leader's alone."""
        a, b = self.scores
        return (self.handicap and a != b and (a in self.orange_fields or b in self.orange_fields)
                and TARGET not in self.scores)

    def card(self) -> str:
        """Id of the card being played (UD-1: the stack in order 1..9)."""
        return self._ids[self.card_index % len(self._ids)]

    def _apply_action(self, action: int) -> None:
        self._apply_rules(action)
        self._actions.append(action)
        if self._rerolls_here >= self.max_rerolls:   # the roll is played and recorded, then the deck refused
            raise unsolvable(self.card(), self._rerolls_here)

    def _draw(self, ratios, skills) -> list[float]:
        """Solve times of one duel: the model's draw, or the recorded times of a replay."""
        if self._forced_times is not None:
            t, self._forced_times = self._forced_times, None
            problem = recorded_times_problem(t, ratios, "UD-3")
            if problem:
                raise IllegalActionError(problem)
            return t
        return np.asarray(self.model.sample(np.array(ratios), skills, self.rng), dtype=float).tolist()

    def _apply_rules(self, action: int) -> None:
        scores = self.scores
        if TARGET in scores:
            raise self._illegal(action, f"the match is over, a player has {TARGET} points (UD-4)")
        if not 0 <= action < self.num_faces:
            raise self._illegal(action, f"the die has faces 1..{self.num_faces}, actions 0..{self.num_faces - 1} "
                                        "(UD-2)")
        self._draw_chance()
        face = action + 1
        card = self.card_index % len(self._rows)
        row = self._rows[card]
        a, b = scores
        if self.handicap_active():
            if self.roll1 is None:  # UD-7 roll 1: for the leader only
                self.roll1 = face
                return
            lead = 0 if a > b else 1
            r = row[face - 1]
            t = self._draw((row[self.roll1 - 1], r, r), self._handicap_skills[lead])
            # UD-7: the leader solves roll 1 (no point), then roll 2; UD-5 gives up on each task alone.
            give_up = self.give_up
            t_lead = finish_time(t[:2], give_up)
            t_trail = finish_time(t[2:], give_up)
            times = [t_lead, t_trail] if lead == 0 else [t_trail, t_lead]
            # When neither solves, the duel lasts until the later of the two gives up.
            last = give_up + (t[0] if t[0] <= give_up else 0.0)
            rolls: tuple[int, ...] = (self.roll1, face)
            self.roll1 = None
        else:
            r = row[face - 1]
            t = self._draw((r, r), self.skills)
            give_up = self.give_up
            times = [t[0] if t[0] <= give_up else math.inf, t[1] if t[1] <= give_up else math.inf]
            last = give_up
            rolls = (face,)
        outcome = settle_duel(times[0], times[1], self.tie_window)
        self._history.append({"card": self._ids[card % len(self._ids)], "rolls": rolls, "times": times, "draws": t,
                             "outcome": outcome, "seconds": last if outcome == NEITHER else min(times),
                             "handicap": len(rolls) == 2, "scores_before": (a, b)})
        if outcome <= B_SCORES:  # UD-3: one step, next card
            scores[outcome] += 1
            self.card_index += 1
            self._rerolls_here = 0
        else:
            if outcome == TIE:  # UD-6: nobody scores, same card, roll again
                self.ties += 1
            else:  # UD-5: roll again on the same card
                self.rerolls += 1
            self._rerolls_here += 1   # at max_rerolls, _apply_action refuses the deck (UD-5 / UD-6 without end)

    action_ids_rule = "UD-2"

    @property
    def actions(self) -> list[int]:
        """A copy of the actions played so far (changing it leaves the state alone, as :attr:`history`)."""
        return list(self._actions)

    def num_distinct_actions(self) -> int:
        """One id per face of the die (UD-2)."""
        return self.num_faces

    def action_to_string(self, action: int) -> str:
        if self.handicap_active():
            return f"roll {'1 (leader only)' if self.roll1 is None else '2'} face {action + 1}"
        return f"roll face {action + 1}"

    def clone(self) -> "DuelState":
        new = copy.copy(self)
        new.scores = list(self.scores)
        new._history = copy_history(self._history)
        new.start = copy_history([self.start])[0]
        new._actions = list(self._actions)
        new.rng = copy.deepcopy(self.rng)
        if hasattr(self.model, "calls"):
            new.model = copy.deepcopy(self.model)
        return new

    def __str__(self) -> str:
        mode = "handicap" if self.handicap else "normal"
        extra = f", roll 1 = {self.roll1}" if self.roll1 is not None else ""
        where = " [over]" if self.is_terminal() else f", card {self.side}{self.card()}{extra}"
        return f"Ubongo Duel ({mode}, side {self.side}): A {self.scores[0]} - B {self.scores[1]}{where}"

    def picture(self):
        """The score board as a matplotlib figure (:func:`ubongo_cp.games.duel.render.figure`)."""
        from .render import figure

        return figure(self)



def _numbers(values) -> bool:
    """A list, tuple, set or array of real numbers (no booleans, no strings)."""
    return isinstance(values, (list, tuple, set, frozenset, np.ndarray)) and all(is_number(v) for v in values)


def _whole(value) -> bool:
    """A whole number (a float only when whole), not a bool."""
    return is_number(value) and float(value).is_integer()
