"""``Dataset.from_generator`` with a ``tf.OptionalSpec`` or another composite spec in its
``output_signature``, and ``tf.OptionalSpec`` itself, as TensorFlow 2.21's: Keras 3's
generator adapter gives a missing optional model input (``None``) the spec
``tf.OptionalSpec(None)``, so ``fit`` on a Python generator of a model with an optional input
needs them (tools/tf_reference/optional_generator.py recorded TensorFlow's output)."""
import pytest

import flowgrad as tf
import flowgrad.compat.v1 as tf1

from tf_reference_program import flowgrad_stdout, recorded_text


@pytest.fixture(autouse=True)
def eager_mode():
    tf1.enable_v2_behavior()            # conftest starts every test in graph mode


def test_optional_and_sparse_generators_as_tensorflow():
    assert flowgrad_stdout("optional_generator.py") == \
        recorded_text("keras_suite/optional_generator.txt")


def test_optional_spec_is_a_type_spec_of_its_value():
    spec = tf.OptionalSpec(tf.TensorSpec([2], tf.int32))
    assert isinstance(spec, tf.TypeSpec) and tf.compat.v1.OptionalSpec is tf.OptionalSpec
    assert spec.element_spec == tf.TensorSpec([2], tf.int32)
    assert repr(tf.OptionalSpec(None)) == "OptionalSpec(None,)"


def test_a_generator_yielding_something_else_is_refused():
    def gen():
        yield 3
    ds = tf.data.Dataset.from_generator(gen, output_signature=tf.OptionalSpec(None))
    # TensorFlow 2.21's error and message
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"`generator` yielded an element "
                       r"of TensorSpec\(shape=\(\), dtype=tf.int32, name=None\) where an "
                       r"element of OptionalSpec\(None,\) was expected"):
        list(ds)
