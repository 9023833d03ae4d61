"""Writes TF1 training graphs with real TensorFlow 2.21 as ``.meta`` files with their
checkpoints (tests/data/tf_training_meta/), for flowgrad's TF1 resume pattern:
``import_meta_graph`` + ``restore`` + ``get_collection('train_op')`` + ``get_tensor_by_name``.

Run with the TensorFlow venv: /work/venv-tf/bin/python tools/tf_reference/make_training_meta.py

Each model ``<name>`` gives ``<name>/model.meta``, ``<name>/model.index`` /
``.data-00000-of-00001`` (the variables after initialization, saved by
``tf.compat.v1.train.Saver``) and ``<name>.npz``: the batch fed (``x``, ``y``) and the loss
TensorFlow computed at each of ``STEPS`` runs of ``[loss, train_op]`` after the restore
(``loss_name``: the loss tensor's name; ``train_op``: the last of that collection).

- ``dense_adam``: two dense layers (written as ``tf.compat.v1.layers.dense`` builds them:
  Keras 3's TensorFlow has no ``tf.compat.v1.layers``), sparse softmax cross-entropy, Adam,
  a global step, scalar and histogram summaries (reference variables, as
  ``disable_v2_behavior`` makes them);
- ``dense_adam_resource``: the same with resource variables (``ResourceApplyAdam``,
  ``VarHandleOp``), as TF 2's graph mode without ``disable_v2_behavior`` makes them;
- ``cnn_momentum``: conv2d, max pooling, batch normalization (unfused, its moving averages
  in UPDATE_OPS), dropout (seeded), dense, Momentum;
- ``mlp_rmsprop``: softmax cross-entropy with one-hot labels, tanh/sigmoid/elu layers,
  L2 regularization, RMSProp with momentum;
- ``mlp_sgd_adagrad``: gradient descent on one part of the variables, Adagrad on the other,
  grouped as one train_op;
- ``cnn_fused_bn``: conv2d and fused batch normalization as Keras 2 and
  ``tf.compat.v1.layers.batch_normalization(fused=True)`` write it: ``FusedBatchNormV3`` in
  training mode (moving averages updated from its outputs through ``exponential_avg_factor``,
  in UPDATE_OPS), ``FusedBatchNormGradV3`` in the gradient, and an inference-mode
  ``FusedBatchNormV3`` on the moving averages (``eval_out``, recorded after the steps).
"""
import os
import shutil

import numpy as np
import tensorflow as tf

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "data",
                   "tf_training_meta")
STEPS = 4
v1 = tf.compat.v1


def dense(x, units, activation=None, name=None):
    """``tf.compat.v1.layers.dense`` as TF1 builds it (Keras 3's TensorFlow has no
    ``tf.compat.v1.layers``): glorot-uniform kernel, zero bias, MatMul + BiasAdd."""
    with v1.variable_scope(name, default_name="dense"):
        w = v1.get_variable("kernel", [x.shape[-1], units],
                            initializer=v1.glorot_uniform_initializer())
        b = v1.get_variable("bias", [units], initializer=v1.zeros_initializer())
        out = tf.nn.bias_add(tf.matmul(x, w), b)
        return out if activation is None else activation(out)


def conv2d(x, filters, size, activation):
    with v1.variable_scope(None, default_name="conv2d"):
        w = v1.get_variable("kernel", [size, size, x.shape[-1], filters],
                            initializer=v1.glorot_uniform_initializer())
        b = v1.get_variable("bias", [filters], initializer=v1.zeros_initializer())
        return activation(tf.nn.bias_add(tf.nn.conv2d(x, w, [1, 1, 1, 1], "SAME"), b))


