"""``tf.train.Optimizer``: the TF1 optimizer base class (compute_gradients, apply_gradients)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flowgrad.framework import dtypes
from flowgrad.framework.context import executing_eagerly
from flowgrad.framework.graph import (
    GraphKeys,
    Operation,
    control_dependencies,
    get_default_graph,
    name_scope,
)
from flowgrad.framework.indexed_slices import IndexedSlices
from flowgrad.framework.shape_rules import check_gradient_shapes
from flowgrad.framework.tensor import Tensor, convert_to_tensor
from flowgrad.autodiff.backprop import gradients
from flowgrad.ops.array_ops import identity
from flowgrad.ops.control_flow_ops import group
from flowgrad.ops.math_ops import cast
from flowgrad.ops.state_ops import Variable, trainable_variables
from flowgrad.train import slot_creator

_VALID_DTYPES = (dtypes.float16, dtypes.float32, dtypes.float64)


def _flatten(x: Any) -> list:
    if isinstance(x, (list, tuple)):
        return [y for item in x for y in _flatten(item)]
    if isinstance(x, dict):
        return [y for k in sorted(x) for y in _flatten(x[k])]
    return [x]


def _op_of(update: Any) -> Any:
    """The Operation of an update op's result (None when it ran eagerly)."""
    if isinstance(update, Tensor):
        return update.op
    return update if isinstance(update, Operation) else None


def _var_key(var: Any) -> Any:
    """A dictionary key for a variable (eager variables are not hashable)."""
    return var.ref() if hasattr(var, "ref") else var


def _gate_all(grads: list) -> list:
    """The gradients, each available only once all of them are computed (GATE_GRAPH)."""
    present = [g for g in grads if g is not None]
    parts = [t for g in present for t in ((g.values, g.indices) if isinstance(g, IndexedSlices)
                                          else (g,))]
    gate = group(*parts)
    out = []
    with control_dependencies([gate]):
        for g in grads:
            if isinstance(g, IndexedSlices):
                g = IndexedSlices(identity(g.values), g.indices, g.dense_shape)
            elif g is not None:
                g = identity(g, name="control_dependency")
            out.append(g)
    return out


