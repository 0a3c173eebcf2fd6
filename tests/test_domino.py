"""Tests of the Domino, nezlob se! engine (rules DN-1 ... DN-12, RULES.md section 5).

Layers (OpenSpiel style): one test per rule on a hand-built position with the
outcome worked out by hand in the comments; decisions of RULES.md; hidden
information; seeded random-play conformance (sorted unique legal actions,
legality agrees with ``why_illegal``, clone and pickle, bounded length);
game records (replay, bad records); agents; simulation statistics; CLI.
"""

from __future__ import annotations

import json
import pickle

import numpy as np
import pytest

from ubongo_cp.errors import IllegalActionError, InputError, UbongoError
from ubongo_cp.games.base import TERMINAL, RandomAgent, load_record, play_game, record_of, replay_record, save_record
from ubongo_cp.games.domino.actions import (
    END_TURN, HAND_SIZE, NUM_ACTIONS, NUM_DOMINOES, OFF, OUT, action_name, decode_attach, encode_attach,
    encode_swap, is_attach, is_swap, parse_domino,
)
from ubongo_cp.games.domino.state import DominoSettings, DominoState, new_game

D = parse_domino


def at_end(name: str, touch: int) -> int:
    """Attach ``name`` at the end with its ``touch`` half against the path."""
    lo, hi = sorted(int(x) for x in name.split("-"))
    return encode_attach(D(name), 0, 0 if lo == touch else 1)


def before(name: str, touch: int) -> int:
    """Attach ``name`` before the start with its ``touch`` half against the path (DN-7)."""
    lo, hi = sorted(int(x) for x in name.split("-"))
    return encode_attach(D(name), 1, 0 if lo == touch else 1)


def deal(start: str, hands: list[list[str]], settings: DominoSettings | None = None,
         stock: list[str] | None = None) -> DominoState:
    """A fresh game from a deal; the stock is every other domino in id order unless given."""
    settings = settings or DominoSettings(num_players=len(hands))
    used = {D(start)} | {D(x) for h in hands for x in h}
    rest = [d for d in range(NUM_DOMINOES) if d not in used] if stock is None else [D(x) for x in stock]
    return DominoState.from_deal(settings, D(start), [[D(x) for x in h] for h in hands], rest)


def position(path: list[str], pawns: list[int], hands: list[list[str]], *, start: int = 0,
             cur: int = 0, top: tuple[str, ...] = (), empty_stock: bool = False,
             settings: DominoSettings | None = None) -> DominoState:
    """A hand-built mid-game position.

    ``path`` lists the dominoes as ``"a|b"`` in path order; pawns are field
    indices, OFF or OUT. The stock holds every unused domino, ``top`` first,
    the rest in id order; with ``empty_stock`` the unused dominoes are left
    out of the game (only for rule checks that do not count dominoes).
    """
    settings = settings or DominoSettings(num_players=len(pawns))
    s = new_game(settings, seed=0)
    syms, ids = [], []
    for t in path:
        a, b = (int(x) for x in t.split("|"))
        syms += [a, b]
        ids.append(D(f"{a}-{b}"))
    hand_ids = [[D(x) for x in h] for h in hands]
    used = ids + [d for h in hand_ids for d in h]
    first = [D(x) for x in top]
    stock_ids = first + [d for d in range(NUM_DOMINOES) if d not in used and d not in first]
    assert sorted(used + stock_ids) == list(range(NUM_DOMINOES)), "test position must hold 21 dominoes"
    if empty_stock:
        stock_ids = []
    s.hands, s.stock, s.path, s.path_ids = hand_ids, stock_ids[::-1], syms, ids
    s.start, s.domina, s.pawns, s.cur = start, len(syms) - 1, list(pawns), cur
    s.entered = [p != OFF for p in pawns]
    s.all_entered = all(s.entered)
    s.eliminated = [q for q, p in enumerate(pawns) if p == OUT]
    s.on_path_at_start = s.pawns[cur] >= 0
    return s


def check_invariants(s: DominoState) -> None:
    """The property-test invariants of the issue, on any state."""
    # 21 dominoes always accounted for: stock + hands + path (DN-1).
    every = s.stock + [d for h in s.hands for d in h] + s.path_ids
    assert sorted(every) == list(range(NUM_DOMINOES))
    # The path is one chain of dominoes, equal symbols at every joint (DN-3).
    assert len(s.path) == 2 * len(s.path_ids)
    for i, d in enumerate(s.path_ids):
        assert tuple(sorted(s.path[2 * i: 2 * i + 2])) == s.dominoes[d]
    if s.direction_set:
        for i in range(1, len(s.path_ids)):
            assert s.path[2 * i - 1] == s.path[2 * i], f"joint {i} of {s.path}"
        # Domina stands on the last field (DN-7); the start field is a field.
        assert s.domina == len(s.path) - 1
        assert 0 <= s.start <= s.domina and s.start % 2 == 0
    else:
        assert len(s.path_ids) == 1 and all(p == OFF for p in s.pawns)
    # No two pawns share a field, and pawns stand between start and Domina.
    on = [p for p in s.pawns if p >= 0] + s.blocked
    assert len(on) == len(set(on))
    assert all(s.start <= p <= s.domina for p in on)
    assert all(len(h) <= HAND_SIZE for h in s.hands)
    r = s.returns()
    assert all(x >= 0 for x in r) and sum(r) <= 1 + 1e-9


# ---------------------------------------------------------------------------
# one test per rule


@pytest.mark.parametrize("n, stock", [(2, 14), (3, 11), (4, 8)])
def test_dn1_setup_deal(n, stock):
    # DN-1: one start domino, 3 per hand, 21 - 1 - 3n face down.
    s = new_game(DominoSettings(num_players=n), seed=7)
    assert len(s.path_ids) == 1 and [len(h) for h in s.hands] == [3] * n
    assert len(s.stock) == stock
    check_invariants(s)
    assert s.pawns == [OFF] * n and not s.direction_set
    assert s.current_player() == 0                        # decision: seat 0 starts
    other = new_game(DominoSettings(num_players=n), seed=8)
    assert (s.deal != other.deal) and new_game(DominoSettings(num_players=n), seed=7).deal == s.deal


def test_dn1_bad_deals_are_input_errors():
    with pytest.raises(InputError, match=r"hand 1 has 2 dominoes.*DN-1"):
        DominoState.from_deal(DominoSettings(num_players=2), "0-0", [["0-1", "0-2", "0-3"], ["0-4", "0-5"]],
                              [f"{a}-{b}" for a in range(1, 6) for b in range(a, 6)] + ["1-1"])
    with pytest.raises(InputError, match=r"duplicated ids \[1\].*DN-1"):
        deal("0-0", [["0-1", "0-2", "0-3"], ["0-1", "0-4", "0-5"]])
    with pytest.raises(InputError, match="not in the double-five set"):
        deal("6-6", [["0-1", "0-2", "0-3"], ["1-4", "0-4", "0-5"]])


def test_dn2_first_attachment_sets_direction():
    s = deal("2-4", [["4-5", "1-2", "0-0"], ["3-3", "0-1", "0-3"]])
    # 4-5 touches the high half 4 (side 0, low half 4 against it); 1-2 touches
    # the low half 2 (side 1, its high half 2 against it); 0-0 fits nowhere.
    a45, a12 = at_end("4-5", 4), encode_attach(D("1-2"), 1, 1)
    swaps = [encode_swap(D(x)) for x in ("4-5", "1-2", "0-0")]
    assert s.legal_actions() == sorted([a45, a12, *swaps, END_TURN])
    assert s.action_to_string(a12) == "attach 1-2 to start half 2 as 2|1"
    t = s.clone()
    s.apply_action(a45)
    # Path runs from the start domino to 4-5: start field 2, goal field 5.
    assert s.path == [2, 4, 4, 5] and (s.start, s.domina) == (0, 3)
    assert s.pawns == [0, OFF]                            # DN-5, no further move
    t.apply_action(a12)
    assert t.path == [4, 2, 2, 1] and (t.start, t.domina) == (0, 3) and t.pawns == [0, OFF]
    check_invariants(s), check_invariants(t)


