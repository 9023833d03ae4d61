"""Records what TensorFlow 2.21 gives for the TF2 names issue 23's tf2gaps work added:
each topic's expressions (values, dtypes, shapes, or the error class and message) go to
tests/data/tf2_gaps/<topic>.json, which tests/test_tf2_gaps_reference.py replays on flowgrad.

Run with the TensorFlow venv:
``/work/venv-tf/bin/python tools/tf_reference/tf2_gaps_reference.py [topic ...]``.
"""
from __future__ import annotations

import json
import pathlib
import sys

import numpy as np

TOPICS: dict = {}

TOPICS["space_batch"] = {
    "setup": """
rng = np.random.RandomState(0)
x = tf.constant(rng.randn(2, 4, 6, 3).astype(np.float32))
x3 = tf.constant(rng.randn(2, 5, 3))
xi = tf.reshape(tf.range(24), [1, 4, 6, 1])
b = tf.constant(rng.randn(8, 2, 3, 3).astype(np.float32))
""",
    "cases": [
        "tf.space_to_batch_nd(x, [2, 2], [[0, 0], [0, 0]])",
        "tf.space_to_batch_nd(x, [2, 3], [[1, 1], [0, 3]])",
        "tf.space_to_batch_nd(x, [3], [[1, 1]])",
        "tf.space_to_batch_nd(x3, [2], [[0, 1]])",
        "tf.space_to_batch_nd(xi, [2, 2], [[0, 0], [0, 0]])",
        "tf.space_to_batch_nd(x, tf.constant([2, 2], tf.int64), "
        "tf.constant([[0, 0], [2, 0]], tf.int64))",
        "tf.space_to_batch(x, [2, 2], [[0, 0], [1, 1]])",
        "tf.nn.space_to_batch(xi, [4], [[0, 0]])",
        "tf.batch_to_space(b, [2, 2], [[0, 0], [0, 0]])",
        "tf.batch_to_space(b, [2, 2], [[1, 0], [0, 2]])",
        "tf.batch_to_space(b, 2, [[0, 0], [1, 1]])",
        "tf.batch_to_space(b, [4], [[1, 2]])",
        "tf.batch_to_space(tf.space_to_batch_nd(x, [2, 3], [[1, 1], [0, 3]]), [2, 3], "
        "[[1, 1], [0, 3]])",
        "tf.compat.v1.space_to_batch(x, [[0, 0], [1, 1]], 2)",
        "tf.compat.v1.space_to_batch(x, [[0, 0], [0, 0]], block_size=2)",
        "tf.compat.v1.batch_to_space(b, [[0, 0], [1, 1]], 2)",
        "tf.compat.v1.space_to_batch_nd(x, [2, 2], [[0, 0], [0, 0]])",
        "tf.compat.v1.batch_to_space_nd(b, [2, 2], [[0, 0], [0, 0]])",
        "tf.required_space_to_batch_paddings([5, 7], [2, 3])",
        "tf.required_space_to_batch_paddings([5, 7], [2, 3], [[1, 0], [2, 2]])",
        "tf.required_space_to_batch_paddings([4], [4])",
        "tf.compat.v1.required_space_to_batch_paddings(tf.constant([6, 6]), [4, 4])",
        # bad input
        "tf.space_to_batch_nd(x, [2, 2], [[0, 0], [0, 1]])",
        "tf.space_to_batch_nd(x, [2, 2], [[0, 0]])",
        "tf.space_to_batch_nd(x, [2, 2], [[0, -1], [0, 0]])",
        "tf.space_to_batch_nd(x, [0, 2], [[0, 0], [0, 0]])",
        "tf.space_to_batch_nd(x, [2, 2, 2, 2], [[0, 0]] * 4)",
        "tf.batch_to_space(b, [3, 2], [[0, 0], [0, 0]])",
        "tf.batch_to_space(b, [2, 2], [[2, 2], [0, 0]])",
        "tf.batch_to_space(b, [2, 2], [[-1, 0], [0, 0]])",
        "tf.space_to_batch_nd(x, [2.0, 2.0], [[0, 0], [0, 0]])",
    ],
    "static": [
        ("tf.space_to_batch_nd", "[None, 4, 6, 3]", "[2, 2], [[0, 0], [0, 0]]"),
        ("tf.space_to_batch_nd", "[2, None, 6, 3]", "[2, 3], [[0, 0], [0, 0]]"),
        ("tf.batch_to_space", "[8, 2, None, 3]", "[2, 2], [[1, 0], [0, 0]]"),
        ("tf.batch_to_space", "[None, 2, 3, 3]", "[2, 2], [[0, 0], [0, 0]]"),
    ],
}


