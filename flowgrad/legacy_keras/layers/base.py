"""``keras.layers.Layer``: weights, build-on-first-call, input checks, symbolic (functional) calls.

A Layer is a ``tf.Module`` (so ``tf.train.Checkpoint`` and ``submodules`` see it) that
keeps Keras's own ordered state: its weights in creation order (``add_weight``) and its
sub-layers in assignment order, which fix the order of ``weights``/``get_weights``.

Weights are Keras 3 variables: ``v.name`` is the short name (``'kernel'``) and
``v.path`` the layer path (``'sequential/dense/kernel'``); they are eager
``tf.Variable``s (created outside any tf.function trace). In a TF1 graph
(``flowgrad.compat.v1`` with v2 behaviour disabled) ``add_weight`` makes graph
variables instead, named ``dense/kernel:0`` as TF1's tf.keras did.

Calling a layer on ``keras.Input`` tensors (KerasTensors) runs it symbolically: the
layer is built from the static shapes and its output shapes come from tracing
``call`` into a scratch tf.function graph; the call is recorded as a Node from which
``keras.Model(inputs, outputs)`` rebuilds the computation."""
from __future__ import annotations

import collections
import contextlib
import functools
import inspect
import re
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from flowgrad import nest
from flowgrad.autograph import maybe_convert
from flowgrad.framework import dtypes
from flowgrad.framework.context import executing_eagerly
from flowgrad.framework.graph import get_default_graph
from flowgrad.framework.tensor import EagerTensor, TensorBase, convert_to_tensor
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.runtime.function import FuncGraph, init_scope
from flowgrad.module import Module, valid_identifier
from flowgrad.ops.array_ops import placeholder
from flowgrad.ops.math_ops import cast
from flowgrad.ops.state_ops import EagerVariable, Variable
from flowgrad.framework.type_hints import DTypeLike, ShapeLike

# --------------------------------------------------------------------------------------
# Names and paths

_uids: collections.defaultdict = collections.defaultdict(int)


