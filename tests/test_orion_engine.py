"""Orion Duel engine: OD-1 setup, OD-2/OD-3 moves, W1-W3 (OD-4), OD-5/6/7 ends."""

import pickle

import numpy as np
import pytest

from ubongo_cp.errors import IllegalActionError, InputError
from ubongo_cp.games.base import TERMINAL, RandomAgent, play_game
from ubongo_cp.games.orion.bitboard import BitOrionState
from ubongo_cp.games.orion.board import Board, default_board
from ubongo_cp.games.orion.hexgrid import distance, hexagon, neighbours
from ubongo_cp.games.orion.pie import PieOrionState
from ubongo_cp.games.orion.setup import Setup, SetupRules, random_setup, validate_setup
from ubongo_cp.games.orion.state import OrionGame, OrionState
from ubongo_cp.games.orion.wins import evaluate_wins

GAME = OrionGame.get()
IDX = GAME.board.index
NAMES = GAME.tiles.names


def action(tile, cells):
    """Action id of tile ``tile`` covering ``[(hex, is_own), ...]``."""
    a = GAME.placement_id(NAMES[tile], [(IDX[h], o) for h, o in cells])
    assert a is not None, (tile, cells)
    return a


def interior_galaxy(setup):
    return next(g for g in setup.galaxies if all(n in IDX for n in neighbours(g))
                and all(m in IDX for n in neighbours(g) for m in neighbours(n)))


# --- OD-1 -------------------------------------------------------------------

GAL = ((0, 0), (3, 0), (-3, 0), (0, -3), (-3, 3), (3, -3), (1, 3), (-2, 5))
HOLES = ((2, -1), (-2, 1), (1, -5), (4, -5), (-2, -3), (5, -3), (-5, 1))


def test_od1_valid_hand_layout():
    validate_setup(Setup(GAL, HOLES, 0))


@pytest.mark.parametrize("gal,holes,msg", [
    (GAL[:-1] + ((1, 1),), HOLES, "galaxies .* 2 apart"),             # rule OD-1: galaxies >= 3 apart
    (GAL, HOLES[:-1] + ((-4, 4),), "black hole .* is 1 from galaxy"),   # black hole next to a galaxy
    (GAL, HOLES[:-1] + ((0, 0),), "two tokens on"),                   # black hole on a galaxy
    (GAL, HOLES[:-1] + ((-1, -1),), "black holes .* 2 apart"),        # black holes >= 3 apart
    (GAL[:-1], HOLES, "7 galaxies placed, 8 required"),
    (GAL, HOLES + ((-5, 1),), "8 black holes placed, 7 required"),
    (GAL[:-1] + ((5, 0),), HOLES, "galaxy at \\(5, 0\\) is off the board"),                  # (5, 0) is a removed corner
])
def test_od1_errors(gal, holes, msg):
    with pytest.raises(InputError, match="OD-1: " + msg):
        validate_setup(Setup(gal, holes, 0))


def test_od1_black_hole_two_from_galaxy_is_fine():
    assert distance((2, -1), (0, 0)) == 2 and distance((2, -1), (3, 0)) == 2
    validate_setup(Setup(GAL, HOLES, 1))


def test_random_setups_are_valid_and_seeded():
    for seed in range(25):
        s = random_setup(seed)
        validate_setup(s)
        gal, hol = s.galaxies, s.black_holes
        assert min(distance(a, b) for i, a in enumerate(gal) for b in gal[i + 1:]) >= 3
        assert min(distance(a, b) for a in hol for b in gal) >= 2
    assert random_setup(5) == random_setup(5)


def test_bad_first_player():
    with pytest.raises(InputError, match="first player"):
        OrionState(Setup(GAL, HOLES, 2))


# --- OD-2 / OD-3 ------------------------------------------------------------

def find(tile, own, opp=(), state=None):
    """Placements of ``tile`` with exactly these own / opponent-colour hexes."""
    want = {(IDX[h], True) for h in own} | {(IDX[h], False) for h in opp}
    out = [p.id for p in GAME.placements if p.tile == NAMES[tile]
           and {(c, o) for c, o in zip(p.cells, p.own)} >= want
           and sum(p.own) == len(own) and (not opp or len(p.cells) - sum(p.own) == len(opp))]
    return out


