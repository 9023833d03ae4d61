"""Records tf.linalg.diag / diag_part / set_diag with ``k`` (one diagonal off the main or a
band), ``num_rows``/``num_cols``, ``padding_value`` and ``align`` (TensorFlow's
MatrixDiagV3 / MatrixDiagPartV3 / MatrixSetDiagV3), their gradients, and the error classes of
bad bands, with ``/path/to/tf-venv/bin/python tools/tf_reference/matrix_diag_reference.py``
into tests/data/matrix_diag/tf_2_21.json; tests/test_matrix_diag.py runs the same
``program`` with flowgrad as ``tf``."""
import json
import os

import numpy as np

ALIGNS = ("RIGHT_LEFT", "LEFT_RIGHT", "LEFT_LEFT", "RIGHT_RIGHT")


def program(tf) -> dict:
    """{case: the result as a list, or the error class}."""
    v = np.arange(1.0, 5.0)
    band = np.arange(1.0, 25.0).reshape(2, 3, 4)          # 2 batches, 3 diagonals of 4
    m = np.arange(1.0, 13.0).reshape(3, 4)
    mb = np.arange(1.0, 31.0).reshape(2, 3, 5)
    out = {}
    cases = {
        "diag_k1": lambda: tf.linalg.diag(v, k=1),
        "diag_k-2": lambda: tf.linalg.diag(v, k=-2),
        "diag_k0_rows": lambda: tf.linalg.diag(v, num_rows=5),
        "diag_k1_cols": lambda: tf.linalg.diag(v, k=1, num_cols=6),
        "diag_k-1_rows_cols": lambda: tf.linalg.diag(v, k=-1, num_rows=5, num_cols=4),
        "diag_pad": lambda: tf.linalg.diag(v, k=2, padding_value=9.0),
        "diag_int": lambda: tf.linalg.diag(np.arange(3), k=1),
        "part_k1": lambda: tf.linalg.diag_part(m, k=1),
        "part_k-1": lambda: tf.linalg.diag_part(m, k=-1),
        "part_k3": lambda: tf.linalg.diag_part(m, k=3),
        "part_k-2_pad": lambda: tf.linalg.diag_part(m, k=-2, padding_value=7.0),
        "part_batch_k2": lambda: tf.linalg.diag_part(mb, k=2),
        "set_k1": lambda: tf.linalg.set_diag(m, [10.0, 20.0, 30.0], k=1),
        "set_k-1": lambda: tf.linalg.set_diag(m, [10.0, 20.0], k=-1),
        "diag_int_k0": lambda: tf.linalg.diag(np.arange(3)),
        "part_k_big": lambda: tf.linalg.diag_part(m, k=5),
        "diag_k_vector_bad": lambda: tf.linalg.diag(v, k=(2, 1)),
        "set_wrong_len": lambda: tf.linalg.set_diag(m, [1.0, 2.0], k=1),
        "diag_rows_too_few": lambda: tf.linalg.diag(v, k=1, num_rows=2, num_cols=2),
    }
    for align in ALIGNS:
        cases["diag_band_" + align] = lambda a=align: tf.linalg.diag(band, k=(-1, 1), align=a)
        cases["part_band_" + align] = lambda a=align: tf.linalg.diag_part(
            mb, k=(-1, 2), padding_value=-1.0, align=a)
        cases["set_band_" + align] = lambda a=align: tf.linalg.set_diag(
            mb, np.arange(100.0, 124.0).reshape(2, 4, 3)[..., :3], k=(-2, 1), align=a)
    for key, f in cases.items():
        try:
            out[key] = f().numpy().tolist()
        except Exception as e:  # noqa: BLE001 - the class is the record
            out[key] = type(e).__name__
    up = np.cos(np.arange(24.0)).reshape(2, 4, 3)
    for align in ("RIGHT_LEFT", "LEFT_RIGHT"):
        x = tf.constant(mb)
        d = tf.constant(np.sin(np.arange(24.0)).reshape(2, 4, 3))
        with tf.GradientTape(persistent=True) as tape:
            tape.watch([x, d])
            part = tf.linalg.diag_part(x, k=(-1, 2), align=align)
            made = tf.linalg.diag(d, k=(-2, 1), num_rows=4, align=align)
            put = tf.linalg.set_diag(x, d[..., :3], k=(-2, 1), align=align)
        out["grad_part_" + align] = tape.gradient(part, x, up).numpy().tolist()
        out["grad_diag_" + align] = tape.gradient(made, d, tf.reshape(
            tf.range(24, dtype=tf.float64), [2, 4, 3])).numpy().tolist()
        gx, gd = tape.gradient(put, [x, d], tf.reshape(tf.range(30, dtype=tf.float64),
                                                       [2, 3, 5]))
        out["grad_set_" + align] = [gx.numpy().tolist(), gd.numpy().tolist()]
    return out


def main() -> None:
    import tensorflow as tf
    path = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "data", "matrix_diag",
                        "tf_2_21.json")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(program(tf), f)


if __name__ == "__main__":
    main()
