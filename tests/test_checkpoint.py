"""tf.train.Checkpoint / CheckpointManager: object-graph save and restore, fresh processes."""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import flowgrad as tf
import flowgrad.compat.v1 as tf1
from flowgrad.framework import errors
from flowgrad.framework.context import state

TrackableObjectGraph = pytest.importorskip(
    "tensorboard.compat.proto.trackable_object_graph_pb2").TrackableObjectGraph


def files(prefix):
    """The files of a checkpoint in TensorFlow's format."""
    return [prefix + ".data-00000-of-00001", prefix + ".index"]


@pytest.fixture(autouse=True)
def eager_mode():
    tf1.enable_v2_behavior()
    yield
    state.tapes.clear()


MODEL_SRC = '''
import numpy as np
import flowgrad as tf

class Dense(tf.Module):
    def __init__(self, n_in, n_out, seed):
        super().__init__()
        rng = np.random.RandomState(seed)
        self.w = tf.Variable(rng.randn(n_in, n_out).astype(np.float32), name="w")
        self.b = tf.Variable(np.zeros(n_out, np.float32), name="b")

    def __call__(self, x):
        return tf.matmul(x, self.w) + self.b

class MLP(tf.Module):
    def __init__(self, seed=0):
        super().__init__()
        self.layers = [Dense(3, 4, seed), Dense(4, 1, seed + 1)]

    def __call__(self, x):
        return self.layers[1](tf.nn.relu(self.layers[0](x)))

def train_step(model, opt, x, y):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(x) - y))
    grads = tape.gradient(loss, model.trainable_variables)
    opt.apply_gradients(zip(grads, model.trainable_variables))
    return loss

X = np.random.RandomState(7).randn(16, 3).astype(np.float32)
Y = X.sum(axis=1, keepdims=True)
'''


def _run(code, tmp_path, prelude=MODEL_SRC):
    script = tmp_path / "script.py"
    script.write_text(prelude + textwrap.dedent(code))
    root = os.path.dirname(os.path.dirname(os.path.abspath(tf.__file__)))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [root] + [p for p in [os.environ.get("PYTHONPATH")] if p]))   # the flowgrad tested
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          cwd=str(tmp_path), env=env)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_model_and_adam_slots_round_trip_in_a_fresh_process(tmp_path):
    # Process 1 trains 3 steps and checkpoints; process 2 (fresh objects, no slots yet)
    # restores and trains 2 more; both must equal 5 uninterrupted steps.
    _run('''
        model, opt = MLP(), tf.compat.v1.keras.optimizers.Adam(0.01)
        for _ in range(3):
            train_step(model, opt, X, Y)
        ckpt = tf.train.Checkpoint(model=model, optimizer=opt)
        print(ckpt.save("ckpts/run"))
    ''', tmp_path)
    out = _run('''
        model, opt = MLP(seed=100), tf.compat.v1.keras.optimizers.Adam(0.01)
        ckpt = tf.train.Checkpoint(model=model, optimizer=opt)
        status = ckpt.restore(tf.train.latest_checkpoint("ckpts"))
        status.assert_consumed()
        assert int(opt.iterations.numpy()) == 3
        for _ in range(2):
            train_step(model, opt, X, Y)
        np.save("resumed.npy", np.concatenate([v.numpy().ravel() for v in model.variables]))
        print(float(train_step(model, opt, X, Y)))
    ''', tmp_path)
    resumed = np.load(tmp_path / "resumed.npy")
    model, opt = _mlp_and_opt()
    for _ in range(5):
        _ns["train_step"](model, opt, _ns["X"], _ns["Y"])
    straight = np.concatenate([v.numpy().ravel() for v in model.variables])
    np.testing.assert_array_equal(resumed, straight)
    assert np.isfinite(float(out))


_ns: dict = {}
exec(MODEL_SRC, _ns)


def _mlp_and_opt(seed=0, opt=None):
    return _ns["MLP"](seed), opt or tf.compat.v1.keras.optimizers.Adam(0.01)


