"""py_func / numpy_function: outputs, dtypes, statefulness, errors, gradients, eager mode."""
import numpy as np
import pytest

import flowgrad
import flowgrad.compat.v1 as tf
from flowgrad.framework import ops


def _run(t, feed=None):
    with tf.Session() as sess:
        return sess.run(t, feed)


def test_tout_list_gives_a_list_single_dtype_one_tensor():
    x = tf.placeholder(tf.float32, [None])
    ys = tf.py_func(lambda a: (a * 2).astype(np.float32), [x], [tf.float32])
    y = tf.py_func(lambda a: np.sinh(a), [x], tf.float32)
    assert isinstance(ys, list) and len(ys) == 1
    assert y.op.type == "PyFunc" and y.dtype == tf.float32 and y.shape.rank is None
    v1, v2 = _run([ys[0], y], {x: [0.5, 1.0]})
    np.testing.assert_array_equal(v1, np.array([1.0, 2.0], np.float32))
    np.testing.assert_allclose(v2, np.sinh([0.5, 1.0]).astype(np.float32))
    assert v2.dtype == np.float32


def test_op_types_and_several_outputs():
    a = tf.numpy_function(lambda x: x, [tf.constant(1)], tf.int32, stateful=False)
    assert a.op.type == "PyFuncStateless"
    assert tf.numpy_function(lambda x: x, [1], tf.int32).op.type == "PyFunc"
    s, p, txt = tf.py_func(lambda x, y: (x + y, x * y, "sum"), [tf.constant(2.0),
                                                              tf.constant(3.0)],
                           [tf.float32, tf.float32, tf.string], name="ops2")
    assert s.op.name == "ops2" and txt.dtype == tf.string
    assert _run([s, p, txt]) == [5.0, 6.0, b"sum"]


def test_scalar_inputs_are_numpy_scalars_and_arrays_are_private_copies():
    seen = []
    c = tf.constant([1.0, 2.0])

    def f(scalar, arr):
        seen.append(type(scalar))
        arr[0] = 100.0          # must not change the constant
        return arr
    y = tf.py_func(f, [tf.constant(3.0), c], tf.float32)
    np.testing.assert_array_equal(_run(y), [100.0, 2.0])
    np.testing.assert_array_equal(_run(c), [1.0, 2.0])
    assert seen == [np.float32]


def test_no_outputs_returns_the_operation_and_runs_for_its_effect():
    log = []
    op = tf.py_func(lambda x: log.append(float(x)), [tf.constant(4.0)], [])
    assert isinstance(op, tf.Operation) and op.outputs == [] and op.type == "PyFunc"
    _run(op)
    assert log == [4.0]


def test_stateful_calls_are_neither_merged_nor_folded():
    calls = []

    def f(x):
        calls.append(1)
        return x
    c = tf.constant(1.0)
    a = tf.py_func(f, [c], tf.float32)
    b = tf.py_func(f, [c], tf.float32)
    s = tf.py_func(f, [c], tf.float32, stateful=False)
    with tf.Session() as sess:
        sess.run([a, b])
        assert len(calls) == 2
        sess.run(s)
        sess.run(s)
        assert len(calls) == 4      # stateless ones still run on every run, not at compile


def test_wrong_dtype_is_an_error_naming_the_op():
    x = tf.constant([1.0, 2.0])
    y = tf.py_func(lambda a: a * 2.0 + np.float64(0), [tf.cast(x, tf.float64)], tf.float32,
                   name="doubler")
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"0-th value returned by pyfunc_\d+ is double, but expects "
                             r"float(.|\n)*doubler \(op PyFunc\)"):
        _run(y)
    z = tf.py_func(lambda a: np.array([1, 2]), [x], tf.int32)   # int64 array, as in TF
    with pytest.raises(tf.errors.InvalidArgumentError, match="is int64, but expects int32"):
        _run(z)


