"""Every public name of TensorFlow 2.21's ``tf.compat.v1``, recursively: one entry per
namespace (``tf.compat.v1``, ``tf.compat.v1.nn``, ``tf.compat.v1.nn.rnn_cell``, ...), mapping
each name to its kind (``module``, ``class``, ``function`` or ``value``).

TensorFlow 2.21 loads ``tf.compat.v1.layers``, ``tf.compat.v1.nn.rnn_cell`` and
``tf.compat.v1.keras`` from the legacy Keras 2 (tf_keras); without it they fail to import.
Record with it on the path and selected::

    /work/venv-tf/bin/python -m pip install --no-deps --target /tmp/tfk_site tf_keras==2.21.0
    TF_USE_LEGACY_KERAS=1 PYTHONPATH=/tmp/tfk_site /work/venv-tf/bin/python \\
        tools/tf_reference/compat_v1_names.py > tests/data/compat_v1_names/tf_2_21.json

tests/test_compat_v1_names.py compares flowgrad's TF1 face with it.
"""
import json
import types


def kind_of(value):
    """``module``, ``class``, ``function`` (any other callable) or ``value``."""
    if isinstance(value, types.ModuleType):
        return "module"
    if isinstance(value, type):
        return "class"
    if callable(value):
        return "function"
    return "value"


def walk(root, path="tf.compat.v1"):
    """{namespace path: {name: kind}} for ``root`` and every namespace below it (each module
    once, by its first path; ``compat`` inside is not entered again)."""
    out, seen, queue = {}, set(), [(path, root)]
    while queue:
        where, module = queue.pop(0)
        if id(module) in seen:
            continue
        seen.add(id(module))
        names = {}
        for name in sorted(dir(module)):
            if name.startswith("_"):
                continue
            try:
                value = getattr(module, name)
            except Exception:  # noqa: BLE001 - a lazily loaded name that fails to load
                continue
            names[name] = kind_of(value)
            if names[name] == "module" and name != "compat" and \
                    getattr(value, "__name__", "").startswith(("tensorflow", "keras", "tf_keras")):
                queue.append((where + "." + name, value))
        out[where] = names
    return out


if __name__ == "__main__":
    import tensorflow as tf

    print(json.dumps({"reference": "tensorflow " + tf.__version__ + " (tf_keras legacy)",
                      "namespaces": walk(tf.compat.v1)}, sort_keys=True, indent=0))