def test_od2_overlap_and_reuse_are_illegal():
    s = OrionState(Setup(GAL, HOLES, 0))
    s.apply_action(action("D2", [((1, 1), True), ((2, 1), True)]))
    with pytest.raises(IllegalActionError, match="OD-2: hexes"):       # player 1 on a covered hex
        s.apply_action(action("D2", [((1, 1), True), ((0, 1), True)]))
    s.apply_action(action("S1", [((-1, -1), True)]))
    with pytest.raises(IllegalActionError, match="OD-2: player 0 has already placed tile D2"):
        s.apply_action(action("D2", [((1, 2), True), ((2, 2), True)]))
    with pytest.raises(IllegalActionError, match=r"no such action, the ids are 0\.\.\d+ \(OD-2\)"):
        s.apply_action(10 ** 6)


def test_od3_token_needs_same_colour_connection():
    s = OrionState(Setup(GAL, HOLES, 0))
    on_galaxy = action("S1", [((0, 0), True)])
    assert on_galaxy not in s.legal_actions()                     # nothing placed yet: rule OD-3
    with pytest.raises(IllegalActionError, match="OD-3: the hex on the galaxy at \\(0, 0\\)"):
        s.apply_action(on_galaxy)
    # OD-2: a tile need not touch earlier tiles
    s.apply_action(action("D2", [((1, 0), True), ((2, 0), True)]))   # colour 0 next to (0, 0)
    # player 1 may not put its own colour 1 on the galaxy (no colour-1 hex yet) ...
    assert action("S1", [((0, 0), True)]) not in s.legal_actions()
    # ... but may put colour 0 (its opponent's colour) there, joined to (1, 0)
    d1 = action("D1a", [((-1, 0), True), ((0, 0), False)])
    assert d1 in s.legal_actions()
    s.apply_action(d1)
    assert s.hex_colour((0, 0)) == 0 and s.hex_colour((-1, 0)) == 1


def test_cells_and_players_that_do_not_exist_are_input_errors():
    s = OrionState(Setup(GAL, HOLES, 0))
    s.apply_action(action("D2", [((1, 0), True), ((2, 0), True)]))
    assert s.hex_colour((1, 0)) == 0 and s.hex_colour(np.array([2, 0])) == 0 and s.hex_colour((3, 0)) == -1
    for h in ((9, 9), (5, 5), (0,), (0, 0, 0), "ab", 5, None, ([1], 0)):
        with pytest.raises(InputError, match=r"hex .* is not a cell \(q, r\) of the board 'hexagon-5'"):
            s.hex_colour(h)
    assert len(s.remaining_tiles(0)) == 13 and len(s.remaining_tiles(np.int64(1))) == 14
    for p in (5, 2, -1, True, 0.0, "0"):   # -1 read player 1's tiles before
        with pytest.raises(InputError, match=r"player must be 0 or 1, got"):
            s.remaining_tiles(p)


def test_od3_connection_may_run_through_the_new_tile():
    s = OrionState(Setup(GAL, HOLES, 0))
    s.apply_action(action("D2", [((1, -2), True), ((2, -2), True)]))
    s.apply_action(action("S1", [((-4, 3), True)]))
    legal = set(s.legal_actions())
    # galaxy (0, -3) is not next to colour 0; a single on it is illegal
    assert action("S1", [((0, -3), True)]) not in legal
    # a bent tile with own hexes (0,-3) and (0,-2): (0,-2) touches (1,-2) -> legal
    through = find("V3a", [(0, -3), (0, -2)])
    assert any(p in legal for p in through)
    # a straight tile with own hexes (0,-3) and (0,-4) touches no colour-0 hex -> illegal
    away = find("I3a", [(0, -3), (0, -4)])
    assert away and not any(p in legal for p in away)


def test_od3_other_colour_on_a_token_must_also_join():
    s = OrionState(Setup(GAL, HOLES, 0))
    s.apply_action(action("S1", [((-1, 1), True)]))               # colour 0 next to galaxy (0,0)
    s.apply_action(action("S1", [((-4, 3), True)]))               # player 1 elsewhere
    # own hex on the galaxy joins (-1, 1); the opponent-colour hex on the black hole (2,-1)
    # is not next to any colour-1 hex -> OD-3 forbids it
    bad = list(find("V3a", [(0, 0), (1, -1)], [(2, -1)]))
    assert bad
    for p in bad:
        assert p not in s.legal_actions()
        assert "OD-3" in s.why_illegal(p) and "black hole" in s.why_illegal(p)
    good = find("D1a", [(0, 0)], [(1, 0)])
    assert good and all(p in s.legal_actions() for p in good)