def test_dn2_first_player_who_cannot_attach_loses_turn():
    s = deal("2-4", [["0-0", "1-1", "3-3"], ["4-5", "0-1", "0-3"]])
    assert [a for a in s.legal_actions() if is_attach(a)] == []
    s.apply_action(END_TURN)
    assert s.current_player() == 1 and not s.direction_set and s.pawns == [OFF, OFF]
    s.apply_action(at_end("4-5", 4))
    assert s.path == [2, 4, 4, 5] and s.pawns == [OFF, 0]


def test_dn2_first_player_who_loses_the_turn_may_still_swap():
    # RULES.md decision: the first player who cannot attach (DN-2: the turn is lost)
    # may still swap a domino with the stock (DN-10) instead of only ending the turn.
    s = deal("2-4", [["0-0", "1-1", "3-3"], ["4-5", "0-1", "0-3"]])
    swaps = [a for a in s.legal_actions() if is_swap(a)]
    assert sorted(swaps) == sorted(encode_swap(D(x)) for x in ("0-0", "1-1", "3-3"))
    top = s.stock[-1]
    s.apply_action(encode_swap(D("1-1")))
    assert sorted(s.hands[0]) == sorted([D("0-0"), D("3-3"), top])
    assert s.current_player() == 1 and not s.direction_set and s.pawns == [OFF, OFF]


def test_dn2_double_start_domino_offers_one_side():
    s = deal("3-3", [["3-5", "0-0", "1-1"], ["4-5", "0-1", "0-3"]])
    assert [a for a in s.legal_actions() if is_attach(a)] == [at_end("3-5", 3)]
    with pytest.raises(IllegalActionError, match="DN-2"):
        s.apply_action(encode_attach(D("3-5"), 1, 0))


def test_dn3_equal_symbols_only_and_no_branch():
    s = position(["2|4", "4|5"], [0, OFF], [["1-5", "3-3", "0-2"], ["0-0", "1-1", "2-2"]])
    assert [a for a in s.legal_actions() if is_attach(a)] == [at_end("1-5", 5)]
    with pytest.raises(IllegalActionError, match=r"3-3 touches with 3 but the path shows 5 there \(DN-3\)"):
        s.apply_action(at_end("3-3", 3))
    with pytest.raises(IllegalActionError, match="DN-3"):
        s.apply_action(encode_attach(D("0-2"), 0, 1))      # 2 against 5
    with pytest.raises(IllegalActionError, match="not in player 0's hand"):
        s.apply_action(at_end("5-5", 5))
    s.apply_action(at_end("1-5", 5))
    assert s.path == [2, 4, 4, 5, 5, 1]                   # one chain, joints 4=4, 5=5
    check_invariants(s)


def test_dn4_turn_attaches_at_most_two_and_round_counts():
    # P0 on field 1, P1 on field 0, Domina on field 3. P0 holds 5-5, 0-5, 0-0:
    # a chain of three, but a turn attaches at most two.
    s = position(["2|4", "4|5"], [1, 0], [["5-5", "0-5", "0-0"], ["1-1", "1-2", "1-3"]],
                 top=("2-3",))
    s.apply_action(at_end("5-5", 5))
    assert s.current_player() == 0 and s.attached == 1
    assert END_TURN in s.legal_actions() and at_end("0-5", 5) in s.legal_actions()
    s.apply_action(at_end("0-5", 5))
    # Turn over after two: path 2|4 4|5 5|5 5|0, Domina on field 7; P0 moved
    # 4 fields from 1 (fields 2..5, none occupied) to 5; drew 2-3 (DN-9).
    assert s.path == [2, 4, 4, 5, 5, 5, 5, 0] and s.domina == 7
    assert s.pawns == [5, 0] and s.current_player() == 1 and s.round == 1
    assert sorted(s.hands[0]) == sorted([D("0-0"), D("2-3")])
    s.apply_action(END_TURN)                              # P1: nothing, moves 1
    assert s.pawns == [5, 1] and s.round == 2 and s.current_player() == 0


def test_dn5_entering_on_next_free_field():
    s = deal("2-4", [["4-5", "0-0", "0-2"], ["1-5", "1-1", "0-3"]])
    s.apply_action(at_end("4-5", 4))                      # P0 enters on start field 0
    s.apply_action(at_end("1-5", 5))                      # P1: start taken -> field 1
    assert s.path == [2, 4, 4, 5, 5, 1] and s.pawns == [0, 1]
    # P1 entered this turn: no second domino (1-1 would fit the new end 1, DN-6)
    assert s.current_player() == 0 and D("1-1") in s.hands[1]
    s.apply_action(END_TURN)                              # P0 moves 1: field 1 taken, lands on 2
    assert s.pawns == [2, 1]


def test_dn5_later_pawn_enters_behind_a_pawn_that_moved_on():
    # DN-5 "the start field, or the next free field": behind the first pawn once it has moved.
    s = deal("2-4", [["4-5", "0-0", "0-2"], ["1-5", "1-1", "0-3"]])
    s.apply_action(at_end("4-5", 4))                      # P0 enters on the start field 0
    s.apply_action(END_TURN)                              # P1 attaches nothing, stays off the path
    s.apply_action(END_TURN)                              # P0 moves 1 field: 0 -> 1 (DN-8)
    assert s.pawns == [1, OFF]
    s.apply_action(at_end("1-5", 5))                      # P1 enters on the free start field
    assert s.pawns == [1, 0]


def test_dn6_second_domino_continues_the_first():
    s = position(["2|4", "4|5", "5|1"], [1, 3], [["0-2", "1-3", "0-4"], ["2-2", "3-3", "4-4"]])
    s.apply_action(before("0-2", 2))                      # all entered: before the start
    acts = s.legal_actions()
    assert acts == sorted([before("0-4", 0), END_TURN])   # 1-3 fits the end, not this row
    assert s.why_illegal(at_end("1-3", 1)) == "the second domino must continue from the first in a row (DN-6)"
    with pytest.raises(IllegalActionError, match="DN-6"):
        s.apply_action(at_end("1-3", 1))


def test_dn6_pawn_must_be_on_path_at_turn_start():
    s = deal("2-4", [["4-5", "5-5", "0-0"], ["1-2", "1-1", "0-3"]])
    s.apply_action(at_end("4-5", 4))                      # entering turn: 5-5 fits, still ends
    assert s.current_player() == 1 and s.path == [2, 4, 4, 5]


def test_dn7_domina_moves_with_end_attachment_not_with_front():
    s = position(["2|4", "4|5", "5|1"], [1, OFF], [["1-3", "0-2", "4-4"], ["2-2", "3-3", "0-0"]])
    # Not every pawn is on the path: nothing before the start.
    assert s.why_illegal(before("0-2", 2)) == "attaching before the start needs every pawn on the path (DN-7)"
    s.apply_action(at_end("1-3", 1))
    assert s.domina == 7 == len(s.path) - 1               # Domina to the new last field
    assert s.pawns[0] == 3                                # 2 fields from field 1
    t = position(["2|4", "4|5", "5|1"], [1, 3], [["1-3", "0-2", "4-4"], ["2-2", "3-3", "0-0"]])
    t.apply_action(before("0-2", 2))
    # Path 0|2 2|4 4|5 5|1: start field moves to index 2, Domina keeps her
    # field (index 7, still the last one). P1: field 5, 2 from Domina as
    # before. P0 from 3 moves 2: field 4 free, 5 taken, 6 free -> 6.
    assert t.path == [0, 2, 2, 4, 4, 5, 5, 1] and t.start == 2 and t.domina == 7
    assert t.path[t.domina] == 1 and t.pawns == [6, 5]
    check_invariants(t)


