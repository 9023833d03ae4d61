"""TensorFlow's API dispatch (``tensorflow/python/util/dispatch.py``): a public op function
decorated with :func:`add_dispatch_support` hands its call to a *dispatch target* when its
arguments match a type signature registered with ``tf.experimental.dispatch_for_api`` (or,
for the element-wise APIs, ``dispatch_for_unary_elementwise_apis`` /
``dispatch_for_binary_elementwise_apis`` / ``dispatch_for_binary_elementwise_assert_apis``).
RaggedTensors (flowgrad/ops/ragged_dispatch.py), SparseTensors and users' ExtensionTypes
(``MaskedTensor``) plug into ``tf.math`` this way.

As in TensorFlow, a signature matches when every annotated parameter's value matches its
annotation (a type, ``typing.Union[...]``, ``typing.List[...]``, ``None``) and at least one
annotated parameter holds a dispatchable value (a CompositeTensor, or a type registered with
:func:`register_dispatchable_type`), so ``tf.add(1, 2)`` never dispatches. An op with no
registered target calls its function directly: one check of an empty list."""
from __future__ import annotations

import functools
import inspect
import itertools
import typing
from collections.abc import Callable
from typing import Any

from flowgrad.framework.composite_tensor import CompositeTensor

#: The attribute of a dispatchable op function that holds its :class:`_ApiDispatcher`.
TYPE_BASED_DISPATCH_ATTR = "_tf_type_based_dispatcher"
#: The attribute of a dispatchable op function that holds its fallback OpDispatchers.
FALLBACK_DISPATCH_ATTR = "_tf_fallback_dispatchers"

_DISPATCHABLE_TYPES: list = [CompositeTensor]
_is_dispatchable_cache: dict = {}
_GLOBAL_DISPATCHERS: list = []
#: The code objects of the dispatch wrappers: frames that only pass a call on (an op that
#: looks at its caller, as ``tf.where``'s warning does, skips them).
DISPATCH_FRAMES: set = set()


def register_dispatchable_type(cls: type) -> type:
    """Class decorator: values of ``cls`` trigger type-based dispatch, as CompositeTensors
    do (TensorFlow uses it for RaggedTensorValue; flowgrad's RaggedTensor and SparseTensor).

    Args:
      cls: The class to register.

    Returns:
      ``cls``.
    """
    _DISPATCHABLE_TYPES.append(cls)
    _is_dispatchable_cache.clear()
    _PLAIN_TYPES.clear()
    return cls


def _is_dispatchable(value: Any) -> bool:
    cls = type(value)
    hit = _is_dispatchable_cache.get(cls)
    if hit is None:
        hit = _is_dispatchable_cache[cls] = issubclass(cls, tuple(_DISPATCHABLE_TYPES))
    return hit


def _holds_dispatchable(value: Any) -> bool:
    """Whether ``value`` (or an element of a list or tuple ``value``) is dispatchable."""
    if _is_dispatchable(value):
        return True
    if isinstance(value, (list, tuple)):
        return any(_is_dispatchable(v) for v in value)
    _PLAIN_TYPES.add(type(value))
    return False


#: Types whose values never trigger dispatch (neither dispatchable nor a list or tuple):
#: the per-call check of an op with dispatch targets is one set lookup per argument.
_PLAIN_TYPES: set = set()


def _needs_dispatch(args: tuple, kwargs: dict) -> bool:
    plain = _PLAIN_TYPES
    for a in args:
        if type(a) not in plain and _holds_dispatchable(a):
            return True
    if kwargs:
        for a in kwargs.values():
            if type(a) not in plain and _holds_dispatchable(a):
                return True
    return False


# --------------------------------------------------------------------------------------
# Type checkers and signatures


