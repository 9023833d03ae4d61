"""``tf.image`` of the TF1 face (``import flowgrad.compat.v1 as tf``): TensorFlow 1's names
and signatures (``resize_images`` with ``align_corners``, ``resize_bilinear``, ...,
``ResizeMethod`` as integers) beside the functions both faces share."""
from flowgrad.image_api import (  # the names both faces share
    adjust_brightness,
    adjust_contrast,
    adjust_gamma,
    adjust_hue,
    adjust_saturation,
    central_crop,
    convert_image_dtype,
    crop_to_bounding_box,
    flip_left_right,
    flip_up_down,
    grayscale_to_rgb,
    hsv_to_rgb,
    image_gradients,
    pad_to_bounding_box,
    per_image_standardization,
    psnr,
    random_brightness,
    random_contrast,
    random_crop,
    random_flip_left_right,
    random_flip_up_down,
    random_hue,
    random_saturation,
    resize_with_crop_or_pad,
    rgb_to_grayscale,
    rgb_to_hsv,
    rgb_to_yiq,
    rgb_to_yuv,
    rot90,
    sobel_edges,
    ssim,
    total_variation,
    transpose,
    yiq_to_rgb,
    yuv_to_rgb,
)
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

__all__ = [
    "ResizeMethod", "adjust_brightness", "adjust_contrast", "adjust_gamma", "adjust_hue",
    "adjust_saturation", "central_crop", "convert_image_dtype", "crop_to_bounding_box",
    "flip_left_right", "flip_up_down", "grayscale_to_rgb", "hsv_to_rgb", "image_gradients",
    "pad_to_bounding_box", "per_image_standardization", "psnr", "random_brightness",
    "random_contrast", "random_crop", "random_flip_left_right", "random_flip_up_down",
    "random_hue", "random_saturation", "resize", "resize_area", "resize_bicubic",
    "resize_bilinear", "resize_image_with_crop_or_pad", "resize_image_with_pad",
    "resize_images", "resize_nearest_neighbor", "resize_with_crop_or_pad",
    "rgb_to_grayscale", "rgb_to_hsv", "rgb_to_yiq", "rgb_to_yuv", "rot90", "sobel_edges",
    "ssim", "total_variation", "transpose", "transpose_image", "yiq_to_rgb", "yuv_to_rgb"
]
