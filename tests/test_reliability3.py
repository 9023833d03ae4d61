"""Reliability faults of issue 25: tf.function tracing under threads, unbounded loops,
unknown shapes and empty tensors, errors of TensorFlow's class, damaged files.

Each test reproduces a fault (it failed before its fix) or pins the behaviour beside it."""
import contextlib
import threading
import time

import numpy as np
import pytest


import flowgrad
import flowgrad.compat.v1 as tf
from flowgrad.framework import errors
from flowgrad.framework.context import state
from tests.gradcheck import check_gradients


@contextlib.contextmanager
def eager():
    """Eager mode inside the block (conftest starts every test in graph mode)."""
    tf.enable_v2_behavior()
    try:
        yield
    finally:
        state.tapes.clear()
        tf.disable_v2_behavior()


def _in_threads(target, n=4):
    """Runs ``target(i)`` on ``n`` threads started together; returns their exceptions."""
    barrier = threading.Barrier(n)
    errs = []

    def run(i):
        barrier.wait()
        try:
            target(i)
        except Exception as e:          # noqa: BLE001 - reported by the test
            errs.append(e)
    ts = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    return errs


# --------------------------------------------------------------------------------------
# Tracing state is per thread: a trace never captures another thread's ops


def test_function_first_called_from_threads_traces_once():
    with eager():
        c = flowgrad.Variable(0)

        @flowgrad.function
        def f(x):
            time.sleep(0.02)            # other threads start while this one traces
            c.assign_add(1)
            return x * 2.0
        out = []
        errs = _in_threads(lambda i: out.append(f(flowgrad.constant(float(i))).numpy()))
        assert errs == []
        assert sorted(out) == [0.0, 2.0, 4.0, 6.0]
        f(flowgrad.constant(1.0))
        assert c.numpy() == 5             # TensorFlow: 5 (each call runs the body once)
        assert f.experimental_get_tracing_count() == 1


def test_eager_ops_on_other_threads_while_tracing_stay_eager():
    with eager():
        started, done = threading.Event(), threading.Event()
        seen = {}

        @flowgrad.function
        def f(x):
            started.set()
            done.wait(5)
            return x + 1.0
        t = threading.Thread(target=lambda: seen.setdefault("y", f(flowgrad.constant(1.0))))
        t.start()
        started.wait(5)
        y = flowgrad.constant(3.0) * 2.0      # this thread is eager while the other traces
        seen["eager"] = flowgrad.executing_eagerly()
        done.set()
        t.join()
        assert y.numpy() == 6.0 and seen["eager"]
        assert seen["y"].numpy() == 2.0
        traced = f.get_concrete_function(flowgrad.constant(1.0)).graph.get_operations()
        assert "Mul" not in [op.type for op in traced]


def test_name_scope_and_control_dependencies_are_per_thread():
    g = tf.Graph()
    with g.as_default():
        dep = tf.no_op(name="dep")
    inside, leave = threading.Event(), threading.Event()

    def scoped():
        with g.as_default(), g.name_scope("outer"), g.control_dependencies([dep]), \
                g.device("/cpu:0"):
            inside.set()
            leave.wait(5)
    t = threading.Thread(target=scoped)
    t.start()
    inside.wait(5)
    with g.as_default():
        x = tf.constant(1.0, name="x")
    leave.set()
    t.join()
    assert x.op.name == "x" and x.op.control_inputs == [] and x.op.device == ""


def test_tape_records_only_its_own_thread():
    with eager():
        v = flowgrad.Variable(2.0)
        opened, ran = threading.Event(), threading.Event()
        grads = {}

        def taped():
            with flowgrad.GradientTape() as tape:
                opened.set()
                ran.wait(5)
                y = v * 3.0
            grads["g"] = tape.gradient(y, v)
        t = threading.Thread(target=taped)
        t.start()
        opened.wait(5)
        z = v * v                          # not under the other thread's tape
        tapes_here = list(state.tapes)
        ran.set()
        t.join()
        assert grads["g"].numpy() == 3.0 and z.numpy() == 4.0
        assert tapes_here == []