# --- W1, W2, W3 -----------------------------------------------------------------

N_TO_S = [(1, -5), (1, -4), (1, -3), (1, -2), (1, -1), (1, 0), (1, 1), (1, 2), (1, 3), (0, 4), (-1, 5)]


def masks(gal=(), hol=()):
    g = np.zeros(GAME.n + 1, dtype=bool)
    h = np.zeros(GAME.n + 1, dtype=bool)
    g[[IDX[x] for x in gal]] = True
    h[[IDX[x] for x in hol]] = True
    return g, h


def colouring(assign):
    c = np.full(GAME.n + 1, -1, dtype=np.int64)
    for hexes, col in assign:
        for x in hexes:
            c[IDX[x]] = col
    return c


def test_w1_chain_between_opposite_sides():
    g, h = masks()
    wins = evaluate_wins(GAME, colouring([(N_TO_S, 0)]), g, h)
    assert [w.condition for w in wins[0]] == ["W1"] and wins[1] == []
    w = wins[0][0]
    assert w.sides == ("N", "S") and w.hexes[0] == (1, -5) and w.hexes[-1] == (-1, 5)
    # one missing hex breaks it; an opponent hex in the gap too
    assert evaluate_wins(GAME, colouring([(N_TO_S[:5] + N_TO_S[6:], 0)]), g, h) == [[], []]
    wins = evaluate_wins(GAME, colouring([(N_TO_S[:5] + N_TO_S[6:], 0), ([N_TO_S[5]], 1)]), g, h)
    assert wins == [[], []]
    # N to NE is not an opposite pair
    assert evaluate_wins(GAME, colouring([([(4, -5), (5, -5 + 1)], 0)]), g, h) == [[], []]


def test_w2_four_galaxies_on_one_chain_and_w3_three_black_holes():
    chain = [(-3, 0), (-2, 0), (-1, 0), (0, 0), (1, 0), (2, 0), (3, 0), (4, -1), (4, -2)]
    g, h = masks(gal=[(-3, 0), (0, 0), (3, 0), (4, -2)])
    wins = evaluate_wins(GAME, colouring([(chain, 1)]), g, h)
    assert [w.condition for w in wins[1]] == ["W2"] and wins[0] == []
    assert sorted(wins[1][0].tokens) == sorted([(-3, 0), (0, 0), (3, 0), (4, -2)])
    # three galaxies are not enough
    g3, _ = masks(gal=[(-3, 0), (0, 0), (3, 0)])
    assert evaluate_wins(GAME, colouring([(chain, 1)]), g3, h) == [[], []]
    # the same chain over 3 black holes: W3 for the *other* player (player 0)
    g0, h3 = masks(hol=[(-3, 0), (0, 0), (3, 0)])
    wins = evaluate_wins(GAME, colouring([(chain, 1)]), g0, h3)
    assert wins[1] == [] and [w.condition for w in wins[0]] == ["W3"]
    assert wins[0][0].colour == 1
    # split chain: 2 + 1 black holes -> nothing
    split = chain[:4] + chain[5:]
    assert evaluate_wins(GAME, colouring([(split, 1)]), g0, h3) == [[], []]


# --- OD-5, OD-6, OD-7 --------------------------------------------------------

def crafted(colours, used0, used1, player, gal=(), hol=()):
    """A hand-made position: the given tokens (OD-1 spacings relaxed to 1), colours, used tiles."""
    game = OrionGame.get(rules=SetupRules(len(gal), len(hol), 1, 1, 1))
    cols = {h: c for hexes, c in colours for h in hexes}
    return OrionState.from_board(Setup(tuple(gal), tuple(hol), player), cols, (used0, used1),
                                 player, game)


ALL = set(GAME.tiles.names)


def test_od5_immediate_win_when_ahead():
    s = crafted([(N_TO_S[:5] + N_TO_S[6:], 0)], set(), set(), 0)
    s.apply_action(action("S1", [(N_TO_S[5], True)]))
    assert s.is_terminal() and s.winner == 0 and s.end_rule == "OD-5"
    assert s.returns() == [1.0, 0.0] and s.current_player() == TERMINAL
    with pytest.raises(IllegalActionError, match="game is over"):
        s.apply_action(0)