def test_keys_follow_the_object_graph_and_the_format_is_the_savers(tmp_path):
    model, opt = _mlp_and_opt()
    _ns["train_step"](model, opt, _ns["X"], _ns["Y"])
    path = tf.train.Checkpoint(model=model, optimizer=opt).write(str(tmp_path / "c"))
    assert path == str(tmp_path / "c") and os.path.isfile(path + ".index")
    names = set(tf.train.load_checkpoint(path).get_variable_to_shape_map())
    # Keras 3's names: the optimizer's own variables, its slots among them (interleaved);
    # a value is keyed by its shortest path, here the optimizer's (as in TensorFlow)
    assert "optimizer/_trainable_variables/0/.ATTRIBUTES/VARIABLE_VALUE" in names
    assert "optimizer/_iterations/.ATTRIBUTES/VARIABLE_VALUE" in names
    assert "optimizer/_variables/2/.ATTRIBUTES/VARIABLE_VALUE" in names
    assert not any(".OPTIMIZER_SLOT" in n for n in names)
    assert "_CHECKPOINTABLE_OBJECT_GRAPH" in names


def test_restore_is_by_object_graph_not_by_variable_names(tmp_path):
    a = tf.Module()
    a.x = tf.Variable([1.0, 2.0], name="first")
    a.nested = {"k": [tf.Variable(3.0, name="second")]}
    path = tf.train.Checkpoint(net=a).write(str(tmp_path / "c"))
    b = tf.Module()
    b.x = tf.Variable([0.0, 0.0], name="other")
    b.nested = {"k": [tf.Variable(0.0, name="names")]}
    tf.train.Checkpoint(net=b).restore(path).assert_consumed()
    assert b.x.numpy().tolist() == [1.0, 2.0] and b.nested["k"][0].numpy() == 3.0


def test_deferred_restoration_of_variables_created_later(tmp_path):
    class Lazy(tf.Module):
        def __init__(self):
            super().__init__()
            self.w = None

        @tf.function
        def __call__(self, x):
            if self.w is None:
                self.w = tf.Variable(tf.zeros([x.shape[-1]]), name="w")
            return x * self.w

    m = Lazy()
    m(tf.ones([2]))
    m.w.assign([5.0, 6.0])
    path = tf.train.Checkpoint(m=m).write(str(tmp_path / "c"))
    fresh = Lazy()
    status = tf.train.Checkpoint(m=fresh).restore(path)
    with pytest.raises(AssertionError, match="Unresolved object"):
        status.assert_consumed()
    assert fresh(tf.ones([2])).numpy().tolist() == [5.0, 6.0]   # restored on creation
    status.assert_consumed()


def test_partial_restores_and_errors(tmp_path):
    m = tf.Module()
    m.v = tf.Variable(1.0)
    m.extra = tf.Variable(2.0)
    path = tf.train.Checkpoint(m=m).write(str(tmp_path / "c"))
    small = tf.Module()
    small.v = tf.Variable(0.0)
    status = tf.train.Checkpoint(m=small).restore(path)
    assert small.v.numpy() == 1.0
    with pytest.raises(AssertionError, match="extra"):
        status.assert_consumed()
    status.expect_partial().assert_existing_objects_matched()

    big = tf.Module()
    big.v, big.extra, big.more = tf.Variable(0.0), tf.Variable(0.0), tf.Variable(0.0)
    with pytest.raises(AssertionError, match="not bound"):
        tf.train.Checkpoint(m=big).restore(path).assert_consumed()

    wrong = tf.Module()
    wrong.v, wrong.extra = tf.Variable(0.0), tf.Variable([0.0, 0.0])
    with pytest.raises(ValueError, match=r"incompatible tensor with shape \(\) when attempting "
                       r"to restore variable with shape \(2,\)"):
        tf.train.Checkpoint(m=wrong).restore(path)
    assert wrong.v.numpy() == 0.0                       # nothing changed
    with pytest.raises(errors.NotFoundError):
        tf.train.Checkpoint(m=m).restore(str(tmp_path / "missing"))
    with pytest.raises(ValueError, match="trackable"):
        tf.train.Checkpoint(m=3)
    with pytest.raises(AssertionError, match="No checkpoint specified"):
        tf.train.Checkpoint(m=m).restore(None).assert_consumed()


