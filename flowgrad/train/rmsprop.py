"""``tf.train.RMSPropOptimizer`` (TF1: the ``rms`` slot starts at 1.0, epsilon = 1e-10)."""
from __future__ import annotations

from typing import Any

from flowgrad.framework.indexed_slices import IndexedSlices
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.ops import training_ops
from flowgrad.train.optimizer import Optimizer, _op_of


class RMSPropOptimizer(Optimizer):
    """RMSProp: ms = decay * ms + (1 - decay) * g^2;
    mom = momentum * mom + lr * g / sqrt(ms + epsilon); var -= mom.

    ``centered`` divides by the estimated variance (ms - mg^2) instead.

    Args:
        learning_rate: A float or a scalar tensor.
        decay: The discounting factor of the mean square ``ms``.
        momentum: The momentum, a float or a scalar tensor.
        epsilon: A small constant added to ``ms`` for numerical stability.
        use_locking: Accepted for TensorFlow's signature; session runs are all-or-nothing.
        centered: If true, normalizes by the estimated variance of the gradient.
        name: The prefix of the optimizer's op and slot names.
    """

    def __init__(self, learning_rate: Any, decay: Any = 0.9, momentum: Any = 0.0,
                 epsilon: Any = 1e-10, use_locking: bool = False, centered: bool = False,
                 name: str = "RMSProp"):
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._decay = decay
        self._momentum = momentum
        self._epsilon = epsilon
        self._centered = centered
        self._hyper: dict = {}

    def _create_slots(self, var_list: list) -> None:
        for v in var_list:
            self._filled_slot(v, 1.0, "rms", self._name)
            if self._centered:
                self._zeros_slot(v, "mg", self._name)
            self._zeros_slot(v, "momentum", self._name)

    def _prepare(self) -> None:
        for key, value in (("learning_rate", self._learning_rate), ("decay", self._decay),
                           ("momentum", self._momentum), ("epsilon", self._epsilon)):
            self._hyper[key] = convert_to_tensor(self._call_if_callable(value), name=key)

    def _hypers(self, var: Any) -> list:
        return [self._cast_hyper(self._hyper[k], var)
                for k in ("learning_rate", "decay", "momentum", "epsilon")]

    def _apply_dense(self, grad: Any, var: Any) -> Any:
        rms, mom = self.get_slot(var, "rms"), self.get_slot(var, "momentum")
        if self._centered:
            return _op_of(training_ops.apply_centered_rms_prop(
                var, self.get_slot(var, "mg"), rms, mom, *self._hypers(var), grad,
                use_locking=self._use_locking))
        return _op_of(training_ops.apply_rms_prop(var, rms, mom, *self._hypers(var), grad,
                                                  use_locking=self._use_locking))

    def _apply_sparse(self, grad: IndexedSlices, var: Any) -> Any:
        rms, mom = self.get_slot(var, "rms"), self.get_slot(var, "momentum")
        if self._centered:
            return _op_of(training_ops.sparse_apply_centered_rms_prop(
                var, self.get_slot(var, "mg"), rms, mom, *self._hypers(var), grad.values,
                grad.indices, use_locking=self._use_locking))
        return _op_of(training_ops.sparse_apply_rms_prop(
            var, rms, mom, *self._hypers(var), grad.values, grad.indices,
            use_locking=self._use_locking))
