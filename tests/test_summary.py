"""tf.summary writes real TensorBoard event files: read back with TensorBoard's own reader."""
import glob

import numpy as np
import pytest

pytest.importorskip("tensorboard", reason="tf.summary needs the optional 'tensorboard' package "
                                          "(pip install flowgrad[tensorboard])")
from tensorboard.backend.event_processing import event_accumulator  # noqa: E402
from tensorboard.util import tensor_util  # noqa: E402

import flowgrad  # noqa: E402
import flowgrad.compat.v1 as tf  # noqa: E402
from flowgrad.summary import protos  # noqa: E402


def _read(logdir):
    ea = event_accumulator.EventAccumulator(str(logdir),
                                            size_guidance={"tensors": 0, "histograms": 0})
    ea.Reload()
    return ea


def _scalars(ea, tag):
    """TF2 scalars (tensors with the scalars plugin's metadata): [(step, value)]."""
    return [(e.step, float(tensor_util.make_ndarray(e.tensor_proto))) for e in ea.Tensors(tag)]


def _buckets(ea, tag):
    """TF2 histograms: each step's [k, 3] (left, right, count) array."""
    return [tensor_util.make_ndarray(e.tensor_proto) for e in ea.Tensors(tag)]


@pytest.fixture
def eager():
    tf.enable_v2_behavior()
    yield
    tf.disable_v2_behavior()


# --------------------------------------------------------------------------------------
# TF1


def test_scalar_histogram_merge_all_and_file_writer(tmp_path):
    x = tf.placeholder(tf.float32, [None], name="inputs")
    loss = tf.reduce_mean(tf.square(x))
    s1 = tf.summary.scalar("loss", loss)
    s2 = tf.summary.histogram("x", x)
    assert s1.dtype == tf.string and s1.shape.as_list() == [] and s1.op.type == "ScalarSummary"
    assert tf.get_collection(tf.GraphKeys.SUMMARIES) == [s1, s2]
    merged = tf.summary.merge_all()
    sess = tf.Session()
    with tf.summary.FileWriter(str(tmp_path), sess.graph) as writer:
        for step in range(3):
            data = np.arange(4, dtype=np.float32) + step
            summary = sess.run(merged, {x: data})
            assert isinstance(summary, bytes)
            writer.add_summary(summary, global_step=step)
    assert len(glob.glob(str(tmp_path / "events.out.tfevents.*"))) == 1
    ea = _read(tmp_path)
    assert ea.Tags()["scalars"] == ["loss"] and ea.Tags()["histograms"] == ["x"]
    scalars = ea.Scalars("loss")
    assert [e.step for e in scalars] == [0, 1, 2]
    np.testing.assert_allclose([e.value for e in scalars],
                               [np.mean((np.arange(4) + s) ** 2) for s in range(3)])
    h = ea.Histograms("x")[2].histogram_value
    assert (h.min, h.max, h.num, h.sum, h.sum_squares) == (2.0, 5.0, 4.0, 14.0, 54.0)
    assert sum(h.bucket) == 4.0
    # the graph, for TensorBoard's graph tab
    assert ea.Tags()["graph"]
    names = {n.name: n for n in ea.Graph().node}
    assert names["inputs"].op == "Placeholder"
    assert list(names["Square"].input) == ["inputs"]
    assert names["Square"].attr["_output_shapes"].list.shape[0].dim[0].size == -1


def test_histogram_buckets_follow_tensorflows_layout():
    v = np.array([-3.0, 0.0, 0.5, 0.5, 1e-13, 100.0])
    h = protos.histogram_value("h", v).histo
    limits = protos.default_bucket_limits()
    assert len(limits) == 1551 and limits[775] == 0.0
    assert sum(h.bucket) == v.size
    # each non-empty bucket's upper limit is above its values and the previous limit below
    lims = np.array(h.bucket_limit)
    for value in v:
        i = np.searchsorted(lims, value, side="right")
        assert h.bucket[i] > 0 and (i == 0 or lims[i - 1] <= value < lims[i])


