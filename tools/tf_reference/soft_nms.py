"""Prints tf.image.non_max_suppression_with_scores with Soft-NMS (soft_nms_sigma > 0: every
overlapping box is rescored by exp(-0.5 * iou^2 / sigma), whatever iou_threshold says) and
without, on TensorFlow 2.21. Run there it wrote tests/data/image/soft_nms.txt, which
tests/test_image_boxes.py compares with this program's output under ``python -m flowgrad``.

Run from the repository root:
    /work/venv-tf/bin/python tools/tf_reference/soft_nms.py > tests/data/image/soft_nms.txt
"""
import numpy as np
import tensorflow as tf

np.set_printoptions(precision=6, suppress=True)
boxes = tf.constant([[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, -0.1, 1, 0.9], [0, 10, 1, 11],
                     [0, 10.1, 1, 11.1], [0, 100, 1, 101]], tf.float32)
scores = tf.constant([0.9, 0.75, 0.6, 0.95, 0.5, 0.3])
rng = np.random.RandomState(0)
corners = rng.rand(20, 2).astype(np.float32)
random_boxes = tf.constant(np.concatenate([corners, corners + rng.rand(20, 2) * 0.5], 1),
                           tf.float32)
random_scores = tf.constant(rng.rand(20).astype(np.float32))
for b, s in [(boxes, scores), (random_boxes, random_scores)]:
    for kw in [{"soft_nms_sigma": 0.5}, {"soft_nms_sigma": 0.1, "iou_threshold": 0.3},
               {"soft_nms_sigma": 1.0, "score_threshold": 0.2}, {"iou_threshold": 0.5},
               {"soft_nms_sigma": 0.5, "iou_threshold": 1.0}]:
        i, sc = tf.image.non_max_suppression_with_scores(b, s, 10, **kw)
        print(kw, i.numpy(), sc.numpy())
