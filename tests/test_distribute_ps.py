"""tf.distribute.experimental.ParameterServerStrategy and ClusterCoordinator on Ray
(flowgrad.distribute.ps_strategy): the tutorials' custom training loop, one process's
results when the steps run one at a time, asynchronous steps all applied, row-sharded and
sparse variables, the partitioners, failures of a function, a worker and a parameter
server. The Ray tests share one cluster (2 workers, 2 parameter servers) and run with
FLOWGRAD_RAY_TESTS=all (CI runs tests/test_distribute_ci.py)."""
from __future__ import annotations

import os
import sys
import time

import numpy as np
import pytest

import flowgrad as tf
from flowgrad.framework import errors
from flowgrad.framework.context import state

RNG = np.random.default_rng(3)
X = RNG.normal(size=(64, 6)).astype(np.float32)
Y = (X @ np.arange(6, dtype=np.float32).reshape(6, 1)).astype(np.float32)


@pytest.fixture(autouse=True)
def eager():
    """TF2 programs: eager mode (conftest starts every test in graph mode)."""
    saved = state.eager
    state.eager = True
    yield
    state.eager = saved


def _dataset_fn(input_context=None):
    return tf.data.Dataset.from_tensor_slices((X, Y)).batch(8).repeat()


def _build(strategy=None):
    """The tutorials' model, optimizer and step (under ``strategy``'s scope if given)."""
    kernel = RNG.normal(size=(6, 1)).astype(np.float32)

    def make():
        model = tf.compat.v1.keras.Sequential([tf.compat.v1.keras.layers.Dense(
            1, kernel_initializer=tf.compat.v1.keras.initializers.Constant(kernel))])
        model.build((None, 6))
        return model, tf.compat.v1.keras.optimizers.Adam(0.05)

    if strategy is None:
        model, opt = make()
        run = None
    else:
        with strategy.scope():
            model, opt = make()
        run = strategy.run

    @tf.function
    def train_step(iterator):
        def step_fn(x, y):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean((model(x) - y) ** 2)
            grads = tape.gradient(loss, model.trainable_variables)
            opt.apply_gradients(zip(grads, model.trainable_variables))
            return loss
        x, y = next(iterator)
        return step_fn(x, y) if run is None else run(step_fn, args=(x, y))
    return model, opt, train_step


# -- without Ray -------------------------------------------------------------------------------

def test_partitioners_give_tensorflows_shard_counts():
    p = tf.distribute.experimental.partitioners
    f32 = tf.float32
    assert p.FixedShardsPartitioner(num_shards=2)(tf.TensorShape([10, 3]), f32) == [2, 1]
    assert p.FixedShardsPartitioner(num_shards=5)(tf.TensorShape([3, 3]), f32) == [3, 1]
    assert p.MinSizePartitioner(min_shard_bytes=4, max_shards=2)(
        tf.TensorShape([6, 1]), f32) == [2, 1]
    assert p.MinSizePartitioner(min_shard_bytes=4, max_shards=10)(
        tf.TensorShape([6, 1]), f32) == [6, 1]
    assert p.MaxSizePartitioner(max_shard_bytes=4)(tf.TensorShape([6, 1]), f32) == [6, 1]
    assert p.MaxSizePartitioner(max_shard_bytes=4, max_shards=2)(
        tf.TensorShape([6, 1]), f32) == [2, 1]
    assert p.MaxSizePartitioner(max_shard_bytes=1024)(tf.TensorShape([6, 1]), f32) == [1, 1]
    from flowgrad.distribute.partitioners import row_ranges
    assert row_ranges(10, 3) == [(0, 4), (4, 7), (7, 10)]     # TensorFlow's: first get more
    with pytest.raises(ValueError):
        p.FixedShardsPartitioner(0)