def make_type_checker(annotation: Any) -> Callable[[Any], bool]:
    """A predicate for values matching ``annotation``: a type, ``typing.Union[...]``,
    ``typing.List[...]`` or ``None``.

    Args:
      annotation: The type annotation.

    Returns:
      A function of one value returning a bool.

    Raises:
      ValueError: ``annotation`` is of another kind.
    """
    origin = typing.get_origin(annotation)
    if origin is typing.Union or (origin is not None and origin.__name__ == "UnionType"):
        options = [make_type_checker(t) for t in typing.get_args(annotation)]
        return lambda v: any(check(v) for check in options)
    if origin is list:
        args = typing.get_args(annotation)
        if len(args) != 1:
            raise AssertionError("Expected List[...] to have a single type parameter")
        elt = make_type_checker(args[0])
        return lambda v: isinstance(v, (list, tuple)) and all(elt(e) for e in v)
    if isinstance(annotation, type):
        return lambda v: isinstance(v, annotation)
    if annotation is None:
        return lambda v: v is None
    raise ValueError(f"Type annotation {annotation} is not currently supported by dispatch.  "
                     "Supported annotations: type objects,  List[...], and Union[...]")


class _SignatureChecker:
    """Matches a call's arguments against one signature: ``[(index, name, default, check)]``."""

    def __init__(self, api_signature: inspect.Signature, signature: Any) -> None:
        if not (isinstance(signature, dict) and all(isinstance(k, (str, int))
                                                    for k in signature)):
            raise TypeError("signatures must be dictionaries mapping parameter names to type "
                            "annotations.")
        params = list(api_signature.parameters.values())
        names = [p.name for p in params]
        self.checks = []
        for key, annotation in signature.items():
            name = params[key].name if isinstance(key, int) and key < len(params) else key
            param = api_signature.parameters.get(name) if isinstance(name, str) else None
            if param is None:
                raise ValueError(f"signature includes annotation for unknown parameter {key!r}.")
            if param.kind not in (inspect.Parameter.POSITIONAL_ONLY,
                                  inspect.Parameter.POSITIONAL_OR_KEYWORD):
                raise ValueError("Dispatch currently only supports type annotations for "
                                 "positional parameters; can't handle annotation for "
                                 f"{param.kind!r} parameter {name}.")
            default = None if param.default is inspect.Parameter.empty else param.default
            self.checks.append((names.index(name), name, default,
                                make_type_checker(annotation)))

    def matches(self, args: tuple, kwargs: dict) -> bool:
        dispatchable = False
        for index, name, default, check in self.checks:
            value = args[index] if index < len(args) else kwargs.get(name, default)
            if not check(value):
                return False
            dispatchable = dispatchable or _holds_dispatchable(value)
        return dispatchable


class _ApiDispatcher:
    """The type-based dispatch targets of one API, in registration order."""

    def __init__(self, api_name: str, signature: inspect.Signature) -> None:
        self.api_name = api_name
        self.signature = signature
        self.targets: list = []         # [(_SignatureChecker, target)]

    def register(self, checker: _SignatureChecker, target: Callable) -> None:
        self.targets.append((checker, target))

    def unregister(self, target: Callable) -> None:
        self.targets[:] = [(c, t) for c, t in self.targets if t is not target]

    def dispatch(self, args: tuple, kwargs: dict) -> Any:
        """The matching target's result, or NotImplemented where none matches (the caller
        has checked that an argument is dispatchable)."""
        found = None
        for checker, target in self.targets:
            if target is not found and checker.matches(args, kwargs):
                if found is not None:
                    raise ValueError(
                        "Multiple dispatch targets that were registered with "
                        f"tf.dispatch_for ({found} and {target}) match the arguments to "
                        f"{self.api_name}")
                found = target
        return NotImplemented if found is None else found(*args, **kwargs)


DISPATCH_FRAMES.add(_ApiDispatcher.dispatch.__code__)


# --------------------------------------------------------------------------------------
# Fallback dispatch (TensorFlow's dispatch v1: asked when the op raises TypeError/ValueError)


