"""Records TensorFlow 2.21's random numbers on CPU, for tests/test_random_streams.py to
replay on flowgrad bit for bit.

Each case is a small program run with ``tf`` (TensorFlow 2's face), ``v1``
(``tf.compat.v1``) and ``np`` bound; it sets ``out`` to a list of tensors/arrays. The
recorder runs every case in a fresh state (``tf.random.set_seed(None)`` first, which also
empties the eager kernel cache, as flowgrad's does) and writes the programs and their
outputs to tests/data/random_streams/ (``cases.json``: the programs, output dtypes and
shapes; ``values.npz``: the values, bfloat16 stored as float32, which holds it exactly).

Run from the repository root: /work/venv-tf/bin/python tools/tf_reference/random_streams.py
"""
import json
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402

FLOATS = ("float16", "bfloat16", "float32", "float64")
SHAPES = ([], [1], [7], [3, 5], [2, 3, 4], [1001])

CASES = {}

# -- eager stateful ops: global seed, op seeds, first and second calls ----------------------
for dt in FLOATS:
    for fn in ("uniform", "normal", "truncated_normal"):
        CASES["eager_%s_%s" % (fn, dt)] = (
            "tf.random.set_seed(7)\n"
            "out = [tf.random.%s(s, dtype=tf.%s) for s in %r]\n"
            "out += [tf.random.%s([5], seed=3, dtype=tf.%s) for _ in range(2)]"
            % (fn, dt, list(SHAPES), fn, dt))
CASES["eager_uniform_range"] = (
    "tf.random.set_seed(11)\n"
    "out = [tf.random.uniform([6], -3.0, 5.0), tf.random.uniform([6], 2, 3, tf.float64),\n"
    "       tf.random.normal([6], 2.0, 0.5, seed=1), tf.random.truncated_normal([6], 1, 3)]")
CASES["eager_uniform_int"] = (
    "tf.random.set_seed(5)\n"
    "out = [tf.random.uniform([9], 0, 10, tf.int32), tf.random.uniform([9], -7, 100, tf.int64),\n"
    "       tf.random.uniform([3, 3], -2**31, 2**31 - 1, tf.int32),\n"
    "       tf.random.uniform([4], -2**62, 2**62, tf.int64),\n"
    "       tf.random.uniform([5], 0, 3, tf.int32, seed=8),\n"
    "       tf.random.uniform([5], 0, 3, tf.int32, seed=8)]")
CASES["eager_op_seed_only"] = (
    "out = [tf.random.uniform([4], seed=3), tf.random.uniform([4], seed=3),\n"
    "       tf.random.normal([3], seed=3), tf.random.uniform([4], seed=4),\n"
    "       tf.random.uniform([2, 2], seed=3, dtype=tf.float64)]")
CASES["eager_seed_zero"] = (
    "tf.random.set_seed(0)\n"
    "out = [tf.random.uniform([3], seed=0), tf.random.uniform([3]), tf.random.normal([3])]")
CASES["eager_big_seeds"] = (
    "tf.random.set_seed(2**40 + 3)\n"
    "out = [tf.random.uniform([3]), tf.random.normal([3], seed=2**33 + 1)]")
CASES["eager_shuffle"] = (
    "tf.random.set_seed(3)\n"
    "out = [tf.random.shuffle(tf.range(10)), tf.random.shuffle(tf.range(10)),\n"
    "       tf.random.shuffle(tf.reshape(tf.range(12.0), [4, 3])),\n"
    "       tf.random.shuffle(tf.range(1000), seed=5), tf.random.shuffle(tf.range(1000), seed=5),\n"
    "       tf.random.shuffle([7]), tf.random.shuffle(tf.range(5), seed=5)]")
CASES["eager_categorical"] = (
    "tf.random.set_seed(9)\n"
    "out = [tf.random.categorical([[0.0, 1.0, 2.0], [3.0, 0.0, -1.0]], 10),\n"
    "       tf.random.categorical(tf.math.log([[0.1, 0.2, 0.3, 0.4]]), 7, dtype=tf.int32),\n"
    "       tf.random.categorical([[1.0, -np.inf, 0.5]], 9, seed=4),\n"
    "       tf.random.categorical([[1.0, -np.inf, 0.5]], 9, seed=4),\n"
    "       tf.random.categorical(tf.zeros([3, 50], tf.float64), 13)]")
