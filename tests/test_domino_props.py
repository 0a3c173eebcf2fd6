"""Hypothesis properties of Domino, nezlob se! over random legal play (RULES.md section 5).

At every step of a game played with hypothesis-chosen actions:

* the 21 dominoes are all accounted for: stock + hands + path (DN-1);
* the path is a single chain with equal symbols at every joint (DN-3);
* no two pawns share a field (DN-5, DN-8) and pawns stand between the start
  field and Domina;
* Domina stands on the last field (DN-7: attachments before the start add
  fields before the start, so her field stays the last one);
* legal actions are sorted, unique and exactly the actions the rule check
  accepts; a move of a pawn is 1, 2 or 4 counted fields (DN-8).

Then: a clone and a record replay follow the game exactly.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ubongo_cp.games.base import record_of, replay_record
from ubongo_cp.games.domino.actions import MOVE_STEPS, NUM_ACTIONS, NUM_DOMINOES, OUT, is_attach
from ubongo_cp.games.domino.state import DominoSettings, new_game

SETTINGS = st.builds(
    DominoSettings,
    num_players=st.integers(2, 4),
    domino_set=st.sampled_from(["double-five", "one-to-six"]),
    may_decline=st.booleans(),
    eliminated_field_free=st.booleans(),
    stall_distance=st.sampled_from(["free_fields", "fields"]),
    max_rounds=st.just(60),
)


def _invariants(s) -> None:
    every = s.stock + [d for h in s.hands for d in h] + s.path_ids
    assert sorted(every) == list(range(NUM_DOMINOES))
    assert len(s.path) == 2 * len(s.path_ids)
    for i, d in enumerate(s.path_ids):
        assert tuple(sorted(s.path[2 * i: 2 * i + 2])) == s.dominoes[d]
    if s.direction_set:
        assert all(s.path[2 * i - 1] == s.path[2 * i] for i in range(1, len(s.path_ids)))
        assert s.domina == len(s.path) - 1
    on = [p for p in s.pawns if p >= 0] + s.blocked
    assert len(on) == len(set(on))
    assert all(s.start <= p <= s.domina for p in on)


def _counted_fields(s, frm: int, to: int, mover: int) -> int:
    """Fields counted by a move from ``frm`` to ``to`` (other pawns' fields skipped, DN-8)."""
    others = {p for q, p in enumerate(s.pawns) if q != mover and p >= 0} | set(s.blocked)
    return sum(1 for f in range(frm + 1, to + 1) if f not in others)


@settings(deadline=None, max_examples=60)
@given(rules=SETTINGS, seed=st.integers(0, 2**32 - 1), data=st.data())
def test_random_legal_play_keeps_invariants(rules, seed, data):
    s = new_game(rules, seed=seed)
    _invariants(s)
    clone_at = data.draw(st.integers(0, 40), label="clone_at")
    twin = None
    marker = -1
    while not s.is_terminal():
        acts = s.legal_actions()
        assert acts == sorted(set(acts))
        if len(s.history) % 7 == 0:                       # full check now and then (slow)
            assert acts == [a for a in range(NUM_ACTIONS) if s.why_illegal(a) is None]
        a = acts[data.draw(st.integers(0, len(acts) - 1), label="action")]
        if len(s.history) == clone_at:
            twin = s.clone()
        if s.turns != marker:                             # a new turn starts
            marker, mover, start_pos, k, shift = s.turns, s.cur, s.pawns[s.cur], 0, 0
        front = is_attach(a) and (a >> 1) & 1 and s.direction_set
        s.apply_action(a)
        _invariants(s)
        if twin is not None:
            twin.apply_action(a)
        k += is_attach(a)
        shift += 2 if front else 0
        if (s.turns != marker or s.is_terminal()) and start_pos >= 0:
            # DN-8: the pawn moved 1, 2 or 4 counted fields, or fell off (DN-11).
            now, frm = s.pawns[mover], start_pos + shift
            if now == OUT:
                assert _counted_fields(s, frm, s.domina, mover) < MOVE_STEPS[k]
            else:
                assert _counted_fields(s, frm, now, mover) == MOVE_STEPS[k]
    assert len(s.history) <= rules.max_game_length
    if twin is not None:
        assert str(twin) == str(s) and twin.returns() == s.returns()
    replayed = replay_record(record_of(s))
    assert str(replayed) == str(s) and replayed.returns() == s.returns()
