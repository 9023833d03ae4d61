"""Session plans update variables in place only where no caller or later op can see it.

A Session writes the dense optimizer updates (ApplyAdam, ApplyMomentum,
ApplyGradientDescent) into the arrays of the variable and its slots when it alone holds
them; whatever it hands out (fetched values, snapshots read before the update, values
stored into other variables, fed arrays, initial values) must keep its value."""

import numpy as np
import pytest

import flowgrad.compat.v1 as tf
from flowgrad.framework import threads
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import get_op_def, register_op
from flowgrad.runtime.plan import inter_op_parallelism

RNG = np.random.RandomState(0)
W0 = RNG.randn(4, 3).astype(np.float32)
X = RNG.randn(5, 4).astype(np.float32)


def _model(opt: tf.train.Optimizer) -> tuple:
    w = tf.Variable(W0)
    loss = tf.reduce_sum(tf.square(tf.matmul(tf.constant(X), w)))
    return w, loss, opt.minimize(loss)


def _numpy_sgd(w: np.ndarray, lr: float) -> np.ndarray:
    g = 2 * X.T @ (X @ w)
    return w - np.float32(lr) * g


def test_training_writes_the_variable_array_in_place():
    w, _, train = _model(tf.train.AdamOptimizer(0.1))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(train)
        arr = sess._state[w.op]
        sess.run(train)
        assert sess._state[w.op] is arr        # the second step reused the first's array


def test_fetched_values_are_never_written_later():
    w, loss, train = _model(tf.train.GradientDescentOptimizer(0.01))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(train)
        got = sess.run(w)
        snapshot = got.copy()
        for _ in range(3):
            sess.run([train, loss])
        np.testing.assert_array_equal(got, snapshot)
        assert not np.array_equal(sess.run(w), snapshot)


def test_a_read_fetched_with_the_update_is_never_written_later():
    """``tf.identity(w)`` fetched with the update gives the updated value, as TensorFlow
    2.21's reference variables do (the read shares the variable's buffer; 50 runs of 50 in
    TF), while ``w * 1`` was computed before it; neither changes with later updates."""
    w, _, train = _model(tf.train.GradientDescentOptimizer(0.01))
    read, scaled = tf.identity(w), w * 1
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(train)                         # w's array is now owned by the session
        before = sess.run(w)
        new, _, old = sess.run([read, train, scaled])
        np.testing.assert_allclose(new, _numpy_sgd(before, 0.01), rtol=1e-5)
        np.testing.assert_array_equal(old, before)
        kept = new.copy()
        sess.run(train)
        np.testing.assert_array_equal(new, kept)
        np.testing.assert_array_equal(old, before)
        np.testing.assert_allclose(sess.run(w), _numpy_sgd(_numpy_sgd(before, 0.01), 0.01),
                                   rtol=1e-5)


def test_initial_values_survive_training_and_reinitialization():
    w, _, train = _model(tf.train.MomentumOptimizer(0.01, 0.9))
    init = tf.global_variables_initializer()
    with tf.Session() as sess:
        for _ in range(2):
            sess.run(init)
            np.testing.assert_array_equal(sess.run(w), W0)
            for _ in range(3):
                sess.run(train)
            assert not np.array_equal(sess.run(w), W0)


def test_a_variable_assigned_from_another_is_a_copy():
    w, _, train = _model(tf.train.GradientDescentOptimizer(0.01))
    other = tf.Variable(np.zeros((4, 3), np.float32))
    copy = other.assign(w)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(train)
        sess.run(copy)
        kept = sess.run(other)
        sess.run(train)
        sess.run(train)
        np.testing.assert_array_equal(sess.run(other), kept)


def test_fed_and_loaded_arrays_are_not_written():
    w, _, train = _model(tf.train.AdamOptimizer(0.1))
    x = tf.placeholder(tf.float32, [4, 3])
    assign = w.assign(x)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        fed = np.ones((4, 3), np.float32)
        sess.run(assign, {x: fed})
        sess.run(train)
        sess.run(train)
        np.testing.assert_array_equal(fed, 1.0)
        loaded = np.full((4, 3), 2.0, np.float32)
        w.load(loaded, sess)
        sess.run(train)
        np.testing.assert_array_equal(loaded, 2.0)


