"""Keras 3 optimizers (``tf.keras.optimizers`` / ``tf.optimizers``): SGD, Adam, RMSprop, Adagrad.

Each ``update_step`` is Keras 3's (keras/src/optimizers/*.py) formula for formula,
in Keras's order: unscale by ``loss_scale_factor``, clip (``clipnorm``,
``global_clipnorm`` or ``clipvalue``), weight decay, ``update_step`` for each
variable, ``iterations += 1``, then variable constraints. Eagerly the arithmetic
runs on the variables' NumPy values (float32 stays float32, Python floats are
weak scalars, as in TensorFlow) and writes replace the values; inside a
tf.function trace the same formulas build ops on the captured variables.
Sparse (IndexedSlices) gradients are applied as their dense equivalent, as
Keras's dense update formulas do."""
from __future__ import annotations

import re
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.context import executing_eagerly
from flowgrad.framework.indexed_slices import IndexedSlices
from flowgrad.framework.shape_rules import check_gradient_shapes
from flowgrad.framework.tensor import EagerTensor, constant, convert_to_tensor, is_tensor
from flowgrad.ops.state_ops import EagerVariable, Variable
from flowgrad.framework.type_hints import DTypeLike, ShapeLike


class _Eager:
    """Optimizer arithmetic on NumPy values; a write replaces the variable's value."""

    sqrt = staticmethod(np.sqrt)
    square = staticmethod(np.square)
    maximum = staticmethod(np.maximum)
    minimum = staticmethod(np.minimum)
    sum = staticmethod(np.sum)

    @staticmethod
    def power(x: Any, y: Any) -> Any:
        """x ** y rounded from float64: NumPy's float32 power is off by up to ~20 ulp."""
        return np.power(x, y, dtype=np.float64).astype(np.result_type(x, y))

    @staticmethod
    def read(var: Any) -> Any:
        return var._value

    @staticmethod
    def write(var: Any, value: Any) -> Any:
        value = np.asarray(value, var._dtype.np)
        if value.shape != np.shape(var._value):
            raise ValueError("Cannot update variable %s of shape %s with a value of shape %s"
                             % (var.name, var.shape, value.shape))
        var._set_value(value)
        return var._value

    @staticmethod
    def cast(x: Any, dtype: dtypes.DType) -> Any:
        if isinstance(x, (EagerTensor, EagerVariable)):
            x = x._value
        return np.asarray(x, dtype.np)

    @staticmethod
    def gradient(g: Any, var: Any) -> Any:
        """A gradient as a dense array of the variable's dtype."""
        dt = var._dtype.np
        if isinstance(g, IndexedSlices):
            dense = np.zeros(var._value.shape, dt)
            np.add.at(dense, np.asarray(g.indices), np.asarray(g.values, dt))
            return dense
        return np.asarray(g._value if isinstance(g, EagerTensor) else g, dt)


class _Graph:
    """The same arithmetic as ops in the graph being traced (tf.function)."""

    @staticmethod
    def _math() -> Any:
        from flowgrad.ops import math_ops
        return math_ops

    @staticmethod
    def sqrt(x: Any) -> Any:
        return _Graph._math().sqrt(x)

    @staticmethod
    def square(x: Any) -> Any:
        return _Graph._math().square(x)

    @staticmethod
    def maximum(x: Any, y: Any) -> Any:
        return _Graph._math().maximum(x, y)

    @staticmethod
    def minimum(x: Any, y: Any) -> Any:
        return _Graph._math().minimum(x, y)

    @staticmethod
    def power(x: Any, y: Any) -> Any:
        return _Graph._math().pow(x, y)

    @staticmethod
    def sum(x: Any) -> Any:
        return _Graph._math().reduce_sum(x)

    @staticmethod
    def read(var: Any) -> Any:
        return var.value()

    @staticmethod
    def write(var: Any, value: Any) -> Any:
        return var.assign(value)

    @staticmethod
    def cast(x: Any, dtype: dtypes.DType) -> Any:
        if isinstance(x, Variable):
            x = x.value()
        if is_tensor(x):
            return x if x.dtype.base_dtype is dtype else _Graph._math().cast(x, dtype)
        return constant(x, dtype)

    @staticmethod
    def gradient(g: Any, var: Any) -> Any:
        return _Graph.cast(convert_to_tensor(g), var.dtype.base_dtype)


