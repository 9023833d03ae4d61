"""Each face's sub-namespaces show TensorFlow's names there (issue 15).

``import flowgrad as tf``: tf.nn, tf.math, tf.linalg, tf.keras.layers, ... against TensorFlow 2's
API (tests/tf2_sub_names.py); ``import flowgrad.compat.v1 as tf``: tf.nn, tf.train, tf.layers, ...
against TensorFlow 1's (tests/tf1_sub_names.py). ``tf.keras`` of the TF2 face is the keras
package's own ``tf.keras`` (Keras 3, as in TensorFlow 2.16+), not checked against a golden list:
it must be that package's module and have the names programs use. Three rules:

1. every name a sub-namespace shows (``dir()``) is TensorFlow's name there, or one of the few
   flowgrad extensions listed below;
2. a TensorFlow name is the same kind of object as in TensorFlow (module, class, callable);
3. TensorFlow names flowgrad lacks are allowed -- except :data:`TF2_REQUIRED` /
   :data:`TF1_REQUIRED`, the names tutorials and common programs use.

``python tests/test_sub_namespaces.py`` prints, per namespace, how many of TensorFlow's names
flowgrad has and lacks. At the time of writing (has/lacks): TF2 face -- nn 44/46, math 88/44,
linalg 29/40, random 6/23, data 4/10, config 10/10, debugging 18/14, autodiff 2/0, train 7/20,
summary 11/6, saved_model 3/28, errors 18/17, dtypes 21/11, nest 4/1; TF1 face -- nn 56/57,
train 27/92, layers 23/14,
losses 16/1, math 88/44, linalg 30/37, random 8/24, data 9/9, summary 6/12, nn.rnn_cell 10/0,
errors 17/20.
"""
from __future__ import annotations

import importlib
import sys
import types
from pathlib import Path

import numpy as np
import pytest

import flowgrad
import flowgrad.compat.v1 as v1

sys.path.insert(0, str(Path(__file__).resolve().parent))
from tf1_sub_names import TF1_SUB_NAMESPACES  # noqa: E402
from tf2_sub_names import TF2_SUB_NAMESPACES  # noqa: E402

#: flowgrad's own additions a TF2 sub-namespace shows (opt-in improvements, docs/differences.md).
TF2_EXTENSIONS = {
    "summary": {"histogram_gradients"},  # histograms of a tape's gradients, one call
}

#: The same for the TF1 face.
TF1_EXTENSIONS = {
    "summary": {"histogram_gradients"},  # histograms of tf.gradients' results, one call
}

#: TF2 names tutorials and common programs use: these must exist.
TF2_REQUIRED = {
    "nn": """relu relu6 elu leaky_relu selu sigmoid tanh softmax log_softmax softplus
        softmax_cross_entropy_with_logits sparse_softmax_cross_entropy_with_logits
        sigmoid_cross_entropy_with_logits conv2d max_pool2d avg_pool2d dropout l2_loss bias_add
        moments batch_normalization embedding_lookup l2_normalize top_k""",
    "math": """reduce_logsumexp reduce_sum reduce_mean reduce_max reduce_min reduce_std
        reduce_variance log log1p exp sqrt square abs add subtract multiply divide divide_no_nan
        maximum minimum pow sigmoid tanh argmax argmin equal greater less softplus top_k
        is_nan is_finite cumsum""",
    "linalg": """matmul inv det eye norm cholesky solve diag diag_part trace matrix_transpose
        einsum svd qr""",
    "random": "normal uniform truncated_normal set_seed shuffle categorical",
    "data": "Dataset AUTOTUNE",
    "config": "experimental list_physical_devices",
    "debugging": "check_numerics enable_check_numerics assert_equal",
    "autodiff": "ForwardAccumulator GradientTape",
    "train": "Checkpoint CheckpointManager latest_checkpoint",
    "summary": "create_file_writer scalar histogram",
    "saved_model": "save load",
    "errors": "InvalidArgumentError OutOfRangeError NotFoundError OpError",
    "dtypes": "DType as_dtype float32 int32",
    "image": """resize ResizeMethod resize_with_pad resize_with_crop_or_pad flip_left_right
        random_flip_left_right rot90 central_crop adjust_brightness adjust_contrast
        adjust_saturation adjust_hue rgb_to_grayscale convert_image_dtype
        per_image_standardization random_brightness random_contrast random_crop ssim psnr""",
    "nest": "flatten map_structure pack_sequence_as",
    "io": """gfile read_file write_file TFRecordWriter TFRecordOptions FixedLenFeature
        VarLenFeature FixedLenSequenceFeature parse_example parse_single_example
        serialize_tensor parse_tensor decode_csv decode_raw matching_files""",
    "io.gfile": "GFile exists glob makedirs mkdir listdir remove rmtree isdir walk",
    "strings": """split join reduce_join regex_replace regex_full_match to_number as_string
        length substr lower upper strip format unicode_split unicode_decode bytes_split""",
    "sparse": "SparseTensor to_dense from_dense",
    "ragged": "constant",
}

