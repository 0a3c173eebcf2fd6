"""Structs: classes of named fields with a repr, equality, a hash and immutability, made without code generation.

The package's records (pieces, regions, instances, results, card sides,
plans) are not dataclasses because of start-up: the commands' common paths
(``solve``, ``analyze``, ``exact-cover``) make about two dozen of them, and
:mod:`dataclasses` compiles each one's methods from source text when its
class is made, besides importing :mod:`inspect` (with :mod:`ast`,
:mod:`dis`, :mod:`tokenize`): 18 ms of a 66 ms card-task solve, measured
with ``benchmarks/bench_startup.py``. A :class:`Struct` subclass writes
its ``__init__`` by hand, in field order; :class:`Struct` reads the field
names from that signature once, when the class is made, and gives every
record the methods :func:`dataclasses.dataclass` would generate:

- ``__repr__``: ``Name(field=value, ...)`` over the fields not listed in
  ``_hidden`` (``repr=False``);
- ``__eq__`` and ``__hash__``: over the fields not listed in
  ``_uncompared`` (``compare=False``), for structs of one class; with
  ``eq=False`` in the class statement, identity (object's own); a mutable
  struct (``frozen=False``) with equality is unhashable, as a dataclass is;
- immutability (``frozen=True``, the default): setting or deleting an
  attribute raises :class:`FrozenInstanceError` (an AttributeError);
  ``__init__`` stores the fields with :meth:`Struct._set`, and
  :func:`functools.cached_property` still caches (it writes the instance's
  ``__dict__``);
- ``__replace__`` (``copy.replace`` from Python 3.13, and
  :func:`replace` here): a copy with some fields changed, made by calling
  the class with every init field.

Records keep their ``__dict__`` (no ``__slots__``), so they pickle, copy
and take cached properties as dataclasses do. Plain immutable records with
no behaviour of their own are named tuples instead, declared as
:class:`typing.NamedTuple` classes are (field annotations, defaults,
methods, a docstring) on the base :class:`NamedTuple` of this module: the
same class :func:`collections.namedtuple` makes, without importing
:mod:`typing` or evaluating the annotations (``typing.NamedTuple``
compiles each one, and :mod:`typing` itself takes about 2 ms to import;
the type checker sees ``typing.NamedTuple``). :func:`replace` takes them
too. The functions of :mod:`dataclasses` (``replace``, ``fields``,
``asdict``) do not take structs.

The modules of the common commands' paths (a count or a subset analysis
from a piece set and a region file, an exact-cover file) do not import
:mod:`typing` at run time: they import the abstract container classes
from :mod:`collections.abc` and the rest of :mod:`typing` under
``TYPE_CHECKING`` (a name the type checker takes as true;
``tests/test_startup.py`` checks those paths).

Examples
--------
>>> class Point(Struct):
...     x: int
...     y: int
...     def __init__(self, x: int, y: int = 0) -> None:
...         self._set(x=x, y=y)
>>> p = Point(1)
>>> p, p == Point(1, 0), replace(p, y=2)
(Point(x=1, y=0), True, Point(x=1, y=2))
>>> p.x = 3
Traceback (most recent call last):
...
ubongo_cp.structs.FrozenInstanceError: cannot assign to field 'x' of a frozen Point
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, ClassVar, NamedTuple, TypeVar

    R = TypeVar("R", bound="Struct")

__all__ = ["Struct", "FrozenInstanceError", "NamedTuple", "replace"]


class FrozenInstanceError(AttributeError):
    """An attribute of a frozen struct set or deleted (as :class:`dataclasses.FrozenInstanceError`)."""


def _refuses(cls: type[Struct], name: str) -> bool:
    """Whether a frozen record refuses to set or delete ``name``: every name on a record's own class (as a
    dataclass), its fields only on a plain subclass."""
    return Struct in cls.__bases__ or name in cls._fields


def _frozen_setattr(self: Struct, name: str, value: Any) -> None:
    if _refuses(type(self), name):
        raise FrozenInstanceError(f"cannot assign to field {name!r} of a frozen {type(self).__name__}")
    object.__setattr__(self, name, value)


def _frozen_delattr(self: Struct, name: str) -> None:
    if _refuses(type(self), name):
        raise FrozenInstanceError(f"cannot delete field {name!r} of a frozen {type(self).__name__}")
    object.__delattr__(self, name)


def _fields_eq(self: Struct, other: object) -> bool:
    if other.__class__ is not self.__class__:
        return NotImplemented
    key = type(self)._key
    return self is other or key(self) == key(other)


def _fields_hash(self: Struct) -> int:
    return hash(type(self)._key(self))


def _own_fields(cls: type) -> tuple[str, ...] | None:
    """The field names of the ``__init__`` a class defines itself, in order; None when it defines none, or one
    that takes ``*args`` or ``**kwargs`` (a wrapper of its parent's: the parent's fields stand)."""
    init = vars(cls).get("__init__")
    while init is not None and hasattr(init, "__wrapped__"):   # functools.wraps
        init = init.__wrapped__
    code = getattr(init, "__code__", None)
    if code is None or code.co_flags & (_CO_VARARGS | _CO_VARKEYWORDS):
        return None
    return code.co_varnames[1:code.co_argcount + code.co_kwonlyargcount]


_CO_VARARGS, _CO_VARKEYWORDS = 0x04, 0x08   # the code flags of *args and **kwargs (module inspect)


class Struct:
    """Base of the package's structs (module docstring).

    Class statement keywords: ``frozen`` (default True) and ``eq`` (default
    True); a subclass of a record keeps its parent's unless it says
    otherwise, and its parent's fields unless its own ``__init__`` names
    them (one that takes ``*args``/``**kwargs`` does not). As for a plain
    subclass of a frozen dataclass, an instance of a subclass may take
    attributes that are not fields. Class attributes a subclass may set:
    ``_hidden`` (fields left out of the repr) and ``_uncompared`` (fields
    left out of equality and hash), as tuples of field names.
    """

    __slots__ = ()
    #: The init fields, in order (read from ``__init__``'s signature).
    _fields: ClassVar[tuple[str, ...]] = ()
    _hidden: ClassVar[tuple[str, ...]] = ()
    _uncompared: ClassVar[tuple[str, ...]] = ()
    _shown: ClassVar[tuple[str, ...]] = ()
    _frozen: ClassVar[bool] = True
    _eq: ClassVar[bool] = True
    __match_args__: ClassVar[tuple[str, ...]] = ()
    _key: ClassVar[Callable[[Any], tuple]]

    def __init_subclass__(cls, *, frozen: bool | None = None, eq: bool | None = None, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        declared = Struct in cls.__bases__
        cls._frozen = cls._frozen if frozen is None else frozen
        cls._eq = cls._eq if eq is None else eq
        fields = _own_fields(cls)
        if fields is not None:
            cls._fields = fields
        cls.__match_args__ = cls._fields  # type: ignore[misc]  # positional patterns (match), as a dataclass
        cls._shown = tuple(f for f in cls._fields if f not in cls._hidden)
        compared = [f for f in cls._fields if f not in cls._uncompared]
        get = attrgetter(*compared) if compared else (lambda self: ())
        cls._key = staticmethod(get if len(compared) != 1 else (lambda self: (get(self),)))
        if cls._frozen and (declared or frozen):
            cls.__setattr__ = _frozen_setattr  # type: ignore[method-assign,assignment]
            cls.__delattr__ = _frozen_delattr  # type: ignore[method-assign,assignment]
        if (declared or eq is not None or frozen is not None) and "__eq__" not in vars(cls):
            if cls._eq:
                cls.__eq__ = _fields_eq  # type: ignore[method-assign,assignment]
                cls.__hash__ = _fields_hash if cls._frozen else None  # type: ignore[method-assign,assignment]
            else:
                cls.__eq__ = object.__eq__  # type: ignore[method-assign]
                cls.__hash__ = object.__hash__  # type: ignore[method-assign]

    def _set(self, **values: Any) -> None:
        """Store fields (``__init__`` of a frozen struct)."""
        vars(self).update(values)

    def __repr__(self) -> str:
        return f"{type(self).__qualname__}({', '.join(f'{f}={getattr(self, f)!r}' for f in self._shown)})"

    def __replace__(self: R, **changes: Any) -> R:
        unknown = set(changes) - set(self._fields)
        if unknown:
            raise TypeError(f"{type(self).__name__} has no field {', '.join(sorted(unknown))}")
        return type(self)(**{f: changes[f] if f in changes else getattr(self, f) for f in self._fields})


def replace(struct: Any, /, **changes: Any) -> Any:
    """A copy of ``struct`` (a :class:`Struct`, or a :class:`typing.NamedTuple`) with ``changes`` (field name ->
    value), as :func:`dataclasses.replace` does.

    Raises
    ------
    TypeError
        For a name that is not one of the struct's init fields (a ValueError from a named tuple).
    """
    if isinstance(struct, tuple):
        return struct._replace(**changes)  # type: ignore[attr-defined]
    return struct.__replace__(**changes)


class _NamedTupleMeta(type):
    """Makes a class statement on :class:`NamedTuple` a :func:`collections.namedtuple` class."""

    def __new__(mcls, name: str, bases: tuple, namespace: dict):
        if namespace.get("_root"):
            return super().__new__(mcls, name, bases, namespace)
        from collections import namedtuple

        annotations = namespace.get("__annotations__", {})
        fields = list(annotations)
        defaults = [namespace[f] for f in fields if f in namespace]
        if any(f not in namespace for f in fields[len(fields) - len(defaults):]):
            raise TypeError(f"{name}: a field without a default follows one with a default")
        cls = namedtuple(name, fields, defaults=defaults,  # type: ignore[misc]  # names known at run time
                         module=namespace.get("__module__"))
        cls.__annotations__ = dict(annotations)   # as written (strings): not evaluated
        for key, value in namespace.items():
            if key in _NAMED_TUPLE_PROHIBITED:
                raise AttributeError(f"{name}: cannot overwrite NamedTuple attribute {key}")
            if key not in _NAMED_TUPLE_KEPT and key not in fields:
                setattr(cls, key, value)
        return cls


#: What a class statement on :class:`NamedTuple` may not set (as :class:`typing.NamedTuple`), and what the
#: named tuple keeps of its own.
_NAMED_TUPLE_PROHIBITED = frozenset({"__new__", "__init__", "__slots__", "__getnewargs__", "_fields",
                                     "_field_defaults", "_make", "_replace", "_asdict", "_source"})
_NAMED_TUPLE_KEPT = frozenset({"__module__", "__qualname__", "__annotations__"})


if not TYPE_CHECKING:
    class NamedTuple(metaclass=_NamedTupleMeta):
        """Base of a named tuple declared by a class statement, as :class:`typing.NamedTuple`: the fields are
        the annotated names, in order, a value is the field's default, and methods and a docstring are the
        class's own (module docstring). The class made is a :func:`collections.namedtuple` class, neither an
        instance of this one's metaclass nor a subclass of it.

        Raises
        ------
        TypeError
            For a field without a default after one with a default.
        AttributeError
            For a name a named tuple keeps for itself (``_make``, ``_replace``, ``__new__``, ...).
        """

        _root = True
