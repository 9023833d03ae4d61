"""The op database of the tests: one entry per case, flags for the checks that run it.

Each :class:`OpInfo` names a function of float64 tensors, the arrays to call it at, and
which checks run it (PyTorch's ``OpInfo`` database, JAX's ``check_grads``):

* ``graph`` / ``eager``: the highest order of the numerical gradient check
  (``flowgrad.testing.check_gradients``: central differences, float64) in graph mode and
  in eager mode; 0 turns that check off, and then ``why`` says why
  (tests/test_op_db.py);
* ``jvp``: forward mode -- ``ForwardAccumulator``'s JVP against the reverse-mode Jacobian,
  the same in a TF1 graph, and the vectorized (pfor) Jacobian against the looped one
  (tests/test_forward_mode.py, tests/test_vectorize.py);
* ``vmap``: ``tf.vectorized_map(fn)`` over the leading axis of ``inputs[0]`` against a
  Python loop (tests/test_vectorize.py);
* ``fuzz``: the family of the property-based (hypothesis) tests that draw shapes, dtypes
  and values for the entry (tests/test_fuzz.py), with its NumPy reference ``ref`` and
  input ``domain``.

``op`` is the op type an entry is written for (the tests check that ``fn`` creates it).
Reverse mode is complete when every differentiable op type flowgrad registers appears in
the graph or the first gradient of some gradient-checked entry, or has a reason in
:data:`NO_GRADIENT_CHECK`; forward mode when every one has a ``jvp`` entry or a reason in
:data:`NO_JVP_CHECK`; batching when every op type with a batching rule has a ``vmap``
entry. A new op gets its tests from one entry here (docs/architecture.md)."""
from __future__ import annotations

import collections
import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

import flowgrad
import flowgrad.compat.v1 as tf1
from flowgrad.framework.op_call import apply_op
from flowgrad.ops.array_ops import embedding_lookup


@dataclasses.dataclass(frozen=True)
class OpInfo:
    """One case of the op database (see the module docstring for the checks)."""

    name: str                       # unique: "<family>.<case>"
    fn: Callable                    # a function of float64 tensors (one per input)
    inputs: Sequence[Any]           # the arrays fn is called at
    op: str | None = None           # the op type the entry is written for
    graph: int = 2                  # highest gradient-check order in graph mode (0: none)
    eager: int = 2                  # the same in eager mode
    rtol: float = 1e-5              # tolerances of the gradient check
    atol: float = 1e-6
    expect_none: tuple = ()         # inputs whose gradient must be None (all others: not)
    jvp: bool = False               # forward mode and pfor Jacobians (see the docstring)
    vmap: bool = False              # vectorized_map over inputs[0]'s leading axis
    fuzz: str | None = None         # the hypothesis family: "unary", "binary", "reduction"
    ref: Callable | None = None     # NumPy reference of a fuzz entry
    domain: tuple = ()              # a fuzz entry's input domain: (low, high) per input
    ints: bool = False              # a fuzz entry also holds for integer dtypes
    why: str = ""                   # why a gradient check is off in one mode

    @property
    def family(self) -> str:
        return self.name.split(".", 1)[0]

    @property
    def case(self) -> str:
        return self.name.split(".", 1)[1]


def _table(family: str, cases: list, suffix: str = "", graph: int = 2, eager: int = 2,
           graph3: Sequence[str] = (), no_eager: dict | None = None, why: str = "",
           **kw: Any) -> list:
    """Gradient-check entries from (case name, fn, inputs) triples.

    ``graph3`` names the cases checked to third order in graph mode, ``no_eager`` the
    cases not checked eagerly (with the reason)."""
    no_eager = no_eager or {}
    return [OpInfo("%s.%s%s" % (family, name, suffix), fn, list(inputs),
                   graph=3 if name in graph3 else graph,
                   eager=0 if name in no_eager else eager, why=no_eager.get(name, why), **kw)
            for name, fn, inputs in cases]


# --------------------------------------------------------------------------------------
# Gradient checks, graph and eager, orders 1 and 2 (3 where named)

_THIRD = "a third-order check in graph mode; the case's own entry checks orders 1-2 eagerly"

def _core_math() -> list:
    """The core_math cases (once tests/test_core_math.py's table)."""
    tf = tf1

    R = np.random.RandomState(42)
    A23 = R.uniform(0.5, 2.0, (2, 3))
    B3 = R.uniform(0.5, 2.0, (3,))
    B13 = R.uniform(0.5, 2.0, (1, 3))
    C21 = R.uniform(0.5, 2.0, (2, 1))

    CASES = [
        ("add", lambda x, y: x + y, [A23, B3]),
        ("sub", lambda x, y: x - y, [A23, C21]),
        ("mul", lambda x, y: x * y, [A23, B13]),
        ("realdiv", lambda x, y: tf.realdiv(x, y), [A23, B3]),
        ("pow", lambda x, y: tf.pow(x, y), [A23, B3]),
        ("neg", lambda x: -x, [A23]),
        ("square", tf.square, [A23]),
        ("exp", tf.exp, [A23]),
        ("log", tf.log, [A23]),
        ("reciprocal", tf.reciprocal, [A23]),
        ("matmul", lambda a, b: tf.matmul(a, b), [A23, A23.T.copy()]),
        ("matmul_ta", lambda a, b: tf.matmul(a, b, transpose_a=True), [A23, A23]),
        ("matmul_tb", lambda a, b: tf.matmul(a, b, transpose_b=True), [A23, A23]),
        ("matmul_tab", lambda a, b: tf.matmul(a, b, transpose_a=True, transpose_b=True),
         [A23, A23.T.copy()]),
        ("sum_all", lambda x: tf.reduce_sum(x * x), [A23]),
        ("sum_axis", lambda x: tf.reduce_sum(x * x, axis=1), [A23]),
        ("sum_keep", lambda x: tf.reduce_sum(x * x, axis=0, keepdims=True), [A23]),
        ("mean", lambda x: tf.reduce_mean(x * x, axis=-1), [A23]),
        ("add_n", lambda x, y: tf.add_n([x, y, x * y]), [A23, A23 + 1]),
        ("where", lambda x, y: tf.where(x > y, x * x, y), [A23, A23[::-1].copy()]),
    ]

    return _table("core_math", CASES, graph3={"mul", "pow", "exp", "matmul", "mean"})


def _math() -> list:
    """The math cases (once tests/test_math_ops.py's table)."""
    tf = tf1

    R = np.random.RandomState(0)
    A23 = R.uniform(0.5, 2.0, (2, 3))
    B3 = R.uniform(0.5, 2.0, (3,))
    B13 = R.uniform(0.5, 2.0, (1, 3))
    C21 = R.uniform(0.5, 2.0, (2, 1))
    S23 = R.uniform(0.3, 1.5, (2, 3)) * np.array([[1, -1, 1], [-1, 1, -1]])   # signed, not near 0
    A234 = R.uniform(0.5, 1.5, (2, 3, 4))
    B45 = R.uniform(0.5, 1.5, (4, 5))
    A2134 = R.uniform(0.5, 1.5, (2, 1, 3, 4))
    B542 = R.uniform(0.5, 1.5, (5, 4, 2))

    # (name, fn, inputs): every differentiable op, with broadcasting where the op broadcasts.
    # The fns only call ops, so the table also runs under GradientTape in eager mode.
    CASES = [
        ("truediv_operator", lambda x, y: x / y, [A23, C21]),
        ("divide", lambda x, y: tf.divide(x, y), [A23, B3]),
        ("div_float", lambda x, y: tf.div(x, y), [A23, B13]),
        ("rtruediv", lambda x: 2.0 / x, [A23]),
        ("floormod", lambda x, y: tf.floormod(x, y), [3 * A23, B3]),
        ("xlogy", lambda x, y: tf.math.xlogy(x, y), [A23, B3]),
        ("xlog1py", lambda x, y: tf.math.xlog1py(x, y), [A23, C21 - 0.4]),
        ("xdivy", lambda x, y: tf.math.xdivy(x, y), [A23, B13]),
        ("multiply_no_nan", lambda x, y: tf.math.multiply_no_nan(x, y), [S23, B3]),
        ("erfcinv", lambda x: tf.math.erfcinv(x), [A23 * 0.8]),
        ("lbeta", lambda x: tf.math.lbeta(x), [A23]),
        ("polyval", lambda c, x: tf.math.polyval([c, 2.0 * c, x], x), [B3, A23]),
        ("reciprocal_no_nan", lambda x: tf.math.reciprocal_no_nan(x), [S23]),
        ("crelu", lambda x: tf.nn.crelu(x), [S23]),
        ("div_no_nan", lambda x, y: tf.div_no_nan(x, y), [A23, B13]),
        ("maximum", lambda x, y: tf.maximum(x, y), [A23, B3]),
        ("minimum", lambda x, y: tf.minimum(x, y), [A23, C21]),
        ("squared_difference", lambda x, y: tf.squared_difference(x, y), [A23, B13]),
        ("scalar_mul", lambda x: tf.scalar_mul(2.5, x), [A23]),
        ("abs", lambda x: tf.abs(x) * x, [S23]),
        ("sign", lambda x: tf.sign(x) * x * x, [S23]),
        ("sqrt", tf.sqrt, [A23]),
        ("rsqrt", tf.rsqrt, [A23]),
        ("log1p", tf.log1p, [A23]),
        ("expm1", tf.expm1, [S23]),
        ("sin", tf.sin, [S23]),
        ("cos", tf.cos, [S23]),
        ("tan", tf.tan, [0.6 * A23]),
        ("tanh", tf.tanh, [S23]),
        ("sigmoid", tf.sigmoid, [S23]),
        ("reduce_max_axis", lambda x: tf.reduce_max(x * x, axis=1), [S23]),
        ("reduce_max_all", lambda x: tf.reduce_max(x * x), [S23]),
        ("reduce_min_keep", lambda x: tf.reduce_min(x * x, axis=0, keepdims=True), [S23]),
        ("reduce_prod_all", lambda x: tf.reduce_prod(x), [A23]),
        ("reduce_prod_axis", lambda x: tf.reduce_prod(x, axis=-1), [A234]),
        ("reduce_prod_axes", lambda x: tf.reduce_prod(x, axis=[0, 2], keepdims=True), [A234]),
        ("reduce_logsumexp", lambda x: tf.reduce_logsumexp(3.0 * x, axis=1), [S23]),
        ("reduce_euclidean_norm", lambda x: tf.math.reduce_euclidean_norm(x, axis=0), [S23]),
        ("reduce_variance", lambda x: tf.math.reduce_variance(x, axis=1), [S23]),
        ("reduce_std", lambda x: tf.math.reduce_std(x), [S23]),
        ("cumsum", lambda x: tf.cumsum(x * x, axis=1), [S23]),
        ("cumsum_exclusive_reverse", lambda x: tf.cumsum(x * x, 1, exclusive=True, reverse=True),
         [S23]),
        ("cumprod", lambda x: tf.cumprod(x, axis=1), [A23]),
        ("cumprod_exclusive_reverse", lambda x: tf.cumprod(x, 0, exclusive=True, reverse=True),
         [A23]),
        ("cumulative_logsumexp", lambda x: tf.math.cumulative_logsumexp(3.0 * x, axis=1), [S23]),
        ("cumulative_logsumexp_exclusive_reverse",     # exp: the empty sum is log 0 = -inf
         lambda x: tf.exp(tf.math.cumulative_logsumexp(x, 0, exclusive=True, reverse=True)),
         [S23]),
        ("clip_by_value_tensors", lambda t, lo, hi: tf.clip_by_value(t, lo, hi),
         [2 * S23, -C21, B3]),
        ("norm", lambda x: tf.norm(x), [S23]),
        ("norm_axis", lambda x: tf.norm(x, axis=1, keepdims=True), [S23]),
        ("norm_ord1", lambda x: tf.norm(x, ord=1, axis=0), [S23]),
        ("norm_ord3", lambda x: tf.norm(x, ord=3, axis=-1), [S23]),
        ("norm_inf", lambda x: tf.norm(x, ord=np.inf), [S23]),
        ("norm_fro", lambda x: tf.norm(x, ord="fro", axis=(0, 1)), [S23]),
        ("norm_matrix_1", lambda x: tf.norm(x, ord=1, axis=[-2, -1]), [S23]),
        ("norm_matrix_inf", lambda x: tf.norm(x, ord=np.inf, axis=(1, 2)), [A234]),
        ("matmul_batched", lambda a, b: tf.matmul(a, b), [A234, B45]),
        ("matmul_batch_broadcast_adjoint", lambda a, b: tf.matmul(a, b, adjoint_b=True),
         [A2134, R.uniform(0.5, 1.5, (5, 2, 4))]),
        ("matmul_batch_broadcast_transpose_a", lambda a, b: tf.matmul(a, b, transpose_a=True),
         [R.uniform(0.5, 1.5, (5, 4, 3)), A2134.transpose(0, 1, 3, 2).copy()]),
        ("matmul_rank2_with_batch", lambda a, b: tf.matmul(a, b), [A23, R.uniform(0.5, 1.5,
                                                                              (4, 3, 2))]),
        ("matmul_operator", lambda a, b: a @ b, [A234, B542[0]]),
    ]

    THIRD_ORDER = ["sqrt", "rsqrt", "tanh", "sigmoid", "maximum", "reduce_prod_axes", "cumprod",
                   "norm_axis", "reduce_logsumexp", "matmul_batch_broadcast_adjoint"]

    return _table("math", CASES, graph3=set(THIRD_ORDER))


def _array() -> list:
    """The array cases (once tests/test_array_ops.py's table)."""
    tf = tf1

    R = np.random.RandomState(7)


    def U(*shape):
        """Inputs away from zero, for numerical gradient checks."""
        return R.uniform(0.5, 1.5, shape)


    def dyn(value, dtype=np.int32):
        """An int tensor whose value is not known when the graph is built (the tensor path);
        a constant in eager mode, where every value is known."""
        v = np.asarray(value, dtype)
        if tf.executing_eagerly():
            return tf.constant(v)
        return tf.placeholder_with_default(v, [None] * v.ndim)


    A234, M34, M24, M32, V5 = U(2, 3, 4), U(3, 4), U(2, 4), U(3, 2), U(5)
    sq = tf.square

    # (name, fn, inputs): fn maps float64 tensors to a tensor or a list of tensors. Each op is
    # followed by a square so that second-order checks differentiate the gradient functions.
    CASES = [
        ("expand_dims", lambda x: sq(tf.expand_dims(x, 1)), [M34]),
        ("expand_dims_neg", lambda x: sq(tf.expand_dims(x, -1)), [M34]),
        ("expand_dims_dynamic", lambda x: sq(tf.reshape(tf.expand_dims(x, dyn(0)), [1, 3, 4])),
         [M34]),
        ("squeeze_axis", lambda x: sq(tf.squeeze(x, [1])), [U(3, 1, 4)]),
        ("squeeze_all", lambda x: sq(tf.squeeze(x)), [U(1, 3, 1)]),
        ("transpose", lambda x: sq(tf.transpose(x, [1, 2, 0])), [A234]),
        ("transpose_default", lambda x: sq(tf.transpose(x)), [A234]),
        ("transpose_dynamic", lambda x: sq(tf.reshape(tf.transpose(x, dyn([2, 0, 1])), [4, 2, 3])),
         [A234]),
        ("concat", lambda x, y: sq(tf.concat([x, y, x], 0)), [M34, M24]),
        ("concat_neg_axis", lambda x, y: sq(tf.concat([x, y], -1)), [M34, M32]),
        ("concat_dynamic_axis", lambda x, y: sq(tf.reshape(tf.concat([x, y], dyn(1)), [3, 6])),
         [M34, M32]),
        ("split", lambda x: [sq(p) for p in tf.split(x, 2, axis=1)], [M34]),
        ("split_sizes", lambda x: [sq(p) for p in tf.split(x, [1, -1, 2], 1)], [U(3, 5)]),
        ("split_one_part_used", lambda x: sq(tf.split(x, 3, 0)[1]), [M34]),
        ("split_dynamic_sizes",
         lambda x: [sq(tf.reshape(p, s)) for p, s in
                    zip(tf.split(x, dyn([1, 2]), dyn(1), num=2), ([3, 1], [3, 2]))],
         [M32 @ U(2, 3)]),
        ("slice", lambda x: sq(tf.slice(x, [1, 0, 1], [1, -1, 2])), [A234]),
        ("slice_dynamic", lambda x: sq(tf.reshape(tf.slice(x, dyn([1, 0, 1]), dyn([1, -1, 2])),
                                                  [1, 3, 2])), [A234]),
        ("strided_slice_masks",
         lambda x: sq(tf.strided_slice(x, [0, 1, 0], [0, 3, 4], [1, 1, 2], begin_mask=1,
                                       end_mask=1)), [A234]),
        ("strided_slice_shrink_newaxis",
         lambda x: sq(tf.strided_slice(x, [1, 0, 0], [2, 0, 0], [1, 1, 1], ellipsis_mask=4,
                                       new_axis_mask=2, shrink_axis_mask=1)), [A234]),
        ("getitem_int", lambda x: sq(x[1]), [A234]),
        ("getitem_negative_steps", lambda x: sq(x[:, ::-1, 1::-2]), [A234]),
        ("getitem_ellipsis_newaxis", lambda x: sq(x[..., None, -1]), [A234]),
        ("getitem_mixed", lambda x: sq(x[1:, None, ::-2, 0]), [A234]),
        ("getitem_tensor_index", lambda x: sq(x[dyn(1), :, dyn(-2)]), [A234]),
        ("getitem_tensor_bounds", lambda x: sq(tf.reshape(x[dyn(1):, :dyn(2)], [1, 2, 4])), [A234]),
        ("gather", lambda x: sq(tf.gather(x, [0, 2, 0])), [M34]),
        ("gather_2d_indices", lambda x: sq(tf.gather(x, [[0, 2], [1, 1]])), [M34]),
        ("gather_axis1", lambda x: sq(tf.gather(x, [2, 0, 2], axis=1)), [A234]),
        ("gather_axis_last", lambda x: sq(tf.gather(x, [[3], [0]], axis=-1)), [A234]),
        ("embedding_lookup", lambda x: sq(embedding_lookup([x], [[1, 0], [1, 2]])), [M32]),
        ("unsorted_segment_sum", lambda x: sq(tf.unsorted_segment_sum(x, [0, 2, 0, -1], 3)),
         [U(4, 3)]),
        ("unsorted_segment_sum_2d_ids",
         lambda x: sq(tf.unsorted_segment_sum(x, [[1, 0, 1], [1, 1, 0]], 2)), [A234]),
        ("unsorted_segment_sum_fed_ids",
         lambda x: sq(tf.unsorted_segment_sum(x, dyn([2, -1, 0, 2]), 3)), [U(4, 3)]),
        ("tile", lambda x: sq(tf.tile(x, [2, 1, 3])), [U(2, 3, 2)]),
        ("tile_dynamic", lambda x: sq(tf.reshape(tf.tile(x, dyn([2, 1])), [6, 4])), [M34]),
        ("pad", lambda x: sq(tf.pad(x, [[1, 0], [2, 1]]) + 1.0), [M34]),
        ("pad_constant_values", lambda x: sq(tf.pad(x, [[1, 1], [0, 2]], constant_values=2.0)),
         [M34]),
        ("pad_reflect", lambda x: sq(tf.pad(x, [[1, 2], [3, 1]], "REFLECT")), [U(4, 4)]),
        ("pad_symmetric", lambda x: sq(tf.pad(x, [[2, 1], [0, 3]], "symmetric")), [M34]),
        ("pad_reflect_dynamic",
         lambda x: sq(tf.reshape(tf.pad(x, dyn([[1, 2], [3, 1]]), "REFLECT"), [7, 8])), [U(4, 4)]),
        ("pad_dynamic", lambda x: sq(tf.reshape(tf.pad(x, dyn([[1, 0], [0, 2]])), [4, 6]) + 1.0),
         [M34]),
        ("reverse", lambda x: sq(tf.reverse(x, [0, -1])), [A234]),
        ("reverse_dynamic", lambda x: sq(tf.reshape(tf.reverse(x, dyn([1])), [2, 3, 4])), [A234]),
        ("boolean_mask",
         lambda x: sq(tf.reshape(tf.boolean_mask(x, np.array([True, False, True])), [2, 4])),
         [M34]),
        ("getitem_bool_mask",
         lambda x: sq(tf.reshape(x[np.array([[True, False, True], [False, True, False]])], [3, 4])),
         [A234]),
        ("identity_n", lambda x, y: [sq(t) for t in tf.identity_n([x, y])], [M34, V5]),
    ]

    # Third order, through exp (whose derivatives never vanish).
    THIRD_ORDER = [
        ("transpose", lambda x: tf.exp(tf.transpose(x, [2, 0, 1])), [A234]),
        ("concat", lambda x, y: tf.exp(tf.concat([x, y], 0)), [M34, M24]),
        ("getitem", lambda x: tf.exp(x[::-1, 1:, None, 2]), [A234]),
        ("gather", lambda x: tf.exp(tf.gather(x, [1, 1, 0])), [M34]),
        ("unsorted_segment_sum", lambda x: tf.exp(tf.unsorted_segment_sum(x, [1, -1, 1], 2)),
         [M34]),
        ("tile", lambda x: tf.exp(tf.tile(x, [2, 2])), [M32]),
        ("pad_reflect", lambda x: tf.exp(tf.pad(x, [[1, 1], [2, 0]], "REFLECT")), [M34]),
        ("split", lambda x: [tf.exp(p) for p in tf.split(x, [3, 1], 1)], [M34]),
    ]

    return _table("array", CASES) + _table("array", THIRD_ORDER, suffix="_order3", graph=3, eager=3)


