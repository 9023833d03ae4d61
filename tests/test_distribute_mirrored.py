"""tf.distribute's shape: the default strategy, MirroredStrategy with 1, 2 and 4 replicas
(equal to one process on the combined batch), ReduceOp, InputContext, distributed datasets,
ON_READ (non-trainable) variables averaged, and the errors."""
from __future__ import annotations

import numpy as np
import pytest

import flowgrad as tf

from flowgrad.distribute import distribute_lib
from flowgrad.distribute.distribute_lib import PerReplica
from flowgrad.framework.context import state

# flowgrad's own Keras (the TF1 face's tf.compat.v1.keras) in most tests; the Keras 3 tests
# use tf.keras (the real Keras 3)
keras = tf.compat.v1.keras

RNG = np.random.default_rng(0)
X = RNG.normal(size=(16, 5))
Y = RNG.normal(size=(16, 1))


@pytest.fixture(autouse=True)
def eager():
    """TF2 programs: eager mode (conftest starts every test in graph mode)."""
    saved = state.eager
    state.eager = True
    yield
    state.eager = saved


def test_default_strategy_and_contexts():
    assert not tf.distribute.has_strategy()
    default = tf.distribute.get_strategy()
    assert default.num_replicas_in_sync == 1
    ctx = tf.distribute.get_replica_context()
    assert ctx is not None and ctx.num_replicas_in_sync == 1
    assert not tf.distribute.in_cross_replica_context()
    s = tf.distribute.MirroredStrategy()
    assert s.num_replicas_in_sync == 1
    with s.scope():
        assert tf.distribute.has_strategy() and tf.distribute.get_strategy() is s
        assert tf.distribute.in_cross_replica_context()
        assert tf.distribute.get_replica_context() is None

        def fn():
            c = tf.distribute.get_replica_context()
            return c.replica_id_in_sync_group, c.num_replicas_in_sync
        rid, n = s.run(fn)
        assert int(rid) == 0 and n == 1
    assert not tf.distribute.has_strategy()


def test_mixing_strategies_is_refused():
    a, b = tf.distribute.MirroredStrategy(), tf.distribute.MirroredStrategy()
    with a.scope():
        with pytest.raises(RuntimeError, match="Mixing different"):
            with b.scope():
                pass


def test_bad_devices():
    with pytest.raises(ValueError, match="duplicates"):
        tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:0"])



def test_empty_device_list_is_all_local_devices():
    """TensorFlow's ``devices or all_local_devices()``: ``MirroredStrategy(gpus)`` with
    ``gpus = list_logical_devices('GPU')`` empty runs on the CPU (the TF guide's pattern;
    tests/data/programs/program_ops.json records TensorFlow's replica count)."""
    import json
    import os
    ref = json.load(open(os.path.join(os.path.dirname(__file__), "data", "programs",
                                      "program_ops.json")))
    s = tf.distribute.MirroredStrategy(tf.config.list_logical_devices("GPU"))
    assert s.num_replicas_in_sync == ref["mirrored_empty_replicas"]


def test_run_gives_per_replica_results_and_reduce():
    s = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1", "/cpu:2"])

    def fn(x):
        c = tf.distribute.get_replica_context()
        return x * tf.cast(c.replica_id_in_sync_group + 1, tf.float64)
    x = PerReplica([tf.constant([1.0, 2.0], tf.float64)] * 3)
    out = s.run(fn, args=(x,))
    assert isinstance(out, PerReplica)
    locals_ = [v.numpy() for v in s.experimental_local_results(out)]
    np.testing.assert_allclose(locals_, [[1, 2], [2, 4], [3, 6]])
    np.testing.assert_allclose(s.reduce(tf.distribute.ReduceOp.SUM, out, axis=None), [6, 12])
    np.testing.assert_allclose(s.reduce("MEAN", out, axis=None), [2, 4])
    np.testing.assert_allclose(s.reduce(tf.distribute.ReduceOp.SUM, out, axis=0), 18.0)
    np.testing.assert_allclose(s.reduce(tf.distribute.ReduceOp.MEAN, out, axis=0), 3.0)
    with pytest.raises(ValueError, match="non-DistributedValues"):
        s.reduce(tf.distribute.ReduceOp.SUM, tf.constant(1.0), axis=None)
    np.testing.assert_allclose(s.reduce(tf.distribute.ReduceOp.MEAN, tf.constant(1.0), None),
                               1.0)


