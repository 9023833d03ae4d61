"""tf.image / tf.io image codecs (Pillow) against TensorFlow 2.21: JPEG bytes identical, decoded
pixels equal (JPEG with both DCTs; more in tests/test_jpeg_decode.py), PNG decoded equal (its
bytes differ, docs/differences.md). Recordings: tools/tf_reference/record_image.py."""
from __future__ import annotations

import pathlib
import zlib

import numpy as np
import pytest

import flowgrad
import flowgrad.compat.v1 as tf
from flowgrad.framework.context import state
from flowgrad.framework.errors import InvalidArgumentError

DATA = pathlib.Path(__file__).resolve().parent / "data" / "image"
REF = np.load(DATA / "reference.npz")
U8 = REF["in_u8"]
im, io = flowgrad.image, flowgrad.io


@pytest.fixture(autouse=True)
def eager():
    tf.enable_v2_behavior()
    yield
    state.tapes.clear()


def _bytes(key):
    return REF[key].tobytes()


def _eq(got, want):
    got = got.numpy()
    assert got.dtype == want.dtype and got.shape == want.shape, (got.shape, want.shape)
    np.testing.assert_array_equal(got, want)


def test_jpeg_bytes_are_tensorflows():
    assert io.encode_jpeg(U8).numpy() == _bytes("jpeg_bytes")
    assert io.encode_jpeg(U8, quality=50).numpy() == _bytes("jpeg_q50_bytes")
    assert io.encode_jpeg(U8[..., :1]).numpy() == _bytes("jpeg_bytes_1ch")
    assert io.encode_jpeg(U8[..., :1], format="grayscale").numpy() == _bytes("jpeg_bytes_gray")
    for tag, kw in (("progressive", {"progressive": True}),
                    ("optimize", {"optimize_size": True}),
                    ("no_chroma_ds", {"chroma_downsampling": False}),
                    ("cm", {"density_unit": "cm", "x_density": 50, "y_density": 70})):
        assert im.encode_jpeg(U8, **kw).numpy() == _bytes("jpeg_bytes_" + tag), tag


def test_jpeg_decodes_as_tensorflows_accurate_dct():
    data = (DATA / "tf_encoded.jpg").read_bytes()
    accurate = {"dct_method": "INTEGER_ACCURATE"}
    _eq(io.decode_jpeg(data, **accurate), REF["jpeg_decoded_accurate"])
    _eq(io.decode_jpeg(data, channels=1, **accurate), REF["jpeg_decoded_accurate_gray"])
    _eq(io.decode_jpeg(data, ratio=2, **accurate), REF["jpeg_decoded_accurate_ratio2"])
    # TensorFlow crops inside libjpeg, whose upsampling at the crop's right edge differs
    crop = io.decode_and_crop_jpeg(data, [1, 2, 3, 4], **accurate).numpy().astype(int)
    want = REF["jpeg_crop"].astype(int)
    assert crop.shape == want.shape and np.array_equal(crop[:, :-1], want[:, :-1])
    assert np.abs(crop - want).max() <= 16
    np.testing.assert_array_equal(crop, REF["jpeg_decoded_accurate"][1:4, 2:6])
    _eq(io.extract_jpeg_shape(data), REF["jpeg_shape"])
    assert bool(io.is_jpeg(data)) and not bool(io.is_jpeg(_bytes("png_bytes")))
    # TensorFlow's default DCT ("" = INTEGER_FAST), through simplejpeg
    _eq(io.decode_jpeg(data), REF["jpeg_decoded"])
    _eq(io.decode_jpeg(data, channels=1), REF["jpeg_decoded_gray"])
    _eq(im.decode_image(data), REF["jpeg_decoded"])


def test_adjust_jpeg_quality():
    x = im.convert_image_dtype(U8, flowgrad.float32)
    got = im.adjust_jpeg_quality(x, 40, dct_method="INTEGER_ACCURATE").numpy()
    np.testing.assert_allclose(got, REF["adjust_jpeg_quality"], atol=1e-7)
    flowgrad.random.set_seed(1)
    assert im.random_jpeg_quality(x, 20, 80).shape == x.shape
    with pytest.raises(ValueError, match="less than"):
        im.random_jpeg_quality(x, 80, 20)


def _chunks(data):
    out, i = [], 8
    while i < len(data):
        n = int.from_bytes(data[i:i + 4], "big")
        out.append((data[i + 4:i + 8], data[i + 8:i + 8 + n]))
        i += 12 + n
    return out


SMOOTH = (np.arange(120)[:, None, None] + np.arange(100)[None, :, None] * 2
          + np.arange(4)[None, None, :] * 40) % 256


