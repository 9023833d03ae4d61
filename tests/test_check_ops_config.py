"""tf.debugging.assert_* / tf.Assert (static, run-time and eager failures) and tf.config."""
import numpy as np
import pytest

import flowgrad
import flowgrad.compat.v1 as tf

# (function, x, a y that holds, a y that fails, an x that fails against the good y)
ASSERTS = [("assert_equal", [1, 2], [1, 2], [1, 3], [1, 3]),
           ("assert_none_equal", [1, 2], [2, 1], [1, 0], [2, 0]),
           ("assert_less", [1, 2], [2, 3], [2, 1], [5, 5]),
           ("assert_less_equal", [1, 2], [1, 3], [2, 1], [5, 5]),
           ("assert_greater", [3, 2], [2, 1], [3, 3], [0, 0]),
           ("assert_greater_equal", [3, 2], [3, 1], [1, 3], [0, 0])]


@pytest.mark.parametrize("fn,x,good,bad,bad_x", ASSERTS, ids=[a[0] for a in ASSERTS])
def test_binary_asserts_static_runtime_and_eager(fn, x, good, bad, bad_x):
    f = getattr(tf.debugging, fn)
    assert getattr(tf, fn) is getattr(flowgrad.ops.check_ops, fn + "_v1")
    xf = np.array(x, np.float32)
    f(xf, np.array(good, np.float32))                     # static pass: no error
    with pytest.raises(tf.errors.InvalidArgumentError, match="did not hold element-wise"):
        f(xf, np.array(bad, np.float32), message="static")
    p = tf.placeholder(tf.float32, [2])
    check = f(p, np.array(good, np.float32), message="my check")
    with tf.control_dependencies([check]):
        out = tf.identity(p)
    sess = tf.Session()
    np.testing.assert_array_equal(sess.run(out, {p: xf}), xf)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"\[my check\] \[Condition x"):
        sess.run(out, {p: np.array(bad_x, np.float32)})
    tf.enable_v2_behavior()
    assert getattr(flowgrad.debugging, fn)(xf, np.array(good, np.float32)) is None
    with pytest.raises(tf.errors.InvalidArgumentError, match="did not hold"):
        getattr(flowgrad.debugging, fn)(flowgrad.constant(xf), np.array(bad, np.float32))


@pytest.mark.parametrize("fn,good,bad", [("assert_positive", [1.0], [0.0]),
                                          ("assert_negative", [-1.0], [0.0]),
                                          ("assert_non_negative", [0.0], [-1.0]),
                                          ("assert_non_positive", [0.0], [1.0])])
def test_unary_asserts(fn, good, bad):
    f = getattr(tf.debugging, fn)
    f(np.array(good))
    with pytest.raises(tf.errors.InvalidArgumentError, match="0 did not hold"):
        f(np.array(bad))
    p = tf.placeholder(tf.float64, [1])
    with pytest.raises(tf.errors.InvalidArgumentError, match="0 did not hold"):
        tf.Session().run(f(p), {p: bad})


def test_rank_type_shapes_and_assert_op():
    p = tf.placeholder(tf.float32, [None, 3])
    with pytest.raises(ValueError, match="must have rank 1.  Received rank 2"):
        tf.debugging.assert_rank(p, 1)
    tf.debugging.assert_rank(p, 2)
    q = tf.placeholder(tf.float32)
    sess = tf.Session()
    with pytest.raises(tf.errors.InvalidArgumentError, match="must have rank"):
        sess.run(tf.debugging.assert_rank(q, 2), {q: np.ones(3)})
    sess.run(tf.debugging.assert_rank_at_least(q, 1), {q: np.ones(3)})
    with pytest.raises(TypeError, match="must be of type tf.int32"):
        tf.debugging.assert_type(p, tf.int32)
    x, y = tf.placeholder(tf.float32, [None, 3]), tf.placeholder(tf.float32, [None, 2])
    with pytest.raises(ValueError, match="dimension 1 of tensor .* must be 4"):
        tf.debugging.assert_shapes([(x, ("N", 4))])
    check = tf.debugging.assert_shapes([(x, ("N", 3)), (y, ("N", 2))])
    sess.run(check, {x: np.ones((5, 3)), y: np.ones((5, 2))})
    with pytest.raises(tf.errors.InvalidArgumentError, match="assert_shapes failed"):
        sess.run(check, {x: np.ones((5, 3)), y: np.ones((4, 2))})
    a = tf.Assert(tf.reduce_all(p > 0), ["p must be positive:", p], summarize=2)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"assertion failed: \[p must be positive:\] \[\[-1 2...\]...\]"):
        sess.run(a, {p: [[-1.0, 2.0, 3.0]]})
    sess.run(a, {p: [[1.0, 2.0, 3.0]]})


def test_config():
    cpus = tf.config.list_physical_devices("CPU")
    assert [d.device_type for d in cpus] == ["CPU"] and tf.config.list_physical_devices("GPU") == []
    assert flowgrad.config.experimental.list_physical_devices() == cpus
    flowgrad.config.set_visible_devices(cpus, "CPU")
    flowgrad.config.set_visible_devices([], "GPU")
    for gpu in flowgrad.config.list_physical_devices("GPU"):
        flowgrad.config.experimental.set_memory_growth(gpu, True)
    assert flowgrad.config.list_logical_devices("CPU")[0].name == "/device:CPU:0"
    with pytest.raises(ValueError, match="Unrecognized device"):
        flowgrad.config.set_visible_devices(["/physical_device:GPU:0"])
    flowgrad.config.threading.set_intra_op_parallelism_threads(2)
    assert flowgrad.config.threading.get_intra_op_parallelism_threads() == 2
    flowgrad.config.set_visible_devices(cpus)


def test_an_unused_assertion_in_a_tf_function_runs_on_every_call():
    # TensorFlow's automatic control dependencies run every assertion the trace made.
    tf.enable_v2_behavior()
    try:
        @flowgrad.function
        def f(x):
            flowgrad.debugging.assert_equal(x, 1)
            return x * 2

        assert f(flowgrad.constant(1)).numpy() == 2
        with pytest.raises(flowgrad.errors.InvalidArgumentError, match="did not hold"):
            f(flowgrad.constant(2))
    finally:
        tf.disable_v2_behavior()
