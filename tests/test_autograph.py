"""AutoGraph: Python control flow on tensors inside tf.function becomes cond/while_loop."""
import numpy as np
import pytest

import flowgrad as tf
import flowgrad.compat.v1 as tf1
from flowgrad.framework import errors
from flowgrad.framework.context import state


@pytest.fixture(autouse=True)
def eager_mode():
    """Eager mode (TF2 behaviour); conftest starts every test in graph mode."""
    tf1.enable_v2_behavior()
    yield
    state.tapes.clear()


def _op_types(fn, *args):
    return {op.type for op in fn.get_concrete_function(*args).graph.get_operations()}


def test_if_elif_else_on_tensors():
    @tf.function
    def f(x):
        if x > 2.0:
            y = x * 10.0
        elif x > 0.0:
            y = x - 1.0
        else:
            y = -x
        return y

    assert f(tf.constant(3.0)).numpy() == 30.0
    assert f(tf.constant(1.5)).numpy() == 0.5
    assert f(tf.constant(-4.0)).numpy() == 4.0
    assert f.experimental_get_tracing_count() == 1
    assert "If" in _op_types(f, tf.constant(1.0))


def test_return_inside_if_and_conditional_expression():
    @tf.function
    def f(x):
        if x > 0:
            return x * x
        return -x

    @tf.function
    def g(x):
        return x if x > 0 else -2.0 * x

    assert f(tf.constant(3.0)).numpy() == 9.0 and f(tf.constant(-2.0)).numpy() == 2.0
    assert g(tf.constant(3.0)).numpy() == 3.0 and g(tf.constant(-2.0)).numpy() == 4.0


def test_while_with_break_on_tensor_condition():
    @tf.function
    def f(x):
        i = 0
        while x < 1000.0:
            x = x * 2.0
            i += 1
            if x > 50.0:
                break
        return x, i

    x, i = f(tf.constant(3.0))
    assert x.numpy() == 96.0 and i.numpy() == 5
    assert i.dtype == tf.int32
    assert "While" in _op_types(f, tf.constant(3.0))


def test_for_over_tf_range_accumulates_with_continue():
    @tf.function
    def f(n):
        s = tf.constant(0)
        for i in tf.range(n):
            if i % 3 == 0:
                continue
            s += i
        return s

    assert f(tf.constant(10)).numpy() == sum(i for i in range(10) if i % 3)
    assert f(tf.constant(0)).numpy() == 0


def test_for_over_a_tensor_iterates_its_rows():
    @tf.function
    def f(m):
        total = tf.zeros([2])
        for row in m:
            total = total + row * row
        return total

    m = np.arange(6, dtype=np.float32).reshape(3, 2)
    np.testing.assert_allclose(f(tf.constant(m)).numpy(), (m * m).sum(0))


def test_nested_loops_and_conditions():
    @tf.function
    def f(n):
        acc = tf.constant(0.0)
        for i in tf.range(n):
            j = tf.constant(0)
            while j < i:
                if (i + j) % 2 == 0:
                    acc += 1.0
                j += 1
        return acc

    expected = sum(1 for i in range(6) for j in range(i) if (i + j) % 2 == 0)
    assert f(tf.constant(6)).numpy() == expected


def test_return_inside_a_tensor_loop():
    @tf.function
    def first_above(x, limit):
        for v in x:
            if v > limit:
                return v
        return tf.constant(-1.0)

    x = tf.constant([1.0, 5.0, 7.0])
    assert first_above(x, tf.constant(4.0)).numpy() == 5.0
    assert first_above(x, tf.constant(9.0)).numpy() == -1.0


def test_boolean_operators_on_tensors_are_lazy():
    @tf.function
    def f(x, i):
        # the right operand would fail (index out of range) if it were evaluated
        if i < 3 and tf.gather(x, i) > 0.0:
            return tf.constant(1)
        if not i < 3 or x[0] > 100.0:
            return tf.constant(2)
        return tf.constant(3)

    x = tf.constant([1.0, -1.0, 2.0])
    assert f(x, tf.constant(0)).numpy() == 1
    assert f(x, tf.constant(1)).numpy() == 3
    assert f(x, tf.constant(7)).numpy() == 2