class Optimizer:
    """Base class of the Keras 3 optimizers (``apply_gradients``, ``apply``, ``minimize``).

    Args:
        learning_rate: The learning rate: a float, or a ``LearningRateSchedule``.
        weight_decay: Decoupled weight decay applied to the variables; None for none.
        clipnorm: Clip each gradient to this L2 norm.
        clipvalue: Clip each gradient's elements to [-clipvalue, clipvalue].
        global_clipnorm: Clip all gradients together to this global norm.
        use_ema: Whether to keep an exponential moving average of the variables.
        ema_momentum: The momentum of that moving average.
        ema_overwrite_frequency: Every how many steps the variables are overwritten with their
            average; None: only by ``finalize_variable_values``.
        loss_scale_factor: A factor the loss is multiplied by (and the gradients divided by).
        gradient_accumulation_steps: Apply the accumulated gradients every this many steps; None
            applies each step's.
        name: A name for the operation (optional).
        **kwargs: Further arguments of Keras's optimizer base class.
    """

    def __init__(self, learning_rate: Any, weight_decay: float | None = None,
                 clipnorm: float | None = None, clipvalue: float | None = None,
                 global_clipnorm: float | None = None, use_ema: bool = False,
                 ema_momentum: float = 0.99, ema_overwrite_frequency: int | None = None,
                 loss_scale_factor: float | None = None,
                 gradient_accumulation_steps: int | None = None, name: str | None = None,
                 **kwargs: Any):
        if kwargs.pop("decay", None) is not None:
            warnings.warn("Argument `decay` is no longer supported and will be ignored.",
                          stacklevel=3)
        if kwargs:
            raise ValueError("Argument(s) not recognized: %s" % kwargs)
        if use_ema or gradient_accumulation_steps:
            raise NotImplementedError("flowgrad's Keras optimizers implement neither use_ema "
                                      "nor gradient_accumulation_steps")
        if sum(a is not None for a in (clipnorm, clipvalue, global_clipnorm)) > 1:
            raise ValueError("Only one of `clipnorm`, `clipvalue` and `global_clipnorm` can be "
                             "set. Received: clipnorm=%s, clipvalue=%s, global_clipnorm=%s"
                             % (clipnorm, clipvalue, global_clipnorm))
        self.name = name or type(self).__name__.lower()
        self.weight_decay = weight_decay
        self.clipnorm = clipnorm
        self.clipvalue = clipvalue
        self.global_clipnorm = global_clipnorm
        self.loss_scale_factor = loss_scale_factor
        self.built = False
        self._variables: list = []
        self._trainable_variables: list = []
        self._trainable_variables_indices: dict = {}
        self._exclude_ids: set = set()
        self._exclude_pattern: Any = None
        self._b: Any = _Eager
        self._iterations = self._new_variable(0, dtypes.int64, "iteration")
        if callable(learning_rate):
            self._learning_rate = learning_rate
        else:
            if not isinstance(learning_rate, float):
                raise ValueError("Argument `learning_rate` should be float, or an instance of "
                                 "LearningRateSchedule, or a callable (that takes in the current "
                                 "iteration value and returns the corresponding learning rate "
                                 "value). Received instead: learning_rate=%s" % (learning_rate,))
            self._learning_rate = self._new_variable(learning_rate, dtypes.float32,
                                                     "learning_rate")

    # -- variables ----------------------------------------------------------------------
    def _new_variable(self, value: Any, dtype: dtypes.DType, name: str) -> EagerVariable:
        from flowgrad.runtime.function import init_scope
        with init_scope():
            var = EagerVariable(value, trainable=False, dtype=dtype, name=name)
        self._variables.append(var)
        return var

    @property
    def iterations(self) -> EagerVariable:
        """How many times the optimizer has applied gradients (an int64 variable)."""
        return self._iterations

    @property
    def variables(self) -> list:
        """The optimizer's own variables: iterations, learning rate, then the slots."""
        return self._variables[:]

    @property
    def learning_rate(self) -> Any:
        """The current learning rate (its variable, or the callable's value)."""
        if isinstance(self._learning_rate, Variable):
            return self._learning_rate
        return self._learning_rate()

    @learning_rate.setter
    def learning_rate(self, learning_rate: Any) -> None:
        if callable(learning_rate):
            self._learning_rate = learning_rate
        elif isinstance(self._learning_rate, Variable):
            self._learning_rate.assign(learning_rate)
        else:
            self._learning_rate = self._new_variable(float(learning_rate), dtypes.float32,
                                                     "learning_rate")

    def build(self, variables: list) -> None:
        """Creates the optimizer's slots for ``variables`` (done by the first apply)."""
        for i, v in enumerate(variables):
            self._trainable_variables_indices[id(v)] = i
        self._trainable_variables = list(variables)
        self.built = True

    def add_variable(self, shape: ShapeLike, initializer: Any = "zeros",
                     dtype: DTypeLike | None = None, name: str | None = None) -> EagerVariable:
        """A non-trainable optimizer variable filled with ``initializer`` (0, 1 or a number)."""
        fill = {"zeros": 0.0, "ones": 1.0}.get(initializer, initializer) \
            if isinstance(initializer, str) else initializer
        if isinstance(fill, str):
            raise ValueError("Unknown initializer %r (use 'zeros', 'ones' or a number)" % fill)
        dt = dtypes.as_dtype(dtype) if dtype is not None else dtypes.float32
        value = np.full(tuple(shape), fill, dt.np)
        return self._new_variable(value, dt, name or "var")

    def add_variable_from_reference(self, reference_variable: Any, name: str | None = None,
                                    initializer: Any = "zeros") -> EagerVariable:
        """A variable shaped like ``reference_variable`` (zeros by default)."""
        name = str(reference_variable.name).replace("/", "_").replace(":", "_") + "_" + (
            name or "var")
        return self.add_variable(reference_variable.shape.as_list(), initializer,
                                 reference_variable.dtype.base_dtype, name)

    def add_optimizer_variables(self, trainable_variables: list, name: Any,
                                initializer: Any = "zeros") -> Any:
        """One slot variable per trainable variable; with a list of names, a tuple of such
        lists, made variable by variable (so ``variables`` interleaves them, as in Keras and
        so in Keras's checkpoints)."""
        names = [name] if isinstance(name, str) else list(name)
        inits = [initializer] * len(names) if isinstance(initializer, (str, int, float)) \
            else list(initializer)
        out: tuple = tuple([] for _ in names)
        for v in trainable_variables:
            for slots, n, init in zip(out, names, inits):
                slots.append(self.add_variable_from_reference(v, n, init))
        return out[0] if isinstance(name, str) else out

    def _get_variable_index(self, variable: Any) -> int:
        return self._trainable_variables_indices[id(variable)]

    # -- writes (Keras's assign helpers; return the new value) --------------------------
    def assign(self, variable: Any, value: Any) -> Any:
        """Writes ``value`` into an optimizer or model variable."""
        return self._b.write(variable, value)

    def assign_add(self, variable: Any, value: Any) -> Any:
        return self._b.write(variable, self._b.read(variable) + value)

    def assign_sub(self, variable: Any, value: Any) -> Any:
        return self._b.write(variable, self._b.read(variable) - value)

    # -- applying gradients ---------------------------------------------------------------
    def apply_gradients(self, grads_and_vars: Any) -> EagerVariable:
        """Applies one update from (gradient, variable) pairs; returns ``iterations``."""
        grads, trainable_variables = zip(*grads_and_vars)
        from flowgrad.distribute import distribute_lib
        ctx = distribute_lib.get_replica_context()
        owner = getattr(trainable_variables[0], "_distribute_strategy", None)
        if owner is not None and owner.num_replicas_in_sync > 1 and (
                ctx is None or ctx.strategy is not owner):
            raise NotImplementedError(
                "apply_gradients of variables made under %s's scope outside its "
                "strategy.run (Keras fit, or a plain loop) would train each of the %d workers "
                "apart; flowgrad distributes custom training loops: call "
                "strategy.run(train_step, ...)" % (type(owner).__name__,
                                                   owner.num_replicas_in_sync))
        if ctx is not None and ctx.num_replicas_in_sync > 1:
            # tf.distribute: the replicas' gradients are summed (the loss is scaled by the
            # global batch) and applied once, in the cross-replica context.
            present = [g for g in grads if g is not None]
            summed = iter(ctx.all_reduce(distribute_lib.ReduceOp.SUM, present))
            grads = tuple(None if g is None else next(summed) for g in grads)

            def apply_once(strategy: Any, per_replica_grads: Any) -> None:
                self.apply(distribute_lib.select_replica(0, per_replica_grads),
                           trainable_variables)
            ctx.merge_call(apply_once, (grads,))
            return self._iterations
        self.apply(grads, trainable_variables)
        return self._iterations

    def apply(self, grads: Any, trainable_variables: Any = None) -> None:
        """Applies gradients to the variables (those of the first call if not given)."""
        grads = list(grads)
        if not grads:
            return
        if trainable_variables is None:
            if not self.built:
                raise ValueError("When passing `grads` without `variables`, the optimizer must "
                                 "already be built on a list of variables. Call "
                                 "`optimizer.build(trainable_variables)` first. ")
            if len(grads) != len(self._trainable_variables_indices):
                raise ValueError("When passing `grads` as a list of gradient tensors, the "
                                 "gradients must match `optimizer.variables` one-to-on. Received "
                                 "a list of %d gradients, but the optimizer is tracking %d "
                                 "trainable variables." % (len(grads),
                                                           len(self._trainable_variables)))
            trainable_variables = self._trainable_variables
        else:
            trainable_variables = list(trainable_variables)
            for v in trainable_variables:
                if not isinstance(v, EagerVariable):
                    raise TypeError("Keras optimizers update eager variables (tf.Variable "
                                    "created eagerly); got %r. Use tf.compat.v1.train "
                                    "optimizers for graph-mode variables." % (v,))
            if not self.built:
                self.build(trainable_variables)
            for v in trainable_variables:
                if id(v) not in self._trainable_variables_indices:
                    raise ValueError("Unknown variable: %r. This optimizer can only be called "
                                     "for the variables it was originally built with. When "
                                     "working with a new set of variables, you should recreate "
                                     "a new optimizer instance." % (v,))
        grads, trainable_variables = self._filter_empty_gradients(grads, trainable_variables)
        self._b = _Eager if executing_eagerly() else _Graph
        if self._b is _Eager:
            with np.errstate(divide="ignore", invalid="ignore"):
                self._apply(grads, trainable_variables)
        else:
            self._apply(grads, trainable_variables)
        for v in trainable_variables:
            if v.constraint is not None:
                v.assign(v.constraint(v))

    def _apply(self, grads: list, trainable_variables: list) -> None:
        b = self._b
        check_gradient_shapes(zip(grads, trainable_variables))     # before any write
        grads = [b.gradient(g, v) for g, v in zip(grads, trainable_variables)]
        if self.loss_scale_factor is not None:
            grads = [g / self.loss_scale_factor for g in grads]
        grads = self._clip_gradients(grads)
        self._apply_weight_decay(trainable_variables)
        learning_rate = self.learning_rate
        for g, v in zip(grads, trainable_variables):
            self.update_step(g, v, learning_rate)
        self.assign_add(self._iterations, 1)

    def update_step(self, gradient: Any, variable: Any, learning_rate: Any) -> None:
        raise NotImplementedError

    @staticmethod
    def _filter_empty_gradients(grads: list, variables: list) -> tuple[list, list]:
        kept = [(g, v) for g, v in zip(grads, variables) if g is not None]
        if not kept:
            raise ValueError("No gradients provided for any variable.")
        missing = [v.name for g, v in zip(grads, variables) if g is None]
        if missing:
            warnings.warn("Gradients do not exist for variables %s when minimizing the loss. If "
                          "using `model.compile()`, did you forget to provide a `loss` argument?"
                          % missing, stacklevel=4)
        return [g for g, _ in kept], [v for _, v in kept]

    def _clip_gradients(self, grads: list) -> list:
        b = self._b
        if self.clipnorm and self.clipnorm > 0:
            c = self.clipnorm
            return [g * c / b.maximum(b.sqrt(b.sum(b.square(g))), c) for g in grads]
        if self.global_clipnorm and self.global_clipnorm > 0:
            c = self.global_clipnorm
            use_norm = b.sqrt(sum(b.sum(b.square(g)) for g in grads))
            scale = c * b.minimum(1.0 / use_norm, 1.0 / c) + (use_norm - use_norm)
            return [g * scale for g in grads]
        if self.clipvalue and self.clipvalue > 0:
            v = self.clipvalue
            return [b.minimum(b.maximum(g, -v), v) for g in grads]
        return grads

    def exclude_from_weight_decay(self, var_list: list | None = None,
                                  var_names: list | None = None) -> None:
        """Variables (or variables whose name contains one of ``var_names``) get no decay."""
        if self.built:
            raise ValueError("`exclude_from_weight_decay()` can only be configued before the "
                             "optimizer is built.")
        self._exclude_ids = {id(v) for v in var_list or ()}
        self._exclude_pattern = re.compile("|".join(set(var_names))) if var_names else None

    def _apply_weight_decay(self, variables: list) -> None:
        if self.weight_decay is None:
            return
        b = self._b
        for v in variables:
            if id(v) in self._exclude_ids or (self._exclude_pattern is not None and
                                              self._exclude_pattern.search(v.name)):
                continue
            lr = b.cast(self.learning_rate, v.dtype.base_dtype)
            wd = b.cast(self.weight_decay, v.dtype.base_dtype)
            self.assign_sub(v, b.read(v) * wd * lr)

    def minimize(self, loss: Any, var_list: Any, tape: Any = None) -> None:
        """Computes the gradients of ``loss`` (a callable, or a tensor with its tape) and
        applies them to ``var_list`` (a list of variables or a callable returning one)."""
        from flowgrad.autodiff.tape import GradientTape
        if not callable(loss) and tape is None:
            raise ValueError("`tape` is required when a `Tensor` loss is passed. Received: "
                             "loss=%s, tape=%s." % (loss, tape))
        if tape is None:
            tape = GradientTape()
        if callable(loss):
            with tape:
                if not callable(var_list):
                    tape.watch(var_list)
                loss = loss()
                if callable(var_list):
                    var_list = var_list()
        grads = tape.gradient(loss, var_list)
        self.apply_gradients(zip(grads, var_list))


