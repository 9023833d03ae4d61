"""TensorFlow's internal module paths that programs import directly, served as views of the
faces: ``from tensorflow.python.framework import ops``, ``from tensorflow.python.ops import
math_ops``, ``from tensorflow.python.client import device_lib``,
``from tensorflow.python.platform import test``, ``from tensorflow.python.util import nest``...

Each path in :data:`ALIASES` lists the namespaces its names come from, searched in order
(TensorFlow's internal modules hold the functions its public namespaces export, with the
TF1 signatures); :data:`_EXTRAS` adds the names that exist only there (``device_lib``'s
``list_local_devices``, ``test_util``'s decorators, ``deprecation``'s). The
``gen_*_ops`` modules call the raw ops (``gen_nn_ops.relu(x)`` is ``tf.raw_ops.Relu(
features=x)``), and ``tensorflow.python.keras.*`` is ``tensorflow.keras.*``.
"""
from __future__ import annotations

import collections
import functools
import importlib
import re
import sys
import types
import unittest
from collections.abc import Callable
from typing import Any

from flowgrad.debug import timeline
from flowgrad.framework.v2_compat import v2_behavior_enabled
from flowgrad.testing import tf_test_util
from flowgrad.tf_internal.python.eager.context import eager_mode, graph_mode

#: Path (below ``tensorflow.``) -> the namespaces its names come from, in order: dotted
#: attribute paths of the TF1 face (``""`` is the face itself), or of the TF2 face when
#: they start with ``tf2:``.
_OPS = ("", "math", "nn", "linalg", "image", "random", "sparse", "strings", "bitwise",
        "signal", "io", "debugging", "tf2:dtypes", "tf2:math", "tf2:nn", "tf2:random")