def test_python_conditions_keep_python_semantics():
    calls = []

    @tf.function
    def f(x, training):
        if training:
            calls.append("train")
            x = x * 2.0
        for _ in range(3):
            x = x + 1.0
        return x

    assert f(tf.constant(1.0), True).numpy() == 5.0
    assert f(tf.constant(1.0), False).numpy() == 4.0
    assert calls == ["train"]
    types = _op_types(f, tf.constant(1.0), True)
    assert "If" not in types and "While" not in types


def test_python_loop_switches_to_a_tensor_loop():
    @tf.function
    def f(x):
        n = 0
        while n < 2 or x < 10.0:     # Python for two steps, then a Tensor condition
            x = x + 3.0
            n += 1
        return x

    assert f(tf.constant(0.0)).numpy() == 12.0


def test_called_user_functions_are_converted():
    def clip(v):
        if v > 1.0:
            v = tf.constant(1.0)
        return v

    @tf.function
    def f(x):
        return clip(x) + clip(-x)

    assert f(tf.constant(3.0)).numpy() == -2.0


def test_gradients_through_converted_code():
    w = tf.Variable(2.0)

    @tf.function
    def loss(x):
        y = x
        for _ in tf.range(3):
            if y > 10.0:
                y = y * 0.5
            else:
                y = y * w
        return y

    @tf.function
    def grad(x):
        with tf.GradientTape() as tape:
            y = loss(x)
        return tape.gradient(y, w)

    # 3 -> 6 -> 12 -> 6: y = x w^2 / 2, dy/dw = x w
    assert loss(tf.constant(3.0)).numpy() == 6.0
    assert grad(tf.constant(3.0)).numpy() == pytest.approx(6.0)
    with tf.GradientTape() as tape:
        y = loss(tf.constant(3.0))
    assert tape.gradient(y, w).numpy() == pytest.approx(6.0)


def test_second_order_gradient_through_a_converted_loop():
    @tf.function
    def d2(x):
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = x
                i = 0
                while i < 3:        # Python loop: unrolled
                    y = y * x
                    i += 1
                z = tf.constant(0.0)
                for _ in tf.range(2):   # Tensor loop: z = 2 y = 2 x^4
                    z = z + y
            g = inner.gradient(z, x)
        return g, outer.gradient(g, x)

    g, h = d2(tf.constant(1.5))
    assert g.numpy() == pytest.approx(8 * 1.5 ** 3)
    assert h.numpy() == pytest.approx(24 * 1.5 ** 2)


def test_variable_defined_in_one_branch_only_is_an_error():
    @tf.function
    def f(x):
        if x > 0:
            y = x
        return y

    with pytest.raises(ValueError, match="'y' must also be initialized in the else branch"):
        f(tf.constant(1.0))


def test_variable_first_defined_in_a_tensor_loop():
    @tf.function
    def f(n):
        for i in tf.range(n):
            last = i * 2
        return last

    @tf.function
    def g(n):
        for i in tf.range(n):
            if i > 2:
                last = i
        return last

    assert f(tf.constant(3)).numpy() == 4
    with pytest.raises(ValueError, match="'last' must also be initialized in the else branch"):
        g(tf.constant(3))


def test_loop_variable_changing_dtype_is_an_error():
    @tf.function
    def f(x):
        s = tf.constant(0)
        for _ in tf.range(3):
            s = tf.cast(s, tf.float32) + x
        return s

    with pytest.raises(TypeError, match="'s' has dtype int32 before the loop, but dtype "
                                        "float32 after one iteration"):
        f(tf.constant(1.0))


def test_tensor_break_in_a_python_loop_is_not_supported():
    @tf.function
    def f(x):
        for _ in range(3):
            x = x + 1.0
            if x > 2.0:
                break
        return x

    with pytest.raises(NotImplementedError, match="Did you intend to make it a TF loop"):
        f(tf.constant(0.0))