def test_tags_follow_name_scopes_and_are_unique():
    x = tf.constant(1.0)
    with tf.name_scope("train"):
        a = tf.summary.scalar("loss", x)
        b = tf.summary.scalar("loss", x)
    c = tf.summary.scalar("bad name!", x, family="fam")
    tags = [protos.pb().summary_pb2.Summary.FromString(v).value[0].tag
            for v in tf.Session().run([a, b, c])]
    assert tags == ["train/loss", "train/loss_1", "fam/fam/bad_name_"]


def test_merge_errors_and_nan_histograms():
    x = tf.placeholder(tf.float32, [2])
    a = tf.summary.scalar("a", x[0])
    m = tf.summary.merge([a, a])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Duplicate tag a"):
        tf.Session().run(m, {x: [1.0, 2.0]})
    h = tf.summary.histogram("h", x)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Nan in summary histogram for: h"):
        tf.Session().run(h, {x: [1.0, np.nan]})
    with pytest.raises(ValueError, match="needs a scalar"):
        tf.summary.scalar("v", x)
    assert tf.summary.merge_all(key="nothing_here") is None


def test_histogram_gradients_logs_none_gradients_instead_of_crashing(tmp_path):
    # the seed: tf.summary.histogram(gradients[0].name, gradients[0]) crashes on None
    w1 = tf.Variable(2.0, name="w1")
    w2 = tf.Variable(2.0, name="w2")
    b = tf.multiply(tf.stop_gradient(tf.multiply(w1, 3.0)), w2)
    grads = tf.gradients(b, xs=tf.trainable_variables())
    assert grads[0] is None
    summary_op = tf.summary.histogram_gradients(zip(grads, tf.trainable_variables()), loss=b)
    sess = tf.Session()
    sess.run(tf.global_variables_initializer())
    with tf.summary.FileWriter(str(tmp_path)) as writer:
        writer.add_summary(sess.run(summary_op), 1)
    ea = _read(tmp_path)
    assert ea.Tags()["histograms"] == ["gradients/w2"]
    h = ea.Histograms("gradients/w2")[0].histogram_value
    assert (h.num, h.sum) == (1.0, 6.0)               # d(b)/d(w2) = 3 * w1 = 6
    (text_event,) = ea.Tensors("gradients/none_gradients")
    text = text_event.tensor_proto.string_val[0].decode()
    assert "No gradient (None) for 1 variable(s): w1." in text
    assert "tf.stop_gradient" in text                   # the explanation, from the loss


def test_file_writer_refuses_eager_mode(eager, tmp_path):
    with pytest.raises(RuntimeError, match="not compatible with eager execution"):
        tf.summary.FileWriter(str(tmp_path))


# --------------------------------------------------------------------------------------
# TF2


def test_create_file_writer_eager(eager, tmp_path):
    writer = flowgrad.summary.create_file_writer(str(tmp_path))
    assert flowgrad.summary.scalar("loss", 1.0, step=0) is False     # no default writer
    with writer.as_default():
        for step in range(3):
            assert flowgrad.summary.scalar("loss", flowgrad.constant(0.5 * step), step=step)
        assert flowgrad.summary.histogram("w", flowgrad.constant([1.0, 2.0, 2.0, 3.0]), step=2,
                                          buckets=4)
        assert flowgrad.summary.text("note", "hello", step=0)
        with pytest.raises(ValueError, match="No step set"):
            flowgrad.summary.scalar("loss", 1.0)
        flowgrad.summary.experimental.set_step(7)
        try:
            assert flowgrad.summary.scalar("later", 2.0)
        finally:
            flowgrad.summary.experimental.set_step(None)
        with flowgrad.summary.record_if(False):
            assert flowgrad.summary.scalar("skipped", 1.0, step=1) is False
    writer.close()
    ea = _read(tmp_path)
    assert _scalars(ea, "loss") == [(0, 0.0), (1, 0.5), (2, 1.0)]
    assert [step for step, _ in _scalars(ea, "later")] == [7]
    assert "skipped" not in ea.Tags()["tensors"]
    (h,) = _buckets(ea, "w")
    assert h[:, 2].tolist() == [1.0, 0.0, 2.0, 1.0] and h[:, 0].tolist() == [1.0, 1.5, 2.0, 2.5]
    assert ea.Tensors("note")[0].tensor_proto.string_val == [b"hello"]


