"""tf.distribute.MultiWorkerMirroredStrategy on Ray workers (flowgrad.distribute.WorkerGroup):
K = 2 and 4 workers equal one process on the combined batch (SGD, Adam), batch
normalization's moving statistics averaged as MirroredStrategy's replicas are, the
collectives, and a worker that dies or fails. The tests on Ray run with
FLOWGRAD_RAY_TESTS=all (CI runs tests/test_distribute_ci.py)."""
from __future__ import annotations

import os
import sys

import numpy as np
import pytest

import flowgrad as tf

from flowgrad.framework import errors
from flowgrad.framework.context import state

# flowgrad's own Keras (the TF1 face's tf.compat.v1.keras) in most tests; the Keras 3 tests
# use tf.keras (the real Keras 3)
keras = tf.compat.v1.keras

RNG = np.random.default_rng(0)
X = RNG.normal(size=(5, 16, 6)).astype(np.float32)      # 5 global batches of 16
Y = RNG.normal(size=(5, 16, 1)).astype(np.float32)


@pytest.fixture(scope="module")
def ray():
    if os.environ.get("FLOWGRAD_RAY_TESTS") != "all":
        pytest.skip("the full Ray suite runs with FLOWGRAD_RAY_TESTS=all (3-4 minutes); "
                    "tests/test_distribute_ci.py runs the checks CI runs")
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
def four(ray):
    from flowgrad.distribute import WorkerGroup
    group = WorkerGroup(4, cpus_per_worker=0.3)     # 1.2 of the 2 CPUs: room for the others
    yield group
    group.shutdown()


@pytest.fixture(autouse=True)
def eager():
    """TF2 programs: eager mode (conftest starts every test in graph mode)."""
    saved = state.eager
    state.eager = True
    yield
    state.eager = saved


def _model(batch_norm: bool, seed: int):
    kernel = np.random.default_rng(seed).normal(scale=0.5, size=(6, 4)).astype(np.float32)
    layers = [keras.layers.Dense(4, activation="tanh",
                                    kernel_initializer=keras.initializers.Constant(kernel))]
    if batch_norm:
        layers.append(keras.layers.BatchNormalization(momentum=0.5))
    layers.append(keras.layers.Dense(1, kernel_initializer="ones"))
    model = keras.Sequential(layers)
    model.build((None, 6))
    return model


def train(strategy_fn, optimizer: str, batch_norm: bool = False, vary_init: bool = False):
    """The custom training loop of TensorFlow's tutorials: loss scaled by the global batch,
    gradients applied by the Keras optimizer under the strategy. ``vary_init``: each worker
    initialises differently (the strategy broadcasts worker 0's values)."""
    state.eager = True
    strategy = strategy_fn()
    resolver = getattr(strategy, "cluster_resolver", None)
    seed = 7 + (resolver.task_id if vary_init and resolver is not None else 0)
    with strategy.scope():
        model = _model(batch_norm, seed)
        opt = (keras.optimizers.SGD(0.1) if optimizer == "sgd"
               else keras.optimizers.Adam(0.05))
    dataset = tf.data.Dataset.from_tensor_slices((X.reshape(-1, 6), Y.reshape(-1, 1))).batch(16)

    def step(xb, yb):
        with tf.GradientTape() as tape:
            out = model(xb, training=True)
            loss = tf.reduce_sum((out - yb) ** 2) / 16.0
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    losses = []
    for xb, yb in strategy.experimental_distribute_dataset(dataset):
        per_replica = strategy.run(step, args=(xb, yb))
        losses.append(float(strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica,
                                            axis=None)))
    return losses, [np.asarray(v.numpy()) for v in model.weights]


def _mwms():
    return tf.distribute.MultiWorkerMirroredStrategy()


def _mirrored(k):
    return lambda: tf.distribute.MirroredStrategy(["/cpu:%d" % i for i in range(k)])


def _close(a, b):
    assert len(a) == len(b)
    for x, y in zip(a, b):
        np.testing.assert_allclose(x, y, rtol=2e-5, atol=2e-6)