def to_snake_case(name: str) -> str:
    """'BatchNormalization' -> 'batch_normalization', 'Conv2D' -> 'conv2d' (Keras's rule)."""
    name = re.sub(r"\W+", "", name)
    name = re.sub("(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub("([a-z])([A-Z])", r"\1_\2", name).lower()


def uniquify(name: str) -> str:
    """``name`` the first time, then ``name_1``, ``name_2``, ... (one counter per name)."""
    unique = name if name not in _uids else "%s_%d" % (name, _uids[name])
    _uids[name] += 1
    return unique


def auto_name(prefix: str) -> str:
    """The automatic name of a new object of class ``prefix`` ('dense', 'dense_1', ...)."""
    return uniquify(to_snake_case(prefix))


def reset_uids() -> None:
    """Restarts automatic naming (``keras.backend.clear_session`` does this)."""
    _uids.clear()


_scope_stack: list = []        # [(name, caller)] of the Keras name scopes entered


def current_path() -> str:
    """The '/'-joined names of the Keras name scopes entered (a new weight's parent path)."""
    return "/".join(name for name, _ in _scope_stack)


def _marking_built(build: Callable) -> Callable:
    """``build`` run in the layer's name scope and marking it built, as Keras 3 wraps every
    layer's build: a layer built by hand (``layer.build(shape)``) is not built again."""
    @functools.wraps(build)
    def build_and_mark(self: Layer, *args: Any, **kwargs: Any) -> None:
        with _keras_scope(self):
            build(self, *args, **kwargs)
        self.built = True
    build_and_mark._marks_built = True
    return build_and_mark


@contextlib.contextmanager
def _keras_scope(layer: Layer) -> Iterator[None]:
    """Enters ``layer``'s name scope (paths of its weights); re-entering by itself is a no-op."""
    if _scope_stack and _scope_stack[-1][1] is layer:
        yield
        return
    if layer._parent_path is None:
        layer._parent_path = current_path()
    saved = list(_scope_stack)
    _scope_stack[:] = [(p, None) for p in layer._parent_path.split("/") if p]
    _scope_stack.append((layer.name, layer))
    try:
        yield
    finally:
        _scope_stack[:] = saved


# --------------------------------------------------------------------------------------
# Weights


class KerasVariable(EagerVariable):
    """A layer weight: an eager variable with Keras 3's short ``name`` and full ``path``."""

    def __init__(self, initial_value: Any, name: str, path: str, trainable: bool,
                 dtype: DTypeLike | None = None, constraint: Callable | None = None):
        super().__init__(initial_value, trainable=trainable, name=path, dtype=dtype,
                         constraint=constraint)
        self._short_name = name
        self._path = path

    @property
    def name(self) -> str:
        """The weight's own name (``'kernel'``), as in Keras 3."""
        return self._short_name

    @property
    def path(self) -> str:
        """The weight's path (``'dense/kernel'``)."""
        return self._path

    @property
    def trainable(self) -> bool:
        return self._trainable

    @trainable.setter
    def trainable(self, value: bool) -> None:
        self._trainable = bool(value)

    def __repr__(self) -> str:
        return "<KerasVariable shape=%s, dtype=%s, path=%s>" % (
            tuple(self.shape.as_list()), self.dtype.name, self._path)


# --------------------------------------------------------------------------------------
# Symbolic tensors


class KerasTensor:
    """A symbolic tensor of the functional API: static shape and dtype, and its origin.

    Args:
        shape: Its static shape (None where unknown).
        dtype: Its dtype.
        name: Its name.
    """

    def __init__(self, shape: ShapeLike, dtype: DTypeLike = "float32", name: str | None = None):
        self.shape = tuple(None if d is None else int(d) for d in shape)
        self.dtype = dtypes.as_dtype(dtype)
        self.name = name or uniquify("keras_tensor")
        self._keras_history: tuple | None = None     # (node, index in the node's outputs)

    @property
    def ndim(self) -> int:
        return len(self.shape)

    def __repr__(self) -> str:
        return "<KerasTensor shape=%s, dtype=%s, sparse=False, name=%s>" % (
            self.shape, self.dtype.name, self.name)

    # Python operators on symbolic tensors become layers of the functional model
    def __add__(self, other: Any) -> Any:
        return _op_layer("add", lambda a, b: a + b, self, other)

    def __radd__(self, other: Any) -> Any:
        return _op_layer("add", lambda a, b: b + a, self, other)

    def __sub__(self, other: Any) -> Any:
        return _op_layer("subtract", lambda a, b: a - b, self, other)

    def __rsub__(self, other: Any) -> Any:
        return _op_layer("subtract", lambda a, b: b - a, self, other)

    def __mul__(self, other: Any) -> Any:
        return _op_layer("multiply", lambda a, b: a * b, self, other)

    def __rmul__(self, other: Any) -> Any:
        return _op_layer("multiply", lambda a, b: b * a, self, other)

    def __truediv__(self, other: Any) -> Any:
        return _op_layer("divide", lambda a, b: a / b, self, other)

    def __rtruediv__(self, other: Any) -> Any:
        return _op_layer("divide", lambda a, b: b / a, self, other)

    def __pow__(self, other: Any) -> Any:
        return _op_layer("power", lambda a, b: a ** b, self, other)

    def __matmul__(self, other: Any) -> Any:
        return _op_layer("matmul", lambda a, b: a @ b, self, other)

    def __neg__(self) -> Any:
        return _op_layer("negative", lambda a: -a, self)

    def __getitem__(self, key: Any) -> Any:
        return _op_layer("getitem", lambda a: a[key], self)


def _is_symbolic(x: Any) -> bool:
    return isinstance(x, KerasTensor)


class Node:
    """One call of a layer on KerasTensors: its arguments and its output KerasTensors.

    Args:
        layer: The layer called.
        args: The call's positional arguments.
        kwargs: Its keyword arguments.
        outputs: The KerasTensor(s) it returned.
    """

    def __init__(self, layer: Layer, args: tuple, kwargs: dict, outputs: Any):
        self.layer = layer
        self.args = args
        self.kwargs = kwargs
        self.outputs = outputs
        self.input_tensors = [x for x in nest.flatten((args, kwargs)) if _is_symbolic(x)]
        for i, t in enumerate(nest.flatten(outputs)):
            t._keras_history = (self, i)
        layer._inbound_nodes.append(self)


# --------------------------------------------------------------------------------------
# Input specs


class InputSpec:
    """What a layer accepts: rank (``ndim``/``min_ndim``/``max_ndim``), dtype, shape, axes.

    Args:
        dtype: The dtype the input must have (None: any).
        shape: The shape it must have (None where any size goes).
        ndim: Its exact rank.
        max_ndim: Its largest rank.
        min_ndim: Its smallest rank.
        axes: ``{axis: size}`` the input must have.
        allow_last_axis_squeeze: Whether a last axis of size 1 may be missing (or extra).
        name: The input's name (for a dict of inputs).
        optional: Whether the input may be None.
    """

    def __init__(self, dtype: DTypeLike | None = None, shape: ShapeLike = None,
                 ndim: int | None = None, max_ndim: int | None = None, min_ndim: int | None = None,
                 axes: dict | None = None, allow_last_axis_squeeze: bool = False,
                 name: str | None = None, optional: bool = False):
        self.dtype = None if dtype is None else dtypes.as_dtype(dtype)
        self.shape = None if shape is None else tuple(shape)
        self.ndim = len(self.shape) if self.shape is not None else ndim
        self.max_ndim = max_ndim
        self.min_ndim = min_ndim
        self.axes = {int(k): v for k, v in (axes or {}).items()}
        self.allow_last_axis_squeeze = allow_last_axis_squeeze
        self.name = name
        self.optional = optional
        if self.axes and (self.ndim is not None or self.max_ndim is not None):
            top = (self.ndim or self.max_ndim) - 1
            if max(self.axes) > top:
                raise ValueError("Axis %d is greater than the maximum allowed value: %d"
                                 % (max(self.axes), top))

    def __repr__(self) -> str:
        parts = ["%s=%s" % (k, v) for k, v in (("dtype", self.dtype), ("shape", self.shape),
                                                ("ndim", self.ndim), ("max_ndim", self.max_ndim),
                                                ("min_ndim", self.min_ndim),
                                                ("axes", self.axes or None)) if v is not None]
        return "InputSpec(%s)" % ", ".join(parts)


def _static_shape(x: Any) -> tuple | None:
    shape = x.shape
    if isinstance(shape, TensorShape):
        return None if shape.rank is None else tuple(shape.as_list())
    return tuple(shape)


def assert_input_compatibility(input_spec: Any, inputs: Any, layer_name: str) -> None:
    """Raises ValueError naming the layer when ``inputs`` do not match ``input_spec``."""
    if not input_spec:
        return
    specs = nest.flatten(input_spec)
    flat = nest.flatten(inputs)
    if len(flat) != len(specs):
        raise ValueError('Layer "%s" expects %d input(s), but it received %d input tensors. '
                         "Inputs received: %s" % (layer_name, len(specs), len(flat), flat))
    for i, (x, spec) in enumerate(zip(flat, specs)):
        if spec is None:
            continue
        if not hasattr(x, "shape"):
            raise ValueError("Inputs to a layer should be tensors. Got '%s' (of type %s) as "
                             "input for layer '%s'." % (x, type(x), layer_name))
        shape = _static_shape(x)
        if shape is None:
            continue
        ndim = len(shape)
        where = "Input %d with name '%s' of layer '%s' is incompatible with the layer: " % (
            i, spec.name, layer_name)
        if spec.ndim is not None and not spec.allow_last_axis_squeeze and ndim != spec.ndim:
            raise ValueError(where + "expected ndim=%d, found ndim=%d. Full shape received: %s"
                             % (spec.ndim, ndim, shape))
        if spec.max_ndim is not None and ndim > spec.max_ndim:
            raise ValueError(where + "expected max_ndim=%d, found ndim=%d"
                             % (spec.max_ndim, ndim))
        if spec.min_ndim is not None and ndim < spec.min_ndim:
            raise ValueError(where + "expected min_ndim=%d, found ndim=%d. Full shape received: "
                             "%s" % (spec.min_ndim, ndim, shape))
        if spec.dtype is not None and x.dtype.base_dtype is not spec.dtype:
            raise ValueError(where + "expected dtype=%s, found dtype=%s"
                             % (spec.dtype.name, x.dtype.base_dtype.name))
        for axis, value in spec.axes.items():
            if value is not None and -ndim <= axis < ndim and shape[axis] not in (value, None):
                raise ValueError(where + "expected axis %d of input shape to have value %d, but "
                                 "received input with shape %s" % (axis, value, shape))
        if spec.shape is not None:
            for want, got in zip(spec.shape, shape):
                if want is not None and got is not None and want != got:
                    raise ValueError(where + "expected shape=%s, found shape=%s"
                                     % (spec.shape, shape))


# --------------------------------------------------------------------------------------
# The training flag of nested calls

_training_stack: list = []


def _call_accepts(fn: Any, arg: str) -> tuple[bool, Any]:
    """Whether ``fn`` takes argument ``arg``, and its default value."""
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False, None
    p = params.get(arg)
    if p is None:
        return False, None
    return True, None if p.default is inspect.Parameter.empty else p.default


# --------------------------------------------------------------------------------------
# Layer


class Layer(Module):
    """The base class of Keras layers: ``build(input_shape)`` creates weights with
    ``add_weight``; ``call(inputs, training=None)`` computes; ``__call__`` builds first.

    Args:
        trainable: Whether the layer's weights are updated in training (they are listed in
            ``trainable_weights``) or frozen (``non_trainable_weights``).
        name: The layer's name, a string without ``/``; by default the snake-case class
            name made unique (``dense``, ``dense_1``, ...).
        dtype: The dtype of the layer's weights and computations (default float32).
        autocast: If True, floating-point inputs of another dtype are cast to ``dtype``
            before ``call``.
        activity_regularizer: A regularizer applied to the layer's outputs (its penalty joins
            ``losses``), or None.
        **kwargs: ``input_shape`` (the shape of one sample, without the batch dimension),
            ``input_dim`` (for 2-D inputs, the same as ``input_shape=(input_dim,)``) and
            ``batch_input_shape`` (accepted and ignored).

    Raises:
        ValueError: If another keyword argument is given, or ``name`` is not a string or
            contains ``/``.
    """

    def __init_subclass__(cls, **kwargs: Any):
        super().__init_subclass__(**kwargs)
        build = cls.__dict__.get("build")
        if build is not None and not getattr(build, "_marks_built", False):
            cls.build = _marking_built(build)

    def __init__(self, trainable: bool = True, name: str | None = None,
                 dtype: DTypeLike | None = None, autocast: bool = True,
                 activity_regularizer: Callable | None = None, **kwargs: Any):
        input_dim = kwargs.pop("input_dim", None)
        input_shape = kwargs.pop("input_shape", None)
        kwargs.pop("batch_input_shape", None)
        if kwargs:
            raise ValueError("Unrecognized keyword arguments passed to %s: %s"
                             % (type(self).__name__, kwargs))
        if name is not None and (not isinstance(name, str) or "/" in name):
            raise ValueError("Argument `name` must be a string and cannot contain character "
                             "`/`. Received: name=%s (of type %s)" % (name, type(name)))
        name = name or auto_name(type(self).__name__)
        Module.__init__(self, name if valid_identifier(name) else None)
        self._name = name
        self._input_shape_arg = (input_dim,) if input_dim is not None else (
            tuple(input_shape) if input_shape is not None else None)
        self._trainable = bool(trainable)
        self._dtype = dtypes.as_dtype(dtype or "float32")
        self._autocast = autocast
        self.activity_regularizer = activity_regularizer
        self.built = False
        self.input_spec: Any = None
        self.supports_masking = False
        self._trainable_weights_own: list = []
        self._non_trainable_weights_own: list = []
        self._regularized: list = []
        self._losses_own: list = []
        self._parent_path: str | None = None
        self._inbound_nodes: list = []
        self._build_shape: Any = None
        self._call_has_training, self._call_training_default = _call_accepts(self.call,
                                                                             "training")
        if "_layers" not in self.__dict__:
            self._layers: list = []

    # -- tracking sub-layers (assignment order fixes the order of weights) ----------------
    def __setattr__(self, name: str, value: Any) -> None:
        if name != "_layers":
            for leaf in nest.flatten(value) if isinstance(value, (list, tuple, dict)) \
                    else [value]:
                if isinstance(leaf, Layer) and leaf is not self:
                    layers = self.__dict__.setdefault("_layers", [])
                    if all(leaf is not x for x in layers):
                        layers.append(leaf)
        super().__setattr__(name, value)

    # -- properties -----------------------------------------------------------------------
    @property
    def dtype(self) -> dtypes.DType:
        """The dtype of the layer's weights and computations."""
        return self._dtype

    @property
    def compute_dtype(self) -> dtypes.DType:
        return self._dtype

    @property
    def variable_dtype(self) -> dtypes.DType:
        return self._dtype

    @property
    def path(self) -> str | None:
        """The layer's path (its name, under the layers that called it first)."""
        if self._parent_path is None:
            return None
        return (self._parent_path + "/" + self.name) if self._parent_path else self.name

    @property
    def trainable(self) -> bool:
        return self._trainable

    @trainable.setter
    def trainable(self, value: bool) -> None:
        value = bool(value)
        self._trainable = value
        for v in self._trainable_weights_own:
            if hasattr(v, "_trainable"):
                v._trainable = value
        for layer in self._layers:
            layer.trainable = value

    @property
    def layers(self) -> list:
        """The layer's direct sub-layers."""
        return list(self._layers)

    def _flatten_layers(self, include_self: bool = True) -> Iterator[Layer]:
        seen: set = set()
        stack = [self] if include_self else list(reversed(self._layers))
        while stack:
            layer = stack.pop()
            if id(layer) in seen:
                continue
            seen.add(id(layer))
            yield layer
            stack.extend(reversed(layer._layers))

    @property
    def weights(self) -> list:
        """All weights: own trainable, own non-trainable, then each sub-layer's (each once)."""
        out: list = []
        seen: set = set()
        for w in self._trainable_weights_own + self._non_trainable_weights_own:
            if id(w) not in seen:
                seen.add(id(w))
                out.append(w)
        for layer in self._layers:
            for w in layer.weights:
                if id(w) not in seen:
                    seen.add(id(w))
                    out.append(w)
        return out

    @property
    def trainable_weights(self) -> list:
        """The weights the optimizer trains (none when the layer is not trainable)."""
        if not self.trainable:
            return []
        return [w for w in self.weights if w.trainable]

    @property
    def non_trainable_weights(self) -> list:
        if not self.trainable:
            return self.weights
        return [w for w in self.weights if not w.trainable]

    @property
    def variables(self) -> list:
        return self.weights

    @property
    def trainable_variables(self) -> list:
        return self.trainable_weights

    @property
    def non_trainable_variables(self) -> list:
        return self.non_trainable_weights

    @property
    def losses(self) -> list:
        """Losses added by ``add_loss`` in the last call, then weight regularization losses."""
        out: list = []
        for layer in self._flatten_layers():
            out.extend(layer._losses_own)
            out.extend(fn(v) for v, fn in layer._regularized)
        return out

    def add_loss(self, loss: Any) -> None:
        """Adds a loss tensor (e.g. an activity penalty) to ``self.losses``."""
        self._losses_own.append(loss)

    def count_params(self) -> int:
        """The number of scalars in the layer's weights (it must be built)."""
        if not self.built:
            raise ValueError("You tried to call `count_params` on layer '%s', but the layer "
                             "isn't built. You can build it manually via: `layer.build("
                             "input_shape)`." % self.name)
        return int(sum(np.prod(w.shape.as_list()) for w in self.weights))

    # -- weights --------------------------------------------------------------------------
    def add_weight(self, shape: ShapeLike = None, initializer: Any = None,
                   dtype: DTypeLike | None = None, trainable: bool = True, autocast: bool = True,
                   regularizer: Callable | None = None, constraint: Callable | None = None,
                   aggregation: str = "none", name: str | None = None) -> Any:
        """Creates a weight of ``shape`` filled by ``initializer`` (glorot_uniform for floats,
        zeros otherwise) and tracks it."""
        from flowgrad.legacy_keras import initializers as init_lib
        from flowgrad.legacy_keras import regularizers as reg_lib
        shape = () if shape is None else tuple(int(d) for d in shape)
        dt = dtypes.as_dtype(dtype) if dtype is not None else self._dtype
        if initializer is None:
            initializer = "glorot_uniform" if dt.is_floating else "zeros"
        init = init_lib.get(initializer)
        name = name or auto_name("variable")
        with _keras_scope(self):
            path = current_path() + "/" + name
            if executing_eagerly() or isinstance(get_default_graph(), FuncGraph):
                with init_scope():
                    var = KerasVariable(lambda: init(shape, dtype=dt), name, path, trainable,
                                        dt, constraint)
            else:
                with self.name_scope:
                    var = Variable(lambda: init(shape, dtype=dt), trainable=trainable,
                                   name=name, dtype=dt, constraint=constraint)
        (self._trainable_weights_own if trainable else self._non_trainable_weights_own).append(
            var)
        if regularizer is not None:
            self._regularized.append((var, reg_lib.get(regularizer)))
        return var

    add_variable = add_weight

    def get_weights(self) -> list:
        """The weights' values as NumPy arrays, in ``weights`` order."""
        return [_value_of(w) for w in self.weights]

    def set_weights(self, weights: list) -> None:
        """Sets the weights from NumPy arrays (same count and shapes as ``get_weights()``)."""
        params = self.weights
        if len(params) != len(weights):
            raise ValueError("You called `set_weights(weights)` on layer '%s' with a weight list "
                             "of length %d, but the layer was expecting %d weights."
                             % (self.name, len(weights), len(params)))
        for var, value in zip(params, weights):
            value = np.asarray(value)
            if tuple(var.shape.as_list()) != value.shape:
                raise ValueError("Layer %s weight shape %s is not compatible with provided "
                                 "weight shape %s." % (self.name, tuple(var.shape.as_list()),
                                                       value.shape))
        for var, value in zip(params, weights):
            _assign_value(var, value)

    # -- build and call -------------------------------------------------------------------
    def build(self, input_shape: Any = None) -> None:
        """Creates the layer's weights for inputs of ``input_shape`` (override this)."""
        self.built = True

    def call(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        """The layer's computation (override this)."""
        return inputs

    def compute_output_shape(self, input_shape: Any) -> Any:
        """The output shape for ``input_shape`` (from a symbolic trace of ``call``)."""
        def spec(s: Any) -> KerasTensor:
            return KerasTensor(s, self._dtype)
        shapes = input_shape
        structure = nest.map_structure(spec, shapes) if nest.is_nested(shapes) and \
            nest.is_nested(shapes[0]) else spec(shapes)
        out = self._output_spec((structure,), {})
        return nest.map_structure(lambda t: t.shape, out)

    def _maybe_build(self, inputs: Any) -> None:
        if self.built:
            return
        if getattr(type(self).build, "_lazy", False):    # sub-layers build when called
            self.built = True
            return
        shapes = nest.map_structure(lambda x: _static_shape(x) if hasattr(x, "shape") else None,
                                    inputs)
        if isinstance(shapes, list):
            shapes = [tuple(s) if s is not None else None for s in shapes]
        lengths = (len(self._trainable_weights_own), len(self._non_trainable_weights_own),
                   len(self._regularized), len(self._layers))
        try:
            with _keras_scope(self):
                self.build(shapes)
        except BaseException:
            # leave no half-built state: drop what this build created
            del self._trainable_weights_own[lengths[0]:]
            del self._non_trainable_weights_own[lengths[1]:]
            del self._regularized[lengths[2]:]
            del self._layers[lengths[3]:]
            raise
        self._build_shape = shapes
        self.built = True

    def _resolve_training(self, training: Any) -> Any:
        if training is None and _training_stack:
            training = _training_stack[-1]
        if training is None:
            training = self._call_training_default
        return training

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if "_trainable_weights_own" not in self.__dict__:
            raise RuntimeError("You forgot to call `super().__init__()` in the `__init__()` "
                               "method of %s." % type(self).__name__)
        if not args:
            if "inputs" not in kwargs:
                raise ValueError("Layer %s was called without inputs." % self.name)
            args = (kwargs.pop("inputs"),)
        if any(_is_symbolic(x) for x in nest.flatten((args, kwargs))):
            return self._symbolic_call(args, kwargs)
        inputs = nest.map_structure(self._convert_input, args[0])
        args = (inputs,) + tuple(args[1:])
        assert_input_compatibility(self.input_spec, inputs, self.name)
        training = self._resolve_training(kwargs.pop("training", None))
        if self._call_has_training:
            kwargs["training"] = training
        self._losses_own.clear()
        _training_stack.append(training)
        try:
            with _keras_scope(self):
                self._maybe_build(inputs)
                outputs = maybe_convert(self.call)(*args, **kwargs)
        finally:
            _training_stack.pop()
        if self.activity_regularizer is not None:
            from flowgrad.legacy_keras import regularizers as reg_lib
            fn = reg_lib.get(self.activity_regularizer)
            for out in nest.flatten(outputs):
                batch = cast(_batch_size(out), out.dtype.base_dtype)
                self.add_loss(fn(out) / batch)
        return outputs

    def _convert_input(self, x: Any) -> Any:
        if x is None or isinstance(x, Variable):
            return x
        if not isinstance(x, TensorBase):
            if not isinstance(x, (np.ndarray, np.generic, list, tuple, int, float, bool)):
                return x
            x = convert_to_tensor(x)
        if self._autocast and x.dtype.is_floating and x.dtype.base_dtype is not self._dtype \
                and self._dtype.is_floating:
            x = cast(x, self._dtype)
        return x

    # -- symbolic calls (functional API) --------------------------------------------------
    def _symbolic_call(self, args: tuple, kwargs: dict) -> Any:
        inputs = args[0]
        assert_input_compatibility(self.input_spec, inputs, self.name)
        with _keras_scope(self):
            self._maybe_build(inputs)
        outputs = self._output_spec(args, kwargs)
        Node(self, args, dict(kwargs), outputs)
        return outputs

    def _output_spec(self, args: tuple, kwargs: dict) -> Any:
        """KerasTensors for the outputs of ``call`` on these (symbolic) arguments."""
        g = FuncGraph("keras_output_spec")

        def to_placeholder(x: Any) -> Any:
            if _is_symbolic(x):
                return placeholder(x.dtype, TensorShape(list(x.shape)))
            return x
        kwargs = dict(kwargs)
        with g.as_default():
            args2, kwargs2 = nest.map_structure(to_placeholder, (args, kwargs))
            out = self.__call__(*args2, **kwargs2)
        return nest.map_structure(
            lambda t: KerasTensor(_static_shape(t) or (), t.dtype.base_dtype), out)

    # -- misc -----------------------------------------------------------------------------
    def get_config(self) -> dict:
        return {"name": self.name, "trainable": self.trainable, "dtype": self._dtype.name}

    @classmethod
    def from_config(cls, config: dict) -> Layer:
        return cls(**config)

    @property
    def input(self) -> Any:
        """The symbolic input of the layer's first functional call."""
        if not self._inbound_nodes:
            raise AttributeError("Layer %s has no inbound nodes." % self.name)
        node = self._inbound_nodes[0]
        return node.input_tensors[0] if len(node.input_tensors) == 1 else node.input_tensors

    @property
    def output(self) -> Any:
        """The symbolic output of the layer's first functional call."""
        if not self._inbound_nodes:
            raise AttributeError("Layer %s has no inbound nodes." % self.name)
        return self._inbound_nodes[0].outputs

    def __repr__(self) -> str:
        return "<%s name=%s, built=%s>" % (type(self).__name__, self.name, self.built)


class _OpLayer(Layer):
    """A Python operator applied to KerasTensors (a weightless layer of the functional model)."""

    def __init__(self, op_name: str, fn: Any):
        super().__init__(name=auto_name("op_" + op_name))
        self._fn = fn

    def call(self, inputs: Any) -> Any:
        return self._fn(*inputs)


def _op_layer(op_name: str, fn: Any, *args: Any) -> Any:
    return _OpLayer(op_name, fn)(list(args))


def _batch_size(x: Any) -> Any:
    from flowgrad.ops.array_ops import shape as shape_of
    return shape_of(x)[0]


def _value_of(var: Any) -> np.ndarray:
    if isinstance(var, EagerVariable):
        return np.array(var.numpy())
    return np.asarray(var.eval())


def _assign_value(var: Any, value: np.ndarray) -> None:
    if isinstance(var, EagerVariable):
        var.assign(np.asarray(value, var.dtype.base_dtype.np))
    else:
        var.load(value)


def is_keras_tensor(x: Any) -> bool:
    """Whether ``x`` is a symbolic KerasTensor (from ``keras.Input``)."""
    return isinstance(x, KerasTensor)


def eager_value(x: Any) -> Any:
    """The NumPy value of an eager tensor, else ``x``."""
    return x.numpy() if isinstance(x, EagerTensor) else x


__all__ = ["Layer", "InputSpec", "KerasTensor", "KerasVariable", "Node", "auto_name",
           "reset_uids", "is_keras_tensor"]
