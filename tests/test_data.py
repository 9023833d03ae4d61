"""tf.data: sources, transformations, shuffle semantics, eager and graph iteration, errors."""
import numpy as np
import pytest

import flowgrad.compat.v1 as tf
from flowgrad import TensorSpec
from flowgrad.framework.tensor import EagerTensor

Dataset = tf.data.Dataset


@pytest.fixture
def eager():
    tf.enable_v2_behavior()


def _values(ds):
    return [np.asarray(x).tolist() if not isinstance(x, (tuple, dict)) else x
            for x in ds.as_numpy_iterator()]


def _graph_values(ds, initializable=False, feed=None):
    it = (tf.data.make_initializable_iterator(ds) if initializable
          else tf.data.make_one_shot_iterator(ds))
    nxt = it.get_next()
    out = []
    with tf.Session() as sess:
        if initializable:
            sess.run(it.initializer, feed)
        while True:
            try:
                out.append(sess.run(nxt))
            except tf.errors.OutOfRangeError:
                return out


# -- sources and structure -----------------------------------------------------------------


def test_from_tensor_slices_nested_structures_and_element_spec(eager):
    ds = Dataset.from_tensor_slices(({"a": np.arange(3.0), "b": [[1, 2], [3, 4], [5, 6]]},
                                     np.array([True, False, True])))
    spec = ds.element_spec
    assert spec[0]["a"] == TensorSpec([], tf.float64)
    assert spec[0]["b"] == TensorSpec([2], tf.int32)        # Python ints are int32
    assert spec[1] == TensorSpec([], tf.bool)
    elems = list(ds)
    assert len(elems) == 3
    d, flag = elems[1]
    assert isinstance(d["a"], EagerTensor) and d["a"].numpy() == 1.0
    np.testing.assert_array_equal(d["b"].numpy(), [3, 4])
    assert flag.numpy() is np.False_ or flag.numpy() == False  # noqa: E712


def test_lists_are_values_not_structure_and_python_floats_are_float32(eager):
    ds = Dataset.from_tensor_slices([[1.0, 2.0], [3.0, 4.0]])
    assert ds.element_spec == TensorSpec([2], tf.float32)
    np.testing.assert_array_equal(next(iter(ds)).numpy(), [1.0, 2.0])


def test_scalar_string_elements_iterate_as_string_tensors(eager):
    ds = Dataset.from_tensor_slices(["ab", "c"])
    assert ds.element_spec == TensorSpec([], tf.string)
    elems = list(ds)
    assert [e.dtype for e in elems] == [tf.string, tf.string]
    assert [e.shape.as_list() for e in elems] == [[], []]
    assert [e.numpy() for e in elems] == [tf.constant("ab").numpy(), tf.constant("c").numpy()]
    assert list(ds.as_numpy_iterator()) == [e.numpy() for e in elems]


def test_from_tensors_range_and_cardinality(eager):
    ds = Dataset.from_tensors((np.zeros((2, 3)), 5))
    assert [s.shape.as_list() for s in ds.element_spec] == [[2, 3], []]
    assert len(ds) == 1
    r = Dataset.range(2, 10, 3)
    assert r.element_spec == TensorSpec([], tf.int64)
    assert _values(r) == [2, 5, 8] and len(r) == 3
    assert _values(Dataset.range(3)) == [0, 1, 2]
    assert int(Dataset.range(5).repeat().cardinality().numpy()) == -1
    with pytest.raises(TypeError, match="infinite"):
        len(Dataset.range(5).repeat())
    with pytest.raises(TypeError, match="unknown"):
        len(Dataset.range(5).filter(lambda x: x > 2))


def test_from_generator_types_shapes_signature_and_errors(eager):
    def gen(n):
        for i in range(int(n)):
            yield i, [float(i)] * 2

    ds = Dataset.from_generator(gen, output_types=(tf.int64, tf.float32),
                                output_shapes=((), (2,)), args=(3,))
    assert ds.element_spec[1] == TensorSpec([2], tf.float32)
    got = list(ds)
    assert [int(a.numpy()) for a, _ in got] == [0, 1, 2]
    assert got[2][1].dtype == tf.float32
    ds2 = Dataset.from_generator(lambda: iter([[1, 2], [3, 4]]),
                                 output_signature=TensorSpec([None], tf.int32))
    assert _values(ds2) == [[1, 2], [3, 4]]
    bad = Dataset.from_generator(lambda: iter([[1, 2, 3]]), output_types=tf.int32,
                                 output_shapes=[2])
    with pytest.raises(tf.errors.InvalidArgumentError, match="shape \\(3,\\) where an element "
                       "of shape \\(2,\\) was expected"):
        list(bad)
    with pytest.raises(TypeError, match="output_signature"):
        Dataset.from_generator(gen)


