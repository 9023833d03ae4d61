"""``tf.experimental.ExtensionType`` and ``tf.experimental.dispatch_for_*`` against TensorFlow
2.21: the program of tools/tf_reference/extension_type_reference.py (the TF guide's
MaskedTensor, Network, TensorGraph, a custom constructor, defaults, nested types; their reprs,
specs, errors, equality, tf.nest, tf.function with a Spec input_signature, and the dispatch
decorators) run with flowgrad as ``tf``, compared case by case with its recording
tests/data/dispatch/extension_type_tf_2_21.json."""
import pickle

import numpy as np
import pytest

import flowgrad as tf
from flowgrad.framework.context import state
from tf_reference_program import load

PROGRAM, REF = load("extension_type_reference.py", "dispatch/extension_type_tf_2_21.json")


@pytest.fixture(autouse=True)
def eager():
    state.eager = True
    yield
    state.eager = True


@pytest.fixture(scope="module")
def results():
    state.eager = True
    return {**PROGRAM.run(PROGRAM.extension_type_cases(tf)), **PROGRAM.dispatch_cases(tf),
            **PROGRAM.run(PROGRAM.none_tensor_cases(tf))}


def test_every_recorded_case_runs(results):
    assert sorted(results) == sorted(REF)


@pytest.mark.parametrize("case", sorted(REF))
def test_case_is_tensorflows(results, case):
    want = REF[case]
    if isinstance(want, list) and want[:1] == ["error"] and want[2] is None:  # traced: class
        assert results[case][:2] == REF[case][:2]
    else:
        assert results[case] == REF[case]


class MaskedTensor(tf.experimental.ExtensionType):
    values: tf.Tensor
    mask: tf.Tensor


def test_spec_pickles_and_hashes():
    spec = MaskedTensor([1.0], [True])._type_spec
    assert pickle.loads(pickle.dumps(spec)) == spec
    assert hash(spec) == hash(MaskedTensor.Spec(tf.TensorSpec([1], tf.float32),
                                                tf.TensorSpec([1], tf.bool)))


def test_components_round_trip():
    mt = MaskedTensor([1.0, 2.0], [True, False])
    spec = mt._type_spec
    back = spec._from_components(spec._to_components(mt))
    assert type(back) is MaskedTensor and back.values.numpy().tolist() == [1.0, 2.0]
    packed = tf.nest.pack_sequence_as(mt, [tf.constant([5.0, 6.0]), tf.constant([False, True])],
                                      expand_composites=True)
    assert packed.values.numpy().tolist() == [5.0, 6.0]
    with pytest.raises(ValueError, match="more components"):
        spec._from_components([1, 2, 3])


def test_function_retraces_per_spec_and_differentiates():
    traces = []

    @tf.function
    def total(m):
        traces.append(1)
        return tf.reduce_sum(tf.where(m.mask, m.values, 0.0))

    assert float(total(MaskedTensor([1.0, 2.0, 3.0], [True, False, True]))) == 4.0
    total(MaskedTensor([4.0, 5.0, 6.0], [True, True, True]))
    assert len(traces) == 1                     # same spec: one trace
    total(MaskedTensor([4.0], [True]))
    assert len(traces) == 2
    x = tf.Variable([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        y = total(MaskedTensor(x * 1.0, [True, False, True]))
    assert tape.gradient(y, x).numpy().tolist() == [1.0, 0.0, 1.0]


def test_signature_rejects_an_incompatible_value():
    @tf.function(input_signature=[MaskedTensor.Spec(tf.TensorSpec([None], tf.float32),
                                                    tf.TensorSpec([None], tf.bool))])
    def f(m):
        return m.values

    with pytest.raises(TypeError, match="Can not cast"):
        f(MaskedTensor([1, 2], [True, False]))       # int32 values


def test_batch_encoder_unbatches():
    class Vehicle(tf.experimental.BatchableExtensionType):
        speed: tf.Tensor
        name: str

    spec = Vehicle(tf.constant([1.0, 2.0]), "car")._type_spec
    batched = spec._batch(None)
    assert batched.speed.shape.as_list() == [None, 2]
    assert batched._unbatch() == spec
    assert isinstance(tf.experimental.ExtensionTypeBatchEncoder().encoding_specs(spec), tuple)


def test_user_spec_customization_and_registered_name():
    class Weighted(tf.experimental.ExtensionType):
        __name__ = "flowgrad_tests.Weighted"
        w: tf.Tensor

        class Spec:
            @property
            def rank(self):
                return self.w.shape.rank

    assert Weighted(np.ones((2, 3)))._type_spec.rank == 2
    from flowgrad.framework.composite_tensor import lookup
    assert lookup("flowgrad_tests.Weighted.Spec") is Weighted.Spec


def test_dispatch_on_list_parameter_and_graph_mode():
    @tf.experimental.dispatch_for_api(tf.concat, {"values": list[MaskedTensor]})
    def masked_concat(values, axis, name="concat"):
        return MaskedTensor(tf.concat([v.values for v in values], axis),
                            tf.concat([v.mask for v in values], axis))
    try:
        with tf.Graph().as_default():
            out = tf.concat([MaskedTensor([1], [True]), MaskedTensor([2], [False])], 0)
            assert isinstance(out, MaskedTensor)
            with tf.compat.v1.Session() as sess:
                assert sess.run(out.values).tolist() == [1, 2]
        assert tf.concat([tf.constant([1]), tf.constant([2])], 0).numpy().tolist() == [1, 2]
    finally:
        tf.experimental.unregister_dispatch_for(masked_concat)