CASES["eager_dropout"] = (
    "tf.random.set_seed(4)\n"
    "x = tf.ones([4, 6])\n"
    "out = [tf.nn.dropout(x, 0.5), tf.nn.dropout(x, 0.25, seed=2),\n"
    "       tf.nn.dropout(x, 0.25, seed=2),\n"
    "       tf.nn.dropout(x, 0.5, noise_shape=[4, 1]),\n"
    "       tf.nn.experimental.stateless_dropout(x, 0.5, seed=[1, 2])]")

# -- graph mode: graph seeds, op counters, sessions ------------------------------------------
CASES["graph_ops"] = (
    "g = tf.Graph()\n"
    "with g.as_default():\n"
    "    v1.set_random_seed(42)\n"
    "    ts = [v1.random_normal([5]), v1.random_uniform([3, 2]), v1.truncated_normal([6]),\n"
    "          v1.random_uniform([4], 0, 50, tf.int32), v1.random_shuffle(tf.range(8)),\n"
    "          v1.multinomial([[0.0, 0.5, 1.0]], 6), v1.random_normal([5], seed=1),\n"
    "          v1.random_uniform([3], dtype=tf.float64, seed=1)]\n"
    "    with v1.Session() as sess:\n"
    "        out = sess.run(ts) + sess.run(ts)\n"
    "    with v1.Session() as sess:\n"
    "        out += sess.run(ts[:2])")
CASES["graph_op_seed_only"] = (
    "g = tf.Graph()\n"
    "with g.as_default():\n"
    "    ts = [v1.random_normal([5], seed=3), v1.random_uniform([4], seed=3)]\n"
    "    with v1.Session() as sess:\n"
    "        out = sess.run(ts) + sess.run(ts)")
CASES["graph_seed_zero"] = (
    "g = tf.Graph()\n"
    "with g.as_default():\n"
    "    v1.set_random_seed(0)\n"
    "    ts = [v1.random_uniform([3]), v1.random_uniform([3])]\n"
    "    with v1.Session() as sess:\n"
    "        out = sess.run(ts)")

# -- tf.function -------------------------------------------------------------------------------
CASES["function_ops"] = (
    "tf.random.set_seed(1234)\n"
    "@tf.function\n"
    "def f():\n"
    "    return tf.random.uniform([3]), tf.random.normal([2]), tf.random.uniform([2], seed=5)\n"
    "out = list(f()) + list(f()) + [tf.random.uniform([3])]")

# -- stateless ops -----------------------------------------------------------------------------
SEEDS = ([1, 2], [0, 0], [-1, 7], [2**31 - 1, -2**31])
for dt in FLOATS:
    for fn in ("uniform", "normal", "truncated_normal"):
        CASES["stateless_%s_%s" % (fn, dt)] = (
            "out = [tf.random.stateless_%s(s, seed=seed, dtype=tf.%s)\n"
            "       for s in %r for seed in %r]"
            % ("truncated_normal" if fn == "truncated_normal" else fn, dt, list(SHAPES[1:]),
               list(SEEDS)))
CASES["stateless_seed_dtypes"] = (
    "out = [tf.random.stateless_uniform([4], tf.constant([3, 4], tf.int64)),\n"
    "       tf.random.stateless_uniform([4], tf.constant([2**40, -2**50], tf.int64)),\n"
    "       tf.random.stateless_normal([4], [3, 4], alg='philox'),\n"
    "       tf.random.stateless_uniform([4], [3, 4], 2.0, 4.0),\n"
    "       tf.random.stateless_normal([4], [3, 4], 1.0, 0.5)]")