class OpDispatcher:
    """Abstract base class of an op's fallback dispatcher (``tf.__internal__.dispatch``):
    asked, when the op raises TypeError or ValueError, whether it handles the call."""

    #: What :meth:`handle` returns for arguments it does not handle.
    NOT_SUPPORTED = object()

    def handle(self, args: tuple, kwargs: dict) -> Any:
        """The result of the op for these arguments, or ``NOT_SUPPORTED``.

        Args:
          args: The op's positional arguments.
          kwargs: Its keyword arguments.

        Returns:
          The result, or ``OpDispatcher.NOT_SUPPORTED``.
        """
        del args, kwargs
        return self.NOT_SUPPORTED

    def register(self, op: Callable) -> None:
        """Registers this dispatcher as a handler of ``op``.

        Args:
          op: An op function decorated with :func:`add_dispatch_support`.

        Raises:
          AssertionError: ``op`` does not support dispatch.
        """
        if not hasattr(op, FALLBACK_DISPATCH_ATTR):
            raise AssertionError("Dispatching not enabled for %s" % op)
        getattr(op, FALLBACK_DISPATCH_ATTR).append(self)


class GlobalOpDispatcher:
    """Abstract base class of a fallback dispatcher asked for every op."""

    NOT_SUPPORTED = OpDispatcher.NOT_SUPPORTED

    def handle(self, op: Callable, args: tuple, kwargs: dict) -> Any:
        """The result of ``op`` for these arguments, or ``NOT_SUPPORTED``.

        Args:
          op: The op function.
          args: Its positional arguments.
          kwargs: Its keyword arguments.

        Returns:
          The result, or ``GlobalOpDispatcher.NOT_SUPPORTED``.
        """
        del op, args, kwargs
        return self.NOT_SUPPORTED

    def register(self) -> None:
        """Registers this dispatcher as a handler of every op."""
        _GLOBAL_DISPATCHERS.append(self)


def dispatch(op: Callable, args: tuple, kwargs: dict) -> Any:
    """The result of the first fallback dispatcher of ``op`` that handles the call.

    Args:
      op: A dispatchable op function.
      args: Its positional arguments.
      kwargs: Its keyword arguments.

    Returns:
      The result, or ``OpDispatcher.NOT_SUPPORTED``.
    """
    for dispatcher in getattr(op, FALLBACK_DISPATCH_ATTR):
        result = dispatcher.handle(args, kwargs)
        if result is not OpDispatcher.NOT_SUPPORTED:
            return result
    for dispatcher in _GLOBAL_DISPATCHERS:
        result = dispatcher.handle(op, args, kwargs)
        if result is not OpDispatcher.NOT_SUPPORTED:
            return result
    return OpDispatcher.NOT_SUPPORTED


class _TypeBasedDispatcher(OpDispatcher):
    """Hands the op to ``override`` when an argument (or a list element) has one of
    ``types``."""

    def __init__(self, override: Callable, types: tuple) -> None:
        self._override = override
        self._types = types

    def handle(self, args: tuple, kwargs: dict) -> Any:
        for arg in itertools.chain(args, kwargs.values()):
            if isinstance(arg, self._types) or (isinstance(arg, (list, tuple)) and any(
                    isinstance(e, self._types) for e in arg)):
                return self._override(*args, **kwargs)
        return self.NOT_SUPPORTED


def dispatch_for_types(op: Callable, *types: type) -> Callable:
    """Decorator: the decorated function overrides ``op`` when an argument has one of
    ``types`` (TensorFlow's older, fallback dispatch).

    Args:
      op: A dispatchable op function.
      *types: The argument types.

    Returns:
      The decorator.
    """
    def decorator(func: Callable) -> Callable:
        _TypeBasedDispatcher(func, types).register(op)
        return func
    return decorator


# --------------------------------------------------------------------------------------
# Dispatch support for an API


#: ``{api: {target: [signature, ...]}}``: every API that supports type-based dispatch.
_TYPE_BASED_DISPATCH_SIGNATURES: dict = {}


