"""Records TensorFlow 2.21's tf.image numbers for flowgrad's tests (tests/test_image_*.py).

Run with the separate TensorFlow environment (tests never need TensorFlow):

    /work/venv-tf/bin/python tools/tf_reference/record_image.py

Decodes the files tools/tf_reference/make_image_files.py wrote with Pillow, and writes
tests/data/image/reference.npz (arrays, keyed by what made them; encoded images are
uint8 arrays of their bytes) and tests/data/image/tf_encoded.png / tf_encoded.jpg (an image
TensorFlow encoded). The inputs are fixed (NumPy's RandomState(0)), so rerunning gives the
same file.
"""
from __future__ import annotations

import os
import pathlib

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

OUT = pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "image"
METHODS = ("bilinear", "nearest", "bicubic", "area", "lanczos3", "lanczos5", "gaussian",
           "mitchellcubic")
SIZES = {"up": (9, 11), "down": (3, 4), "mixed": (4, 10)}


def inputs() -> dict:
    """The fixed inputs every recording starts from."""
    rng = np.random.RandomState(0)
    img = rng.uniform(size=(2, 5, 7, 3)).astype(np.float32)
    return {
        "img": img,
        "wgt_up": rng.uniform(size=(2, 9, 11, 3)).astype(np.float32),
        "wgt_down": rng.uniform(size=(2, 3, 4, 3)).astype(np.float32),
        "wgt_mixed": rng.uniform(size=(2, 4, 10, 3)).astype(np.float32),
        "u8": rng.randint(0, 256, size=(6, 8, 3)).astype(np.uint8),
        "big": rng.uniform(size=(1, 24, 20, 3)).astype(np.float32),
        "big2": rng.uniform(size=(1, 24, 20, 3)).astype(np.float32),
        "boxes": np.array([[0.1, 0.2, 0.6, 0.9], [0.0, 0.0, 1.0, 1.0], [-0.2, 0.3, 0.5, 1.3],
                           [0.7, 0.8, 0.2, 0.1]], np.float32),
        "box_ind": np.array([0, 1, 0, 1], np.int32),
        "nms_boxes": rng.uniform(size=(20, 4)).astype(np.float32),
        "nms_scores": rng.uniform(size=(20,)).astype(np.float32),
        "ints": rng.randint(-2**31, 2**31 - 1, size=(7,)).astype(np.int32),
        "floats": np.array([-0.5, 0.0, 0.2, 0.5, 0.999, 1.0, 1.5, 0.00196, 0.5019608],
                           np.float32),
        "nms_overlaps": rng.uniform(size=(20, 20)).astype(np.float32),
        "png_noise": rng.randint(0, 256, size=(70, 90, 3)).astype(np.uint8),
    }


