"""The TF2 face of a replica: the user's model built eagerly, its gradients from a
GradientTape inside a tf.function."""
from __future__ import annotations

import dataclasses
from collections.abc import Callable

import numpy as np

from flowgrad.distribute.model import (VariableSpec, check_same_specs,
                                      non_trainable_state_error)
from flowgrad.framework.context import state
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.runtime.function import function
from flowgrad.autodiff.tape import GradientTape


def _spec_names(variables: list) -> list:
    """Unique names: a Keras variable's path ('dense/kernel'), else its name without ':0'."""
    names, seen = [], {}
    for v in variables:
        name = getattr(v, "path", None) or v.name.split(":")[0]
        seen[name] = seen.get(name, 0) + 1
        names.append(name if seen[name] == 1 else "%s_%d" % (name, seen[name] - 1))
    return names


class EagerModel:
    """``model_fn()``'s tf.Module or Keras model in this process, and a tf.function that
    returns ``loss_fn(model, batch)`` and its gradients (dense arrays) for every trainable
    variable."""

    def __init__(self, model_fn: Callable, loss_fn: Callable):
        if not state.eager:
            raise ValueError("The TF2 face (loss_fn given) builds model_fn eagerly, but eager "
                             "execution is disabled in this process (tf.disable_v2_behavior)")
        self.model = model_fn()
        variables = getattr(self.model, "trainable_variables", None)
        if variables is None or not list(variables):
            raise TypeError("With a loss_fn, model_fn must return a tf.Module or Keras model "
                            "with trainable variables (built, e.g. by calling it once); it "
                            "returned %r" % (self.model,))
        fixed = list(getattr(self.model, "non_trainable_variables", None) or [])
        if fixed:
            raise ValueError(non_trainable_state_error(_spec_names(fixed)))
        self.variables = list(variables)
        self.specs = [VariableSpec(n, tuple(v.shape.as_list()),
                                   np.dtype(v.dtype.base_dtype.as_numpy_dtype).name, False, None)
                      for n, v in zip(_spec_names(self.variables), self.variables)]
        self._loss_fn = loss_fn
        self._step = function(self._loss_and_gradients)

    def _loss_and_gradients(self, batch: dict) -> tuple:
        with GradientTape() as tape:
            loss = self._loss_fn(self.model, batch)
        grads = tape.gradient(loss, self.variables)
        missing = [s.name for s, g in zip(self.specs, grads) if g is None]
        if missing:
            raise ValueError("loss_fn's loss has no gradient for the trainable variables %s; "
                             "make them non-trainable or use them in the loss" % missing)
        return loss, [convert_to_tensor(g) for g in grads]     # IndexedSlices made dense

    def values(self) -> list:
        """The trainable variables' current values."""
        return [v.numpy() for v in self.variables]

    def load(self, positions: list, values: list) -> None:
        """Assigns ``values`` to the variables at ``positions``."""
        for i, value in zip(positions, values):
            self.variables[i].assign(value)

    def gradients(self, feeds: dict) -> tuple:
        """(loss, gradients as arrays) on one batch (a dict of arrays)."""
        batch = {k: convert_to_tensor(np.asarray(v)) for k, v in feeds.items()}
        loss, grads = self._step(batch)
        return float(loss.numpy()), [g.numpy() for g in grads]


def check_same_layout(expected: list, got: list, where: str) -> None:
    """Checks that two processes' eager models have the same variables in the same order
    (names may differ: Keras numbers its layers per process)."""
    if len(expected) == len(got):
        got = [dataclasses.replace(g, name=e.name) for e, g in zip(expected, got)]
    check_same_specs(expected, got, where)

