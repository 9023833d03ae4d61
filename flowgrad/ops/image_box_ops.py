"""Box ops of ``tf.image``: CropAndResize (with CropAndResizeGradImage and
CropAndResizeGradBoxes, its gradients as TensorFlow has them), non-max suppression
(NonMaxSuppressionV3/V4/V5, CombinedNonMaxSuppression) and DrawBoundingBoxesV2.

CropAndResize samples each box as TensorFlow's CPU kernel does (float32 sample positions,
``extrapolation_value`` outside the image); for float64 images flowgrad computes (and
returns) float64 where TensorFlow rounds to float32, so gradients can be checked in float64.
Its image gradient is linear in the incoming gradient, so CropAndResizeGradImage has a
gradient of its own (CropAndResize with zero extrapolation); CropAndResizeGradBoxes has none
(as in TensorFlow). Non-max suppression keeps TensorFlow's greedy order (highest score
first, ties by lower index), its strict IoU test and its soft-NMS rescoring."""
from __future__ import annotations

import heapq
from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.errors import InvalidArgumentError
from flowgrad.framework.graph import name_scope
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import NotDifferentiable, defop, register_op
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.framework.shape_rules import shape_from_value
from flowgrad.ops.array_ops import shape
from flowgrad.ops.cast_ops import cast
from flowgrad.framework.type_hints import TensorLike

_F32 = np.float32

# --------------------------------------------------------------------------------------
# CropAndResize


def _box_positions(lo: Any, hi: Any, size: int, crop: int, ct: Any) -> np.ndarray:
    """Sample positions of a box edge pair along one axis, in float32 as TensorFlow (float64
    for float64 images)."""
    n = ct(size - 1)
    if crop > 1:
        scale = (hi - lo) * n / ct(crop - 1)
        return lo * n + np.arange(crop, dtype=ct) * scale
    return np.full(1, ct(0.5) * (lo + hi) * n, ct)


def _check_boxes(op_type: str, boxes: np.ndarray, box_ind: np.ndarray, batch: int) -> None:
    if boxes.ndim != 2 or boxes.shape[1] != 4:
        raise InvalidArgumentError(None, None, "%s: boxes must be 2-D [num_boxes, 4], got %s"
                                   % (op_type, list(boxes.shape)))
    if box_ind.shape != (boxes.shape[0],):
        raise InvalidArgumentError(None, None, "%s: box_index has incompatible shape %s for %d "
                                   "boxes" % (op_type, list(box_ind.shape), boxes.shape[0]))
    bad = (box_ind < 0) | (box_ind >= batch)
    if bad.any():
        raise InvalidArgumentError(None, None, "%s: box_index has values outside [0, batch_size)"
                                   " = [0, %d): %s" % (op_type, batch, box_ind[bad].tolist()))


def _crop_taps(boxes: np.ndarray, b: int, hw: tuple, crop_hw: tuple, ct: Any) -> tuple:
    y1, x1, y2, x2 = (ct(v) for v in boxes[b])
    return (_box_positions(y1, y2, hw[0], crop_hw[0], ct),
            _box_positions(x1, x2, hw[1], crop_hw[1], ct))


def _compute_type(dtype: Any) -> Any:
    return np.float64 if dtype == np.float64 else _F32


def _crop_and_resize_kernel(image: np.ndarray, boxes: np.ndarray, box_ind: np.ndarray,
                            crop_size: Any, *, method: str,
                            extrapolation_value: float) -> np.ndarray:
    if image.ndim != 4:
        raise InvalidArgumentError(None, None, "CropAndResize: input image must be 4-D, got %s"
                                   % list(image.shape))
    ch, cw = (int(v) for v in np.ravel(crop_size))
    if ch <= 0 or cw <= 0:
        raise InvalidArgumentError(None, None, "CropAndResize: crop dimensions must be "
                                   "positive")
    if method not in ("bilinear", "nearest"):
        raise InvalidArgumentError(None, None, "CropAndResize: method must be 'bilinear' or "
                                   "'nearest', got %r" % method)
    _check_boxes("CropAndResize", boxes, box_ind, image.shape[0])
    n, h, w, d = image.shape
    ct = _compute_type(image.dtype)
    img = image.astype(ct)
    out = np.full((boxes.shape[0], ch, cw, d), ct(extrapolation_value), ct)
    for b in range(boxes.shape[0]):
        ys, xs = _crop_taps(boxes, b, (h, w), (ch, cw), ct)
        src = img[box_ind[b]]
        y_ok = (ys >= 0) & (ys <= h - 1)
        x_ok = (xs >= 0) & (xs <= w - 1)
        yi, xi = np.nonzero(y_ok)[0], np.nonzero(x_ok)[0]
        if not len(yi) or not len(xi):
            continue
        yv, xv = ys[yi], xs[xi]
        if method == "nearest":
            ry = np.floor(yv + ct(0.5)).astype(int)   # roundf: halves away from zero
            rx = np.floor(xv + ct(0.5)).astype(int)
            out[b][np.ix_(yi, xi)] = src[np.ix_(ry, rx)]
            continue
        top, bot = np.floor(yv).astype(int), np.ceil(yv).astype(int)
        left, right = np.floor(xv).astype(int), np.ceil(xv).astype(int)
        ylerp = (yv - top.astype(ct))[:, None, None]
        xlerp = (xv - left.astype(ct))[None, :, None]
        tl, tr = src[np.ix_(top, left)], src[np.ix_(top, right)]
        bl, br = src[np.ix_(bot, left)], src[np.ix_(bot, right)]
        t = tl + (tr - tl) * xlerp
        bt = bl + (br - bl) * xlerp
        out[b][np.ix_(yi, xi)] = t + (bt - t) * ylerp
    return out


