"""Records tf.nn.lrn's values and gradients on TensorFlow (``/path/to/tf-venv/bin/python
tools/tf_reference/lrn_reference.py``) into tests/data/lrn/tf_2_21.json, which
tests/test_lrn.py replays on flowgrad."""
import json
import os

import numpy as np
import tensorflow as tf

CONFIGS = [{}, {"depth_radius": 2, "bias": 2.0, "alpha": 1e-4, "beta": 0.75},
           {"depth_radius": 1, "bias": 0.5, "alpha": 0.3, "beta": 1.5}]


def main() -> None:
    """Writes the record."""
    rng = np.random.RandomState(0)
    x = rng.randn(2, 3, 3, 7).astype(np.float32)
    w = rng.randn(*x.shape).astype(np.float32)
    cases = []
    for kw in CONFIGS:
        xt = tf.constant(x)
        with tf.GradientTape() as tape:
            tape.watch(xt)
            y = tf.nn.lrn(xt, **kw)
            loss = tf.reduce_sum(y * w)
        cases.append({"kwargs": kw, "y": y.numpy().tolist(),
                      "grad": tape.gradient(loss, xt).numpy().tolist()})
    out = {"x": x.tolist(), "w": w.tolist(), "cases": cases}
    path = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "data", "lrn",
                        "tf_2_21.json")
    with open(path, "w") as f:
        json.dump(out, f)


if __name__ == "__main__":
    main()
