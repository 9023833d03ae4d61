"""``tensorflow.python.data.experimental.ops.distribute.compute_batch_size`` (what Keras 3's
``distribution_lib`` reads to shard a tf.data pipeline across processes) gives TensorFlow
2.21's batch sizes, recorded by tools/tf_reference/compute_batch_size.py."""
import pytest

import flowgrad as tf
import flowgrad.compat.v1 as tf1
from flowgrad.data.distribute import compute_batch_size

from tf_reference_program import flowgrad_stdout, recorded_text

D = tf.data.Dataset


@pytest.fixture(autouse=True)
def eager_mode():
    tf1.enable_v2_behavior()            # conftest starts every test in graph mode


def test_batch_sizes_are_tensorflows():
    assert flowgrad_stdout("compute_batch_size.py") == \
        recorded_text("keras_suite/compute_batch_size.txt")


def test_batch_size_is_an_int64_scalar():
    size = compute_batch_size(D.range(10).batch(3))
    assert size.dtype == tf.int64 and size.shape == () and int(size) == 3


def test_scalar_elements_are_an_index_error():
    with pytest.raises(IndexError):
        compute_batch_size(D.range(4))
