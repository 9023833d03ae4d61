"""Keras 3 optimizers (tf.keras.optimizers / tf.optimizers) against NumPy references of
Keras's update formulas, eagerly and under tf.function, and the seed's gradient ascent."""
import warnings

import numpy as np
import pytest

import flowgrad as tf
import flowgrad.compat.v1 as tf1
from flowgrad.framework.context import state

f32 = np.float32


@pytest.fixture(autouse=True)
def eager_mode():
    """Eager mode (TF2 behaviour) for each test; conftest starts every test in graph mode."""
    tf1.enable_v2_behavior()
    yield
    state.tapes.clear()


def test_seed_gradient_ascent_prints_tensorflows_value():
    """../shared/seeds 003's appended answer: apply_gradients minimises -x^2, so x grows."""
    def f(x):
        return -tf.square(x)

    x = tf.Variable(2.0)
    optimizer = tf.optimizers.Adam(learning_rate=0.1)
    for _ in range(100):
        with tf.GradientTape() as tape:
            y = f(x)
        grad = tape.gradient(y, x)
        optimizer.apply_gradients([(grad, x)])
    assert str(x.numpy()) == "14.834508"          # TensorFlow 2.21's output
    assert optimizer.iterations.numpy() == 100


# --------------------------------------------------------------------------------------
# NumPy references of Keras 3's update_step formulas (float32, like TensorFlow)

C = np.array([[0.5, 1.0, 2.0], [1.5, 0.25, 3.0]], f32)
D = np.array([[1.0, -2.0, 0.5], [-1.0, 0.0, 2.0]], f32)
W0 = np.array([[1.0, -0.5, 0.25], [2.0, 1.5, -1.0]], f32)


def _grad(w):
    """The gradient of sum(C * w^2 + D * w)."""
    return f32(2) * C * w + D


def _power(b, t):
    return f32(np.float64(f32(b)) ** t)


def ref_sgd(lr, momentum=0.0, nesterov=False, steps=10):
    w, m = W0.copy(), np.zeros_like(W0)
    lr, mom = f32(lr), f32(momentum)
    for _ in range(steps):
        g = _grad(w)
        if momentum:
            m = m * mom - g * lr
            w = w + (m * mom - g * lr if nesterov else m)
        else:
            w = w - g * lr
    return w


def ref_adam(lr, b1=0.9, b2=0.999, eps=1e-7, amsgrad=False, steps=10):
    w, m, v, vhat = W0.copy(), np.zeros_like(W0), np.zeros_like(W0), np.zeros_like(W0)
    for t in range(1, steps + 1):
        g = _grad(w)
        alpha = f32(lr) * np.sqrt(1 - _power(b2, t)) / (1 - _power(b1, t))
        m = m + (g - m) * f32(1 - b1)
        v = v + (g * g - v) * f32(1 - b2)
        if amsgrad:
            vhat = np.maximum(vhat, v)
        w = w - (m * alpha) / (np.sqrt(vhat if amsgrad else v) + f32(eps))
    return w


def ref_rmsprop(lr, rho=0.9, momentum=0.0, eps=1e-7, centered=False, steps=10):
    w, v, mom, avg = W0.copy(), np.zeros_like(W0), np.zeros_like(W0), np.zeros_like(W0)
    rho, lr = f32(rho), f32(lr)
    for _ in range(steps):
        g = _grad(w)
        v = rho * v + f32(1 - rho) * g * g
        if centered:
            avg = rho * avg + f32(1 - rho) * g
            denominator = v - avg * avg + f32(eps)
        else:
            denominator = v + f32(eps)
        increment = lr * g / np.sqrt(denominator)
        if momentum:
            mom = f32(momentum) * mom + increment
            w = w - mom
        else:
            w = w - increment
    return w


def ref_adagrad(lr, initial=0.1, eps=1e-7, steps=10):
    w, acc = W0.copy(), np.full_like(W0, initial)
    for _ in range(steps):
        g = _grad(w)
        acc = acc + g * g
        w = w - f32(lr) * g / np.sqrt(acc + f32(eps))
    return w


