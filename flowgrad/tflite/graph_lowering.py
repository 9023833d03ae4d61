"""Lowers a flowgrad graph (a traced function's, or a TF1 graph's) to TensorFlow Lite operators.

The walk keeps the ops the outputs need. A tensor that depends on no input is a constant:
its value is computed once (variables read, weights transposed, shapes known) and written
to a buffer, as TensorFlow's converter freezes and folds. Every other op is lowered by its
record in :mod:`flowgrad.tflite.op_lowerings`, which may absorb the ops after it (a bias add
and an activation after a matrix multiplication or a convolution, as TensorFlow fuses)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from flowgrad.framework import errors
from flowgrad.framework.graph_walk import ancestors
from flowgrad.tflite.model_builder import ModelBuilder

_PASS_THROUGH = frozenset({"Identity", "StopGradient", "Snapshot", "PreventGradient",
                           "EnsureShape", "CheckNumerics"})


class Node:
    """An op in TensorFlow's form (its type, inputs and attributes as TensorFlow's op has them).

    Args:
      op: the flowgrad op.
      type: TensorFlow's op type.
      inputs: flowgrad tensors, and arrays for the inputs flowgrad keeps as attributes.
      attrs: TensorFlow's attributes.
    """

    def __init__(self, op: Any, type: str, inputs: list, attrs: dict) -> None:
        self.op = op
        self.type = type
        self.name = op.name
        self.inputs = inputs
        self.outputs = op.outputs
        self._attrs = attrs


class GraphLowering:
    """One conversion: the graph's ops between ``inputs`` and ``outputs``, in a model.

    Args:
      builder: the model being written.
      inputs: the graph's input tensors (placeholders), in signature order.
      outputs: the tensors the model returns.
      evaluate: ``f(tensor) -> np.ndarray``, the value of a tensor no input reaches.
      where: what is converted, for error messages ("function 'serve'").
      lowerings: ``{TensorFlow op type: f(lowering, node)}`` (``op_lowerings.LOWERINGS``).
      patterns: ``{op type: [match]}`` of fused subgraphs (``patterns.PATTERNS``).
    """

    def __init__(self, builder: ModelBuilder, inputs: list, outputs: list,
                 evaluate: Callable[[Any], np.ndarray], where: str, lowerings: dict,
                 patterns: dict) -> None:
        self.lowerings = lowerings
        self.patterns = patterns
        self.b = builder
        self.s = builder.s
        self.inputs = list(inputs)
        self.outputs = list(outputs)
        self._output_set = set(self.outputs)
        self._evaluate = evaluate
        self.where = where
        self.index: dict = {}           # flowgrad tensor -> TFLite tensor index
        self._values: dict = {}         # constant flowgrad tensor -> its value
        self.absorbed: set = set()      # ops a record lowered with an earlier op
        stop = set(self.inputs)
        self.ops = ancestors(self.outputs, stop=stop, control=False)
        self.live = self._live_tensors()
        self.consumers: dict = {}
        for op in self.ops:
            for t in op.inputs:
                self.consumers.setdefault(t, []).append(op)

    def _live_tensors(self) -> set:
        """The tensors that depend on an input (the rest are constants)."""
        live = set(self.inputs)
        for op in self._ordered():
            if any(t in live for t in op.inputs):
                live.update(op.outputs)
        return live

    def _ordered(self) -> list:
        """The needed ops in the graph's creation order (a topological order)."""
        g = next(iter(self.ops)).graph if self.ops else None
        return [op for op in g.get_operations() if op in self.ops] if g is not None else []

    # --- values and tensors ------------------------------------------------------------------

    def is_const(self, t: Any) -> bool:
        """Whether ``t`` depends on no input (its value is known when converting)."""
        return isinstance(t, np.ndarray) or t not in self.live

    def const(self, t: Any) -> np.ndarray | None:
        """The value of ``t`` (a tensor or an array) when it is a constant, else None."""
        if isinstance(t, np.ndarray):
            return t
        if not self.is_const(t):
            return None
        if t not in self._values:
            op = t.op
            if op._def.must_feed:
                raise errors.InvalidArgumentError(
                    None, op, "TFLiteConverter: placeholder '%s' in %s is not an input of "
                    "the conversion and has no value" % (op.name, self.where))
            if op._def.rng or (op._def.stateful and not op._def.variable
                               and op.type not in ("VariableV2", "VarHandleOp")):
                self._unsupported(op, "a stateful or random op")
            self._values[t] = np.asarray(self._evaluate(t))
        return self._values[t]

    def tensor(self, t: Any, name: str = "arith.constant") -> int:
        """The TFLite tensor index of flowgrad tensor ``t`` (a constant becomes a buffer;
        an array, named ``name``, too)."""
        if isinstance(t, np.ndarray):
            return self.new_const(t, name)
        while t.op.type in _PASS_THROUGH and t.op.inputs and t not in self.index:
            t = t.op.inputs[0]
        if t in self.index:
            return self.index[t]
        if self.is_const(t):
            value = self.const(t)
            self.index[t] = self.b.add_tensor(t.op.name, value.shape, value.dtype, value)
            return self.index[t]
        raise errors.InternalError(None, t.op, "TFLiteConverter: %s was not lowered before "
                                   "its use" % t.name)

    def new_const(self, value: np.ndarray, name: str) -> int:
        """A new constant tensor holding ``value``."""
        value = np.asarray(value)
        return self.b.add_tensor(name, value.shape, value.dtype, value)

    def output(self, t: Any, name: str | None = None) -> int:
        """A new TFLite tensor standing for the op output ``t``."""
        shape = t.shape.as_list() if t.shape.rank is not None else None
        idx = self.b.add_tensor(name or t.op.name, shape, t.dtype.base_dtype.as_numpy_dtype)
        self.index[t] = idx
        return idx

    def alias(self, t: Any, src: Any) -> None:
        """``t`` is the same TFLite tensor as ``src`` (an absorbed op's output)."""
        self.index[t] = self.tensor(src)

    # --- fusion ------------------------------------------------------------------------------

    def only_consumer(self, t: Any) -> Any:
        """The one op that reads ``t``, when ``t`` is no output and has exactly one reader."""
        users = self.consumers.get(t, [])
        if len(users) != 1 or t in self._output_set:
            return None
        return users[0]

    def absorb_bias(self, t: Any, n: int) -> tuple:
        """Absorbs a bias add of ``n`` constants after ``t``: (the sum, the bias or None)."""
        op = self.only_consumer(t)
        if op is None or op.type not in ("BiasAdd", "Add", "AddV2"):
            return t, None
        other = op.inputs[1] if op.inputs[0] is t else op.inputs[0]
        bias = self.const(other)
        if bias is None or bias.size != n or bias.shape[-1:] != (n,) \
                or op.outputs[0].shape.as_list() != t.shape.as_list():
            return t, None
        self.absorbed.add(op)
        return op.outputs[0], bias.reshape(n)

    def absorb_activation(self, t: Any) -> tuple:
        """Absorbs a Relu/Relu6 after ``t``: (the result, ActivationFunctionType)."""
        op = self.only_consumer(t)
        kinds = {"Relu": "RELU", "Relu6": "RELU6"}
        if op is None or op.type not in kinds:
            return t, self.s.ActivationFunctionType.NONE
        self.absorbed.add(op)
        return op.outputs[0], getattr(self.s.ActivationFunctionType, kinds[op.type])

    # --- the walk ----------------------------------------------------------------------------

    def canonical(self, op: Any) -> Node:
        """``op`` in TensorFlow's form: the inputs flowgrad keeps as attributes are arrays."""
        from flowgrad.saved_model import internal_op_export  # noqa: F401 - fills EXPORTERS
        from flowgrad.saved_model.graph_export import (EXPORTERS, UnexportableOpError,
                                                       exported_type)
        rule = EXPORTERS.get(op.type)
        if rule is None:
            return Node(op, op.type, list(op.inputs), dict(op._attrs))
        try:
            spec, attrs = rule(op)
        except UnexportableOpError as e:
            raise errors.UnimplementedError(None, op, "TFLiteConverter: op '%s' in %s: %s"
                                            % (op.name, self.where, e)) from e
        inputs = []
        for s in spec:
            if isinstance(s, int):
                inputs.append(op.inputs[s])
            elif isinstance(s, tuple):
                inputs.append(np.asarray(s[1], s[2].as_numpy_dtype))
            else:
                self._unsupported(op, "an op whose TensorFlow form is built at run time")
        return Node(op, exported_type(op), inputs, attrs)

    def _unsupported(self, op: Any, why: str | None = None) -> None:
        raise errors.UnimplementedError(
            None, op, "TFLiteConverter: op '%s' of type %s in %s %s" % (
                op.name, op.type, self.where,
                why and "is %s, which TensorFlow Lite cannot run" % why
                or "has no TensorFlow Lite builtin operator in flowgrad's converter"))

    def run(self) -> tuple:
        """Lowers every needed op; returns (input tensor indices, output tensor indices)."""
        in_idx = []
        for t in self.inputs:
            in_idx.append(self.output(t))
        ordered = self._ordered()
        replaced: dict = {}             # op -> the lowering that replaces it and the ops before
        for op in ordered:
            for match in self.patterns.get(op.type, ()):
                found = match(self, op)
                if found is not None:
                    lower, covered = found
                    replaced[op] = lower
                    self.absorbed.update(covered)
                    break
        for op in ordered:
            if op in replaced:
                replaced[op](self)
                continue
            if op in self.absorbed or all(self.is_const(t) for t in op.outputs):
                continue
            if op.type in _PASS_THROUGH:
                self.alias(op.outputs[0], op.inputs[0])
                continue
            node = self.canonical(op)
            rule = self.lowerings.get(node.type)
            if rule is None:
                self._unsupported(op)
            rule(self, node)
        out_idx = [self.tensor(t) for t in self.outputs]
        return in_idx, out_idx
