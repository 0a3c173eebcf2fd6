"""The bitmask Orion engine (``games/orion/bitboard.py``) against the reference engine (``state.py``).

100 random games (random layouts, uniformly random moves), played move by
move in both engines: every position (colours, used tiles, player to move,
conditions, winner and rule) and every legal-action list must be equal
(``python -m benchmarks.bench_orion_bitboard --compare 2000`` runs the same
check on 2,000 games). Then variant tables, conversions both ways,
illegal-move messages, and clones.
"""

import pytest

from benchmarks.bench_orion_bitboard import play_both, same
from ubongo_cp.errors import IllegalActionError
from ubongo_cp.games.orion import OrionGame, OrionState, SetupRules
from ubongo_cp.games.orion.bitboard import BitOrionState
from ubongo_cp.games.orion.brute import small_position
from ubongo_cp.games.orion.tiles import load_tiles

GAMES = 100
CHUNKS = 2


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_games_are_identical_in_both_engines(chunk):
    per = GAMES // CHUNKS
    lengths = [play_both(seed) for seed in range(chunk * per, (chunk + 1) * per)]
    assert min(lengths) >= 1     # compared after every move and at the end (play_both asserts)


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


def test_why_illegal_and_remaining_tiles_are_the_references_in_the_bitmask_engine():
    # BitOrionState had neither (AttributeError), though it plays the same game. Along a random game, for the
    # legal moves, a sample of the others (OD-2 covered hexes and placed tiles, OD-3) and ids that are none,
    # both engines give the same reason as the reference's apply_action error, and the same unplaced tiles.
    import random

    rng = random.Random(5)
    fast, ref = BitOrionState(seed=6), OrionState(seed=6)
    n = ref.num_distinct_actions()
    while True:
        legal = set(ref.legal_actions())
        probes = sorted(rng.sample(range(n), 60)) + sorted(legal)[:5] + [-1, n, 2.5, "3", True]
        for a in probes:
            assert fast.why_illegal(a) == ref.why_illegal(a)
            assert (ref.why_illegal(a) is None) == (type(a) is int and a in legal)
            if type(a) is int and a not in legal and not ref.is_terminal():
                with pytest.raises(IllegalActionError) as err:
                    fast.apply_action(a)
                assert str(err.value).endswith(ref.why_illegal(a))
        assert [fast.remaining_tiles(p) for p in (0, 1)] == [ref.remaining_tiles(p) for p in (0, 1)]
        if ref.is_terminal():
            assert fast.why_illegal(0) == ref.why_illegal(0) == f"the game is over ({ref.end_rule})"
            break
        move = rng.choice(sorted(legal))
        fast.apply_action(move)
        ref.apply_action(move)


def test_many_tiles_keep_the_tables_linear():
    # 400 one-hex tiles: 400 x 85 = 34,000 placements. A table of each placement's overlapping
    # placements held 85 x 400^2 ids (109 MB; 2,000 tiles: 2.7 GB); now asked per move.
    import tracemalloc

    from ubongo_cp.games.orion.bitboard import BitTables
    from ubongo_cp.games.orion.tiles import parse_tiles

    k = 400
    tiles = parse_tiles("\n\n".join(f"T{i}\nO" for i in range(k)), "singles")
    game = OrionGame.get(tiles=tiles)
    assert len(game.placements) == k * game.n == k * 85
    tracemalloc.start()
    try:
        tab = BitTables(game)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 60e6, peak
    hex0 = game.placements[0].cells[0]
    assert sorted(set(tab.overlapping(0).tolist())) == [p.id for p in game.placements if p.cells == (hex0,)]
    assert len(set(tab.overlapping(0).tolist())) == k   # one placement per tile on that hex
    state = BitOrionState(seed=1, game=game)
    state.apply_action(state.legal_actions()[0])
    # the mover's 399 unused tiles and the opponent's 400, each on the 84 hexes left
    assert state.avail[0].sum() + state.avail[1].sum() == (k - 1) * 84 + k * 84
