"""Writes a SavedModel whose function calls tf.print (StringFormat + PrintV2, a control
output of the function) with TensorFlow 2.21, for tests/test_saved_model_print.py.

Run from the repository root:
    /work/venv-tf/bin/python tools/tf_reference/print_saved_model.py
"""
import sys

import tensorflow as tf


class Printer(tf.Module):
    @tf.function(input_signature=[tf.TensorSpec([2], tf.float32)])
    def f(self, x):
        tf.print("x is", x, {"k": x * 2}, output_stream=sys.stdout)
        return x * 2


tf.saved_model.save(Printer(), "tests/data/tf_print_saved_model")