ALIASES: dict[str, tuple[str, ...]] = {
    "python.framework.ops": ("",),
    "python.framework.dtypes": ("tf2:dtypes", "", "tf2:dtypes.experimental"),
    "python.framework.constant_op": ("",),
    "python.framework.tensor_shape": ("",),
    "python.framework.errors": ("errors",),
    "python.framework.errors_impl": ("tf2:errors", "errors"),
    "python.framework.random_seed": ("random", ""),
    "python.framework.graph_util": ("graph_util",),
    "python.framework.graph_io": ("io", "train"),
    "python.framework.importer": ("",),
    "python.framework.sparse_tensor": ("sparse", ""),
    "python.framework.indexed_slices": ("",),
    "python.framework.tensor_spec": ("",),
    "python.framework.test_util": ("test",),
    "python.ops.array_ops": _OPS,
    "python.ops.math_ops": _OPS,
    "python.ops.nn": ("nn",) + _OPS,
    "python.ops.nn_ops": ("nn",) + _OPS,
    "python.ops.nn_impl": ("nn",) + _OPS,
    "python.ops.init_ops": ("initializers", "keras.initializers") + _OPS,
    "python.ops.init_ops_v2": ("tf2:initializers",) + _OPS,
    "python.ops.variables": _OPS,
    "python.ops.resource_variable_ops": _OPS,
    "python.ops.variable_scope": _OPS,
    "python.ops.state_ops": _OPS,
    "python.ops.control_flow_ops": _OPS,
    "python.ops.control_flow_util": _OPS,
    "python.ops.functional_ops": _OPS,
    "python.ops.map_fn": _OPS,
    "python.ops.random_ops": ("random",) + _OPS,
    "python.ops.clip_ops": _OPS,
    "python.ops.check_ops": ("debugging",) + _OPS,
    "python.ops.string_ops": ("strings",) + _OPS,
    "python.ops.sparse_ops": ("sparse",) + _OPS,
    "python.ops.linalg_ops": ("linalg",) + _OPS,
    "python.ops.special_math_ops": _OPS,
    "python.ops.embedding_ops": ("nn",) + _OPS,
    "python.ops.image_ops": ("image",) + _OPS,
    "python.ops.io_ops": ("io",) + _OPS,
    "python.ops.parsing_ops": ("io",) + _OPS,
    "python.ops.logging_ops": _OPS,
    "python.ops.data_flow_ops": _OPS,
    "python.ops.tensor_array_ops": _OPS,
    "python.ops.script_ops": _OPS,
    "python.ops.gradients": _OPS,
    "python.ops.gradients_impl": _OPS,
    "python.ops.custom_gradient": _OPS,
    "python.ops.gradient_checker_v2": ("tf2:test",),
    "python.ops.gradient_checker": ("test",),
    "python.ops.metrics": ("metrics",),
    "python.ops.losses.losses": ("losses",),
    "python.ops.rnn": ("nn",) + _OPS,
    "python.ops.rnn_cell": ("nn.rnn_cell",),
    "python.ops.rnn_cell_impl": ("nn.rnn_cell",),
    "python.ops.partitioned_variables": _OPS,
    "python.ops.summary_ops_v2": ("tf2:summary",),
    "python.client.session": ("",),
    "python.client.timeline": (),
    "python.platform.gfile": ("gfile", "io.gfile"),
    "python.platform.test": ("test",),
    "python.platform.tf_logging": ("logging",),
    "python.platform.app": ("app",),
    "python.platform.flags": ("flags", "app.flags"),
    "python.util.nest": ("tf2:nest",),
    "python.util.compat": ("compat",),
    "python.util.deprecation": (),
    "python.training.training": ("train",),
    "python.training.training_util": ("train",),
    "python.training.moving_averages": ("train",),
    "python.training.optimizer": ("train",),
    "python.training.gradient_descent": ("train",),
    "python.training.adam": ("train",),
    "python.training.momentum": ("train",),
    "python.training.rmsprop": ("train",),
    "python.training.adagrad": ("train",),
    "python.training.saver": ("train",),
    "python.training.checkpoint_management": ("train",),
    "python.training.checkpoint_utils": ("train",),
    "python.training.coordinator": ("train",),
    "python.training.queue_runner": ("train",),
    "python.training.learning_rate_decay": ("train",),
    "python.training.session_run_hook": ("train",),
    "python.training.basic_session_run_hooks": ("train",),
    "python.training.monitored_session": ("train",),
    "python.training.supervisor": ("train",),
    "python.training.session_manager": ("train",),
    "python.summary.summary_iterator": ("train",),
    "python.saved_model.tag_constants": ("saved_model.tag_constants",),
    "python.saved_model.signature_constants": ("saved_model.signature_constants",),
    "python.saved_model.builder": ("saved_model.builder",),
    "python.saved_model.loader": ("saved_model.loader",),
    "python.saved_model.utils": ("saved_model.utils",),
    "python.saved_model.signature_def_utils": ("saved_model.signature_def_utils",),
    "python.saved_model.save": ("tf2:saved_model",),
    "python.saved_model.load": ("tf2:saved_model",),
    "python.summary.summary": ("summary",),
    "python.layers.core": ("layers",),
    "python.layers.layers": ("layers",),
    "python.layers.base": ("layers",),
    "python.lib.io.file_io": ("io.gfile", "gfile"),
    "python.lib.io.tf_record": ("io", "python_io"),
    "python.eager.backprop": ("tf2:",),
    "python.eager.def_function": ("tf2:",),
    "python.eager.function": ("tf2:",),
    "python.tools.inspect_checkpoint": (),
    "python.ops.resources": (),
    # modules TensorFlow's own tests import (tensorflow/python/kernel_tests/**)
    "python.ops.array_ops_stack": _OPS,
    "python.ops.while_loop": _OPS,
    "python.ops.cond": _OPS,
    "python.ops.cond_v2": _OPS,
    "python.ops.variable_v1": _OPS,
    "python.ops.ref_variable": _OPS,
    "python.ops.stateful_random_ops": ("random", "tf2:random") + _OPS,
    "python.ops.stateless_random_ops": ("random", "tf2:random") + _OPS,
    "python.ops.numerics": _OPS,
    "python.ops.sort_ops": _OPS,
    "python.ops.bitwise_ops": ("bitwise",) + _OPS,
    "python.ops.batch_ops": _OPS,
    "python.ops.sparse_grad": (),
    "python.ops.nn_grad": (),
    "python.ops.math_grad": (),
    "python.ops.array_grad": (),
    "python.ops.tensor_array_grad": (),
    "python.ops.image_grad": (),
    "python.ops.data_flow_grad": (),
    "python.ops.control_flow_grad": (),
    "python.ops.linalg_grad": (),
    "python.ops.random_grad": (),
    "python.ops.ragged.ragged_factory_ops": ("ragged",),
    "python.ops.ragged.ragged_tensor": ("ragged", "tf2:"),
    "python.ops.ragged.ragged_math_ops": ("ragged", "tf2:math") + _OPS,
    "python.ops.ragged.ragged_gather_ops": ("ragged",) + _OPS,
    "python.ops.ragged.ragged_concat_ops": ("ragged",) + _OPS,
    "python.ops.ragged.ragged_string_ops": ("ragged", "strings") + _OPS,
    "python.ops.ragged.ragged_array_ops": ("ragged",) + _OPS,
    "python.ops.ragged.ragged_functional_ops": ("ragged",),
    "python.ops.ragged.ragged_tensor_value": ("ragged",),
    "python.ops.ragged.row_partition": ("tf2:experimental",),
    "python.framework.tensor": ("",),
    "python.framework.tensor_conversion": ("",),
    "python.framework.function": ("",),
    "python.framework.test_ops": (),
    "python.platform.googletest": ("test",),
    "python.platform.benchmark": ("test",),
    "python.module.module": ("",),
}


