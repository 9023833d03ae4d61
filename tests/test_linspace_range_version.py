"""tf.linspace and float tf.range in both faces; tf.__version__ / tf.version."""
import numpy as np
import pytest

import flowgrad
import flowgrad as tf2
import flowgrad.compat.v1 as tf
from gradcheck import check_gradients


def test_linspace_values_graph_mode():
    a = tf.linspace(0.0, 1.0, 5)
    b = tf.lin_space(-1.0, 2.0, 4)
    c = tf.linspace([0.0, 10.0], [1.0, 20.0], 3, axis=-1)
    n = tf.placeholder(tf.int32, [])
    d = tf.linspace(2.0, 3.0, n)            # num known only at run time
    assert a.shape.as_list() == [5] and c.shape.as_list() == [2, 3]
    with tf.Session() as sess:
        av, bv, cv = sess.run([a, b, c])
        d3, d1, d0 = (sess.run(d, {n: k}) for k in (3, 1, 0))
    np.testing.assert_allclose(av, np.linspace(0.0, 1.0, 5), rtol=1e-7)
    np.testing.assert_allclose(bv, np.linspace(-1.0, 2.0, 4), rtol=1e-6)
    np.testing.assert_allclose(cv, np.linspace([0.0, 10.0], [1.0, 20.0], 3, axis=-1))
    assert av.dtype == np.float32 and av[-1] == 1.0
    assert d3.tolist() == [2.0, 2.5, 3.0] and d1.tolist() == [2.0] and d0.tolist() == []


def test_linspace_and_float_range_eager():
    tf.enable_v2_behavior()
    x = tf2.linspace(tf2.constant(0.0, tf2.float64), 1.0, 3)
    assert x.dtype == tf2.float64 and x.numpy().tolist() == [0.0, 0.5, 1.0]
    assert tf2.linspace(1.0, 2.0, 1).numpy().tolist() == [1.0]
    r = tf2.range(0.0, 1.0, 0.25)
    assert r.dtype == tf2.float32 and r.numpy().tolist() == [0.0, 0.25, 0.5, 0.75]
    assert tf2.range(1, 2.5, 0.5).numpy().tolist() == [1.0, 1.5, 2.0]
    assert tf2.range(3.0).dtype == tf2.float32


def test_float_range_graph_mode():
    r = tf.range(0.5, 2.0, 0.5)
    assert r.dtype == tf.float32 and r.shape.as_list() == [3]
    with tf.Session() as sess:
        assert sess.run(r).tolist() == [0.5, 1.0, 1.5]


def test_linspace_errors():
    with pytest.raises(TypeError, match="floating point"):
        tf.linspace(True, False, 3)
    with tf.Graph().as_default():       # integer ends are computed in float64, as in TF 2.21
        assert tf.linspace(0, 10, 3).dtype == tf.float64
    with pytest.raises(ValueError, match="num must be >= 0"):
        tf.linspace(0.0, 1.0, -1)
    with pytest.raises(ValueError, match="axis 2 is out of range"):
        tf.linspace([0.0], [1.0], 3, axis=2)


def _linspace_fn(start, stop):
    return tf.linspace(start, stop, 4, axis=1) * tf.linspace(start, stop, 4, axis=1)


@pytest.mark.parametrize("mode", ["graph", "eager"])
def test_linspace_gradients(mode):
    if mode == "eager":
        tf.enable_v2_behavior()
    inputs = [np.array([0.3, -1.2]), np.array([1.7, 0.4])]
    check_gradients(_linspace_fn, inputs, order=2, mode=mode)


def test_versions():
    assert tf2.__version__ == flowgrad.__version__ == tf2.version.VERSION == "2.21.0"
    assert tf.__version__ == tf.VERSION == tf.version.VERSION == tf2.__version__
    assert tf2.__version__ >= "2.0"                    # what real programs check
    assert int(tf2.__version__.split(".")[0]) == 2
    from importlib import metadata
    assert tf2.version.FLOWGRAD_VERSION == metadata.version("flowgrad")
    assert tf2.version.FLOWGRAD_VERSION != tf2.version.VERSION
    packaging = pytest.importorskip("packaging.version")
    assert packaging.Version(tf2.__version__) >= packaging.Version("2.4")
    assert packaging.Version(tf2.__version__) < packaging.Version("3")