def test_autograph_false_keeps_the_bool_error():
    @tf.function(autograph=False)
    def f(x):
        if x > 0:
            return x
        return -x

    with pytest.raises(errors.OperatorNotAllowedInGraphError,
                       match="AutoGraph is disabled in this function"):
        f(tf.constant(1.0))


def test_do_not_convert_runs_the_function_as_is():
    @tf.autograph.experimental.do_not_convert
    def raw(x):
        if x > 0:
            return x
        return -x

    @tf.function
    def f(x):
        return raw(x)

    with pytest.raises(TypeError, match="AutoGraph is disabled in this function"):
        f(tf.constant(1.0))


def test_to_graph_converts_a_function():
    def f(x):
        if x > 0:
            x = x * 3.0
        return x

    g = tf.autograph.to_graph(f)
    assert g is not f
    assert "ag__.if_stmt(" in tf.autograph.to_code(f)
    assert g(5) == 15.0                        # Python values: Python semantics
    with tf.Graph().as_default():
        y = g(tf.constant(-2.0))
        assert y.op.type == "If"


def test_for_over_a_dataset_is_a_loop_rerun_on_each_call():
    ds = tf.data.Dataset.from_tensor_slices(np.arange(7, dtype=np.float32)).batch(3)
    seen = []

    @tf.function
    def total(scale):
        s = tf.constant(0.0)
        n = 0
        for batch in ds:
            seen.append("traced")
            s += tf.reduce_sum(batch) * scale
            n += 1
            if s > 100.0:
                break
        return s, n

    s, n = total(tf.constant(2.0))
    assert s.numpy() == 42.0 and n.numpy() == 3
    s, n = total(tf.constant(20.0))           # stops after the batch that passes 100
    assert s.numpy() == 300.0 and n.numpy() == 2
    assert seen == ["traced"]                  # one trace, the loop body traced once
    assert "While" in _op_types(total, tf.constant(1.0))


def test_globals_nested_functions_and_generators():
    calls = []

    @tf.function
    def f(x):
        def steps(n):                  # a nested generator runs as it is
            yield from range(n)

        def scale(v):                  # a nested function is converted too
            if v > 10.0:
                v = v / 10.0
            return v
        total = x
        for k in steps(3):
            total = total + k
        if x > 0:
            calls.append("if")
            total = scale(total * 4.0)
        return total

    assert f(tf.constant(1.0)).numpy() == pytest.approx(1.6)
    assert f(tf.constant(-5.0)).numpy() == -2.0
    assert calls == ["if"]


def test_set_loop_options_shape_invariants_and_maximum_iterations():
    @tf.function
    def grow(n):
        seq = tf.zeros([1])
        for i in tf.range(n):
            tf.autograph.experimental.set_loop_options(
                shape_invariants=[(seq, tf.TensorShape([None]))])
            seq = tf.concat([seq, tf.cast(tf.reshape(i, [1]), tf.float32)], 0)
        return seq

    @tf.function
    def capped(x):
        while x > 0.0:
            tf.autograph.experimental.set_loop_options(maximum_iterations=3)
            x = x - 1.0
        return x

    np.testing.assert_array_equal(grow(tf.constant(3)).numpy(), [0.0, 0.0, 1.0, 2.0])
    assert capped(tf.constant(10.0)).numpy() == 7.0

    @tf.function
    def undeclared(n):
        seq = tf.zeros([1])
        for _ in tf.range(n):
            seq = tf.concat([seq, tf.zeros([1])], 0)
        return seq

    with pytest.raises(ValueError, match=r"'seq' has shape \(1,\) before the loop, but shape "
                                         r"\(2,\) after one iteration"):
        undeclared(tf.constant(3))
    tf.autograph.experimental.set_loop_options(maximum_iterations=2)   # as-is: a no-op


def test_assert_on_a_tensor_becomes_an_assert_op():
    @tf.function
    def safe_log(x):
        assert tf.reduce_all(x > 0.0), "x must be positive"
        assert x.shape.rank == 1                     # a Python condition: checked at trace
        return tf.math.log(x)

    np.testing.assert_allclose(safe_log(tf.constant([1.0, 2.0])).numpy(), np.log([1, 2]))
    with pytest.raises(errors.InvalidArgumentError, match="x must be positive"):
        safe_log(tf.constant([1.0, -2.0]))
    with pytest.raises(AssertionError):
        safe_log(tf.constant([[1.0]]))