_KEPT: list = []


def _keep_kernel(x):
    _KEPT.append(x)             # holds the array past the run, as a queue would
    return np.float32(0.0)


register_op("TestKeepInput", _keep_kernel, lambda ins, attrs: (tf.float32, ()), stateful=True,
            input_names=("x",))


def test_arrays_kept_by_a_stateful_op_are_not_written():
    w, loss, train = _model(tf.train.GradientDescentOptimizer(0.01))
    keep = apply_op("TestKeepInput", [w.value()])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(train)
        for fetches in (keep, [keep, train]):
            sess.run(fetches)
            snapshot = _KEPT[-1].copy()
            sess.run(train)
            sess.run(train)
            np.testing.assert_array_equal(_KEPT[-1], snapshot)


@pytest.mark.parametrize("read", [tf.identity, lambda w: w.value(), lambda w: w.read_value()])
def test_fetched_reads_are_copies(read):
    w, _, train = _model(tf.train.AdamOptimizer(0.1))
    r = read(w)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(train)
        got = sess.run(r)
        snapshot = got.copy()
        sess.run(train)
        np.testing.assert_array_equal(got, snapshot)


def test_gradient_that_is_the_variable_itself():
    w = tf.Variable(W0)
    train = tf.train.GradientDescentOptimizer(0.5).apply_gradients([(tf.identity(w), w)])
    with tf.Session() as sess:
        sess.run(w.initializer)
        for _ in range(2):
            sess.run(train)
        np.testing.assert_array_equal(sess.run(w), W0 * np.float32(0.5) * np.float32(0.5))


@pytest.mark.parametrize("op_type,n_updated,nesterov", [
    ("ApplyAdam", 3, False), ("ApplyAdam", 3, True), ("ApplyMomentum", 2, False),
    ("ApplyMomentum", 2, True), ("ApplyGradientDescent", 1, None)])
def test_inplace_kernels_equal_the_kernels_bit_for_bit(op_type, n_updated, nesterov):
    rng = np.random.RandomState(1)
    f = np.float32
    arrays = [rng.rand(7, 5).astype(f) for _ in range(n_updated)]
    grad = rng.randn(7, 5).astype(f)
    scalars = {"ApplyAdam": [f(0.9 ** 3), f(0.999 ** 3), f(0.01), f(0.9), f(0.999), f(1e-8)],
               "ApplyMomentum": [f(0.01)], "ApplyGradientDescent": [f(0.01)]}[op_type]
    if op_type == "ApplyMomentum":
        args = arrays + scalars + [grad, f(0.9)]
    else:
        args = arrays + scalars + [grad]
    attrs = {} if nesterov is None else {"use_nesterov": nesterov}
    d = get_op_def(op_type)
    want = d.bound_kernel(attrs)(*[np.array(a) for a in args])
    work = [a.copy() for a in arrays]
    got = d.bound_inplace(attrs)(*(work + args[n_updated:]))
    want = want if isinstance(want, tuple) else (want,)
    got = got if isinstance(got, tuple) else (got,)
    for g, w, a in zip(got, want, work):
        assert g is a
        np.testing.assert_array_equal(g, w)


def test_inplace_adam_checks_shapes_before_writing():
    f = np.float32
    var, m, v = (np.ones((3, 2), f) for _ in range(3))
    kernel = get_op_def("ApplyAdam").bound_inplace({"use_nesterov": False})
    with pytest.raises(tf.errors.InvalidArgumentError, match="ApplyAdam"):
        kernel(var, m, v, f(0.9), f(0.99), f(0.1), f(0.9), f(0.99), f(1e-8), np.ones(6, f))
    np.testing.assert_array_equal(var, 1.0)


# -- inter-op parallelism: big independent kernels run on a worker thread -----------------

