"""flowgrad.distribute on a local Ray instance: sync = big batch (TF1 and TF2 faces),
accumulation, async, killed replicas, checkpoints, and the errors."""
import os
import sys
import threading
import time

import numpy as np
import pytest

import flowgrad as tf2
import flowgrad.compat.v1 as tf
from flowgrad.distribute import cluster, wire
from flowgrad.distribute.model import VariableSpec
from flowgrad.distribute.parameter_server import ParameterServer
from flowgrad.framework.errors import InvalidArgumentError

_DRIVER = []      # filled in this process only; replicas import the module afresh


def _model_fn():
    """Regression with an embedding (sparse gradient) and a dense part."""
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    ids = tf.placeholder(tf.int32, [None], name="ids")
    y = tf.placeholder(tf.float32, [None], name="y")
    emb = tf.Variable(tf.random_normal([5, 2], seed=1), name="emb")
    w = tf.Variable(tf.random_normal([3, 1], seed=2), name="dense/kernel")
    b = tf.Variable(tf.zeros([1]), name="dense/bias")
    pred = tf.reduce_sum(tf.gather(emb, ids), 1) + tf.squeeze(tf.matmul(x, w), 1) + b
    return {"loss": tf.reduce_mean(tf.square(pred - y)), "x": x, "ids": ids, "y": y}


def _adam():
    return tf.train.AdamOptimizer(0.05)


def _momentum():
    return tf.train.MomentumOptimizer(0.05, 0.9)


def _batches(steps, size, seed=0):
    rng = np.random.RandomState(seed)
    return [{"x": rng.randn(size, 3).astype(np.float32), "ids": rng.randint(0, 5, size),
             "y": rng.randn(size).astype(np.float32)} for _ in range(steps)]


def _single_process(batches, optimizer_fn):
    """The reference: minimize on each whole batch in this process."""
    with tf.Graph().as_default():
        t = _model_fn()
        train = optimizer_fn().minimize(t["loss"])
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            losses = []
            for batch in batches:
                loss, _ = sess.run([t["loss"], train], {t[k]: v for k, v in batch.items()})
                losses.append(loss)
            return np.array(losses), {v.op.name: sess.run(v) for v in tf.trainable_variables()}


@pytest.fixture(scope="module")
def ray():
    ray = pytest.importorskip("ray", reason="Ray is not installed (pip install "
                              "flowgrad[distributed]); the distributed tests need it")
    from flowgrad.distribute import cluster
    try:                   # a Ray start that misses Ray's 30 s node deadline is retried
        cluster.connect(None, num_cpus=2, log_to_driver=False,
                        runtime_env={"env_vars": {"PYTHONPATH": os.pathsep.join(sys.path)}})
    except Exception as e:       # noqa: BLE001 - Ray raises a bare Exception for this
        if "timed out during startup" not in str(e):
            raise
        pytest.skip("Ray could not start a local node on this machine (overloaded: %s)" % e)
    yield ray
    ray.shutdown()


@pytest.fixture(scope="module")
def strategy(ray):
    from flowgrad.distribute import ParameterServerStrategy
    return ParameterServerStrategy(num_replicas=2, num_ps=2, cpus_per_replica=0)


@pytest.fixture(scope="module")
def one_ps(ray):
    from flowgrad.distribute import ParameterServerStrategy
    return ParameterServerStrategy(num_replicas=2, num_ps=1, cpus_per_replica=0)


def test_sync_equals_single_process_big_batch(strategy):
    batches = _batches(4, 8)
    with strategy.synchronous(_model_fn, _adam) as trainer:
        with pytest.raises(ValueError, match="not an input placeholder"):
            trainer.step(dict(batches[0], loss=batches[0]["y"]))
        with pytest.raises(ValueError, match="does not split evenly among 2 replicas"):
            trainer.step({k: v[:7] for k, v in batches[0].items()})
        losses = [trainer.step(b) for b in batches]
        values = trainer.variables()
        assert trainer.last_stats["bytes"] > 0
    ref_losses, ref_values = _single_process(batches, _adam)
    np.testing.assert_allclose(losses, ref_losses, rtol=1e-5)
    assert losses[-1] < losses[0]
    for name, v in ref_values.items():
        np.testing.assert_allclose(values[name], v, rtol=1e-5, atol=1e-6)


