"""Records what TF2 programs observe of ``tf.function`` tracing: which calls trace (Python
side effects, ``experimental_get_tracing_count``), the retracing warning on TensorFlow's
logger, and the errors of calls that do not bind.

Run with TensorFlow installed (``/path/to/tf-venv/bin/python
tools/tf_reference/tf_function_tracing.py``); writes
tests/data/tf_function_tracing/tf_2_21.json, which tests/test_function_tracing_behaviour.py
replays on flowgrad. Each snippet runs with ``tf`` bound and ``out`` (a list) to append
observations to; the record is the lines appended, then the warnings logged (memory
addresses replaced by 0xADDR).
"""
from __future__ import annotations

import json
import logging
import os
import re
import sys

SNIPPETS = {
    "python scalars and tensors": '''
@tf.function
def f(x):
    out.append("trace %r" % ((x if not tf.is_tensor(x) else (x.dtype.name, x.shape.as_list())),))
    return x + 1
for a in [1, 2, 1, tf.constant(1), tf.constant(2), tf.constant(1.5), tf.constant([1, 2]), 2.5]:
    f(a)
out.append(f.experimental_get_tracing_count())
''',
    "defaults and keywords are one call": '''
@tf.function
def g(x, training=True):
    out.append("trace training=%s" % training)
    return x
g(tf.constant(1)); g(tf.constant(1), training=False); g(tf.constant(1), False)
g(tf.constant(1), training=True); g(x=tf.constant(1)); g(tf.constant(1), True)
out.append(g.experimental_get_tracing_count())
''',
    "varargs": '''
@tf.function
def h(*args, **kw):
    out.append("trace %d %s" % (len(args), sorted(kw)))
    return args[0]
h(1); h(1); h(1, a=2); h(1, a=2); h(1, 2)
out.append(h.experimental_get_tracing_count())
''',
    "module method": '''
class M(tf.Module):
    @tf.function
    def __call__(self, x, training=False):
        out.append("trace training=%s" % training)
        return x
m = M()
m(tf.constant(1.)); m(tf.constant(1.), training=False); m(tf.constant(1.), True)
m(tf.constant([1., 2.]))
out.append(m.__call__.experimental_get_tracing_count())
''',
    "binding errors": '''
@tf.function
def f(x, y=1, *, z=2):
    return x
for args, kwargs in [((1, 2, 3), {}), ((), {}), ((1,), {"w": 2}), ((1,), {"x": 2})]:
    try:
        f(*args, **kwargs)
    except TypeError as e:
        out.append(str(e))
''',
    "input_signature binding errors": '''
@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def s(x):
    return x * 2
out.append(s(x=tf.constant([1.])).numpy().tolist())
for args in [(tf.constant([1, 2]),), (tf.constant([[1.]]),), (1., 2.), ()]:
    try:
        s(*args)
    except TypeError as e:
        out.append(str(e))
''',
    "retracing warning for a function made in a loop": '''
for i in range(7):
    @tf.function
    def h(x):
        return x
    h(tf.constant(i))
''',
    "retracing warning for python numbers": '''
@tf.function
def k(x):
    return x * 2
for i in range(12):
    k(i)
out.append(k.experimental_get_tracing_count())
''',
    "no warning when calls reuse traces": '''
@tf.function
def k(x):
    return x * 2
for i in range(4):
    k(i)
for i in range(20):
    k(tf.constant(i))
k(tf.constant(1.5))
out.append(k.experimental_get_tracing_count())
''',
}


class _Records(logging.Handler):
    def __init__(self):
        super().__init__()
        self.messages: list = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append("%s: %s" % (record.levelname, record.getMessage()))


def run(tf, code: str) -> list:  # noqa: ANN001 - the tensorflow module
    """The observations and warnings of one snippet."""
    handler = _Records()
    logger = logging.getLogger("tensorflow")
    logger.addHandler(handler)
    out: list = []
    try:
        exec(code, {"tf": tf, "out": out})  # noqa: S102 - fixed snippets above
    finally:
        logger.removeHandler(handler)
    return [str(x) for x in out] + [re.sub(r"0x[0-9a-f]+", "0xADDR", m) for m in handler.messages]


def main() -> int:
    """Records every snippet; returns the exit status."""
    import tensorflow as tf
    record = {"tensorflow": tf.__version__,
              "snippets": {name: {"code": code, "output": run(tf, code)}
                           for name, code in SNIPPETS.items()}}
    path = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "data",
                        "tf_function_tracing", "tf_2_21.json")
    with open(path, "w") as f:
        json.dump(record, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