def test_strategy_needs_workers_and_parameter_servers():
    spec = tf.train.ClusterSpec({"worker": ["w0:1"]})
    resolver = tf.distribute.cluster_resolver.SimpleClusterResolver(spec)
    with pytest.raises(ValueError, match="at least one ps"):
        tf.distribute.experimental.ParameterServerStrategy(resolver)
    spec = tf.train.ClusterSpec({"worker": ["w0:1"], "ps": ["p0:1"]})
    strategy = tf.distribute.experimental.ParameterServerStrategy(
        tf.distribute.cluster_resolver.SimpleClusterResolver(spec))
    with pytest.raises(ValueError, match="Only `tf.distribute.experimental.ParameterServer"):
        tf.distribute.experimental.coordinator.ClusterCoordinator(
            tf.distribute.MirroredStrategy())
    assert strategy.extended.parameter_devices == ("/job:ps/replica:0/task:0/device:CPU:0",)


def test_a_scheduled_function_travels_with_references_to_the_workers_variables():
    """What a worker gets: the tf.function's Python function, the model and optimizer
    pickled with the strategy's variables as references to the worker's copies (the Keras
    optimizer's index by variable id remapped), traced again there: the same step."""
    pytest.importorskip("cloudpickle", reason="flowgrad[distributed] is not installed")
    from flowgrad.distribute import ps_tasks
    from flowgrad.distribute.ps_strategy import RayClusterResolver
    strategy = tf.distribute.experimental.ParameterServerStrategy(RayClusterResolver(2, 2))
    model, opt, train_step = _build(strategy)
    batch = (tf.constant(X[:8]), tf.constant(Y[:8]))

    @tf.function
    def step(x, y):
        return train_step(iter([(x, y)]))
    with strategy.scope():
        step.get_concrete_function(*batch)      # the coordinator's trace: slots created
    for v in strategy._variables:
        strategy._place(len(strategy._tokens), v)
    blob = ps_tasks.dumps(step, strategy._token, strategy)
    worker = ps_tasks.WorkerTask(0, 2, [])
    copy = ps_tasks.loads(blob, worker)
    assert len(worker._vars) == len(strategy._variables)
    for key, (v, _) in worker._vars.items():
        v.assign(strategy._variables[key].numpy())
    for _ in range(3):
        np.testing.assert_allclose(copy(*batch).numpy(), step(*batch).numpy(), rtol=1e-6)
    for key, (v, _) in worker._vars.items():
        np.testing.assert_allclose(v.numpy(), strategy._variables[key].numpy(), rtol=1e-6)
    assert not set(map(id, model.trainable_variables)) & {id(v) for v, _ in
                                                          worker._vars.values()}


def test_keras3_fit_under_the_scope_runs_on_the_coordinator_with_tensorflows_warning(caplog):
    """Keras 3's ``fit`` does not schedule through a ClusterCoordinator (Keras 3 dropped
    that): its ``strategy.run`` runs on the coordinator, as on TensorFlow, with
    TensorFlow's warning; the coordinator's variables are trained."""
    from flowgrad.distribute import RayClusterResolver
    tf.compat.v1.enable_v2_behavior()
    k3 = tf.keras
    strategy = tf.distribute.experimental.ParameterServerStrategy(RayClusterResolver(2, 1))
    with strategy.scope():
        model = k3.Sequential([k3.layers.Input((6,)), k3.layers.Dense(1)])
        model.compile("sgd", "mse")
    before = model.get_weights()[0].copy()
    with caplog.at_level("WARNING"):
        history = model.fit(X, Y, batch_size=16, epochs=1, verbose=0).history
    assert "invoked without using `ClusterCoordinator.schedule`" in caplog.text
    assert len(history["loss"]) == 1
    assert not np.array_equal(model.get_weights()[0], before)


