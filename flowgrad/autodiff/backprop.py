"""Symbolic reverse-mode differentiation: ``tf.gradients`` (``tf.hessians`` is in
``flowgrad.autodiff.pfor.vectorize``, which vectorizes its second backward pass).

The backward pass walks the graph once from ``ys`` to ``xs`` and calls each op's
registered gradient function, which builds ordinary ops, so the result can be
differentiated again."""
from __future__ import annotations

import collections
import enum
import weakref
from typing import Any

from flowgrad.framework import dtypes, hooks
from flowgrad.framework.context import executing_eagerly
from flowgrad.framework.graph import Operation, get_default_graph, name_scope
from flowgrad.framework.indexed_slices import IndexedSlices
from flowgrad.framework.registry import gradient_function
from flowgrad.framework.tensor import Tensor, convert_to_tensor
from flowgrad.framework.type_hints import TensorLike


class UnconnectedGradients(enum.Enum):
    """What ``gradients`` returns for an x that ys do not depend on."""

    NONE = "none"
    ZERO = "zero"
    RAISE = "raise"


class AggregationMethod:
    ADD_N = 0
    DEFAULT = ADD_N
    EXPERIMENTAL_TREE = 1
    EXPERIMENTAL_ACCUMULATE_N = 2


def is_trainable(t: Any) -> bool:
    """Whether gradients flow through tensor ``t`` (floating or complex dtype)."""
    return dtypes.is_differentiable(t.dtype)


def _as_list(x: Any) -> list:
    return list(x) if isinstance(x, (list, tuple)) else [x]


def _x_tensor(x: Any) -> Any:
    if hasattr(x, "_ref"):
        return x._ref()
    if isinstance(x, (Tensor, IndexedSlices)):
        return x
    return convert_to_tensor(x)


def _reached_ops(from_ops: list) -> set:
    """Ops reachable from ``from_ops`` through trainable (float) outputs."""
    reached: set = set()
    queue = collections.deque(from_ops)
    while queue:
        op = queue.popleft()
        if op not in reached:
            reached.add(op)
            for t in op.outputs:
                if is_trainable(t):
                    queue.extend(t._consumers)
    return reached


def _pending_counts(to_ops: list, reached: set) -> tuple[set, dict]:
    """The ops between xs and ys, and how many of their consumers are also between."""
    between: set = set()
    queue = collections.deque(to_ops)
    seen: set = set()
    while queue:
        op = queue.popleft()
        if op in seen:
            continue
        seen.add(op)
        if op in reached:
            between.add(op)
            for t in op.inputs:
                queue.append(t.op)
    pending: dict = collections.defaultdict(int)
    for op in between:
        for t in op.inputs:
            if t.op in between:
                pending[t.op] += 1
    return between, pending


def _aggregate(grads: list) -> Any:
    """The sum of the gradients reaching one tensor (IndexedSlices stay sparse if all are)."""
    grads = [g for g in grads if g is not None]
    if not grads:
        return None
    if len(grads) == 1:
        return grads[0]
    from flowgrad.ops.math_ops import add_n
    if all(isinstance(g, IndexedSlices) for g in grads):
        from flowgrad.ops.array_ops import concat
        indices = [g.indices for g in grads]
        if len({i.dtype.base_dtype for i in indices}) > 1:   # int32 and int64: int64, as TF
            from flowgrad.ops.math_ops import cast
            indices = [cast(i, dtypes.int64) for i in indices]
        return IndexedSlices(concat([g.values for g in grads], 0), concat(indices, 0),
                             grads[0].dense_shape)
    return add_n([convert_to_tensor(g) for g in grads])


