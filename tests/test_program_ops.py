"""Ops real TF2 programs (tools/program_corpus.py) stopped at: tf.sparse.slice,
tf.sparse.reduce_max, tf.sparse.map_values, tf.tensor_scatter_nd_sub and
Iterator.get_next_as_optional (eager and in a tf.function), against TensorFlow 2.21's
numbers (tests/data/programs/program_ops.json, made by
tools/tf_reference/program_ops_reference.py). Their gradients are checked in tests/op_db.py."""
import json
import os
import re

import numpy as np
import pytest

import flowgrad as tf
import flowgrad.compat.v1 as tf1

REF = json.load(open(os.path.join(os.path.dirname(__file__), "data", "programs",
                                  "program_ops.json")))


@pytest.fixture
def eager():
    tf1.enable_v2_behavior()
    yield
    tf1.disable_v2_behavior()


def _sp(values=None):
    sp = REF["sparse"]
    return tf.sparse.SparseTensor(sp["indices"], sp["values"] if values is None else values,
                                  sp["dense_shape"])


@pytest.mark.parametrize("case", REF["slice"], ids=lambda c: "%s+%s" % (c["start"], c["size"]))
def test_sparse_slice_and_its_gradient(eager, case):
    values = tf.constant(REF["sparse"]["values"], tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(values)
        s = tf.sparse.slice(_sp(values), case["start"], case["size"])
        n = tf.cast(tf.size(s.values), tf.float64)
        loss = tf.reduce_sum(s.values ** 2 * tf.range(1.0, n + 1))
    assert s.indices.numpy().tolist() == case["indices"]
    assert s.values.numpy().tolist() == case["values"]
    assert s.dense_shape.numpy().tolist() == case["dense_shape"]
    np.testing.assert_allclose(tape.gradient(loss, values).numpy(), case["grad"])


def test_sparse_slice_in_graph_mode():
    case = REF["slice"][1]
    s = tf1.sparse.slice(_sp(), case["start"], case["size"])
    with tf1.Session() as sess:
        indices, values, shape = sess.run([s.indices, s.values, s.dense_shape])
    assert (indices.tolist(), values.tolist(), shape.tolist()) == (
        case["indices"], case["values"], case["dense_shape"])


@pytest.mark.parametrize("case", REF["reduce_max"]["cases"],
                         ids=lambda c: "%s-%s-%s" % (c["axis"], c["keepdims"], c.get("sparse")))
def test_sparse_reduce_max(eager, case):
    sp = tf.sparse.SparseTensor([[0, 1]], [-3.0], [2, 2]) if case.get("sparse") else _sp()
    got = tf.sparse.reduce_max(sp, axis=case["axis"], keepdims=case["keepdims"])
    assert got.numpy().tolist() == case["value"]


def test_sparse_reduce_max_has_no_gradient(eager):
    values = tf.constant(REF["sparse"]["values"])
    with tf.GradientTape() as tape:
        tape.watch(values)
        r = tf.reduce_sum(tf.sparse.reduce_max(_sp(values), axis=1))
    assert tape.gradient(r, values) is None


def test_sparse_map_values(eager):
    assert tf.sparse.map_values(tf.multiply, _sp(), 2.0).values.numpy().tolist() == \
        REF["map_values"]["mul"]
    added = tf.sparse.map_values(tf.add, _sp(), _sp())
    assert added.values.numpy().tolist() == REF["map_values"]["add"]
    assert added.dense_shape.numpy().tolist() == REF["sparse"]["dense_shape"]
    with pytest.raises(ValueError, match="No SparseTensor"):
        tf.sparse.map_values(tf.add, 1.0, 2.0)


def test_tensor_scatter_nd_sub(eager):
    ref = REF["scatter_sub"]
    got = tf.tensor_scatter_nd_sub(tf.constant([1.0, 2.0, 3.0, 4.0]), [[1], [1], [3]],
                                   [1.0, 2.0, 3.0])
    assert got.numpy().tolist() == ref["vector"]
    rows = tf.tensor_scatter_nd_sub(tf.ones([2, 3], tf.int32), [[1]], [[5, 6, 7]])
    assert rows.numpy().tolist() == ref["rows"]


def test_get_next_as_optional_eager(eager):
    it = iter(tf.data.Dataset.range(3).map(lambda x: (x, tf.cast(x, tf.float32) * 2)))
    got = []
    for _ in range(4):
        o = it.get_next_as_optional()
        got.append([bool(o.has_value())] + (
            [[int(o.get_value()[0]), float(o.get_value()[1])]] if o.has_value() else []))
    assert got == REF["optional"]["eager"]
    o = tf.data.experimental.get_next_as_optional(iter(tf.data.Dataset.range(1)))
    assert str(o.element_spec) == REF["optional"]["experimental_spec"]
    with pytest.raises(tf.errors.InvalidArgumentError, match="does not have a value"):
        iter(tf.data.Dataset.range(0)).get_next_as_optional().get_value()


_FUNCTION_SOURCE = '''
import flowgrad as tf


@tf.function
def total(iterator):
    s = tf.constant(0, tf.int64)
    for _ in tf.range(5):
        o = iterator.get_next_as_optional()
        if not o.has_value():
            break
        s += o.get_value()
    return s


@tf.function
def two(iterator):
    return next(iterator) * 10 + next(iterator)
'''


def test_iterators_in_a_function_read_on_every_call(eager, tmp_path):
    """An eager iterator passed to a tf.function is read when the function runs, not when it
    is traced (AutoGraph needs the functions' source, hence a module file)."""
    path = tmp_path / "iterator_functions.py"
    path.write_text(_FUNCTION_SOURCE)
    import importlib.util
    spec = importlib.util.spec_from_file_location("iterator_functions", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert int(module.total(iter(tf.data.Dataset.range(3)))) == REF["optional"]["function_total"]
    it = iter(tf.data.Dataset.range(5))
    assert [int(module.two(it)), int(module.two(it))] == [1, 23]
    with pytest.raises(tf.errors.OutOfRangeError):
        module.two(it)


def test_save_options(eager, tmp_path):
    """The TF guide's ``tf.saved_model.save(model, path,
    options=tf.saved_model.SaveOptions(experimental_custom_gradients=True))``."""
    options = tf.saved_model.SaveOptions(experimental_custom_gradients=True,
                                         namespace_whitelist="Custom",
                                         experimental_variable_policy="SAVE_VARIABLE_DEVICES")
    assert options.namespace_whitelist == ["Custom"]
    assert options.function_aliases == {}
    assert options.experimental_variable_policy.value == "save_variable_devices"
    with pytest.raises(ValueError, match="invalid VariablePolicy value: nope"):
        tf.saved_model.SaveOptions(experimental_variable_policy="nope")
    with pytest.raises(ValueError, match="Whitelisted namespace must be a string"):
        tf.saved_model.SaveOptions(namespace_whitelist=[1])
    assert tf.saved_model.LoadOptions().allow_partial_checkpoint is False

    class Scale(tf.Module):
        def __init__(self):
            self.w = tf.Variable(2.0)

        @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
        def __call__(self, x):
            return self.w * x
    tf.saved_model.save(Scale(), str(tmp_path / "m"), options=tf.saved_model.SaveOptions(
        experimental_custom_gradients=True))
    assert float(tf.saved_model.load(str(tmp_path / "m"))(tf.constant(3.0))) == 6.0


def test_tensor_shape_dims_are_dimensions_in_tf2_too(eager):
    """TensorFlow 2.21's ``TensorShape.dims`` is a list of Dimensions (the TF1-to-TF2 guide
    calls ``dims[i].is_compatible_with``); iterating the shape gives ints."""
    ref = REF["shape_dims"]
    shape = tf.TensorShape([2, None])
    assert repr(shape.dims) == ref["dims"]
    assert repr(list(shape)) == ref["iter"]
    assert [shape.dims[i].is_compatible_with(16) for i in (0, 1)] == ref["compatible"]
    assert shape.dims[1].merge_with(3) == 3
    with pytest.raises(ValueError, match="not compatible"):
        shape.dims[0].merge_with(3)


def test_variable_slice_assign(eager):
    """``v[0, 0].assign(10)`` (YunYang1994's basic_operations): a slice of a Variable
    assigns into that part of it."""
    ref = REF["sliced_assign"]
    a = tf.Variable(tf.ones([2, 3]))
    a[0, 0].assign(10)
    a[1, ::2].assign([7.0, 8.0])
    assert a.numpy().tolist() == ref["value"]
    a[0, :].assign(3.0)                     # broadcast, as TensorFlow's ResourceStridedSliceAssign
    assert a.numpy()[0].tolist() == [3.0, 3.0, 3.0]
    message = ref["mismatch"][1].split("}} ")[1].split(" [Op")[0]
    with pytest.raises(getattr(tf.errors, ref["mismatch"][0]), match=re.escape(message)):
        a[1].assign([1.0, 2.0])


def test_variable_slice_assign_in_a_session():
    v = tf1.Variable([[1.0, 2.0], [3.0, 4.0]])
    op = v[:, 1].assign([5.0, 6.0])
    with tf1.Session() as sess:
        sess.run(tf1.global_variables_initializer())
        sess.run(op)
        assert sess.run(v).tolist() == [[1.0, 5.0], [3.0, 6.0]]
