"""The few names of Cython's pure-Python mode meeple's compiled modules use, for the
pure-Python build where Cython is not installed (it is no runtime dependency). A module says
(mypy reading this module's typed names under ``TYPE_CHECKING``)::

    try:
        import cython
    except ImportError:
        from meeple.engine import _cython_shadow as cython

Compiled, ``cython`` is Cython's own (the types become C types, the decorators compile);
in pure Python, with or without Cython installed, every decorator here leaves its function or
class as it is and ``compiled`` is ``False``, as in Cython's own ``Cython.Shadow``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

compiled = False
"""Whether the module runs compiled (never, where this stands in for Cython)."""


def _keep(thing: T) -> T:
    return thing


def _directive(*args: Any, **kwargs: Any) -> Callable[[T], T]:
    """A decorator taking arguments (``@cython.locals(x=cython.int)``) that changes nothing."""
    return _keep


cclass = final = cfunc = ccall = inline = _keep
locals = boundscheck = wraparound = cdivision = _directive

def declare(kind: Any = None, value: Any = None, **kwargs: Any) -> Any:
    """A C variable or field: in pure Python just its value (``None`` unless given)."""
    return value


int = uint = long = longlong = ulonglong = Py_ssize_t = bint = object
double = float
