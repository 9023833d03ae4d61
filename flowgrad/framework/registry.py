"""The op registry (kernel + shape rule per op type) and the gradient registry."""
from __future__ import annotations

import difflib
import functools
import warnings
from collections.abc import Callable
from typing import Any

from flowgrad.framework import hooks
from flowgrad.framework.context import user_frame

_NO_GRADIENT = object()


class OpDef:
    """Everything flowgrad knows about one op type, registered under TensorFlow's name.

    Besides the kernel, shape rule and gradient, the record holds the facts the layers
    above act on, so that none of them keeps a list of op types of its own:

    * for the plan compiler (``flowgrad.runtime.plan``): ``alias`` (output 0 is input 0 itself,
      as Identity: no kernel call), ``fresh_output`` (the kernel always returns new arrays,
      never an input or a view of one), ``may_fail`` (False: the kernel cannot raise once
      its inputs' static shapes are fully known), ``inplace`` (an update op's kernel that
      writes the new values into the updated inputs; see ``bound_inplace``),
      ``static_value`` (``f(op)``: the output's value known before run time, as Const's or
      the Shape of a fully known shape, else None), ``variable`` (the output is the
      runner's state), ``must_feed`` (no value unless fed, as Placeholder),
      ``identity_element`` (``e`` with ``op(x, e) == op(e, x) == x``), ``cost`` (``f(op)``:
      a static size of the op's work, 0 for small), ``contracted_axes`` (``f(op)``: the
      axes of inputs 0 and 1 whose mismatch is the kernel's only way to fail, or None) and
      ``forward`` (``{k: kernel}``: a kernel computing the same values into input ``k``'s
      array, valid where the output has that input's shape and dtype; TensorFlow's
      ``forward_input``: the plan calls it where that array is a temporary nothing else
      reads, so that a bias add and an activation after a GEMM write no new arrays) and
      ``shape_only`` (the inputs whose values the kernel reads for their shape and dtype
      only, as Shape's: a ``forward`` kernel may overwrite them) and ``same_shape`` (all
      inputs must have one shape, as TensorFlow's fused activation gradients check: the
      output has each input's shape also where the static shapes leave dimensions unknown,
      so a ``forward`` kernel applies there too) and ``live_outputs`` (``specialize`` takes
      the attribute ``live_outputs``, the indices of the outputs the plan reads, and may
      leave the others None: a While computes only the loop variables those need);
    * for the differentiation layer: ``batching`` (the kind of batching rule,
      ``flowgrad.autodiff.pfor.rules``: "elementwise", "broadcasting", ...) and ``jvp`` (the
      forward-mode rule ``f(op, *input_tangents)``, or "elementwise": the gradient function
      applied to the tangent, exact for ops whose Jacobian is diagonal) and ``linear_in``
      (``k``: the op is elementwise and linear in input ``k``, ``f(.., x_k, ..) = x_k *
      f(.., 1, ..)``, as the fused activation gradients are in ``dy``)."""

    __slots__ = ("type", "kernel", "infer", "input_names", "num_outputs", "stateful",
                 "same_dtype", "updates", "reads_refs", "view", "foldable", "specialize", "rng",
                 "alias", "fresh_output", "may_fail", "inplace", "static_value", "variable",
                 "must_feed", "identity_element", "cost", "contracted_axes", "batching", "jvp",
                 "linear_in", "forward", "shape_only", "same_shape", "live_outputs")

    def __init__(self, type: str, kernel: Callable | None, infer: Callable,
                 input_names: tuple = (), num_outputs: int | Callable = 1,
                 stateful: bool = False, same_dtype: bool = False, updates: tuple = (),
                 reads_refs: bool = True, view: bool = False, foldable: bool | None = None,
                 specialize: Callable | None = None, rng: bool = False, alias: bool = False,
                 fresh_output: bool = False, may_fail: bool = True,
                 inplace: Callable | None = None, static_value: Callable | None = None,
                 variable: bool = False, must_feed: bool = False, identity_element: Any = None,
                 cost: Callable | None = None, contracted_axes: Callable | None = None,
                 batching: str | None = None, jvp: str | Callable | None = None,
                 linear_in: int | None = None, forward: dict | None = None,
                 shape_only: tuple = (), same_shape: bool = False, live_outputs: bool = False):
        self.type = type
        self.kernel = kernel            # f(*input_values, **attrs) -> value | tuple of values
        self.infer = infer              # f(input_tensors, attrs) -> (dtype, shape) | [...]
        self.input_names = input_names  # argument names, for error messages and constant names
        self.num_outputs = num_outputs  # int, or f(attrs) -> int
        self.stateful = stateful        # never folded, merged or pruned as a duplicate
        self.same_dtype = same_dtype    # all inputs must share one dtype
        self.updates = updates          # indices of ref inputs this op writes (returns new values)
        self.reads_refs = reads_refs    # False when the written refs' old values are not read
        self.view = view                # the output may share memory with input 0
        self.foldable = (not stateful) if foldable is None else foldable
        self.specialize = specialize    # f(attrs) -> kernel of the inputs only (Session plans)
        self.rng = rng                  # the kernel takes a np.random.Generator first
        self.alias = alias
        self.fresh_output = fresh_output
        self.may_fail = may_fail
        self.inplace = inplace
        self.static_value = static_value
        self.variable = variable
        self.must_feed = must_feed
        self.identity_element = identity_element
        self.cost = cost
        self.contracted_axes = contracted_axes
        self.batching = batching
        self.jvp = jvp
        self.linear_in = linear_in
        self.forward = forward or {}    # input index -> kernel writing into that input
        self.shape_only = shape_only    # inputs read for their shape and dtype only
        self.same_shape = same_shape    # all inputs must have one shape (the output's)
        self.live_outputs = live_outputs    # specialize(attrs) reads attrs["live_outputs"]

    def bound_kernel(self, attrs: dict) -> Callable:
        """The kernel with ``attrs`` bound: a function of the input values only."""
        if self.specialize is not None:
            return self.specialize(attrs)
        if not attrs:
            return self.kernel
        return functools.partial(self.kernel, **attrs)

    def bound_forward(self, k: int, attrs: dict) -> Callable:
        """The ``forward`` kernel into input ``k`` with ``attrs`` bound."""
        kernel = self.forward[k]
        return functools.partial(kernel, **attrs) if attrs else kernel

    def bound_inplace(self, attrs: dict) -> Callable | None:
        """The in-place kernel with ``attrs`` bound (None if the op has none): it takes the
        kernel's inputs, writes the new values into the updated ones (arrays its caller owns,
        C-contiguous and writeable) and returns them."""
        if self.inplace is None or not attrs:
            return self.inplace
        return functools.partial(self.inplace, **attrs)

    def n_outputs(self, attrs: dict) -> int:
        n = self.num_outputs
        return n(attrs) if callable(n) else n