def test_graph_default_is_per_thread():
    g = tf.Graph()
    seen = {}
    with g.as_default():
        t = threading.Thread(target=lambda: seen.setdefault("g", tf.get_default_graph()))
        t.start()
        t.join()
    assert seen["g"] is not g and seen["g"] is tf.get_default_graph()


# --------------------------------------------------------------------------------------
# while_loop: a negative maximum_iterations runs no iteration (TensorFlow); bad arguments


@pytest.mark.parametrize("limit", [-1, -5])
def test_graph_while_negative_maximum_iterations_runs_no_iteration(limit):
    m = tf.placeholder(tf.int32, [])
    fed = tf.while_loop(lambda i: i < 10, lambda i: i + 1, [0], maximum_iterations=m)
    const = tf.while_loop(lambda i: i < 10, lambda i: i + 1, [0], maximum_iterations=limit)
    free = tf.while_loop(lambda i: i < 10, lambda i: i + 1, [0])
    with tf.Session() as s:
        assert s.run(fed, {m: limit}) == 0 and s.run(fed, {m: 3}) == 3
        assert s.run(const) == 0 and s.run(free) == 10   # TensorFlow: 0, 3, 0, 10


def test_graph_while_negative_limit_in_gradient_and_map():
    x = tf.constant(2.0)
    m = tf.placeholder(tf.int32, [])
    y = tf.while_loop(lambda i, a: i < 10, lambda i, a: (i + 1, a * x), [0, 1.0],
                      maximum_iterations=m)[1]
    g = tf.gradients(y, x)[0]
    with tf.Session() as s:
        assert s.run([y, g], {m: -2}) == [1.0, 0.0]
        assert s.run([y, g], {m: 3}) == [8.0, 12.0]


def test_while_maximum_iterations_float_names_the_argument():
    with pytest.raises(TypeError, match="maximum_iterations: Expected int32, but got 2.5"):
        tf.while_loop(lambda i: i < 10, lambda i: i + 1, [0], maximum_iterations=2.5)
    with eager():    # TensorFlow's eager loop compares the counter with 2.5: 2 iterations
        r = flowgrad.while_loop(lambda i: i < 10, lambda i: [i + 1], [0],
                                maximum_iterations=2.5)
        assert r[0].numpy() == 2


@pytest.mark.parametrize("p", [0, -1])
def test_parallel_iterations_below_one_is_type_error(p):
    x = tf.constant([1.0, 2.0])
    for call in (lambda: tf.while_loop(lambda i: i < 3, lambda i: i + 1, [0],
                                       parallel_iterations=p),
                 lambda: flowgrad.while_loop(lambda i: i < 3, lambda i: [i + 1], [0],
                                             parallel_iterations=p),
                 lambda: tf.scan(lambda a, b: a + b, x, parallel_iterations=p),
                 lambda: tf.foldl(lambda a, b: a + b, x, parallel_iterations=p),
                 lambda: tf.foldr(lambda a, b: a + b, x, parallel_iterations=p)):
        with pytest.raises(TypeError, match="'parallel_iterations' must be a positive integer"):
            call()
    tf.map_fn(lambda a: a * 2, x, parallel_iterations=p)    # TensorFlow accepts it here


def test_non_scalar_predicates_fed_at_run_time_are_invalid_argument():
    p = tf.placeholder(tf.bool)
    r = tf.cond(p, lambda: tf.constant(1), lambda: tf.constant(2))
    w = tf.while_loop(lambda i: p, lambda i: i + 1, [0], maximum_iterations=3)
    m = tf.placeholder(tf.int32)
    w2 = tf.while_loop(lambda i: i < 5, lambda i: i + 1, [0], maximum_iterations=m)
    with tf.Session() as s:
        with pytest.raises(errors.InvalidArgumentError,
                           match=r"must be a scalar, but it has shape \[2\]"):
            s.run(r, {p: [True, False]})
        with pytest.raises(errors.InvalidArgumentError, match=r"loop condition must be a scalar"):
            s.run(w, {p: [True, False]})
        with pytest.raises(errors.InvalidArgumentError, match=r"maximum_iterations must be a"):
            s.run(w2, {m: [1, 2]})
        assert s.run(r, {p: False}) == 2 and s.run(w, {p: True}) == 3


# --------------------------------------------------------------------------------------
# tf.layers with a boolean tensor `training` keep the static shape (TensorFlow's smart_cond)


