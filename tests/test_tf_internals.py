"""The TensorFlow internals libraries built on TensorFlow use (Keras 3 among them): tracking
base classes, trackable containers, CompositeTensor/TypeSpec, the default tf.distribute
strategy, smart_cond, tf.experimental.Optional, stateless random ops, tf.data.Options,
tensorflow.python.* module paths under the drop-in."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import flowgrad as tf
from flowgrad.framework import autotrackable, composite_tensor, trackable
from flowgrad.framework.trackable_data_structures import ListWrapper, _DictWrapper

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def eager_mode():
    """Eager mode (TF2 behaviour); conftest starts every test in graph mode."""
    tf.compat.v1.enable_v2_behavior()


class Leaf(trackable.Trackable):
    pass


def test_autotrackable_tracks_trackable_attributes_by_name():
    class Holder(autotrackable.AutoTrackable):
        pass
    h = Holder()
    a, b = Leaf(), Leaf()
    h.a = a
    h.x = 3                                    # not trackable: no dependency
    h.skip = trackable.NoDependency(Leaf())    # unwrapped, not tracked
    assert isinstance(h.skip, Leaf)
    assert h._trackable_children() == {"a": a}
    h.a = b                                    # reassignment overwrites the dependency
    assert h._trackable_children() == {"a": b}
    del h.a
    assert h._trackable_children() == {}


def test_track_trackable_rejects_duplicates_and_non_trackables():
    t = Leaf()
    t._track_trackable(Leaf(), "w")
    with pytest.raises(ValueError, match="name='w'"):
        t._track_trackable(Leaf(), "w")
    with pytest.raises(TypeError, match="Trackable"):
        t._track_trackable(3, "v")


def test_no_automatic_dependency_tracking_pauses_tracking():
    class Holder(autotrackable.AutoTrackable):
        @trackable.no_automatic_dependency_tracking
        def set_quietly(self, v):
            self.quiet = v
    h = Holder()
    h.set_quietly(Leaf())
    assert h._trackable_children() == {} and h._self_setattr_tracking is True


def test_trackable_containers_are_lists_and_dicts():
    leaf = Leaf()
    lw, dw = ListWrapper([1, leaf]), _DictWrapper({"k": leaf, "n": 2})
    assert lw == [1, leaf] and isinstance(lw, list) and json.dumps(ListWrapper([1])) == "[1]"
    assert dw["n"] == 2 and isinstance(dw, dict)
    assert lw._trackable_children() == {"1": leaf} and dw._trackable_children() == {"k": leaf}


def test_type_spec_registry():
    @composite_tensor.register("test_tf_internals.MySpec")
    class MySpec(composite_tensor.TypeSpec):
        pass
    assert composite_tensor.lookup("test_tf_internals.MySpec") is MySpec
    assert composite_tensor.get_name(MySpec) == "test_tf_internals.MySpec"
    with pytest.raises(ValueError, match="already been registered"):
        composite_tensor.register("test_tf_internals.MySpec")(type("Other", (), {}))
    with pytest.raises(ValueError, match="form"):
        composite_tensor.register("nodot")


def test_tensors_are_internal_tensor_types_and_tf_tensor_protocol_converts():
    assert isinstance(tf.constant(1.0), tf.__internal__.types.Tensor)

    class Wrapped(tf.__internal__.types.Tensor):
        def __tf_tensor__(self, dtype=None, name=None):
            return tf.constant([1.0, 2.0], dtype=dtype)
    w = Wrapped()
    assert tf.is_tensor(w)
    assert tf.reduce_sum(tf.convert_to_tensor(w)).numpy() == 3.0


def test_default_strategy_and_replica_context():
    s = tf.distribute.get_strategy()
    assert not tf.distribute.has_strategy() and s.num_replicas_in_sync == 1
    ctx = tf.distribute.get_replica_context()
    assert ctx is not None and not tf.distribute.in_cross_replica_context()
    g = [tf.constant([1.0, 2.0])]
    assert ctx.all_reduce(tf.distribute.ReduceOp.SUM, g)[0].numpy().tolist() == [1.0, 2.0]
    with s.scope():
        assert tf.distribute.in_cross_replica_context()
        assert tf.distribute.get_replica_context() is None
        out = s.run(lambda x: (tf.distribute.get_replica_context() is not None, x * 2),
                    args=(tf.constant(3.0),))
        assert out[0] is True and out[1].numpy() == 6.0
    assert s.reduce("MEAN", tf.constant([[1.0, 3.0]]), axis=1).numpy().tolist() == [2.0]
    v = tf.Variable(1.0)
    s.extended.update(v, lambda var, d: var.assign_add(d), args=(2.0,))
    assert v.numpy() == 3.0
    calls = []
    tf.__internal__.distribute.interim.maybe_merge_call(
        lambda strat, a: calls.append((strat, a)), s, 5)
    assert calls == [(s, 5)]


def test_mirrored_strategy_has_one_replica_and_tpu_strategy_refuses():
    m = tf.distribute.MirroredStrategy()
    with m.scope():
        assert tf.distribute.has_strategy() and tf.distribute.get_strategy() is m
    assert not tf.distribute.has_strategy()
    with pytest.raises(NotImplementedError, match="TPUStrategy"):
        tf.distribute.TPUStrategy()
    # GPU names on a machine without GPUs: one replica each, on the CPU, as TensorFlow's soft
    # placement (tests/test_program_patterns.py pins the names against TF 2.21)
    assert tf.distribute.MirroredStrategy(["/gpu:0", "/gpu:1"]).num_replicas_in_sync == 2
    with pytest.raises(ValueError, match="Unknown attribute 'xla_gpu'"):
        tf.distribute.MirroredStrategy(["/xla_gpu:0"])


def test_smart_cond_calls_a_branch_when_the_predicate_is_known():
    sc = tf.__internal__.smart_cond.smart_cond
    assert sc(True, lambda: 1, lambda: 2) == 1
    assert sc(tf.constant(False), lambda: 1, lambda: 2) == 2

    @tf.function
    def f(p):
        return sc(p, lambda: tf.constant(1), lambda: tf.constant(2))
    assert f(tf.constant(True)).numpy() == 1 and f(tf.constant(False)).numpy() == 2
    with pytest.raises(TypeError, match="callable"):
        sc(True, 1, lambda: 2)


def test_optional():
    o = tf.experimental.Optional.from_value((tf.constant(1.0), tf.constant([2, 3])))
    assert o.has_value().numpy() and o.get_value()[1].numpy().tolist() == [2, 3]
    assert o.element_spec[1] == tf.TensorSpec([2], tf.int32)
    e = tf.experimental.Optional.empty(None)
    assert not e.has_value().numpy()
    with pytest.raises(tf.errors.InvalidArgumentError, match="does not have a value"):
        e.get_value()


def test_tensor_spec_from_tensor_and_common_supertype():
    spec = tf.TensorSpec.from_tensor(tf.zeros([2, 3]))
    assert spec.shape.as_list() == [2, 3] and spec.dtype == tf.float32
    other = tf.TensorSpec([4, 3], tf.float32)
    assert spec.most_specific_common_supertype([other]).shape.as_list() == [None, 3]
    assert spec.most_specific_common_supertype([tf.TensorSpec([2, 3], tf.int32)]) is None


def test_variables_keep_aggregation_and_synchronization():
    v = tf.Variable(1.0, aggregation=tf.VariableAggregation.MEAN,
                    synchronization=tf.VariableSynchronization.ON_READ)
    assert v.aggregation is tf.VariableAggregation.MEAN
    assert v.synchronization is tf.VariableSynchronization.ON_READ
    assert tf.Variable(1.0).aggregation is tf.VariableAggregation.NONE


def test_stateless_random_ops_are_functions_of_the_seed():
    for fn in (tf.random.stateless_uniform, tf.random.stateless_normal,
               tf.random.stateless_truncated_normal):
        a = fn([1000], seed=[1, 2]).numpy()
        assert np.array_equal(a, fn([1000], seed=[1, 2]).numpy())
        assert not np.array_equal(a, fn([1000], seed=[1, 3]).numpy())
        assert np.array_equal(a, tf.function(lambda s, fn=fn: fn([1000], seed=s))(
            tf.constant([1, 2])).numpy())                      # the same in a graph
    u = tf.random.stateless_uniform([20000], [3, 4], minval=-2.0, maxval=2.0).numpy()
    assert u.min() >= -2 and u.max() < 2 and abs(u.mean()) < 0.05
    n = tf.random.stateless_normal([20000], [3, 4], mean=1.0, stddev=2.0).numpy()
    assert abs(n.mean() - 1) < 0.05 and abs(n.std() - 2) < 0.05
    t = tf.random.stateless_truncated_normal([20000], [3, 4]).numpy()
    assert np.abs(t).max() < 2
    i = tf.random.stateless_uniform([1000], [5, 6], minval=3, maxval=7, dtype=tf.int64)
    assert i.dtype == tf.int64 and set(i.numpy().tolist()) == {3, 4, 5, 6}
    with pytest.raises(ValueError, match="maxval"):
        tf.random.stateless_uniform([2], [1, 2], dtype=tf.int32)
    x = tf.Variable(1.0)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.random.stateless_normal([3], [1, 2], mean=x))
    assert tape.gradient(y, x).numpy() == 3.0  # through the mean, not the op


def test_data_options():
    opts = tf.data.Options()
    opts.experimental_optimization.apply_default_optimizations = False
    opts.experimental_distribute.auto_shard_policy = tf.data.experimental.AutoShardPolicy.DATA
    ds = tf.data.Dataset.range(3)
    ds2 = ds.with_options(opts)
    assert ds2.options().experimental_optimization.apply_default_optimizations is False
    assert ds.options().experimental_optimization.apply_default_optimizations is None
    assert [int(x) for x in ds2] == [0, 1, 2]
    with pytest.raises(AttributeError, match="Cannot set"):
        opts.no_such_option = 1


def test_sparse_add_maximum_minimum():
    a = tf.sparse.SparseTensor([[0, 0], [1, 2]], [1.0, 2.0], [2, 3])
    b = tf.sparse.SparseTensor([[1, 2], [1, 0]], [5.0, -3.0], [2, 3])
    s = tf.sparse.add(a, b)
    assert s.indices.numpy().tolist() == [[0, 0], [1, 0], [1, 2]]
    assert s.values.numpy().tolist() == [1.0, -3.0, 7.0]
    assert tf.sparse.maximum(a, b).values.numpy().tolist() == [1.0, 0.0, 5.0]
    assert tf.sparse.minimum(a, b).values.numpy().tolist() == [0.0, -3.0, 2.0]
    assert tf.sparse.add(a, tf.ones([2, 3])).numpy().tolist() == [[2, 1, 1], [1, 1, 3]]


def test_internal_module_paths_under_the_drop_in():
    code = """