def test_manager_keeps_max_to_keep_and_save_counter(tmp_path):
    m = tf.Module()
    m.v = tf.Variable(0.0)
    ckpt = tf.train.Checkpoint(m=m)
    manager = tf.train.CheckpointManager(ckpt, str(tmp_path / "d"), max_to_keep=2)
    assert manager.latest_checkpoint is None
    for i in range(4):
        m.v.assign(float(i))
        manager.save()
    d = str(tmp_path / "d")
    assert manager.checkpoints == [os.path.join(d, "ckpt-3"), os.path.join(d, "ckpt-4")]
    assert sorted(os.listdir(d)) == ["checkpoint"] + files("ckpt-3") + files("ckpt-4")
    assert manager.latest_checkpoint == tf.train.latest_checkpoint(d) == os.path.join(d, "ckpt-4")
    assert int(ckpt.save_counter.numpy()) == 4
    m2 = tf.Module()
    m2.v = tf.Variable(9.0)
    ckpt2 = tf.train.Checkpoint(m=m2)
    again = tf.train.CheckpointManager(ckpt2, d, max_to_keep=2)
    assert again.checkpoints == manager.checkpoints
    ckpt2.restore(again.latest_checkpoint).assert_consumed()
    assert m2.v.numpy() == 3.0 and int(ckpt2.save_counter.numpy()) == 4
    assert again.save() == os.path.join(d, "ckpt-5")


def test_tf1_optimizer_slots_in_graph_mode_with_a_session(tmp_path):
    tf1.disable_v2_behavior()
    w = tf1.Variable([1.0, 2.0], name="w")
    opt = tf1.train.AdamOptimizer(0.1)
    train = opt.minimize(tf1.reduce_sum(tf1.square(w)))
    m = tf1.Module()
    m.w = w
    ckpt = tf1.train.Checkpoint(model=m, optimizer=opt)
    with tf1.Session() as sess:
        sess.run(tf1.global_variables_initializer())
        sess.run(train)
        saved = sess.run([w, opt.get_slot(w, "m"), opt.get_slot(w, "v")])
        path = ckpt.save(str(tmp_path / "g"))
        sess.run(train)
        status = ckpt.restore(path)
        status.assert_consumed()
        restored = sess.run([w, opt.get_slot(w, "m"), opt.get_slot(w, "v")])
    for a, b in zip(saved, restored):
        np.testing.assert_array_equal(a, b)


def test_latest_checkpoint_serves_saver_and_checkpoint_directories(tmp_path):
    v = tf.Variable(1.0, name="v")
    (tmp_path / "s").mkdir()
    saver_path = tf1.train.Saver([v]).save(None, str(tmp_path / "s" / "model"))
    assert tf.train.latest_checkpoint(str(tmp_path / "s")) == saver_path
    m = tf.Module()
    m.same_name = tf.Variable(0.0, name="v")
    m.other = tf.Variable(0.0, name="unknown")
    status = tf.train.Checkpoint(model=m).restore(saver_path)   # matched by variable name
    assert m.same_name.numpy() == 1.0
    with pytest.raises(AssertionError, match="name-based checkpoint"):
        status.assert_consumed()
    with pytest.raises(AssertionError, match="unknown:0"):
        status.assert_existing_objects_matched()


LAZY_SRC = '''
class Lazy(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = None

    @tf.function
    def __call__(self, x):
        if self.w is None:
            self.w = tf.Variable(tf.random.normal([x.shape[-1], 1], seed=3), name="w")
            self.b = tf.Variable(tf.zeros([1]), name="b")
        return tf.matmul(x, self.w) + self.b
'''


