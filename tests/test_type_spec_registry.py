"""``tensorflow.python.framework.type_spec_registry`` names TensorSpec, SparseTensorSpec,
RaggedTensorSpec and NoneTensorSpec as TensorFlow 2.21 does, and their ``_serialize()`` /
``_deserialize`` round-trip as TensorFlow's (what Keras 3's legacy JSON encoder writes a
TypeSpec with); recorded by tools/tf_reference/type_spec_registry.py."""
import pytest

import flowgrad as tf
from flowgrad import dropin
from flowgrad.framework import composite_tensor

from tf_reference_program import flowgrad_stdout, recorded_text


def test_names_and_serializations_are_tensorflows():
    assert flowgrad_stdout("type_spec_registry.py") == \
        recorded_text("keras_suite/type_spec_registry.txt")


def test_keras_legacy_json_round_trips_a_tensor_spec():
    if not dropin.real_keras_available():
        pytest.skip("needs the keras extra: pip install flowgrad[keras]")
    tf.keras      # noqa: B018 - the real Keras 3, on flowgrad as its TensorFlow
    from keras.src.legacy.saving import json_utils
    spec = tf.TensorSpec((1, 5), tf.float32, name="x")
    assert json_utils.decode(json_utils.Encoder().encode(spec)) == spec


def test_an_unregistered_spec_has_no_name():
    class Unnamed(composite_tensor.TypeSpec):
        pass
    with pytest.raises(ValueError, match="has not been registered"):
        composite_tensor.get_name(Unnamed)
    with pytest.raises(NotImplementedError):
        Unnamed()._serialize()