class SGD(Optimizer):
    """Gradient descent with optional (Nesterov) momentum.

    ``m = momentum * m - lr * g``; ``w += m`` (Nesterov: ``w += momentum * m - lr * g``);
    without momentum ``w -= lr * g``.

    Args:
        learning_rate: The learning rate: a float, or a ``LearningRateSchedule``.
        momentum: The momentum (0: plain gradient descent).
        nesterov: Whether to use Nesterov momentum.
        weight_decay: Decoupled weight decay applied to the variables; None for none.
        clipnorm: Clip each gradient to this L2 norm.
        clipvalue: Clip each gradient's elements to [-clipvalue, clipvalue].
        global_clipnorm: Clip all gradients together to this global norm.
        use_ema: Whether to keep an exponential moving average of the variables.
        ema_momentum: The momentum of that moving average.
        ema_overwrite_frequency: Every how many steps the variables are overwritten with their
            average; None: only by ``finalize_variable_values``.
        loss_scale_factor: A factor the loss is multiplied by (and the gradients divided by).
        gradient_accumulation_steps: Apply the accumulated gradients every this many steps; None
            applies each step's.
        name: A name for the operation (optional).
        **kwargs: Further arguments of Keras's optimizer base class.
    """

    def __init__(self, learning_rate: Any = 0.01, momentum: float = 0.0, nesterov: bool = False,
                 weight_decay: float | None = None, clipnorm: float | None = None,
                 clipvalue: float | None = None, global_clipnorm: float | None = None,
                 use_ema: bool = False, ema_momentum: float = 0.99,
                 ema_overwrite_frequency: int | None = None, loss_scale_factor: float | None = None,
                 gradient_accumulation_steps: int | None = None, name: str = "SGD",
                 **kwargs: Any):
        super().__init__(learning_rate, weight_decay, clipnorm, clipvalue, global_clipnorm,
                         use_ema, ema_momentum, ema_overwrite_frequency, loss_scale_factor,
                         gradient_accumulation_steps, name, **kwargs)
        if not isinstance(momentum, float) or momentum < 0 or momentum > 1:
            raise ValueError("`momentum` must be a float between [0, 1].")
        self.momentum = momentum
        self.nesterov = nesterov

    def build(self, variables: list) -> None:
        if self.built:
            return
        super().build(variables)
        self.momentums = self.add_optimizer_variables(variables, "momentum") \
            if self.momentum != 0 else []

    def update_step(self, gradient: Any, variable: Any, learning_rate: Any) -> None:
        b = self._b
        dt = variable.dtype.base_dtype
        lr = b.cast(learning_rate, dt)
        if self.momentum != 0:
            m = self.momentums[self._get_variable_index(variable)]
            momentum = b.cast(self.momentum, dt)
            m_t = self.assign(m, b.read(m) * momentum - gradient * lr)
            if self.nesterov:
                self.assign_add(variable, m_t * momentum - gradient * lr)
            else:
                self.assign_add(variable, m_t)
        else:
            self.assign_sub(variable, gradient * lr)