def test_eager_histogram_gradients(eager, tmp_path):
    w = flowgrad.Variable([1.0, 2.0], name="w")
    v = flowgrad.Variable(3.0, name="v")
    with flowgrad.GradientTape() as tape:
        loss = flowgrad.reduce_sum(w * w)
    grads = tape.gradient(loss, [w, v])
    assert grads[1] is None
    with flowgrad.summary.create_file_writer(str(tmp_path)).as_default():
        assert flowgrad.summary.histogram_gradients(zip(grads, [w, v]), step=5)
    ea = _read(tmp_path)
    (h,) = _buckets(ea, "gradients/w")
    assert (h[:, 2] * (h[:, 0] + h[:, 1]) / 2).sum() == 6.0 and h[:, 2].sum() == 2   # 2, 4
    text = ea.Tensors("gradients/none_gradients")[0].tensor_proto.string_val[0].decode()
    assert "for 1 variable(s): v" in text


def test_tf2_summary_ops_inside_tf_function_write_on_every_call(eager, tmp_path):
    writer = flowgrad.summary.create_file_writer(str(tmp_path))
    step = flowgrad.Variable(0, dtype=flowgrad.int64)

    @flowgrad.function
    def train_step(x):
        with writer.as_default():
            flowgrad.summary.scalar("loss", x * x, step=step)
            flowgrad.summary.histogram("x", flowgrad.stack([x, x + 1.0]), step=step)
            if x > 1.0:                                   # AutoGraph: a summary in a branch
                flowgrad.summary.scalar("big", x, step=step)
        step.assign_add(1)
        return x * 2.0

    for v in [0.5, 1.5, 3.0]:
        train_step(flowgrad.constant(v))
    writer.close()
    ea = _read(tmp_path)
    assert _scalars(ea, "loss") == [(0, 0.25), (1, 2.25), (2, 9.0)]
    assert _scalars(ea, "big") == [(1, 1.5), (2, 3.0)]
    assert [h[:, 2].sum() for h in _buckets(ea, "x")] == [2, 2, 2]


def test_tf2_summary_ops_in_a_graph_are_ops_that_write_when_run(tmp_path):
    assert flowgrad.summary.scalar("x", 1.0, step=0) is False      # no default writer
    x = tf.placeholder(tf.float32, [], name="x")
    writer = flowgrad.summary.create_file_writer(str(tmp_path))
    with writer.as_default():
        written = flowgrad.summary.scalar("x", x, step=3)
    assert written.dtype == tf.bool
    with tf.Session() as sess:
        assert sess.run(written, {x: 2.5})
    writer.close()
    assert _scalars(_read(tmp_path), "x") == [(3, 2.5)]


def test_summary_graph_for_tensorboard(eager, tmp_path):
    g = tf.Graph()
    with g.as_default():
        a = tf.placeholder(tf.float32, [2], name="a")
        tf.identity(tf.cast(a, tf.int32), name="out")
    with flowgrad.summary.create_file_writer(str(tmp_path)).as_default():
        assert flowgrad.summary.graph(g)
    nodes = {n.name: n for n in _read(tmp_path).Graph().node}
    assert nodes["Cast"].attr["DstT"].type == 3          # DT_INT32
    assert list(nodes["out"].input) == ["Cast"]


