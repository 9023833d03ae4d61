"""GradientTape: records eager ops and replays the registered gradient functions backwards.

Every eager op call reports to ``record_operation`` and every eager variable read
to ``variable_accessed`` while a tape is active. A tape keeps the tensors it
watches and the outputs of the ops it recorded (by id, holding the tensor so the
id stays unique) and, per output, the op record that produced it. ``gradient``
walks the records backwards and calls the very gradient functions graph mode
uses; their ops run eagerly and are recorded in turn by any outer tape that
watches their inputs, which is how nested tapes give higher derivatives.

Inside a graph (``flowgrad.compat.v1``, or while ``tf.function`` traces),
``gradient`` builds symbolic gradients with ``flowgrad.autodiff.backprop.gradients``.
There a source counts as watched when it was passed to ``watch``, is a variable
(accessed under the tape, or any trainable TF1 variable when
``watch_accessed_variables``), or was created while the tape was recording."""
from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from flowgrad import nest
from flowgrad.autodiff import vectorized_jacobians
from flowgrad.framework import hooks
from flowgrad.framework.context import executing_eagerly, state, user_frame
from flowgrad.framework.graph import get_default_graph
from flowgrad.framework.registry import _gradients, gradient_function
from flowgrad.framework.tensor import (EagerTensor, Tensor, TensorBase, constant, convert_to_tensor,
                                       eager_value)
from flowgrad.autodiff.backprop import UnconnectedGradients, _aggregate
from flowgrad.ops.array_ops import ones_like, reshape, stack, zeros, zeros_like
from flowgrad.ops.state_ops import RefVariable, Variable
from flowgrad.autodiff.vectorized_jacobians import static_dims
from flowgrad.framework.type_hints import TensorLike

_log = logging.getLogger("flowgrad")


def _trainable(t: Any) -> bool:
    """Whether gradients flow through ``t`` (floating or complex dtype)."""
    if type(t) is EagerTensor:
        return t._dtype._differentiable
    return t.dtype._differentiable


def _is_variable(x: Any) -> bool:
    return isinstance(x, Variable)


def _unconnected(value: Any) -> UnconnectedGradients:
    """``UnconnectedGradients(value)``, at once for a member (the usual argument)."""
    return value if type(value) is UnconnectedGradients else UnconnectedGradients(value)


def _resource_variable(x: Any) -> Any:
    """The variable behind an object that acts as one (TensorFlow's
    ``_should_act_as_resource_variable``, e.g. a Keras 3 Variable: its ``value``), else ``x``."""
    if getattr(type(x), "_should_act_as_resource_variable", False) and not _is_variable(x):
        return x.value
    return x


def _is_flat(structure: Any) -> bool:
    """Whether ``structure`` is a plain list or tuple of eager tensors and variables (its
    own flattening; ``nest`` needs not walk it)."""
    if type(structure) is not list and type(structure) is not tuple:
        return False
    for x in structure:
        if type(x) is not EagerTensor and not isinstance(x, Variable):
            return False
    return True


class _OpRecord:
    """One recorded eager op, shaped like a graph Operation for the gradient functions."""

    __slots__ = ("type", "inputs", "outputs", "_attrs", "grad_fn", "skip_input_indices",
                 "traceback")
    _grad_type = None

    def __init__(self, type: str, inputs: list, outputs: list, attrs: dict,
                 grad_fn: Callable | None = None):
        self.type = type
        self.inputs = inputs
        self.outputs = outputs
        self._attrs = attrs
        self.grad_fn = grad_fn      # set for custom gradients; else the registry's is used
        self.skip_input_indices: tuple | None = None  # inputs whose gradient nobody needs
        # the user line that ran it, recorded while check-numerics mode is on
        self.traceback = user_frame() if state.check_numerics else None

    @property
    def name(self) -> str:
        return self.type

    def get_attr(self, name: str) -> Any:
        try:
            return self._attrs[name]
        except KeyError:
            raise ValueError("Operation '%s' has no attr named '%s'." % (self.type, name)) \
                from None

    def __repr__(self) -> str:
        return "<recorded op %s>" % self.type


