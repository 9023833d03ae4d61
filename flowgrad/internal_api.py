"""``tf.__internal__``: the TensorFlow internals that libraries built on TensorFlow (Keras 3
among them) use: tracking base classes, ``CompositeTensor``, ``FuncGraph``,
``smart_cond``, the distribute helpers."""
import types as _types

from flowgrad.distribute import distribute_lib as _distribute_lib
from flowgrad.framework import autotrackable as _autotrackable
from flowgrad.framework import trackable as _trackable
from flowgrad.framework import trackable_data_structures as _data_structures
from flowgrad.framework import types_core as _types_core
from flowgrad.framework import dispatch as _dispatch
from flowgrad.framework.composite_tensor import CompositeTensor
from flowgrad.framework.context import state as _state
from flowgrad.framework.tensor import EagerTensor
from flowgrad.runtime.function import FuncGraph, init_scope as _init_scope
from flowgrad.ops import smart_cond as _smart_cond


def _namespace(name: str, **members: object) -> _types.ModuleType:
    module = _types.ModuleType("flowgrad.internal_api." + name)
    for k, v in members.items():
        setattr(module, k, v)
    module.__all__ = sorted(members)
    return module


def _unwrap(maybe_decorator: object) -> tuple:
    """``(decorators, target)`` of a decorated function (TensorFlow's ``tf_decorator``):
    flowgrad's decorators keep the target in ``__wrapped__``."""
    decorators = []
    target = maybe_decorator
    while hasattr(target, "__wrapped__"):
        decorators.append(target)
        target = target.__wrapped__
    return decorators, target


class _EagerMode:
    """``tf.__internal__.eager_context.eager_mode()``: ops run eagerly inside."""

    def __enter__(self) -> None:
        self._scope = _init_scope()
        self._eager = _state.eager
        _state.eager = True
        self._scope.__enter__()

    def __exit__(self, *exc: object) -> None:
        self._scope.__exit__(*exc)
        _state.eager = self._eager


tracking = _namespace(
    "tracking", Trackable=_trackable.Trackable, AutoTrackable=_autotrackable.AutoTrackable,
    no_automatic_dependency_tracking=_trackable.no_automatic_dependency_tracking,
    NoDependency=_trackable.NoDependency, wrap=_data_structures.wrap_or_unwrap,
    sticky_attribute_assignment=_data_structures.sticky_attribute_assignment,
    TrackableDataStructure=_trackable.Trackable)
types = _namespace("types", Tensor=_types_core.Tensor)
smart_cond = _namespace("smart_cond", smart_cond=_smart_cond.smart_cond)
decorator = _namespace("decorator", unwrap=_unwrap)
dispatch = _namespace("dispatch", add_dispatch_support=_dispatch.add_dispatch_support,
                      OpDispatcher=_dispatch.OpDispatcher,
                      GlobalOpDispatcher=_dispatch.GlobalOpDispatcher)
eager_context = _namespace("eager_context", eager_mode=_EagerMode)
distribute = _namespace(
    "distribute", strategy_supports_no_merge_call=_distribute_lib.strategy_supports_no_merge_call,
    interim=_namespace("distribute.interim", maybe_merge_call=_distribute_lib.maybe_merge_call))

__all__ = ["CompositeTensor", "EagerTensor", "FuncGraph", "decorator", "dispatch", "distribute",
           "eager_context", "smart_cond", "tracking", "types"]
