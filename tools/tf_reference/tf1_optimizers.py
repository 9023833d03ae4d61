"""TensorFlow 1's FTRL, proximal and dual-averaging optimizers and learning-rate decays.

Run with real TensorFlow 2.21: ``/work/venv-tf/bin/python tools/tf_reference/tf1_optimizers.py
> tests/data/tf1_optimizers/tf_2_21.txt``; tests/test_tf1_optimizers.py runs it with
``python -m flowgrad`` and compares. Each optimizer takes four steps on a dense and a sparse
(embedding lookup) loss (float64; float32 for the proximal optimizers, whose hyper-parameters
TensorFlow does not cast); the slots' names and values are printed too.
"""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_v2_behavior()
np.set_printoptions(precision=10, suppress=True)

OPTIMIZERS = {
    "ftrl": lambda gs: tf.train.FtrlOptimizer(0.3, l1_regularization_strength=0.01,
                                              l2_regularization_strength=0.02),
    "ftrl_power": lambda gs: tf.train.FtrlOptimizer(0.2, learning_rate_power=-0.7,
                                                    initial_accumulator_value=0.5),
    "ftrl_shrinkage": lambda gs: tf.train.FtrlOptimizer(
        0.3, l1_regularization_strength=0.001, l2_regularization_strength=0.01,
        l2_shrinkage_regularization_strength=0.1, beta=0.5),
    "proximal_gd": lambda gs: tf.train.ProximalGradientDescentOptimizer(
        0.1, l1_regularization_strength=0.05, l2_regularization_strength=0.1),
    "proximal_gd_l2": lambda gs: tf.train.ProximalGradientDescentOptimizer(
        0.1, l2_regularization_strength=0.1),
    "proximal_adagrad": lambda gs: tf.train.ProximalAdagradOptimizer(
        0.2, l1_regularization_strength=0.05, l2_regularization_strength=0.1),
    "proximal_adagrad_plain": lambda gs: tf.train.ProximalAdagradOptimizer(0.2),
    "adagrad_da": lambda gs: tf.train.AdagradDAOptimizer(
        0.5, gs, l1_regularization_strength=0.01, l2_regularization_strength=0.02),
    "adagrad_da_plain": lambda gs: tf.train.AdagradDAOptimizer(0.5, gs),
}

for name, make in OPTIMIZERS.items():
    for sparse in (False, True):
        with tf.Graph().as_default():
            gs = tf.train.get_or_create_global_step()
            dtype = np.float32 if name.startswith("proximal") else np.float64
            w = tf.Variable(np.array([[1.0, -2.0], [0.5, 0.03], [-0.2, 3.0]], dtype), name="w")
            x = tf.constant(np.array([[0.5, -1.0], [2.0, 0.3], [0.0, 1.5]], dtype))
            if sparse:
                rows = tf.nn.embedding_lookup(w, [0, 2, 0])
                loss = tf.reduce_sum(tf.square(rows - 1.0) * x[:, :1] + tf.sin(rows))
            else:
                loss = tf.reduce_sum(tf.square(w - x) + 0.3 * w * x)
            opt = make(gs)
            train = opt.minimize(loss, global_step=gs)
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                for _ in range(4):
                    sess.run(train)
                print(name, "sparse" if sparse else "dense", sess.run(gs))
                print(sess.run(w))
                for slot in sorted(opt.get_slot_names()):
                    v = opt.get_slot(w, slot)
                    print(" ", slot, v.op.name)
                    print(sess.run(v))

with tf.Graph().as_default():
    gs = tf.placeholder(tf.int64, [])
    schedules = {
        "cosine_decay": tf.train.cosine_decay(0.1, gs, 50, alpha=0.1),
        "cosine_decay_restarts": tf.train.cosine_decay_restarts(0.1, gs, 20, t_mul=2.0,
                                                                m_mul=0.5, alpha=0.05),
        "cosine_decay_restarts_1": tf.train.cosine_decay_restarts(0.1, gs, 15, t_mul=1.0),
        "linear_cosine_decay": tf.train.linear_cosine_decay(0.1, gs, 50, num_periods=2.0,
                                                            alpha=0.1, beta=0.01),
        "natural_exp_decay": tf.train.natural_exp_decay(0.1, gs, 10, 0.5),
        "natural_exp_decay_staircase": tf.train.natural_exp_decay(0.1, gs, 10, 0.5,
                                                                  staircase=True),
    }
    with tf.Session() as sess:
        for name, t in schedules.items():
            print(name, t.dtype.name)
            print(np.array([sess.run(t, {gs: s}) for s in (0, 1, 7, 19, 20, 33, 49, 50, 61,
                                                           100)]))
