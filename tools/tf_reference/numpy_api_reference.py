"""Records what ``tf.experimental.numpy`` (and tensors after
``experimental_enable_numpy_behavior``) return on TensorFlow 2.21: every expression of CASES
(before and after enabling NumPy behaviour) and BEHAVIOUR_CASES is evaluated and its dtype,
shape and value (or its error class) saved to tests/data/numpy_api/tnp_reference.json, which
tests/test_numpy_api.py replays on flowgrad.

Run with the TensorFlow venv:
``/work/venv-tf/bin/python tools/tf_reference/numpy_api_reference.py``.
"""
from __future__ import annotations

import json
import pathlib

import numpy as np

# Each entry is a Python expression over ``tnp``, ``tf`` and ``np`` (and ``x``, ``m``, ``i``,
# ``b``, ``c`` below).
SETUP = """
x = tf.constant([[1.5, -2.0, 3.0], [4.0, 0.5, -6.0]], tf.float32)
m = tf.constant([[2.0, 1.0], [1.0, 3.0]], tf.float64)
i = tf.constant([[3, -1, 2], [0, 5, 4]], tf.int32)
b = tf.constant([True, False, True])
c = tf.constant([1 + 2j, -3 + 0.5j], tf.complex128)
"""

CASES = [
    'tnp.array([1, 2, 3])', 'tnp.array([1.0, 2])', 'tnp.array(3)', 'tnp.array(2.5)',
    'tnp.array([True, False])', 'tnp.array([1, 2], dtype=tnp.float32)',
    'tnp.array([1.7, -2.7], dtype=tnp.int32)', 'tnp.array(x, dtype=tnp.float64)',
    'tnp.array([[1, 2]], ndmin=3)', 'tnp.asarray(i)', 'tnp.asarray([1, 2.5], tnp.float16)',
    'tnp.asarray(np.arange(3, dtype=np.int16))', 'tnp.copy(x)', 'tnp.zeros(3)',
    'tnp.zeros((2, 2), dtype=tnp.int32)', 'tnp.ones([2, 1])', 'tnp.ones(2, dtype=bool)',
    'tnp.full((2, 2), 7)', 'tnp.full(3, 1.5, tnp.float32)', 'tnp.full_like(i, 2.5)',
    'tnp.zeros_like(x)', 'tnp.ones_like(i, dtype=tnp.float32)', 'tnp.empty_like(i).shape',
    'tnp.empty((2, 3)).dtype == tnp.float64', 'tnp.arange(5)', 'tnp.arange(1, 2, 0.25)',
    'tnp.arange(2.0, 5)', 'tnp.arange(5, dtype=tnp.float32)', 'tnp.arange(10, 0, -3)',
    'tnp.linspace(0, 1, 5)', 'tnp.linspace(0, 10, 4, endpoint=False)',
    'tnp.linspace(0, 1, 3, retstep=True)', 'tnp.linspace(0, 10, 4, dtype=tnp.int32)',
    'tnp.linspace([0, 1], [2, 3], 3, axis=1)', 'tnp.logspace(0, 2, 3)',
    'tnp.logspace(0, 3, 4, base=2.0)', 'tnp.geomspace(1, 1000, 4)', 'tnp.geomspace(-1, -100, 3)',
    'tnp.eye(3)', 'tnp.eye(2, 3, k=1, dtype=tnp.int32)', 'tnp.identity(2)', 'tnp.tri(3, 2, 0)',
    'tnp.tril(x)', 'tnp.triu(x, 1)', 'tnp.diag([1, 2, 3])', 'tnp.diag([1, 2], k=-1)',
    'tnp.diag(x)', 'tnp.diag(x, 1)', 'tnp.diagonal(x)', 'tnp.diagflat([[1, 2], [3, 4]])',
    'tnp.diag_indices(3)', 'tnp.vander([1, 2, 3])', 'tnp.vander([1.0, 2.0], 3, increasing=True)',
    'tnp.ix_([0, 1], [2, 0])', 'tnp.meshgrid([1, 2, 3], [4, 5])',
    "tnp.meshgrid([1, 2], [4, 5, 6], indexing='ij')", 'tnp.shape(x)', 'tnp.ndim(x)', 'tnp.size(x)',
    'tnp.size(x, 1)', 'tnp.isscalar(3.0)', 'tnp.isscalar([1])', 'tnp.reshape(x, (3, 2))',
    'tnp.reshape(x, [-1])', "tnp.reshape(x, (3, 2), order='F')", 'tnp.ravel(x)',
    'tnp.transpose(x)', 'tnp.transpose(tnp.ones((2, 3, 4)), (1, 0, 2)).shape',
    'tnp.swapaxes(x, 0, 1)', 'tnp.moveaxis(tnp.zeros((2, 3, 4)), 0, -1).shape',
    'tnp.expand_dims(x, 1).shape', 'tnp.squeeze(tnp.ones((1, 3, 1)))',
    'tnp.squeeze(tnp.ones((1, 3, 1)), axis=0).shape', 'tnp.atleast_1d(3.0)',
    'tnp.atleast_2d([1, 2])', 'tnp.atleast_3d(x).shape', 'tnp.atleast_3d([1, 2]).shape',
    'tnp.broadcast_to([1, 2], (3, 2))', 'tnp.broadcast_arrays([1, 2], [[1], [2]])',
    'tnp.concatenate([x, x])', 'tnp.concatenate([i, x], axis=1)',
    'tnp.concatenate([x, x], axis=None)', 'tnp.stack([i[0], i[1]], axis=1)',
    'tnp.hstack([[1, 2], [3]])', 'tnp.vstack([[1, 2], [3, 4]])', 'tnp.dstack([[1, 2], [3, 4]])',
    'tnp.split(tnp.arange(6), 3)', 'tnp.split(tnp.arange(6), [1, 4])', 'tnp.hsplit(x, 3)',
    'tnp.vsplit(x, 2)', 'tnp.dsplit(tnp.ones((1, 2, 4)), 2)', 'tnp.flip(x)', 'tnp.flip(x, 1)',
    'tnp.fliplr(x)', 'tnp.flipud(x)', 'tnp.rot90(x)', 'tnp.rot90(x, 2)', 'tnp.rot90(x, -1)',
    'tnp.roll(tnp.arange(5), 2)', 'tnp.roll(x, 1, axis=1)', 'tnp.roll(x, 1)',
    'tnp.tile([1, 2], 2)', 'tnp.tile(x, (2, 1))', 'tnp.tile([1, 2], (2, 2))',
    'tnp.repeat([1, 2], 2)', 'tnp.repeat(x, [1, 2], axis=0)', 'tnp.pad([1, 2], 1)',
    'tnp.pad(x, ((1, 0), (0, 2)), constant_values=9)', "tnp.pad([1, 2, 3], 2, mode='reflect')",
    "tnp.pad([1, 2, 3], 2, mode='symmetric')", 'tnp.append([1, 2], [[3]])',
    'tnp.append(x, x, axis=0).shape', 'tnp.take(x, [0, 4])', 'tnp.take(x, [2, 0], axis=1)',
    'tnp.take([1, 2, 3], [5, -1])', "tnp.take([1, 2, 3], [5, -1], mode='wrap')",
    'tnp.take_along_axis(x, tnp.argsort(x, axis=1), 1)',
    'tnp.take_along_axis(x, tnp.argmax(x, axis=0)[None, :], 0)', 'tnp.nonzero(i)', 'tnp.where(b)',
    'tnp.where(x > 0, x, 0)', 'tnp.where([True, False], 1, 2.5)',
    'tnp.select([i > 2, i < 0], [i, -i], 100)', 'tnp.compress([True, False, True], x, axis=1)',
    'tnp.compress([False, True], x)', 'tnp.sum(x)', 'tnp.sum(i)', 'tnp.sum(b)',
    'tnp.sum(x, axis=0)', 'tnp.sum(i, axis=1, keepdims=True)', 'tnp.sum(i, dtype=tnp.float32)',
    'tnp.prod(i, axis=0)', 'tnp.prod([1.5, 2])', 'tnp.mean(i)', 'tnp.mean(x, axis=1)',
    'tnp.mean(b)', 'tnp.amax(x)', 'tnp.amax(x, axis=0)', 'tnp.max(b)', 'tnp.amin(i, axis=1)',
    'tnp.min(x)', 'tnp.ptp(x, axis=1)', 'tnp.var(x)', 'tnp.var(i, axis=0)', 'tnp.var(x, ddof=1)',
    'tnp.std(x, axis=1)', 'tnp.std(i)', 'tnp.all(i)', 'tnp.all(b)', 'tnp.any(i, axis=0)',
    'tnp.cumsum(i)', 'tnp.cumsum(x, axis=1)', 'tnp.cumprod([1, 2, 3])', 'tnp.cumprod(x, axis=0)',
    'tnp.cumsum(b)', 'tnp.argmax(x)', 'tnp.argmax(x, axis=1)', 'tnp.argmin(i, axis=0)',
    'tnp.sort(x)', 'tnp.sort(x, axis=0)', 'tnp.sort(x, axis=None)', 'tnp.argsort(x)',
    "tnp.argsort([3, 1, 2], kind='stable')", 'tnp.count_nonzero(i)',
    'tnp.count_nonzero(i, axis=1)', 'tnp.average(x)', 'tnp.average(i, axis=0)',
    'tnp.average(x, axis=1, weights=[1.0, 2.0, 3.0])',
    'tnp.average([1, 2], weights=[3, 1], returned=True)', 'tnp.trace(m)', 'tnp.trace(i)',
    'tnp.trace(x, offset=1)', 'tnp.nansum([1.0, np.nan, 2.0])', 'tnp.nanprod([2.0, np.nan, 3.0])',
    'tnp.nanmean([1.0, np.nan, 3.0])', 'tnp.nanmean([[1.0, np.nan], [3.0, 4.0]], axis=0)',
    'tnp.nansum(i)', 'tnp.add(i, 1.5)', 'tnp.add(i, x)', 'tnp.add(i, 2)', 'tnp.add(b, b)',
    'tnp.add([1, 2], 0.5)', 'tnp.add(x, m[0, 0])', 'tnp.add(tnp.int8(3), tnp.uint8(4))',
    'tnp.add(tf.constant(1, tf.int8), 300)', 'tnp.subtract(i, x)', 'tnp.multiply(b, b)',
    'tnp.multiply(i, 2.0)', 'tnp.divide(i, 2)', 'tnp.true_divide(i, i + 10)', 'tnp.divide(b, b)',
    'tnp.floor_divide(i, 2)', 'tnp.floor_divide(x, 2)', 'tnp.mod(i, 3)', 'tnp.remainder(x, 2.5)',
    'tnp.divmod(i, 4)', 'tnp.power(i, 2)', 'tnp.power(x, 2)', 'tnp.float_power(2, [1, 2])',
    'tnp.maximum(x, 0)', 'tnp.maximum(i, x)', 'tnp.minimum(b, [False, False, True])',
    'tnp.clip(x, -1, 2)', 'tnp.clip(i, None, 2)', 'tnp.clip(x, [0, 0, 1], 3)',
    'tnp.arctan2(x, 2.0)', 'tnp.arctan2(i, 1)', 'tnp.hypot(3, 4)',
    'tnp.heaviside([-1.0, 0.0, 2.0], 0.5)', 'tnp.heaviside([-1, 0, 2], 5)',
    'tnp.logaddexp(x, 1.0)', 'tnp.logaddexp2(1.0, 2.0)', 'tnp.nextafter(1.0, 2.0) - 1.0',
    'tnp.exp(i)', 'tnp.exp(x)', 'tnp.exp2([1, 3])', 'tnp.log(tnp.abs(x))', 'tnp.log2([1, 8])',
    'tnp.log10(100)', 'tnp.log1p(i)', 'tnp.expm1(x)', 'tnp.sqrt(tnp.abs(i))', 'tnp.cbrt([-8, 27])',
    'tnp.square(i)', 'tnp.square(x)', 'tnp.abs(i)', 'tnp.absolute(c)', 'tnp.fabs(x)',
    'tnp.negative(i)', 'tnp.positive(x)', 'tnp.reciprocal(x)', 'tnp.sign(x)', 'tnp.sign(i)',
    'tnp.signbit(x)', 'tnp.ceil(x)', 'tnp.floor(i)', 'tnp.fix([-1.5, 1.5])',
    'tnp.around([0.5, 1.5, 2.567], 1)', 'tnp.round(x)', 'tnp.around(i, -1)',
    'tnp.around([1234, 5678], -2)', 'tnp.sin(x)', 'tnp.cos(i)', 'tnp.tan(x)',
    'tnp.arcsin([0.5, 1])', 'tnp.arccos([0.5])', 'tnp.arctan(i)', 'tnp.sinh(x)', 'tnp.cosh([1])',
    'tnp.tanh(x)', 'tnp.arcsinh(i)', 'tnp.arccosh([1, 2])', 'tnp.arctanh([0.5])',
    'tnp.deg2rad(180)', 'tnp.rad2deg(x)', 'tnp.sinc([0.0, 0.5, 1.0])', 'tnp.angle(c)',
    'tnp.angle([-1.0, 2.0])', 'tnp.angle(c, deg=True)', 'tnp.real(c)', 'tnp.imag(c)',
    'tnp.imag(x)', 'tnp.conj(c)', 'tnp.conjugate(x)', 'tnp.isnan([1.0, np.nan])',
    'tnp.isinf([np.inf, 1.0])', 'tnp.isinf(i)', 'tnp.isfinite([np.inf, 1.0, np.nan])',
    'tnp.isposinf(tnp.array([np.inf, -np.inf]))', 'tnp.isneginf(tnp.array([np.inf, -np.inf]))',
    'tnp.iscomplex(c)', 'tnp.isreal(x)', 'tnp.iscomplexobj(c)', 'tnp.isrealobj(i)',
    'tnp.gcd(i, 6)', 'tnp.lcm([4, 6], 10)', 'tnp.bitwise_and(i, 6)',
    'tnp.bitwise_or(b, [False, True, False])', 'tnp.bitwise_xor(i, 1)', 'tnp.bitwise_not(i)',
    'tnp.bitwise_not(b)', 'tnp.equal(i, x)', 'tnp.not_equal(i, 3)', 'tnp.greater(x, 1)',
    'tnp.greater_equal(b, True)', 'tnp.less(i, 2.5)', 'tnp.less_equal(x, i)',
    'tnp.array_equal(i, i)', 'tnp.array_equal([1, 2], [1, 2, 3])', 'tnp.logical_and(i, b)',
    'tnp.logical_or(x, 0)', 'tnp.logical_xor(b, True)', 'tnp.logical_not(i)',
    'tnp.isclose(x, x + 1e-9)', 'tnp.isclose([1.0, np.nan], [1.0, np.nan], equal_nan=True)',
    'tnp.allclose(x, x * (1 + 1e-7))', 'tnp.isclose(i, i)', 'tnp.matmul(m, m)',
    'tnp.matmul(x, [1.0, 2.0, 3.0])', 'tnp.matmul([1.0, 2.0], x)',
    'tnp.matmul(i, tnp.ones((3, 2), tnp.int32))',
    'tnp.matmul(tnp.ones((2, 2, 3)), tnp.ones((3, 4))).shape', 'tnp.dot([1, 2], [3, 4])',
    'tnp.dot(x, [1, 1, 1])', 'tnp.dot(m, m)', 'tnp.dot(2, x)',
    'tnp.dot(tnp.ones((2, 3, 4)), tnp.ones((5, 4, 6))).shape', 'tnp.inner(x, x)',
    'tnp.inner([1, 2], 3)', 'tnp.vdot(c, c)', 'tnp.vdot(x, x)', 'tnp.outer([1, 2], [3, 4, 5])',
    'tnp.tensordot(x, x, axes=([1], [1]))', 'tnp.tensordot(m, m)',
    'tnp.kron([[1, 2]], [[1], [10]])', 'tnp.kron(m, tnp.eye(2))',
    'tnp.cross([1, 2, 3], [4, 5, 6])', 'tnp.cross([1, 2], [3, 4])', 'tnp.cross(x, x[::-1])',
    "tnp.einsum('ij,kj->ik', x, x)", "tnp.einsum('ij,j', i, [1.0, 2.0, 3.0])",
    'tnp.polyval([1, 2, 3], [0, 1, 2])', 'tnp.polyval([2.0], 5.0)', 'tnp.diff([1, 4, 9, 16])',
    'tnp.diff(x, axis=0)', 'tnp.diff([1, 4, 9, 16], n=2)', 'tnp.diff(b)',
    'tnp.result_type(tnp.int32, tnp.float32)', 'tnp.result_type(i, 1.5)', 'tnp.result_type(x, 1)',
    'tnp.result_type(1, 2.0)', 'tnp.result_type(tf.int8, tf.uint8)', 'tnp.result_type()',
    'tnp.promote_types(tnp.int16, tnp.float16)', 'tnp.promote_types(tf.int32, tf.float32)',
    'tnp.finfo(tnp.float32).eps', 'tnp.finfo(tf.float64).max', 'tnp.iinfo(tnp.int8).min',
    'tnp.issubdtype(tnp.float32, tnp.inexact)', 'tnp.issubdtype(tnp.int32, tnp.floating)',
    'tnp.arange(1, 5, 0)', 'tnp.linspace(0, 1, -1)', 'tnp.concatenate([])',
    'tnp.clip(x, None, None)', 'tnp.where(b, 1)', 'tnp.gcd(x, 2)', 'tnp.split(tnp.arange(5), 2)',
    "tnp.sort(x, kind='heapsort')", 'tnp.mean(x, out=x)', 'tnp.diag(tnp.ones((2, 2, 2)))',
]

