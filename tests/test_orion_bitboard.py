"""The bitmask Orion engine (``games/orion/bitboard.py``) against the reference engine (``state.py``).

2,000 random games (random layouts, uniformly random moves), played move by
move in both engines: every position (colours, used tiles, player to move,
conditions, winner and rule) and every legal-action list must be equal.
Then conversions both ways, illegal-move messages, and clones.
"""

import numpy as np
import pytest

from ubongo_cp.errors import IllegalActionError
from ubongo_cp.games.orion import OrionGame, OrionState, SetupRules
from ubongo_cp.games.orion.bitboard import BitOrionState
from ubongo_cp.games.orion.brute import small_position
from ubongo_cp.games.orion.tiles import load_tiles

GAMES = 2000
CHUNKS = 10


def same(ref: OrionState, fast: BitOrionState) -> bool:
    return ((ref.colour == fast.colour).all() and (ref.used == fast.used).all()
            and ref.current_player() == fast.current_player() and ref.winner == fast.winner
            and ref.end_rule == fast.end_rule and ref.conditions() == fast.conditions()
            and ref.history == fast.history and ref.scores() == fast.scores())


def play_both(seed: int, game=None) -> int:
    """One random game in both engines, compared after every move; returns its length."""
    rng = np.random.default_rng(seed)
    ref, fast = OrionState(game=game, seed=seed), BitOrionState(game=game, seed=seed)
    while True:
        assert same(ref, fast), (seed, len(ref.history))
        legal = ref.legal_actions()
        assert legal == fast.legal_actions(), (seed, len(ref.history))
        if ref.is_terminal():
            assert fast.is_terminal() and ref.returns() == fast.returns()
            return len(ref.history)
        a = legal[int(rng.integers(len(legal)))]
        ref.apply_action(a)
        fast.apply_action(a)


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_games_are_identical_in_both_engines(chunk):
    per = GAMES // CHUNKS
    ends = {}
    for seed in range(chunk * per, (chunk + 1) * per):
        play_both(seed)
        ends[seed] = True
    assert len(ends) == per


def test_variant_games_are_identical():
    # The seed tile set, literal OD-1 spacing, a small board: other tables, same rules.
    from ubongo_cp.games.orion.board import default_board

    for game in (OrionGame.get(tiles=load_tiles("seed")), OrionGame.get(rules=SetupRules.literal()),
                 OrionGame.get(default_board(3), rules=SetupRules(3, 2))):
        for seed in range(3):
            play_both(seed, game)


def test_conversions_and_clones():
    for seed in range(1, 30):
        ref = small_position(seed, 12, 3)
        if ref is None:
            continue
        fast = BitOrionState.from_reference(ref)
        assert same(ref, fast) and ref.legal_actions() == fast.legal_actions()
        back = fast.to_reference()
        assert same(back, fast) and back.legal_actions() == ref.legal_actions()
        clone = fast.clone()
        for a in fast.legal_actions()[:1]:
            clone.apply_action(a)
            assert fast.history == ref.history and clone.history == ref.history + [a]


def test_illegal_moves_are_refused_with_the_reference_message():
    fast, ref = BitOrionState(seed=4), OrionState(seed=4)
    taken = fast.legal_actions()[0]
    for s in (fast, ref):
        s.apply_action(taken)
    for bad in (taken, -1, 10 ** 6):
        with pytest.raises(IllegalActionError) as a:
            ref.apply_action(bad)
        with pytest.raises(IllegalActionError) as b:
            fast.apply_action(bad)
        assert str(a.value) == str(b.value)
    assert same(ref, fast)
