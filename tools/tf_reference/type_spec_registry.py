"""Prints what ``tensorflow.python.framework.type_spec_registry`` names TensorFlow's
TypeSpecs and what their ``_serialize()`` gives (the pair Keras 3's legacy JSON encoder
writes a TypeSpec with, ``keras/src/legacy/saving/json_utils.py``), and that
``lookup(name)._deserialize`` rebuilds an equal spec; and the error class of an unknown
name. Run on TensorFlow 2.21 it wrote tests/data/keras_suite/type_spec_registry.txt, which
tests/test_type_spec_registry.py compares with this program's output under
``python -m flowgrad``.

Run from the repository root:
    /work/venv-tf/bin/python tools/tf_reference/type_spec_registry.py \
        > tests/data/keras_suite/type_spec_registry.txt
"""
import tensorflow as tf
from tensorflow.python.framework import type_spec_registry

SPECS = [
    "tf.TensorSpec([1, 5], tf.float32)",
    "tf.TensorSpec([None, 3], tf.int64, name='ids')",
    "tf.TensorSpec(None, tf.string)",
    "tf.SparseTensorSpec([2, None], tf.float64)",
    "tf.RaggedTensorSpec([2, None], tf.float32, 1)",
    "tf.RaggedTensorSpec([3, None, None], tf.int32, 2, tf.int32)",
    "tf.NoneTensorSpec()",
]


def plain(value):
    """A serialization as text: shapes as lists, dtypes as names."""
    if isinstance(value, tf.TensorShape):
        return "shape%s" % (value.as_list() if value.rank is not None else None)
    if isinstance(value, tf.DType):
        return value.name
    if isinstance(value, tuple):
        return "(" + ", ".join(plain(v) for v in value) + ")"
    return repr(value)


for text in SPECS:
    spec = eval(text)
    name = type_spec_registry.get_name(type(spec))
    state = spec._serialize()
    back = type_spec_registry.lookup(name)._deserialize(state)
    print(text, "->", name, plain(state), back == spec)
try:
    type_spec_registry.lookup("Invalid Type")
except Exception as e:  # noqa: BLE001 - the class is the record
    print("lookup('Invalid Type') ->", type(e).__name__,
          "No TypeSpec has been registered" in str(e))