def test_dn7_a_fallen_pawn_counts_as_on_the_path():
    # RULES.md decision: a pawn that fell off (DN-11, OUT) counts as having been on the
    # path for DN-7's "every pawn is on the path"; a pawn still waiting (OFF) does not.
    s = position(["2|4", "4|5", "5|1"], [OUT, 3], [["1-3", "0-2", "4-4"], ["2-2", "3-3", "0-0"]])
    assert s.why_illegal(before("0-2", 2)) is None and before("0-2", 2) in s.legal_actions()
    s.apply_action(before("0-2", 2))
    assert s.path == [0, 2, 2, 4, 4, 5, 5, 1] and s.start == 2 and s.pawns[0] == OUT
    t = position(["2|4", "4|5", "5|1"], [OFF, 3], [["1-3", "0-2", "4-4"], ["2-2", "3-3", "0-0"]])
    assert before("0-2", 2) not in t.legal_actions()


@pytest.mark.parametrize("attach, expected", [((), 4), (("0-3",), 6), (("0-3", "3-3"), 8)])
def test_dn8_moves_1_2_4_jumping_pawns(attach, expected):
    # Fields 0..11; P0 on 2, P1 on 3, P2 on 5. Counting free fields only:
    # 1 step -> 4; 2 steps -> 4, 6; 4 steps -> 4, 6, 7, 8.
    s = position(["0|1", "1|2", "2|3", "3|4", "4|5", "5|0"], [2, 3, 5],
                 [["0-3", "3-3", "1-1"], ["2-2"], ["4-4"]])
    touch = 0
    for name in attach:
        s.apply_action(at_end(name, touch))
        touch = 3
    if s.current_player() == 0:
        s.apply_action(END_TURN)
    assert s.pawns == [expected, 3, 5]


def test_dn8_pawn_off_the_path_does_not_move():
    s = position(["2|4", "4|5"], [OFF, 0], [["0-0", "1-1", "3-3"], ["2-2", "0-1", "0-2"]])
    s.apply_action(END_TURN)
    assert s.pawns == [OFF, 0]


def test_dn9_draw_after_attaching_only_while_stock_lasts():
    s = position(["2|4", "4|5"], [1, 0], [["1-5", "0-0", "3-3"], ["2-2", "1-1", "0-2"]], top=("2-5",))
    s.apply_action(at_end("1-5", 5))
    assert sorted(s.hands[0]) == sorted([D("0-0"), D("3-3"), D("2-5")]) and len(s.stock) == 12
    s.apply_action(END_TURN)                              # P1 attached nothing, holds 3: no draw
    assert len(s.hands[1]) == 3 and len(s.stock) == 12
    e = position(["2|4", "4|5"], [1, 0], [["1-5", "0-0", "3-3"], ["2-2", "1-1", "0-2"]], empty_stock=True)
    e.apply_action(at_end("1-5", 5))
    assert sorted(e.hands[0]) == sorted([D("0-0"), D("3-3")])


def test_dn10_swap_conditions_and_effect():
    s = position(["2|4", "4|5"], [1, 0], [["0-0", "1-1", "3-3"], ["2-2", "1-2", "0-2"]])
    top = s.stock[-1]
    s.apply_action(encode_swap(D("1-1")))
    depth = s.swap_depths[-1]
    assert sorted(s.hands[0]) == sorted([D("0-0"), D("3-3"), top])
    assert s.stock[len(s.stock) - 1 - depth] == D("1-1") and len(s.stock) == 13
    assert s.pawns == [2, 0] and s.current_player() == 1  # nothing attached: moves 1
    t = position(["2|4", "4|5"], [1, 0], [["5-5", "0-5", "3-3"], ["2-2", "1-2", "0-2"]])
    t.apply_action(at_end("5-5", 5))
    assert not any(is_swap(a) for a in t.legal_actions())
    assert t.why_illegal(encode_swap(D("3-3"))) == "a swap needs a turn without attachment (DN-10)"
    u = position(["2|4", "4|5"], [1, 0], [["0-0", "3-3"], ["2-2", "1-2", "0-2"]])
    assert "DN-10" in u.why_illegal(encode_swap(D("0-0"))) and u.legal_actions() == [END_TURN]


def test_dn10_no_swap_with_empty_stock():
    s = position(["2|4", "4|5"], [1, 0], [["0-0", "1-1", "3-3"], ["2-2", "1-2", "0-2"]], empty_stock=True)
    assert encode_swap(D("0-0")) not in s.legal_actions()
    assert s.why_illegal(encode_swap(D("0-0"))) == "the stock is empty (DN-10)"


def test_dn11_exact_finish_wins():
    s = position(["2|4", "4|5", "5|1"], [4, 0], [["0-0", "3-3", "2-2"], ["1-1", "0-2", "1-2"]])
    s.apply_action(END_TURN)                              # field 4 -> 5 = Domina
    assert s.is_terminal() and s.current_player() == TERMINAL and s.legal_actions() == []
    assert s.returns() == [1.0, 0.0] and s.end_reason == "finish" and s.winners() == [0]
    with pytest.raises(IllegalActionError, match="game is over"):
        s.apply_action(END_TURN)


def test_dn11_overshoot_falls_off_and_field_is_free():
    # P0 on 4, one field before Domina (5); attaching before the start moves 2: off.
    s = position(["2|4", "4|5", "5|1"], [4, 0], [["0-2", "3-3", "1-3"], ["1-1", "0-3", "1-2"]])
    s.apply_action(before("0-2", 2))
    assert s.pawns == [OUT, 2] and s.eliminated == [0] and not s.is_terminal()
    s.apply_action(END_TURN)                              # P1 2 -> 3
    assert s.current_player() == 1 and s.pawns == [OUT, 3]   # P0 is skipped
    s.apply_action(END_TURN)                              # 3 -> 4
    assert s.pawns == [OUT, 4] and s.round == 3
    s.apply_action(END_TURN)                              # 4 -> 5
    s.apply_action(END_TURN)                              # P0's old field 6 is free: 5 -> 6
    assert s.pawns == [OUT, 6] and not s.is_terminal()
    s.apply_action(END_TURN)                              # 6 -> 7 = Domina
    assert s.returns() == [0.0, 1.0]


def test_dn11_eliminated_field_blocked_option():
    st = DominoSettings(num_players=2, eliminated_field_free=False)
    s = position(["2|4", "4|5", "5|1"], [4, 0], [["0-2", "3-3", "1-3"], ["1-1", "0-3", "1-2"]], settings=st)
    s.apply_action(before("0-2", 2))
    assert s.blocked == [6]                               # field 4 shifted by the front domino
    s.apply_action(END_TURN)
    s.apply_action(END_TURN)
    s.apply_action(END_TURN)                              # P1: 2 -> 3 -> 4 -> 5
    assert s.pawns == [OUT, 5]
    s.apply_action(END_TURN)                              # 5 -> jumps the blocked 6 -> 7 = Domina
    assert s.returns() == [0.0, 1.0]


@pytest.mark.parametrize("rule, expected", [("nobody", [0.0, 0.0]), ("last_out", [1.0, 0.0])])
def test_dn11_every_pawn_out(rule, expected):
    st = DominoSettings(num_players=2, all_out_winner=rule)
    s = position(["2|4", "4|5", "5|1"], [4, OUT], [["0-2", "3-3", "1-3"], ["1-1", "0-3", "1-2"]], settings=st)
    s.apply_action(before("0-2", 2))
    assert s.is_terminal() and s.end_reason == "all_out" and s.returns() == expected


def test_dn12_stalled_round_nearest_pawn_wins():
    s = position(["0|1", "1|2", "2|3", "3|4", "4|5", "5|0"], [6, 2],
                 [["2-2", "3-3", "4-4"], ["1-1", "2-4", "1-3"]], empty_stock=True)
    # P0 6 -> 7 (4 free fields to Domina), P1 2 -> 3 (8 free): one round, no attachment.
    s.apply_action(END_TURN)
    assert not s.is_terminal() and s.stall == 1
    s.apply_action(END_TURN)
    assert s.is_terminal() and s.end_reason == "stalled" and s.returns() == [1.0, 0.0]


def test_dn12_needs_empty_stock():
    s = position(["0|1", "1|2", "2|3", "3|4", "4|5", "5|0"], [6, 2],
                 [["2-2", "3-3", "4-4"], ["1-1", "2-4", "1-3"]])
    s.apply_action(END_TURN)
    s.apply_action(END_TURN)
    assert not s.is_terminal() and s.stall == 0