def test_accumulation_equals_big_batch(one_ps):
    batches = _batches(3, 8, seed=1)
    with one_ps.synchronous(_model_fn, _momentum, accumulate_steps=2) as trainer:
        for b in batches:
            for half in (slice(0, 4), slice(4, 8)):
                trainer.step({k: v[half] for k, v in b.items()})
        assert trainer.version == 3
        values = trainer.variables()
    _, ref_values = _single_process(batches, _momentum)
    for name, v in ref_values.items():
        np.testing.assert_allclose(values[name], v, rtol=1e-5, atol=1e-6)


class _Tf2Model(tf2.Module):
    """The TF2 face's model: an embedding (IndexedSlices gradient) and a Keras Dense layer."""

    def __init__(self):
        super().__init__()
        rng = np.random.RandomState(3)
        self.emb = tf2.Variable(rng.randn(5, 2).astype(np.float32), name="emb")
        self.dense = tf2.keras.layers.Dense(
            1, kernel_initializer=tf2.keras.initializers.Constant(rng.randn(3, 1)), name="out")
        self.dense(np.zeros((1, 3), np.float32))     # builds it


def _tf2_loss(model, batch):
    pred = (tf2.reduce_sum(tf2.gather(model.emb, batch["ids"]), 1)
            + tf2.squeeze(model.dense(batch["x"]), 1))
    return tf2.reduce_mean(tf2.square(pred - batch["y"]))


@pytest.fixture
def eager():
    tf.enable_v2_behavior()


def test_tf2_sync_equals_single_process_big_batch(strategy, eager):
    batches = _batches(4, 8, seed=4)
    with strategy.synchronous(_Tf2Model, _adam, loss_fn=_tf2_loss) as trainer:
        losses = [trainer.step(b) for b in batches]
        values = trainer.variables()
    model, optimizer, ref_losses = _Tf2Model(), _adam(), []
    for batch in batches:                  # the reference: eager steps on the whole batch
        with tf2.GradientTape() as tape:
            loss = _tf2_loss(model, {k: tf2.constant(v) for k, v in batch.items()})
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        ref_losses.append(loss.numpy())
    np.testing.assert_allclose(losses, ref_losses, rtol=1e-5)
    assert losses[-1] < losses[0]
    assert list(values) == ["emb", "out/kernel", "out/bias"]
    for got, v in zip(values.values(), model.trainable_variables):
        np.testing.assert_allclose(got, v.numpy(), rtol=1e-5, atol=1e-6)


def test_tf2_model_fn_errors():
    from flowgrad.distribute.eager_model import EagerModel
    with pytest.raises(ValueError, match="eager execution is disabled"):
        EagerModel(_Tf2Model, _tf2_loss)
    tf.enable_v2_behavior()
    with pytest.raises(TypeError, match="must return a tf.Module or Keras model"):
        EagerModel(lambda: object(), _tf2_loss)


def _regression_model():
    x = tf.placeholder(tf.float32, [None, 4], name="x")
    y = tf.placeholder(tf.float32, [None, 1], name="y")
    w = tf.Variable(tf.zeros([4, 1]), name="w")
    return {"loss": tf.reduce_mean(tf.square(tf.matmul(x, w) - y)), "x": x, "y": y}


def _regression_input(ctx):
    rng = np.random.RandomState(100 * ctx.replica_id + ctx.step)
    x = rng.randn(16, 4).astype(np.float32)
    return {"x": x, "y": x @ np.array([[1.0], [-2.0], [0.5], [3.0]], np.float32)}


def test_async_converges(one_ps):
    with one_ps.asynchronous(_regression_model, lambda: tf.train.GradientDescentOptimizer(0.1),
                               _regression_input) as trainer:
        losses = trainer.run(40)
        w = trainer.variables()["w"]
    assert len(losses) == 80
    assert np.mean(losses[-6:]) < 1e-3 * np.mean(losses[:2])
    np.testing.assert_allclose(w.ravel(), [1.0, -2.0, 0.5, 3.0], atol=0.02)


def _tf2_regression_model():
    module = tf2.Module()
    module.w = tf2.Variable(np.zeros([4, 1], np.float32), name="w")
    return module


def _tf2_regression_loss(model, batch):
    return tf2.reduce_mean(tf2.square(tf2.matmul(batch["x"], model.w) - batch["y"]))


def test_tf2_async_converges(one_ps, eager):
    with one_ps.asynchronous(_tf2_regression_model,
                             lambda: tf.train.GradientDescentOptimizer(0.1), _regression_input,
                             loss_fn=_tf2_regression_loss) as trainer:
        losses = trainer.run(30)
        w = trainer.variables()["w"]
    assert len(losses) == 60
    np.testing.assert_allclose(w.ravel(), [1.0, -2.0, 0.5, 3.0], atol=0.02)