def test_od5_the_player_ahead_wins_even_if_the_other_moved():
    # colour 1 joins NW and SE but for (2, 3); player 0's D1 puts colour 1 there (its
    # opponent hex): the count is 0 : 1 after player 0's own move, and player 1 wins (OD-5)
    nw_se = [(-1, -4), (-1, -3), (-1, -2), (-1, -1), (-1, 0), (-1, 1), (-1, 2), (0, 2), (0, 3),
             (1, 3), (2, 3)]
    assert (2, 3) in dict(GAME.board.sides)["SE"] and (-1, -4) in dict(GAME.board.sides)["NW"]
    s = crafted([(nw_se[:-1], 1)], set(), set(), 0)
    assert not s.is_terminal()
    s.apply_action(action("D1a", [((3, 2), True), ((2, 3), False)]))
    assert s.is_terminal() and s.winner == 1 and s.end_rule == "OD-5"
    assert [w.condition for w in s.wins[1]] == ["W1"] and s.wins[0] == []
    # a position given with a condition already fulfilled is over at once
    assert crafted([(nw_se, 1)], set(), set(), 0).winner == 1


def test_od5_equal_counts_continue_game():
    # colour 1 joins NW and SE but for (1, 2); colour 0 covers 3 galaxies towards (1, 1)
    nw_se = [(-1, -4), (-1, -3), (-1, -2), (-1, -1), (-1, 0), (-1, 1), (-1, 2), (0, 2), (1, 3),
             (2, 3)]
    ne = [(5, -4), (4, -3), (4, -2), (3, -1), (2, 0)]
    s2 = crafted([(nw_se, 1), (ne, 0)], set(), set(), 0, gal=[(5, -4), (4, -2), (2, 0), (1, 1)])
    # player 0's D1: own hex on the 4th galaxy (W2, OD-3 joined through (2, 0)), opponent hex
    # on (1, 2) completing colour 1's W1: 1 : 1, the game goes on (OD-5)
    s2.apply_action(action("D1a", [((1, 1), True), ((1, 2), False)]))
    assert [w.condition for w in s2.wins[0]] == ["W2"] and [w.condition for w in s2.wins[1]] == ["W1"]
    assert not s2.is_terminal() and s2.current_player() == 1


def _split_board():
    """Colour 1 on q <= 0 and colour 0 on q >= 1: no opposite pair is joined by either."""
    left = [h for h in GAME.board.hexes if h[0] <= 0]
    right = [h for h in GAME.board.hexes if h[0] >= 1]
    return left, right


def test_od6_no_legal_move_loses():
    left, right = _split_board()
    holes = [(0, 0), (-2, 2), (3, 0)]     # isolated free hexes
    left = [h for h in left if h not in holes]
    right = [h for h in right if h not in holes]
    s = crafted([(left, 1), (right, 0)], ALL - {"S1"}, ALL - {"D2"}, 0)
    assert evaluate_wins(GAME, s.colour, s.galaxy, s.hole) == [[], []]
    assert len(s.legal_actions()) == 3                      # S1 on any of the three holes
    s.apply_action(action("S1", [((3, 0), True)]))
    assert s.is_terminal() and s.end_rule == "OD-6" and s.winner == 0   # player 1 has no move
    assert s.returns() == [1.0, 0.0]


@pytest.mark.parametrize("engine", ["reference", "bitboard"])
def test_od6_the_turn_back_to_a_player_who_cannot_place(engine):
    """OD-6 when the turn comes back to the mover: player 1 has placed every tile, so after player 0's S1 the turn
    is player 0's again, whose D2 fits on no two free hexes (the three left are isolated): player 0 loses."""
    from ubongo_cp.games.orion.bitboard import BitOrionState

    left, right = _split_board()
    holes = [(0, 0), (-2, 2), (3, 0)]
    left = [h for h in left if h not in holes]
    right = [h for h in right if h not in holes]
    s = crafted([(left, 1), (right, 0)], ALL - {"S1", "D2"}, ALL, 0)
    if engine == "bitboard":
        s = BitOrionState.from_reference(s)
    assert not s.is_terminal() and len(s.legal_actions()) == 3     # S1 on any of the three holes
    s.apply_action(action("S1", [((3, 0), True)]))
    assert s.is_terminal() and s.end_rule == "OD-6" and s.winner == 1
    assert s.current_player() == TERMINAL and s.returns() == [0.0, 1.0]