_ops: dict[str, OpDef] = {}
_gradients: dict[str, Any] = {}
_gradient_origin: dict[str, Any] = {}
_jvps: dict[str, Callable] = {}


def register_op(type: str, kernel: Callable | None, infer: Callable, *,
                grad: Callable | None | object = None, **kw: Any) -> OpDef:
    """Registers an op type with its kernel and shape rule (and optionally its gradient)."""
    if type in _ops:
        raise KeyError("Op type %r is already registered." % type)
    d = OpDef(type, kernel, infer, **kw)
    if d.jvp == "elementwise" and (grad is None or grad is _NO_GRADIENT):
        raise ValueError("Op type %r: an elementwise JVP is derived from the gradient, but "
                         "the registration has none." % type)
    _ops[type] = d
    if grad is _NO_GRADIENT:
        _gradients[type] = None
    elif grad is not None:
        _gradients[type] = grad
    return d


def ufunc_forward(ufunc: Any, inputs: tuple = (0, 1)) -> dict:
    """``OpDef.forward`` of an op whose kernel is ``ufunc``: the ufunc with ``out=`` the
    input's array, for each input of ``inputs``."""
    def into(k: int) -> Callable:
        return lambda *args: ufunc(*args, out=args[k])
    return {k: into(k) for k in inputs}


def defop(type: str, kernel: Callable | None, infer: Callable, **kw: Any) -> Callable:
    """Decorator: registers an op type and the decorated function as its gradient."""
    def deco(grad_fn: Callable) -> Callable:
        register_op(type, kernel, infer, grad=grad_fn, **kw)
        return grad_fn
    return deco


def register_jvp(op_type: str, fn: Callable) -> Callable:
    """Registers ``fn(op, *input_tangents)`` as the forward-mode (JVP) rule of an op type.

    ``input_tangents`` hold one tangent per input (None where the input has none); the
    rule returns the tangent of each output (None for an output with no tangent). An op
    type without a rule gets its JVP from its gradient (see ``flowgrad.autodiff.forward_mode``)."""
    d = _ops.get(op_type)
    if op_type in _jvps or (d is not None and d.jvp is not None):
        raise KeyError("A JVP rule for op type %r is already registered." % op_type)
    _jvps[op_type] = fn
    return fn


def jvp_function(op_type: str) -> Callable | None:
    """The JVP rule of an op type (given to ``register_jvp`` or to its registration as
    ``jvp``), None if it has none."""
    rule = _jvps.get(op_type)
    if rule is not None:
        return rule
    d = _ops.get(op_type)
    if d is None or d.jvp is None:
        return None
    if d.jvp == "elementwise":
        return _elementwise_jvp(_gradients[op_type])
    return d.jvp


