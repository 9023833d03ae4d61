"""flowgrad loads what TensorFlow 2.21 writes with control flow v1 (the CI's interop job, the
direction the fast suite checks on committed files, here on files a fresh TensorFlow wrote):

    /path/to/tf-venv/bin/python tools/tf_reference/cfv1_interop.py write DIR   # TensorFlow
    python tools/tf_reference/cfv1_interop.py check DIR                        # flowgrad
    /path/to/tf-venv/bin/python tools/tf_reference/cfv1_interop.py back DIR    # TensorFlow

``write`` runs ``make_loop_training.py`` (``disable_v2_behavior()``: Enter/Exit frames,
Switch/Merge conditionals, stacks, TensorArrayV3) for every control-flow-v1 training graph
(``.meta`` + checkpoint + TensorFlow's losses) and the frozen inference graph into DIR;
``check`` resumes each graph on flowgrad (``import_meta_graph``, ``restore``, the
``train_op`` collection) and fails unless flowgrad's loss at every step is TensorFlow's, and
runs the frozen graph on TensorFlow's inputs; it then saves what it imported again
(``DIR/back``: the frozen graph's ``as_graph_def()``, and the ``.meta`` + checkpoint of the
graphs with conditionals only, after one more step), which ``back`` has TensorFlow run: the
frozen graph's outputs and the training graphs' next losses must be TensorFlow's own. (A
graph whose loops use stacks or TensorArrays saves back as a ``.meta`` flowgrad resumes but
TensorFlow does not: flowgrad's handles are strings, TensorFlow's resources.)"""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
BACK = ("cond", "batch_norm_cond")      # the graphs TensorFlow resumes from flowgrad's save
KINDS = ("lstm_adam", "loop_tensor_array", "cond", "nested_loops", "cond_in_loop",
         "rnn_sequence_length", "bidirectional", "map_fn_scan", "batch_norm_cond",
         "case_max_iterations")


def write(out_dir):
    sys.path.insert(0, HERE)
    import make_loop_training as mlt
    import tensorflow as tf
    os.makedirs(out_dir, exist_ok=True)
    mlt.OUT = os.path.abspath(out_dir)
    for kind in KINDS:                 # control flow v1 throughout: one process
        with tf.Graph().as_default():
            mlt.tf1_graph(kind + "_cfv1", kind, False)
    with tf.Graph().as_default():
        mlt.frozen_rnn_cfv1()


def check(out_dir):
    sys.path.insert(0, os.path.join(HERE, "..", ".."))
    import flowgrad as tf
    import flowgrad.compat.v1 as tf1
    os.makedirs(os.path.join(out_dir, "back"), exist_ok=True)
    for kind in KINDS:
        name = kind + "_cfv1"
        ref = np.load(os.path.join(out_dir, name + ".npz"))
        prefix = os.path.join(out_dir, name, "model")
        feed = {"x:0": ref["x"], "y:0": ref["y"]}
        with tf.Graph().as_default():
            saver = tf1.train.import_meta_graph(prefix + ".meta")
            train_op = tf1.get_collection("train_op")[-1]
            loss = tf1.get_default_graph().get_tensor_by_name("loss:0")
            with tf1.Session() as sess:
                saver.restore(sess, prefix)
                got = [sess.run([loss, train_op], feed)[0] for _ in ref["losses"][:-1]]
                if kind in BACK:          # saved again before the last step
                    saver.save(sess, os.path.join(out_dir, "back", name, "model"))
                got.append(sess.run([loss, train_op], feed)[0])
        np.testing.assert_allclose(got, ref["losses"], rtol=1e-5, atol=2e-6, err_msg=name)
        print(name, "flowgrad resumes TensorFlow's graph:", got)
    ref = np.load(os.path.join(out_dir, "frozen_rnn_cfv1.npz"))
    gd = tf1.GraphDef()
    with open(os.path.join(out_dir, "frozen_rnn_cfv1.pb"), "rb") as f:
        gd.ParseFromString(f.read())
    names = [str(n) for n in ref["names"]]
    with tf.Graph().as_default() as g:
        tf1.import_graph_def(gd, name="")
        with open(os.path.join(out_dir, "back", "frozen_rnn_cfv1.pb"), "wb") as f:
            f.write(g.as_graph_def().SerializeToString())       # control flow v2 now
        with tf1.Session() as sess:
            for b in range(2):
                got = sess.run(names, {"x:0": ref["x_%d" % b], "seq:0": ref["seq_%d" % b]})
                for i, (n, v) in enumerate(zip(names, got)):
                    np.testing.assert_allclose(v, ref["value_%d_%d" % (b, i)], rtol=1e-5,
                                               atol=1e-6, err_msg=n)
    print("frozen_rnn_cfv1: flowgrad gives TensorFlow's outputs")


def back(out_dir):
    import tensorflow as tf
    v1 = tf.compat.v1
    v1.disable_v2_behavior()
    for kind in BACK:
        name = kind + "_cfv1"
        ref = np.load(os.path.join(out_dir, name + ".npz"))
        prefix = os.path.join(out_dir, "back", name, "model")
        with tf.Graph().as_default():
            saver = v1.train.import_meta_graph(prefix + ".meta")
            loss = v1.get_default_graph().get_tensor_by_name("loss:0")
            train_op = v1.get_collection("train_op")[-1]
            with v1.Session() as sess:
                saver.restore(sess, prefix)
                got = sess.run([loss, train_op], {"x:0": ref["x"], "y:0": ref["y"]})[0]
        np.testing.assert_allclose(got, ref["losses"][-1], rtol=1e-5, atol=2e-6, err_msg=name)
        print(name, "TensorFlow resumes flowgrad's save of TensorFlow's CFv1 graph:", got)
    ref = np.load(os.path.join(out_dir, "frozen_rnn_cfv1.npz"))
    gd = v1.GraphDef()
    with open(os.path.join(out_dir, "back", "frozen_rnn_cfv1.pb"), "rb") as f:
        gd.ParseFromString(f.read())
    assert not {"Enter", "Switch", "Merge"} & {n.op for n in gd.node}
    names = [str(n) for n in ref["names"]]
    with tf.Graph().as_default():
        v1.import_graph_def(gd, name="")
        with v1.Session() as sess:
            for b in range(2):
                got = sess.run(names, {"x:0": ref["x_%d" % b], "seq:0": ref["seq_%d" % b]})
                for i, (n, v) in enumerate(zip(names, got)):
                    np.testing.assert_allclose(v, ref["value_%d_%d" % (b, i)], rtol=1e-5,
                                               atol=1e-6, err_msg=n)
    print("frozen_rnn_cfv1: TensorFlow runs flowgrad's control-flow-v2 form of it")


if __name__ == "__main__":
    {"write": write, "check": check, "back": back}[sys.argv[1]](sys.argv[2])