@pytest.mark.parametrize("optimizer", ["sgd", "adam"])
def test_four_workers_equal_one_process_on_the_combined_batch(four, optimizer):
    ref_losses, ref_weights = train(tf.distribute.get_strategy, optimizer)
    results = four.run(train, _mwms, optimizer, False, True)
    for losses, weights in results:
        _close(losses, ref_losses)
        _close(weights, ref_weights)
    for _, weights in results[1:]:          # every worker holds the same bits
        for a, b in zip(weights, results[0][1]):
            np.testing.assert_array_equal(a, b)


def test_four_workers_batch_norm_equal_mirrored_replicas(four):
    """Each replica normalises its own quarter of the batch; the moving statistics are the
    replicas' mean (ON_READ, MEAN), as MirroredStrategy's 4 replicas in one process."""
    ref_losses, ref_weights = train(_mirrored(4), "adam", batch_norm=True)
    one_losses, _ = train(tf.distribute.get_strategy, "adam", batch_norm=True)
    assert not np.allclose(ref_losses, one_losses)      # per-replica statistics matter
    for losses, weights in four.run(train, _mwms, "adam", True):
        _close(losses, ref_losses)
        _close(weights, ref_weights)


def _assigned_cpus():
    import ray
    resources = ray.get_runtime_context().get_assigned_resources()
    return sum(v for k, v in resources.items() if k == "CPU" or k.startswith("CPU_group_")
               and k.count("_") == 2)


def test_workers_reserve_real_cpus_in_a_placement_group(four):
    """One bundle of cpus_per_worker CPUs per worker, SPREAD (one worker per node where the
    cluster has the nodes), each worker's actor holding its bundle's CPUs."""
    import ray
    table = ray.util.placement_group_table(four._pg)
    assert table["strategy"] == "SPREAD" and table["state"] == "CREATED"
    assert list(table["bundles"].values()) == [{"CPU": 0.3}] * 4
    for cpus in four.run(_assigned_cpus):
        assert cpus == pytest.approx(0.3)


@pytest.fixture(scope="module")
def two(ray):
    from flowgrad.distribute import WorkerGroup
    with WorkerGroup(2, cpus_per_worker=0.1) as group:
        yield group


def test_two_workers_equal_one_process(two):
    group = two
    if True:
        for optimizer in ("sgd", "adam"):
            ref_losses, ref_weights = train(tf.distribute.get_strategy, optimizer)
            for losses, weights in group.run(train, _mwms, optimizer):
                _close(losses, ref_losses)
                _close(weights, ref_weights)
        ref_losses, ref_weights = train(_mirrored(2), "sgd", batch_norm=True)
        for losses, weights in group.run(train, _mwms, "sgd", True):
            _close(losses, ref_losses)
            _close(weights, ref_weights)
        stats = group.stats()
        assert all(s["bytes_sent"] > 0 for s in stats)


def keras_fit(strategy_fn, batch_norm: bool = False):
    """Keras 3 (tf.keras) ``fit`` of a model made and compiled under the strategy's scope,
    as TensorFlow's multi-worker tutorial; each worker seeds its initial weights apart."""
    import contextlib

    state.eager = True
    k3 = tf.keras
    strategy = strategy_fn() if strategy_fn is not None else None
    rank = strategy.cluster_resolver.task_id if strategy is not None else 0
    with strategy.scope() if strategy is not None else contextlib.nullcontext():
        k3.utils.set_random_seed(1 + rank)
        layers = [k3.layers.Input((6,)), k3.layers.Dense(4, activation="tanh")]
        if batch_norm:
            layers.append(k3.layers.BatchNormalization(momentum=0.5))
        model = k3.Sequential(layers + [k3.layers.Dense(1)])
        model.compile(optimizer=k3.optimizers.Adam(0.05), loss="mse", metrics=["mae"])
    history = model.fit(X.reshape(-1, 6), Y.reshape(-1, 1), batch_size=16, epochs=2,
                        verbose=0, shuffle=False).history
    return (history, [np.asarray(w.numpy()) for w in model.weights],
            int(model.optimizer.iterations.numpy()))


