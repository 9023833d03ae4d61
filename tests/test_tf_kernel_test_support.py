"""What TensorFlow's own kernel tests (tensorflow/python/kernel_tests/**, measured with
tools/tf_suite.py) import from ``tensorflow.python.*`` is served under ``python -m flowgrad``:
the modules (``array_ops_stack``, ``while_loop``, ``cond``, the ``*_grad`` registration
modules, ``ragged.*``...), ``test_util``'s device contexts, layout helpers and decorators as
TensorFlow 2.21 defines them, and the ``gen_*_ops`` functions that TensorFlow's ``*_ops``
modules re-export."""
from __future__ import annotations

import importlib

import numpy as np
import pytest

import flowgrad as tf
from flowgrad.dropin import install_as_tensorflow


@pytest.fixture(scope="module")
def tfi():
    """``tensorflow.python`` imports, as TensorFlow's tests write them."""
    install_as_tensorflow()
    return lambda name: importlib.import_module("tensorflow.python." + name)


@pytest.mark.parametrize("module, name", [
    ("ops.array_ops_stack", "stack"), ("ops.array_ops_stack", "unstack"),
    ("ops.while_loop", "while_loop"), ("ops.cond", "cond"), ("ops.variable_v1", "VariableV1"),
    ("ops.ragged.ragged_factory_ops", "constant"), ("ops.ragged.ragged_tensor", "RaggedTensor"),
    ("framework.tensor", "Tensor"), ("framework.config", "list_physical_devices"),
    ("ops.math_ops", "is_nan"), ("ops.math_ops", "matvec"), ("platform.googletest", "main"),
    ("module.module", "Module"),
])
def test_modules_tensorflow_s_tests_import(tfi, module, name):
    assert callable(getattr(tfi(module), name))


def test_gradient_registration_modules_import(tfi):
    for name in ("nn_grad", "math_grad", "array_grad", "sparse_grad", "tensor_array_grad"):
        tfi("ops." + name)


def test_ops_modules_reexport_their_gen_ops(tfi):
    math_ops = tfi("ops.math_ops")
    total = math_ops.add_v2(np.array([1, 2]), np.array([3, 4]))
    assert total.op.type == "AddV2"
    assert np.array_equal(tf.compat.v1.Session().run(total), [4, 6])
    with pytest.raises(AttributeError, match="no attribute 'no_such_op'"):
        math_ops.no_such_op       # noqa: B018


def test_device_contexts_place_on_the_cpu(tfi):
    test_util = tfi("framework.test_util")
    with tf.Graph().as_default():
        for ctx in (test_util.use_gpu(), test_util.force_cpu(), test_util.device(True)):
            with ctx:
                c = tf.constant(1.0)
            assert c.device == "/device:CPU:0"
    assert test_util.is_xla_enabled() is False
    assert test_util.IsMklEnabled() is False


def test_layout_helpers_as_tensorflow_s(tfi):
    test_util = tfi("framework.test_util")
    assert test_util.NHWCToNCHW([1, 2, 3, 4]) == [1, 4, 2, 3]
    assert test_util.NHWCToNCHW([1, 2, 3]) == [1, 3, 2]
    assert test_util.NCHWToNHWC([1, 4, 2, 3]) == [1, 2, 3, 4]
    x = np.arange(24.0).reshape(1, 2, 3, 4)
    nchw = tf.compat.v1.Session().run(test_util.NHWCToNCHW(tf.constant(x)))
    np.testing.assert_array_equal(nchw, x.transpose(0, 3, 1, 2))
    with pytest.raises(ValueError, match="Bad horizon"):
        test_util.with_forward_compatibility_horizons((2020, 1))


def test_for_all_test_methods_decorates_each_test(tfi):
    test_util = tfi("framework.test_util")
    calls = []

    def tag(label):
        def decorate(f):
            def run(self):
                calls.append(label)
                return f(self)
            return run
        return decorate

    @test_util.for_all_test_methods(tag, "x")
    class Case:
        def testA(self):
            return 1

        def helper(self):
            return 2

    assert Case().testA() == 1 and Case().helper() == 2 and calls == ["x"]


@pytest.mark.parametrize("use_tape", [True, False])
def test_abstract_gradient_tape_is_a_tape_or_tf_gradients(tfi, use_tape):
    test_util = tfi("framework.test_util")
    with tf.Graph().as_default():
        x = tf.constant(3.0)
        with test_util.AbstractGradientTape(use_tape=use_tape) as tape:
            tape.watch(x)
            y = x * x
        g = tape.gradient(y, x)
        assert tf.compat.v1.Session().run(g) == 6.0


def test_tf1_top_level_sparse_names():
    # TF 1.x's tf.sparse_softmax, tf.sparse_reshape, tf.sparse_segment_sum...
    # (TF 2.21's tf.compat.v1 has them; sparse_ops_test.py uses them through sparse_ops)
    v1 = tf.compat.v1
    for name in ("fill_empty_rows", "mask", "reset_shape", "reshape", "segment_mean",
                 "segment_sqrt_n", "segment_sum", "softmax", "split", "to_indicator"):
        assert getattr(v1, "sparse_" + name) is getattr(v1.sparse, name, None) or \
            getattr(v1, "sparse_" + name) is getattr(tf.sparse, name)
    with tf.Graph().as_default(), v1.Session() as sess:
        got = sess.run(v1.sparse_segment_sum([[1.0, 2.0], [3.0, 4.0]], [0, 1], [0, 0]))
    np.testing.assert_array_equal(got, [[4.0, 6.0]])


def test_tf2_compute_gradient_takes_graph_tensors_in_a_session():
    # gradient_checker_v2 in graph mode evaluates a graph tensor x in the default session
    v1 = tf.compat.v1
    with tf.Graph().as_default(), v1.Session():
        x1 = tf.constant(2.0, shape=(2, 3))
        x2 = tf.constant(3.0, shape=(2, 3))
        jt, jn = tf.test.compute_gradient(lambda a: tf.add(a, x2), [x1])
    np.testing.assert_allclose(jt[0], np.eye(6))
    np.testing.assert_allclose(jn[0], np.eye(6), atol=1e-3)
