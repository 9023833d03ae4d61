"""``MirroredStrategy.run`` of a ``tf.function`` (Keras 3's ``ops.moments(synchronized=True)``
and custom training loops): one trace runs every replica, as TensorFlow's ``mirrored_run``
wraps the function; each replica calling it deadlocked (the first traced while waiting at
its ``all_reduce`` for the others, which waited for the trace). The values, dtypes and how
often the Python function ran are TensorFlow 2.21's
(tools/tf_reference/mirrored_function_run.py)."""
import threading

import flowgrad as tf
import flowgrad.compat.v1 as tf1

from tf_reference_program import flowgrad_stdout, recorded_text


def test_replicas_of_a_tf_function_as_tensorflow():
    assert flowgrad_stdout("mirrored_function_run.py") == \
        recorded_text("keras_suite/mirrored_function_run.txt")


def test_values_from_function_are_per_replica():
    tf1.enable_v2_behavior()            # conftest starts every test in graph mode
    strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1", "/cpu:2"])
    values = strategy.experimental_distribute_values_from_function(
        lambda ctx: tf.constant(10 * ctx.replica_id_in_sync_group + ctx.num_replicas_in_sync))
    assert [int(v) for v in strategy.experimental_local_results(values)] == [3, 13, 23]


def test_a_tf_function_with_an_all_reduce_does_not_wait_for_itself():
    tf1.enable_v2_behavior()
    strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])

    @tf.function
    def step(x):
        ctx = tf.distribute.get_replica_context()
        return ctx.all_reduce(tf.distribute.ReduceOp.MEAN, x)

    out = []
    worker = threading.Thread(target=lambda: out.append(strategy.run(step, args=(
        tf.constant(3.0),))), daemon=True)
    worker.start()
    worker.join(60)
    assert not worker.is_alive(), "strategy.run of a tf.function deadlocked"
    assert [float(v) for v in strategy.experimental_local_results(out[0])] == [3.0, 3.0]
