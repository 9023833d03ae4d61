"""Each face shows TensorFlow's names: dir(flowgrad) against TF 2's API (tests/tf2_names.py),
dir(flowgrad.compat.v1) against TF 1's (tests/tf1_names.py)."""
from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys
import types
from pathlib import Path


import flowgrad
import flowgrad.compat.v1 as v1
from flowgrad.api.exports import EXTENSIONS

sys.path.insert(0, str(Path(__file__).resolve().parent))
from tf1_names import (TF1_FLOWGRAD_EXTENSIONS, TF1_LATER, TF1_TF115_CONTRIB,  # noqa: E402
                       TF1_TOP_LEVEL)
from compat_v1_names import tensorflow_namespaces  # noqa: E402
from tf2_names import (TF1_ONLY_TOP_LEVEL, TF1_ONLY_TRAIN, TF2_SUMMARY,  # noqa: E402
                       TF2_TOP_LEVEL, TF2_TRAIN, TF215_REMOVED)


def _public(names) -> set:
    return {n for n in names if not n.startswith("_")}


def test_tf2_face_shows_only_tensorflow_2_names_and_listed_extensions():
    extra = _public(dir(flowgrad)) - TF2_TOP_LEVEL - EXTENSIONS - TF215_REMOVED
    assert not extra, "not TensorFlow 2 names: %s" % sorted(extra)
    assert set(flowgrad.__all__) <= TF2_TOP_LEVEL | EXTENSIONS | TF215_REMOVED
    for name in ("GradientTape", "function", "Variable", "gradients", "keras", "nn", "math",
                 "train", "summary", "explain_gradient", "debug"):
        assert name in dir(flowgrad), name
    assert EXTENSIONS <= set(dir(flowgrad)) | {"datasets", "safe_norm"}


def test_tf1_face_shows_only_tensorflow_1_names_and_listed_extensions():
    extra = (_public(dir(v1)) - set(TF1_TOP_LEVEL) - set(TF1_LATER) - set(TF1_FLOWGRAD_EXTENSIONS)
             - TF215_REMOVED)
    extra -= set(TF1_TF115_CONTRIB)     # TF 1.15's tf.contrib, allowed in the TF1 face only
    extra -= set(tensorflow_namespaces()["tf.compat.v1"])   # TF 2.21's tf.compat.v1 names
    assert not extra, "not TensorFlow 1 names: %s" % sorted(extra)
    assert set(TF1_FLOWGRAD_EXTENSIONS) <= set(dir(v1))
    for name in ("placeholder", "Session", "get_variable", "variable_scope", "train", "nn",
                 "disable_v2_behavior", "enable_tensor_equality", "div_no_nan", "log"):
        assert name in dir(v1), name
    # helpers the star imports bring in, and flowgrad's internals, stay out of the face
    for name in ("np", "Any", "annotations", "builtins", "flowgrad", "state", "sum_to",
                 "RefVariable", "float32_ref"):
        assert not hasattr(v1, name), name
    # TF 1 has these in tf.math only
    for name in ("divide_no_nan", "reduce_std", "reduce_variance", "reduce_euclidean_norm"):
        assert not hasattr(v1, name) and callable(getattr(v1.math, name)), name


def test_tf115_contrib_is_in_the_tf1_face_only():
    for name in TF1_TF115_CONTRIB:
        assert name in dir(v1) and isinstance(getattr(v1, name), types.ModuleType), name
        assert not hasattr(flowgrad, name) and name not in dir(flowgrad), name
        assert not hasattr(flowgrad.compat.v2, name), name


def test_tf1_only_names_are_not_in_the_tf2_face():
    for name in TF1_ONLY_TOP_LEVEL:
        assert not hasattr(flowgrad, name), name
    for name in ("np", "Any", "annotations"):
        assert not hasattr(flowgrad, name), name
    for name in ("placeholder", "to_float", "log", "Session", "get_variable"):
        assert hasattr(v1, name), name


def test_tf_gradients_is_the_function_and_no_module_shadows_it():
    v1.enable_v2_behavior()
    x = flowgrad.constant(3.0)

    @flowgrad.function
    def grad_of_square(x):
        return flowgrad.gradients(x * x, x)[0]

    assert callable(flowgrad.gradients) and float(grad_of_square(x)) == 6.0
    assert flowgrad.gradients is v1.gradients is flowgrad.autodiff.backprop.gradients
    # no module of the face's function names (gradients, function) sits in the package root
    root_modules = {m.name for m in pkgutil.iter_modules(flowgrad.__path__)}
    assert not {"gradients", "function"} & root_modules
    # importing the implementation modules in any order leaves the face's names alone
    code = ("import flowgrad.autodiff.backprop, flowgrad.runtime.function, flowgrad\n"
            "import flowgrad.compat.v1 as v1\n"
            "from flowgrad.autodiff.backprop import gradients\n"
            "assert flowgrad.gradients is gradients and v1.gradients is gradients\n"
            "assert flowgrad.function is flowgrad.runtime.function.function\n"
            "assert hasattr(v1.train, 'AdamOptimizer')\n"
            "assert not hasattr(flowgrad.train, 'AdamOptimizer')\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr


def test_train_and_summary_sub_namespaces():
    assert _public(dir(flowgrad.train)) <= TF2_TRAIN
    assert {"Checkpoint", "CheckpointManager", "latest_checkpoint"} <= set(dir(flowgrad.train))
    for name in TF1_ONLY_TRAIN:
        assert not hasattr(flowgrad.train, name), name
        assert hasattr(v1.train, name), name
    extra = _public(dir(flowgrad.summary)) - TF2_SUMMARY - {"histogram_gradients"}
    assert not extra, "not TensorFlow 2 tf.summary names: %s" % sorted(extra)
    assert {"scalar", "histogram", "create_file_writer"} <= set(dir(flowgrad.summary))


def test_implementation_modules_are_hidden_but_importable():
    assert not {"runtime", "framework", "ops"} & set(dir(flowgrad))
    for name in ("runtime.session", "runtime.plan", "autodiff.tape", "framework", "ops"):
        assert isinstance(importlib.import_module("flowgrad." + name), types.ModuleType)
    # tf.autodiff is the differentiation layer's package too: dir() shows TensorFlow's names
    assert set(dir(flowgrad.autodiff)) == {"ForwardAccumulator", "GradientTape"}
