"""``tf.image`` of the TF1 face (``import flowgrad.compat.v1 as tf``): TensorFlow 1's names
and signatures (``resize_images`` with ``align_corners``, ``resize_bilinear``, ...,
``ResizeMethod`` as integers) beside the functions both faces share."""
from flowgrad.image_api import (  # the names both faces share
    adjust_brightness,
    adjust_contrast,
    adjust_gamma,
    adjust_hue,
    adjust_jpeg_quality,
    adjust_saturation,
    central_crop,
    combined_non_max_suppression,
    convert_image_dtype,
    crop_to_bounding_box,
    decode_and_crop_jpeg,
    decode_bmp,
    decode_gif,
    decode_image,
    decode_jpeg,
    decode_png,
    encode_jpeg,
    encode_png,
    extract_jpeg_shape,
    extract_patches,
    flip_left_right,
    flip_up_down,
    grayscale_to_rgb,
    hsv_to_rgb,
    image_gradients,
    is_jpeg,
    non_max_suppression,
    non_max_suppression_overlaps,
    non_max_suppression_padded,
    non_max_suppression_with_scores,
    pad_to_bounding_box,
    per_image_standardization,
    psnr,
    random_brightness,
    random_contrast,
    random_crop,
    random_flip_left_right,
    random_flip_up_down,
    random_hue,
    random_jpeg_quality,
    random_saturation,
    resize_with_crop_or_pad,
    rgb_to_grayscale,
    rgb_to_hsv,
    rgb_to_yiq,
    rgb_to_yuv,
    rot90,
    sobel_edges,
    ssim,
    ssim_multiscale,
    total_variation,
    transpose,
    yiq_to_rgb,
    yuv_to_rgb,
)
from flowgrad.ops.image_box_ops import crop_and_resize_v1 as crop_and_resize
from flowgrad.ops.image_box_ops import draw_bounding_boxes_v1 as draw_bounding_boxes
from flowgrad.ops.image_ops import ResizeMethodV1 as ResizeMethod
from flowgrad.ops.image_ops import (
    resize_area,
    resize_bicubic,
    resize_bilinear,
    resize_image_with_pad,
    resize_images,
    resize_nearest_neighbor,
)
from flowgrad.ops.image_ops import resize_images as resize
from flowgrad.ops.image_ops import resize_with_crop_or_pad as resize_image_with_crop_or_pad
from flowgrad.ops.image_ops import transpose as transpose_image
from flowgrad.ops.image_patch_ops import extract_image_patches
from flowgrad.ops.image_sample_ops import (
    sample_distorted_bounding_box_v1 as sample_distorted_bounding_box,
)

__all__ = [
    "ResizeMethod", "adjust_brightness", "adjust_contrast", "adjust_gamma", "adjust_hue",
    "adjust_jpeg_quality", "adjust_saturation", "central_crop",
    "combined_non_max_suppression", "convert_image_dtype", "crop_and_resize",
    "crop_to_bounding_box", "decode_and_crop_jpeg", "decode_bmp", "decode_gif",
    "decode_image", "decode_jpeg", "decode_png", "draw_bounding_boxes", "encode_jpeg",
    "encode_png", "extract_image_patches", "extract_jpeg_shape", "extract_patches",
    "flip_left_right", "flip_up_down", "grayscale_to_rgb", "hsv_to_rgb", "image_gradients",
    "is_jpeg", "non_max_suppression", "non_max_suppression_overlaps",
    "non_max_suppression_padded", "non_max_suppression_with_scores", "pad_to_bounding_box",
    "per_image_standardization", "psnr", "random_brightness", "random_contrast",
    "random_crop", "random_flip_left_right", "random_flip_up_down", "random_hue",
    "random_jpeg_quality", "random_saturation", "resize", "resize_area", "resize_bicubic",
    "resize_bilinear", "resize_image_with_crop_or_pad", "resize_image_with_pad",
    "resize_images", "resize_nearest_neighbor", "resize_with_crop_or_pad",
    "rgb_to_grayscale", "rgb_to_hsv", "rgb_to_yiq", "rgb_to_yuv", "rot90",
    "sample_distorted_bounding_box", "sobel_edges", "ssim", "ssim_multiscale",
    "total_variation", "transpose", "transpose_image", "yiq_to_rgb", "yuv_to_rgb"
]
