"""tf.function: tracing per signature, captured variables, compiled plans, tapes through calls."""
import numpy as np
import pytest

import flowgrad as tf
import flowgrad.compat.v1 as tf1
from flowgrad.framework.context import state
from flowgrad.framework.tensor import EagerTensor
from flowgrad.runtime.function import FuncGraph


@pytest.fixture(autouse=True)
def eager_mode():
    """Eager mode (TF2 behaviour) for each test; conftest starts every test in graph mode."""
    tf1.enable_v2_behavior()
    yield
    state.tapes.clear()


def test_traces_once_per_signature():
    traces = []

    @tf.function
    def f(x, scale):
        traces.append(1)                     # a Python side effect: runs only while tracing
        return x * scale

    a = tf.constant([1.0, 2.0])
    assert f(a, 2.0).numpy().tolist() == [2.0, 4.0]
    assert f(tf.constant([3.0, 4.0]), 2.0).numpy().tolist() == [6.0, 8.0]
    assert len(traces) == 1 and f.experimental_get_tracing_count() == 1
    f(a, 3.0)                                 # another Python value
    f(tf.constant([1.0, 2.0, 3.0]), 2.0)      # another shape
    f(tf.constant([1.0, 2.0], tf.float64), 2.0)  # another dtype
    assert f.experimental_get_tracing_count() == 4 and len(traces) == 4
    f(a, 3.0)
    assert f.experimental_get_tracing_count() == 4


def test_results_are_eager_tensors_in_the_returned_structure():
    @tf.function
    def f(x):
        return {"double": x * 2.0, "parts": [x + 1.0, (x - 1.0, None)], "n": 3}

    out = f(tf.constant(1.5))
    assert isinstance(out["double"], EagerTensor) and out["double"].numpy() == 3.0
    assert out["parts"][0].numpy() == 2.5 and out["parts"][1][0].numpy() == 0.5
    assert out["parts"][1][1] is None and out["n"] == 3
    assert out["double"].dtype == tf.float32 and out["double"].shape == ()


def test_numpy_arguments_are_traced_as_tensors():
    @tf.function
    def f(x):
        return tf.reduce_sum(x)

    assert f(np.ones((2, 3), np.float32)).numpy() == 6.0
    assert f(np.full((2, 3), 2.0, np.float32)).numpy() == 12.0
    assert f.experimental_get_tracing_count() == 1


def test_captured_variable_reads_and_writes_keep_program_order():
    v = tf.Variable(1.0)

    @tf.function
    def f(x):
        before = v.read_value()
        v.assign_add(x)
        after = v.read_value()
        v.assign(after * 10.0)
        return before, after, v.read_value()

    before, after, last = f(tf.constant(2.0))
    assert (before.numpy(), after.numpy(), last.numpy()) == (1.0, 3.0, 30.0)
    assert v.numpy() == 30.0
    f(tf.constant(1.0))
    assert v.numpy() == 310.0
    assert isinstance(f.get_concrete_function(tf.constant(1.0)).graph, FuncGraph)


def test_writes_run_even_when_no_output_depends_on_them():
    v = tf.Variable(0)

    @tf.function
    def bump():
        v.assign_add(1)
        return tf.constant(0)

    for _ in range(3):
        bump()
    assert v.numpy() == 3


def test_closures_over_eager_tensors_are_constants():
    w = tf.constant([[1.0, 2.0]])

    @tf.function
    def f(x):
        return tf.matmul(x, w)

    assert f(tf.constant([[3.0], [4.0]])).numpy().tolist() == [[3.0, 6.0], [4.0, 8.0]]


def test_input_signature_traces_once_for_all_batch_sizes():
    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
    def f(x):
        return tf.reduce_sum(x, axis=1)

    assert f(tf.constant([[1.0, 2.0]])).numpy().tolist() == [3.0]
    assert f(np.ones((3, 2), np.float32)).numpy().tolist() == [2.0, 2.0, 2.0]
    assert f.experimental_get_tracing_count() == 1
    with pytest.raises(TypeError, match="Binding inputs to tf.function failed"):
        f(tf.constant([1.0, 2.0, 3.0]))
    assert repr(tf.TensorSpec([None, 2])) == "TensorSpec(shape=(None, 2), dtype=tf.float32, " \
                                             "name=None)"