@pytest.mark.filterwarnings("ignore:AutoGraph could not transform")  # exec'd source below
def test_lazy_model_and_slots_restored_before_they_exist_in_a_fresh_process(tmp_path):
    # The checkpoint is restored before the first call creates the variables and before
    # Adam made its slots: both get their saved values when they are created.
    _run(LAZY_SRC + '''
model, opt = Lazy(), tf.compat.v1.keras.optimizers.Adam(0.05)
for _ in range(3):
    train_step(model, opt, X, Y)
tf.train.Checkpoint(model=model, optimizer=opt).write("lazy")
''', tmp_path)
    _run(LAZY_SRC + '''
model, opt = Lazy(), tf.compat.v1.keras.optimizers.Adam(0.05)
status = tf.train.Checkpoint(model=model, optimizer=opt).restore("lazy")
for _ in range(2):
    train_step(model, opt, X, Y)
status.assert_consumed()
np.save("resumed.npy", np.concatenate([model.w.numpy().ravel(), model.b.numpy()]))
''', tmp_path)
    ns = dict(_ns)
    exec(LAZY_SRC, ns)
    model, opt = ns["Lazy"](), tf.compat.v1.keras.optimizers.Adam(0.05)
    for _ in range(5):
        ns["train_step"](model, opt, ns["X"], ns["Y"])
    np.testing.assert_array_equal(np.load(tmp_path / "resumed.npy"),
                                  np.concatenate([model.w.numpy().ravel(), model.b.numpy()]))


def test_readme_tf2_example_trains_checkpoints_and_resumes(tmp_path):
    readme = open(os.path.join(os.path.dirname(__file__), "..", "README.md")).read()
    section = readme[readme.index("## TF2 program structure"):]
    code = section[section.index("```python\n") + 10:section.index("```\n", 10)]
    first = [line.split() for line in _run(code, tmp_path, "").splitlines()]
    second = [line.split() for line in _run(code, tmp_path, "").splitlines()]
    assert [row[2] for row in first[:4]] == ["ckpts/ckpt-%d" % i for i in range(1, 5)]
    assert [row[2] for row in second[:4]] == ["ckpts/ckpt-%d" % i for i in range(5, 9)]
    assert float(second[0][1]) < float(first[3][1])      # resumed, not restarted
    assert sorted(os.listdir(tmp_path / "ckpts")) == ["checkpoint"] + files("ckpt-6") + \
        files("ckpt-7") + files("ckpt-8")


def test_a_class_may_name_its_own_dependencies(tmp_path):
    class Pair(tf.Module):
        def __init__(self, a, b):
            super().__init__()
            self._items = [a, b]

        def _trackable_children(self, save_type="checkpoint", **kwargs):
            return {"first": self._items[0], "second": self._items[1]}

    p = Pair(tf.Variable(1.0), tf.Variable(2.0))
    path = tf.train.Checkpoint(p=p).write(str(tmp_path / "c"))
    assert tf.train.load_checkpoint(path).has_tensor("p/second/.ATTRIBUTES/VARIABLE_VALUE")
    q = Pair(tf.Variable(0.0), tf.Variable(0.0))
    tf.train.Checkpoint(p=q).restore(path).assert_consumed()
    assert [float(v.numpy()) for v in q._items] == [1.0, 2.0]


def test_manager_checkpoint_interval_and_preserved_checkpoints(tmp_path, monkeypatch):
    m = tf.Module()
    m.v = tf.Variable(0.0)
    step = tf.Variable(0, dtype=tf.int64)
    ckpt = tf.train.Checkpoint(m=m, step=step)
    with pytest.raises(ValueError, match="step_counter"):
        tf.train.CheckpointManager(ckpt, str(tmp_path), 2, checkpoint_interval=5)
    manager = tf.train.CheckpointManager(ckpt, str(tmp_path / "i"), max_to_keep=None,
                                         step_counter=step, checkpoint_interval=5)
    saved = []
    for i in range(12):
        step.assign(i)
        saved.append(manager.save())
    assert [p is not None for p in saved] == [i in (0, 5, 10) for i in range(12)]
    assert manager.save(check_interval=False) is not None
    assert len(manager.checkpoints) == 4                        # max_to_keep=None keeps all

    import flowgrad.train.checkpoint as ckpt_lib
    clock = [1000.0]
    monkeypatch.setattr(ckpt_lib.time, "time", lambda: clock[0])
    kept = tf.train.CheckpointManager(ckpt, str(tmp_path / "k"), max_to_keep=1,
                                      keep_checkpoint_every_n_hours=1)
    for _ in range(4):
        clock[0] += 1800.0                                       # a save every half hour
        kept.save()
    left = sorted(os.listdir(tmp_path / "k"))
    # ckpt-5 (+0.5 h) dropped, ckpt-6 (+1 h) preserved, ckpt-7 dropped, ckpt-8 active
    assert left == ["checkpoint"] + files("ckpt-6") + files("ckpt-8")
    assert kept.checkpoints == [os.path.join(str(tmp_path / "k"), "ckpt-8")]


