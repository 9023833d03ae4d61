"""Records what TensorFlow 2.21 prints for small programs written as tensorflow.org's
tutorials and Keras's examples write them, each the pattern where such a program printed
something else (or stopped) on flowgrad; tests/test_tutorial_programs.py runs each under
``python -m flowgrad`` and compares what it prints.

Run from the repository root:
    /work/venv-tf/bin/python tools/tf_reference/tutorial_programs.py
Each program runs in its own process (in a fresh temporary directory); it writes
tests/data/programs/tutorial_programs.json: ``{name: {"source": ..., "stdout": ...}}``.
"""
import json
import os
import subprocess
import sys
import tempfile

PROGRAMS = {
    # the time-series tutorial's windowed dataset (unknown cardinality) in Keras's fit: Keras
    # reads a tf.data.Iterator with get_next_as_optional in a tf.function
    "fit_dataset_of_unknown_length": '''
import numpy as np
import tensorflow as tf
import keras
keras.utils.set_random_seed(0)
ds = tf.data.Dataset.range(40).filter(lambda i: i % 3 > 0)
ds = ds.map(lambda i: (tf.fill([2], tf.cast(i, tf.float32) / 40.0), tf.cast(i % 2, tf.float32)))
ds = ds.batch(8)
print(ds.cardinality().numpy())
it = iter(ds)
print(isinstance(it, tf.data.Iterator), it.element_spec)
print(it.get_next()[1], it.get_next_as_optional().has_value())
model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, kernel_initializer="ones")])
model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
history = model.fit(ds, epochs=3, verbose=0)
print(np.round(history.history["loss"], 5))
print(np.round(model.evaluate(ds, verbose=0), 5))
print(model.predict(ds, verbose=0).shape)

@tf.function
def first(iterator):
    return iterator.get_next_as_optional()
opt = first(iter(tf.data.Dataset.from_tensor_slices({"a": [1, 2]})))
print(opt.has_value(), opt.get_value())
print(opt.element_spec)
''',
    # tf.Tensor inputs to Keras's fit/evaluate/predict (a string tensor into a
    # TextVectorization model): Keras slices what it recognises as a tf.Tensor with tf.gather
    'tensor_inputs_to_keras': '''
import numpy as np
import tensorflow as tf
import keras
keras.utils.set_random_seed(0)
x = tf.constant(np.linspace(-1, 1, 24, dtype="float32").reshape(12, 2))
y = tf.reduce_sum(x, axis=1, keepdims=True) * 2.0
model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, kernel_initializer="zeros")])
model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
h = model.fit(x, y, epochs=2, batch_size=4, validation_split=0.25, shuffle=False, verbose=0)
print(np.round(h.history["loss"], 5), np.round(h.history["val_loss"], 5))
h = model.fit(x, y, epochs=1, batch_size=4, sample_weight=tf.ones([12]), shuffle=False, verbose=0)
print(np.round(model.evaluate(x, y, batch_size=5, verbose=0), 5))
print(np.round(model.predict(x[:3], verbose=0), 4))
print(model.predict_on_batch(x[:2]).shape, np.round(model.train_on_batch(x, y), 5))
tv = keras.layers.TextVectorization(max_tokens=10, output_sequence_length=3)
tv.adapt(tf.constant(["a b c", "b c d", "c d"]))
text_model = keras.Sequential([tv, keras.layers.Embedding(10, 2),
                               keras.layers.GlobalAveragePooling1D()])
print(text_model.predict(tf.constant(["a b", "c", "d d d"]), batch_size=2, verbose=0).shape)
labels = tf.constant([0.0, 1.0, 0.0])
clf = keras.Sequential([tv, keras.layers.Embedding(10, 2), keras.layers.GlobalAveragePooling1D(),
                        keras.layers.Dense(1)])
clf.compile(optimizer="sgd", loss="mse")
print(len(clf.fit(tf.constant(["a b", "c", "d d d"]), labels, epochs=2, verbose=0).history["loss"]))
''',
    # an iterator passed to a tf.function (Keras's fit passes a new one each epoch): one trace
    # reads whichever iterator a call passes
    'iterator_argument_traced_once': '''
import tensorflow as tf
traces = [0]

@tf.function
def step(iterator):
    traces[0] += 1
    return iterator.get_next() * 2

@tf.function
def peek(iterator):
    return iterator.get_next_as_optional()

ds = tf.data.Dataset.range(3)
for epoch in range(3):
    it = iter(ds)
    print(step(it), step(it), peek(it).has_value(), peek(it).has_value())
print(traces, step.experimental_get_tracing_count())
it = iter(tf.data.Dataset.from_tensor_slices([1.0]))
print(step(it), traces)
try:
    step(it)
except tf.errors.OutOfRangeError:
    print("OutOfRangeError")
''',
    # tensorflow/docs guide/ragged_tensor.ipynb: rt[:, :1] slices each row (it raised); an
    # integer into a ragged dimension is TF's ValueError
    'ragged_inner_slices': '''
import tensorflow as tf
r = tf.ragged.constant([[1, 2, 5], [3], []])
print(r[:, :1], r[1:, 1:], r[:, -2:])
print(r[:2, :2].row_splits)
try:
    print(r[:2, 0])
except Exception as e:
    print(type(e).__name__)
r2 = tf.ragged.constant([[1.0, 2.0], [3.0, 4.0, 5.0]])
print(r2[0:1, ::2] if False else r2[:, :-1])
''',
    # a ragged nested list into tf.constant/convert_to_tensor/Variable/an op: TensorFlow's
    # ValueError text (NumPy's 'inhomogeneous shape' message showed)
    'non_rectangular_lists': '''
import tensorflow as tf
for f in [lambda: tf.constant([[1, 2], [3]]),
          lambda: tf.constant([[1, 2], [3]], dtype=tf.float32),
          lambda: tf.convert_to_tensor([[1.0], [2.0, 3.0]]), lambda: tf.Variable([[1], [2, 3]]),
          lambda: tf.add([[1, 2], [3]], 1)]:
    try:
        f()
    except Exception as e:
        print(type(e).__name__, e)
''',
    # tensorflow/docs guide/function.ipynb: reduce_retracing (experimental_relax_shapes)
    # traces once for shapes that differ, the differing dimensions left open; a tensor of
    # unknown rank prints as TF's
    'reduce_retracing': '''
import tensorflow as tf
@tf.function(reduce_retracing=True)
def g(x, scale=2):
    print("Tracing with", x)
    return x * scale
print(g(tf.constant([1])), g(tf.constant([1, 2])), g(tf.constant([1, 2, 3])))
print(g.experimental_get_tracing_count())
print(g(tf.constant([[1]])), g(tf.constant([[1, 2]])), g.experimental_get_tracing_count())
print(g(tf.constant([1.0])), g(tf.constant([1.0, 2.0]), scale=3),
      g.experimental_get_tracing_count())
print(g.pretty_printed_concrete_signatures())
@tf.function(experimental_relax_shapes=True)
def h(d):
    print("Tracing h", d["a"].shape)
    return d["a"] + 1
h({"a": tf.ones([2])}); h({"a": tf.ones([3])}); h({"a": tf.ones([4])})
print(h.experimental_get_tracing_count())
''',
    # ConcreteFunction.structured_input_signature (it was missing)
    'structured_input_signature': '''
import tensorflow as tf
@tf.function
def add(a, b, *, c=1):
    return a + b
cf = add.get_concrete_function(tf.TensorSpec([None], tf.float32), tf.TensorSpec([None], tf.float32))
print(cf.structured_input_signature)
print(add.get_concrete_function(tf.constant(1), 2).structured_input_signature)
@tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32, name="inp")])
def k(x):
    return x
print(k.get_concrete_function().structured_input_signature)
''',
    # tensorflow/docs guide/intro_to_graphs.ipynb: ConcreteFunction.outputs, the flat output
    # tensors (it was missing)
    'concrete_function_outputs': '''
import tensorflow as tf
@tf.function
def f(a, b):
    return {"s": a + b, "p": [a * b]}
cf = f.get_concrete_function(tf.TensorSpec([None], tf.float32), tf.TensorSpec([None], tf.float32))
print(len(cf.outputs), [t.shape for t in cf.outputs], [t.dtype for t in cf.outputs])
print([t.name for t in cf.inputs])
''',
}


def main() -> None:
    out = {}
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")
    for name, source in PROGRAMS.items():
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, name + ".py")
            with open(path, "w") as f:
                f.write(source)
            run = subprocess.run([sys.executable, path], capture_output=True, text=True,
                                 cwd=tmp, env=env, check=True)
        out[name] = {"source": source, "stdout": run.stdout}
        sys.stdout.write(run.stdout)
    path = os.path.join("tests", "data", "programs", "tutorial_programs.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
