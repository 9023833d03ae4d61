"""Records what TensorFlow 2.21 prints for small programs, each the pattern where a real TF2
program of the corpus (tools/program_corpus.py) stopped on flowgrad; flowgrad must print the
same (tests/test_program_patterns.py runs each with ``tf`` = flowgrad).

Run from the repository root:
    /work/venv-tf/bin/python tools/tf_reference/program_patterns.py
It writes tests/data/programs/patterns.json: ``{name: {"source": ..., "stdout": ...}}``
(``"alone": true`` for those of :data:`ALONE`, each run in a Python of its own).
"""
import contextlib
import io
import json
import linecache
import os
import subprocess
import sys

PROGRAMS = {
    # tensorflow/docs guide/intro_to_graphs.ipynb
    "pretty_printed_concrete_signatures": '''
@tf.function
def my_relu(x):
    return tf.maximum(0., x)
print(my_relu(tf.constant(5.5)))
print(my_relu([1, -1]))
print(my_relu(tf.constant([3., -3.])))
print(my_relu.pretty_printed_concrete_signatures())
print(my_relu.pretty_printed_concrete_signatures(verbose=False))
print(my_relu.get_concrete_function(tf.constant(1.0)).pretty_printed_signature())

@tf.function
def g(a, b=2, *, c=None):
    return {"s": a + b, "t": (a, a * 2), "n": [c]}
g(tf.constant([1, 2]), 3)
g(tf.constant(1.0), b=tf.constant(2.0), c="x")
print(g.pretty_printed_concrete_signatures())

@tf.function(input_signature=[tf.TensorSpec([None], tf.int64, name="ids")])
def lookup(ids):
    return tf.cast(ids, tf.float32)
print(lookup.pretty_printed_concrete_signatures(False))
''',
    # tensorflow/docs tutorials/distribute/input.ipynb: input_signature=[dataset.element_spec]
    "nested_input_signature": '''
ds = tf.data.Dataset.from_tensor_slices(([[1.0], [2.0], [3.0]], [[4.0], [5.0], [6.0]])).batch(2)

@tf.function(input_signature=[ds.element_spec])
def step(batch):
    x, y = batch
    return tf.reduce_sum(x * y)
for batch in ds:
    print(step(batch))
print([t.name for t in step.get_concrete_function().inputs])
print(step.get_concrete_function().pretty_printed_signature())

@tf.function(input_signature=[{"a": tf.TensorSpec([], tf.int32),
                               "b": tf.TensorSpec([2], tf.float32, name="bee")},
                              tf.TensorSpec([], tf.float32)])
def k(d, scale):
    return tf.cast(d["a"], tf.float32) * d["b"] * scale
print(k({"a": 2, "b": [1., 2.]}, 3.0))
print(k({"a": 2, "b": [1., 2.]}, scale=0.5))
print(k(d={"a": 1, "b": [1., 2.]}, scale=2.0))
print([t.name for t in k.get_concrete_function().inputs])
try:
    step((tf.ones([2, 1]), tf.ones([2, 1]), tf.ones([2, 1])))
except TypeError as e:
    print("TypeError", str(e).split(" due to")[0])
try:
    k({"a": 2, "b": [1., 2., 3.]}, 1.0)
except TypeError as e:
    print("TypeError", str(e).split(" Received")[0])
print(repr(tf.function(lambda: 3)()), tf.function(lambda: (None, "a", [1.5], True))())
for bad in ([(tf.TensorSpec([1]), 3)], tf.TensorSpec([1])):
    try:
        tf.function(lambda x: x, input_signature=bad)
    except TypeError as e:
        print("TypeError", str(e).split(",")[0])
''',
    # tensorflow/docs guide/random_numbers.ipynb: a Generator in a checkpoint and a Module
    "generator_checkpoint": '''
import os
import tempfile
g = tf.random.Generator.from_seed(1)
cp = tf.train.Checkpoint(generator=g)
print(g.normal([]).numpy())
path = cp.write(os.path.join(tempfile.mkdtemp(), "ckpt"))
a = g.normal([3]).numpy()
cp.restore(path)
print((g.normal([3]).numpy() == a).all())
print([n for n, _ in tf.train.list_variables(path)])

class M(tf.Module):
    def __init__(self):
        super().__init__()
        self.g = tf.random.Generator.from_seed(0)

    @tf.function
    def __call__(self):
        return self.g.normal([])

    @tf.function
    def state(self):
        return self.g.state
m = M()
print(m())
s = m.state()
print(s)
m()
print(s, m.state())
print(type(s).__name__)
''',
    # the api scan (tools/api_scan.py): Dataset.sample_from_datasets / choose_from_datasets,
    # Dataset.random / counter, tf.data.experimental.{Counter, assert_cardinality, unbatch,
    # shuffle_and_repeat}
    "dataset_sampling": '''
def show(ds, *rest):
    print([x.tolist() for x in ds.as_numpy_iterator()], *rest)
show(tf.data.Dataset.random(seed=4).take(5))
tf.random.set_seed(7)
show(tf.data.Dataset.random().take(3))
show(tf.data.Dataset.random(seed=4).take(3))
a = tf.data.Dataset.range(0, 10)
b = tf.data.Dataset.range(100, 105)
show(tf.data.Dataset.sample_from_datasets([a, b], seed=3))
show(tf.data.Dataset.sample_from_datasets([a, b], weights=[0.2, 0.8], seed=3))
show(tf.data.Dataset.sample_from_datasets([a, b], weights=[0.5, 0.5], seed=3,
                                          stop_on_empty_dataset=True))
show(tf.data.Dataset.sample_from_datasets([a, b, a.map(lambda x: -x)],
                                          weights=tf.constant([0.1, 0.3, 0.6]), seed=9))
show(tf.data.experimental.sample_from_datasets([a, b], [0.7, 0.3], seed=11))
show(tf.data.Dataset.choose_from_datasets([a, b], tf.data.Dataset.range(2).repeat(3)))
show(tf.data.experimental.Counter(2, 3).take(4), tf.data.experimental.Counter().element_spec)
show(tf.data.Dataset.counter(1.5, 0.5, tf.float32).take(3))
ds = tf.data.Dataset.range(5).apply(tf.data.experimental.assert_cardinality(5))
show(ds, ds.cardinality().numpy())
for n in (3, 7):
    try:
        list(tf.data.Dataset.range(5).apply(tf.data.experimental.assert_cardinality(n)))
    except tf.errors.FailedPreconditionError as e:
        print("FailedPreconditionError", e.message.split("}} ")[-1].split(" [Op:")[0])
show(tf.data.Dataset.from_tensors([[1, 2], [3, 4]]).apply(tf.data.experimental.unbatch()))
show(tf.data.Dataset.range(6).apply(tf.data.experimental.shuffle_and_repeat(4, 2, seed=5)))
show(tf.data.Dataset.range(6).shuffle(4, seed=5).repeat(2))
''',
    # the api scan: tf.autograph.experimental.Feature (13 uses, in TF1 programs' compat.v1)
    "autograph_features": '''
F = tf.autograph.experimental.Feature
print(list(F), F.EQUALITY_OPERATORS.value, len(F.all()))
print(sorted(f.name for f in F.all_but(F.LISTS)))
@tf.function(experimental_autograph_options=(F.EQUALITY_OPERATORS, F.ASSERT_STATEMENTS))
def f(i):
    if i == 0:
        return tf.constant(10)
    return i
print(f(tf.constant(0)), f(tf.constant(3)))
print(tf.compat.v1.autograph.experimental.Feature.LISTS)
''',
    # the api scan: tf.io.serialize_sparse / serialize_many_sparse / deserialize_many_sparse
    # (the bytes are TensorFlow's: their SHA-1s are printed)
    "serialize_sparse": '''
import hashlib
st = tf.sparse.SparseTensor([[0, 1], [2, 0], [2, 3]], [1.5, -2.0, 4.0], [3, 4])
s = tf.io.serialize_sparse(st)
print(s.shape, s.dtype, [hashlib.sha1(x).hexdigest()[:12] for x in s.numpy()])
m = tf.io.serialize_many_sparse(st)
print(m.shape, [[hashlib.sha1(x).hexdigest()[:12] for x in row] for row in m.numpy()])
d = tf.io.deserialize_many_sparse(m, tf.float32)
print(d.indices.numpy().tolist(), d.values.numpy().tolist(), d.dense_shape.numpy().tolist())
st3 = tf.sparse.SparseTensor([[0, 0, 1], [1, 0, 2], [1, 2, 0]], [1, 2, 3], [2, 3, 4])
try:
    tf.io.serialize_many_sparse(tf.sparse.SparseTensor([[1, 0], [0, 2]], [1, 2], [2, 3]))
except tf.errors.InvalidArgumentError as e:
    print('InvalidArgumentError', e.message.split('}} ')[-1].split(' [Op:')[0].split(chr(10))[0])
m3 = tf.io.serialize_many_sparse(st3)
d3 = tf.io.deserialize_many_sparse(m3, tf.int32, rank=3)
print(d3.indices.numpy().tolist(), d3.values.numpy().tolist(), d3.dense_shape.numpy().tolist())
print(d3.indices.shape, d3.values.shape, d3.dense_shape.shape)
print(tf.io.parse_tensor(s[1], tf.float32).numpy().tolist())
a = tf.io.serialize_sparse(tf.sparse.SparseTensor([[0, 0]], [7], [1, 2]))
b = tf.io.serialize_sparse(tf.sparse.SparseTensor([[0, 2], [1, 1]], [8, 9], [2, 3]))
d = tf.io.deserialize_many_sparse(tf.stack([a, b]), tf.int32)
print(d.indices.numpy().tolist(), d.values.numpy().tolist(), d.dense_shape.numpy().tolist())
try:
    tf.io.serialize_sparse(tf.constant([1, 2]))
except TypeError as e:
    print("TypeError")
''',
    # eat_tensorflow2_in_30_days 4-1: tf.random.set_seed(1.0), a float seed (truncated)
    "float_seeds": '''
tf.random.set_seed(1.0)
print(tf.random.uniform([3]).numpy())
tf.random.set_seed(1)
print(tf.random.uniform([3]).numpy())
tf.random.set_seed(2.7)
print(tf.random.uniform([3]).numpy())
print(tf.random.uniform([2], seed=3.0).numpy())
''',
    # the api scan: tf.type_spec_from_value
    "type_spec_from_value": '''
import numpy as np
print(tf.type_spec_from_value(tf.constant([[1.0, 2.0]])))
print(tf.type_spec_from_value(np.zeros([2, 3], np.int64)))
print(tf.type_spec_from_value([1, 2, 3]))
print(tf.type_spec_from_value(3.5))
print(tf.type_spec_from_value(tf.sparse.SparseTensor([[0, 1]], [1.0], [2, 3])))
print(tf.type_spec_from_value(tf.ragged.constant([[1, 2], [3]])))
try:
    tf.type_spec_from_value(object())
except TypeError as e:
    print("TypeError", str(e).split(" with type")[0][:40])
''',
    # tensorflow/docs guide/distributed_training.ipynb: GPU names on a machine without GPUs
    "mirrored_strategy_gpu_names": '''
s = tf.distribute.MirroredStrategy(devices=["/gpu:0", "/gpu:1"])
print(s.num_replicas_in_sync, s.extended.worker_devices)
r = s.run(lambda x: x * 2.0, args=(tf.constant(2.0),))
print(r)
print(s.reduce("SUM", r, axis=None))
print(tf.distribute.MirroredStrategy(["/cpu:0", "GPU:0"]).extended.worker_devices)
print(tf.distribute.MirroredStrategy(["/device:GPU:3"]).extended.worker_devices)
print(tf.distribute.MirroredStrategy(["/job:localhost/device:CPU:0"]).extended.worker_devices)
''',
    # tensorflow/docs guide/sparse_tensor.ipynb: Keras 3 slices a SparseTensor by rows with a
    # RowPartition and tf.gather of RaggedTensors
    "row_partition_and_ragged_gather": '''
RP = tf.experimental.RowPartition
rp = RP.from_value_rowids([0, 0, 2, 2, 2, 3], nrows=5)
print(rp.row_splits().numpy(), rp.row_lengths().numpy(), rp.nrows().numpy(), rp.nvals().numpy())
print(rp.value_rowids().numpy(), rp.row_starts().numpy(), rp.row_limits().numpy(), rp.dtype)
print(rp)
print(RP.from_value_rowids(tf.constant([0, 1, 1], tf.int32)).row_splits())
print(RP.from_row_lengths([2, 0, 3]).row_splits())
u = RP.from_uniform_row_length(2, nvals=6)
print(u.row_splits().numpy(), u.nrows().numpy(), u.is_uniform(), rp.is_uniform())
print(RP.from_row_starts([0, 2], nvals=5).row_lengths().numpy())
print(RP.from_row_limits([2, 5]).row_starts().numpy())
print(RP.from_row_splits([0, 1, 4]).with_dtype(tf.int32).row_splits())
print(rp.static_nrows, RP.from_row_splits([0, 1, 4]).static_nrows)
for bad in ([1, 2], [0, 3, 2]):
    try:
        RP.from_row_splits(bad)
    except tf.errors.InvalidArgumentError as e:
        print("InvalidArgumentError")
try:
    RP(None)
except ValueError as e:
    print(e)
rt = tf.ragged.constant([[1, 2], [], [3, 4, 5], [6]])
print(tf.gather(rt, [2, 0, 0, 1]))
print(tf.gather(rt, 2))
print(tf.gather(rt, tf.constant([[3, 0], [2, 2]])).to_list())
r2 = tf.ragged.constant([[[1], [2, 3]], [], [[4, 5, 6]]])
print(tf.gather(r2, [2, 0]))
dense_rows = tf.RaggedTensor.from_row_splits(tf.constant([[1, 2], [3, 4], [5, 6]]), [0, 1, 3])
print(tf.gather(dense_rows, [1, 1, 0]).to_list())

@tf.function
def pick(rt, i):
    return tf.gather(rt, i).to_tensor()
print(pick(rt, tf.constant([3, 2])))
''',
    # tensorflow/docs guide/sparse_tensor.ipynb and ragged_tensor.ipynb: from_tensor_slices
    # of a SparseTensor and a RaggedTensor slices their rows
    "slices_of_sparse_and_ragged": '''
import numpy as np
st = tf.sparse.SparseTensor(indices=[[0, 0], [0, 2], [2, 1], [3, 3]], values=[1.0, 2.0, 3.0, 4.0],
                            dense_shape=[4, 5])
ds = tf.data.Dataset.from_tensor_slices(st)
print(ds.element_spec)
for e in ds:
    print(e.indices.numpy().tolist(), e.values.numpy().tolist(), e.dense_shape.numpy().tolist())
ds = tf.data.Dataset.from_tensor_slices((st, np.arange(4))).batch(3)
print(ds.element_spec)
for s, y in ds:
    print(s.indices.numpy().tolist(), s.values.numpy().tolist(), s.dense_shape.numpy().tolist(),
          y.numpy().tolist())
rt = tf.ragged.constant([[1, 2], [], [3, 4, 5]])
ds = tf.data.Dataset.from_tensor_slices(rt)
print(ds.element_spec)
for e in ds:
    print(type(e).__name__, e.numpy().tolist())
r2 = tf.ragged.constant([[[1], [2, 3]], [], [[4, 5, 6]]])
ds = tf.data.Dataset.from_tensor_slices({"r": r2, "n": [1, 2, 3]})
print(ds.element_spec)
for e in ds:
    print(type(e["r"]).__name__, e["r"].to_list(), int(e["n"]))
print([x.to_list() for x in ds.map(lambda e: e["r"] * 2)])
un = tf.data.Dataset.from_tensor_slices((st, np.arange(4))).batch(3).unbatch()
print(un.element_spec)
for s, y in un:
    print(s.indices.numpy().tolist(), s.values.numpy().tolist(), int(y))
u = tf.data.Dataset.from_tensor_slices(rt).batch(2)
print(u.element_spec, u.unbatch().element_spec)
print([e.numpy().tolist() for e in u.unbatch()])
r3 = tf.data.Dataset.from_tensors(r2).unbatch()
print(r3.element_spec, [e.to_list() for e in r3])
''',
    # tensorflow/docs guide/tf_numpy.ipynb: a tape in a tf.function watches eager tensors (a
    # model's weights as tnp arrays) and differentiates with respect to them
    "watched_eager_tensor_in_function": '''
w = tf.constant([1.0, 2.0])
b = tf.constant(0.5)

@tf.function
def f(x):
    with tf.GradientTape() as tape:
        tape.watch([w, b])
        y = tf.reduce_sum(w * w * x + b)
    return tape.gradient(y, [w, b])
print(f(tf.constant(3.0)))

@tf.function
def g(x):
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.reduce_sum(w * x)
    return tape.gradient(y, [x, w]), tape.gradient(y, w, unconnected_gradients="zero")
print(g(tf.constant(2.0)))

@tf.function
def per_example(xs):
    def one(x):
        with tf.GradientTape() as tape:
            tape.watch(w)
            y = tf.reduce_sum(w * x)
        return tape.gradient(y, w)
    return tf.vectorized_map(one, xs)
print(per_example(tf.constant([[1.0, 2.0], [3.0, 4.0]])))
''',
}

