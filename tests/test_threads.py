"""flowgrad's thread budget (flowgrad.framework.threads): NumPy's BLAS pool and the plans'
worker thread together never keep more threads busy than there are free cores."""
import sys

import numpy as np
import pytest

import flowgrad
import flowgrad.compat.v1 as tf
from flowgrad.runtime import plan
from flowgrad.runtime.plan import overlap
from flowgrad.framework import threads

threadpoolctl = pytest.importorskip("threadpoolctl")


def _blas_pool() -> int:
    return min(i["num_threads"] for i in threadpoolctl.threadpool_info()
               if i["user_api"] == "blas")


@pytest.fixture
def budget(monkeypatch):
    """A 2-core budget whose other processes' load the test sets (``load[0]``), with no
    thread counts set by the environment or tf.config; restores the BLAS pool afterwards."""
    for name in threads._ENV_THREADS:
        monkeypatch.delenv(name, raising=False)
    load = [0.0]
    monkeypatch.setattr(threads, "others_load", lambda: load[0])
    monkeypatch.setattr(threads._b, "cores", 2)
    monkeypatch.setattr(threads._b, "intra_op", 0)
    monkeypatch.setattr(threads._b, "session_intra_op", 0)
    monkeypatch.setattr(threads._b, "next_check", 0.0)
    before = _blas_pool()
    yield load
    threadpoolctl.threadpool_limits(before, user_api="blas")
    threads._b.blas_threads = 0
    threads._b.next_check = 0.0


def _look() -> None:
    threads._b.next_check = 0.0
    threads.check()


def test_the_blas_pool_takes_the_free_cores(budget):
    _look()
    assert threads.free_cores() == 2 and threads.blas_threads() == 2 and _blas_pool() == 2
    budget[0] = 1.0                     # another process keeps one core busy
    _look()
    assert threads.free_cores() == 1 and threads.blas_threads() == 1 and _blas_pool() == 1
    budget[0] = 0.4                     # less than half a core: still counted free
    _look()
    assert threads.blas_threads() == 2 and _blas_pool() == 2
    budget[0] = 5.0                     # a crowded machine still leaves this process one
    _look()
    assert threads.free_cores() == 1 and threads.blas_threads() == 1


def test_the_pool_is_looked_at_again_only_after_the_interval(budget):
    _look()
    budget[0] = 1.0
    threads.check()                     # within CHECK_INTERVAL: the last look stands
    assert threads.blas_threads() == 2


def test_a_blas_pool_sized_elsewhere_gets_the_budget_again(budget):
    # a BLAS library loaded later with its own size (SciPy's, loaded while OPENBLAS_NUM_THREADS
    # was 1) or resized by someone else: the next look sizes every loaded pool to the budget
    _look()
    threadpoolctl.threadpool_limits(1, user_api="blas")
    assert _blas_pool() == 1
    _look()
    assert _blas_pool() == 2


def test_tf_config_and_session_config_cap_the_pool(budget):
    tf_config = flowgrad.config.threading
    tf_config.set_intra_op_parallelism_threads(1)
    assert tf_config.get_intra_op_parallelism_threads() == 1
    _look()
    assert threads.intra_op_cap() == 1 and _blas_pool() == 1
    assert plan.inter_op_parallelism()  # one BLAS thread a kernel: plans overlap kernels
    tf_config.set_intra_op_parallelism_threads(0)
    _look()
    assert _blas_pool() == 2 and not plan.inter_op_parallelism()
    # as in TensorFlow, whose sessions share the pools, the first config that sets it
    config = type("Config", (), {"intra_op_parallelism_threads": 1,
                                 "inter_op_parallelism_threads": 0})()
    tf.Session(graph=tf.Graph(), config=config).close()
    config.intra_op_parallelism_threads = 2
    tf.Session(graph=tf.Graph(), config=config).close()
    _look()
    assert threads.intra_op_cap() == 1 and _blas_pool() == 1


def test_the_environment_caps_the_pool(budget, monkeypatch):
    monkeypatch.setenv("OMP_NUM_THREADS", "1")
    _look()
    assert threads.intra_op_cap() == 1 and _blas_pool() == 1
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "2")     # OpenBLAS's own variable first
    assert threads.intra_op_cap() == 2


def test_the_worker_runs_beside_single_threaded_kernels_on_two_cores(budget, monkeypatch):
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "1")
    _look()
    assert threads.overlap_allowed()
    budget[0] = 1.0         # independent kernels, no lockstep: a busy core does not matter
    _look()
    assert threads.overlap_allowed()
    monkeypatch.delenv("OPENBLAS_NUM_THREADS")
    budget[0] = 0.0
    _look()                 # a threaded BLAS pool: one kernel at a time
    assert threads.blas_threads() == 2 and not threads.overlap_allowed()
    ran_on = []

    def kernel(a):
        import threading
        ran_on.append(threading.current_thread().name)
        return a + 1
    futures: list = []
    f = overlap.submit(futures, kernel, 1)
    assert f.result() == 2 and futures == [f] and ran_on == ["MainThread"]
    f = overlap.submit(futures, lambda: 1 / 0)
    with pytest.raises(ZeroDivisionError):           # raised where the plan waits for it
        f.result()
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "1")
    monkeypatch.setattr(threads._b, "cores", 1)
    _look()
    assert not threads.overlap_allowed()