#: tf.keras names tutorials and common programs use: the real Keras 3's ``tf.keras`` has them.
TF2_KERAS_REQUIRED = {
    "": "Sequential Model Input layers losses optimizers metrics activations initializers",
    "layers": """Dense Conv2D Flatten Dropout MaxPooling2D Input Layer BatchNormalization LSTM
        Embedding Activation ReLU""",
    "losses": """MeanSquaredError SparseCategoricalCrossentropy CategoricalCrossentropy
        BinaryCrossentropy mse get""",
    "optimizers": "SGD Adam RMSprop Optimizer get",
    "metrics": "Mean Accuracy SparseCategoricalAccuracy CategoricalAccuracy",
    "activations": "relu softmax sigmoid tanh get",
    "initializers": "GlorotUniform Zeros Ones RandomNormal get",
}

#: TF1 names tutorials and common programs use: these must exist.
TF1_REQUIRED = {
    "nn": """relu softmax sigmoid tanh softmax_cross_entropy_with_logits_v2
        softmax_cross_entropy_with_logits sparse_softmax_cross_entropy_with_logits
        sigmoid_cross_entropy_with_logits conv2d max_pool dropout l2_loss bias_add dynamic_rnn
        rnn_cell embedding_lookup""",
    "train": """AdamOptimizer GradientDescentOptimizer MomentumOptimizer Optimizer Saver
        get_or_create_global_step exponential_decay""",
    "layers": "dense conv2d Dense dropout max_pooling2d flatten batch_normalization",
    "losses": """mean_squared_error softmax_cross_entropy sparse_softmax_cross_entropy
        get_total_loss""",
    "math": "reduce_logsumexp log exp reduce_sum",
    "linalg": "matmul inv",
    "random": "normal uniform set_random_seed",
    "data": "Dataset make_one_shot_iterator",
    "summary": "FileWriter scalar histogram merge_all",
    "nn.rnn_cell": "BasicLSTMCell LSTMCell GRUCell MultiRNNCell BasicRNNCell",
    "errors": "OutOfRangeError InvalidArgumentError",
    "io": "read_file TFRecordWriter tf_record_iterator FixedLenFeature parse_single_example",
    "python_io": "TFRecordWriter tf_record_iterator",
    "gfile": "GFile Exists Glob MakeDirs ListDirectory Remove",
}


def _by_kind(table: dict) -> dict:
    return {ns: {kind: frozenset(text.split()) for kind, text in kinds.items()}
            for ns, kinds in table.items()}


TF2 = _by_kind(TF2_SUB_NAMESPACES)
TF1 = _by_kind(TF1_SUB_NAMESPACES)
FACES = {"tf2": (flowgrad, TF2, TF2_EXTENSIONS, TF2_REQUIRED),
         "tf1": (v1, TF1, TF1_EXTENSIONS, TF1_REQUIRED)}
CASES = [(face, ns) for face in ("tf2", "tf1") for ns in FACES[face][1]]


def _namespace(face: str, ns: str):
    module = FACES[face][0]
    for part in ns.split("."):
        module = getattr(module, part)
    return module


def _public(module) -> set:
    return {n for n in dir(module) if not n.startswith("_")}


def _tf_names(face: str, ns: str) -> set:
    return set().union(*FACES[face][1][ns].values())


def _kind_ok(kind: str, value) -> bool:
    if kind == "module":
        return isinstance(value, types.ModuleType)
    if isinstance(value, types.ModuleType):
        return False
    if kind == "class":
        return isinstance(value, type)
    if kind == "function":
        return callable(value)
    return True


@pytest.mark.parametrize("face,ns", CASES)
def test_sub_namespace_is_a_module_showing_only_tensorflow_names(face, ns):
    module = _namespace(face, ns)
    assert isinstance(module, types.ModuleType), "tf.%s is %r" % (ns, module)
    extra = _public(module) - _tf_names(face, ns) - FACES[face][2].get(ns, set())
    assert not extra, "not TensorFlow's tf.%s names (%s face): %s" % (ns, face, sorted(extra))
    if hasattr(module, "__all__"):
        assert set(module.__all__) <= _public(module), sorted(set(module.__all__) - _public(module))


@pytest.mark.parametrize("face,ns", CASES)
def test_tensorflow_names_are_the_kind_tensorflow_has(face, ns):
    wrong = []
    for kind, names in FACES[face][1][ns].items():
        for name in sorted(names & _public(_namespace(face, ns))):
            value = getattr(_namespace(face, ns), name)
            if not _kind_ok(kind, value):
                wrong.append("%s (TF: %s, flowgrad: %s)" % (name, kind, type(value).__name__))
    assert not wrong, "tf.%s (%s face): %s" % (ns, face, wrong)


@pytest.mark.parametrize("face,ns", CASES)
def test_names_common_programs_use_exist(face, ns):
    required = set(FACES[face][3].get(ns, "").split())
    assert required <= _tf_names(face, ns), sorted(required - _tf_names(face, ns))
    module = _namespace(face, ns)
    missing = sorted(n for n in required if n not in _public(module))
    assert not missing, "tf.%s (%s face) lacks %s" % (ns, face, missing)


