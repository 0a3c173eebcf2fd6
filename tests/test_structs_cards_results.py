"""Card sides, deck specs, subset analyses and solve results are Structs (ubongo_cp.structs) that behave as the
dataclasses they were: each is compared with a dataclass twin declared as the class was (fields, defaults,
repr=False and compare=False), on repr, equality, hash, constructor, replace, pickling and (im)mutability."""

from __future__ import annotations

import copy
import dataclasses
import inspect
import pickle
from dataclasses import dataclass, field
from typing import Any

import pytest

from ubongo_cp.analyze import AnalysisResult, SubsetCount, analyze
from ubongo_cp.cards import CardSide, DeckProblem, load_deck
from ubongo_cp.cover import task_instance
from ubongo_cp.solvers import solve
from ubongo_cp.solvers.base import SolveResult
from ubongo_cp.specs import DeckSpec, SideSpec, load_spec
from ubongo_cp.status import Status
from ubongo_cp.structs import FrozenInstanceError, Struct, replace


# The dataclasses as they were declared (field order, defaults, repr/compare flags).
@dataclass(frozen=True)
class CardSideDC:
    game: Any
    card_id: Any
    side: Any
    pieces_spec: Any
    piece_set: Any
    region: Any
    tasks: Any
    path: Any = None
    meta: Any = field(default_factory=dict, compare=False)
    orientations: Any = "free"
    ranges: Any = field(default_factory=dict)
    max_empty: Any = field(default_factory=dict)


@dataclass(frozen=True)
class DeckProblemDC:
    path: Any
    message: Any


@dataclass(frozen=True)
class SideSpecDC:
    name: Any
    pieces_per_task: Any
    faces: Any
    max_rows: Any
    max_cols: Any
    cells: Any
    unique: Any = True
    max_solutions: Any = 1
    difficulty: Any = None
    orientations: Any = "free"
    attempts: Any = 400
    layers: Any = 1
    copies: Any = 1
    max_empty: Any = 0


@dataclass(frozen=True)
class DeckSpecDC:
    game: Any
    title: Any
    pieces: Any
    cards: Any
    sides: Any
    card_ids: Any = "padded"
    die_rule: Any = ""
    path: Any = None
    text: Any = field(default="", repr=False, compare=False)
    pieces_file: Any = field(default=None, repr=False, compare=False)


@dataclass(frozen=True)
class SubsetCountDC:
    pieces: Any
    count: Any


@dataclass
class AnalysisResultDC:
    subsets: Any
    k: Any
    matching_area: Any
    seconds: Any
    stats: Any = field(default_factory=dict)
    solutions: Any = field(default_factory=dict, repr=False)
    instance: Any = field(default=None, repr=False)


@dataclass
class SolveResultDC:
    status: Any
    solutions: Any
    count: Any
    complete: Any
    count_reduced: Any = None
    stats: Any = field(default_factory=dict)
    backend: Any = ""
    option_solutions: Any = field(default_factory=list, repr=False)
    instance: Any = field(default=None, repr=False, compare=False)
    frequencies: Any = field(default=None, repr=False, compare=False)
    diagram: Any = field(default=None, repr=False, compare=False)
    tally: Any = field(default_factory=dict, repr=False)


TWINS = {CardSide: CardSideDC, DeckProblem: DeckProblemDC, SideSpec: SideSpecDC, DeckSpec: DeckSpecDC,
         SubsetCount: SubsetCountDC, AnalysisResult: AnalysisResultDC, SolveResult: SolveResultDC}
FROZEN = (CardSide, DeckProblem, SideSpec, DeckSpec, SubsetCount)


def _twin(obj):
    twin = TWINS[type(obj)]
    return twin(**{f.name: getattr(obj, f.name) for f in dataclasses.fields(twin)})


def _samples() -> list:
    card = load_deck("classic")[0][0]
    spec = load_spec("classic")
    analysis = analyze(card.task_pieces(1) + card.task_pieces(2), card.region, 3, keep_solutions=True)
    result = solve(task_instance(card, 1), keep=2)
    return [card, replace(card, meta={"x": 1}, ranges={1: {"I3": (0, 1)}}), replace(card, meta={"x": 1}),
            DeckProblem("a.toml", "bad"), DeckProblem("a.toml", "worse"), spec,
            replace(spec, text="other", pieces_file="p.txt"), replace(spec, die_rule=""), spec.sides[0],
            spec.sides[1], analysis.subsets[0], analysis.subsets[1], analysis, replace(analysis, instance=None),
            replace(analysis, solutions={}), result, replace(result, instance=None, diagram="d", frequencies=[1]),
            replace(result, tally={(0,): 1}), replace(result, option_solutions=[])]


@pytest.fixture(scope="module")
def samples():
    return _samples()


def test_the_classes_are_structs_with_the_dataclasses_fields_and_defaults():
    for cls, twin in TWINS.items():
        assert issubclass(cls, Struct) and not dataclasses.is_dataclass(cls)
        assert cls._fields == tuple(f.name for f in dataclasses.fields(twin))
        params = list(inspect.signature(cls).parameters.values())
        defaults = [p.default for p in params]
        expected = [None if f.default_factory is not dataclasses.MISSING   # a default_factory: None, then {} or []
                    else inspect.Parameter.empty if f.default is dataclasses.MISSING else f.default
                    for f in dataclasses.fields(twin)]
        assert [p.name for p in params] == list(cls._fields) and defaults == expected, cls
        assert all(p.kind is p.POSITIONAL_OR_KEYWORD for p in params)