def test_od6_a_position_whose_mover_cannot_place_is_over():
    """A position given to ``from_board`` is judged as at the start of a turn: the player to move, who holds only D2
    with no two free hexes side by side, has lost (OD-6); with both holding a tile that fits, it is not over; and
    a mover who has placed every tile passes the move to the other player."""
    left, right = _split_board()
    holes = [(0, 0), (-2, 2), (3, 0)]
    left = [h for h in left if h not in holes]
    right = [h for h in right if h not in holes]
    s = crafted([(left, 1), (right, 0)], ALL - {"D2"}, ALL - {"S1"}, 0)
    assert s.is_terminal() and s.end_rule == "OD-6" and s.winner == 1 and s.legal_actions() == []
    assert play_game(s, [RandomAgent(0), RandomAgent(1)]).is_terminal()
    s = crafted([(left, 1), (right, 0)], ALL - {"S1"}, ALL - {"S1"}, 0)
    assert not s.is_terminal() and s.current_player() == 0
    s = crafted([(left, 1), (right, 0)], ALL, ALL - {"S1"}, 0)
    assert not s.is_terminal() and s.current_player() == 1


@pytest.mark.parametrize("gal0,hol0,gal1,winner", [
    ([(2, 0), (3, -2)], [(2, 2)], [(-2, 0)], -1),   # 2 - 1 = 1 vs 1 - 0 = 1: draw
    ([(2, 0), (3, -2)], [], [(-2, 0)], 0),           # 2 vs 1
    ([(2, 0)], [(2, 2)], [(-2, 0)], 1),              # 0 vs 1
])
def test_od7_final_score(gal0, hol0, gal1, winner):
    left, right = _split_board()
    last = (0, 0)
    left = [h for h in left if h != last]
    s = crafted([(left, 1), (right, 0)], ALL, ALL - {"S1"}, 1, gal=gal0 + gal1, hol=hol0)
    s.apply_action(action("S1", [(last, True)]))
    assert s.is_terminal() and s.end_rule == "OD-7" and s.winner == winner
    assert s.scores() == (len(gal0) - len(hol0), len(gal1))
    assert s.returns() == ([0.5, 0.5] if winner < 0 else [1.0 * (winner == 0), 1.0 * (winner == 1)])
    # Its repr says it in a line: every tile placed, who won by which rule, the scores counted above by hand.
    outcome = "draw" if winner < 0 else f"player {winner} won"
    assert repr(s) == (f"OrionState(tiles placed={2 * len(ALL)}, over: {outcome} (OD-7), "
                       f"scores=({len(gal0) - len(hol0)}, {len(gal1)}))")


def test_a_position_prints_as_its_move_player_to_move_and_scores():
    from ubongo_cp.games.orion.bitboard import BitOrionState

    s = OrionState(seed=3)
    first = s.setup.first_player
    assert repr(s) == f"OrionState(tiles placed=0, to move=player {first}, scores=(0, 0))"
    s.apply_action(s.legal_actions()[0])
    assert repr(s) == f"OrionState(tiles placed=1, to move=player {1 - first}, scores={s.scores()})"
    fast = BitOrionState(seed=3)
    fast.apply_action(fast.legal_actions()[0])    # the second engine, the same position
    assert repr(fast) == "Bit" + repr(s)
    won = crafted([(N_TO_S[:5] + N_TO_S[6:], 0)], set(), set(), 0)
    won.apply_action(action("S1", [(N_TO_S[5], True)]))   # OD-5 (test_od5_immediate_win_when_ahead)
    assert repr(won).startswith("OrionState(tiles placed=1, over: player 0 won (OD-5), scores=")


# --- conformance (OpenSpiel-style layer 1) -------------------------------------

def test_random_games_conform():
    for seed in range(12):
        s = OrionState(seed=seed)
        rng = np.random.default_rng(seed)
        n = 0
        while not s.is_terminal():
            acts = s.legal_actions()
            assert acts == sorted(set(acts)) and acts
            c = s.clone()
            a = acts[int(rng.integers(len(acts)))]
            s.apply_action(a)
            assert c.history == s.history[:-1]             # clone is independent
            n += 1
        assert n <= GAME.max_moves() and sum(s.returns()) == 1.0
        assert s.legal_actions() == []
        t = pickle.loads(pickle.dumps(s))
        assert t.history == s.history and t.winner == s.winner
        # replay from the setup reproduces the game
        r = OrionState(s.setup)
        for a in s.history:
            r.apply_action(a)
        assert r.winner == s.winner and r.end_rule == s.end_rule
        assert (r.colour == s.colour).all()


