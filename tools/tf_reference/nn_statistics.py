"""A TensorFlow program using tf.nn's statistics functions in both faces.

Real TensorFlow 2.21 printed tests/data/nn_statistics/tf_2_21.txt
(``/path/to/tf-venv/bin/python tools/tf_reference/nn_statistics.py``);
tests/test_nn_statistics.py runs it unchanged on flowgrad and compares."""
import numpy as np
import tensorflow as tf
import tensorflow.compat.v1 as tf1

rng = np.random.RandomState(1)
x = rng.randn(4, 3, 2, 5).astype(np.float32)
w = rng.rand(4, 3, 2, 5).astype(np.float32)


def p(label, v):
    v = [np.asarray(t) for t in (v if isinstance(v, (tuple, list)) else [v]) if t is not None]
    print(label, [np.round(t.astype(np.float64), 5).ravel()[:5].tolist() + [list(t.shape)]
                  for t in v])


p("suff", tf.nn.sufficient_statistics(x, [0, 1], shift=0.5, keepdims=True)[:3])
c, m, vv, sh = tf.nn.sufficient_statistics(x, [0, 2])
p("norm", tf.nn.normalize_moments(c, m, vv, sh))
p("wmom", tf.nn.weighted_moments(x, [0, 1], w))
p("wmom keep", tf.nn.weighted_moments(x, [3], w[..., :1], keepdims=True))
sc = rng.rand(5).astype(np.float32) + 0.5
of = rng.randn(5).astype(np.float32)
p("fbn train", tf1.nn.fused_batch_norm(x, sc, of))
p("fbn avg", tf1.nn.fused_batch_norm(x, sc, of, mean=np.zeros(5, np.float32),
                                     variance=np.ones(5, np.float32),
                                     exponential_avg_factor=0.3))
p("fbn infer", tf1.nn.fused_batch_norm(x, sc, of, mean=of, variance=sc, is_training=False,
                                       epsilon=0.01))
xc = np.transpose(x, [0, 3, 1, 2])
p("fbn nchw", tf1.nn.fused_batch_norm(xc, sc, of, data_format="NCHW"))
p("bngn", tf.nn.batch_norm_with_global_normalization(x, of, sc, of, sc, 0.001, True))
p("lpl", tf.nn.log_poisson_loss(np.array([0., 0.5, 1., 2., 5.], np.float32),
                                np.array([0.1, -1., 2., 0.3, 1.5], np.float32),
                                compute_full_loss=True))
p("xwb", tf1.nn.xw_plus_b(x[0, 0], x[0, 1].T, of[:2]))
p("relu_layer", tf1.nn.relu_layer(x[0, 0], x[0, 1].T, of[:2]))
