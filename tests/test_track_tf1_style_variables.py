"""``tf.compat.v1.keras.utils.track_tf1_style_variables`` (Keras 2's modeling shim; TF 2.16+
dropped it) on a Keras 3 layer and a ``tf.Module``: variables made once and reused, tracked
as the layer's weights, their regularization losses, outputs and gradients as tf_keras 2.21
gave them (tools/tf_reference/track_tf1_style_variables.py, recorded in
tests/data/track_tf1_style_variables/)."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

import flowgrad
import flowgrad.compat.v1 as v1

sys.path.insert(0, str(Path(__file__).resolve().parent))
from tf_reference_program import load  # noqa: E402

PROGRAM, RECORD = load("track_tf1_style_variables.py",
                       "track_tf1_style_variables/tf_keras_2_21.json")


@pytest.fixture(autouse=True)
def eager():
    v1.enable_v2_behavior()     # the graph_mode fixture restores graph mode afterwards
    yield


@pytest.mark.skipif(importlib.util.find_spec("keras") is None,
                    reason="tf.keras needs the keras extra")
def test_the_shim_gives_what_keras_2s_gave():
    got = PROGRAM.program(flowgrad, v1.keras.utils.track_tf1_style_variables)
    assert got.keys() == RECORD.keys()
    for key, want in RECORD.items():
        if key == "gradients":
            assert len(got[key]) == len(want)
            for g, w in zip(got[key], want):
                np.testing.assert_allclose(g, w, atol=2e-5, err_msg=key)
        elif key in ("layer", "losses"):
            np.testing.assert_allclose(got[key], want, atol=2e-5, err_msg=key)
        else:
            assert got[key] == want, key


def test_a_module_keeps_one_variable_per_name_across_calls():
    class Scale(flowgrad.Module):
        @v1.keras.utils.track_tf1_style_variables
        def __call__(self, x):
            with v1.variable_scope("scale"):
                w = v1.get_variable("w", [], initializer=v1.constant_initializer(3.0))
            return x * w

    m = Scale()
    assert float(m(flowgrad.constant(2.0))) == 6.0
    m.trainable_variables[0].assign(4.0)
    assert float(m(flowgrad.constant(2.0))) == 8.0
    assert [v.name for v in m.trainable_variables] == ["scale/w:0"]


def test_an_object_that_tracks_no_variables_is_a_value_error():
    class Plain:
        @v1.keras.utils.track_tf1_style_variables
        def __call__(self, x):
            return x

    with pytest.raises(ValueError, match="tf.Module"):
        Plain()(1.0)


@pytest.mark.skipif(importlib.util.find_spec("keras") is None,
                    reason="tf.keras needs the keras extra")
def test_fit_trains_the_variables_the_shim_made():
    class DenseLayer(flowgrad.keras.layers.Layer):
        @v1.keras.utils.track_tf1_style_variables
        def call(self, inputs):
            with v1.variable_scope("dense"):
                kernel = v1.get_variable("kernel", [inputs.shape[-1], 1])
                bias = v1.get_variable("bias", [1], initializer=v1.zeros_initializer())
            return flowgrad.matmul(inputs, kernel) + bias

    model = flowgrad.keras.Sequential([flowgrad.keras.Input((3,)), DenseLayer()])
    model.compile("sgd", "mse")
    x = np.random.default_rng(0).random((32, 3)).astype("float32")
    history = model.fit(x, x.sum(1, keepdims=True), epochs=5, verbose=0)
    assert len(model.trainable_weights) == 2
    assert history.history["loss"][-1] < history.history["loss"][0]