def _valid_taps(ys: np.ndarray, xs: np.ndarray, hw: tuple, ct: Any) -> tuple:
    """The sample rows and columns inside the image, with their bilinear corners."""
    yi = np.nonzero((ys >= 0) & (ys <= hw[0] - 1))[0]
    xi = np.nonzero((xs >= 0) & (xs <= hw[1] - 1))[0]
    yv, xv = ys[yi], xs[xi]
    top, bot = np.floor(yv).astype(int), np.ceil(yv).astype(int)
    left, right = np.floor(xv).astype(int), np.ceil(xv).astype(int)
    return yi, xi, yv, xv, top, bot, left, right, yv - top.astype(ct), xv - left.astype(ct)


def _crop_grad_image_kernel(grads: np.ndarray, boxes: np.ndarray, box_ind: np.ndarray,
                            image_size: Any, *, T: Any, method: str) -> np.ndarray:
    n, h, w, d = (int(v) for v in np.ravel(image_size))
    _check_boxes("CropAndResizeGradImage", boxes, box_ind, n)
    ch, cw = grads.shape[1:3]
    ct = _compute_type(grads.dtype)
    out = np.zeros((n, h, w, d), ct)
    for b in range(boxes.shape[0]):
        ys, xs = _crop_taps(boxes, b, (h, w), (ch, cw), ct)
        yi, xi, yv, xv, top, bot, left, right, yl, xl = _valid_taps(ys, xs, (h, w), ct)
        if not len(yi) or not len(xi):
            continue
        g = grads[b][np.ix_(yi, xi)].astype(ct)
        dst = out[box_ind[b]]
        if method == "nearest":
            ry = np.floor(yv + ct(0.5)).astype(int)
            rx = np.floor(xv + ct(0.5)).astype(int)
            np.add.at(dst, (ry[:, None], rx[None, :]), g)
            continue
        yl, xl = yl[:, None, None], xl[None, :, None]
        np.add.at(dst, (top[:, None], left[None, :]), (1 - yl) * (1 - xl) * g)
        np.add.at(dst, (top[:, None], right[None, :]), (1 - yl) * xl * g)
        np.add.at(dst, (bot[:, None], left[None, :]), yl * (1 - xl) * g)
        np.add.at(dst, (bot[:, None], right[None, :]), yl * xl * g)
    return out.astype(T.np if hasattr(T, "np") else np.dtype(T))


