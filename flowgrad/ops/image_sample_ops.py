"""``tf.image.sample_distorted_bounding_box`` and its stateless variant: the random crops
of Inception-style preprocessing (SampleDistortedBoundingBoxV2,
StatelessSampleDistortedBoundingBox; not differentiable).

The search is TensorFlow's, with its random numbers (``SimplePhilox`` over the op's Philox
stream): up to ``max_attempts`` times, draw an aspect ratio, a height within the area range
(in float32, rounded as TensorFlow rounds), then an offset; keep the first crop covering at
least ``min_object_covered`` of some bounding box; else the whole image. The stateful op
reserves ``4 * max_attempts`` words per run, so a second run continues the stream."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.errors import InvalidArgumentError
from flowgrad.framework.graph import name_scope
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import _NO_GRADIENT, register_op
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.framework.philox import PhiloxStream, PhiloxWords, stateless_key_counter
from flowgrad.ops.random_ops import get_seed
from flowgrad.framework.type_hints import TensorLike

_F32 = np.float32


def _lrint(x: float) -> int:
    return int(np.rint(_F32(x)))


class _SimplePhilox:
    """TensorFlow's ``SimplePhilox``: words one at a time, floats from one word, and exact
    uniform integers (``ExactUniformInt``: rejection of the words that skew toward 0)."""

    def __init__(self, key: int, counter: int):
        self._words = PhiloxWords(key, counter)

    def rand_float(self) -> np.float32:
        word = np.array(self._words.next(), np.uint32)
        return ((word & np.uint32(0x7FFFFF)) | np.uint32(127 << 23)).view(np.float32) - _F32(1)

    def uniform(self, n: int) -> int:
        if n & (n - 1) == 0:
            return self._words.next() & (n - 1)
        rem = (0xFFFFFFFF % n) + 1
        word = self._words.next()
        while word < rem:
            word = self._words.next()
        return word % n


def _random_crop(rng: _SimplePhilox, width: int, height: int, area_range: tuple,
                 aspect: np.float32) -> tuple | None:
    """TensorFlow's GenerateRandomCrop: (x, y, w, h), or None when no crop fits."""
    min_area = _F32(_F32(area_range[0]) * _F32(width)) * _F32(height)
    max_area = _F32(_F32(area_range[1]) * _F32(width)) * _F32(height)
    h = _lrint(np.sqrt(min_area / aspect))
    max_h = _lrint(np.sqrt(max_area / aspect))
    if _lrint(max_h * aspect) > width:
        max_h = int((width + 0.5 - float(_F32(1e-7))) / float(aspect))
        if _lrint(max_h * aspect) > width:
            max_h -= 1
    max_h = min(max_h, height)
    h = min(h, max_h)
    if h < max_h:
        h += rng.uniform(max_h - h + 1)
    w = _lrint(h * aspect)
    if w * h < min_area:
        h += 1
        w = _lrint(h * aspect)
    if w * h > max_area:
        h -= 1
        w = _lrint(h * aspect)
    if w * h < min_area or w * h > max_area or w > width or h > height or w <= 0 or h <= 0:
        return None
    y = rng.uniform(height - h) if h < height else 0
    x = rng.uniform(width - w) if w < width else 0
    return x, y, w, h


def _covers(crop: tuple, rects: list, min_covered: float) -> bool:
    x, y, w, h = crop
    if w * h < 1:
        return False
    for x0, y0, x1, y1 in rects:
        area = (x1 - x0) * (y1 - y0)
        if area < 1:
            continue
        iw = max(min(x + w, x1) - max(x, x0), 0)
        ih = max(min(y + h, y1) - max(y, y0), 0)
        if _F32(iw * ih) / _F32(area) >= _F32(min_covered):
            return True
    return False


