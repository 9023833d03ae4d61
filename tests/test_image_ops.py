"""tf.image colour, dtype, crop/flip and quality functions against TensorFlow 2.21's numbers
(tests/data/image/reference.npz, made by tools/tf_reference/record_image.py), the gradient of
RGBToHSV, and the random augmentations' contracts."""
from __future__ import annotations

import pathlib
import sys

import numpy as np
import pytest

import flowgrad
import flowgrad.compat.v1 as tf
from flowgrad.framework.context import state

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from gradcheck import check_gradients  # noqa: E402

REF = np.load(pathlib.Path(__file__).resolve().parent / "data" / "image" / "reference.npz")
IMG = REF["in_img"]
X, U8 = IMG[0], REF["in_u8"]
im = flowgrad.image


@pytest.fixture
def eager():
    tf.enable_v2_behavior()
    yield
    state.tapes.clear()


def _close(got, want, tol=2e-6):
    got = got.numpy() if hasattr(got, "numpy") else np.asarray(got)
    assert got.shape == want.shape and got.dtype == want.dtype, (got.shape, got.dtype,
                                                                 want.shape, want.dtype)
    if want.dtype.kind in "iu":
        np.testing.assert_array_equal(got, want)
    else:
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol)


COLOUR = [
    ("adjust_brightness", lambda: im.adjust_brightness(X, 0.2)),
    ("adjust_contrast", lambda: im.adjust_contrast(X, 1.7)),
    ("adjust_saturation", lambda: im.adjust_saturation(X, 0.4)),
    ("adjust_saturation_up", lambda: im.adjust_saturation(X, 2.5)),
    ("adjust_hue", lambda: im.adjust_hue(X, 0.13)),
    ("adjust_hue_neg", lambda: im.adjust_hue(X, -0.4)),
    ("adjust_gamma", lambda: im.adjust_gamma(X, 0.8, 1.2)),
    ("adjust_brightness_u8", lambda: im.adjust_brightness(U8, 0.2)),
    ("adjust_contrast_u8", lambda: im.adjust_contrast(U8, 1.7)),
    ("adjust_saturation_u8", lambda: im.adjust_saturation(U8, 0.4)),
    ("adjust_hue_u8", lambda: im.adjust_hue(U8, 0.13)),
    ("adjust_gamma_u8", lambda: im.adjust_gamma(U8, 0.8, 1.2)),
    ("rgb_to_grayscale", lambda: im.rgb_to_grayscale(X)),
    ("rgb_to_grayscale_u8", lambda: im.rgb_to_grayscale(U8)),
    ("rgb_to_hsv", lambda: im.rgb_to_hsv(X)),
    ("hsv_to_rgb", lambda: im.hsv_to_rgb(X)),
    ("rgb_to_yuv", lambda: im.rgb_to_yuv(X)),
    ("yuv_to_rgb", lambda: im.yuv_to_rgb(X)),
    ("rgb_to_yiq", lambda: im.rgb_to_yiq(X)),
    ("per_image_standardization", lambda: im.per_image_standardization(IMG)),
    ("per_image_standardization_u8", lambda: im.per_image_standardization(U8)),
    ("total_variation", lambda: im.total_variation(IMG)),
    ("image_gradients_dy", lambda: im.image_gradients(IMG)[0]),
    ("image_gradients_dx", lambda: im.image_gradients(IMG)[1]),
    ("sobel_edges", lambda: im.sobel_edges(IMG)),
    ("psnr", lambda: im.psnr(REF["in_big"], REF["in_big2"], max_val=1.0)),
    ("ssim", lambda: im.ssim(REF["in_big"], REF["in_big2"], max_val=1.0)),
    ("ssim_small_filter", lambda: im.ssim(REF["in_big"], REF["in_big2"], 1.0, filter_size=5,
                                          filter_sigma=1.0)),
    ("central_crop", lambda: im.central_crop(IMG, 0.6)),
    ("ssim_multiscale", lambda: im.ssim_multiscale(REF["in_big"], REF["in_big2"], 1.0,
                                                   power_factors=(0.3, 0.7), filter_size=5)),
]


