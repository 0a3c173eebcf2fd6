"""The DXZ builder in pure Python, used where the C extension ``_zdd`` is not built.

It builds the same family of covers as ``_zdd.c`` (:mod:`.zdd` describes
the method; the node ids may differ), with the same interface: ``Builder(
indptr, indices, weights, lo, hi, classes)``, ``build``, ``nodes`` and the
figures ``steps``/``hits``/``work``/``states``. States are Python ints (a
bit per item with bound 1, then a field per counter), so it is simple and
slow; it ignores a step budget (it always finishes) and the memory limit.
"""

from __future__ import annotations

import sys
import time

__all__ = ["Builder"]

_ST_DONE, _ST_TIME = 0, 1  # build()'s statuses, as the C builder's


class Builder:
    """The DXZ builder in Python (used where the C extension is not built): the same diagram family.

    States are Python ints (a bit per item with bound 1, a field per counter),
    so it is simple and slow; the C builder's figures ``steps``/``hits``/
    ``work`` are counted the same way.
    """

    def __init__(self, indptr, indices, weights, lo, hi, classes: bool = False, colours=None) -> None:
        n_items = len(lo)
        ptr, idx, wts = indptr.tolist(), indices.tolist(), weights.tolist()
        cols = colours.tolist() if colours is not None and len(colours) else [0] * len(idx)
        top = max(cols, default=0)
        # a colour item (a secondary item with coloured entries): a field, 0 free, c its colour, all ones taken
        cwidth = (top + 1).bit_length() if top else 0
        colour_items = {i for i, c in zip(idx, cols) if c}
        self.classes = classes
        self.class_keys: list[int] = []
        self.n_options = len(indptr) - 1
        lo, hi = lo.tolist(), hi.tolist()
        self.bad = -1
        shift, width = {}, {}
        nbits = 0
        for i in range(n_items):
            if hi[i] == 1 and i not in colour_items:
                shift[i], width[i] = nbits, 1
                nbits += 1
        for i in range(n_items):
            if hi[i] > 1 or i in colour_items:
                shift[i], width[i] = nbits, cwidth if i in colour_items else hi[i].bit_length()
                nbits += width[i]
        self.nbits = nbits
        self.must_bits = sum(1 << shift[i] for i in range(n_items) if hi[i] == 1 and lo[i] == 1)
        self.must_cnt = sum(((1 << width[i]) - 1) << shift[i] for i in range(n_items) if hi[i] > 1 and lo[i] == hi[i])
        # the counters with a range [lo..hi], 0 < lo < hi: at most hi - lo copies left at a leaf
        self.ranges = [(shift[i], (1 << width[i]) - 1, hi[i] - lo[i]) for i in range(n_items) if 0 < lo[i] < hi[i]]
        self.root_key = sum(hi[i] << shift[i] for i in range(n_items) if hi[i] >= 1 and i not in colour_items)
        self.fields = [(shift[i], (1 << width[i]) - 1) for i in range(n_items) if hi[i] > 1]
        # (delta, [(shift, mask, w)] of counters) per option, None when never usable
        self.options: list[tuple[int, list[tuple[int, int, int]]] | None] = []
        self.colour_entries: list[list[tuple[int, int, int]]] = []  # per option: (shift, mask, wanted value)
        self.lists: dict[int, list[int]] = {}
        for o in range(len(ptr) - 1):
            entries = list(zip(idx[ptr[o]:ptr[o + 1]], wts[ptr[o]:ptr[o + 1]]))
            tints = cols[ptr[o]:ptr[o + 1]]
            self.colour_entries.append([(shift[i], (1 << cwidth) - 1, c or (1 << cwidth) - 1)
                                        for (i, _), c in zip(entries, tints) if i in colour_items])
            entries = [e for e in entries if e[0] not in colour_items]
            if any(w > hi[i] for i, w in entries):  # never usable: no branching item needed
                self.options.append(None)
                continue
            if not any(hi[i] == 1 and lo[i] == 1 and w == 1 for i, w in entries) and self.bad < 0:
                self.bad = o
            delta = sum(w << shift[i] for i, w in entries)
            counters = [(shift[i], (1 << width[i]) - 1, w) for i, w in entries if hi[i] > 1]
            self.options.append((delta, counters))
            for i, _ in entries:
                if hi[i] == 1 and lo[i] == 1:
                    self.lists.setdefault(shift[i], []).append(o)
        self.nodes_ = [(2**32 - 1, 0, 0), (2**32 - 1, 1, 1)]
        self.unique: dict[tuple[int, int, int], int] = {}
        self.root = 0
        self.steps = self.hits = self.work = self.states = 0
        self.peak_bytes = 0
        self._done = False

    @property
    def n_nodes(self) -> int:
        return len(self.nodes_)

    @property
    def n_classes(self) -> int:
        return len(self.class_keys)

    def leaf_keys(self) -> bytes:
        """The leaf classes' states, laid out as the C builder's (a bit per item with bound 1 first)."""
        words = max(1, (self.nbits + 63) // 64)
        return b"".join(key.to_bytes(8 * words, "little") for key in self.class_keys)

    def _fits(self, key: int, o: int) -> bool:
        opt = self.options[o]
        if opt is None:
            return False
        delta, counters = opt
        bits = delta & ~sum(m << s for s, m, _ in counters)
        if any((key >> s) & m not in (0, want) or ((key >> s) & m and want == m)
               for s, m, want in self.colour_entries[o]):
            return False  # a colour item of another colour, or taken by an uncoloured entry
        return key & bits == bits and all((key >> s) & m >= w for s, m, w in counters)

    def _child(self, key: int, o: int) -> int:
        """The state after option ``o``: its delta taken, its colour items' fields written."""
        entry = self.options[o]
        assert entry is not None  # an option that covers no item is never taken
        key -= entry[0]
        for s, m, want in self.colour_entries[o]:
            key = (key & ~(m << s)) | (want << s)
        return key

    def build(self, seconds: float, memory: int, unique: bool, budget: int) -> int:
        if self._done:
            raise RuntimeError("the diagram is built once")
        self._done = True  # the Python builder does not stop on a step budget: it always finishes
        deadline = None if seconds < 0 else time.perf_counter() + seconds
        memo: dict[int, tuple[int, int]] = {}

        def leaf(key: int) -> int | None:
            if key & self.must_bits:
                return None
            if key & self.must_cnt or any((key >> s) & m > slack for s, m, slack in self.ranges):
                return 0
            if not self.classes:
                return 1
            if key not in memo:  # one terminal per distinct solution state
                self.nodes_.append((self.n_options + len(self.class_keys), 0, 1))
                self.class_keys.append(key)
                memo[key] = (len(self.nodes_) - 1, 0)
            return memo[key][0]

        def node(v: int, low: int, high: int) -> int:
            if high == 0:
                return low
            t = (v, low, high)
            n = self.unique.get(t) if unique else None
            if n is None:
                n = len(self.nodes_)
                self.nodes_.append(t)
                if unique:
                    self.unique[t] = n
            return n

        class _Time(Exception):
            pass

        def solve(key: int) -> tuple[int, int]:
            best = None
            for s, opts in self.lists.items():
                if key >> s & 1:
                    live = [o for o in opts if self._fits(key, o)]
                    if best is None or len(live) < len(best[1]) or (len(live) == len(best[1]) and s < best[0]):
                        best = (s, live)
                        if not live:
                            break
            result, work = 0, 0
            for o in best[1] if best else []:
                self.steps += 1
                if deadline is not None and self.steps % 4096 == 0 and time.perf_counter() > deadline:
                    raise _Time
                opt = self.options[o]
                assert opt is not None  # _fits is False for an option that is never usable
                child = self._child(key, o)
                sub, sub_work = leaf(child), 0
                if sub is None:
                    if child in memo:
                        self.hits += 1
                        sub, sub_work = memo[child]
                        self.work += sub_work
                    else:
                        sub, sub_work = solve(child)
                work += 1 + sub_work
                result = node(o, result, sub)
            memo[key] = (result, work)
            return result, work

        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, 4 * len(self.lists) + 200))
        try:
            top = leaf(self.root_key)
            self.root = top if top is not None else solve(self.root_key)[0]
        except _Time:
            return _ST_TIME
        finally:
            sys.setrecursionlimit(old)
            self.states = len(memo)
        return _ST_DONE

    def nodes(self, var, lo, hi) -> None:
        for k, (v, low, high) in enumerate(self.nodes_):
            var[k], lo[k], hi[k] = v, low, high
