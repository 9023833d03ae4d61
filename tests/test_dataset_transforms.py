"""tf.data's folding, windowing and filtering transformations: reduce, scan,
get_single_element, unique, take_while, ignore_errors, rebatch, window (windows are
datasets: flat_map, zip of windows, eager iteration), group_by_window,
bucket_by_sequence_length, from_list, group_by_reducer and sparse_batch give TensorFlow 2.21's
elements, specs and cardinalities (recorded by tools/tf_reference/dataset_transforms.py),
eagerly, in a tf.function and in a TF1 Session; bad input is TensorFlow's error."""
import numpy as np
import pytest

import flowgrad as tf
import flowgrad.compat.v1 as tf1

from tf_reference_program import flowgrad_stdout, recorded_text

D = tf.data.Dataset


@pytest.fixture(autouse=True)
def eager_mode():
    tf1.enable_v2_behavior()            # conftest starts every test in graph mode


def test_results_are_tensorflows():
    assert flowgrad_stdout("dataset_transforms.py") == \
        recorded_text("tf_data/transforms.txt")


def test_experimental_transformations_match_the_methods():
    ds = D.range(8)
    assert list(ds.apply(tf.data.experimental.scan(np.int64(0), lambda s, x: (s + x, s)))
                .as_numpy_iterator()) == [0, 0, 1, 3, 6, 10, 15, 21]
    assert list(D.from_tensor_slices([2, 2, 1]).apply(tf.data.experimental.unique())
                .as_numpy_iterator()) == [2, 1]
    assert list(ds.apply(tf.data.experimental.take_while(lambda x: x < 2))
                .as_numpy_iterator()) == [0, 1]
    grouped = ds.apply(tf.data.experimental.group_by_window(
        lambda x: x % 2, lambda k, w: w.batch(4), window_size=4))
    assert [b.tolist() for b in grouped.as_numpy_iterator()] == [[0, 2, 4, 6], [1, 3, 5, 7]]
    assert tf.data.experimental.get_single_element(D.from_tensors(7)).numpy() == 7
    assert list(ds.take(2).apply(tf.data.experimental.enumerate_dataset(5))
                .as_numpy_iterator()) == [(5, 0), (6, 1)]
    mb = ds.apply(tf.data.experimental.map_and_batch(lambda x: x * 2, 3, drop_remainder=True))
    assert [b.tolist() for b in mb.as_numpy_iterator()] == [[0, 2, 4], [6, 8, 10]]


def test_windows_are_datasets_with_their_spec():
    wins = D.range(5).window(2, drop_remainder=True)
    assert wins.element_spec == tf.data.DatasetSpec(tf.TensorSpec([], tf.int64))
    assert int(wins.cardinality()) == 2
    first = next(iter(wins))
    assert isinstance(first, D) and [int(x) for x in first] == [0, 1]
    with pytest.raises(TypeError, match="DatasetSpec"):
        next(wins.as_numpy_iterator())


def test_reduce_and_scan_in_a_tf1_session_read_fed_tensors():
    with tf1.Graph().as_default():
        n = tf1.placeholder(tf.int64, [])
        start = tf1.placeholder(tf.int64, [])
        total = D.range(n).reduce(start, lambda s, x: s + x)
        it = tf1.data.make_initializable_iterator(
            D.range(n).scan(start, lambda s, x: (s + 1, s * x)))
        nxt = it.get_next()
        with tf1.Session() as sess:
            assert sess.run(total, {n: 4, start: 100}) == 106
            sess.run(it.initializer, {n: 3, start: 10})
            assert [sess.run(nxt) for _ in range(3)] == [0, 11, 24]


def test_bad_input_is_tensorflows_error():
    with pytest.raises(TypeError, match="only `tf.int32`, `tf.int64`, and `tf.string`"):
        D.from_tensor_slices([1.0]).unique()
    with pytest.raises(ValueError, match="must return a `tf.bool` scalar"):
        D.range(3).take_while(lambda x: x)
    with pytest.raises(ValueError, match="Either the `window_size` argument"):
        D.range(3).group_by_window(lambda x: x, lambda k, w: w)
    with pytest.raises(ValueError, match="key_func"):
        D.range(3).group_by_window(lambda x: tf.cast(x, tf.int32), lambda k, w: w, 2)
    with pytest.raises(ValueError, match="len\\(bucket_batch_sizes\\) must equal"):
        D.range(3).bucket_by_sequence_length(lambda x: 1, [2], [1])
    with pytest.raises(TypeError, match="types of the new state"):
        D.range(3).reduce(np.int32(0), lambda s, x: x)
    with pytest.raises(tf.errors.InvalidArgumentError, match="pad_to_bucket_boundary"):
        list(D.from_tensor_slices([[1, 2, 3]]).bucket_by_sequence_length(
            lambda x: tf.shape(x)[0], [2], [1, 1], pad_to_bucket_boundary=True))
    with pytest.raises(tf.errors.InvalidArgumentError, match="batch_size must be greater"):
        D.range(4).batch(2).rebatch(0)
    with pytest.raises(ValueError, match="should not be empty"):
        tf.data.experimental.from_list([])
    with pytest.raises(ValueError, match="same structure"):
        tf.data.experimental.from_list([(1, 2), (1, "a")])
    with pytest.raises(tf.errors.InvalidArgumentError, match="larger than the row shape"):
        list(D.from_tensors([1, 2, 3]).sparse_batch(1, [2]))


def test_ignore_errors_drops_only_failing_elements_and_errors_otherwise_propagate():
    ds = D.from_tensor_slices(["1", "x", "3"]).map(tf.strings.to_number)
    assert list(ds.ignore_errors().as_numpy_iterator()) == [1.0, 3.0]
    with pytest.raises(tf.errors.InvalidArgumentError):
        list(ds.as_numpy_iterator())


def test_rejection_resample_draws_tensorflows_numbers():
    # tools/tf_reference/rejection_resample.py on TF 2.21 (seeded acceptance and mixing)
    assert flowgrad_stdout("rejection_resample.py") == \
        recorded_text("tf_data/rejection_resample.txt")