CASES["stateless_int"] = (
    "out = [tf.random.stateless_uniform([9], [1, 2], 0, 10, tf.int32),\n"
    "       tf.random.stateless_uniform([9], [1, 2], -5, 2**40, tf.int64),\n"
    "       tf.random.stateless_uniform([7], [3, 1], None, None, tf.int32),\n"
    "       tf.random.stateless_uniform([7], [3, 1], None, None, tf.int64),\n"
    "       tf.random.stateless_uniform([7], [3, 1], None, None, tf.uint32),\n"
    "       tf.random.stateless_uniform([7], [3, 1], None, None, tf.uint64)]")
CASES["stateless_categorical"] = (
    "out = [tf.random.stateless_categorical([[0.0, 1.0, 2.0], [3.0, 0.0, -1.0]], 10, [1, 2]),\n"
    "       tf.random.stateless_categorical(tf.zeros([4, 100]), 33, [5, 6], dtype=tf.int32),\n"
    "       tf.random.stateless_categorical([[1.0, -np.inf, 0.5]], 9, [7, 7])]")
CASES["stateless_binomial"] = (
    "out = [tf.random.stateless_binomial([10], [1, 2], 20.0, 0.3),\n"
    "       tf.random.stateless_binomial([2, 3], [3, 2], [[5.0], [100.0]], [0.5, 0.1, 0.9])]")
CASES["stateless_binomial_regimes"] = (
    "c = tf.constant([1.0, 7.0, 20.0, 40.0, 1000.0, 0.0, 50.0, 3.0])\n"
    "p = tf.constant([0.3, 0.5, 0.45, 0.95, 0.02, 0.5, 1.0, 0.0])\n"
    "out = [tf.random.stateless_binomial([300, 8], [7, 9], c, p),\n"
    "       tf.random.stateless_binomial([50, 8], [1, 1], c, p, output_dtype=tf.float32),\n"
    "       tf.random.stateless_binomial([40, 2], [4, 4],\n"
    "                                    tf.constant([30.0, 2000.0], tf.float64),\n"
    "                                    tf.constant([0.7, 0.999], tf.float64), tf.int64)]")
CASES["stateless_poisson"] = (
    "out = [tf.random.stateless_poisson([10], [1, 2], 3.0),\n"
    "       tf.random.stateless_poisson([3, 2], [3, 2], [0.5, 40.0], dtype=tf.float32)]")
CASES["stateless_poisson_regimes"] = (
    "lam = [0.1, 1.0, 9.99, 10.0, 12.5, 100.0, 5000.0]\n"
    "out = [tf.random.stateless_poisson([300, 7], [5, 6], lam),\n"
    "       tf.random.stateless_poisson([100, 7], [5, 7], tf.constant(lam, tf.float64),\n"
    "                                   dtype=tf.float64),\n"
    "       tf.random.stateless_poisson([60, 7], [2, 7], tf.constant(lam, tf.float16),\n"
    "                                   dtype=tf.int64)]")
CASES["stateless_gamma"] = (
    "out = [tf.random.stateless_gamma([10], [1, 2], 2.0),\n"
    "       tf.random.stateless_gamma([3, 2], [3, 2], [0.5, 4.0], dtype=tf.float64)]")
CASES["stateless_gamma_regimes"] = (
    "a = [0.05, 0.5, 1.0, 1.5, 3.0, 40.0]\n"
    "out = [tf.random.stateless_gamma([400, 6], [8, 9], a),\n"
    "       tf.random.stateless_gamma([100, 6], [8, 1], a, dtype=tf.float64),\n"
    "       tf.random.stateless_gamma([50, 6], [3, 9], a, dtype=tf.float16),\n"
    "       tf.random.stateless_gamma([20, 2, 3], [1, 9], [[0.5], [2.0]], [1.0, 2.0, 4.0]),\n"
    "       tf.random.stateless_gamma([30, 2], [6, 9], 1e-4, 3.0)]")
