"""What programs print: a ConcreteFunction's repr and str and ``tf.print``'s formats (dense,
ragged and sparse tensors, structures laid out by pprint) and a loaded SavedModel's
``signatures`` (a subclassed Keras model saved without ``signatures=``) are TensorFlow 2.21's
(recorded by tools/tf_reference/concrete_function_repr.py, tf_print_formats.py and
saved_signatures_repr.py), and an Operation's text
names its inputs as a NodeDef does (``p`` for output 0, ``split:1``)."""
import pytest

import flowgrad.compat.v1 as tf

from tf_reference_program import flowgrad_stdout, recorded_text


@pytest.mark.parametrize("program,record", [("concrete_function_repr.py", "concrete_function.txt"),
                                            ("tf_print_formats.py", "tf_print.txt"),
                                            ("saved_signatures_repr.py",
                                             "saved_signatures.txt")])
def test_prints_what_tensorflow_prints(program, record):
    assert flowgrad_stdout(program) == recorded_text("reprs/" + record)


def test_operation_text_names_inputs_as_a_node_def():
    with tf.Graph().as_default():
        p = tf.placeholder(tf.float32, [2], name="p")
        _, b = tf.split(p, 2)
        y = tf.add(p, b, name="y")
        with tf.control_dependencies([b]):
            z = tf.identity(p, name="z")
    assert str(y.op).splitlines()[:4] == ['name: "y"', 'op: "AddV2"', 'input: "p"',
                                          'input: "split:1"']
    assert 'input: "^split"' in str(z.op).splitlines()