def test_mismatched_first_dimensions_name_the_sizes():
    with pytest.raises(ValueError, match="Dimensions 3 and 4 are not compatible.*component 1 "
                       "has 4"):
        Dataset.from_tensor_slices((np.zeros(3), np.zeros(4)))
    with pytest.raises(ValueError, match="rank >= 1"):
        Dataset.from_tensor_slices(np.float32(1.0))
    a = tf.placeholder(tf.float32, [None])
    b = tf.placeholder(tf.float32, [None])
    ds = Dataset.from_tensor_slices((a, b))
    with pytest.raises(tf.errors.InvalidArgumentError, match="same size in the 0th dimension: "
                       "got sizes \\[2, 3\\]"):
        _graph_values(ds, initializable=True, feed={a: [1, 2], b: [1, 2, 3]})


# -- transformations -----------------------------------------------------------------------


def test_map_gets_eager_structures_and_is_traced_once(eager):
    calls = []

    def fn(x, y):
        calls.append(1)
        return {"sum": x + tf.cast(y, tf.float64), "sq": x * x}

    ds = Dataset.from_tensor_slices((np.arange(4.0), np.arange(4))).map(fn)
    assert ds.element_spec["sum"] == TensorSpec([], tf.float64)
    out = list(ds)
    assert [e["sum"].numpy() for e in out] == [0, 2, 4, 6]
    assert [e["sq"].numpy() for e in out] == [0, 1, 4, 9]
    list(ds)
    assert len(calls) == 1                    # traced once, as TensorFlow does


def test_map_of_a_single_component_and_list_results(eager):
    ds = Dataset.range(3).map(lambda x: [x, x * 10])
    assert isinstance(ds.element_spec, tuple)
    assert [(int(a), int(b)) for a, b in ds.as_numpy_iterator()] == [(0, 0), (1, 10), (2, 20)]
    ident = Dataset.range(2).map(lambda x: x)
    assert _values(ident) == [0, 1]


def test_batch_and_drop_remainder(eager):
    ds = Dataset.range(7).batch(3)
    assert ds.element_spec == TensorSpec([None], tf.int64)
    assert _values(ds) == [[0, 1, 2], [3, 4, 5], [6]]
    dr = Dataset.range(7).batch(3, drop_remainder=True)
    assert dr.element_spec == TensorSpec([3], tf.int64)
    assert _values(dr) == [[0, 1, 2], [3, 4, 5]] and len(dr) == 2
    assert _values(Dataset.range(7).batch(3).unbatch()) == list(range(7))
    ragged = Dataset.from_generator(lambda: iter([[1], [1, 2]]), output_types=tf.int32,
                                    output_shapes=[None]).batch(2)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Cannot batch tensors with "
                       "different shapes in component 0. First element had shape \\[1\\] and "
                       "element 1 had shape \\[2\\]"):
        list(ragged)
    with pytest.raises(tf.errors.InvalidArgumentError, match="batch_size must be greater"):
        Dataset.range(3).batch(0)


def test_padded_batch_pads_to_the_longest_or_to_the_given_shape(eager):
    ds = Dataset.range(1, 5).map(lambda x: tf.fill(tf.reshape(tf.cast(x, tf.int32), [1]), x))
    assert ds.element_spec == TensorSpec([None], tf.int64)
    b = ds.padded_batch(2)
    assert b.element_spec == TensorSpec([None, None], tf.int64)
    assert _values(b) == [[[1, 0], [2, 2]], [[3, 3, 3, 0], [4, 4, 4, 4]]]
    fixed = ds.padded_batch(3, padded_shapes=[5], padding_values=np.int64(-1),
                            drop_remainder=True)
    assert fixed.element_spec == TensorSpec([3, 5], tf.int64)
    assert _values(fixed) == [[[1, -1, -1, -1, -1], [2, 2, -1, -1, -1], [3, 3, 3, -1, -1]]]
    pairs = Dataset.zip((ds, ds)).padded_batch(2, padded_shapes=([None], [6]))
    assert [s.shape.as_list() for s in pairs.element_spec] == [[None, None], [None, 6]]
    first = next(pairs.as_numpy_iterator())
    assert first[0].shape == (2, 2) and first[1].shape == (2, 6)
    with pytest.raises(tf.errors.DataLossError, match="pad to a smaller size"):
        list(ds.padded_batch(4, padded_shapes=[2]))
    with pytest.raises(ValueError, match="rank"):
        ds.padded_batch(2, padded_shapes=[2, 2])


