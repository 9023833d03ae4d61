"""tf.sparse ops with gradients: SparseTensorDenseMatMul (values and gradients against
TensorFlow 2.21, tools/tf_reference/sparse_ops_reference.py; numerical gradient checks at
orders 1 and 2, graph and eager)."""
import importlib.util
import json
import os

import numpy as np
import pytest

import flowgrad as tf
import flowgrad.compat.v1 as tf1
from flowgrad.framework import errors
from gradcheck import check_gradients

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_spec = importlib.util.spec_from_file_location(
    "sparse_ops_reference", os.path.join(ROOT, "tools", "tf_reference",
                                         "sparse_ops_reference.py"))
ref = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ref)
with open(os.path.join(ROOT, "tests", "data", "sparse", "ops_reference.json")) as f:
    RECORDED = json.load(f)["cases"]


@pytest.fixture
def eager():
    tf.compat.v1.enable_v2_behavior()


RECORDED_TO_DENSE = (RECORDED["to_dense"]["grad_values"], RECORDED["to_dense"]["grad_default"])


@pytest.mark.parametrize("name", sorted(ref.CASES))
def test_sparse_dense_matmul_values_and_gradients_match_tensorflow(name, eager):
    got = ref.record(tf)[name]
    want = RECORDED[name]
    for key in ("product", "grad_values", "grad_b"):
        np.testing.assert_allclose(got[key], want[key], rtol=1e-12, atol=1e-12)


def _matmul(adj_a, adj_b):
    return lambda v, b: tf.sparse.sparse_dense_matmul(
        tf.SparseTensor(ref.INDICES, v, ref.SHAPE), b, adjoint_a=adj_a, adjoint_b=adj_b)


@pytest.mark.parametrize("name", sorted(ref.CASES))
@pytest.mark.parametrize("mode", ["graph", "eager"])
def test_sparse_dense_matmul_gradients_orders_1_and_2(name, mode):
    adj_a, adj_b = ref.CASES[name]
    if mode == "eager":
        tf.compat.v1.enable_v2_behavior()
    check_gradients(lambda v, b: tf.square(_matmul(adj_a, adj_b)(v, b)),
                    [np.array(ref.VALUES), ref.dense_b(adj_b)], order=2, mode=mode)


def test_sparse_dense_matmul_dense_times_sparse_and_errors(eager):
    sp = tf.SparseTensor(ref.INDICES, tf.constant(ref.VALUES, tf.float64), ref.SHAPE)
    a = np.arange(6, dtype=np.float64).reshape(2, 3)
    dense_sp = tf.sparse.to_dense(sp).numpy()
    np.testing.assert_allclose(tf.sparse.sparse_dense_matmul(a, sp).numpy(), a @ dense_sp)
    with pytest.raises(errors.InvalidArgumentError, match="inner dimension"):
        tf.sparse.sparse_dense_matmul(sp, np.zeros((2, 2)))
    bad = tf.SparseTensor([[3, 0]], tf.constant([1.0], tf.float64), [3, 3])
    with pytest.raises(errors.InvalidArgumentError, match="out of bounds"):
        tf.sparse.sparse_dense_matmul(bad, np.zeros((3, 1)))


@pytest.mark.parametrize("mode", ["graph", "eager"])
def test_to_dense_gradients_wrt_values_and_default_orders_1_and_2(mode):
    if mode == "eager":
        tf.compat.v1.enable_v2_behavior()

    def fn(v, d):
        dense = tf.sparse.to_dense(tf.SparseTensor(ref.INDICES, v, ref.SHAPE), d)
        return tf.square(dense) * np.arange(9.0).reshape(3, 3)
    check_gradients(fn, [np.array(ref.VALUES), np.array(0.25)], order=2, mode=mode)


def test_to_dense_gradient_matches_tensorflow(eager):
    # TensorFlow 2.21 (_SparseToDenseGrad): values get grad at their indices, the default
    # value the sum of the rest
    v = tf.constant(ref.VALUES, tf.float64)
    d = tf.constant(0.5, tf.float64)
    w = np.arange(9.0).reshape(3, 3)
    with tf.GradientTape() as tape:
        tape.watch([v, d])
        s = tf.reduce_sum(tf.sparse.to_dense(tf.SparseTensor(ref.INDICES, v, ref.SHAPE), d) * w)
    gv, gd = tape.gradient(s, [v, d])
    np.testing.assert_array_equal(gv.numpy(), RECORDED_TO_DENSE[0])
    assert gd.numpy() == RECORDED_TO_DENSE[1]


@pytest.mark.parametrize("axis,keepdims", ref.REDUCE_CASES)
def test_reduce_sum_and_gradient_match_tensorflow(axis, keepdims, eager):
    got = ref.record(tf)["reduce_sum %s %s" % (axis, keepdims)]
    want = RECORDED["reduce_sum %s %s" % (axis, keepdims)]
    np.testing.assert_allclose(got["sum"], want["sum"], rtol=1e-12)
    np.testing.assert_allclose(got["grad_values"], want["grad_values"], rtol=1e-12)