def test_all_reduce_and_merge_call():
    s = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])

    def fn():
        c = tf.distribute.get_replica_context()
        v = tf.cast(c.replica_id_in_sync_group, tf.float32) + 1.0
        total = c.all_reduce(tf.distribute.ReduceOp.SUM, v)
        mean = c.all_reduce("MEAN", {"a": v})
        seen = c.merge_call(lambda strategy, pr: len(strategy.experimental_local_results(pr)),
                            args=(v,))
        return total, mean["a"], seen
    total, mean, seen = s.run(fn)
    assert [float(t) for t in total.values] == [3.0, 3.0]
    assert [float(t) for t in mean.values] == [1.5, 1.5]
    assert seen == 2          # the same object on every replica is not wrapped (TF's regroup)


def test_replica_error_reaches_caller_and_uneven_merge_is_an_error():
    s = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])

    def bad():
        if int(tf.distribute.get_replica_context().replica_id_in_sync_group) == 1:
            raise KeyError("replica one failed")
        return tf.distribute.get_replica_context().all_reduce("SUM", tf.constant(1.0))
    with pytest.raises(KeyError, match="replica one failed"):
        s.run(bad)

    def uneven():
        c = tf.distribute.get_replica_context()
        if int(c.replica_id_in_sync_group) == 0:
            c.all_reduce("SUM", tf.constant(1.0))
    with pytest.raises(RuntimeError, match="same number of times"):
        s.run(uneven)
    assert s.run(lambda: tf.constant(2.0)).values[1].numpy() == 2.0   # usable again


def test_input_context_and_datasets():
    ctx = tf.distribute.InputContext(num_input_pipelines=1, input_pipeline_id=0,
                                     num_replicas_in_sync=4)
    assert ctx.get_per_replica_batch_size(64) == 16
    with pytest.raises(ValueError, match="not divisible"):
        ctx.get_per_replica_batch_size(10)
    s = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    ds = tf.data.Dataset.from_tensor_slices((X, Y)).batch(8)
    batches = list(s.experimental_distribute_dataset(ds))
    assert len(batches) == 2
    x0, y0 = batches[0]
    np.testing.assert_array_equal(x0.values[0].numpy(), X[:4])
    np.testing.assert_array_equal(x0.values[1].numpy(), X[4:8])
    seen = []

    def dataset_fn(input_context):
        seen.append(input_context.num_replicas_in_sync)
        bs = input_context.get_per_replica_batch_size(8)
        return tf.data.Dataset.from_tensor_slices(X).batch(bs)
    elements = list(s.distribute_datasets_from_function(dataset_fn))
    assert seen == [2] and len(elements) == 2
    np.testing.assert_array_equal(elements[1].values[1].numpy(), X[12:16])


def _model(batch_norm: bool) -> keras.Model:
    layers = [keras.layers.Dense(4, activation="tanh",
                                    kernel_initializer=keras.initializers.Constant(
                                        np.linspace(-1, 1, 20).reshape(5, 4)))]
    if batch_norm:
        layers.append(keras.layers.BatchNormalization(momentum=0.9))
    layers.append(keras.layers.Dense(1, kernel_initializer="ones"))
    model = keras.Sequential(layers)
    model.build((None, 5))
    return model


def _train(strategy, optimizer_cls, batch_norm, steps=3):
    """A custom training loop under ``strategy``, as TensorFlow's tutorials write it."""
    with strategy.scope():
        model = _model(batch_norm)
        opt = optimizer_cls(0.05)
    global_batch = 16

    def step(x, y):
        with tf.GradientTape() as tape:
            pred = model(x, training=True)
            loss = tf.reduce_sum((pred - y) ** 2) / global_batch
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        return loss
    ds = tf.data.Dataset.from_tensor_slices((X.astype("float32"), Y.astype("float32")))
    ds = ds.batch(global_batch)
    losses = []
    for _ in range(steps):
        for x, y in strategy.experimental_distribute_dataset(ds):
            out = strategy.run(step, args=(x, y))
            losses.append(float(strategy.reduce("SUM", out, axis=None)))
    return [v.numpy() for v in model.variables], losses


