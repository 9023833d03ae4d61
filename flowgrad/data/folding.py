"""tf.data transformations that carry a state across elements: ``Dataset.reduce``,
``Dataset.scan`` and ``Dataset.get_single_element``.

The user's function is traced once into a graph (as TensorFlow traces it) over the state and
one element. A state whose shape changes from one step to the next (a growing vector) is traced
again with the dimensions that changed left open, as TensorFlow relaxes the state's shape.
Eagerly, ``reduce`` and ``get_single_element`` iterate at once; in a graph (a tf.function, a
TF1 Session) they are stateful ops that iterate each time they run, reading the tensors the
dataset captures."""
from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from flowgrad import nest
from flowgrad.data import structure
from flowgrad.data.dataset_ops import TRANSFORMS, Dataset, _TracedFunction
from flowgrad.data.structure import IterationContext, flat_specs
from flowgrad.framework import dtypes, errors
from flowgrad.framework.context import executing_eagerly
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import _NO_GRADIENT, register_op
from flowgrad.framework.tensor import EagerTensor, Tensor
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.runtime.function import TensorSpec


def _state_spec(state: Any) -> tuple:
    """(the state's leaves: NumPy arrays, or graph tensors read when the op runs; its spec)."""
    norm = structure.normalize(state)
    leaves = []
    for x in structure.flatten(norm):
        if hasattr(x, "_as_tensor") and not isinstance(x, (Tensor, EagerTensor)):
            x = x._as_tensor()
        leaves.append(x if isinstance(x, Tensor) else structure.to_array(x))
    spec = nest.pack_sequence_as(norm, [
        TensorSpec(x.shape, x.dtype.base_dtype) if isinstance(x, Tensor) else structure.spec_of(x)
        for x in leaves])
    return leaves, spec


def _relaxed(a: TensorSpec, b: Any) -> TensorSpec:
    return TensorSpec(structure.most_specific_compatible(a.shape, b.shape), a.dtype)


class _StepFunction:
    """``func(state, element) -> new state`` (``with_output``: ``-> (new state, output)``)
    traced over the state's spec, relaxed until the new state fits it."""

    def __init__(self, func: Callable, state_spec: Any, element_spec: Any, what: str,
                 with_output: bool):
        n = len(flat_specs(state_spec))
        for _ in range(3):
            fn = _TracedFunction(func, (state_spec, element_spec), what)   # func(state, element)
            out = fn.output_spec
            new_state = out[0] if with_output else out
            if with_output and (not isinstance(out, tuple) or len(out) != 2):
                raise TypeError("The scan function must return a pair comprising the new "
                                "state and the output value, got %r." % (out,))
            if not structure.same_structure(state_spec, new_state):
                raise TypeError("The element structure of the new state %s does not match "
                                "that of the initial state %s." % (new_state, state_spec))
            old, new = flat_specs(state_spec), flat_specs(new_state)
            for a, b in zip(old, new):
                if a.dtype != b.dtype:
                    raise TypeError("The element types of the new state %s do not match those "
                                    "of the initial state %s." % (new_state, state_spec))
            if all(b.shape.is_compatible_with(a.shape) and
                   a.shape.as_tuple() == structure.most_specific_compatible(
                       a.shape, b.shape).as_tuple() for a, b in zip(old, new)):
                break
            state_spec = nest.pack_sequence_as(state_spec, [_relaxed(a, b)
                                                            for a, b in zip(old, new)])
        self.state_spec = state_spec
        self.output_spec = out[1] if with_output else None
        self._fn, self._n = fn, n

    def __call__(self, state: list, flat: list) -> tuple:
        out = self._fn(state + flat)
        return out[:self._n], out[self._n:]


class _ScanDataset(Dataset):
    def __init__(self, input_ds: Dataset, initial_state: Any, scan_func: Callable):
        self._initial, spec = _state_spec(initial_state)
        self._step = _StepFunction(scan_func, spec, input_ds.element_spec, "scan_func",
                                   with_output=True)
        super().__init__(self._step.output_spec, (input_ds,))
        self._captured = [x for x in self._initial if isinstance(x, Tensor)]

    def _iterate(self, ctx: IterationContext) -> Iterator[list]:
        state = [ctx.value(x) for x in self._initial]
        for flat in self._inputs[0]._iterate(ctx):
            state, out = self._step(state, flat)
            yield out

    def _cardinality(self) -> int:
        return self._inputs[0]._cardinality()


def scan(dataset: Dataset, initial_state: Any, scan_func: Callable) -> Dataset:
    """``dataset.scan(initial_state, scan_func)``: the outputs of ``scan_func(state,
    element) -> (new_state, output)`` along the dataset."""
    return _ScanDataset(dataset, initial_state, scan_func)


def _run_kernel(*inputs: Any, compute: Callable, dataset: Dataset, output_types: tuple,
                output_shapes: tuple) -> Any:
    captures = dataset._all_captures()
    bindings = {id(t): np.asarray(v) for t, v in zip(captures, inputs)}
    out = [np.asarray(v, t.np) for v, t in zip(
        compute(IterationContext(bindings), [np.asarray(v) for v in inputs[len(captures):]]),
        output_types)]
    return out[0] if len(out) == 1 else tuple(out)


def _run_infer(ins: list, attrs: dict) -> list:
    return list(zip(attrs["output_types"], attrs["output_shapes"]))


