"""``tf.image`` of the TF2 face (``import flowgrad as tf``): TensorFlow 2's names.

The functions live in ``flowgrad.ops.image_ops`` (resizing, crops, flips, random
augmentations, quality measures) and ``flowgrad.ops.image_color_ops`` (colour); this module
gathers them under ``tf.image``'s names. ``flowgrad.compat.v1_image`` is the TF1 face's."""
from flowgrad.ops.image_color_ops import (
    adjust_brightness,
    adjust_contrast,
    adjust_gamma,
    adjust_hue,
    adjust_saturation,
    convert_image_dtype,
    grayscale_to_rgb,
    hsv_to_rgb,
    per_image_standardization,
    rgb_to_grayscale,
    rgb_to_hsv,
    rgb_to_yiq,
    rgb_to_yuv,
    yiq_to_rgb,
    yuv_to_rgb,
)
from flowgrad.ops.image_box_ops import (
    combined_non_max_suppression,
    crop_and_resize,
    draw_bounding_boxes,
    non_max_suppression,
    non_max_suppression_padded,
    non_max_suppression_with_scores,
)
from flowgrad.ops.image_codec_ops import (
    adjust_jpeg_quality,
    decode_and_crop_jpeg,
    decode_bmp,
    decode_gif,
    decode_image,
    decode_jpeg,
    decode_png,
    encode_jpeg,
    encode_png,
    extract_jpeg_shape,
    is_jpeg,
    random_jpeg_quality,
)
from flowgrad.ops.image_ops import (
    ResizeMethod,
    central_crop,
    crop_to_bounding_box,
    flip_left_right,
    flip_up_down,
    image_gradients,
    pad_to_bounding_box,
    psnr,
    random_brightness,
    random_contrast,
    random_crop,
    random_flip_left_right,
    random_flip_up_down,
    random_hue,
    random_saturation,
    resize,
    resize_with_crop_or_pad,
    resize_with_pad,
    rot90,
    sobel_edges,
    ssim,
    total_variation,
    transpose,
)
from flowgrad.ops.image_patch_ops import extract_patches

__all__ = [
    "ResizeMethod", "adjust_brightness", "adjust_contrast", "adjust_gamma", "adjust_hue",
    "adjust_jpeg_quality", "adjust_saturation", "central_crop",
    "combined_non_max_suppression", "convert_image_dtype", "crop_and_resize",
    "crop_to_bounding_box", "decode_and_crop_jpeg", "decode_bmp", "decode_gif",
    "decode_image", "decode_jpeg", "decode_png", "draw_bounding_boxes", "encode_jpeg",
    "encode_png", "extract_jpeg_shape", "extract_patches", "flip_left_right",
    "flip_up_down", "grayscale_to_rgb", "hsv_to_rgb", "image_gradients", "is_jpeg",
    "non_max_suppression", "non_max_suppression_padded", "non_max_suppression_with_scores",
    "pad_to_bounding_box", "per_image_standardization", "psnr", "random_brightness",
    "random_contrast", "random_crop", "random_flip_left_right", "random_flip_up_down",
    "random_hue", "random_jpeg_quality", "random_saturation", "resize",
    "resize_with_crop_or_pad", "resize_with_pad", "rgb_to_grayscale", "rgb_to_hsv",
    "rgb_to_yiq", "rgb_to_yuv", "rot90", "sobel_edges", "ssim", "total_variation",
    "transpose", "yiq_to_rgb", "yuv_to_rgb"
]