def _mlp(seed: int = 0) -> tuple:
    rng = np.random.RandomState(seed)
    x = tf.placeholder(tf.float32, [None, 300])
    y = tf.placeholder(tf.float32, [None, 10])
    sizes = [300, 512, 512, 10]
    h = x
    for i in range(3):
        w = tf.Variable(rng.uniform(-0.1, 0.1, sizes[i:i + 2]).astype(np.float32))
        h = tf.matmul(h, w) + tf.Variable(np.zeros(sizes[i + 1], np.float32))
        h = tf.nn.relu(h) if i < 2 else h
    loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(labels=y, logits=h))
    return x, y, loss, tf.train.AdamOptimizer(0.01).minimize(loss)


class _Serial:
    inter_op_parallelism_threads = 1


@pytest.fixture
def one_blas_thread(monkeypatch):
    """Sessions made in the test overlap big kernels (as with a single-threaded BLAS), and
    the worker finds a free core however busy the machine is."""
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "1")
    if threads.usable_cores() < 2:
        pytest.skip("one core: plans run every kernel in place")
    monkeypatch.setattr(threads, "others_load", lambda: 0.0)
    monkeypatch.setattr(threads._b, "next_check", 0.0)


def test_overlap_needs_two_cores_and_a_single_threaded_blas(monkeypatch):
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "1")
    monkeypatch.setattr(threads._b, "cores", 1)
    assert not inter_op_parallelism()
    monkeypatch.setattr(threads._b, "cores", 2)
    assert inter_op_parallelism()
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "2")
    monkeypatch.setenv("OMP_NUM_THREADS", "1")
    assert not inter_op_parallelism()           # OpenBLAS's own variable comes first
    monkeypatch.delenv("OPENBLAS_NUM_THREADS")
    assert inter_op_parallelism()
    monkeypatch.delenv("OMP_NUM_THREADS")
    monkeypatch.delenv("GOTO_NUM_THREADS", raising=False)
    assert not inter_op_parallelism()


def test_plans_overlap_big_kernels_and_compute_what_serial_plans_compute(one_blas_thread):
    x, y, loss, train = _mlp()
    rng = np.random.RandomState(2)
    batches = [(rng.rand(32, 300).astype(np.float32),
                np.eye(10, dtype=np.float32)[rng.randint(0, 10, 32)]) for _ in range(4)]
    results = []
    for config in (None, _Serial()):
        with tf.Session(config=config) as sess:
            sess.run(tf.global_variables_initializer())
            losses = [sess.run([train, loss], {x: bx, y: by})[1] for bx, by in batches]
            plan = list(sess._plans.values())[-1]
            results.append((losses, sess.run(tf.trainable_variables()), plan.source))
    (par_losses, par_vars, par_src), (ser_losses, ser_vars, ser_src) = results
    assert "_go(" in par_src and "_go(" not in ser_src
    assert par_losses == ser_losses
    for a, b in zip(par_vars, ser_vars):
        np.testing.assert_array_equal(a, b)


def test_reads_in_a_run_with_overlapped_kernels_see_the_old_value(one_blas_thread):
    rng = np.random.RandomState(3)
    v = tf.Variable(rng.rand(512, 512).astype(np.float32))
    w = tf.Variable(rng.rand(512, 512).astype(np.float32))
    x = tf.placeholder(tf.float32, [None, 512])
    before = tf.matmul(x, v)
    other = tf.matmul(x, w)
    step = tf.train.GradientDescentOptimizer(1.0).apply_gradients([(tf.ones_like(v), v)])
    xv = rng.rand(8, 512).astype(np.float32)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(step)                          # v's array is owned: the next step is in place
        v0 = sess.run(v)
        got, _, _ = sess.run([before, other, step], {x: xv})
        np.testing.assert_array_equal(got, xv @ v0)
        np.testing.assert_array_equal(sess.run(v), v0 - 1.0)


