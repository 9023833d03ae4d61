"""``tf.map_fn``, ``tf.scan``, ``tf.foldl``, ``tf.foldr``: loops over the first axis.

In a graph each is one While op whose *sliced inputs* are the elements (the body
sees row ``t`` at iteration ``t``) and whose per-iteration outputs are stacked by
the op itself, so the gradient with respect to the elements is the backward
loop's stacked output (no per-iteration copies of whole tensors). Eagerly they
run a Python loop, as TensorFlow does."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flowgrad import nest
from flowgrad.framework import dtypes
from flowgrad.framework.context import executing_eagerly
from flowgrad.framework.graph import name_scope
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.ops.array_ops import concat, expand_dims, reverse, stack, stop_gradient
from flowgrad.ops.comparison_ops import equal
from flowgrad.ops.fill_ops import range as fill_range
from flowgrad.ops.indexing_ops import boolean_mask
from flowgrad.ops.ragged_tensor import RaggedTensor
from flowgrad.ops.sparse_tensor import SparseTensor
from flowgrad.ops.while_v2 import build_while, check_parallel_iterations
from flowgrad.framework.type_hints import DTypeLike, TensorLike


def _elements(elems: Any, name: str, expand: bool = False) -> tuple[list, int | None]:
    flat = [convert_to_tensor(e) for e in nest.flatten(elems, expand_composites=expand)]
    if not flat:
        raise ValueError("%s: elems must be a tensor or a non-empty structure of tensors" % name)
    n = None
    for e in flat:
        if e.shape.rank == 0:
            raise ValueError("%s: elements in elems must be 1+ dimensional, got a scalar %s"
                             % (name, getattr(e, "name", "")))
        d = e.shape.as_tuple()[0] if e.shape.rank is not None else None
        if d is not None:
            if n is not None and d != n:
                raise ValueError("%s: all elems must have the same first dimension, got %d and "
                                 "%d" % (name, n, d))
            n = d
    return flat, n


def _check_signature(name: str, outs: list, signature: Any) -> None:
    if signature is None:
        return
    flat_sig = nest.flatten(signature, expand_composites=True)
    if len(flat_sig) != len(outs):
        raise ValueError("%s: fn returned %d tensors but fn_output_signature describes %d"
                         % (name, len(outs), len(flat_sig)))
    for i, (o, s) in enumerate(zip(outs, flat_sig)):
        dt = dtypes.as_dtype(getattr(s, "dtype", s))
        if o.dtype.base_dtype is not dt.base_dtype:
            raise TypeError("%s: fn output %d has dtype %s, but fn_output_signature says %s"
                            % (name, i, o.dtype.name, dt.name))


def map_fn(fn: Callable, elems: TensorLike, dtype: DTypeLike | None = None,
           parallel_iterations: Any = None, back_prop: bool = True, swap_memory: bool = False,
           infer_shape: bool = True, name: str | None = None,
           fn_output_signature: Any = None) -> Any:
    """``stack([fn(x) for x in unstack(elems)])`` (over the first axis of each element).

    ``elems`` may be a structure of tensors (``fn`` gets the same structure of rows);
    ``fn_output_signature`` (or the older ``dtype``) declares the output dtypes.

    Args:
        fn: A callable taking one element (the same nest as ``elems``).
        elems: A tensor (or a nest of tensors) unpacked along its first dimension.
        dtype: TF1's name for ``fn_output_signature``.
        parallel_iterations: Accepted for TensorFlow's signature (iterations run in order).
        back_prop: Whether gradients flow through the loop.
        swap_memory: Accepted for TensorFlow's signature.
        infer_shape: Whether the elements must all have the first element's shape.
        name: A name for the operation (optional).
        fn_output_signature: The dtype (or nest of dtypes/TensorSpecs) of ``fn``'s output, when it
            differs from the elements'.
    """
    signature = fn_output_signature if fn_output_signature is not None else dtype
    name = name or "map"
    if any(isinstance(e, RaggedTensor) for e in nest.flatten(elems)):
        return _map_ragged(fn, elems, signature, name)
    if any(isinstance(e, SparseTensor) for e in nest.flatten(elems)):
        return _map_sparse(fn, elems, dtype, parallel_iterations, back_prop, swap_memory,
                           infer_shape, name, fn_output_signature)
    flat, n = _elements(elems, name, expand=True)
    if executing_eagerly():
        rows = [fn(nest.pack_sequence_as(elems, [e[i] for e in flat], expand_composites=True))
                for i in range(int(flat[0].shape[0]))]
        if not rows:
            raise ValueError("%s: map_fn over zero elements needs graph mode" % name)
        structure = rows[0]
        flat_rows = [[convert_to_tensor(x) for x in nest.flatten(r, expand_composites=True)]
                     for r in rows]
        _check_signature(name, flat_rows[0], signature)
        return nest.pack_sequence_as(structure, [stack(list(c)) for c in zip(*flat_rows)],
                                     expand_composites=True)
    structure: list = []

    def body(*slices: Any) -> tuple:
        out = fn(nest.pack_sequence_as(elems, list(slices), expand_composites=True))
        structure.append(out)
        outs = [convert_to_tensor(x) for x in nest.flatten(out, expand_composites=True)]
        _check_signature(name, outs, signature)
        return [], outs
    with name_scope(name):
        _, extras, _, _ = build_while(None, body, [], [], sliced=flat, name="while",
                                      static_n=n)
    if not back_prop:
        extras = [stop_gradient(t) for t in extras]
    return nest.pack_sequence_as(structure[0], extras, expand_composites=True)


def _map_sparse(fn: Callable, elems: Any, *args: Any) -> Any:
    """map_fn over elements holding SparseTensors: each SparseTensor is mapped as the row
    ids ``range(dense_shape[0])`` and ``fn`` gets row ``i``, the SparseTensor one rank lower
    of the entries whose first index is ``i`` (TensorFlow maps its serialized rows)."""
    leaves = nest.flatten(elems)

    def row_ids(st: SparseTensor) -> Any:
        n = st.shape[0] if st.shape.rank else None
        count = n if n is not None else st.dense_shape[0]
        return fill_range(convert_to_tensor(count, dtypes.int64))

    def sparse_row(st: SparseTensor, i: Any) -> SparseTensor:
        keep = equal(st.indices[:, 0], i)
        return SparseTensor(boolean_mask(st.indices[:, 1:], keep),
                            boolean_mask(st.values, keep), st.dense_shape[1:])

    proxies = [row_ids(e) if isinstance(e, SparseTensor) else e for e in leaves]

    def fn_of_rows(rows: Any) -> Any:
        parts = [sparse_row(e, r) if isinstance(e, SparseTensor) else r
                 for e, r in zip(leaves, nest.flatten(rows))]
        return fn(nest.pack_sequence_as(elems, parts))

    return map_fn(fn_of_rows, nest.pack_sequence_as(elems, proxies), *args)


def _map_ragged(fn: Callable, elems: Any, signature: Any, name: str) -> Any:
    """map_fn over elements holding RaggedTensors (eagerly, row by row): ``fn`` gets each
    row as a tensor; its outputs come back ragged (TensorFlow's default for ragged elements,
    or a RaggedTensorSpec signature) or stacked (a dense signature)."""
    if not executing_eagerly():
        raise NotImplementedError("%s: map_fn over RaggedTensor elements runs eagerly only in "
                                  "flowgrad" % name)
    flat = nest.flatten(elems)
    rows = [fn(nest.pack_sequence_as(elems, [e[i] for e in flat]))
            for i in range(int(flat[0].nrows() if isinstance(flat[0], RaggedTensor)
                               else flat[0].shape[0]))]
    ragged = signature is None or type(signature).__name__ == "RaggedTensorSpec"
    if not ragged:
        flat_rows = [[convert_to_tensor(x) for x in nest.flatten(r)] for r in rows]
        _check_signature(name, flat_rows[0], signature)
        return nest.pack_sequence_as(rows[0], [stack(list(c)) for c in zip(*flat_rows)])
    flat_rows = [[convert_to_tensor(x) for x in nest.flatten(r)] for r in rows]
    return nest.pack_sequence_as(rows[0], [RaggedTensor.from_row_lengths(
        concat(list(c), 0), [int(x.shape[0]) for x in c]) for c in zip(*flat_rows)])


def _scan(fn: Callable, elems: Any, initializer: Any, back_prop: bool, reverse_: bool,
          name: str, keep_all: bool) -> Any:
    flat, n = _elements(elems, name)
    if initializer is None:
        first = [e[-1] if reverse_ else e[0] for e in flat]
        flat = [e[:-1] if reverse_ else e[1:] for e in flat]
        init_structure = elems
        init = first
        n = None if n is None else n - 1
    else:
        init_structure = initializer
        init = [convert_to_tensor(x) for x in nest.flatten(initializer)]
    if executing_eagerly():
        acc = nest.pack_sequence_as(init_structure, init)
        accs = []
        count = int(flat[0].shape[0])
        for i in (reversed(range(count)) if reverse_ else range(count)):
            acc = fn(acc, nest.pack_sequence_as(elems, [e[i] for e in flat]))
            accs.append(acc)
        if not keep_all:
            return acc
        if initializer is None:
            accs.insert(0, nest.pack_sequence_as(init_structure, init))
        if reverse_:
            accs.reverse()
        columns = zip(*[nest.flatten(a) for a in accs])
        return nest.pack_sequence_as(init_structure, [stack(list(c)) for c in columns])
    with name_scope(name):
        sliced = [reverse(e, [0]) for e in flat] if reverse_ else flat

        def body(*args: Any) -> tuple:
            acc = nest.pack_sequence_as(init_structure, list(args[:len(init)]))
            x = nest.pack_sequence_as(elems, list(args[len(init):]))
            new = fn(acc, x)
            try:
                new_flat = [convert_to_tensor(t) for t in nest.flatten(new)]
            except TypeError:
                new_flat = []
            if len(new_flat) != len(init):
                raise ValueError("%s: fn must return the structure of the accumulator (%d "
                                 "tensors), got %r" % (name, len(init), new))
            return new_flat, (new_flat if keep_all else [])
        finals, extras, _, _ = build_while(None, body, init, [t.shape for t in init],
                                           sliced=sliced, name="while", static_n=n)
        outs = extras if keep_all else finals
        if keep_all and initializer is None:
            outs = [concat([expand_dims(f, 0), o], 0) for f, o in zip(init, outs)]
        if keep_all and reverse_:
            outs = [reverse(o, [0]) for o in outs]
    if not back_prop:
        outs = [stop_gradient(t) for t in outs]
    return nest.pack_sequence_as(init_structure, outs)


def scan(fn: Callable, elems: TensorLike, initializer: Callable | TensorLike | None = None,
         parallel_iterations: int = 10, back_prop: bool = True, swap_memory: bool = False,
         infer_shape: bool = True, reverse: bool = False, name: str | None = None) -> Any:
    """The stacked accumulators of ``acc = fn(acc, x)`` over the rows ``x`` of ``elems``.

    Without ``initializer`` the first row is the initial accumulator (and the first
    output). ``reverse`` scans from the last row, keeping outputs in row order.

    Args:
        fn: A callable (accumulator, element) -> new accumulator.
        elems: A tensor (or a nest of tensors) unpacked along its first dimension.
        initializer: The first accumulator value (a nest of tensors); the first element when None.
        parallel_iterations: Accepted for TensorFlow's signature (iterations run in order).
        back_prop: Whether gradients flow through the loop.
        swap_memory: Accepted for TensorFlow's signature.
        infer_shape: Whether the elements must all have the first element's shape.
        reverse: Whether to scan from the last element.
        name: A name for the operation (optional).
    """
    check_parallel_iterations(parallel_iterations)
    return _scan(fn, elems, initializer, back_prop, reverse, name or "scan", True)


def foldl(fn: Callable, elems: TensorLike, initializer: Callable | TensorLike | None = None,
          parallel_iterations: int = 10, back_prop: bool = True, swap_memory: bool = False,
          name: str | None = None) -> Any:
    """The final ``acc = fn(acc, x)`` over the rows of ``elems``, first to last.

    Args:
        fn: A callable (accumulator, element) -> new accumulator.
        elems: A tensor (or a nest of tensors) unpacked along its first dimension.
        initializer: The first accumulator value (a nest of tensors); the first element when None.
        parallel_iterations: Accepted for TensorFlow's signature (iterations run in order).
        back_prop: Whether gradients flow through the loop.
        swap_memory: Accepted for TensorFlow's signature.
        name: A name for the operation (optional).
    """
    check_parallel_iterations(parallel_iterations)
    return _scan(fn, elems, initializer, back_prop, False, name or "foldl", False)


def foldr(fn: Callable, elems: TensorLike, initializer: Callable | TensorLike | None = None,
          parallel_iterations: int = 10, back_prop: bool = True, swap_memory: bool = False,
          name: str | None = None) -> Any:
    """The final ``acc = fn(acc, x)`` over the rows of ``elems``, last to first.

    Args:
        fn: A callable (accumulator, element) -> new accumulator.
        elems: A tensor (or a nest of tensors) unpacked along its first dimension.
        initializer: The first accumulator value (a nest of tensors); the first element when None.
        parallel_iterations: Accepted for TensorFlow's signature (iterations run in order).
        back_prop: Whether gradients flow through the loop.
        swap_memory: Accepted for TensorFlow's signature.
        name: A name for the operation (optional).
    """
    check_parallel_iterations(parallel_iterations)
    return _scan(fn, elems, initializer, back_prop, True, name or "foldr", False)


__all__ = ["map_fn", "scan", "foldl", "foldr"]
