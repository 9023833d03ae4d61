"""tf.math.special against TensorFlow 2.21 (tests/data/tf2_gaps/special.json): values in
float32 and float64 across the domains and at 0, nan and +-inf, TensorFlow's gradients and
second derivatives, and its errors for integer and half-precision inputs. The numerical
gradient checks are in tests/op_db.py."""
from __future__ import annotations

import pytest

import flowgrad as tf
import flowgrad.compat.v1 as v1

from tf2_gaps_replay import load, replay

REF = load("special")


@pytest.fixture(autouse=True)
def eager():
    """These tests run as TF2 programs (the suite starts each test in graph mode)."""
    v1.enable_v2_behavior()
    yield


@pytest.mark.parametrize("expr", sorted(REF["cases"]))
def test_matches_tensorflow(expr):
    # TensorFlow's float32 kernels are float32 polynomial fits (a few 1e-5 relative off at
    # large arguments); flowgrad rounds the float64 value
    float32 = "x32" in expr or "[0.5, 2.0]" in expr
    replay(REF, expr, rtol=1e-4 if float32 else 1e-9)


def test_graph_mode_matches_eager():
    v1.disable_v2_behavior()
    x = v1.placeholder(tf.float64, [3])
    ys = [tf.math.special.bessel_k1e(x), tf.math.special.fresnel_sin(x)]
    (g,) = v1.gradients(tf.add_n(ys), [x])
    with v1.Session() as sess:
        got = sess.run([ys, g], {x: [0.5, 1.0, 3.0]})
    v1.enable_v2_behavior()
    xe = tf.constant([0.5, 1.0, 3.0], tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(xe)
        total = tf.math.special.bessel_k1e(xe) + tf.math.special.fresnel_sin(xe)
    assert abs(got[1] - tape.gradient(total, xe).numpy()).max() < 1e-15