def test_without_ray_an_import_error_names_the_extra(monkeypatch):
    from flowgrad.distribute import RayClusterResolver, WorkerGroup
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(ImportError, match=r"pip install flowgrad\[distributed\]"):
        WorkerGroup(2)
    strategy = tf.distribute.experimental.ParameterServerStrategy(
        RayClusterResolver(2, 1))
    with pytest.raises(ImportError, match=r"pip install flowgrad\[distributed\]"):
        tf.distribute.experimental.coordinator.ClusterCoordinator(strategy)


def test_unreachable_cluster_address():
    from flowgrad.distribute import cluster as ray_cluster
    with pytest.raises(ConnectionError, match="Cannot reach the Ray cluster at '127.0.0.1:1'"):
        ray_cluster.check_reachable("127.0.0.1:1", timeout=2.0)
    with pytest.raises(ValueError, match="not of the form"):
        ray_cluster.check_reachable("nowhere", timeout=2.0)


# -- on Ray --------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def cluster():
    if os.environ.get("FLOWGRAD_RAY_TESTS") != "all":
        pytest.skip("the full Ray suite runs with FLOWGRAD_RAY_TESTS=all (3-4 minutes); "
                    "tests/test_distribute_ci.py runs the checks CI runs")
    pytest.importorskip("ray", reason="Ray is not installed (pip install "
                        "flowgrad[distributed]); the distributed tests need it")
    from flowgrad.distribute.ps_strategy import RayClusterResolver
    saved = state.eager
    state.eager = True
    resolver = RayClusterResolver(
        num_workers=2, num_ps=2, cpus_per_worker=0.5, num_cpus=2, log_to_driver=False,
        runtime_env={"env_vars": {"PYTHONPATH": os.pathsep.join(sys.path)}})
    strategy = tf.distribute.experimental.ParameterServerStrategy(
        resolver, variable_partitioner=tf.distribute.experimental.partitioners
        .FixedShardsPartitioner(2))
    try:
        coordinator = tf.distribute.experimental.coordinator.ClusterCoordinator(strategy)
    except Exception as e:       # noqa: BLE001 - Ray raises a bare Exception for this
        if "timed out during startup" not in str(e):
            raise
        pytest.skip("Ray could not start a local node on this machine (overloaded: %s)" % e)
    finally:
        state.eager = saved
    yield strategy, coordinator
    coordinator.shutdown()
    import ray
    ray.shutdown()


def test_one_step_at_a_time_equals_one_process(cluster):
    """Each step scheduled after the one before has ended: the same updates as one process
    (Adam; the kernel in row shards on both servers), the coordinator's variables set from
    the servers by join(), and what the coordinator writes reaching the workers."""
    import ray
    strategy, coordinator = cluster
    table = ray.util.placement_group_table(strategy._pg)   # the workers' real CPU requests
    assert table["strategy"] == "SPREAD" and list(table["bundles"].values()) == [
        {"CPU": 0.5}] * 2
    model, opt, train_step = _build(strategy)
    ref_model, ref_opt, ref_step = _build()
    ref_model.set_weights(model.get_weights())
    token = strategy._tokens
    iterator = iter(coordinator.create_per_worker_dataset(_dataset_fn))
    ref_iterator = iter(_dataset_fn())
    losses = []
    for _ in range(6):
        losses.append(coordinator.schedule(train_step, args=(iterator,)))
        coordinator.join()
        ref_loss = ref_step(ref_iterator)
        np.testing.assert_allclose(losses[-1].fetch(), ref_loss.numpy(), rtol=1e-5)
    assert len(token[id(model.trainable_variables[0])].placement) == 2   # two row shards
    for got, want in zip(model.get_weights() + [opt.iterations.numpy()],
                         ref_model.get_weights() + [ref_opt.iterations.numpy()]):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    assert isinstance(losses[0].get(), tf.Tensor)
    # the coordinator's writes (e.g. a restored checkpoint) reach the servers
    model.layers[0].bias.assign([10.0])
    ref_model.layers[0].bias.assign([10.0])
    coordinator.schedule(train_step, args=(iterator,))
    coordinator.join()
    ref_step(ref_iterator)
    np.testing.assert_allclose(model.layers[0].bias.numpy(), ref_model.layers[0].bias.numpy(),
                               rtol=1e-5)