def test_killed_replica_does_not_lose_the_run(one_ps, ray):
    batches = _batches(5, 8, seed=2)
    with one_ps.synchronous(_model_fn, _momentum) as trainer:
        losses = [trainer.step(b) for b in batches[:2]]
        ray.kill(trainer.replicas[1], no_restart=False)        # between steps
        losses.append(trainer.step(batches[2]))
        killer = threading.Timer(0.05, ray.kill, (trainer.replicas[0],), {"no_restart": False})
        killer.start()                                           # most likely mid-step
        losses += [trainer.step(b) for b in batches[3:]]
        killer.join()
    ref_losses, _ = _single_process(batches, _momentum)
    np.testing.assert_allclose(losses, ref_losses, rtol=1e-5)


def test_replica_dead_for_good_fails_the_step_at_once(ray):
    from flowgrad.distribute import ParameterServerStrategy
    from flowgrad.framework import errors
    strategy = ParameterServerStrategy(num_replicas=2, num_ps=1, cpus_per_replica=0,
                                       restart_timeout=60.0)
    batches = _batches(2, 8, seed=4)
    with strategy.synchronous(_model_fn, _momentum) as trainer:
        trainer.step(batches[0])
        ray.kill(trainer.replicas[1], no_restart=True)          # no restart: dead for good
        start = time.monotonic()
        with pytest.raises(errors.UnavailableError, match="replica 1 .* is dead for good"):
            trainer.step(batches[1])
        assert time.monotonic() - start < 20        # not the whole restart_timeout (60 s)


def test_checkpoint_restores_servers(one_ps, tmp_path):
    batches = _batches(5, 8, seed=3)
    prefix = str(tmp_path / "ps")
    with one_ps.synchronous(_model_fn, _adam) as trainer:
        for b in batches[:2]:
            trainer.step(b)
        trainer.save(prefix)
        after = [trainer.step(b) for b in batches[2:]]
        trainer.restore(prefix)
        assert trainer.version == 2
        assert [trainer.step(b) for b in batches[2:]] == pytest.approx(after, rel=1e-6)


def _outside_model():
    return {"loss": tf.reduce_sum(tf.placeholder(tf.float32, [3], name="x") * _OUTSIDE[0]),
            "x": None}


_OUTSIDE = []


def test_variable_outside_the_scope(strategy):
    _OUTSIDE[:] = [tf.Variable(tf.zeros([3]), name="outside")]
    with pytest.raises(ValueError, match="outside the strategy's scope"):
        strategy.synchronous(_outside_model, _momentum)


def _pid_model():
    w = tf.Variable(tf.zeros([2 if _DRIVER else 3]), name="w")
    return tf.reduce_sum(w * w)


def test_replicas_that_build_another_model(strategy):
    _DRIVER.append(os.getpid())
    with pytest.raises(ValueError, match="built variable 'w' differently in replica"):
        strategy.synchronous(_pid_model, _momentum)


def _tf2_pid_model():
    module = tf2.Module()
    module.w = tf2.Variable(np.zeros([2 if _DRIVER else 3], np.float32), name="w")
    return module


def test_tf2_replicas_that_build_another_model(strategy, eager):
    _DRIVER.append(os.getpid())
    with pytest.raises(ValueError, match="built variable 'w' differently in replica"):
        strategy.synchronous(_tf2_pid_model, _momentum,
                             loss_fn=lambda m, b: tf2.reduce_sum(m.w * m.w))

# -- without Ray --------------------------------------------------------------------


def _server():
    specs = [VariableSpec("w", (2,), "float32", False, None),
             VariableSpec("emb", (4, 2), "float32", True, "int32")]
    return ParameterServer(0, specs, [np.ones(2, np.float32), np.zeros((4, 2), np.float32)],
                           lambda: tf.train.GradientDescentOptimizer(1.0))


def test_server_drops_stale_pushes():
    ps = _server()
    token, values = ps.pull()
    grads = [np.ones(2, np.float32), (np.ones((1, 2), np.float32), np.array([3], np.int32))]
    assert ps.push(grads, token, max_staleness=0)
    assert not ps.push(grads, token, max_staleness=0)          # one update old
    assert ps.push(grads, token, max_staleness=1)
    assert ps.stats() == {"version": 2, "dropped": 1}
    _, (w, emb) = ps.pull()
    np.testing.assert_allclose(w, [-1.0, -1.0])
    np.testing.assert_allclose(emb[3], [-2.0, -2.0])
    assert ps.pull(ps.pull()[0])[1] is None                    # nothing new to send