def _elementwise_jvp(grad_fn: Callable) -> Callable:
    """The JVP of a unary op with a diagonal Jacobian ``J``: its gradient computes
    ``J^T u = J u``, so it maps the input tangent to the output's. A complex op's gradient
    passes back ``u conj(J)`` (TensorFlow's convention), so its JVP is
    ``conj(gradient(conj(t)))``."""
    def rule(op: Any, t: Any) -> Any:
        if t is None:
            return None
        if not t.dtype.base_dtype.is_complex:
            return grad_fn(op, t)
        return hooks.conj(grad_fn(op, hooks.conj(t)))
    return rule


def op_defs() -> list:
    """The OpDefs of all registered op types."""
    return list(_ops.values())


def get_op_def(type: str) -> OpDef:
    """The OpDef of a registered op type; KeyError with a suggestion if unknown."""
    d = _ops.get(type)
    if d is None:
        hint = difflib.get_close_matches(type, list(_ops), n=1)
        raise KeyError("Unknown op type %r%s" % (type, " (did you mean %r?)" % hint[0] if hint
                                                  else ""))
    return d


class RegisterGradient:
    """Decorator registering ``f(op, *grads)`` as the gradient for an op type or override name.

    Args:
        op_type: The op type name (as ``op.type``) whose gradient the decorated function is.
    """

    def __init__(self, op_type: str):
        if not isinstance(op_type, str):
            raise TypeError("op_type must be a string")
        self._op_type = op_type

    def __call__(self, f: Callable) -> Callable:
        name = self._op_type
        if name in _gradients:
            where = _gradient_origin.get(name)
            raise KeyError("Registering two gradient with name '%s'! (Previous registration "
                           "was in %s)" % (name, "%s:%d" % where[:2] if where else "flowgrad"))
        _warn_if_near_miss(name)
        _gradients[name] = f
        _gradient_origin[name] = user_frame()
        return f


def NotDifferentiable(op_type: str) -> None:  # noqa: N802 - TensorFlow's name
    """Declares that ops of this type have no gradient (gradients through them are None).

    Args:
        op_type: The op type name (as ``op.type``).
    """
    if not isinstance(op_type, str):
        raise TypeError("op_type must be a string")
    if op_type in _gradients:
        raise KeyError("Gradient for op type '%s' is already registered." % op_type)
    _gradients[op_type] = None


no_gradient = NotDifferentiable


def gradient_function(op: Any) -> Any:
    """The gradient function of an op (honouring overrides), None if not differentiable.

    Raises LookupError naming the op and its type when no gradient is registered."""
    key = op._grad_type or op.type
    try:
        return _gradients[key]
    except KeyError:
        pass
    if op._grad_type:
        raise LookupError("gradient registry has no entry for: %s (the gradient_override_map "
                          "entry of op '%s', type %s)" % (key, op.name, op.type))
    raise LookupError("No gradient defined for operation '%s' (op type: %s). In general every "
                      "operation must have an associated `@tf.RegisterGradient` for correct "
                      "autodiff, which this op is lacking." % (op.name, op.type))


def has_gradient_entry(name: str) -> bool:
    return name in _gradients


def _close_op_type(name: str, cutoff: float) -> str | None:
    """The registered op type closest to ``name`` ignoring case, if close enough."""
    lower = {t.lower(): t for t in _ops}
    hint = difflib.get_close_matches(name.lower(), list(lower), n=1, cutoff=cutoff)
    return lower[hint[0]] if hint else None


def _warn_if_near_miss(name: str) -> None:
    """Warns when a registered gradient name looks like a misspelt op type."""
    if name in _ops:
        return
    hint = _close_op_type(name, 0.9)
    if hint:
        warnings.warn("RegisterGradient(%r): no op type has this name; did you mean %r? "
                      "(it will only be used through gradient_override_map)" % (name, hint),
                      stacklevel=3)


def check_override_map(op_type_map: dict) -> None:
    """Warns for override-map keys that are not op types, and for gradient names that are
    not registered but close to one that is (each with a did-you-mean)."""
    for op_type, grad_name in op_type_map.items():
        if op_type not in _ops:
            hint = _close_op_type(op_type, 0.6)
            warnings.warn("gradient_override_map: %r is not a registered op type%s; the "
                          "override will match no op" % (
                              op_type, ", did you mean %r?" % hint if hint else ""),
                          stacklevel=4)
        if isinstance(grad_name, str) and grad_name not in _gradients:
            hint = difflib.get_close_matches(grad_name, list(_gradients), n=1, cutoff=0.85)
            if hint:
                warnings.warn("gradient_override_map: no gradient is registered under %r "
                              "(mapped from %r); did you mean %r?" % (grad_name, op_type,
                                                                      hint[0]), stacklevel=4)