def add_dispatch_support(target: Callable | None = None,
                         iterable_parameters: list | tuple | None = None) -> Callable:
    """Decorator that makes a public op function dispatchable: ``dispatch_for_api`` can
    override it for argument types of a user's choice (``tf.__internal__.dispatch``).

    Args:
      target: The function (as a plain decorator), or None (then called with keywords).
      iterable_parameters: Names of parameters that may be any iterable (``tf.add_n``'s
        ``inputs``): turned into lists before dispatch.

    Returns:
      The dispatching function, or a decorator making one.

    Raises:
      TypeError: ``iterable_parameters`` is not a list or tuple of strings.
    """
    if not (iterable_parameters is None or (
            isinstance(iterable_parameters, (list, tuple))
            and all(isinstance(p, str) for p in iterable_parameters))):
        raise TypeError("iterable_parameters should be a list or tuple of string.")

    def decorator(fn: Callable) -> Callable:
        signature = inspect.signature(fn)
        if iterable_parameters is None:
            iterable = None
        else:
            names = list(signature.parameters)
            iterable = [(p, names.index(p)) for p in iterable_parameters]
        api = _ApiDispatcher(fn.__name__, signature)
        targets = api.targets
        fallback: list = []

        @functools.wraps(fn)
        def op_dispatch_handler(*args: Any, **kwargs: Any) -> Any:
            if targets:
                if iterable is not None:
                    args, kwargs = _listed(args, kwargs, iterable)
                if _needs_dispatch(args, kwargs):
                    result = api.dispatch(args, kwargs)
                    if result is not NotImplemented:
                        return result
            try:
                return fn(*args, **kwargs)
            except (TypeError, ValueError):
                if not (fallback or _GLOBAL_DISPATCHERS):
                    raise
                result = dispatch(op_dispatch_handler, args, kwargs)
                if result is OpDispatcher.NOT_SUPPORTED:
                    raise
                return result

        DISPATCH_FRAMES.add(op_dispatch_handler.__code__)
        setattr(op_dispatch_handler, FALLBACK_DISPATCH_ATTR, fallback)
        has_varargs = any(p.kind in (inspect.Parameter.VAR_POSITIONAL,
                                     inspect.Parameter.VAR_KEYWORD)
                          for p in signature.parameters.values())
        if not has_varargs:     # as TensorFlow: no type-based dispatch of (*args, **kwargs)
            setattr(op_dispatch_handler, TYPE_BASED_DISPATCH_ATTR, api)
            _TYPE_BASED_DISPATCH_SIGNATURES[op_dispatch_handler] = {}
        return op_dispatch_handler

    return decorator if target is None else decorator(target)


def _listed(args: tuple, kwargs: dict, iterable: list) -> tuple:
    args = list(args)
    for name, index in iterable:
        if index < len(args):
            args[index] = list(args[index])
        elif name in kwargs:
            kwargs[name] = list(kwargs[name])
    return tuple(args), kwargs


def is_dispatchable(api: Any) -> bool:
    """Whether ``api`` supports ``dispatch_for_api``.

    Args:
      api: Any object.

    Returns:
      True for a function decorated with :func:`add_dispatch_support`.
    """
    return hasattr(api, TYPE_BASED_DISPATCH_ATTR)


def apis_with_type_based_dispatch() -> list:
    """The APIs that support ``dispatch_for_api``, by module and name.

    Returns:
      A sorted list of functions.
    """
    return sorted(_TYPE_BASED_DISPATCH_SIGNATURES,
                  key=lambda api: f"{api.__module__}.{api.__name__}")


def _signature_from_annotations(func: Callable) -> dict:
    signature = {name: param.annotation
                 for name, param in inspect.signature(func).parameters.items()
                 if param.annotation is not inspect.Parameter.empty}
    if not signature:
        raise ValueError("The dispatch_for_api decorator must be called with at least one "
                         "signature, or applied to a function that has type annotations on "
                         "its parameters.")
    if any(isinstance(a, str) for a in signature.values()):    # from __future__ annotations
        hints = typing.get_type_hints(func)
        signature = {name: hints[name] for name in signature}
    return signature


