"""Prints what ``tensorflow.python.eager.context._reset_context`` (the test helper Keras 3's
distribution tests call before splitting the CPU into logical devices) does to the device
configuration: logical devices set after the context was initialized are a RuntimeError, and
after a reset they can be set again (and the earlier split is gone). Run on TensorFlow 2.21
it wrote tests/data/keras_suite/reset_context.txt, which tests/test_reset_context.py compares
with this program's output under ``python -m flowgrad``.

Run from the repository root:
    /work/venv-tf/bin/python tools/tf_reference/reset_context.py \
        > tests/data/keras_suite/reset_context.txt
"""
import tensorflow as tf
from tensorflow.python.eager import context

cpu = tf.config.list_physical_devices("CPU")[0]
two = [tf.config.LogicalDeviceConfiguration(), tf.config.LogicalDeviceConfiguration()]
print("logical before:", len(tf.config.list_logical_devices("CPU")))
try:
    tf.config.set_logical_device_configuration(cpu, two)
    print("set after initializing: ok")
except RuntimeError as e:
    print("set after initializing:", type(e).__name__)
context._reset_context()
print("configuration after reset:", tf.config.get_logical_device_configuration(cpu))
tf.config.set_logical_device_configuration(cpu, two)
print("logical after reset and split:", len(tf.config.list_logical_devices("CPU")))
context._reset_context()
print("logical after a second reset:", len(tf.config.list_logical_devices("CPU")))