def _nn() -> list:
    """The nn cases (once tests/test_nn_ops.py's table)."""
    tf = tf1

    R = np.random.RandomState(7)


    def _away_from_zero(shape, lo=0.2, hi=2.0):
        return R.choice([-1.0, 1.0], size=shape) * R.uniform(lo, hi, size=shape)


    X23 = _away_from_zero((2, 3))
    X234 = _away_from_zero((2, 3, 4))
    X_R6 = np.array([[-1.5, 0.5, 3.0], [5.5, 7.0, -0.3]])       # around both kinks of relu6
    LOGITS = R.normal(size=(3, 4))
    LOGITS3 = R.normal(size=(2, 3, 4))
    PROBS = R.dirichlet(np.ones(4), size=3)                      # rows sum to 1
    PROBS3 = R.dirichlet(np.ones(4), size=(2, 3))
    PROBS_COLS = R.dirichlet(np.ones(3), size=4).T.copy()        # columns sum to 1 (axis 0)
    SPARSE = np.array([0, 3, 1])
    SPARSE3 = np.array([[2, 0, 3], [1, 1, 0]])
    BINARY = R.uniform(0.0, 1.0, size=(2, 3))
    BIAS3 = R.uniform(-1.0, 1.0, size=(3,))
    X2345 = R.uniform(-1.0, 1.0, size=(2, 3, 4, 5))
    BIAS5 = R.uniform(-1.0, 1.0, size=(5,))
    VARIANCE3 = R.uniform(0.5, 2.0, size=(3,))

    nn = tf.nn

    # (name, fn, inputs): derivatives of orders 1 and 2 are checked for every case.
    GRAD_CASES = [
        ("relu", nn.relu, [X23]),
        ("relu_times_x", lambda x: nn.relu(x) * x, [X23]),
        ("relu6", nn.relu6, [X_R6]),
        ("relu6_times_x", lambda x: nn.relu6(x) * x, [X_R6]),
        ("leaky_relu", lambda x: nn.leaky_relu(x, alpha=0.3) * x, [X23]),
        ("elu", nn.elu, [X234]),
        ("selu", nn.selu, [X23]),
        ("softplus", nn.softplus, [X234]),
        ("softsign", nn.softsign, [X23]),
        ("sigmoid", nn.sigmoid, [X23]),
        ("tanh", nn.tanh, [X23]),
        ("silu", lambda x: nn.silu(x, beta=1.5), [X23]),
        ("softmax", nn.softmax, [LOGITS]),
        ("softmax_axis0", lambda x: nn.softmax(x, axis=0), [LOGITS]),
        ("softmax_3d_dim1", lambda x: nn.softmax(x, dim=1), [LOGITS3]),
        ("log_softmax", nn.log_softmax, [LOGITS]),
        ("log_softmax_3d_axis0", lambda x: nn.log_softmax(x, axis=0), [LOGITS3]),
        ("softmax_xent_v2", lambda z, x: nn.softmax_cross_entropy_with_logits_v2(
            labels=z, logits=x), [PROBS, LOGITS]),
        ("softmax_xent_v2_3d", lambda z, x: nn.softmax_cross_entropy_with_logits_v2(
            labels=z, logits=x), [PROBS3, LOGITS3]),
        ("softmax_xent_v2_axis0", lambda z, x: nn.softmax_cross_entropy_with_logits_v2(
            labels=z, logits=x, axis=0), [PROBS_COLS, LOGITS]),
        ("softmax_xent_v2_1d", lambda z, x: nn.softmax_cross_entropy_with_logits_v2(
            labels=z, logits=x), [PROBS[0], LOGITS[0]]),
        ("softmax_xent_loss_of_softmax", lambda x: nn.softmax_cross_entropy_with_logits_v2(
            labels=nn.softmax(x * 0.5), logits=x), [LOGITS]),
        ("sparse_xent", lambda x: nn.sparse_softmax_cross_entropy_with_logits(
            labels=SPARSE, logits=x), [LOGITS]),
        ("sparse_xent_3d", lambda x: nn.sparse_softmax_cross_entropy_with_logits(
            labels=SPARSE3, logits=x), [LOGITS3]),
        ("sigmoid_xent", lambda z, x: nn.sigmoid_cross_entropy_with_logits(
            labels=z, logits=x), [BINARY, X23]),
        ("weighted_xent", lambda z, x: nn.weighted_cross_entropy_with_logits(
            labels=z, logits=x, pos_weight=2.5), [BINARY, X23]),
        ("l2_loss", nn.l2_loss, [X234]),
        ("bias_add", lambda x, b: tf.square(nn.bias_add(x, b)), [X23, BIAS3]),
        ("bias_add_nhwc", lambda x, b: tf.square(nn.bias_add(x, b)), [X2345, BIAS5]),
        ("bias_add_nchw", lambda x, b: tf.square(nn.bias_add(x, b, data_format="NCHW")),
         [X234, BIAS3]),
        ("moments", lambda x: nn.moments(x, axes=[0]), [X234]),
        ("moments_keep_dims", lambda x: nn.moments(x, axes=[0, 2], keep_dims=True), [X234]),
        ("l2_normalize", lambda x: nn.l2_normalize(x, axis=1), [X23]),
        ("lrn", lambda x: nn.lrn(tf.reshape(x, [1, 1, 2, 3]), depth_radius=1, alpha=0.5,
                                 beta=0.75), [X23]),
        ("fused_batch_norm", lambda x, s, o: tf.nn.fused_batch_norm(
            tf.reshape(x, [1, 2, 1, 3]), s, o)[0], [X23, VARIANCE3, BIAS3]),
        ("fused_batch_norm_nchw", lambda x, s, o: tf.nn.fused_batch_norm(
            tf.reshape(x, [1, 3, 2, 1]), s, o, data_format="NCHW")[0], [X23, VARIANCE3, BIAS3]),
        ("weighted_moments", lambda x, w: nn.weighted_moments(x, [1], w), [X23, VARIANCE3]),
        ("lrn_defaults", lambda x: nn.local_response_normalization(tf.reshape(x, [1, 2, 1, 3])),
         [X23]),
        ("batch_normalization", lambda x, m, v, o, s: nn.batch_normalization(
            x, m, v, o, s, variance_epsilon=1e-3), [X23, BIAS3, VARIANCE3, BIAS3, VARIANCE3]),
    ]

    THIRD_ORDER = ["elu", "selu", "softplus", "softsign", "softmax", "softmax_3d_dim1",
                   "log_softmax", "softmax_xent_v2", "sparse_xent", "sigmoid_xent"]

    return (_table("nn", GRAD_CASES)
            + _table("nn", [c for c in GRAD_CASES if c[0] in THIRD_ORDER], suffix="_order3",
                     graph=3, eager=0, rtol=1e-4, atol=1e-5, why=_THIRD))


def _conv() -> list:
    """The conv cases (once tests/test_conv_ops.py's table)."""
    tf = tf1

    R = np.random.RandomState(11)


    def _same_pads(size, k, s, d):
        out = -(-size // s)
        total = max((out - 1) * s + (k - 1) * d + 1 - size, 0)
        return total // 2, total - total // 2


    def _pads(x_hw, k_hw, strides, dilations, padding):
        """((top, bottom), (left, right)) as written in TensorFlow's documentation."""
        if padding == "VALID":
            return (0, 0), (0, 0)
        if padding == "SAME":
            return tuple(_same_pads(n, k, s, d)
                         for n, k, s, d in zip(x_hw, k_hw, strides, dilations))
        return tuple(tuple(p) for p in padding[1:3])


    def naive_conv2d(x, w, strides=(1, 1), padding="VALID", dilations=(1, 1), depthwise=False):
        """NHWC cross-correlation by explicit loops over every output and filter element."""
        n, h, wd, c = x.shape
        kh, kw, _, o = w.shape
        (pt, pb), (pl, pr) = _pads((h, wd), (kh, kw), strides, dilations, padding)
        xp = np.zeros((n, h + pt + pb, wd + pl + pr, c))
        xp[:, pt:pt + h, pl:pl + wd] = x
        oh = (h + pt + pb - (kh - 1) * dilations[0] - 1) // strides[0] + 1
        ow = (wd + pl + pr - (kw - 1) * dilations[1] - 1) // strides[1] + 1
        out = np.zeros((n, oh, ow, c * o if depthwise else o))
        for b in range(n):
            for i in range(oh):
                for j in range(ow):
                    for p in range(kh):
                        for q in range(kw):
                            v = xp[b, i * strides[0] + p * dilations[0],
                                   j * strides[1] + q * dilations[1]]
                            if depthwise:
                                out[b, i, j] += (v[:, None] * w[p, q]).reshape(-1)
                            else:
                                out[b, i, j] += v @ w[p, q]
        return out



    def nchw(x):
        return np.ascontiguousarray(np.transpose(x, (0, 3, 1, 2)))


    X = R.normal(size=(2, 5, 4, 2))
    W = R.normal(size=(3, 2, 2, 3))
    XS = R.normal(size=(1, 5, 5, 2))
    WS = R.normal(size=(2, 3, 2, 2))
    X1 = R.normal(size=(2, 7, 2))
    W1 = R.normal(size=(3, 2, 2))
    WD = R.normal(size=(2, 2, 2, 2))
    nn = tf.nn


    def _dy(xs, ws, strides, padding, dilations=(1, 1)):
        return R.normal(size=naive_conv2d(np.zeros(xs), np.zeros(ws), strides, padding,
                                          dilations).shape)


    DY_SAME = _dy(X.shape, W.shape, (2, 1), "SAME")
    X3 = R.normal(size=(1, 3, 2, 4, 2))
    W3 = R.normal(size=(2, 2, 2, 2, 3))
    DY_VALID = _dy(XS.shape, WS.shape, (2, 2), "VALID")

    GRAD_CASES = [
        ("conv2d_same", lambda x, w: tf.square(nn.conv2d(x, w, [1, 1, 1, 1], "SAME")), [X, W]),
        ("conv2d_valid_stride2", lambda x, w: tf.square(nn.conv2d(x, w, 2, "VALID")), [XS, WS]),
        ("conv2d_same_strides21", lambda x, w: tf.square(nn.conv2d(x, w, [2, 1], "SAME")), [X, W]),
        ("conv2d_nchw", lambda x, w: tf.square(nn.conv2d(x, w, [1, 1, 2, 1], "SAME",
                                                         data_format="NCHW")),
         [nchw(X), W]),
        ("conv2d_bias_add_nchw", lambda x, w, b: tf.square(nn.bias_add(nn.conv2d(
            x, w, 1, "VALID", data_format="NCHW"), b, data_format="NCHW")),
         [nchw(XS), WS, R.normal(size=(2,))]),
        ("conv2d_dilated", lambda x, w: tf.square(nn.conv2d(x, w, 1, "SAME", dilations=2)),
         [XS, WS]),
        ("conv2d_explicit", lambda x, w: tf.square(nn.conv2d(
            x, w, [1, 2, 1, 1], [[0, 0], [1, 0], [2, 1], [0, 0]])), [X, W]),
        ("conv2d_backprop_input", lambda w, dy: tf.square(nn.conv2d_backprop_input(
            X.shape, w, dy, [1, 2, 1, 1], "SAME")), [W, DY_SAME]),
        ("conv2d_backprop_filter", lambda x, dy: tf.square(nn.conv2d_backprop_filter(
            x, WS.shape, dy, [1, 2, 2, 1], "VALID")), [XS, DY_VALID]),
        ("conv2d_transpose", lambda dy, w: tf.square(nn.conv2d_transpose(
            dy, w, X.shape, [1, 2, 1, 1], "SAME")), [DY_SAME, W]),
        ("conv1d", lambda x, w: tf.square(nn.conv1d(x, w, 2, "SAME")), [X1, W1]),
        ("conv2d_wide_per_tap", lambda x, w: tf.square(nn.conv2d(x, w, [1, 1, 2, 1], "SAME")),
         [R.normal(size=(1, 3, 3, 16)), R.normal(size=(2, 2, 16, 2))]),
        ("depthwise_same", lambda x, w: tf.square(nn.depthwise_conv2d(x, w, [1, 1, 1, 1], "SAME")),
         [XS, WD]),
        ("depthwise_valid_stride2_nchw", lambda x, w: tf.square(nn.depthwise_conv2d(
            x, w, [1, 1, 2, 2], "VALID", data_format="NCHW")), [nchw(XS), WD]),
        # feature groups: input depth 4 = 2 groups of the filter's 2, output 4 = 2 x 2
        ("conv2d_grouped", lambda x, w: tf.square(nn.conv2d(x, w, [1, 2, 1, 1], "SAME")),
         [R.normal(size=(1, 4, 3, 4)), R.normal(size=(2, 2, 2, 4))]),
        ("conv2d_grouped_nchw_dilated", lambda x, w: tf.square(nn.conv2d(
            x, w, 1, "VALID", data_format="NCHW", dilations=[1, 1, 2, 1])),
         [R.normal(size=(1, 6, 4, 3)), R.normal(size=(2, 2, 2, 3))]),
        ("conv3d_same", lambda x, w: tf.square(nn.conv3d(x, w, [1] * 5, "SAME")), [X3, W3]),
        ("conv3d_valid_strides", lambda x, w: tf.square(nn.conv3d(x, w, [1, 2, 1, 2, 1],
                                                                 "VALID")), [X3, W3]),
        ("conv3d_dilated_ncdhw", lambda x, w: tf.square(nn.conv3d(
            x, w, [1] * 5, "SAME", data_format="NCDHW", dilations=[1, 1, 1, 2, 1])),
         [np.ascontiguousarray(np.moveaxis(X3, 4, 1)), W3]),
        ("conv3d_grouped", lambda x, w: tf.square(nn.conv3d(x, w, [1] * 5, "VALID")),
         [R.normal(size=(1, 3, 2, 3, 2)), R.normal(size=(2, 1, 2, 1, 2))]),
        ("conv3d_transpose", lambda dy, w: tf.square(nn.conv3d_transpose(
            dy, w, X3.shape, [1, 2, 1, 2, 1], "SAME")),
         [R.normal(size=(1, 2, 2, 2, 3)), W3]),
    ]

    return _table("conv", GRAD_CASES, no_eager={
        "conv2d_wide_per_tap": "eager mode runs the same per-tap GEMM kernels the graph check "
                               "covers (16 channels: many numerical points)"})


def _control_flow() -> list:
    """The control_flow cases (once tests/test_control_flow.py's table)."""
    tf = tf1

    R = np.random.RandomState(3)
    X3 = R.uniform(0.2, 1.0, size=(3,))
    W22 = R.uniform(-0.8, 0.8, size=(2, 2))
    V2 = R.uniform(-1.0, 1.0, size=(2,))


    def _cond_several_ops(x, y):
        return tf.cond(tf.reduce_sum(x) > 0.0,
                       lambda: tf.sin(x) * y + tf.square(y),
                       lambda: tf.exp(x) * tf.reduce_sum(y))


    def _cond_negated(x, y):
        return _cond_several_ops(-x, y)


    def _cond_uses_some_inputs(x, y, z):
        # each branch reads a different subset of the captured tensors
        return tf.cond(tf.reduce_mean(x) < 0.5, lambda: x * tf.tanh(y), lambda: z * z * x)


    def _cond_tuple_outputs(x, y):
        a, b = tf.cond(tf.reduce_sum(y) > 0.0, lambda: (x * y, tf.sin(x)), lambda: (x + y, x * x))
        return a * b


    def _while_rnn_like(w, x0, b):
        def body(i, h):
            return i + 1, tf.tanh(tf.reshape(tf.matmul(w, tf.reshape(h, [2, 1])), [2]) + b)
        _, h = tf.while_loop(lambda i, h: i < 4, body, [tf.constant(0), x0])
        return h


    def _while_rnn_rows(w, x0, b):
        # h @ w + b: the gradients of w and b are accumulated over the iterations
        def body(i, h):
            return i + 1, tf.tanh(tf.nn.bias_add(tf.matmul(h, w), b))
        _, h = tf.while_loop(lambda i, h: i < 3, body, [tf.constant(0), x0])
        return h


    def _while_data_dependent(x):
        # iterate x <- x * 1.3 + sin(x) until the sum exceeds 10 (at most 20 times)
        _, y = tf.while_loop(lambda i, y: tf.reduce_sum(y) < 10.0,
                             lambda i, y: (i + 1, y * 1.3 + tf.sin(y)), [0, x],
                             maximum_iterations=20)
        return y


    def _while_max_iterations(x):
        return tf.while_loop(lambda y: tf.constant(True), lambda y: y * tf.cos(y) + 1.0, [x],
                             maximum_iterations=3)


    def _while_nested(x, y):
        def outer_body(i, a):
            _, b = tf.while_loop(lambda j, b: j < 2, lambda j, b: (j + 1, b * y + tf.sin(b)),
                                 [0, a])
            return i + 1, b
        return tf.while_loop(lambda i, a: i < 2, outer_body, [0, x])[1]


    def _while_with_cond(x, y):
        def body(i, a):
            a2 = tf.cond(tf.equal(i % 2, 0), lambda: a * y, lambda: tf.sin(a) + y)
            return i + 1, a2
        return tf.while_loop(lambda i, a: i < 3, body, [0, x])[1]


    def _while_structure(x, y):
        Pair = collections.namedtuple("Pair", "a b")

        def body(i, p):
            return i + 1, Pair(p.a * p.b, p.b + tf.sin(p.a))
        _, p = tf.while_loop(lambda i, p: i < 3, body, (0, Pair(x, y)))
        return p.a + p.b


    X42 = R.uniform(0.1, 0.9, size=(4, 2))


    def _map_fn_structure(x, w):
        out = tf.map_fn(lambda r: (tf.sin(r[0]) * w, r[1] * r[0]), (x, x * 2.0),
                        fn_output_signature=(tf.float64, tf.float64))
        return out[0] + tf.square(out[1])


    def _scan_tanh(x, w):
        return tf.scan(lambda a, r: tf.tanh(a * r + w), x)


    def _scan_reverse_init(x, w):
        return tf.scan(lambda a, r: a * r + tf.sin(w), x, initializer=w * 0.5, reverse=True)


    def _folds(x, w):
        return tf.foldl(lambda a, r: a * r + w, x) * tf.foldr(lambda a, r: tf.sin(a) + r * w, x,
                                                               initializer=w)


    def _while_gather(params, x):
        # the body reads row i of a captured tensor: its gradient is IndexedSlices per iteration
        def body(i, h):
            return i + 1, tf.tanh(h * tf.gather(params, i) + h)
        return tf.while_loop(lambda i, h: i < 3, body, [tf.constant(0), x])[1]


    def _switch_case_grad(x, y):
        return tf.switch_case(tf.cast(tf.reduce_sum(x) > 1.0, tf.int32) + 1,
                              [lambda: x, lambda: x * y, lambda: tf.sin(x) * tf.exp(y)])


    def _while_tensor_array(w, h0):
        def body(i, ta, h):
            h = tf.tanh(h * w)
            return i + 1, ta.write(i, h), h
        _, ta, _ = tf.while_loop(lambda i, *_: i < 4, body,
                                 [0, tf.TensorArray(tf.float64, size=4), h0])
        return tf.reshape(ta.stack(), [4, 3])


    def _while_growing(x, w):
        # the loop variable's shape changes every iteration (allowed by shape_invariants)
        _, y = tf.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, tf.concat([y, tf.sin(y) * w],
                                                                                  0)),
                             [0, x], shape_invariants=[tf.TensorShape([]), tf.TensorShape([None])])
        return tf.reduce_sum(y * y)


    # (name, fn, inputs): orders 1 and 2, graph and eager
    CASES = [
        ("cond_true_branch", _cond_several_ops, [X3, X3[::-1].copy()]),
        ("cond_false_branch", _cond_negated, [X3, X3[::-1].copy()]),
        ("cond_subsets_true", _cond_uses_some_inputs, [X3 * 0.5, X3, X3 + 1.0]),
        ("cond_subsets_false", _cond_uses_some_inputs, [X3 + 0.5, X3, X3 + 1.0]),
        ("cond_tuple", _cond_tuple_outputs, [X3, X3 - 0.5]),
        ("while_rnn_like", _while_rnn_like, [W22, V2, V2[::-1].copy()]),
        ("while_rnn_rows", _while_rnn_rows, [W22, W22[::-1].copy(), V2]),
        ("while_data_dependent", _while_data_dependent, [X3]),
        ("while_max_iterations", _while_max_iterations, [X3]),
        ("while_nested", _while_nested, [X3, X3 * 0.5]),
        ("while_with_cond", _while_with_cond, [X3, X3 * 0.5]),
        ("while_namedtuple", _while_structure, [X3, X3 * 0.5]),
        ("map_fn_structure", _map_fn_structure, [X42, V2]),
        ("scan", _scan_tanh, [X42, V2]),
        ("scan_reverse_initializer", _scan_reverse_init, [X42, V2]),
        ("foldl_foldr", _folds, [X42, V2]),
        ("while_gather", _while_gather, [X42, V2]),
        ("switch_case", _switch_case_grad, [X3, X3 * 0.5]),
        ("while_tensor_array", _while_tensor_array, [X3, X3 * 0.5]),
        ("while_growing_shape", _while_growing, [X3, 0.7]),
    ]

    return _table("control_flow", CASES)


