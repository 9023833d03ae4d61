"""``tf.autodiff.ForwardAccumulator``: forward-mode autodiff (Jacobian-vector products).

While active (inside its ``with`` block) the accumulator sits on the tape stack:
eagerly, each op with a tangent-carrying input reports to it (as to a GradientTape)
and it computes the op's output tangents at once, with the accumulator paused so
that the tangent ops are recorded by the other active tapes and accumulators only
(that is what makes forward-over-reverse and reverse-over-forward nest). Inside a
graph (``tf.function``, TF1) it remembers which ops were created while it was
active and computes tangents through them when ``jvp`` is asked."""
from __future__ import annotations

from typing import Any

from flowgrad import nest
from flowgrad.autodiff.forward_mode import (dense_tangents, differentiable, dummy_cotangents,
                                            graph_jvp, linear_pairs, op_jvp)
from flowgrad.framework.context import executing_eagerly, state
from flowgrad.framework.graph import get_default_graph
from flowgrad.framework.registry import gradient_function
from flowgrad.framework.tensor import EagerTensor, Tensor, convert_to_tensor
from flowgrad.autodiff.backprop import UnconnectedGradients
from flowgrad.ops.array_ops import zeros_like
from flowgrad.ops.state_ops import Variable
from flowgrad.autodiff.tape import GradientTape


def _eager_derived_jvp(rec: Any, tangents: list) -> list:
    """The double-VJP JVP of a recorded eager op, with a GradientTape."""
    fn = rec.grad_fn or gradient_function(rec)
    us = dummy_cotangents(rec)
    live = [u for u in us if u is not None]
    with GradientTape() as tape:
        tape.watch(live)
        dxs, ts = linear_pairs(rec, fn(rec, *us), tangents)
    if not dxs or not live:
        return [None] * len(rec.outputs)
    return dense_tangents(us, iter(tape.gradient(dxs, live, output_gradients=ts)))


class ForwardAccumulator:
    """Computes Jacobian-vector products of the ops run inside its ``with`` block.

    ``primals`` (tensors or variables, or a structure of them) get ``tangents`` of
    the same structure, shapes and dtypes; ``jvp(t)`` is then the directional
    derivative of ``t`` along them.

    Args:
        primals: The tensors or variables (or a nest of them) whose tangents are given.
        tangents: Their tangents, of the primals' structure and shapes.
    """

    def __init__(self, primals: Any, tangents: Any):
        flat_p, flat_t = nest.flatten(primals), nest.flatten(tangents)
        if len(flat_p) != len(flat_t):
            raise ValueError("Got %d primals but %d tangents; primals and tangents must have "
                             "the same structure." % (len(flat_p), len(flat_t)))
        self._tensors: dict = {}        # id -> tensor with a tangent (keeps the id unique)
        self._tangents: dict = {}       # id -> its tangent
        self._variables: dict = {}      # id(variable) -> its tangent
        self._graph_tangents: dict = {}  # symbolic tensor -> tangent
        self._spans: list = []          # [graph, first op id, end op id or None]
        self._recording = False
        for p, t in zip(flat_p, flat_t):
            self._watch(p, t)

    def _watch(self, primal: Any, tangent: Any) -> None:
        dt = primal.dtype.base_dtype
        if not differentiable(primal):
            raise ValueError("ForwardAccumulator: primal %r has dtype %s; only floating or "
                             "complex primals can have tangents." % (primal, dt.name))
        tangent = convert_to_tensor(tangent, dt)
        if not tangent.shape.is_compatible_with(primal.shape):
            raise ValueError("ForwardAccumulator: tangent shape %s does not match primal shape "
                             "%s." % (tangent.shape, primal.shape))
        if isinstance(primal, Variable):
            self._variables[id(primal)] = tangent
        elif isinstance(primal, EagerTensor):
            self._tensors[id(primal)] = primal
            self._tangents[id(primal)] = tangent
        elif isinstance(primal, Tensor):
            self._graph_tangents[primal] = tangent
        else:
            raise TypeError("ForwardAccumulator: primals must be tensors or variables, got %r"
                            % (primal,))

    def __enter__(self) -> ForwardAccumulator:
        if self._recording:
            raise ValueError("Accumulator is already recording.")
        state.tapes.append(self)
        self._recording = True
        if not executing_eagerly():
            g = get_default_graph()
            self._spans.append([g, len(g._ops), None])
        return self

    def __exit__(self, *exc: Any) -> None:
        state.tapes.remove(self)
        self._recording = False
        for span in self._spans:
            if span[2] is None:
                span[2] = len(span[0]._ops)

    # -- hooks called by eager op execution and variable reads ---------------------------
    def _record(self, rec: Any, live_outputs: list) -> None:
        tins = [self._tangents.get(id(t)) for t in rec.inputs]
        i = state.tapes.index(self)
        del state.tapes[i]              # tangent ops are recorded by the others only
        try:
            touts = op_jvp(rec, tins, _eager_derived_jvp)
        finally:
            state.tapes.insert(i, self)
        for o, t in zip(rec.outputs, touts):
            if t is not None:
                self._tensors[id(o)] = o
                self._tangents[id(o)] = t

    def _variable_accessed(self, var: Any, t: Any) -> None:
        tangent = self._variables.get(id(var))
        if tangent is None:
            return
        if isinstance(t, EagerTensor):
            self._tensors[id(t)] = t
            self._tangents[id(t)] = tangent
        else:
            self._graph_tangents[t] = tangent

    def _watches_call(self, tensors: list, variables: list) -> bool:
        return (any(id(t) in self._tensors for t in tensors)
                or any(id(v) in self._variables for v in variables))

    # -- results ---------------------------------------------------------------------------
    def jvp(self, primals: Any,
            unconnected_gradients: Any = UnconnectedGradients.NONE) -> Any:
        """The tangent of each tensor (or variable) in ``primals``: None, or zeros with
        ``unconnected_gradients='zero'``, where it does not depend on the watched primals."""
        unconnected = UnconnectedGradients(unconnected_gradients)
        out = [self._tangent_of(p, unconnected) for p in nest.flatten(primals)]
        return nest.pack_sequence_as(primals, out)

    def _tangent_of(self, x: Any, unconnected: UnconnectedGradients) -> Any:
        if isinstance(x, Variable):
            t = self._variables.get(id(x))
        elif isinstance(x, EagerTensor):
            t = self._tangents.get(id(x))
        elif isinstance(x, Tensor):
            self._extend_graph()
            t = self._graph_tangents.get(x)
        else:
            raise TypeError("ForwardAccumulator.jvp: expected tensors or variables, got %r"
                            % (x,))
        if t is None and unconnected is not UnconnectedGradients.NONE:
            if unconnected is UnconnectedGradients.RAISE:
                raise ValueError("ForwardAccumulator.jvp: %r does not depend on the watched "
                                 "primals" % (x,))
            t = zeros_like(x)
        return t

    def _extend_graph(self) -> None:
        """Computes the tangents of the graph ops created while active (once each)."""
        for span in self._spans:
            g, lo, hi = span
            end = len(g._ops) if hi is None else hi
            if lo >= end:
                continue
            ops = list(g._ops[lo:end])
            with g.as_default():
                graph_jvp(ops, self._graph_tangents)
            span[1] = len(g._ops) if hi is None else end


__all__ = ["ForwardAccumulator"]