def _sample(op_type: str, rng: _SimplePhilox, image_size: Any, boxes: Any,
            min_covered: Any, aspect_ratio_range: list, area_range: list, max_attempts: int,
            use_image_if_no_bounding_boxes: bool) -> tuple:
    size = np.ravel(image_size)
    if size.shape != (3,):
        raise InvalidArgumentError(None, None, "%s: image_size must be 1-dimensional with 3 "
                                   "elements, got shape %s" % (op_type, list(size.shape)))
    height, width = int(size[0]), int(size[1])
    boxes = np.asarray(boxes, np.float32)
    if boxes.ndim != 3 or boxes.shape[-1] != 4:
        raise InvalidArgumentError(None, None, "%s: input boxes must be 3-dimensional [batch, "
                                   "num_boxes, coords], got shape %s" % (op_type,
                                                                         list(boxes.shape)))
    boxes = boxes.reshape(-1, 4)
    if (boxes < 0).any() or (boxes > 1).any():
        raise InvalidArgumentError(None, None, "%s: All bounding box coordinates must be in "
                                   "[0.0, 1.0]" % op_type)
    rects = [(int(b[1] * width), int(b[0] * height), int(b[3] * width), int(b[2] * height))
             for b in boxes]
    if not rects:
        if not use_image_if_no_bounding_boxes:
            raise InvalidArgumentError(None, None, "%s: No bounding boxes provided as input. "
                                       "One must enable use_image_if_no_bounding_boxes if you "
                                       "wish to not provide any bounding boxes." % op_type)
        rects = [(0, 0, width, height)]
    lo, hi = (_F32(v) for v in aspect_ratio_range)
    crop = None
    for _ in range(max_attempts):
        aspect = _F32(rng.rand_float() * (hi - lo) + lo)
        c = _random_crop(rng, width, height, area_range, aspect)
        if c is not None and _covers(c, rects, float(min_covered)):
            crop = c
            break
    x, y, w, h = crop or (0, 0, width, height)
    dt = np.asarray(image_size).dtype
    box = np.array([[[y / height, x / width, (y + h) / height, (x + w) / width]]], np.float32)
    return np.array([y, x, 0], dt), np.array([h, w, -1], dt), box


def _sample_kernel(rng: PhiloxStream, image_size: Any, boxes: Any, min_covered: Any,
                   *, seed: int, seed2: int, aspect_ratio_range: list, area_range: list,
                   max_attempts: int, use_image_if_no_bounding_boxes: bool) -> tuple:
    return _sample("SampleDistortedBoundingBoxV2", _SimplePhilox(*rng.reserve32(4 * max_attempts)),
                   image_size, boxes,
                   min_covered, aspect_ratio_range, area_range, max_attempts,
                   use_image_if_no_bounding_boxes)


def _stateless_kernel(image_size: Any, boxes: Any, min_covered: Any, seed: Any, *,
                      aspect_ratio_range: list, area_range: list, max_attempts: int,
                      use_image_if_no_bounding_boxes: bool) -> tuple:
    s = np.asarray(seed)
    if s.shape != (2,):
        raise InvalidArgumentError(None, None, "StatelessSampleDistortedBoundingBox: seed must "
                                   "have shape [2], not %s" % list(s.shape))
    rng = _SimplePhilox(*stateless_key_counter(int(s[0]), int(s[1])))
    return _sample("StatelessSampleDistortedBoundingBox", rng, image_size, boxes, min_covered,
                   aspect_ratio_range, area_range, max_attempts, use_image_if_no_bounding_boxes)


def _sample_infer(ins: list, attrs: dict) -> list:
    dt = ins[0].dtype.base_dtype
    return [(dt, TensorShape([3])), (dt, TensorShape([3])),
            (dtypes.float32, TensorShape([1, 1, 4]))]


_NAMES = ("image_size", "bounding_boxes", "min_object_covered")
register_op("SampleDistortedBoundingBoxV2", _sample_kernel, _sample_infer, num_outputs=3,
            input_names=_NAMES, grad=_NO_GRADIENT, rng=True, stateful=True)
register_op("StatelessSampleDistortedBoundingBox", _stateless_kernel, _sample_infer,
            num_outputs=3, input_names=_NAMES + ("seed",), grad=_NO_GRADIENT)


def _attrs(aspect_ratio_range: Any, area_range: Any, max_attempts: Any,
           use_image_if_no_bounding_boxes: Any) -> dict:
    return {"aspect_ratio_range": [float(v) for v in (aspect_ratio_range or (0.75, 1.33))],
            "area_range": [float(v) for v in (area_range or (0.05, 1.0))],
            "max_attempts": int(max_attempts or 100),
            "use_image_if_no_bounding_boxes": bool(use_image_if_no_bounding_boxes)}


def _inputs(image_size: Any, bounding_boxes: Any, min_object_covered: Any) -> tuple:
    return (convert_to_tensor(image_size, name="image_size"),
            convert_to_tensor(bounding_boxes, dtypes.float32, name="bounding_boxes"),
            convert_to_tensor(min_object_covered, dtypes.float32, name="min_object_covered"))