def test_layers_with_training_tensor_of_unknown_shape_keep_static_shape():
    x = tf.placeholder(tf.float32, [None, 8, 8, 3])
    t = tf.placeholder(tf.bool)
    d = tf.layers.dropout(x, 0.5, training=t)
    b = tf.layers.batch_normalization(d, training=t)
    assert d.shape.as_list() == [None, 8, 8, 3] and b.shape.as_list() == [None, 8, 8, 3]
    y = tf.layers.dense(tf.layers.flatten(tf.layers.conv2d(b, 2, 3)), 1)
    update = tf.get_collection(tf.GraphKeys.UPDATE_OPS)
    with tf.Session() as s:
        s.run(tf.global_variables_initializer())
        xv = np.random.RandomState(0).randn(4, 8, 8, 3).astype(np.float32)
        infer = s.run(y, {x: xv, t: False})
        np.testing.assert_array_equal(infer, s.run(y, {x: xv, t: False}))
        mean = [v for v in tf.global_variables() if "moving_mean" in v.name][0]
        s.run(update, {x: xv, t: True})
        assert np.abs(s.run(mean)).sum() > 0       # the training branch updated it


# --------------------------------------------------------------------------------------
# stop_gradients as a single tensor; a source the tape never watched gets None


def test_gradients_accepts_a_single_stop_gradients_tensor():
    x = tf.constant(3.0)
    a = x * 2.0
    y = a * x
    g_single = tf.gradients(y, [x], stop_gradients=a)
    g_list = tf.gradients(y, [x], stop_gradients=[a])
    from flowgrad.debug import explain_gradient
    explain_gradient(y, [x], stop_gradients=a)
    with tf.Session() as s:
        assert s.run(g_single) == s.run(g_list) == [6.0]     # TensorFlow: [6.0]


def test_tape_gradient_of_an_unwatched_constant_is_none():
    with eager():
        x, c = flowgrad.constant(1.0), flowgrad.constant(2.0)
        with flowgrad.GradientTape(persistent=True) as tape:
            tape.watch(x)
            y = x * c
            z = y * 3.0
        gx, gc, gy = tape.gradient(z, [x, c, y])       # TensorFlow: 6.0, None, 3.0
        assert gx.numpy() == 6.0 and gc is None and gy.numpy() == 3.0
        jx, jc = tape.jacobian(y, [x, c])
        assert jx.numpy() == 2.0 and jc is None
        zero = tape.gradient(z, c, unconnected_gradients="zero")
        assert zero.numpy() == 0.0


# --------------------------------------------------------------------------------------
# Unknown ranks and dimensions in graph mode; empty tensors in both modes


def _unknown(x, rank_known=False):
    """``x`` with its static shape forgotten (its rank too unless ``rank_known``)."""
    shape = [None] * x.shape.rank if rank_known else None
    return tf.placeholder_with_default(x, shape)


@pytest.mark.parametrize("rank_known", [False, True])
@pytest.mark.parametrize("case", ["matrix_transpose", "cholesky", "eigvalsh", "sort0",
                                  "sort_last", "segment_max", "segment_min",
                                  "unsorted_segment_max", "einsum_diag"])