def _crop_grad_boxes_kernel(grads: np.ndarray, image: np.ndarray, boxes: np.ndarray,
                            box_ind: np.ndarray, *, method: str) -> np.ndarray:
    n, h, w, d = image.shape
    _check_boxes("CropAndResizeGradBoxes", boxes, box_ind, n)
    ch, cw = grads.shape[1:3]
    ct = _compute_type(image.dtype)
    img = image.astype(ct)
    out = np.zeros(boxes.shape, ct)
    hr = ct(h - 1) / ct(ch - 1) if ch > 1 else ct(0)
    wr = ct(w - 1) / ct(cw - 1) if cw > 1 else ct(0)
    for b in range(boxes.shape[0]):
        ys, xs = _crop_taps(boxes, b, (h, w), (ch, cw), ct)
        yi, xi, _, _, top, bot, left, right, yl, xl = _valid_taps(ys, xs, (h, w), ct)
        if not len(yi) or not len(xi):
            continue
        src = img[box_ind[b]]
        tl, tr = src[np.ix_(top, left)], src[np.ix_(top, right)]
        bl, br = src[np.ix_(bot, left)], src[np.ix_(bot, right)]
        g = grads[b][np.ix_(yi, xi)].astype(ct)
        yl3, xl3 = yl[:, None, None], xl[None, :, None]
        gy = (((1 - xl3) * (bl - tl) + xl3 * (br - tr)) * g).sum(-1)
        gx = (((1 - yl3) * (tr - tl) + yl3 * (br - bl)) * g).sum(-1)
        yf, xf = yi.astype(ct)[:, None], xi.astype(ct)[None, :]
        if ch > 1:
            out[b, 0] += (gy * (ct(h - 1) - yf * hr)).sum()
            out[b, 2] += (gy * (yf * hr)).sum()
        else:
            out[b, 0] += gy.sum() * ct(0.5) * ct(h - 1)
            out[b, 2] += gy.sum() * ct(0.5) * ct(h - 1)
        if cw > 1:
            out[b, 1] += (gx * (ct(w - 1) - xf * wr)).sum()
            out[b, 3] += (gx * (xf * wr)).sum()
        else:
            out[b, 1] += gx.sum() * ct(0.5) * ct(w - 1)
            out[b, 3] += gx.sum() * ct(0.5) * ct(w - 1)
    return out


def _crop_infer(ins: list, attrs: dict) -> tuple:
    image, boxes = ins[0], ins[1]
    out = dtypes.float64 if image.dtype.base_dtype == dtypes.float64 else dtypes.float32
    size = shape_from_value(ins[3])
    hw = size.as_list() if size.rank == 2 else [None, None]
    nb = boxes.shape.as_list()[0] if boxes.shape.rank else None
    d = image.shape.as_list()[3] if image.shape.rank == 4 else None
    return out, TensorShape([nb, hw[0], hw[1], d])


def _grad_image_infer(ins: list, attrs: dict) -> tuple:
    return dtypes.as_dtype(attrs["T"]).base_dtype, shape_from_value(ins[3])


@defop("CropAndResize", _crop_and_resize_kernel, _crop_infer,
       input_names=("image", "boxes", "box_ind", "crop_size"))
def _crop_and_resize_grad(op: Any, grad: Any) -> Any:
    image, boxes, box_ind, _ = op.inputs
    method = op.get_attr("method")
    dt = image.dtype.base_dtype
    g_image = None
    if dt in (dtypes.float16, dtypes.float32, dtypes.float64):
        g_image = apply_op("CropAndResizeGradImage", (grad, boxes, box_ind, shape(image)),
                           {"T": dt, "method": method})
    g_boxes = apply_op("CropAndResizeGradBoxes", (grad, image, boxes, box_ind),
                       {"method": "bilinear"})
    return g_image, g_boxes, None, None


@defop("CropAndResizeGradImage", _crop_grad_image_kernel, _grad_image_infer,
       input_names=("grads", "boxes", "box_ind", "image_size"))
def _crop_grad_image_grad(op: Any, grad: Any) -> Any:
    grads, boxes, box_ind, _ = op.inputs
    gg = apply_op("CropAndResize", (grad, boxes, box_ind, shape(grads)[1:3]),
                  {"method": op.get_attr("method"), "extrapolation_value": 0.0})
    if gg.dtype.base_dtype != grads.dtype.base_dtype:
        gg = cast(gg, grads.dtype.base_dtype)
    return gg, None, None, None


register_op("CropAndResizeGradBoxes", _crop_grad_boxes_kernel,
            lambda ins, attrs: (ins[2].dtype.base_dtype, ins[2].shape),
            input_names=("grads", "image", "boxes", "box_ind"))


def crop_and_resize(image: TensorLike, boxes: TensorLike, box_indices: TensorLike,
                    crop_size: TensorLike, method: str = "bilinear",
                    extrapolation_value: float = 0.0, name: str | None = None) -> Any:
    """Crops boxes out of a batch of images and resizes each to ``crop_size``.

    Args:
        image: 4-D images [batch, height, width, depth].
        boxes: [num_boxes, 4] normalized [y1, x1, y2, x2] (y2 < y1 flips the crop).
        box_indices: [num_boxes] image index of each box.
        crop_size: [crop_height, crop_width].
        method: "bilinear" or "nearest".
        extrapolation_value: The value of samples outside the image.
        name: A name for the operation.

    Returns:
        float32 crops [num_boxes, crop_height, crop_width, depth].
    """
    return apply_op("CropAndResize",
                    (convert_to_tensor(image, name="image"),
                     convert_to_tensor(boxes, dtypes.float32, name="boxes"),
                     convert_to_tensor(box_indices, dtypes.int32, name="box_ind"),
                     convert_to_tensor(crop_size, dtypes.int32, name="crop_size")),
                    {"method": method, "extrapolation_value": float(extrapolation_value)},
                    name=name)