BEHAVIOUR_CASES = [
    'tf.constant([1, 2]) + 1.5', 'tf.constant([1.0, 2.0]) + 1', 'tf.constant([1, 2]) * 2',
    'tf.constant(1, tf.int32) + tf.constant(2, tf.int64)',
    'tf.constant(1, tf.int32) + tf.constant(2.0)',
    'tf.ones([], tf.int32) + tf.ones([], tf.float32)', '2.5 - tf.constant([1, 2])',
    'tf.constant([1, 2]) / 2', 'tf.constant([3, 4]) // 2.0', 'tf.constant([3, 4]) ** 0.5',
    '1.5 ** tf.constant([2, 3])', 'tf.constant([3, 4]) % tf.constant(2.0, tf.float64)',
    'tf.constant([1, 2]) < 1.5', 'tf.constant([1.0, 2.0]) >= tf.constant([1, 3])',
    'tf.constant([1, 2]) == 1.0', 'tf.constant([1, 2]) != tf.constant([1.0, 3.0])',
    'tf.constant([True, False]) & tf.constant([True, True])',
    'tf.constant([[1, 2], [3, 4]]) @ tf.constant([[1.0], [2.0]])',
    'tf.constant([1, 2]) + np.float32(1.5)', 'tf.constant([1, 2], tf.int8) + np.int16(1)',
    'tf.constant([1, 2]) + [1, 2]', 'x.T', 'x.T.shape', 'x.reshape(3, 2)', 'x.reshape((3, 2))',
    'x.reshape(-1)', "x.reshape([2, 3], order='F')", 'x.ravel()', 'x.flatten()', 'x.transpose()',
    'x.transpose([1, 0])', 'x.astype(tnp.int32)', "x.astype('float64')", 'x.clip(0, 2)', 'x.max()',
    'x.min(axis=0)', 'x.mean()', 'x.mean(axis=1)', 'i.max()', 'i.mean()', 'x.size', 'x.ndim',
    'x.tolist()', '+x', 'round(tf.constant(2.567))', 'x.data', 'tnp.ones(3).T', 'x[[0, 1]]',
    'x[:, [0, 2]]', 'x[[0, 1], [2, 0]]', 'x[x > 0]', 'x[b.numpy()[:2]]', 'x[tf.constant([1, 0])]',
    'x[1, [0, 2]]', 'x[..., [2]]', 'i[[[0], [1]], [1, 2]]',
    'x[:, tf.constant([True, False, True])]', 'x[0]', 'x[:, 1:]', 'x[tf.constant(1)]',
]


