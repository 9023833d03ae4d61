"""The TF checkpoint guide's flow (tensorflow.org/guide/checkpoint, "Delayed restorations"):
a Keras 3 model and Adam in ``tf.train.Checkpoint(step=, optimizer=, net=)`` with a
``CheckpointManager``, trained and saved; then fresh objects restored from the latest
checkpoint BEFORE the model or the optimizer are built, and trained on. The kernel, bias, the
optimizer's ``iterations`` and Adam's slots come back when Keras creates them.

    python keras_deferred_restore.py save DIR [iterator]          # the guide's first run
    python keras_deferred_restore.py load DIR CLASS [iterator]    # its second run

With ``iterator`` the checkpoint holds the dataset iterator too, as in the guide
(``Checkpoint(step=, optimizer=, net=, iterator=)``), and the second run goes on with the
elements after the saved position. TensorFlow 2.21 printed {save,load_BuiltNet}_iterator_tf_2_21.txt
(its own checkpoints, not committed: flowgrad cannot read TensorFlow's serialized iterator
state); flowgrad must print the same restoring its own.

CLASS is ``Net`` (the guide's subclassed model, built by its first call) or ``BuiltNet`` (the
same with a ``build`` method); both save under the same keys. Real TensorFlow 2.21 + Keras
3.15.1 printed tests/data/keras/deferred_restore/{save,load_BuiltNet}_tf_2_21.txt and wrote the
checkpoints there (``/path/to/tf-venv/bin/python tools/tf_reference/keras_deferred_restore.py
save tests/data/keras/deferred_restore > .../save_tf_2_21.txt``, then ``load ... BuiltNet``).
On TensorFlow 2.21 ``load ... Net`` loses the kernel: Keras builds the layer inside a symbolic
trace (``compute_output_spec``) where the restore fails with an AttributeError that Keras
swallows, builds it again with a fresh kernel and trains a duplicate (3 trainable variables;
``assert_existing_objects_matched`` fails). flowgrad restores the kernel there as TF means to,
so ``load ... Net`` on flowgrad prints what ``load ... BuiltNet`` prints on TensorFlow
(tests/test_keras_deferred_restore.py)."""
import os
import sys

import keras
import numpy as np
import tensorflow as tf


class Net(keras.Model):
    """A simple linear model (the guide's)."""

    def __init__(self):
        super().__init__()
        self.l1 = keras.layers.Dense(5)

    def call(self, x):
        return self.l1(x)


class BuiltNet(Net):
    def build(self, input_shape):
        self.l1.build(input_shape)


def toy_dataset():
    inputs = tf.range(10.)[:, None]
    labels = inputs * 5. + tf.range(5.)[None, :]
    return tf.data.Dataset.from_tensor_slices(dict(x=inputs, y=labels)).repeat().batch(2)


def train_step(net, example, optimizer):
    with tf.GradientTape() as tape:
        output = net(example["x"])
        loss = tf.reduce_mean(tf.abs(output - example["y"]))
    variables = net.trainable_variables
    gradients = tape.gradient(loss, variables)
    optimizer.apply_gradients(zip(gradients, variables))
    return loss


def show(values):
    return np.round(np.asarray(values, np.float64), 4).tolist()


def train_and_checkpoint(net, opt, ckpt, manager, iterator):
    ckpt.restore(manager.latest_checkpoint)
    if manager.latest_checkpoint:
        print(f"Restored from {os.path.basename(manager.latest_checkpoint)}")
        print("restored iterations", int(opt.iterations.numpy()), "step", int(ckpt.step))
    else:
        print("Initializing from scratch.")
    for _ in range(20):
        loss = train_step(net, next(iterator), opt)
        ckpt.step.assign_add(1)
        if int(ckpt.step) % 5 == 0:
            save_path = manager.save()
            print(f"Saved checkpoint for step {int(ckpt.step)}: {os.path.basename(save_path)}")
            print(f"loss {loss.numpy():1.4f}")
    print("iterations", int(opt.iterations.numpy()), "trainable", len(net.trainable_variables))
    print("kernel", show(net.l1.kernel), "bias", show(net.l1.bias))
    print("slots", [show(v) for v in opt.variables[2:]])
    print("kept", [os.path.basename(p) for p in manager.checkpoints])
    print([k for k, _ in tf.train.list_variables(manager.latest_checkpoint)])


def main():
    mode, folder, *rest = sys.argv[1:]
    keras.utils.set_random_seed(0)
    net = (BuiltNet if mode == "load" and rest[0] == "BuiltNet" else Net)()
    opt = keras.optimizers.Adam(0.1)
    iterator = iter(toy_dataset())
    saved = dict(iterator=iterator) if "iterator" in rest else {}
    ckpt = tf.train.Checkpoint(step=tf.Variable(1), optimizer=opt, net=net, **saved)
    manager = tf.train.CheckpointManager(ckpt, folder, max_to_keep=3)
    train_and_checkpoint(net, opt, ckpt, manager, iterator)


if __name__ == "__main__":
    main()