def test_flat_map_and_interleave_in_tensorflows_documented_order(eager):
    r = Dataset.range(1, 4)
    assert _values(r.flat_map(lambda x: Dataset.range(x * 10, x * 10 + x))) == [
        10, 20, 21, 30, 31, 32]
    assert _values(r.flat_map(lambda x: Dataset.from_tensor_slices(
        tf.fill(tf.reshape(tf.cast(x, tf.int32), [1]), x * 2)))) == [2, 4, 4, 6, 6, 6]
    # the example of tf.data.Dataset.interleave's documentation
    out = _values(Dataset.range(1, 6).interleave(
        lambda x: Dataset.from_tensors(x).repeat(6), cycle_length=2, block_length=4))
    assert out == [1, 1, 1, 1, 2, 2, 2, 2, 1, 1, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 3, 3, 4, 4,
                   5, 5, 5, 5, 5, 5]
    with pytest.raises(TypeError, match="must return a `Dataset`"):
        r.flat_map(lambda x: x)


def test_repeat_take_skip_zip_concatenate_enumerate_filter_shard(eager):
    r = Dataset.range(3)
    assert _values(r.repeat(2)) == [0, 1, 2, 0, 1, 2]
    assert _values(r.repeat().take(7)) == [0, 1, 2, 0, 1, 2, 0]
    assert _values(r.skip(1)) == [1, 2] and _values(r.skip(-1)) == []
    assert _values(r.take(-1)) == [0, 1, 2]
    z = Dataset.zip((r, Dataset.range(10, 20)))
    assert [tuple(map(int, e)) for e in z.as_numpy_iterator()] == [(0, 10), (1, 11), (2, 12)]
    assert _values(r.concatenate(Dataset.range(5, 7))) == [0, 1, 2, 5, 6]
    with pytest.raises(TypeError, match="Incompatible dataset elements"):
        r.concatenate(Dataset.from_tensor_slices([1.0]))
    assert [tuple(map(int, e)) for e in r.enumerate(5).as_numpy_iterator()] == [
        (5, 0), (6, 1), (7, 2)]
    assert _values(Dataset.range(10).filter(lambda x: x % 3 == 0)) == [0, 3, 6, 9]
    assert _values(Dataset.range(10).shard(3, 1)) == [1, 4, 7]
    assert _values(r.prefetch(tf.data.AUTOTUNE).cache()) == [0, 1, 2]
    with pytest.raises(ValueError, match="must return a `tf.bool` scalar"):
        r.filter(lambda x: x)


# -- shuffle -------------------------------------------------------------------------------


def test_shuffle_is_a_permutation_and_deterministic_with_a_seed(eager):
    a = _values(Dataset.range(20).shuffle(20, seed=7))
    b = _values(Dataset.range(20).shuffle(20, seed=7))
    assert sorted(a) == list(range(20)) and a == b and a != list(range(20))
    assert _values(Dataset.range(20).shuffle(20, seed=8)) != a


def test_shuffle_buffer_semantics(eager):
    assert _values(Dataset.range(10).shuffle(1, seed=3)) == list(range(10))
    for seed in range(20):
        first = _values(Dataset.range(100).shuffle(5, seed=seed))
        assert first[0] < 5                     # the first element comes from the first buffer
        assert all(first[i] < i + 5 for i in range(100))       # never ahead of the buffer


def test_shuffle_reshuffles_each_iteration_unless_told_not_to(eager):
    ds = Dataset.range(30).shuffle(30, seed=1)
    epochs = _values(ds.repeat(2))
    assert epochs[:30] != epochs[30:] and sorted(epochs[30:]) == list(range(30))
    fixed = Dataset.range(30).shuffle(30, seed=1, reshuffle_each_iteration=False)
    epochs = _values(fixed.repeat(2))
    assert epochs[:30] == epochs[30:]


def test_global_seed_makes_shuffle_deterministic(eager):
    tf.set_random_seed(5)
    a = _values(Dataset.range(20).shuffle(20))
    tf.set_random_seed(5)
    assert _values(Dataset.range(20).shuffle(20)) == a


# -- eager and graph iteration -------------------------------------------------------------