def crop_and_resize_v1(image: TensorLike, boxes: TensorLike, box_ind: Any = None,
                       crop_size: TensorLike | None = None, method: str = "bilinear",
                       extrapolation_value: float = 0.0, name: str | None = None,
                       box_indices: TensorLike | None = None) -> Any:
    """TensorFlow 1's ``crop_and_resize`` (``box_ind``, or ``box_indices``).

    Args:
        image: A 4-D tensor ``[batch, height, width, channels]``.
        boxes: A ``[num_boxes, 4]`` float tensor of normalized ``[y1, x1, y2, x2]``.
        box_ind: A ``[num_boxes]`` int tensor: the image of each box.
        crop_size: The ``[crop_height, crop_width]`` of every crop.
        method: ``"bilinear"`` or ``"nearest"``.
        extrapolation_value: The value of samples outside the image.
        name: A name for the operation (optional).
        box_indices: TensorFlow 2's name for ``box_ind``.

    Returns:
        A ``[num_boxes, crop_height, crop_width, channels]`` float32 tensor.
    """
    return crop_and_resize(image, boxes, box_ind if box_indices is None else box_indices,
                           crop_size, method, extrapolation_value, name)


# --------------------------------------------------------------------------------------
# Non-max suppression


def _corners(boxes: np.ndarray) -> tuple:
    b = boxes.astype(_F32)
    ymin, ymax = np.minimum(b[:, 0], b[:, 2]), np.maximum(b[:, 0], b[:, 2])
    xmin, xmax = np.minimum(b[:, 1], b[:, 3]), np.maximum(b[:, 1], b[:, 3])
    return ymin, xmin, ymax, xmax, (ymax - ymin) * (xmax - xmin)


def _iou(c: tuple, i: int, j: int) -> np.float32:
    ymin, xmin, ymax, xmax, area = c
    if area[i] <= 0 or area[j] <= 0:
        return _F32(0)
    ih = max(min(ymax[i], ymax[j]) - max(ymin[i], ymin[j]), _F32(0))
    iw = max(min(xmax[i], xmax[j]) - max(xmin[i], xmin[j]), _F32(0))
    inter = _F32(ih * iw)
    return _F32(inter / _F32(area[i] + area[j] - inter))


def nms_select(boxes: np.ndarray | None, scores: np.ndarray, max_output: int,
               iou_threshold: float, score_threshold: float, soft_nms_sigma: float = 0.0,
               overlaps: np.ndarray | None = None) -> tuple:
    """TensorFlow's greedy (soft) NMS: (selected indices, their scores). The similarity of
    two boxes is their IoU, or ``overlaps[i, j]`` when given."""
    scores = scores.astype(_F32)
    thr, sthr = _F32(iou_threshold), _F32(score_threshold)
    soft = soft_nms_sigma > 0
    scale = _F32(-0.5 / soft_nms_sigma) if soft else _F32(0)
    if overlaps is None:
        c = _corners(boxes)

        def similarity(i: int, j: int) -> np.float32:
            return _iou(c, i, j)
    else:
        def similarity(i: int, j: int) -> np.float32:
            return _F32(overlaps[i, j])
    heap = [(-scores[i], i, 0) for i in range(len(scores)) if scores[i] > sthr]
    heapq.heapify(heap)
    selected, sel_scores = [], []
    while len(selected) < max_output and heap:
        neg, i, begin = heapq.heappop(heap)
        score = original = -neg
        hard = False
        for j in range(len(selected) - 1, begin - 1, -1):
            sim = similarity(i, selected[j])
            # TensorFlow's suppress_weight: Soft-NMS rescales whatever the overlap
            weight = _F32(np.exp(scale * sim * sim)) if soft or sim <= thr else _F32(0)
            score = _F32(score * weight)
            if not soft and sim > thr:
                hard = True
                break
            if score <= sthr:
                break
        if hard:
            continue
        if score == original:
            selected.append(i)
            sel_scores.append(score)
        elif score > sthr:
            heapq.heappush(heap, (-score, i, len(selected)))
    return np.array(selected, np.int32), np.array(sel_scores, _F32)


