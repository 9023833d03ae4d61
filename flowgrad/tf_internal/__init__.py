"""TensorFlow's internal module paths, for the programs and libraries that import them.

``flowgrad.dropin`` serves ``tensorflow.<path>`` from ``flowgrad.tf_internal.<path>`` when
``<path>`` is not a namespace of the TF2 face: ``tensorflow.python.*`` (the modules Keras 3's
TensorFlow backend imports), ``tensorflow.core.*``, and the TF1 tutorials' MNIST reader
(``tensorflow.examples.tutorials.mnist.input_data``). Each module holds the names
TensorFlow's module of that path has, implemented by (or re-exported from) flowgrad.
"""