class Optimizer:
    """Base class for the TF1 optimizers (``tf.train.GradientDescentOptimizer`` ...).

    Subclasses define ``_create_slots``, ``_prepare``, ``_apply_dense``,
    ``_apply_sparse`` and optionally ``_finish``.

    Args:
        use_locking: Accepted for TensorFlow's signature (updates do not race here).
        name: The name of the optimizer's ops and slots.
    """

    GATE_NONE = 0
    GATE_OP = 1
    GATE_GRAPH = 2

    def __init__(self, use_locking: bool, name: str):
        if not name:
            raise ValueError("Must specify the optimizer name")
        self._use_locking = use_locking
        self._name = name
        self._slots: dict = {}          # slot name -> {variable: slot variable}
        self._non_slot_dict: dict = {}  # (name, graph) -> variable

    def get_name(self) -> str:
        return self._name

    # -- the public API ---------------------------------------------------------------
    def minimize(self, loss: Any, global_step: Any = None, var_list: Any = None,
                 gate_gradients: int = GATE_OP, aggregation_method: Any = None,
                 colocate_gradients_with_ops: bool = False, name: str | None = None,
                 grad_loss: Any = None) -> Any:
        """compute_gradients + apply_gradients: an op that takes one step on ``loss``."""
        grads_and_vars = self.compute_gradients(
            loss, var_list=var_list, gate_gradients=gate_gradients,
            aggregation_method=aggregation_method,
            colocate_gradients_with_ops=colocate_gradients_with_ops, grad_loss=grad_loss)
        vars_with_grad = [v for g, v in grads_and_vars if g is not None]
        if not vars_with_grad:
            from flowgrad.debug.explain import explain_no_gradients
            why = explain_no_gradients(loss, [v for _, v in grads_and_vars])
            raise ValueError(
                "No gradients provided for any variable, check your graph for ops that do not "
                "support gradients, between variables %s and loss %s.%s"
                % ([str(v) for _, v in grads_and_vars], loss, "\n" + why if why else ""))
        return self.apply_gradients(grads_and_vars, global_step=global_step, name=name)

    def compute_gradients(self, loss: Any, var_list: Any = None,
                          gate_gradients: int = GATE_OP, aggregation_method: Any = None,
                          colocate_gradients_with_ops: bool = False,
                          grad_loss: Any = None) -> list:
        """[(gradient or None, variable)] of ``loss`` for ``var_list`` (default: the
        trainable variables). In eager mode ``loss`` must be a function."""
        if callable(loss):
            if executing_eagerly():
                return self._eager_gradients(loss, var_list, grad_loss)
            loss = loss()
        elif executing_eagerly():
            raise RuntimeError("`loss` passed to Optimizer.compute_gradients should be a "
                               "function when eager execution is enabled.")
        if gate_gradients not in (Optimizer.GATE_NONE, Optimizer.GATE_OP,
                                  Optimizer.GATE_GRAPH):
            raise ValueError("gate_gradients must be one of: Optimizer.GATE_NONE, "
                             "Optimizer.GATE_OP, Optimizer.GATE_GRAPH.  Not %s"
                             % gate_gradients)
        loss = convert_to_tensor(loss)
        self._assert_valid_dtypes([loss])
        if grad_loss is not None:
            grad_loss = convert_to_tensor(grad_loss)
            self._assert_valid_dtypes([grad_loss])
        var_list = trainable_variables() if var_list is None else _flatten(var_list)
        if not var_list:
            raise ValueError("No variables to optimize.")
        for v in var_list:
            if not isinstance(v, (Variable, Tensor)):
                raise NotImplementedError("Trying to optimize unsupported type %r" % (v,))
        grads = gradients(loss, [v._ref() for v in var_list], grad_ys=grad_loss,
                          gate_gradients=gate_gradients == Optimizer.GATE_OP,
                          aggregation_method=aggregation_method,
                          colocate_gradients_with_ops=colocate_gradients_with_ops)
        if gate_gradients == Optimizer.GATE_GRAPH:
            grads = _gate_all(grads)
        grads_and_vars = list(zip(grads, var_list))
        self._assert_valid_dtypes([v for g, v in grads_and_vars if g is not None])
        return grads_and_vars

    def _eager_gradients(self, loss: Callable, var_list: Any, grad_loss: Any) -> list:
        from flowgrad.autodiff.tape import GradientTape
        with GradientTape() as tape:
            if var_list is not None:
                var_list = _flatten(var_list)
                tape.watch(var_list)
            loss_value = loss()
        if var_list is None:
            var_list = list(tape.watched_variables())
        grads = tape.gradient(loss_value, var_list, grad_loss)
        return list(zip(grads, var_list))

    def apply_gradients(self, grads_and_vars: Any, global_step: Any = None,
                        name: str | None = None) -> Any:
        """An op applying the (gradient, variable) pairs; None gradients are skipped.

        With ``global_step`` the op also adds one to it after the updates."""
        grads_and_vars = tuple(grads_and_vars)
        if not grads_and_vars:
            raise ValueError("No variables provided.")
        converted = []
        for g, v in grads_and_vars:
            if g is not None:
                if not isinstance(g, IndexedSlices):
                    try:
                        g = convert_to_tensor(g)
                    except (TypeError, ValueError):
                        raise TypeError("Gradient must be convertible to a Tensor or "
                                        "IndexedSlices, or None: %s" % (g,)) from None
                if not isinstance(v, Variable):
                    raise NotImplementedError("Trying to update a Tensor %s" % (v,))
            converted.append((g, v))
        var_list = [v for g, v in converted if g is not None]
        if not var_list:
            raise ValueError("No gradients provided for any variable: %s."
                             % ([str(v) for _, v in converted],))
        if executing_eagerly():     # eager updates apply at once: check all pairs first
            check_gradient_shapes(converted)
        with control_dependencies(None):
            self._create_slots(var_list)
        update_ops = []
        with name_scope(name, self._name) as scope:
            self._prepare()
            for grad, var in converted:
                if grad is None:
                    continue
                var_scope = "" if executing_eagerly() else var.op.name
                with name_scope("update_" + var_scope):
                    if isinstance(grad, IndexedSlices):
                        update_ops.append(self._apply_sparse(grad, var))
                    else:
                        update_ops.append(self._apply_dense(grad, var))
            if global_step is None:
                apply_updates = self._finish(update_ops, scope)
            else:
                with control_dependencies([self._finish(update_ops, "update")]):
                    apply_updates = _op_of(global_step.assign_add(1, name=scope))
            if not executing_eagerly() and apply_updates not in \
                    get_default_graph().get_collection(GraphKeys.TRAIN_OP):
                get_default_graph().add_to_collection(GraphKeys.TRAIN_OP, apply_updates)
            return apply_updates

    def get_slot(self, var: Any, name: str) -> Any:
        """The slot variable ``name`` of ``var`` (None if there is none)."""
        return self._slots.get(name, {}).get(_var_key(var))

    def get_slot_names(self) -> list:
        """The names of the slots this optimizer creates, sorted."""
        return sorted(self._slots)

    def variables(self) -> list:
        """The optimizer's own variables (slots and non-slot ones) of the current graph."""
        graph = None if executing_eagerly() else get_default_graph()
        found = [v for (_, g), v in self._non_slot_dict.items() if g is graph]
        for slots in self._slots.values():
            found.extend(v for v in slots.values() if graph is None or v.graph is graph)
        return sorted(found, key=lambda v: v.name)

    # -- helpers for subclasses -------------------------------------------------------
    @staticmethod
    def _call_if_callable(param: Any) -> Any:
        return param() if callable(param) else param

    def _assert_valid_dtypes(self, tensors: list) -> None:
        for t in tensors:
            dtype = t.dtype.base_dtype
            if dtype not in _VALID_DTYPES:
                raise ValueError("Invalid type %r for %s, expected: %s."
                                 % (dtype, t.name, list(_VALID_DTYPES)))

    def _slot_dict(self, slot_name: str) -> dict:
        return self._slots.setdefault(slot_name, {})

    def _zeros_slot(self, var: Any, slot_name: str, op_name: str) -> Any:
        return self._filled_slot(var, 0.0, slot_name, op_name)

    def _filled_slot(self, var: Any, value: float, slot_name: str, op_name: str) -> Any:
        slots = self._slot_dict(slot_name)
        key = _var_key(var)
        if key not in slots:
            slots[key] = slot_creator.create_slot_with_value(var, value, op_name)
        return slots[key]

    def _create_non_slot_variable(self, initial_value: Any, name: str,
                                  colocate_with: Any) -> Any:
        graph = None if executing_eagerly() else colocate_with.graph
        key = (name, graph)
        v = self._non_slot_dict.get(key)
        if v is None:
            with control_dependencies(None):
                v = Variable(initial_value, name=name, trainable=False)
            self._non_slot_dict[key] = v
        return v

    def _get_non_slot_variable(self, name: str, graph: Any = None) -> Any:
        return self._non_slot_dict.get((name, graph))

    @staticmethod
    def _cast_hyper(t: Any, var: Any) -> Any:
        """A hyper-parameter tensor cast to the variable's dtype."""
        return cast(t, var.dtype.base_dtype)

    # -- what subclasses define -------------------------------------------------------
    def _create_slots(self, var_list: list) -> None:
        """Creates the slots of each variable (none by default)."""

    def _prepare(self) -> None:
        """Converts the hyper-parameters to tensors (inside the apply name scope)."""

    def _apply_dense(self, grad: Any, var: Any) -> Any:
        raise NotImplementedError()

    def _apply_sparse(self, grad: IndexedSlices, var: Any) -> Any:
        raise NotImplementedError()

    def _finish(self, update_ops: list, name_scope: str) -> Any:
        """The op grouping the per-variable updates (plus any final updates)."""
        return group(*update_ops, name=name_scope)