def test_keras_fit_on_two_workers_equals_one_process(two):
    """``with strategy.scope(): model = ...; model.compile(...)``, then ``model.fit``: the
    real Keras 3's TensorFlow trainer (strategy.run, reduce, the distributed dataset, the
    optimizer's all-reduce) on 2 workers gives one process's history and weights on the
    combined batches; every worker ends with the same weights. With batch normalization
    each worker normalises its half and the moving statistics are the workers' mean."""
    want_history, want_weights, want_steps = keras_fit(None)
    results = two.run(keras_fit, _mwms)
    for history, weights, steps in results:
        assert steps == want_steps == 10
        assert history.keys() == want_history.keys()
        for key in want_history:
            np.testing.assert_allclose(history[key], want_history[key], rtol=1e-5)
        _close(weights, want_weights)
    for a, b in zip(results[0][1], results[1][1]):
        np.testing.assert_array_equal(a, b)
    bn = two.run(keras_fit, _mwms, True)
    for a, b in zip(bn[0][1], bn[1][1]):        # moving statistics included
        np.testing.assert_array_equal(a, b)
    assert np.abs(bn[0][1][4]).max() > 1e-3       # the moving mean moved


def _collectives():
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    ctx_values = []
    rank = strategy.extended.worker_devices[0]

    def fn():
        ctx = tf.distribute.get_replica_context()
        r = tf.cast(ctx.replica_id_in_sync_group, tf.float64)
        ctx_values.append(float(ctx.all_reduce("MEAN", r)))
        summed = ctx.all_reduce(tf.distribute.ReduceOp.SUM,
                                {"a": tf.ones([2]) * tf.cast(r, tf.float32), "b": r * 10})
        return r, summed

    r, summed = strategy.run(fn)
    gathered = strategy.gather(tf.reshape(r, [1]), axis=0)
    mean_all = strategy.reduce("MEAN", tf.fill([int(r) + 1], r), axis=0)
    traced = tf.function(lambda: strategy.run(
        lambda: tf.distribute.get_replica_context().all_reduce("SUM", tf.constant(1.0))))()
    rows = tf.IndexedSlices(tf.ones([int(r) + 1, 2]) * tf.cast(r, tf.float32),
                            tf.fill([int(r) + 1], tf.cast(r, tf.int32)), tf.constant([4, 2]))
    sparse = strategy.run(lambda: tf.distribute.get_replica_context().all_reduce(
        "MEAN", [rows]))[0]
    sparse = (sparse.values.numpy(), sparse.indices.numpy(), tf.convert_to_tensor(sparse).numpy())
    with strategy.scope():
        model = _model(False, 7)
        model.compile(keras.optimizers.SGD(0.1), "mse")
    try:       # fit would train each worker apart: refused
        model.fit(X[0], Y[0], verbose=0)
        refusal = ""
    except NotImplementedError as e:
        refusal = str(e)
    return (rank, strategy.num_replicas_in_sync, ctx_values[0], summed["a"].numpy(),
            float(summed["b"]), gathered.numpy(), float(mean_all), float(traced), refusal,
            sparse)


def test_collectives(four):
    results = four.run(_collectives)
    dense = np.zeros([4, 2])
    for r in range(4):
        dense[r] = (r + 1) * r / 4
    for rank, (device, k, mean, a, b, gathered, mean_all, traced, refusal,
               (values, indices, as_dense)) in enumerate(results):
        assert "outside its strategy.run (Keras fit" in refusal
        np.testing.assert_array_equal(indices, [0, 1, 1, 2, 2, 2, 3, 3, 3, 3])   # sparse
        assert values.shape == (10, 2)
        np.testing.assert_allclose(as_dense, dense)
        assert device.endswith("task:%d/device:CPU:0" % rank) and k == 4
        assert mean == 1.5 and b == 60.0 and traced == 4.0
        np.testing.assert_array_equal(a, [6.0, 6.0])
        np.testing.assert_array_equal(gathered, [0, 1, 2, 3])
        assert mean_all == pytest.approx((0 + 2 + 6 + 12) / 10)


