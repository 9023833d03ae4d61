"""Prints what ``MirroredStrategy.run`` gives when the replica function is a ``tf.function``
(Keras 3's ``ops.moments(synchronized=True)`` test and custom training loops do this): the
replicas' values after an ``all_reduce`` and a ``merge_call`` inside the function, and how
many times the Python function ran (TensorFlow traces one function that runs every replica,
so each call of the same signature reuses it). Run on TensorFlow 2.21 it wrote
tests/data/keras_suite/mirrored_function_run.txt, which tests/test_mirrored_function_run.py
compares with this program's output under ``python -m flowgrad``.

Run from the repository root:
    /work/venv-tf/bin/python tools/tf_reference/mirrored_function_run.py \
        > tests/data/keras_suite/mirrored_function_run.txt
"""
import numpy as np
import tensorflow as tf

tf.config.set_logical_device_configuration(
    tf.config.list_physical_devices("CPU")[0],
    [tf.config.LogicalDeviceConfiguration(), tf.config.LogicalDeviceConfiguration()])
strategy = tf.distribute.MirroredStrategy(["CPU:0", "CPU:1"])
calls = []


def show(name, result):
    for i, value in enumerate(tf.nest.flatten(result)):
        parts = strategy.experimental_local_results(value)
        print(name, i, [np.round(np.asarray(p), 5).tolist() for p in parts],
              [p.dtype.name for p in parts])


@tf.function
def summed(x):
    calls.append("summed")
    ctx = tf.distribute.get_replica_context()
    return ctx.all_reduce(tf.distribute.ReduceOp.SUM, x * 2.0)


@tf.function
def merged(x):
    calls.append("merged")
    ctx = tf.distribute.get_replica_context()

    def merge_fn(strat, v):
        return strat.reduce(tf.distribute.ReduceOp.MEAN, v, axis=None)

    mean = ctx.merge_call(merge_fn, args=(x,))
    return x - mean, ctx.replica_id_in_sync_group


@tf.function
def moments(x):
    calls.append("moments")
    ctx = tf.distribute.get_replica_context()
    local_sum = tf.reduce_sum(x, axis=-1, keepdims=True)
    local_sq = tf.reduce_sum(tf.square(x), axis=-1, keepdims=True)
    count = tf.cast(tf.shape(x)[-1], x.dtype)
    total, total_sq, n = ctx.all_reduce(tf.distribute.ReduceOp.SUM, [local_sum, local_sq,
                                                                     count])
    mean = total / n
    return mean, total_sq / n - mean * mean


with strategy.scope():
    per_replica = strategy.experimental_distribute_values_from_function(
        lambda ctx: tf.constant([1.0, 2.0]) * (ctx.replica_id_in_sync_group + 1))
    show("summed", strategy.run(summed, args=(per_replica,)))
    print("calls", calls.count("summed"))
    show("summed_again", strategy.run(summed, args=(per_replica,)))
    print("calls", calls.count("summed"))
    show("merged", strategy.run(merged, args=(per_replica,)))
    print("calls", calls.count("merged"))
    for dtype in ("float16", "float32"):
        show("moments_" + dtype, strategy.run(moments, args=(
            tf.constant([5.0, 9.0, 1.0, 3.0], dtype=dtype),)))
    print("calls", calls.count("moments"))
