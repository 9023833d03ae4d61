"""tf.autodiff.ForwardAccumulator: JVPs against reverse-mode Jacobians, nesting, watch rules.

One table-driven test covers every differentiable op type in the registry: the
accumulator's jvp must equal the (looped) reverse-mode Jacobian times the tangent."""
import numpy as np
import pytest

import flowgrad as tf
from flowgrad.forward_mode import DERIVED, DIRECT, jvp_rule_kinds
from flowgrad.framework.context import state
from flowgrad.framework.op_call import apply_op

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


def _dconv(x, w):
    return tf.nn.depthwise_conv2d(_nhwc(x), tf.reshape(w, [2, 2, 1, 1]), [1, 1, 1, 1], "VALID")


def _while(x):
    return tf.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, y * tf.sin(y)),
                         (tf.constant(0), x))[1]


def _if(x):
    return tf.cond(tf.reduce_sum(x) > 0, lambda: tf.sin(x) * x, lambda: x * x)


def _argmax_pool(x):
    return tf.nn.max_pool_with_argmax(_nhwc(x), 2, 2, "VALID")[0]


_IDX = tf.constant([2, 0, 1])
_SEG = tf.constant([0, 0, 1, 2])

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
    "DepthwiseConv2dNative": (_dconv, [_a(16), _a(4)]),
    "DepthwiseConv2dNativeBackpropFilter": (_grad_of(_dconv, 1),
                                            [_a(16), _a(4), _a(1, 3, 3, 1)]),
    "DepthwiseConv2dNativeBackpropInput": (_grad_of(_dconv, 0),
                                           [_a(16), _a(4), _a(1, 3, 3, 1)]),
    "Digamma": (tf.math.digamma, [_pos(3) + 1]),
    "DivNoNan": (tf.math.divide_no_nan, [_a(3), _pos(3)]),
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
    "GatherGradAlongAxis": (lambda p, g: apply_op("GatherGradAlongAxis", [g, _IDX, p],
                                                  {"axis": 1}), [_a(2, 3), _a(2, 3)]),
    "GatherNd": (lambda p: tf.gather_nd(p, [[0, 1], [1, 2]]), [_a(2, 3)]),
    "SparseReduceSum": (lambda v: tf.sparse.reduce_sum(
        tf.SparseTensor([[0, 1], [1, 0]], v, [2, 2]), 1), [_a(2)]),
    "SparseReorder": (lambda v: tf.sparse.reorder(
        tf.SparseTensor([[1, 0], [0, 1]], v, [2, 2])).values, [_a(2)]),
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

EXCLUDED = {
    "BroadcastToShapeOf": "internal gradient helper (broadcast to another tensor's shape)",
    "ReduceToShapeOf": "internal gradient helper (sum down to another tensor's shape)",
    "PlaceholderWithDefault": "graph-mode placeholder: no eager primal to carry a tangent",
    "TensorArrayPadRows": "internal TensorArray op (covered through While/TensorArray)",
    "TensorArrayScatter": "internal TensorArray op (covered through While/TensorArray)",
    "MatrixSolveLs": "lstsq(fast=False) has no gradient, as in TensorFlow",
    "ConjugateTranspose": "complex-only in TensorFlow; real inputs make a Transpose",
}


@pytest.fixture(autouse=True)
def eager_mode():
    tf.compat.v1.enable_v2_behavior()
    yield
    state.tapes.clear()


def test_every_differentiable_op_has_a_recipe_or_a_reason():
    kinds = jvp_rule_kinds()
    assert set(kinds) - set(RECIPES) - set(EXCLUDED) == set()
    assert set(kinds.values()) == {DIRECT, DERIVED}
    assert kinds["Tanh"] == DIRECT and kinds["Conv2D"] == DERIVED


def _float_outputs(y):
    ys = y if isinstance(y, (list, tuple)) else [y]
    return [t for t in ys if t.dtype.is_floating]


def _traced_types(fn, vals):
    """The op types ``fn`` creates when traced into a graph."""
    g = tf.Graph()
    with g.as_default():
        fn(*[tf.constant(v) for v in vals])
    return {op.type for op in g.get_operations()}


