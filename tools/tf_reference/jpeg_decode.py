"""Prints how TensorFlow 2.21 decodes JPEG files: for each file under tests/data/image/jpeg/
(baseline 4:2:0, 4:2:2 and 4:4:4, progressive, grayscale, Adobe CMYK, odd-sized; written by
Pillow from one synthetic 64x64 picture) and each decode setting (the default
``dct_method=""`` = INTEGER_FAST, INTEGER_ACCURATE, channels 1 and 3, ratio 2/4/8,
fancy_upscaling=False), the shape and the MD5 of the pixels, or the error; then decode_image's
float32 pixels of PNG, GIF, BMP and JPEG files (TensorFlow scales PNGs from 16 bits) and
adjust_jpeg_quality. Run on TensorFlow 2.21 it wrote tests/data/image/jpeg_decode.txt, which
tests/test_jpeg_decode.py compares with this program's output under ``python -m flowgrad``.

Run from the repository root:
    /work/venv-tf/bin/python tools/tf_reference/jpeg_decode.py > tests/data/image/jpeg_decode.txt
"""
import hashlib
import os

import numpy as np
import tensorflow as tf

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "data",
                    "image")


def digest(x):
    x = np.ascontiguousarray(x.numpy())
    return "%s %s %s" % (x.shape, x.dtype, hashlib.md5(x.tobytes()).hexdigest())


SETTINGS = [{}, {"dct_method": "INTEGER_FAST"}, {"dct_method": "INTEGER_ACCURATE"},
            {"channels": 1}, {"channels": 3}, {"ratio": 2}, {"ratio": 4}, {"ratio": 8},
            {"fancy_upscaling": False}, {"channels": 1, "dct_method": "INTEGER_ACCURATE"},
            {"ratio": 2, "fancy_upscaling": False}, {"dct_method": "FLOAT"}]
for name in ["420", "422", "444", "prog", "gray", "cmyk", "odd"]:
    raw = tf.io.read_file(os.path.join(DATA, "jpeg", name + ".jpg"))
    for kw in SETTINGS:
        try:
            print(name, kw, digest(tf.io.decode_jpeg(raw, **kw)))
        except tf.errors.InvalidArgumentError as e:
            print(name, kw, type(e).__name__, e.message.split("}} ")[-1].split(" [Op:")[0])
    print(name, "decode_image", digest(tf.io.decode_image(raw)))
    print(name, "decode_image float32", digest(tf.io.decode_image(raw, dtype=tf.float32)))
    print(name, "crop", digest(tf.io.decode_and_crop_jpeg(raw, [3, 5, 20, 30])))

for name in ["rgba.png", "palette.png", "gray16.png", "rgb.bmp", "anim.gif"]:
    raw = tf.io.read_file(os.path.join(DATA, name))
    print(name, "float32", digest(tf.io.decode_image(raw, dtype=tf.float32)))
    print(name, "uint16", digest(tf.io.decode_image(raw, dtype=tf.uint16)))

image = tf.io.decode_jpeg(tf.io.read_file(os.path.join(DATA, "jpeg", "444.jpg")))
print("adjust_jpeg_quality", digest(tf.image.adjust_jpeg_quality(image, 50)))
print("adjust_jpeg_quality float", digest(tf.image.adjust_jpeg_quality(
    tf.image.convert_image_dtype(image, tf.float32), 70)))
print("stateless_random_jpeg_quality", digest(tf.image.stateless_random_jpeg_quality(
    image, 40, 90, seed=(1, 2))))
