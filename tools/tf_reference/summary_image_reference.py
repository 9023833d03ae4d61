"""Records what TensorFlow 2.21 writes for tf.summary.image (TF2, eager and in a
tf.function), tf.compat.v1.summary.image (TF1 graph mode: its per-image normalization of
floats, tags and bad_color) and tf.summary.trace_on/trace_export: the tags, the summary's
plugin, the image dimensions and the decoded pixels of every PNG (not the PNG bytes, whose
compression may differ).

Run from the repository root:
    /work/venv-tf/bin/python tools/tf_reference/summary_image_reference.py
It writes tests/data/programs/summary_image.json."""
import glob
import json
import os
import tempfile

import numpy as np
import tensorflow as tf

rng = np.random.RandomState(0)
CASES = {
    "float01": rng.uniform(-0.2, 1.2, (2, 3, 4, 3)).astype(np.float32),
    "gray_uint8": rng.randint(0, 256, (4, 2, 3, 1)).astype(np.uint8),
    "int32_rgba": rng.randint(-2**31, 2**31 - 1, (1, 2, 2, 4)).astype(np.int32),
    "float64_neg": rng.uniform(-3, 2, (2, 2, 3, 1)),
}


def _events(logdir):
    out = []
    for f in sorted(glob.glob(os.path.join(logdir, "events.*"))):
        for e in tf.compat.v1.train.summary_iterator(f):
            for v in e.summary.value:
                out.append((e.step, v))
    return out


def _pixels(png):
    return tf.io.decode_png(png).numpy().tolist()


def tf2_images():
    rec = {}
    for key, data in CASES.items():
        d = tempfile.mkdtemp()
        with tf.summary.create_file_writer(d).as_default():
            with tf.name_scope("scope"):
                tf.summary.image(key, data, step=3, max_outputs=1 if key == "gray_uint8" else 3,
                                 description="d")
        (step, v), = _events(d)
        t = tf.make_ndarray(v.tensor)
        rec[key] = {"tag": v.tag, "step": step, "plugin": v.metadata.plugin_data.plugin_name,
                    "description": v.metadata.summary_description,
                    "width": t[0].decode(), "height": t[1].decode(),
                    "images": [_pixels(p) for p in t[2:]]}
    return rec


def tf2_in_function():
    d = tempfile.mkdtemp()
    writer = tf.summary.create_file_writer(d)

    @tf.function
    def f(x, step):
        with writer.as_default():
            return tf.summary.image("fn", x, step=step)
    f(tf.constant(CASES["float01"]), tf.constant(7, tf.int64))
    writer.flush()
    (step, v), = _events(d)
    t = tf.make_ndarray(v.tensor)
    return {"tag": v.tag, "step": step, "images": [_pixels(p) for p in t[2:]]}


def tf1_images():
    rec = {}
    for key, data in CASES.items():
        g = tf.Graph()
        with g.as_default():
            try:
                with tf.compat.v1.name_scope("s"):
                    op = tf.compat.v1.summary.image(key, tf.constant(data), max_outputs=2)
            except TypeError as e:
                rec[key] = {"error": [type(e).__name__, str(e)]}
                continue
            with tf.compat.v1.Session() as sess:
                s = tf.compat.v1.Summary.FromString(sess.run(op))
        rec[key] = [{"tag": v.tag, "height": v.image.height, "width": v.image.width,
                     "colorspace": v.image.colorspace,
                     "pixels": _pixels(v.image.encoded_image_string)} for v in s.value]
    bad = np.array([[[[0.5], [np.nan]], [[np.inf], [1.0]]]], np.float32)
    with tf.Graph().as_default():
        op = tf.compat.v1.summary.image("bad", tf.constant(bad))
        with tf.compat.v1.Session() as sess:
            s = tf.compat.v1.Summary.FromString(sess.run(op))
    rec["bad"] = {"input": [[[[0.5], ["nan"]], [["inf"], [1.0]]]],
                  "tag": s.value[0].tag, "pixels": _pixels(s.value[0].image.encoded_image_string)}
    return rec


def trace():
    d = tempfile.mkdtemp()
    writer = tf.summary.create_file_writer(d)

    @tf.function
    def f(x):
        return tf.nn.relu(x) * 2.0
    tf.summary.trace_on(graph=True)
    f(tf.constant([1.0, -1.0]))
    with writer.as_default():
        written = tf.summary.trace_export("my_trace", step=0)
    writer.flush()
    (step, v), = _events(d)
    run_metadata = tf.compat.v1.RunMetadata.FromString(tf.make_ndarray(v.tensor).item())
    ops = sorted(n.op for n in run_metadata.function_graphs[0].pre_optimization_graph.node)
    try:
        tf.summary.trace_export("again", step=1)
        again = None
    except ValueError as e:
        again = str(e)
    return {"written": bool(written), "tag": v.tag, "step": step,
            "plugin": v.metadata.plugin_data.plugin_name,
            "content": v.metadata.plugin_data.content.decode(),
            "function_graphs": len(run_metadata.function_graphs), "ops": ops,
            "export_without_trace_on": again}


if __name__ == "__main__":
    out = {"cases": {k: {"dtype": str(v.dtype), "shape": list(v.shape),
                         "values": v.ravel().tolist()} for k, v in CASES.items()},
           "tf2": tf2_images(), "tf2_function": tf2_in_function(), "tf1": tf1_images(),
           "trace": trace(), "version": tf.__version__}
    path = os.path.join("tests", "data", "programs", "summary_image.json")
    with open(path, "w") as f:
        json.dump(out, f)
    print("wrote", path)