def test_a_kernel_failing_on_the_worker_names_its_op(one_blas_thread):
    rng = np.random.RandomState(4)
    w1 = tf.Variable(rng.rand(512, 512).astype(np.float32))
    w2 = tf.Variable(rng.rand(512, 512).astype(np.float32))
    x = tf.placeholder(tf.float32, [None, 512])
    a = tf.matmul(x, w1, name="first")
    b = tf.matmul(x, w2, name="second")
    c = tf.matmul(a, w2, name="third")
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(tf.assign(w1, np.ones((3, 3), np.float32), validate_shape=False))
        with pytest.raises(tf.errors.InvalidArgumentError, match="first"):
            sess.run([b, c], {x: np.ones((2, 512), np.float32)})
        plan_src = list(sess._plans.values())[-1].source
        assert "_go(" in plan_src


def _two_products(seed: int) -> tuple:
    """x·w1 + x·w2 (two big kernels a plan overlaps) and a feed for x."""
    rng = np.random.RandomState(seed)
    w1 = tf.Variable(rng.rand(512, 512).astype(np.float32))
    w2 = tf.Variable(rng.rand(512, 512).astype(np.float32))
    x = tf.placeholder(tf.float32, [None, 512])
    return tf.matmul(x, w1) + tf.matmul(x, w2), {x: np.ones((2, 512), np.float32)}


def _run_in_child(sess, fetches, feeds, queue):
    queue.put(sess.run(fetches, feeds).sum())


def test_a_forked_process_runs_overlapped_plans_with_its_own_worker(one_blas_thread):
    import multiprocessing
    out, feeds = _two_products(5)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        want = sess.run(out, feeds).sum()     # the parent's worker thread exists now
        ctx = multiprocessing.get_context("fork")
        queue = ctx.Queue()
        child = ctx.Process(target=_run_in_child, args=(sess, out, feeds, queue))
        child.start()
        got = queue.get(timeout=60)
        child.join(60)
        assert got == want and child.exitcode == 0


def test_a_fork_while_another_thread_starts_the_worker(one_blas_thread):
    import multiprocessing
    import queue as queues

    from flowgrad.runtime.plan import overlap
    out, feeds = _two_products(6)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        ctx = multiprocessing.get_context("fork")
        queue = ctx.Queue()
        child = ctx.Process(target=_run_in_child, args=(sess, out, feeds, queue))
        with overlap._worker_lock:               # held as while a thread makes the worker
            child.start()
        try:
            got = queue.get(timeout=30)
        except queues.Empty:
            got = None
        child.join(10)
        if child.is_alive():
            child.kill()
            child.join()
        assert got == sess.run(out, feeds).sum() and child.exitcode == 0


def test_a_failed_run_leaves_every_variable_and_slot_as_it_was():
    # gradients fed through placeholders of unknown shape (gradient accumulation): the
    # second one has the wrong shape, so the run fails after the first update could run
    a = tf.Variable(np.ones((64, 64), np.float32))
    b = tf.Variable(np.ones((64, 64), np.float32))
    ga, gb = tf.placeholder(tf.float32), tf.placeholder(tf.float32)
    opt = tf.train.AdamOptimizer(0.1)
    train = opt.apply_gradients([(ga, a), (gb, b)])
    good = np.full((64, 64), 0.5, np.float32)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(train, {ga: good, gb: good})
        before = sess.run([a, b, opt.get_slot(a, "m"), opt.get_slot(a, "v")])
        with pytest.raises(tf.errors.InvalidArgumentError, match="grad"):
            sess.run(train, {ga: good, gb: np.ones((3,), np.float32)})
        after = sess.run([a, b, opt.get_slot(a, "m"), opt.get_slot(a, "v")])
    for x, y in zip(before, after):
        np.testing.assert_array_equal(x, y)