@pytest.mark.parametrize("mode", ["graph", "eager"])
@pytest.mark.parametrize("axis,keepdims", [(1, False), (-2, True), (None, False)])
def test_reduce_sum_gradient_orders_1_and_2(mode, axis, keepdims):
    if mode == "eager":
        tf.compat.v1.enable_v2_behavior()
    check_gradients(lambda v: tf.square(tf.sparse.reduce_sum(
        tf.SparseTensor(ref.INDICES, v * v, ref.SHAPE), axis, keepdims)),
        [np.array(ref.VALUES)], order=2, mode=mode)


def test_reduce_sum_bad_axis(eager):
    sp = tf.SparseTensor(ref.INDICES, tf.constant(ref.VALUES), ref.SHAPE)
    with pytest.raises(errors.InvalidArgumentError, match="Invalid reduction dimension 2"):
        tf.sparse.reduce_sum(sp, 2)


@pytest.mark.parametrize("what", ["reorder", "transpose"])
def test_reorder_and_transpose_match_tensorflow(what, eager):
    got, want = ref.record(tf)[what], RECORDED[what]
    assert got == want


@pytest.mark.parametrize("mode", ["graph", "eager"])
@pytest.mark.parametrize("what", ["reorder", "transpose"])
def test_reorder_and_transpose_gradients_orders_1_and_2(mode, what):
    if mode == "eager":
        tf.compat.v1.enable_v2_behavior()
    op = tf.sparse.reorder if what == "reorder" else tf.sparse.transpose
    check_gradients(lambda v: tf.square(op(tf.SparseTensor(
        [[2, 1], [0, 2], [1, 0], [0, 1]], v, [3, 4])).values) * np.arange(1.0, 5.0),
        [np.array(ref.VALUES)], order=2, mode=mode)


@pytest.mark.parametrize("what", ["expand_dims 0", "expand_dims -1", "expand_dims 1", "retain"])
def test_expand_dims_and_retain_match_tensorflow(what, eager):
    assert ref.record(tf)[what] == RECORDED[what]


@pytest.mark.parametrize("mode", ["graph", "eager"])
def test_expand_dims_and_retain_gradients_orders_1_and_2(mode):
    if mode == "eager":
        tf.compat.v1.enable_v2_behavior()
    def fn(v):
        sp = tf.sparse.expand_dims(tf.sparse.retain(
            tf.SparseTensor(ref.INDICES, v, ref.SHAPE), [True, False, True, True]), 1)
        return tf.reduce_sum(sp.values * sp.values * sp.values)     # scalar: static shape
    check_gradients(fn, [np.array(ref.VALUES)], order=2, mode=mode)


@pytest.mark.parametrize("what", ["concat 0", "concat 1", "concat -1", "concat expand"])
def test_concat_matches_tensorflow(what, eager):
    assert ref.record(tf)[what] == RECORDED[what]


def test_concat_errors_and_no_gradient(eager):
    a = tf.SparseTensor([[0, 1]], [1.0], [2, 3])
    with pytest.raises(errors.InvalidArgumentError, match="Input shapes must match"):
        tf.sparse.concat(0, [a, tf.SparseTensor([[0, 0]], [1.0], [2, 4])])
    v = tf.constant([1.0])
    with tf.GradientTape() as tape:
        tape.watch(v)
        out = tf.sparse.concat(0, [tf.SparseTensor([[0, 1]], v, [2, 3]), a]).values
    assert tape.gradient(out, v) is None       # SparseConcat: NotDifferentiable, as in TF


def test_sparse_tensor_set_shape_merges_and_checks_as_tensorflow():
    """SparseTensor.set_shape (Keras's TensorFlow backend calls it on every sparse result):
    eagerly a shape check; on a dense_shape unknown when the graph is built it adds the
    given dimensions. Shapes and the error's message as TensorFlow 2.21's."""
    st = tf.SparseTensor([[0, 0], [1, 2]], [1, 2], [3, 4])
    st.set_shape([3, None])
    assert st.shape.as_list() == [3, 4]
    with pytest.raises(ValueError, match=r"Shapes \(3, 4\) and \(1, 4\) are not compatible"):
        st.set_shape([1, 4])
    with tf.Graph().as_default():
        s = tf.SparseTensor(tf1.placeholder(tf.int64, [None, 2]), tf1.placeholder(tf.float32),
                            tf1.placeholder(tf.int64, [2]))
        assert s.shape.as_list() == [None, None]
        s.set_shape([None, 5])
        assert s.shape.as_list() == [None, 5]
        s.set_shape([2, None])
        assert s.shape.as_list() == [2, 5]