def _record(value):
    if isinstance(value, (list, tuple)):
        return {"seq": [_record(v) for v in value]}
    if isinstance(value, (bool, int, float, complex, np.generic)) and not hasattr(value, "shape") \
            or type(value).__name__ in ("float", "int", "bool"):
        return {"python": repr(type(value).__name__), "value": _plain(np.asarray(value))}
    if isinstance(value, np.dtype) or isinstance(value, type) and issubclass(value, np.generic):
        return {"dtype_value": np.dtype(value).name}
    if hasattr(value, "as_numpy_dtype") and hasattr(value, "name") and not hasattr(value, "shape"):
        return {"dtype_value": value.name}
    if hasattr(value, "shape") and hasattr(value, "dtype") and hasattr(value, "numpy"):
        arr = value.numpy()
        return {"dtype": value.dtype.name, "shape": list(arr.shape), "value": _plain(arr)}
    if hasattr(value, "as_list"):
        return {"shape_value": value.as_list()}
    if isinstance(value, np.ndarray):
        return {"ndarray": True, "dtype": value.dtype.name, "value": _plain(value)}
    return {"repr": repr(value)}


def _plain(arr):
    arr = np.asarray(arr)
    if arr.dtype.kind == "c":
        return [np.real(arr).tolist(), np.imag(arr).tolist()]
    return arr.tolist()


