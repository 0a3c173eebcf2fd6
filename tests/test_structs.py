"""The Struct base (ubongo_cp.structs) behaves as the dataclasses it replaces: compared with real dataclasses."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from functools import cached_property
from typing import NamedTuple

import pytest

from ubongo_cp.structs import FrozenInstanceError, Struct, replace


class Cell(Struct):
    name: str
    cells: tuple
    line: int | None
    _hidden = ("line",)
    _uncompared = ("line",)

    def __init__(self, name: str, cells: tuple = (), line: int | None = None) -> None:
        self._set(name=name, cells=tuple(cells), line=line)

    @cached_property
    def size(self) -> int:
        return len(self.cells)


@dataclasses.dataclass(frozen=True)
class CellDC:
    name: str
    cells: tuple = ()
    line: int | None = dataclasses.field(default=None, repr=False, compare=False)


class Result(Struct, frozen=False):
    count: int
    stats: dict

    def __init__(self, count: int, stats: dict | None = None) -> None:
        self.count, self.stats = count, {} if stats is None else stats


class Table(Struct, eq=False):
    data: list

    def __init__(self, data: list) -> None:
        self._set(data=data)


class Pair(NamedTuple):
    a: int
    b: int = 0


def test_repr_eq_hash_as_a_dataclass():
    a, b = Cell("X", ((0, 0),), line=3), Cell("X", [(0, 0)], line=9)
    da, db = CellDC("X", ((0, 0),), 3), CellDC("X", ((0, 0),), 9)
    assert repr(a) == repr(da).replace("CellDC", "Cell") == "Cell(name='X', cells=((0, 0),))"
    assert (a == b) is (da == db) is True
    assert hash(a) == hash(b) == hash(da)          # both hash the tuple of compared fields
    assert a != Cell("Y", ((0, 0),)) and a != da   # another class: not equal
    assert Cell._fields == ("name", "cells", "line")


def test_frozen_and_cached_property():
    a = Cell("X", ((0, 0), (0, 1)))
    with pytest.raises(FrozenInstanceError, match="cannot assign to field 'name' of a frozen Cell"):
        a.name = "Y"
    with pytest.raises(AttributeError):
        del a.cells
    assert a.size == 2 and vars(a)["size"] == 2    # cached in the instance's __dict__


def test_mutable_struct_is_unhashable_and_identity_eq():
    r = Result(3)
    r.count += 1
    assert r == Result(4) and r.count == 4
    with pytest.raises(TypeError):
        hash(r)
    t, u = Table([1]), Table([1])
    assert t != u and t == t and hash(t) != hash(u)


def test_replace_pickle_copy():
    a = Cell("X", ((0, 0),), line=5)
    b = replace(a, name="Y")
    assert (b.name, b.cells, b.line, a.name) == ("Y", ((0, 0),), 5, "X")
    with pytest.raises(TypeError, match="Cell has no field nam"):
        replace(a, nam="Y")
    assert replace(Pair(1), b=2) == Pair(1, 2)
    for other in (pickle.loads(pickle.dumps(a)), copy.copy(a), copy.deepcopy(a)):
        assert other == a and other.line == 5 and type(other) is Cell
    r = pickle.loads(pickle.dumps(Result(2, {"n": 1})))
    assert r.count == 2 and r.stats == {"n": 1}


def test_subclasses_keep_their_parents_settings_and_fields():
    # As a plain subclass of a dataclass: a mutable parent stays mutable, identity equality stays identity,
    # a wrapper __init__ keeps the parent's fields, and extra attributes that are not fields may be set.
    class MyResult(Result):
        pass

    r = MyResult(3)
    r.count = 4
    assert (r.count, MyResult._fields) == (4, ("count", "stats"))

    class Tagged(Table):
        pass

    t = Tagged([1])
    assert t != Tagged([1]) and hash(t) == object.__hash__(t)

    class Wrapped(Cell):
        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)

    a, b = Wrapped("A", ((0, 0),)), Wrapped("B", ((0, 0),))
    assert Wrapped._fields == Cell._fields and a != b and len({a, b}) == 2 and "Wrapped(name='A'" in repr(a)

    class Coloured(Cell):
        pass

    c = Coloured("C")
    c.colour = "red"                        # not a field: allowed, as for a plain subclass of a frozen dataclass
    with pytest.raises(FrozenInstanceError):
        c.name = "D"                        # a field: refused
    with pytest.raises(FrozenInstanceError):
        Cell("E").colour = "red"            # the record's own class: every name refused, as a dataclass

    class Empty(Struct):
        pass

    assert Empty() == Empty() and Empty._fields == ()   # no __init__: no fields, as a dataclass with none


def test_match_by_position():
    match Cell("X", ((0, 0),)):
        case Cell(name, cells):
            assert (name, cells) == ("X", ((0, 0),))
        case _:
            raise AssertionError("no match")
