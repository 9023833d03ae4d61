"""Prints the reprs of tf.data pipelines (``<_MapDataset element_spec=...>``, one per
transformation), shard cardinalities, and tf.data.Options as TensorFlow 2.21 has them
(defaults, types, merging along a pipeline, immutability of ``dataset.options()``). Run on
TensorFlow 2.21 it wrote tests/data/tf_data/reprs.txt, which tests/test_dataset_reprs.py
compares with this program's output under ``python -m flowgrad``.

Run from the repository root:
    /work/venv-tf/bin/python tools/tf_reference/dataset_reprs.py > tests/data/tf_data/reprs.txt
"""
import tensorflow as tf

D = tf.data.Dataset
ds = D.range(6)
r = D.range
pipelines = {
    "from_tensor_slices": D.from_tensor_slices(([1, 2], [3.0, 4.0])),
    "from_tensors": D.from_tensors([1, 2]),
    "range": r(3),
    "from_generator": D.from_generator(lambda: iter([1]),
                                       output_signature=tf.TensorSpec([], tf.int32)),
    "zip": D.zip((ds, ds)), "concatenate": ds.concatenate(ds), "map": ds.map(lambda x: x),
    "map parallel": ds.map(lambda x: x, num_parallel_calls=tf.data.AUTOTUNE),
    "flat_map": ds.flat_map(lambda x: r(x)), "interleave": ds.interleave(lambda x: r(x)),
    "interleave parallel": ds.interleave(lambda x: r(x), num_parallel_calls=2),
    "filter": ds.filter(lambda x: True), "batch": ds.batch(2),
    "batch parallel": ds.batch(2, num_parallel_calls=2), "ragged_batch": ds.ragged_batch(2),
    "padded_batch": ds.padded_batch(2), "unbatch": ds.batch(2).unbatch(),
    "shuffle": ds.shuffle(2), "repeat": ds.repeat(), "take": ds.take(1), "skip": ds.skip(1),
    "enumerate": ds.enumerate(), "shard": ds.shard(2, 0), "prefetch": ds.prefetch(1),
    "cache": ds.cache(), "with_options": ds.with_options(tf.data.Options()),
    "scan": ds.scan(tf.constant(0, tf.int64), lambda s, x: (s, x)), "window": ds.window(2),
    "unique": ds.unique(), "take_while": ds.take_while(lambda x: x < 2),
    "ignore_errors": ds.ignore_errors(), "rebatch": ds.batch(2).rebatch(1),
    "group_by_window": ds.group_by_window(lambda x: x % 2, lambda k, w: w.batch(2), 2),
    "bucket_by_sequence_length": ds.map(lambda x: tf.fill([x], x)).bucket_by_sequence_length(
        lambda x: tf.shape(x)[0], [2], [2, 2]),
    "sample_from_datasets": D.sample_from_datasets([ds, ds]),
    "choose_from_datasets": D.choose_from_datasets([ds, ds], r(2)),
    "random": D.random(seed=1), "counter": D.counter(),
    "assert_cardinality": ds.apply(tf.data.experimental.assert_cardinality(6)),
    "TFRecordDataset": tf.data.TFRecordDataset([]), "TextLineDataset": tf.data.TextLineDataset([]),
    "FixedLengthRecordDataset": tf.data.FixedLengthRecordDataset([], 4),
    "CsvDataset": tf.data.experimental.CsvDataset([], [tf.int32]),
    "group_by_reducer": ds.apply(tf.data.experimental.group_by_reducer(
        lambda x: x % 2, tf.data.experimental.Reducer(
            lambda k: tf.constant(0, tf.int64), lambda s, x: s + x, lambda s: s))),
    "dense_to_sparse_batch": ds.map(lambda x: tf.fill([x], x)).apply(
        tf.data.experimental.dense_to_sparse_batch(2, [6])),
    "a window": next(iter(ds.window(2))),
}
for name, pipeline in pipelines.items():
    print(name, pipeline)

for n, k, i in [(10, 3, 0), (10, 3, 1), (10, 3, 2), (2, 5, 3), (0, 2, 1), (9, 3, 2)]:
    print("shard", n, k, i, int(r(n).shard(k, i).cardinality()))
print("shard infinite", int(r(3).repeat().shard(2, 1).cardinality()),
      int(r(3).filter(lambda x: True).shard(2, 1).cardinality()))

o = tf.data.Options()
print(o.deterministic, o.autotune.enabled, o.autotune.cpu_budget, o.autotune.ram_budget,
      o.autotune.autotune_algorithm, o.autotune.initial_parallelism)
print(o.experimental_distribute.auto_shard_policy, o.experimental_distribute.num_devices)
print(o.experimental_optimization.apply_default_optimizations,
      o.experimental_optimization.map_parallelization, o.experimental_service.pinned)
print(o.threading.private_threadpool_size, o.threading.max_intra_op_parallelism,
      o.experimental_slack, o.experimental_external_state_policy,
      o.experimental_threading is o.threading, o.experimental_deterministic)
o.deterministic = False
o.autotune.ram_budget = 1000
o.experimental_distribute.auto_shard_policy = tf.data.experimental.AutoShardPolicy.OFF
d = r(4).with_options(o).map(lambda x: x).batch(2)
print(d.options().deterministic, d.options().autotune.ram_budget,
      d.options().experimental_distribute.auto_shard_policy)
o2 = tf.data.Options()
o2.deterministic = True
o2.threading.private_threadpool_size = 3
d2 = d.with_options(o2)
print(d2.options().deterministic, d2.options().threading.private_threadpool_size,
      d2.options().autotune.ram_budget)
print(o == tf.data.Options(), tf.data.Options() == tf.data.Options())
z = D.zip((r(2).with_options(o), r(2)))
print(z.options().deterministic, z.options() == o)
for attempt in [lambda: setattr(o, "bogus", 1), lambda: setattr(o, "deterministic", 3),
                lambda: setattr(tf.data.Options().autotune, "cpu_budget", 1.5),
                lambda: setattr(d.options(), "deterministic", True),
                lambda: setattr(d.options().threading, "private_threadpool_size", 1)]:
    try:
        attempt()
        print("set")
    except Exception as e:  # noqa: BLE001 - the error class is what is printed
        print(type(e).__name__, e)
print(tf.data.experimental.AutoShardPolicy.DATA, int(tf.data.experimental.AutoShardPolicy.HINT),
      tf.data.experimental.ExternalStatePolicy.WARN,
      tf.data.experimental.AutotuneAlgorithm.HILL_CLIMB)
t = tf.data.ThreadingOptions()
t.private_threadpool_size = 4
print(t == tf.data.Options().threading, t.private_threadpool_size)