#: Programs that change TensorFlow for the rest of the process (NumPy behaviour) or need
#: Keras: each runs in a Python of its own, as written (``import tensorflow as tf`` first).
ALONE = {
    # tensorflow/docs guide/sparse_tensor.ipynb: predict and fit on a SparseTensor, a dataset
    # of SparseTensors in fit
    "keras_fit_on_sparse_tensor": '''import numpy as np
import tensorflow as tf
x = tf.keras.Input(shape=(4,), sparse=True)
y = tf.keras.layers.Dense(4, kernel_initializer="ones")(x)
model = tf.keras.Model(x, y)
sparse_data = tf.sparse.SparseTensor(
    indices=[(0, 0), (0, 1), (0, 2), (4, 3), (5, 0), (5, 1)],
    values=[1, 1, 1, 1, 1, 1], dense_shape=(6, 4))
print(model(sparse_data))
print(model.predict(sparse_data, verbose=0))
model.compile("sgd", "mse")
sp = tf.sparse.SparseTensor(indices=[(0, 0), (1, 1), (2, 2), (3, 3)], values=[1.0, 2.0, 3.0, 4.0],
                            dense_shape=(4, 4))
h = model.fit(sp, np.ones((4, 4), np.float32), batch_size=2, epochs=2, verbose=0, shuffle=False)
print([round(v, 4) for v in h.history["loss"]])
print(round(model.evaluate(sp, np.ones((4, 4), np.float32), verbose=0, batch_size=4), 4))
ds = tf.data.Dataset.from_tensor_slices((sp, np.zeros((4, 4), np.float32))).batch(2)
h = model.fit(ds, epochs=1, verbose=0)
print([round(v, 4) for v in h.history["loss"]])
''',
    # keras-team/keras integration_tests/tf_distribute_training_test.py: Keras's
    # LossScaleOptimizer under MirroredStrategy (call_for_each_replica in a merge_call)
    "loss_scale_optimizer_mirrored": '''import numpy as np
import tensorflow as tf
import keras
cpus = tf.config.list_physical_devices("CPU")
tf.config.set_logical_device_configuration(
    cpus[0], [tf.config.LogicalDeviceConfiguration(), tf.config.LogicalDeviceConfiguration()])
strategy = tf.distribute.MirroredStrategy(["CPU:0", "CPU:1"])
with strategy.scope():
    inputs = keras.layers.Input((3,), batch_size=4)
    outputs = keras.layers.Dense(2, kernel_initializer="ones")(inputs)
    model = keras.Model(inputs, outputs)
    model.compile(optimizer=keras.optimizers.LossScaleOptimizer(
        keras.optimizers.SGD(learning_rate=0.01, momentum=0.5)), loss="mse")
x = np.arange(24, dtype=np.float32).reshape(8, 3) / 10
y = np.ones((8, 2), np.float32)
h = model.fit(x, y, batch_size=4, epochs=3, verbose=0, shuffle=False)
print([round(v, 4) for v in h.history["loss"]])
print(np.round(model.layers[1].kernel.numpy(), 4).tolist())
print(int(model.optimizer.iterations.numpy()))
''',
    # keras-team/keras integration_tests/tf_distribute_training_test.py: Keras's fit on
    # strategy.experimental_distribute_dataset(...) (Keras knows TF's DistributedDataset)
    "keras_fit_on_distributed_dataset": '''import numpy as np
import tensorflow as tf
import keras
cpus = tf.config.list_physical_devices("CPU")
tf.config.set_logical_device_configuration(
    cpus[0], [tf.config.LogicalDeviceConfiguration(), tf.config.LogicalDeviceConfiguration()])
s = tf.distribute.MirroredStrategy(["CPU:0", "CPU:1"])
ds = s.experimental_distribute_dataset(tf.data.Dataset.range(10).batch(4))
print(type(ds).__module__, type(ds).__name__, repr(ds.cardinality))
print(repr(s.experimental_distribute_dataset(tf.data.Dataset.range(10).repeat().batch(4)).cardinality))
with s.scope():
    inputs = keras.layers.Input((3,), batch_size=4)
    model = keras.Model(inputs, keras.layers.Dense(2, kernel_initializer="ones")(inputs))
    model.compile(optimizer=keras.optimizers.SGD(0.01), loss="mse")
x = np.arange(24, dtype=np.float32).reshape(8, 3) / 10
y = np.ones((8, 2), np.float32)
d = s.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices((x, y)).batch(4))
h = model.fit(d, epochs=2, verbose=0)
print([round(v, 4) for v in h.history["loss"]])
print(np.round(model.layers[1].kernel.numpy(), 4).tolist())
''',
    # tensorflow/docs guide/tf_numpy.ipynb: a tuple of booleans as an index, arrays apart
    "numpy_behavior_indexing": '''import tensorflow as tf
import tensorflow.experimental.numpy as tnp
tnp.experimental_enable_numpy_behavior()
x = tnp.arange(24).reshape(2, 3, 4)
print(x[:, (True, False, True)])
print(x[1, (0, 0, 1), tnp.asarray([0, 1, 1])])
print(x[(0, 1), :, (1, 2)])
print(x[1, :, [0, 3]])
print(x[[True, False]])
print(x[..., (True, False, False, True)])
print(x[tnp.asarray([[True, False, True], [False, True, False]])])
print(x[x > 20])
print(x[0, [2, 0]])
''',
}


def main() -> None:
    import tensorflow as tf
    out = {}
    for name, source in PROGRAMS.items():
        buf = io.StringIO()
        filename = "<%s>" % name            # AutoGraph reads the functions' source from here
        linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
        with contextlib.redirect_stdout(buf):
            exec(compile(source, filename, "exec"), {"tf": tf, "__name__": "__main__"})
        out[name] = {"source": source, "stdout": buf.getvalue()}
        sys.stdout.write(buf.getvalue())
    for name, source in ALONE.items():
        run = subprocess.run([sys.executable, "-c", source], capture_output=True, text=True,
                             check=True)
        out[name] = {"source": source, "stdout": run.stdout, "alone": True}
        sys.stdout.write(run.stdout)
    path = os.path.join("tests", "data", "programs", "patterns.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