_SPECIAL = ["bessel_i0", "bessel_i0e", "bessel_i1", "bessel_i1e", "bessel_j0", "bessel_j1",
            "bessel_k0", "bessel_k0e", "bessel_k1", "bessel_k1e", "bessel_y0", "bessel_y1",
            "dawsn", "expint", "fresnel_cos", "fresnel_sin", "spence"]

TOPICS["special"] = {
    "setup": """
xs = [-30.0, -7.5, -2.0, -0.5, -1e-3, 0.0, 1e-3, 0.3, 1.0, 1.7, 4.0, 9.5, 25.0, 80.0, 700.0]
pos = [1e-3, 0.3, 1.0, 1.7, 4.0, 9.5, 25.0, 80.0]
x32 = tf.constant(xs, tf.float32)
x64 = tf.constant(xs, tf.float64)
p64 = tf.constant(pos, tf.float64)
special_x = tf.constant([0.0, 1.0, np.nan, np.inf, -np.inf], tf.float64)

def grad(f, x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return tape.gradient(y, x)

def grad2(f, x):
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = f(x)
        g = inner.gradient(y, x)
    return outer.gradient(g, x)
""",
    "cases": [c for name in _SPECIAL for c in (
        "tf.math.special.%s(x32)" % name, "tf.math.special.%s(x64)" % name,
        "tf.math.special.%s(special_x)" % name,
        "grad(tf.math.special.%s, p64)" % name, "grad2(tf.math.special.%s, p64)" % name,
        "tf.compat.v1.math.special.%s([0.5, 2.0])" % name)] + [
        "tf.math.special.bessel_j0(tf.constant([1, 2]))",
        "tf.math.special.dawsn(tf.constant([1.0, 2.0], tf.float16))",
        "tf.math.special.spence(tf.constant([0.5, 2.0], tf.bfloat16))",
        "grad(tf.math.special.bessel_j1, tf.constant([0.0, 1.0], tf.float64))",
        "grad(tf.math.special.spence, tf.constant([1.0, 2.0], tf.float64))",
        "grad(tf.math.special.bessel_y1, tf.constant([0.0, 1.0], tf.float64))",
        "grad(tf.math.special.bessel_k1e, tf.constant([0.0, 1.0], tf.float64))",
        "grad(tf.math.special.expint, tf.constant([-1.0, 0.0], tf.float64))",
    ],
}


