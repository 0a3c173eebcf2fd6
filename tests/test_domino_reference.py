"""A second, independent implementation of Domino, nezlob se! (RULES.md section 5) checked against the engine.

``Reference`` is written from the rule text alone, in its own terms (fields
of the path counted from the start side, pawns as field numbers, the stock
top first) and shares no code with :mod:`ubongo_cp.games.domino.state` but
the action ids' encoding. Seeded random games over every configurable
decision are played on both, move by move: before each move the set of
legal moves must agree (DN-2 first attachment to either half of the start
domino, DN-3 matching symbols, DN-6 second domino on the same side only
with the pawn on the path, DN-7 before the start once every pawn entered,
fallen pawns counting, DN-10 swaps with three in hand and a stock); after
each move the path, the start field, Domina's field, every pawn, hand and
the stock must agree, and at the end the winner(s) and why (DN-11, DN-12).
The one chance event the engine draws itself, the depth a swapped domino
goes back into the stock (DN-10), is read from the engine.
"""

from __future__ import annotations

import random

import pytest

from ubongo_cp.games.domino.actions import DOMINO_SETS, END_TURN, NUM_ATTACH, OFF, OUT, SWAP_BASE
from ubongo_cp.games.domino.state import DominoSettings, new_game

_OFF, _OUT = "off", "out"


class Reference:
    """The game after DN-1's deal, as RULES.md section 5 states it."""

    def __init__(self, settings: DominoSettings, deal: dict) -> None:
        self.rules = settings
        self.n = settings.num_players
        self.dominoes = DOMINO_SETS[settings.domino_set]
        self.hands = [list(h) for h in deal["hands"]]
        self.stock = list(deal["stock"])          # top first
        self.start_domino = self.dominoes[deal["start"]]
        self.fields: list[int] | None = None       # symbols, start side first; None before DN-2
        self.start = -1                            # the start field's number
        self.pawn: list = [_OFF] * self.n
        self.entered = [False] * self.n
        self.obstacles: list[int] = []             # fields of fallen pawns (eliminated_field_free=False)
        self.player = settings.first_player
        self.attached = 0
        self.side = ""
        self.was_on_path = False                   # at the start of the turn (DN-6)
        self.entered_now = False                   # DN-5: no move in the turn the pawn entered
        self.quiet_turns = 0                       # DN-12
        self.result: tuple[list[float], str] | None = None

    def domina(self) -> int:
        assert self.fields is not None
        return len(self.fields) - 1                # DN-7: Domina stands on the last field

    def moves(self) -> set[tuple]:
        """Legal moves: ("attach", domino, where), ("swap", domino), ("end",)."""
        if self.attached == 0:
            if self.fields is None:                # DN-2: either half of the start domino
                a, b = self.start_domino
                ends = {("high", b)} if a == b else {("high", b), ("low", a)}
            else:
                ends = {("end", self.fields[-1])}
                if all(self.entered):              # DN-7 (a fallen pawn entered once)
                    ends.add(("front", self.fields[0]))
        else:                                      # DN-6: the second continues the first
            ends = {(self.side, self.fields[-1] if self.side == "end" else self.fields[0])}
        hand = self.hands[self.player]
        out: set[tuple] = {("attach", d, where) for d in hand for where, sym in ends if sym in self.dominoes[d]}
        if out and not self.rules.may_decline:
            return out
        if self.attached == 0 and len(hand) == 3 and self.stock:   # DN-10
            out |= {("swap", d) for d in hand}
        return out | {("end",)}

    def attach(self, d: int, where: str) -> None:
        p, (lo, hi) = self.player, self.dominoes[d]
        self.hands[p].remove(d)
        if self.fields is None:                    # DN-2: the path runs from the start domino to this one
            a, b = self.start_domino
            touch, other = (b, a) if where == "high" else (a, b)
            self.fields = [other, touch, touch, hi if lo == touch else lo]
            self.start, where = 0, "end"
        elif where == "end":
            sym = self.fields[-1]
            self.fields += [sym, hi if lo == sym else lo]
        else:                                      # DN-7: before the start; every field number shifts by 2
            sym = self.fields[0]
            self.fields[:0] = [hi if lo == sym else lo, sym]
            self.start += 2
            self.pawn = [f + 2 if isinstance(f, int) else f for f in self.pawn]
            self.obstacles = [f + 2 for f in self.obstacles]
        self.attached += 1
        self.side = where
        if self.attached == 1 and self.pawn[p] == _OFF:   # DN-5: the start field, or the next free one
            f = self.start
            while f in self.pawn or f in self.obstacles:
                f += 1
            self.pawn[p], self.entered[p], self.entered_now = f, True, True
        sym = self.fields[-1] if where == "end" else self.fields[0]
        if self.attached == 2 or not self.was_on_path or not any(sym in self.dominoes[e] for e in self.hands[p]):
            self.end_turn()                        # no second attachment possible (DN-6)

    def end_turn(self, swap: int | None = None, depth: int = 0) -> None:
        p, k = self.player, self.attached
        stock_was_empty = not self.stock
        if swap is not None:                       # DN-10
            self.hands[p].remove(swap)
            self.hands[p].append(self.stock.pop(0))
            self.stock.insert(depth, swap)
        pos = self.pawn[p]
        if isinstance(pos, int) and not self.entered_now:   # DN-8: 1, 2 or 4 fields, others' fields skipped
            steps, f, goal = (1, 2, 4)[k], pos, self.domina()
            while steps and f <= goal:
                f += 1
                if f <= goal and f not in self.pawn and f not in self.obstacles:
                    steps -= 1
            if f == goal:                          # DN-11: exactly on Domina
                self.pawn[p] = f
                self.result = ([1.0 if q == p else 0.0 for q in range(self.n)], "finish")
                return
            if f > goal:                           # DN-11: past her, out of the game
                if not self.rules.eliminated_field_free:
                    self.obstacles.append(pos)
                self.pawn[p] = _OUT
                if all(x == _OUT for x in self.pawn):
                    last = self.rules.all_out_winner == "last_out"
                    self.result = ([1.0 if last and q == p else 0.0 for q in range(self.n)], "all_out")
                    return
            else:
                self.pawn[p] = f
        if self.pawn[p] != _OUT and len(self.hands[p]) < 3 and self.stock:   # DN-9
            self.hands[p].append(self.stock.pop(0))
        self.quiet_turns = self.quiet_turns + 1 if k == 0 and stock_was_empty else 0
        if self.quiet_turns and self.quiet_turns >= sum(x != _OUT for x in self.pawn):   # DN-12
            self.result = (self.nearest(), "stalled")
            return
        q = (p + 1) % self.n
        while self.pawn[q] == _OUT:
            q = (q + 1) % self.n
        self.player, self.attached, self.entered_now = q, 0, False
        self.was_on_path = isinstance(self.pawn[q], int)

    def nearest(self) -> list[float]:
        """DN-12: the pawn(s) nearest Domina win; fields holding pawns count unless stall_distance says not."""
        goal = self.domina()
        dist = {}
        for q, f in enumerate(self.pawn):
            if isinstance(f, int):
                dist[q] = goal - f if self.rules.stall_distance == "fields" else sum(
                    1 for g in range(f + 1, goal + 1) if g not in self.pawn and g not in self.obstacles)
        res = [0.0] * self.n
        if dist:
            best = [q for q in dist if dist[q] == min(dist.values())]
            if len(best) == 1 or self.rules.stall_ties == "share":
                for q in best:
                    res[q] = 1.0 / len(best)
        return res