class Adam(Optimizer):
    """Adam: ``alpha = lr * sqrt(1 - b2^t) / (1 - b1^t)``; ``m += (g - m) * (1 - b1)``;
    ``v += (g^2 - v) * (1 - b2)``; ``w -= m * alpha / (sqrt(v) + epsilon)`` (epsilon 1e-7).

    Args:
        learning_rate: The learning rate: a float, or a ``LearningRateSchedule``.
        beta_1: The decay rate of the first moment estimates.
        beta_2: The decay rate of the second moment estimates.
        epsilon: A small constant for numerical stability.
        amsgrad: Whether to use AMSGrad (the maximum of past second moments).
        weight_decay: Decoupled weight decay applied to the variables; None for none.
        clipnorm: Clip each gradient to this L2 norm.
        clipvalue: Clip each gradient's elements to [-clipvalue, clipvalue].
        global_clipnorm: Clip all gradients together to this global norm.
        use_ema: Whether to keep an exponential moving average of the variables.
        ema_momentum: The momentum of that moving average.
        ema_overwrite_frequency: Every how many steps the variables are overwritten with their
            average; None: only by ``finalize_variable_values``.
        loss_scale_factor: A factor the loss is multiplied by (and the gradients divided by).
        gradient_accumulation_steps: Apply the accumulated gradients every this many steps; None
            applies each step's.
        name: A name for the operation (optional).
        **kwargs: Further arguments of Keras's optimizer base class.
    """

    def __init__(self, learning_rate: Any = 0.001, beta_1: float = 0.9, beta_2: float = 0.999,
                 epsilon: float = 1e-7, amsgrad: bool = False, weight_decay: float | None = None,
                 clipnorm: float | None = None, clipvalue: float | None = None,
                 global_clipnorm: float | None = None, use_ema: bool = False,
                 ema_momentum: float = 0.99, ema_overwrite_frequency: int | None = None,
                 loss_scale_factor: float | None = None,
                 gradient_accumulation_steps: int | None = None, name: str = "adam",
                 **kwargs: Any):
        super().__init__(learning_rate, weight_decay, clipnorm, clipvalue, global_clipnorm,
                         use_ema, ema_momentum, ema_overwrite_frequency, loss_scale_factor,
                         gradient_accumulation_steps, name, **kwargs)
        self.beta_1 = beta_1
        self.beta_2 = beta_2
        self.epsilon = epsilon
        self.amsgrad = amsgrad

    def build(self, var_list: list) -> None:
        if self.built:
            return
        super().build(var_list)
        self._momentums, self._velocities = self.add_optimizer_variables(
            var_list, ["momentum", "velocity"])
        if self.amsgrad:
            self._velocity_hats = self.add_optimizer_variables(var_list, "velocity_hat")

    def update_step(self, gradient: Any, variable: Any, learning_rate: Any) -> None:
        b = self._b
        dt = variable.dtype.base_dtype
        lr = b.cast(learning_rate, dt)
        local_step = b.cast(b.read(self._iterations) + 1, dt)
        beta_1_power = b.power(b.cast(self.beta_1, dt), local_step)
        beta_2_power = b.power(b.cast(self.beta_2, dt), local_step)
        i = self._get_variable_index(variable)
        m, v = self._momentums[i], self._velocities[i]
        alpha = lr * b.sqrt(1 - beta_2_power) / (1 - beta_1_power)
        m_t = self.assign_add(m, (gradient - b.read(m)) * (1 - self.beta_1))
        v_t = self.assign_add(v, (b.square(gradient) - b.read(v)) * (1 - self.beta_2))
        if self.amsgrad:
            v_hat = self._velocity_hats[i]
            v_t = self.assign(v_hat, b.maximum(b.read(v_hat), v_t))
        self.assign_sub(variable, (m_t * alpha) / (b.sqrt(v_t) + self.epsilon))