def test_a_product_failing_on_the_worker_leaves_in_place_updates_unwritten(one_blas_thread):
    # w1's gradient is a product of fed arrays of unknown batch size, computed on the worker
    # while w2's update is written in place; with batches that do not match, the product
    # fails (checked before it starts), and w2's update must not have run
    a, b = tf.placeholder(tf.float32, [None, 400]), tf.placeholder(tf.float32, [None, 500])
    g2 = tf.placeholder(tf.float32, [500, 400])
    w1 = tf.Variable(np.ones((400, 500), np.float32))
    w2 = tf.Variable(np.ones((500, 400), np.float32))
    opt = tf.train.AdamOptimizer(0.1)
    train = opt.apply_gradients([(tf.matmul(a, b, transpose_a=True), w1), (g2, w2)])
    feed = {a: np.ones((64, 400), np.float32), b: np.ones((64, 500), np.float32),
            g2: np.ones((500, 400), np.float32)}
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(train, feed)
        src = list(sess._plans.values())[-1].source
        lines = src.splitlines()
        launch = next(i for i, ln in enumerate(lines) if "_go(" in ln and "(MatMul)" in ln)
        wait = next(i for i, ln in enumerate(lines) if ".result()" in ln and "(MatMul)" in ln)
        assert any("_own(" in ln for ln in lines[launch:wait]), src  # w2 in place meanwhile
        before = sess.run([w1, w2, opt.get_slot(w1, "m"), opt.get_slot(w2, "m")])
        with pytest.raises(tf.errors.InvalidArgumentError):
            sess.run(train, {**feed, a: np.ones((63, 400), np.float32)})
        after = sess.run([w1, w2, opt.get_slot(w1, "m"), opt.get_slot(w2, "m")])
    for x, y in zip(before, after):
        np.testing.assert_array_equal(x, y)


def test_updates_in_place_before_a_worker_product_only_when_it_cannot_fail(one_blas_thread):
    # the MLP's first-layer gradient runs on the worker beside the other layers' updates;
    # those may write in place only because the product's shapes were checked at its start
    x = tf.placeholder(tf.float32, [None, 300])
    w1 = tf.Variable(RNG.randn(300, 600).astype(np.float32) * 0.05)
    w2 = tf.Variable(RNG.randn(600, 600).astype(np.float32) * 0.05)
    loss = tf.reduce_sum(tf.square(tf.matmul(tf.nn.relu(tf.matmul(x, w1)), w2)))
    train = tf.train.AdamOptimizer(0.01).minimize(loss)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(train, {x: RNG.randn(32, 300).astype(np.float32)})
        src = list(sess._plans.values())[-1].source
    lines = src.splitlines()
    first_inplace = min(i for i, line in enumerate(lines) if "_own(" in line)
    for i, line in enumerate(lines):
        if ".result()" in line and i > first_inplace:
            fut = line.split(".result()")[0].split()[-1]
            start = next(k for k, ln in enumerate(lines) if ln.strip().startswith(fut + " = _go("))
            assert ".shape[" in lines[start - 1] and lines[start - 1].strip().startswith("if "), src


def test_a_failed_run_after_an_assign_without_shape_validation_changes_no_variable():
    # b's static shape says (64, 64), but an Assign with validate_shape=False made it 3x3:
    # b's update fails after a's, which must not have been written in place
    a = tf.Variable(np.ones((64, 64), np.float32))
    b = tf.Variable(np.ones((64, 64), np.float32))
    ga, gb = tf.placeholder(tf.float32, [64, 64]), tf.placeholder(tf.float32, [64, 64])
    train = tf.train.GradientDescentOptimizer(0.1).apply_gradients([(ga, a), (gb, b)])
    total = tf.reduce_sum(b)                    # reads b before the updates
    reshape_b = tf.assign(b, np.ones((3, 3), np.float32), validate_shape=False)
    good = np.full((64, 64), 0.5, np.float32)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run([train, total], {ga: good, gb: good})
        sess.run(reshape_b)
        before = sess.run(a)
        with pytest.raises(tf.errors.InvalidArgumentError, match="delta"):
            sess.run([train, total], {ga: good, gb: good})
        np.testing.assert_array_equal(sess.run(a), before)


@pytest.mark.parametrize("threads,overlaps", [(0, True), (2, True), (1, False), (-1, False)])
def test_inter_op_parallelism_threads_of_the_config(one_blas_thread, threads, overlaps):
    # as in TensorFlow's ConfigProto: 0 lets the system choose; negative runs every op in
    # the caller's thread
    config = type("Config", (), {"inter_op_parallelism_threads": threads})()
    x, y, loss, train = _mlp()
    with tf.Session(config=config) as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(train, {x: np.ones((4, 300), np.float32), y: np.ones((4, 10), np.float32)})
        src = list(sess._plans.values())[-1].source
    assert ("_go(" in src) == overlaps