def test_eager_iter_next_and_get_next_out_of_range(eager):
    it = iter(Dataset.range(2))
    assert int(next(it)) == 0 and int(it.get_next()) == 1
    with pytest.raises(StopIteration):
        next(it)
    with pytest.raises(tf.errors.OutOfRangeError):
        it.get_next()


def test_graph_mode_one_shot_iterator_and_out_of_range():
    ds = Dataset.from_tensor_slices((np.arange(5.0), np.arange(5))).map(
        lambda x, y: (x * 2, y + 1)).batch(2)
    it = ds.make_one_shot_iterator()
    x, y = it.get_next()
    assert x.dtype == tf.float64 and x.shape.as_list() == [None]
    assert x.op.type == "IteratorGetNext" and x.op is y.op
    with tf.Session() as sess:
        assert [v.tolist() for v in sess.run([x, y])] == [[0.0, 2.0], [1, 2]]
        assert sess.run(x).tolist() == [4.0, 6.0]
        assert sess.run(y).tolist() == [5]
        with pytest.raises(tf.errors.OutOfRangeError, match="End of sequence"):
            sess.run(x)
        with pytest.raises(tf.errors.OutOfRangeError):
            sess.run(x)
    with pytest.raises(ValueError, match="does not have an initializer"):
        it.initializer  # noqa: B018


def test_graph_mode_initializable_iterator_with_placeholders_restarts():
    xs = tf.placeholder(tf.float32, [None, 2])
    ys = tf.placeholder(tf.int64, [None])
    ds = Dataset.from_tensor_slices((xs, ys)).shuffle(10, seed=1).batch(4)
    it = tf.data.make_initializable_iterator(ds)
    bx, by = it.get_next()
    assert bx.shape.as_list() == [None, 2]
    data_x = np.arange(12, dtype=np.float32).reshape(6, 2)
    with tf.Session() as sess:
        with pytest.raises(tf.errors.FailedPreconditionError, match="not been initialized"):
            sess.run(bx)
        for _ in range(2):
            sess.run(it.initializer, {xs: data_x, ys: np.arange(6)})
            first_x, first_y = sess.run([bx, by])
            second_y = sess.run(by)
            assert sorted(first_y.tolist() + second_y.tolist()) == list(range(6))
            np.testing.assert_array_equal(first_x, data_x[first_y])
            with pytest.raises(tf.errors.OutOfRangeError):
                sess.run(by)


def test_reinitializable_iterator_from_structure():
    train = Dataset.range(3)
    test = Dataset.range(10, 12)
    it = tf.data.Iterator.from_structure(tf.data.get_output_types(train),
                                         tf.data.get_output_shapes(train))
    nxt = it.get_next()
    init_train, init_test = it.make_initializer(train), it.make_initializer(test)
    with tf.Session() as sess:
        sess.run(init_train)
        assert [sess.run(nxt) for _ in range(3)] == [0, 1, 2]
        sess.run(init_test)
        assert sess.run(nxt) == 10
    with pytest.raises(TypeError, match="Expected output types"):
        it.make_initializer(Dataset.from_tensor_slices([1.0]))


def test_feedable_iterator_switches_by_string_handle():
    train = Dataset.range(100).repeat()
    valid = Dataset.range(1000, 1003)
    handle = tf.placeholder(tf.string, [])
    it = tf.data.Iterator.from_string_handle(handle, tf.data.get_output_types(train),
                                             tf.data.get_output_shapes(train))
    nxt = it.get_next()
    train_it = tf.data.make_one_shot_iterator(train)
    valid_it = tf.data.make_initializable_iterator(valid)
    with tf.Session() as sess:
        th, vh = sess.run([train_it.string_handle(), valid_it.string_handle()])
        assert [sess.run(nxt, {handle: th}) for _ in range(3)] == [0, 1, 2]
        with pytest.raises(tf.errors.FailedPreconditionError):
            sess.run(nxt, {handle: vh})
        sess.run(valid_it.initializer)
        assert [sess.run(nxt, {handle: vh}) for _ in range(3)] == [1000, 1001, 1002]
        with pytest.raises(tf.errors.OutOfRangeError):
            sess.run(nxt, {handle: vh})
        assert sess.run(nxt, {handle: th}) == 3              # the training iterator goes on
        with pytest.raises(tf.errors.InvalidArgumentError, match="No iterator has the string"):
            sess.run(nxt, {handle: "nonsense"})