def _reference_split(k, optimizer_cls, batch_norm, steps=3):
    """One process, no strategy: the batch split in k parts, each part's gradient (of its
    summed loss over the global batch) added, moving statistics averaged over the parts."""
    model = _model(batch_norm)
    opt = optimizer_cls(0.05)
    xs, ys = np.split(X.astype("float32"), k), np.split(Y.astype("float32"), k)
    non_trainable = [v for v in model.variables if not v.trainable]
    losses = []
    for _ in range(steps):
        start = [v.numpy() for v in non_trainable]
        total, grads_sum, stats = 0.0, None, []
        for x, y in zip(xs, ys):
            for v, s in zip(non_trainable, start):
                v.assign(s)
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum((model(x, training=True) - y) ** 2) / 16
            g = tape.gradient(loss, model.trainable_variables)
            grads_sum = g if grads_sum is None else [a + b for a, b in zip(grads_sum, g)]
            total += float(loss)
            stats.append([v.numpy() for v in non_trainable])
        for v, vals in zip(non_trainable, zip(*stats) if stats[0] else []):
            v.assign(np.mean(vals, axis=0))
        opt.apply_gradients(zip(grads_sum, model.trainable_variables))
        losses.append(total)
    return [v.numpy() for v in model.variables], losses


@pytest.mark.parametrize("k", [1, 2, 4])
@pytest.mark.parametrize("optimizer_cls", [keras.optimizers.SGD, keras.optimizers.Adam])
def test_k_replicas_equal_one_process_on_the_combined_batch(k, optimizer_cls):
    strategy = tf.distribute.MirroredStrategy(["/cpu:%d" % i for i in range(k)])
    got, got_losses = _train(strategy, optimizer_cls, batch_norm=False)
    want, want_losses = _reference_split(1, optimizer_cls, batch_norm=False)
    for a, b in zip(got, want):
        np.testing.assert_allclose(a, b, rtol=2e-5, atol=2e-6)
    np.testing.assert_allclose(got_losses, want_losses, rtol=2e-5)


@pytest.mark.parametrize("k", [2, 4])
@pytest.mark.parametrize("optimizer_cls", [keras.optimizers.SGD, keras.optimizers.Adam])
def test_batch_norm_statistics_per_replica_and_averaged(k, optimizer_cls):
    """Each replica normalises its own part (as TensorFlow's non-synchronised
    BatchNormalization); the moving statistics are the replicas' mean (ON_READ, MEAN)."""
    strategy = tf.distribute.MirroredStrategy(["/cpu:%d" % i for i in range(k)])
    got, got_losses = _train(strategy, optimizer_cls, batch_norm=True)
    want, want_losses = _reference_split(k, optimizer_cls, batch_norm=True)
    for a, b in zip(got, want):
        np.testing.assert_allclose(a, b, rtol=2e-5, atol=2e-6)
    np.testing.assert_allclose(got_losses, want_losses, rtol=2e-5)
    # the moving mean moved, and is not the last replica's alone
    moving_mean = got[4]
    assert np.abs(moving_mean).max() > 1e-3


def test_maybe_merge_call_runs_once():
    calls = []
    s = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])

    def fn():
        return distribute_lib.maybe_merge_call(
            lambda strategy, v: calls.append(len(strategy.experimental_local_results(v))),
            tf.distribute.get_strategy(), tf.constant(1.0))
    s.run(fn)
    assert calls == [2]
    distribute_lib.maybe_merge_call(lambda strategy: calls.append(strategy), s)
    assert calls[-1] is s


def test_keras_fit_under_the_scope_equals_fit_without_a_strategy():
    """``fit`` of a model made and compiled under ``scope()`` trains the global batch (the
    replicas' combined batch) in one computation: the same weights and history as
    without a strategy."""
    x, y = X.astype("float32"), Y.astype("float32")

    def make():
        model = _model(batch_norm=False)
        model.compile(optimizer=keras.optimizers.Adam(0.01), loss="mse", metrics=["mae"])
        return model
    plain = make()
    want = plain.fit(x, y, batch_size=8, epochs=2, verbose=0, shuffle=False).history
    strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    with strategy.scope():
        model = make()
    got = model.fit(x, y, batch_size=8, epochs=2, verbose=0, shuffle=False).history
    assert got.keys() == want.keys()
    for key in want:
        np.testing.assert_allclose(got[key], want[key], rtol=1e-6)
    for a, b in zip(model.weights, plain.weights):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-6)