@pytest.mark.parametrize("distance, ties, expected", [
    ("free_fields", "share", [0.5, 0.5]),
    ("free_fields", "nobody", [0.0, 0.0]),
    ("fields", "share", [0.0, 1.0]),
])
def test_dn12_ties(distance, ties, expected):
    # P0 on 4, P1 on 5, Domina on 11. P0 jumps P1: 4 -> 6; P1 5 -> 7.
    # Free fields to Domina: P0 8..11 = 4 (7 taken), P1 8..11 = 4: a tie.
    # Plain fields: P0 5, P1 4: P1 is nearer.
    st = DominoSettings(num_players=2, stall_distance=distance, stall_ties=ties)
    s = position(["0|1", "1|2", "2|3", "3|4", "4|5", "5|0"], [4, 5],
                 [["2-2", "3-3", "4-4"], ["1-1", "2-4", "1-3"]], settings=st, empty_stock=True)
    s.apply_action(END_TURN)
    s.apply_action(END_TURN)
    assert s.pawns == [6, 7] and s.end_reason == "stalled" and s.returns() == expected


def test_dn12_queue_of_pawns_is_won_by_the_nearest_counting_occupied_fields():
    # RULES.md DN-12: a queue of pawns 6, 5, 4 and 3 fields from Domina is won by the pawn 3 away
    # (fields holding other pawns count). Counting only free fields (as a DN-8 move does) every pawn
    # of the queue is 3 free fields away: a four-way tie, the old default.
    from ubongo_cp.games.domino.sim import play_one
    _, s = play_one(["careful"] * 4, 183644244059912840)
    assert s.end_reason == "stalled" and [s.fields_to_domina(q) for q in range(4)] == [6, 5, 4, 3]
    assert [s.free_fields_to_domina(q) for q in range(4)] == [3, 3, 3, 3]
    assert s.returns() == [0.0, 0.0, 0.0, 1.0] and DominoSettings().stall_distance == "fields"
    _, t = play_one(["careful"] * 4, 183644244059912840, DominoSettings(stall_distance="free_fields"))
    assert t.history == s.history and t.returns() == [0.25] * 4


def test_dn12_attachment_resets_the_round():
    s = position(["0|1", "1|2", "2|3", "3|4", "4|5", "5|0"], [2, 6],
                 [["0-0", "3-3", "4-4"], ["1-1", "2-4", "1-3"]], empty_stock=True)
    s.apply_action(END_TURN)                              # P0: nothing (stall 1)
    s.apply_action(END_TURN)                              # P1: nothing -> stalled
    assert s.is_terminal()
    t = position(["0|1", "1|2", "2|3", "3|4", "4|5", "5|0"], [6, 2],
                 [["0-0", "3-3", "4-4"], ["1-1", "2-4", "1-3"]], cur=1, empty_stock=True)
    t.apply_action(END_TURN)                              # P1 nothing (stall 1)
    t.apply_action(at_end("0-0", 0))                      # P0 attaches (stall 0)
    assert t.stall == 0 and not t.is_terminal()
    t.apply_action(END_TURN)
    assert not t.is_terminal() and t.stall == 1


# ---------------------------------------------------------------------------
# decisions of RULES.md section 5, settings, actions


def test_decision_first_player_and_must_attach():
    s = new_game(DominoSettings(num_players=3, first_player=2), seed=1)
    assert s.current_player() == 2
    st = DominoSettings(num_players=2, may_decline=False)
    s = position(["2|4", "4|5"], [1, 0], [["1-5", "0-0", "3-3"], ["2-2", "1-2", "0-2"]], settings=st)
    assert s.legal_actions() == [at_end("1-5", 5)]
    with pytest.raises(IllegalActionError, match="may_decline"):
        s.apply_action(END_TURN)
    t = position(["2|4", "4|5"], [1, 0], [["1-1", "0-0", "3-3"], ["2-2", "1-2", "0-2"]], settings=st)
    assert END_TURN in t.legal_actions()                  # nothing fits: passing is allowed


def test_settings_validation():
    for bad in (dict(num_players=5), dict(domino_set="double-six"), dict(first_player=4),
                dict(all_out_winner="x"), dict(stall_ties="x"), dict(stall_distance="x"),
                dict(max_rounds=0)):
        with pytest.raises(InputError):
            DominoSettings(**bad)


@pytest.mark.parametrize("bad, msg", [
    (dict(may_decline="no"), r"may_decline must be True or False, got 'no'"),        # "no" read as true before
    (dict(may_decline=0), r"may_decline must be True or False, got 0"),
    (dict(eliminated_field_free=None), r"eliminated_field_free must be True or False, got None"),
    (dict(max_rounds=True), r"max_rounds must be a whole number of at least 1, got True"),
    (dict(max_rounds=2.5), r"max_rounds must be a whole number of at least 1, got 2.5"),
    (dict(first_player=False), r"first_player must be a seat 0\.\.3, got False"),
    (dict(first_player=-1), r"first_player must be a seat 0\.\.3, got -1"),
    (dict(num_players=2.0), r"num_players must be a whole number, got 2.0"),
    (dict(domino_set=["double-five"]), r"unknown domino_set \['double-five'\]"),
])
def test_settings_refuse_values_of_the_wrong_type(bad, msg):
    with pytest.raises(InputError, match=msg):
        DominoSettings(**bad)


def test_settings_keep_numpy_values_as_plain_ones():
    st = DominoSettings(num_players=np.int64(2), first_player=np.int64(1), may_decline=np.bool_(False),
                        max_rounds=np.int64(7))
    assert (st.num_players, st.first_player, st.may_decline, st.max_rounds) == (2, 1, False, 7)
    assert [type(v) for v in (st.num_players, st.first_player, st.may_decline, st.max_rounds)] == [int, int, bool, int]


def test_one_to_six_set():
    s = new_game(DominoSettings(num_players=2, domino_set="one-to-six"), seed=3)
    symbols = {x for d in range(NUM_DOMINOES) for x in s.dominoes[d]}
    assert symbols == {1, 2, 3, 4, 5, 6}
    check_invariants(s)


def test_action_encoding_round_trip():
    ids = set()
    for d in range(NUM_DOMINOES):
        for side in (0, 1):
            for flip in (0, 1):
                a = encode_attach(d, side, flip)
                assert decode_attach(a) == (d, side, flip)
                ids.add(a)
        ids.add(encode_swap(d))
    ids.add(END_TURN)
    assert ids == set(range(NUM_ACTIONS))
    assert action_name(at_end("2-5", 5)) == "attach 2-5 at end as 5|2"
    assert action_name(before("2-5", 5)) == "attach 2-5 before start as 2|5"


def test_hidden_hands_in_observation():
    a = deal("2-4", [["4-5", "0-0", "0-2"], ["1-5", "1-1", "0-3"]])
    stock = list(a.deal["stock"])
    # Same table, player 1 holds different dominoes (swapped with the stock).
    b = DominoState.from_deal(a.settings, a.deal["start"],
                              [a.deal["hands"][0], [stock[0], stock[1], stock[2]]],
                              [D("1-5"), D("1-1"), D("0-3"), *stock[3:]])
    assert a.observation(0) == b.observation(0)
    assert a.observation_string(0) == b.observation_string(0)
    assert a.observation(1) != b.observation(1)
    assert "? ? ?" in a.observation_string(0) and "1-1" not in a.observation_string(0)
    assert a.observation(1).hand == ((0, 3), (1, 1), (1, 5))


def test_seats_are_checked_and_a_negative_one_shows_no_hidden_hand():
    # DN-1: every hand is hidden from the others; -1 is no seat, not "the last seat".
    s = deal("2-4", [["4-5", "0-0", "0-2"], ["1-5", "1-1", "0-3"], ["3-3", "2-2", "1-2"], ["0-4", "3-4", "2-5"]])
    seat3 = s.observation(3).hand
    for player in (-1, 4, 1.0, True, "3"):
        with pytest.raises(InputError, match=r"player must be a seat 0\.\.3, got") as err:
            s.observation(player)
        assert str(seat3) not in str(err.value)
    for query in (s.observation_string, s.fields_to_domina, s.free_fields_to_domina):
        with pytest.raises(InputError, match=r"player must be a seat 0\.\.3, got 9"):
            query(9)
        with pytest.raises(InputError, match=r"player must be a seat 0\.\.3, got -1"):
            query(-1)
    assert s.observation(np.int64(3)).hand == seat3 and s.fields_to_domina(3) is None


