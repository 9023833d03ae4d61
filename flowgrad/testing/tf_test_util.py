"""Helpers of TensorFlow's ``tensorflow.python.framework.test_util`` that its own tests use
beyond the mode decorators: device contexts (``use_gpu``, ``force_cpu``, ``device``: the CPU,
flowgrad's one device), data-format conversions (``NHWCToNCHW``...), class decorators
(``for_all_test_methods``, ``with_control_flow_v2``) and ``AbstractGradientTape``, as
TensorFlow 2.21 defines them. ``flowgrad.dropin_aliases`` serves them in ``test_util``."""
from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterator
from typing import Any

from flowgrad.framework.graph import device as _device

_CPU = "/device:CPU:0"


@contextlib.contextmanager
def device(use_gpu: bool) -> Iterator[None]:
    """Places the ops made in the context on the GPU when asked and available, else the CPU
    (flowgrad's only device).

    Args:
      use_gpu: whether a GPU is wanted.

    Yields:
      Nothing.
    """
    with _device(_CPU):
        yield


@contextlib.contextmanager
def use_gpu() -> Iterator[None]:
    """``device(use_gpu=True)``: the GPU when there is one (flowgrad has none: the CPU).

    Yields:
      Nothing.
    """
    with _device(_CPU):
        yield


@contextlib.contextmanager
def force_cpu() -> Iterator[None]:
    """Places the ops made in the context on the CPU.

    Yields:
      Nothing.
    """
    with _device(_CPU):
        yield


def is_xla_enabled() -> bool:
    """False: flowgrad has no XLA."""
    return False


def is_mkl_enabled() -> bool:
    """False: flowgrad is not built with oneDNN (``test_util.IsMklEnabled``)."""
    return False


def gpu_supports_half_matmul_and_conv() -> bool:
    """False: no GPU (``test_util.GpuSupportsHalfMatMulAndConv``)."""
    return False


_TO_NCHW = {3: [0, 2, 1], 4: [0, 3, 1, 2], 5: [0, 4, 1, 2, 3]}
_TO_NHWC = {4: [0, 2, 3, 1], 5: [0, 2, 3, 4, 1]}


def _permute(value: Any, axes: dict) -> Any:
    from flowgrad.framework.tensor import Tensor
    if isinstance(value, Tensor):
        from flowgrad.ops.array_ops import transpose
        return transpose(value, axes[value.shape.ndims])
    return [value[a] for a in axes[len(value)]]


def nhwc_to_nchw(input_tensor: Any) -> Any:
    """An NHWC tensor (3-, 4- or 5-D), or shape list, in NCHW order (``NHWCToNCHW``).

    Args:
      input_tensor: a tensor or a list of dimensions.

    Returns:
      The transposed tensor, or the reordered list.
    """
    return _permute(input_tensor, _TO_NCHW)


def nchw_to_nhwc(input_tensor: Any) -> Any:
    """An NCHW tensor (4- or 5-D), or shape list, in NHWC order (``NCHWToNHWC``).

    Args:
      input_tensor: a tensor or a list of dimensions.

    Returns:
      The transposed tensor, or the reordered list.
    """
    return _permute(input_tensor, _TO_NHWC)


def for_all_test_methods(decorator: Callable, *args: Any, **kwargs: Any) -> Callable:
    """A class decorator applying ``decorator(*args, **kwargs)`` to every ``test*`` method.

    Args:
      decorator: a decorator factory.
      *args: its positional arguments.
      **kwargs: its keyword arguments.

    Returns:
      The class decorator.
    """
    def all_test_methods(cls: type) -> type:
        for name in dir(cls):
            value = getattr(cls, name)
            if callable(value) and name.startswith("test") and name != "test_session":
                setattr(cls, name, decorator(*args, **kwargs)(value))
        return cls
    return all_test_methods


def enable_control_flow_v2(fn: Callable) -> Callable:
    """Runs a test with control flow v2 (flowgrad's ``cond``/``while_loop`` always are).

    Args:
      fn: the test method.

    Returns:
      The method.
    """
    return fn


def with_control_flow_v2(cls: type) -> type:
    """The class unchanged: control flow v2 is already on, as when TensorFlow's
    ``ENABLE_CONTROL_FLOW_V2`` is set (then TensorFlow adds no methods either).

    Args:
      cls: a TestCase class.

    Returns:
      The class.
    """
    return cls


def with_forward_compatibility_horizons(*horizons: Any) -> Callable:
    """Runs a test once per forward-compatibility horizon (flowgrad has one behaviour).

    Args:
      *horizons: ``(year, month, day)`` tuples or None.

    Returns:
      The decorator.

    Raises:
      ValueError: no horizon, or one that is not None or three ints.
    """
    if not horizons:
        raise ValueError("Expected at least one horizon.")
    for horizon in horizons:
        if not (horizon is None or (len(horizon) == 3 and all(isinstance(x, int)
                                                              for x in horizon))):
            raise ValueError("Bad horizon value: %r" % (horizon,))

    def decorator(f: Callable) -> Callable:
        if isinstance(f, type):
            raise ValueError("`with_forward_compatibility_horizons` only supports test "
                             "methods.")

        @functools.wraps(f)
        def run(*args: Any, **kwargs: Any) -> None:
            for _ in horizons:
                f(*args, **kwargs)
        return run
    return decorator


class _GradientsTape:
    """A tape-like object whose ``gradient`` is ``tf.gradients`` (graph mode)."""

    def __enter__(self) -> _GradientsTape:
        return self

    def __exit__(self, *exc: Any) -> None:
        return None

    def watch(self, x: Any) -> None:
        """Nothing to do: ``tf.gradients`` differentiates any tensor of the graph."""

    def gradient(self, target: Any, sources: Any, output_gradients: Any = None) -> Any:
        """``tf.gradients(target, sources, output_gradients)`` in ``sources``'s structure."""
        from flowgrad import nest
        from flowgrad.autodiff.backprop import gradients
        flat = nest.flatten(sources)
        grads = gradients(target, flat, grad_ys=output_gradients)
        return nest.pack_sequence_as(sources, grads)


class AbstractGradientTape:
    """A gradient tape that is ``tf.GradientTape`` (``use_tape``) or ``tf.gradients``, so one
    test checks both (TensorFlow's ``test_util.AbstractGradientTape``).

    Args:
      use_tape: ``tf.GradientTape`` when true, else ``tf.gradients``.
      persistent: the tape's ``persistent``.
    """

    def __init__(self, use_tape: bool, persistent: bool = False) -> None:
        self._use_tape = use_tape
        self._persistent = persistent

    def __enter__(self) -> Any:
        if self._use_tape:
            from flowgrad.autodiff.tape import GradientTape
            self._tape_impl = GradientTape(persistent=self._persistent)
        else:
            self._tape_impl = _GradientsTape()
        return self._tape_impl.__enter__()

    def __exit__(self, exc_type: Any, exc_val: Any, exc_tb: Any) -> None:
        self._tape_impl.__exit__(exc_type, exc_val, exc_tb)