def _keras3_fit_program(k):
    """tools/tf_reference/mirrored_fit.py's program, on flowgrad: the real Keras 3."""
    k3 = tf.keras
    rng = np.random.default_rng(0)
    x = rng.normal(size=(32, 5)).astype("float32")
    y = rng.normal(size=(32, 1)).astype("float32")
    strategy = tf.distribute.MirroredStrategy(["/cpu:%d" % i for i in range(k)])
    with strategy.scope():
        k3.utils.set_random_seed(1)
        model = k3.Sequential([k3.layers.Input((5,)), k3.layers.Dense(4, activation="relu"),
                               k3.layers.Dense(1)])
        model.compile(optimizer=k3.optimizers.Adam(0.01), loss="mse", metrics=["mae"])
    history = model.fit(x, y, batch_size=16, epochs=2, verbose=0, shuffle=False).history
    return {"history": history, "weights": [w.numpy() for w in model.weights],
            "iterations": int(model.optimizer.iterations.numpy()),
            "evaluate": model.evaluate(x, y, batch_size=8, verbose=0),
            "predict": model.predict(x[:6], batch_size=4, verbose=0)}


@pytest.mark.parametrize("k", [1, 2, 4])
def test_keras3_fit_under_the_scope_as_tensorflow(k):
    """Keras 3's TensorFlow trainer under MirroredStrategy (strategy.run inside its
    tf.function, PerReplica batches, the optimizer's all-reduce, the metrics' ON_READ SUM
    variables, ``iterations`` ONLY_FIRST_REPLICA): TensorFlow 2.21's history, weights,
    evaluate and predict (recorded with 1 and 2 replicas; 4 replicas give the same, as
    one process on the combined batch)."""
    import json
    import os
    tf.compat.v1.enable_v2_behavior()  # a TF2 program (conftest starts tests in TF1 mode)
    path = os.path.join(os.path.dirname(__file__), "data", "distribute",
                        "mirrored_fit_tf_2_21.json")
    with open(path) as f:
        want = json.load(f)["replicas_%d" % min(k, 2)]
    got = _keras3_fit_program(k)
    assert got["iterations"] == want["iterations"] == 4
    assert got["history"].keys() == want["history"].keys()
    for key in want["history"]:
        np.testing.assert_allclose(got["history"][key], want["history"][key], rtol=1e-6)
    for a, b in zip(got["weights"], want["weights"]):
        np.testing.assert_allclose(a, np.asarray(b, np.float32), rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(got["evaluate"], want["evaluate"], rtol=1e-6)
    np.testing.assert_allclose(got["predict"], want["predict"], rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("traced", [False, True])
def test_keras3_custom_loop_two_replicas_equal_one(traced):
    """The tutorials' custom loop with Keras 3's model, optimizer and metric, the step
    eager or a tf.function taking the PerReplica batch and returning PerReplica losses:
    2 replicas equal 1 on the combined batch; ``iterations`` counts steps once; the Mean
    metric of the per-replica losses (each scaled by the global batch) is half the
    global loss, as TensorFlow's ON_READ SUM total and count give."""
    k3 = tf.keras
    x, y = X.astype("float32"), Y.astype("float32")

    def run(k):
        strategy = tf.distribute.MirroredStrategy(["/cpu:%d" % i for i in range(k)])
        with strategy.scope():
            k3.utils.set_random_seed(1)
            model = k3.Sequential([k3.layers.Input((5,)), k3.layers.Dense(4, activation="relu"),
                                   k3.layers.Dense(1)])
            opt = k3.optimizers.Adam(0.01)
            mean = k3.metrics.Mean()

        def step(xb, yb):
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum((model(xb) - yb) ** 2) / 16
            grads = tape.gradient(loss, model.trainable_variables)
            opt.apply_gradients(zip(grads, model.trainable_variables))
            mean.update_state(loss)
            return loss

        def dstep(xb, yb):
            return strategy.run(step, args=(xb, yb))
        if traced:
            dstep = tf.function(dstep)
        ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(16).repeat(3)
        losses = [float(strategy.reduce("SUM", dstep(xb, yb), axis=None))
                  for xb, yb in strategy.experimental_distribute_dataset(ds)]
        return (losses, [w.numpy() for w in model.weights], int(opt.iterations.numpy()),
                float(mean.result()))
    one, two = run(1), run(2)
    np.testing.assert_allclose(two[0], one[0], rtol=1e-6)
    for a, b in zip(two[1], one[1]):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-7)
    assert two[2] == one[2] == 3
    assert two[3] == pytest.approx(one[3] / 2, rel=1e-6)