def test_asynchronous_steps_are_all_applied(cluster):
    strategy, coordinator = cluster
    model, opt, train_step = _build(strategy)
    iterator = iter(coordinator.create_per_worker_dataset(_dataset_fn))
    values = [coordinator.schedule(train_step, args=(iterator,)) for _ in range(30)]
    coordinator.join()
    assert coordinator.done()
    assert int(opt.iterations.numpy()) == 30
    losses = coordinator.fetch(values)
    assert np.all(np.isfinite(losses)) and np.mean(losses[-5:]) < np.mean(losses[:5])


def test_sparse_updates_travel_as_rows(cluster):
    """An embedding trained with SGD: a step pushes only the rows it changed, and the
    steps equal one process's."""
    strategy, coordinator = cluster
    init = RNG.normal(size=(1000, 8)).astype(np.float32)
    with strategy.scope():
        table = tf.Variable(init)
        sgd = tf.compat.v1.keras.optimizers.SGD(0.5)
    ref_table, ref_sgd = tf.Variable(init), tf.compat.v1.keras.optimizers.SGD(0.5)

    def make_step(table, sgd, run):
        @tf.function
        def step(ids):
            def fn(ids):
                with tf.GradientTape() as tape:
                    loss = tf.reduce_sum(tf.nn.embedding_lookup(table, ids) ** 2)
                sgd.apply_gradients(zip(tape.gradient(loss, [table]), [table]))
                return loss
            return run(fn, args=(ids,))
        return step
    step = make_step(table, sgd, strategy.run)
    ref_step = make_step(ref_table, ref_sgd, lambda fn, args: fn(*args))
    before = coordinator._worker_stats()
    for i in range(3):
        ids = tf.constant([i, 5 * i + 7, 999])
        coordinator.schedule(step, args=(ids,))
        coordinator.join()
        ref_step(ids)
    np.testing.assert_allclose(table.numpy(), ref_table.numpy(), rtol=1e-6)
    after = coordinator._worker_stats()
    pushed = sum(a["bytes_pushed"] - b["bytes_pushed"] for a, b in zip(after, before))
    assert pushed < 3 * (3 * 8 * 4 + 3 * 8 + 64)      # 3 rows and their indices a step
    assert pushed < table.numpy().nbytes / 10          # never the whole table


def test_a_functions_error_reaches_join_and_is_cleared(cluster):
    strategy, coordinator = cluster

    @tf.function
    def fails(x):
        with tf.control_dependencies([tf.debugging.assert_equal(x, 0.0,
                                                                message="x must be zero")]):
            return tf.identity(x)

    value = coordinator.schedule(fails, args=(tf.constant(1.0),))
    with pytest.raises(errors.InvalidArgumentError, match="x must be zero"):
        coordinator.join()
    with pytest.raises(errors.InvalidArgumentError):
        value.fetch()
    assert coordinator.schedule(fails, args=(tf.constant(0.0),)).fetch() == 0.0
    with pytest.raises(TypeError, match="only accepts a `tf.function`"):
        coordinator.schedule(lambda: 1)