def record(d: dict) -> dict:
    img = tf.constant(d["img"])
    out = {}
    for m in METHODS:
        for anti in (False, True):
            for tag, size in SIZES.items():
                key = "resize_%s_%s_%s" % (m, "aa" if anti else "plain", tag)
                with tf.GradientTape() as tape:
                    tape.watch(img)
                    y = tf.image.resize(img, size, method=m, antialias=anti)
                    s = tf.reduce_sum(y * d["wgt_" + tag])
                out[key] = y.numpy()
                if m != "area":  # ResizeArea (antialias or not) has no gradient in TensorFlow
                    out[key + "_grad"] = tape.gradient(s, img).numpy()
    for tag, size in SIZES.items():
        for ac, hp in ((False, False), (True, False), (False, True)):
            suffix = "%s_ac%d_hp%d" % (tag, ac, hp)
            out["v1_bilinear_" + suffix] = tf.raw_ops.ResizeBilinear(
                images=img, size=size, align_corners=ac, half_pixel_centers=hp).numpy()
            out["v1_nearest_" + suffix] = tf.raw_ops.ResizeNearestNeighbor(
                images=img, size=size, align_corners=ac, half_pixel_centers=hp).numpy()
            out["v1_bicubic_" + suffix] = tf.raw_ops.ResizeBicubic(
                images=img, size=size, align_corners=ac, half_pixel_centers=hp).numpy()
            g = tf.constant(d["wgt_" + tag])
            out["v1_bilinear_grad_" + suffix] = tf.raw_ops.ResizeBilinearGrad(
                grads=g, original_image=img, align_corners=ac, half_pixel_centers=hp).numpy()
            out["v1_nearest_grad_" + suffix] = tf.raw_ops.ResizeNearestNeighborGrad(
                grads=g, size=[5, 7], align_corners=ac, half_pixel_centers=hp).numpy()
            out["v1_bicubic_grad_" + suffix] = tf.raw_ops.ResizeBicubicGrad(
                grads=g, original_image=img, align_corners=ac, half_pixel_centers=hp).numpy()
            if not hp:
                out["v1_area_" + suffix] = tf.raw_ops.ResizeArea(
                    images=img, size=size, align_corners=ac).numpy()
    u8 = tf.constant(d["u8"])
    out["resize_u8_bilinear"] = tf.image.resize(u8, (9, 5)).numpy()
    out["resize_u8_nearest"] = tf.image.resize(u8, (9, 5), method="nearest").numpy()
    out["resize_aspect"] = tf.image.resize(img, (10, 10), preserve_aspect_ratio=True).numpy()
    out["resize_with_pad"] = tf.image.resize_with_pad(img, 8, 6).numpy()
    out["resize_with_crop_or_pad"] = tf.image.resize_with_crop_or_pad(img, 4, 9).numpy()
    out["v1_resize_images"] = tf.compat.v1.image.resize_images(img, (9, 11)).numpy()
    out["v1_resize_with_pad"] = tf.compat.v1.image.resize_image_with_pad(img, 8, 6).numpy()
    out["scale_translate"] = tf.raw_ops.ScaleAndTranslate(
        images=img, size=[6, 9], scale=[1.3, 0.8], translation=[0.4, -1.1],
        kernel_type="lanczos3", antialias=True).numpy()

    x = img[0]
    out["adjust_brightness"] = tf.image.adjust_brightness(x, 0.2).numpy()
    out["adjust_contrast"] = tf.image.adjust_contrast(x, 1.7).numpy()
    out["adjust_saturation"] = tf.image.adjust_saturation(x, 0.4).numpy()
    out["adjust_saturation_up"] = tf.image.adjust_saturation(x, 2.5).numpy()
    out["adjust_hue"] = tf.image.adjust_hue(x, 0.13).numpy()
    out["adjust_hue_neg"] = tf.image.adjust_hue(x, -0.4).numpy()
    out["adjust_gamma"] = tf.image.adjust_gamma(x, 0.8, 1.2).numpy()
    out["adjust_brightness_u8"] = tf.image.adjust_brightness(u8, 0.2).numpy()
    out["adjust_contrast_u8"] = tf.image.adjust_contrast(u8, 1.7).numpy()
    out["adjust_saturation_u8"] = tf.image.adjust_saturation(u8, 0.4).numpy()
    out["adjust_hue_u8"] = tf.image.adjust_hue(u8, 0.13).numpy()
    out["adjust_gamma_u8"] = tf.image.adjust_gamma(u8, 0.8, 1.2).numpy()
    out["rgb_to_grayscale"] = tf.image.rgb_to_grayscale(x).numpy()
    out["rgb_to_grayscale_u8"] = tf.image.rgb_to_grayscale(u8).numpy()
    out["rgb_to_hsv"] = tf.image.rgb_to_hsv(x).numpy()
    out["hsv_to_rgb"] = tf.image.hsv_to_rgb(x).numpy()
    out["rgb_to_yuv"] = tf.image.rgb_to_yuv(x).numpy()
    out["yuv_to_rgb"] = tf.image.yuv_to_rgb(x).numpy()
    out["rgb_to_yiq"] = tf.image.rgb_to_yiq(x).numpy()
    out["per_image_standardization"] = tf.image.per_image_standardization(img).numpy()
    out["per_image_standardization_u8"] = tf.image.per_image_standardization(u8).numpy()
    out["total_variation"] = tf.image.total_variation(img).numpy()
    dy, dx = tf.image.image_gradients(img)
    out["image_gradients_dy"], out["image_gradients_dx"] = dy.numpy(), dx.numpy()
    out["sobel_edges"] = tf.image.sobel_edges(img).numpy()
    big, big2 = tf.constant(d["big"]), tf.constant(d["big2"])
    out["psnr"] = tf.image.psnr(big, big2, max_val=1.0).numpy()
    out["ssim"] = tf.image.ssim(big, big2, max_val=1.0).numpy()
    out["ssim_small_filter"] = tf.image.ssim(big, big2, 1.0, filter_size=5,
                                             filter_sigma=1.0).numpy()
    out["ssim_multiscale"] = tf.image.ssim_multiscale(
        big, big2, 1.0, power_factors=(0.3, 0.7), filter_size=5).numpy()
    out["central_crop"] = tf.image.central_crop(img, 0.6).numpy()

    for name, v in (("floats", d["floats"]), ("ints", d["ints"]), ("u8", d["u8"])):
        for dt in ("uint8", "int16", "int32", "float32", "float16", "float64", "uint16"):
            for sat in (False, True):
                try:
                    r = tf.image.convert_image_dtype(tf.constant(v), dt, saturate=sat)
                except Exception:  # noqa: BLE001 - recorded as absent
                    continue
                out["convert_%s_%s_sat%d" % (name, dt, sat)] = r.numpy()

    boxes, ind = tf.constant(d["boxes"]), tf.constant(d["box_ind"])
    for m in ("bilinear", "nearest"):
        with tf.GradientTape(persistent=True) as tape:
            tape.watch([img, boxes])
            y = tf.image.crop_and_resize(img, boxes, ind, (4, 6), method=m,
                                         extrapolation_value=0.25)
            s = tf.reduce_sum(y * np.arange(4 * 4 * 6 * 3).reshape(4, 4, 6, 3) / 100.0)
        out["crop_and_resize_" + m] = y.numpy()
        if m == "bilinear":
            out["crop_and_resize_grad_image"] = tape.gradient(s, img).numpy()
            out["crop_and_resize_grad_boxes"] = tape.gradient(s, boxes).numpy()
    for rates, padding in (((1, 1, 1, 1), "VALID"), ((1, 1, 1, 1), "SAME"),
                           ((1, 2, 2, 1), "VALID"), ((1, 2, 1, 1), "SAME")):
        key = "extract_patches_r%d%d_%s" % (rates[1], rates[2], padding)
        out[key] = tf.image.extract_patches(img, [1, 2, 3, 1], [1, 2, 2, 1], list(rates),
                                            padding).numpy()
    b, s = tf.constant(d["nms_boxes"]), tf.constant(d["nms_scores"])
    out["nms"] = tf.image.non_max_suppression(b, s, 6, 0.3).numpy()
    out["nms_thresh"] = tf.image.non_max_suppression(b, s, 10, 0.5, score_threshold=0.4).numpy()
    sel, sc = tf.image.non_max_suppression_with_scores(b, s, 6, 0.3, soft_nms_sigma=0.0)
    out["nms_with_scores_sel"], out["nms_with_scores_sc"] = sel.numpy(), sc.numpy()
    out["nms_overlaps"] = tf.image.non_max_suppression_overlaps(
        d["nms_overlaps"], s, 8, 0.6, 0.2).numpy()
    sel, n = tf.image.non_max_suppression_padded(b, s, 8, 0.3, pad_to_max_output_size=True)
    out["nms_padded_sel"], out["nms_padded_n"] = sel.numpy(), n.numpy()
    boxes3 = tf.reshape(b, (2, 10, 1, 4))
    scores3 = tf.reshape(tf.stack([s, 1 - s], -1), (2, 10, 2))
    cb = tf.image.combined_non_max_suppression(boxes3, scores3, 4, 5, 0.4, 0.1)
    for k, v in zip(("boxes", "scores", "classes", "valid"), cb):
        out["combined_nms_" + k] = v.numpy()
    out["draw_bounding_boxes"] = tf.image.draw_bounding_boxes(
        img, tf.reshape(boxes[:2], (2, 1, 4)), [[1.0, 0.0, 0.0]]).numpy()

    png = tf.io.encode_png(u8).numpy()
    out["png_bytes"] = np.frombuffer(png, np.uint8)
    out["png_bytes_c9"] = np.frombuffer(tf.io.encode_png(u8, compression=9).numpy(), np.uint8)
    out["png_gray16"] = np.frombuffer(tf.io.encode_png(
        tf.cast(u8[..., :1], tf.uint16) * 257).numpy(), np.uint8)
    smooth = (np.arange(120)[:, None, None] + np.arange(100)[None, :, None] * 2
              + np.arange(4)[None, None, :] * 40) % 256
    for key, image in (("noise", d["png_noise"]), ("smooth_rgba", smooth.astype(np.uint8)),
                       ("smooth_la", smooth[..., :2].astype(np.uint8)),
                       ("smooth_rgb16", (smooth[..., :3] * 257).astype(np.uint16))):
        out["png_bytes_" + key] = np.frombuffer(tf.io.encode_png(image).numpy(), np.uint8)
    jpg = tf.io.encode_jpeg(u8).numpy()
    out["jpeg_bytes"] = np.frombuffer(jpg, np.uint8)
    out["jpeg_decoded"] = tf.io.decode_jpeg(jpg).numpy()
    out["jpeg_decoded_gray"] = tf.io.decode_jpeg(jpg, channels=1).numpy()
    out["jpeg_q50_bytes"] = np.frombuffer(tf.io.encode_jpeg(u8, quality=50).numpy(), np.uint8)
    out["jpeg_q50_decoded"] = tf.io.decode_jpeg(tf.io.encode_jpeg(u8, quality=50)).numpy()
    acc = {"dct_method": "INTEGER_ACCURATE"}
    out["jpeg_decoded_accurate"] = tf.io.decode_jpeg(jpg, **acc).numpy()
    out["jpeg_decoded_accurate_gray"] = tf.io.decode_jpeg(jpg, channels=1, **acc).numpy()
    out["jpeg_decoded_accurate_ratio2"] = tf.io.decode_jpeg(jpg, ratio=2, **acc).numpy()
    out["jpeg_shape"] = tf.io.extract_jpeg_shape(jpg).numpy()
    out["jpeg_crop"] = tf.io.decode_and_crop_jpeg(jpg, [1, 2, 3, 4], **acc).numpy()
    out["adjust_jpeg_quality"] = tf.image.adjust_jpeg_quality(
        tf.image.convert_image_dtype(u8, tf.float32), 40, dct_method="INTEGER_ACCURATE").numpy()
    out["jpeg_bytes_gray"] = np.frombuffer(
        tf.io.encode_jpeg(u8[..., :1], format="grayscale").numpy(), np.uint8)
    for tag, kw in (("progressive", {"progressive": True}),
                    ("optimize", {"optimize_size": True}),
                    ("no_chroma_ds", {"chroma_downsampling": False}),
                    ("cm", {"density_unit": "cm", "x_density": 50, "y_density": 70})):
        out["jpeg_bytes_" + tag] = np.frombuffer(tf.io.encode_jpeg(u8, **kw).numpy(), np.uint8)
    out["jpeg_bytes_1ch"] = np.frombuffer(tf.io.encode_jpeg(u8[..., :1]).numpy(), np.uint8)
    for f in ("anim.gif", "rgb.bmp", "rgba.png", "gray16.png", "palette.png"):
        data = (OUT / f).read_bytes()
        key = f.replace(".", "_")
        out["decode_image_" + key] = tf.io.decode_image(data).numpy()
        out["decode_image_first_" + key] = tf.io.decode_image(
            data, expand_animations=False).numpy()
        if f.endswith(".png"):
            for c in (0, 1, 3, 4):
                out["decode_png_%s_c%d" % (key, c)] = tf.io.decode_png(data, channels=c).numpy()
            out["decode_png_%s_u16" % key] = tf.io.decode_png(data, dtype=tf.uint16).numpy()
    out["decode_gif"] = tf.io.decode_gif((OUT / "anim.gif").read_bytes()).numpy()
    out["decode_bmp"] = tf.io.decode_bmp((OUT / "rgb.bmp").read_bytes()).numpy()
    out["decode_image_float"] = tf.io.decode_image((OUT / "rgba.png").read_bytes(),
                                                   dtype=tf.float32).numpy()
    (OUT / "tf_encoded.png").write_bytes(png)
    (OUT / "tf_encoded.jpg").write_bytes(jpg)
    return out


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    d = inputs()
    out = record(d)
    np.savez_compressed(OUT / "reference.npz", **{"in_" + k: v for k, v in d.items()}, **out)
    print("wrote %d arrays to %s" % (len(out), OUT / "reference.npz"))


if __name__ == "__main__":
    main()