class RMSprop(Optimizer):
    """RMSprop: ``v = rho * v + (1 - rho) * g^2``; ``w -= lr * g / sqrt(v + epsilon)``
    (centered: ``sqrt(v - mg^2 + epsilon)``; with momentum through a momentum slot).

    Args:
        learning_rate: The learning rate: a float, or a ``LearningRateSchedule``.
        rho: The decay rate of the squared-gradient average.
        momentum: The momentum.
        epsilon: A small constant for numerical stability.
        centered: Whether to divide by the gradient's estimated variance rather than its second
            moment.
        weight_decay: Decoupled weight decay applied to the variables; None for none.
        clipnorm: Clip each gradient to this L2 norm.
        clipvalue: Clip each gradient's elements to [-clipvalue, clipvalue].
        global_clipnorm: Clip all gradients together to this global norm.
        use_ema: Whether to keep an exponential moving average of the variables.
        ema_momentum: The momentum of that moving average.
        ema_overwrite_frequency: Every how many steps the variables are overwritten with their
            average; None: only by ``finalize_variable_values``.
        loss_scale_factor: A factor the loss is multiplied by (and the gradients divided by).
        gradient_accumulation_steps: Apply the accumulated gradients every this many steps; None
            applies each step's.
        name: A name for the operation (optional).
        **kwargs: Further arguments of Keras's optimizer base class.
    """

    def __init__(self, learning_rate: Any = 0.001, rho: float = 0.9, momentum: float = 0.0,
                 epsilon: float = 1e-7, centered: bool = False, weight_decay: float | None = None,
                 clipnorm: float | None = None, clipvalue: float | None = None,
                 global_clipnorm: float | None = None, use_ema: bool = False,
                 ema_momentum: float = 0.99, ema_overwrite_frequency: int | None = None,
                 loss_scale_factor: float | None = None,
                 gradient_accumulation_steps: int | None = None, name: str = "rmsprop",
                 **kwargs: Any):
        super().__init__(learning_rate, weight_decay, clipnorm, clipvalue, global_clipnorm,
                         use_ema, ema_momentum, ema_overwrite_frequency, loss_scale_factor,
                         gradient_accumulation_steps, name, **kwargs)
        self.rho = rho
        self.momentum = momentum
        self.epsilon = epsilon
        self.centered = centered

    def build(self, var_list: list) -> None:
        if self.built:
            return
        super().build(var_list)
        self._velocities = self.add_optimizer_variables(var_list, "velocity")
        self._momentums = self.add_optimizer_variables(var_list, "momentum") \
            if self.momentum > 0 else []
        self._average_gradients = self.add_optimizer_variables(var_list, "average_gradient") \
            if self.centered else []

    def update_step(self, gradient: Any, variable: Any, learning_rate: Any) -> None:
        b = self._b
        lr = b.cast(learning_rate, variable.dtype.base_dtype)
        i = self._get_variable_index(variable)
        rho = self.rho
        velocity = self.assign(self._velocities[i], rho * b.read(self._velocities[i])
                               + (1 - rho) * b.square(gradient))
        if self.centered:
            avg = self._average_gradients[i]
            average_grad = self.assign(avg, rho * b.read(avg) + (1 - rho) * gradient)
            denominator = velocity - b.square(average_grad) + self.epsilon
        else:
            denominator = velocity + self.epsilon
        increment = (lr * gradient) / b.sqrt(denominator)
        if self.momentum > 0:
            mom = self._momentums[i]
            self.assign_sub(variable, self.assign(mom, self.momentum * b.read(mom) + increment))
        else:
            self.assign_sub(variable, increment)


