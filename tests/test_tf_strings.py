"""tf.strings against TensorFlow 2.21: every case of tools/tf_reference/io_reference.py's
STRING_CASES, recorded in tests/data/io/reference.json, is called on flowgrad with the same
arguments and must give TensorFlow's values (dtypes, shapes, ragged row splits) or its error
class and message. Graph mode, tf.data and the TF1 names are checked too."""
from __future__ import annotations

import numpy as np
import pytest

import flowgrad as tf
import flowgrad.compat.v1 as tf1
from flowgrad.framework import errors
from flowgrad.framework.registry import gradient_function
from io_reference import REF, same_value

CASES = REF["strings"]


@pytest.fixture(autouse=True)
def eager_mode():
    tf1.enable_v2_behavior()


def _argument(v):
    if isinstance(v, dict) and "ragged" in v:
        return tf.ragged.constant(v["ragged"])
    if isinstance(v, dict) and "hex" in v:
        return bytes.fromhex(v["hex"])
    return v


def call_case(face, spec):
    f = face
    for part in spec["fn"].split("."):
        f = getattr(f, part)
    kw = {k: (getattr(tf, v) if k == "out_type" else v) for k, v in spec["kwargs"].items()}
    args = [_argument(a) for a in spec["args"]]
    if spec["fn"] == "strings.format":
        args[1] = [tf.constant(x) for x in args[1]]
    return f(*args, **kw)


@pytest.mark.parametrize("name", sorted(CASES))
def test_string_function_matches_tensorflow(name):
    spec = CASES[name]
    if "error" in spec:
        with pytest.raises(getattr(errors, spec["error"]["class"])) as e:
            call_case(tf, spec)
        assert str(e.value).startswith(spec["error"]["message"])
    else:
        same_value(call_case(tf, spec), spec["result"])


def test_reprs_match_tensorflow():
    assert repr(tf.constant("abc")) == REF["repr"]["scalar"]
    assert repr(tf.constant(["a", "bc"])) == REF["repr"]["vector"]
    assert repr(tf.ragged.constant([[b"a"], []])) == REF["repr"]["ragged"]


@pytest.mark.parametrize("name", ["split_sep", "join", "reduce_join_axis1", "regex_replace",
                                  "to_number_float", "as_string_float", "substr",
                                  "length_chars", "lower", "strip", "hash_fast",
                                  "unicode_split", "format", "bytes_split"])
def test_string_functions_in_graph_mode(name):
    spec = CASES[name]
    g = tf.Graph()
    with g.as_default():
        out = call_case(tf, spec)
        parts = [out.flat_values] + list(out.nested_row_splits) if hasattr(out, "flat_values") \
            else [out]
        with tf1.Session() as s:
            values = s.run(parts)
    want = spec["result"]
    if want.get("ragged"):
        from io_reference import dec, same
        same(values[0], dec(want["flat_values"]))
        for got, w in zip(values[1:], want["nested_row_splits"]):
            same(got, dec(w))
    else:
        same_value(values[0] if not isinstance(values[0], np.ndarray) or values[0].ndim
                   else values[0][()], want)


def test_string_ops_are_not_differentiable():
    for op_type in ("StringSplitV2", "StringJoin", "ReduceJoin", "StaticRegexReplace",
                    "StringToNumber", "AsString", "Substr", "StringLength", "UnicodeDecode",
                    "StringToHashBucketFast", "StringFormat", "RaggedTensorToTensor",
                    "ReadFile", "DecodeRaw", "ParseTensor"):
        op = type("Op", (), {"type": op_type, "_grad_type": None, "name": op_type})()
        assert gradient_function(op) is None, op_type


def test_to_number_gradient_is_none():
    x = tf.constant(["1.5"])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.strings.to_number(x)
    assert tape.gradient(y, x) is None


def test_strings_in_tf_data_pipelines():
    ds = tf.data.Dataset.from_tensor_slices(["Hello World", "a b"])
    joined = ds.map(lambda s: tf.strings.reduce_join(tf.strings.split(tf.strings.lower(s)),
                                                     separator="|"))
    assert list(joined.as_numpy_iterator()) == [b"hello|world", b"a|b"]
    padded = ds.batch(2).map(lambda s: tf.strings.split(s).to_tensor())
    assert [x.tolist() for x in padded.as_numpy_iterator()] == [[[b"Hello", b"World"],
                                                                 [b"a", b"b"]]]
    lengths = tf.data.Dataset.from_tensor_slices(["ab", "\xe9"]).map(
        lambda s: tf.strings.length(s, unit="UTF8_CHAR"))
    assert [int(x) for x in lengths.as_numpy_iterator()] == [2, 1]


def test_tf1_top_level_string_names():
    assert tf1.string_join(["a", "b"], "-").numpy() == b"a-b"
    assert tf1.string_to_number("2.5").numpy() == 2.5
    assert tf1.substr("hello", 1, 2).numpy() == b"el"
    sp = tf1.string_split(["a b", "c"])
    assert tf.sparse.to_dense(sp).numpy().tolist() == [[b"a", b"b"], [b"c", b""]]
    assert tf1.string_split(["a,b"], delimiter=",", result_type="RaggedTensor").to_list() == \
        [[b"a", b"b"]]


