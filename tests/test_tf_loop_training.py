"""Training programs whose gradients go through loops, written by TensorFlow 2.21, resumed by
flowgrad (issue 22; tests/data/tf_loop_training/, made by
tools/tf_reference/make_loop_training.py; the reverse direction is the CI's interop job and
tests/test_tf_training_meta.py).

- TF1 ``.meta`` training graphs with control flow v2: ``dynamic_rnn`` of an LSTM + Adam, and
  a ``tf.while_loop`` growing a TensorArray + ``tf.gradients``: their gradient loops pop the
  forward loops' TensorList accumulators (``TensorListPopBack``), a TensorArray write's
  gradient resizes its list (``TensorListResize``), the accumulator of the growing array
  holds elements of different shapes; flowgrad reproduces TensorFlow's loss at every step.
- The same graphs with control flow v1 (Enter/Exit frames, stacks, TensorArrayV3): flowgrad
  reproduces TensorFlow's loss at every step too; a frame it cannot convert is an error
  naming the node and the frame.
- TF2 SavedModels whose ``train_step`` tf.function differentiates a while loop (a
  ``tf.Module`` growing a TensorArray; a Keras 3 LSTM): flowgrad calls the loaded
  ``train_step`` and reproduces TensorFlow's losses while it updates the variables.
"""
import base64
import json
import os

import numpy as np
import pytest

import flowgrad as tf
import flowgrad.compat.v1 as tf1
from flowgrad.framework import errors

DATA = os.path.join(os.path.dirname(__file__), "data", "tf_loop_training")


@pytest.fixture
def eager():
    tf1.enable_v2_behavior()
    yield


def _resume(name):
    ref = np.load(os.path.join(DATA, name + ".npz"))
    prefix = os.path.join(DATA, name, "model")
    with tf.Graph().as_default():
        saver = tf1.train.import_meta_graph(prefix + ".meta")
        train_op = tf1.get_collection("train_op")[-1]
        loss = tf1.get_default_graph().get_tensor_by_name("loss:0")
        feed = {"x:0": ref["x"], "y:0": ref["y"]}
        with tf1.Session() as sess:
            saver.restore(sess, prefix)
            got, evals = [], []
            for _ in range(len(ref["losses"])):
                got.append(sess.run([loss, train_op], feed)[0])
                if "evals" in ref:          # the conditional's other branch
                    evals.append(sess.run(loss, dict(feed, **{"training:0": False})))
            step = sess.run(tf1.train.get_global_step())
    if "evals" in ref:
        np.testing.assert_allclose(evals, ref["evals"], rtol=1e-5, atol=2e-6)
    return np.array(got), step, ref


@pytest.mark.parametrize("name", ["lstm_adam_cfv2", "loop_tensor_array_cfv2"])
def test_flowgrad_resumes_tensorflows_loop_training_graphs(name):
    got, step, ref = _resume(name)
    np.testing.assert_allclose(got, ref["losses"], rtol=2e-6, atol=2e-6)
    assert step == len(ref["losses"])


@pytest.mark.parametrize("name", ["module_loop", "keras_lstm"])
def test_tensorflows_saved_model_train_step_through_a_loop_fine_tunes(name, eager):
    ref = np.load(os.path.join(DATA, name + ".npz"))
    m = tf.saved_model.load(os.path.join(DATA, name))
    x, y = tf.constant(ref["x"]), tf.constant(ref["y"])
    before = [v.numpy().copy() for v in m.trainable_variables]
    got = [float(m.train_step(x, y)) for _ in range(len(ref["losses"]))]
    np.testing.assert_allclose(got, ref["losses"], rtol=2e-6, atol=2e-6)
    assert any(not np.array_equal(b, v.numpy()) for b, v in zip(before, m.trainable_variables))


def test_tensorflows_bidirectional_rnn_gradients_with_sequence_lengths():
    """A frozen TF1 graph (control flow v2): bidirectional_dynamic_rnn with sequence_length
    (TF1 ``Select`` of a vector condition picks rows), a growing TensorArray, map_fn, and
    the gradients w.r.t. every variable and the input: TensorFlow's values."""
    ref = np.load(os.path.join(DATA, "bidirectional_gradients.npz"))
    gd = tf1.GraphDef()
    with open(os.path.join(DATA, "bidirectional_gradients.pb"), "rb") as f:
        gd.ParseFromString(f.read())
    names = [str(n) for n in ref["names"]]
    with tf.Graph().as_default():
        tf1.import_graph_def(gd, name="")
        with tf1.Session() as sess:
            got = sess.run(names, {"x:0": ref["x"]})
    assert len(got) == 6
    for i, (name, value) in enumerate(zip(names, got)):
        np.testing.assert_allclose(value, ref["value_%d" % i], rtol=1e-5, atol=1e-6,
                                   err_msg=name)