CASES["eager_gamma"] = (
    "tf.random.set_seed(3)\n"
    "a = [0.05, 0.5, 1.0, 1.5, 3.0, 40.0]\n"
    "out = [tf.random.gamma([300], a), tf.random.gamma([300], a),\n"
    "       tf.random.gamma([100], a, dtype=tf.float64),\n"
    "       tf.random.gamma([50], a, dtype=tf.float16),\n"
    "       tf.random.gamma([7, 2], [[0.5], [2.0]], [1.0, 3.0, 9.0], seed=4),\n"
    "       tf.random.gamma([], 2.0, seed=4), tf.random.gamma([4], 1e-4, 2.0, seed=5)]")
CASES["eager_poisson"] = (
    "tf.random.set_seed(4)\n"
    "lam = [0.1, 1.0, 9.99, 10.0, 12.5, 100.0, 5000.0]\n"
    "out = [tf.random.poisson([200], lam), tf.random.poisson([200], lam),\n"
    "       tf.random.poisson([50], tf.constant(lam, tf.float64), tf.int64),\n"
    "       tf.random.poisson([30], tf.constant(lam, tf.float16), tf.int32, seed=2),\n"
    "       tf.random.poisson([3, 2], 4.0, seed=2)]")
CASES["gamma_gradients"] = (
    "tf.random.set_seed(5)\n"
    "a = tf.constant([0.3, 1.0, 2.5, 9.0])\n"
    "b = tf.constant([1.0, 2.0, 0.5, 3.0])\n"
    "a64 = tf.constant([0.05, 0.7, 4.0], tf.float64)\n"
    "with tf.GradientTape(persistent=True) as t:\n"
    "    t.watch([a, b, a64])\n"
    "    s1 = tf.random.stateless_gamma([50, 4], [3, 4], a, b)\n"
    "    s2 = tf.random.gamma([50], a, b, seed=2)\n"
    "    s3 = tf.random.gamma([2, 30], a64, dtype=tf.float64, seed=3)\n"
    "    l1, l2, l3 = tf.reduce_sum(s1 * s1), tf.reduce_sum(s2), tf.reduce_sum(s3)\n"
    "out = [s1, s2, s3] + t.gradient(l1, [a, b]) + t.gradient(l2, [a, b])\n"
    "out += [t.gradient(l3, a64)]")
CASES["sample_distorted_bounding_box"] = (
    "tf.random.set_seed(6)\n"
    "boxes = tf.constant([[[0.1, 0.2, 0.7, 0.9], [0.3, 0.3, 0.5, 0.4]]])\n"
    "out = []\n"
    "for _ in range(3):\n"
    "    out += list(tf.image.sample_distorted_bounding_box([224, 300, 3], boxes, seed=2,\n"
    "                                                       min_object_covered=0.3))\n"
    "g = tf.Graph()\n"
    "with g.as_default():\n"
    "    v1.set_random_seed(1)\n"
    "    b = [[[0.1, 0.2, 0.7, 0.9]]]\n"
    "    crop = v1.image.sample_distorted_bounding_box([99, 80, 3], b, seed=5, seed2=7)\n"
    "    crop2 = v1.image.sample_distorted_bounding_box([99, 80, 3], b, seed2=7)\n"
    "    with v1.Session() as sess:\n"
    "        out += sess.run(list(crop) + list(crop2)) + sess.run(list(crop))\n"
    "out += list(tf.image.sample_distorted_bounding_box(\n"
    "    tf.constant([480, 640, 3], tf.int64), tf.zeros([1, 0, 4]), seed=3,\n"
    "    aspect_ratio_range=[0.75, 1.33], area_range=[0.05, 1.0], max_attempts=100,\n"
    "    use_image_if_no_bounding_boxes=True))\n"
    "out += list(tf.image.sample_distorted_bounding_box([33, 17, 1], boxes, seed=4,\n"
    "                                                   min_object_covered=0.9,\n"
    "                                                   area_range=[0.5, 0.6]))\n"
    "for seed in ([1, 2], [7, 3], [123, 456]):\n"
    "    out += list(tf.image.stateless_sample_distorted_bounding_box(\n"
    "        [224, 300, 3], boxes, seed, min_object_covered=0.1,\n"
    "        aspect_ratio_range=[0.5, 2.0], area_range=[0.08, 1.0]))")