@pytest.mark.parametrize("key,fn", COLOUR, ids=[c[0] for c in COLOUR])
def test_matches_tensorflow(eager, key, fn):
    _close(fn(), REF[key], 1e-5)


CONVERT = sorted(k for k in REF.files if k.startswith("convert_"))


@pytest.mark.parametrize("key", CONVERT)
def test_convert_image_dtype_matches_tensorflow(eager, key):
    _, name, dt, sat = key.split("_")
    src = {"floats": REF["in_floats"], "ints": REF["in_ints"], "u8": U8}[name]
    want = REF[key]
    got = im.convert_image_dtype(src, dt, saturate=sat == "sat1").numpy()
    if name == "floats" and not sat.endswith("1") and want.dtype.kind in "iu":
        # unsaturated casts of out-of-range floats are undefined in C++; compare the rest
        ok = (src >= 0) & (src < 1)
        np.testing.assert_array_equal(got[ok], want[ok])
        return
    _close(got, want, 1e-6)


def test_convert_image_dtype_errors(eager):
    with pytest.raises(AttributeError, match="floating point or integer"):
        im.convert_image_dtype(X, flowgrad.bool)
    assert im.convert_image_dtype(X, flowgrad.float32).dtype == flowgrad.float32


def test_geometry(eager):
    x = np.arange(2 * 3 * 4 * 1).reshape(2, 3, 4, 1)
    np.testing.assert_array_equal(im.flip_left_right(x), x[:, :, ::-1])
    np.testing.assert_array_equal(im.flip_up_down(x[0]), x[0, ::-1])
    np.testing.assert_array_equal(im.transpose(x), x.transpose(0, 2, 1, 3))
    for k in range(-1, 5):
        np.testing.assert_array_equal(im.rot90(x, k), np.rot90(x, k, axes=(1, 2)))
        np.testing.assert_array_equal(im.rot90(x[1], k), np.rot90(x[1], k))
    np.testing.assert_array_equal(im.crop_to_bounding_box(x, 1, 2, 2, 1), x[:, 1:3, 2:3])
    padded = im.pad_to_bounding_box(x[0], 1, 2, 5, 7).numpy()
    assert padded.shape == (5, 7, 1) and padded.sum() == x[0].sum()
    np.testing.assert_array_equal(padded[1:4, 2:6], x[0])
    with pytest.raises(ValueError, match="width must be >= target"):
        im.crop_to_bounding_box(x, 0, 2, 1, 3)
    with pytest.raises(ValueError, match="height must be <= target"):
        im.pad_to_bounding_box(x, 2, 0, 4, 4)
    with pytest.raises(ValueError, match="central_fraction"):
        im.central_crop(x, 0.0)
    np.testing.assert_array_equal(im.grayscale_to_rgb(x), np.repeat(x, 3, -1))
    with pytest.raises(ValueError):
        im.flip_left_right(x[0, 0])


def test_random_augmentations(eager):
    flowgrad.random.set_seed(3)
    x = np.random.RandomState(0).uniform(size=(8, 4, 5, 3)).astype(np.float32)
    flipped = im.random_flip_left_right(x).numpy()
    same = [np.array_equal(f, i) for f, i in zip(flipped, x)]
    mirrored = [np.array_equal(f, i[:, ::-1]) for f, i in zip(flipped, x)]
    assert all(s or m for s, m in zip(same, mirrored)) and any(same) and any(mirrored)
    ud = im.random_flip_up_down(x[0]).numpy()
    assert np.array_equal(ud, x[0]) or np.array_equal(ud, x[0, ::-1])
    d = im.random_brightness(x, 0.3).numpy() - x
    assert np.allclose(d, d.flat[0], atol=1e-6) and abs(d.flat[0]) <= 0.3
    c = im.random_crop(x, [8, 2, 3, 3]).numpy()
    assert c.shape == (8, 2, 3, 3)
    assert any(np.array_equal(c, x[:, i:i + 2, j:j + 3]) for i in range(3) for j in range(3))
    assert im.random_contrast(x, 0.5, 1.5).shape == x.shape
    assert im.random_saturation(x, 0.5, 1.5).shape == x.shape
    assert im.random_hue(x, 0.2).shape == x.shape
    with pytest.raises(ValueError, match="upper must be > lower"):
        im.random_contrast(x, 1.0, 0.5)
    with pytest.raises(ValueError, match="max_delta must be <= 0.5"):
        im.random_hue(x, 0.7)
    with pytest.raises(ValueError, match="non-negative"):
        im.random_brightness(x, -1)