# --------------------------------------------------------------------------------------
# Names that exist only in TensorFlow's internal modules

class DeviceAttributes:
    """What ``device_lib.list_local_devices()`` describes: one device of this process."""

    def __init__(self, name: str, device_type: str, memory_limit: int) -> None:
        self.name = name
        self.device_type = device_type
        self.memory_limit = memory_limit
        self.incarnation = 0
        self.physical_device_desc = ""
        self.xla_global_id = -1

    def __repr__(self) -> str:
        return ('name: "%s"\ndevice_type: "%s"\nmemory_limit: %d\nlocality {\n}\n'
                "incarnation: %d\nxla_global_id: %d\n"
                % (self.name, self.device_type, self.memory_limit, self.incarnation,
                   self.xla_global_id))

    __str__ = __repr__


def list_local_devices(session_config: Any = None) -> list:
    """The devices of this process: flowgrad computes on the CPU only.

    Args:
      session_config: accepted for TensorFlow's signature.

    Returns:
      One :class:`DeviceAttributes` per device (``/device:CPU:0``).
    """
    return [DeviceAttributes("/device:CPU:0", "CPU", 268435456)]


def _decorator(*args: Any, **kwargs: Any) -> Any:
    """A decorator (used bare or called with options) that changes nothing."""
    if len(args) == 1 and callable(args[0]) and not kwargs:
        return args[0]
    return lambda f: f


def _run_vn_only(func: Any = None, v2: bool = True, reason: str | None = None) -> Any:
    """TensorFlow's ``run_v1_only``/``run_v2_only``: a test method (or every test of a class,
    through its ``setUp``) is skipped unless TensorFlow 2 behaviour is ``v2``. As in
    TensorFlow, ``run_v1_only``'s first parameter is the reason: used bare, it takes the
    method for the reason and the test runs as a no-op that passes."""
    why = reason or "Test is only compatible with %s" % ("v2 " if v2 else "v1")

    def decorate(f: Any) -> Any:
        if isinstance(f, type):
            setup = next(c.__dict__["setUp"] for c in f.__mro__ if "setUp" in c.__dict__)
            f.setUp = decorate(setup)
            return f

        @functools.wraps(f)
        def run(self: Any, *args: Any, **kwargs: Any) -> Any:
            if v2_behavior_enabled() != v2:
                self.skipTest(why)
            return f(self, *args, **kwargs)
        return run
    return decorate if func is None else decorate(func)


def run_v1_only(reason: Any = None, func: Any = None) -> Any:
    """Runs the test only without TensorFlow 2 behaviour (``test_util.run_v1_only``).

    Args:
      reason: why (the skip message).
      func: the test method or class; a decorator is returned when None.

    Returns:
      The decorated test, or the decorator.
    """
    return _run_vn_only(func=func, v2=False, reason=reason)