TOPICS["signal"] = {
    "setup": """
rng = np.random.RandomState(3)
sig = tf.constant(rng.randn(2, 37).astype(np.float32))
sig64 = tf.constant(rng.randn(50))
spec = tf.constant(rng.randn(3, 5, 8).astype(np.float32))
x = tf.constant(rng.randn(2, 3, 4).astype(np.float32))
c = tf.complex(x, -x)

def grad(f, x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        fx = f(x)
        w = tf.cos(tf.cast(tf.range(tf.size(fx)), x.dtype))
        y = tf.reduce_sum(fx * tf.reshape(w, tf.shape(fx)))
    return tape.gradient(y, x)
""",
    "cases": [
        "tf.signal.mdct(sig, 16)", "tf.signal.mdct(sig, 16, pad_end=True)",
        "tf.signal.mdct(sig64, 8, norm='ortho')", "tf.signal.mdct(sig, 12, window_fn=None)",
        "tf.signal.mdct(sig, 8, window_fn=tf.signal.kaiser_bessel_derived_window)",
        "tf.signal.mdct(sig, 10)", "tf.signal.mdct(3.0, 8)",
        "tf.signal.inverse_mdct(spec)", "tf.signal.inverse_mdct(spec, norm='ortho')",
        "tf.signal.inverse_mdct(spec, window_fn=None)",
        "tf.signal.inverse_mdct(tf.signal.mdct(sig64, 8, pad_end=True), norm='ortho')",
        "tf.signal.inverse_mdct(spec[0, 0])",
        "tf.signal.kaiser_bessel_derived_window(8)",
        "tf.signal.kaiser_bessel_derived_window(10, beta=4.0, dtype=tf.float64)",
        "tf.signal.kaiser_bessel_derived_window(7)",
        "tf.signal.kaiser_bessel_derived_window(4, dtype=tf.int32)",
        "grad(lambda s: tf.signal.mdct(s, 8), sig64)",
        "grad(lambda s: tf.signal.inverse_mdct(s, norm='ortho'), tf.constant(rng.randn(4, 6)))",
        # TensorFlow 2.21 has no CPU kernel for the n-d FFTs: only the wrappers' own errors
        "tf.signal.fftnd(x)", "tf.signal.rfftnd(c)", "tf.signal.irfftnd(x)",
    ],
}


TOPICS["strings"] = {
    "setup": """
words = tf.constant([b"hello", "\\u00e9t\\u00e9".encode(), "\\u6f22\\u5b57x".encode(), b""])
bad = tf.constant([b"a\\xffb", b"\\xe6\\xbc", b"ok\\xc3"])
grid = tf.constant([["ab", "\\u00e9"], ["", "xyz"]])
utf16 = tf.constant(["h\\u00e9".encode("utf-16-be")])
""",
    "cases": [
        "tf.strings.unicode_decode_with_offsets(words, 'UTF-8')",
        "tf.strings.unicode_decode_with_offsets(words[1], 'UTF-8')",
        "tf.strings.unicode_decode_with_offsets(bad, 'UTF-8')",
        "tf.strings.unicode_decode_with_offsets(bad, 'UTF-8', errors='ignore')",
        "tf.strings.unicode_decode_with_offsets(bad, 'UTF-8', replacement_char=63)",
        "tf.strings.unicode_decode_with_offsets(bad, 'UTF-8', errors='strict')",
        "tf.strings.unicode_decode_with_offsets(grid, 'UTF-8')",
        "tf.strings.unicode_decode_with_offsets(utf16, 'UTF-16-BE')",
        "tf.strings.unicode_decode_with_offsets(tf.constant([b'a\x01b']), 'UTF-8', "
        "replace_control_characters=True)",
        "tf.strings.unicode_split_with_offsets(words, 'UTF-8')",
        "tf.strings.unicode_split_with_offsets(words[2], 'UTF-8')",
        "tf.strings.unicode_split_with_offsets(bad, 'UTF-8')",
        "tf.strings.unicode_split_with_offsets(grid, 'UTF-8')",
        "tf.strings.unicode_decode(grid, 'UTF-8')",
        "tf.strings.unicode_split(grid, 'UTF-8')",
        "tf.strings.to_hash_bucket(words, 10)",
        "tf.strings.to_hash_bucket(tf.constant(['a', 'b', 'abc', 'hello world', "
        "'The quick brown fox jumps over the lazy dog']), 1000003)",
        "tf.strings.to_hash_bucket(grid, 7)",
        "tf.strings.to_hash_bucket('x' * 100, 2 ** 31 - 1)",
        "tf.strings.to_hash_bucket(words, 0)",
        "tf.compat.v1.string_to_hash_bucket(words, 5)",
        "tf.compat.v1.strings.to_hash_bucket(grid, 3)",
        "tf.compat.v1.strings.unicode_decode_with_offsets(words, 'UTF-8')",
    ],
}


