"""Records TensorFlow 2.21's lu_solve, lu_reconstruct, lu_matrix_inverse, tensor_diag,
tensor_diag_part, normalize, tridiagonal_matmul and tridiagonal_solve for tests/test_linalg_gaps.py.

Run with the TensorFlow venv from the repository root:
``/work/venv-tf/bin/python tools/tf_reference/linalg_gaps_reference.py``; writes
``tests/data/linalg_gaps/reference.json``.
"""
import json
import pathlib

import numpy as np
import tensorflow as tf

OUT = pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "linalg_gaps"

NORMS = [("euclidean", None), ("euclidean", 1), (1, 0), (np.inf, -1), (3, 1), ("fro", [0, 1]),
         (1, [0, 1]), (np.inf, [0, 1])]


def _error(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - recording the class and message
        return [type(e).__name__, str(e).split(" [Op:")[0].split("}} ")[-1]]
    return None


def main():
    rng = np.random.RandomState(7)
    a = rng.randn(2, 4, 4)
    rhs = rng.randn(2, 4, 3)
    lu, p = tf.linalg.lu(a)
    record = {
        "a": a.tolist(), "rhs": rhs.tolist(), "lu": lu.numpy().tolist(), "perm": p.numpy().tolist(),
        "lu_solve": tf.linalg.lu_solve(lu, p, rhs).numpy().tolist(),
        "lu_solve_one_rhs": tf.linalg.lu_solve(lu[0], p[0], rhs).numpy().tolist(),
        "lu_reconstruct": tf.linalg.lu_reconstruct(lu, p).numpy().tolist(),
        "lu_matrix_inverse": tf.linalg.lu_matrix_inverse(lu, p).numpy().tolist(),
        "lu_solve_errors": [
            _error(lambda: tf.linalg.lu_solve(lu, p, rhs[0, :, 0])),
            _error(lambda: tf.linalg.lu_solve(lu, p, rhs[:, :3])),
            _error(lambda: tf.linalg.lu_reconstruct(lu[0, 0], p[0])),
        ],
    }
    d = rng.randn(2, 3)
    record["diag_in"] = d.tolist()
    record["tensor_diag"] = tf.linalg.tensor_diag(d).numpy().tolist()
    record["tensor_diag_part"] = tf.linalg.tensor_diag_part(
        tf.linalg.tensor_diag(d) + 1.0).numpy().tolist()
    record["diag_errors"] = [
        _error(lambda: tf.linalg.tensor_diag(tf.constant(3.0))),
        _error(lambda: tf.linalg.tensor_diag_part(tf.ones([2, 3]))),
        _error(lambda: tf.linalg.tensor_diag_part(tf.ones([2, 3, 2]))),
    ]
    x = rng.randn(3, 4)
    record["norm_in"] = x.tolist()
    record["normalize"] = []
    for ord_, axis in NORMS:
        normalized, norm = tf.linalg.normalize(x, ord=ord_, axis=axis)
        record["normalize"].append({"ord": "inf" if ord_ is np.inf else ord_, "axis": axis,
                                    "normalized": normalized.numpy().tolist(),
                                    "norm": norm.numpy().tolist()})
    diags, rhs3 = rng.randn(2, 3, 5), rng.randn(2, 5, 2)
    dense = tf.linalg.tridiagonal_matmul(diags, tf.eye(5, batch_shape=[2], dtype=tf.float64))
    record["tridiagonal"] = {
        "diagonals": diags.tolist(), "rhs": rhs3.tolist(), "dense": dense.numpy().tolist(),
        "compact": tf.linalg.tridiagonal_matmul(diags, rhs3).numpy().tolist(),
        "errors": [_error(lambda: tf.linalg.tridiagonal_matmul(diags, rhs3, "banded")),
                   _error(lambda: tf.linalg.tridiagonal_matmul(np.ones((2, 3)), rhs3[0],
                                                               "matrix"))],
    }
    sd, sb = tf.constant(rng.randn(2, 3, 5)), tf.constant(rng.randn(2, 5, 2))
    singular = tf.constant([[1.0, 0, 0], [1.0, 1, 1], [0, 1.0, 0]], tf.float64)
    dv, bv = tf.Variable(sd), tf.Variable(sb)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.linalg.tridiagonal_solve(dv, bv) ** 2)
    g_d, g_b = tape.gradient(y, [dv, bv])
    record["tridiagonal_solve"] = {
        "diagonals": sd.numpy().tolist(), "rhs": sb.numpy().tolist(),
        "pivoting": tf.linalg.tridiagonal_solve(sd, sb).numpy().tolist(),
        "no_pivoting": tf.linalg.tridiagonal_solve(sd, sb, partial_pivoting=False)
        .numpy().tolist(),
        "vector": tf.linalg.tridiagonal_solve(sd, sb[..., 0]).numpy().tolist(),
        "transposed": tf.linalg.tridiagonal_solve(sd, tf.linalg.matrix_transpose(sb),
                                                  transpose_rhs=True).numpy().tolist(),
        "singular": tf.linalg.tridiagonal_solve(singular, tf.ones((3, 1), tf.float64))
        .numpy().tolist(),
        "perturbed": tf.linalg.tridiagonal_solve(
            singular, tf.constant([[1.0], [2], [3]], tf.float64),
            perturb_singular=True).numpy().tolist(),
        "grad_diagonals": g_d.numpy().tolist(), "grad_rhs": g_b.numpy().tolist(),
    }
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "reference.json").write_text(json.dumps(record) + "\n")


if __name__ == "__main__":
    main()