CASES["index_shuffle"] = (
    "ish = tf.random.experimental.index_shuffle\n"
    "out = [ish(tf.range(10), [5, 9], 9), ish(3, [5, 9], 100000),\n"
    "       ish(tf.range(1000, dtype=tf.int64), [1, 2], 999),\n"
    "       ish(tf.constant([0, 7, 2**20], tf.int64), [2**40, -3], 2**21),\n"
    "       ish(tf.constant(5, tf.uint32), tf.constant([7, 8], tf.uint64), 2**33 - 1),\n"
    "       ish(0, [1, 1], 0),\n"
    "       tf.random.Generator.from_seed(4, alg=tf.random.Algorithm.PHILOX).normal([3])]")
CASES["graph_gamma_poisson"] = (
    "g = tf.Graph()\n"
    "with g.as_default():\n"
    "    v1.set_random_seed(9)\n"
    "    x = v1.random_gamma([20], [0.7, 2.0])\n"
    "    y = v1.random_poisson([1.5, 30.0], [20], seed=3)\n"
    "    z = tf.random.gamma([5], 2.0, seed=3)\n"
    "    with v1.Session() as sess:\n"
    "        out = sess.run([x, y, z]) + sess.run([x, y])")
CASES["stateless_shuffle"] = (
    "out = [tf.random.experimental.stateless_shuffle(tf.range(10), [1, 2]),\n"
    "       tf.random.experimental.stateless_shuffle(tf.reshape(tf.range(8), [4, 2]), [3, 4])]")
CASES["stateless_split_fold_in"] = (
    "out = [tf.random.split([1, 2]), tf.random.split(tf.constant([3, 4], tf.int64), 3),\n"
    "       tf.random.fold_in([1, 2], 3), tf.random.fold_in([5, 6], tf.constant(7, tf.int64)),\n"
    "       tf.random.experimental.stateless_split([1, 2], 4),\n"
    "       tf.random.experimental.stateless_fold_in([9, 9], 1)]")

# -- tf.random.Generator -----------------------------------------------------------------------
CASES["generator"] = (
    "g = tf.random.Generator.from_seed(1)\n"
    "out = [g.state, g.normal([5]), g.state, g.uniform([3, 2]), g.uniform([4], dtype=tf.float64),\n"
    "       g.truncated_normal([6]), g.uniform([5], 0, 10, tf.int32),\n"
    "       g.uniform([5], 0, 10, tf.int64), g.uniform_full_int([3], tf.int64),\n"
    "       g.uniform_full_int([3], tf.uint32), g.state]\n"
    "g.skip(7)\n"
    "out += [g.state, g.normal([2])]\n"
    "a, b = g.split(2)\n"
    "out += [g.state, a.state, b.state, a.normal([3]), b.uniform([3])]\n"
    "out += [g.make_seeds(2), g.state]\n"
    "h = tf.random.Generator.from_seed(2**40 + 5, alg='philox')\n"
    "out += [h.state, h.normal([3], dtype=tf.float16)]\n"
    "k = tf.random.Generator.from_key_counter(3, [4, 5], 'philox')\n"
    "out += [k.state, k.uniform([4])]")
CASES["generator_binomial"] = (
    "g = tf.random.Generator.from_seed(1234)\n"
    "out = [g.binomial([5, 3], counts=[10.0, 20.0, 30.0], probs=[0.3, 0.5, 0.9]),\n"
    "       g.state.numpy(),\n"
    "       g.binomial([4, 2, 2], counts=[[200.0], [50.0]], probs=[0.4, 0.95]),\n"
    "       g.state.numpy(), g.binomial([7], 5.0, 0.5, dtype=tf.float32), g.state.numpy(),\n"
    "       g.normal([3]), g.state.numpy(),\n"
    "       g.binomial([500], 1000.0, 0.3, dtype=tf.int64), g.state.numpy(),\n"
    "       g.binomial([2, 3], tf.constant([4.0, 0.0, 9.0], tf.float64),\n"
    "                  tf.constant([0.5, 0.5, 1.0], tf.float64), dtype=tf.int32),\n"
    "       g.state.numpy()]\n"
    "f = tf.function(lambda: g.binomial([6], 40.0, 0.25))\n"
    "out += [f(), f(), g.state.numpy()]\n"
    "h = tf.random.Generator.from_key_counter(7, [2**63 - 3, 5], 'philox')\n"
    "out += [h.binomial([3], 10.0, 0.5), h.state.numpy()]")