def test_tf1_select_of_a_vector_condition_picks_rows():
    from flowgrad.saved_model import graph_import
    cond = tf.constant([True, False])
    x, y = tf.ones([2, 3]), tf.zeros([2, 3])
    unknown = tf1.placeholder_with_default(cond, None)
    with tf1.Session() as sess:
        for c in (cond, unknown):
            out = graph_import.IMPORTERS["Select"]([c, x, y], {}, "select")
            np.testing.assert_array_equal(sess.run(out), [[1, 1, 1], [0, 0, 0]])


def test_tensor_list_accumulator_of_a_growing_value_keeps_each_element():
    """A TensorList whose elements differ in shape (TensorFlow's accumulator of a growing
    TensorArray's storage) keeps each element as pushed, and PopBack returns them last
    first."""
    from flowgrad.saved_model import graph_import, tensor_list_import  # noqa: F401
    imp = graph_import.IMPORTERS
    with tf.Graph().as_default():
        lst = imp["EmptyTensorList"]([tf.constant(-1), tf.constant(-1)],
                                     {"element_dtype": tf.float32}, "empty")
        for k in range(1, 4):
            lst = imp["TensorListPushBack"]([lst, tf.ones([k, 2]) * k],
                                            {"element_dtype": tf.float32}, "push%d" % k)
        rest, last = imp["TensorListPopBack"]([lst, tf.constant(-1)],
                                              {"element_dtype": tf.float32}, "pop")
        _, before = imp["TensorListPopBack"]([rest, tf.constant(-1)],
                                             {"element_dtype": tf.float32}, "pop_1")
        with tf1.Session() as sess:
            a, b = sess.run([last, before])
    np.testing.assert_array_equal(a, np.full((3, 2), 3.0))
    np.testing.assert_array_equal(b, np.full((2, 2), 2.0))


def test_flowgrads_saved_model_of_a_train_step_through_a_loop_is_tensorflows(eager, tmp_path):
    """The reverse: flowgrad writes the train step (a loop growing a TensorArray, its
    gradient, the updates) in TensorFlow's format (the CI's interop job trains it on
    TensorFlow 2.21 with the same losses), and loads it back with the same losses."""
    import warnings

    from flowgrad.saved_model import tf_protos

    class Step(tf.Module):
        def __init__(self):
            super().__init__()
            self.w = tf.Variable(np.linspace(-0.5, 0.5, 6, dtype=np.float32).reshape(3, 2))

        @tf.function(input_signature=[tf.TensorSpec([None, None, 3], tf.float32),
                                      tf.TensorSpec([None, 2], tf.float32)])
        def train_step(self, x, y):
            with tf.GradientTape() as tape:
                ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)

                def body(i, h, ta):
                    h = tf.tanh(tf.matmul(x[:, i], self.w) + h)
                    return i + 1, h, ta.write(i, h)
                _, h, ta = tf.while_loop(lambda i, h, ta: i < tf.shape(x)[1], body,
                                         [tf.constant(0), tf.zeros_like(y), ta])
                loss = tf.reduce_mean(tf.square(tf.reduce_mean(ta.stack(), 0) + h - y))
            self.w.assign_sub(0.1 * tape.gradient(loss, self.w))
            return loss
    rng = np.random.default_rng(1)
    x = tf.constant(rng.standard_normal((2, 5, 3)).astype(np.float32))
    y = tf.constant(rng.standard_normal((2, 2)).astype(np.float32))
    m = Step()
    with warnings.catch_warnings():
        warnings.simplefilter("error")          # no fallback to flowgrad's own format
        tf.saved_model.save(m, str(tmp_path))
    want = [float(m.train_step(x, y)) for _ in range(3)]
    sm = tf_protos.read_message(tf_protos.pb().SavedModel(), str(tmp_path / "saved_model.pb"))
    ops = {n.op for f in sm.meta_graphs[0].graph_def.library.function for n in f.node_def}
    assert {"StatelessWhile", "TensorListPushBack", "TensorListGetItem",
            "TensorScatterUpdate"} <= ops
    loaded = tf.saved_model.load(str(tmp_path))
    got = [float(loaded.train_step(x, y)) for _ in range(3)]
    np.testing.assert_allclose(got, want, rtol=1e-6)