def _check_signature(api_signature: inspect.Signature, func: Callable) -> None:
    params = list(inspect.signature(func).parameters.values())
    if (len(params) == 2 and params[0].kind is inspect.Parameter.VAR_POSITIONAL
            and params[1].kind is inspect.Parameter.VAR_KEYWORD):
        return          # (*args, **kwargs) fits every API
    api_params = list(api_signature.parameters.values())
    # flowgrad's TF2 functions keep some TF1 keywords after TensorFlow's parameters
    # (reduce_sum's reduction_indices/keep_dims): a target may leave those out.
    extra = api_params[len(params):]
    ok = len(api_params) >= len(params) and all(
        a.name == b.name and a.kind == b.kind for a, b in zip(api_params, params)) and all(
        p.default is not inspect.Parameter.empty for p in extra) and (
        not extra or params and params[-1].name == "name" or not any(
            p.name == "name" for p in extra))
    if not ok:
        raise ValueError(f"Dispatch function's signature {inspect.signature(func)} does not "
                         f"match API's signature {_unannotated(api_signature)}.")


def _unannotated(signature: inspect.Signature) -> inspect.Signature:
    """``signature`` without its annotations (TensorFlow's op functions have none)."""
    empty = inspect.Parameter.empty
    return signature.replace(
        parameters=[p.replace(annotation=empty) for p in signature.parameters.values()],
        return_annotation=inspect.Signature.empty)


def _add_name_scope_wrapper(func: Callable, api_signature: inspect.Signature) -> Callable:
    """``func`` taking the API's ``name`` parameter too (opening a name scope with it)
    where the API has one and ``func`` does not."""
    if "name" not in api_signature.parameters:
        return func
    func_signature = inspect.signature(func)
    if "name" in func_signature.parameters or any(
            p.kind is inspect.Parameter.VAR_KEYWORD for p in func_signature.parameters.values()):
        return func
    name_index = list(api_signature.parameters).index("name")

    @functools.wraps(func)
    def wrapped_func(*args: Any, **kwargs: Any) -> Any:
        if name_index < len(args):
            name = args[name_index]
            args = args[:name_index] + args[name_index + 1:]
        else:
            name = kwargs.pop("name", None)
        if name is None:
            return func(*args, **kwargs)
        from flowgrad.framework.v2_compat import name_scope_v2
        with name_scope_v2(name):
            return func(*args, **kwargs)

    wrapped_func.__signature__ = func_signature.replace(
        parameters=list(func_signature.parameters.values())
        + [api_signature.parameters["name"].replace(annotation=inspect.Parameter.empty)])
    return wrapped_func


def dispatch_for_api(api: Callable, *signatures: dict) -> Callable:
    """Decorator that overrides a TensorFlow API for arguments of given types.

    The decorated function (the *dispatch target*) is called instead of ``api`` when the
    arguments match one of ``signatures`` (dicts from parameter names or indices to type
    annotations: types, ``typing.Union[...]``, ``typing.List[...]``); with no signature, the
    target's own parameter annotations are the signature. The target's parameters must be
    the API's (names and kinds, in order); it may leave out ``name``, which then opens a
    name scope around it. Dispatch needs at least one annotated argument to hold a
    CompositeTensor (an ExtensionType, RaggedTensor, SparseTensor).

    Example:

    >>> class MaskedTensor(tf.experimental.ExtensionType):
    ...   values: tf.Tensor
    ...   mask: tf.Tensor
    >>> @tf.experimental.dispatch_for_api(tf.math.add,
    ...                                   {'x': MaskedTensor, 'y': MaskedTensor})
    ... def masked_add(x, y, name=None):
    ...   return MaskedTensor(x.values + y.values, x.mask & y.mask)
    >>> mt = tf.add(MaskedTensor([1, 2], [True, False]), MaskedTensor(10, True))
    >>> print(f"values={mt.values.numpy()}, mask={mt.mask.numpy()}")
    values=[11 12], mask=[ True False]
    >>> tf.experimental.unregister_dispatch_for(masked_add)

    Args:
      api: The TensorFlow API to override (a function that supports dispatch).
      *signatures: Dicts mapping parameter names (or indices) to type annotations.

    Returns:
      A decorator that registers its function and returns it.

    Raises:
      ValueError: ``api`` does not support dispatch, a signature names an unknown
        parameter, or the target's signature is not the API's.
      TypeError: a signature is not a dict, or the target is not callable.
    """
    dispatcher = getattr(api, TYPE_BASED_DISPATCH_ATTR, None)
    if dispatcher is None:
        raise ValueError(f"{api} does not support dispatch.")
    api_signature = dispatcher.signature
    checkers = [_SignatureChecker(api_signature, s) for s in signatures]

    def decorator(dispatch_target: Callable) -> Callable:
        if not callable(dispatch_target):
            raise TypeError("Expected dispatch_target to be callable; "
                            f"got {dispatch_target!r}")
        dispatch_target = _add_name_scope_wrapper(dispatch_target, api_signature)
        _check_signature(api_signature, dispatch_target)
        registered = _TYPE_BASED_DISPATCH_SIGNATURES[api].setdefault(dispatch_target, [])
        for checker in checkers:
            dispatcher.register(checker, dispatch_target)
        registered.extend(signatures)
        if not checkers:
            signature = _signature_from_annotations(dispatch_target)
            dispatcher.register(_SignatureChecker(api_signature, signature), dispatch_target)
            registered.append(signature)
        return dispatch_target
    return decorator