def _check_nms(op_type: str, boxes: np.ndarray, scores: np.ndarray, iou: Any) -> None:
    if boxes.ndim != 2 or boxes.shape[1] != 4:
        raise InvalidArgumentError(None, None, "%s: boxes must be 2-D [num_boxes, 4], got %s"
                                   % (op_type, list(boxes.shape)))
    if scores.shape != (boxes.shape[0],):
        raise InvalidArgumentError(None, None, "%s: scores has incompatible shape %s for %d "
                                   "boxes" % (op_type, list(scores.shape), boxes.shape[0]))
    if not 0 <= float(iou) <= 1:
        raise InvalidArgumentError(None, None, "%s: iou_threshold must be in [0, 1]" % op_type)


def _nms_v3_kernel(boxes: np.ndarray, scores: np.ndarray, max_output: Any, iou: Any,
                   score_thr: Any) -> np.ndarray:
    _check_nms("NonMaxSuppressionV3", boxes, scores, iou)
    return nms_select(boxes, scores, int(max_output), float(iou), float(score_thr))[0]


def _nms_v4_kernel(boxes: np.ndarray, scores: np.ndarray, max_output: Any, iou: Any,
                   score_thr: Any, *, pad_to_max_output_size: bool) -> tuple:
    _check_nms("NonMaxSuppressionV4", boxes, scores, iou)
    sel, _ = nms_select(boxes, scores, int(max_output), float(iou), float(score_thr))
    n = len(sel)
    if pad_to_max_output_size:
        sel = np.concatenate([sel, np.zeros(int(max_output) - n, np.int32)])
    return sel, np.array(n, np.int32)


def _nms_v5_kernel(boxes: np.ndarray, scores: np.ndarray, max_output: Any, iou: Any,
                   score_thr: Any, sigma: Any, *, pad_to_max_output_size: bool) -> tuple:
    _check_nms("NonMaxSuppressionV5", boxes, scores, iou)
    sel, sc = nms_select(boxes, scores, int(max_output), float(iou), float(score_thr),
                         float(sigma))
    n = len(sel)
    if pad_to_max_output_size:
        pad = int(max_output) - n
        sel = np.concatenate([sel, np.zeros(pad, np.int32)])
        sc = np.concatenate([sc, np.zeros(pad, _F32)])
    return sel, sc.astype(scores.dtype), np.array(n, np.int32)


def _sel_infer(ins: list, attrs: dict) -> tuple:
    return dtypes.int32, TensorShape([None])


register_op("NonMaxSuppressionV3", _nms_v3_kernel, _sel_infer,
            input_names=("boxes", "scores", "max_output_size", "iou_threshold",
                         "score_threshold"))
register_op("NonMaxSuppressionV4", _nms_v4_kernel,
            lambda ins, attrs: [(dtypes.int32, TensorShape([None])),
                                (dtypes.int32, TensorShape([]))],
            num_outputs=2, input_names=("boxes", "scores", "max_output_size", "iou_threshold",
                                        "score_threshold"))
register_op("NonMaxSuppressionV5", _nms_v5_kernel,
            lambda ins, attrs: [(dtypes.int32, TensorShape([None])),
                                (ins[1].dtype.base_dtype, TensorShape([None])),
                                (dtypes.int32, TensorShape([]))],
            num_outputs=3, input_names=("boxes", "scores", "max_output_size", "iou_threshold",
                                        "score_threshold", "soft_nms_sigma"))


def _nms_inputs(boxes: Any, scores: Any, max_output_size: Any, iou_threshold: Any,
                score_threshold: Any) -> tuple:
    return (convert_to_tensor(boxes, dtypes.float32, name="boxes"),
            convert_to_tensor(scores, dtypes.float32, name="scores"),
            convert_to_tensor(max_output_size, dtypes.int32, name="max_output_size"),
            convert_to_tensor(iou_threshold, dtypes.float32, name="iou_threshold"),
            convert_to_tensor(score_threshold, dtypes.float32, name="score_threshold"))


def non_max_suppression(boxes: TensorLike, scores: TensorLike, max_output_size: TensorLike,
                        iou_threshold: float = 0.5, score_threshold: float = float("-inf"),
                        name: str | None = None) -> Any:
    """Indices of the boxes greedy non-max suppression keeps, best score first.

    Args:
        boxes: [num_boxes, 4] boxes [y1, x1, y2, x2] (any corner order).
        scores: [num_boxes] scores.
        max_output_size: The most boxes to keep.
        iou_threshold: Boxes overlapping a kept box by more than this IoU are dropped.
        score_threshold: Boxes scoring at most this are dropped.
        name: A name for the operation.

    Returns:
        int32 indices [M], M <= max_output_size.
    """
    with name_scope(name or "non_max_suppression"):
        return apply_op("NonMaxSuppressionV3", _nms_inputs(boxes, scores, max_output_size,
                                                           iou_threshold, score_threshold), {})


