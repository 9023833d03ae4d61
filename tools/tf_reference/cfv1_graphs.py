"""Records small TF1 graphs with control flow v1 that TensorFlow 2.21 writes and runs
(``disable_v2_behavior()``; GraphDefs without recorded shapes, as ``as_graph_def()`` and
frozen graphs have them), for flowgrad's importer of them to be pinned against
(tests/data/tf_loop_training/cfv1_graphs.json: per case the GraphDef, base64, the fetches,
whether to run ``init`` first, and TensorFlow's values at each run):

- ``growing``: a ``while_loop`` concatenating onto a tensor (``shape_invariants``);
- ``assign_in_loop``: a loop body assigning to a variable (``RefEnter``), run twice;
- ``assign_in_cond``: ``tf.cond`` branches assigning to a variable (``RefSwitch``);
- ``assert_no_backprop``: an assertion in a loop body, ``back_prop=False``, ``swap_memory``;
- ``ragged_ta``: a TensorArray of elements of different sizes (``infer_shape=False``),
  concatenated;
- ``nested_map``: ``map_fn`` in ``map_fn``;
- ``while_in_cond``: a ``while_loop`` in a ``tf.cond`` branch and its gradient.

Run with the TensorFlow venv: /work/venv-tf/bin/python tools/tf_reference/cfv1_graphs.py
"""
import base64
import json
import os

import numpy as np
import tensorflow as tf

v1 = tf.compat.v1
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "data",
                   "tf_loop_training", "cfv1_graphs.json")
cases = {}


def rec(name, build, fetch_names, run_init=False, steps=1):
    with tf.Graph().as_default() as g:
        build()
        init = v1.global_variables_initializer()      # named "init"
        gd = g.as_graph_def()
        with v1.Session() as sess:
            if run_init:
                sess.run(init)
            vals = [sess.run(fetch_names) for _ in range(steps)]
    cases[name] = {"graph": base64.b64encode(gd.SerializeToString()).decode(),
                   "fetch": fetch_names, "init": run_init,
                   "values": [[np.asarray(v).tolist() for v in vs] for vs in vals]}
    print(name, vals)


def growing():
    x = tf.constant(np.arange(6, dtype=np.float32).reshape(2, 3))
    _, acc = v1.while_loop(
        lambda i, a: i < 3, lambda i, a: (i + 1, tf.concat([a, x * tf.cast(i, tf.float32)], 0)),
        [0, tf.zeros([0, 3])], shape_invariants=[tf.TensorShape([]), tf.TensorShape([None, 3])])
    tf.identity(acc, name="out")

def assign_in_loop():
    v = v1.get_variable("counter", [], initializer=v1.zeros_initializer())
    def body(i):
        with tf.control_dependencies([v1.assign_add(v, 2.0)]):
            return i + 1
    n = v1.while_loop(lambda i: i < 4, body, [0])
    with tf.control_dependencies([n]):
        tf.identity(v.read_value() if hasattr(v, "read_value") else v, name="out")

def assign_in_cond():
    v = v1.get_variable("v", [], initializer=v1.ones_initializer())
    p = v1.placeholder_with_default(True, [], name="p")
    r = v1.cond(p, lambda: v1.assign(v, v * 3.0), lambda: v1.assign_sub(v, 1.0))
    tf.identity(r, name="out")

def assert_no_backprop():
    x = tf.constant([1.0, 2.0])
    def body(i, a):
        chk = tf.debugging.assert_less(a[0], 100.0)
        with tf.control_dependencies([chk]):
            return i + 1, a * 2.0
    _, a = v1.while_loop(lambda i, a: i < 3, body, [0, x], back_prop=False, swap_memory=True)
    tf.identity(a, name="out")

def ragged_ta():
    ta = tf.TensorArray(tf.float32, size=3, infer_shape=False)
    def body(i, ta):
        return i + 1, ta.write(i, tf.ones([i + 1]) * tf.cast(i, tf.float32))
    _, ta = v1.while_loop(lambda i, ta: i < 3, body, [0, ta])
    tf.identity(ta.concat(), name="out")

def nested_map():
    x = tf.constant(np.arange(12, dtype=np.float32).reshape(2, 3, 2))
    y = tf.map_fn(lambda m: tf.map_fn(lambda r: tf.reduce_sum(r) * 2.0, m), x)
    tf.identity(y, name="out")

def while_in_cond():
    p = v1.placeholder_with_default(True, [], name="p")
    x = tf.constant([1.0, 2.0])
    def t():
        return v1.while_loop(lambda i, a: i < 3, lambda i, a: (i + 1, a + x), [0, x])[1]
    r = v1.cond(p, t, lambda: x * 10.0)
    (g,) = tf.gradients(tf.reduce_sum(r * r), [x])
    tf.identity(r, name="out")
    tf.identity(g, name="grad")

CASES = [
    ("growing", growing, ["out:0"], {}),
    ("assign_in_loop", assign_in_loop, ["out:0"], {"run_init": True, "steps": 2}),
    ("assign_in_cond", assign_in_cond, ["out:0"], {"run_init": True, "steps": 2}),
    ("assert_no_backprop", assert_no_backprop, ["out:0"], {}),
    ("ragged_ta", ragged_ta, ["out:0"], {}),
    ("nested_map", nested_map, ["out:0"], {}),
    ("while_in_cond", while_in_cond, ["out:0", "grad:0"], {}),
]


def main():
    v1.disable_v2_behavior()
    for name, build, fetches, kw in CASES:
        rec(name, build, fetches, **kw)
    with open(OUT, "w") as f:
        json.dump(cases, f, indent=1, sort_keys=True)



if __name__ == "__main__":
    main()