def test_unknown_shapes_build_and_differentiate(case, rank_known):
    rng = np.random.RandomState(1)
    a = rng.rand(3, 3)
    spd = a @ a.T + 3 * np.eye(3)
    ids = tf.constant([0, 0, 1])
    forget = [False]

    def u(x):
        return _unknown(x, rank_known) if forget[0] else x
    fns = {
        "matrix_transpose": (lambda x: tf.linalg.matrix_transpose(u(x)), rng.rand(2, 3, 4)),
        "cholesky": (lambda x: tf.linalg.cholesky(u((x + tf.linalg.matrix_transpose(x)) / 2)),
                     spd),
        "eigvalsh": (lambda x: tf.linalg.eigvalsh(u((x + tf.linalg.matrix_transpose(x)) / 2)),
                     spd + np.diag([0.0, 1.0, 2.5])),
        "sort0": (lambda x: tf.sort(u(x), 0), rng.rand(3, 4)),
        "sort_last": (lambda x: tf.sort(u(x), direction="DESCENDING"), rng.rand(2, 3, 4)),
        "segment_max": (lambda x: tf.math.segment_max(u(x), u(ids)), rng.rand(3, 2)),
        "segment_min": (lambda x: tf.math.segment_min(u(x), u(ids)), rng.rand(3, 2)),
        "unsorted_segment_max": (lambda x: tf.math.unsorted_segment_max(u(x), u(ids), 2),
                                 rng.rand(3, 2)),
        "einsum_diag": (lambda x: tf.einsum("ii->i", u(x)), rng.rand(3, 3)),
    }
    fn, value = fns[case]
    with tf.Graph().as_default():
        static = fn(tf.constant(value)).shape     # the output shape where shapes are known
        assert static.is_fully_defined()
    forget[0] = True
    known = {"matrix_transpose": lambda v: np.swapaxes(v, -1, -2),
             "sort0": lambda v: np.sort(v, 0), "sort_last": lambda v: -np.sort(-v, -1),
             "einsum_diag": np.diag}
    check_gradients(lambda x: tf.reshape(fn(x), static), [value], order=2)
    if case in known:
        with tf.Session() as s:
            np.testing.assert_allclose(s.run(fn(tf.constant(value))), known[case](value))


def test_sort_of_unknown_rank_on_a_middle_axis():
    x = tf.placeholder(tf.float64)
    v = np.random.RandomState(2).rand(2, 3, 4)
    with tf.Session() as s:
        np.testing.assert_array_equal(s.run(tf.sort(x, 1), {x: v}), np.sort(v, 1))
        np.testing.assert_array_equal(s.run(tf.argsort(x, -2), {x: v}), np.argsort(v, 1))
    assert tf.linalg.matrix_transpose(x).shape.rank is None


@pytest.mark.parametrize("mode", ["graph", "eager"])
@pytest.mark.parametrize("case", ["top_k0", "top_k_rows0", "sort_empty", "einsum_ellipsis",
                                  "einsum_diag_empty", "useg_max_empty", "conv_h0"])
def test_empty_and_degenerate_gradients(case, mode):
    cases = {
        "top_k0": (lambda x: tf.math.top_k(x, 0)[0], (2, 3)),
        "top_k_rows0": (lambda x: tf.math.top_k(x, 2)[0], (0, 3)),
        "sort_empty": (lambda x: tf.sort(x, 0), (0, 2)),
        "einsum_ellipsis": (lambda x: tf.einsum("i...->...", x), (3, 2)),
        "einsum_diag_empty": (lambda x: tf.einsum("ii->i", x), (0, 0)),
        "useg_max_empty": (lambda x: tf.math.unsorted_segment_max(
            x, tf.zeros([0], tf.int32), 2), (0, 0)),
        "conv_h0": (lambda x: tf.nn.conv2d(x, tf.ones([1, 1, 1, 2], tf.float64), 1, "VALID"),
                    (2, 0, 3, 1)),
    }
    fn, shape = cases[case]
    value = np.random.RandomState(3).rand(*shape)
    if mode == "eager":
        with eager():
            check_gradients(fn, [value], order=2, mode="eager")
    else:
        check_gradients(fn, [value], order=2)


def test_empty_results_have_tensorflows_shapes():
    with eager():       # recorded from TensorFlow 2.21
        assert flowgrad.math.unsorted_segment_max(
            flowgrad.zeros([0, 0]), flowgrad.zeros([0], flowgrad.int32), 2).shape == (2, 0)
        z = flowgrad.zeros([0, 3])
        assert [flowgrad.reshape(z, s).shape for s in ([-1, 0], [0, -1], [-1, 0, 2],
                                                       [3, -1, 0])] == \
            [(3, 0), (0, 3), (1, 0, 2), (3, 1, 0)]
        assert flowgrad.linalg.expm(flowgrad.zeros([2, 0, 0])).shape == (2, 0, 0)


# --------------------------------------------------------------------------------------
# Keras: damaged weights files name the file (OSError, as Keras); TensorFlow's classes


def _keras_mlp():
    keras = flowgrad.compat.v1.keras
    return keras.Sequential([keras.Input((3,)), keras.layers.Dense(4),
                             keras.layers.Dense(1)])