def test_play_game_with_random_agents():
    s = play_game(OrionState(seed=99), [RandomAgent(1), RandomAgent(2)])
    assert s.is_terminal() and s.end_rule in ("OD-5", "OD-6", "OD-7")
    assert str(s).splitlines()[0].startswith("player 0 = a")


# --- action ids, analysis moves, rule options ----------------------------------

@pytest.mark.parametrize("bad", [1.0, "3", True, np.bool_(True), None, [3]])
def test_non_integer_actions_are_illegal(bad):
    s = OrionState(Setup(GAL, HOLES, 0))
    with pytest.raises(IllegalActionError, match="an action is an integer id"):
        s.apply_action(bad)
    with pytest.raises(IllegalActionError, match="an action is an integer id"):
        s.place(bad, 0)
    assert s.history == []


def test_numpy_integer_actions_are_fine():
    s = OrionState(Setup(GAL, HOLES, 0))
    a = np.int64(action("D2", [((1, 1), True), ((2, 1), True)]))
    s.apply_action(a)
    assert s.history == [int(a)] and type(s.history[0]) is int


def test_legal_actions_agree_with_the_rule_check_of_each_action():
    s = OrionState(seed=21)
    r = RandomAgent(21)
    for _ in range(9):
        s.apply_action(r(s))
    for p in (0, 1):
        direct = [a for a in range(len(GAME.placements)) if s._violation(p, a) is None]
        assert s.legal_actions(p) == direct


def test_od3_earlier_hex_of_the_colour_may_be_the_opponents():
    # RULES.md OD-3 decision: "one of your already lying hexes" = any earlier hex of that
    # colour, whoever placed it. Player 1 lays colour 0 at (1, 0) (its D1's opponent hex);
    # player 0 may then cover galaxy (0, 0) with its own colour joined to that hex.
    s = OrionState(Setup(GAL, HOLES, 1))
    s.apply_action(action("D1a", [((2, 0), True), ((1, 0), False)]))
    assert s.hex_colour((1, 0)) == 0 and s.current_player() == 0
    on_galaxy = action("S1", [((0, 0), True)])
    assert on_galaxy in s.legal_actions()
    s.apply_action(on_galaxy)
    assert s.hex_colour((0, 0)) == 0


def test_place_keeps_the_turn_and_skips_od6():
    s = OrionState(Setup(GAL, HOLES, 0))
    s.place(action("S1", [((1, 1), True)]), 1)
    s.place(action("D2", [((3, 1), True), ((3, 2), True)]), 1)
    assert s.current_player() == 1 and s.used[1].sum() == 2 and s.used[0].sum() == 0
    with pytest.raises(IllegalActionError, match="OD-2: player 1 has already placed tile S1"):
        s.place(action("S1", [((-2, 2), True)]), 1)


def test_od1_spacings_are_options():
    # a black hole next to a galaxy, then black holes 2 apart: the seed read literally
    # (>= 1 and >= 2) allows both, the default (>= 2 and >= 3) neither
    gal = ((0, 0),)
    for holes, msg in ((((1, 0), (4, 0)), "black hole \\(1, 0\\) is 1 from galaxy"),
                       (((2, 0), (4, 0)), "black holes .* 2 apart; they must be at least 3")):
        with pytest.raises(InputError, match=msg):
            validate_setup(Setup(gal, holes, 0), rules=SetupRules(1, 2))
        validate_setup(Setup(gal, holes, 0), rules=SetupRules.literal(1, 2))
    lit = SetupRules.literal()
    for seed in range(10):
        s = random_setup(seed, rules=lit)
        validate_setup(s, rules=lit)
        assert min(distance(a, b) for i, a in enumerate(s.black_holes) for b in s.black_holes[i + 1:]) >= 2
    with pytest.raises(InputError, match="galaxy spacing must be a whole number >= 1"):
        SetupRules(galaxy_spacing=0)