def _gated(keras):
    class Gated(keras.Model):
        def __init__(self):
            super().__init__()
            self.dense = keras.layers.Dense(1, kernel_initializer="ones")

        def call(self, x):
            y = self.dense(x)
            if tf.reduce_mean(y) > 0:
                y = y * 2.0
            else:
                y = -y
            return y
    return Gated()


def test_keras_3_model_call_is_not_converted_as_in_tensorflow():
    """Keras 3 (tf.keras) is DoNotConvert for autograph: a Python `if` on a tensor in call()
    under tf.function is TensorFlow 2.21's OperatorNotAllowedInGraphError (checked on it)."""
    model = _gated(tf.keras)
    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError):
        tf.function(lambda x: model(x))(tf.ones([2, 3]))


def test_keras_subclassed_model_call_is_converted_in_tf_function_and_fit():
    """The TF1 face's Keras (flowgrad's own) converts call() in tf.function and fit."""
    model = _gated(tf1.keras)

    @tf.function
    def predict(x):
        return model(x)

    np.testing.assert_allclose(predict(tf.ones([2, 3])).numpy(), [[6.0], [6.0]])
    np.testing.assert_allclose(predict(-tf.ones([2, 3])).numpy(), [[3.0], [3.0]])
    model.compile(optimizer="sgd", loss="mse")
    history = model.fit(np.ones((8, 3), np.float32), np.zeros((8, 1), np.float32), epochs=2,
                        verbose=0)
    assert history.history["loss"][1] < history.history["loss"][0]


def test_range_and_len_of_tensors_in_converted_code():
    @tf.function
    def f(n, v):
        s = tf.constant(0)
        for i in range(n):             # range of a Tensor: tf.range, a While op
            s += i
        return s, len(v)               # len of a known dimension: a Python int

    s, k = f(tf.constant(5), tf.zeros([4, 2]))
    assert s.numpy() == 10 and k == 4
    assert "While" in _op_types(f, tf.constant(5), tf.zeros([4, 2]))


def test_methods_with_private_names_and_annotations():
    class Counter:
        def __init__(self):
            self.__scale = 3.0

        @tf.function
        def __call__(self, x: "tf.Tensor") -> "tf.Tensor":
            y: tf.Tensor = x
            if x > 0:
                y = x * self.__scale
            return y

    assert Counter()(tf.constant(2.0)).numpy() == 6.0


def test_set_verbosity_prints_converted_sources(capsys):
    def shown(x):
        while x > 1.0:
            x = x / 2.0
        return x

    tf.autograph.set_verbosity(3)
    try:
        tf.autograph.to_graph(shown)
    finally:
        tf.autograph.set_verbosity(0)
    out = capsys.readouterr().out
    assert "Converted " in out and "ag__.while_stmt(" in out


def test_enumerate_over_a_dataset_stays_a_dataset_loop():
    ds = tf.data.Dataset.from_tensor_slices(np.array([5.0, 6.0, 7.0], np.float32))

    @tf.function
    def weighted():
        s = tf.constant(0.0)
        for i, v in enumerate(ds):
            s += tf.cast(i, tf.float32) * v
        return s

    assert weighted().numpy() == 6.0 + 14.0
    assert "While" in _op_types(weighted)


def test_nested_function_keeps_its_own_return_after_a_with_block():
    """A step function defined inside a tf.function and handed to strategy.run (not called
    by the converted code) returns its value: the outer function's single-exit rewrite
    leaves a nested def's returns alone (the pattern of TensorFlow's strategy tutorials)."""
    strategy = tf.distribute.get_strategy()
    v = tf.Variable(2.0)

    @tf.function
    def train_step(x):
        def step_fn(x):
            with tf.GradientTape() as tape:
                loss = v * x
            return loss + tape.gradient(loss, v)
        return strategy.run(step_fn, args=(x,))

    assert train_step(tf.constant(3.0)).numpy() == 9.0