def test_no_gradient_where_tensorflow_has_none(eager):
    x = flowgrad.constant(X)
    with flowgrad.GradientTape(persistent=True) as tape:
        tape.watch(x)
        c = im.adjust_contrast(x, 1.5)
        h = im.hsv_to_rgb(x)
    with pytest.raises(LookupError):
        tape.gradient(c, x)
    assert tape.gradient(h, x) is None


# Values whose largest and smallest channels are unique (the HSV derivative exists there)
HSV_IN = np.array([[0.9, 0.2, 0.5], [0.1, 0.7, 0.3], [0.2, 0.4, 0.8], [0.6, 0.3, 0.1],
                   [0.35, 0.15, 0.75]])


def test_rgb_to_hsv_gradients():
    check_gradients(lambda x: tf.square(im.rgb_to_hsv(x)), [HSV_IN], order=2)


def test_rgb_to_hsv_gradients_eager(eager):
    check_gradients(lambda x: tf.square(im.rgb_to_hsv(x)), [HSV_IN], order=2, mode="eager")


def test_composite_functions_differentiate(eager):
    x = np.random.RandomState(4).uniform(size=(1, 6, 5, 2))
    check_gradients(lambda v: im.total_variation(v * v), [x], order=2, mode="eager")
    check_gradients(lambda v: tf.square(im.sobel_edges(v)), [x], order=2, mode="eager")
    check_gradients(lambda v: tf.square(im.rot90(im.flip_left_right(v), 1)), [x], order=2,
                    mode="eager")


def test_stateless_augmentations_are_deterministic_per_seed(eager):
    x = np.random.RandomState(0).uniform(size=(8, 4, 5, 3)).astype(np.float32)
    fns = [
        lambda s: im.stateless_random_brightness(x, 0.3, s),
        lambda s: im.stateless_random_contrast(x, 0.5, 1.5, s),
        lambda s: im.stateless_random_saturation(x, 0.5, 1.5, s),
        lambda s: im.stateless_random_hue(x, 0.2, s),
        lambda s: im.stateless_random_flip_left_right(x, s),
        lambda s: im.stateless_random_flip_up_down(x[0], s),
        lambda s: im.stateless_random_crop(x, [8, 2, 3, 3], s),
        lambda s: im.stateless_random_jpeg_quality(x[0], 20, 80, s),
    ]
    for fn in fns:
        a, b = fn([1, 2]).numpy(), fn(flowgrad.constant([1, 2])).numpy()
        np.testing.assert_array_equal(a, b)
    seeds = [[i, 7] for i in range(6)]
    deltas = {float((im.stateless_random_brightness(x, 0.3, s).numpy() - x).flat[0])
              for s in seeds}
    assert len(deltas) == 6 and all(abs(d) <= 0.3 + 1e-6 for d in deltas)
    flipped = im.stateless_random_flip_left_right(x, [3, 4]).numpy()
    assert all(np.array_equal(f, i) or np.array_equal(f, i[:, ::-1]) for f, i in zip(flipped, x))
    with pytest.raises(ValueError, match="max_delta"):
        im.stateless_random_hue(x, 0.6, [1, 2])
