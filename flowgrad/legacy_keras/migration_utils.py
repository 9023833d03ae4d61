"""``tf.compat.v1.keras.utils.DeterministicRandomTestTool`` as Keras 2 (TensorFlow 2.7-2.15)
had it: TensorFlow's migration guides use it to make a TF1 graph in a Session and the same
model run eagerly draw the same random numbers. TF 2.16+ (Keras 3) dropped it; flowgrad keeps
it in its TF1 face's ``tf.keras`` (tests/test_deterministic_random_tool.py pins it against
tf_keras 2.21)."""
from __future__ import annotations

import sys
from typing import Any
from unittest import mock


class DeterministicRandomTestTool:
    """Makes stateful random ops draw the same numbers in TF1 graphs and eagerly.

    Inside :meth:`scope`, every stateful random op takes its seeds from the tool instead of
    the global and operation seeds: ``(seed, 0)`` in ``"constant"`` mode (every op draws as
    the first op after ``set_seed``), ``(seed, n)`` for the ``n``-th op in
    ``"num_random_ops"`` mode (the numbers depend only on the order of the random ops).

    Args:
      seed: the random seed.
      mode: ``"constant"`` or ``"num_random_ops"``.

    Raises:
      ValueError: another mode.
    """

    def __init__(self, seed: int = 42, mode: str = "constant") -> None:
        if mode not in {"constant", "num_random_ops"}:
            raise ValueError("Mode arg must be 'constant' or 'num_random_ops'. Got: %s" % mode)
        from flowgrad.ops import random_ops
        # the module whose get_seed the stateful random ops call (tf.compat.v1.get_seed's)
        self.seed_implementation = sys.modules[random_ops.get_seed.__module__]
        self._mode = mode
        self._seed = seed
        self.operation_seed = 0
        self._observed_seeds: set = set()

    @property
    def operation_seed(self) -> int:
        """The operation seed the next random op gets."""
        return self._operation_seed

    @operation_seed.setter
    def operation_seed(self, value: int) -> None:
        self._operation_seed = value

    def scope(self) -> Any:
        """Sets the global seed and gives a context in which random ops take the tool's seeds.

        Returns:
          A context manager (``mock.patch`` of ``get_seed``).
        """
        from flowgrad.ops.random_ops import set_seed
        set_seed(self._seed)

        def _get_seed(_: Any) -> tuple:
            op_seed = self._operation_seed
            if self._mode == "constant":
                set_seed(op_seed)
            else:
                if op_seed in self._observed_seeds:
                    raise ValueError(
                        "This `DeterministicRandomTestTool` object is trying to re-use the "
                        "already-used operation seed %d. It cannot guarantee random numbers "
                        "will match between eager and sessions when an operation seed is "
                        "reused. You most likely set `operation_seed` explicitly but used a "
                        "value that caused the naturally-incrementing operation seed sequences "
                        "to overlap with an already-used seed." % op_seed)
                self._observed_seeds.add(op_seed)
                self._operation_seed += 1
            return (self._seed, op_seed)

        return mock.patch.object(self.seed_implementation, "get_seed", wraps=_get_seed)
