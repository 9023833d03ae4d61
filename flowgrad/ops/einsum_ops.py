"""``tf.einsum``: the Einsum op (any number of operands, ellipsis broadcasting, implicit
output) with its gradient.

The gradient with respect to operand i is again an einsum: the output gradient
contracted with the other operands into operand i's subscripts; letters summed only
in operand i are restored by contracting with ones, and ellipsis dimensions that were
broadcast are summed back. An operand with a repeated subscript (a diagonal, "ii->i") is
differentiated as the contraction of an operand with distinct subscripts with identity
matrices."""
from __future__ import annotations

import re
from typing import Any

import numpy as np

from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import defop
from flowgrad.framework.tensor import constant, convert_to_tensor
from flowgrad.framework.tensor_shape import TensorShape, broadcast_shapes
from flowgrad.ops.arithmetic_ops import conj_if_complex
from flowgrad.ops.array_ops import _as_value, fill, shape, stack
from flowgrad.ops.broadcast_grad_ops import reduce_to_shape_of
from flowgrad.ops.linalg_ops import diag
from flowgrad.framework.type_hints import AxisLike, TensorLike

_ELLIPSIS = "..."
_VALID = re.compile(r"^([a-zA-Z]|\.\.\.)*$")


def _split(subs: str) -> list:
    """Subscripts as tokens: single letters and '...'."""
    return re.findall(r"\.\.\.|[a-zA-Z]", subs)


def parse_equation(equation: str, num_inputs: int) -> tuple:
    """(input subscripts, output subscripts) with the implicit output made explicit."""
    eq = equation.replace(" ", "")
    lhs, arrow, out = eq.partition("->")
    inputs = lhs.split(",")
    if len(inputs) != num_inputs:
        raise ValueError("einsum: the equation %r has %d operands but %d were given"
                         % (equation, len(inputs), num_inputs))
    for s in inputs + ([out] if arrow else []):
        if not _VALID.match(s):
            raise ValueError("einsum: invalid subscripts %r in equation %r (letters a-z, "
                             "A-Z and '...' only)" % (s, equation))
    if not arrow:
        letters = [t for s in inputs for t in _split(s) if t != _ELLIPSIS]
        once = sorted(c for c in set(letters) if letters.count(c) == 1)
        out = (_ELLIPSIS if any(_ELLIPSIS in s for s in inputs) else "") + "".join(once)
    else:
        toks = [t for t in _split(out) if t != _ELLIPSIS]
        if len(set(toks)) != len(toks):
            raise ValueError("einsum: output subscripts %r must not repeat a letter" % out)
        known = {t for s in inputs for t in _split(s)}
        missing = [t for t in toks if t not in known]
        if missing:
            raise ValueError("einsum: output subscript %r appears in no operand of %r"
                             % (missing[0], equation))
    return inputs, out


def _einsum_kernel(*operands: Any, equation: str) -> Any:
    return np.einsum(equation, *operands, optimize=len(operands) > 2)


def _einsum_infer(ins: list, attrs: dict) -> tuple:
    inputs, out = parse_equation(attrs["equation"], len(ins))
    dims: dict = {}
    ellipsis = TensorShape([])
    for subs, t in zip(inputs, ins):
        s = t.shape
        if s.rank is None:
            return ins[0].dtype.base_dtype, TensorShape(None)
        toks = _split(subs)
        n_ell = s.rank - (len(toks) - (1 if _ELLIPSIS in toks else 0))
        if n_ell < 0 or n_ell > 0 and _ELLIPSIS not in toks:
            raise ValueError("einsum: operand of shape %s does not match subscripts %r"
                             % (s, subs))
        k = 0
        for tok in toks:
            if tok == _ELLIPSIS:
                ellipsis = broadcast_shapes(ellipsis, TensorShape(s.as_list()[k:k + n_ell]),
                                            "einsum")
                k += n_ell
                continue
            d = s.as_list()[k]
            k += 1
            old = dims.get(tok)
            if old is not None and d is not None and old != d and 1 not in (old, d):
                raise ValueError("einsum: subscript %r has size %d in one operand and %d in "
                                 "another (%r)" % (tok, old, d, attrs["equation"]))
            if old is None or old == 1:
                dims[tok] = d
    shape = []
    for tok in _split(out):
        shape.extend(ellipsis.as_list() if tok == _ELLIPSIS else [dims.get(tok)])
    return ins[0].dtype.base_dtype, TensorShape(shape)


