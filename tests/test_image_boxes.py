"""crop_and_resize, extract_patches, non-max suppression and draw_bounding_boxes against
TensorFlow 2.21's numbers (tools/tf_reference/record_image.py), and numerical gradient checks
of CropAndResize and ExtractImagePatches."""
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
from gradcheck import check_gradients  # noqa: E402

REF = np.load(pathlib.Path(__file__).resolve().parent / "data" / "image" / "reference.npz")
IMG = REF["in_img"]
im = flowgrad.image


@pytest.fixture
def eager():
    tf.enable_v2_behavior()
    yield
    state.tapes.clear()


@pytest.mark.parametrize("method", ["bilinear", "nearest"])
def test_crop_and_resize_matches_tensorflow(eager, method):
    got = im.crop_and_resize(IMG, REF["in_boxes"], REF["in_box_ind"], (4, 6), method=method,
                             extrapolation_value=0.25)
    assert got.dtype == flowgrad.float32
    np.testing.assert_allclose(got.numpy(), REF["crop_and_resize_" + method], atol=1e-6)


def test_crop_and_resize_gradients_match_tensorflow(eager):
    x, b = flowgrad.constant(IMG), flowgrad.constant(REF["in_boxes"])
    w = np.arange(4 * 4 * 6 * 3).reshape(4, 4, 6, 3) / 100.0
    with flowgrad.GradientTape(persistent=True) as tape:
        tape.watch([x, b])
        y = im.crop_and_resize(x, b, REF["in_box_ind"], (4, 6), extrapolation_value=0.25)
        s = flowgrad.reduce_sum(y * w)
    np.testing.assert_allclose(tape.gradient(s, x).numpy(), REF["crop_and_resize_grad_image"],
                               atol=2e-6)
    np.testing.assert_allclose(tape.gradient(s, b).numpy(), REF["crop_and_resize_grad_boxes"],
                               rtol=1e-5, atol=1e-4)
    v1 = tf.image.crop_and_resize(IMG, REF["in_boxes"], box_ind=REF["in_box_ind"],
                                  crop_size=(4, 6), extrapolation_value=0.25)
    np.testing.assert_allclose(v1.numpy(), REF["crop_and_resize_bilinear"], atol=1e-6)


def test_crop_and_resize_bad_box_index(eager):
    with pytest.raises(InvalidArgumentError, match="box_index"):
        im.crop_and_resize(IMG, REF["in_boxes"], [0, 1, 2, 0], (4, 6))


@pytest.mark.parametrize("rates,padding", [((1, 1, 1, 1), "VALID"), ((1, 1, 1, 1), "SAME"),
                                           ((1, 2, 2, 1), "VALID"), ((1, 2, 1, 1), "SAME")])
def test_extract_patches_matches_tensorflow(eager, rates, padding):
    key = "extract_patches_r%d%d_%s" % (rates[1], rates[2], padding)
    got = im.extract_patches(IMG, [1, 2, 3, 1], [1, 2, 2, 1], list(rates), padding)
    np.testing.assert_array_equal(got.numpy(), REF[key])
    v1 = tf.image.extract_image_patches(IMG, ksizes=[1, 2, 3, 1], strides=[1, 2, 2, 1],
                                        rates=list(rates), padding=padding)
    np.testing.assert_array_equal(v1.numpy(), REF[key])


def test_extract_patches_static_shape():
    x = tf.placeholder(tf.float32, [None, 5, 7, 3])
    y = im.extract_patches(x, [1, 2, 3, 1], [1, 2, 2, 1], [1, 1, 1, 1], "SAME")
    assert y.shape.as_list() == [None, 3, 4, 18]


def test_non_max_suppression_matches_tensorflow(eager):
    b, s = REF["in_nms_boxes"], REF["in_nms_scores"]
    np.testing.assert_array_equal(im.non_max_suppression(b, s, 6, 0.3).numpy(), REF["nms"])
    np.testing.assert_array_equal(im.non_max_suppression(b, s, 10, 0.5, score_threshold=0.4),
                                  REF["nms_thresh"])
    sel, sc = im.non_max_suppression_with_scores(b, s, 6, 0.3)
    np.testing.assert_array_equal(sel.numpy(), REF["nms_with_scores_sel"])
    np.testing.assert_array_equal(sc.numpy(), REF["nms_with_scores_sc"])
    sel, n = im.non_max_suppression_padded(b, s, 8, 0.3, pad_to_max_output_size=True)
    np.testing.assert_array_equal(sel.numpy(), REF["nms_padded_sel"])
    assert int(n) == int(REF["nms_padded_n"])
    np.testing.assert_array_equal(
        im.non_max_suppression_overlaps(REF["in_nms_overlaps"], s, 8, 0.6, 0.2).numpy(),
        REF["nms_overlaps"])
    out = im.combined_non_max_suppression(b.reshape(2, 10, 1, 4),
                                          np.stack([s, 1 - s], -1).reshape(2, 10, 2),
                                          4, 5, 0.4, 0.1)
    for k, v in zip(("boxes", "scores", "classes", "valid"), out):
        np.testing.assert_allclose(v.numpy(), REF["combined_nms_" + k])