def test_render_shows_pawns_start_and_domina():
    s = position(["2|4", "4|5", "5|1"], [1, OFF], [["1-3", "0-2", "4-4"], ["2-2", "3-3", "0-0"]])
    lines = str(s).splitlines()
    assert lines[1] == "path [2|4][4|5][5|1]"
    # "path " is 5 characters; field f sits in column 5 + 5 * (f // 2) + (1 or 3).
    assert lines[2] == "      S 0         D"
    assert "player 1: off the path" in lines[4]


# ---------------------------------------------------------------------------
# OpenSpiel-style conformance over seeded random play


def _random_play(n: int, seed: int, settings: DominoSettings | None = None, check_all: bool = False):
    settings = settings or DominoSettings(num_players=n)
    s = new_game(settings, seed=seed)
    rng = np.random.default_rng(seed)
    steps = 0
    while not s.is_terminal():
        acts = s.legal_actions()
        assert acts == sorted(set(acts)) and acts and all(0 <= a < NUM_ACTIONS for a in acts)
        if check_all:
            assert acts == [a for a in range(NUM_ACTIONS) if s.why_illegal(a) is None]
        s.apply_action(acts[int(rng.integers(len(acts)))])
        steps += 1
        check_invariants(s)
    assert steps == len(s.history) <= settings.max_game_length
    return s


@pytest.mark.parametrize("n", [2, 3, 4])
def test_conformance_random_play(n):
    reasons = set()
    for seed in range(40):
        s = _random_play(n, seed, check_all=seed < 10)
        reasons.add(s.end_reason)
        assert s.current_player() == TERMINAL and s.legal_actions() == []
        r = s.returns()
        if s.end_reason == "finish":
            assert r.count(1.0) == 1 and sum(r) == 1.0
    assert reasons <= {"finish", "stalled", "all_out", "round_limit"}


def test_conformance_must_attach_and_blocked_variants():
    st = DominoSettings(num_players=3, may_decline=False, eliminated_field_free=False,
                        domino_set="one-to-six")
    for seed in range(15):
        _random_play(3, seed, st, check_all=True)


def test_clone_independent_and_pickle_round_trip():
    s = new_game(DominoSettings(num_players=3), seed=11)
    rng = np.random.default_rng(0)
    for _ in range(12):
        s.apply_action(s.legal_actions()[int(rng.integers(len(s.legal_actions())))])
        if s.is_terminal():
            break
    before_text, before_legal = str(s), s.legal_actions()
    c = s.clone()
    p = pickle.loads(pickle.dumps(s))
    assert str(c) == str(p) == before_text
    while not c.is_terminal():                            # play the clone to the end
        c.apply_action(c.legal_actions()[0])
    assert str(s) == before_text and s.legal_actions() == before_legal
    # The pickled copy continues exactly like the original.
    for _ in range(200):
        if s.is_terminal():
            break
        a = s.legal_actions()[-1]
        s.apply_action(a)
        p.apply_action(a)
        assert str(s) == str(p)
    assert s.returns() == p.returns()


def test_round_limit_bounds_a_game_of_passes():
    st = DominoSettings(num_players=2, max_rounds=5)
    s = new_game(st, seed=0)
    n = 0
    while not s.is_terminal():
        s.apply_action(END_TURN)
        n += 1
    assert s.end_reason == "round_limit" and n == 10 and s.returns() == [0.0, 0.0]
    assert s.round == 5  # the rounds played, not one more


# ---------------------------------------------------------------------------
# game records


def _recorded_game(seed: int = 5):
    from ubongo_cp.games.domino.sim import play_one
    _, s = play_one(["random", "careful", "lookahead"], seed)
    assert s.swap_depths, "pick a seed whose game has a swap"
    return s


def test_record_save_load_replay(tmp_path):
    s = _recorded_game()
    path = tmp_path / "game.json"
    save_record(s, path, players=["random", "careful", "lookahead"])
    r = load_record(path)
    assert str(r) == str(s) and r.returns() == s.returns() and r.history == s.history
    rec = json.loads(path.read_text())
    assert rec["moves"][0]["n"] == 1 and rec["result"]["end_reason"] == s.end_reason
    assert len(rec["moves"]) == len(s.history)
    # A record of an unfinished game replays to the same position.
    t = new_game(DominoSettings(num_players=2), seed=2)
    t.apply_action(t.legal_actions()[0])
    assert str(replay_record(record_of(t))) == str(t)


def _mutate(s, edit):
    rec = record_of(s)
    edit(rec)
    return rec


def test_bad_record_illegal_move_names_move_and_rule(tmp_path):
    s = _recorded_game()
    rec = record_of(s)
    k = next(i for i, m in enumerate(rec["moves"]) if m["action"] == END_TURN)
    # Replace a pass by attaching a domino the player does not hold.
    state = replay_record({**rec, "moves": rec["moves"][:k], "result": None})
    missing = next(d for d in range(NUM_DOMINOES) if d not in state.hands[state.cur])
    rec["moves"][k] = {"n": k + 1, "action": encode_attach(missing, 0, 0)}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(rec))
    with pytest.raises(IllegalActionError, match=rf"bad.json: move {k + 1}: illegal action .*DN-4"):
        load_record(path)


def test_a_replayed_move_is_checked_by_the_rules_once_as_apply_action_checks_it():
    # The replay checked each move itself and said it its own way: an action of 400 digits repeated in full,
    # twice (the action and its text), where apply_action cuts it. Now its message is apply_action's.
    s = _recorded_game()
    k = next(i for i, m in enumerate(record_of(s)["moves"]) if m["action"] == END_TURN)
    before = replay_record({**record_of(s), "moves": record_of(s)["moves"][:k], "result": None})
    missing = next(d for d in range(NUM_DOMINOES) if d not in before.hands[before.cur])
    for action, rule in ((encode_attach(missing, 0, 0), "(DN-4)"),
                         (10 ** 400, "no such action, the ids are 0..105 (DN-3, DN-4, DN-10)")):
        with pytest.raises(IllegalActionError) as direct:
            before.clone().apply_action(action)
        record = _mutate(s, lambda r, a=action: r["moves"].__setitem__(k, {"n": k + 1, "action": a}))
        with pytest.raises(IllegalActionError) as replayed:
            replay_record(record)
        assert str(replayed.value) == f"record: move {k + 1}: {direct.value}" and str(direct.value).endswith(rule)
    assert str(direct.value) == ("illegal action 1000000000000000000000000000000000000...: no such action, the ids "
                                 "are 0..105 (DN-3, DN-4, DN-10)")


