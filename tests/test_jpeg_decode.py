"""JPEG pixels as TensorFlow 2.21 decodes them (libjpeg-turbo through simplejpeg): the default
INTEGER_FAST DCT and INTEGER_ACCURATE, fancy upsampling on and off, channels 1/3, libjpeg's
scaling, Adobe CMYK converted by TensorFlow's formula, progressive/grayscale/4:2:0/4:2:2/4:4:4
and odd-sized files; decode_image's float32/uint16 scaling per format; adjust_jpeg_quality.
Pinned against tools/tf_reference/jpeg_decode.py's output on TensorFlow 2.21
(tests/data/image/jpeg_decode.txt). Without simplejpeg Pillow decodes (the accurate DCT)."""
import pathlib

import numpy as np
import pytest

import flowgrad as tf
import flowgrad.compat.v1 as tf1
from flowgrad.framework import errors
from flowgrad.ops import image_codec_ops

from tf_reference_program import flowgrad_stdout, recorded_text

DATA = pathlib.Path(__file__).resolve().parent / "data" / "image" / "jpeg"


@pytest.fixture(autouse=True)
def eager_mode():
    tf1.enable_v2_behavior()            # conftest starts every test in graph mode


def test_results_are_tensorflows():
    pytest.importorskip("simplejpeg")
    assert flowgrad_stdout("jpeg_decode.py") == recorded_text("image/jpeg_decode.txt")


def test_pillow_fallback_is_the_accurate_dct(monkeypatch):
    pytest.importorskip("simplejpeg")
    data = (DATA / "420.jpg").read_bytes()
    want = tf.io.decode_jpeg(data, dct_method="INTEGER_ACCURATE").numpy()
    fast = tf.io.decode_jpeg(data).numpy()
    monkeypatch.setattr(image_codec_ops, "_simplejpeg", lambda: None)
    got = tf.io.decode_jpeg(data).numpy()
    np.testing.assert_array_equal(got, want)
    assert 0 < np.abs(got.astype(int) - fast).max() <= 8


def test_bad_dct_method_names_the_choices():
    with pytest.raises(errors.InvalidArgumentError, match="dct_method must be one of"):
        tf.io.decode_jpeg((DATA / "420.jpg").read_bytes(), dct_method="FLOAT")


def test_decode_jpeg_in_a_dataset_map():
    files = sorted(str(p) for p in DATA.glob("4*.jpg"))
    ds = tf.data.Dataset.from_tensor_slices(files).map(
        lambda f: tf.image.resize(tf.io.decode_jpeg(tf.io.read_file(f), channels=3), [8, 8]))
    got = [x for x in ds.as_numpy_iterator()]
    want = [tf.image.resize(tf.io.decode_jpeg(open(f, "rb").read(), channels=3), [8, 8]).numpy()
            for f in files]
    np.testing.assert_array_equal(np.stack(got), np.stack(want))
