"""tf.image resizing against TensorFlow 2.21's numbers (tests/data/image/reference.npz, made by
tools/tf_reference/record_image.py), and numerical gradient checks of the resize ops.

The numerical gradient checks of the image_resize cases are entries of tests/op_db.py."""
from __future__ import annotations

import pathlib
import sys

import numpy as np
import pytest

import flowgrad
import flowgrad.compat.v1 as tf
from flowgrad.framework.context import state
from flowgrad.framework.errors import InvalidArgumentError
from flowgrad.framework.op_call import apply_op

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

REF = np.load(pathlib.Path(__file__).resolve().parent / "data" / "image" / "reference.npz")
IMG = REF["in_img"]
METHODS = ("bilinear", "nearest", "bicubic", "area", "lanczos3", "lanczos5", "gaussian",
           "mitchellcubic")
SIZES = {"up": (9, 11), "down": (3, 4), "mixed": (4, 10)}


@pytest.fixture
def eager():
    tf.enable_v2_behavior()
    yield
    state.tapes.clear()


def _close(got, want, tol=2e-6):
    assert got.shape == want.shape and got.dtype == want.dtype, (got.shape, got.dtype,
                                                                 want.shape, want.dtype)
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol)


@pytest.mark.parametrize("tag", sorted(SIZES))
@pytest.mark.parametrize("antialias", [False, True])
@pytest.mark.parametrize("method", METHODS)
def test_resize_matches_tensorflow(eager, method, antialias, tag):
    key = "resize_%s_%s_%s" % (method, "aa" if antialias else "plain", tag)
    x = flowgrad.constant(IMG)
    with flowgrad.GradientTape() as tape:
        tape.watch(x)
        y = flowgrad.image.resize(x, SIZES[tag], method=method, antialias=antialias)
        s = flowgrad.reduce_sum(y * REF["in_wgt_" + tag])
    _close(y.numpy(), REF[key])
    if key + "_grad" in REF.files:
        _close(tape.gradient(s, x).numpy(), REF[key + "_grad"], 1e-5)
    else:  # ResizeArea has no gradient, as in TensorFlow
        with pytest.raises(LookupError):
            tape.gradient(s, x)


@pytest.mark.parametrize("tag", sorted(SIZES))
@pytest.mark.parametrize("centers", [(False, False), (True, False), (False, True)])
def test_raw_resize_ops_match_tensorflow(eager, tag, centers):
    ac, hp = centers
    suffix = "%s_ac%d_hp%d" % (tag, ac, hp)
    v1 = tf.image
    x, size = flowgrad.constant(IMG), list(SIZES[tag])
    _close(v1.resize_bilinear(x, size, ac, half_pixel_centers=hp).numpy(),
           REF["v1_bilinear_" + suffix])
    _close(v1.resize_nearest_neighbor(x, size, ac, half_pixel_centers=hp).numpy(),
           REF["v1_nearest_" + suffix])
    _close(v1.resize_bicubic(x, size, ac, half_pixel_centers=hp).numpy(),
           REF["v1_bicubic_" + suffix])
    if not hp:
        _close(v1.resize_area(x, size, ac).numpy(), REF["v1_area_" + suffix])
    g = flowgrad.constant(REF["in_wgt_" + tag])
    attrs = {"align_corners": ac, "half_pixel_centers": hp}
    _close(apply_op("ResizeBilinearGrad", (g, x), attrs).numpy(),
           REF["v1_bilinear_grad_" + suffix], 1e-5)
    _close(apply_op("ResizeBicubicGrad", (g, x), attrs).numpy(),
           REF["v1_bicubic_grad_" + suffix], 1e-5)
    _close(apply_op("ResizeNearestNeighborGrad", (g, flowgrad.constant([5, 7])), attrs).numpy(),
           REF["v1_nearest_grad_" + suffix], 1e-5)


def test_resize_variants_match_tensorflow(eager):
    im = flowgrad.image
    u8, x = REF["in_u8"], IMG
    _close(im.resize(u8, (9, 5)).numpy(), REF["resize_u8_bilinear"], 1e-4)
    _close(im.resize(u8, (9, 5), method="nearest").numpy(), REF["resize_u8_nearest"])
    _close(im.resize(x, (10, 10), preserve_aspect_ratio=True).numpy(), REF["resize_aspect"])
    _close(im.resize_with_pad(x, 8, 6).numpy(), REF["resize_with_pad"])
    _close(im.resize_with_crop_or_pad(x, 4, 9).numpy(), REF["resize_with_crop_or_pad"])
    _close(tf.image.resize_images(x, (9, 11)).numpy(), REF["v1_resize_images"])
    _close(tf.image.resize_image_with_pad(x, 8, 6).numpy(), REF["v1_resize_with_pad"])
    st = apply_op("ScaleAndTranslate", (flowgrad.constant(x), flowgrad.constant([6, 9]),
                                        flowgrad.constant([1.3, 0.8]),
                                        flowgrad.constant([0.4, -1.1])),
                  {"kernel_type": "lanczos3", "antialias": True})
    _close(st.numpy(), REF["scale_translate"])


def test_resize_methods_and_dtypes(eager):
    im = flowgrad.image
    x64 = IMG.astype(np.float64)
    assert im.resize(x64, (3, 3)).dtype == flowgrad.float32     # as TensorFlow
    assert im.resize(REF["in_u8"], (3, 3), "nearest").dtype == flowgrad.uint8
    assert im.ResizeMethod.BICUBIC == "bicubic" and tf.image.ResizeMethod.AREA == 3
    y = im.resize(IMG[0], (4, 4), im.ResizeMethod.BICUBIC)
    assert y.shape == (4, 4, 3)
    # TF2's resize always resizes; TF1's resize_images returns the input when sizes agree
    assert tf.image.resize_images(IMG, (5, 7)).numpy() is not None
    with pytest.raises(ValueError, match="not implemented"):
        im.resize(IMG, (3, 3), method="cubic")
    with pytest.raises(ValueError, match="3 or 4 dimensions"):
        im.resize(IMG[0, 0], (3, 3))
    with pytest.raises(InvalidArgumentError, match="align_corners must be False"):
        tf.image.resize_bilinear(IMG, (3, 3), align_corners=True, half_pixel_centers=True)
    with pytest.raises(InvalidArgumentError, match="positive"):
        tf.image.resize_bilinear(IMG, (0, 3))


def test_resize_graph_mode_static_shape():
    x = tf.placeholder(tf.float32, [None, 5, 7, 3])
    y = flowgrad.image.resize(x, (9, 11))
    assert y.shape.as_list() == [None, 9, 11, 3]
    with tf.Session() as sess:
        got = sess.run(y, {x: IMG})
    _close(got, REF["resize_bilinear_plain_up"])


X64 = np.random.RandomState(1).uniform(size=(1, 4, 5, 2))


def test_resize_jvp_is_the_resize_of_the_tangent(eager):
    x = flowgrad.constant(X64)
    t = flowgrad.constant(np.ones_like(X64))
    with flowgrad.autodiff.ForwardAccumulator(x, t) as acc:
        y = flowgrad.image.resize(x, (3, 7), method="bicubic")
    np.testing.assert_allclose(acc.jvp(y).numpy(),
                               flowgrad.image.resize(t, (3, 7), method="bicubic").numpy(),
                               rtol=1e-6)