def _evaluate(cases, namespace):
    out = {}
    for expr in cases:
        try:
            out[expr] = _record(eval(expr, namespace))  # noqa: S307 - our own expressions
        except Exception as exc:  # noqa: BLE001 - the class is what is recorded
            out[expr] = {"error": type(exc).__name__}
    return out


def main() -> None:
    import tensorflow as tf
    import tensorflow.experimental.numpy as tnp
    namespace = {"tf": tf, "tnp": tnp, "np": np}
    exec(SETUP, namespace)  # noqa: S102 - our own set-up
    record = {"setup": SETUP, "functions": _evaluate(CASES, namespace),
              "names": sorted(n for n in dir(tnp) if not n.startswith("_"))}
    tnp.experimental_enable_numpy_behavior()
    exec(SETUP, namespace)  # noqa: S102
    # Without NumPy behaviour, TF's tnp functions that cast with ``.astype`` fail with an
    # AttributeError (tnp.exp of integers); the same cases after enabling it are the reference.
    record["functions_numpy_behaviour"] = _evaluate(CASES, namespace)
    record["behaviour"] = _evaluate(BEHAVIOUR_CASES, namespace)
    path = pathlib.Path(__file__).resolve().parents[2] / "tests/data/numpy_api/tnp_reference.json"
    path.write_text(json.dumps(record, indent=0, sort_keys=True) + "\n")
    print("wrote", path, len(record["functions"]), len(record["behaviour"]))


if __name__ == "__main__":
    main()