def test_repr_equality_and_hash_as_the_dataclasses(samples):
    for obj in samples:
        twin = _twin(obj)
        assert repr(obj) == repr(twin).replace(type(twin).__name__ + "(", type(obj).__name__ + "(", 1)
        same, other = _samples()[samples.index(obj)], copy.copy(obj)
        if isinstance(obj, AnalysisResult):   # its instance is compared, and the time differs
            same = replace(same, instance=obj.instance, seconds=obj.seconds, stats=obj.stats)
        if isinstance(obj, SolveResult):
            same.stats["wall_seconds"] = obj.stats["wall_seconds"]
        assert (obj == same) is (twin == _twin(same)) is True, type(obj)
        assert (obj == other) is True and obj != twin and obj != object()
        try:
            expected = hash(twin)
        except TypeError as exc:   # unhashable: a mutable struct, or a dict among the compared fields
            with pytest.raises(TypeError, match=str(exc).split("'")[0]):
                hash(obj)
        else:
            assert hash(obj) == expected, type(obj)
    for a in samples:   # the fields compared: pairs that differ in some field, as their twins
        for b in samples:
            if type(a) is type(b):
                assert (a == b) is (_twin(a) == _twin(b)), (a, b)
    card, only_meta = samples[0], samples[2]
    assert only_meta == card != samples[1]                          # meta is not compared, ranges are
    spec, other_text = samples[5], samples[6]
    assert other_text == spec and hash(other_text) == hash(spec)  # nor text and pieces_file
    result, bare = samples[-4], samples[-3]
    assert bare == result and "instance" not in repr(result)       # nor a result's instance, frequencies, diagram
    assert samples[-2] != result != samples[-1]                      # its tally and option solutions are
    analysis = samples[12]
    assert samples[13] != analysis != samples[14]                    # an analysis's instance, solutions


def test_default_dicts_and_lists_are_new_for_each_object():
    a = SolveResult(Status.SOLVED, [], 0, True)
    b = SolveResult(Status.SOLVED, [], 0, True)
    a.stats["x"] = 1
    a.option_solutions.append([1])
    a.tally[(0,)] = 1
    assert (b.stats, b.option_solutions, b.tally) == ({}, [], {})
    assert repr(b) == "SolveResult(status=<Status.SOLVED: 'solved'>, solutions=[], count=0, complete=True, " \
                      "count_reduced=None, stats={}, backend='')"
    r, s = AnalysisResult([], None, 0, 0.0), AnalysisResult([], None, 0, 0.0)
    r.stats["x"] = r.solutions["y"] = 1
    assert (s.stats, s.solutions) == ({}, {}) and repr(s) == "AnalysisResult(subsets=[], k=None, matching_area=0, " \
                                                              "seconds=0.0, stats={})"
    card = load_deck("classic")[0][0]
    c = CardSide(card.game, "9", "easy", "classic", card.piece_set, card.region, {1: ("I2",)})
    d = CardSide(card.game, "9", "easy", "classic", card.piece_set, card.region, {1: ("I2",)})
    c.meta["x"] = 1
    c.ranges[1] = {}
    c.max_empty[1] = 2
    assert (d.meta, d.ranges, d.max_empty, d.path, d.orientations) == ({}, {}, {}, None, "free")


def test_frozen_and_mutable(samples):
    for obj in samples:
        name = type(obj)._fields[0]
        if isinstance(obj, FROZEN):
            with pytest.raises(FrozenInstanceError, match=f"cannot assign to field '{name}'"):
                setattr(obj, name, 1)
            with pytest.raises(AttributeError):
                delattr(obj, name)
        else:
            before = getattr(obj, name)
            setattr(obj, name, before)   # a mutable result takes assignments (the driver fills in its fields)
    result = SolveResult(Status.UNKNOWN, [], 0, False)
    result.count += 2
    result.status = Status.SOLVED
    assert (result.count, result.status) == (2, Status.SOLVED)


def test_pickle_copy_and_replace(samples):
    # The batch runner and Dask send card sides, specs and results between processes.
    for obj in samples:
        for other in (pickle.loads(pickle.dumps(obj)), copy.copy(obj), copy.deepcopy(obj)):
            assert type(other) is type(obj) and repr(other) == repr(obj)
            assert {f: getattr(other, f) for f in obj._fields if f != "instance"} == \
                   {f: getattr(obj, f) for f in obj._fields if f != "instance"}
    card = samples[0]
    one_sided = replace(card, orientations="one-sided")
    assert one_sided.orientations == "one-sided" and one_sided.meta is card.meta and card.orientations == "free"
    assert replace(card, orientations="one-sided") == one_sided != card
    with pytest.raises(TypeError, match="CardSide has no field colour"):
        replace(card, colour="red")
    spec = replace(samples[6], cards=2)
    assert (spec.cards, spec.text, spec.pieces_file) == (2, "other", "p.txt")