def non_max_suppression_with_scores(boxes: TensorLike, scores: TensorLike,
                                    max_output_size: TensorLike, iou_threshold: float = 0.5,
                                    score_threshold: float = float("-inf"),
                                    soft_nms_sigma: float = 0.0, name: str | None = None) -> tuple:
    """Non-max suppression returning (indices, scores); Soft-NMS when ``soft_nms_sigma > 0``.

    Args:
        boxes: [num_boxes, 4] boxes.
        scores: [num_boxes] scores.
        max_output_size: The most boxes to keep.
        iou_threshold: The IoU above which boxes are dropped (hard NMS).
        score_threshold: Boxes scoring at most this are dropped.
        soft_nms_sigma: Gaussian Soft-NMS width (0: hard NMS).
        name: A name for the operation.

    Returns:
        (selected_indices, selected_scores).
    """
    with name_scope(name or "non_max_suppression_with_scores"):
        ins = _nms_inputs(boxes, scores, max_output_size, iou_threshold, score_threshold)
        sel, sc, _ = apply_op("NonMaxSuppressionV5",
                              ins + (convert_to_tensor(soft_nms_sigma, dtypes.float32),),
                              {"pad_to_max_output_size": False})
        return sel, sc


def non_max_suppression_padded(boxes: TensorLike, scores: TensorLike, max_output_size: TensorLike,
                               iou_threshold: float = 0.5,
                               score_threshold: float = float("-inf"),
                               pad_to_max_output_size: bool = False, name: str | None = None,
                               sorted_input: bool = False,
                               canonicalized_coordinates: bool = False,
                               tile_size: int = 512) -> tuple:
    """Non-max suppression returning (indices, number valid), optionally zero-padded.

    Args:
        boxes: [num_boxes, 4] boxes.
        scores: [num_boxes] scores.
        max_output_size: The most boxes to keep.
        iou_threshold: The IoU above which boxes are dropped.
        score_threshold: Boxes scoring at most this are dropped.
        pad_to_max_output_size: Pad the indices with zeros to ``max_output_size``.
        name: A name for the operation.
        sorted_input: Accepted (the order does not change the result).
        canonicalized_coordinates: Accepted (corners are normalized either way).
        tile_size: Accepted (TensorFlow's tiling parameter).

    Returns:
        (selected_indices, valid_outputs).
    """
    with name_scope(name or "non_max_suppression_padded"):
        return tuple(apply_op("NonMaxSuppressionV4",
                              _nms_inputs(boxes, scores, max_output_size, iou_threshold,
                                          score_threshold),
                              {"pad_to_max_output_size": bool(pad_to_max_output_size)}))


def _nms_overlaps_kernel(overlaps: np.ndarray, scores: np.ndarray, max_output: Any,
                         threshold: Any, score_thr: Any) -> np.ndarray:
    n = scores.shape[0] if scores.ndim == 1 else -1
    if overlaps.shape != (n, n):
        raise InvalidArgumentError(None, None, "NonMaxSuppressionWithOverlaps: overlaps must be "
                                   "a square matrix [num_boxes, num_boxes] matching scores, got "
                                   "%s and %s" % (list(overlaps.shape), list(scores.shape)))
    return nms_select(None, scores, int(max_output), float(threshold), float(score_thr),
                      overlaps=overlaps)[0]


register_op("NonMaxSuppressionWithOverlaps", _nms_overlaps_kernel, _sel_infer,
            input_names=("overlaps", "scores", "max_output_size", "overlap_threshold",
                         "score_threshold"))


def non_max_suppression_overlaps(overlaps: Any, scores: TensorLike, max_output_size: TensorLike,
                                 overlap_threshold: float = 0.5,
                                 score_threshold: float = float("-inf"),
                                 name: str | None = None) -> Any:
    """Greedy non-max suppression with the pairwise overlaps given as a matrix.

    Args:
        overlaps: [num_boxes, num_boxes] overlaps (any similarity).
        scores: [num_boxes] scores.
        max_output_size: The most boxes to keep.
        overlap_threshold: Boxes overlapping a kept box by more than this are dropped.
        score_threshold: Boxes scoring at most this are dropped.
        name: A name for the operation.

    Returns:
        int32 indices [M], M <= max_output_size.
    """
    with name_scope(name or "non_max_suppression_overlaps"):
        ins = (convert_to_tensor(overlaps, dtypes.float32, name="overlaps"),
               convert_to_tensor(scores, dtypes.float32, name="scores"),
               convert_to_tensor(max_output_size, dtypes.int32, name="max_output_size"),
               convert_to_tensor(overlap_threshold, dtypes.float32),
               convert_to_tensor(score_threshold, dtypes.float32))
        return apply_op("NonMaxSuppressionWithOverlaps", ins, {})