def test_soft_nms_rescores_overlapping_boxes(eager):
    boxes = np.array([[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, 2, 1, 3]], np.float32)
    scores = np.array([0.9, 0.8, 0.7], np.float32)
    sel, sc = im.non_max_suppression_with_scores(boxes, scores, 3, 1.0, soft_nms_sigma=0.5)
    iou = 0.9 / 1.1
    np.testing.assert_array_equal(sel.numpy(), [0, 2, 1])
    np.testing.assert_allclose(sc.numpy(), [0.9, 0.7, 0.8 * np.exp(-iou ** 2 / 1.0)],
                               rtol=1e-6)


def test_draw_bounding_boxes_matches_tensorflow(eager):
    got = im.draw_bounding_boxes(IMG, REF["in_boxes"][:2].reshape(2, 1, 4), [[1.0, 0.0, 0.0]])
    np.testing.assert_array_equal(got.numpy(), REF["draw_bounding_boxes"])


X64 = np.random.RandomState(5).uniform(size=(2, 5, 6, 2))
# no sample falls on a pixel row or column (the interpolation has kinks there)
BOXES = np.array([[0.113, 0.217, 0.731, 0.894], [0.261, -0.093, 0.817, 0.633],
                  [0.907, 0.811, 0.329, 0.057]])
IND = np.array([0, 1, 1], np.int32)


def _crop(x):
    return tf.square(apply_op("CropAndResize", (x, tf.constant(BOXES), tf.constant(IND),
                                                tf.constant([3, 4])),
                              {"method": "bilinear", "extrapolation_value": 0.5}))


def _crop_boxes(b):
    return tf.square(apply_op("CropAndResize", (tf.constant(X64), b, tf.constant(IND),
                                                tf.constant([3, 4])),
                              {"method": "bilinear", "extrapolation_value": 0.0}))


def _patches(x):
    return tf.square(im.extract_patches(x, [1, 2, 3, 1], [1, 2, 1, 1], [1, 1, 2, 1], "SAME"))


@pytest.mark.parametrize("mode", ["graph", "eager"])
def test_gradients_first_and_second_order(request, mode):
    if mode == "eager":
        request.getfixturevalue("eager")
    check_gradients(_crop, [X64], order=2, mode=mode)
    check_gradients(_patches, [X64], order=2, mode=mode)
    check_gradients(_crop_boxes, [BOXES], order=1, mode=mode)


def _check_crop(begin, size, bbox, hw, boxes, min_covered):
    y, x, _ = begin
    h, w, last = size
    assert last == -1 and 0 <= y and 0 <= x and y + h <= hw[0] and x + w <= hw[1]
    np.testing.assert_allclose(bbox.reshape(4), [y / hw[0], x / hw[1], (y + h) / hw[0],
                                                 (x + w) / hw[1]], rtol=1e-6)
    covered = []
    for b in boxes:
        y0, x0, y1, x1 = int(b[0] * hw[0]), int(b[1] * hw[1]), int(b[2] * hw[0]), int(b[3] * hw[1])
        ih = max(min(y + h, y1) - max(y, y0), 0)
        iw = max(min(x + w, x1) - max(x, x0), 0)
        covered.append(ih * iw / ((y1 - y0) * (x1 - x0)))
    assert max(covered) >= min_covered or (h, w) == tuple(hw)


def test_sample_distorted_bounding_box(eager):
    boxes = np.array([[[0.1, 0.2, 0.5, 0.6], [0.4, 0.3, 0.9, 0.95]]], np.float32)
    flowgrad.random.set_seed(0)
    for _ in range(20):
        out = im.sample_distorted_bounding_box([60, 50, 3], boxes, min_object_covered=0.5,
                                               area_range=(0.1, 0.8))
        begin, size, bbox = (t.numpy() for t in out)
        _check_crop(begin, size, bbox, (60, 50), boxes[0], 0.5)
        assert 0.1 * 3000 <= size[0] * size[1] <= 0.8 * 3000 or tuple(size[:2]) == (60, 50)
    a = [t.numpy() for t in im.stateless_sample_distorted_bounding_box([60, 50, 3], boxes,
                                                                       [4, 5], 0.5)]
    b = [t.numpy() for t in im.stateless_sample_distorted_bounding_box([60, 50, 3], boxes,
                                                                       [4, 5], 0.5)]
    for u, v in zip(a, b):
        np.testing.assert_array_equal(u, v)
    _check_crop(*a, (60, 50), boxes[0], 0.5)
    v1 = tf.image.sample_distorted_bounding_box([60, 50, 3], np.zeros((1, 0, 4), np.float32),
                                                seed=3, use_image_if_no_bounding_boxes=True)
    assert v1[1].numpy()[2] == -1
    with pytest.raises(InvalidArgumentError, match="use_image_if_no_bounding_boxes"):
        im.sample_distorted_bounding_box([60, 50, 3], np.zeros((1, 0, 4), np.float32))


def test_soft_nms_rescores_every_overlap_as_tensorflow():
    # TF's suppress_weight: with soft_nms_sigma > 0 a box is rescored, not dropped, above
    # iou_threshold (tools/tf_reference/soft_nms.py on TF 2.21)
    from tf_reference_program import flowgrad_stdout, recorded_text
    assert flowgrad_stdout("soft_nms.py") == recorded_text("image/soft_nms.txt")
