"""Stateful gamma and Poisson sampling: ``tf.random.gamma`` / ``tf.random.poisson`` (TF1:
``tf.random_gamma`` / ``tf.random_poisson``), TensorFlow's op types ``RandomGamma``,
``RandomPoissonV2`` and ``RandomGammaGrad``.

The samples are TensorFlow's (flowgrad/ops/random_rejection.py): the op's stream reserves
256 Philox blocks per output, as ``GuardedPhiloxRandom`` does, so a second run continues the
first one's stream. A gamma sample is differentiable in ``alpha`` by implicit
reparameterization (``RandomGammaGrad``: -(dP/dalpha) / density at the sample), as in
TensorFlow; ``RandomGammaGrad`` itself has no gradient, nor has Poisson sampling."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.errors import InvalidArgumentError
from flowgrad.framework.graph import name_scope
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.philox import PhiloxStream
from flowgrad.framework.registry import _NO_GRADIENT, defop, register_op
from flowgrad.framework.tensor import TensorBase, convert_to_tensor
from flowgrad.framework.tensor_shape import TensorShape, broadcast_shapes
from flowgrad.framework.type_hints import DTypeLike, ShapeLike, TensorLike
from flowgrad.ops import random_rejection
from flowgrad.ops.array_ops import _as_value, broadcast_to, reshape
from flowgrad.ops.incomplete_gamma_ops import gamma_sample_derivative
from flowgrad.ops.math_ops import maximum, multiply, realdiv, reduce_sum
from flowgrad.ops.random_ops import _seed_attrs, _shape_args, _size, _target_shape

_GAMMA_DTYPES = (dtypes.float16, dtypes.float32, dtypes.float64)
_POISSON_OUT = (dtypes.float16, dtypes.float32, dtypes.float64, dtypes.int32, dtypes.int64)


def _samples(shape_in: Any, shape: tuple | None, params: np.ndarray, op_type: str) -> tuple:
    """(samples per parameter, output shape) of a sampling op."""
    size = _size(shape_in, shape)
    if any(d < 0 for d in size):
        raise InvalidArgumentError(None, None, "%s: shape must not have negative dimensions, "
                                   "got %s" % (op_type, list(size)))
    per = int(np.prod(size, dtype=np.int64))
    if params.size == 0 and per:
        raise InvalidArgumentError(None, None, "%s: Input %s should have non-zero element "
                                   "count, got: 0" % (op_type, "alpha" if op_type ==
                                                      "RandomGamma" else "rate"))
    return per, size + params.shape


def _gamma_kernel(rng: PhiloxStream, alpha: Any, shape_in: Any = None, *, seed: int,
                  seed2: int, shape: tuple | None = None) -> np.ndarray:
    a = np.asarray(alpha)
    per, out_shape = _samples(shape_in, shape, a, "RandomGamma")
    if per == 0:
        return np.zeros(out_shape, a.dtype)
    key, counter = rng.reserve_outputs(per * a.size)
    return random_rejection.gamma(key, counter, a.reshape(-1), per).reshape(
        out_shape)


def _poisson_kernel(rng: PhiloxStream, rate: Any, shape_in: Any = None, *,
                    dtype: dtypes.DType, seed: int, seed2: int,
                    shape: tuple | None = None) -> np.ndarray:
    lam = np.asarray(rate)
    per, out_shape = _samples(shape_in, shape, lam, "RandomPoissonV2")
    if per == 0:
        return np.zeros(out_shape, dtype.np)
    key, counter = rng.reserve_outputs(per * lam.size)
    flat = random_rejection.poisson(key, counter, lam.reshape(-1), per)
    return flat.astype(dtype.np).reshape(out_shape)


def _sampled_infer(param: int, shape_input: int) -> Any:
    def infer(ins: list, attrs: dict) -> tuple:
        head = _target_shape(ins, attrs, shape_input)
        tail = ins[param].shape
        dims = None if head.rank is None or tail.rank is None else \
            head.as_list() + tail.as_list()
        return attrs.get("dtype", ins[param].dtype.base_dtype), TensorShape(dims)
    return infer


@defop("RandomGamma", _gamma_kernel, _sampled_infer(0, 1), rng=True, stateful=True,
       input_names=("alpha", "shape"))
def _random_gamma_grad(op: Any, grad: Any) -> tuple:
    """TensorFlow's: the implicit reparameterization derivative, summed over the sample
    dimensions."""
    alpha, sample = op.inputs[0], op.outputs[0]
    n_sample = sample.shape.rank - alpha.shape.rank
    lead = reshape(alpha, [1] * n_sample + alpha.shape.as_list())
    partial = apply_op("RandomGammaGrad", [lead, sample])
    d_alpha = reduce_sum(multiply(grad, partial), axis=list(range(n_sample)))
    return (d_alpha,) + (None,) * (len(op.inputs) - 1)


register_op("RandomGammaGrad",
            lambda alpha, sample: np.vectorize(gamma_sample_derivative, otypes=[np.float64])(
                np.asarray(alpha, np.float64), np.asarray(sample, np.float64)).astype(
                np.asarray(sample).dtype),
            lambda ins, attrs: (ins[1].dtype.base_dtype,
                                broadcast_shapes(ins[0].shape, ins[1].shape, "RandomGammaGrad")),
            same_dtype=True, input_names=("alpha", "sample"))
register_op("RandomPoissonV2", _poisson_kernel, _sampled_infer(0, 1), grad=_NO_GRADIENT,
            rng=True, stateful=True, input_names=("rate", "shape"))


def random_gamma(shape: ShapeLike, alpha: TensorLike, beta: TensorLike | None = None,
                 dtype: DTypeLike = dtypes.float32, seed: int | None = None,
                 name: str | None = None) -> TensorBase:
    """Samples of Gamma(alpha, beta) distributions: ``shape`` samples of each.

    The samples are differentiable in ``alpha`` and ``beta`` (implicit reparameterization).

    Args:
        shape: The sample shape drawn for each distribution (a 1-D integer tensor or list).
        alpha: The concentrations (shape parameters).
        beta: The rates (inverse scales), broadcast with ``alpha``; 1 by default.
        dtype: float16, float32 or float64.
        seed: The op-level seed; with the graph-level seed (``tf.random.set_seed``) it fixes
            the values.
        name: A name for the operation (optional).

    Returns:
        A tensor of shape ``shape + broadcast_shape(alpha, beta)``; values below the dtype's
        smallest normal number are raised to it, as in TensorFlow.

    Raises:
        TypeError: for a dtype that is not float16/32/64.

    Example:
        >>> import flowgrad as tf
        >>> tf.random.gamma([2], [0.5, 3.0], seed=1).shape
        TensorShape([2, 2])
    """
    dt = dtypes.as_dtype(dtype).base_dtype
    if dt not in _GAMMA_DTYPES:
        raise TypeError("Value passed to parameter 'alpha' has DataType %s not in list of "
                        "allowed values: float16, float32, float64" % dt.name)
    with name_scope(name, "random_gamma", [shape, alpha, beta]):
        ins, attrs = _shape_args(shape)
        a = convert_to_tensor(_as_value(alpha), dt, name="alpha")
        b = convert_to_tensor(_as_value(1 if beta is None else beta), dt, name="beta")
        params = broadcast_shapes(a.shape, b.shape)
        a_b = a if a.shape == params else broadcast_to(a, params.as_list())
        sample = apply_op("RandomGamma", [a_b] + ins, dict(attrs, **_seed_attrs(seed)))
        return maximum(np.finfo(dt.np).tiny.astype(dt.np), realdiv(sample, b))


def random_poisson_v2(shape: ShapeLike, lam: TensorLike, dtype: DTypeLike = dtypes.float32,
                      seed: int | None = None, name: str | None = None) -> TensorBase:
    """Samples of Poisson distributions of rates ``lam``: ``shape`` samples of each.

    Args:
        shape: The sample shape drawn for each rate (a 1-D integer tensor or list).
        lam: The rates (float16, float32, float64, int32 or int64).
        dtype: The samples' dtype: float16, float32, float64, int32 or int64.
        seed: The op-level seed; with the graph-level seed (``tf.random.set_seed``) it fixes
            the values.
        name: A name for the operation (optional).

    Returns:
        A tensor of shape ``shape + lam.shape``.

    Raises:
        TypeError: for a dtype the op does not have.

    Example:
        >>> import flowgrad as tf
        >>> tf.random.poisson([3], [1.0, 20.0], seed=1).shape
        TensorShape([3, 2])
    """
    dt = dtypes.as_dtype(dtype).base_dtype
    if dt not in _POISSON_OUT:
        raise TypeError("Value passed to parameter 'dtype' has DataType %s not in list of "
                        "allowed values: float16, float32, float64, int32, int64" % dt.name)
    with name_scope(name, "random_poisson", [lam, shape]):
        ins, attrs = _shape_args(shape)
        rate = convert_to_tensor(_as_value(lam), name="lam")
        if rate.dtype.base_dtype not in _POISSON_OUT:
            raise TypeError("Value passed to parameter 'rate' has DataType %s not in list of "
                            "allowed values: float16, float32, float64, int32, int64"
                            % rate.dtype.name)
        return apply_op("RandomPoissonV2", [rate] + ins,
                        dict(attrs, dtype=dt, **_seed_attrs(seed)))


def random_poisson(lam: TensorLike, shape: ShapeLike, dtype: DTypeLike = dtypes.float32,
                   seed: int | None = None, name: str | None = None) -> TensorBase:
    """TensorFlow 1's ``tf.random_poisson``: ``random_poisson_v2`` with ``lam`` first.

    Args:
        lam: The rates.
        shape: The sample shape drawn for each rate.
        dtype: The samples' dtype.
        seed: The op-level seed.
        name: A name for the operation (optional).

    Returns:
        A tensor of shape ``shape + lam.shape``.
    """
    return random_poisson_v2(shape, lam, dtype, seed, name)