def test_every_listed_extension_exists():
    for face, (_, _, extensions, _) in FACES.items():
        for ns, names in extensions.items():
            assert names <= _public(_namespace(face, ns)), (face, ns)
            assert not names & _tf_names(face, ns), (face, ns)


def test_hidden_modules_and_helpers_stay_importable():
    """Leaving a name out of dir() does not break the code that imports it."""
    for name in ("flowgrad.data.dataset_ops", "flowgrad.legacy_keras.layers.core",
                 "flowgrad.train.adam", "flowgrad.layers.core", "flowgrad.losses.losses_impl",
                 "flowgrad.ops.random_ops"):
        assert isinstance(importlib.import_module(name), types.ModuleType), name
    assert "LossFunctionWrapper" not in dir(v1.keras.losses)
    assert v1.keras.losses.LossFunctionWrapper is not None
    assert "get_memory_growth" in dir(flowgrad.config.experimental)


def test_added_names_are_tensorflows_aliases_of_flowgrad_functions():
    nn, math, linalg, keras = flowgrad.nn, flowgrad.math, flowgrad.linalg, flowgrad.keras
    assert math.l2_normalize is linalg.l2_normalize is nn.l2_normalize
    assert math.zero_fraction is nn.zero_fraction
    assert linalg.global_norm is v1.global_norm is v1.linalg.global_norm
    assert v1.math.invert_permutation is math.invert_permutation is v1.invert_permutation
    assert v1.linalg.transpose is v1.linalg.matrix_transpose is linalg.matrix_transpose
    assert keras.layers.GlobalAvgPool2D is keras.layers.GlobalAveragePooling2D
    assert keras.metrics.mse is keras.metrics.MSE is keras.losses.mse
    assert keras.metrics.mae is keras.losses.mae
    assert keras.metrics.sparse_categorical_crossentropy is \
        keras.losses.sparse_categorical_crossentropy
    assert v1.nn.avg_pool_v2 is nn.avg_pool and v1.nn.max_pool_v2 is nn.max_pool
    assert v1.nn.depthwise_conv2d_native_backprop_filter is nn.depthwise_conv2d_backprop_filter
    assert v1.nn.depthwise_conv2d_native_backprop_input is nn.depthwise_conv2d_backprop_input
    assert v1.train.piecewise_constant_decay is v1.train.piecewise_constant
    assert flowgrad.dtypes.float32 is flowgrad.float32 and flowgrad.dtypes.cast is flowgrad.cast
    assert flowgrad.dtypes.as_dtype("int32") is flowgrad.dtypes.int32


@pytest.mark.parametrize("ns", sorted(TF2_KERAS_REQUIRED))
def test_tf_keras_is_the_keras_packages_with_the_names_programs_use(ns):
    pytest.importorskip("keras", reason="tf.keras needs the keras extra")
    real = importlib.import_module("keras._tf_keras.keras")
    module, theirs = flowgrad.keras, real
    for part in filter(None, ns.split(".")):
        module, theirs = getattr(module, part), getattr(theirs, part)
    assert module is theirs
    missing = sorted(n for n in TF2_KERAS_REQUIRED[ns].split() if not hasattr(module, n))
    assert not missing, "tf.keras.%s lacks %s" % (ns, missing)


def test_tf1_linalg_transpose_swaps_the_last_two_axes():
    v1.enable_v2_behavior()  # the graph_mode fixture restores graph mode afterwards
    x = np.arange(24.0).reshape(2, 3, 4)
    np.testing.assert_array_equal(v1.linalg.transpose(x).numpy(), x.transpose(0, 2, 1))
    np.testing.assert_array_equal(flowgrad.math.invert_permutation([2, 0, 1]).numpy(), [1, 2, 0])


def test_tf1_only_names_left_the_tf2_sub_namespaces():
    for module, name in ((flowgrad.random, "set_random_seed"), (flowgrad.random, "multinomial"),
                         (flowgrad.data, "make_one_shot_iterator"),
                         (flowgrad.nn, "softmax_cross_entropy_with_logits_v2"),
                         (flowgrad.nn, "conv2d_backprop_input"), (flowgrad.train, "Saver")):
        assert not hasattr(module, name), name
    assert callable(v1.random.set_random_seed) and callable(v1.data.make_one_shot_iterator)
    assert not hasattr(v1.random, "set_seed")
    assert not hasattr(v1.errors, "OperatorNotAllowedInGraphError")
    assert issubclass(flowgrad.errors.OperatorNotAllowedInGraphError, TypeError)


def coverage() -> list:
    """(face, namespace, TF names flowgrad has, TF names it lacks), per namespace."""
    rows = []
    for face, ns in CASES:
        tf_names = _tf_names(face, ns)
        have = len(tf_names & _public(_namespace(face, ns)))
        rows.append((face, ns, have, len(tf_names) - have))
    return rows


if __name__ == "__main__":
    print("%-4s %-20s %5s %6s" % ("face", "namespace", "has", "lacks"))
    for row in coverage():
        print("%-4s %-20s %5d %6d" % row)