def _distributions() -> list:
    """The distributions cases (once tests/test_distributions.py's table)."""
    tf = tf1

    ds = tf.distributions
    RNG = np.random.RandomState(11)
    LOC = np.array([0.3, -1.2, 2.0])
    SCALE = np.array([0.5, 1.5, 2.5])
    X = np.array([0.1, -0.4, 3.3])
    LOGITS = RNG.randn(2, 4)


    def _np_log_softmax(z):
        s = z - z.max(-1, keepdims=True)
        return s - np.log(np.exp(s).sum(-1, keepdims=True))


    # Gradients to second order, graph and eager

    P3 = np.array([0.2, 0.5, 0.7])
    GRAD_CASES = [
        ("normal_log_prob", lambda m, s, x: ds.Normal(m, s).log_prob(x), [LOC, SCALE, X]),
        ("normal_entropy", lambda s: ds.Normal(0.0, s).entropy(), [SCALE]),
        ("normal_cdf", lambda m, s, x: ds.Normal(m, s).cdf(x), [LOC, SCALE, X]),
        ("normal_quantile", lambda m, s, p: ds.Normal(m, s).quantile(p),
         [LOC, SCALE, np.array([0.1, 0.5, 0.8])]),
        ("normal_kl", lambda m, s, m2, s2: ds.kl_divergence(ds.Normal(m, s), ds.Normal(m2, s2)),
         [LOC, SCALE, X, SCALE[::-1].copy()]),
        ("uniform_log_prob", lambda lo, hi: ds.Uniform(lo, hi).log_prob([0.5, 0.5]),
         [np.array([0.0, -1.0]), np.array([1.0, 2.0])]),
        ("uniform_entropy", lambda lo, hi: ds.Uniform(lo, hi).entropy(),
         [np.array([0.0, -1.0]), np.array([1.0, 2.0])]),
        ("uniform_cdf", lambda x: ds.Uniform(np.float64(-1.0), 2.0).cdf(x),
         [np.array([0.5, 1.5])]),
        ("bernoulli_log_prob_logits", lambda z: ds.Bernoulli(logits=z).log_prob([1, 0, 1]),
         [X]),
        ("bernoulli_log_prob_probs", lambda p: ds.Bernoulli(probs=p).log_prob([1, 0, 1]), [P3]),
        ("bernoulli_entropy", lambda z: ds.Bernoulli(logits=z).entropy(), [X]),
        ("bernoulli_kl", lambda z, w: ds.Bernoulli(logits=z).kl_divergence(
            ds.Bernoulli(logits=w)), [X, LOC]),
        ("categorical_log_prob", lambda z: ds.Categorical(logits=z).log_prob([3, 1]), [LOGITS]),
        ("categorical_log_prob_probs", lambda p: ds.Categorical(probs=p).log_prob([2, 0]),
         [np.exp(_np_log_softmax(LOGITS))]),
        ("categorical_entropy", lambda z: ds.Categorical(logits=z).entropy(), [LOGITS]),
        ("categorical_kl", lambda z, w: ds.Categorical(logits=z).kl_divergence(
            ds.Categorical(logits=w)), [LOGITS, LOGITS[::-1].copy()]),
    ]

    return _table("distributions", GRAD_CASES)


def _image_resize() -> list:
    """The image_resize cases (once tests/test_image_resize.py's table)."""
    tf = tf1

    X64 = np.random.RandomState(1).uniform(size=(1, 4, 5, 2))
    G64 = np.random.RandomState(2).uniform(size=(1, 3, 7, 2))


    def _op(op_type, **attrs):
        size = [3, 7]

        def fn(x):
            return tf.square(apply_op(op_type, (x, tf.constant(size)), attrs))
        return fn


    def _st(kernel, antialias):
        def fn(x):
            y = apply_op("ScaleAndTranslate", (x, tf.constant([3, 7]),
                                               tf.constant([0.75, 1.4]), tf.constant([0.2, -0.3])),
                         {"kernel_type": kernel, "antialias": antialias})
            return tf.square(y)
        return fn


    def _grad_op(op_type, **attrs):
        def fn(g):
            return tf.square(apply_op(op_type, (g, tf.constant(X64)), attrs))
        return fn


    def _nn_grad(g):
        return tf.square(apply_op("ResizeNearestNeighborGrad", (g, tf.constant([4, 5])),
                                  {"align_corners": False, "half_pixel_centers": True}))


    HP = {"align_corners": False, "half_pixel_centers": True}
    LEGACY = {"align_corners": True, "half_pixel_centers": False}
    GRAD_CASES = [
        ("bilinear_hp", _op("ResizeBilinear", **HP), [X64]),
        ("bilinear_ac", _op("ResizeBilinear", **LEGACY), [X64]),
        ("nearest_hp", _op("ResizeNearestNeighbor", **HP), [X64]),
        ("bicubic_hp", _op("ResizeBicubic", **HP), [X64]),
        ("bicubic_legacy", _op("ResizeBicubic", **LEGACY), [X64]),
        ("scale_translate_lanczos3_aa", _st("lanczos3", True), [X64]),
        ("scale_translate_keyscubic", _st("keyscubic", False), [X64]),
        ("bilinear_grad", _grad_op("ResizeBilinearGrad", **HP), [G64]),
        ("bicubic_grad", _grad_op("ResizeBicubicGrad", **LEGACY), [G64]),
        ("nearest_grad", _nn_grad, [G64]),
        ("scale_translate_grad", lambda g: tf.square(apply_op(
            "ScaleAndTranslateGrad", (g, tf.constant(X64), tf.constant([0.75, 1.4]),
                                      tf.constant([0.2, -0.3])),
            {"kernel_type": "mitchellcubic", "antialias": True})), [G64]),
    ]

    return _table("image_resize", GRAD_CASES)


def _image_transform() -> list:
    """ImageProjectiveTransformV2/V3 at integer translations, where TensorFlow's gradient
    (the inverse transform) is the exact adjoint; NEAREST keeps float64 values exact (the
    BILINEAR kernel computes in float32, as TensorFlow's)."""
    x = np.random.RandomState(4).uniform(size=(2, 4, 5, 2))
    shift = [[1.0, 0.0, 1.0, 0.0, 1.0, -2.0, 0.0, 0.0]]

    def v2(images):
        return flowgrad.square(flowgrad.raw_ops.ImageProjectiveTransformV2(
            images=images, transforms=shift, output_shape=[4, 5], interpolation="NEAREST",
            fill_mode="CONSTANT"))

    def v3(images):
        return flowgrad.square(flowgrad.raw_ops.ImageProjectiveTransformV3(
            images=images, transforms=shift, output_shape=[3, 6], fill_value=0.5,
            interpolation="NEAREST", fill_mode="CONSTANT"))
    return [OpInfo("image_transform.v2_translate", v2, [x], op="ImageProjectiveTransformV2",
                   jvp=True),
            OpInfo("image_transform.v3_translate", v3, [x], op="ImageProjectiveTransformV3",
                   jvp=True)]


def _sparse_fill() -> list:
    """SparseFillEmptyRows through its values and default value (TensorFlow's
    SparseFillEmptyRowsGrad)."""
    from flowgrad.ops.embedding_sparse_ops import fill_empty_rows

    def fill(values, default):
        sp = flowgrad.SparseTensor([[0, 1], [2, 0], [2, 2], [4, 1]], values, [6, 3])
        filled, _ = fill_empty_rows(sp, default)
        return flowgrad.square(filled.values) * np.arange(1.0, 8.0)
    return [OpInfo("sparse_fill.fill_empty_rows", fill,
                   [np.array([0.3, -1.2, 0.7, 2.0]), np.array(0.4)], op="SparseFillEmptyRows",
                   jvp=True)]


def _kerasops_array() -> list:
    """The kerasops_array cases (once tests/test_kerasops_array.py's table)."""
    tf = tf1

    R = np.random.RandomState(3)
    A = R.uniform(-1, 1, (3, 4))
    T = np.array([[1.0, 5.0], [3.0, -2.0], [0.0, 0.0]])


    GRAD_CASES = [
        ("roll", lambda x: tf.roll(x, [1, -1], [0, 1]) * x, [A]),
        ("reverse_sequence", lambda x: tf.reverse_sequence(x, [2, 0, 4], seq_axis=1) * x, [A]),
        ("repeat_counts", lambda x: tf.repeat(x, [2, 0, 1], axis=0), [A]),
        ("repeat_flat", lambda x: tf.repeat(x * x, 2), [A]),
        ("ensure_shape", lambda x: tf.ensure_shape(x, [None, 4]) * x, [A]),
        ("tensor_scatter_nd_max", lambda t, u: tf.tensor_scatter_nd_max(t, [[0], [2]], u) ** 2,
         [T, np.array([[4.0, 2.0], [-1.0, 1.0]])]),
        ("tensor_scatter_nd_min", lambda t, u: tf.tensor_scatter_nd_min(t, [[0], [2]], u) ** 2,
         [T, np.array([[4.0, 2.0], [-1.0, 1.0]])]),
    ]

    return _table("kerasops_array", GRAD_CASES)


def _kerasops_linalg() -> list:
    """The kerasops_linalg cases (once tests/test_kerasops_linalg.py's table)."""
    tf = tf1

    R = np.random.RandomState(2)

    GRAD_CASES = [
        ("cross", tf.linalg.cross, [R.randn(2, 3), R.randn(2, 3)]),
        ("pinv", tf.linalg.pinv, [R.randn(3, 2) + np.array([[2.0, 0.0], [0.0, 2.0], [0.0, 0.0]])]),
    ]

    return _table("kerasops_linalg", GRAD_CASES, rtol=1e-4)


def _kerasops_math() -> list:
    """The kerasops_math cases (once tests/test_kerasops_math.py's table)."""
    tf = tf1

    R = np.random.RandomState(7)
    UNIT = R.uniform(-0.8, 0.8, (2, 3))
    ANY = R.uniform(-2.0, 2.0, (2, 3))
    ABOVE_ONE = R.uniform(1.2, 3.0, (2, 3))
    AWAY = np.array([[-2.5, -0.7, 0.4], [1.1, 0.6, 3.0]])      # no zero: Bessel I1 slopes


    def _seg_prod(d):
        return tf.math.segment_prod(d, tf.constant([0, 0, 1, 1, 1]))


    def _unsorted_prod(d):
        return tf.math.unsorted_segment_prod(d, tf.constant([1, -1, 1, 0, 1]), 3)


    def _complex_mix(a, b):
        z = tf.complex(a, b)
        w = tf.math.conj(tf.complex(b * a, a))
        return tf.math.real(z) * tf.math.imag(w) + tf.math.angle(z) + tf.math.real(w)


    GRAD_CASES = [
        ("asin", tf.math.asin, [UNIT]),
        ("acos", tf.math.acos, [UNIT]),
        ("atan", tf.math.atan, [ANY]),
        ("atan2", tf.math.atan2, [ANY, ABOVE_ONE[0]]),
        ("atan2_broadcast_y", tf.math.atan2, [ANY[0], ANY]),
        ("sinh", tf.math.sinh, [ANY]),
        ("cosh", tf.math.cosh, [ANY]),
        ("asinh", tf.math.asinh, [ANY]),
        ("acosh", tf.math.acosh, [ABOVE_ONE]),
        ("atanh", tf.math.atanh, [UNIT]),
        ("bessel_i0", tf.math.bessel_i0, [ANY]),
        ("bessel_i0e", tf.math.bessel_i0e, [AWAY]),
        ("bessel_i1", tf.math.bessel_i1, [AWAY]),
        ("bessel_i1e", tf.math.bessel_i1e, [AWAY]),
        ("nextafter", lambda x, y: tf.math.nextafter(x, y) * x, [ANY, ANY[1]]),
        ("log_sigmoid", tf.math.log_sigmoid, [ANY * 3]),
        ("segment_prod", _seg_prod, [R.uniform(0.5, 1.5, (5, 2))]),
        ("unsorted_segment_prod", _unsorted_prod, [R.uniform(0.5, 1.5, (5,))]),
        ("complex_real_imag_conj_angle", _complex_mix, [ANY + 3.0, ANY]),
    ]

    return _table("kerasops_math", GRAD_CASES)