def test_damaged_keras_weights_files_raise_oserror_naming_the_file(tmp_path):
    with eager():
        model = _keras_mlp()
        path = str(tmp_path / "m.weights.npz")
        model.save_weights(path)
        data = open(path, "rb").read()
        before = [w.numpy().copy() for w in model.weights]
        rng = np.random.RandomState(0)
        damaged = [data[:n] for n in (0, 10, len(data) // 2, len(data) - 1)]
        for k in rng.randint(0, len(data), 24):
            flipped = bytearray(data)
            flipped[k] ^= 1 << int(rng.randint(8))
            damaged.append(bytes(flipped))
        for i, blob in enumerate(damaged):
            bad = str(tmp_path / ("bad%d.weights.npz" % i))
            open(bad, "wb").write(blob)
            try:
                model.load_weights(bad)
            except OSError as e:            # before: BadZipFile, EOFError, KeyError, ...
                assert bad in str(e)
                for w, b in zip(model.weights, before):
                    np.testing.assert_array_equal(w.numpy(), b)   # nothing half-loaded
            else:                           # a flip in bytes no reader checks
                model.load_weights(path)
        with pytest.raises(FileNotFoundError):
            model.load_weights(str(tmp_path / "missing.weights.npz"))


def test_keras_errors_of_kerass_class():
    with eager():
        model = _keras_mlp()
        with pytest.raises(ValueError, match="must call `compile"):      # Keras: ValueError
            model.fit(np.ones((4, 3), np.float32), np.ones((4, 1)), verbose=0)
        for x in (np.ones((4, 2, 3), np.float32), np.ones((3,), np.float32)):
            with pytest.raises(ValueError, match="Invalid input shape"):   # Keras: ValueError
                model(x)
            with pytest.raises(ValueError, match="Invalid input shape"):
                model.predict(x, verbose=0)
        assert model(np.ones((4, 3), np.float32)).shape == (4, 1)


def test_terminate_on_nan_stops_at_the_first_invalid_batch(capsys):
    keras = flowgrad.compat.v1.keras
    with eager():
        model = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1)])
        model.compile("sgd", "mse")
        x, y = np.ones((8, 1), np.float32), np.ones((8, 1), np.float32)
        y[5] = np.nan
        seen = []
        h = model.fit(x, y, batch_size=2, epochs=3, verbose=0, shuffle=False,
                      callbacks=[keras.callbacks.TerminateOnNaN(),
                                 keras.callbacks.LambdaCallback(
                                     on_train_batch_end=lambda b, logs: seen.append(b))])
        # Keras 3.15: "Batch 2: Invalid loss, terminating training", one epoch logged
        assert "Batch 2: Invalid loss, terminating training" in capsys.readouterr().out
        assert seen == [0, 1, 2] and h.epoch == [0] and np.isnan(h.history["loss"][0])


# --------------------------------------------------------------------------------------
# tf.data errors of TensorFlow's class


@pytest.mark.parametrize("exc, cls", [(RuntimeError, errors.UnknownError),
                                      (KeyError, errors.UnknownError),
                                      (ValueError, errors.InvalidArgumentError),
                                      (TypeError, errors.InvalidArgumentError),
                                      (NotImplementedError, errors.UnimplementedError)])
def test_from_generator_errors_are_wrapped_as_tensorflows_pyfunc(exc, cls):
    def gen():
        yield 1
        raise exc("boom")
    with eager():
        ds = flowgrad.data.Dataset.from_generator(
            gen, output_signature=flowgrad.TensorSpec([], flowgrad.int32))
        it = iter(ds)
        assert next(it).numpy() == 1
        with pytest.raises(cls, match="boom"):       # TensorFlow 2.21's classes
            next(it)


def test_padded_batch_to_a_smaller_static_shape_is_value_error():
    with eager():
        ds = flowgrad.data.Dataset.from_tensor_slices([[1, 2, 3]])
        with pytest.raises(ValueError, match=r"The padded shape \(2,\) is not compatible"):
            ds.padded_batch(1, padded_shapes=[2])