def batch_norm(x, momentum=0.9):
    """Batch normalization in training mode with its moving averages in UPDATE_OPS (the
    unfused form of ``tf.compat.v1.layers.batch_normalization``)."""
    with v1.variable_scope(None, default_name="batch_normalization"):
        n = x.shape[-1]
        gamma = v1.get_variable("gamma", [n], initializer=v1.ones_initializer())
        beta = v1.get_variable("beta", [n], initializer=v1.zeros_initializer())
        mm = v1.get_variable("moving_mean", [n], initializer=v1.zeros_initializer(),
                             trainable=False)
        mv = v1.get_variable("moving_variance", [n], initializer=v1.ones_initializer(),
                             trainable=False)
        mean, var = tf.nn.moments(x, [0, 1, 2])
        for moving, value in ((mm, mean), (mv, var)):
            v1.add_to_collection(v1.GraphKeys.UPDATE_OPS, v1.assign_sub(
                moving, (moving - value) * (1 - momentum)))
        return tf.nn.batch_normalization(x, mean, var, beta, gamma, 1e-3)


def dense_adam(x, y):
    h = dense(tf.reshape(x, [-1, 16]), 8, activation=tf.nn.relu)
    logits = dense(h, 3)
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y,
                                                                         logits=logits))
    v1.summary.scalar("loss", loss)
    v1.summary.histogram("logits", logits)
    v1.summary.merge_all()
    return loss, v1.train.AdamOptimizer(0.01)


def cnn_momentum(x, y):
    h = conv2d(x, 4, 3, tf.nn.relu)
    h = tf.nn.max_pool2d(h, 2, 2, "VALID")
    h = batch_norm(h)
    h = tf.nn.dropout(h, rate=0.25, seed=3)
    logits = dense(tf.reshape(h, [-1, 16]), 3)
    loss = v1.losses.sparse_softmax_cross_entropy(y, logits)
    return loss, v1.train.MomentumOptimizer(0.05, 0.9)


def mlp_rmsprop(x, y):
    flat = tf.reshape(x, [-1, 16])
    h = dense(flat, 8, activation=tf.nn.tanh)
    h = dense(h, 8, activation=tf.nn.sigmoid) + dense(h, 8, activation=tf.nn.elu)
    logits = dense(h, 3)
    xent = tf.nn.softmax_cross_entropy_with_logits(labels=tf.one_hot(y, 3), logits=logits)
    l2 = tf.add_n([tf.nn.l2_loss(v) for v in v1.trainable_variables() if "kernel" in v.name])
    return tf.reduce_mean(xent) + 1e-3 * l2, v1.train.RMSPropOptimizer(0.01, momentum=0.5)


def mlp_sgd_adagrad(x, y):
    h = dense(tf.reshape(x, [-1, 16]), 8, activation=tf.nn.relu, name="first")
    logits = dense(h, 3, name="second")
    loss = v1.losses.sparse_softmax_cross_entropy(y, logits)
    return loss, None


def fused_batch_norm(x, training, momentum=0.9):
    """``tf.compat.v1.layers.batch_normalization(fused=True)``'s graph: FusedBatchNormV3."""
    with v1.variable_scope("fused_bn", reuse=v1.AUTO_REUSE):
        n = x.shape[-1]
        gamma = v1.get_variable("gamma", [n], initializer=v1.ones_initializer())
        beta = v1.get_variable("beta", [n], initializer=v1.zeros_initializer())
        mm = v1.get_variable("moving_mean", [n], initializer=v1.zeros_initializer(),
                             trainable=False)
        mv = v1.get_variable("moving_variance", [n], initializer=v1.ones_initializer(),
                             trainable=False)
        if not training:
            y, _, _ = v1.nn.fused_batch_norm(x, gamma, beta, mm, mv, epsilon=1e-3,
                                             is_training=False)
            return y
        y, mean, var = v1.nn.fused_batch_norm(x, gamma, beta, mm, mv, epsilon=1e-3,
                                              is_training=True,
                                              exponential_avg_factor=1 - momentum)
        v1.add_to_collection(v1.GraphKeys.UPDATE_OPS, v1.assign(mm, mean))
        v1.add_to_collection(v1.GraphKeys.UPDATE_OPS, v1.assign(mv, var))
        return y


