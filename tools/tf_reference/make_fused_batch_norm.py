"""Writes a GraphDef of TensorFlow 2.21's fused batch normalization ops and their values
(tests/data/tf_fused_batch_norm/; run with the TensorFlow venv:
/work/venv-tf/bin/python tools/tf_reference/make_fused_batch_norm.py).

``graph.pb`` holds, on placeholders ``x`` (NHWC, float32), ``x_nchw``, ``x_half`` (float16),
``scale``, ``offset``, ``mean``, ``variance`` and ``dy``: ``FusedBatchNormV3`` in training
mode (with and without ``exponential_avg_factor``), in inference mode, in NCHW, on float16,
``FusedBatchNorm`` and ``FusedBatchNormV2``, and the ``FusedBatchNormGradV3`` nodes of the
training and inference forms (from ``tf.gradients``). ``values.npz`` holds the fed arrays
and every output TensorFlow computed, keyed by tensor name (``:`` as ``__``)."""
import os

import numpy as np
import tensorflow as tf

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "data",
                   "tf_fused_batch_norm")
v1 = tf.compat.v1


def main():
    os.makedirs(OUT, exist_ok=True)
    rng = np.random.default_rng(5)
    feeds = {"x": rng.normal(1.0, 2.0, (2, 3, 4, 3)).astype(np.float32),
             "scale": rng.uniform(0.5, 1.5, 3).astype(np.float32),
             "offset": rng.normal(size=3).astype(np.float32),
             "mean": rng.normal(size=3).astype(np.float32),
             "variance": rng.uniform(0.5, 2.0, 3).astype(np.float32),
             "dy": rng.normal(size=(2, 3, 4, 3)).astype(np.float32)}
    feeds["x_nchw"] = np.transpose(feeds["x"], (0, 3, 1, 2)).copy()
    feeds["x_half"] = feeds["x"].astype(np.float16)
    g = tf.Graph()
    fetches = []
    with g.as_default():
        ph = {k: v1.placeholder(tf.as_dtype(v.dtype), v.shape, name=k) for k, v in feeds.items()}
        common = dict(scale=ph["scale"], offset=ph["offset"], epsilon=1e-3)
        stats = dict(mean=ph["mean"], variance=ph["variance"])
        outs = {
            "train": v1.nn.fused_batch_norm(ph["x"], is_training=True, name="train", **common),
            "train_avg": v1.nn.fused_batch_norm(ph["x"], is_training=True, name="train_avg",
                                                exponential_avg_factor=0.3, **common, **stats),
            "infer": v1.nn.fused_batch_norm(ph["x"], is_training=False, name="infer",
                                            **common, **stats),
            "nchw": v1.nn.fused_batch_norm(ph["x_nchw"], is_training=True, name="nchw",
                                           data_format="NCHW", **common),
            "half": v1.nn.fused_batch_norm(ph["x_half"], is_training=True, name="half",
                                           **common),
        }
        for key in ("train", "infer"):
            y = outs[key][0]
            grads = tf.gradients(y, [ph["x"], ph["scale"], ph["offset"]], grad_ys=ph["dy"],
                                 name="grad_" + key)
            fetches += list(grads)
        for triple in outs.values():
            fetches += list(triple)
        # TF1's own ops by name: FusedBatchNorm and FusedBatchNormV2
        from tensorflow.python.ops import gen_nn_ops
        for op, name in ((gen_nn_ops._fused_batch_norm, "v1"), (gen_nn_ops.fused_batch_norm_v2,
                                                                 "v2")):
            fetches += list(op(ph["x"], ph["scale"], ph["offset"], ph["mean"], ph["variance"],
                               epsilon=1e-3, is_training=True, name=name))[:3]
        with v1.Session() as sess:
            values = sess.run(fetches, {ph[k]: v for k, v in feeds.items()})
    types = sorted({n.op for n in g.as_graph_def().node if n.op.startswith("FusedBatch")})
    with open(os.path.join(OUT, "graph.pb"), "wb") as f:
        f.write(g.as_graph_def().SerializeToString())
    np.savez(os.path.join(OUT, "values.npz"), **{"feed_" + k: v for k, v in feeds.items()},
             **{t.name.replace(":", "__"): v for t, v in zip(fetches, values)})
    print("op types:", types, "tensors:", [t.name for t in fetches])


if __name__ == "__main__":
    main()
