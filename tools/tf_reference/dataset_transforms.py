"""Prints what tf.data's folding, windowing and filtering transformations give: reduce,
scan, get_single_element, unique, take_while, ignore_errors, rebatch, window (+ flat_map,
nested windows of tuples), group_by_window, bucket_by_sequence_length, from_list,
group_by_reducer, sparse_batch, their element specs and cardinalities, in eager mode, inside a
tf.function and in a TF1 graph. Run on TensorFlow 2.21 it wrote
tests/data/tf_data/transforms.txt, which tests/test_dataset_transforms.py compares with this
program's output under ``python -m flowgrad``.

Run from the repository root:
    /work/venv-tf/bin/python tools/tf_reference/dataset_transforms.py \
        > tests/data/tf_data/transforms.txt
"""
import numpy as np
import tensorflow as tf

D = tf.data.Dataset


def show(title, ds):
    print(title, ds.element_spec, int(ds.cardinality()))
    print("  ", [tf.nest.map_structure(lambda t: t.tolist() if hasattr(t, "tolist") else t, e)
                 for e in ds.as_numpy_iterator()])


def message(e):
    """An op error's own text, without the eager runtime's node prefix and suffix."""
    return e.message.split("}} ")[-1].split(" [Op:")[0]


print("reduce", D.range(5).reduce(np.int64(0), lambda s, x: s + x).numpy())
print("reduce2", [t.numpy().tolist() for t in D.from_tensor_slices(([1., 2.], [3, 4])).reduce(
    (tf.constant(0.), tf.constant(1)), lambda s, e: (s[0] + e[0], s[1] * e[1]))])
print("reduce_grow", D.range(3).reduce(tf.zeros([0], tf.int64),
                                       lambda s, x: tf.concat([s, [x]], 0)).numpy().tolist())
show("scan", D.range(6).scan(tf.constant(0, tf.int64), lambda s, x: (s + x, s * 10)))
show("scan_dict", D.range(4).scan(tf.constant(1.0), lambda s, x: (s * 2., {"v": s, "x": x})))
print("single", D.from_tensors([1, 2]).get_single_element().numpy().tolist())
try:
    D.range(2).get_single_element()
except tf.errors.InvalidArgumentError as e:
    print("single_error", type(e).__name__, message(e))
try:
    D.range(0).get_single_element()
except tf.errors.InvalidArgumentError as e:
    print("single_empty", type(e).__name__, message(e))
show("unique", D.from_tensor_slices([1, 3, 1, 2, 3, 5]).unique())
show("unique_str", D.from_tensor_slices(["a", "b", "a"]).unique())
show("take_while", D.range(10).take_while(lambda x: x < 4))
show("ignore_errors", D.from_tensor_slices([1., 0., 2.]).map(
    lambda x: tf.debugging.check_numerics(1. / x, "bad")).ignore_errors())
show("rebatch", D.range(10).batch(4).rebatch(3))
show("rebatch_list", D.range(8).batch(4).rebatch([1, 3]))
show("window_flat", D.range(7).window(3, shift=2, drop_remainder=True).flat_map(
    lambda w: w.batch(3)))
show("window_stride", D.range(10).window(3, shift=1, stride=2, drop_remainder=True).flat_map(
    lambda w: w.batch(3)))
show("window_rem", D.range(5).window(2).flat_map(lambda w: w.batch(2)))
wins = D.from_tensor_slices(([1, 2, 3, 4], ["a", "b", "c", "d"])).window(2)
print("window_spec", wins.element_spec, int(wins.cardinality()))
show("window_zip", wins.flat_map(lambda a, b: D.zip((a.batch(2), b.batch(2)))))
print("window_iter", [[x.numpy().tolist() for x in w] for w in D.range(5).window(2)])
show("group", D.range(10).group_by_window(key_func=lambda x: x % 3,
                                          reduce_func=lambda k, w: w.batch(2), window_size=2))
show("group_sizefn", D.range(9).group_by_window(
    key_func=lambda x: x % 2, reduce_func=lambda k, w: w.batch(5),
    window_size_func=lambda k: tf.where(k == 0, np.int64(2), np.int64(3))))
seqs = [[1], [2, 2], [3, 3, 3], [4] * 4, [5] * 5, [6] * 6, [7]]
gen = D.from_generator(lambda: iter(seqs), output_signature=tf.TensorSpec([None], tf.int32))
show("bucket", gen.bucket_by_sequence_length(lambda x: tf.shape(x)[0], [3, 5], [2, 2, 2]))
show("bucket_pad", gen.bucket_by_sequence_length(lambda x: tf.shape(x)[0], [4], [2, 3],
                                                 padding_values=-1))
show("bucket_boundary", gen.bucket_by_sequence_length(
    lambda x: tf.shape(x)[0], [3, 8], [2, 2, 2], pad_to_bucket_boundary=True,
    drop_remainder=True))

show("from_list", tf.data.experimental.from_list([(1, "a"), (2, "b")]))
show("from_list_shapes", tf.data.experimental.from_list([[1, 2], [3]]))
reducer = tf.data.experimental.Reducer(init_func=lambda k: np.int64(0),
                                       reduce_func=lambda s, x: s + x,
                                       finalize_func=lambda s: s)
show("group_by_reducer", D.range(10).apply(
    tf.data.experimental.group_by_reducer(lambda x: x % 3, reducer)))
sparse = D.range(4).map(lambda x: tf.fill([x], x)).sparse_batch(2, row_shape=[5])
print("sparse_batch", sparse.element_spec)
for s in sparse:
    print("  ", s.indices.numpy().tolist(), s.values.numpy().tolist(),
          s.dense_shape.numpy().tolist())


@tf.function
def in_function(n):
    ds = D.range(n)
    return ds.reduce(np.int64(0), lambda s, x: s + x * x), \
        D.from_tensors(n * 2).get_single_element()


print("function", [t.numpy().tolist() for t in in_function(tf.constant(4, tf.int64))])
with tf.Graph().as_default():
    n = tf.compat.v1.placeholder(tf.int64, [])
    total = D.range(n).reduce(np.int64(0), lambda s, x: s + x)
    print("graph_shape", total.shape)
    with tf.compat.v1.Session() as sess:
        print("graph", sess.run(total, {n: 5}), sess.run(total, {n: 3}))
