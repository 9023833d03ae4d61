"""``tensorflow.core``: TensorFlow's protocol buffer modules flowgrad serves."""
