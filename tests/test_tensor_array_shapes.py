"""A TensorArray written inside a loop tells the array after the loop its element shape, as
TensorFlow's does (one shape cell shared by the arrays made from one another): stack, read and
gather after the loop have TensorFlow 2.21's static shapes (recorded by
tools/tf_reference/tensor_array_shapes.py), infer_shape=False keeps them unknown, and a
TensorShape a tf.function returns becomes a tensor."""
import flowgrad as tf
import flowgrad.compat.v1 as tf1

from tf_reference_program import flowgrad_stdout, recorded_text



def test_shapes_after_loops_are_tensorflows():
    assert flowgrad_stdout("tensor_array_shapes.py") == \
        recorded_text("tensor_array/shapes.txt")


def test_writes_before_and_inside_a_loop_agree_on_the_element_shape():
    tf1.enable_v2_behavior()            # conftest starts every test in graph mode
    @tf.function
    def f(n):
        ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
        ta = ta.write(0, tf.zeros([2]))
        for i in tf.range(n):
            ta = ta.write(i + 1, tf.ones([2]))
        return ta.stack()

    cf = f.get_concrete_function(tf.TensorSpec([], tf.int32))
    assert cf.structured_outputs.shape.as_list() == [None, 2]
    assert f(tf.constant(2)).numpy().tolist() == [[0, 0], [1, 1], [1, 1]]