def test_list_and_load_variables_of_both_formats(tmp_path):
    m = tf.Module()
    m.w = tf.Variable(np.arange(6.0, dtype=np.float32).reshape(2, 3), name="w")
    path = tf.train.Checkpoint(m=m).save(str(tmp_path / "obj" / "c"))
    assert tf.train.list_variables(str(tmp_path / "obj")) == [
        ("_CHECKPOINTABLE_OBJECT_GRAPH", []), ("m/w/.ATTRIBUTES/VARIABLE_VALUE", [2, 3]),
        ("save_counter/.ATTRIBUTES/VARIABLE_VALUE", [])]
    np.testing.assert_array_equal(tf.train.load_variable(path, "m/w/.ATTRIBUTES/VARIABLE_VALUE"),
                                  m.w.numpy())
    reader = tf.train.load_checkpoint(path)
    assert reader.get_variable_to_dtype_map()["m/w/.ATTRIBUTES/VARIABLE_VALUE"] == tf.float32
    graph = TrackableObjectGraph.FromString(reader.get_tensor("_CHECKPOINTABLE_OBJECT_GRAPH"))
    assert [c.local_name for c in graph.nodes[0].children] == ["m", "save_counter"]
    (tmp_path / "s").mkdir()
    saver_path = tf1.train.Saver([m.w]).save(None, str(tmp_path / "s" / "model"))
    assert tf.train.list_variables(saver_path) == [("w", [2, 3])]
    assert tf.train.load_variable(str(tmp_path / "s"), "w:0").shape == (2, 3)
    with pytest.raises(errors.NotFoundError):
        tf.train.load_variable(saver_path, "nope")
    with pytest.raises(ValueError, match="Couldn't find"):
        tf.train.list_variables(str(tmp_path))


@pytest.mark.parametrize("make_opt", [lambda: tf1.train.AdamOptimizer(0.1),
                                      lambda: tf1.train.MomentumOptimizer(0.1, 0.9),
                                      lambda: tf.compat.v1.keras.optimizers.RMSprop(
                                          0.01, momentum=0.5)])
def test_eager_optimizers_resume_exactly(tmp_path, make_opt):
    def model_and_opt():
        m = tf.Module()
        m.w = tf.Variable([1.0, -2.0], name="w")
        return m, make_opt()

    def step(m, opt):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.square(m.w) * [1.0, 3.0])
        opt.apply_gradients([(tape.gradient(loss, m.w), m.w)])

    m, opt = model_and_opt()
    for _ in range(3):
        step(m, opt)
    path = tf.train.Checkpoint(m=m, opt=opt).write(str(tmp_path / "c"))
    for _ in range(2):
        step(m, opt)
    m2, opt2 = model_and_opt()                   # fresh: no slots, no beta powers yet
    tf.train.Checkpoint(m=m2, opt=opt2).restore(path).assert_consumed()
    for _ in range(2):
        step(m2, opt2)
    np.testing.assert_array_equal(m2.w.numpy(), m.w.numpy())