@defop("Einsum", _einsum_kernel, _einsum_infer, same_dtype=True, input_names=("inputs",))
def _einsum_grad(op: Any, grad: Any) -> Any:
    inputs, out = parse_equation(op.get_attr("equation"), len(op.inputs))
    return [_operand_grad(op, grad, inputs, out, i) for i in range(len(op.inputs))]


def _operand_grad(op: Any, grad: Any, inputs: list, out: str, i: int) -> Any:
    x, subs = op.inputs[i], inputs[i]
    if _ELLIPSIS in subs and _ELLIPSIS not in out:
        raise NotImplementedError("einsum: no gradient for an operand whose '...' dimensions "
                                  "are summed (%r)" % op.get_attr("equation"))
    others = [(s, t) for j, (s, t) in enumerate(zip(inputs, op.inputs)) if j != i]
    subs, deltas = _distinct_subscripts(x, subs, op.get_attr("equation"))
    others += deltas
    toks = _split(subs)
    letters = [t for t in toks if t != _ELLIPSIS]
    elsewhere = set(_split(out)) | {t for s, _ in others for t in _split(s)}
    dropped = "".join(t for t in letters if t not in elsewhere)
    subs_in = [out] + [s for s, _ in others]
    operands = [grad] + [conj_if_complex(t) for _, t in others]   # TensorFlow's: conjugates
    if dropped:     # ones over the dropped letters' axes (x's sizes, known or not)
        subs_in.append(dropped)
        axes = _axes(toks)
        operands.append(_ones(x, [axes[toks.index(t)] for t in dropped]))
    broadcast = _ELLIPSIS in toks or any(_ELLIPSIS in s for s in subs_in)
    target = subs if _ELLIPSIS in toks or not broadcast else _ELLIPSIS + subs
    g = einsum("%s->%s" % (",".join(subs_in), target), *operands)
    # '...' dimensions that x lacks or had broadcast (size 1) are summed back
    return reduce_to_shape_of(g, x) if broadcast else g


def _distinct_subscripts(x: Any, subs: str, equation: str) -> tuple:
    """``subs`` with each repeated letter (a diagonal, "ii") renamed to a fresh one, and
    the identity matrices (subscripts, tensor) that tie the renamed axes back together:
    einsum(subs, x) == einsum(new_subs + deltas, x, *identities)."""
    toks = _split(subs)
    if len(set(toks)) == len(toks):
        return subs, []
    fresh = (c for c in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
             if c not in equation)
    axes = _axes(toks)
    seen: set = set()
    new, deltas = [], []
    for t, axis in zip(toks, axes):
        if t in seen:
            f = next(fresh)
            new.append(f)
            deltas.append((t + f, diag(_ones(x, [axis]))))
        else:
            seen.add(t)
            new.append(t)
    return "".join(new), deltas


def _axes(toks: list) -> list:
    """The axis of each token of an operand's subscripts: counted from the front before
    '...', from the back after it (so the operand's rank need not be known); None for
    '...' itself."""
    if _ELLIPSIS not in toks:
        return list(range(len(toks)))
    e = toks.index(_ELLIPSIS)
    return list(range(e)) + [None] + list(range(e + 1 - len(toks), 0))


def _ones(x: Any, axes: list) -> Any:
    """Ones of x's dtype, shaped as x's ``axes`` (static sizes where known)."""
    dims = x.shape.as_list() if x.shape.rank is not None else None
    sizes = [dims[a] if dims is not None else None for a in axes]
    if None not in sizes:
        return convert_to_tensor(np.ones(sizes, x.dtype.base_dtype.as_numpy_dtype))
    dyn = shape(x)
    return fill(stack([dyn[a] for a in axes]), constant(1, x.dtype.base_dtype))