def test_training_step_under_function_matches_eager():
    rng = np.random.RandomState(0)
    x = rng.rand(8, 3).astype(np.float32)
    y = np.eye(2, dtype=np.float32)[rng.randint(0, 2, 8)]

    def make():
        w = tf.Variable(rng.rand(3, 2).astype(np.float32) * 0 + 0.1)
        b = tf.Variable(np.zeros(2, np.float32))
        opt = tf.keras.optimizers.SGD(0.5, momentum=0.9, nesterov=True)

        def step(xb, yb):
            with tf.GradientTape() as tape:
                p = tf.nn.softmax(tf.matmul(xb, w) + b)
                loss = tf.reduce_mean(-tf.reduce_sum(yb * tf.math.log(p), axis=1))
            grads = tape.gradient(loss, [w, b])
            opt.apply_gradients(zip(grads, [w, b]))
            return loss
        return step, w, b, opt

    eager_step, w1, b1, opt1 = make()
    compiled, w2, b2, opt2 = make()
    compiled = tf.function(compiled)
    for _ in range(5):
        l1 = eager_step(x, y)
        l2 = compiled(x, y)
        np.testing.assert_allclose(l1.numpy(), l2.numpy(), rtol=1e-6)
    np.testing.assert_allclose(w1.numpy(), w2.numpy(), rtol=1e-6)
    np.testing.assert_allclose(b1.numpy(), b2.numpy(), rtol=1e-6, atol=1e-7)
    assert opt1.iterations.numpy() == opt2.iterations.numpy() == 5
    assert compiled.experimental_get_tracing_count() == 1


def test_tape_differentiates_through_a_call():
    w = tf.Variable(3.0)

    @tf.function
    def f(x):
        return x * x * w

    x = tf.constant(2.0)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = f(x)
        gx, gw = inner.gradient(y, [x, w])
    assert (y.numpy(), gx.numpy(), gw.numpy()) == (12.0, 12.0, 4.0)
    assert outer.gradient(gx, x).numpy() == 6.0


def test_call_without_watching_tape_uses_the_plan():
    calls = []

    @tf.function
    def f(x):
        calls.append(1)
        return x * 2.0

    c = tf.constant(1.0)
    with tf.GradientTape() as tape:
        f(c)
        f(c)                                   # the tape watches nothing here: the plan runs
    assert len(calls) == 1
    assert tape.gradient(f(c), c) is None


def test_variables_created_on_first_trace_are_eager():
    holder = []

    @tf.function
    def f(x):
        if not holder:
            holder.append(tf.Variable(10.0))
        holder[0].assign_add(x)
        return holder[0].read_value()

    assert f(tf.constant(1.0)).numpy() == 11.0
    assert f(tf.constant(1.0)).numpy() == 12.0
    assert holder[0].numpy() == 12.0 and tf.executing_eagerly()


def test_methods_can_be_functions():
    class Model:
        def __init__(self, k):
            self.k = tf.Variable(k)

        @tf.function
        def __call__(self, x):
            return x * self.k

    m1, m2 = Model(2.0), Model(3.0)
    assert m1(tf.constant(1.0)).numpy() == 2.0 and m2(tf.constant(1.0)).numpy() == 3.0


def test_branching_on_a_tensor_without_autograph_is_an_error():
    @tf.function(autograph=False)
    def f(x):
        return x if x > 0 else -x

    with pytest.raises(TypeError, match="as a Python `bool` is not allowed: AutoGraph is "
                                        "disabled in this function"):
        f(tf.constant(1.0))


def test_runtime_errors_name_the_failing_op():
    @tf.function
    def f(x, i):
        return tf.gather(x, i)

    assert f(tf.constant([1.0, 2.0]), tf.constant([1])).numpy().tolist() == [2.0]
    with pytest.raises(tf.errors.InvalidArgumentError, match="GatherV2"):
        f(tf.constant([1.0, 2.0]), tf.constant([5]))


def test_function_inside_a_graph_is_inlined():
    @tf.function
    def f(x):
        return x + 1.0

    tf1.disable_eager_execution()
    with tf1.Graph().as_default():
        y = f(tf1.constant(1.0))
        assert isinstance(y, tf1.Tensor)
        with tf1.Session() as sess:
            assert sess.run(y) == 2.0


def test_init_scope_leaves_the_trace():
    seen = []

    @tf.function
    def f(x):
        with tf.init_scope():
            seen.append(tf.executing_eagerly())
        seen.append(tf.executing_eagerly())
        return x

    f(tf.constant(1.0))
    assert seen == [True, False]


def test_concrete_function_can_be_called_with_tensors():
    @tf.function
    def f(x, y):
        return x * y

    cf = f.get_concrete_function(tf.constant(1.0), tf.constant(2.0))
    assert cf(3.0, 4.0).numpy() == 12.0
    with pytest.raises(TypeError, match="takes 2 tensor arguments"):
        cf(1.0)


def test_sparse_gradients_come_back_as_indexed_slices():
    v = tf.Variable([[1.0], [2.0], [3.0]])

    @tf.function
    def f():
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(tf.gather(v, [2, 2]))
        return tape.gradient(y, v)

    g = f()
    assert isinstance(g, tf.IndexedSlices)
    np.testing.assert_array_equal(tf.convert_to_tensor(g).numpy(), [[0.0], [0.0], [2.0]])