def _kerasops_nn() -> list:
    """The kerasops_nn cases (once tests/test_kerasops_nn_random.py's table)."""
    tf = tf1

    R = np.random.RandomState(11)
    V5 = R.uniform(-1, 1, (1, 3, 4, 4, 2))
    IMG = R.uniform(-1, 1, (1, 4, 4, 2))


    def _conv1d_t(x, f):
        return tf.nn.conv_transpose(x, f, [1, 6, 2], 2)


    def _conv2d_t(x, f):
        return tf.nn.conv_transpose(x, f, [1, 4, 4, 1], [2, 2], padding="VALID")


    GRAD_CASES = [
        ("gelu", flowgrad.nn.gelu, [R.uniform(-3, 3, (2, 3))]),
        ("gelu_approximate", lambda x: flowgrad.nn.gelu(x, approximate=True),
         [R.uniform(-3, 3, (2, 3))]),
        ("pool_3d_max", lambda x: tf.nn.pool(x, [2, 2, 2], "MAX", [1, 2, 2], "SAME"), [V5]),
        ("pool_3d_avg", lambda x: tf.nn.pool(x * x, [2, 3, 2], "AVG", [1, 1, 2], "SAME"), [V5]),
        ("pool_1d_avg", lambda x: tf.nn.pool(x * x, [2], "AVG", [1], "VALID"), [IMG[0]]),
        ("space_to_depth", lambda x: tf.nn.space_to_depth(x, 2) ** 2, [IMG]),
        ("depth_to_space", lambda x: tf.nn.depth_to_space(tf.tile(x, [1, 1, 1, 2]), 2) ** 2,
         [IMG]),
        ("conv1d_transpose", _conv1d_t, [R.uniform(-1, 1, (1, 3, 3)), R.uniform(-1, 1, (2, 2, 3))]),
        ("conv2d_transpose", _conv2d_t, [R.uniform(-1, 1, (1, 2, 2, 3)),
                                         R.uniform(-1, 1, (2, 2, 1, 3))]),
        ("stateless_dropout", lambda x: tf.nn.experimental.stateless_dropout(x * x, 0.4, [3, 4]),
         [R.uniform(-1, 1, (3, 4))]),
    ]

    return _table("kerasops_nn", GRAD_CASES)


def _signal() -> list:
    """The signal cases (once tests/test_kerasops_signal.py's table)."""
    tf = tf1

    R = np.random.RandomState(5)
    S = tf.signal


    def _parts(z):
        return tf.math.real(z) * 1.3 + tf.math.imag(z) ** 2


    def _cx(a, b):
        return tf.complex(a, b)


    GRAD_CASES = [
        ("fft", lambda a, b: _parts(S.fft(_cx(a, b))), [R.randn(2, 5), R.randn(2, 5)]),
        ("ifft", lambda a, b: _parts(S.ifft(_cx(a, b))), [R.randn(2, 4), R.randn(2, 4)]),
        ("fft2d", lambda a, b: _parts(S.fft2d(_cx(a, b))), [R.randn(3, 4), R.randn(3, 4)]),
        ("ifft2d", lambda a, b: _parts(S.ifft2d(_cx(a, b))), [R.randn(2, 3), R.randn(2, 3)]),
        ("rfft", lambda x: _parts(S.rfft(x)), [R.randn(2, 6)]),
        ("rfft_odd_padded", lambda x: _parts(S.rfft(x, [8])), [R.randn(5)]),
        ("rfft_cropped", lambda x: _parts(S.rfft(x, [4])), [R.randn(7)]),
        ("irfft", lambda a, b: S.irfft(_cx(a, b)) ** 2, [R.randn(2, 4), R.randn(2, 4)]),
        ("irfft_odd", lambda a, b: S.irfft(_cx(a, b), [5]) ** 2, [R.randn(3), R.randn(3)]),
        ("stft", lambda x: _parts(S.stft(x, 8, 4)), [R.randn(24)]),
        ("inverse_stft", lambda a, b: S.inverse_stft(_cx(a, b), 8, 4) ** 2,
         [R.randn(3, 5), R.randn(3, 5)]),
    ]

    return _table("signal", GRAD_CASES)


def _linalg() -> list:
    """The linalg cases (once tests/test_linalg_ops.py's table)."""
    tf = tf1

    la = tf.linalg
    RNG = np.random.RandomState(5)
    P = RNG.randn(3, 4)
    P3 = RNG.randn(3, 4, 2)
    IDX = np.array([[0, 1], [2, 3], [0, 1]])       # a duplicate row: its gradients add up
    IDX1 = np.array([[2], [0]])
    A = RNG.randn(3, 3) + 3 * np.eye(3)
    B = RNG.randn(2, 3, 3) + 3 * np.eye(3)
    R = RNG.randn(3, 2)
    RB = RNG.randn(2, 3, 2)

    GRAD_CASES = [
        ("gather_nd", lambda p: tf.gather_nd(p, IDX), [P3]),
        ("gather_nd_slices", lambda p: tf.gather_nd(p, IDX1) ** 2, [P3]),
        ("scatter_nd", lambda u: tf.scatter_nd(IDX, u, [3, 4]) ** 2, [np.array([1.0, -2.0, 0.5])]),
        ("tensor_scatter_update", lambda t, u: tf.tensor_scatter_nd_update(t, IDX1, u) ** 2,
         [P, RNG.randn(2, 4)]),
        ("tensor_scatter_add", lambda t, u: tf.tensor_scatter_nd_add(t, IDX, u) ** 2,
         [P, np.array([1.0, -2.0, 0.5])]),
        ("tensor_scatter_sub", lambda t, u: tf.tensor_scatter_nd_sub(t, IDX, u) ** 2,
         [P, np.array([1.0, -2.0, 0.5])]),
        ("einsum_matmul", lambda a, b: tf.einsum("ij,jk->ik", a, b) ** 2,
         [P, P3[:, :, 0].T.copy()]),
        ("einsum_batch_ellipsis", lambda a, b: tf.einsum("...ij,...jk->...ik", a, b) ** 2,
         [RNG.randn(2, 1, 2, 3), RNG.randn(4, 3, 2)]),
        ("einsum_ellipsis_with_plain_operand", lambda a, b: tf.einsum("...ij,jk->...ik", a, b) ** 2,
         [B, R]),
        ("einsum_sum_only_in_one", lambda a, b: tf.einsum("ij,k->ik", a, b) ** 2,
         [P, RNG.randn(2)]),
        ("einsum_three", lambda a, b, c: tf.einsum("ab,bc,cd->ad", a, b, c) ** 2,
         [RNG.randn(2, 3), RNG.randn(3, 2), RNG.randn(2, 2)]),
        ("einsum_implicit_trace_other", lambda a: tf.einsum("ij,ij", a, a), [P]),
        ("einsum_diagonal", lambda a: tf.einsum("ii->i", a) ** 2, [A]),
        ("einsum_trace", lambda a: tf.einsum("ii", a) ** 2, [A]),
        ("einsum_batch_diagonal_ellipsis", lambda a: tf.einsum("...ii->...i", a) ** 2, [B]),
        ("einsum_repeated_with_other", lambda a, b: tf.einsum("ii,ij->j", a, b) ** 2, [A, R]),
        ("inv", lambda a: la.inv(a), [A]),
        ("inv_adjoint_batch", lambda a: la.inv(a, adjoint=True), [B]),
        ("det", lambda a: la.det(a), [B]),
        ("slogdet", lambda a: la.slogdet(a)[1], [B]),
        ("logdet", lambda a: la.logdet(tf.matmul(a, a, transpose_b=True)), [A]),
        ("cholesky", lambda a: la.cholesky(tf.matmul(a, a, transpose_b=True)), [A]),
        ("solve", lambda a, b: la.solve(a, b), [A, R]),
        ("solve_adjoint_batch", lambda a, b: la.solve(a, b, adjoint=True), [B, RB]),
        ("triangular_solve", lambda a, b: la.triangular_solve(a, b), [A, R]),
        ("triangular_solve_upper_adjoint", lambda a, b: la.triangular_solve(
            a, b, lower=False, adjoint=True), [B, RB]),
        ("trace", lambda a: la.trace(a) ** 2, [B]),
        ("diag", lambda d: la.diag(d) ** 2, [P]),
        ("diag_part", lambda a: la.diag_part(a) ** 2, [P3.transpose(2, 0, 1).copy()]),
        ("set_diag", lambda a, d: la.set_diag(a, d) ** 2, [P, RNG.randn(3)]),
        ("band_part", lambda a: la.band_part(a, 1, 0) ** 2, [B]),
        ("matrix_transpose", lambda a: la.matrix_transpose(a) ** 2, [P3]),
    ]

    # --------------------------------------------------------------------------------------
    # tensordot, matvec, cholesky_solve, lstsq, eigh

    SYM = RNG.randn(4, 4)
    RNG.randn(2, 4)     # (test_linalg_ops's WIDE: the draws stay in order)


    def _sym(a):
        return a + tf.transpose(a)


    MORE_GRAD_CASES = [
        ("tensordot", lambda a, b: tf.tensordot(a, b, axes=[[0], [1]]) ** 2, [P, RNG.randn(2, 3)]),
        ("matvec", lambda a, b: la.matvec(a, b) ** 2, [A, R[:, 0].copy()]),
        ("cholesky_solve", lambda a, b: la.cholesky_solve(
            la.cholesky(tf.matmul(a, a, transpose_b=True)), b), [A, R]),
        ("lstsq", lambda a, b: la.lstsq(a, b, l2_regularizer=0.5), [P.T.copy(), RNG.randn(4, 2)]),
        ("eigh", lambda a: [t if i == 0 else t * t for i, t in enumerate(la.eigh(_sym(a)))], [SYM]),
        ("eigvalsh_batch", lambda a: la.eigvalsh(a + tf.transpose(a, [0, 2, 1])), [B]),
    ]

    # --------------------------------------------------------------------------------------
    # qr, svd

    TALL = RNG.randn(4, 3)




    def _svd_invariants(a):
        s, u, v = la.svd(a)
        return [s, tf.matmul(u, v, transpose_b=True), u * u, v * v]


    QR_SVD_GRAD_CASES = [
        ("qr_tall", lambda a: list(la.qr(a)), [TALL]),
        ("qr_square_batch", lambda a: list(la.qr(a)), [B]),
        ("qr_r_only", lambda a: la.qr(a)[1], [A]),
        ("qr_wide", lambda a: list(la.qr(a)), [TALL.T.copy()]),
        ("qr_wide_batch_complete", lambda a: list(la.qr(a, full_matrices=True)),
         [RNG.randn(2, 2, 3)]),
        ("svd_values", lambda a: la.svd(a, compute_uv=False), [TALL]),
        ("svd_tall", _svd_invariants, [TALL]),
        ("svd_wide", _svd_invariants, [TALL.T.copy()]),
        ("svd_square_batch", _svd_invariants, [B]),
    ]

    # --------------------------------------------------------------------------------------
    # gather(batch_dims=...), meshgrid

    BP = RNG.randn(2, 3, 4)
    BI = np.array([[0, 2, 2], [1, 0, 3]])

    BATCH_GRAD_CASES = [
        ("gather_batch_dims_axis1", lambda p: tf.gather(p, np.minimum(BI, 2), axis=1,
                                                        batch_dims=1) ** 2, [BP]),
        ("gather_batch_dims_axis2", lambda p: tf.gather(p, BI, axis=2, batch_dims=1) ** 2, [BP]),
        ("meshgrid", lambda a, b: [g ** 2 for g in tf.meshgrid(a, b)], [R[:, 0].copy(), P[0]]),
    ]

    EXPM_GRAD_CASES = [
        ("expm", lambda a: la.expm(a), [A * 0.5]),
        ("expm_batch", lambda a: la.expm(a), [B * 0.3]),
        ("norm_2_matrix", lambda a: tf.norm(a, ord=2, axis=[-2, -1]), [B]),
    ]

    return _table("linalg", GRAD_CASES + MORE_GRAD_CASES + QR_SVD_GRAD_CASES + BATCH_GRAD_CASES
                  + EXPM_GRAD_CASES)


def _pooling() -> list:
    """The pooling cases (once tests/test_pooling_ops.py's table)."""
    tf = tf1

    R = np.random.RandomState(5)


    def distinct(shape, seed=0):
        """Values 0.1 apart in random order: no ties, and no argmax flips under gradcheck's EPS."""
        n = int(np.prod(shape))
        return np.random.RandomState(seed).permutation(n).reshape(shape) * 0.1 - n * 0.05

    def nchw(x):
        return np.ascontiguousarray(np.transpose(x, (0, 3, 1, 2)))


    # Gradients

    nn = tf.nn
    XA = distinct((2, 5, 4, 2))
    XB = distinct((1, 6, 5, 2), seed=1)
    XC = distinct((1, 4, 6, 2), seed=2)
    XN = R.normal(size=(2, 5, 4, 2))


    def _mp(**kw):
        return lambda x: tf.square(nn.max_pool2d(x, **kw))


    def _ap(**kw):
        return lambda x: tf.square(nn.avg_pool2d(x, **kw))


    X3 = distinct((1, 3, 4, 3, 2), seed=3)


    def _mp3(**kw):
        return lambda x: tf.square(nn.max_pool3d(x, **kw))


    def _ap3(**kw):
        return lambda x: tf.square(nn.avg_pool3d(x, **kw))


    GRAD_CASES = [
        ("max_pool3d_2_same", _mp3(ksize=2, strides=2, padding="SAME"), [X3]),
        ("max_pool3d_ncdhw", _mp3(ksize=[2, 3, 1], strides=1, padding="VALID",
                                  data_format="NCDHW"), [X3]),
        ("avg_pool3d_3_s2_same", _ap3(ksize=3, strides=2, padding="SAME"), [X3]),
        ("avg_pool3d_ncdhw", _ap3(ksize=[1, 2, 2], strides=[1, 1, 2], padding="VALID",
                                  data_format="NCDHW"), [X3]),
        ("max_pool_2x2_same_odd", _mp(ksize=2, strides=2, padding="SAME"), [XA]),
        ("max_pool_2x2_valid_tiled", _mp(ksize=2, strides=2, padding="VALID"), [XC]),
        ("max_pool_3x3_s2_same", _mp(ksize=3, strides=2, padding="SAME"), [XB]),
        ("max_pool_3x2_s1_valid", _mp(ksize=[3, 2], strides=1, padding="VALID"), [XA]),
        ("max_pool_nchw", _mp(ksize=2, strides=[1, 2], padding="SAME", data_format="NCHW"),
         [nchw(XB)]),
        ("avg_pool_2x2_same_odd", _ap(ksize=2, strides=2, padding="SAME"), [XN]),
        ("avg_pool_3x3_s2_same", _ap(ksize=3, strides=2, padding="SAME"), [XN]),
        ("avg_pool_2x3_valid", _ap(ksize=[2, 3], strides=[1, 2], padding="VALID"), [XN]),
        ("avg_pool_nchw", _ap(ksize=2, strides=2, padding="VALID", data_format="NCHW"),
         [nchw(XN)]),
        ("max_pool_with_argmax", lambda x: tf.square(nn.max_pool_with_argmax(
            x, 3, 2, "SAME")[0]), [XB]),
        ("max_pool_with_argmax_batch", lambda x: tf.square(nn.max_pool_with_argmax(
            x, 2, 2, "VALID", include_batch_in_index=True)[0]), [XA]),
        ("max_then_avg", lambda x: tf.square(nn.avg_pool2d(nn.max_pool2d(x, 2, 1, "SAME"), 2, 2,
                                                           "SAME")), [XA]),
    ]

    THIRD_ORDER = ("max_pool_3x3_s2_same", "avg_pool_2x2_same_odd", "max_pool_with_argmax",
                   "max_pool3d_2_same")
    return (_table("pooling", GRAD_CASES)
            + _table("pooling", [(n, lambda x, fn=fn: fn(x) * tf.reduce_sum(fn(x)), i)
                                 for n, fn, i in GRAD_CASES if n in THIRD_ORDER],
                     suffix="_order3", graph=3, eager=0, rtol=1e-4, atol=1e-5, why=_THIRD))


def _sort_segment() -> list:
    """The sort_segment cases (once tests/test_sort_segment_ops.py's table)."""
    tf = tf1

    RNG = np.random.RandomState(8)
    X = RNG.permutation(24).reshape(2, 3, 4).astype(np.float64) / 7.0    # distinct values
    DATA = RNG.randn(5, 2)
    IDS = np.array([0, 0, 1, 3, 3])
    UIDS3 = np.array([2, 0, 1, -1, 0])     # every segment of 3 filled, one row dropped

    GRAD_CASES = [
        ("top_k", lambda x: tf.nn.top_k(x, 2)[0] ** 2, [X]),
        ("top_k_ties", lambda x: tf.nn.top_k(x * x, 3)[0], [X[0]]),
        ("sort_axis0", lambda x: tf.sort(x, axis=0) ** 2 * np.arange(1.0, 5.0), [X[1]]),
        ("sort_descending", lambda x: tf.sort(x, direction="DESCENDING") ** 3, [X[0]]),
        ("segment_sum", lambda x: tf.segment_sum(x, IDS) ** 2, [DATA]),
        ("segment_mean", lambda x: tf.segment_mean(x, IDS) ** 2, [DATA]),
        ("segment_max", lambda x: tf.segment_max(x, IDS) ** 2, [DATA]),
        ("segment_min", lambda x: tf.segment_min(x, IDS) ** 2, [DATA]),
        ("unsorted_segment_max", lambda x: tf.unsorted_segment_max(x, UIDS3, 3) ** 2, [DATA]),
        ("unsorted_segment_min", lambda x: tf.unsorted_segment_min(x, UIDS3, 3) ** 2, [DATA]),
        ("unsorted_segment_mean", lambda x: tf.unsorted_segment_mean(x, UIDS3, 3) ** 2, [DATA]),
        ("unsorted_segment_sqrt_n",
         lambda x: tf.math.unsorted_segment_sqrt_n(x, UIDS3, 3) ** 2, [DATA]),
    ]

    return _table("sort_segment", GRAD_CASES)