def test_one_worker_outside_a_group():
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    assert strategy.num_replicas_in_sync == 1
    assert float(strategy.reduce("SUM", strategy.run(lambda: tf.constant(2.0)), axis=None)) == 2


def _fail_on(rank_to_fail):
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    rank = strategy.cluster_resolver.task_id
    if rank == rank_to_fail:
        raise ValueError("worker %d's own error" % rank)
    return strategy.reduce("SUM", strategy.run(lambda: tf.constant(1.0)), axis=None)


def _die_on(rank_to_fail):
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    rank = strategy.cluster_resolver.task_id
    if rank == rank_to_fail:
        os._exit(1)
    return strategy.reduce("SUM", strategy.run(lambda: tf.constant(1.0)), axis=None)


def test_a_failing_or_dead_worker_fails_the_run_at_once(ray):
    from flowgrad.distribute import WorkerGroup
    group = WorkerGroup(2, cpus_per_worker=0.2)
    with pytest.raises(ValueError, match="worker 1's own error"):
        group.run(_fail_on, 1)
    with pytest.raises(RuntimeError, match="shut down"):
        group.run(_fail_on, 1)
    group = WorkerGroup(2, cpus_per_worker=0.2)
    with pytest.raises(errors.UnavailableError, match="Worker 0 of 2 .* died"):
        group.run(_die_on, 0)