@pytest.mark.parametrize("key,image,level", [
    ("png_bytes", U8, -1), ("png_bytes_c9", U8, 9),
    ("png_gray16", U8[..., :1].astype(np.uint16) * 257, -1),
    ("png_bytes_smooth_rgba", SMOOTH.astype(np.uint8), -1),
    ("png_bytes_smooth_la", SMOOTH[..., :2].astype(np.uint8), -1),
    ("png_bytes_smooth_rgb16", (SMOOTH[..., :3] * 257).astype(np.uint16), -1)])
def test_png_bytes_are_tensorflows(key, image, level):
    assert io.encode_png(image, compression=level).numpy() == _bytes(key)


def test_png_of_noise_has_tensorflows_structure():
    # libpng's row filters and chunking are reproduced; the deflate stream of incompressible
    # data depends on the zlib version (TensorFlow's stores it uncompressed here)
    noise = REF["in_png_noise"]
    ours, theirs = _chunks(io.encode_png(noise).numpy()), _chunks(_bytes("png_bytes_noise"))
    assert [t for t, _ in ours] == [t for t, _ in theirs]
    assert ours[0] == theirs[0] and all(len(d) == 8192 for _, d in ours[1:-2])
    data = lambda chunks: zlib.decompress(b"".join(d for t, d in chunks if t == b"IDAT"))  # noqa: E731
    assert data(ours) == data(theirs)
    _eq(io.decode_png(io.encode_png(noise)), noise)


def test_png_decodes_tensorflows_file_and_round_trips():
    tf_png = (DATA / "tf_encoded.png").read_bytes()
    _eq(io.decode_png(tf_png), U8)
    ours = io.encode_png(U8).numpy()
    assert ours[:8] == b"\x89PNG\r\n\x1a\n"
    _eq(io.decode_png(ours), U8)
    _eq(io.decode_png(io.encode_png(U8, compression=9)), U8)
    g16 = (U8[..., :1].astype(np.uint16) * 257)
    _eq(io.decode_png(io.encode_png(g16), dtype=flowgrad.uint16), g16)
    _eq(io.decode_png(_bytes("png_gray16"), dtype=flowgrad.uint16), g16)


@pytest.mark.parametrize("name", ["anim.gif", "rgb.bmp", "rgba.png", "gray16.png",
                                  "palette.png"])
def test_decode_files_as_tensorflow(name):
    data = (DATA / name).read_bytes()
    key = name.replace(".", "_")
    _eq(io.decode_image(data), REF["decode_image_" + key])
    _eq(io.decode_image(data, expand_animations=False), REF["decode_image_first_" + key])
    if name.endswith(".png"):
        for c in (0, 1, 3, 4):
            _eq(io.decode_png(data, channels=c), REF["decode_png_%s_c%d" % (key, c)])
        _eq(io.decode_png(data, dtype=flowgrad.uint16), REF["decode_png_%s_u16" % key])


def test_decode_gif_bmp_and_float():
    _eq(io.decode_gif((DATA / "anim.gif").read_bytes()), REF["decode_gif"])
    _eq(io.decode_bmp((DATA / "rgb.bmp").read_bytes()), REF["decode_bmp"])
    got = io.decode_image((DATA / "rgba.png").read_bytes(), dtype=flowgrad.float32).numpy()
    np.testing.assert_allclose(got, REF["decode_image_float"], rtol=3e-7)  # 1 ulp (TF's kernel)


def test_bad_input_is_invalid_argument():
    with pytest.raises(InvalidArgumentError, match="Unknown image file format"):
        io.decode_image(b"not an image")
    with pytest.raises(InvalidArgumentError, match="DecodePng"):
        io.decode_png(_bytes("jpeg_bytes"))
    with pytest.raises(InvalidArgumentError, match="JPEG"):
        io.decode_jpeg(b"\xff\xd8\xff\x00 truncated")
    with pytest.raises(InvalidArgumentError, match="channels"):
        io.encode_png(U8[0])
    with pytest.raises(InvalidArgumentError, match="quality"):
        io.encode_jpeg(U8, quality=101)
    with pytest.raises(InvalidArgumentError, match="expects 1 channels"):
        io.encode_jpeg(U8, format="grayscale")


def test_codecs_in_graph_mode_and_dataset():
    tf.disable_v2_behavior()
    with tf.Graph().as_default():
        data = tf.placeholder(tf.string, [])
        img = tf.image.decode_png(data, channels=3)
        assert img.shape.as_list() == [None, None, 3]
        resized = tf.image.resize_images(img, (3, 4))
        with tf.Session() as sess:
            got = sess.run(resized, {data: (DATA / "tf_encoded.png").read_bytes()})
    assert got.shape == (3, 4, 3)
    tf.enable_v2_behavior()
    ds = flowgrad.data.Dataset.from_tensor_slices([(DATA / "tf_encoded.png").read_bytes()] * 2)
    ds = ds.map(lambda b: flowgrad.image.resize(flowgrad.io.decode_png(b, 3), (4, 4)))
    shapes = [t.shape for t in ds]
    assert shapes == [(4, 4, 3), (4, 4, 3)]
