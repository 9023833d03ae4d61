"""Records what TensorFlow 2.21 (``tf.compat.v1`` with v2 behaviour off) prints for small TF1
programs, each the pattern where a TF1 program written as Chinese blog posts and GitHub
repositories of 2017-2019 write them printed other numbers on flowgrad (or stopped);
tests/test_tf1_blog_programs.py runs each with ``tf`` = ``flowgrad.compat.v1`` and compares.

TensorFlow 2.21 loads ``tf.compat.v1.layers`` from the legacy Keras 2 (tf_keras). Run from the
repository root:
    /work/venv-tf/bin/python -m pip install --no-deps --target /tmp/tfk_site tf_keras==2.21.0
    TF_USE_LEGACY_KERAS=1 PYTHONPATH=/tmp/tfk_site /work/venv-tf/bin/python \\
        tools/tf_reference/tf1_blog_programs.py
It writes tests/data/tf1_blog_programs/tf_2_21.json: ``{name: {"source": ..., "stdout": ...}}``.
"""
import contextlib
import io
import json
import os
import sys
import tempfile

PROGRAMS = {
    # convert_variables_to_constants(sess, sess.graph_def, ...): the freeze scripts' form.
    "freeze_session_graph_def": '''
tf.set_random_seed(21)
x = tf.placeholder(tf.float32, [None, 4], name="input")
w = tf.get_variable("w", [4, 2], initializer=tf.glorot_normal_initializer())
prob = tf.nn.softmax(tf.matmul(x, w), name="output")
X = np.linspace(-1, 1, 8).reshape(2, 4).astype(np.float32)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(type(sess.graph_def).__name__)
    frozen = tf.graph_util.convert_variables_to_constants(sess, sess.graph_def, ["output"])
    print(sorted(n.op for n in frozen.node))
with tf.Graph().as_default() as g:
    tf.import_graph_def(frozen, name="")
    with tf.Session(graph=g) as sess:
        print(np.round(sess.run("output:0", {"input:0": X}), 5))
''',
}


def main() -> None:
    """Runs every program with ``tf`` = TensorFlow's compat.v1 and writes the recording."""
    import numpy as np
    import tensorflow.compat.v1 as tf
    tf.disable_v2_behavior()
    out = {}
    here = os.getcwd()
    for name, source in PROGRAMS.items():
        buf = io.StringIO()
        with tempfile.TemporaryDirectory() as d, tf.Graph().as_default():
            os.chdir(d)
            try:
                with contextlib.redirect_stdout(buf):
                    exec(compile(source, name, "exec"), {"tf": tf, "np": np})
            finally:
                os.chdir(here)
        out[name] = {"source": source, "stdout": buf.getvalue()}
        print(name, "\n" + buf.getvalue(), file=sys.stderr)
    path = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "data",
                        "tf1_blog_programs", "tf_2_21.json")
    with open(path, "w") as f:
        json.dump({"reference": "tensorflow " + tf.__version__, "programs": out}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