def _tensor_array() -> list:
    """The tensor_array cases (once tests/test_tensor_array.py's table)."""
    tf = tf1

    def _reverse_products(x):
        """out[i] = x[i] * x[n-1-i], through unstack / read / write / stack."""
        n = int(x.shape[0])
        inp = tf.TensorArray(x.dtype, size=n, clear_after_read=False).unstack(x)
        out = tf.TensorArray(x.dtype, size=n)
        for i in range(n):
            out = out.write(i, inp.read(i) * inp.read(n - 1 - i))
        return out.stack()


    def _dynamic_scatter_gather(x):
        ta = tf.TensorArray(x.dtype, size=0, dynamic_size=True)
        ta = ta.scatter([2, 0], x[:2])
        ta = ta.write(4, tf.sin(x[2]))
        return ta.gather([4, 0, 2]) * ta.stack()[:3] + ta.concat()[:3][:, None]


    def _while_accumulate(x):
        inp = tf.TensorArray(x.dtype, size=4).unstack(x)
        out = tf.TensorArray(x.dtype, size=4, element_shape=[2])

        def body(i, acc, out):
            acc = acc * 0.5 + inp.read(i) ** 2
            return i + 1, acc, out.write(i, acc)

        _, _, out = tf.while_loop(lambda i, a, o: i < 4, body,
                                  [tf.constant(0), tf.zeros([2], x.dtype), out])
        return out.stack()


    GRAD_CASES = [("reverse_products", _reverse_products, [np.random.RandomState(0).randn(4, 3)]),
                  ("dynamic_scatter_gather", _dynamic_scatter_gather,
                   [np.random.RandomState(1).randn(3, 2)]),
                  ("while_accumulate", _while_accumulate, [np.random.RandomState(2).randn(4, 2)])]


    return _table("tensor_array", GRAD_CASES)


def _tf1_gaps() -> list:
    """The tf1_gaps cases (once tests/test_tf1_gaps.py's table)."""
    tf = tf1

    RNG = np.random.RandomState(17)
    N, C = 4, 7
    LOGITS = RNG.randn(N, C)
    PROBS = RNG.dirichlet(np.ones(C), size=N)

    XENT_GRAD_CASES = [
        ("labels_rank3", lambda z, x: tf.nn.softmax_cross_entropy_with_logits_v2(
            labels=z, logits=x), [PROBS[None], LOGITS]),
        ("labels_rank1", lambda z, x: tf.nn.softmax_cross_entropy_with_logits_v2(
            labels=z, logits=x), [PROBS[0], LOGITS]),
        ("labels_row_broadcast", lambda z, x: tf.nn.softmax_cross_entropy_with_logits_v2(
            labels=z, logits=x), [PROBS[:1], LOGITS]),
        ("logits_rank3", lambda z, x: tf.nn.softmax_cross_entropy_with_logits_v2(
            labels=z, logits=x), [PROBS, LOGITS.reshape(2, 2, C)]),
    ]

    return _table("tf1_gaps", XENT_GRAD_CASES)

def _sampled_losses() -> list:
    """nce_loss and sampled_softmax_loss w.r.t. the weights, biases and inputs (fixed sampled
    classes, with an accidental hit; TF1's and TF2's faces)."""
    tf = tf1
    rng = np.random.RandomState(23)
    labels = np.array([[0, 3], [5, 1], [2, 2]])
    sampled = (np.array([4, 1, 6]), rng.uniform(0.2, 0.9, (3, 2)), rng.uniform(0.2, 0.9, 3))
    w, b, x = rng.randn(8, 3), rng.randn(8), rng.randn(3, 3)
    cases = [
        ("nce_loss", lambda w, b, x: tf.nn.nce_loss(
            w, b, labels, x, 3, 8, num_true=2, sampled_values=sampled), [w, b, x]),
        ("nce_loss_accidental_hits", lambda w, b, x: flowgrad.nn.nce_loss(
            w, b, labels, x, 3, 8, num_true=2, sampled_values=sampled,
            remove_accidental_hits=True), [w, b, x]),
        ("sampled_softmax_loss", lambda w, b, x: tf.nn.sampled_softmax_loss(
            w, b, labels, x, 3, 8, num_true=2, sampled_values=sampled), [w, b, x]),
        ("sampled_softmax_loss_shards", lambda w, b, x: flowgrad.nn.sampled_softmax_loss(
            [w[:5], w[5:]], b, labels[:, :1], x, 3, 8, sampled_values=(
                sampled[0], sampled[1][:, :1], sampled[2])), [w, b, x]),
    ]
    return _table("sampled_losses", cases)


def _partition() -> list:
    """dynamic_partition and dynamic_stitch (each one's gradient is the other)."""
    tf = flowgrad
    rng = np.random.RandomState(29)
    cases = [
        ("dynamic_partition", lambda x: tf.reshape(
            tf.dynamic_partition(x, [1, 0, 1, 2], 3)[1] ** 2, [2, 2])
         + tf.reduce_sum(tf.dynamic_partition(x, [1, 0, 1, 2], 3)[0] * 3.0), [rng.randn(4, 2)]),
        ("dynamic_stitch", lambda a, b: tf.reshape(
            tf.dynamic_stitch([[0, 2], [[1], [3]]], [a, b]) ** 2, [4, 3]),
         [rng.randn(2, 3), rng.randn(2, 1, 3)]),
        ("parallel_dynamic_stitch", lambda a, b: tf.reshape(apply_op(
            "ParallelDynamicStitch", [tf.constant([3, 1]), tf.constant([0, 2]), a, b],
            {"N": 2}) * 2.0, [4, 3]), [rng.randn(2, 3), rng.randn(2, 3)]),
    ]
    ops = {"dynamic_partition": "DynamicPartition", "dynamic_stitch": "DynamicStitch",
           "parallel_dynamic_stitch": "ParallelDynamicStitch"}
    return [OpInfo("partition." + name, fn, inputs, op=ops[name], jvp=True)
            for name, fn, inputs in cases]


def _special_math() -> list:
    """erf, erfc, the gamma family, ndtri and erfinv (once tests/test_special_math_ops.py's
    inline tables)."""
    tf = tf1
    X = np.array([[-3.0, -0.7, 0.0], [0.2, 1.1, 4.0]])
    POS = np.array([[0.3, 1.0, 1.7], [4.2, 11.5, 25.0]])
    PROBS = np.array([[1e-12, 0.02, 0.3], [0.5, 0.77, 0.999]])
    loose = {"rtol": 1e-4, "atol": 1e-6}
    return ([OpInfo("special_math.%s_times_x" % n, lambda x, n=n: getattr(tf.math, n)(x) * x,
                    [X]) for n in ("erf", "erfc")]
            + [OpInfo("special_math." + n, getattr(tf.math, n), [X], graph=3, eager=3,
                      rtol=1e-4, atol=1e-5) for n in ("erf", "erfc")]
            + [OpInfo("special_math.lgamma", lambda x: tf.math.lgamma(x), [POS], **loose),
               OpInfo("special_math.digamma", lambda x: tf.math.digamma(x), [POS], **loose),
               OpInfo("special_math.polygamma2", lambda x: tf.math.polygamma(2.0, x), [POS],
                      **loose),
               OpInfo("special_math.ndtri", tf.math.ndtri, [PROBS[:, 1:]], **loose),
               OpInfo("special_math.erfinv", tf.math.erfinv, [np.tanh(X) * 0.9], **loose)])


# --------------------------------------------------------------------------------------
# Forward mode: one entry per op type