def test_bad_records_are_input_errors(tmp_path):
    s = _recorded_game()
    cases = [
        (lambda r: r["moves"][2].update(player=(r["moves"][2]["player"] + 1) % 3), r"move 3: recorded for player"),
        (lambda r: r["moves"][0].update(text="attach 9-9"), r"move 1: text 'attach 9-9' does not match"),
        (lambda r: r["moves"].append({"n": 999, "action": END_TURN}), r"move \d+: the game is already over"),
        (lambda r: r["moves"][0].update(n=5), r"move 1: numbered 5"),
        # a value of the wrong type is shown as the file writes it: once "recorded for player 0 but player 0
        # is to act" for a player written "0"
        (lambda r: r["moves"][0].update(player="0"), r"move 1: recorded for player '0' but player 0 is to act"),
        (lambda r: r["moves"][0].update(n="1"), r"move 1: numbered '1'$"),
        (lambda r: r["moves"][0].update(text=None), r"move 1: text null does not match"),
        (lambda r: r.update(seed=-5), r"'seed' must be a non-negative integer, got -5"),
        (lambda r: r.update(seed=1.5), r"'seed' must be a non-negative integer, got 1.5"),
        (lambda r: r["result"].update(returns=[0.3, 0.3, 0.4]), r"result field 'returns' is \[0.3, 0.3, 0.4\] in "
                                                                  "the record, but the replay gives"),
        # every stored field is compared with the replay, not only the returns
        (lambda r: r["result"].update(rounds=r["result"]["rounds"] + 1), "result field 'rounds' is"),
        (lambda r: r["result"].update(eliminated=[0]), r"result field 'eliminated' is \[0\] in the record, but "
                                                        r"the replay gives \[\]"),
        (lambda r: r["result"].update(winner=1), "result field 'winner' is not one this game records "
                                                 r"\(returns, end_reason, rounds, eliminated\)"),
        (lambda r: r["deal"]["hands"][0].__setitem__(0, r["deal"]["hands"][1][0]), "duplicated"),
        (lambda r: r.update(format="other"), "not a game record this version reads: format 'other'"),
        (lambda r: r.update(version=2), "ubongo-cp/domino-record record version 2 is not supported"),
        (lambda r: r["moves"][1].update(action=True), "move 2: needs an integer 'action'"),
        (lambda r: r["settings"].update(colour="red"), "unknown settings"),
        (lambda r: r["moves"][1].update(action="x"), "move 2: needs an integer 'action'"),
        # said in the record's terms, not Python's (it was "malformed record (KeyError: 'settings')")
        (lambda r: r.pop("settings"), r"malformed record \(the field 'settings' is missing\)$"),
        (lambda r: r["deal"].pop("start"), r"malformed record \(the field 'start' is missing\)$"),
    ]
    for edit, msg in cases:
        with pytest.raises(InputError, match=msg):
            replay_record(_mutate(s, edit))
    swap_i = next(i for i, m in enumerate(record_of(s)["moves"]) if "swap_depth" in m)
    with pytest.raises(InputError, match=rf"move {swap_i + 1}: a swap needs 'swap_depth'"):
        replay_record(_mutate(s, lambda r: r["moves"][swap_i].pop("swap_depth")))
    bad = tmp_path / "broken.json"
    bad.write_text('{"format": "ubongo-cp/domino-record",\n "moves": [1, 2,, 3]}')
    with pytest.raises(InputError, match="broken.json:2: malformed JSON"):
        load_record(bad)


# ---------------------------------------------------------------------------
# agents


def _plan_position():
    # All entered; P0 on 3, P1 on 0, Domina on 5: 2 free fields. 2-3 before
    # the start moves 2 = exact finish; 2-3 then 0-3 moves 4 = falls off.
    return position(["2|4", "4|5", "5|1"], [3, 0], [["2-3", "0-3", "4-4"], ["1-1", "0-0", "1-2"]])


def _play_turn(agent, s):
    while s.current_player() == 0:
        s.apply_action(agent(s))
    return s


def test_greedy_takes_longest_move_careful_and_lookahead_the_win():
    from ubongo_cp.games.domino.agents import make_agent
    g = _play_turn(make_agent("greedy", 0), _plan_position())
    assert g.pawns[0] == OUT and g.eliminated == [0]       # 4 fields: overshoot (DN-11)
    for name in ("careful", "lookahead"):
        c = _play_turn(make_agent(name, 0), _plan_position())
        assert c.returns() == [1.0, 0.0] and c.end_reason == "finish"


def test_careful_never_falls_off_and_agents_play_legally():
    from ubongo_cp.games.domino.sim import play_one
    for seed in range(60):
        row, s = play_one(["careful", "greedy", "lookahead", "random"], seed)
        assert 0 not in s.eliminated
        check_invariants(s)


def test_careful_agent_falls_off_only_when_every_plan_does():
    # With may_decline False a player who can attach must (DN-4 decision): in game 12 the careful
    # agent of seat 1 must attach and every plan overshoots (DN-11). It used to find no plan at all.
    from ubongo_cp.games.domino.sim import play_one
    row, s = play_one(["careful", "careful"], 12, DominoSettings(num_players=2, may_decline=False))
    assert s.eliminated == [1] and row["end_reason"] == "finish" and s.returns() == [1.0, 0.0]


def test_careful_swaps_a_dead_domino():
    from ubongo_cp.games.domino.agents import make_agent
    # Open end 5 (front closed: P1 off the path); 0-0 matches nothing, shares no symbol.
    s = position(["2|4", "4|5"], [1, OFF], [["0-0", "1-2", "2-3"], ["1-1", "3-3", "4-4"]])
    assert make_agent("careful", 0)(s) == encode_swap(D("0-0"))


def test_unknown_agent():
    # The toolkit's InputError (once a plain ValueError, which the CLI does not take for bad input).
    from ubongo_cp.games.domino.agents import make_agent
    from ubongo_cp.games.domino.sim import simulate
    with pytest.raises(InputError, match="unknown agent 'smart'"):
        make_agent("smart")
    with pytest.raises(InputError, match="unknown agent 'smart'"):
        simulate(["random", "smart"], games=1)


# ---------------------------------------------------------------------------
# simulation statistics and CLI


def test_wilson_and_chi2_against_published_values():
    import math

    from ubongo_cp.games.stats import chisquare_uniform, wilson_interval
    # Wilson (1927) interval for 5/10 at 95 %: 0.2366 .. 0.7634 (e.g. Agresti & Coull 1998);
    # 7/10: 0.3968 .. 0.8922 (textbook value).
    lo, hi = wilson_interval(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)
    lo, hi = wilson_interval(7, 10)
    assert round(lo, 4) == 0.3968 and round(hi, 4) == 0.8922
    assert all(math.isnan(x) for x in wilson_interval(0, 0))
    # Tabulated chi-square critical values P(X >= x) = 0.05 and 0.01: counts whose
    # statistic against equal shares is exactly x (two categories: x = (a - b)^2 / (a + b)).
    for x, p in [(3.841459, 0.05), (6.634897, 0.01)]:
        total = 1000.0
        d = math.sqrt(x * total)
        assert chisquare_uniform([(total + d) / 2, (total - d) / 2])["p_value"] == pytest.approx(p, rel=1e-5)
    assert math.isnan(chisquare_uniform([0, 0, 0])["chi2"])


def test_seeded_games_replay_the_saved_table():
    # Saved playthroughs: 40 games of all four agents, written by the previous implementation
    # (its own game loop, before play_game), with the DN-12 measure it used then; game 8 one action
    # longer since DN-12 counts only turns begun with an empty stock (its last drawer passes once more).
    import pandas as pd
    from pathlib import Path

    from ubongo_cp.games.domino.sim import simulate
    want = pd.read_csv(Path(__file__).parent / "data" / "games" / "domino_seed7.csv")
    got = simulate(["random", "greedy", "careful", "lookahead"], 40, seed=7, rotate_seats=True,
                   settings=DominoSettings(stall_distance="free_fields"))
    pd.testing.assert_frame_equal(got[list(want.columns)], want, check_dtype=False)


def test_simulate_table_and_rates():
    from ubongo_cp.games.domino.sim import end_reason_rates, simulate, win_rates
    df = simulate(["random", "careful"], games=40, seed=3, rotate_seats=True)
    assert len(df) == 40 and set(df["agent_0"][:2]) == {"random", "careful"}
    seat = win_rates(df, "seat")
    decided = df[["return_0", "return_1"]].to_numpy().sum()
    assert seat["wins"].sum() == pytest.approx(decided)
    agent = win_rates(df, "agent")
    assert agent["games"].tolist() == [40, 40]
    assert (agent["ci_low"] <= agent["rate"]).all() and (agent["rate"] <= agent["ci_high"]).all()
    er = end_reason_rates(df)
    assert er["games"].sum() == 40
    again = simulate(["random", "careful"], games=40, seed=3, rotate_seats=True)
    assert df.equals(again)                               # seeded: reproducible