def engine_moves(state) -> set[tuple]:
    """The engine's legal action ids in the reference's terms (the ids' encoding: docs of actions.py)."""
    out: set[tuple] = set()
    for a in state.legal_actions():
        if a < NUM_ATTACH:
            d, side = a >> 2, (a >> 1) & 1
            out.add(("attach", d, ("high", "low")[side] if not state.direction_set else ("end", "front")[side]))
        else:
            out.add(("swap", a - SWAP_BASE) if a < END_TURN else ("end",))
    return out


def agree(state, ref: Reference, where: str) -> bool:
    """Assert the engine and the reference show the same game; True once it is over."""
    assert state.is_terminal() == (ref.result is not None), where
    if ref.result is not None:
        assert (state.returns(), state.end_reason) == ref.result, where
        return True
    assert state.current_player() == ref.player, where
    if ref.fields is not None:
        assert (state.path, state.start, state.domina) == (ref.fields, ref.start, ref.domina()), where
    pawns = [_OFF if f == OFF else _OUT if f == OUT else f for f in state.pawns]
    assert pawns == ref.pawn, where
    assert [sorted(h) for h in state.hands] == [sorted(h) for h in ref.hands], where
    assert state.stock[::-1] == ref.stock, where                    # the engine keeps the top at the end
    return False


SETTINGS = [dict(), dict(domino_set="one-to-six"), dict(may_decline=False), dict(eliminated_field_free=False),
            dict(all_out_winner="last_out"), dict(stall_distance="free_fields"),
            dict(stall_distance="free_fields", stall_ties="nobody")]


@pytest.mark.parametrize("options", SETTINGS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
def test_the_engine_plays_as_an_independent_reading_of_the_rules(options):
    ends = set()
    for seed in range(60):
        n = 2 + seed % 3
        settings = DominoSettings(num_players=n, first_player=seed % n, **options)
        state = new_game(settings, seed=seed)
        ref = Reference(settings, state.deal)
        rng = random.Random(seed)
        for step in range(settings.max_game_length):
            where = f"seed {seed}, move {step + 1}"
            if agree(state, ref, where):
                ends.add(state.end_reason)
                break
            assert engine_moves(state) == ref.moves(), where
            legal = state.legal_actions()
            attach = [a for a in legal if a < NUM_ATTACH]
            # attaching more often than not: long paths, entered pawns, front attachments, falls
            action = rng.choice(attach if attach and rng.random() < 0.8 else legal)
            direction_set = state.direction_set
            state.apply_action(action)
            if action < NUM_ATTACH:
                d, side = action >> 2, (action >> 1) & 1
                ref.attach(d, ("end", "front")[side] if direction_set else ("high", "low")[side])
            elif action < END_TURN:
                ref.end_turn(action - SWAP_BASE, state.swap_depths[-1])
            else:
                ref.end_turn()
    assert {"finish", "stalled"} <= ends       # both ways a game ends were met
