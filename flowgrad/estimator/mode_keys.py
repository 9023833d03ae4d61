"""``tf.estimator.ModeKeys``: the three modes an Estimator calls its ``model_fn`` in."""
from __future__ import annotations


class ModeKeys:
    """The modes of a ``model_fn`` call, as TensorFlow's strings.

    ``TRAIN`` (``"train"``), ``EVAL`` (``"eval"``) and ``PREDICT`` (``"infer"``).
    """

    TRAIN = "train"
    EVAL = "eval"
    PREDICT = "infer"