def test_a_lost_worker_rejoins_from_the_current_weights(cluster):
    """A worker killed while steps are queued: Ray restarts it, the steps it held run again
    on a worker, and the restarted worker pulls the servers' current values."""
    import ray
    strategy, coordinator = cluster
    model, opt, train_step = _build(strategy)
    iterator = iter(coordinator.create_per_worker_dataset(_dataset_fn))
    for _ in range(4):
        coordinator.schedule(train_step, args=(iterator,))
    ray.kill(strategy._workers[0], no_restart=False)
    values = [coordinator.schedule(train_step, args=(iterator,)) for _ in range(8)]
    coordinator.join()
    assert coordinator.retries >= 1
    assert 12 <= int(opt.iterations.numpy()) <= 12 + coordinator.retries
    assert np.all(np.isfinite(coordinator.fetch(values)))

    @tf.function
    def read_kernel():
        return tf.identity(model.layers[0].kernel)

    coordinator._load[1] = 10 ** 6          # keep worker 1 busy: this goes to worker 0
    try:
        seen = coordinator.schedule(read_kernel).fetch()
    finally:
        coordinator._load[1] -= 10 ** 6
    np.testing.assert_array_equal(seen, model.layers[0].kernel.numpy())


def test_a_lost_parameter_server_restarts_from_the_latest_checkpoint(cluster, tmp_path):
    """flowgrad's opt-in: with a CheckpointManager registered, a parameter server killed
    mid-training is restarted by the coordinator, every server goes back to the latest
    checkpoint, the step that failed runs again and training goes on: the same losses and
    weights as one process that restores that checkpoint at the same point."""
    import ray
    strategy, coordinator = cluster
    model, opt, train_step = _build(strategy)
    ref_model, ref_opt, ref_step = _build()
    ref_model.set_weights(model.get_weights())
    manager = tf.train.CheckpointManager(tf.train.Checkpoint(model=model, optimizer=opt),
                                         str(tmp_path / "ps"), max_to_keep=2)
    ref_ckpt = tf.train.Checkpoint(model=ref_model, optimizer=ref_opt)
    ref_path = str(tmp_path / "ref" / "ckpt")
    coordinator.restart_lost_servers_from(manager)
    iterator = iter(coordinator.create_per_worker_dataset(_dataset_fn))
    ref_iterator = iter(_dataset_fn())
    try:
        for step in range(1, 8):
            if step == 6:            # after steps 1-5 (a checkpoint after step 3)
                ray.kill(strategy._servers[1])
                ref_ckpt.restore(ref_path + "-1")
            loss = coordinator.schedule(train_step, args=(iterator,))
            coordinator.join()
            np.testing.assert_allclose(loss.fetch(), ref_step(ref_iterator).numpy(), rtol=1e-5)
            if step == 3:
                manager.save()
                assert ref_ckpt.save(ref_path) == ref_path + "-1"
        assert coordinator.server_restarts == 1
        for got, want in zip(model.get_weights() + [opt.iterations.numpy()],
                             ref_model.get_weights() + [ref_opt.iterations.numpy()]):
            np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
        assert int(opt.iterations.numpy()) == 5          # 3 + the two after the restart
    finally:
        coordinator.restart_lost_servers_from(None)
    with pytest.raises(TypeError, match="CheckpointManager"):
        coordinator.restart_lost_servers_from(str(tmp_path))


def test_a_lost_parameter_server_fails_at_once_and_the_program_resumes_from_its_checkpoint(
        cluster, tmp_path):
    """A lost server fails ``join`` at once; the program then does what TensorFlow's
    coordinator tells it to: a new cluster, the model made under its scope, the latest
    checkpoint (saved on the coordinator after ``join``) restored, and the new servers
    hold the checkpoint's values (a scheduled function reads them on a worker)."""
    import ray

    from flowgrad.distribute.ps_strategy import RayClusterResolver
    strategy, coordinator = cluster
    model, opt, train_step = _build(strategy)
    iterator = iter(coordinator.create_per_worker_dataset(_dataset_fn))
    coordinator.schedule(train_step, args=(iterator,))
    coordinator.join()
    saved = [w.copy() for w in model.get_weights()]
    path = tf.train.Checkpoint(model=model).save(str(tmp_path / "ckpt"))
    ray.kill(strategy._servers[1])
    coordinator.schedule(train_step, args=(iterator,))
    start = time.monotonic()
    with pytest.raises(errors.UnavailableError, match="parameter server .* is lost.*restore"):
        coordinator.join()
    assert time.monotonic() - start < 60
    coordinator.shutdown()
    state.eager = True
    strategy = tf.distribute.experimental.ParameterServerStrategy(
        RayClusterResolver(num_workers=1, num_ps=2, cpus_per_worker=0.5))
    coordinator = tf.distribute.experimental.coordinator.ClusterCoordinator(strategy)
    try:
        model, _, _ = _build(strategy)
        tf.train.Checkpoint(model=model).restore(path)

        @tf.function
        def read():
            return [v.read_value() for v in model.weights]
        on_worker = coordinator.schedule(read)
        coordinator.join()
        for got, want in zip(on_worker.fetch(), saved):
            np.testing.assert_array_equal(got, want)
    finally:
        coordinator.shutdown()


