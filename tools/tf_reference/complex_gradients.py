"""Records TensorFlow's gradients of complex ops with ``/path/to/tf-venv/bin/python
tools/tf_reference/complex_gradients.py`` into tests/data/complex_gradients/tf_2_21.json;
tests/test_complex_gradients.py runs the same ``program`` with flowgrad as ``tf``.

Every case is a function of complex128 tensors. Its gradient is taken twice: eagerly with a
``GradientTape`` and a complex (or, for a real output, real) upstream gradient, and in a
graph with ``tf.gradients(..., grad_ys=...)``. The upstream gradients are fixed pseudo-random
numbers, so the record holds TensorFlow's convention (the gradient of a real loss with
respect to ``z = x + iy`` is ``dL/dx + i dL/dy``; a complex output's upstream gradient is
``dL/dRe + i dL/dIm``). A case TensorFlow cannot run or differentiate records its error
class (flowgrad must raise the same)."""
import json
import os

import numpy as np


def _c(rng, *shape, lo=-1.0, hi=1.0):
    return rng.uniform(lo, hi, shape) + 1j * rng.uniform(lo, hi, shape)


def cases(tf) -> list:
    """(name, function of complex tensors, input arrays)."""
    rng = np.random.RandomState(2021)
    a23, b23, _ = _c(rng, 2, 3), _c(rng, 2, 3), _c(rng, 2, 3)
    b3 = _c(rng, 3)
    away = _c(rng, 2, 3, lo=0.5, hi=1.5)            # no value near 0 or a branch cut
    small = 0.4 * _c(rng, 2, 3)                     # inside the unit disc
    m33, n33 = _c(rng, 3, 3), _c(rng, 3, 3)
    m32 = _c(rng, 3, 2)
    spd = m33 @ m33.conj().T + 3 * np.eye(3)        # Hermitian positive definite
    bm = _c(rng, 2, 3, 3)
    sq = tf.math.square
    L = tf.linalg
    return [
        ("add", lambda x, y: x + y, [a23, b3]),
        ("sub", lambda x, y: x - y, [a23, b3]),
        ("mul", lambda x, y: x * y, [a23, b3]),
        ("div", lambda x, y: x / y, [a23, away]),
        ("div_no_nan", tf.math.divide_no_nan, [a23, away]),
        ("neg", lambda x: -x, [a23]),
        ("square", sq, [a23]),
        ("squared_difference", tf.math.squared_difference, [a23, b3]),
        ("exp", tf.math.exp, [a23]),
        ("expm1", tf.math.expm1, [a23]),
        ("log", tf.math.log, [away]),
        ("log1p", tf.math.log1p, [away]),
        ("reciprocal", tf.math.reciprocal, [away]),
        ("sqrt", tf.math.sqrt, [away]),
        ("rsqrt", tf.math.rsqrt, [away]),
        ("tanh", tf.math.tanh, [a23]),
        ("sigmoid", tf.math.sigmoid, [a23]),
        ("sin", tf.math.sin, [a23]),
        ("cos", tf.math.cos, [a23]),
        ("tan", tf.math.tan, [small]),
        ("sinh", tf.math.sinh, [a23]),
        ("cosh", tf.math.cosh, [a23]),
        ("asin", tf.math.asin, [small]),
        ("acos", tf.math.acos, [small]),
        ("atan", tf.math.atan, [small]),
        ("asinh", tf.math.asinh, [small]),
        ("acosh", tf.math.acosh, [away + 1.5]),
        ("atanh", tf.math.atanh, [small]),
        ("pow", tf.math.pow, [away, b23]),
        ("pow_scalar", lambda x: x ** 3, [a23]),
        ("xlogy", tf.math.xlogy, [a23, away]),
        ("xdivy", tf.math.xdivy, [a23, away]),
        ("abs", tf.math.abs, [a23]),
        ("real", tf.math.real, [a23]),
        ("imag", tf.math.imag, [a23]),
        ("conj", tf.math.conj, [a23]),
        ("angle", tf.math.angle, [away]),
        ("complex", lambda x, y: tf.complex(tf.math.real(x), tf.math.imag(y)), [a23, b23]),
        ("add_n", lambda x, y: tf.math.add_n([x, y, x]), [a23, b23]),
        ("matmul", tf.linalg.matmul, [a23, m32]),
        ("matmul_adjoint_a", lambda x, y: tf.linalg.matmul(x, y, adjoint_a=True), [a23, b23]),
        ("matmul_adjoint_b", lambda x, y: tf.linalg.matmul(x, y, adjoint_b=True), [a23, b23]),
        ("matmul_transpose_a", lambda x, y: tf.linalg.matmul(x, y, transpose_a=True),
         [a23, b23]),
        ("batch_matmul", tf.linalg.matmul, [bm, m33]),
        ("matvec", tf.linalg.matvec, [m33, b3]),
        ("tensordot", lambda x, y: tf.tensordot(x, y, 1), [a23, m32]),
        ("einsum", lambda x, y: tf.einsum("ij,kj->ik", x, y), [a23, b23]),
        ("einsum_trace", lambda x: tf.einsum("ii->", x), [m33]),
        ("adjoint", tf.linalg.adjoint, [a23]),
        ("transpose_conj", lambda x: tf.transpose(x, conjugate=True), [a23]),
        ("reduce_sum", lambda x: tf.math.reduce_sum(x, axis=1), [a23]),
        ("reduce_mean", lambda x: tf.math.reduce_mean(x, axis=0), [a23]),
        ("reduce_prod", lambda x: tf.math.reduce_prod(x, axis=1), [a23]),
        ("cumsum", lambda x: tf.math.cumsum(x, axis=1), [a23]),
        ("cumprod", lambda x: tf.math.cumprod(x, axis=1), [a23]),
        ("trace", tf.linalg.trace, [m33]),
        ("diag_part", tf.linalg.diag_part, [m33]),
        ("l2_normalize", lambda x: tf.math.l2_normalize(x, axis=1), [a23]),
        ("norm", lambda x: tf.norm(x, axis=1), [a23]),
        ("reduce_euclidean_norm", lambda x: tf.math.reduce_euclidean_norm(x, axis=1),
         [away]),
        ("fft", tf.signal.fft, [a23]),
        ("ifft", tf.signal.ifft, [a23]),
        ("fft2d", tf.signal.fft2d, [a23]),
        ("ifft2d", tf.signal.ifft2d, [a23]),
        ("fft3d", tf.signal.fft3d, [bm]),
        ("ifft3d", tf.signal.ifft3d, [bm]),
        ("irfft", tf.signal.irfft, [a23]),
        ("det", L.det, [m33]),
        ("logdet_slogdet", lambda x: L.slogdet(x)[1], [m33]),
        ("inv", L.inv, [m33]),
        ("solve", L.solve, [m33, n33]),
        ("solve_adjoint", lambda x, y: L.solve(x, y, adjoint=True), [m33, n33]),
        ("triangular_solve", lambda x, y: L.triangular_solve(x, y, lower=True),
         [m33 + 3 * np.eye(3), n33]),
        ("cholesky", L.cholesky, [spd]),
        ("eigh_values", lambda x: L.eigvalsh(x + L.adjoint(x)), [m33]),
        ("expm", L.expm, [0.3 * m33]),
        ("reshape", lambda x: tf.reshape(x, [3, 2]) * tf.reshape(x, [3, 2]), [a23]),
        ("concat", lambda x, y: tf.concat([x, y * y], 0), [a23, b23]),
        ("gather", lambda x: tf.gather(x * x, [2, 0, 2], axis=1), [a23]),
        ("tile_slice", lambda x: tf.tile(x, [2, 1])[1:3, :2] * x[:, :2], [a23]),
        ("sign", lambda x: tf.math.sign(x) * x, [a23]),
        ("reduce_variance", lambda x: tf.math.reduce_variance(x, axis=1), [a23]),
        ("reduce_std", lambda x: tf.math.reduce_std(x, axis=0), [a23]),
        ("multiply_no_nan", tf.math.multiply_no_nan, [a23, b23]),
        ("reciprocal_no_nan", tf.math.reciprocal_no_nan, [away]),
        ("segment_sum", lambda x: tf.math.segment_sum(x * x, [0, 0, 1]), [m33]),
        ("unsorted_segment_sum", lambda x: tf.math.unsorted_segment_sum(x, [1, 0, 1], 2),
         [m33]),
        ("logdet", L.logdet, [spd]),
        ("pinv", L.pinv, [m33 + 3 * np.eye(3)]),
        ("sqrtm", L.sqrtm, [spd]),
        ("logm", L.logm, [spd]),
        ("lu_solve", lambda x, y: L.lu_solve(*L.lu(x), y), [m33 + 3 * np.eye(3), n33]),
        ("rfft2d_irfft2d", lambda x: tf.signal.irfft2d(x), [bm]),
        ("fftshift", lambda x: tf.signal.fftshift(x) * x, [a23]),
        ("roll_reverse", lambda x: tf.roll(x, 1, axis=1) * tf.reverse(x, [0]), [a23]),
        ("where", lambda x, y: tf.where(tf.math.real(x) > 0, x * y, y), [a23, b23]),
        ("stack_unstack", lambda x: tf.stack(tf.unstack(x)[::-1]) * x, [a23]),
        ("pad", lambda x: tf.pad(x, [[1, 0], [0, 2]]) * 2.0, [a23]),
        ("scalar_mul", lambda x: tf.math.scalar_mul(2.0 + 1.0j, x) * x, [a23]),
        ("truediv_real_scalar", lambda x: x / 3.0 + 2.0 * x, [a23]),
        ("linalg_diag", lambda x: tf.linalg.diag(x) * 1.5, [b3]),
        ("einsum_batch", lambda x, y: tf.einsum("bij,bjk->bik", x, y), [bm, bm]),
        ("cast_to_real", lambda x: tf.cast(x * x, tf.float64), [a23]),
        ("cast_from_real", lambda x: tf.cast(tf.math.real(x), tf.complex128) * x, [a23]),
        ("chain", lambda x, y: tf.math.exp(x) * tf.math.conj(y) / (1.0 + x * x), [a23, b23]),
    ]


