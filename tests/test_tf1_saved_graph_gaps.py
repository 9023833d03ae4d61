"""TF1 graph behaviours the blog-style seq2seq programs hit when they save a ``.meta`` and
answer from the restored graph (tests/data/contrib/programs/chatbot_seq2seq.py): a Session's
``with`` block makes its graph the default one, as TensorFlow's does; asserts with messages,
static-``num_segments`` segment sums (Adam's sparse updates) and ``tf.concat`` of Python lists
export to GraphDefs that TensorFlow 2.21 reads (checked by hand with its
``import_meta_graph``: the assert fires with its message); TF1's ``tf.where`` with a vector
condition selects rows (``dynamic_decode`` keeps finished entries' states so)."""
from __future__ import annotations

import numpy as np
import pytest

import flowgrad.compat.v1 as tf
from flowgrad.framework import errors


@pytest.fixture(autouse=True)
def _graph():
    with tf.Graph().as_default():
        yield


def test_a_sessions_with_block_makes_its_graph_the_default():
    outer = tf.get_default_graph()
    other = tf.Graph()
    with tf.Session(graph=other) as sess:
        assert tf.get_default_graph() is other
        c = tf.constant(3.0) * 2
        assert c.graph is other
        assert sess.run(c) == 6.0
    assert tf.get_default_graph() is outer


def test_asserts_with_messages_export_as_string_constants_and_still_fire(tmp_path):
    x = tf.placeholder(tf.float32, [2], name="x")
    check = tf.assert_positive(x, message="hello")
    with tf.control_dependencies([check]):
        tf.identity(x * 2, name="y")
    tf.Assert(tf.reduce_all(x > 1), ["x is", x, "small"], name="custom")
    meta = tf.train.export_meta_graph(str(tmp_path / "m.meta"))
    nodes = {n.name: n for n in meta.graph_def.node}
    custom = nodes["custom"]
    assert custom.op == "Assert" and len(custom.input) == 4
    assert nodes[custom.input[1]].op == "Const"
    assert nodes[custom.input[1]].attr["value"].tensor.string_val == [b"x is"]
    assert custom.input[2] == "x"
    assert list(custom.attr["T"].list.type) == [7, 1, 7]      # DT_STRING, DT_FLOAT
    with tf.Graph().as_default(), tf.Session() as sess:
        tf.train.import_meta_graph(str(tmp_path / "m.meta"))
        np.testing.assert_array_equal(sess.run("y:0", {"x:0": [1.0, 2.0]}), [2.0, 4.0])
        with pytest.raises(errors.InvalidArgumentError):
            sess.run("y:0", {"x:0": [-1.0, 2.0]})


def test_static_segment_counts_and_concat_of_lists_export_with_unique_names():
    data = tf.placeholder(tf.float32, [None, 3], name="data")
    summed = tf.unsorted_segment_sum(data, [0, 1, 0], 2)
    shape = tf.concat([tf.shape(data)[:-1], [4]], 0)
    graph_def = tf.get_default_graph().as_graph_def()
    names = [n.name for n in graph_def.node]
    assert len(names) == len(set(names))
    node = next(n for n in graph_def.node if n.name == summed.op.name)
    assert len(node.input) == 3
    concat = next(n for n in graph_def.node if n.name == shape.op.name)
    assert len(concat.input) == 3
    with tf.Graph().as_default(), tf.Session() as sess:
        tf.import_graph_def(graph_def, name="")
        out = sess.run([summed.name, shape.name], {"data:0": np.ones((3, 3), np.float32)})
    np.testing.assert_array_equal(out[0], [[2, 2, 2], [1, 1, 1]])
    np.testing.assert_array_equal(out[1], [3, 4])


def test_tf1_where_with_a_vector_condition_picks_whole_rows():
    # TF 2.21's tf.compat.v1.where (the Select op), run by hand:
    # where([True, False], [[1, 2], [3, 4]], [[5, 6], [7, 8]]) -> [[1, 2], [7, 8]]; a
    # condition of 3 for 2 rows -> InvalidArgumentError "Number of batches of 'then' must
    # match size of 'cond', but saw: 2 vs. 3"
    with tf.Session() as sess:
        out = sess.run(tf.where([True, False], [[1, 2], [3, 4]], [[5, 6], [7, 8]]))
        np.testing.assert_array_equal(out, [[1, 2], [7, 8]])
        x = np.arange(12.0).reshape(3, 2, 2)
        out = sess.run(tf.where(tf.constant([False, True, False]), x, -x))
        np.testing.assert_array_equal(out, np.where([False, True, False], x.T, -x.T).T)
    with pytest.raises(errors.InvalidArgumentError, match="must match size of 'cond', but "
                                                          "saw: 2 vs. 3"):
        tf.where([True, False, True], [[1, 2], [3, 4]], [[5, 6], [7, 8]])
    from flowgrad.testing import check_gradients
    check_gradients(lambda a, b: tf.where(tf.constant([True, False]), a, b),
                    [np.ones((2, 3)), np.zeros((2, 3))], order=2)