for _op in ("ReduceDataset", "DatasetToSingleElement"):
    register_op(_op, _run_kernel, _run_infer, stateful=True, grad=_NO_GRADIENT,
                num_outputs=lambda attrs: len(attrs["output_types"]),
                input_names=("captured",))


def _evaluate(op_type: str, dataset: Dataset, spec: Any, compute: Callable,
              extra: list) -> Any:
    """``compute(ctx, extra values)`` (flat arrays of ``spec``) now, eagerly, or as a
    stateful op run by a graph, which reads the tensors the dataset captures and ``extra``."""
    specs = flat_specs(spec)
    if executing_eagerly():
        return structure.to_eager(spec, compute(IterationContext(), [
            np.asarray(x._value) if isinstance(x, EagerTensor) else x for x in extra]))
    out = apply_op(op_type, dataset._all_captures() + extra, {
        "compute": compute, "dataset": dataset,
        "output_types": tuple(s.dtype for s in specs),
        "output_shapes": tuple(TensorShape(s.shape) for s in specs)}, name=op_type)
    return structure.pack(spec, [out] if len(specs) == 1 else list(out))


def reduce(dataset: Dataset, initial_state: Any, reduce_func: Callable) -> Any:
    """``dataset.reduce(initial_state, reduce_func)``: the state after
    ``reduce_func(state, element)`` has seen every element."""
    initial, spec = _state_spec(initial_state)
    step = _StepFunction(reduce_func, spec, dataset.element_spec, "reduce_func",
                         with_output=False)
    graph_leaves = [x for x in initial if isinstance(x, Tensor)]

    def compute(ctx: IterationContext, extra: list) -> list:
        values = iter(extra)
        state = [next(values) if isinstance(x, Tensor) else x for x in initial]
        for flat in dataset._iterate(ctx):
            state, _ = step(state, flat)
        return state

    return _evaluate("ReduceDataset", dataset, step.state_spec, compute, graph_leaves)


def get_single_element(dataset: Dataset) -> Any:
    """The one element of ``dataset``; InvalidArgumentError if it has none or more."""
    def compute(ctx: IterationContext, extra: list) -> list:
        source = dataset._iterate(ctx)
        first = next(source, None)
        if first is None:
            raise errors.InvalidArgumentError(None, None, "Dataset was empty.")
        if next(source, None) is not None:
            raise errors.InvalidArgumentError(None, None,
                                              "Dataset had more than one element.")
        return first

    return _evaluate("DatasetToSingleElement", dataset, dataset.element_spec, compute, [])


class Reducer:
    """``tf.data.experimental.Reducer``: how ``group_by_reducer`` folds each group.

    Args:
        init_func: ``key -> initial state`` (the key is an int64 scalar).
        reduce_func: ``(state, element) -> new state``.
        finalize_func: ``state -> output element``.
    """

    def __init__(self, init_func: Callable, reduce_func: Callable, finalize_func: Callable):
        self.init_func, self.reduce_func = init_func, reduce_func
        self.finalize_func = finalize_func


class _GroupByReducerDataset(Dataset):
    def __init__(self, input_ds: Dataset, key_func: Callable, reducer: Reducer):
        key_spec = TensorSpec([], dtypes.int64)
        self._key = _TracedFunction(key_func, input_ds.element_spec, "key_func")
        spec = self._key.output_spec
        if not isinstance(spec, TensorSpec) or spec.dtype != dtypes.int64 or \
                spec.shape.rank not in (0, None):
            raise ValueError("`key_func` must return a single tf.int64 scalar tensor. Got "
                             "type=%s and shape=%s" % (getattr(spec, "dtype", spec),
                                                       getattr(spec, "shape", None)))
        self._init = _TracedFunction(reducer.init_func, key_spec, "init_func")
        self._step = _StepFunction(reducer.reduce_func, self._init.output_spec,
                                   input_ds.element_spec, "reduce_func", with_output=False)
        self._finalize = _TracedFunction(reducer.finalize_func, self._step.state_spec,
                                         "finalize_func")
        super().__init__(self._finalize.output_spec, (input_ds,))

    def _iterate(self, ctx: IterationContext) -> Iterator[list]:
        states: dict = {}
        for flat in self._inputs[0]._iterate(ctx):
            key = int(self._key(flat)[0])
            if key not in states:
                states[key] = self._init([np.asarray(key, np.int64)])
            states[key], _ = self._step(states[key], flat)
        for key in sorted(states):      # TensorFlow's groups are an ordered map
            yield self._finalize(states[key])


def group_by_reducer(key_func: Callable, reducer: Reducer) -> Callable:
    """A transformation for ``Dataset.apply``: the elements grouped by ``key_func`` (an int64
    scalar), each group folded by ``reducer`` into one output element, in key order.

    Args:
        key_func: ``element -> tf.int64`` scalar key.
        reducer: The ``tf.data.experimental.Reducer`` of each group.

    Returns:
        A function from a dataset to a dataset.
    """
    return lambda dataset: _GroupByReducerDataset(dataset, key_func, reducer)


TRANSFORMS.update(reduce=reduce, scan=scan, get_single_element=get_single_element)

__all__ = ["scan", "reduce", "get_single_element", "Reducer", "group_by_reducer"]
