"""``tf.train.GradientDescentOptimizer``: var -= learning_rate * gradient."""
from __future__ import annotations

from typing import Any

from flowgrad.framework.indexed_slices import IndexedSlices
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.ops import training_ops
from flowgrad.ops.math_ops import multiply
from flowgrad.train.optimizer import Optimizer, _op_of


class GradientDescentOptimizer(Optimizer):
    """Plain gradient descent; sparse gradients update only their rows (ScatterSub).

    Args:
        learning_rate: A float or a scalar tensor (a schedule's tensor in graph mode).
        use_locking: Accepted for TensorFlow's signature; session runs are all-or-nothing.
        name: The prefix of the optimizer's op names.
    """

    def __init__(self, learning_rate: Any, use_locking: bool = False,
                 name: str = "GradientDescent"):
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._learning_rate_tensor: Any = None

    def _prepare(self) -> None:
        self._learning_rate_tensor = convert_to_tensor(
            self._call_if_callable(self._learning_rate), name="learning_rate")

    def _apply_dense(self, grad: Any, var: Any) -> Any:
        return _op_of(training_ops.apply_gradient_descent(
            var, self._cast_hyper(self._learning_rate_tensor, var), grad,
            use_locking=self._use_locking))

    def _apply_sparse(self, grad: IndexedSlices, var: Any) -> Any:
        delta = multiply(grad.values, self._cast_hyper(self._learning_rate_tensor, var))
        return _op_of(training_ops.scatter_sub(var, grad.indices, delta,
                                               use_locking=self._use_locking))
