"""``tensorflow.python.eager.context._reset_context`` (Keras 3's distribution tests call it
before splitting the CPU into logical devices) resets the device configuration as TensorFlow
2.21's does, recorded by tools/tf_reference/reset_context.py."""
from tf_reference_program import flowgrad_stdout, recorded_text


def test_reset_is_tensorflows():
    assert flowgrad_stdout("reset_context.py") == recorded_text("keras_suite/reset_context.txt")