def test_a_failed_save_leaves_the_previous_checkpoint_and_state(tmp_path, monkeypatch):
    m = tf.Module()
    m.v = tf.Variable(1.0)
    ckpt = tf.train.Checkpoint(m=m)
    manager = tf.train.CheckpointManager(ckpt, str(tmp_path), max_to_keep=1)
    first = manager.save()
    state_before = (tmp_path / "checkpoint").read_text()
    from flowgrad.train import tensor_bundle
    real_table = tensor_bundle._table

    def broken(entries):
        real_table(entries)
        raise OSError("disk full")

    monkeypatch.setattr(tensor_bundle, "_table", broken)
    m.v.assign(2.0)
    with pytest.raises(OSError, match="disk full"):
        manager.save()
    assert sorted(os.listdir(tmp_path)) == ["checkpoint"] + files(os.path.basename(first))
    assert (tmp_path / "checkpoint").read_text() == state_before
    monkeypatch.undo()
    m.v.assign(0.0)
    ckpt.restore(manager.latest_checkpoint).assert_consumed()
    assert m.v.numpy() == 1.0


def test_tf1_restore_or_initialize_with_a_session(tmp_path):
    tf1.disable_v2_behavior()
    m = tf1.Module()
    m.w = tf1.Variable([3.0, 4.0], name="w")
    ckpt = tf1.train.Checkpoint(model=m)
    manager = tf1.train.CheckpointManager(ckpt, str(tmp_path), max_to_keep=2)
    with tf1.Session() as sess:
        ckpt.restore(manager.latest_checkpoint).initialize_or_restore(sess)  # nothing saved
        assert sess.run(m.w).tolist() == [3.0, 4.0]
        sess.run(m.w.assign([5.0, 6.0]))
        path = manager.save()
    with tf1.Session() as sess:
        ckpt.restore(manager.latest_checkpoint).initialize_or_restore(sess)
        assert manager.latest_checkpoint == path and sess.run(m.w).tolist() == [5.0, 6.0]


def test_restore_on_creation_for_trackables_as_tensorflow(tmp_path):
    """A Trackable restored before its dependencies exist (a Keras 3 layer before its build,
    an optimizer before its slots) gives each its saved value when it is tracked: an attribute
    set later, a list element appended later (by position), a variable in a dict."""
    from flowgrad.framework.autotrackable import AutoTrackable

    def make(build):
        root = AutoTrackable()
        root.slots = []
        root.table = {}
        if build:
            root.child = AutoTrackable()
            root.child.leaf = AutoTrackable()
            root.slots.append(tf.Variable([1.0, 2.0]))
            root.slots.append(tf.Variable(3.0))
            root.table["w"] = tf.Variable(4.0)
        return root

    saved = make(True)
    path = tf.train.Checkpoint(root=saved).write(str(tmp_path / "ck"))
    keys = [k for k, _ in tf.train.list_variables(path)]
    assert keys == ["_CHECKPOINTABLE_OBJECT_GRAPH", "slots/0/.ATTRIBUTES/VARIABLE_VALUE",
                    "slots/1/.ATTRIBUTES/VARIABLE_VALUE", "table/w/.ATTRIBUTES/VARIABLE_VALUE"]
    fresh = make(False)
    status = tf.train.Checkpoint(root=fresh).restore(path)
    fresh.slots.append(tf.Variable([0.0, 0.0]))
    fresh.slots.extend([tf.Variable(0.0)])
    fresh.table["w"] = tf.Variable(0.0)
    assert fresh.slots[0].numpy().tolist() == [1.0, 2.0] and fresh.slots[1].numpy() == 3.0
    assert fresh.table["w"].numpy() == 4.0
    status.assert_consumed()


def test_the_latest_of_two_waiting_restores_wins(tmp_path):
    from flowgrad.framework.autotrackable import AutoTrackable
    paths = []
    for value in (1.0, 2.0):
        root = AutoTrackable()
        root.vs = [tf.Variable(value)]
        paths.append(tf.train.Checkpoint(root=root).write(str(tmp_path / ("ck%d" % value))))
    fresh = AutoTrackable()
    fresh.vs = []
    ckpt = tf.train.Checkpoint(root=fresh)
    ckpt.restore(paths[1])
    ckpt.restore(paths[0])
    fresh.vs.append(tf.Variable(0.0))
    assert fresh.vs[0].numpy() == 1.0