def test_server_mean_and_mismatched_results():
    ps = _server()
    sparse = (np.ones((2, 2), np.float32), np.array([0, 0], np.int32))
    ps.accumulate(0, (0, 0), [np.full(2, 2.0, np.float32), sparse])
    with pytest.raises(InvalidArgumentError, match="no gradients from"):
        ps.apply_accumulated(0, [(0, 0), (1, 0)])
    with pytest.raises(InvalidArgumentError, match=r"variable 'w' with shape \(3,\)"):
        ps.accumulate(0, (1, 0), [np.zeros(3, np.float32), sparse])
    with pytest.raises(InvalidArgumentError, match="variable 'emb'"):
        ps.accumulate(0, (1, 0), [np.zeros(2, np.float32), np.zeros((4, 2), np.float32)])
    ps.accumulate(0, (1, 0), [np.zeros(2, np.float32), sparse])
    assert ps.apply_accumulated(0, [(0, 0), (1, 0)]) == 1
    assert not ps.accumulate(0, (0, 0), [np.zeros(2, np.float32), sparse])   # a late retry
    _, (w, emb) = ps.pull()
    np.testing.assert_allclose(w, [0.0, 0.0])                    # 1 - mean(2, 0)
    np.testing.assert_allclose(emb[0], [-2.0, -2.0])             # 4 rows of 1, halved
    assert wire.nbytes([w, (emb, np.zeros(3, np.int64))]) == 8 + 32 + 24


def test_server_checkpoint_into_a_new_server(tmp_path):
    ps = _server()
    grads = [np.ones(2, np.float32), (np.ones((1, 2), np.float32), np.array([1], np.int32))]
    ps.push(grads, ps.pull()[0], None)
    path = ps.save(str(tmp_path / "shard"))
    ps.push(grads, ps.pull()[0], None)
    fresh = _server()
    assert fresh.restore(path) == 1
    token, (w, emb) = fresh.pull()
    np.testing.assert_allclose(w, [0.0, 0.0])
    np.testing.assert_allclose(emb[1], [-1.0, -1.0])
    assert token == (1, 1)      # restored once, at update 1: a replica's cache is stale


def test_without_ray_an_import_error_names_the_extra(monkeypatch):
    from flowgrad.distribute import ParameterServerStrategy
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(ImportError, match=r"pip install flowgrad\[distributed\]"):
        ParameterServerStrategy(num_replicas=2)


def test_unreachable_cluster_address():
    with pytest.raises(ConnectionError, match="Cannot reach the Ray cluster at '127.0.0.1:1'"):
        cluster.check_reachable("127.0.0.1:1", timeout=2.0)
    with pytest.raises(ValueError, match="not of the form"):
        cluster.check_reachable("nowhere", timeout=2.0)


def test_killed_parameter_server_restarts_from_the_latest_checkpoint(ray, tmp_path):
    """checkpoint_every=2: a server killed after 3 updates comes back at update 2, and the
    failed step runs again on it; the update of the third batch is lost."""
    from flowgrad.distribute import ParameterServerStrategy
    batches = _batches(4, 8, seed=5)
    strategy = ParameterServerStrategy(num_replicas=2, num_ps=2, cpus_per_replica=0,
                                       checkpoint_dir=str(tmp_path), checkpoint_every=2)
    with strategy.synchronous(_model_fn, _adam) as trainer:
        for b in batches[:3]:
            trainer.step(b)
        ray.kill(trainer._servers[1])
        trainer.step(batches[3])
        assert trainer.server_restarts == 1 and trainer.version == 3
        values = trainer.variables()
    _, ref_values = _single_process([batches[0], batches[1], batches[3]], _adam)
    for name, v in ref_values.items():
        np.testing.assert_allclose(values[name], v, rtol=1e-5, atol=1e-6)


def test_killed_parameter_server_without_checkpoints_fails_at_once(one_ps):
    with one_ps.synchronous(_model_fn, _adam) as trainer:
        trainer.step(_batches(1, 8)[0])
        one_ps._ray.kill(trainer._servers[0])
        start = time.monotonic()
        with pytest.raises(tf.errors.UnavailableError,
                           match="Parameter server 0 died.*trainer.restore.*checkpoint_every"):
            trainer.step(_batches(1, 8)[0])
        assert time.monotonic() - start < 60