def _combined_nms_kernel(boxes: np.ndarray, scores: np.ndarray, per_class: Any, total: Any,
                         iou: Any, score_thr: Any, *, pad_per_class: bool,
                         clip_boxes: bool) -> tuple:
    if boxes.ndim != 4 or boxes.shape[3] != 4 or scores.ndim != 3:
        raise InvalidArgumentError(None, None, "CombinedNonMaxSuppression: boxes must be "
                                   "[batch, num_boxes, q, 4] and scores [batch, num_boxes, "
                                   "num_classes], got %s and %s"
                                   % (list(boxes.shape), list(scores.shape)))
    batch, _, q, _ = boxes.shape
    classes = scores.shape[2]
    if q not in (1, classes):
        raise InvalidArgumentError(None, None, "CombinedNonMaxSuppression: third dimension of "
                                   "boxes must be either 1 or num_classes")
    per_class, total = int(per_class), int(total)
    keep = min(total, per_class * classes) if pad_per_class else total
    out_boxes = np.zeros((batch, keep, 4), _F32)
    out_scores = np.zeros((batch, keep), _F32)
    out_classes = np.zeros((batch, keep), _F32)
    valid = np.zeros(batch, np.int32)
    for b in range(batch):
        found = []
        for k in range(classes):
            bx = boxes[b, :, 0 if q == 1 else k]
            sel, sc = nms_select(bx, scores[b, :, k], per_class, float(iou), float(score_thr))
            found += [(float(s), k, bx[i]) for i, s in zip(sel, sc)]
        found.sort(key=lambda t: -t[0])
        found = found[:keep]
        for i, (s, k, bx) in enumerate(found):
            out_boxes[b, i] = np.clip(bx, 0, 1) if clip_boxes else bx
            out_scores[b, i], out_classes[b, i] = s, k
        valid[b] = len(found)
    return out_boxes, out_scores, out_classes, valid


register_op("CombinedNonMaxSuppression", _combined_nms_kernel,
            lambda ins, attrs: [(dtypes.float32, TensorShape([None, None, 4])),
                                (dtypes.float32, TensorShape([None, None])),
                                (dtypes.float32, TensorShape([None, None])),
                                (dtypes.int32, TensorShape([None]))],
            num_outputs=4, input_names=("boxes", "scores", "max_output_size_per_class",
                                        "max_total_size", "iou_threshold", "score_threshold"))


def combined_non_max_suppression(boxes: TensorLike, scores: TensorLike,
                                 max_output_size_per_class: Any, max_total_size: Any,
                                 iou_threshold: float = 0.5, score_threshold: float = float("-inf"),
                                 pad_per_class: bool = False, clip_boxes: bool = True,
                                 name: str | None = None) -> tuple:
    """Per-class non-max suppression over a batch, merged by score.

    Args:
        boxes: [batch, num_boxes, q, 4] (q = 1: boxes shared by all classes).
        scores: [batch, num_boxes, num_classes].
        max_output_size_per_class: The most boxes kept per class.
        max_total_size: The most boxes kept per image.
        iou_threshold: The IoU above which boxes are dropped.
        score_threshold: Boxes scoring at most this are dropped.
        pad_per_class: Pad to min(max_total_size, per_class * num_classes) instead.
        clip_boxes: Clip the boxes to [0, 1].
        name: A name for the operation.

    Returns:
        (nmsed_boxes, nmsed_scores, nmsed_classes, valid_detections).
    """
    with name_scope(name or "combined_non_max_suppression"):
        ins = (convert_to_tensor(boxes, dtypes.float32), convert_to_tensor(scores, dtypes.float32),
               convert_to_tensor(max_output_size_per_class, dtypes.int32),
               convert_to_tensor(max_total_size, dtypes.int32),
               convert_to_tensor(iou_threshold, dtypes.float32),
               convert_to_tensor(score_threshold, dtypes.float32))
        return tuple(apply_op("CombinedNonMaxSuppression", ins,
                              {"pad_per_class": bool(pad_per_class),
                               "clip_boxes": bool(clip_boxes)}))


