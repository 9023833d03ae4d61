"""Data parallelism on Ray against one process: synchronous
(tf.distribute.MultiWorkerMirroredStrategy in a flowgrad.distribute.WorkerGroup, with a
scaling model) and asynchronous (tf.distribute.experimental.ParameterServerStrategy with a
ClusterCoordinator, one parameter server).

Run:  python benchmarks/bench_distributed.py [--steps N] [--batch-size B] [--hidden H]
                                              [--replicas 1 2 4] [--nodes 4] [--no-ps]

A 784-H-10 ReLU MLP (Keras Dense layers), softmax cross-entropy scaled by the global batch,
Keras SGD, ``B`` random images per replica per step (weak scaling), the step a tf.function
run by ``strategy.run``. The replicas are Ray workers on a local ``ray.cluster_utils.Cluster``
of ``--nodes`` simulated nodes of one CPU each (a placement group spreads them, one per
node). For 1, 2 and 4 replicas it prints steps/s, the bytes each worker sends per step and
where a step's time goes (compute; the all-reduce split into handing chunks to the object
store, waiting for the peers' chunks, and summing/joining here; launching the run once),
next to the same loop in this process on the same per-replica batch. Then it fits the
all-reduce's cost per step, ``t(K) = a (K - 1) + b 2 (K - 1) / K N`` (``a`` per message,
``b`` per byte), and predicts 8, 64 and 512 workers, for this machine and for 10 GbE.
Last, the same step (flowgrad's own Keras SGD, which a ParameterServerStrategy's workers
run) scheduled ``--steps`` times per worker on 1, 2 and 4 workers and one parameter
server: updates applied per second, images per second, and the KB a worker pulls and
pushes per update.
"""
from __future__ import annotations

import argparse
import os
import time
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one core per process: fair scaling

import numpy as np  # noqa: E402

import flowgrad as tf  # noqa: E402


def _model(hidden: int) -> tf.keras.Model:
    init = tf.keras.initializers.GlorotUniform(seed=0)
    model = tf.keras.Sequential([
        tf.keras.layers.Dense(hidden, activation="relu", kernel_initializer=init),
        tf.keras.layers.Dense(10, kernel_initializer=init)])
    model.build((None, 784))
    return model


def train_loop(steps: int, per_replica: int, hidden: int, warmup: int = 3) -> dict:
    """The training loop every worker runs (also run in one process, outside a group).
    Returns its timings."""
    from flowgrad.distribute import collective
    from flowgrad.framework.context import state
    state.eager = True
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    k = strategy.num_replicas_in_sync
    global_batch = per_replica * k
    with strategy.scope():
        model = _model(hidden)
        optimizer = tf.keras.optimizers.SGD(0.1)
    rng = np.random.default_rng(strategy.cluster_resolver.task_id)
    x = tf.constant(rng.random((per_replica, 784), dtype=np.float32))
    y = tf.constant(np.eye(10, dtype=np.float32)[rng.integers(0, 10, per_replica)])

    @tf.function
    def step(xb: tf.Tensor, yb: tf.Tensor) -> tf.Tensor:
        with tf.GradientTape() as tape:
            logits = model(xb)
            loss = tf.reduce_sum(tf.nn.softmax_cross_entropy_with_logits(
                labels=yb, logits=logits)) / global_batch
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    for _ in range(warmup):
        strategy.run(step, args=(x, y))
    group = collective.current_group()
    before = group.stats.as_dict() if group else None
    start = time.perf_counter()
    for _ in range(steps):
        strategy.run(step, args=(x, y))
    elapsed = time.perf_counter() - start
    out = {"step_s": elapsed / steps, "params": sum(int(np.prod(v.shape))
                                                   for v in model.trainable_variables)}
    if group is not None:
        after = group.stats.as_dict()
        for key in ("bytes_sent", "send_s", "wait_s", "reduce_s", "collectives"):
            out[key] = (after[key] - before[key]) / steps
    return out