class _Remote:
    """A parameter server called in this process, as a Ray actor handle is called."""

    def __init__(self, task):
        for name in ("read", "apply", "create", "assign"):
            method = getattr(task, name)
            setattr(self, name, type("_Method", (), {"remote": staticmethod(method)})())


def test_workers_push_differences_rows_and_shards_that_add_up(monkeypatch):
    """The servers' protocol without Ray: a variable in two row shards on two servers, a
    worker's sparse change pushed as rows to the server holding them, a dense change as a
    difference, and two workers' changes from the same pulled values adding up (the
    asynchronous merge)."""
    from flowgrad.distribute import cluster as ray_cluster
    from flowgrad.distribute import ps_tasks
    from flowgrad.distribute.ps_strategy import RayClusterResolver
    monkeypatch.setattr(ray_cluster, "get", lambda refs: refs)
    strategy = tf.distribute.experimental.ParameterServerStrategy(
        RayClusterResolver(2, 2),
        variable_partitioner=tf.distribute.experimental.partitioners.FixedShardsPartitioner(2))
    table0 = RNG.normal(size=(100, 4)).astype(np.float32)
    with strategy.scope():
        table = tf.Variable(table0)
        bias = tf.Variable(np.zeros(3, np.float32))
    servers = [ps_tasks.ParameterServerTask(i) for i in range(2)]
    strategy._servers = [_Remote(s) for s in servers]
    strategy._push_variables(check_written=False)
    t_token, b_token = strategy._token(table), strategy._token(bias)
    assert [(ps, lo, hi) for ps, _, lo, hi in t_token.placement] == [(0, 0, 50), (1, 50, 100)]
    assert [(ps, lo, hi) for ps, _, lo, hi in b_token.placement] == [(0, 0, 2), (1, 2, 3)]

    workers = [ps_tasks.WorkerTask(i, 2, strategy._servers) for i in range(2)]
    copies = [(w.variable(t_token), w.variable(b_token)) for w in workers]
    befores = []
    for w in workers:
        w._pull()
        befores.append({k: np.array(v.numpy(), copy=True) for k, (v, _) in w._vars.items()})
    np.testing.assert_array_equal(copies[0][0].numpy(), table0)
    changed = copies[0][0].numpy()
    changed[[3, 70]] += 1.0                    # what a sparse update of two rows does
    copies[0][0].assign(changed)
    copies[0][1].assign_add([1.0, 1.0, 1.0])
    copies[1][1].assign_add([2.0, 2.0, 2.0])
    for w, before in zip(workers, befores):
        w._push(before)
    assert workers[0].bytes_pushed == 2 * (8 + 16) + 12       # two rows + their indices, bias
    strategy._pull_variables()
    expected = table0.copy()
    expected[[3, 70]] += 1.0
    np.testing.assert_allclose(table.numpy(), expected, rtol=1e-6)
    np.testing.assert_allclose(bias.numpy(), [3.0, 3.0, 3.0])      # both workers' updates
    workers[1]._pull()                                            # only what changed
    np.testing.assert_allclose(copies[1][0].numpy(), expected, rtol=1e-6)