@pytest.mark.parametrize("setting,config_threads,overlaps",
                         [(1, 0, False), (-1, 0, False), (1, 2, True), (0, 0, True)])
def test_tf_config_threading_sets_the_default_for_sessions(one_blas_thread, monkeypatch,
                                                           setting, config_threads, overlaps):
    # tf.config.threading.set_inter_op_parallelism_threads is the default a session's
    # config leaves at 0, as in TensorFlow
    import flowgrad.config as tf_config
    from flowgrad.framework.context import state
    monkeypatch.setattr(state, "inter_op_threads", 0)
    tf_config.threading.set_inter_op_parallelism_threads(setting)
    assert tf_config.threading.get_inter_op_parallelism_threads() == setting
    config = type("Config", (), {"inter_op_parallelism_threads": config_threads})()
    x, y, loss, train = _mlp()
    with tf.Session(config=config) as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(train, {x: np.ones((4, 300), np.float32), y: np.ones((4, 10), np.float32)})
        src = list(sess._plans.values())[-1].source
    assert ("_go(" in src) == overlaps


def test_every_update_of_a_serial_plan_is_in_place():
    # the slots are loaded before the first update, so no load (which fails on an
    # uninitialized variable) follows an update and keeps it out of place
    x, y, loss, train = _mlp()
    feeds = {x: np.ones((4, 300), np.float32), y: np.ones((4, 10), np.float32)}
    with tf.Session(config=_Serial()) as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(train, feeds)
        arrays = {op: sess._state[op] for op in sess._owned}
        sess.run(train, feeds)
        assert len(arrays) == 18                # 6 variables, 12 Adam slots
        assert all(sess._state[op] is a for op, a in arrays.items())


def test_a_run_failing_on_an_uninitialized_slot_writes_nothing():
    x, y, loss, train = _mlp()
    feeds = {x: np.ones((4, 300), np.float32), y: np.ones((4, 10), np.float32)}
    variables = tf.global_variables()
    last_slot = max((v for v in variables if v.op.name.endswith("Adam_1")), key=lambda v: v.op._id)
    with tf.Session(config=_Serial()) as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(train, feeds)
        sess.run(train, feeds)                  # every array is owned: updates are in place
        sess._state.pop(last_slot.op)
        before = sess.run([v for v in variables if v is not last_slot])
        with pytest.raises(tf.errors.FailedPreconditionError, match=last_slot.op.name):
            sess.run(train, feeds)
        after = sess.run([v for v in variables if v is not last_slot])
    for a, b in zip(before, after):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("replace", ["initializer", "load"])
def test_a_replaced_variable_value_is_not_kept_alive(replace):
    import weakref
    w, _, train = _model(tf.train.GradientDescentOptimizer(0.01))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(train)                         # w's array is owned: the next step is in place
        sess.run(train)
        old = weakref.ref(sess._state[w.op])
        if replace == "initializer":
            sess.run(w.initializer)
        else:
            w.load(W0, sess)
        assert old() is None                    # the session holds no array w no longer has
        sess.run(train)
        np.testing.assert_allclose(sess.run(w), _numpy_sgd(W0, 0.01), rtol=1e-5)


@pytest.mark.parametrize("make_opt,slots", [
    (lambda lr: tf.train.AdamOptimizer(lr), ("m", "v")),
    (lambda lr: tf.train.MomentumOptimizer(lr, 0.9), ("momentum",)),
    (lambda lr: tf.train.GradientDescentOptimizer(lr), ()),
    (lambda lr: tf.train.RMSPropOptimizer(lr, momentum=0.9), ("rms", "momentum")),
    (lambda lr: tf.train.RMSPropOptimizer(lr, centered=True), ("rms", "mg")),
    (lambda lr: tf.train.AdagradOptimizer(lr), ("accumulator",)),
    (lambda lr: tf.train.AdadeltaOptimizer(lr), ("accum", "accum_update"))])