def test_custom_board_with_its_own_token_counts_is_playable():
    # a radius-3 hexagon (37 hexes), its 6 straight sides, 3 galaxies and 2 black holes
    full = hexagon(3)
    rules = {"N": lambda q, r: r == -3, "S": lambda q, r: r == 3, "NE": lambda q, r: q == 3,
             "SW": lambda q, r: q == -3, "NW": lambda q, r: -q - r == 3, "SE": lambda q, r: -q - r == -3}
    sides = tuple((k, tuple(h for h in full if f(*h))) for k, f in rules.items())
    board = Board(tuple(full), sides, (("N", "S"), ("NE", "SW"), ("NW", "SE")), "hexagon-3")
    game = OrionGame.get(board, None, SetupRules(3, 2))
    with pytest.raises(InputError, match="8 galaxies placed, 3 required"):
        OrionState(Setup(GAL, HOLES, 0), game)
    for seed in range(5):
        s = play_game(OrionState(game=game, seed=seed), [RandomAgent(seed), RandomAgent(seed + 9)])
        assert len(s.setup.galaxies) == 3 and len(s.setup.black_holes) == 2
        assert s.is_terminal() and len(s.history) <= game.max_moves()
    assert default_board() != board


def test_galaxy_player_is_recorded_and_checked():
    s = random_setup(4)
    assert s.galaxy_player in (0, 1) and random_setup(4) == s
    assert random_setup(4).galaxies == random_setup(4, first_player=1).galaxies
    with pytest.raises(InputError, match="galaxy player must be 0 or 1"):
        validate_setup(Setup(GAL, HOLES, 0, 2))


def test_from_board_errors():
    setup = Setup(GAL, HOLES, 0)
    with pytest.raises(InputError, match=r"hex \(9, 9\) is off the board"):
        OrionState.from_board(setup, {(9, 9): 0})
    for key in (5, None, 0.5):   # no pair of coordinates: once a raw TypeError from tuple()
        with pytest.raises(InputError, match=rf"hex {key} is not a cell \(q, r\) of the board"):
            OrionState.from_board(setup, {key: 0})
    with pytest.raises(InputError, match="colour must be 0 or 1"):
        OrionState.from_board(setup, {(0, 0): 2})
    with pytest.raises(InputError, match="unknown tile 'Z9'"):
        OrionState.from_board(setup, {}, (("Z9",), ()))


@pytest.mark.parametrize("first", [2, -1, True, 1.0])
def test_random_setup_refuses_a_first_player_that_is_no_player(first):
    # random_setup(3, first_player=2) returned a Setup of first player 2, refused only when a state was built
    # from it (True was kept as True).
    with pytest.raises(InputError, match=r"^first_player must be 0 or 1, got"):
        random_setup(3, first_player=first)


def test_random_setup_takes_a_numpy_first_player():
    s = random_setup(3, first_player=np.int64(1))
    assert s == random_setup(3, first_player=1) and type(s.first_player) is int
    validate_setup(s)


def test_a_game_of_parts_that_are_not_parts_is_one_error_naming_them():
    # OrionGame.get(None, "seed") raised AttributeError: 'str' object has no attribute 'tiles', and rules given as a
    # dict 'TypeError: unhashable type: dict' from the cache.
    from ubongo_cp.games.orion.tiles import load_tiles

    with pytest.raises(InputError, match=r"^tiles must be a TileSet \(e.g. load_tiles\('seed'\)\) or None .*got str"):
        OrionGame.get(None, "seed")
    with pytest.raises(InputError, match=r"^rules must be a SetupRules .*got dict"):
        OrionGame.get(None, None, {"galaxies": 8})
    with pytest.raises(InputError, match=r"^board must be a Board .*got int"):
        OrionGame(5, load_tiles("seed"))
    assert OrionGame.get(None, load_tiles("seed")) is OrionGame.get(None, load_tiles("seed"))   # still cached
    assert len(OrionGame.get().placements) == 6355                                              # docs/orion.md