def test_plans_whose_worker_is_refused_compute_what_overlapped_ones_do(budget, monkeypatch):
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "1")
    rng = np.random.RandomState(0)
    bx = rng.rand(4, 32, 300).astype(np.float32)
    by = np.eye(10, dtype=np.float32)[rng.randint(0, 10, (4, 32))]
    results = []
    for allowed in (True, False):
        monkeypatch.setattr(threads, "overlap_allowed", lambda: allowed)
        g = tf.Graph()
        with g.as_default():
            x = tf.placeholder(tf.float32, [None, 300])
            y = tf.placeholder(tf.float32, [None, 10])
            h = x
            for i, (m, n) in enumerate([(300, 512), (512, 512), (512, 10)]):
                w = tf.Variable(np.random.RandomState(i).uniform(-.1, .1, (m, n))
                                .astype(np.float32))
                h = tf.matmul(h, w)
                h = tf.nn.relu(h) if n != 10 else h
            loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(labels=y,
                                                                              logits=h))
            train = tf.train.AdamOptimizer(0.01).minimize(loss)
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                losses = [sess.run([train, loss], {x: a, y: b})[1] for a, b in zip(bx, by)]
                assert "_go(" in list(sess._plans.values())[-1].source
                results.append((losses, sess.run(tf.trainable_variables())))
    assert results[0][0] == results[1][0]
    for a, b in zip(results[0][1], results[1][1]):
        np.testing.assert_array_equal(a, b)


def test_usable_cores_follow_affinity_and_the_cgroup_quota(monkeypatch, tmp_path):
    read_quota = threads._cpu_quota
    monkeypatch.setattr(threads._b, "cores", 0)
    monkeypatch.setattr(threads, "_affinity", lambda: {0, 1, 2, 3})
    monkeypatch.setattr(threads, "_cpu_quota", lambda: None)
    assert threads.usable_cores() == 4
    monkeypatch.setattr(threads._b, "cores", 0)
    monkeypatch.setattr(threads, "_cpu_quota", lambda: 1.5)
    assert threads.usable_cores() == 1
    monkeypatch.setattr(threads, "_cpu_quota", read_quota)
    (tmp_path / "cpu.max").write_text("250000 100000\n")
    assert threads._cpu_quota(str(tmp_path)) == 2.5
    (tmp_path / "cpu.max").write_text("max 100000\n")
    assert threads._cpu_quota(str(tmp_path)) is None
    (tmp_path / "cpu.max").unlink()
    (tmp_path / "cpu").mkdir()
    (tmp_path / "cpu" / "cpu.cfs_quota_us").write_text("300000\n")
    (tmp_path / "cpu" / "cpu.cfs_period_us").write_text("100000\n")
    assert threads._cpu_quota(str(tmp_path)) == 3.0
    (tmp_path / "cpu" / "cpu.cfs_quota_us").write_text("-1\n")
    assert threads._cpu_quota(str(tmp_path)) is None


def test_load_is_busy_cpu_time_less_this_process(monkeypatch):
    samples = iter([(10.0, 100.0, 1.0), (10.5, 101.0, 1.25)])  # (time, busy, ours)

    def fake(_cpus):
        return current[1]
    current = next(samples)
    monkeypatch.setattr(threads._b, "sample", None)
    monkeypatch.setattr(threads.time, "monotonic", lambda: current[0])
    monkeypatch.setattr(threads.time, "process_time", lambda: current[2])
    monkeypatch.setattr(threads, "_busy_seconds", fake)
    monkeypatch.setattr(threads, "_running_now", lambda: 3)
    assert threads.others_load() == 2.0         # first look: runnable tasks but this one
    current = next(samples)
    # 1 busy CPU second in 0.5 s, 0.25 of it ours: 1.5 cores' worth of others
    assert threads.others_load() == pytest.approx(1.5)


def test_without_threadpoolctl_the_pool_is_left_alone(budget, monkeypatch):
    monkeypatch.setitem(sys.modules, "threadpoolctl", None)     # import fails
    monkeypatch.setattr(threads._b, "blas", None)
    before = _blas_pool()
    budget[0] = 1.0
    _look()
    assert threads._blas_controllers() == [] and _blas_pool() == before
    a = np.ones((200, 200), np.float32)
    with tf.Graph().as_default(), tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(tf.matmul(a, a)), a @ a)
