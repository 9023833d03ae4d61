"""``tensorflow.examples``: the tutorials TensorFlow 1 shipped."""
