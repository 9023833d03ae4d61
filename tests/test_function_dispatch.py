"""tf.function with dynamic sizes, as TensorFlow 2.21 (recorded by
tools/tf_reference/function_dispatch_shapes.py): ops given a shape list holding a tensor
(``tf.random.normal([tf.shape(x)[0], 4])``, ``tf.eye(n)``, ``tf.broadcast_to(1., [n, 2])``,
``tf.tile(x, [n, 1])``) trace with TF's partially known static shapes, and a call (or
``get_concrete_function``) reuses a trace made for a supertype of its arguments instead of
tracing again, the most specific one when several fit."""
import flowgrad as tf
import flowgrad.compat.v1 as tf1

from tf_reference_program import flowgrad_stdout, recorded_text



def test_shapes_and_traces_are_tensorflows():
    assert flowgrad_stdout("function_dispatch_shapes.py") == \
        recorded_text("reprs/function_dispatch.txt")


def test_the_most_specific_supertype_trace_runs():
    tf1.enable_v2_behavior()            # conftest starts every test in graph mode

    @tf.function
    def f(x):                           # which trace ran shows in what it returns
        return tf.constant(-1 if x.shape.rank is None else x.shape.rank)

    f.get_concrete_function(tf.TensorSpec([None, 2]))
    f.get_concrete_function(tf.TensorSpec(None))
    assert int(f(tf.ones([3, 2]))) == 2            # the [None, 2] trace, not the general one
    assert int(f(tf.ones([3]))) == -1              # only the unknown-rank trace fits
    assert int(f(tf.ones([3, 3]))) == -1
    assert f.experimental_get_tracing_count() == 2


def test_eye_with_a_tensor_size_in_a_graph():
    with tf1.Graph().as_default():
        n = tf1.placeholder(tf.int32, [])
        e, b = tf.eye(n, 3), tf.eye(2, batch_shape=[n])
        assert e.shape.as_list() == [None, 3] and b.shape.as_list() == [None, 2, 2]
        with tf1.Session() as sess:
            ev, bv = sess.run([e, b], {n: 2})
    assert ev.tolist() == [[1, 0, 0], [0, 1, 0]] and bv.shape == (2, 2, 2)
