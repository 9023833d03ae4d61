"""tf.keras.backend: global settings and the helpers common programs call."""
import numpy as np
import pytest

import flowgrad as tf
import flowgrad.compat.v1 as tf1
from flowgrad.keras import backend as K


@pytest.fixture(autouse=True)
def restore_settings():
    saved = (K.floatx(), K.epsilon(), K.image_data_format())
    yield
    K.set_floatx(saved[0])
    K.set_epsilon(saved[1])
    K.set_image_data_format(saved[2])


def test_defaults_and_setters():
    assert tf.keras.backend is K
    assert (K.floatx(), K.epsilon(), K.image_data_format(), K.backend()) == (
        "float32", 1e-7, "channels_last", "tensorflow")
    K.set_floatx("float64")
    K.set_epsilon(1e-5)
    K.set_image_data_format("channels_first")
    assert (K.floatx(), K.epsilon(), K.image_data_format()) == ("float64", 1e-5,
                                                                 "channels_first")
    assert K.cast_to_floatx([1, 2]).dtype == np.float64
    assert K.standardize_dtype(None) == "float64" and K.standardize_dtype(tf.int32) == "int32"
    with pytest.raises(ValueError, match="Unknown `floatx`"):
        K.set_floatx("float8")
    with pytest.raises(ValueError, match="data_format"):
        K.set_image_data_format("nhwc")


def test_int_shape_of_tensors_placeholders_and_variables():
    x = tf1.placeholder(tf1.float32, [None, 3])
    assert K.int_shape(x) == (None, 3)
    assert K.int_shape(tf1.placeholder(tf1.float32)) is None
    tf1.enable_v2_behavior()
    assert K.int_shape(tf.zeros([2, 5])) == (2, 5)
    assert K.int_shape(tf.Variable(np.ones((4,)))) == (4,)
    assert K.int_shape(np.ones((1, 2))) == (1, 2)
    assert K.is_float_dtype("float16") and K.is_int_dtype(tf.int64)


def test_clear_session_resets_the_graph_and_runs_callbacks():
    """The TF1 face's Keras: its clear_session hooks (on_clear_session is its own)."""
    legacy = tf1.keras.backend
    calls = []
    legacy.on_clear_session(lambda: calls.append(1))
    g = tf1.get_default_graph()
    tf1.constant(1.0)
    legacy.clear_session()
    assert tf1.get_default_graph() is not g and not tf1.get_default_graph().get_operations()
    assert calls == [1]
    legacy._clear_session_callbacks.pop()
