"""Records what TF 1.x names programs still use compute, for tests/test_tf1_legacy_names.py:
``tensorflow.python.ops.resources`` (TF 1.x's random-forest example initializes with it),
``tf.gfile.FastGFile``, ``tf.GraphDef`` read back with ``tf.import_graph_def``, and a
``Session.run`` with ``tf.RunOptions(trace_level=FULL_TRACE)`` and ``tf.RunMetadata``.

``program(tf, resources, folder)`` runs in TF1 graph mode (``tf`` is ``tf.compat.v1``).
Run from the repository root on TensorFlow 2.21:

    /work/venv-tf/bin/python tools/tf_reference/tf1_legacy_names.py \
        > tests/data/tf1_legacy_names/tf_2_21.json
"""
import json
import os
import tempfile


def program(tf, resources, folder):
    """Plain values the TF1 names give; ``folder`` is an empty scratch folder."""
    out = {}
    with tf.Graph().as_default():
        empty = resources.initialize_resources(resources.shared_resources())
        out["init_empty"] = [empty.type, empty.name]
        v = tf.Variable(1.0, name="v")
        made = tf.Variable(False, name="made", trainable=False)
        create = tf.group(v.initializer, tf.assign(made, True))
        resources.register_resource(v, create, tf.identity(made))
        resources.register_resource(tf.identity(v, name="h"), create, tf.identity(made),
                                    is_shared=False)
        out["shared"] = [r.handle.name for r in resources.shared_resources()]
        out["local"] = [r.handle.name for r in resources.local_resources()]
        init = resources.initialize_resources(resources.shared_resources(), name="make")
        report = resources.report_uninitialized_resources()
        out["init"] = [init.type, init.name, report.dtype.name]
        with tf.Session() as sess:
            sess.run(made.initializer)
            out["before"] = [n.decode() for n in sess.run(report)]
            sess.run(init)
            out["after"] = [n.decode() for n in sess.run(report)]
    with tf.Graph().as_default() as g:
        a = tf.constant([[1.0, 2.0]], name="a")
        b = tf.matmul(a, tf.constant([[3.0], [4.0]]), name="b")
        tf.identity(b * 2.0, name="out")
        path = os.path.join(folder, "g.pb")
        with tf.gfile.GFile(path, "wb") as f:
            f.write(g.as_graph_def().SerializeToString())
    with tf.gfile.FastGFile(path, "rb") as f:
        data = f.read()
        out["fast_gfile"] = [type(data).__name__, f.size() == len(data)]
    graph_def = tf.GraphDef()
    graph_def.ParseFromString(data)
    out["graph_def"] = [n.name for n in graph_def.node]
    with tf.Graph().as_default():
        tf.import_graph_def(graph_def, name="")
        with tf.Session() as sess:
            options = tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE)
            metadata = tf.RunMetadata()
            out["run"] = sess.run("out:0", options=options, run_metadata=metadata).tolist()
            out["run_options"] = [options.trace_level, tf.RunOptions.FULL_TRACE,
                                  tf.RunOptions.NO_TRACE]
            out["run_metadata"] = type(metadata).__name__
    with tf.gfile.FastGFile(os.path.join(folder, "t.txt"), "w") as f:
        f.write("line one\nline two\n")
    with tf.gfile.FastGFile(os.path.join(folder, "t.txt")) as f:
        out["fast_gfile_text"] = [f.readline(), f.read()]
    return out


if __name__ == "__main__":
    import tensorflow.compat.v1 as tf1
    from tensorflow.python.ops import resources as res

    tf1.disable_eager_execution()
    with tempfile.TemporaryDirectory() as tmp:
        print(json.dumps(program(tf1, res, tmp), indent=1, sort_keys=True))