@pytest.mark.parametrize("op_type", sorted(RECIPES))
def test_jvp_equals_jacobian_times_tangent(op_type):
    fn, vals = RECIPES[op_type]
    if op_type not in _traced_types(fn, vals):
        pytest.fail("the recipe of %s does not create that op" % op_type)
    xs = [tf.constant(v) for v in vals]
    ts = [tf.constant(R.uniform(-1, 1, size=np.shape(v))) for v in vals]
    with tf.autodiff.ForwardAccumulator(xs, ts) as acc:
        ys = _float_outputs(fn(*xs))
    jvps = [acc.jvp(y, unconnected_gradients="zero") for y in ys]
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(xs)
        ys2 = _float_outputs(fn(*xs))
    for y, jvp in zip(ys2, jvps):
        expected = np.zeros(y.shape.as_list())
        for x, t in zip(xs, ts):
            jac = tape.jacobian(y, x, experimental_use_pfor=False)
            if jac is not None:
                expected = expected + np.tensordot(jac.numpy(), t.numpy(), axes=t.shape.rank)
        np.testing.assert_allclose(jvp.numpy(), expected, rtol=1e-6, atol=1e-9,
                                   err_msg=op_type)


X = np.array([0.3, -1.2, 0.7])
V = np.array([1.0, 0.5, -2.0])


def _hvp_closed_form():
    t = np.tanh(X)
    return -2 * t * (1 - t * t) * V


def test_forward_over_reverse_hessian_vector_product():
    x, v = tf.constant(X), tf.constant(V)
    with tf.autodiff.ForwardAccumulator(x, v) as acc:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(tf.tanh(x))
        g = tape.gradient(y, x)
    np.testing.assert_allclose(acc.jvp(g).numpy(), _hvp_closed_form(), rtol=1e-12)


def test_reverse_over_forward_hessian_vector_product():
    x, v = tf.constant(X), tf.constant(V)
    with tf.GradientTape() as tape:
        tape.watch(x)
        with tf.autodiff.ForwardAccumulator(x, v) as acc:
            y = tf.reduce_sum(tf.tanh(x))
        jvp = acc.jvp(y)
    np.testing.assert_allclose(tape.gradient(jvp, x).numpy(), _hvp_closed_form(), rtol=1e-12)


def test_variables_are_primals_and_their_reads_carry_the_tangent():
    w = tf.Variable(X)
    with tf.autodiff.ForwardAccumulator(w, tf.constant(V)) as acc:
        y = tf.reduce_sum(w * w)
    assert acc.jvp(y).numpy() == pytest.approx(np.sum(2 * X * V))
    np.testing.assert_allclose(acc.jvp(w).numpy(), V)


def test_only_ops_run_inside_the_context_get_tangents():
    x = tf.constant(X)
    acc = tf.autodiff.ForwardAccumulator(x, tf.constant(V))
    outside = tf.sin(x)
    with acc:
        inside = tf.sin(x)
    after = tf.cos(x)
    assert acc.jvp(outside) is None and acc.jvp(after) is None
    np.testing.assert_allclose(acc.jvp(inside).numpy(), np.cos(X) * V)
    assert np.all(acc.jvp(after, unconnected_gradients="zero").numpy() == 0)
    with pytest.raises(ValueError, match="does not depend"):
        acc.jvp(after, unconnected_gradients="raise")


def test_stop_gradient_blocks_the_tangent():
    x = tf.constant(X)
    with tf.autodiff.ForwardAccumulator(x, tf.constant(V)) as acc:
        y = tf.stop_gradient(x) * 2.0
    assert acc.jvp(y) is None


def test_structures_and_bad_tangents():
    a, b = tf.constant(X), tf.constant(2 * X)
    with tf.autodiff.ForwardAccumulator({"a": a, "b": b}, {"a": tf.constant(V),
                                                           "b": tf.constant(V)}) as acc:
        y = a * b
    out = acc.jvp({"y": y, "a": a})
    np.testing.assert_allclose(out["y"].numpy(), V * 2 * X + X * V)
    with pytest.raises(ValueError, match="tangent shape"):
        tf.autodiff.ForwardAccumulator(a, tf.constant([1.0, 2.0], tf.float64))
    with pytest.raises(ValueError, match="same structure"):
        tf.autodiff.ForwardAccumulator([a, b], [tf.constant(V)])
    with pytest.raises(ValueError, match="floating"):
        tf.autodiff.ForwardAccumulator(tf.constant([1, 2]), tf.constant([1, 2]))