def _watched_in_graph(t: EagerTensor) -> Tensor:
    """The Const standing for the eager tensor ``t`` in the default graph, made once: ops of
    the graph that take ``t`` use it, so a gradient with respect to ``t`` reaches them (as
    TensorFlow's FuncGraph captures an eager tensor once)."""
    g = get_default_graph()
    hit = g._watched_eager.get(id(t))
    if hit is None or hit[0] is not t:
        with g.control_dependencies(None), g.name_scope(None):
            hit = g._watched_eager[id(t)] = (t, constant(t._value, t.dtype.base_dtype))
    return hit[1]


class GradientTape:
    """Records operations for automatic differentiation (TensorFlow 2's ``tf.GradientTape``).

    Ops whose inputs the tape watches are recorded while it is active (inside its
    ``with`` block); trainable variables read there are watched automatically
    unless ``watch_accessed_variables=False``. A tape that is not ``persistent``
    computes one set of gradients (or jacobians) and then releases its records.

    Args:
        persistent: If true, ``gradient`` may be called more than once; the records are
            kept until the tape is deleted.
        watch_accessed_variables: If true, trainable variables read while the tape is
            active are watched automatically; if false, only what ``watch`` names is.

    Example:

        >>> import flowgrad as tf
        >>> x = tf.Variable(3.0)
        >>> with tf.GradientTape() as tape:
        ...     y = x * x
        >>> float(tape.gradient(y, x))
        6.0
    """

    def __init__(self, persistent: bool = False, watch_accessed_variables: bool = True):
        self._persistent = persistent
        self._watch_accessed_variables = watch_accessed_variables
        self._recording = False
        self._consumed = False
        self._watched_after_use: dict = {}     # the variables watched before consumed
        self._clear()

    def _clear(self) -> None:
        self._tensors: dict = {}        # id -> tensor on the tape (watched or recorded output)
        self._producer: dict = {}       # id(output) -> the record that produced it
        self._records: list = []        # in execution order
        self._variables: dict = {}      # id(variable) -> watched variable
        self._reads: dict = {}          # id(variable) -> its read tensors on the tape
        self._graph_watched: dict = {}  # id -> symbolic tensor passed to watch
        self._graph_spans: list = []    # [graph, first op id, end op id or None]

    # -- recording --------------------------------------------------------------------
    def __enter__(self) -> GradientTape:
        if self._recording:
            raise ValueError("Tape is still recording, This can happen if you try to re-enter "
                             "an already-active tape.")
        if self._consumed:
            self._consumed = False
            self._clear()
        self._resume()
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._recording:
            self._pause()

    def _resume(self) -> None:
        state.tapes.append(self)
        self._recording = True
        if not executing_eagerly():
            g = get_default_graph()
            self._graph_spans.append([g, len(g._ops), None])

    def _pause(self) -> None:
        if not self._recording:
            raise ValueError("Tape is not recording.")
        state.tapes.remove(self)
        self._recording = False
        for span in self._graph_spans:
            if span[2] is None:
                span[2] = len(span[0]._ops)

    @contextlib.contextmanager
    def stop_recording(self) -> Iterator[None]:
        """Temporarily stops recording: ops run inside are not differentiated."""
        self._pause()
        try:
            yield
        finally:
            self._resume()

    def reset(self) -> None:
        """Clears everything recorded so far (the tape keeps recording)."""
        self._pause()
        self._clear()
        self._resume()

    def watch(self, tensor: TensorLike) -> None:
        """Makes the tape track ``tensor`` (a tensor, variable or a structure of them)."""
        for t in nest.flatten(tensor):
            t = _resource_variable(t)
            if _is_variable(t):
                self._variables[id(t)] = t
            elif isinstance(t, EagerTensor):
                if _trainable(t) and not executing_eagerly():
                    self._graph_watched[id(t)] = _watched_in_graph(t)
                elif _trainable(t):
                    self._tensors[id(t)] = t
                else:
                    _log.warning("The dtype of the watched tensor must be floating (e.g. "
                                 "tf.float32), got %r", t.dtype)
            elif isinstance(t, Tensor):
                self._graph_watched[id(t)] = t
            else:
                raise ValueError("Passed in object %r of type %r, not tf.Tensor or tf.Variable "
                                 "or ExtensionType." % (t, type(t).__name__))

    def watched_variables(self) -> tuple:
        """The variables this tape watches, in creation order."""
        watched = self._watched_after_use if self._consumed else self._variables
        return tuple(sorted(watched.values(), key=lambda v: getattr(v, "_unique_id", 0)))

    def _variable_accessed(self, var: Any, t: Any) -> None:
        vid = id(var)
        if vid not in self._variables:
            if not (self._watch_accessed_variables and var.trainable):
                return
            self._variables[vid] = var
        if type(t) is EagerTensor and _trainable(t):
            self._tensors[id(t)] = t
            self._reads.setdefault(vid, []).append(t)

    def _record(self, rec: _OpRecord, live_outputs: list) -> None:
        self._records.append(rec)
        tensors, producer = self._tensors, self._producer
        for o in live_outputs:
            tensors[id(o)] = o
            producer[id(o)] = rec

    def _watches_call(self, tensors: list, variables: list) -> bool:
        """Whether this tape would record a call with these inputs and captured variables."""
        ts = self._tensors
        if any(id(t) in ts for t in tensors):
            return True
        return any(id(v) in self._variables or (self._watch_accessed_variables and v.trainable)
                   for v in variables)

    # -- gradients --------------------------------------------------------------------
    def _check_usable(self) -> None:
        if self._consumed:
            raise RuntimeError("A non-persistent GradientTape can only be used to compute one "
                               "set of gradients (or jacobians)")
        if self._recording and not self._persistent:
            self._pause()

    def _consume(self) -> None:
        if not self._persistent:
            self._watched_after_use = self._variables
            self._clear()
            self._consumed = True

    def gradient(self, target: Any, sources: Any, output_gradients: TensorLike | None = None,
                 unconnected_gradients: Any = UnconnectedGradients.NONE) -> Any:
        """The gradient of (the sum of) ``target`` with respect to each of ``sources``.

        ``target`` and ``sources`` may be tensors, variables or nested lists, tuples
        and dicts of them; the result has the structure of ``sources``. Sources the
        target does not depend on (or not through recorded float ops) get None, or
        zeros with ``unconnected_gradients='zero'``.

        Example:

            >>> x = tf.constant(3.0)
            >>> with tf.GradientTape() as tape:
            ...     tape.watch(x)
            ...     y = x * x
            >>> print(tape.gradient(y, x).numpy())
            6.0
        """
        self._check_usable()
        unconnected = _unconnected(unconnected_gradients)
        flat_targets = nest.flatten(target)
        if target is None or any(t is None for t in flat_targets):
            raise TypeError("Argument `target` should be a list or nested structure of Tensors "
                            "or Variables to be differentiated, but received None (does the "
                            "loss function return its value?).")
        flat_out = None if output_gradients is None else nest.flatten(output_gradients)
        if flat_out is not None and len(flat_out) != len(flat_targets):
            raise ValueError("Got %d output_gradients for %d targets"
                             % (len(flat_out), len(flat_targets)))
        flat = _is_flat(sources)
        grads = self._gradients(flat_targets, [_resource_variable(s) for s in (
            sources if flat else nest.flatten(sources))], flat_out, unconnected)
        self._consume()
        return type(sources)(grads) if flat else nest.pack_sequence_as(sources, grads)

    def _gradients(self, targets: list, sources: list, output_gradients: list | None,
                   unconnected: UnconnectedGradients) -> list:
        for s in sources:
            if not (_is_variable(s) or isinstance(s, TensorBase)):
                raise TypeError("GradientTape.gradient: sources must be tensors or variables, "
                                "got %r" % (s,))
        for t in targets:
            if type(t) is not EagerTensor and isinstance(t, Tensor):
                grads = self._graph_gradients(targets, sources, output_gradients, unconnected)
                break
        else:
            grads = self._eager_gradients(targets, sources, output_gradients)
        if unconnected is UnconnectedGradients.NONE:
            return grads
        for i, g in enumerate(grads):
            if g is None:
                if unconnected is UnconnectedGradients.RAISE:
                    raise ValueError("Target is not connected to source %d (%r), or only "
                                     "through integer or unrecorded ops" % (i, sources[i]))
                grads[i] = zeros_like(sources[i])
        return grads

    def _eager_gradients(self, targets: list, sources: list,
                         output_gradients: list | None) -> list:
        src_keys = []
        for s in sources:
            if not _trainable(s):
                src_keys.append(())
            elif _is_variable(s):
                src_keys.append([id(t) for t in self._reads.get(id(s), ())] + [id(s)])
            elif id(s) in self._tensors or id(s) in self._producer:
                src_keys.append((id(s),))
            else:                       # never watched nor computed on this tape: None
                src_keys.append(())
        reach = {k for keys in src_keys for k in keys}
        grads: dict = {}
        for i, t in enumerate(targets):
            key = id(t)
            if t is None or not _trainable(t) or (key not in reach and key not in self._tensors):
                continue
            g = output_gradients[i] if output_gradients is not None else None
            grads.setdefault(key, []).append(_ones_like(t) if g is None else convert_to_tensor(g))
        self._backward(reach, grads)
        out = []
        for keys in src_keys:
            contribs = [g for k in keys for g in grads.get(k, ())]
            out.append(contribs[0] if len(contribs) == 1 else _aggregate(contribs))
        return out

    def _backward(self, reach: set, grads: dict) -> None:
        """Accumulates into ``grads`` (id -> contributions) every tensor in ``reach``."""
        needed = []
        for rec in self._records:       # the records downstream of the sources, in order
            for t in rec.inputs:
                if id(t) in reach:
                    needed.append(rec)
                    for o in rec.outputs:
                        reach.add(id(o))
                    break
        producer = self._producer
        for rec in reversed(needed):
            outputs = rec.outputs
            if len(outputs) == 1:       # the common case, without the loops below
                k = id(outputs[0])
                contribs = grads.get(k)
                if not contribs or producer.get(k) is not rec:
                    continue
                g = contribs[0] if len(contribs) == 1 else _aggregate(contribs)
                grads[k] = [g]
                out_grads = [g]
            else:
                out_grads = self._output_grads(rec, grads)
                if out_grads is None:
                    continue
            fn = rec.grad_fn or gradient_function(rec)
            if fn is None:
                continue
            inputs = rec.inputs
            skip: tuple = ()
            for i, t in enumerate(inputs):
                if id(t) not in reach or not _trainable(t):
                    skip += (i,)
            rec.skip_input_indices = skip
            result = fn(rec, *out_grads)
            if isinstance(result, (list, tuple)):
                if len(result) != len(inputs):
                    raise ValueError("Num gradients %d generated for op %s do not match num "
                                     "inputs %d" % (len(result), rec.type, len(inputs)))
            elif len(inputs) != 1:
                raise ValueError("Num gradients 1 generated for op %s do not match num inputs %d"
                                 % (rec.type, len(inputs)))
            else:
                result = (result,)
            for i, g in enumerate(result):
                if g is not None and i not in skip:
                    k = id(inputs[i])
                    contribs = grads.get(k)
                    if contribs is None:
                        grads[k] = [g]
                    else:
                        contribs.append(g)

    def _output_grads(self, rec: _OpRecord, grads: dict) -> list | None:
        """The gradients of a several-output record's outputs; None when none flows in."""
        producer = self._producer
        out_grads = []
        flowing = False
        for o in rec.outputs:
            k = id(o)
            contribs = grads.get(k)
            g = None
            if contribs and producer.get(k) is rec:
                g = _aggregate(contribs) if len(contribs) > 1 else contribs[0]
                grads[k] = [g]
                flowing = True
            out_grads.append(g)
        if not flowing:
            return None
        for i, o in enumerate(rec.outputs):
            if out_grads[i] is None and _trainable(o):
                out_grads[i] = zeros_like(o)
        return out_grads

    def _graph_gradients(self, targets: list, sources: list, output_gradients: list | None,
                         unconnected: UnconnectedGradients) -> list:
        from flowgrad.autodiff.backprop import gradients
        out: list = [None] * len(sources)
        idx = [i for i, s in enumerate(sources) if _trainable(s) and self._graph_watches(s)]
        if idx:
            # an eager tensor watched in the graph: its Const there is the source
            srcs = [self._graph_watched.get(id(sources[i]), sources[i]) if isinstance(
                sources[i], EagerTensor) else sources[i] for i in idx]
            gs = gradients([t for t in targets if t is not None], srcs,
                           grad_ys=output_gradients, unconnected_gradients=unconnected)
            for i, g in zip(idx, gs):
                out[i] = g
        return out

    def _graph_watches(self, s: Any) -> bool:
        if _is_variable(s):
            return id(s) in self._variables or (isinstance(s, RefVariable) and s.trainable
                                                and self._watch_accessed_variables)
        if id(s) in self._graph_watched:
            return True
        op = getattr(s, "op", None)
        return op is not None and any(g is op.graph and lo <= op._id and (hi is None or op._id < hi)
                                      for g, lo, hi in self._graph_spans)

    # -- jacobians --------------------------------------------------------------------
    def jacobian(self, target: Any, sources: Any,
                 unconnected_gradients: Any = UnconnectedGradients.NONE,
                 parallel_iterations: Any = None, experimental_use_pfor: bool = True) -> Any:
        """d target[i...] / d source[j...] for each source: shape target.shape + source.shape."""
        self._check_usable()
        unconnected = UnconnectedGradients(unconnected_gradients)
        flat_sources = nest.flatten(sources)
        if experimental_use_pfor:       # one vectorized backward pass for all rows
            out = vectorized_jacobians.jacobian(self, target, flat_sources, unconnected)
            self._consume()
            return nest.pack_sequence_as(sources, out)
        t_shape = static_dims(target, "jacobian target")
        n = int(np.prod(t_shape))
        rows: list = [[] for _ in flat_sources]
        for i in range(n):
            seed = np.zeros(n, target.dtype.base_dtype.np)
            seed[i] = 1
            gs = self._gradients([target], flat_sources, [constant(seed.reshape(t_shape))],
                                 UnconnectedGradients.NONE)
            for r, g in zip(rows, gs):
                r.append(g)
        out = [_stack_rows(r, s, t_shape, 0, unconnected) for r, s in zip(rows, flat_sources)]
        self._consume()
        return nest.pack_sequence_as(sources, out)

    def batch_jacobian(self, target: Any, source: Any,
                       unconnected_gradients: Any = UnconnectedGradients.NONE,
                       parallel_iterations: Any = None, experimental_use_pfor: bool = True) -> Any:
        """d target[b, i...] / d source[b, j...] per example b (examples independent)."""
        self._check_usable()
        unconnected = UnconnectedGradients(unconnected_gradients)
        if experimental_use_pfor:
            out = vectorized_jacobians.batch_jacobian(self, target, source, unconnected)
            self._consume()
            return out
        t_shape = static_dims(target, "batch_jacobian target")
        s_shape = static_dims(source, "batch_jacobian source")
        if not t_shape or not s_shape or t_shape[0] != s_shape[0]:
            raise ValueError("Need first dimension of target shape (%s) and source shape (%s) to "
                             "match." % (list(t_shape), list(s_shape)))
        b = t_shape[0]
        m = int(np.prod(t_shape[1:]))
        cols = []
        for j in range(m):
            seed = np.zeros((b, m), target.dtype.base_dtype.np)
            seed[:, j] = 1
            cols.append(self._gradients([target], [source], [constant(seed.reshape(t_shape))],
                                        UnconnectedGradients.NONE)[0])
        out = _stack_rows(cols, source, t_shape[1:], 1, unconnected)
        self._consume()
        return out


