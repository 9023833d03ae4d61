"""Writes a TF1 meta graph with RandomGamma and RandomPoissonV2 nodes (op seeds) and the
values TensorFlow 2.21's first two runs give, for tests/test_saved_model_print.py (graph
import and export of the samplers).

Run from the repository root:
    /work/venv-tf/bin/python tools/tf_reference/sampler_graph.py
"""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_v2_behavior()
with tf.Graph().as_default():
    a = tf.random_gamma([3], [0.5, 2.0], seed=1, name="gam")
    p = tf.random.poisson([1.5, 30.0], [3], seed=2, name="poi")
    with tf.Session() as s:
        first, second = s.run([a, p]), s.run([a, p])
    tf.train.export_meta_graph("tests/data/tf_graphs/samplers.meta")
np.savez("tests/data/tf_graphs/samplers_values.npz", gamma=np.stack([first[0], second[0]]),
         poisson=np.stack([first[1], second[1]]))