def test_empty_segments_of_unsorted_max_min_hold_the_lowest_finite_value():
    # TensorFlow 2.21 (tools/tf_reference/segment_empty_values.py): numeric_limits::lowest()
    with eager():
        x = flowgrad.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
        ids = flowgrad.constant([0, 0, 2])
        mx = flowgrad.math.unsorted_segment_max(x, ids, 4).numpy()
        mn = flowgrad.math.unsorted_segment_min(x, ids, 4).numpy()
        lo, hi = np.finfo(np.float32).min, np.finfo(np.float32).max
        np.testing.assert_array_equal(mx, [[3, 4], [lo, lo], [5, 6], [lo, lo]])
        np.testing.assert_array_equal(mn, [[1, 2], [hi, hi], [5, 6], [hi, hi]])
        assert np.isfinite(mx).all() and np.isfinite(mn).all()
        np.testing.assert_array_equal(flowgrad.math.segment_max(x, ids).numpy(),
                                      [[3, 4], [0, 0], [5, 6]])


def test_keras_weights_files_honour_the_umask_and_clean_killed_saves(tmp_path):
    import os
    with eager():
        model = _keras_mlp()
        path = str(tmp_path / "m.weights.npz")
        orphan = tmp_path / ".m.weights.npz.killed.tmp"      # what a killed save leaves
        orphan.write_bytes(b"partial")
        os.utime(orphan, (1e9, 1e9))         # long dead (a fresh one may be a live writer's)
        old = os.umask(0o022)
        try:
            model.save_weights(path)
        finally:
            os.umask(old)
        assert os.stat(path).st_mode & 0o777 == 0o644        # TensorFlow/Keras: 0666 & ~umask
        assert sorted(os.listdir(tmp_path)) == ["m.weights.npz"]
        model.load_weights(path)


# --------------------------------------------------------------------------------------
# flowgrad's own SavedModel format: a damaged file is a DataLossError naming it


def test_damaged_flowgrad_saved_model_names_the_file(tmp_path, monkeypatch):
    import os
    from flowgrad.saved_model import saved_model as sm
    monkeypatch.setattr(sm, "_save_tf_format", lambda *a: "flowgrad format asked by the test")
    with eager():
        class M(flowgrad.Module):
            def __init__(self):
                super().__init__()
                self.v = flowgrad.Variable([1.0, 2.0])

            @flowgrad.function(input_signature=[flowgrad.TensorSpec([2])])
            def __call__(self, x):
                return x * self.v
        good = str(tmp_path / "good")
        flowgrad.saved_model.save(M(), good)
        meta = os.path.join(good, sm.META_FILENAME)
        npz = os.path.join(good, "variables", "variables.npz")
        assert os.path.isfile(meta) and os.path.isfile(npz)
        text, blob = open(meta, "rb").read(), open(npz, "rb").read()
        rng = np.random.RandomState(0)
        cases = [(meta, text[:len(text) // 2]), (meta, b"\xff\xfe" + text),
                 (meta, text.replace(b'"functions"', b'"functionz"')),
                 (meta, text.replace(b'"object_graph"', b'"object_graf"')),
                 (npz, blob[:len(blob) // 2])]
        for k in rng.randint(0, len(blob), 12):
            flipped = bytearray(blob)
            flipped[k] ^= 1 << int(rng.randint(8))
            cases.append((npz, bytes(flipped)))
        for path, data in cases:
            open(path, "wb").write(data)
            try:
                m = flowgrad.saved_model.load(good)
            except errors.DataLossError as e:
                assert path in str(e)
            else:                  # a flip no reader checks (zip padding): still right
                np.testing.assert_array_equal(m(flowgrad.constant([1.0, 1.0])).numpy(), [1, 2])
            open(meta, "wb").write(text)
            open(npz, "wb").write(blob)


def test_keras_string_inputs_and_labels_are_value_errors():
    keras = flowgrad.compat.v1.keras
    with eager():        # Keras 3.15 raises ValueError for both
        with pytest.raises(ValueError, match="dtype='string' is not a valid dtype"):
            keras.layers.Dense(2)(flowgrad.constant([["a", "b"]]))
        model = _keras_mlp()
        model.compile("sgd", "mse")
        with pytest.raises(ValueError, match="Invalid dtype: str32"):
            model.fit(np.ones((4, 3)), np.array(["a", "b", "c", "d"]), verbose=0)