def _pair(a) -> list:
    a = np.asarray(a)
    if np.iscomplexobj(a):
        return {"re": a.real.tolist(), "im": a.imag.tolist()}
    return {"re": a.tolist()}


def _upstream(rng, y) -> np.ndarray:
    shape = tuple(y.shape)
    if y.dtype.is_complex:
        return rng.uniform(-1, 1, shape) + 1j * rng.uniform(-1, 1, shape)
    return rng.uniform(-1, 1, shape)


def program(tf, case_list: list | None = None) -> dict:
    """{case: {"eager": [gradient per input], "graph": [...]} or {"error": class name}}, of
    ``case_list`` (this module's :func:`cases` when None)."""
    out = {}
    for name, fn, arrays in cases(tf) if case_list is None else case_list:
        rng = np.random.RandomState(7)
        try:
            xs = [tf.constant(a, dtype=tf.complex128) for a in arrays]
            with tf.GradientTape() as tape:
                tape.watch(xs)
                y = fn(*xs)
            up = _upstream(rng, y)
            eager = tape.gradient(y, xs, output_gradients=tf.constant(up, dtype=y.dtype))
            g = tf.Graph()
            with g.as_default():
                ps = [tf.compat.v1.placeholder(tf.complex128, a.shape) for a in arrays]
                yg = fn(*ps)
                grads = tf.gradients(yg, ps, grad_ys=tf.constant(up, dtype=yg.dtype))
                with tf.compat.v1.Session(graph=g) as sess:
                    graph = sess.run([tf.zeros_like(p) if d is None else d
                                      for p, d in zip(ps, grads)], dict(zip(ps, arrays)))
            out[name] = {
                "eager": [None if d is None else _pair(tf.convert_to_tensor(d).numpy())
                          for d in eager],
                "graph": [_pair(d) for d in graph],
                "value": _pair(y.numpy()),
            }
        except Exception as e:  # noqa: BLE001 - the class is the record
            out[name] = {"error": type(e).__name__}
    return out


def main() -> None:
    """Writes the record."""
    import tensorflow as tf
    path = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "data",
                        "complex_gradients", "tf_2_21.json")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(program(tf), f, indent=0)


if __name__ == "__main__":
    main()