def run_v2_only(func: Any = None, reason: str | None = None) -> Any:
    """Runs the test only with TensorFlow 2 behaviour (``test_util.run_v2_only``).

    Args:
      func: the test method or class; a decorator is returned when None.
      reason: why (the skip message).

    Returns:
      The decorated test, or the decorator.
    """
    return _run_vn_only(func=func, v2=True, reason=reason)


def _in_graph(f: Callable) -> Callable:
    """Runs the test method in graph mode, on a new default graph."""
    @functools.wraps(f)
    def run(self: Any, *args: Any, **kwargs: Any) -> Any:
        with graph_mode():
            return f(self, *args, **kwargs)
    return run


def run_deprecated_v1(func: Callable | None = None) -> Callable:
    """Runs a test in TF1 graph mode (``test_util.run_deprecated_v1``).

    Args:
      func: the test method (the decorator may also be called without it).

    Returns:
      The decorated test method.
    """
    return _in_graph if func is None else _in_graph(func)


def run_in_graph_and_eager_modes(func: Callable | None = None, config: Any = None,
                                 use_gpu: bool = True,
                                 assert_no_eager_garbage: bool = False) -> Callable:
    """Runs a test twice: in graph mode on a new graph, then eagerly.

    Args:
      func: the test method (the decorator may also be called with options only).
      config: accepted for TensorFlow's signature.
      use_gpu: accepted for TensorFlow's signature.
      assert_no_eager_garbage: accepted for TensorFlow's signature.

    Returns:
      The decorated test method.
    """
    def decorate(f: Callable) -> Callable:
        graph_run = _in_graph(f)

        @functools.wraps(f)
        def run(self: Any, *args: Any, **kwargs: Any) -> Any:
            graph_run(self, *args, **kwargs)
            if getattr(self, "_cached_session", None):      # the graph run's session
                self._cached_session.close()
                self._cached_session = None
            with eager_mode():
                return f(self, *args, **kwargs)
        return run
    return decorate if func is None else decorate(func)


def run_all_in_graph_and_eager_modes(cls: type) -> type:
    """Applies :func:`run_in_graph_and_eager_modes` to every ``test*`` method of ``cls``.

    Args:
      cls: a TestCase class.

    Returns:
      The class.
    """
    for name, value in list(vars(cls).items()):
        if name.startswith("test") and callable(value):
            setattr(cls, name, run_in_graph_and_eager_modes(value))
    return cls


def _skip_without_gpu(func: Callable | None = None) -> Any:
    def decorate(f: Callable) -> Callable:
        return unittest.skip("flowgrad has no GPU")(f)
    return decorate if func is None else decorate(func)


def print_tensors_in_checkpoint_file(file_name: str, tensor_name: str, all_tensors: bool,
                                     all_tensor_names: bool = False,
                                     count_exclude_pattern: str = "") -> None:
    """Prints the tensors of a checkpoint, as TensorFlow's ``inspect_checkpoint`` tool.

    Args:
      file_name: the checkpoint's prefix.
      tensor_name: the tensor to print when ``all_tensors`` is false ("" for none: then the
        names, dtypes and shapes are listed).
      all_tensors: print every tensor with its value.
      all_tensor_names: print every tensor's name.
      count_exclude_pattern: a regular expression of names left out of the count.
    """
    from flowgrad import train
    reader = train.load_checkpoint(file_name)
    shapes = reader.get_variable_to_shape_map()
    if all_tensors or all_tensor_names:
        for key in sorted(shapes):
            print("tensor_name: ", key)
            if all_tensors:
                print(reader.get_tensor(key))
    elif not tensor_name:       # TensorFlow's reader.debug_string()
        dtypes = reader.get_variable_to_dtype_map()
        names = {"float32": "FLOAT", "float64": "DOUBLE", "float16": "HALF"}
        print("".join("%s (DT_%s) [%s]\n" % (k, names.get(dtypes[k].name, dtypes[k].name.upper()),
                                              ",".join(str(d) for d in shapes[k]))
                      for k in sorted(shapes)))
    else:
        print("tensor_name: ", tensor_name)
        print(reader.get_tensor(tensor_name))
    if all_tensors:
        pattern = re.compile(count_exclude_pattern) if count_exclude_pattern else None
        total = 0
        for key, shape in shapes.items():
            if pattern is None or not pattern.search(key):
                n = 1
                for d in shape:
                    n *= d
                total += n
        print("# Total number of params: %d" % total)


