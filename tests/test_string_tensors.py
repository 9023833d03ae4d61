"""String tensors hold bytes, as in TensorFlow: ``str`` values are UTF-8 encoded, ``numpy()``
gives ``bytes`` (an object array of bytes for rank >= 1), in eager and graph mode, in
Sessions and in ``tf.data``. The reprs and errors are TensorFlow 2.21's."""
from __future__ import annotations

import numpy as np
import pytest

import flowgrad as tf
import flowgrad.compat.v1 as tf1
from flowgrad.framework import errors


@pytest.fixture(autouse=True)
def eager_mode():
    tf1.enable_v2_behavior()


def test_eager_string_scalar_is_bytes_and_its_repr_is_tensorflows():
    x = tf.constant("abc")
    assert x.numpy() == b"abc" and type(x.numpy()) is bytes
    assert repr(x) == "<tf.Tensor: shape=(), dtype=string, numpy=b'abc'>"
    assert str(x) == "tf.Tensor(b'abc', shape=(), dtype=string)"
    # non-ASCII text is UTF-8 encoded
    assert repr(tf.constant("h\xe9")) == "<tf.Tensor: shape=(), dtype=string, numpy=b'h\\xc3\\xa9'>"


def test_eager_string_array_is_an_object_array_of_bytes():
    y = tf.constant(["a", "bc"])
    v = y.numpy()
    assert v.dtype == object and v.tolist() == [b"a", b"bc"]
    assert repr(y) == ("<tf.Tensor: shape=(2,), dtype=string, "
                       "numpy=array([b'a', b'bc'], dtype=object)>")
    assert str(y) == "tf.Tensor([b'a' b'bc'], shape=(2,), dtype=string)"
    assert tf.constant(np.array(["a", "b"])).numpy().tolist() == [b"a", b"b"]
    assert tf.constant(np.array([b"a", b"b"])).numpy().dtype == object


def test_string_conversion_errors_are_tensorflows():
    with pytest.raises(TypeError, match="Cannot convert 1 to EagerTensor of dtype string"):
        tf.constant(1, tf.string)
    with pytest.raises(ValueError, match="mixed types"):
        tf.constant(["a", 1])


def test_cast_to_and_from_string_is_unimplemented_in_both_modes():
    with pytest.raises(errors.UnimplementedError, match="Cast int32 to string is not supported"):
        tf.cast(tf.constant(1), tf.string)
    with pytest.raises(errors.UnimplementedError, match="Cast string to float is not supported"):
        tf.cast(tf.constant("1"), tf.float32)
    g = tf.Graph()
    with g.as_default():
        c = tf.cast(tf.constant(1), tf.string)
        with tf1.Session() as s, pytest.raises(errors.UnimplementedError,
                                               match="Cast int32 to string"):
            s.run(c)


def test_string_zeros_are_empty_bytes():
    assert tf.zeros([2], tf.string).numpy().tolist() == [b"", b""]
    assert tf.zeros_like(tf.constant(["a"])).numpy().tolist() == [b""]


def test_string_equality_and_selection():
    y = tf.constant(["a", "b"])
    assert tf.equal(y, "a").numpy().tolist() == [True, False]
    assert tf.not_equal(y, b"a").numpy().tolist() == [False, True]
    assert tf.where([True, False], y, ["c", "d"]).numpy().tolist() == [b"a", b"d"]


def test_session_feeds_and_fetches_bytes():
    g = tf.Graph()
    with g.as_default():
        p = tf1.placeholder(tf.string, [None])
        e = tf.equal(p, "a")
        with tf1.Session() as s:
            eq, val = s.run([e, p], {p: ["a", "b", "\xe9"]})
            assert eq.tolist() == [True, False, False]
            assert val.dtype == object and val.tolist() == [b"a", b"b", b"\xc3\xa9"]
            assert s.run(tf.constant("x")) == b"x"


def test_tf_function_returns_string_scalars():
    f = tf.function(lambda x: tf.identity(x), autograph=False)
    r = f(tf.constant("a"))
    assert r.shape == () and r.numpy() == b"a"


def test_tf_data_pipelines_of_strings_give_bytes():
    ds = tf.data.Dataset.from_tensor_slices(["a", "b"])
    assert list(ds.as_numpy_iterator()) == [b"a", b"b"]
    batched = list(ds.map(tf.identity).batch(2).as_numpy_iterator())
    assert batched[0].dtype == object and batched[0].tolist() == [b"a", b"b"]
    pairs = list(ds.map(lambda x: (x, tf.equal(x, "a"))).batch(2))
    assert pairs[0][1].numpy().tolist() == [True, False]
    g = tf.Graph()
    with g.as_default():
        nxt = tf1.data.make_one_shot_iterator(ds).get_next()
        with tf1.Session() as s:
            assert [s.run(nxt), s.run(nxt)] == [b"a", b"b"]


def test_tf_print_quotes_string_tensors_as_tensorflow(capsys):
    # TensorFlow 2.21 prints: loss "abc" ["a" "b"] ["x"] {'k': "v"} 1.5
    tf.print("loss", tf.constant("abc"), tf.constant(["a", "b"]), [tf.constant("x")],
             {"k": tf.constant("v")}, tf.constant(1.5), output_stream="stdout")
    assert capsys.readouterr().out == 'loss "abc" ["a" "b"] ["x"] {\'k\': "v"} 1.5\n'