def unregister_dispatch_for(dispatch_target: Callable) -> None:
    """Unregisters a function registered with a ``@dispatch_for_*`` decorator.

    Args:
      dispatch_target: The function to unregister.

    Raises:
      ValueError: ``dispatch_target`` was not registered with ``dispatch_for_api`` or a
        ``dispatch_for_*_elementwise_apis`` decorator.
    """
    found = False
    for api, targets in _TYPE_BASED_DISPATCH_SIGNATURES.items():
        if dispatch_target in targets:
            getattr(api, TYPE_BASED_DISPATCH_ATTR).unregister(dispatch_target)
            del targets[dispatch_target]
            found = True
    for key in [k for k, h in _ELEMENTWISE_API_HANDLERS.items() if h is dispatch_target]:
        for _, target in _ELEMENTWISE_API_TARGETS.pop(key, []):
            unregister_dispatch_for(target)
        del _ELEMENTWISE_API_HANDLERS[key]
        found = True
    if not found:
        raise ValueError(f"Function {dispatch_target} was not registered using a "
                         "`@dispatch_for_*` decorator.")


# --------------------------------------------------------------------------------------
# Element-wise APIs

_UNARY_ELEMENTWISE_APIS: list = []
_BINARY_ELEMENTWISE_APIS: list = []
_BINARY_ELEMENTWISE_ASSERT_APIS: list = []
_ELEMENTWISE_API_HANDLERS: dict = {}     # (x_type[, y_type[, _ASSERT]]) -> handler
_ELEMENTWISE_API_TARGETS: dict = {}      # the same keys -> [(api, dispatch_target)]
_ASSERT_API_TAG = "ASSERT_API_TAG"


def register_unary_elementwise_api(func: Callable) -> Callable:
    """Decorator: ``func`` (a dispatchable op) is a unary element-wise API, which
    ``dispatch_for_unary_elementwise_apis`` handlers override.

    Args:
      func: The op function.

    Returns:
      ``func``.
    """
    _UNARY_ELEMENTWISE_APIS.append(func)
    for key, handler in list(_ELEMENTWISE_API_HANDLERS.items()):
        if len(key) == 1:
            _add_unary(func, key[0], handler)
    return func


def register_binary_elementwise_api(func: Callable) -> Callable:
    """Decorator: ``func`` (a dispatchable op) is a binary element-wise API, which
    ``dispatch_for_binary_elementwise_apis`` handlers override.

    Args:
      func: The op function.

    Returns:
      ``func``.
    """
    _BINARY_ELEMENTWISE_APIS.append(func)
    for key, handler in list(_ELEMENTWISE_API_HANDLERS.items()):
        if len(key) == 2:
            _add_binary(func, key[0], key[1], handler)
    return func


def register_binary_elementwise_assert_api(func: Callable) -> Callable:
    """Decorator: ``func`` (a dispatchable op) is a binary element-wise assert API
    (``tf.debugging.assert_equal`` & co.), which
    ``dispatch_for_binary_elementwise_assert_apis`` handlers override.

    Args:
      func: The op function.

    Returns:
      ``func``.
    """
    _BINARY_ELEMENTWISE_ASSERT_APIS.append(func)
    for key, handler in list(_ELEMENTWISE_API_HANDLERS.items()):
        if len(key) == 3 and key[2] is _ASSERT_API_TAG:
            _add_binary(func, key[0], key[1], handler, key)
    return func