def _recipes() -> list:
    """One entry per op type, named by it: forward mode (JVPs) and pfor Jacobians (once
    tests/test_forward_mode.py's RECIPES); gradient-checked where no other entry makes
    the op type."""
    tf = flowgrad

    R = np.random.RandomState(0)


    def _a(*shape, lo=-1.0, hi=1.0):
        return R.uniform(lo, hi, size=shape)


    def _pos(*shape):
        return _a(*shape, lo=0.5, hi=1.5)


    def _spd(n):
        m = _a(n, n)
        return m @ m.T + n * np.eye(n)


    def _grad_of(f, wrt=0):
        """The gradient of f (with an incoming cotangent as last argument): makes f's grad ops."""
        def g(*args):
            *xs, dy = args
            with tf.GradientTape() as t:
                t.watch(xs)
                y = f(*xs)
            return t.gradient(y, xs[wrt], output_gradients=dy)
        return g


    def _nhwc(x):
        return tf.reshape(x, [1, 4, 4, 1])


    def _pool(kind):
        return lambda x: getattr(tf.nn, kind)(_nhwc(x), 2, 2, "VALID")


    def _conv(x, w):
        return tf.nn.conv2d(_nhwc(x), tf.reshape(w, [2, 2, 1, 1]), 1, "VALID")


    def _ndhwc(x):
        return tf.reshape(x, [1, 4, 4, 4, 1])


    def _pool3(kind):
        return lambda x: getattr(tf.nn, kind)(_ndhwc(x), 2, 2, "VALID")


    def _conv3(x, w):
        return tf.nn.conv3d(tf.reshape(x, [1, 3, 3, 3, 1]), tf.reshape(w, [2, 2, 2, 1, 1]),
                            [1] * 5, "VALID")


    def _dconv(x, w):
        return tf.nn.depthwise_conv2d(_nhwc(x), tf.reshape(w, [2, 2, 1, 1]), [1, 1, 1, 1], "VALID")


    def _while(x):
        return tf.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, y * tf.sin(y)),
                             (tf.constant(0), x))[1]


    def _if(x):
        return tf.cond(tf.reduce_sum(x) > 0, lambda: tf.sin(x) * x, lambda: x * x)


    def _argmax_pool(x):
        return tf.nn.max_pool_with_argmax(_nhwc(x), 2, 2, "VALID")[0]


    _IDX = np.array([2, 0, 1], np.int32)
    _SEG = np.array([0, 0, 1, 2], np.int32)

    # op type -> (function of float64 tensors building that op, input arrays)
    RECIPES = {
        "Abs": (tf.abs, [_pos(3)]),
        "AddN": (lambda a, b: tf.add_n([a, b]), [_a(3), _a(3)]),
        "AddV2": (lambda a, b: a + b, [_a(2, 3), _a(3)]),
        "AvgPool": (_pool("avg_pool2d"), [_a(16)]),
        "AvgPoolGrad": (_grad_of(_pool("avg_pool2d")), [_a(16), _a(1, 2, 2, 1)]),
        "BatchMatMulV2": (tf.linalg.matmul, [_a(2, 2, 3), _a(2, 3, 2)]),
        "BiasAdd": (tf.nn.bias_add, [_a(2, 3), _a(3)]),
        "BiasAddGrad": (_grad_of(tf.nn.bias_add, 1), [_a(2, 3), _a(3), _a(2, 3)]),
        "BroadcastTo": (lambda x: tf.broadcast_to(x, [2, 3]), [_a(3)]),
        "Cast": (lambda x: tf.cast(x, tf.float32), [_a(3)]),
        "CheckNumerics": (lambda x: tf.debugging.check_numerics(x, "x"), [_a(3)]),
        "Cholesky": (tf.linalg.cholesky, [_spd(3)]),
        "ConcatV2": (lambda a, b: tf.concat([a, b], 0), [_a(2), _a(3)]),
        "Conv2D": (_conv, [_a(16), _a(4)]),
        "Conv2DBackpropFilter": (_grad_of(_conv, 1), [_a(16), _a(4), _a(1, 3, 3, 1)]),
        "Conv2DBackpropInput": (_grad_of(_conv, 0), [_a(16), _a(4), _a(1, 3, 3, 1)]),
        "Cos": (tf.cos, [_a(3)]),
        "Cumprod": (lambda x: tf.math.cumprod(x, exclusive=True), [_pos(4)]),
        "Cumsum": (lambda x: tf.math.cumsum(x, reverse=True), [_a(4)]),
        "LRN": (lambda x: tf.nn.lrn(tf.reshape(x, [1, 1, 2, 2]), 1, 0.5, 0.5, 0.75),
                [_a(4)]),
        "CumulativeLogsumexp": (lambda x: tf.math.cumulative_logsumexp(
            tf.stack([x, 2.0 * x]), 1, exclusive=True), [_a(4)]),
        "DepthwiseConv2dNative": (_dconv, [_a(16), _a(4)]),
        "DepthwiseConv2dNativeBackpropFilter": (_grad_of(_dconv, 1),
                                                [_a(16), _a(4), _a(1, 3, 3, 1)]),
        "DepthwiseConv2dNativeBackpropInput": (_grad_of(_dconv, 0),
                                               [_a(16), _a(4), _a(1, 3, 3, 1)]),
        "Digamma": (tf.math.digamma, [_pos(3) + 1]),
        "DivNoNan": (tf.math.divide_no_nan, [_a(3), _pos(3)]),
        "MulNoNan": (tf.math.multiply_no_nan, [_a(3), _a(3)]),
        "Xdivy": (tf.math.xdivy, [_a(3), _pos(3)]),
        "Xlog1py": (tf.math.xlog1py, [_a(3), _pos(3)]),
        "Xlogy": (tf.math.xlogy, [_a(3), _pos(3)]),
        "Einsum": (lambda a, b: tf.einsum("ij,jk->ik", a, b), [_a(2, 3), _a(3, 2)]),
        "Elu": (tf.nn.elu, [_a(4)]),
        "EluGrad": (_grad_of(tf.nn.elu), [_a(4), _a(4)]),
        "Erf": (tf.math.erf, [_a(3)]),
        "Erfc": (tf.math.erfc, [_a(3)]),
        "EuclideanNorm": (lambda x: tf.math.reduce_euclidean_norm(x, 1), [_a(2, 3)]),
        "Exp": (tf.exp, [_a(3)]),
        "ExpandDims": (lambda x: tf.expand_dims(x, 1), [_a(2, 3)]),
        "Expm1": (tf.math.expm1, [_a(3)]),
        "Fill": (lambda v: tf.fill([2, 3], v), [np.array(1.5)]),
        "FloorMod": (tf.math.floormod, [_pos(3) * 3, _pos(3)]),
        # made by Gather's gradient only where the rank is unknown: applied directly
        "GatherGradAlongAxis": (lambda p, g: apply_op("GatherGradAlongAxis",
                                                      [g, tf.constant(_IDX), p], {"axis": 1}),
                                [_a(2, 3), _a(2, 3)]),
        "GatherNd": (lambda p: tf.gather_nd(p, [[0, 1], [1, 2]]), [_a(2, 3)]),
        "SparseReduceSum": (lambda v: tf.sparse.reduce_sum(
            tf.SparseTensor([[0, 1], [1, 0]], v, [2, 2]), 1), [_a(2)]),
        "SparseReorder": (lambda v: tf.sparse.reorder(
            tf.SparseTensor([[1, 0], [0, 1]], v, [2, 2])).values, [_a(2)]),
        "SparseSlice": (lambda v: tf.reshape(tf.sparse.slice(
            tf.SparseTensor([[0, 0], [1, 1], [2, 0]], v, [3, 2]), [1, 0], [2, 2]).values ** 2,
            [2]), [_a(3)]),
        "SparseToDense": (lambda v, d: tf.sparse.to_dense(
            tf.SparseTensor([[0, 1], [1, 0]], v, [2, 2]), d), [_a(2), _a()]),
        "SparseTensorDenseMatMul": (lambda v, b: tf.sparse.sparse_dense_matmul(
            tf.SparseTensor([[0, 1], [1, 0]], v, [2, 2]), b), [_a(2), _a(2, 3)]),
        "GatherV2": (lambda p: tf.gather(p, _IDX), [_a(3, 2)]),
        "Identity": (tf.identity, [_a(3)]),
        "IdentityN": (lambda a, b: tf.identity_n([a, b]), [_a(2), _a(3)]),
        "If": (_if, [_a(3)]),
        "L2Loss": (tf.nn.l2_loss, [_a(3)]),
        "LeakyRelu": (lambda x: tf.nn.leaky_relu(x, 0.2), [_a(4)]),
        "LeakyReluGrad": (_grad_of(lambda x: tf.nn.leaky_relu(x, 0.2)), [_a(4), _a(4)]),
        "Lgamma": (tf.math.lgamma, [_pos(3) + 1]),
        "Log": (tf.math.log, [_pos(3)]),
        "Log1p": (tf.math.log1p, [_pos(3)]),
        "LogMatrixDeterminant": (lambda m: tf.linalg.slogdet(m)[1], [_spd(3)]),
        "LogSoftmax": (tf.nn.log_softmax, [_a(2, 3)]),
        "MatMul": (tf.matmul, [_a(2, 3), _a(3, 2)]),
        "MatrixBandPart": (lambda m: tf.linalg.band_part(m, 1, 0), [_a(3, 3)]),
        "MatrixDeterminant": (tf.linalg.det, [_spd(3)]),
        "MatrixDiag": (tf.linalg.diag, [_a(3)]),
        "MatrixDiagPart": (tf.linalg.diag_part, [_a(3, 3)]),
        "MatrixExponential": (tf.linalg.expm, [_a(3, 3) * 0.3]),
        "MatrixInverse": (tf.linalg.inv, [_spd(3)]),
        "MatrixSetDiag": (tf.linalg.set_diag, [_a(3, 3), _a(3)]),
        "MatrixSolve": (tf.linalg.solve, [_spd(3), _a(3, 2)]),
        "MatrixTriangularSolve": (tf.linalg.triangular_solve,
                                  [np.tril(_spd(3)), _a(3, 2)]),
        "Max": (lambda x: tf.reduce_max(x, 1), [_a(2, 3)]),
        "MaxPool": (_pool("max_pool2d"), [_a(16)]),
        "MaxPool3D": (_pool3("max_pool3d"), [_a(64)]),
        "MaxPool3DGrad": (_grad_of(_pool3("max_pool3d")), [_a(64), _a(1, 2, 2, 2, 1)]),
        "MaxPool3DGradGrad": (_grad_of(_grad_of(_pool3("max_pool3d")), 1),
                              [_a(64), _a(1, 2, 2, 2, 1), _a(64)]),
        "AvgPool3D": (_pool3("avg_pool3d"), [_a(64)]),
        "AvgPool3DGrad": (_grad_of(_pool3("avg_pool3d")), [_a(64), _a(1, 2, 2, 2, 1)]),
        "Conv3D": (_conv3, [_a(27), _a(8)]),
        "Conv3DBackpropFilterV2": (_grad_of(_conv3, 1), [_a(27), _a(8), _a(1, 2, 2, 2, 1)]),
        "Conv3DBackpropInputV2": (_grad_of(_conv3, 0), [_a(27), _a(8), _a(1, 2, 2, 2, 1)]),
        "MaxPoolGrad": (_grad_of(_pool("max_pool2d")), [_a(16), _a(1, 2, 2, 1)]),
        "MaxPoolGradGrad": (_grad_of(_grad_of(_pool("max_pool2d")), 1),
                            [_a(16), _a(1, 2, 2, 1), _a(16)]),
        "MaxPoolWithArgmax": (_argmax_pool, [_a(16)]),
        "MaxPoolGradWithArgmax": (_grad_of(_argmax_pool), [_a(16), _a(1, 2, 2, 1)]),
        "MaxPoolGradGradWithArgmax": (_grad_of(_grad_of(_argmax_pool), 1),
                                      [_a(16), _a(1, 2, 2, 1), _a(16)]),
        "Maximum": (tf.maximum, [_a(3), _a(3)]),
        "Mean": (lambda x: tf.reduce_mean(x, 0), [_a(2, 3)]),
        "Min": (lambda x: tf.reduce_min(x, 0), [_a(2, 3)]),
        "Minimum": (tf.minimum, [_a(3), _a(3)]),
        "MirrorPad": (lambda x: tf.pad(x, [[1, 1]], "REFLECT"), [_a(3)]),
        "MirrorPadGrad": (_grad_of(lambda x: tf.pad(x, [[1, 1]], "REFLECT")), [_a(3), _a(5)]),
        "Mul": (lambda a, b: a * b, [_a(2, 3), _a(3)]),
        "Ndtri": (tf.math.ndtri, [_a(3, lo=0.2, hi=0.8)]),
        "Neg": (tf.negative, [_a(3)]),
        "Pack": (lambda a, b: tf.stack([a, b], 1), [_a(3), _a(3)]),
        "Pad": (lambda x: tf.pad(x, [[1, 2]]), [_a(3)]),
        "PadV2": (lambda x, c: tf.pad(x, [[1, 2]], constant_values=c), [_a(3), np.array(0.5)]),
        "Print": (lambda x: tf.compat.v1.Print(x, [], "", first_n=0), [_a(3)]),
        "Polygamma": (lambda x: tf.math.polygamma(tf.constant(1.0, tf.float64), x), [_pos(3) + 1]),
        "Pow": (tf.pow, [_pos(3), _a(3)]),
        "Prod": (lambda x: tf.reduce_prod(x, 1), [_pos(2, 3)]),
        "Qr": (lambda m: tf.linalg.qr(m), [_a(3, 3)]),
        "RealDiv": (lambda a, b: a / b, [_a(3), _pos(3)]),
        "Reciprocal": (tf.math.reciprocal, [_pos(3)]),
        "Relu": (tf.nn.relu, [_a(4)]),
        "Relu6": (tf.nn.relu6, [_a(4) * 8]),
        "Relu6Grad": (_grad_of(tf.nn.relu6), [_a(4) * 8, _a(4)]),
        "ReluGrad": (_grad_of(tf.nn.relu), [_a(4), _a(4)]),
        "Reshape": (lambda x: tf.reshape(x, [3, 2]), [_a(2, 3)]),
        "ReverseV2": (lambda x: tf.reverse(x, [1]), [_a(2, 3)]),
        "Rsqrt": (tf.math.rsqrt, [_pos(3)]),
        "RsqrtGrad": (_grad_of(tf.math.rsqrt), [_pos(3), _a(3)]),
        "ScatterNd": (lambda u: tf.scatter_nd([[0], [2]], u, [4]), [_a(2)]),
        "SegmentSum": (lambda d: tf.math.segment_sum(d, _SEG), [_a(4, 2)]),
        "SelectV2": (lambda a, b: tf.where(a > 0, a, b), [_a(4), _a(4)]),
        "SelfAdjointEigV2": (lambda m: tf.linalg.eigh(m + tf.transpose(m))[0], [_a(3, 3)]),
        "Selu": (tf.nn.selu, [_a(4)]),
        "SeluGrad": (_grad_of(tf.nn.selu), [_a(4), _a(4)]),
        "Sigmoid": (tf.sigmoid, [_a(3)]),
        "SigmoidGrad": (_grad_of(tf.sigmoid), [_a(3), _a(3)]),
        "Sign": (tf.sign, [_a(3)]),
        "Sin": (tf.sin, [_a(3)]),
        "Slice": (lambda x: tf.slice(x, [0, 1], [2, 2]), [_a(2, 3)]),
        "Softmax": (tf.nn.softmax, [_a(2, 3)]),
        "SoftmaxCrossEntropyWithLogits": (
            lambda lg, lb: tf.nn.softmax_cross_entropy_with_logits(lb, lg),
            [_a(2, 3), _pos(2, 3)]),
        "Softplus": (tf.nn.softplus, [_a(3)]),
        "SoftplusGrad": (_grad_of(tf.nn.softplus), [_a(3), _a(3)]),
        "Softsign": (tf.nn.softsign, [_a(3)]),
        "SoftsignGrad": (_grad_of(tf.nn.softsign), [_a(3), _a(3)]),
        "SparseSoftmaxCrossEntropyWithLogits": (
            lambda lg: tf.nn.sparse_softmax_cross_entropy_with_logits([0, 2], lg), [_a(2, 3)]),
        "Split": (lambda x: tf.split(x, 2, axis=1), [_a(2, 4)]),
        "SplitV": (lambda x: tf.split(x, [1, 3], axis=1), [_a(2, 4)]),
        "Sqrt": (tf.sqrt, [_pos(3)]),
        "SqrtGrad": (_grad_of(tf.sqrt), [_pos(3), _a(3)]),
        "Square": (tf.square, [_a(3)]),
        "SquaredDifference": (tf.math.squared_difference, [_a(3), _a(3)]),
        "Squeeze": (lambda x: tf.squeeze(x, [1]), [_a(2, 1, 3)]),
        "StridedSlice": (lambda x: x[:, ::2], [_a(2, 4)]),
        "StridedSliceGrad": (_grad_of(lambda x: x[:, ::2]), [_a(2, 4), _a(2, 2)]),
        "Sub": (lambda a, b: a - b, [_a(2, 3), _a(2, 1)]),
        "Sum": (lambda x: tf.reduce_sum(x, [0]), [_a(2, 3)]),
        "Svd": (lambda m: tf.linalg.svd(m, compute_uv=False), [_a(3, 2)]),
        "Eig": (lambda m: tf.math.real(tf.reduce_sum(tf.linalg.eigvals(m) ** 2))
                + tf.reduce_sum(tf.abs(tf.linalg.eig(m)[1]) ** 2), [_a(3, 3)]),
        "Tan": (tf.math.tan, [_a(3)]),
        "Tanh": (tf.tanh, [_a(3)]),
        "TanhGrad": (_grad_of(tf.tanh), [_a(3), _a(3)]),
        "TensorScatterAdd": (lambda t, u: tf.tensor_scatter_nd_add(t, [[1]], u), [_a(3), _a(1)]),
        "TensorScatterUpdate": (lambda t, u: tf.tensor_scatter_nd_update(t, [[1]], u),
                                [_a(3), _a(1)]),
        "Tile": (lambda x: tf.tile(x, [2, 1]), [_a(1, 3)]),
        "TopKV2": (lambda x: tf.nn.top_k(x, 2)[0], [_a(4)]),
        "Transpose": (tf.transpose, [_a(2, 3)]),
        "UnsortedSegmentMax": (lambda d: tf.math.unsorted_segment_max(d, _SEG, 3), [_a(4)]),
        "UnsortedSegmentMin": (lambda d: tf.math.unsorted_segment_min(d, _SEG, 3), [_a(4)]),
        "UnsortedSegmentSum": (lambda d: tf.math.unsorted_segment_sum(d, _SEG, 3), [_a(4)]),
        "Unpack": (lambda x: tf.unstack(x), [_a(2, 3)]),
        "While": (_while, [_a(3)]),
    }

    # tf.math's trigonometric, hyperbolic, Bessel, complex and segment-product ops
    RECIPES.update({
        "Acos": (tf.math.acos, [_a(3) * 0.9]), "Acosh": (tf.math.acosh, [_pos(3) + 1]),
        "Asin": (tf.math.asin, [_a(3) * 0.9]), "Asinh": (tf.math.asinh, [_a(3)]),
        "Atan": (tf.math.atan, [_a(3)]), "Atan2": (tf.math.atan2, [_a(2, 3), _pos(3)]),
        "Atanh": (tf.math.atanh, [_a(3) * 0.9]), "Cosh": (tf.math.cosh, [_a(3)]),
        "Sinh": (tf.math.sinh, [_a(3)]), "BesselI0": (tf.math.bessel_i0, [_a(3)]),
        "BesselI0e": (tf.math.bessel_i0e, [_pos(3)]), "BesselI1": (tf.math.bessel_i1, [_pos(3)]),
        "BesselI1e": (tf.math.bessel_i1e, [-_pos(3)]),
        "NextAfter": (tf.math.nextafter, [_a(2, 3), _a(3)]),
        "Complex": (lambda a, b: tf.math.real(tf.complex(a, b)), [_a(3), _a(3)]),
        "Real": (lambda a, b: tf.math.real(tf.complex(a, b)), [_a(3), _a(3)]),
        "Imag": (lambda a, b: tf.math.imag(tf.complex(a, b)), [_a(3), _a(3)]),
        "Conj": (lambda a, b: tf.math.imag(tf.math.conj(tf.complex(a, b))), [_a(3), _a(3)]),
        "Angle": (lambda a, b: tf.math.angle(tf.complex(a, b)), [_pos(3), _a(3)]),
        "SegmentProd": (lambda d: tf.math.segment_prod(d, _SEG), [_pos(4, 2)]),
        "UnsortedSegmentProd": (lambda d: tf.math.unsorted_segment_prod(d, _SEG, 3), [_pos(4)]),
        "Roll": (lambda x: tf.roll(x, [1, 2], [0, 1]), [_a(2, 3)]),
        "ReverseSequence": (lambda x: tf.reverse_sequence(x, [2, 3], seq_axis=1), [_a(2, 3)]),
        "EnsureShape": (lambda x: tf.ensure_shape(x, [2, None]), [_a(2, 3)]),
        "TensorScatterMax": (lambda t, u: tf.tensor_scatter_nd_max(t, [[1]], u), [_a(3), _a(1)]),
        "TensorScatterMin": (lambda t, u: tf.tensor_scatter_nd_min(t, [[1]], u), [_a(3), _a(1)]),
        "TensorScatterSub": (lambda t, u: tf.tensor_scatter_nd_sub(t, [[1]], u), [_a(3), _a(1)]),
        "SpaceToDepth": (lambda x: tf.nn.space_to_depth(tf.reshape(x, [1, 2, 2, 2]), 2), [_a(8)]),
        "DepthToSpace": (lambda x: tf.nn.depth_to_space(tf.reshape(x, [1, 1, 2, 4]), 2), [_a(8)]),
        "FFT": (lambda a, b: tf.math.imag(tf.signal.fft(tf.complex(a, b))), [_a(4), _a(4)]),
        "IFFT": (lambda a, b: tf.math.real(tf.signal.ifft(tf.complex(a, b))), [_a(4), _a(4)]),
        "FFT2D": (lambda a, b: tf.math.imag(tf.signal.fft2d(tf.complex(a, b))),
                  [_a(2, 3), _a(2, 3)]),
        "IFFT2D": (lambda a, b: tf.math.real(tf.signal.ifft2d(tf.complex(a, b))),
                   [_a(2, 3), _a(2, 3)]),
        "RFFT": (lambda x: tf.math.imag(tf.signal.rfft(x)), [_a(6)]),
        "IRFFT": (lambda a, b: tf.signal.irfft(tf.complex(a, b)), [_a(4), _a(4)]),
        "Cross": (tf.linalg.cross, [_a(2, 3), _a(2, 3)]),
    })

    # op types made only by internal code paths no public TensorFlow function reaches

    # tf.image: the resize kernels (float64 in, float64 out), crops, patches and colour.
    _BOX = np.array([[0.1, 0.2, 0.8, 0.9]])


    def _resize(kind):
        return lambda x: getattr(tf.compat.v1.image, "resize_" + kind)(x, [3, 5])


    def _scale_translate(x):
        return tf.raw_ops.ScaleAndTranslate(images=x, size=[3, 5], scale=[0.75, 1.25],
                                            translation=[0.0, 0.1], kernel_type="triangle",
                                            antialias=True)


    def _crop(x):
        return tf.image.crop_and_resize(x, _BOX, [0], [3, 3])


    RECIPES.update({
        "ResizeBilinear": (_resize("bilinear"), [_a(1, 4, 4, 2)]),
        "ResizeBilinearGrad": (_grad_of(_resize("bilinear")), [_a(1, 4, 4, 2), _a(1, 3, 5, 2)]),
        "ResizeBicubic": (_resize("bicubic"), [_a(1, 4, 4, 2)]),
        "ResizeBicubicGrad": (_grad_of(_resize("bicubic")), [_a(1, 4, 4, 2), _a(1, 3, 5, 2)]),
        "ResizeNearestNeighbor": (_resize("nearest_neighbor"), [_a(1, 4, 4, 2)]),
        "ResizeNearestNeighborGrad": (_grad_of(_resize("nearest_neighbor")),
                                      [_a(1, 4, 4, 2), _a(1, 3, 5, 2)]),
        "ScaleAndTranslate": (_scale_translate, [_a(1, 4, 4, 2)]),
        "ScaleAndTranslateGrad": (_grad_of(_scale_translate), [_a(1, 4, 4, 2), _a(1, 3, 5, 2)]),
        "CropAndResize": (_crop, [_a(1, 4, 4, 2)]),
        # (built directly: _grad_of would also make CropAndResizeGradBoxes, which, as in
        # TensorFlow, has no gradient of its own)
        "CropAndResizeGradImage": (lambda dy: tf.raw_ops.CropAndResizeGradImage(
            grads=dy, boxes=_BOX, box_ind=[0], image_size=[1, 4, 4, 2], T=tf.float64,
            method="bilinear"),
            [_a(1, 3, 3, 2)]),
        "ExtractImagePatches": (lambda x: tf.image.extract_patches(
            x, sizes=[1, 2, 2, 1], strides=[1, 1, 1, 1], rates=[1, 1, 1, 1], padding="VALID"),
            [_a(1, 4, 4, 2)]),
        "RGBToHSV": (tf.image.rgb_to_hsv, [np.array([[0.2, 0.5, 0.9], [0.8, 0.3, 0.1]])]),
    })
    return [OpInfo("op." + t, fn, vals, op=t, jvp=True,
                   graph=2 if t in _GRADIENT_CHECKED_RECIPES else 0,
                   eager=2 if t in _GRADIENT_CHECKED_RECIPES else 0,
                   expect_none=_GRADIENT_CHECKED_RECIPES.get(t, ()))
            for t, (fn, vals) in RECIPES.items()]


# the op types whose recipe is their only gradient-checked entry -> the inputs that get no
# gradient (read for their shape, or where the pool's maxima are)
_GRADIENT_CHECKED_RECIPES = {
    "CheckNumerics": (), "CropAndResize": (), "CropAndResizeGradImage": (), "Eig": (),
    "ExtractImagePatches": (), "GatherGradAlongAxis": (0,), "MaxPoolGradGrad": (1,),
    "MaxPool3DGradGrad": (1,), "MaxPoolGradGradWithArgmax": (1,), "Print": (), "RGBToHSV": (),
    "SparseReduceSum": (), "SparseReorder": (), "SparseSlice": (), "SparseTensorDenseMatMul": (),
    "SparseToDense": (), "Unpack": ()}


# --------------------------------------------------------------------------------------
# Batching: vectorized_map against a loop

def _abs2(x: Any) -> Any:
    return flowgrad.math.square(flowgrad.math.abs(x))


def _svd_rebuild(x: Any) -> Any:
    s, u, v = flowgrad.linalg.svd(x)
    return tf1.matmul(u * tf1.cast(s, x.dtype)[None, :], v, adjoint_b=True)


def _svd_abs(x: Any, full: bool) -> Any:
    s, u, v = flowgrad.linalg.svd(x, full_matrices=full)
    return tf1.reduce_sum(_abs2(u) * s[:1]) + tf1.reduce_sum(_abs2(v) * 2.0)


def _qr_abs(x: Any) -> Any:
    q, r = flowgrad.linalg.qr(x)
    return tf1.reduce_sum(_abs2(q) * 1.5) + tf1.reduce_sum(_abs2(r) * flowgrad.math.real(x[0, 0]))


def _eigh_abs(x: Any) -> Any:
    e, v = flowgrad.linalg.eigh(x + flowgrad.linalg.adjoint(x))
    return tf1.reduce_sum(_abs2(v) * flowgrad.math.real(e)[None, :])


def _eig_abs(x: Any) -> Any:
    e, v = flowgrad.linalg.eig(x)
    return tf1.reduce_sum(_abs2(v) * flowgrad.math.imag(e)[None, :])


