"""Converting Python functions: source → transformed syntax tree → a new function object.

The converted function shares the original's globals (so later global assignments are
seen) and its closure cells; it is compiled with the original file name and line numbers,
so tracebacks and op source lines point at the user's code. Conversions are cached per
code object. Functions that cannot be converted (no source, generators, ...) run as they
are, with a warning, as TensorFlow's AutoGraph does."""
from __future__ import annotations

import ast
import builtins
import contextlib
import functools
import inspect
import sys
import textwrap
import types
import warnings
from collections.abc import Callable, Iterator
from typing import Any

from flowgrad.autograph import operators
from flowgrad.autograph.transformer import ConversionError, convert_module
from flowgrad.framework.context import executing_eagerly, state
from flowgrad.framework.tensor import Tensor
from flowgrad.ops import array_ops

ENABLED, DISABLED = "enabled", "disabled"
_SKIPPED_MODULES = ("flowgrad", "numpy", "pytest", "_pytest", "scipy", "gymnasium", "ray",
                    # TensorFlow's DoNotConvert list (autograph/core/config.py): libraries
                    # whose code runs as written inside a tf.function
                    "keras", "tf_keras", "matplotlib", "pandas", "PIL", "tensorflow",
                    "tensorflow_probability", "tensorflow_datasets", "absl")
_cache: dict = {}            # code object -> (converted code object, its free variable names)
_failed: dict = {}           # code object -> why it was not converted
_sources: dict = {}          # code object -> the converted source text
verbosity = 0                # tf.autograph.set_verbosity: >= 3 prints converted sources


class _Namespace(types.SimpleNamespace):
    """The ``ag__`` object that converted code refers to."""


def _range(*args: Any) -> Any:
    if any(isinstance(a, Tensor) for a in args):
        return array_ops.range(*args)
    return builtins.range(*args)


def _len(x: Any) -> Any:
    if isinstance(x, Tensor):
        dims = x.shape.as_tuple() if x.shape.ndims is not None else None
        if dims == ():
            raise ValueError("len requires a non-scalar tensor, got one of shape []: %s"
                             % x.name)
        if dims is not None and dims[0] is not None:
            return dims[0]
        return array_ops.shape(x)[0]
    return len(x)


def _enumerate(iterable: Any, start: int = 0) -> Any:
    if operators.is_dataset(iterable) and hasattr(iterable, "enumerate"):
        return iterable.enumerate(start)        # a loop over it stays a dataset loop
    return builtins.enumerate(iterable, start)


_BUILTIN_OVERRIDES = {builtins.range: _range, builtins.len: _len,
                      builtins.enumerate: _enumerate}


def _skipped(f: Any) -> bool:
    top = (getattr(f, "__module__", None) or "").split(".")[0]
    return top in _SKIPPED_MODULES or top in sys.stdlib_module_names


def converted_call(f: Any) -> Any:
    """The callable that converted code calls in place of ``f`` (converted if it is a user
    function; ``range``/``len`` of a Tensor become their TensorFlow forms)."""
    try:
        override = _BUILTIN_OVERRIDES.get(f)
    except TypeError:
        return f
    if override is not None:
        return override
    if getattr(f, "__ag_do_not_convert__", False):
        return f
    if inspect.ismethod(f) and isinstance(f.__func__, types.FunctionType):
        g = converted_call(f.__func__)
        return f if g is f.__func__ else types.MethodType(g, f.__self__)
    if not isinstance(f, types.FunctionType) or f.__name__ == "<lambda>" or _skipped(f) or \
            inspect.isgeneratorfunction(f) or inspect.iscoroutinefunction(f):
        return f
    return convert(f, warn=True)


def _transformed_code(f: types.FunctionType) -> tuple:
    code = f.__code__
    hit = _cache.get(code)
    if hit is not None:
        return hit
    try:
        source = textwrap.dedent(inspect.getsource(code))  # not f: a __wrapped__ inner one
        tree = ast.parse(source)
    except (OSError, TypeError, SyntaxError, IndentationError) as e:
        raise ConversionError("could not get source code (%s)" % e) from None
    parts = f.__qualname__.split(".")
    owner = parts[-2] if len(parts) > 1 and parts[-2] != "<locals>" else None
    fdef = convert_module(tree, owner)
    if fdef.name != code.co_name or len(fdef.args.args) + len(fdef.args.posonlyargs) != \
            code.co_argcount:
        raise ConversionError("the source found for %s does not match its code (was the file "
                              "changed?)" % code.co_name)
    free = list(code.co_freevars)
    for extra in ("ag__", "__class__"):
        if extra not in free:
            free.append(extra)
    factory = ast.FunctionDef(
        name="ag__factory", args=ast.arguments(posonlyargs=[], args=[], vararg=None,
                                               kwonlyargs=[], kw_defaults=[], kwarg=None,
                                               defaults=[]),
        body=[ast.Assign(targets=[ast.Name(id=n, ctx=ast.Store())], value=ast.Constant(None))
              for n in free] + [fdef, ast.Return(value=ast.Name(id=fdef.name, ctx=ast.Load()))],
        decorator_list=[], returns=None)
    module = ast.Module(body=[factory], type_ignores=[])
    ast.fix_missing_locations(module)
    ast.increment_lineno(module, code.co_firstlineno - 1)
    namespace: dict = {}
    exec(compile(module, code.co_filename, "exec"), f.__globals__, namespace)
    inner = namespace["ag__factory"]()
    hit = _cache[code] = (inner.__code__, inner.__code__.co_freevars)
    _sources[code] = ast.unparse(fdef)
    if verbosity >= 3:
        print("Converted %s:\n%s" % (f.__qualname__, _sources[code]))
    return hit


