"""Records what ``tf.compat.v1.keras.utils.DeterministicRandomTestTool`` (Keras 2; TF's
migration guides) makes random ops draw, for tests/test_deterministic_random_tool.py: in both
modes, eagerly and in a TF1 graph run in a Session, with the guide's uniform draws, normal and
truncated normal draws and dropout.

``program(tf, tool)`` takes the TF2 face and the tool class. Run from the repository root
with TensorFlow 2.21's legacy Keras (tf_keras 2.21, which has the tool):

    PYTHONPATH=/tmp/tfk_site TF_USE_LEGACY_KERAS=1 /work/venv-tf/bin/python \
        tools/tf_reference/deterministic_random_tool.py \
        > tests/data/deterministic_random_tool/tf_keras_2_21.json
"""
import json

import numpy as np


def _draws(tf):
    a = tf.random.uniform(shape=(3, 1)) * 3
    b = tf.random.uniform(shape=(3, 3)) * 3
    c = tf.random.normal(shape=(2, 2))
    d = tf.random.truncated_normal(shape=(2,))
    e = tf.nn.dropout(tf.ones((2, 4)), rate=0.5)
    return [a, b, c, d, e]


def _plain(values):
    return [np.asarray(v).round(5).tolist() for v in values]


def program(tf, tool):
    """What the random ops draw under the tool (plain values)."""
    v1 = tf.compat.v1
    out = {}
    for mode in ("constant", "num_random_ops"):
        random_tool = tool(mode=mode)
        with random_tool.scope():
            out[mode + " eager"] = _plain(_draws(tf))
        out[mode + " eager operation_seed"] = random_tool.operation_seed
        random_tool = tool(mode=mode)
        with random_tool.scope():
            graph = tf.Graph()
            with graph.as_default(), v1.Session(graph=graph) as sess:
                out[mode + " graph"] = _plain(sess.run(_draws(tf)))
        out[mode + " graph operation_seed"] = random_tool.operation_seed
    random_tool = tool(mode="num_random_ops", seed=7)
    with random_tool.scope():
        first = tf.random.uniform((2,))
        random_tool.operation_seed = 0
        try:
            tf.random.uniform((2,))
        except ValueError as e:
            out["reused seed"] = [np.asarray(first).round(5).tolist(), str(e)]
    try:
        tool(mode="other")
    except ValueError as e:
        out["bad mode"] = str(e)
    return out


if __name__ == "__main__":
    import tensorflow as tf

    print(json.dumps(program(tf, tf.compat.v1.keras.utils.DeterministicRandomTestTool),
                     indent=1, sort_keys=True))