TOPICS["io"] = {
    "setup": """
import gzip
import zlib
z = tf.constant([zlib.compress(b"hello"), zlib.compress(b""), zlib.compress(b"x" * 1000, 9)])
gz = tf.constant([[gzip.compress(b"abc"), gzip.compress(b"\\x00\\xff" * 7)]])
""",
    "cases": [
        "tf.io.decode_compressed(z, 'ZLIB')", "tf.io.decode_compressed(gz, 'GZIP')",
        "tf.io.decode_compressed(b'raw bytes')", "tf.io.decode_compressed(z, '')",
        "tf.io.decode_compressed(b'raw', 'ZLIB')", "tf.io.decode_compressed(z, 'GZIP')",
        "tf.io.decode_compressed(b'raw', 'XZ')",
        "tf.compat.v1.decode_compressed(z, compression_type='ZLIB')",
        "tf.io.decode_compressed(tf.constant([1, 2]), 'ZLIB')",
    ],
}


TOPICS["webp"] = {
    # WebP files Pillow 11 (libwebp) wrote for a random 5x7 RGB image (lossless and quality
    # 80) and a random 4x3 RGBA image (lossless), as base64
    "setup": """
import base64
lossless_rgb = base64.b64decode(
    "UklGRs4AAABXRUJQVlA4TMEAAAAvBgABABfBJgDAJMPd7XL3n58KFo4iNNACNCAAfFaDaQMASHB3t+yaeIyHOMIT"
    "B/AFIzrJCtva2pPEDYcF6BzWZwA2sMqhTZeTEpn/OF37UIwI7wUFZd+u+NDob3GNBNgqZPBL/4HyJ6D1NAkzmv7s"
    "aootA/gTMp0dbhTG2/FjLf2y7jlm5JlqkwLY90y1BtDE5aHOuTZaDNWtHoy57oBBAIBlY7NtnRH9jzDXcBlKak0V"
    "6dOnPaVfKgJOXuQx2/8NAA==")
lossless_rgba = base64.b64decode(
    "UklGRoQAAABXRUJQVlA4THcAAAAvAsAAEF+gJgAShji0JQVN/E0wTht4GURpJFuN+yrrRLa0Sq10oCaSrWZ+/eso"
    "IJCRQ4c79GFBSSQrlH6KYgyWDKSgERlQ3xBkiYDtXfBC4rwDGJb7UX+7lLyg/bNn3Tk07xoUtZEC7S6nI8TgizeyI"
    "/of36fhOgA=")
lossy_rgb = base64.b64decode(
    "UklGRnwAAABXRUJQVlA4IHAAAAAwAgCdASoHAAUAAUAmJbACdDBLwZ1SbOlvwAD+fqdo3ne+x//yX7eynz5FS2wr"
    "fogX4v1Y1Cw8f+Pz59h6xq538bI4fc+/mgRtf+2X3f/BxWl//4O79//k3+gJW4D/k5d+br/+FFttUc8MH6s/koAA")
""",
    "cases": [
        "tf.io.decode_webp(lossless_rgb)", "tf.io.decode_webp(lossless_rgb, channels=3)",
        "tf.io.decode_webp(lossless_rgb, channels=4)", "tf.io.decode_webp(lossless_rgba)",
        "tf.image.decode_webp(lossless_rgba, channels=4)",
        "tf.image.decode_webp(lossless_rgba, channels=3)", "tf.io.decode_webp(lossy_rgb)",
        "tf.compat.v1.image.decode_webp(lossy_rgb, channels=3)",
        "tf.io.decode_webp(b'not a webp file')",
    ],
}


