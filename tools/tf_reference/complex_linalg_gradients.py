"""TensorFlow's gradients of the complex SVD, QR, Eig and SelfAdjointEigV2 (eigh): the same
program as complex_gradients.py (eager GradientTape and graph ``tf.gradients`` with fixed
pseudo-random upstream gradients) over functions of the decompositions that do not depend on
a singular or eigen vector's phase (reconstructions, ``|v|^2``, symmetric functions of the
eigenvalues), as LAPACK and TensorFlow's Eigen choose phases (and Eig's order) differently.
Record with::

    /work/venv-tf/bin/python tools/tf_reference/complex_linalg_gradients.py

into tests/data/complex_gradients/linalg_tf_2_21.json; tests/test_complex_linalg_gradients.py
runs the same program with flowgrad as ``tf``."""
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import complex_gradients  # noqa: E402


def cases(tf) -> list:
    """(name, function of complex tensors, input arrays)."""
    rng = np.random.RandomState(2026)

    def c(*shape):
        return rng.uniform(-1, 1, shape) + 1j * rng.uniform(-1, 1, shape)

    sq, tall, wide, batch = c(3, 3), c(4, 2), c(2, 4), c(2, 3, 3)
    wide23 = c(2, 3)
    L, m = tf.linalg, tf.math

    def abs2(x):
        return m.square(m.abs(x))

    def svd_rebuild(x, full=False):
        s, u, v = L.svd(x, full_matrices=full)
        k = s.shape[-1]
        s = tf.cast(s, x.dtype)
        return tf.matmul(u[..., :k] * tf.expand_dims(s, -2), v[..., :k], adjoint_b=True)

    def svd_abs(x, full=False):
        s, u, v = L.svd(x, full_matrices=full)
        return m.reduce_sum(abs2(u) * m.real(s[..., None, :1])) + m.reduce_sum(abs2(v) * 2.0)

    def qr_rebuild(x, full=False):
        q, r = L.qr(x, full_matrices=full)
        return tf.matmul(q, r) * tf.matmul(q, q, adjoint_a=True)[..., :1, :1]

    def qr_abs(x):
        q, r = L.qr(x)
        return m.reduce_sum(abs2(q) * 1.5) + m.reduce_sum(abs2(r) * m.real(x[..., :1, :1]))

    def herm(x):
        return x + L.adjoint(x)

    def eigh_rebuild(x):
        e, v = L.eigh(herm(x))
        return tf.matmul(v * tf.expand_dims(e * e, -2), v, adjoint_b=True)

    def eigh_abs(x):
        e, v = L.eigh(herm(x))
        return m.reduce_sum(abs2(v) * m.real(tf.expand_dims(e, -2)))

    def eig_symmetric(x):
        e, _ = L.eig(x)
        return m.reduce_sum(e * e) + m.reduce_prod(e)

    def eig_abs(x):
        e, v = L.eig(x)
        return m.reduce_sum(abs2(v) * m.real(tf.expand_dims(e, -2) * 1.0j + e[..., None, :]))

    return [
        ("svd_values", lambda x: L.svd(x, compute_uv=False), [sq]),
        ("svd_values_wide", lambda x: L.svd(x, compute_uv=False), [wide]),
        ("svd_rebuild_square", svd_rebuild, [sq]),
        ("svd_rebuild_tall", svd_rebuild, [tall]),
        ("svd_rebuild_wide", svd_rebuild, [wide]),
        ("svd_rebuild_batch", svd_rebuild, [batch]),
        ("svd_abs_square", svd_abs, [sq]),
        ("svd_abs_tall", svd_abs, [tall]),
        ("svd_abs_wide", svd_abs, [wide]),
        ("svd_full_square", lambda x: svd_abs(x, True), [sq]),
        ("svd_full_wide_by_one", lambda x: svd_abs(x, True), [wide23]),
        ("svd_full_tall_by_one", lambda x: svd_rebuild(x, True), [wide23.T.copy()]),
        ("qr_rebuild_square", qr_rebuild, [sq]),
        ("qr_rebuild_tall", qr_rebuild, [tall]),
        ("qr_rebuild_wide", qr_rebuild, [wide]),
        ("qr_abs_square", qr_abs, [sq]),
        ("qr_abs_tall", qr_abs, [tall]),
        ("qr_abs_wide", qr_abs, [wide]),
        ("qr_abs_batch", qr_abs, [batch]),
        ("eigh_rebuild", eigh_rebuild, [sq]),
        ("eigh_abs", eigh_abs, [sq]),
        ("eigh_abs_batch", eigh_abs, [batch]),
        ("eig_symmetric", eig_symmetric, [sq]),
        ("eig_values_symmetric", lambda x: m.reduce_sum(L.eigvals(x) ** 3), [sq]),
        ("eig_abs", eig_abs, [sq]),
        ("eig_abs_batch", eig_abs, [batch]),
    ]


def program(tf) -> dict:
    """The complex_gradients program over these cases."""
    return complex_gradients.program(tf, cases(tf))


def main() -> None:
    """Writes the record."""
    import tensorflow as tf
    path = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "data",
                        "complex_gradients", "linalg_tf_2_21.json")
    with open(path, "w") as f:
        json.dump(program(tf), f, indent=0)


if __name__ == "__main__":
    main()