CASES = [
    ("sgd", lambda: tf.keras.optimizers.SGD(0.05), lambda: ref_sgd(0.05)),
    ("sgd_momentum", lambda: tf.keras.optimizers.SGD(0.05, momentum=0.9),
     lambda: ref_sgd(0.05, 0.9)),
    ("sgd_nesterov", lambda: tf.keras.optimizers.SGD(0.05, momentum=0.8, nesterov=True),
     lambda: ref_sgd(0.05, 0.8, True)),
    ("adam", lambda: tf.keras.optimizers.Adam(0.1), lambda: ref_adam(0.1)),
    ("adam_betas", lambda: tf.keras.optimizers.Adam(0.05, beta_1=0.5, beta_2=0.9, epsilon=1e-3),
     lambda: ref_adam(0.05, 0.5, 0.9, 1e-3)),
    ("adam_amsgrad", lambda: tf.keras.optimizers.Adam(0.1, amsgrad=True),
     lambda: ref_adam(0.1, amsgrad=True)),
    ("rmsprop", lambda: tf.keras.optimizers.RMSprop(0.01), lambda: ref_rmsprop(0.01)),
    ("rmsprop_momentum", lambda: tf.keras.optimizers.RMSprop(0.01, rho=0.8, momentum=0.5),
     lambda: ref_rmsprop(0.01, 0.8, 0.5)),
    ("rmsprop_centered", lambda: tf.keras.optimizers.RMSprop(0.01, centered=True, epsilon=1e-4),
     lambda: ref_rmsprop(0.01, eps=1e-4, centered=True)),
    ("adagrad", lambda: tf.keras.optimizers.Adagrad(0.3), lambda: ref_adagrad(0.3)),
    ("adagrad_initial", lambda: tf.keras.optimizers.Adagrad(0.3, initial_accumulator_value=1.0),
     lambda: ref_adagrad(0.3, 1.0)),
]


def _loss(w):
    return tf.reduce_sum(C * tf.square(w) + D * w)


def _train_eagerly(opt, steps=10):
    w = tf.Variable(W0)
    for _ in range(steps):
        with tf.GradientTape() as tape:
            loss = _loss(w)
        opt.apply_gradients(zip([tape.gradient(loss, w)], [w]))
    return w


@pytest.mark.parametrize("name,make,ref", CASES, ids=[c[0] for c in CASES])
def test_ten_steps_match_the_keras_formula(name, make, ref):
    w = _train_eagerly(make())
    assert w.dtype == tf.float32
    np.testing.assert_allclose(w.numpy(), ref(), rtol=2e-6, atol=1e-6)


@pytest.mark.parametrize("name,make,ref", CASES, ids=[c[0] for c in CASES])
def test_ten_steps_under_function_match_eager(name, make, ref):
    opt = make()
    w = tf.Variable(W0)

    @tf.function
    def step():
        with tf.GradientTape() as tape:
            loss = _loss(w)
        opt.apply_gradients(zip([tape.gradient(loss, w)], [w]))
        return loss

    for _ in range(10):
        step()
    assert step.experimental_get_tracing_count() == 1 and opt.iterations.numpy() == 10
    np.testing.assert_allclose(w.numpy(), ref(), rtol=2e-6, atol=1e-6)


def test_minimize_with_a_callable_loss():
    """Keras's RMSprop docstring example. ``minimize`` is the TF1 face's Keras's (Keras 3, the
    TF2 face's tf.keras, has none)."""
    opt = tf1.keras.optimizers.RMSprop(learning_rate=0.1)
    var1 = tf.Variable(10.0)
    opt.minimize(lambda: (var1 ** 2) / 2.0, [var1])
    assert str(var1.numpy()) == "9.683772"


def test_minimize_with_a_tensor_loss_needs_its_tape():
    opt = tf1.keras.optimizers.SGD(0.5)           # the TF1 face's Keras: Keras 3 has no minimize
    v = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        loss = v * v
    with pytest.raises(ValueError, match="`tape` is required when a `Tensor` loss is passed"):
        opt.minimize(loss, [v])
    opt.minimize(loss, [v], tape=tape)
    assert v.numpy() == 0.0
    opt.minimize(lambda: v * 3.0, lambda: [v])                 # var_list as a callable
    assert v.numpy() == -1.5


def test_sparse_gradients_are_applied_as_their_dense_equivalent():
    emb = tf.Variable(np.arange(6, dtype=f32).reshape(3, 2))
    opt = tf.keras.optimizers.SGD(0.1)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.gather(emb, [0, 2, 0]))
    g = tape.gradient(loss, emb)
    assert isinstance(g, tf.IndexedSlices)
    opt.apply_gradients([(g, emb)])
    np.testing.assert_allclose(emb.numpy(), [[-0.2, 0.8], [2.0, 3.0], [3.9, 4.9]], rtol=1e-6)


def test_none_gradients_are_skipped_with_a_warning():
    a, b = tf.Variable(1.0, name="a"), tf.Variable(1.0, name="b")
    opt = tf.keras.optimizers.SGD(0.5)
    with pytest.warns(UserWarning, match=r"Gradients do not exist for variables \['b:0'\]"):
        opt.apply_gradients([(tf.constant(1.0), a), (None, b)])
    assert (a.numpy(), b.numpy()) == (0.5, 1.0)
    with pytest.raises(ValueError, match="No gradients provided for any variable"):
        opt.apply_gradients([(None, a), (None, b)])