#: One entry of the resources collections: a handle, the op that creates the resource and
#: a scalar bool tensor telling whether it is created (TensorFlow's ``resources._Resource``).
_Resource = collections.namedtuple("_Resource", ["handle", "create", "is_initialized"])


def register_resource(handle: Any, create_op: Any, is_initialized_op: Any,
                      is_shared: bool = True) -> None:
    """Adds a resource to the graph's ``resources`` collection (``local_resources`` when not
    shared), where :func:`shared_resources` finds it.

    Args:
      handle: the op (or tensor) giving the resource's handle.
      create_op: the op that creates (initializes) the resource.
      is_initialized_op: a scalar bool tensor, whether it is created.
      is_shared: shared or local resource.
    """
    from flowgrad.compat import v1
    key = v1.GraphKeys.RESOURCES if is_shared else v1.GraphKeys.LOCAL_RESOURCES
    v1.add_to_collection(key, _Resource(handle, create_op, is_initialized_op))


def shared_resources() -> list:
    """The resources of the default graph's ``resources`` collection.

    Returns:
      A list of ``(handle, create, is_initialized)`` tuples.
    """
    from flowgrad.compat import v1
    return v1.get_collection(v1.GraphKeys.RESOURCES)


def local_resources() -> list:
    """The resources of the default graph's ``local_resources`` collection.

    Returns:
      A list of ``(handle, create, is_initialized)`` tuples.
    """
    from flowgrad.compat import v1
    return v1.get_collection(v1.GraphKeys.LOCAL_RESOURCES)


def initialize_resources(resource_list: list, name: str = "init") -> Any:
    """One op that creates every resource of ``resource_list``.

    Args:
      resource_list: resources (as :func:`shared_resources` gives them).
      name: the op's name.

    Returns:
      A group of their create ops, or a NoOp when the list is empty.
    """
    from flowgrad.compat import v1
    if resource_list:
        return v1.group(*[r.create for r in resource_list], name=name)
    return v1.no_op(name=name)


def report_uninitialized_resources(resource_list: list | None = None,
                                   name: str = "report_uninitialized_resources") -> Any:
    """The names of the handles of the resources not created yet.

    Args:
      resource_list: resources to check (default: shared and local resources).
      name: the name scope of the ops.

    Returns:
      A 1-D string tensor (empty when all are created).
    """
    from flowgrad.compat import v1
    if resource_list is None:
        resource_list = shared_resources() + local_resources()
    with v1.name_scope(name):
        if not resource_list:
            return v1.constant([], dtype=v1.string)
        mask = v1.logical_not(v1.stack([r.is_initialized for r in resource_list]))
        names = v1.constant([r.handle.name for r in resource_list])
        return v1.boolean_mask(names, mask)


def max_error(grad1: Any, grad2: Any) -> float:
    """The largest elementwise difference of two lists of Jacobians (theoretical and
    numerical, as ``compute_gradient`` returns them).

    Args:
      grad1: a list of Jacobian arrays.
      grad2: a list of Jacobian arrays of the same shapes.

    Returns:
      The maximum absolute difference (0.0 for empty lists).
    """
    import numpy as np
    error = 0.0
    for a, b in zip(grad1, grad2):
        a, b = np.asarray(a), np.asarray(b)
        if a.size or b.size:
            error = max(error, float(np.max(np.abs(a - b))))
    return error


