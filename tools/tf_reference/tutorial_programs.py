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