def test_a_learning_rate_that_is_not_a_scalar_fails_before_any_write(make_opt, slots):
    lr = tf.placeholder(tf.float32)             # of unknown shape: checked at run time
    opt = make_opt(lr)
    w, _, train = _model(opt)
    watched = [w] + [opt.get_slot(w, s) for s in slots]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(2):                      # owned arrays: the updates are in place
            sess.run(train, {lr: 0.01})
        before = sess.run(watched)
        for bad in (np.float32([0.01, 0.02]), np.full(3, 0.01, np.float32)):
            with pytest.raises(tf.errors.InvalidArgumentError, match="is not a scalar: \\[%d\\]"
                               % bad.size):
                sess.run(train, {lr: bad})
            for a, b in zip(before, sess.run(watched)):
                np.testing.assert_array_equal(a, b)


def test_a_run_failing_beside_a_kernel_on_the_worker_returns_after_it(one_blas_thread,
                                                                      monkeypatch):
    from flowgrad.runtime.plan import emitter, overlap
    submitted = []

    def submit(futures, kernel, *args):
        f = overlap.inter_op_executor().submit(kernel, *args)
        futures.append(f)
        submitted.append(f)
        return f
    monkeypatch.setattr(emitter, "submit", submit)
    rng = np.random.RandomState(7)
    w1 = tf.Variable(rng.rand(1024, 1024).astype(np.float32))
    w2 = tf.Variable(rng.rand(1024, 1024).astype(np.float32))
    x = tf.placeholder(tf.float32, [None, 1024])
    x2 = tf.placeholder(tf.float32, [None, None])
    slow = tf.matmul(tf.matmul(x, w1), w2)     # x @ w1 runs on the worker
    bad = tf.matmul(x2, w2) + tf.matmul(x, w2)  # x2 @ w2 fails here meanwhile
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        with pytest.raises(tf.errors.InvalidArgumentError, match="MatMul_2"):
            sess.run([slow, bad], {x: np.ones((512, 1024), np.float32),
                                   x2: np.ones((4, 3), np.float32)})
        assert submitted and all(f.done() for f in submitted)


def test_kernels_on_the_worker_print_no_numpy_warnings(one_blas_thread):
    import warnings
    # 0/0 in Adam's step (epsilon 0, zero gradients): nan, silently, as in TensorFlow
    a = tf.Variable(np.ones((512, 512), np.float32))
    b = tf.Variable(np.ones((512, 512), np.float32))
    x = tf.placeholder(tf.float32, [None, 512])
    loss = tf.reduce_sum(tf.matmul(tf.matmul(x, a), b)) * 0.0
    train = tf.train.AdamOptimizer(0.1, epsilon=0.0).minimize(loss)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            for _ in range(2):
                sess.run(train, {x: np.ones((4, 512), np.float32)})
        assert "_go(" in list(sess._plans.values())[-1].source
        assert np.isnan(sess.run(a)).all()
    assert not [w for w in caught if issubclass(w.category, RuntimeWarning)]


@pytest.mark.parametrize("make_opt", [
    lambda lr: tf.train.MomentumOptimizer(lr, 0.9),
    lambda lr: tf.train.RMSPropOptimizer(lr, momentum=0.9),
    lambda lr: tf.train.RMSPropOptimizer(lr, centered=True),
    lambda lr: tf.train.AdagradOptimizer(lr),
    lambda lr: tf.train.AdadeltaOptimizer(lr)])
def test_sparse_updates_check_their_hyper_parameters_are_scalars(make_opt):
    lr = tf.placeholder(tf.float32)             # of unknown shape: checked at run time
    w = tf.Variable(np.ones((10, 3), np.float32))
    train = make_opt(lr).minimize(tf.reduce_sum(tf.gather(w, [1, 2, 2])))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(train, {lr: 0.01})
        before = sess.run(w)
        with pytest.raises(tf.errors.InvalidArgumentError, match="Sparse.*lr is not a scalar"):
            sess.run(train, {lr: np.full(3, 0.01, np.float32)})
        np.testing.assert_array_equal(sess.run(w), before)