def unary_elementwise_apis() -> tuple:
    """The APIs registered as unary element-wise.

    Returns:
      A tuple of functions.
    """
    return tuple(_UNARY_ELEMENTWISE_APIS)


def binary_elementwise_apis() -> tuple:
    """The APIs registered as binary element-wise.

    Returns:
      A tuple of functions.
    """
    return tuple(_BINARY_ELEMENTWISE_APIS)


def _name_index(signature: inspect.Signature) -> int:
    names = list(signature.parameters)
    return names.index("name") if "name" in names else -1


def _pop_name(args: tuple, kwargs: dict, name_index: int) -> tuple:
    if name_index < 0:
        return args, kwargs, None
    if name_index < len(args):
        return args[:name_index] + args[name_index + 1:], kwargs, args[name_index]
    return args, kwargs, kwargs.pop("name", None)


def _in_scope(name: Any, call: Callable) -> Any:
    if name is None:
        return call()
    from flowgrad.framework.v2_compat import name_scope_v2
    with name_scope_v2(name):
        return call()


def _add_unary(api: Callable, x_type: Any, handler: Callable) -> None:
    api_signature = getattr(api, TYPE_BASED_DISPATCH_ATTR).signature
    x_name = list(api_signature.parameters)[0]
    name_index = _name_index(api_signature)
    bind = len(api_signature.parameters) > 2 or "name" not in api_signature.parameters

    @dispatch_for_api(api, {x_name: x_type})
    def dispatch_target(*args: Any, **kwargs: Any) -> Any:
        args, kwargs, name = _pop_name(args, kwargs, name_index)
        if args:
            x, args = args[0], args[1:]
        else:
            x = kwargs.pop(x_name)
        tensor_api = (lambda v: api(v, *args, **kwargs)) if bind else api
        return _in_scope(name, lambda: handler(tensor_api, x))

    dispatch_target.__name__ = "elementwise_dispatch_target_for_" + api.__name__
    dispatch_target.__qualname__ = dispatch_target.__name__
    _ELEMENTWISE_API_TARGETS.setdefault((x_type,), []).append((api, dispatch_target))


def _add_binary(api: Callable, x_type: Any, y_type: Any, handler: Callable,
                key: tuple | None = None) -> None:
    api_signature = getattr(api, TYPE_BASED_DISPATCH_ATTR).signature
    x_name, y_name = list(api_signature.parameters)[:2]
    name_index = _name_index(api_signature)
    bind = len(api_signature.parameters) > 3 or "name" not in api_signature.parameters

    @dispatch_for_api(api, {x_name: x_type, y_name: y_type})
    def dispatch_target(*args: Any, **kwargs: Any) -> Any:
        args, kwargs, name = _pop_name(args, kwargs, name_index)
        if len(args) > 1:
            x, y, args = args[0], args[1], args[2:]
        elif args:
            x, args = args[0], args[1:]
            y = kwargs.pop(y_name, None)
        else:
            x = kwargs.pop(x_name, None)
            y = kwargs.pop(y_name, None)
        tensor_api = (lambda v1, v2: api(v1, v2, *args, **kwargs)) if bind else api
        return _in_scope(name, lambda: handler(tensor_api, x, y))

    dispatch_target.__name__ = "elementwise_dispatch_target_for_" + api.__name__
    dispatch_target.__qualname__ = dispatch_target.__name__
    _ELEMENTWISE_API_TARGETS.setdefault(key or (x_type, y_type), []).append(
        (api, dispatch_target))