def _complex() -> list:
    """Complex inputs: each gradient is TensorFlow's ``dL/dRe(z) + i dL/dIm(z)`` (the check
    perturbs the real and imaginary parts apart); tests/test_complex_gradients.py pins the
    same ops against TensorFlow 2.21's numbers."""
    tf = tf1

    R = np.random.RandomState(23)

    def c(lo: float, hi: float, shape: tuple = (2, 3)) -> np.ndarray:
        return R.uniform(lo, hi, shape) + 1j * R.uniform(lo, hi, shape)
    A = c(-1.0, 1.0)
    B = c(-1.0, 1.0)
    AWAY = c(0.5, 1.5)                  # away from 0 and from the branch cuts
    SMALL = c(-0.4, 0.4)                # inside the unit disc
    M = c(-1.0, 1.0, (3, 3))
    BM = c(-1.0, 1.0, (2, 3, 3))
    math = tf.math

    CASES = [
        ("exp", math.exp, [A]),
        ("expm1", math.expm1, [A]),
        ("log", math.log, [AWAY]),
        ("log1p", math.log1p, [AWAY]),
        ("square", math.square, [A]),
        ("reciprocal", math.reciprocal, [AWAY]),
        ("sqrt", math.sqrt, [AWAY]),
        ("rsqrt", math.rsqrt, [AWAY]),
        ("tanh", math.tanh, [A]),
        ("sigmoid", math.sigmoid, [A]),
        ("sin", math.sin, [A]),
        ("cos", math.cos, [A]),
        ("tan", math.tan, [SMALL]),
        ("sinh", math.sinh, [A]),
        ("cosh", math.cosh, [A]),
        ("asin", math.asin, [SMALL]),
        ("acos", math.acos, [SMALL]),
        ("atan", math.atan, [SMALL]),
        ("asinh", math.asinh, [SMALL]),
        ("acosh", math.acosh, [AWAY + 1.5]),
        ("atanh", math.atanh, [SMALL]),
        ("neg", lambda x: -x * x, [A]),
        ("abs", math.abs, [AWAY]),
        ("sign", lambda x: math.sign(x) * x, [AWAY]),
        ("reduce_variance_std", lambda x: math.reduce_variance(x, 1) + math.reduce_std(x, 0)[0],
         [A]),
        ("logdet", lambda x: flowgrad.linalg.logdet(
            tf.matmul(x, x, adjoint_b=True) + 3 * np.eye(3)), [M]),
        ("real_imag_conj_angle",
         lambda x: math.real(x) * math.imag(math.conj(x)) + math.angle(x), [AWAY]),
        ("complex", lambda x, y: tf.complex(math.real(x * y), math.imag(x)), [A, B]),
        ("mul", lambda x, y: x * y, [A, B[0]]),
        ("div", lambda x, y: x / y, [A, AWAY]),
        ("div_no_nan", math.divide_no_nan, [A, AWAY]),
        ("pow", math.pow, [AWAY, B]),
        ("squared_difference", lambda x, y: math.real(math.squared_difference(x, y)),
         [A, B]),
        ("add_sub", lambda x, y: x + y - x * y, [A, B[1:]]),
        ("matmul", lambda x, y: tf.matmul(x, y), [A, M]),
        ("matmul_transpose_a", lambda x, y: tf.matmul(x, y, transpose_a=True), [A, B]),
        ("matmul_adjoint_b", lambda x, y: tf.matmul(x, y, adjoint_b=True), [A, B]),
        ("batch_matmul_adjoint", lambda x, y: tf.matmul(x, y, adjoint_a=True), [BM, M]),
        ("einsum", lambda x, y: tf.einsum("ij,kj->ik", x, y), [A, B]),
        ("reduce_sum_mean", lambda x: tf.reduce_sum(x * x, 1) + tf.reduce_mean(x, 0)[0],
         [A]),
        ("cumsum", lambda x: tf.cumsum(x * x, axis=1), [A]),
        ("norm", lambda x: tf.norm(x, axis=1), [A]),
        ("l2_normalize", lambda x: tf.nn.l2_normalize(x, axis=1), [A]),
        ("fft_ifft", lambda x: flowgrad.signal.fft(x) * flowgrad.signal.ifft(x), [A]),
        ("adjoint", lambda x: flowgrad.linalg.adjoint(x) * tf.transpose(x), [A]),
        ("inv", flowgrad.linalg.inv, [M + 3 * np.eye(3)]),
        ("inv_adjoint", lambda x: flowgrad.linalg.inv(x, adjoint=True), [M + 3 * np.eye(3)]),
        ("solve", flowgrad.linalg.solve, [M + 3 * np.eye(3), A.T.copy()]),
        ("solve_adjoint", lambda x, y: flowgrad.linalg.solve(x, y, adjoint=True),
         [M + 3 * np.eye(3), A.T.copy()]),
        ("triangular_solve_adjoint",
         lambda x, y: flowgrad.linalg.triangular_solve(x, y, adjoint=True),
         [M + 3 * np.eye(3), A.T.copy()]),
        ("cholesky", lambda x: flowgrad.linalg.cholesky(
            tf.matmul(x, x, adjoint_b=True) + 3 * np.eye(3)), [M]),
        ("slogdet", lambda x: math.real(flowgrad.linalg.slogdet(x)[1]), [M + 3 * np.eye(3)]),
        ("eigvalsh", lambda x: math.real(flowgrad.linalg.eigvalsh(x + flowgrad.linalg.adjoint(x))),
         [M]),
        ("expm", flowgrad.linalg.expm, [0.3 * M]),
        # the decompositions, through functions that do not depend on the vectors' phases
        ("svd_values", lambda x: flowgrad.linalg.svd(x, compute_uv=False), [A]),
        ("svd_rebuild", lambda x: _svd_rebuild(x), [A]),
        ("svd_rebuild_tall", lambda x: _svd_rebuild(x), [A.T.copy()]),
        ("svd_abs_full", lambda x: _svd_abs(x, True), [A]),
        ("svd_abs_square", lambda x: _svd_abs(x, False), [M]),
        ("qr_square", lambda x: _qr_abs(x), [M]),
        ("qr_wide", lambda x: _qr_abs(x), [A]),
        ("qr_tall", lambda x: _qr_abs(x), [A.T.copy()]),
        ("eigh_vectors", lambda x: _eigh_abs(x), [M]),
        ("eig_values", lambda x: tf.reduce_sum(flowgrad.linalg.eigvals(x) ** 3), [M]),
        ("eig_vectors", lambda x: _eig_abs(x), [M]),
    ]

    # TensorFlow's gradients of Cumprod (no conjugate) and of EuclideanNorm (x / (norm /
    # grad), which lets the imaginary part of the upstream gradient of its complex, real-valued
    # output in) are not the derivatives of the convention for complex inputs; flowgrad keeps
    # TensorFlow's numbers (tests/test_complex_gradients.py), so reduce_prod (whose gradient is
    # two cumprods) and reduce_euclidean_norm are checked here at order 1 only. The same holds
    # for MatrixDeterminant (grad * det * inv(A^H): det is not conjugated), which only the
    # recorded numbers pin.
    FIRST_ORDER = [
        ("reduce_prod", lambda x: tf.reduce_prod(x, axis=1), [A]),
        ("reduce_euclidean_norm", lambda x: math.real(math.reduce_euclidean_norm(x, 1)), [A]),
    ]
    FORWARD = [OpInfo("complex.abs_of_parts", lambda a, b: tf.abs(tf.complex(a, b)),
                      [R.uniform(0.5, 1.5, (2, 3)), R.uniform(-1.5, 1.5, (2, 3))],
                      op="ComplexAbs", jvp=True)]
    return (_table("complex", CASES) + _table("complex", FIRST_ORDER, graph=1, eager=1)
            + FORWARD)


def _vmap() -> list:
    """Batching: functions of one example (a (2, 3) float64 tensor) per op type with a
    batching rule, vectorized over a batch of 3 (once tests/test_vectorize.py's
    VMAP_RECIPES)."""
    tf = flowgrad

    R = np.random.RandomState(1)
    C3 = tf.constant(R.uniform(0.5, 1.5, 3))
    C23 = tf.constant(R.uniform(0.5, 1.5, (2, 3)))
    C32 = tf.constant(R.uniform(-1, 1, (3, 2)))
    C22 = tf.constant(R.uniform(-1, 1, (2, 2)))
    C411 = tf.constant(R.uniform(0.5, 1.5, (4, 1, 1)))
    ELEMS = R.uniform(0.5, 1.5, (3, 2, 3))      # a batch of 3 examples of shape (2, 3)

    W2211 = tf.constant(R.uniform(-1, 1, (2, 2, 1, 1)))


    def _spd(x):
        """A symmetric positive definite 2 x 2 matrix made from one example."""
        return tf.matmul(x, x, transpose_b=True) + 3.0 * tf.eye(2, dtype=tf.float64)


    def _image(x):
        return tf.reshape(tf.concat([x, x], 0), [1, 2, 6, 1])


    _UNARY = {
        "Abs": tf.abs, "Ceil": tf.math.ceil, "Cos": tf.cos, "Digamma": tf.math.digamma,
        "Elu": tf.nn.elu, "Erf": tf.math.erf, "Erfc": tf.math.erfc, "Exp": tf.exp,
        "Expm1": tf.math.expm1, "Floor": tf.math.floor, "Identity": tf.identity,
        "LeakyRelu": tf.nn.leaky_relu, "Lgamma": tf.math.lgamma, "Log": tf.math.log,
        "Log1p": tf.math.log1p, "LogSoftmax": tf.nn.log_softmax, "Neg": tf.negative,
        "OnesLike": lambda x: apply_op("OnesLike", [x]), "Reciprocal": tf.math.reciprocal,
        "Relu": tf.nn.relu,
        "Relu6": tf.nn.relu6, "Round": tf.math.round, "Rsqrt": tf.math.rsqrt,
        "Selu": tf.nn.selu,
        "Sigmoid": tf.sigmoid, "Sign": tf.sign, "Sin": tf.sin, "Softmax": tf.nn.softmax,
        "Softplus": tf.nn.softplus, "Softsign": tf.nn.softsign, "Sqrt": tf.sqrt,
        "Square": tf.square, "StopGradient": tf.stop_gradient, "Tan": tf.math.tan,
        "Tanh": tf.tanh, "ZerosLike": lambda x: apply_op("ZerosLike", [x]),
        "Cast": lambda x: tf.cast(x, tf.float32),
        "CheckNumerics": lambda x: tf.debugging.check_numerics(x, "x"),
        "IsFinite": tf.math.is_finite, "IsNan": tf.math.is_nan,
        "LogicalNot": lambda x: tf.logical_not(x > 1.0),
    }
    _BINARY = {
        "AddV2": tf.add, "Sub": tf.subtract, "Mul": tf.multiply, "RealDiv": tf.divide,
        "Maximum": tf.maximum, "Minimum": tf.minimum, "Pow": tf.pow,
        "SquaredDifference": tf.math.squared_difference, "DivNoNan": tf.math.divide_no_nan,
        "FloorMod": tf.math.floormod, "FloorDiv": tf.math.floordiv, "Greater": tf.greater,
        "GreaterEqual": tf.greater_equal, "Less": tf.less, "LessEqual": tf.less_equal,
        "Equal": tf.equal, "NotEqual": tf.not_equal,
        "LogicalAnd": lambda a, b: tf.logical_and(a > 1.0, b > 1.0),
        "LogicalOr": lambda a, b: tf.logical_or(a > 1.0, b > 1.0),
        "SelectV2": lambda a, b: tf.where(a > b, a, b),
    }
    _FUSED_GRADS = {"TanhGrad": 1, "SigmoidGrad": 1, "RsqrtGrad": 1, "SqrtGrad": 1,
                    "ReluGrad": 0, "Relu6Grad": 0, "EluGrad": 0, "SeluGrad": 0, "SoftplusGrad": 0,
                    "SoftsignGrad": 0, "LeakyReluGrad": 0}


    def _fused(op_type, batched_dy):
        attrs = {"alpha": 0.2} if op_type == "LeakyReluGrad" else {}
        k = _FUSED_GRADS[op_type]

        def fn(x):
            dy, other = (x, C23) if batched_dy else (C23, x)
            return apply_op(op_type, [other, dy] if k else [dy, other], attrs)
        return fn


    # op type -> [functions of one example x (a (2, 3) float64 tensor)]
    VMAP_RECIPES = {t: [f] for t, f in _UNARY.items()}
    VMAP_RECIPES.update({t: [lambda x, f=f: f(x, C3), lambda x, f=f: f(C411, x)]
                         for t, f in _BINARY.items()})
    VMAP_RECIPES.update({t: [_fused(t, True), _fused(t, False)] for t in _FUSED_GRADS})
    VMAP_RECIPES.update({
        "AddN": [lambda x: tf.add_n([x, C23, x])],
        "MatMul": [lambda x: tf.matmul(x, C32), lambda x: tf.matmul(C22, x),
                   lambda x: tf.matmul(x, C22, transpose_a=True)],
        "BatchMatMulV2": [lambda x: tf.linalg.matmul(tf.reshape(x, [1, 2, 3]),
                                                     tf.reshape(C32, [1, 3, 2]))],
        "Sum": [lambda x: tf.reduce_sum(x, 1), lambda x: tf.reduce_sum(x)],
        "Mean": [lambda x: tf.reduce_mean(x, 0, keepdims=True)],
        "Max": [lambda x: tf.reduce_max(x, -1)], "Min": [lambda x: tf.reduce_min(x)],
        "Prod": [lambda x: tf.reduce_prod(x, 1)],
        "EuclideanNorm": [lambda x: tf.math.reduce_euclidean_norm(x, 1)],
        "All": [lambda x: tf.reduce_all(x > 1.0, 1)], "Any": [lambda x: tf.reduce_any(x > 1.0)],
        "Reshape": [lambda x: tf.reshape(x, [3, 2]), lambda x: tf.reshape(x, [-1])],
        "Transpose": [tf.transpose], "ExpandDims": [lambda x: tf.expand_dims(x, 0),
                                                    lambda x: tf.expand_dims(x, -1)],
        "Squeeze": [lambda x: tf.squeeze(tf.reshape(x, [2, 1, 3])),
                    lambda x: tf.squeeze(tf.reshape(x, [2, 1, 3]), [-2])],
        "Unpack": [lambda x: tf.unstack(x, axis=1)],
        "Split": [lambda x: tf.split(x, 3, axis=1)[1]],
        "SplitV": [lambda x: tf.split(x, [1, 2], axis=-1)],
        "Cumsum": [lambda x: tf.math.cumsum(x, 1, reverse=True)],
        "Cumprod": [lambda x: tf.math.cumprod(x, 0, exclusive=True)],
        "CumulativeLogsumexp": [lambda x: tf.math.cumulative_logsumexp(x, 1, reverse=True)],
        "ReverseV2": [lambda x: tf.reverse(x, [1])], "Tile": [lambda x: tf.tile(x, [2, 1])],
        "Pad": [lambda x: tf.pad(x, [[1, 0], [0, 2]])],
        "MirrorPad": [lambda x: tf.pad(x, [[1, 1], [0, 0]], "REFLECT")],
        "StridedSlice": [lambda x: x[:, ::2], lambda x: x[1], lambda x: x[..., None, 1:]],
        "Slice": [lambda x: tf.slice(x, [0, 1], [2, 2])],
        "BroadcastTo": [lambda x: tf.broadcast_to(x[0], [4, 3])],
        "GatherV2": [lambda x: tf.gather(x, [2, 0], axis=1), lambda x: tf.gather(x, [1, 1])],
        "BiasAdd": [lambda x: tf.nn.bias_add(x, C3), lambda x: tf.nn.bias_add(C23, x[0])],
        "BiasAddGrad": [lambda x: apply_op("BiasAddGrad", [x], {"data_format": "NHWC"})],
        "UnsortedSegmentSum": [lambda x: tf.math.unsorted_segment_sum(x, [1, 1], 3)],
        "Pack": [lambda x: tf.stack([x, C23], 1)], "ConcatV2": [
            lambda x: tf.concat([C23, x], 0),
            # an unbatched value whose shape is known at run time only
            lambda x: tf.concat([tf1.placeholder_with_default(C23, [None, 3]), x], 0)],
        "Fill": [lambda x: tf.fill([2, 2], x[0, 0])],
        "MatrixBandPart": [lambda x: tf.linalg.band_part(_spd(x), 0, -1)],
        "MatrixDiag": [lambda x: tf.linalg.diag(x[0])],
        "MatrixDiagPart": [lambda x: tf.linalg.diag_part(_spd(x))],
        "MatrixSetDiag": [lambda x: tf.linalg.set_diag(_spd(x), x[:, 0]),
                          lambda x: tf.linalg.set_diag(C22, x[:, 0])],
        "MatrixTriangularSolve": [lambda x: tf.linalg.triangular_solve(_spd(x), x),
                                  lambda x: tf.linalg.triangular_solve(C22 + 3.0, x)],
        "MatrixSolve": [lambda x: tf.linalg.solve(_spd(x), x)],
        "MatrixInverse": [lambda x: tf.linalg.inv(_spd(x))],
        "Cholesky": [lambda x: tf.linalg.cholesky(_spd(x))],
        "MatrixDeterminant": [lambda x: tf.linalg.det(_spd(x))],
        "MatrixSquareRoot": [lambda x: flowgrad.linalg.sqrtm(_spd(x))],
        "MatrixLogarithm": [lambda x: flowgrad.linalg.logm(tf.cast(_spd(x), tf.complex128))],
        "Einsum": [lambda x: tf.einsum("ij,kj->ik", x, C23),
                   lambda x: tf.einsum("...j,j->...", x, C3),
                   lambda x: tf.einsum("ij,ij->", x, x)],
        "Conv2D": [lambda x: tf.nn.conv2d(_image(x), W2211, 1, "SAME")],
        "DepthwiseConv2dNative": [lambda x: tf.nn.depthwise_conv2d(_image(x), W2211, [1, 1, 1, 1],
                                                                   "VALID")],
        "MaxPool": [lambda x: tf.nn.max_pool2d(_image(x), 2, 1, "VALID")],
        "AvgPool": [lambda x: tf.nn.avg_pool2d(_image(x), 2, 1, "SAME")],
    })


    def _shape_user(op_type):
        def fn(x):
            s = apply_op(op_type, [x], {"out_type": tf.int32} if op_type != "Rank" else {})
            return tf.cast(s, tf.float64) + tf.reduce_sum(x)
        return fn


    VMAP_RECIPES.update({t: [_shape_user(t)] for t in ("Shape", "Size", "Rank")})
    return [OpInfo("vmap.%s%s" % (t, "" if len(fns) == 1 else ".%d" % i), fn, [ELEMS], op=t,
                   vmap=True, graph=0, eager=0)
            for t, fns in VMAP_RECIPES.items() for i, fn in enumerate(fns)]


# --------------------------------------------------------------------------------------
# Property-based fuzzing (hypothesis)