def _ones_like(t: Any) -> Any:
    """The seed gradient of a target: ones shaped like it."""
    if type(t) is not EagerTensor:
        return ones_like(t)
    return EagerTensor(eager_value(np.ones_like(t._value)), t._dtype)


def _stack_rows(rows: list, source: Any, t_shape: tuple, axis: int,
                unconnected: UnconnectedGradients) -> Any:
    """Stacks per-element gradients into a jacobian (None rows are zeros)."""
    s_shape = static_dims(source, "jacobian source")
    if all(g is None for g in rows) and unconnected is UnconnectedGradients.NONE:
        return None
    dt = source.dtype.base_dtype
    out_shape = (s_shape[0],) + tuple(t_shape) + s_shape[1:] if axis else tuple(t_shape) + s_shape
    if not rows:                    # a target with no elements
        return zeros(out_shape, dt)
    dense = [zeros(s_shape, dt) if g is None else convert_to_tensor(g) for g in rows]
    return reshape(stack(dense, axis=axis), out_shape)


# --------------------------------------------------------------------------------------
# Hooks called by eager op execution and variable reads


def record_operation(opdef: Any, inputs: list, outputs: list, attrs: dict) -> None:
    """Records an eager op on every active tape that watches one of its inputs."""
    if _gradients.get(opdef.type, True) is None:
        return                      # registered as not differentiable: nothing flows back
    rec = None
    live: list = outputs
    for tape in state.tapes:
        ts = tape._tensors
        if not ts:
            continue
        for t in inputs:
            if id(t) in ts:
                break
        else:
            continue
        if rec is None:
            if len(outputs) != 1 or not outputs[0]._dtype._differentiable:
                live = [o for o in outputs if o._dtype._differentiable]
                if not live:
                    return
            rec = _OpRecord(opdef.type, inputs, outputs, attrs)
        tape._record(rec, live)