def test_from_board_takes_numpy_integers_as_colours_and_player():
    # A position read from numpy arrays: 'player to move must be 0 or 1, got np.int64(1)' and 'colour must be 0 or
    # 1, got np.int64(0)' before; it is the position of the same plain ints.
    setup = Setup(GAL, HOLES, 0)
    cols = {(0, 0): 0, (1, 0): 1, (2, -1): 1}
    plain = OrionState.from_board(setup, cols, (("D2",), ("D1a",)), to_move=1)
    numpy = OrionState.from_board(setup, {h: np.int64(c) for h, c in cols.items()}, (("D2",), ("D1a",)),
                                  to_move=np.int64(1))
    assert numpy.current_player() == plain.current_player() == 1
    assert numpy.legal_actions() == plain.legal_actions() and (numpy.colour == plain.colour).all()
    for bad in ({"to_move": True}, {"colours": {(0, 0): np.True_}}):
        with pytest.raises(InputError, match="must be 0 or 1"):
            OrionState.from_board(setup, bad.get("colours", cols), to_move=bad.get("to_move", 0))


def test_state_shows_itself_as_a_picture():
    s = OrionState(Setup(GAL, HOLES, 0))
    s.apply_action(action("D2", [((1, 1), True), ((2, 1), True)]))
    png = s._repr_png_()
    svg = s._repr_svg_()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 5_000
    assert svg.lstrip().startswith("<?xml") and "<svg" in svg


@pytest.mark.parametrize("engine", ["OrionState", "BitOrionState"])
def test_a_setup_that_is_not_one_is_one_error_naming_it(engine):
    # AttributeError: 'int' object has no attribute 'galaxies', before
    from ubongo_cp.games.orion import bitboard, state

    make = getattr(state, engine, None) or getattr(bitboard, engine)
    for setup in (3, {"galaxies": [], "black_holes": [], "first_player": 0}):
        with pytest.raises(InputError, match=r"^a setup is a Setup \(galaxies, black holes, first player; "
                                             rf"random_setup\(seed\) makes one\), got {type(setup).__name__}$"):
            make(setup)


def test_why_illegal_gives_apply_actions_reason_and_none_for_a_legal_move():
    # why_illegal said "not legal" of a legal move and of True, raised TypeError for 2.5 or '3', and named OD-2
    # for a move of a finished game, where apply_action says the game is over.
    s = OrionState(Setup(GAL, HOLES, 0))
    first = s.legal_actions()[0]
    assert s.why_illegal(first) is None and s.why_illegal(np.int64(first)) is None
    for bad, kind in ((2.5, "float"), (True, "bool"), ("3", "str"), (None, "NoneType")):
        assert s.why_illegal(bad) == f"an action is an integer id, not a {kind}"
        with pytest.raises(IllegalActionError) as err:   # the reason apply_action gives, word for word
            s.apply_action(bad)
        assert str(err.value) == f"illegal action {bad!r}: {s.why_illegal(bad)}"
    assert s.why_illegal(-1) == "no such action, the ids are 0..6354 (OD-2)"
    with pytest.raises(IllegalActionError) as err:
        s.apply_action(-1)
    assert str(err.value).endswith(s.why_illegal(-1))
    s.apply_action(first)
    s.apply_action(s.legal_actions()[0])
    name = s.game.tiles.tiles[s.game.placements[first].tile].name
    again = next(a for a in range(len(s.game.placements))
                 if s.game.placements[a].tile == s.game.placements[first].tile and a not in s.legal_actions())
    assert s.why_illegal(again).startswith(f"OD-2: player 0 has already placed tile {name}")
    play_game(s, [RandomAgent(0), RandomAgent(1)])
    assert s.is_terminal() and s.why_illegal(first) == f"the game is over ({s.end_rule})"
    assert s.end_rule in ("OD-5", "OD-6", "OD-7")
    with pytest.raises(IllegalActionError, match=rf"the game is over \({s.end_rule}\)$"):
        s.apply_action(first)


@pytest.mark.parametrize("make", [OrionState, BitOrionState, PieOrionState], ids=["reference", "bitmask", "pie"])
def test_every_orion_state_has_a_picture(make):
    # The engine contract: picture() returns a matplotlib Figure. OrionState's was the base class's None (only
    # Jupyter's _repr_png_ drew), and the bitmask engine (OpenSpiel's) and the pie variant showed no picture.
    from IPython.core.formatters import DisplayFormatter
    from matplotlib.figure import Figure

    state = make(seed=3)
    state.apply_action(state.legal_actions()[0])
    assert isinstance(state.picture(), Figure)
    data, _ = DisplayFormatter().format(state)
    assert data["image/png"][:8] == b"\x89PNG\r\n\x1a\n" and data["image/svg+xml"].lstrip().startswith("<")
    assert data["text/plain"]