def test_inside_tf_function_with_a_derived_rule():
    @tf.function
    def f(x, v):
        with tf.autodiff.ForwardAccumulator(x, v) as acc:
            y = tf.reduce_sum(tf.math.erf(x) * tf.sin(x))
        return acc.jvp(y)

    x, v = tf.constant(X), tf.constant(V)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.math.erf(x) * tf.sin(x))
    expected = np.sum(tape.gradient(y, x).numpy() * V)
    assert f(x, v).numpy() == pytest.approx(expected, rel=1e-12)


def test_graph_mode_tf1():
    with tf.Graph().as_default():
        x = tf.constant(X)
        with tf.autodiff.ForwardAccumulator(x, tf.constant(V)) as acc:
            y = tf.matmul(tf.reshape(tf.tanh(x), [1, 3]), tf.reshape(x, [3, 1]))
        j = acc.jvp(y)
        with tf.compat.v1.Session() as sess:
            got = sess.run(j)
    t = np.tanh(X)
    assert got.item() == pytest.approx(np.sum(((1 - t * t) * X + t) * V))


def _eager_jvps(fn, xs, ts):
    with tf.autodiff.ForwardAccumulator(xs, ts) as acc:
        ys = _float_outputs(fn(*xs))
    return [acc.jvp(y, unconnected_gradients="zero").numpy() for y in ys]


@pytest.mark.parametrize("op_type", sorted(RECIPES))
def test_jvp_in_a_graph_equals_the_eager_jvp(op_type):
    """The same accumulator in a TF1 graph (tangents computed by walking its ops)."""
    fn, vals = RECIPES[op_type]
    tvals = [R.uniform(-1, 1, size=np.shape(v)) for v in vals]
    expected = _eager_jvps(fn, [tf.constant(v) for v in vals], [tf.constant(t) for t in tvals])
    with tf.Graph().as_default():
        xs = [tf.compat.v1.placeholder(tf.float64, np.shape(v)) for v in vals]
        with tf.autodiff.ForwardAccumulator(xs, [tf.constant(t) for t in tvals]) as acc:
            ys = _float_outputs(fn(*xs))
        jvps = [acc.jvp(y, unconnected_gradients="zero") for y in ys]
        with tf.compat.v1.Session() as sess:
            got = sess.run(jvps, dict(zip(xs, vals)))
    for a, b in zip(got, expected):
        np.testing.assert_allclose(a, b, rtol=1e-9, atol=1e-12, err_msg=op_type)


def test_forward_over_forward_gives_the_second_directional_derivative():
    x, v = tf.constant(X), tf.constant(V)
    with tf.autodiff.ForwardAccumulator(x, v) as outer:
        with tf.autodiff.ForwardAccumulator(x, v) as inner:
            y = tf.reduce_sum(tf.tanh(x))
        d1 = inner.jvp(y)
    t = np.tanh(X)
    assert d1.numpy() == pytest.approx(np.sum((1 - t * t) * V))
    assert outer.jvp(d1).numpy() == pytest.approx(np.sum(-2 * t * (1 - t * t) * V * V))


def test_tf_function_called_eagerly_inside_the_accumulator():
    @tf.function
    def f(x):
        return tf.reduce_sum(tf.sin(x) * x)

    x = tf.constant(X)
    with tf.autodiff.ForwardAccumulator(x, tf.constant(V)) as acc:
        y = f(x)
    assert acc.jvp(y).numpy() == pytest.approx(np.sum((np.cos(X) * X + np.sin(X)) * V))


def test_custom_gradient_ops_use_their_gradient_for_the_jvp():
    @tf.custom_gradient
    def scaled(x):
        return 3.0 * x, lambda dy: 5.0 * dy      # a deliberately different gradient

    x = tf.constant(X)
    with tf.autodiff.ForwardAccumulator(x, tf.constant(V)) as acc:
        y = scaled(x)
    np.testing.assert_allclose(acc.jvp(y).numpy(), 5.0 * V)


@pytest.mark.parametrize("fn", [tf.nn.softmax, tf.nn.log_softmax])
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_softmax_jvps_follow_the_axis(fn, axis):
    x, t = tf.constant(_a(3, 4)), tf.constant(_a(3, 4))
    with tf.autodiff.ForwardAccumulator(x, t) as acc:
        y = fn(x, axis=axis)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y2 = fn(x, axis=axis)
    jac = tape.jacobian(y2, x, experimental_use_pfor=False).numpy()
    np.testing.assert_allclose(acc.jvp(y).numpy(), np.tensordot(jac, t.numpy(), axes=2),
                               rtol=1e-6, atol=1e-9)