CASES["create_rng_state"] = (
    "out = [tf.random.create_rng_state(1, 'philox'), tf.random.create_rng_state(-1, 1),\n"
    "       tf.random.create_rng_state(2**70 + 9, 'philox')]")

# -- libraries on top: tf.data, tf.image, Keras --------------------------------------------------
CASES["data_shuffle"] = (
    "ds = tf.data.Dataset.range(20).shuffle(20, seed=3)\n"
    "out = [np.array(list(ds.as_numpy_iterator())), np.array(list(ds.as_numpy_iterator()))]\n"
    "ds = tf.data.Dataset.range(20).shuffle(5, seed=3, reshuffle_each_iteration=False)\n"
    "out += [np.array(list(ds.as_numpy_iterator())), np.array(list(ds.as_numpy_iterator()))]")
CASES["image_stateless"] = (
    "img = tf.reshape(tf.range(2 * 4 * 5 * 3, dtype=tf.float32), [2, 4, 5, 3]) / 120.0\n"
    "out = [tf.image.stateless_random_flip_left_right(img, [1, 2]),\n"
    "       tf.image.stateless_random_flip_up_down(img, [3, 4]),\n"
    "       tf.image.stateless_random_brightness(img, 0.2, [1, 2]),\n"
    "       tf.image.stateless_random_contrast(img, 0.5, 1.5, [1, 2]),\n"
    "       tf.image.stateless_random_saturation(img, 0.5, 1.5, [1, 2]),\n"
    "       tf.image.stateless_random_hue(img, 0.2, [1, 2]),\n"
    "       tf.image.stateless_random_crop(img, [2, 3, 4, 3], [1, 2])]")
CASES["keras_initializers"] = (
    "import keras\n"
    "keras.utils.set_random_seed(1)\n"
    "out = [keras.initializers.GlorotUniform()((4, 5)), keras.initializers.HeNormal()((3, 3)),\n"
    "       keras.initializers.RandomNormal(seed=3)((6,)),\n"
    "       keras.initializers.TruncatedNormal(seed=3)((6,)),\n"
    "       keras.initializers.RandomUniform(-1, 1, seed=4)((2, 2))]")


def _run_case(tf, v1, src):
    tf.random.set_seed(None)
    env = {"tf": tf, "v1": v1, "np": np}
    exec(src, env)  # noqa: S102 - the recorded programs above
    return [np.asarray(v.numpy() if hasattr(v, "numpy") else v) for v in env["out"]]


def main():
    import tensorflow as tf
    here = os.path.join("tests", "data", "random_streams")
    os.makedirs(here, exist_ok=True)
    cases, values = {}, {}
    for name, src in CASES.items():
        try:
            outs = _run_case(tf, tf.compat.v1, src)
        except Exception as e:  # noqa: BLE001 - recorded: the case is then left out
            print("skipped %s: %s: %s" % (name, type(e).__name__, str(e).split("\n")[0]))
            continue
        cases[name] = {"program": src, "dtypes": [str(o.dtype) for o in outs],
                       "shapes": [list(o.shape) for o in outs]}
        for i, o in enumerate(outs):
            values["%s/%d" % (name, i)] = o.astype(np.float32) if o.dtype.name == "bfloat16" \
                else o
    with open(os.path.join(here, "cases.json"), "w") as f:
        json.dump({"tensorflow": tf.__version__, "cases": cases}, f, indent=1, sort_keys=True)
    np.savez_compressed(os.path.join(here, "values.npz"), **values)
    print("recorded %d cases" % len(cases))


if __name__ == "__main__":
    main()
