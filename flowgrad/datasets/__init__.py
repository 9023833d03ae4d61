"""Small datasets for flowgrad demos and tests.

``flowgrad.datasets.mnist`` re-implements the old TensorFlow tutorial helper
``tensorflow.examples.tutorials.mnist.input_data`` (``read_data_sets``) with
NumPy only; the four MNIST files are bundled under ``data/mnist`` so that it
works offline.
"""