def variable_accessed(var: Any, t: Any) -> None:
    """Tells the active tapes that ``var`` was read as ``t`` (eager or symbolic)."""
    for tape in state.tapes:
        tape._variable_accessed(var, t)


def record_custom(type: str, inputs: list, outputs: list, grad_fn: Callable) -> None:
    """Records a call of a ``custom_gradient`` function on every active tape that watches one
    of its inputs.

    Args:
      type: The name the record carries (the decorated function's).
      inputs: The call's input tensors (arguments, then the variables it read).
      outputs: The call's output tensors.
      grad_fn: ``grad_fn(op, *dys)``: the gradients of ``inputs``.
    """
    rec = None
    for tape in state.tapes:
        ts = tape._tensors
        if ts and any(id(t) in ts for t in inputs):
            if rec is None:
                rec = _OpRecord(type, inputs, outputs, {}, grad_fn)
            tape._record(rec, [o for o in outputs if _trainable(o)])


@contextlib.contextmanager
def stop_recording() -> Iterator[None]:
    """Pauses every active GradientTape inside the block."""
    paused = [t for t in state.tapes if isinstance(t, GradientTape)]
    for t in paused:
        t._pause()
    try:
        yield
    finally:
        for t in paused:
            t._resume()


hooks.register(record_operation=record_operation, variable_accessed=variable_accessed)

__all__ = ["GradientTape", "record_operation", "variable_accessed", "record_custom",
           "stop_recording"]