def _cell(value: Any) -> types.CellType:
    return types.CellType(value)


def convert(f: types.FunctionType, warn: bool = False) -> Callable:
    """``f`` with its control flow converted (``f`` itself if it cannot be converted)."""
    if f.__code__ in _failed:
        return f
    try:
        code, freevars = _transformed_code(f)
    except (ConversionError, SyntaxError) as e:
        _failed[f.__code__] = str(e)
        if warn:
            warnings.warn("AutoGraph could not transform %s and will run it as-is. Cause: %s"
                          % (getattr(f, "__qualname__", f), e), stacklevel=3)
        return f
    cells = dict(zip(f.__code__.co_freevars, f.__closure__ or ()))
    cells.setdefault("ag__", _cell(ag__))
    closure = tuple(cells[n] if n in cells else _cell(None) for n in freevars)
    g = types.FunctionType(code, f.__globals__, f.__name__, f.__defaults__, closure)
    g.__kwdefaults__ = f.__kwdefaults__
    functools.update_wrapper(g, f)
    return g


@contextlib.contextmanager
def control_status(status: str) -> Iterator[None]:
    """Marks the code run inside as converted (``ENABLED``) or not (``DISABLED``)."""
    state.autograph.append(status)
    try:
        yield
    finally:
        state.autograph.pop()


def tf_convert(f: Callable, enabled: bool = True) -> Callable:
    """``f`` converted (when ``enabled``), run under the matching control status (library
    functions, flowgrad's own included, run as they are but keep AutoGraph enabled for the
    user code they call, see ``maybe_convert``)."""
    target = converted_call(f) if enabled else f
    code = getattr(getattr(f, "__func__", f), "__code__", None)
    status = ENABLED if enabled and code not in _failed else DISABLED

    @functools.wraps(f)
    def run(*args: Any, **kwargs: Any) -> Any:
        with control_status(status):
            return target(*args, **kwargs)
    return run


def maybe_convert(fn: Callable) -> Callable:
    """``fn`` converted if it is called from code that AutoGraph converts while a graph is
    traced (how library code such as a Keras layer's ``__call__`` runs the user's ``call``),
    else ``fn`` itself."""
    if state.autograph and state.autograph[-1] == ENABLED and not executing_eagerly():
        return converted_call(fn)
    return fn


def do_not_convert(func: Callable | None = None) -> Any:
    """Marks ``func`` to run as-is (not converted) when called from converted code.

    Args:
        func: The function to mark; None makes this a decorator factory
          (``@do_not_convert()``).

    Returns:
        The function, run with AutoGraph disabled (or the decorator, when ``func`` is None).
    """
    def wrap(f: Callable) -> Callable:
        @functools.wraps(f)
        def run(*args: Any, **kwargs: Any) -> Any:
            with control_status(DISABLED):
                return f(*args, **kwargs)
        run.__ag_do_not_convert__ = True
        return run
    return wrap if func is None else wrap(func)


def to_graph(entity: Callable, recursive: bool = True, experimental_optional_features: Any = None
             ) -> Callable:
    """The converted form of a Python function (its control flow as ``ag__`` calls).

    Args:
        entity: A Python function or method.
        recursive: Accepted for TensorFlow's signature; the functions it calls are converted
            when they are called, as TensorFlow does by default.
        experimental_optional_features: Accepted for TensorFlow's signature; ignored.

    Returns:
        The converted function (a method stays bound to its object).

    Raises:
        TypeError: ``entity`` is not a Python function or method.
        ConversionError: its source cannot be converted.
    """
    if inspect.ismethod(entity):
        return types.MethodType(to_graph(entity.__func__), entity.__self__)
    if not isinstance(entity, types.FunctionType):
        raise TypeError("to_graph expects a Python function or method, got %r" % (entity,))
    g = convert(entity)
    if g is entity:
        raise ConversionError("could not convert %s: %s" % (entity.__qualname__,
                                                          _failed.get(entity.__code__)))
    return g


def to_code(entity: Callable, recursive: bool = True,
            experimental_optional_features: Any = None) -> str:
    """The source of the converted form of a Python function (what ``tf.function`` runs).

    Args:
        entity: A Python function or method.
        recursive: Accepted for TensorFlow's signature (see :func:`to_graph`).
        experimental_optional_features: Accepted for TensorFlow's signature; ignored.

    Returns:
        The converted function's Python source.
    """
    to_graph(entity)
    return _sources[getattr(entity, "__func__", entity).__code__]


ag__ = _Namespace(
    converted_call=converted_call, Undefined=operators.Undefined, ld=operators.ld,
    if_stmt=operators.if_stmt, if_exp=operators.if_exp, assert_stmt=operators.assert_stmt,
    while_stmt=operators.while_stmt,
    for_stmt=operators.for_stmt, and_=operators.and_, or_=operators.or_, not_=operators.not_)