def test_ragged_basics():
    rt = tf.RaggedTensor.from_row_lengths(["a", "b", "c"], [2, 0, 1])
    assert rt.to_list() == [[b"a", b"b"], [], [b"c"]]
    assert rt.row_lengths().numpy().tolist() == [2, 0, 1]
    assert rt.to_tensor().numpy().tolist() == [[b"a", b"b"], [b"", b""], [b"c", b""]]
    assert rt.shape.as_list() == [3, None]
    r2 = tf.RaggedTensor.from_value_rowids([1, 2, 3], [0, 0, 2], nrows=4)
    assert r2.to_list() == [[1, 2], [], [3], []]
    assert r2.to_tensor(default_value=9, shape=[2, 3]).numpy().tolist() == [[1, 2, 9],
                                                                            [9, 9, 9]]
    nested = tf.ragged.constant([[[1], [2, 3]], [[4]]])
    assert nested.ragged_rank == 2 and nested.to_list() == [[[1], [2, 3]], [[4]]]
    assert tf.ragged.map_flat_values(tf.multiply, nested, 2).to_list() == [[[2], [4, 6]],
                                                                             [[8]]]
    with pytest.raises(errors.InvalidArgumentError, match="do not form a valid RaggedTensor"):
        tf.RaggedTensor.from_row_splits([1, 2], [0, 3])
    with pytest.raises(ValueError, match="constructor is private"):
        tf.RaggedTensor([1], [0, 1])


def test_sparse_basics():
    sp = tf.sparse.SparseTensor([[0, 1], [2, 0]], [5.0, 6.0], [3, 2])
    assert sp.shape.as_list() == [3, 2]
    assert tf.sparse.to_dense(sp).numpy().tolist() == [[0, 5], [0, 0], [6, 0]]
    back = tf.sparse.from_dense(tf.constant([[0, 1], [2, 0]]))
    assert back.indices.numpy().tolist() == [[0, 1], [1, 0]]
    with pytest.raises(errors.InvalidArgumentError, match="is out of order"):
        tf.sparse.to_dense(tf.sparse.SparseTensor([[2, 0], [0, 1]], [5.0, 6.0], [3, 2]))


def test_ragged_indexing_and_from_tensor():
    rt = tf.ragged.constant([[1, 2], [3], [4, 5, 6]])
    assert rt[0].numpy().tolist() == [1, 2] and int(rt[2, 1]) == 5
    assert rt[1:].to_list() == [[3], [4, 5, 6]] and rt[-1].numpy().tolist() == [4, 5, 6]
    nested = tf.ragged.constant([[[1], [2, 3]], [[4]]])
    assert nested[0].to_list() == [[1], [2, 3]] and nested[1:].to_list() == [[[4]]]
    with pytest.raises(errors.InvalidArgumentError, match="out of bounds"):
        rt[3]
    padded = tf.RaggedTensor.from_tensor([[1, 2, 0], [3, 0, 0], [0, 0, 0]], padding=0)
    assert padded.to_list() == [[1, 2], [3], []]
    cut = tf.RaggedTensor.from_tensor([[1, 2, 0], [3, 0, 0]], lengths=[1, 3])
    assert cut.to_list() == [[1], [3, 0, 0]]
    words = tf.strings.split(["a b c", "d"])
    assert words[0].numpy().tolist() == [b"a", b"b", b"c"]


def test_ragged_factories_and_tf1_sparse_names():
    R = tf.RaggedTensor
    assert R.from_row_starts([1, 2, 3, 4], [0, 2, 2]).to_list() == [[1, 2], [], [3, 4]]
    assert R.from_row_limits([1, 2, 3, 4], [1, 4]).to_list() == [[1], [2, 3, 4]]
    assert R.from_uniform_row_length([1, 2, 3, 4], 2).to_list() == [[1, 2], [3, 4]]
    sp = tf.sparse.SparseTensor([[0, 0], [0, 1], [2, 0]], ["a", "b", "c"], [3, 2])
    assert R.from_sparse(sp).to_list() == [[b"a", b"b"], [], [b"c"]]
    with pytest.raises(errors.InvalidArgumentError, match="not right-ragged"):
        R.from_sparse(tf.sparse.SparseTensor([[0, 1]], [1], [1, 2]))
    assert tf1.sparse_to_dense([[0, 1], [1, 0]], [2, 2], [5, 6]).numpy().tolist() == [[0, 5],
                                                                                      [6, 0]]
    assert tf1.sparse_to_dense([1, 3], [4], 1.0).numpy().tolist() == [0, 1, 0, 1]
    assert tf1.sparse_tensor_to_dense(sp, b"-").numpy().tolist() == [[b"a", b"b"],
                                                                     [b"-", b"-"],
                                                                     [b"c", b"-"]]
