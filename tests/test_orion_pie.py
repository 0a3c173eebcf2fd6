"""Orion Duel with the pie (swap) rule (``games/orion/pie.py``): the swap turn's legal actions and the seats."""

import numpy as np
import pytest

from ubongo_cp.errors import IllegalActionError
from ubongo_cp.games.base import TERMINAL, RandomAgent, play_game
from ubongo_cp.games.orion import BitOrionState, OrionState
from ubongo_cp.games.orion.pie import PieOrionState, swap_action


@pytest.mark.parametrize("engine", [OrionState, BitOrionState])
def test_the_swap_is_legal_exactly_in_the_second_players_first_turn(engine):
    s = PieOrionState(engine(seed=6))
    swap = swap_action(s.inner)
    assert swap == len(s.game.placements) and swap not in s.legal_actions()   # not before the first tile
    first = s.legal_actions()[10]
    s.apply_action(first)
    assert s.current_player() == 1 - s.first
    legal = s.legal_actions()
    assert legal == s.inner.legal_actions() + [swap] and legal == sorted(legal)   # every placement, and the swap
    other = s.clone()
    other.apply_action(legal[0])                                  # declining: no swap any more
    assert swap not in other.legal_actions() and not other.swapped
    with pytest.raises(IllegalActionError, match="swap is legal only"):
        other.apply_action(swap)
    s.apply_action(swap)                                          # taking the first tile over
    assert s.swapped and s.history == [first, swap] and s.inner.history == [first]
    assert s.current_player() == s.first and s.inner.current_player() == 1 - s.first   # seat 0 now plays colour 1
    assert swap not in s.legal_actions() and s.legal_actions() == s.inner.legal_actions()


def test_returns_follow_the_seats():
    for seed in range(6):
        rng = np.random.default_rng(seed)
        s = PieOrionState(seed=seed)
        s.apply_action(s.legal_actions()[int(rng.integers(100))])
        s.apply_action(swap_action(s.inner) if seed % 2 else s.legal_actions()[0])
        play_game(s, [RandomAgent(seed), RandomAgent(seed + 1)])
        assert s.current_player() == TERMINAL
        inner = s.inner.returns()
        assert s.returns() == (inner[::-1] if seed % 2 else inner)
        assert len(s.history) <= s.max_game_length() == s.inner.max_game_length() + 1 == 29


@pytest.mark.parametrize("engine", [OrionState, BitOrionState])
def test_the_pie_rule_wraps_a_game_before_its_first_move_only(engine):
    # The swap takes over the game's first tile. A game wrapped after some moves once offered the swap after
    # the next tile, not the first, and its record (which puts the swap after move 1) did not load.
    from ubongo_cp.errors import InputError

    inner = engine(seed=6)
    inner.apply_action(inner.legal_actions()[0])
    with pytest.raises(InputError, match=r"the pie rule wraps a game before its first move; this one has 1 move"):
        PieOrionState(inner)
    assert PieOrionState(engine(seed=6)).legal_actions() == engine(seed=6).legal_actions()


def test_the_pie_rule_wraps_only_an_orion_game():
    # PieOrionState(new_game()) wrapped a game of Domino (its seats, legal actions and a swap id of Orion's), and
    # PieOrionState("x") raised "AttributeError: 'str' object has no attribute '_history'".
    from ubongo_cp.errors import InputError
    from ubongo_cp.games.domino.state import new_game

    for inner, kind in ((new_game(), "DominoState"), ("x", "str")):
        with pytest.raises(InputError, match=rf"^the pie rule wraps an Orion Duel game .*, got {kind}$"):
            PieOrionState(inner)