def gradients(ys: TensorLike, xs: TensorLike, grad_ys: Any = None, name: str = "gradients",
              colocate_gradients_with_ops: bool = False, gate_gradients: bool = False,
              aggregation_method: Any = None, stop_gradients: TensorLike | None = None,
              unconnected_gradients: Any = UnconnectedGradients.NONE) -> list:
    """Symbolic derivatives of sum(ys) with respect to each of xs.

    ``grad_ys`` are the incoming gradients of ys (ones by default). An x that ys do
    not depend on, or only through integer tensors, StopGradient or ``stop_gradients``,
    gets None (zeros with ``unconnected_gradients='zero'``).

    Example:

        >>> tf1 = tf.compat.v1
        >>> with tf1.Graph().as_default():
        ...     x = tf1.placeholder(tf.float32, shape=[2])
        ...     y = tf.reduce_sum(x * x)
        ...     dy_dx, = tf1.gradients(y, x)
        ...     with tf1.Session() as sess:
        ...         print(sess.run(dy_dx, {x: [1.0, 3.0]}))
        [2. 6.]

    Args:
        ys: The tensor (or list of tensors) to differentiate.
        xs: The tensor, variable (or list of them) to differentiate with respect to.
        grad_ys: The gradients flowing into ``ys`` (as ``ys``); ones when None.
        name: A name for the operation (optional).
        colocate_gradients_with_ops: Accepted for TensorFlow's signature (no devices).
        gate_gradients: Accepted for TensorFlow's signature.
        aggregation_method: Accepted for TensorFlow's signature (gradients are summed with AddN).
        stop_gradients: Tensors treated as constants: the gradient does not flow through them.
        unconnected_gradients: ``tf.UnconnectedGradients.NONE`` (None for an unconnected ``x``) or
            ``ZERO`` (zeros).
    """
    if executing_eagerly():
        raise RuntimeError("tf.gradients is not supported when eager execution is enabled. "
                           "Use tf.GradientTape instead.")
    unconnected = UnconnectedGradients(unconnected_gradients)
    ys = [convert_to_tensor(y) for y in _as_list(ys)]
    xs_in = _as_list(xs)
    xs = [_x_tensor(x) for x in xs_in]
    grad_ys = _as_list(grad_ys) if grad_ys is not None else [None] * len(ys)
    if len(grad_ys) != len(ys):
        raise ValueError("Passed %d grad_ys for %d ys" % (len(grad_ys), len(ys)))
    stops = {convert_to_tensor(t).op for t in
             (_as_list(stop_gradients) if stop_gradients is not None else [])}
    with name_scope(name, "gradients"):
        grads = _backward(ys, xs, grad_ys, stops, gate_gradients)
        out = []
        for x_in, x in zip(xs_in, xs):
            g = _aggregate(grads.get(x, []))
            if g is None:
                if unconnected is UnconnectedGradients.ZERO:
                    from flowgrad.ops.array_ops import zeros_like
                    g = zeros_like(x)
                elif unconnected is UnconnectedGradients.RAISE:
                    raise ValueError("Cannot compute the gradient of %s with respect to %s:\n%s"
                                     % (", ".join(y.name for y in ys), x.name,
                                        hooks.explain_gradient(ys, [x_in],
                                                         stop_gradients=stop_gradients)[0]))
            out.append(g)
    return out


_SELECT_TYPES = frozenset(("Select", "SelectV2"))
# gradient op -> weak refs to (the forward op whose gradient function created it, the
# out_grads of that call); weak, so that diagnostics never keep a graph alive
_gradient_origins: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _record_origin(new_ops: list, op: Operation, out_grads: list) -> None:
    origin = (weakref.ref(op), tuple(weakref.ref(g) for g in out_grads if g is not None))
    for new_op in new_ops:
        _gradient_origins.setdefault(new_op, origin)


def gradient_origin(op: Operation) -> tuple | None:
    """(forward op, incoming gradients) for an op made by a gradient function, else None.

    Args:
        op: An Operation.

    Returns:
        ``(forward_op, incoming_gradients)``, or None for an op no gradient function made.
    """
    origin = _gradient_origins.get(op)
    if origin is None:
        return None
    return origin[0](), tuple(r() for r in origin[1])


def _default_grad_y(i: int, y: Tensor) -> Any:
    from flowgrad.ops.array_ops import ones_like
    return ones_like(y, name="grad_ys_%d" % i)


