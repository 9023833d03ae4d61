"""The fused updates of TensorFlow 1's FTRL, proximal and dual-averaging optimizers:
ApplyFtrl, ApplyFtrlV2, ApplyProximalGradientDescent, ApplyProximalAdagrad, ApplyAdagradDA
and their Sparse* forms, with TensorFlow's CPU kernels' formulas (training_ops.cc). Like the
other update ops (``training_ops``) they return new values that the Session commits, and have
no gradient."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.ops.training_ops import (
    _indices,
    _make_infer,
    _register,
    _same_shape,
    _scalars,
    _unique_rows,
    _update,
    _with_rows,
)
from flowgrad.framework.type_hints import TensorLike


def _shrink(prox: Any, threshold: Any, denom: Any, l1: Any) -> Any:
    """sign(prox) max(|prox| - threshold, 0) / denom when l1 > 0, else prox / denom."""
    if l1 > 0:
        return np.sign(prox) * np.maximum(np.abs(prox) - threshold, 0) / denom
    return prox / denom


# --------------------------------------------------------------------------------------
# FTRL


def _ftrl(var: Any, accum: Any, linear: Any, grad: Any, lr: Any, l1: Any, l2: Any,
          shrinkage: Any, lr_power: Any) -> tuple:
    new_accum = accum + grad * grad
    g = grad + 2 * shrinkage * var if shrinkage is not None else grad
    if lr_power == -0.5:
        sigma = (np.sqrt(new_accum) - np.sqrt(accum)) / lr
        y = np.sqrt(new_accum) / lr + 2 * l2
    else:
        sigma = (new_accum ** -lr_power - accum ** -lr_power) / lr
        y = new_accum ** -lr_power / lr + 2 * l2
    new_linear = linear + (g - sigma * var)
    x = l1 * np.sign(new_linear) - new_linear
    new_var = np.where(np.abs(new_linear) > l1, x / y, np.zeros_like(var))
    return new_var.astype(var.dtype, copy=False), new_accum, new_linear


def _apply_ftrl(var: Any, accum: Any, linear: Any, grad: Any, lr: Any, l1: Any, l2: Any,
                lr_power: Any) -> tuple:
    _same_shape("ApplyFtrl", "grad", var, grad)
    _scalars("ApplyFtrl", ("lr", "l1", "l2", "lr_power"), lr, l1, l2, lr_power)
    return _ftrl(var, accum, linear, grad, lr, l1, l2, None, lr_power)


def _apply_ftrl_v2(var: Any, accum: Any, linear: Any, grad: Any, lr: Any, l1: Any, l2: Any,
                   l2_shrinkage: Any, lr_power: Any) -> tuple:
    _same_shape("ApplyFtrlV2", "grad", var, grad)
    _scalars("ApplyFtrlV2", ("lr", "l1", "l2", "l2_shrinkage", "lr_power"),
             lr, l1, l2, l2_shrinkage, lr_power)
    return _ftrl(var, accum, linear, grad, lr, l1, l2, l2_shrinkage, lr_power)


def _sparse_apply_ftrl(var: Any, accum: Any, linear: Any, grad: Any, indices: Any, lr: Any,
                       l1: Any, l2: Any, lr_power: Any) -> tuple:
    rows, g = _unique_rows("SparseApplyFtrl", var, grad, indices)
    new = _ftrl(var[rows], accum[rows], linear[rows], g, lr, l1, l2, None, lr_power)
    return tuple(_with_rows(a, rows, n) for a, n in zip((var, accum, linear), new))


def _sparse_apply_ftrl_v2(var: Any, accum: Any, linear: Any, grad: Any, indices: Any, lr: Any,
                          l1: Any, l2: Any, l2_shrinkage: Any, lr_power: Any) -> tuple:
    rows, g = _unique_rows("SparseApplyFtrlV2", var, grad, indices)
    new = _ftrl(var[rows], accum[rows], linear[rows], g, lr, l1, l2, l2_shrinkage, lr_power)
    return tuple(_with_rows(a, rows, n) for a, n in zip((var, accum, linear), new))


_FTRL = (("var", "var"), ("accum", "slot"), ("linear", "slot"))
_register("ApplyFtrl", _apply_ftrl, _FTRL + (("grad", "grad"), ("lr", "scalar"),
                                             ("l1", "scalar"), ("l2", "scalar"),
                                             ("lr_power", "scalar")), 3)
_register("ApplyFtrlV2", _apply_ftrl_v2, _FTRL + (("grad", "grad"), ("lr", "scalar"),
                                                  ("l1", "scalar"), ("l2", "scalar"),
                                                  ("l2_shrinkage", "scalar"),
                                                  ("lr_power", "scalar")), 3)
_register("SparseApplyFtrl", _sparse_apply_ftrl,
          _FTRL + (("grad", "rows"), ("indices", "indices"), ("lr", "scalar"), ("l1", "scalar"),
                   ("l2", "scalar"), ("lr_power", "scalar")), 3)
_register("SparseApplyFtrlV2", _sparse_apply_ftrl_v2,
          _FTRL + (("grad", "rows"), ("indices", "indices"), ("lr", "scalar"), ("l1", "scalar"),
                   ("l2", "scalar"), ("l2_shrinkage", "scalar"), ("lr_power", "scalar")), 3)


# --------------------------------------------------------------------------------------
# Proximal gradient descent and proximal Adagrad


def _apply_proximal_gradient_descent(var: Any, alpha: Any, l1: Any, l2: Any,
                                     delta: Any) -> Any:
    _same_shape("ApplyProximalGradientDescent", "delta", var, delta)
    _scalars("ApplyProximalGradientDescent", ("alpha", "l1", "l2"), alpha, l1, l2)
    return _shrink(var - alpha * delta, alpha * l1, 1 + alpha * l2, l1)


def _sparse_apply_proximal_gradient_descent(var: Any, alpha: Any, l1: Any, l2: Any, grad: Any,
                                            indices: Any) -> Any:
    rows, g = _unique_rows("SparseApplyProximalGradientDescent", var, grad, indices)
    new = _shrink(var[rows] - alpha * g, alpha * l1, 1 + alpha * l2, l1)
    return _with_rows(var, rows, new)


def _proximal_adagrad(var: Any, accum: Any, lr: Any, l1: Any, l2: Any, grad: Any) -> tuple:
    new_accum = accum + grad * grad
    rate = lr / np.sqrt(new_accum)
    return _shrink(var - grad * rate, rate * l1, 1 + l2 * rate, l1), new_accum


def _apply_proximal_adagrad(var: Any, accum: Any, lr: Any, l1: Any, l2: Any,
                            grad: Any) -> tuple:
    _same_shape("ApplyProximalAdagrad", "grad", var, grad)
    _scalars("ApplyProximalAdagrad", ("lr", "l1", "l2"), lr, l1, l2)
    return _proximal_adagrad(var, accum, lr, l1, l2, grad)


def _sparse_apply_proximal_adagrad(var: Any, accum: Any, lr: Any, l1: Any, l2: Any, grad: Any,
                                   indices: Any) -> tuple:
    rows, g = _unique_rows("SparseApplyProximalAdagrad", var, grad, indices)
    new_var, new_accum = _proximal_adagrad(var[rows], accum[rows], lr, l1, l2, g)
    return _with_rows(var, rows, new_var), _with_rows(accum, rows, new_accum)


_HYPER = (("l1", "scalar"), ("l2", "scalar"))
_register("ApplyProximalGradientDescent", _apply_proximal_gradient_descent,
          (("var", "var"), ("alpha", "scalar")) + _HYPER + (("delta", "grad"),), 1)
_register("SparseApplyProximalGradientDescent", _sparse_apply_proximal_gradient_descent,
          (("var", "var"), ("alpha", "scalar")) + _HYPER + (("grad", "rows"),
                                                             ("indices", "indices")), 1)
_register("ApplyProximalAdagrad", _apply_proximal_adagrad,
          (("var", "var"), ("accum", "slot"), ("lr", "scalar")) + _HYPER + (("grad", "grad"),),
          2)
_register("SparseApplyProximalAdagrad", _sparse_apply_proximal_adagrad,
          (("var", "var"), ("accum", "slot"), ("lr", "scalar")) + _HYPER
          + (("grad", "rows"), ("indices", "indices")), 2)


# --------------------------------------------------------------------------------------
# Adagrad dual averaging


def _adagrad_da(var: Any, g_acc: Any, gg_acc: Any, grad: Any, lr: Any, l1: Any, l2: Any,
                global_step: Any) -> tuple:
    new_g = g_acc + grad
    new_gg = gg_acc + grad * grad
    step = np.asarray(global_step).astype(var.dtype)
    denom = l2 * (step * lr) + np.sqrt(new_gg)
    if l1 > 0:
        new_var = lr * -np.sign(new_g) * np.maximum(np.abs(new_g) - step * l1, 0) / denom
    else:
        new_var = lr * new_g * -1.0 / denom
    return new_var.astype(var.dtype, copy=False), new_g, new_gg


def _apply_adagrad_da(var: Any, g_acc: Any, gg_acc: Any, grad: Any, lr: Any, l1: Any, l2: Any,
                      global_step: Any) -> tuple:
    _same_shape("ApplyAdagradDA", "grad", var, grad)
    _scalars("ApplyAdagradDA", ("lr", "l1", "l2", "global_step"), lr, l1, l2, global_step)
    return _adagrad_da(var, g_acc, gg_acc, grad, lr, l1, l2, global_step)


def _sparse_apply_adagrad_da(var: Any, g_acc: Any, gg_acc: Any, grad: Any, indices: Any,
                             lr: Any, l1: Any, l2: Any, global_step: Any) -> tuple:
    rows, g = _unique_rows("SparseApplyAdagradDA", var, grad, indices)
    new = _adagrad_da(var[rows], g_acc[rows], gg_acc[rows], g, lr, l1, l2, global_step)
    return tuple(_with_rows(a, rows, n) for a, n in zip((var, g_acc, gg_acc), new))


def _register_da(op_type: str, kernel: Any, inputs: tuple) -> None:
    """Registers an AdagradDA op: its last input, the int64 global step, is checked apart."""
    from flowgrad.framework.registry import get_op_def
    _register(op_type, kernel, inputs + (("global_step", "indices"),), 3)
    opdef = get_op_def(op_type)
    names = tuple(n for n, _ in inputs)
    roles = tuple(r for _, r in inputs)
    check = _make_infer(op_type, names, roles)

    def infer(ins: list, attrs: dict) -> tuple:
        if not ins[-1].dtype.is_integer or ins[-1].shape.rank not in (None, 0):
            raise TypeError("Input 'global_step' of '%s' Op must be an int64 scalar, got %s %s"
                            % (op_type, ins[-1].dtype.name, ins[-1].shape))
        return check(ins[:-1], attrs)
    opdef.infer = infer


_DA = (("var", "var"), ("gradient_accumulator", "slot"),
       ("gradient_squared_accumulator", "slot"))
_register_da("ApplyAdagradDA", _apply_adagrad_da,
             _DA + (("grad", "grad"), ("lr", "scalar"), ("l1", "scalar"), ("l2", "scalar")))
_register_da("SparseApplyAdagradDA", _sparse_apply_adagrad_da,
             _DA + (("grad", "rows"), ("indices", "indices"), ("lr", "scalar"),
                    ("l1", "scalar"), ("l2", "scalar")))


# --------------------------------------------------------------------------------------
# Graph functions


def apply_ftrl(var: Any, accum: Any, linear: Any, grad: TensorLike, lr: Any, l1: TensorLike,
               l2: TensorLike, lr_power: Any, use_locking: bool = False,
               name: str | None = None) -> Any:
    """FTRL-proximal: accum += g^2; linear += g - (accum_new^-p - accum^-p) / lr * var;
    var = (l1 sign(linear) - linear) / (accum_new^-p / lr + 2 l2) where |linear| > l1, else 0.

    Args:
        var: The variable.
        accum: The accumulator slot.
        linear: The linear slot.
        grad: The gradient.
        lr: The learning rate.
        l1: The L1 regularization strength.
        l2: The L2 regularization strength.
        lr_power: The learning rate power (-0.5 usually).
        use_locking: Accepted for TensorFlow's signature.
        name: The op's name.

    Returns:
        The update op's output (the new value of ``var``).
    """
    return _update("ApplyFtrl", [var, accum, linear, grad, lr, l1, l2, lr_power], name)


def apply_ftrl_v2(var: Any, accum: Any, linear: Any, grad: TensorLike, lr: Any, l1: TensorLike,
                  l2: TensorLike, l2_shrinkage: Any, lr_power: Any, use_locking: bool = False,
                  name: str | None = None) -> Any:
    """ApplyFtrl with the gradient ``grad + 2 l2_shrinkage var`` in the linear term.

    Args:
        var: The variable.
        accum: The accumulator slot.
        linear: The linear slot.
        grad: The gradient.
        lr: The learning rate.
        l1: The L1 regularization strength.
        l2: The L2 regularization strength.
        l2_shrinkage: The L2 shrinkage regularization strength.
        lr_power: The learning rate power.
        use_locking: Accepted for TensorFlow's signature.
        name: The op's name.

    Returns:
        The update op's output.
    """
    return _update("ApplyFtrlV2", [var, accum, linear, grad, lr, l1, l2, l2_shrinkage,
                                   lr_power], name)


def sparse_apply_ftrl(var: Any, accum: Any, linear: Any, grad: TensorLike, indices: TensorLike,
                      lr: Any, l1: TensorLike, l2: TensorLike, lr_power: Any,
                      l2_shrinkage: Any = None, use_locking: bool = False,
                      name: str | None = None) -> Any:
    """ApplyFtrl (ApplyFtrlV2 with ``l2_shrinkage``) on the rows ``indices``.

    Args:
        var: The variable.
        accum: The accumulator slot.
        linear: The linear slot.
        grad: The gradient's rows.
        indices: The rows' indices.
        lr: The learning rate.
        l1: The L1 regularization strength.
        l2: The L2 regularization strength.
        lr_power: The learning rate power.
        l2_shrinkage: The L2 shrinkage strength, or None for SparseApplyFtrl.
        use_locking: Accepted for TensorFlow's signature.
        name: The op's name.

    Returns:
        The update op's output.
    """
    if l2_shrinkage is None:
        return _update("SparseApplyFtrl", [var, accum, linear, grad, _indices(indices), lr, l1,
                                           l2, lr_power], name)
    return _update("SparseApplyFtrlV2", [var, accum, linear, grad, _indices(indices), lr, l1, l2,
                                         l2_shrinkage, lr_power], name)


def apply_proximal_gradient_descent(var: Any, alpha: TensorLike, l1: TensorLike, l2: TensorLike,
                                    delta: TensorLike, indices: TensorLike | None = None,
                                    use_locking: bool = False, name: str | None = None) -> Any:
    """prox = var - alpha delta; var = sign(prox) max(|prox| - alpha l1, 0) / (1 + alpha l2)
    (on the rows ``indices`` when given).

    Args:
        var: The variable.
        alpha: The learning rate.
        l1: The L1 regularization strength.
        l2: The L2 regularization strength.
        delta: The gradient (its rows with ``indices``).
        indices: The rows' indices of a sparse gradient, or None.
        use_locking: Accepted for TensorFlow's signature.
        name: The op's name.

    Returns:
        The update op's output.
    """
    if indices is None:
        return _update("ApplyProximalGradientDescent", [var, alpha, l1, l2, delta], name)
    return _update("SparseApplyProximalGradientDescent",
                   [var, alpha, l1, l2, delta, _indices(indices)], name)


def apply_proximal_adagrad(var: Any, accum: Any, lr: Any, l1: TensorLike, l2: TensorLike,
                           grad: TensorLike, indices: TensorLike | None = None,
                           use_locking: bool = False, name: str | None = None) -> Any:
    """accum += g^2; rate = lr / sqrt(accum); prox = var - g rate;
    var = sign(prox) max(|prox| - rate l1, 0) / (1 + rate l2) (on the rows ``indices``).

    Args:
        var: The variable.
        accum: The accumulator slot.
        lr: The learning rate.
        l1: The L1 regularization strength.
        l2: The L2 regularization strength.
        grad: The gradient (its rows with ``indices``).
        indices: The rows' indices of a sparse gradient, or None.
        use_locking: Accepted for TensorFlow's signature.
        name: The op's name.

    Returns:
        The update op's output.
    """
    if indices is None:
        return _update("ApplyProximalAdagrad", [var, accum, lr, l1, l2, grad], name)
    return _update("SparseApplyProximalAdagrad",
                   [var, accum, lr, l1, l2, grad, _indices(indices)], name)


def apply_adagrad_da(var: Any, gradient_accumulator: Any, gradient_squared_accumulator: Any,
                     grad: TensorLike, lr: Any, l1: TensorLike, l2: TensorLike, global_step: Any,
                     indices: TensorLike | None = None, use_locking: bool = False,
                     name: str | None = None) -> Any:
    """Adagrad dual averaging: g_acc += g; gg_acc += g^2;
    var = -lr sign(g_acc) max(|g_acc| - step l1, 0) / (l2 step lr + sqrt(gg_acc)).

    Args:
        var: The variable.
        gradient_accumulator: The gradient accumulator slot.
        gradient_squared_accumulator: The squared gradient accumulator slot.
        grad: The gradient (its rows with ``indices``).
        lr: The learning rate.
        l1: The L1 regularization strength.
        l2: The L2 regularization strength.
        global_step: The int64 training step.
        indices: The rows' indices of a sparse gradient, or None.
        use_locking: Accepted for TensorFlow's signature.
        name: The op's name.

    Returns:
        The update op's output.
    """
    step = convert_to_tensor(global_step, name="global_step")
    if indices is None:
        return _update("ApplyAdagradDA", [var, gradient_accumulator,
                                          gradient_squared_accumulator, grad, lr, l1, l2, step],
                       name)
    return _update("SparseApplyAdagradDA",
                   [var, gradient_accumulator, gradient_squared_accumulator, grad,
                    _indices(indices), lr, l1, l2, step], name)