@pytest.mark.parametrize("name", ["lstm_adam_cfv1", "loop_tensor_array_cfv1", "cond_cfv1",
                                  "nested_loops_cfv1", "cond_in_loop_cfv1",
                                  "rnn_sequence_length_cfv1", "bidirectional_cfv1",
                                  "map_fn_scan_cfv1", "batch_norm_cond_cfv1",
                                  "case_max_iterations_cfv1"])
def test_flowgrad_resumes_tensorflows_control_flow_v1_training_graphs(name):
    """TensorFlow 1's dataflow loops (Enter/Exit frames; the gradient loop pops the stacks
    the forward loop pushed; TensorArrayV3 and its gradient array) and conditionals
    (Switch/Merge, nested, their gradients; inside a loop, with stack pushes in the
    branches) resume with TensorFlow's losses: dynamic_rnn with sequence_length, a
    bidirectional_dynamic_rnn, map_fn and scan, nested while loops, tf.case after a loop with
    maximum_iterations. The cond graph takes the other branch at every step (its predicate
    is the global step's parity); the batch norm one (a tf.cond on a ``training``
    placeholder, moving averages updated in UPDATE_OPS) evaluates with ``training`` False
    after each step, TensorFlow's loss from the moving averages."""
    got, step, ref = _resume(name)
    np.testing.assert_allclose(got, ref["losses"], rtol=5e-6, atol=2e-6)
    assert step == len(ref["losses"])


def _meta_without(name, drop):
    meta = tf1.MetaGraphDef()
    with open(os.path.join(DATA, name, "model.meta"), "rb") as f:
        meta.ParseFromString(f.read())
    keep = [n for n in meta.graph_def.node if not drop(n)]
    del meta.graph_def.node[:]
    meta.graph_def.node.extend(keep)
    return meta


def test_a_frame_flowgrad_cannot_convert_is_an_error_naming_the_node_and_frame():
    meta = _meta_without("loop_tensor_array_cfv1", lambda n: n.name == "while/LoopCond")
    with tf.Graph().as_default():
        with pytest.raises(errors.UnimplementedError,
                           match=r"Node 'while/Enter' \(op Enter\) in frame "
                                 r"'while/while_context'.*0 LoopCond"):
            tf1.train.import_meta_graph(meta)


def test_tensorflows_frozen_control_flow_v1_inference_graph():
    """The frozen GraphDef a TF1 user has (convert_variables_to_constants of dynamic_rnn with
    sequence_length, a tf.cond on the input, map_fn, a while_loop growing a TensorArray):
    TensorFlow's outputs for two batches, whose conditional takes either branch, and
    TensorFlow's gradient w.r.t. the input (tf.gradients through the imported loops)."""
    ref = np.load(os.path.join(DATA, "frozen_rnn_cfv1.npz"))
    gd = tf1.GraphDef()
    with open(os.path.join(DATA, "frozen_rnn_cfv1.pb"), "rb") as f:
        gd.ParseFromString(f.read())
    assert {"Enter", "Switch", "Merge", "TensorArrayV3"} <= {n.op for n in gd.node}
    names = [str(n) for n in ref["names"]]
    with tf.Graph().as_default():
        x = tf1.placeholder(tf.float32, [None, 5, 3])
        outs = tf1.import_graph_def(gd, input_map={"x:0": x}, return_elements=names,
                                    name="frozen")
        probs, steps, energy = outs
        # differentiated in flowgrad: its TensorArrays are flowgrad's own (their flows hold
        # the elements), its loops and conditional While and If ops
        (grad,) = tf1.gradients(tf.reduce_sum(probs * [1.0, 2.0, 3.0, 4.0]) +
                                tf.reduce_sum(steps) + tf.reduce_sum(energy), [x])
        ops = {op.type for op in tf1.get_default_graph().get_operations()}
        assert {"While", "If"} <= ops and "TensorArrayV3" not in ops
        with tf1.Session() as sess:
            for b in range(2):
                got = sess.run(outs + [grad], {x: ref["x_%d" % b],
                                               "frozen/seq:0": ref["seq_%d" % b]})
                for i, (name, value) in enumerate(zip(names, got)):
                    np.testing.assert_allclose(value, ref["value_%d_%d" % (b, i)], rtol=1e-5,
                                               atol=1e-6, err_msg=name)
                np.testing.assert_allclose(got[-1], ref["grad_x_%d" % b], rtol=1e-5,
                                           atol=1e-6)
            # the conditional's Merge keeps its name
            merge = tf1.get_default_graph().get_tensor_by_name("frozen/cond/Merge:0")
            assert sess.run(merge, {x: ref["x_0"], "frozen/seq:0": ref["seq_0"]}).shape == \
                (2, 4)


