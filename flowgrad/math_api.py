"""``tf.math`` of the TF2 face (``import flowgrad as tf``): TensorFlow 2's names and signatures.

The functions live in ``flowgrad.ops.math_ops`` (and ``nn_ops`` for the activations that
TensorFlow also lists under ``tf.math``); this module only gathers them under ``tf.math``'s
names. ``flowgrad.compat.v1_math`` is the TF1 face's ``tf.math``."""
from flowgrad.ops.math_ops import (
    abs,
    add,
    add_n,
    ceil,
    cos,
    count_nonzero,
    cumprod,
    cumsum,
    divide,
    divide_no_nan,
    equal,
    exp,
    expm1,
    floor,
    floordiv,
    floormod,
    greater,
    greater_equal,
    is_finite,
    is_inf,
    is_nan,
    less,
    less_equal,
    log,
    log1p,
    logical_and,
    logical_not,
    logical_or,
    logical_xor,
    maximum,
    minimum,
    mod,
    multiply,
    negative,
    not_equal,
    pow,
    reciprocal,
    reduce_all,
    reduce_any,
    reduce_euclidean_norm,
    reduce_logsumexp,
    reduce_max,
    reduce_mean,
    reduce_min,
    reduce_prod,
    reduce_std,
    reduce_sum,
    reduce_variance,
    rint,
    round,
    rsqrt,
    scalar_mul,
    sigmoid,
    sign,
    sin,
    sqrt,
    square,
    squared_difference,
    subtract,
    tan,
    tanh,
    truediv,
)
from flowgrad.ops.math_ops import argmax_v2 as argmax
from flowgrad.ops.math_ops import argmin_v2 as argmin
from flowgrad.ops.nn_ops import log_softmax, softmax, softplus, softsign
from flowgrad.ops.nn_ops import in_top_k_v2 as in_top_k
from flowgrad.ops.special_math_ops import (digamma, erf, erfc, erfinv, lgamma, ndtri,
                                           polygamma)
from flowgrad.ops.array_ops import unsorted_segment_sum
from flowgrad.ops.segment_ops import (segment_max, segment_mean, segment_min, segment_sum,
                                     unsorted_segment_max, unsorted_segment_mean,
                                     unsorted_segment_min)
from flowgrad.ops.sort_ops import top_k
from flowgrad.ops.bessel_ops import bessel_i0, bessel_i0e, bessel_i1, bessel_i1e
from flowgrad.ops.complex_ops import angle, conj, imag, real
from flowgrad.ops.elementwise_ops import nextafter
from flowgrad.ops.nn_ops import log_sigmoid
from flowgrad.ops.segment_ops import segment_prod, unsorted_segment_prod
from flowgrad.ops.bucket_ops import bincount
from flowgrad.ops.trig_ops import acos, acosh, asin, asinh, atan, atan2, atanh, cosh, sinh
# tf.math's names for functions flowgrad keeps with other ops (the same functions in TensorFlow)
from flowgrad.ops.array_ops import invert_permutation
from flowgrad.ops.nn_impl import l2_normalize, zero_fraction

from flowgrad.ops.confusion_matrix_ops import confusion_matrix
from flowgrad.ops.special_math_ops import erfcinv, lbeta, polyval
from flowgrad.ops.arithmetic_ops import reciprocal_no_nan
from flowgrad.ops.check_ops import is_non_decreasing, is_strictly_increasing
from flowgrad.ops.safe_division_ops import multiply_no_nan, xdivy, xlog1py, xlogy
from flowgrad.ops.logsumexp_ops import cumulative_logsumexp

__all__ = [
    "abs", "add", "add_n", "argmax", "argmin", "ceil", "cos", "count_nonzero", "cumprod",
    "cumsum", "digamma", "divide", "divide_no_nan", "equal", "erf", "erfc", "erfinv",
    "lgamma", "ndtri", "polygamma", "exp", "expm1", "floor",
    "floordiv",
    "floormod", "greater", "greater_equal", "in_top_k", "is_finite", "is_inf", "is_nan", "less",
    "less_equal", "log", "log1p", "log_softmax", "logical_and", "logical_not", "logical_or",
    "logical_xor", "maximum", "minimum", "mod", "multiply", "negative", "not_equal", "pow",
    "reciprocal", "reduce_all", "reduce_any", "reduce_euclidean_norm", "reduce_logsumexp",
    "reduce_max", "reduce_mean", "reduce_min", "reduce_prod", "reduce_std", "reduce_sum",
    "reduce_variance", "rint", "round", "rsqrt", "scalar_mul", "sigmoid", "sign", "sin",
    "softmax", "softplus", "softsign", "sqrt", "square", "squared_difference", "subtract",
    "tan", "tanh", "truediv", "segment_max", "segment_mean", "segment_min", "segment_sum",
    "unsorted_segment_max", "unsorted_segment_mean", "unsorted_segment_min",
    "unsorted_segment_sum", "top_k", "invert_permutation", "l2_normalize", "zero_fraction",
    "bessel_i0", "bessel_i0e", "bessel_i1", "bessel_i1e", "angle", "conj", "imag", "real",
    "nextafter", "log_sigmoid", "segment_prod", "unsorted_segment_prod", "acos", "acosh",
    "asin", "asinh", "atan", "atan2", "atanh", "cosh", "sinh", "bincount",
    "confusion_matrix", "cumulative_logsumexp",
    "erfcinv", "lbeta", "reciprocal_no_nan", "is_non_decreasing", "is_strictly_increasing",
    "multiply_no_nan", "polyval", "xdivy", "xlog1py", "xlogy",
]