def dispatch_for_unary_elementwise_apis(x_type: Any) -> Callable:
    """Decorator that overrides every unary element-wise API (``tf.abs``, ``tf.math.exp``,
    ``tf.nn.relu``, ``tf.cast``, ``tf.ones_like``, ...; those registered later too) when its
    first argument matches ``x_type``. The handler is called as ``handler(api_func, x)``,
    where ``api_func`` takes one argument and has the call's other arguments bound.

    Example:

    >>> class MaskedTensor(tf.experimental.ExtensionType):
    ...   values: tf.Tensor
    ...   mask: tf.Tensor
    >>> @tf.experimental.dispatch_for_unary_elementwise_apis(MaskedTensor)
    ... def masked_unary(api_func, x):
    ...   return MaskedTensor(api_func(x.values), x.mask)
    >>> print(tf.abs(MaskedTensor([1, -2], [True, False])).values.numpy())
    [1 2]
    >>> tf.experimental.unregister_dispatch_for(masked_unary)

    Args:
      x_type: A type annotation (a type, ``typing.Union[...]``, ``typing.List[...]``).

    Returns:
      A decorator that registers its handler and returns it.

    Raises:
      ValueError: a handler is already registered for ``x_type``.
    """
    def decorator(handler: Callable) -> Callable:
        if (x_type,) in _ELEMENTWISE_API_HANDLERS:
            raise ValueError("A unary elementwise dispatch handler "
                             f"({_ELEMENTWISE_API_HANDLERS[(x_type,)]}) has already been "
                             f"registered for {x_type}.")
        _ELEMENTWISE_API_HANDLERS[(x_type,)] = handler
        for api in _UNARY_ELEMENTWISE_APIS:
            _add_unary(api, x_type, handler)
        return handler
    return decorator


def dispatch_for_binary_elementwise_apis(x_type: Any, y_type: Any) -> Callable:
    """Decorator that overrides every binary element-wise API (``tf.add``,
    ``tf.math.maximum``, ``tf.equal``, ...) when its first two arguments match ``x_type``
    and ``y_type``. The handler is called as ``handler(api_func, x, y)``.

    Args:
      x_type: A type annotation of the first argument.
      y_type: A type annotation of the second argument.

    Returns:
      A decorator that registers its handler and returns it.

    Raises:
      ValueError: a handler is already registered for these types.
    """
    def decorator(handler: Callable) -> Callable:
        if (x_type, y_type) in _ELEMENTWISE_API_HANDLERS:
            raise ValueError("A binary elementwise dispatch handler "
                             f"({_ELEMENTWISE_API_HANDLERS[(x_type, y_type)]}) has already "
                             f"been registered for ({x_type}, {y_type}).")
        _ELEMENTWISE_API_HANDLERS[(x_type, y_type)] = handler
        for api in _BINARY_ELEMENTWISE_APIS:
            _add_binary(api, x_type, y_type, handler)
        return handler
    return decorator


def dispatch_for_binary_elementwise_assert_apis(x_type: Any, y_type: Any) -> Callable:
    """Decorator that overrides every binary element-wise assert API
    (``tf.debugging.assert_equal``, ``assert_less``, ...) when its first two arguments match
    ``x_type`` and ``y_type``. The handler is called as ``handler(assert_func, x, y)``.

    Args:
      x_type: A type annotation of the first argument.
      y_type: A type annotation of the second argument.

    Returns:
      A decorator that registers its handler and returns it.

    Raises:
      ValueError: a handler is already registered for these types.
    """
    key = (x_type, y_type, _ASSERT_API_TAG)

    def decorator(handler: Callable) -> Callable:
        if key in _ELEMENTWISE_API_HANDLERS:
            raise ValueError("A binary elementwise assert dispatch handler "
                             f"({_ELEMENTWISE_API_HANDLERS[key]}) has already been "
                             f"registered for ({x_type}, {y_type}).")
        _ELEMENTWISE_API_HANDLERS[key] = handler
        for api in _BINARY_ELEMENTWISE_ASSERT_APIS:
            _add_binary(api, x_type, y_type, handler, key)
        return handler
    return decorator


__all__ = ["GlobalOpDispatcher", "OpDispatcher", "add_dispatch_support",
           "dispatch_for_api", "dispatch_for_binary_elementwise_apis",
           "dispatch_for_binary_elementwise_assert_apis",
           "dispatch_for_unary_elementwise_apis", "register_binary_elementwise_api",
           "register_binary_elementwise_assert_api", "register_unary_elementwise_api",
           "unregister_dispatch_for"]