import tensorflow as tf
from tensorflow.python.trackable.data_structures import ListWrapper, _DictWrapper
from tensorflow.python.eager import context
from tensorflow.python.framework import type_spec_registry, tensor_util
from tensorflow.python.framework.config import enable_op_determinism
from tensorflow.python.ops.math_ops import is_nan
from tensorflow.compiler.tf2xla.python.xla import dynamic_update_slice
from tensorflow.experimental import dtensor
context.context().clear_kernel_cache(); context.async_wait()
with context.eager_mode():
    assert tf.executing_eagerly()
out = dynamic_update_slice(tf.zeros([3, 4]), tf.ones([2, 2]), [2, 1])
print(out.numpy().sum(0).tolist(), out.numpy()[1:, 1:3].tolist())
print(tensor_util.constant_value(tf.constant(3)), tensor_util.is_tf_type(tf.constant(1)))
try:
    dtensor.create_distributed_mesh()
except NotImplementedError as e:
    print("dtensor:", e)
"""
    out = subprocess.run([sys.executable, "-m", "flowgrad", "-c", code], capture_output=True,
                         text=True, env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=300)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "[0.0, 2.0, 2.0, 0.0] [[1.0, 1.0], [1.0, 1.0]]"   # start clamped to row 1
    assert lines[1] == "3 True"
    assert lines[2].startswith("dtensor: tf.experimental.dtensor.create_distributed_mesh")


def test_custom_gradient_ignores_non_trainable_variables_as_tensorflow_does():
    # TensorFlow 2.21: a non-trainable variable read in f is not one of grad_fn's
    # `variables` (only trainable reads are watched), so this grad_fn needs no `variables`
    v = tf.Variable(2.0, trainable=False)

    @tf.custom_gradient
    def f(x):
        return x * v, lambda dy: dy * 3
    x = tf.constant(1.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    assert tape.gradient(y, x).numpy() == 3.0


def test_dtype_is_numeric():
    # values from TensorFlow 2.21
    assert [d.is_numeric for d in (tf.float32, tf.int8, tf.bool, tf.string, tf.complex64,
                                   tf.bfloat16)] == [True, True, False, False, True, True]