with open(os.path.join(DATA, "cfv1_graphs.json")) as _f:
    CFV1_GRAPHS = json.load(_f)


@pytest.mark.parametrize("case", sorted(CFV1_GRAPHS))
def test_tensorflows_control_flow_v1_graphs_without_recorded_shapes(case):
    """TF1 graphs with control flow v1 as as_graph_def() writes them (no recorded shapes):
    a loop growing a tensor (shape_invariants), variables assigned in a loop body
    (RefEnter) and in tf.cond branches (RefSwitch) -- run twice, the assignments add up --,
    an assertion in a loop body with back_prop=False, a TensorArray of elements of different
    sizes, nested map_fn, a while_loop in a tf.cond branch and its gradient: TensorFlow's
    values (tests/data/tf_loop_training/cfv1_graphs.json, tools/tf_reference/cfv1_graphs.py)."""
    rec = CFV1_GRAPHS[case]
    gd = tf1.GraphDef()
    gd.ParseFromString(base64.b64decode(rec["graph"]))
    with tf.Graph().as_default():
        tf1.import_graph_def(gd, name="")
        with tf1.Session() as sess:
            if rec["init"]:
                sess.run("init")
            for want in rec["values"]:
                got = sess.run(rec["fetch"])
                for name, g, w in zip(rec["fetch"], got, want):
                    np.testing.assert_allclose(g, np.asarray(w, np.float32), rtol=1e-6,
                                               err_msg=name)


@pytest.mark.parametrize("name", ["cond_cfv1", "lstm_adam_cfv1", "nested_loops_cfv1"])
def test_tensorflows_control_flow_v1_graph_saved_again_by_flowgrad_resumes(name, tmp_path):
    """Resumed, then saved by flowgrad's Saver (its .meta now holds While/If ops: control
    flow v2; a StridedSlice's constant inputs, a Transpose's and a Slice's computed ones, a
    DynamicStitch's two lists exported as TensorFlow's), the graph resumes again with
    TensorFlow's losses (the CI's interop job has TensorFlow resume the conditional ones)."""
    ref = np.load(os.path.join(DATA, name + ".npz"))
    prefix = os.path.join(DATA, name, "model")
    feed = {"x:0": ref["x"], "y:0": ref["y"]}
    saved = str(tmp_path / "model")
    with tf.Graph().as_default():
        saver = tf1.train.import_meta_graph(prefix + ".meta")
        train_op = tf1.get_collection("train_op")[-1]
        with tf1.Session() as sess:
            saver.restore(sess, prefix)
            sess.run(train_op, feed)
            import warnings
            with warnings.catch_warnings():
                warnings.simplefilter("error")          # the .meta is written
                saver.save(sess, saved)
    meta = tf1.MetaGraphDef()
    with open(saved + ".meta", "rb") as f:
        meta.ParseFromString(f.read())
    ops = {n.op for n in meta.graph_def.node}
    assert not ops & {"Enter", "Switch", "Merge"} and ops & {"If", "StatelessIf", "While",
                                                             "StatelessWhile"}
    names = [n.name for n in meta.graph_def.node]
    assert len(names) == len(set(names))
    with tf.Graph().as_default():
        saver = tf1.train.import_meta_graph(saved + ".meta")
        loss = tf1.get_default_graph().get_tensor_by_name("loss:0")
        train_op = tf1.get_collection("train_op")[-1]
        with tf1.Session() as sess:
            saver.restore(sess, saved)
            got = [sess.run([loss, train_op], feed)[0] for _ in ref["losses"][1:]]
    np.testing.assert_allclose(got, ref["losses"][1:], rtol=5e-6, atol=2e-6)