# --------------------------------------------------------------------------------------
# DrawBoundingBoxesV2

_DEFAULT_COLOURS = [[1, 1, 0, 1], [0, 0, 1, 1], [1, 0, 0, 1], [0, 1, 0, 1], [0.5, 0, 0.5, 1],
                    [0.5, 0.5, 0, 1], [0.5, 0, 0, 1], [0, 0, 0.5, 1], [0, 1, 1, 1],
                    [1, 0, 1, 1]]


def _draw_boxes_kernel(images: np.ndarray, boxes: np.ndarray, colors: np.ndarray) -> np.ndarray:
    if images.ndim != 4 or images.shape[3] not in (1, 3, 4):
        raise InvalidArgumentError(None, None, "DrawBoundingBoxesV2: images must be 4-D with "
                                   "1, 3 or 4 channels, got %s" % list(images.shape))
    n, h, w, d = images.shape
    table = [list(c) for c in np.asarray(colors, np.float32).reshape(-1, colors.shape[-1])] \
        if np.size(colors) else [list(c) for c in _DEFAULT_COLOURS]
    if not np.size(colors) and d == 1:
        for c in table:
            c[0] = 1
    if any(len(c) < d for c in table):
        raise InvalidArgumentError(None, None, "DrawBoundingBoxesV2: colors must have at least "
                                   "as many entries as the images have channels")
    out = images.copy()
    for b in range(n):
        for k in range(boxes.shape[1]):
            col = np.array(table[k % len(table)][:d], images.dtype)
            y1, x1, y2, x2 = (_F32(v) for v in boxes[b, k])
            r0, r1 = int(y1 * _F32(h - 1)), int(y2 * _F32(h - 1))
            c0, c1 = int(x1 * _F32(w - 1)), int(x2 * _F32(w - 1))
            if r0 > r1 or c0 > c1 or r1 < 0 or c1 < 0 or r0 >= h or c0 >= w:
                continue
            rc0, rc1 = max(r0, 0), min(r1, h - 1)
            cc0, cc1 = max(c0, 0), min(c1, w - 1)
            if r0 >= 0:
                out[b, r0, cc0:cc1 + 1] = col
            if r1 < h:
                out[b, r1, cc0:cc1 + 1] = col
            if c0 >= 0:
                out[b, rc0:rc1 + 1, c0] = col
            if c1 < w:
                out[b, rc0:rc1 + 1, c1] = col
    return out


register_op("DrawBoundingBoxesV2", _draw_boxes_kernel,
            lambda ins, attrs: (ins[0].dtype.base_dtype, ins[0].shape),
            input_names=("images", "boxes", "colors"))


def draw_bounding_boxes(images: TensorLike, boxes: TensorLike, colors: Any = None,
                        name: str | None = None) -> Any:
    """Draws one-pixel box outlines onto float images.

    Args:
        images: [batch, height, width, depth] float images (depth 1, 3 or 4).
        boxes: [batch, num_boxes, 4] normalized [y1, x1, y2, x2].
        colors: [num_colors, depth] colours, cycled over the boxes (None: TensorFlow's).
        name: A name for the operation.

    Returns:
        The images with the boxes drawn.
    """
    images = convert_to_tensor(images, name="images")
    colors = np.zeros((0, 4), np.float32) if colors is None else colors
    return apply_op("DrawBoundingBoxesV2",
                    (images, convert_to_tensor(boxes, dtypes.float32),
                     convert_to_tensor(colors, dtypes.float32)), {}, name=name)


for _t in ("NonMaxSuppressionV3", "NonMaxSuppressionV4", "NonMaxSuppressionV5",
           "NonMaxSuppressionWithOverlaps", "CombinedNonMaxSuppression", "DrawBoundingBoxesV2"):
    NotDifferentiable(_t)


def draw_bounding_boxes_v1(images: TensorLike, boxes: TensorLike, name: str | None = None,
                           colors: Any = None) -> Any:
    """TensorFlow 1's ``draw_bounding_boxes`` (``name`` before ``colors``).

    Args:
        images: A 4-D float tensor ``[batch, height, width, depth]``.
        boxes: A ``[batch, num_boxes, 4]`` tensor of normalized ``[y_min, x_min, y_max, x_max]``.
        name: A name for the operation (optional).
        colors: The colors to cycle through, one row per color (a default palette when None).

    Returns:
        The images with the boxes drawn.
    """
    return draw_bounding_boxes(images, boxes, colors, name)