TOPICS["with_space_to_batch"] = {
    "setup": """
rng = np.random.RandomState(5)
x = tf.constant(rng.randn(2, 7, 8, 3))
f = tf.constant(rng.randn(3, 2, 3, 4))
seq = tf.constant(rng.randn(2, 11, 3))
conv = lambda i, n, p: tf.nn.convolution(i, f, padding=p)
pool = lambda i, n, p: tf.nn.pool(i, [2], "MAX", padding=p)
""",
    "cases": [
        "tf.nn.with_space_to_batch(x, [2, 2], 'SAME', conv, filter_shape=[3, 2])",
        "tf.nn.with_space_to_batch(x, [2, 3], 'VALID', conv)",
        "tf.nn.with_space_to_batch(x, [1, 1], 'SAME', conv)",
        "tf.nn.with_space_to_batch(x, [3, 2], [[0, 0], [1, 2], [0, 3], [0, 0]], conv)",
        "tf.nn.with_space_to_batch(seq, [3], 'SAME', pool, filter_shape=[2])",
        "tf.nn.with_space_to_batch(seq, [2], 'VALID', pool, spatial_dims=[1])",
        "tf.compat.v1.nn.with_space_to_batch(x, [2, 2], 'VALID', conv)",
        "tf.nn.with_space_to_batch(x, [2, 2], 'SAME', conv)",
        "tf.nn.with_space_to_batch(x, [0, 2], 'VALID', conv)",
        "tf.nn.with_space_to_batch(x, [2, 2], 'FULL', conv)",
        "tf.nn.with_space_to_batch(x, [2, 2], 'VALID', conv, spatial_dims=[2, 1])",
    ],
}


def _plain(x):
    arr = np.asarray(x)
    if arr.dtype.kind == "c":
        return {"re": arr.real.tolist(), "im": arr.imag.tolist()}
    if arr.dtype.kind in "SO":
        return {"bytes": [v.decode("latin-1") for v in arr.reshape(-1).tolist()],
                "shape": list(arr.shape)}
    return arr.tolist()


def _latin1(v):
    """Nested lists with bytes as latin-1 text (JSON has no bytes)."""
    if isinstance(v, list):
        return [_latin1(e) for e in v]
    return v.decode("latin-1") if isinstance(v, bytes) else v


def _record(tf, value):
    if isinstance(value, (tuple, list)):
        return {"tuple": [_record(tf, v) for v in value]}
    if isinstance(value, tf.RaggedTensor):
        return {"ragged": _latin1(value.to_list()),
                "dtype": value.dtype.name, "ragged_rank": value.ragged_rank}
    if isinstance(value, tf.Tensor):
        return {"dtype": value.dtype.name, "shape": value.shape.as_list(),
                "value": _plain(value.numpy())}
    return {"python": _plain(value)}


def record(topic: str) -> dict:
    """Evaluates one topic's expressions eagerly (and its static-shape cases in a
    tf.function) on TensorFlow 2.21."""
    import tensorflow as tf
    spec = TOPICS[topic]
    ns = {"tf": tf, "np": np}
    exec(spec["setup"], ns)  # noqa: S102 - our own set-up
    out: dict = {}
    for expr in spec["cases"]:
        try:
            out[expr] = _record(tf, eval(expr, ns))  # noqa: S307 - our own expressions
        except Exception as exc:  # noqa: BLE001 - the class and message are what is recorded
            out[expr] = {"error": type(exc).__name__, "message": str(exc).split("\n")[0]}
    static = {}
    for fn, shape, args in spec.get("static", []):
        key = "%s(<%s>, %s)" % (fn, shape, args)
        f = tf.function(eval("lambda t: %s(t, %s)" % (fn, args), ns))  # noqa: S307
        cf = f.get_concrete_function(tf.TensorSpec(eval(shape), tf.float32))  # noqa: S307
        static[key] = cf.structured_outputs.shape.as_list()
    return {"setup": spec["setup"], "cases": out, "static": static}


def main() -> None:
    root = pathlib.Path(__file__).resolve().parents[2] / "tests/data/tf2_gaps"
    root.mkdir(parents=True, exist_ok=True)
    for topic in sys.argv[1:] or sorted(TOPICS):
        path = root / ("%s.json" % topic)
        path.write_text(json.dumps(record(topic), indent=0, sort_keys=True) + "\n")
        print("wrote", path)


if __name__ == "__main__":
    main()