def test_wrong_number_of_outputs_and_unconvertible_values():
    x = tf.constant(1.0)
    two = tf.py_func(lambda a: (a, a), [x], [tf.float32])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"pyfunc_\d+ returns 2 values, but expects to see 1 values."):
        _run(two)
    none = tf.py_func(lambda a: None, [x], tf.float32)
    with pytest.raises(tf.errors.InvalidArgumentError, match="returns 0 values"):
        _run(none)
    odd = tf.py_func(lambda a: {"a": 1}, [x], tf.string, name="odd")
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"has unsupported object type dict(.|\n)*odd"):
        _run(odd)
    with pytest.raises(ValueError, match="Expected func to be callable"):
        tf.py_func(3, [x], tf.float32)


def test_exceptions_in_func_surface_as_op_errors_with_the_cause_chained():
    def bad_value(x):
        raise ValueError("no good")

    def bad_key(x):
        raise KeyError("k")
    with pytest.raises(tf.errors.InvalidArgumentError, match="no good(.|\n)*node vf") as e:
        _run(tf.py_func(bad_value, [1.0], tf.float32, name="vf"))
    assert isinstance(e.value.__cause__, ValueError)
    with pytest.raises(tf.errors.UnknownError, match="node kf") as e:
        _run(tf.py_func(bad_key, [1.0], tf.float32, name="kf"))
    assert isinstance(e.value.__cause__, KeyError)


def test_variables_as_inputs():
    v = tf.Variable([1.0, 2.0])
    y = tf.py_func(lambda a: a.sum(), [v], tf.float32)
    with tf.Session() as sess:
        sess.run(v.initializer)
        assert sess.run(y) == 3.0


def test_not_differentiable_unless_overridden():
    x = tf.constant([-3.0, 0.5, 2.0])
    y = tf.py_func(lambda a: np.clip(a, -1, 1), [x], tf.float32)
    assert tf.gradients(y, x) == [None]

    @tf.RegisterGradient("ClipGradForTest")
    def _clip_grad(op, grad):
        inside = tf.py_func(lambda a: (np.abs(a) < 1).astype(np.float32), [op.inputs[0]],
                            tf.float32, stateful=False)
        return grad * inside
    g = tf.get_default_graph()
    with g.gradient_override_map({"PyFunc": "ClipGradForTest",
                                  "PyFuncStateless": "ClipGradForTest"}):
        z = tf.py_func(lambda a: np.clip(a, -1, 1), [x], tf.float32, stateful=False)
    (gz,) = tf.gradients(z, x, grad_ys=tf.constant([2.0, 3.0, 4.0]))
    np.testing.assert_array_equal(_run(gz), [0.0, 3.0, 0.0])


def test_framework_ops_module_name_scope():
    x = tf.constant(1.0)
    with ops.name_scope(None, "my_op", [x]) as scope:
        assert scope == "my_op/"
        y = tf.py_func(lambda a: a, [x], [tf.float32], name=scope)[0]
    assert y.op.name == "my_op"
    with ops.name_scope("named", "ignored", [x]) as scope:
        assert scope == "named/"
    assert ops.get_default_graph() is tf.get_default_graph()
    assert ops.NotDifferentiable is tf.NotDifferentiable and ops.GraphKeys is tf.GraphKeys


def test_eager_runs_the_function_directly():
    tf.enable_v2_behavior()
    got = []
    y = flowgrad.numpy_function(lambda a: got.append(type(a)) or a * 2,
                                [flowgrad.constant([1.0, 2.0])], flowgrad.float32)
    assert got == [np.ndarray]
    np.testing.assert_array_equal(y.numpy(), [2.0, 4.0])
    one = tf.py_func(lambda a: [a], [flowgrad.constant(1)], [flowgrad.int32])
    assert one.numpy() == 1               # a single result is unwrapped, as in TF
    pair = tf.py_func(lambda a: (a, 1.5), [flowgrad.constant(1)], [flowgrad.int32] * 2)
    assert [t.dtype for t in pair] == [flowgrad.int32, flowgrad.float32]
    assert tf.py_func(lambda a: None, [1.0], []) is None
