"""Records what ``tf.compat.v1.wrap_function`` and ``WrappedFunction.prune`` give, for
tests/test_wrap_function.py: a wrapped function with a placeholder argument and a
``get_variable``; placeholders fed through ``prune`` (by tensor and by name, nested fetches);
and the TF2 recipe for a frozen GraphDef (``import_graph_def`` wrapped, then pruned).

``program(tf)`` runs eagerly. Run from the repository root on TensorFlow 2.21:

    /work/venv-tf/bin/python tools/tf_reference/wrap_function.py \
        > tests/data/wrap_function/tf_2_21.json
"""
import json

import numpy as np


def program(tf):
    """Plain values the wrapped functions give."""
    v1 = tf.compat.v1
    out = {}

    def scale(x):
        w = v1.get_variable("w", [], initializer=v1.constant_initializer(3.0))
        return x * w + 2.0
    wrapped = v1.wrap_function(scale, [tf.TensorSpec([], tf.float32)])
    out["scale"] = float(wrapped(tf.constant(3.0)))
    out["scale twice"] = float(wrapped(tf.constant(1.0)))
    out["variables"] = [v.name for v in wrapped.variables]
    out["outputs"] = [t.dtype.name for t in wrapped.outputs]

    def graph():
        x = v1.placeholder(tf.float32, [None], name="x")
        y = tf.identity(x * 2.0, name="y")
        tf.identity(y + 1.0, name="z")
    wrapped = v1.wrap_function(graph, [])
    g = wrapped.graph
    by_tensor = wrapped.prune(feeds=g.get_tensor_by_name("x:0"),
                              fetches=g.get_tensor_by_name("z:0"))
    out["prune tensor"] = by_tensor(tf.constant([1.0, 2.0])).numpy().tolist()
    by_name = wrapped.prune(feeds=["x:0"], fetches={"y": "y:0", "z": ["z:0"]})
    got = by_name(tf.constant([1.0]))
    out["prune nested"] = {"y": got["y"].numpy().tolist(),
                           "z": [t.numpy().tolist() for t in got["z"]]}

    frozen = tf.Graph()
    with frozen.as_default():
        a = v1.placeholder(tf.float32, [None, 2], name="input")
        w = tf.constant([[1.0, -1.0], [0.5, 2.0]], name="kernel")
        tf.nn.relu(tf.matmul(a, w), name="output")
    graph_def = frozen.as_graph_def()
    loaded = v1.wrap_function(lambda: v1.import_graph_def(graph_def, name=""), [])
    infer = loaded.prune(tf.nest.map_structure(loaded.graph.as_graph_element, "input:0"),
                         tf.nest.map_structure(loaded.graph.as_graph_element, "output:0"))
    out["frozen"] = infer(tf.constant([[1.0, 2.0], [-3.0, 1.0]])).numpy().tolist()
    try:
        infer(tf.constant([[1, 2]]))
    except tf.errors.InvalidArgumentError as e:
        out["wrong dtype"] = [type(e).__name__, e.message.split(" was expected to be ")[-1]
                              .split(" [Op:")[0]]
    return out


if __name__ == "__main__":
    import tensorflow as tf

    print(json.dumps(program(tf), indent=1, sort_keys=True, default=np.asarray))