class Adagrad(Optimizer):
    """Adagrad: ``acc += g^2``; ``w -= lr * g / sqrt(acc + epsilon)`` (acc starts at 0.1).

    Args:
        learning_rate: The learning rate: a float, or a ``LearningRateSchedule``.
        initial_accumulator_value: The starting value of the accumulators.
        epsilon: A small constant for numerical stability.
        weight_decay: Decoupled weight decay applied to the variables; None for none.
        clipnorm: Clip each gradient to this L2 norm.
        clipvalue: Clip each gradient's elements to [-clipvalue, clipvalue].
        global_clipnorm: Clip all gradients together to this global norm.
        use_ema: Whether to keep an exponential moving average of the variables.
        ema_momentum: The momentum of that moving average.
        ema_overwrite_frequency: Every how many steps the variables are overwritten with their
            average; None: only by ``finalize_variable_values``.
        loss_scale_factor: A factor the loss is multiplied by (and the gradients divided by).
        gradient_accumulation_steps: Apply the accumulated gradients every this many steps; None
            applies each step's.
        name: A name for the operation (optional).
        **kwargs: Further arguments of Keras's optimizer base class.
    """

    def __init__(self, learning_rate: Any = 0.001, initial_accumulator_value: float = 0.1,
                 epsilon: float = 1e-7, weight_decay: float | None = None,
                 clipnorm: float | None = None, clipvalue: float | None = None,
                 global_clipnorm: float | None = None, use_ema: bool = False,
                 ema_momentum: float = 0.99, ema_overwrite_frequency: int | None = None,
                 loss_scale_factor: float | None = None,
                 gradient_accumulation_steps: int | None = None, name: str | None = None,
                 **kwargs: Any):
        super().__init__(learning_rate, weight_decay, clipnorm, clipvalue, global_clipnorm,
                         use_ema, ema_momentum, ema_overwrite_frequency, loss_scale_factor,
                         gradient_accumulation_steps, name, **kwargs)
        self.initial_accumulator_value = initial_accumulator_value
        self.epsilon = epsilon

    def build(self, var_list: list) -> None:
        if self.built:
            return
        super().build(var_list)
        self._accumulators = self.add_optimizer_variables(var_list, "accumulator",
                                                          self.initial_accumulator_value)

    def update_step(self, gradient: Any, variable: Any, learning_rate: Any) -> None:
        b = self._b
        lr = b.cast(learning_rate, variable.dtype.base_dtype)
        acc = self._accumulators[self._get_variable_index(variable)]
        acc_t = self.assign_add(acc, b.square(gradient))
        self.assign_sub(variable, (lr * gradient) / b.sqrt(acc_t + self.epsilon))


_BY_NAME: dict[str, Callable] = {"sgd": SGD, "adam": Adam, "rmsprop": RMSprop,
                                 "adagrad": Adagrad}


def get(identifier: Any) -> Optimizer:
    """An optimizer from its name ('adam', 'sgd', ...) or the optimizer itself.

    Args:
        identifier: A name, a config dict, a callable (or instance), or None.
    """
    if isinstance(identifier, Optimizer):
        return identifier
    if isinstance(identifier, str) and identifier.lower() in _BY_NAME:
        return _BY_NAME[identifier.lower()]()
    raise ValueError("Could not interpret optimizer identifier: %r" % (identifier,))


__all__ = ["Optimizer", "SGD", "Adam", "RMSprop", "Adagrad", "get"]


def __dir__() -> list:
    """tf.keras.optimizers of TensorFlow 2.15 (``__all__``); imported helpers stay hidden."""
    return sorted(__all__)