def probe_all_reduce(sizes: tuple, repeats: int = 10) -> list:
    """Seconds per all-reduce of float32 buffers of ``sizes`` bytes (no compute between),
    the median over ``repeats`` after one warm-up; run on every worker of a group."""
    from flowgrad.distribute import collective
    group = collective.current_group()
    out = []
    for n in sizes:
        buf = np.ones(n // 4, np.float32)
        group.all_reduce([buf])
        times = []
        for _ in range(repeats):
            start = time.perf_counter()
            group.all_reduce([buf])
            times.append(time.perf_counter() - start)
        out.append(float(np.median(times)))
    return out


def fit_model(points: list) -> tuple:
    """Least-squares ``(c, a, b)`` of ``t = c + a 2 (K - 1) + b 2 (K - 1) / K N`` over
    ``(K, N bytes, t seconds)`` points (negative terms dropped and the rest refitted):
    ``c`` the two rounds' latency, ``a`` a worker's cost per message it sends, ``b`` the
    seconds per byte."""
    rows = np.array([[1.0, 2 * (k - 1), 2 * (k - 1) / k * n] for k, n, _ in points])
    t = np.array([p[2] for p in points], float)
    keep = [0, 1, 2]
    while True:
        coef, *_ = np.linalg.lstsq(rows[:, keep], t, rcond=None)
        if (coef >= 0).all() or len(keep) == 1:
            break
        keep.pop(int(np.argmin(coef)))
    full = np.zeros(3)
    full[keep] = np.maximum(coef, 0)
    return tuple(float(x) for x in full)


def predict(c: float, a: float, b: float, k: int, n: float) -> float:
    """The fitted model's seconds per all-reduce of ``n`` bytes among ``k`` workers."""
    return c + a * 2 * (k - 1) + b * 2 * (k - 1) / k * n


def ps_run(k: int, steps: int, per_replica: int, hidden: int, cpus: float) -> dict:
    """``steps`` scheduled updates per worker on ``k`` workers and one parameter server."""
    from flowgrad.distribute import RayClusterResolver
    keras = tf.compat.v1.keras
    strategy = tf.distribute.experimental.ParameterServerStrategy(
        RayClusterResolver(num_workers=k, num_ps=1, cpus_per_worker=cpus))
    with strategy.scope():
        init = keras.initializers.GlorotUniform(seed=0)
        model = keras.Sequential([keras.layers.Dense(hidden, activation="relu",
                                                     kernel_initializer=init),
                                  keras.layers.Dense(10, kernel_initializer=init)])
        model.build((None, 784))
        optimizer = keras.optimizers.SGD(0.1)
    coordinator = tf.distribute.experimental.coordinator.ClusterCoordinator(strategy)

    def dataset_fn(input_context: Any = None) -> Any:
        rng = np.random.default_rng(0)
        x = rng.random((per_replica, 784), dtype=np.float32)
        y = np.eye(10, dtype=np.float32)[rng.integers(0, 10, per_replica)]
        return tf.data.Dataset.from_tensors((x, y)).repeat()

    @tf.function
    def step(iterator: Any) -> Any:
        def replica_fn(xb: Any, yb: Any) -> Any:
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(
                    labels=yb, logits=model(xb)))
            grads = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(zip(grads, model.trainable_variables))
            return loss
        xb, yb = next(iterator)
        return strategy.run(replica_fn, args=(xb, yb))

    try:
        iterator = iter(coordinator.create_per_worker_dataset(dataset_fn))
        for _ in range(3 * k):                   # each worker imports, traces, pulls once
            coordinator.schedule(step, args=(iterator,))
        coordinator.join()
        before = coordinator._worker_stats()
        start = time.perf_counter()
        for _ in range(steps * k):
            coordinator.schedule(step, args=(iterator,))
        coordinator.join()
        elapsed = time.perf_counter() - start
        after = coordinator._worker_stats()
    finally:
        coordinator.shutdown()
    moved = sum(a["bytes_pushed"] + a["bytes_pulled"] - b["bytes_pushed"] - b["bytes_pulled"]
                for a, b in zip(after, before))
    return {"updates_s": steps * k / elapsed, "kb_per_update": moved / (steps * k) / 1e3,
            "iterations": int(optimizer.iterations.numpy())}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=40)
    parser.add_argument("--batch-size", type=int, default=128, help="images per replica")
    parser.add_argument("--hidden", type=int, default=256)
    parser.add_argument("--replicas", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--nodes", type=int, default=4, help="simulated Ray nodes")
    parser.add_argument("--no-ps", dest="ps", action="store_false",
                        help="skip the ParameterServerStrategy runs")
    args = parser.parse_args()
    import ray
    from ray.cluster_utils import Cluster

    from flowgrad.distribute import WorkerGroup

    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1})
    for _ in range(args.nodes - 1):
        cluster.add_node(num_cpus=1)
    ray.init(address=cluster.address, include_dashboard=False, log_to_driver=False,
             runtime_env={"env_vars": {"OPENBLAS_NUM_THREADS": "1"}})
    cpus = os.cpu_count()
    print("784-%d-10 MLP, Keras SGD, %d images per replica, %d timed steps; Ray cluster of "
          "%d simulated nodes on a machine of %d CPUs" % (args.hidden, args.batch_size,
                                                          args.steps, args.nodes, cpus))
    local = train_loop(args.steps, args.batch_size, args.hidden)
    params = local["params"]
    print("%-20s %8s %9s %10s %9s %8s %8s %8s %8s %9s" % (
        "run", "steps/s", "vs local", "KB sent", "compute", "send", "wait", "reduce",
        "launch", "coll/step"))
    print("%-20s %8.1f %9s %10s %7.2fms %8s %8s %8s %8s %9s" % (
        "this process", 1 / local["step_s"], "1.00x", "-", 1e3 * local["step_s"], "-", "-",
        "-", "-", "-"))
    points: list = []
    sizes = (4096, 4 * params)
    for k in args.replicas:
        with WorkerGroup(k, cpus_per_worker=min(1.0, args.nodes / k)) as group:
            group.run(train_loop, 1, args.batch_size, args.hidden, 1)    # imports, traces
            start = time.perf_counter()
            results = group.run(train_loop, args.steps, args.batch_size, args.hidden)
            wall = time.perf_counter() - start
            if k > 1:
                probe = group.run(probe_all_reduce, sizes)
                for n, t in zip(sizes, np.max(probe, axis=0)):
                    points.append((k, n, float(t)))
        step_s = max(r["step_s"] for r in results)
        launch = wall - step_s * (args.steps + 3)
        mean = {key: float(np.mean([r[key] for r in results]))
                for key in ("bytes_sent", "send_s", "wait_s", "reduce_s", "collectives")}
        comm = mean["send_s"] + mean["wait_s"] + mean["reduce_s"]
        print("%-20s %8.1f %8.2fx %10.0f %7.2fms %6.2fms %6.2fms %6.2fms %7.2fs %9.1f" % (
            "Ray, %d replica%s" % (k, "s" if k > 1 else ""), 1 / step_s,
            local["step_s"] / step_s, mean["bytes_sent"] / 1e3, 1e3 * (step_s - comm),
            1e3 * mean["send_s"], 1e3 * mean["wait_s"], 1e3 * mean["reduce_s"], launch,
            mean["collectives"]))
    again = train_loop(args.steps, args.batch_size, args.hidden)
    print("%-20s %8.1f   (the same loop again, after the Ray runs: the machine's load "
          "moves)" % ("this process", 1 / again["step_s"]))
    if args.ps:
        print("\nParameterServerStrategy, 1 parameter server, %d updates per worker:"
              % args.steps)
        print("%-20s %10s %10s %9s %16s" % ("run", "updates/s", "images/s", "vs local",
                                            "KB moved/update"))
        for k in args.replicas:
            r = ps_run(k, args.steps, args.batch_size, args.hidden,
                       min(1.0, args.nodes / k))
            print("%-20s %10.1f %10.0f %8.2fx %16.0f" % (
                "PS, %d worker%s" % (k, "s" if k > 1 else ""), r["updates_s"],
                r["updates_s"] * args.batch_size, r["updates_s"] * again["step_s"],
                r["kb_per_update"]))
    ray.shutdown()
    cluster.shutdown()
    if points:
        print("\nAll-reduce alone (median ms, slowest worker): "
              + ", ".join("K=%d %d B: %.2f" % (k, n, 1e3 * t) for k, n, t in points))
        c, a, b = fit_model(points)
        print("Fitted: t(K, N) = %.3g ms + %.3g ms x 2 (K - 1) + 2 (K - 1) / K x N / %s"
              % (1e3 * c, 1e3 * a, "%.3g GB/s" % (1e-9 / b) if b else "(no byte term)"))
        n = 4 * params
        print("%8s %20s %26s %26s" % ("workers", "this MLP, this machine",
                                      "100 MB over 10 GbE (this)", "100 MB, one server"))
        for k in (8, 64, 512):
            here = predict(c, a, b, k, n)
            wire = predict(c, a, 1 / 1.25e9, k, 100e6)      # the same scheme on 10 GbE
            server = 2 * k * 100e6 / 1.25e9                 # K pushes + K pulls, one link
            print("%8d %18.1fms %24.0fms %24.0fms" % (k, 1e3 * here, 1e3 * wire,
                                                        1e3 * server))


if __name__ == "__main__":
    main()