def test_apply_gradients_returns_iterations_and_knows_its_variables():
    a, b = tf.Variable([1.0, 2.0]), tf.Variable(3.0)
    opt = tf.keras.optimizers.Adam(0.1)
    it = opt.apply_gradients([(tf.constant([1.0, 1.0]), a)])
    assert it is opt.iterations and it.numpy() == 1 and it.dtype == tf.int64
    assert [v.name for v in opt.variables] == ["iteration", "learning_rate",   # TF 2.21's
                                               "Variable_0_momentum", "Variable_0_velocity"]
    assert not any(v.trainable for v in opt.variables)
    with pytest.raises(ValueError, match="Unknown variable"):
        opt.apply_gradients([(tf.constant(1.0), b)])


def test_gradient_of_the_wrong_shape_is_an_error():
    v = tf.Variable([1.0, 2.0])
    with pytest.raises(tf.errors.InvalidArgumentError,       # TensorFlow 2.21's kernel error
                       match=r"Cannot update variable .*with shape \[2\] using a Tensor with "
                             r"shape \[3, ?2\], shapes must be equal"):
        tf.keras.optimizers.SGD(0.1).apply_gradients([(tf.ones([3, 2]), v)])
    assert v.numpy().tolist() == [1.0, 2.0]


def test_learning_rate_forms():
    with pytest.raises(ValueError, match="Argument `learning_rate` should be float"):
        tf.keras.optimizers.SGD(1)
    v = tf.Variable(1.0)
    rate = [0.5]
    opt = tf.keras.optimizers.SGD(learning_rate=lambda: rate[0])
    opt.apply_gradients([(tf.constant(1.0), v)])
    rate[0] = 0.25
    opt.apply_gradients([(tf.constant(1.0), v)])
    assert v.numpy() == 0.25
    opt2 = tf.keras.optimizers.SGD(0.5)
    opt2.learning_rate = 0.1
    assert opt2.learning_rate.numpy() == np.float32(0.1)


def test_gradient_clipping():
    g = tf.constant([3.0, 4.0])
    for kwargs, expected in [({"clipnorm": 1.0}, [0.4, 0.2]),
                             ({"clipvalue": 3.5}, [-2.0, -2.5]),
                             ({"global_clipnorm": 2.5}, [-0.5, -1.0])]:
        v = tf.Variable([1.0, 1.0])
        tf.keras.optimizers.SGD(1.0, **kwargs).apply_gradients([(g, v)])
        np.testing.assert_allclose(v.numpy(), expected, rtol=1e-6, err_msg=str(kwargs))
    with pytest.raises(ValueError, match="Only one of `clipnorm`, `clipvalue` and "
                                         "`global_clipnorm` can be set"):
        tf.keras.optimizers.SGD(0.1, clipnorm=1.0, clipvalue=1.0)


def test_weight_decay_is_applied_before_the_update():
    v, u = tf.Variable(2.0, name="kernel"), tf.Variable(2.0, name="bias")
    opt = tf.keras.optimizers.SGD(0.5, weight_decay=0.1)
    opt.exclude_from_weight_decay(var_names=["bias"])
    opt.apply_gradients([(tf.constant(1.0), v), (tf.constant(1.0), u)])
    assert v.numpy() == np.float32(2.0 - 2.0 * 0.1 * 0.5 - 0.5) and u.numpy() == 1.5


def test_constructor_errors():
    with pytest.raises(ValueError, match=r"Argument\(s\) not recognized"):
        tf.keras.optimizers.Adam(0.1, bogus=1)
    with pytest.raises(ValueError, match="`momentum` must be a float between"):
        tf.keras.optimizers.SGD(0.1, momentum=1.5)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        tf.keras.optimizers.SGD(0.1, decay=0.1)
    assert "no longer supported" in str(caught[0].message)


def test_graph_variables_and_graph_mode_are_rejected():
    """The TF1 face's Keras optimizers refuse graph variables (Keras 3's need TF2)."""
    opt = tf1.keras.optimizers.SGD(0.1)
    tf1.disable_eager_execution()
    with tf1.Graph().as_default():
        v = tf1.Variable(1.0)
        with pytest.raises(TypeError, match="Keras optimizers update eager variables"):
            opt.apply_gradients([(tf1.constant(1.0), v)])
        with pytest.raises(RuntimeError, match="eager variable can only be created in eager"):
            tf1.keras.optimizers.SGD(0.1)


def test_optimizer_namespaces():
    assert tf.optimizers is tf.keras.optimizers
    assert isinstance(tf.keras.optimizers.get("adam"), tf.keras.optimizers.Adam)
    opt = tf.keras.optimizers.SGD()
    assert tf.keras.optimizers.get(opt) is opt and opt.name.startswith("sgd")  # sgd_1 in TF
    assert tf.keras.optimizers.Adagrad().name.startswith("adagrad")
    with pytest.raises(ValueError, match="Could not interpret optimizer identifier"):
        tf.keras.optimizers.get("nope")
