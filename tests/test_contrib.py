"""TF 1.15's ``tf.contrib`` in the TF1 face (flowgrad/compat/contrib/): each contrib-only name
against the TF1 composition it is (the same numbers and variable names), TF 1.15's defaults,
and the names TensorFlow 2.21 still has pinned against its recordings."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import flowgrad
import flowgrad.compat.v1 as tf

sys.path.insert(0, str(Path(__file__).resolve().parent))
import tf_reference_program  # noqa: E402

contrib = tf.contrib
slim = tf.contrib.slim
ROOT = Path(__file__).resolve().parents[1]


def _run(fetches, feed=None, init=True):
    with tf.Session() as sess:
        if init:
            sess.run(tf.global_variables_initializer())
        return sess.run(fetches, feed)


def _names(variables):
    return [v.name for v in variables]


# -- the namespace ----------------------------------------------------------------------------
def test_contrib_is_in_the_tf1_face_only_and_its_submodules_load_on_first_use():
    assert not hasattr(flowgrad, "contrib")
    for name in ("layers", "rnn", "slim", "framework", "eager"):
        assert name in dir(tf.contrib)
        assert getattr(tf.contrib, name).__name__ == "flowgrad.compat.contrib." + name
    with pytest.raises(AttributeError, match="no attribute 'nonexistent'"):
        tf.contrib.nonexistent  # noqa: B018
    assert slim.conv2d is contrib.layers.conv2d is contrib.layers.convolution2d
    assert slim.arg_scope is contrib.framework.arg_scope
    assert contrib.rnn.BasicLSTMCell is tf.nn.rnn_cell.BasicLSTMCell
    assert contrib.rnn.static_rnn is tf.nn.static_rnn
    assert contrib.rnn.static_bidirectional_rnn is tf.nn.static_bidirectional_rnn
    assert contrib.eager.defun is tf.function and contrib.eager.Variable is tf.Variable


def test_tf1_programs_import_contrib_modules_through_the_dropin(tmp_path):
    program = tmp_path / "prog.py"
    program.write_text(
        "import tensorflow as tf\n"
        "import tensorflow.contrib.slim as slim\n"
        "from tensorflow.contrib import rnn\n"
        "from tensorflow.contrib.layers import fully_connected\n"
        "x = tf.placeholder(tf.float32, [None, 4])\n"
        "y = fully_connected(slim.flatten(x), 2)\n"
        "print(y.name, rnn.LSTMCell is tf.nn.rnn_cell.LSTMCell,"
        " sorted(v.name for v in tf.trainable_variables()))\n")
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, "-m", "flowgrad", "--tf1", str(program)],
                         capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["fully_connected/Relu:0", "True",
                                  "['fully_connected/biases:0',", "'fully_connected/weights:0']"]
    two = subprocess.run([sys.executable, "-m", "flowgrad", "-c",
                          "import tensorflow as tf; print(hasattr(tf, 'contrib'))"],
                         capture_output=True, text=True, env=env, timeout=120)
    assert two.stdout.strip() == "False", two.stderr


# -- initializers and regularizers ------------------------------------------------------------
def test_xavier_initializer_is_glorot_uniform_by_default():
    tf.set_random_seed(3)
    a = tf.get_variable("a", [5, 7], initializer=contrib.layers.xavier_initializer(seed=1))
    b = tf.get_variable("b", [5, 7], initializer=tf.glorot_uniform_initializer(seed=1))
    c = tf.get_variable("c", [3, 3, 4, 8],
                        initializer=contrib.layers.xavier_initializer_conv2d(seed=2))
    d = tf.get_variable("d", [3, 3, 4, 8], initializer=tf.glorot_uniform_initializer(seed=2))
    va, vb, vc, vd = _run([a, b, c, d])
    np.testing.assert_array_equal(va, vb)
    np.testing.assert_array_equal(vc, vd)
    assert np.abs(va).max() <= np.sqrt(6.0 / 12)


def test_variance_scaling_initializer_is_tf115s_truncated_normal_of_1_3_factor_over_n():
    tf.set_random_seed(3)
    init = contrib.layers.variance_scaling_initializer(seed=4)      # factor 2, FAN_IN, normal
    a = tf.get_variable("a", [200, 300], initializer=init)
    b = tf.truncated_normal([200, 300], 0.0, np.sqrt(1.3 * 2.0 / 200), seed=4)
    avg = contrib.layers.variance_scaling_initializer(1.0, "FAN_AVG", uniform=True, seed=5)
    c = tf.get_variable("c", [3, 3, 4, 6], initializer=avg)
    fan = 9 * (4 + 6) / 2.0
    d = tf.random_uniform([3, 3, 4, 6], -np.sqrt(3.0 / fan), np.sqrt(3.0 / fan), seed=5)
    va, vb, vc, vd = _run([a, b, c, d])
    np.testing.assert_array_equal(va, vb)
    np.testing.assert_array_equal(vc, vd)
    with pytest.raises(TypeError, match="Unknown mode FAN_MAX"):
        contrib.layers.variance_scaling_initializer(mode="FAN_MAX")
    with pytest.raises(TypeError, match="non-floating point type"):
        contrib.layers.xavier_initializer(dtype=tf.int32)


def test_regularizers_values_scope_names_and_bad_scales():
    w = tf.constant([[1.0, -2.0], [3.0, -4.0]])
    l1 = contrib.layers.l1_regularizer(0.5)(w)
    l2 = contrib.layers.l2_regularizer(0.1)(w)
    l12 = contrib.layers.l1_l2_regularizer(0.5, 0.1)(w)
    summed = contrib.layers.sum_regularizer([contrib.layers.l1_regularizer(0.5), None,
                                             contrib.layers.l2_regularizer(0.1)])(w)
    assert l2.op.name == "l2_regularizer" and l1.op.name == "l1_regularizer"
    got = _run([l1, l2, l12, summed], init=False)
    np.testing.assert_allclose(got, [5.0, 1.5, 6.5, 6.5], rtol=1e-6)
    assert contrib.layers.l2_regularizer(0.0)(w) is None
    with pytest.raises(ValueError, match="scale cannot be an integer: 1"):
        contrib.layers.l2_regularizer(1)
    with pytest.raises(ValueError, match="less than 0"):
        contrib.layers.l1_regularizer(-0.5)
    tf.add_to_collection("weights", w)
    total = contrib.layers.apply_regularization(contrib.layers.l2_regularizer(0.1))
    assert _run(total, init=False) == pytest.approx(1.5)
    assert len(tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)) == 1


# -- the layers -------------------------------------------------------------------------------
def test_fully_connected_is_a_relu_dense_layer_with_tf115s_variable_names():
    x_val = np.random.RandomState(0).normal(size=(4, 6)).astype(np.float32)
    tf.set_random_seed(1)
    x = tf.constant(x_val)
    y = contrib.layers.fully_connected(x, 3)
    y2 = contrib.layers.fully_connected(x, 3, activation_fn=None, scope="lin")
    y3 = contrib.layers.fully_connected(tf.reshape(x, [2, 2, 6]), 5)   # rank 3: last axis
    assert _names(tf.global_variables()) == [
        "fully_connected/weights:0", "fully_connected/biases:0", "lin/weights:0",
        "lin/biases:0", "fully_connected_1/weights:0", "fully_connected_1/biases:0"]
    assert _names(tf.get_collection(tf.GraphKeys.MODEL_VARIABLES)) == \
        _names(tf.global_variables())
    assert y.op.type == "Relu" and y3.shape.as_list() == [2, 2, 5]
    w, b, wl, bl, out, out2, out3, w3, b3 = _run(
        tf.global_variables()[:4] + [y, y2, y3] + tf.global_variables()[4:])
    np.testing.assert_allclose(out, np.maximum(x_val @ w + b, 0), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(out2, x_val @ wl + bl, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(out3, np.maximum(x_val.reshape(2, 2, 6) @ w3 + b3, 0),
                               rtol=1e-5, atol=1e-6)
    # the same numbers as the tf.layers.dense it is, for the same seeds
    with tf.Graph().as_default():
        tf.set_random_seed(1)
        ref = tf.layers.dense(tf.constant(x_val), 3, activation=tf.nn.relu,
                              kernel_initializer=tf.glorot_uniform_initializer())
        np.testing.assert_array_equal(_run(ref), out)


def test_fully_connected_reuse_regularizers_collections_and_normalizer():
    x = tf.ones([2, 3])
    contrib.layers.fully_connected(x, 4, scope="fc",
                                   weights_regularizer=contrib.layers.l2_regularizer(0.1),
                                   variables_collections=["mine"], outputs_collections="outs")
    contrib.layers.fully_connected(x, 4, scope="fc", reuse=True)
    assert len(tf.global_variables()) == 2
    assert _names(tf.get_collection("mine")) == ["fc/weights:0", "fc/biases:0"]
    assert tf.get_collection("outs")[0].aliases == ["fc"]
    assert len(tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)) == 1
    y = contrib.layers.fully_connected(x, 4, normalizer_fn=contrib.layers.batch_norm,
                                       normalizer_params={"is_training": False}, scope="bn")
    assert "bn/biases:0" not in _names(tf.global_variables())
    assert "bn/BatchNorm/beta:0" in _names(tf.global_variables())
    assert y.shape.as_list() == [2, 4]
    with pytest.raises(ValueError, match="num_outputs type should be one of"):
        contrib.layers.fully_connected(x, 2.5)


def test_conv2d_is_a_same_padded_relu_convolution_with_weights_and_biases():
    x_val = np.random.RandomState(1).normal(size=(2, 6, 6, 3)).astype(np.float32)
    tf.set_random_seed(2)
    x = tf.constant(x_val)
    y = slim.conv2d(x, 4, [3, 3])
    y2 = slim.conv2d(x, 2, 3, stride=2, padding="VALID", rate=1, activation_fn=None,
                     scope="c2")
    assert _names(tf.global_variables()) == ["Conv/weights:0", "Conv/biases:0",
                                             "c2/weights:0", "c2/biases:0"]
    assert tf.global_variables()[0].shape.as_list() == [3, 3, 3, 4]
    assert y.shape.as_list() == [2, 6, 6, 4] and y2.shape.as_list() == [2, 2, 2, 2]
    w, b, out = _run([tf.global_variables()[0], tf.global_variables()[1], y])
    ref = tf.nn.relu(tf.nn.conv2d(x_val, w, [1, 1, 1, 1], "SAME") + b)
    np.testing.assert_allclose(out, _run(ref, init=False), rtol=1e-5, atol=1e-6)
    with tf.Graph().as_default():
        tf.set_random_seed(2)
        ref = tf.layers.conv2d(tf.constant(x_val), 4, 3, padding="same", activation=tf.nn.relu,
                               kernel_initializer=tf.glorot_uniform_initializer())
        np.testing.assert_array_equal(_run(ref), out)
    t = slim.conv2d_transpose(y, 3, 3, stride=2)
    assert t.shape.as_list() == [2, 12, 12, 3]
    assert tf.global_variables()[-2].name == "Conv2d_transpose/weights:0"
    assert tf.global_variables()[-2].shape.as_list() == [3, 3, 3, 4]
    c1 = contrib.layers.conv1d(tf.ones([2, 5, 3]), 2, 3)
    assert c1.shape.as_list() == [2, 5, 2]
    with pytest.raises(ValueError, match="Convolution expects input with rank 4, got 3"):
        slim.conv2d(tf.ones([2, 5, 3]), 2, 3)
    with pytest.raises(ValueError, match="Invalid data_format"):
        slim.conv2d(x, 2, 3, data_format="HWCN")


def test_pooling_flatten_dropout_one_hot():
    x_val = np.arange(2 * 4 * 4 * 3, dtype=np.float32).reshape(2, 4, 4, 3)
    m = slim.max_pool2d(x_val, [2, 2])
    a = slim.avg_pool2d(x_val, 2, stride=1, padding="SAME")
    f = slim.flatten(m)
    assert m.op.name.startswith("MaxPool2D/") and f.shape.as_list() == [2, 12]
    ph = tf.placeholder(tf.float32, [None, 2, 3])
    assert slim.flatten(ph).shape.as_list() == [None, 6]
    d_train = slim.dropout(tf.ones([100, 100]), keep_prob=0.5)
    d_test = slim.dropout(tf.ones([3]), is_training=False)
    oh = contrib.layers.one_hot_encoding([0, 2], 3)
    got = _run([m, a, f, d_train, d_test, oh], init=False)
    ref = _run([tf.nn.max_pool(x_val, [1, 2, 2, 1], [1, 2, 2, 1], "VALID"),
                tf.nn.avg_pool(x_val, [1, 2, 2, 1], [1, 1, 1, 1], "SAME")], init=False)
    np.testing.assert_array_equal(got[0], ref[0])
    np.testing.assert_allclose(got[1], ref[1])
    np.testing.assert_array_equal(got[2], ref[0].reshape(2, 12))
    assert set(np.unique(got[3])) <= {0.0, 2.0} and 0.4 < got[3].mean() / 2 < 0.6
    np.testing.assert_array_equal(got[4], [1.0, 1.0, 1.0])
    np.testing.assert_array_equal(got[5], [[1, 0, 0], [0, 0, 1]])
    with pytest.raises(ValueError, match="at least 2 dimensions|a least 2 dimensions"):
        slim.flatten(tf.ones([3]))


def test_batch_norm_is_tf115s_defaults_over_the_tf_layers_batch_normalization():
    x_val = np.random.RandomState(2).normal(size=(8, 3)).astype(np.float32) * 3 + 1
    y = slim.batch_norm(x_val)                      # center, no scale, decay 0.999
    assert _names(tf.global_variables()) == ["BatchNorm/beta:0", "BatchNorm/moving_mean:0",
                                             "BatchNorm/moving_variance:0"]
    assert _names(tf.trainable_variables()) == ["BatchNorm/beta:0"]
    updates = tf.get_collection(tf.GraphKeys.UPDATE_OPS)
    assert len(updates) == 2
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        out, _ = sess.run([y, updates])
        mm, mv = sess.run(tf.global_variables()[1:])
    mean, var = x_val.mean(0), x_val.var(0)
    np.testing.assert_allclose(out, (x_val - mean) / np.sqrt(var + 1e-3), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(mm, 0.001 * mean, rtol=1e-4)
    np.testing.assert_allclose(mv, 0.999 + 0.001 * var, rtol=1e-5)
    with tf.Graph().as_default():
        ref = tf.layers.batch_normalization(x_val, momentum=0.999, scale=False, training=True)
        np.testing.assert_allclose(_run(ref), out, rtol=1e-6)


def test_batch_norm_in_place_updates_scale_nchw_and_inference():
    x_val = np.random.RandomState(3).normal(size=(4, 2, 3, 3)).astype(np.float32)
    y = slim.batch_norm(x_val, decay=0.9, scale=True, updates_collections=None,
                        data_format="NCHW", scope="bn")
    assert not tf.get_collection(tf.GraphKeys.UPDATE_OPS)
    assert "bn/gamma:0" in _names(tf.global_variables())
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(y)
        mm = sess.run(tf.get_default_graph().get_tensor_by_name("bn/moving_mean:0"))
    np.testing.assert_allclose(mm, 0.1 * x_val.mean((0, 2, 3)), rtol=1e-4, atol=1e-7)
    z = slim.batch_norm(x_val, is_training=False, scope="inf")
    np.testing.assert_allclose(_run(z), x_val / np.sqrt(1.001), rtol=1e-5)
    with pytest.raises(ValueError, match="data_format has to be either NCHW or NHWC"):
        slim.batch_norm(x_val, data_format="NWC")


def test_layer_norm_matches_its_formula_and_variables():
    x_val = np.random.RandomState(4).normal(size=(3, 4, 5)).astype(np.float32)
    y = contrib.layers.layer_norm(x_val)
    assert _names(tf.global_variables()) == ["LayerNorm/beta:0", "LayerNorm/gamma:0"]
    assert tf.global_variables()[0].shape.as_list() == [5]
    mean = x_val.mean((1, 2), keepdims=True)
    var = x_val.var((1, 2), keepdims=True)
    np.testing.assert_allclose(_run(y), (x_val - mean) / np.sqrt(var + 1e-12), rtol=1e-4,
                               atol=1e-5)
    with pytest.raises(ValueError, match="must be < rank"):
        contrib.layers.layer_norm(x_val, begin_norm_axis=3)


def test_arg_scope_defaults_nesting_reuse_and_errors():
    x = tf.ones([1, 4, 4, 2])
    with slim.arg_scope([slim.conv2d, slim.fully_connected], activation_fn=None,
                        weights_initializer=tf.ones_initializer()) as sc:
        with slim.arg_scope([slim.conv2d], padding="VALID"):
            a = slim.conv2d(x, 1, 3, scope="a")
            b = slim.conv2d(x, 1, 3, padding="SAME", scope="b")   # the call wins
        c = slim.fully_connected(tf.ones([1, 2]), 1, scope="c")
    d = slim.conv2d(x, 1, 3, scope="d", weights_initializer=tf.ones_initializer())
    with slim.arg_scope(sc):
        e = slim.conv2d(x, 1, 3, scope="e")
    assert a.shape.as_list() == [1, 2, 2, 1] and b.shape.as_list() == [1, 4, 4, 1]
    got = _run([a, c, d, e])
    assert got[0][0, 0, 0, 0] == 18.0 and got[1][0, 0] == 2.0
    assert d.op.type == "Relu" and got[3][0, 1, 1, 0] == 18.0
    assert contrib.framework.current_arg_scope() == {}
    assert "activation_fn" in contrib.framework.arg_scoped_arguments(slim.fully_connected)
    with pytest.raises(ValueError, match="is not decorated with @add_arg_scope"):
        with slim.arg_scope([tf.nn.relu], x=1):
            pass
    with pytest.raises(ValueError, match="kwargs must be empty"):
        with slim.arg_scope(sc, padding="SAME"):
            pass

    @slim.add_arg_scope
    def mine(v, scale=1.0):
        return v * scale

    with slim.arg_scope([mine], scale=3.0):
        assert mine(2.0) == 6.0
    assert mine(2.0) == 2.0


def test_repeat_and_stack_scopes_as_vgg_programs_write_them():
    x = tf.ones([1, 8, 8, 3])
    net = slim.repeat(x, 2, slim.conv2d, 4, [3, 3], scope="conv1")
    net = slim.stack(slim.flatten(net), slim.fully_connected, [8, (4,)], scope="fc")
    net = slim.repeat(net, 1, slim.fully_connected, 2)
    assert _names(tf.trainable_variables()) == [
        "conv1/conv1_1/weights:0", "conv1/conv1_1/biases:0", "conv1/conv1_2/weights:0",
        "conv1/conv1_2/biases:0", "fc/fc_1/weights:0", "fc/fc_1/biases:0", "fc/fc_2/weights:0",
        "fc/fc_2/biases:0", "Repeat/fully_connected_1/weights:0",
        "Repeat/fully_connected_1/biases:0"]
    assert net.shape.as_list() == [1, 2]


def test_slim_variable_helpers_and_restoring_part_of_a_checkpoint(tmp_path):
    with tf.variable_scope("net"):
        w = slim.model_variable("w", shape=[2], initializer=tf.constant_initializer(3.0))
        v = slim.variable("v", shape=[], initializer=tf.zeros_initializer())
    with tf.variable_scope("head"):
        h = slim.model_variable("h", shape=[1], initializer=tf.ones_initializer())
    assert slim.get_model_variables() == [w, h] and slim.get_variables("net") == [w, v]
    assert slim.get_variables_to_restore(exclude=["head"]) == [w, v]
    assert slim.get_variables_to_restore(include=["head"]) == [h]
    assert slim.get_variables_by_name("w") == [w] and slim.get_unique_variable("net/v") is v
    assert contrib.framework.get_variables_by_suffix("h") == [h]
    with pytest.raises(TypeError, match="exclude is provided but is not a list"):
        slim.get_variables_to_restore(exclude="head")
    with pytest.raises(ValueError, match="Couldn't find variable nope"):
        slim.get_unique_variable("nope")
    path = str(tmp_path / "model.ckpt")
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        tf.train.Saver().save(sess, path)
        sess.run(w.assign([0.0, 0.0]))
        sess.run(h.assign([5.0]))
        init_fn = slim.assign_from_checkpoint_fn(path, slim.get_variables_to_restore(
            exclude=["head"]))
        init_fn(sess)
        np.testing.assert_array_equal(sess.run(w), [3.0, 3.0])
        assert sess.run(h)[0] == 5.0
    gs = contrib.framework.get_or_create_global_step()
    assert gs is tf.train.get_global_step()


def test_layers_are_differentiable_and_train():
    x_val = np.random.RandomState(5).normal(size=(16, 4)).astype(np.float32)
    y_val = (x_val.sum(1, keepdims=True) > 0).astype(np.float32)
    x, labels = tf.constant(x_val), tf.constant(y_val)
    net = slim.fully_connected(x, 8, normalizer_fn=slim.batch_norm)
    logits = slim.fully_connected(net, 1, activation_fn=None)
    loss = tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(labels=labels, logits=logits))
    with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS)):
        train = tf.train.AdamOptimizer(0.05).minimize(loss)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        first = sess.run(loss)
        for _ in range(60):
            sess.run(train)
        assert sess.run(loss) < 0.5 * first


# -- rnn --------------------------------------------------------------------------------------
def test_static_bidirectional_rnn_matches_tensorflow():
    module, record = tf_reference_program.load("static_bidirectional_rnn.py",
                                               "contrib/static_birnn.json")
    got = module.program(tf)
    assert set(got) == set(record)
    for key, want in record.items():
        have = got[key]
        assert have["variables"] == want["variables"], key
        assert have["shapes"] == want["shapes"], key
        for part in ("outputs", "state_fw", "state_bw", "grads"):
            for a, b in zip(have[part], want[part]):
                np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6, err_msg=key + part)


def test_contrib_rnn_programs_the_way_tutorials_write_them():
    x = tf.placeholder(tf.float32, [None, 5, 3])
    steps = tf.unstack(x, 5, 1)
    cell = contrib.rnn.BasicLSTMCell(4, forget_bias=1.0)
    outputs, _ = contrib.rnn.static_rnn(cell, steps, dtype=tf.float32)
    fw = contrib.rnn.MultiRNNCell([contrib.rnn.GRUCell(3) for _ in range(2)])
    bw = contrib.rnn.DropoutWrapper(contrib.rnn.LSTMCell(2), output_keep_prob=1.0)
    bi, _, _ = contrib.rnn.static_bidirectional_rnn(fw, bw, steps, dtype=tf.float32)
    stacked, sf, sb = contrib.rnn.stack_bidirectional_dynamic_rnn(
        [contrib.rnn.GRUCell(2), contrib.rnn.GRUCell(2)],
        [contrib.rnn.GRUCell(3), contrib.rnn.GRUCell(3)], x, dtype=tf.float32)
    names = _names(tf.trainable_variables())
    assert "rnn/basic_lstm_cell/kernel:0" in names
    assert "bidirectional_rnn/fw/multi_rnn_cell/cell_1/gru_cell/candidate/kernel:0" in names
    assert "stack_bidirectional_rnn/cell_1/bidirectional_rnn/bw/gru_cell/gates/kernel:0" in names
    assert len(sf) == len(sb) == 2
    out = _run([outputs[-1], bi[-1], stacked], {x: np.ones((2, 5, 3))})
    assert out[0].shape == (2, 4) and out[1].shape == (2, 5) and out[2].shape == (2, 5, 5)
    s_list, _, _ = contrib.rnn.stack_bidirectional_rnn(
        [contrib.rnn.BasicRNNCell(2)], [contrib.rnn.BasicRNNCell(2)], steps, dtype=tf.float32,
        scope="s")
    assert len(s_list) == 5 and s_list[0].shape.as_list() == [None, 4]
    with pytest.raises(ValueError, match="same depth"):
        contrib.rnn.stack_bidirectional_dynamic_rnn([contrib.rnn.GRUCell(2)] * 2,
                                                    [contrib.rnn.GRUCell(2)], x)


# -- eager ------------------------------------------------------------------------------------
def test_contrib_eager_gradient_functions():
    tf.enable_eager_execution()
    tfe = contrib.eager
    assert tfe.executing_eagerly() and tfe.in_eager_mode() and tfe.num_gpus() == 0
    v = tfe.Variable(2.0)

    def loss(x):
        return v * v * x

    grads_and_vars = tfe.implicit_gradients(loss)(3.0)
    assert float(grads_and_vars[0][0]) == 12.0 and grads_and_vars[0][1] is v
    value, gv = tfe.implicit_value_and_gradients(loss)(1.0)
    assert float(value) == 4.0 and float(gv[0][0]) == 4.0
    g = tfe.gradients_function(lambda a, b: a * a * b)(3.0, 2.0)
    assert [float(t) for t in g] == [12.0, 9.0]
    val, g1 = tfe.value_and_gradients_function(lambda a, b: a * b, params=[1])(3.0, 2.0)
    assert float(val) == 6.0 and [float(t) for t in g1] == [3.0]
    it = tfe.Iterator(tf.data.Dataset.range(3))
    assert int(it.next()) == 0 and [int(t) for t in it] == [1, 2]
    with pytest.raises(StopIteration):
        it.next()


def test_contrib_eager_network_tracks_its_layers_and_trains():
    tf.enable_eager_execution()
    tf.set_random_seed(1)       # unseeded, a few initial draws train too slowly (dead ReLUs)
    tfe = contrib.eager

    class Net(tfe.Network):
        def __init__(self):
            super().__init__()
            self.hidden = self.track_layer(tf.layers.Dense(4, activation=tf.nn.relu))
            self.out = self.track_layer(tf.layers.Dense(1))

        def call(self, x):
            return self.out(self.hidden(x))

    net = Net()
    x = tf.constant(np.random.RandomState(7).normal(size=(16, 3)).astype(np.float32))
    y = tf.reduce_sum(x, 1, keepdims=True)

    def loss():
        return tf.reduce_mean(tf.square(net(x) - y))

    first = float(loss())
    assert len(net.variables) == 4 and net.layers == [net.hidden, net.out]
    grad = tfe.implicit_gradients(loss)
    opt = tf.train.GradientDescentOptimizer(0.1)
    for _ in range(50):
        opt.apply_gradients(grad())
    assert float(loss()) < 0.2 * first
    with pytest.raises(TypeError, match="not a tf.layers.Layer"):
        net.track_layer(lambda v: v)


def test_softmax_cross_entropy_casts_labels_to_the_logits_dtype_as_tensorflow():
    # TF 2.21 gives 0.31326166 (float32) for both calls: float64 one-hot labels (what the TF
    # tutorials' MNIST reader returns) and integer labels are cast to the logits' dtype.
    logits = tf.constant([[1.0, 2.0]])
    a = tf.nn.softmax_cross_entropy_with_logits(logits=logits, labels=np.array([[0.0, 1.0]]))
    b = tf.nn.softmax_cross_entropy_with_logits_v2(logits=logits, labels=[[0, 1]])
    assert a.dtype == b.dtype == tf.float32
    np.testing.assert_allclose(_run([a, b], init=False), [[0.31326166], [0.31326166]],
                               rtol=1e-6)


# -- image, training, learn, losses, metrics, seq2seq -----------------------------------------
def test_contrib_image_rotate_translate_and_transform():
    sq = np.arange(9, dtype=np.float32).reshape(3, 3)
    img = np.arange(24, dtype=np.float32).reshape(2, 3, 4, 1)
    r = contrib.image.rotate(sq, np.pi / 2)
    r4 = contrib.image.rotate(img, [0.0, np.pi], interpolation="BILINEAR")
    t = contrib.image.translate(img, [1, 0])
    both = contrib.image.compose_transforms(
        contrib.image.translations_to_projective_transforms([1, 0]),
        contrib.image.translations_to_projective_transforms([0, 1]))
    t2 = contrib.image.transform(img[0], both)
    got = _run([r, r4, t, t2], init=False)
    np.testing.assert_array_equal(got[0], np.rot90(sq))
    np.testing.assert_allclose(got[1][0], img[0], atol=1e-5)
    np.testing.assert_allclose(got[1][1], img[1, ::-1, ::-1], atol=1e-4)
    want = np.zeros_like(img)
    want[:, :, 1:] = img[:, :, :-1]
    np.testing.assert_array_equal(got[2], want)
    want2 = np.zeros_like(img[0])
    want2[1:, 1:] = img[0, :-1, :-1]
    np.testing.assert_array_equal(got[3], want2)
    g = tf.gradients(tf.reduce_sum(contrib.image.translate(tf.constant(img), [1, 0])), img)
    assert g is not None
    with pytest.raises(TypeError, match="Images should have rank between 2 and 4"):
        contrib.image.rotate(np.zeros([1, 2, 2, 2, 1]), 0.3)


def test_hparams_parse_types_json_and_errors():
    hp = contrib.training.HParams(learning_rate=0.1, layers=[64, 32], cell="lstm",
                                  use_bn=False, steps=10)
    assert hp.parse("learning_rate=0.3, layers=[8,8,4],use_bn=true,steps=5") is hp
    assert hp.values() == {"learning_rate": 0.3, "layers": [8, 8, 4], "cell": "lstm",
                           "use_bn": True, "steps": 5}
    hp.parse("layers[1]=16,learning_rate=1")           # an int where a float is: cast
    assert hp.layers == [8, 16, 4] and hp.learning_rate == 1.0
    assert hp.to_json(sort_keys=True).startswith('{"cell": "lstm", "layers": [8, 16, 4]')
    hp.parse_json('{"cell": "gru"}')
    assert hp.cell == "gru" and "cell" in hp and hp.get("nope", 3) == 3
    assert str(hp) == str(sorted(hp.values().items()))
    with pytest.raises(ValueError, match="Could not parse hparam 'steps' of type 'int' "
                                         "with value '1.5' in steps=1.5"):
        hp.parse("steps=1.5")
    with pytest.raises(ValueError, match="Unknown hyperparameter type for nope"):
        hp.parse("nope=1")
    with pytest.raises(ValueError, match="Multiple assignments to variable 'steps'"):
        hp.parse("steps=1,steps=2")
    with pytest.raises(ValueError, match="Must not pass a list for single-valued parameter"):
        hp.set_hparam("steps", [1])
    with pytest.raises(ValueError, match="Could not cast hparam 'cell'"):
        hp.set_hparam("cell", 3)
    with pytest.raises(ValueError, match="Hyperparameter name is reserved: values"):
        contrib.training.HParams(values=1)


def test_learn_vocabulary_processor_run_config_and_mnist_path(tmp_path):
    learn = contrib.learn
    vp = learn.preprocessing.VocabularyProcessor(5)
    docs = ["the cat sat", "the dog sat on the mat", "The CAT"]
    ids = np.array(list(vp.fit_transform(docs)))
    np.testing.assert_array_equal(ids, [[1, 2, 3, 0, 0], [1, 4, 3, 5, 1], [7, 8, 0, 0, 0]])
    assert list(vp.reverse([ids[0][:3]])) == ["the cat sat"]
    assert list(vp.transform(["a cat"]))[0].tolist() == [0, 2, 0, 0, 0]
    vp.save(str(tmp_path / "vocab"))
    again = learn.preprocessing.VocabularyProcessor.restore(str(tmp_path / "vocab"))
    assert len(again.vocabulary_) == len(vp.vocabulary_) == 9
    trimmed = learn.preprocessing.VocabularyProcessor(3, min_frequency=1)
    trimmed.fit(docs)
    assert len(trimmed.vocabulary_) == 3                    # <UNK>, "the", "sat"
    assert learn.RunConfig is tf.estimator.RunConfig
    assert learn.python.learn.datasets.mnist.read_data_sets is \
        learn.datasets.mnist.read_data_sets
    with pytest.raises(ValueError, match="Name of dataset is not found: cifar"):
        learn.datasets.load_dataset("cifar")


def test_contrib_losses_take_predictions_first():
    preds = tf.constant([[0.2, 0.8], [0.6, 0.4]])
    labels = tf.constant([[0.0, 1.0], [1.0, 0.0]])
    logits = tf.constant([[1.0, -1.0], [0.5, 2.0]])
    pairs = [(contrib.losses.mean_squared_error(preds, labels),
              tf.losses.mean_squared_error(labels, preds)),
             (contrib.losses.absolute_difference(preds, labels, weights=2.0),
              tf.losses.absolute_difference(labels, preds, weights=2.0)),
             (contrib.losses.log_loss(preds, labels), tf.losses.log_loss(labels, preds)),
             (contrib.losses.softmax_cross_entropy(logits, labels, label_smoothing=0.1),
              tf.losses.softmax_cross_entropy(labels, logits, label_smoothing=0.1)),
             (contrib.losses.sparse_softmax_cross_entropy(logits, [1, 0]),
              tf.losses.sparse_softmax_cross_entropy([1, 0], logits)),
             (contrib.losses.sigmoid_cross_entropy(logits, labels),
              tf.losses.sigmoid_cross_entropy(labels, logits))]
    got = _run(pairs, init=False)
    for a, b in got:
        assert a == pytest.approx(b)
    hinge = _run(contrib.losses.hinge_loss(logits, labels), init=False)
    np.testing.assert_allclose(hinge, [[2.0, 2.0], [0.5, 3.0]])
    assert contrib.losses.get_total_loss is tf.losses.get_total_loss


def test_contrib_metrics_streaming_and_accuracy():
    preds = tf.placeholder(tf.int64, [None])
    labels = tf.placeholder(tf.int64, [None])
    acc, acc_up = contrib.metrics.streaming_accuracy(preds, labels)
    values, updates = contrib.metrics.aggregate_metric_map({
        "mean": contrib.metrics.streaming_mean(tf.cast(preds, tf.float32)),
        "recall": contrib.metrics.streaming_recall(preds, labels)})
    once = contrib.metrics.accuracy(preds, labels, weights=[1.0, 0.0, 1.0])
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        sess.run([acc_up, updates], {preds: [1, 0, 1], labels: [1, 1, 1]})
        sess.run([acc_up, updates], {preds: [0], labels: [0]})
        assert sess.run(acc) == pytest.approx(0.75)
        got = sess.run(values)
        assert got["mean"] == pytest.approx(0.5) and got["recall"] == pytest.approx(2 / 3)
        assert sess.run(once, {preds: [1, 0, 1], labels: [1, 1, 0]}) == pytest.approx(0.5)
    with pytest.raises(ValueError, match="at least one"):
        contrib.metrics.aggregate_metrics()


def test_sequence_loss_reductions_match_the_weighted_cross_entropy():
    rng = np.random.RandomState(6)
    logits_val = rng.normal(size=(2, 3, 4)).astype(np.float32)
    targets_val = np.array([[1, 2, 3], [0, 0, 1]], np.int32)
    weights_val = np.array([[1, 1, 0], [1, 0, 0]], np.float32)
    z = logits_val - logits_val.max(-1, keepdims=True)
    logp = z - np.log(np.exp(z).sum(-1, keepdims=True))
    ce = -np.take_along_axis(logp, targets_val[..., None], -1)[..., 0] * weights_val
    s2s = contrib.seq2seq
    args = (logits_val, targets_val, weights_val)
    outs = _run([s2s.sequence_loss(*args),
                 s2s.sequence_loss(*args, average_across_batch=False),
                 s2s.sequence_loss(*args, average_across_timesteps=False),
                 s2s.sequence_loss(*args, average_across_timesteps=False,
                                   average_across_batch=False),
                 s2s.sequence_loss(*args, average_across_timesteps=False,
                                   average_across_batch=False, sum_over_timesteps=True,
                                   sum_over_batch=True)], init=False)
    np.testing.assert_allclose(outs[0], ce.sum() / 3, rtol=1e-5)
    np.testing.assert_allclose(outs[1], ce.sum(1) / weights_val.sum(1), rtol=1e-5)
    np.testing.assert_allclose(outs[2], [ce[:, 0].sum() / 2, ce[:, 1].sum(), 0.0], rtol=1e-5)
    np.testing.assert_allclose(outs[3], ce, rtol=1e-5)
    np.testing.assert_allclose(outs[4], ce.sum() / 3, rtol=1e-5)
    with pytest.raises(ValueError, match="Logits must be a"):
        s2s.sequence_loss(logits_val[0], targets_val, weights_val)
    with pytest.raises(ValueError, match="cannot be set to True at same time"):
        s2s.sequence_loss(*args, sum_over_timesteps=True)


def _regression(seed=0):
    x_val = np.random.RandomState(seed).normal(size=(8, 3)).astype(np.float32)
    w = tf.get_variable("w", [3, 1], initializer=tf.constant_initializer(0.1))
    loss = tf.reduce_mean(tf.square(tf.matmul(x_val, w) - x_val.sum(1, keepdims=True)))
    return w, loss


@pytest.mark.parametrize("name,opt", [("SGD", lambda lr: tf.train.GradientDescentOptimizer(lr)),
                                      ("Adam", lambda lr: tf.train.AdamOptimizer(lr)),
                                      ("Momentum",
                                       lambda lr: tf.train.MomentumOptimizer(lr, 0.9))])
def test_optimize_loss_is_the_named_optimizers_step(name, opt):
    results = []
    for use_contrib in (True, False):
        with tf.Graph().as_default():
            w, loss = _regression()
            gs = tf.train.get_or_create_global_step()
            if use_contrib:
                train = contrib.layers.optimize_loss(loss, gs, 0.05, name, clip_gradients=1.0)
            else:
                o = opt(0.05)
                grads, tvars = zip(*o.compute_gradients(loss, [w]))
                clipped, _ = tf.clip_by_global_norm(list(grads), 1.0)
                train = o.apply_gradients(list(zip(clipped, tvars)), global_step=gs)
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                for _ in range(5):
                    sess.run(train)
                results.append((sess.run(w), sess.run(gs)))
    np.testing.assert_allclose(results[0][0], results[1][0], rtol=1e-6)
    assert results[0][1] == results[1][1] == 5


def test_optimize_loss_learning_rate_variable_decay_summaries_and_errors():
    w, loss = _regression()
    gs = tf.train.get_or_create_global_step()
    train = contrib.layers.optimize_loss(
        loss, gs, 0.1, tf.train.GradientDescentOptimizer,
        learning_rate_decay_fn=lambda lr, step: lr * 0.5,
        summaries=["loss", "learning_rate", "gradient_norm"],
        gradient_multipliers={w: 2.0})
    assert "OptimizeLoss/learning_rate:0" in _names(tf.global_variables())
    summaries = [s.op.name for s in tf.get_collection(tf.GraphKeys.SUMMARIES)]
    assert "OptimizeLoss/learning_rate_1" in summaries and "OptimizeLoss/loss" in summaries
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        g = sess.run(tf.gradients(loss, w)[0])
        before = sess.run(w)
        sess.run(train)
        np.testing.assert_allclose(sess.run(w), before - 0.05 * 2.0 * g, rtol=1e-5)
    with pytest.raises(ValueError, match="Optimizer name should be one of"):
        contrib.layers.optimize_loss(loss, gs, 0.1, "Nope")
    with pytest.raises(ValueError, match="Summaries should be one of"):
        contrib.layers.optimize_loss(loss, gs, 0.1, "SGD", summaries=["nope"])
    with pytest.raises(ValueError, match="Learning rate should be 0d Tensor or float"):
        contrib.layers.optimize_loss(loss, gs, 1, "SGD", name="bad")


# -- separable convolutions --------------------------------------------------------------------
def test_tf_layers_separable_conv2d_matches_tensorflow():
    module, record = tf_reference_program.load("separable_conv2d_v1.py",
                                               "contrib/separable_conv2d.json")
    got = module.program(tf)
    for key, want in record.items():
        assert got[key]["variables"] == want["variables"], key
        np.testing.assert_allclose(got[key]["y"], want["y"], rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(got[key]["y2"], want["y2"], rtol=1e-5, atol=1e-6)
        for a, b in zip(got[key]["grads"], want["grads"]):
            np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-5)


def test_slim_separable_conv2d_is_the_separable_layer_with_tf115_names():
    x_val = np.random.RandomState(8).normal(size=(2, 6, 6, 3)).astype(np.float32)
    tf.set_random_seed(4)
    y = slim.separable_conv2d(x_val, 4, 3, depth_multiplier=2)
    dw = slim.separable_conv2d(x_val, None, [3, 3], stride=2, activation_fn=None, scope="dw")
    assert [(v.name, v.shape.as_list()) for v in tf.global_variables()] == [
        ("SeparableConv2d/depthwise_weights:0", [3, 3, 3, 2]),
        ("SeparableConv2d/pointwise_weights:0", [1, 1, 6, 4]),
        ("SeparableConv2d/biases:0", [4]), ("dw/depthwise_weights:0", [3, 3, 3, 1]),
        ("dw/biases:0", [3])]
    assert len(tf.get_collection(tf.GraphKeys.MODEL_VARIABLES)) == 5
    got = _run([y, dw] + tf.global_variables())
    d, p, b, d2, b2 = got[2:]
    ref = tf.nn.relu(tf.nn.separable_conv2d(x_val, d, p, [1, 1, 1, 1], "SAME") + b)
    ref2 = tf.nn.depthwise_conv2d(x_val, d2, [1, 2, 2, 1], "SAME") + b2
    want = _run([ref, ref2], init=False)
    np.testing.assert_allclose(got[0], want[0], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got[1], want[1], rtol=1e-5, atol=1e-6)
    with tf.Graph().as_default():
        tf.set_random_seed(4)
        ref = tf.layers.separable_conv2d(x_val, 4, 3, padding="same", depth_multiplier=2,
                                         activation=tf.nn.relu,
                                         depthwise_initializer=tf.glorot_uniform_initializer(),
                                         pointwise_initializer=tf.glorot_uniform_initializer())
        np.testing.assert_array_equal(_run(ref), got[0])