def test_summary_scope_tag_and_scope_as_tensorflow():
    """tf.summary.experimental.summary_scope yields (tag, scope): the tag keeps the name
    under the current scope, the scope drops what a scope cannot hold and is made unique
    in a graph; values recorded from TensorFlow 2.21 (eager and graph)."""
    summary_scope = flowgrad.summary.experimental.summary_scope
    got = []
    tf.enable_v2_behavior()
    with flowgrad.name_scope("outer"):
        with summary_scope("a b:c") as pair:
            got.append(pair)
        with summary_scope("", "dflt") as pair:
            got.append(pair)
    with summary_scope("x") as pair:
        got.append(pair)
    with flowgrad.Graph().as_default(), flowgrad.name_scope("outer"):
        for _ in range(2):
            with summary_scope("a b:c") as pair:
                got.append(pair)
    assert got == [("outer/a b:c", "outer/abc/"), ("outer/dflt", "outer/dflt/"), ("x", "x/"),
                   ("outer/a b:c", "outer/abc/"), ("outer/a b:c", "outer/abc_1/")]


def test_tensorflow_proto_and_record_modules_keras_imports(tmp_path):
    """The TensorFlow module paths Keras's TensorBoard callback tests import, under the
    drop-in: tensorflow.core.util.event_pb2, tensorflow.python.lib.io.tf_record and
    tf.compat.v1.SummaryMetadata (TensorBoard's protos, flowgrad's TFRecord reader)."""
    import os
    import subprocess
    import sys
    from pathlib import Path
    root = Path(__file__).resolve().parents[1]
    code = ("from tensorflow.core.util import event_pb2\n"
            "from tensorflow.python.lib.io import tf_record\n"
            "from tensorflow.compat.v1 import SummaryMetadata\n"
            "import tensorflow as tf\n"
            "w = tf.summary.create_file_writer(%r)\n"
            "with w.as_default():\n"
            "    tf.summary.scalar('loss', 0.5, step=3)\n"
            "w.close()\n"
            "import glob\n"
            "events = [event_pb2.Event.FromString(r) for f in glob.glob(%r + '/*')\n"
            "          for r in tf_record.tf_record_iterator(f)]\n"
            "print(SummaryMetadata.__name__, [(e.step, v.tag) for e in events\n"
            "                                 for v in e.summary.value])\n"
            % (str(tmp_path), str(tmp_path)))
    out = subprocess.run([sys.executable, "-m", "flowgrad", "-c", code], capture_output=True,
                         text=True, timeout=300, env=dict(os.environ, PYTHONPATH=str(root)))
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.strip() == "SummaryMetadata [(3, 'loss')]"


def test_summary_write_generic_tensor_summaries_as_tensorflow(tmp_path):
    """tf.summary.write (Keras's TensorBoard callback writes its model graph with it):
    strings and numbers as tensors, metadata as a proto or bytes, a callable called only
    with a writer; False without one. The events read back as TensorFlow 2.21 wrote them."""
    import flowgrad as tf2
    from tensorboard.compat.proto import event_pb2
    from tensorboard.util import tensor_util
    from flowgrad.ops.tf_record import tf_record_iterator
    tf.enable_v2_behavior()
    assert tf2.summary.write("nowriter", 1.0, step=0) is False
    meta = protos.pb().summary_pb2.SummaryMetadata()
    meta.plugin_data.plugin_name = "graph_keras_model"
    meta.plugin_data.content = b"1"
    w = tf2.summary.create_file_writer(str(tmp_path))
    with w.as_default():
        assert tf2.summary.write("model", '{"a": 1}', step=2, metadata=meta)
        assert tf2.summary.write("t", tf2.constant([[1.5, 2.0]]), step=3,
                                 metadata=meta.SerializeToString())
        assert tf2.summary.write("c", lambda: tf2.constant(7), step=4)
    w.close()
    got = []
    for f in sorted(glob.glob(str(tmp_path / "*"))):
        for r in tf_record_iterator(f):
            e = event_pb2.Event.FromString(r)
            got += [(e.step, v.tag, v.metadata.plugin_data.plugin_name,
                     v.metadata.plugin_data.content, tensor_util.make_ndarray(v.tensor).tolist(),
                     v.tensor.dtype) for v in e.summary.value]
    assert got == [(2, "model", "graph_keras_model", b"1", b'{"a": 1}', 7),
                   (3, "t", "graph_keras_model", b"1", [[1.5, 2.0]], 1),
                   (4, "c", "", b"", 7, 3)]
