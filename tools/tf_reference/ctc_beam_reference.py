"""Records tf.nn.ctc_beam_search_decoder (TF2) and tf.compat.v1.nn.ctc_beam_search_decoder
(merge_repeated) on TensorFlow (``/path/to/tf-venv/bin/python
tools/tf_reference/ctc_beam_reference.py``) into tests/data/ctc/beam_tf_2_21.json;
tests/test_ctc_beam.py runs the same ``program`` with flowgrad as ``tf`` and compares."""
import json
import os

import numpy as np


def program(tf) -> dict:
    """The cases: {case: [[indices, values, dense_shape] per path, log_probabilities]}."""
    rng = np.random.RandomState(7)
    out = {}
    logits = rng.randn(9, 3, 5).astype(np.float32) * 2.0
    peaked = np.full((6, 2, 4), -3.0, np.float32)
    for t, (a, b) in enumerate([(0, 1), (0, 1), (3, 3), (0, 2), (1, 3), (1, 1)]):
        peaked[t, 0, a] = 2.0
        peaked[t, 1, b] = 2.0
    cases = {
        "default": (tf.nn.ctc_beam_search_decoder, logits, [9, 5, 7], {}),
        "top3_width4": (tf.nn.ctc_beam_search_decoder, logits, [9, 9, 2],
                        {"beam_width": 4, "top_paths": 3}),
        "width1": (tf.nn.ctc_beam_search_decoder, logits, [9, 3, 6], {"beam_width": 1}),
        "v1_merge": (tf.compat.v1.nn.ctc_beam_search_decoder, peaked, [6, 5],
                     {"beam_width": 10, "top_paths": 2}),
        "v1_no_merge": (tf.compat.v1.nn.ctc_beam_search_decoder, peaked, [6, 5],
                        {"beam_width": 10, "top_paths": 2, "merge_repeated": False}),
    }
    for name, (fn, x, lengths, kw) in cases.items():
        decoded, log_probs = fn(x, lengths, **kw)
        out[name] = [[[d.indices.numpy().tolist(), d.values.numpy().tolist(),
                       d.dense_shape.numpy().tolist()] for d in decoded],
                     log_probs.numpy().tolist()]
    return out


def main() -> None:
    """Writes the record."""
    import tensorflow as tf
    path = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "data", "ctc",
                        "beam_tf_2_21.json")
    with open(path, "w") as f:
        json.dump(program(tf), f)


if __name__ == "__main__":
    main()