def einsum(equation: str, *inputs: Any, **kwargs: Any) -> Any:
    """Sums of products of ``inputs`` given by an Einstein-summation ``equation``.

    Args:
        equation: The subscripts, such as ``"ij,jk->ik"``.
        *inputs: The operands, one per comma-separated term.
        **kwargs: ``name`` (the op's name), as TensorFlow's ``einsum``.
    """
    name = kwargs.pop("name", None)
    kwargs.pop("optimize", None)
    if kwargs:
        raise TypeError("einsum: invalid keyword arguments %s" % sorted(kwargs))
    if not isinstance(equation, str):
        raise TypeError("einsum: equation must be a string, got %r" % (equation,))
    ts = [convert_to_tensor(_as_value(x)) for x in inputs]
    if ts:
        dt = ts[0].dtype.base_dtype
        ts = [ts[0]] + [convert_to_tensor(_as_value(x), dt) for x in inputs[1:]]
    parse_equation(equation, len(ts))
    return apply_op("Einsum", ts, {"equation": equation.replace(" ", "")}, name=name)


def tensordot(a: TensorLike, b: TensorLike, axes: AxisLike, name: str | None = None) -> Any:
    """Sum of products over ``axes`` of ``a`` and ``b`` (an int N: a's last N with b's
    first N; or two lists of axes), as an einsum.

    Args:
        a: A tensor.
        b: A tensor of ``a``'s dtype.
        axes: An int N (the last N axes of ``a`` with the first N of ``b``) or a pair of axis lists.
        name: A name for the operation (optional).

    Raises:
        IndexError: an axis past the rank (TensorFlow's, which indexes the shape with it).
        ValueError: an ``axes`` of the wrong form, or a negative axis past the rank.
    """
    a, b = convert_to_tensor(_as_value(a)), convert_to_tensor(_as_value(b))
    ra, rb = a.shape.rank, b.shape.rank
    if ra is None or rb is None:
        raise ValueError("tensordot needs tensors of known rank")
    if isinstance(axes, (int, np.integer)):
        if not 0 <= axes <= min(ra, rb):
            raise ValueError("tensordot: axes=%d must be in [0, %d]" % (axes, min(ra, rb)))
        ax_a, ax_b = list(range(ra - axes, ra)), list(range(axes))
    else:
        if len(axes) != 2:
            raise ValueError("tensordot: axes must be an int or a pair of axis lists, got %r"
                             % (axes,))
        ax_a, ax_b = ([int(x)] if np.ndim(x) == 0 else [int(i) for i in x] for x in axes)
        if len(ax_a) != len(ax_b):
            raise ValueError("tensordot: axes lists differ in length: %r" % (axes,))
        for axes_x, r, which in ((ax_a, ra, "a"), (ax_b, rb, "b")):
            for i in axes_x:        # TensorFlow indexes the shape with them: IndexError
                if i >= r:
                    raise IndexError("tensordot: axis %d of %s is out of range for rank %d"
                                     % (i, which, r))
                if i < -r:
                    raise ValueError("tensordot: axis %d of %s is out of range for rank %d"
                                     % (i, which, r))
        ax_a, ax_b = [i % ra for i in ax_a], [i % rb for i in ax_b]
    letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    if ra + rb > len(letters):
        raise ValueError("tensordot: too many dimensions (%d)" % (ra + rb))
    sa = list(letters[:ra])
    sb = list(letters[ra:ra + rb])
    for i, j in zip(ax_a, ax_b):
        sb[j] = sa[i]
    out = [c for i, c in enumerate(sa) if i not in ax_a] + \
        [c for j, c in enumerate(sb) if j not in ax_b]
    return einsum("%s,%s->%s" % ("".join(sa), "".join(sb), "".join(out)), a, b, name=name)


__all__ = ["einsum", "tensordot"]
