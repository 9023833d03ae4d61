"""``tf.VariableAggregation`` and ``tf.VariableSynchronization``
(``tensorflow/python/ops/variables.py``): how a distributed variable's replicas combine
updates and when they synchronize. flowgrad's variables keep the values they are given."""
from __future__ import annotations

import enum


class VariableSynchronization(enum.Enum):
    """When a distributed variable is aggregated."""
    AUTO = 0
    NONE = 1
    ON_WRITE = 2
    ON_READ = 3


class VariableAggregation(enum.Enum):
    """How a distributed variable's replica updates are combined."""
    NONE = 0
    SUM = 1
    MEAN = 2
    ONLY_FIRST_REPLICA = 3
    ONLY_FIRST_TOWER = 3    # TensorFlow's deprecated alias

    def __hash__(self) -> int:
        return hash(self.value)


__all__ = ["VariableAggregation", "VariableSynchronization"]
