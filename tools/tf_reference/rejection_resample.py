"""Prints Dataset.rejection_resample on TensorFlow 2.21: a given initial distribution, an
estimated one, and a static mixing probability of 1 (the original dataset with classes), with
seeds (the acceptance draws and the mixing are TensorFlow's numbers). Run there it wrote
tests/data/tf_data/rejection_resample.txt, which tests/test_dataset_transforms.py compares with
this program's output under ``python -m flowgrad`` (standard output only: TF also prints
"Proportion of examples rejected by sampler is high" to standard error).

Run from the repository root:
    /work/venv-tf/bin/python tools/tf_reference/rejection_resample.py \\
        > tests/data/tf_data/rejection_resample.txt
"""
import tensorflow as tf
tf.random.set_seed(3)
ds = tf.data.Dataset.range(200).map(lambda x: (x, tf.cast(x % 10 == 0, tf.int32)))
r = ds.rejection_resample(lambda x, y: y, target_dist=[0.5, 0.5], initial_dist=[0.9, 0.1],
                          seed=7)
out = list(r.take(20).as_numpy_iterator())
print(r.element_spec)
print([(int(c), int(x), int(y)) for c, (x, y) in out])
r2 = ds.rejection_resample(lambda x, y: y, target_dist=[0.5, 0.5], seed=11)
print([int(c) for c, _ in r2.take(30).as_numpy_iterator()])
r3 = tf.data.Dataset.range(50).rejection_resample(lambda x: tf.cast(x % 2, tf.int32), [0.5, 0.5],
                                                 initial_dist=[0.5, 0.5])
print(len(list(r3)), r3)
r4 = tf.data.Dataset.range(40).apply(tf.data.experimental.rejection_resample(
    lambda x: tf.cast(x % 4 == 0, tf.int32), [0.6, 0.4], seed=5))
print([(int(c), int(x)) for c, x in r4.take(12).as_numpy_iterator()])