@pytest.mark.parametrize("by", ["player", "Seat", "", None, ["seat"]])
def test_win_rates_refuses_a_grouping_it_has_not_in_one_line(by):
    # A plain ValueError ('player'), a pandas KeyError or TypeError (a list): now the toolkit's InputError,
    # naming the argument and its choices.
    from ubongo_cp.games.domino.sim import simulate, win_rates
    df = simulate(["random", "careful"], games=2, seed=3)
    with pytest.raises(InputError) as caught:
        win_rates(df, by=by)
    assert str(caught.value) == f"by must be 'seat' or 'agent', got {by!r}"


def _cli(argv):
    from ubongo_cp.cli import build_parser
    from ubongo_cp.cli.common import check_common
    args = build_parser().parse_args(["simulate", *argv])
    check_common(args)   # as the command does: the outputs' names, an option without the one it goes with
    return args.func(args)


def test_cli_simulate_writes_table_plot_and_record(tmp_path, capsys):
    import pandas as pd
    out, png, rec = tmp_path / "g.parquet", tmp_path / "len.png", tmp_path / "g0.json"
    code = _cli(["domino", "--players", "3", "--games", "30", "--agents", "careful,greedy,random",
                 "--seed", "1", "--rotate-seats", "--out", str(out), "--plot", str(png),
                 "--record", str(rec)])
    text = capsys.readouterr().out
    assert code == 0 and "win rate by seat" in text and "win rate by agent" in text
    df = pd.read_parquet(out)
    assert len(df) == 30 and png.stat().st_size > 1000
    assert load_record(rec).returns() == [df.loc[0, f"return_{s}"] for s in range(3)]
    assert _cli(["domino", "--replay", str(rec), "--show-moves"]) == 0
    assert "replayed" in capsys.readouterr().out


@pytest.mark.parametrize("argv, msg", [
    (["--agents", "random,greedy"], "lists 2 agents for --players 4"),
    (["--agents", "smart"], "unknown agent 'smart'"),
    # a name left out between two commas was dropped: four seats' names with one left out played 3 players
    (["--agents", "random,,careful,greedy", "--players", "3"],
     "--agents: no name between two commas in 'random,,careful,greedy'"),
    (["--out", "x.xlsx"], r"must end in \.csv, \.parquet or \.pq, not \.xlsx"),
    (["--games", "0"], "at least 1"),
    (["--replay", "g.json", "--games", "3", "--stall-distance", "free_fields"],
     r"--replay replays a record and takes no simulation options \(given: --games, --stall-distance\)"),
    (["--show-moves"], "--show-moves goes with --replay"),
])
def test_cli_bad_arguments(argv, msg):
    with pytest.raises(UbongoError, match=msg):   # (the common checks raise UbongoError, the command InputError)
        _cli(["domino", *argv])


def test_cli_through_main(capsys):
    from ubongo_cp.cli import main
    assert main(["simulate", "domino", "--games", "5", "--players", "2", "--seed", "2"]) == 0
    assert "5 games, 2 players" in capsys.readouterr().out
    assert main(["simulate", "domino", "--agents", "x,y"]) == 2


def test_cli_header_names_the_rule_settings_that_differ_from_the_defaults(tmp_path, capsys):
    # Saved output tells a run with other rule settings from a default one: its header line names each
    # setting as given, with its rule (DN-4 attaching, DN-12 stalls), and its journal records them.
    import json

    from ubongo_cp.cli import main

    base = ["simulate", "domino", "--games", "3", "--players", "2", "--no-progress"]
    assert main(base) == 0
    assert capsys.readouterr().out.splitlines()[0] == "3 games, 2 players, agents random,random"
    out = tmp_path / "g.csv"
    assert main([*base, "--must-attach", "--stall-ties", "nobody", "--max-rounds", "50", "--out", str(out)]) == 0
    assert capsys.readouterr().out.splitlines()[0] == (
        "3 games, 2 players, agents random,random; rules: --must-attach (DN-4), --stall-ties nobody (DN-12); "
        "settings: --max-rounds 50")
    with open(tmp_path / "g.jsonl") as fh:
        settings = json.loads(fh.readline())["options"]["settings"]
    assert (settings["may_decline"], settings["stall_ties"], settings["max_rounds"]) == (False, "nobody", 50)
    assert (settings["eliminated_field_free"], settings["stall_distance"]) == (True, "fields")