def _tf1_program(steps: int, sync: bool):
    """A TF1 program written for SyncReplicasOptimizer (a seed per worker: the hook gives
    every worker worker 0's initial values)."""
    import flowgrad.compat.v1 as tf1
    from flowgrad.distribute import collective
    group = collective.current_group()
    rank = group.rank if group else 0
    k = group.world_size if group else 1
    state.eager = False
    try:
        with tf1.Graph().as_default():
            tf1.set_random_seed(3 + rank)
            x = tf1.placeholder(tf1.float32, [None, 6])
            y = tf1.placeholder(tf1.float32, [None, 1])
            w = tf1.get_variable("w", [6, 1])
            b = tf1.get_variable("b", [1], initializer=tf1.zeros_initializer())
            loss = tf1.reduce_mean(tf1.square(tf1.matmul(x, w) + b - y))
            step = tf1.train.get_or_create_global_step()
            opt = tf1.train.AdamOptimizer(0.05)
            if sync:
                opt = tf1.train.SyncReplicasOptimizer(opt, replicas_to_aggregate=k,
                                                      total_num_replicas=k)
            train_op = opt.minimize(loss, global_step=step)
            hook = opt.make_session_run_hook(is_chief=rank == 0) if sync else None
            if hook is not None:
                hook.begin()
            with tf1.Session() as sess:
                sess.run(tf1.global_variables_initializer())
                if hook is not None:
                    hook.after_create_session(sess, None)
                losses = []
                for i in range(steps):
                    rows = slice(rank * 16 // k, (rank + 1) * 16 // k)
                    out, _ = sess.run([loss, train_op], {x: X[i][rows], y: Y[i][rows]})
                    losses.append(float(out))
                return losses, sess.run([w, b, step])
    finally:
        state.eager = True


def test_sync_replicas_optimizer_on_two_workers(ray):
    from flowgrad.distribute import WorkerGroup
    _, (w_ref, b_ref, step_ref) = _tf1_program(5, sync=False)
    with WorkerGroup(2, cpus_per_worker=0.2) as group:
        results = group.run(_tf1_program, 5, True)
    for _, (w, b, step) in results:
        np.testing.assert_allclose(w, w_ref, rtol=2e-5, atol=2e-6)
        np.testing.assert_allclose(b, b_ref, rtol=2e-5, atol=2e-6)
        assert step == step_ref == 5
    with pytest.raises(ValueError, match="must both equal the number of workers"):
        import flowgrad.compat.v1 as tf1
        tf1.train.SyncReplicasOptimizer(tf1.train.GradientDescentOptimizer(0.1), 2)


def _resumable(ckpt_dir: str, marker: str, steps: int):
    """A training loop that resumes from its latest checkpoint (worker 0 writes one after
    every step); worker 1 dies before step 3 the first time."""
    state.eager = True
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    rank = strategy.cluster_resolver.task_id
    k = strategy.num_replicas_in_sync
    with strategy.scope():
        model = _model(False, 7)
        opt = keras.optimizers.SGD(0.1)
        done = tf.Variable(0, dtype=tf.int64)
    ckpt = tf.train.Checkpoint(model=model, done=done)
    manager = tf.train.CheckpointManager(ckpt, ckpt_dir, max_to_keep=2)
    if manager.latest_checkpoint:
        ckpt.restore(manager.latest_checkpoint)

    def step(xb, yb):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum((model(xb, training=True) - yb) ** 2) / 16.0
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))

    for i in range(int(done.numpy()), steps):
        if rank == 1 and i == 3 and not os.path.exists(marker):
            open(marker, "w").close()
            os._exit(1)
        rows = slice(rank * 16 // k, (rank + 1) * 16 // k)
        strategy.run(step, args=(tf.constant(X[i][rows]), tf.constant(Y[i][rows])))
        done.assign_add(1)
        if strategy.extended.should_checkpoint:
            manager.save()
    return [np.asarray(v.numpy()) for v in model.weights]


def test_a_lost_worker_restarts_the_run_from_the_latest_checkpoint(ray, tmp_path):
    from flowgrad.distribute import WorkerGroup
    _, ref_weights = train(tf.distribute.get_strategy, "sgd")
    with WorkerGroup(2, cpus_per_worker=0.2, max_failures=1) as group:
        results = group.run(_resumable, str(tmp_path / "ckpt"), str(tmp_path / "died"), 5)
        assert group.failures == 1 and (tmp_path / "died").exists()
    for weights in results:
        _close(weights, ref_weights)


def _handled(ckpt_dir: str, marker: str, steps: int, die_rank: int, die_step: int,
             inside: bool):
    """The custom loop of TensorFlow's fault-tolerance tutorial: each step through a
    PreemptionCheckpointHandler, which restores the latest checkpoint and counts the steps.
    Worker ``die_rank`` dies at step ``die_step`` (inside the step, after its gradients, or
    before it) the first time."""
    state.eager = True
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    rank = strategy.cluster_resolver.task_id
    k = strategy.num_replicas_in_sync
    with strategy.scope():
        model = _model(True, 7)
        opt = keras.optimizers.Adam(0.05)
    handler = tf.distribute.experimental.PreemptionCheckpointHandler(
        strategy.cluster_resolver, tf.train.Checkpoint(model=model, optimizer=opt), ckpt_dir)
    first = handler.total_run_calls

    def die_here(i):
        if rank == die_rank and i == die_step and not os.path.exists(marker):
            open(marker, "w").close()
            os._exit(1)

    def step(xb, yb, i):
        with tf.GradientTape() as tape:
            out = model(xb, training=True)
            loss = tf.reduce_sum((out - yb) ** 2) / 16.0
        grads = tape.gradient(loss, model.trainable_variables)
        if inside:
            die_here(i)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    def train_step(xb, yb, i):
        per_replica = strategy.run(step, args=(xb, yb, i))
        return strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica, axis=None)

    if not inside:        # a tf.function step, as in TensorFlow's tutorial
        traced = tf.function(lambda xb, yb: train_step(xb, yb, -1))
    losses = []
    for i in range(handler.total_run_calls, steps):
        rows = slice(rank * 16 // k, (rank + 1) * 16 // k)
        xb, yb = tf.constant(X[i][rows]), tf.constant(Y[i][rows])
        if inside:
            losses.append(float(handler.run(train_step, xb, yb, i)))
        else:
            die_here(i)
            losses.append(float(handler.run(traced, xb, yb)))
    return first, losses, [np.asarray(v.numpy()) for v in model.weights], handler.rejoins


def test_a_lost_worker_is_replaced_and_rejoins_the_running_survivors(ray, tmp_path):
    """A worker killed mid-step (and, in a second run, the chief killed between steps of a
    tf.function step): a new worker takes its place, the survivor gives it its current
    state, the interrupted step runs again, and every worker ends with the weights (batch
    normalization's moving statistics and Adam's slots included) and losses of an
    uninterrupted run."""
    from flowgrad.distribute import WorkerGroup
    ref_losses, ref_weights = train(_mirrored(2), "adam", batch_norm=True)
    with WorkerGroup(2, cpus_per_worker=0.2, max_failures=2) as group:
        for run, (die_rank, die_step, inside) in enumerate([(1, 2, True), (0, 3, False)]):
            results = group.run(_handled, str(tmp_path / ("ckpt%d" % run)),
                                str(tmp_path / ("died%d" % run)), 5, die_rank, die_step,
                                inside)
            assert group.failures == run + 1 and group.rejoined == run + 1
            for rank, (first, losses, weights, rejoins) in enumerate(results):
                if rank == die_rank:         # the new worker starts at the retried step
                    assert first == die_step and rejoins == 0
                else:
                    assert first == 0 and rejoins == 1
                _close(losses, ref_losses[first:])
                _close(weights, ref_weights)


def _embedding_train(steps: int):
    """An embedding (sparse gradients, kept sparse across the workers) and Adam."""
    state.eager = True
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    resolver = strategy.cluster_resolver
    rank, k = (resolver.task_id, resolver.num_workers)
    table = np.random.default_rng(1).normal(size=(10, 3)).astype(np.float32)
    with strategy.scope():
        model = keras.Sequential([
            keras.layers.Embedding(10, 3, embeddings_initializer=keras.initializers
                                      .Constant(table)),
            keras.layers.Dense(1, kernel_initializer="ones")])
        model.build((None, 4))
        opt = keras.optimizers.Adam(0.05)
    ids = np.random.default_rng(2).integers(0, 10, size=(steps, 8, 4))

    def step(xb, yb):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum((tf.reduce_sum(model(xb), 1) - yb) ** 2) / 8.0
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))

    for i in range(steps):
        rows = slice(rank * 8 // k, (rank + 1) * 8 // k)
        strategy.run(step, args=(tf.constant(ids[i][rows]), tf.constant(Y[i][:8][rows])))
    return [np.asarray(v.numpy()) for v in model.weights]


def test_four_workers_embedding_equal_one_process(four):
    ref = _embedding_train(3)
    for weights in four.run(_embedding_train, 3):
        _close(weights, ref)


def test_the_tf1_sync_replicas_example_on_two_workers(two):
    """examples/distributed_mnist.py's TF1 program (SyncReplicasOptimizer, its hook in a
    MonitoredTrainingSession, the task index from the TF_CONFIG the group sets): each worker
    trains on its half of every global batch and ends where one process trained on the
    whole batches does."""
    import importlib.util

    from ray import cloudpickle      # the pickler Ray sends functions with
    path = os.path.join(os.path.dirname(__file__), "..", "examples", "distributed_mnist.py")
    spec = importlib.util.spec_from_file_location("example_distributed_mnist", path)
    example = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = example
    spec.loader.exec_module(example)
    cloudpickle.register_pickle_by_value(example)      # the workers cannot import it
    saved = os.environ.pop("TF_CONFIG", None)
    try:
        want = example.train(8, 32)                     # one process, the global batches
    finally:
        state.eager = True
        if saved is not None:
            os.environ["TF_CONFIG"] = saved
    try:
        got = two.run(example.train, 8, 16)
    finally:
        cloudpickle.unregister_pickle_by_value(example)
        del sys.modules[spec.name]
    for result in got:
        assert len(result["losses"]) == 8
        assert result["accuracy"] == pytest.approx(want["accuracy"], abs=1e-4)
    assert got[0]["losses"] != got[1]["losses"]         # each its own half of the batch