def sample_distorted_bounding_box_v1(image_size: TensorLike, bounding_boxes: TensorLike,
                                     seed: int | None = None, seed2: Any = None,
                                     min_object_covered: Any = 0.1, aspect_ratio_range: Any = None,
                                     area_range: Any = None, max_attempts: Any = None,
                                     use_image_if_no_bounding_boxes: bool | None = None,
                                     name: str | None = None) -> tuple:
    """TensorFlow 1's ``sample_distorted_bounding_box`` (``seed`` and ``seed2``).

    Args:
        image_size: The image's ``[height, width, channels]``.
        bounding_boxes: A ``[batch, N, 4]`` float tensor of boxes the crop should cover.
        seed: The op's ``seed`` attr; with ``seed2`` both 0 or None, random seeds. As in
            TensorFlow, the graph-level seed plays no part.
        seed2: Its ``seed2`` attr.
        min_object_covered: The least fraction of some bounding box the crop must cover.
        aspect_ratio_range: The allowed ``[min, max]`` width / height of the crop.
        area_range: The allowed ``[min, max]`` fraction of the image's area.
        max_attempts: How many crops to try before returning the whole image.
        use_image_if_no_bounding_boxes: Whether no bounding boxes means the whole image.
        name: A name for the operation (optional).

    Returns:
        ``(begin, size, bboxes)``: the crop's ``tf.slice`` arguments and its box.
    """
    return _sample_op(seed or 0, seed2 or 0, image_size, bounding_boxes, min_object_covered,
                      aspect_ratio_range, area_range, max_attempts,
                      use_image_if_no_bounding_boxes, name)


def _sample_op(seed: int, seed2: int, image_size: Any, bounding_boxes: Any,
               min_object_covered: Any, aspect_ratio_range: Any, area_range: Any,
               max_attempts: Any, use_image_if_no_bounding_boxes: Any,
               name: str | None) -> tuple:
    attrs = _attrs(aspect_ratio_range, area_range, max_attempts,
                   use_image_if_no_bounding_boxes)
    attrs.update(seed=seed, seed2=seed2)
    with name_scope(name or "sample_distorted_bounding_box"):
        return tuple(apply_op("SampleDistortedBoundingBoxV2",
                              _inputs(image_size, bounding_boxes, min_object_covered), attrs))


def sample_distorted_bounding_box(image_size: TensorLike, bounding_boxes: TensorLike, seed: int = 0,
                                  min_object_covered: Any = 0.1, aspect_ratio_range: Any = None,
                                  area_range: Any = None, max_attempts: Any = None,
                                  use_image_if_no_bounding_boxes: bool | None = None,
                                  name: str | None = None) -> tuple:
    """A random crop of an image covering part of its bounding boxes.

    Args:
        image_size: [height, width, channels].
        bounding_boxes: [batch, N, 4] normalized boxes [y_min, x_min, y_max, x_max].
        seed: An op-level seed, combined with the global seed as ``tf.random`` ops do; 0:
            random seeds whatever the global seed, as in TensorFlow.
        min_object_covered: The least fraction of some box the crop must cover.
        aspect_ratio_range: [min, max] width/height of the crop (default [0.75, 1.33]).
        area_range: [min, max] fraction of the image the crop covers (default [0.05, 1]).
        max_attempts: Attempts before the whole image is returned (default 100).
        use_image_if_no_bounding_boxes: With no boxes, use the whole image as the box.
        name: A name for the operation.

    Returns:
        (begin, size, bboxes): slice arguments for the crop and the crop as a [1, 1, 4] box.
    """
    s1, s2 = get_seed(seed) if seed else (0, 0)
    return _sample_op(s1, s2, image_size, bounding_boxes, min_object_covered,
                      aspect_ratio_range, area_range, max_attempts,
                      use_image_if_no_bounding_boxes, name)


def stateless_sample_distorted_bounding_box(image_size: TensorLike, bounding_boxes: TensorLike,
                                            seed: int | None, min_object_covered: Any = 0.1,
                                            aspect_ratio_range: Any = None, area_range: Any = None,
                                            max_attempts: Any = None,
                                            use_image_if_no_bounding_boxes: bool | None = None,
                                            name: str | None = None) -> tuple:
    """sample_distorted_bounding_box drawn from ``seed`` (shape [2]): the same seed gives the
    same crop.

    Args:
        image_size: [height, width, channels].
        bounding_boxes: [batch, N, 4] normalized boxes.
        seed: A shape-[2] int32/int64 seed.
        min_object_covered: The least fraction of some box the crop must cover.
        aspect_ratio_range: [min, max] width/height of the crop.
        area_range: [min, max] fraction of the image the crop covers.
        max_attempts: Attempts before the whole image is returned.
        use_image_if_no_bounding_boxes: With no boxes, use the whole image as the box.
        name: A name for the operation.

    Returns:
        (begin, size, bboxes).
    """
    with name_scope(name or "stateless_sample_distorted_bounding_box"):
        ins = _inputs(image_size, bounding_boxes, min_object_covered)
        return tuple(apply_op("StatelessSampleDistortedBoundingBox",
                              ins + (convert_to_tensor(seed, name="seed"),),
                              _attrs(aspect_ratio_range, area_range, max_attempts,
                                     use_image_if_no_bounding_boxes)))