#: Names of :data:`_EXTRAS` given as a string are face attributes (a :data:`ALIASES` source
#: path and the attribute: ``"tf2:test.TestCase"``), looked up on first use.
_EXTRAS: dict[str, dict[str, Any]] = {
    "python.ops.gradient_checker_v2": {"max_error": max_error},
    "python.client.device_lib": {"list_local_devices": list_local_devices},
    "python.client.timeline": {"Timeline": timeline.Timeline,
                               "AllocationMaximum": timeline.AllocationMaximum,
                               "StepStatsAnalysis": timeline.StepStatsAnalysis},
    "python.tf2": {"enabled": v2_behavior_enabled},
    "python.framework.test_util": {
        "TensorFlowTestCase": "tf2:test.TestCase",
        "run_deprecated_v1": run_deprecated_v1, "run_v1_only": run_v1_only,
        "deprecated_graph_mode_only": run_deprecated_v1,
        "run_in_graph_and_eager_modes": run_in_graph_and_eager_modes,
        "run_all_in_graph_and_eager_modes": run_all_in_graph_and_eager_modes,
        "run_v2_only": run_v2_only, "disable_xla": _decorator, "xla_allow_fallback": _decorator,
        "disable_tfrt": _decorator, "run_without_tensor_float_32": _decorator,
        "with_eager_op_as_function": _decorator, "disable_cudnn_autotune": _decorator,
        "assert_no_new_pyobjects_executing_eagerly": _decorator,
        "assert_no_garbage_created": _decorator, "assert_no_new_tensors": _decorator,
        "run_gpu_only": _skip_without_gpu, "run_cuda_only": _skip_without_gpu,
        "is_gpu_available": lambda *a, **k: False, "gpu_device_name": lambda: "",
        "use_gpu": tf_test_util.use_gpu, "force_cpu": tf_test_util.force_cpu,
        "device": tf_test_util.device, "is_xla_enabled": tf_test_util.is_xla_enabled,
        "IsMklEnabled": tf_test_util.is_mkl_enabled,
        "GpuSupportsHalfMatMulAndConv": tf_test_util.gpu_supports_half_matmul_and_conv,
        "NHWCToNCHW": tf_test_util.nhwc_to_nchw, "NCHWToNHWC": tf_test_util.nchw_to_nhwc,
        "for_all_test_methods": tf_test_util.for_all_test_methods,
        "enable_control_flow_v2": tf_test_util.enable_control_flow_v2,
        "with_control_flow_v2": tf_test_util.with_control_flow_v2,
        "with_forward_compatibility_horizons":
            tf_test_util.with_forward_compatibility_horizons,
        "AbstractGradientTape": tf_test_util.AbstractGradientTape,
        "run_all_without_tensor_float_32": _decorator, "no_xla_auto_jit": _decorator,
        "set_xla_env_flag": _decorator,
    },
    "python.ops.array_ops": {"where_v2": "tf2:.where"},
    "python.ops.resource_variable_ops": {"ResourceVariable": "tf2:.Variable"},
    "python.ops.variable_v1": {"VariableV1": "Variable"},
    "python.ops.ref_variable": {"RefVariable": "Variable"},
    "python.platform.googletest": {"main": "tf2:test.main"},
    "python.framework.tensor": {"Tensor": "Tensor"},
    "python.util.deprecation": {
        "deprecated": _decorator, "deprecated_args": _decorator,
        "deprecated_arg_values": _decorator, "deprecated_endpoints": _decorator,
        "deprecated_alias": lambda deprecated_name, name, func_or_class, warn_once=True:
            func_or_class,
        "silence": lambda: __import__("contextlib").nullcontext(),
        "_PRINT_DEPRECATION_WARNINGS": True,
    },
    "python.tools.inspect_checkpoint": {
        "print_tensors_in_checkpoint_file": print_tensors_in_checkpoint_file},
    "python.ops.resources": {
        "register_resource": register_resource, "shared_resources": shared_resources,
        "local_resources": local_resources, "initialize_resources": initialize_resources,
        "report_uninitialized_resources": report_uninitialized_resources},
}


# --------------------------------------------------------------------------------------
# Building the modules