def test_training_loop_on_a_graph_iterator_learns():
    rng = np.random.RandomState(0)
    x_data = rng.randn(64, 3).astype(np.float32)
    y_data = x_data @ np.array([[1.0], [-2.0], [0.5]], np.float32)
    ds = Dataset.from_tensor_slices((x_data, y_data)).shuffle(64, seed=0).repeat().batch(16)
    x, y = tf.data.make_one_shot_iterator(ds).get_next()
    loss = tf.losses.mean_squared_error(y, tf.layers.dense(x, 1))
    train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        first = sess.run(loss)
        for _ in range(100):
            sess.run(train)
        assert sess.run(loss) < 0.01 * first


def test_python_iteration_in_graph_mode_is_an_error():
    with pytest.raises(RuntimeError, match="only supports Python-style iteration in eager"):
        iter(Dataset.range(3))


# -- keras.datasets ------------------------------------------------------------------------


def test_keras_mnist_load_data_as_keras_returns_it(tmp_path, monkeypatch):
    from flowgrad.legacy_keras.datasets import mnist
    monkeypatch.setenv("KERAS_HOME", str(tmp_path))         # an empty cache
    (x_train, y_train), (x_test, y_test) = mnist.load_data()
    assert x_train.shape == (60000, 28, 28) and x_train.dtype == np.uint8
    assert y_train.shape == (60000,) and y_train.dtype == np.uint8
    assert x_test.shape == (10000, 28, 28) and y_test.shape == (10000,)
    assert y_train[:5].tolist() == [5, 0, 4, 1, 9] and y_test[:5].tolist() == [7, 2, 1, 0, 4]
    assert x_train.max() == 255 and np.bincount(y_test).tolist()[:3] == [980, 1135, 1032]
    x_train[0] = 0                                     # callers get their own copies
    assert mnist.load_data()[0][0][0].any()


def test_keras_mnist_prefers_a_valid_copy_in_the_keras_cache(tmp_path, monkeypatch):
    from flowgrad.legacy_keras.datasets import mnist
    monkeypatch.setenv("KERAS_HOME", str(tmp_path))
    (tmp_path / "datasets").mkdir()
    small = {"x_train": np.full((3, 28, 28), 7, np.uint8), "y_train": np.arange(3, dtype=np.uint8),
             "x_test": np.zeros((2, 28, 28), np.uint8), "y_test": np.ones(2, np.uint8)}
    np.savez(tmp_path / "datasets" / "mnist.npz", **small)
    (x_train, y_train), (x_test, _) = mnist.load_data()
    assert x_train.shape == (3, 28, 28) and y_train.tolist() == [0, 1, 2]
    np.savez(tmp_path / "datasets" / "mnist.npz", x_train=np.zeros(3))
    with pytest.warns(UserWarning, match="not a Keras MNIST file"):
        assert mnist.load_data()[0][0].shape == (60000, 28, 28)


def test_datasets_needing_a_download_say_so(tmp_path, monkeypatch):
    from flowgrad.legacy_keras.datasets import DatasetDownloadRequiredError, cifar10, fashion_mnist
    monkeypatch.setenv("KERAS_HOME", str(tmp_path))
    with pytest.raises(DatasetDownloadRequiredError, match="fashion_mnist.load_data\\(\\) needs "
                       ".*fashion-mnist/train-labels-idx1-ubyte.gz.*the download failed"):
        fashion_mnist.load_data()
    with pytest.raises(OSError, match="cifar-10-batches-py/data_batch_1"):
        cifar10.load_data()


def test_mnist_through_a_dataset_pipeline(eager):
    from flowgrad.legacy_keras.datasets import mnist
    (x_train, y_train), _ = mnist.load_data()
    ds = Dataset.from_tensor_slices((x_train[:100], y_train[:100])).map(
        lambda x, y: (tf.cast(x, tf.float32) / 255.0, tf.cast(y, tf.int64))).batch(32)
    x, y = next(iter(ds))
    assert x.shape == (32, 28, 28) and x.dtype == tf.float32 and y.dtype == tf.int64
    np.testing.assert_allclose(x.numpy(), x_train[:32] / 255.0, rtol=1e-6)


def test_padding_values_and_too_small_padding_are_tensorflows():
    # tools/tf_reference/dataset_padding.py on TF 2.21: a Python int pads int32 only
    from tf_reference_program import flowgrad_stdout, recorded_text
    assert flowgrad_stdout("dataset_padding.py") == recorded_text("tf_data/padding.txt")