def cnn_fused_bn(x, y):
    with v1.variable_scope("net", reuse=v1.AUTO_REUSE):
        def net(training):
            h = conv2d_shared(x, 3, training)
            h = tf.nn.relu(fused_batch_norm(h, training))
            return dense_shared(tf.reshape(h, [-1, 48]), 3)
        logits = net(True)
        eval_logits = net(False)
    tf.identity(eval_logits, name="eval_out")
    loss = v1.losses.sparse_softmax_cross_entropy(y, logits)
    return loss, v1.train.MomentumOptimizer(0.05, 0.9)


def conv2d_shared(x, filters, training):
    w = v1.get_variable("conv_kernel", [3, 3, x.shape[-1], filters],
                        initializer=v1.glorot_uniform_initializer())
    return tf.nn.conv2d(x, w, [1, 1, 1, 1], "SAME")


def dense_shared(x, units):
    w = v1.get_variable("dense_kernel", [x.shape[-1], units],
                        initializer=v1.glorot_uniform_initializer())
    return tf.matmul(x, w)


MODELS = {"dense_adam": (dense_adam, True), "dense_adam_resource": (dense_adam, False),
          "cnn_momentum": (cnn_momentum, True), "mlp_rmsprop": (mlp_rmsprop, True),
          "mlp_sgd_adagrad": (mlp_sgd_adagrad, True), "cnn_fused_bn": (cnn_fused_bn, True)}


def train_op(loss, opt, gs):
    update = v1.get_collection(v1.GraphKeys.UPDATE_OPS)
    with tf.control_dependencies(update):
        if opt is not None:
            return opt.minimize(loss, global_step=gs)
        first = v1.trainable_variables("first")
        second = v1.trainable_variables("second")
        return tf.group(
            v1.train.GradientDescentOptimizer(0.1).minimize(loss, var_list=first),
            v1.train.AdagradOptimizer(0.1).minimize(loss, var_list=second, global_step=gs))


def record(name, build, ref_variables):
    rng = np.random.default_rng(len(name))
    xv = rng.standard_normal((8, 4, 4, 1)).astype(np.float32)
    yv = rng.integers(0, 3, 8).astype(np.int32)
    out = os.path.join(OUT, name)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    g = tf.Graph()
    with g.as_default():
        v1.set_random_seed(7)
        with v1.variable_scope("", use_resource=not ref_variables):
            x = v1.placeholder(tf.float32, [None, 4, 4, 1], name="x")
            y = v1.placeholder(tf.int32, [None], name="y")
            gs = v1.train.get_or_create_global_step()
            loss, opt = build(x, y)
            loss = tf.identity(loss, name="loss")
            op = train_op(loss, opt, gs)
        v1.add_to_collection("train_op", op)
        saver = v1.train.Saver()
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            saver.save(sess, os.path.join(out, "model"))
            losses = [sess.run([loss, op], {x: xv, y: yv})[0] for _ in range(STEPS)]
            step = sess.run(gs)
            names = {o.name for o in g.get_operations()}
            extra = {"eval_out": sess.run("eval_out:0", {x: xv})} if "eval_out" in names else {}
    os.remove(os.path.join(out, "checkpoint"))
    np.savez(os.path.join(OUT, name + ".npz"), x=xv, y=yv, losses=np.array(losses),
             global_step=step, loss_name=loss.name, **extra)
    types = sorted({n.op for n in g.as_graph_def().node})
    print("%s: losses %s, op types %s" % (name, np.round(losses, 4), types))


def main():
    v1.disable_eager_execution()
    os.makedirs(OUT, exist_ok=True)
    for name, (build, ref_variables) in MODELS.items():
        if ref_variables:
            v1.disable_resource_variables()
        else:
            v1.enable_resource_variables()
        record(name, build, ref_variables)


if __name__ == "__main__":
    main()
