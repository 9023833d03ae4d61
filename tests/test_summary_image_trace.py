"""tf.summary.image (TF2), tf.compat.v1.summary.image (TF1) and tf.summary.trace_on /
trace_export, against what TensorFlow 2.21 writes (tests/data/programs/summary_image.json,
made by tools/tf_reference/summary_image_reference.py): tags, plugin, dimensions and the
decoded pixels of every PNG."""
import glob
import io
import json
import os

import numpy as np
import pytest

pytest.importorskip("tensorboard", reason="tf.summary needs the optional 'tensorboard' package")

from tensorboard.compat.proto import config_pb2, event_pb2, summary_pb2  # noqa: E402
from tensorboard.util import tensor_util  # noqa: E402

import flowgrad as tf  # noqa: E402
import flowgrad.compat.v1 as tf1  # noqa: E402
from flowgrad.ops.tf_record import tf_record_iterator  # noqa: E402

REF = json.load(open(os.path.join(os.path.dirname(__file__), "data", "programs",
                                  "summary_image.json")))
CASES = {k: np.array(v["values"], v["dtype"]).reshape(v["shape"])
         for k, v in REF["cases"].items()}


@pytest.fixture
def eager():
    tf1.enable_v2_behavior()
    yield
    tf1.disable_v2_behavior()


def _values(logdir):
    out = []
    for path in sorted(glob.glob(os.path.join(str(logdir), "events.*"))):
        for record in tf_record_iterator(path):
            event = event_pb2.Event.FromString(record)
            out.extend((event.step, v) for v in event.summary.value)
    return out


def _pixels(png):
    from PIL import Image
    a = np.asarray(Image.open(io.BytesIO(png)))
    return (a[..., None] if a.ndim == 2 else a).tolist()


@pytest.mark.parametrize("key", sorted(CASES))
def test_tf2_image_matches_tensorflow(eager, tmp_path, key):
    ref = REF["tf2"][key]
    with tf.summary.create_file_writer(str(tmp_path)).as_default():
        with tf.name_scope("scope"):
            assert tf.summary.image(key, CASES[key], step=3,
                                    max_outputs=1 if key == "gray_uint8" else 3,
                                    description="d") is True
    (step, v), = _values(tmp_path)
    t = tensor_util.make_ndarray(v.tensor)
    assert (v.tag, step, v.metadata.plugin_data.plugin_name, v.metadata.summary_description) \
        == (ref["tag"], ref["step"], ref["plugin"], ref["description"])
    assert [t[0].decode(), t[1].decode()] == [ref["width"], ref["height"]]
    assert [_pixels(p) for p in t[2:]] == ref["images"]


def test_tf2_image_in_a_function(eager, tmp_path):
    ref = REF["tf2_function"]
    writer = tf.summary.create_file_writer(str(tmp_path))

    @tf.function
    def f(x, step):
        with writer.as_default():
            return tf.summary.image("fn", x, step=step)
    f(tf.constant(CASES["float01"]), tf.constant(7, tf.int64))
    writer.flush()
    (step, v), = _values(tmp_path)
    t = tensor_util.make_ndarray(v.tensor)
    assert (v.tag, step) == (ref["tag"], ref["step"])
    assert [_pixels(p) for p in t[2:]] == ref["images"]


def test_tf2_image_needs_rank_4_and_is_false_without_writer(eager, tmp_path):
    assert tf.summary.image("x", CASES["float01"], step=0) is False
    with pytest.raises(ValueError, match="rank 4"):
        with tf.summary.create_file_writer(str(tmp_path)).as_default():
            tf.summary.image("x", CASES["float01"][0], step=0)


@pytest.mark.parametrize("key", sorted(CASES))
def test_tf1_image_matches_tensorflow(key):
    ref = REF["tf1"][key]
    with tf1.Graph().as_default():
        if isinstance(ref, dict):
            with pytest.raises(TypeError, match=ref["error"][1].split(" not in")[0]):
                tf1.summary.image(key, tf1.constant(CASES[key]))
            return
        with tf1.name_scope("s"):
            op = tf1.summary.image(key, tf1.constant(CASES[key]), max_outputs=2)
        assert op in tf1.get_collection(tf1.GraphKeys.SUMMARIES)
        with tf1.Session() as sess:
            summary = summary_pb2.Summary.FromString(sess.run(op))
    got = [{"tag": v.tag, "height": v.image.height, "width": v.image.width,
            "colorspace": v.image.colorspace, "pixels": _pixels(v.image.encoded_image_string)}
           for v in summary.value]
    assert got == ref


def test_tf1_image_bad_color_and_single_tag():
    ref = REF["tf1"]["bad"]
    bad = np.array([[[[0.5], [np.nan]], [[np.inf], [1.0]]]], np.float32)
    with tf1.Graph().as_default():
        op = tf1.summary.image("bad", bad)
        one = tf1.summary.image("one", bad, max_outputs=1)
        with tf1.Session() as sess:
            value, = summary_pb2.Summary.FromString(sess.run(op)).value
            single, = summary_pb2.Summary.FromString(sess.run(one)).value
    assert (value.tag, _pixels(value.image.encoded_image_string)) == (ref["tag"], ref["pixels"])
    assert single.tag == "one/image"


def test_trace_export_writes_the_function_graphs(eager, tmp_path):
    ref = REF["trace"]
    writer = tf.summary.create_file_writer(str(tmp_path))

    @tf.function
    def f(x):
        return tf.nn.relu(x) * 2.0
    tf.summary.trace_on(graph=True)
    f(tf.constant([1.0, -1.0]))
    with writer.as_default():
        assert tf.summary.trace_export("my_trace", step=0) is None
    writer.flush()
    (step, v), = _values(tmp_path)
    assert (v.tag, step, v.metadata.plugin_data.plugin_name,
            v.metadata.plugin_data.content.decode()) == (ref["tag"], ref["step"], ref["plugin"],
                                                         ref["content"])
    meta = config_pb2.RunMetadata.FromString(tensor_util.make_ndarray(v.tensor).item())
    assert len(meta.function_graphs) == ref["function_graphs"]
    ops = {n.op for n in meta.function_graphs[0].pre_optimization_graph.node}
    assert {"Relu", "Mul"} <= ops
    with pytest.raises(ValueError, match=ref["export_without_trace_on"]):
        tf.summary.trace_export("again", step=1)


def test_trace_off_discards(eager):
    tf.summary.trace_on()
    tf.summary.trace_off()
    with pytest.raises(ValueError, match="Must enable trace"):
        tf.summary.trace_export("x", step=0)