def _fuzz() -> list:
    """The elementwise and reduction families of the property-based tests (once
    tests/test_fuzz.py's _UNARY, _BINARY and _REDUCTIONS): hypothesis draws shapes,
    broadcasting pairs, axes, dtypes and values in each entry's domain."""
    tf = tf1

    def _lowest(x):
        return -np.inf if x.dtype.kind == "f" else np.iinfo(x.dtype).min

    def _highest(x):
        return np.inf if x.dtype.kind == "f" else np.iinfo(x.dtype).max

    unary = [
        # (name, op type, flowgrad function, NumPy reference, domain, integer-valid)
        ("negative", "Neg", tf.negative, np.negative, (-2, 2), True),
        ("abs", "Abs", tf.abs, np.abs, (-2, 2), True),
        ("square", "Square", tf.square, np.square, (-2, 2), True),
        ("exp", "Exp", tf.exp, np.exp, (-2, 2), False),
        ("expm1", "Expm1", tf.math.expm1, np.expm1, (-2, 2), False),
        ("log", "Log", tf.log, np.log, (0.2, 3), False),
        ("log1p", "Log1p", tf.math.log1p, np.log1p, (0.2, 3), False),
        ("sqrt", "Sqrt", tf.sqrt, np.sqrt, (0.2, 3), False),
        ("rsqrt", "Rsqrt", tf.math.rsqrt, lambda x: 1 / np.sqrt(x), (0.2, 3), False),
        ("reciprocal", "Reciprocal", tf.math.reciprocal, np.reciprocal, (0.3, 3), False),
        ("tanh", "Tanh", tf.tanh, np.tanh, (-2, 2), False),
        ("sigmoid", "Sigmoid", tf.sigmoid, lambda x: 1 / (1 + np.exp(-x)), (-2, 2), False),
        ("sin", "Sin", tf.sin, np.sin, (-2, 2), False),
        ("cos", "Cos", tf.cos, np.cos, (-2, 2), False),
        ("softplus", "Softplus", tf.nn.softplus, lambda x: np.log1p(np.exp(x)), (-2, 2), False),
    ]
    binary = [
        # (name, op type, flowgrad function, NumPy reference, (x domain, y domain), int-valid)
        ("add", "AddV2", tf.add, np.add, ((-2, 2), (-2, 2)), True),
        ("subtract", "Sub", tf.subtract, np.subtract, ((-2, 2), (-2, 2)), True),
        ("multiply", "Mul", tf.multiply, np.multiply, ((-2, 2), (-2, 2)), True),
        ("divide", "RealDiv", tf.divide, np.divide, ((-2, 2), (0.3, 2)), False),
        ("maximum", "Maximum", tf.maximum, np.maximum, ((-2, 2), (-2, 2)), True),
        ("minimum", "Minimum", tf.minimum, np.minimum, ((-2, 2), (-2, 2)), True),
        ("squared_difference", "SquaredDifference", tf.squared_difference,
         lambda x, y: np.square(x - y), ((-2, 2), (-2, 2)), True),
        ("pow", "Pow", tf.pow, np.power, ((0.3, 2), (-2, 2)), False),
    ]
    reductions = [
        # (name, op type, flowgrad function, NumPy reference, integer-valid); over nothing,
        # TensorFlow's max is the dtype's lowest, its min the highest, its mean NaN
        ("reduce_sum", "Sum", tf.reduce_sum, np.sum, True),
        ("reduce_mean", "Mean", tf.reduce_mean, np.mean, False),
        ("reduce_max", "Max", tf.reduce_max,
         lambda x, **kw: np.max(x, initial=_lowest(x), **kw), True),
        ("reduce_min", "Min", tf.reduce_min,
         lambda x, **kw: np.min(x, initial=_highest(x), **kw), True),
        ("reduce_prod", "Prod", tf.reduce_prod, np.prod, True),
        ("reduce_logsumexp", None, tf.reduce_logsumexp,      # composite: no op of its own
         lambda x, axis, keepdims: np.log(np.sum(np.exp(x), axis=axis, keepdims=keepdims)),
         False),
    ]
    return ([OpInfo("fuzz." + n, fn, (), op=op, graph=0, eager=0, fuzz="unary", ref=ref,
                    domain=d, ints=i) for n, op, fn, ref, d, i in unary]
            + [OpInfo("fuzz." + n, fn, (), op=op, graph=0, eager=0, fuzz="binary", ref=ref,
                      domain=d, ints=i) for n, op, fn, ref, d, i in binary]
            + [OpInfo("fuzz." + n, fn, (), op=op, graph=0, eager=0, fuzz="reduction",
                      ref=ref, ints=i) for n, op, fn, ref, i in reductions])


def _ctc() -> list:
    """CTCLoss: first order only, as in TensorFlow (its fused gradient has no gradient;
    tests/test_ctc_ops.py checks that the second derivative raises LookupError)."""
    x = np.random.RandomState(3).normal(size=(3, 2, 4))
    return [OpInfo("ctc.ctc_loss", lambda lg: flowgrad.nn.ctc_loss(
        labels=[[1, 2], [3, 0]], logits=lg, label_length=[2, 1], logit_length=[3, 2],
        blank_index=0), [x], op="CTCLoss", graph=1, eager=1)]


def _incomplete_gamma() -> list:
    """igamma/igammac (in ``a`` to first order only: TensorFlow's IgammaGradA has no
    gradient), betainc in ``x`` and zeta in ``q`` (their only gradients, as TensorFlow's;
    tests/test_incomplete_gamma.py checks the None ones)."""
    math = flowgrad.math
    a, x = np.array([0.7, 2.0, 5.0, 3.5]), np.array([0.4, 1.5, 7.0, 2.0])
    b, u = np.array([1.5, 3.0, 0.8, 2.0]), np.array([0.3, 0.6, 0.45, 0.9])
    return [
        OpInfo("incomplete_gamma.igamma_x", lambda t: math.igamma(a, t), [x], op="Igamma",
               jvp=True),
        OpInfo("incomplete_gamma.igammac_x", lambda t: math.igammac(a, t), [x], op="Igammac",
               jvp=True),
        OpInfo("incomplete_gamma.igamma_a", lambda t: math.igamma(t, x), [a], op="Igamma",
               graph=1, eager=1),
        OpInfo("incomplete_gamma.igammac_a", lambda t: math.igammac(t, x), [a], op="Igammac",
               graph=1, eager=1),
        OpInfo("incomplete_gamma.betainc_x", lambda t: math.betainc(a, b, t), [u],
               op="Betainc", jvp=True),
        OpInfo("incomplete_gamma.zeta_q", lambda t: math.zeta(b + 1.5, t), [x], op="Zeta",
               jvp=True),
    ]


def _linalg_gaps() -> list:
    """The LU composites (through the packed factors and the right-hand side), Diag and
    DiagPart, and tf.linalg.normalize (both outputs)."""
    linalg = flowgrad.linalg
    rng = np.random.RandomState(11)
    a = rng.randn(2, 3, 3) + 3.0 * np.eye(3)
    lu, perm = (v.numpy() if hasattr(v, "numpy") else v for v in _lu_factors(a))
    rhs = rng.randn(2, 3, 2)
    d = rng.randn(2, 3)

    def normalized(x: Any) -> Any:
        n, norm = linalg.normalize(x, axis=-1)
        return n * norm[..., :1] ** 2 + norm
    return [
        OpInfo("linalg_gaps.lu_solve", lambda f, b: linalg.lu_solve(f, perm, b), [lu, rhs],
               op="MatrixTriangularSolve"),
        OpInfo("linalg_gaps.lu_reconstruct", lambda f: linalg.lu_reconstruct(f, perm), [lu],
               op="BatchMatMulV2"),
        OpInfo("linalg_gaps.lu_matrix_inverse", lambda f: linalg.lu_matrix_inverse(f, perm),
               [lu], op="MatrixTriangularSolve"),
        OpInfo("linalg_gaps.tensor_diag", lambda x: linalg.tensor_diag(x) ** 2, [d], op="Diag",
               jvp=True),
        OpInfo("linalg_gaps.tensor_diag_part",
               lambda x: linalg.tensor_diag_part(x) ** 2, [rng.randn(2, 3, 2, 3)],
               op="DiagPart", jvp=True),
        OpInfo("linalg_gaps.normalize", normalized, [rng.randn(3, 4)], op="RealDiv"),
        OpInfo("linalg_gaps.tridiagonal_matmul", linalg.tridiagonal_matmul,
               [rng.randn(2, 3, 4), rng.randn(2, 4, 2)], op="ConcatV2"),
        OpInfo("linalg_gaps.tridiagonal_matmul_matrix",
               lambda m, x: linalg.tridiagonal_matmul(m, x, diagonals_format="matrix"),
               [rng.randn(4, 4), rng.randn(4, 3)], op="MatrixDiagPart"),
        OpInfo("linalg_gaps.tridiagonal_solve", linalg.tridiagonal_solve,
               [rng.randn(2, 3, 4) + np.array([0.0, 4.0, 0.0])[:, None], rng.randn(2, 4, 2)],
               op="TridiagonalSolve", jvp=True),
    ]


def _matrix_functions() -> list:
    """tf.linalg.sqrtm (MatrixSquareRoot: its gradient solves TensorFlow's Sylvester
    equation), of a batch of symmetric positive definite matrices and of a non-symmetric one
    whose eigenvalues are away from the negative real axis."""
    rng = np.random.RandomState(12)
    g = rng.randn(2, 3, 3)
    spd = g @ np.swapaxes(g, -1, -2) + 3.0 * np.eye(3)
    general = rng.randn(3, 3) * 0.3 + 2.0 * np.eye(3)
    return [
        OpInfo("matrix_functions.sqrtm_spd", flowgrad.linalg.sqrtm, [spd],
               op="MatrixSquareRoot", jvp=True),
        OpInfo("matrix_functions.sqrtm_general", flowgrad.linalg.sqrtm, [general],
               op="MatrixSquareRoot"),
    ]


def _tf2_gaps() -> list:
    """The TF2 API gaps of issue 23: SpaceToBatchND / BatchToSpaceND (padding, cropping,
    remaining dimensions), tf.signal's MDCT and its inverse (compositions) and
    tf.math.special's functions (on (0.3, 3), inside every domain)."""
    tf = flowgrad
    rng = np.random.RandomState(13)
    return [
        OpInfo("tf2_gaps.space_to_batch_nd",
               lambda x: tf.space_to_batch_nd(x, [2, 2], [[1, 0], [0, 1]]) ** 2,
               [rng.randn(2, 3, 3, 2)], op="SpaceToBatchND", jvp=True),
        OpInfo("tf2_gaps.batch_to_space_nd",
               lambda x: tf.batch_to_space(x, [2, 1], [[1, 0], [0, 1]]) ** 2,
               [rng.randn(4, 2, 3, 2)], op="BatchToSpaceND", jvp=True),
        OpInfo("tf2_gaps.mdct", lambda x: tf.signal.mdct(x, 8, pad_end=True) ** 2,
               [rng.randn(2, 13)]),
        OpInfo("tf2_gaps.inverse_mdct",
               lambda x: tf.signal.inverse_mdct(x, norm="ortho") ** 2, [rng.randn(3, 4)]),
    ] + [OpInfo("tf2_gaps.special_%s" % name, getattr(tf.math.special, name),
                [rng.uniform(0.3, 3.0, (2, 3))], op=op, jvp=True)
         for name, op in (("bessel_j0", "BesselJ0"), ("bessel_j1", "BesselJ1"),
                          ("bessel_y0", "BesselY0"), ("bessel_y1", "BesselY1"),
                          ("bessel_k0", "BesselK0"), ("bessel_k0e", "BesselK0e"),
                          ("bessel_k1", "BesselK1"), ("bessel_k1e", "BesselK1e"),
                          ("dawsn", "Dawsn"), ("expint", "Expint"),
                          ("fresnel_cos", "FresnelCos"), ("fresnel_sin", "FresnelSin"),
                          ("spence", "Spence"))]


def _matrix_diag() -> list:
    """tf.linalg.diag / diag_part / set_diag with ``k`` and bands (MatrixDiagV3,
    MatrixDiagPartV3, MatrixSetDiagV3): each one's gradient is another of them."""
    tf = flowgrad
    rng = np.random.RandomState(37)
    return [
        OpInfo("matrix_diag.diag_band", lambda d: tf.linalg.diag(
            d, k=(-1, 1), num_rows=4, align="LEFT_RIGHT") ** 2, [rng.randn(2, 3, 3)],
            op="MatrixDiagV3", jvp=True),
        OpInfo("matrix_diag.diag_part_k", lambda x: tf.linalg.diag_part(
            x, k=(-1, 2), padding_value=0.5) ** 2, [rng.randn(2, 3, 5)],
            op="MatrixDiagPartV3", jvp=True),
        OpInfo("matrix_diag.set_diag_k", lambda x, d: tf.linalg.set_diag(x, d, k=1) ** 2,
               [rng.randn(3, 4), rng.randn(3)], op="MatrixSetDiagV3", jvp=True),
    ]


def _fake_quant() -> list:
    """tf.quantization's fake-quantization gradient ops, linear in the incoming gradient
    (inputs away from the nudged ranges' ends); the forward ops' straight-through gradients
    are in NO_GRADIENT_CHECK, their JVPs checked here."""
    tf = flowgrad
    rng = np.random.RandomState(31)
    x = np.array([[-2.3, -0.61, 0.02, 0.77], [1.41, 2.9, -1.12, 0.33], [0.5, -0.2, 3.3, 1.9]])
    lo, hi = np.array([-1.0, -0.5, 0.2, -1.5]), np.array([1.0, 2.0, 1.7, 1.0])
    bits = {"num_bits": 4, "narrow_range": True}

    def flat(outs):
        return tf.concat([tf.reshape(o, [-1]) for o in outs], 0)

    cases = [
        OpInfo("fake_quant.args_gradient", lambda g: apply_op(
            "FakeQuantWithMinMaxArgsGradient", [g, tf.constant(x)],
            {"min": -1.0, "max": 1.5, **bits}) ** 2, [rng.randn(3, 4)],
            op="FakeQuantWithMinMaxArgsGradient", jvp=True),
        OpInfo("fake_quant.vars_gradient", lambda g: flat(apply_op(
            "FakeQuantWithMinMaxVarsGradient", [g, tf.constant(x), tf.constant(-1.0, tf.float64),
                                                tf.constant(1.5, tf.float64)], bits)) ** 2,
            [rng.randn(3, 4)], op="FakeQuantWithMinMaxVarsGradient", jvp=True),
        OpInfo("fake_quant.vars_per_channel_gradient", lambda g: flat(apply_op(
            "FakeQuantWithMinMaxVarsPerChannelGradient",
            [g, tf.constant(x), tf.constant(lo), tf.constant(hi)], bits)) ** 2,
            [rng.randn(3, 4)], op="FakeQuantWithMinMaxVarsPerChannelGradient", jvp=True),
    ]
    ste = "straight-through estimator: the gradient is not the step function's derivative"
    return cases + [
        OpInfo("fake_quant.args", lambda v: apply_op(
            "FakeQuantWithMinMaxArgs", [v], {"min": -1.0, "max": 1.5, **bits}),
            [x], op="FakeQuantWithMinMaxArgs", graph=0, eager=0, jvp=True, why=ste),
        OpInfo("fake_quant.vars", lambda v, a, b: apply_op(
            "FakeQuantWithMinMaxVars", [v, a, b], bits),
            [x, np.array(-1.0), np.array(1.5)], op="FakeQuantWithMinMaxVars", graph=0,
            eager=0, jvp=True, why=ste),
        OpInfo("fake_quant.vars_per_channel", lambda v, a, b: apply_op(
            "FakeQuantWithMinMaxVarsPerChannel", [v, a, b], bits),
            [x, lo, hi], op="FakeQuantWithMinMaxVarsPerChannel", graph=0, eager=0, jvp=True,
            why=ste)]


def _lu_factors(a: np.ndarray) -> tuple:
    """tf.linalg.lu of ``a`` as arrays (evaluated in a graph of its own)."""
    with flowgrad.Graph().as_default():
        lu, perm = flowgrad.linalg.lu(a)
        with tf1.Session() as sess:
            return sess.run([lu, perm])


# --------------------------------------------------------------------------------------
# The database

_FAMILIES = [_core_math, _math, _array, _nn, _conv, _control_flow, _distributions,
             _image_resize, _kerasops_array, _kerasops_linalg, _kerasops_math, _kerasops_nn,
             _signal, _linalg, _pooling, _sort_segment, _tensor_array, _tf1_gaps,
             _special_math, _recipes, _ctc, _incomplete_gamma, _linalg_gaps,
             _image_transform, _sampled_losses, _partition,
             _matrix_functions, _sparse_fill,
             _tf2_gaps, _complex, _fake_quant, _matrix_diag,
             _vmap, _fuzz]

OP_DB: list[OpInfo] = [e for family in _FAMILIES for e in family()]

#: Differentiable op types without a gradient-checked entry, and why.
_GAMMA_SAMPLE = ("a reparameterization gradient (d sample / d alpha at fixed CDF), not the "
                 "derivative of the rejection loop: tests/test_random_rejection.py checks it "
                 "against finite differences of the inverse CDF; no second order (TensorFlow's "
                 "RandomGammaGrad has no gradient)")

NO_GRADIENT_CHECK: dict[str, str] = {
    "RandomGamma": _GAMMA_SAMPLE,
    "StatelessRandomGammaV2": _GAMMA_SAMPLE,
    "StatelessRandomGammaV3": _GAMMA_SAMPLE,
    "ConjugateTranspose": "complex-only in TensorFlow; real inputs make a Transpose",
    "MatrixSolveLs": "lstsq(fast=False) has no gradient, as in TensorFlow (its gradient "
                     "function raises; tests/test_linalg_ops.py)",
    **{op: "TensorFlow's straight-through estimator, not the step function's derivative: "
           "tests/test_fake_quant.py pins it against TF 2.21; its *Gradient op is checked"
       for op in ("FakeQuantWithMinMaxArgs", "FakeQuantWithMinMaxVars",
                  "FakeQuantWithMinMaxVarsPerChannel")},
}

#: Differentiable op types without a ``jvp`` entry, and why.
NO_JVP_CHECK: dict[str, str] = {
    "RandomGamma": _GAMMA_SAMPLE,
    "StatelessRandomGammaV2": _GAMMA_SAMPLE,
    "StatelessRandomGammaV3": _GAMMA_SAMPLE,
    "BroadcastToShapeOf": "internal gradient helper (broadcast to another tensor's shape)",
    "ReduceToShapeOf": "internal gradient helper (sum down to another tensor's shape)",
    "PlaceholderWithDefault": "graph-mode placeholder: no eager primal to carry a tangent",
    "TensorArrayPadRows": "internal TensorArray op (covered through While/TensorArray)",
    "TensorArrayScatter": "internal TensorArray op (covered through While/TensorArray)",
    "MatrixSolveLs": "lstsq(fast=False) has no gradient, as in TensorFlow",
    "ConjugateTranspose": "complex-only in TensorFlow; real inputs make a Transpose",
    "CTCLoss": "forward mode goes through the gradient's gradient, which TensorFlow's fused "
               "CTC gradient does not have",
}


def entries(**flags: Any) -> list[OpInfo]:
    """The entries whose attributes equal ``flags`` (``graph=True``: a nonzero order)."""
    def match(e: OpInfo) -> bool:
        return all(bool(getattr(e, k)) if v is True else getattr(e, k) == v
                   for k, v in flags.items())
    return [e for e in OP_DB if match(e)]