def _backward(ys: list, xs: list, grad_ys: list, stop_gradient_ops: set,
              gate_gradients: bool) -> dict:
    """Runs the backward pass; returns {tensor: [gradient contributions]}."""
    from flowgrad.ops.control_flow_ops import tuple as gate_tuple
    to_ops = [y.op for y in ys]
    from_ops = [x.op for x in xs]
    reached = _reached_ops(from_ops)
    between, pending = _pending_counts(to_ops, reached)
    xs_set = set(xs)
    stop_ops = {op for op in from_ops
                if not any(pending[t.op] > 0 for t in op.inputs)} | stop_gradient_ops

    grads: dict = collections.defaultdict(list)
    for i, (y, gy) in enumerate(zip(ys, grad_ys)):
        if gy is None:
            gy = _default_grad_y(i, y)
        else:
            gy = gy if isinstance(gy, IndexedSlices) else convert_to_tensor(gy)
            if gy.dtype.base_dtype is not y.dtype.base_dtype:
                raise TypeError("grad_ys[%d] has dtype %s but ys[%d] (%s) has dtype %s"
                                % (i, gy.dtype.name, i, y.name, y.dtype.name))
        grads[y].append(gy)

    queue = collections.deque()
    queued: set = set()
    for op in to_ops:
        if pending[op] == 0 and op in reached and op not in queued:
            queued.add(op)
            queue.append(op)

    while queue:
        op = queue.popleft()
        out_grads = [_aggregate(grads.get(t, [])) if t in grads else None for t in op.outputs]
        for t, g in zip(op.outputs, out_grads):
            if g is not None and t in grads:
                grads[t] = [g]
        in_grads: list = [None] * len(op.inputs)
        if any(g is not None for g in out_grads) and op not in stop_ops \
                and _has_trainable_input(op, between, xs_set):
            grad_fn = gradient_function(op)
            if grad_fn is not None:
                if op.type in _SELECT_TYPES:
                    hooks.warn_unsafe_where(op)
                graph = get_default_graph()
                first = len(graph._ops)
                with name_scope(op.name + "_grad"):
                    for i, g in enumerate(out_grads):
                        if g is None and is_trainable(op.outputs[i]):
                            from flowgrad.ops.array_ops import zeros_like
                            out_grads[i] = zeros_like(op.outputs[i])
                    result = grad_fn(op, *out_grads)
                    _record_origin(graph._ops[first:], op, out_grads)
                    in_grads = list(result) if isinstance(result, (list, tuple)) else [result]
                    if len(in_grads) != len(op.inputs):
                        raise ValueError("Num gradients %d generated for op %s do not match num "
                                         "inputs %d" % (len(in_grads), op.name, len(op.inputs)))
                    if gate_gradients:
                        # gate only the gradients that flow on (TF also gates the unused
                        # ones, which only makes every step compute them)
                        used = [g if _flows(t, between, xs_set) else None
                                for g, t in zip(in_grads, op.inputs)]
                        if sum(g is not None for g in used) > 1:
                            in_grads = _gate(used, gate_tuple)
        for t_in, g in zip(op.inputs, in_grads):
            if g is not None and _flows(t_in, between, xs_set):
                if isinstance(g, Tensor) and not g.shape.is_compatible_with(t_in.shape):
                    raise ValueError(
                        "Incompatible shapes between op input and calculated input gradient. "
                        "Forward operation: %s. Input index: %d. Original input shape: %s. "
                        "Calculated input gradient shape: %s"
                        % (op.name, op.inputs.index(t_in), t_in.shape, g.shape))
                grads[t_in].append(g)
        for t_in in op.inputs:
            p = t_in.op
            if p in between:
                pending[p] -= 1
                if pending[p] == 0 and p not in queued:
                    queued.add(p)
                    queue.append(p)
    return grads


def _flows(t: Tensor, between: set, xs_set: set) -> bool:
    """Whether a gradient for input ``t`` continues backwards (or reaches an x)."""
    return is_trainable(t) and (t.op in between or t in xs_set)


def _has_trainable_input(op: Operation, between: set, xs_set: set) -> bool:
    return any(_flows(t, between, xs_set) for t in op.inputs)


def _gate(in_grads: list, gate_tuple: Any) -> list:
    dense = [g if isinstance(g, Tensor) else None for g in in_grads]
    gated = gate_tuple(dense)
    return [g2 if isinstance(g, Tensor) else g for g, g2 in zip(in_grads, gated)]