def _namespace(source: str) -> Any:
    """The face namespace ``source`` names (see :data:`ALIASES`), or None."""
    if source.startswith("tf2:"):
        obj: Any = sys.modules["flowgrad"]
        source = source[4:]
    else:
        obj = importlib.import_module("flowgrad.compat.v1")
    for part in filter(None, source.split(".")):
        obj = getattr(obj, part, None)
        if obj is None:
            return None
    return obj


def _lookup(path: str, name: str) -> Any:
    extras = _EXTRAS.get(path, {})
    if name in extras:
        value = extras[name]
        if isinstance(value, str):
            source, _, attr = value.rpartition(".")
            value = getattr(_namespace(source), attr)
        return value
    for source in ALIASES.get(path, ()):
        ns = _namespace(source)
        if ns is not None and hasattr(ns, name):
            return getattr(ns, name)
    if path.startswith("python.ops.") and path.endswith("_ops") and \
            _snake_to_op_type(name) is not None:
        return _gen_op(name)     # TensorFlow's x_ops modules import gen_x_ops' functions
    raise AttributeError("module 'tensorflow.%s' has no attribute %r (flowgrad serves this "
                         "TensorFlow-internal module from its public names)" % (path, name))


def _snake_to_op_type(name: str) -> str | None:
    """The raw op a ``gen_*_ops`` function name calls (``bias_add_grad`` -> BiasAddGrad)."""
    from flowgrad import raw_ops_api
    key = name.replace("_", "").lower()
    for op_type in dir(raw_ops_api):
        if op_type.lower() == key:
            return op_type
    return None


def _gen_op(name: str) -> Callable:
    from flowgrad import raw_ops_api
    from flowgrad.framework.registry import get_op_def
    op_type = _snake_to_op_type(name)
    if op_type is None:
        raise AttributeError("flowgrad has no raw op for gen_*_ops.%s" % name)
    raw = getattr(raw_ops_api, op_type)
    inputs = get_op_def(op_type).input_names

    def call(*args: Any, **kwargs: Any) -> Any:
        if len(args) > len(inputs):
            raise TypeError("%s() takes %d positional arguments (the op's inputs), got %d"
                            % (name, len(inputs), len(args)))
        kwargs.update(zip(inputs, args))
        return raw(**kwargs)
    call.__name__ = name
    call.__doc__ = "``tf.raw_ops.%s`` with its inputs also by position." % op_type
    return call


def make_module(path: str) -> types.ModuleType | None:
    """The module that serves ``tensorflow.<path>``, or None if flowgrad has none.

    Args:
      path: the dotted path below ``tensorflow.`` (``python.framework.ops``).

    Returns:
      A module (cached in ``sys.modules`` under ``flowgrad.tf_internal.<path>``), or None.
    """
    full = "flowgrad.tf_internal." + path
    if full in sys.modules:
        return sys.modules[full]
    leaf = path.rsplit(".", 1)[-1]
    is_gen = path.startswith("python.ops.gen_") and leaf.endswith("_ops")
    known = path in ALIASES or path in _EXTRAS or is_gen
    package = any(p.startswith(path + ".") for p in list(ALIASES) + list(_EXTRAS))
    if not (known or package):
        return None
    module = types.ModuleType(full, "``tensorflow.%s``: served by flowgrad (%s)."
                              % (path, __name__))
    module.__path__ = []      # every served module may be a parent
    if known:
        module.__dict__.update({k: v for k, v in _EXTRAS.get(path, {}).items()
                                if not isinstance(v, str)})
    module.__getattr__ = functools.partial(attribute, path)
    sys.modules[full] = module
    return module


def attribute(path: str, name: str) -> Any:
    """Attribute ``name`` of the served module ``tensorflow.<path>``: a served submodule, a
    raw op of a ``gen_*_ops`` module, or a name of the namespaces the path lists.

    Args:
      path: the dotted path below ``tensorflow.``.
      name: the attribute.

    Returns:
      The attribute's value.

    Raises:
      AttributeError: flowgrad has no such name there.
    """
    if name.startswith("__"):
        raise AttributeError(name)
    sub = make_module(path + "." + name)
    if sub is not None:
        return sub
    if path.startswith("python.ops.gen_") and path.endswith("_ops"):
        return _gen_op(name)
    return _lookup(path, name)
