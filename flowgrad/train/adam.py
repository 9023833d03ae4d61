"""``tf.train.AdamOptimizer`` (TensorFlow 1's form of Adam)."""
from __future__ import annotations

from typing import Any

from flowgrad.framework.context import executing_eagerly
from flowgrad.framework.graph import control_dependencies, get_default_graph
from flowgrad.framework.indexed_slices import IndexedSlices
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.ops import training_ops
from flowgrad.ops.control_flow_ops import group
from flowgrad.train.optimizer import Optimizer, _op_of


class AdamOptimizer(Optimizer):
    """Adam as TensorFlow 1 computes it::

        lr_t = lr * sqrt(1 - beta2^t) / (1 - beta1^t)
        m = beta1 * m + (1 - beta1) * g
        v = beta2 * v + (1 - beta2) * g^2
        var -= lr_t * m / (sqrt(v) + epsilon)

    (epsilon is added to sqrt(v), not to the bias-corrected sqrt(v_hat)). The
    powers beta1^t and beta2^t live in the non-slot variables ``beta1_power`` and
    ``beta2_power``, multiplied by beta1 and beta2 after every step.

    Args:
        learning_rate: A float or a scalar tensor.
        beta1: The exponential decay rate of the first-moment estimates.
        beta2: The exponential decay rate of the second-moment estimates.
        epsilon: A small constant added to ``sqrt(v)`` for numerical stability.
        use_locking: Accepted for TensorFlow's signature; session runs are all-or-nothing.
        name: The prefix of the optimizer's op and slot names.
    """

    def __init__(self, learning_rate: Any = 0.001, beta1: Any = 0.9, beta2: Any = 0.999,
                 epsilon: Any = 1e-8, use_locking: bool = False, name: str = "Adam"):
        super().__init__(use_locking, name)
        self._lr = learning_rate
        self._beta1 = beta1
        self._beta2 = beta2
        self._epsilon = epsilon
        self._hyper: dict = {}

    def _get_beta_accumulators(self) -> tuple:
        graph = None if executing_eagerly() else get_default_graph()
        return (self._get_non_slot_variable("beta1_power", graph=graph),
                self._get_non_slot_variable("beta2_power", graph=graph))

    def _create_slots(self, var_list: list) -> None:
        first_var = min(var_list, key=lambda x: x.name)
        self._create_non_slot_variable(self._call_if_callable(self._beta1), "beta1_power",
                                       first_var)
        self._create_non_slot_variable(self._call_if_callable(self._beta2), "beta2_power",
                                       first_var)
        for v in var_list:
            self._zeros_slot(v, "m", self._name)
            self._zeros_slot(v, "v", self._name)

    def _prepare(self) -> None:
        for key, value, name in (("lr", self._lr, "learning_rate"), ("beta1", self._beta1, "beta1"),
                                 ("beta2", self._beta2, "beta2"),
                                 ("epsilon", self._epsilon, "epsilon")):
            self._hyper[key] = convert_to_tensor(self._call_if_callable(value), name=name)

    def _cast(self, var: Any) -> dict:
        beta1_power, beta2_power = self._get_beta_accumulators()
        out = {k: self._cast_hyper(t, var) for k, t in self._hyper.items()}
        out["beta1_power"] = self._cast_hyper(beta1_power, var)
        out["beta2_power"] = self._cast_hyper(beta2_power, var)
        return out

    def _apply_dense(self, grad: Any, var: Any) -> Any:
        h = self._cast(var)
        return _op_of(training_ops.apply_adam(
            var, self.get_slot(var, "m"), self.get_slot(var, "v"), h["beta1_power"],
            h["beta2_power"], h["lr"], h["beta1"], h["beta2"], h["epsilon"], grad,
            use_locking=self._use_locking))

    def _apply_sparse(self, grad: IndexedSlices, var: Any) -> Any:
        # TensorFlow 1's sparse Adam decays m and v everywhere, adds the gradient's rows
        # (duplicates summed) and moves every element of var: the dense update of the
        # densified gradient.
        return self._apply_dense(convert_to_tensor(grad), var)

    def _finish(self, update_ops: list, name_scope: str) -> Any:
        with control_dependencies([op for op in update_ops if op is not None]):
            beta1_power, beta2_power = self._get_beta_accumulators()
            update_beta1 = beta1_power.assign(beta1_power * self._hyper["beta1"],
                                              use_locking=self._use_locking)
            update_beta2 = beta2_power.assign(beta2_power * self._hyper["beta2"],
                                              use_locking=self._use_locking)
        return group(*update_ops, _op_of(update_beta1), _op_of(update_beta2), name=name_scope)