def test_cli_games_without_a_winner_say_n_a_for_the_seat_test(capsys):
    # --max-rounds 1: every game hits the engine's round bound, nobody wins: no chi-square to compute.
    assert _cli(["domino", "--games", "4", "--max-rounds", "1", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "equal seats? n/a (no game had a winner)" in out and "nan" not in out
    assert "round_limit         4 100.0%" in out and "rounds: mean 1.00" in out


def test_cli_default_stall_distance_and_progress_bar(capsys, monkeypatch):
    import ubongo_cp.cli.domino
    from ubongo_cp.cli import build_parser, main
    assert build_parser().parse_args(["simulate", "domino"]).stall_distance == "fields"  # DN-12
    assert main(["simulate", "domino", "--games", "3"]) == 0
    assert "domino games" not in capsys.readouterr().err  # standard error is no terminal here: no bar
    monkeypatch.setattr(ubongo_cp.cli.domino, "show_bar", lambda args: not args.no_progress)  # as on a terminal
    assert main(["simulate", "domino", "--games", "3"]) == 0
    assert "domino games: 100%" in capsys.readouterr().err


def test_simulate_domino_help_explains_every_rule_setting_and_its_default(capsys):
    # Each setting of a decision the rules leave open (DN-1, DN-11, DN-12, ...) says what it does and its default.
    from ubongo_cp.cli import main

    with pytest.raises(SystemExit):
        main(["simulate", "domino", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    rules = text[text.index("rule settings"):]
    for option, default in [("--domino-set {double-five,one-to-six}", "0-0 to 5-5 (default)"),
                            ("--first-player SEAT", "(DN-1; default 0)"),
                            ("--all-out-winner {nobody,last_out}", "nobody (default)"),
                            ("--stall-ties {share,nobody}", "share the win (default)"),
                            ("--must-attach", "(default: may always decline)"),
                            ("--stall-distance {fields,free_fields}", "other pawns (default)")]:
        start = rules.index(option) + len(option)
        nxt = rules.find(" --", start)
        described = rules[start:nxt if nxt > 0 else None]
        assert default in described, (option, described)


def test_a_stall_needs_a_whole_round_of_turns_begun_with_an_empty_stock():
    # DN-12: "when the stock is empty and during one whole round nobody can or wants to attach". The player
    # who draws the last domino (DN-9) has a turn with it before the game can stall: in 4-player seed 56
    # (random moves drawn with the same seed) it passes, draws the last domino, which fits; under the old
    # count the three others' passes ended the game before its turn.
    stalls = 0
    for seed in range(300):
        for players in (2, 3, 4):
            s = new_game(DominoSettings(num_players=players), seed=seed)
            rng = np.random.default_rng(seed)
            began: list[int] = []                       # the stock's size at the start of each turn
            turn = -1
            while not s.is_terminal():
                if s.turns != turn:
                    turn = s.turns
                    began.append(len(s.stock))
                s.apply_action(int(rng.choice(s.legal_actions())))
            if s.end_reason == "stalled":
                stalls += 1
                k = players - len(s.eliminated)
                assert began[-k:] == [0] * k, (seed, players, began[-k - 2:])
    assert stalls > 50


def test_a_swap_depth_on_a_move_that_is_no_swap_is_refused(tmp_path):
    # DN-10: only a swap draws from the stock at a depth; the field on another move is a tampered record.
    from ubongo_cp.games.domino.sim import play_one

    _, final = play_one(["careful", "greedy", "lookahead"], 11)
    path = tmp_path / "g.json"
    save_record(final, path)
    record = json.loads(path.read_text())
    other = next(m for m in record["moves"] if "swap_depth" not in m)
    other["swap_depth"] = 3
    path.write_text(json.dumps(record))
    with pytest.raises(InputError, match=r"move \d+: 'swap_depth' belongs to a swap \(DN-10\)"):
        load_record(path)


@pytest.mark.parametrize("extra, note", [
    # DN-12 ties: two pawns never share a field, so only --stall-distance free_fields makes two equally near.
    (["--stall-ties", "nobody"], "ubongo-cp: note: --stall-ties decides between pawns equally near Domina, and "
                                 "only --stall-distance free_fields makes two equally near; ignored\n"),
    (["--rotate-seats"], "ubongo-cp: note: --rotate-seats has no effect when every seat plays the same agent; "
                         "ignored\n"),
    (["--rotate-seats", "--agents", "careful,careful"], "ubongo-cp: note: --rotate-seats has no effect when every "
                                                        "seat plays the same agent; ignored\n"),
    (["--rotate-seats", "--agents", "careful,random"], ""),
    (["--stall-ties", "nobody", "--stall-distance", "free_fields"], ""),
])
def test_cli_a_rule_setting_without_effect_is_noted(extra, note, capsys):
    from ubongo_cp.cli import main

    assert main(["simulate", "domino", "--games", "3", "--players", "2", *extra]) == 0
    assert capsys.readouterr().err == note


def test_simulate_refuses_settings_for_another_player_count_before_any_game(monkeypatch):
    # One agent per seat: settings of 3 players with 2 agents are refused in one line before any game is
    # played (once a ValueError from the first game, in whichever worker played it).
    import ubongo_cp.games.domino.sim as sim

    def no_game(*args, **kwargs):
        raise AssertionError("a game was played")

    monkeypatch.setattr(sim, "_domino_rows", no_game)
    with pytest.raises(InputError, match=r"^2 agents for the 3 players of the settings \(one agent per seat\)$"):
        sim.simulate(["random", "greedy"], 4, settings=DominoSettings(num_players=3))
    with pytest.raises(InputError, match=r"^2 agents for the 3 players of the settings"):
        sim.play_one(["random", "greedy"], 1, DominoSettings(num_players=3))


def test_simulate_takes_rotate_seats_as_true_or_false_only():
    # rotate_seats="no" read as true: the seats were rotated (game 1 seated 'greedy,random').
    from ubongo_cp.games.domino.sim import simulate

    plain = simulate(["random", "greedy"], 2, seed=1)
    assert plain["agents"].tolist() == ["random,greedy"] * 2
    assert simulate(["random", "greedy"], 2, seed=1, rotate_seats=np.False_).equals(plain)
    assert simulate(["random", "greedy"], 2, seed=1, rotate_seats=np.True_)["agents"].tolist() == \
        ["random,greedy", "greedy,random"]
    for value in ("no", 0, None):
        with pytest.raises(InputError, match=r"^rotate_seats must be True or False, got"):
            simulate(["random", "greedy"], 2, seed=1, rotate_seats=value)


def test_play_one_refuses_agents_given_as_one_string():
    # play_one("random,greedy", seed), the table's agents column as it is, said "num_players: must be 2, 3 or 4,
    # got 13" (the string read letter by letter); the same agents as a list replay the table's game.
    from ubongo_cp.games.domino.sim import play_one, simulate

    row = simulate(["random", "greedy"], 1, seed=3).iloc[0]
    for agents in (row["agents"], "random"):
        with pytest.raises(InputError, match=r"^agents is a list of names, e.g. \['random', 'greedy'\], one per seat"):
            play_one(agents, int(row["seed"]))
    replayed, _ = play_one(row["agents"].split(","), int(row["seed"]))
    assert replayed == row.drop("game").to_dict()


@pytest.mark.parametrize("seed", [-1, 1.5, "x", True])
def test_make_agent_refuses_a_seed_numpy_cannot_take(seed):
    # -1 raised numpy's 'ValueError: expected non-negative integer', 1.5 and 'x' a TypeError of SeedSequence,
    # True seeded as 1.
    from ubongo_cp.games.domino.agents import AGENT_NAMES, make_agent

    for name in AGENT_NAMES:
        with pytest.raises(InputError, match=r"^seed must be a whole number >= 0"):
            make_agent(name, seed)
    state = new_game(seed=3)
    for seed in (7, np.int64(7), [7, 1], np.random.default_rng(7), None):
        assert make_agent("careful", seed)(state) in state.legal_actions()


@pytest.mark.parametrize("players", [5, 2.5, object()])
def test_record_players_that_are_no_list_are_one_error(players):
    # record_of(state, players=5) raised "TypeError: 'int' object is not iterable"; a list of labels per seat is taken.
    state = new_game(DominoSettings(num_players=2), seed=1)
    with pytest.raises(InputError, match=r"^players must be 2 labels \(text\), one per seat, got"):
        record_of(state, players=players)
    assert record_of(state, players=("careful", "random"))["players"] == ["careful", "random"]


def test_a_record_without_its_seed_is_refused(tmp_path):
    # DN-10: the seed puts each swapped domino back into the stock; the format gives it no default, and a record
    # without it was read as seed 0 (another stock after the first swap).
    s = _recorded_game()
    rec = record_of(s)
    assert rec["seed"] == s.seed != 0 and s.swap_depths
    del rec["seed"]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(rec))
    with pytest.raises(InputError) as err:
        load_record(path)
    assert str(err.value) == (f"{path}: the field 'seed' is missing (the game's seed: where each swapped domino "
                              "goes back into the stock, DN-10)")


def test_agents_given_as_one_name_or_settings_that_are_not_settings_are_one_error_naming_them():
    from ubongo_cp.games.domino.sim import simulate

    # "random" was read letter by letter: "unknown agent 'r'"
    with pytest.raises(InputError, match=r"^agents is a list of names, e\.g\. \['random', 'greedy'\], one per seat, "
                                         r"got 'random'$"):
        simulate("random", 3, seed=1)
    # a generator of names was used up by the name check, then len() of it failed (TypeError)
    table = simulate((a for a in ["random", "greedy"]), 3, seed=1)
    assert table.equals(simulate(["random", "greedy"], 3, seed=1)) and len(table) == 3
    # AttributeError: 'str' object has no attribute 'num_players', before
    message = r"^settings must be DominoSettings \(e\.g\. DominoSettings\(num_players=2\)\) or None, got {}$"
    for call, given in [(lambda: new_game(settings="x"), "str"),
                        (lambda: DominoState({"num_players": 2}, 0, [], []), "dict"),
                        (lambda: simulate(["random", "greedy"], 3, settings={"num_players": 2}), "dict")]:
        with pytest.raises(InputError, match=message.format(given)):
            call()


def test_why_illegal_names_an_unknown_id_as_apply_action_does():
    # An id outside 0..105 gets the reason apply_action's error gives, in the engine's own why_illegal too.
    s = new_game(seed=3)
    for bad in (-1, NUM_ACTIONS, 10**6):
        assert s.why_illegal(bad) == f"no such action, the ids are 0..{NUM_ACTIONS - 1} (DN-3, DN-4, DN-10)"
        with pytest.raises(IllegalActionError) as err:
            s.apply_action(bad)
        assert str(err.value).endswith(s.why_illegal(bad))
    for bad, kind in ((2.5, "float"), (True, "bool"), ("3", "str")):
        # the reason apply_action gives, word for word, as in every engine (it was worded apart here)
        assert s.why_illegal(bad) == f"an action is an integer id, not a {kind}"
        with pytest.raises(IllegalActionError) as err:
            s.apply_action(bad)
        assert str(err.value) == f"illegal action {bad!r}: {s.why_illegal(bad)}"


def test_a_move_of_a_finished_game_names_the_rule_that_ended_it():
    # "the game is over" named no rule, where the other engines name theirs (UG-10, UD-4): a pawn on Domina's
    # field ends the game by DN-11, a round without attachment on an empty stock by DN-12.
    seen = {}
    for seed in range(40):
        s = new_game(DominoSettings(num_players=4), seed=seed)
        play_game(s, [RandomAgent(seed + i) for i in range(4)])
        seen.setdefault(s.end_reason, s)
        if {"finish", "stalled"} <= seen.keys():
            break
    for reason, rule in (("finish", "DN-11"), ("stalled", "DN-12")):
        s = seen[reason]
        assert s.why_illegal(END_TURN) == f"the game is over ({rule})"
        with pytest.raises(IllegalActionError, match=rf"^illegal action 105 \(end turn\): the game is over \({rule}\)$"):
            s.apply_action(END_TURN)
