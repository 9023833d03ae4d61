"""Image codecs of ``tf.image``/``tf.io`` through Pillow (``pip install flowgrad[image]``)
and simplejpeg: DecodePng, DecodeJpeg, DecodeBmp, DecodeGif, DecodeImage, DecodeAndCropJpeg,
EncodePng, EncodeJpeg, EncodeJpegVariableQuality and ExtractJpegShape, under TensorFlow's op
type names. None is differentiable (as in TensorFlow).

What matches TensorFlow 2.21 (tests/test_image_codecs.py, tests/test_jpeg_decode.py): JPEG
files are byte-identical (both use libjpeg-turbo with the same settings); decoded PNG, BMP and
GIF pixels are equal; decoded JPEG pixels are TensorFlow's when simplejpeg (libjpeg-turbo with
the DCT and upsampling chosen per call) is installed: ``dct_method=""``/``"INTEGER_FAST"``
are libjpeg's fast integer DCT, ``"INTEGER_ACCURATE"`` the accurate one, ``fancy_upscaling``
libjpeg's fancy upsampling, ``ratio`` libjpeg's scaling, CMYK files converted to RGB by
TensorFlow's formula. Without it, Pillow decodes (always the accurate DCT and fancy
upsampling: TensorFlow's ``"INTEGER_ACCURATE"``; the default's pixels differ by a few levels).
PNG files are written as libpng writes them (Pillow cannot:
it picks other row filters): libpng's per-row filter choice, its zlib settings and window
header, 8192-byte IDAT chunks -- byte-identical to TensorFlow's as far as the standard
library's zlib compresses as TensorFlow's does (docs/differences.md)."""
from __future__ import annotations

import io
import struct
import zlib
from typing import Any

import numpy as np

from flowgrad.framework import dtypes
from flowgrad.framework.errors import InvalidArgumentError
from flowgrad.framework.graph import name_scope
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import NotDifferentiable, register_op
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.framework.tensor_shape import TensorShape
from flowgrad.ops.image_color_ops import convert_image_dtype
from flowgrad.ops.io_ops import scalar_bytes, string_scalar
from flowgrad.ops.math_ops import equal
from flowgrad.ops.random_ops import random_uniform
from flowgrad.ops.stateless_random_ops import stateless_random_uniform
from flowgrad.ops.string_ops import substr
from flowgrad.framework.type_hints import DTypeLike, TensorLike


def _pil() -> Any:
    try:
        from PIL import Image
    except ImportError:  # pragma: no cover - depends on the environment
        raise ImportError("tf.image's codecs need Pillow: pip install flowgrad[image]") from None
    return Image


_MAGIC = ((b"\xff\xd8\xff", "jpeg"), (b"\x89PNG\r\n\x1a\n", "png"), (b"GIF8", "gif"),
          (b"BM", "bmp"))


def _format(data: bytes) -> str | None:
    for magic, fmt in _MAGIC:
        if data.startswith(magic):
            return fmt
    return None


def _open(op_type: str, data: bytes, want: str | None) -> Any:
    fmt = _format(data)
    if want is not None and fmt != want:
        raise InvalidArgumentError(None, None, "%s: Input is not a %s image (%d bytes, starting "
                                   "%r)" % (op_type, want.upper(), len(data), data[:8]))
    if fmt is None:
        raise InvalidArgumentError(None, None, "%s: Unknown image file format. One of JPEG, "
                                   "PNG, GIF, BMP required." % op_type)
    try:
        img = _pil().open(io.BytesIO(data))
        img.load()
    except Exception as err:  # noqa: BLE001 - Pillow raises many kinds
        raise InvalidArgumentError(None, None, "%s: Invalid %s data: %s"
                                   % (op_type, fmt.upper(), err)) from None
    return img


def _check_channels(op_type: str, channels: int, allowed: tuple) -> None:
    if channels not in allowed:
        raise InvalidArgumentError(None, None, "%s: channels must be one of %s, got %d"
                                   % (op_type, list(allowed), channels))


def _to_channels(img: Any, channels: int, opaque: int | None = None) -> np.ndarray:
    """Pixels as [h, w, c] with ``channels`` (0: the file's own), converted as libpng does
    (colour to gray: (9797 R + 19234 G + 3737 B) >> 15). A missing alpha is ``opaque``
    (default: the dtype's maximum)."""
    mode = img.mode
    if mode in ("I;16", "I;16B", "I"):
        arr = np.asarray(img).astype(np.uint16)[:, :, None]
    elif mode in ("L", "LA", "RGB", "RGBA"):
        arr = np.asarray(img)
    elif mode == "P" and "transparency" in img.info:
        arr = np.asarray(img.convert("RGBA"))
    else:
        arr = np.asarray(img.convert("L" if mode == "1" else "RGB"))
    arr = arr.reshape(arr.shape[0], arr.shape[1], -1)
    have = arr.shape[2]
    if channels in (0, have):
        return arr
    colour, alpha = arr[:, :, :have - (have in (2, 4))], arr[:, :, have - 1:]
    if have not in (2, 4):
        fill = np.iinfo(arr.dtype).max if opaque is None else opaque
        alpha = np.full(arr.shape[:2] + (1,), fill, arr.dtype)
    if channels in (1, 2) and colour.shape[2] == 3:
        c = colour.astype(np.int64)
        colour = ((9797 * c[:, :, 0] + 19234 * c[:, :, 1] + 3737 * c[:, :, 2]) >> 15)[
            :, :, None].astype(arr.dtype)
    elif channels in (3, 4) and colour.shape[2] == 1:
        colour = np.repeat(colour, 3, axis=2)
    return np.concatenate([colour, alpha], 2) if channels in (2, 4) else colour


def _as_dtype(arr: np.ndarray, dtype: Any, png: bool = False) -> np.ndarray:
    """Decoded pixels as ``dtype``, as TensorFlow's kernels give them: a PNG is decoded at 16
    bits for a uint16 or float result (libpng widens by 257), other formats' 8 bits are
    scaled to uint16 by 256 (convert_image_dtype); a float multiplies by the float32
    reciprocal of the maximum."""
    want = dtypes.as_dtype(dtype).base_dtype
    if png and want != dtypes.uint8 and arr.dtype == np.uint8:
        arr = arr.astype(np.uint16) * np.uint16(257)
    if want == dtypes.uint16:
        return arr if arr.dtype == np.uint16 else arr.astype(np.uint16) * np.uint16(256)
    if want == dtypes.uint8:
        return (arr >> 8).astype(np.uint8) if arr.dtype == np.uint16 else arr
    # TensorFlow's kernel multiplies by the float reciprocal of the source's maximum
    scale = np.float32(1.0 / np.iinfo(arr.dtype).max)
    return (arr.astype(np.float32) * scale).astype(want.np)


def _decode_png_kernel(contents: Any, *, channels: int, dtype: Any) -> np.ndarray:
    _check_channels("DecodePng", channels, (0, 1, 2, 3, 4))
    data = scalar_bytes(contents)
    return _as_dtype(_to_channels(_open("DecodePng", data, "png"), channels, _png_opaque(data)),
                     dtype, png=True)


def _png_opaque(data: bytes) -> int:
    """The alpha TensorFlow adds to a PNG without one: libpng's filler, (1 << the file's bit
    depth) - 1 (so 15 for a 4-bit palette image), or 255 for 16-bit files read as 8 bits."""
    depth = data[24] if len(data) > 24 else 8
    return 65535 if depth == 16 else (1 << depth) - 1


_DCT_METHODS = ("", "INTEGER_FAST", "INTEGER_ACCURATE")


def _simplejpeg() -> Any:
    """simplejpeg, or None where it is not installed (Pillow decodes then)."""
    try:
        import simplejpeg
    except ImportError:
        return None
    return simplejpeg


def _adobe_marker(data: bytes) -> bool:
    """Whether the JPEG's header has an APP14 "Adobe" segment (libjpeg's saw_Adobe_marker:
    its CMYK values are stored inverted)."""
    pos = 2
    while pos + 4 <= len(data) and data[pos] == 0xFF:
        marker = data[pos + 1]
        if marker in (0xDA, 0xD9):          # start of scan / end of image: header done
            return False
        size = struct.unpack(">H", data[pos + 2:pos + 4])[0]
        if marker == 0xEE and data[pos + 4:pos + 9] == b"Adobe":
            return True
        pos += 2 + size
    return False


def _libjpeg_pixels(sj: Any, op_type: str, data: bytes, channels: int, ratio: int,
                    fancy_upscaling: bool, dct_method: str) -> np.ndarray:
    """The pixels TensorFlow's libjpeg-turbo decode gives (jpeg_mem.cc's settings)."""
    try:
        height, width, colour, _ = sj.decode_jpeg_header(data)
    except ValueError as err:
        raise InvalidArgumentError(None, None, "%s: Invalid JPEG data: %s"
                                   % (op_type, err)) from None
    cmyk = colour in ("CMYK", "YCCK")
    if cmyk and channels == 1:
        raise InvalidArgumentError(None, None, "jpeg::Uncompress failed. Invalid JPEG data or "
                                   "crop window.")
    space = ("CMYK" if cmyk else "GRAY" if channels == 1 or (channels == 0 and colour == "Gray")
             else "RGB")
    try:
        out = sj.decode_jpeg(data, colorspace=space, fastdct=dct_method != "INTEGER_ACCURATE",
                             fastupsample=not fancy_upscaling, min_height=-(-height // ratio),
                             min_width=-(-width // ratio), min_factor=ratio)
    except ValueError as err:
        raise InvalidArgumentError(None, None, "%s: Invalid JPEG data: %s"
                                   % (op_type, err)) from None
    if cmyk:        # TensorFlow's own CMYK -> RGB
        c, m, y, k = (out[:, :, i].astype(np.int32) for i in range(4))
        if _adobe_marker(data):
            rgb = (k * c // 255, k * m // 255, k * y // 255)
        else:
            rgb = ((255 - k) * (255 - c) // 255, (255 - k) * (255 - m) // 255,
                   (255 - k) * (255 - y) // 255)
        out = np.stack(rgb, -1).astype(np.uint8)
    return out


def _jpeg_pixels(op_type: str, data: bytes, channels: int, ratio: int,
                 fancy_upscaling: bool = True, dct_method: str = "") -> np.ndarray:
    _check_channels(op_type, channels, (0, 1, 3))
    if ratio not in (1, 2, 4, 8):
        raise InvalidArgumentError(None, None, "%s: ratio must be 1, 2, 4 or 8, got %d"
                                   % (op_type, ratio))
    if dct_method not in _DCT_METHODS:
        raise InvalidArgumentError(None, None, "dct_method must be one of {'', "
                                   "'INTEGER_FAST', 'INTEGER_ACCURATE'}")
    if _format(data) != "jpeg":
        raise InvalidArgumentError(None, None, "%s: Invalid JPEG data or crop window, data "
                                   "size %d" % (op_type, len(data)))
    sj = _simplejpeg()
    if sj is not None:
        return _libjpeg_pixels(sj, op_type, data, channels, ratio, fancy_upscaling, dct_method)
    mode = {0: None, 1: "L", 3: "RGB"}[channels]
    try:
        img = _pil().open(io.BytesIO(data))
        if mode is not None or ratio != 1:
            # libjpeg's own colour conversion and scaling, as TensorFlow asks libjpeg for them
            img.draft(mode or img.mode, (img.size[0] // ratio, img.size[1] // ratio))
        img.load()
    except Exception as err:  # noqa: BLE001 - Pillow raises many kinds
        raise InvalidArgumentError(None, None, "%s: Invalid JPEG data: %s"
                                   % (op_type, err)) from None
    return _to_channels(img, channels)


def _decode_jpeg_kernel(contents: Any, *, channels: int, ratio: int, fancy_upscaling: bool,
                        try_recover_truncated: bool, acceptable_fraction: float,
                        dct_method: str) -> np.ndarray:
    return _jpeg_pixels("DecodeJpeg", scalar_bytes(contents), channels, ratio,
                        fancy_upscaling, dct_method)


def _decode_and_crop_jpeg_kernel(contents: Any, crop_window: Any, *, channels: int,
                                 ratio: int, fancy_upscaling: bool,
                                 try_recover_truncated: bool, acceptable_fraction: float,
                                 dct_method: str) -> np.ndarray:
    pixels = _jpeg_pixels("DecodeAndCropJpeg", scalar_bytes(contents), channels, ratio,
                          fancy_upscaling, dct_method)
    y, x, h, w = (int(v) for v in np.ravel(crop_window))
    if y < 0 or x < 0 or h <= 0 or w <= 0 or y + h > pixels.shape[0] or \
            x + w > pixels.shape[1]:
        raise InvalidArgumentError(None, None, "DecodeAndCropJpeg: Invalid JPEG data or crop "
                                   "window: crop window [%d, %d, %d, %d] does not fit a %dx%d "
                                   "image" % (y, x, h, w, pixels.shape[0], pixels.shape[1]))
    return pixels[y:y + h, x:x + w]


def _decode_bmp_kernel(contents: Any, *, channels: int) -> np.ndarray:
    _check_channels("DecodeBmp", channels, (0, 1, 3, 4))
    return _to_channels(_open("DecodeBmp", scalar_bytes(contents), "bmp"), channels)


def _gif_frames(op_type: str, data: bytes) -> np.ndarray:
    img = _open(op_type, data, "gif")
    frames = []
    for i in range(getattr(img, "n_frames", 1)):
        img.seek(i)
        frames.append(np.asarray(img.convert("RGB")))
    return np.stack(frames)


def _decode_gif_kernel(contents: Any) -> np.ndarray:
    return _gif_frames("DecodeGif", scalar_bytes(contents))


def _decode_image_kernel(contents: Any, *, channels: int, dtype: Any,
                         expand_animations: bool) -> np.ndarray:
    data = scalar_bytes(contents)
    fmt = _format(data)
    if fmt == "gif":
        if channels not in (0, 3):
            raise InvalidArgumentError(None, None, "DecodeImage: channels must be 0 or 3 for "
                                       "GIF, got %d" % channels)
        frames = _gif_frames("DecodeImage", data)
        return _as_dtype(frames if expand_animations else frames[0], dtype)
    if fmt == "jpeg":
        return _as_dtype(_jpeg_pixels("DecodeImage", data, channels, 1), dtype)
    _check_channels("DecodeImage", channels, (0, 1, 3, 4))
    opaque = _png_opaque(data) if fmt == "png" else None
    return _as_dtype(_to_channels(_open("DecodeImage", data, None), channels, opaque), dtype,
                     png=fmt == "png")


def _image_infer(rank: int, channels_attr: bool = True) -> Any:
    def infer(ins: list, attrs: dict) -> tuple:
        c = attrs.get("channels", 0) if channels_attr else 3
        dt = dtypes.as_dtype(attrs.get("dtype", dtypes.uint8)).base_dtype
        return dt, TensorShape([None] * (rank - 1) + [c or None])
    return infer


def _decode_image_infer(ins: list, attrs: dict) -> tuple:
    dt = dtypes.as_dtype(attrs["dtype"]).base_dtype
    c = attrs["channels"] or None
    return dt, TensorShape(None if attrs["expand_animations"] else [None, None, c])


def _png_filtered(raw: np.ndarray, bpp: int) -> bytes:
    """Rows filtered as libpng chooses: per row, the filter (None, Sub, Up, Average, Paeth)
    whose bytes, read as signed, have the smallest absolute sum; the first on a tie."""
    rows = raw.astype(np.int64)
    prev = np.zeros(rows.shape[1], np.int64)
    out = bytearray()
    for row in rows:
        left = np.concatenate([np.zeros(bpp, np.int64), row[:-bpp]])
        upleft = np.concatenate([np.zeros(bpp, np.int64), prev[:-bpp]])
        p = left + prev - upleft
        pa, pb, pc = np.abs(p - left), np.abs(p - prev), np.abs(p - upleft)
        paeth = np.where((pa <= pb) & (pa <= pc), left, np.where(pb <= pc, prev, upleft))
        cands = [row % 256, (row - left) % 256, (row - prev) % 256,
                 (row - (left + prev) // 2) % 256, (row - paeth) % 256]
        sums = [int(np.where(c < 128, c, 256 - c).sum()) for c in cands]
        best = sums.index(min(sums))
        out.append(best)
        out += cands[best].astype(np.uint8).tobytes()
        prev = row
    return bytes(out)


def _png_zlib(data: bytes, level: int) -> bytes:
    """libpng's zlib stream: Z_FILTERED, the window shrunk for small images, and the header's
    window size then reduced to the smallest that holds the data (libpng's optimize_cmf)."""
    bits, half = 15, 1 << 14
    while len(data) <= 16384 and len(data) + 262 <= half:
        half >>= 1
        bits -= 1
    comp = zlib.compressobj(level, zlib.DEFLATED, max(bits, 9), 8, zlib.Z_FILTERED)
    z = comp.compress(data) + comp.flush()
    cinfo = z[0] >> 4
    half = 1 << (cinfo + 7)
    if len(data) <= 16384 and len(data) <= half:
        while True:
            half >>= 1
            cinfo -= 1
            if not (cinfo > 0 and len(data) <= half):
                break
        cmf = (z[0] & 0x0F) | (cinfo << 4)
        flg = z[1] & 0xE0
        flg += 0x1F - ((cmf << 8) + flg) % 0x1F
        z = bytes([cmf, flg]) + z[2:]
    return z


def _png_chunk(kind: bytes, data: bytes) -> bytes:
    return (struct.pack(">I", len(data)) + kind + data
            + struct.pack(">I", zlib.crc32(kind + data)))


def _encode_png_kernel(image: np.ndarray, *, compression: int) -> np.ndarray:
    if image.ndim != 3 or image.shape[2] not in (1, 2, 3, 4):
        raise InvalidArgumentError(None, None, "EncodePng: image must be 3-dimensional with 1 "
                                   "to 4 channels, got shape %s" % list(image.shape))
    if image.dtype not in (np.uint8, np.uint16):
        raise InvalidArgumentError(None, None, "EncodePng: image must be uint8 or uint16, got "
                                   "%s" % image.dtype)
    if not -1 <= compression <= 9:
        raise InvalidArgumentError(None, None, "EncodePng: compression must be in [-1, 9], "
                                   "got %d" % compression)
    h, w, c = image.shape
    depth = 16 if image.dtype == np.uint16 else 8
    raw = image.astype(">u2").view(np.uint8) if depth == 16 else image
    data = _png_filtered(raw.reshape(h, -1), c * depth // 8)
    z = _png_zlib(data, 6 if compression == -1 else compression)
    colour = {1: 0, 2: 4, 3: 2, 4: 6}[c]
    png = [b"\x89PNG\r\n\x1a\n",
           _png_chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, depth, colour, 0, 0, 0))]
    png += [_png_chunk(b"IDAT", z[i:i + 8192]) for i in range(0, len(z), 8192)]
    png.append(_png_chunk(b"IEND", b""))
    return string_scalar(b"".join(png))


def _jpeg_bytes(op_type: str, image: np.ndarray, quality: int, progressive: bool,
                optimize_size: bool, chroma_downsampling: bool, density_unit: str,
                x_density: int, y_density: int, fmt: str) -> np.ndarray:
    if image.ndim != 3 or image.shape[2] not in (1, 3):
        raise InvalidArgumentError(None, None, "%s: image must be 3-dimensional with 1 or 3 "
                                   "channels, got shape %s" % (op_type, list(image.shape)))
    if not 0 <= quality <= 100:
        raise InvalidArgumentError(None, None, "%s: quality must be in [0,100], got %d"
                                   % (op_type, quality))
    want = {"": image.shape[2], "grayscale": 1, "rgb": 3}.get(fmt)
    if want != image.shape[2]:
        raise InvalidArgumentError(None, None, "%s: format %s expects %s channels, got %s"
                                   % (op_type, fmt, want, list(image.shape)))
    pil = _pil().fromarray(image[:, :, 0] if image.shape[2] == 1 else image)
    kw = {"quality": int(quality), "progressive": bool(progressive),
          "optimize": bool(optimize_size)}
    if image.shape[2] == 3:
        kw["subsampling"] = 2 if chroma_downsampling else 0
    if density_unit == "in":
        kw["dpi"] = (x_density, y_density)
    buf = io.BytesIO()
    pil.save(buf, "JPEG", **kw)
    data = buf.getvalue()
    if density_unit == "cm":  # JFIF density unit 2 (Pillow writes dots per inch)
        data = data[:13] + b"\x02" + x_density.to_bytes(2, "big") + \
            y_density.to_bytes(2, "big") + data[18:]
    return string_scalar(data)


def _encode_jpeg_kernel(image: np.ndarray, *, format: str, quality: int, progressive: bool,
                        optimize_size: bool, chroma_downsampling: bool, density_unit: str,
                        x_density: int, y_density: int, xmp_metadata: str) -> np.ndarray:
    return _jpeg_bytes("EncodeJpeg", image, quality, progressive, optimize_size,
                       chroma_downsampling, density_unit, x_density, y_density, format)


def _encode_jpeg_vq_kernel(image: np.ndarray, quality: Any) -> np.ndarray:
    return _jpeg_bytes("EncodeJpegVariableQuality", image, int(quality), False, False, True,
                       "in", 300, 300, "")


def _extract_jpeg_shape_kernel(contents: Any, *, output_type: Any) -> np.ndarray:
    data = scalar_bytes(contents)
    if _format(data) != "jpeg":
        raise InvalidArgumentError(None, None, "ExtractJpegShape: Invalid JPEG data, size %d"
                                   % len(data))
    img = _pil().open(io.BytesIO(data))
    c = {"L": 1, "CMYK": 4}.get(img.mode, 3)
    return np.array([img.size[1], img.size[0], c], dtypes.as_dtype(output_type).np)


def _string_out(ins: list, attrs: dict) -> tuple:
    return dtypes.string, TensorShape([])


_JPEG_ATTRS = ("channels", "ratio", "fancy_upscaling", "try_recover_truncated",
               "acceptable_fraction", "dct_method")
register_op("DecodePng", _decode_png_kernel, _image_infer(3), input_names=("contents",))
register_op("DecodeJpeg", _decode_jpeg_kernel, _image_infer(3), input_names=("contents",))
register_op("DecodeAndCropJpeg", _decode_and_crop_jpeg_kernel, _image_infer(3),
            input_names=("contents", "crop_window"))
register_op("DecodeBmp", _decode_bmp_kernel, _image_infer(3), input_names=("contents",))
register_op("DecodeGif", _decode_gif_kernel, _image_infer(4, False), input_names=("contents",))
register_op("DecodeImage", _decode_image_kernel, _decode_image_infer, input_names=("contents",))
register_op("EncodePng", _encode_png_kernel, _string_out, input_names=("image",))
register_op("EncodeJpeg", _encode_jpeg_kernel, _string_out, input_names=("image",))
register_op("EncodeJpegVariableQuality", _encode_jpeg_vq_kernel, _string_out,
            input_names=("images", "quality"))
register_op("ExtractJpegShape", _extract_jpeg_shape_kernel,
            lambda ins, attrs: (dtypes.as_dtype(attrs["output_type"]), TensorShape([3])),
            input_names=("contents",))
for _t in ("DecodePng", "DecodeJpeg", "DecodeAndCropJpeg", "DecodeBmp", "DecodeGif",
           "DecodeImage", "EncodePng", "EncodeJpeg", "EncodeJpegVariableQuality",
           "ExtractJpegShape"):
    NotDifferentiable(_t)


def _contents(contents: Any) -> Any:
    return convert_to_tensor(contents, dtypes.string, name="contents")


def _jpeg_attrs(channels: int, ratio: int, fancy_upscaling: bool, try_recover_truncated: bool,
                acceptable_fraction: float, dct_method: str) -> dict:
    return {"channels": int(channels), "ratio": int(ratio),
            "fancy_upscaling": bool(fancy_upscaling),
            "try_recover_truncated": bool(try_recover_truncated),
            "acceptable_fraction": float(acceptable_fraction), "dct_method": dct_method}


def decode_png(contents: TensorLike, channels: int = 0, dtype: DTypeLike = dtypes.uint8,
               name: str | None = None) -> Any:
    """Decodes a PNG image to a uint8 or uint16 tensor [height, width, channels].

    Args:
        contents: A string scalar: the PNG file's bytes.
        channels: 0 (the file's), 1 (grayscale), 3 (RGB) or 4 (RGBA).
        dtype: uint8 or uint16.
        name: A name for the operation.

    Returns:
        The pixels.
    """
    return apply_op("DecodePng", (_contents(contents),),
                    {"channels": int(channels), "dtype": dtypes.as_dtype(dtype)}, name=name)


def decode_jpeg(contents: TensorLike, channels: int = 0, ratio: int = 1,
                fancy_upscaling: bool = True, try_recover_truncated: bool = False,
                acceptable_fraction: float = 1, dct_method: str = "",
                name: str | None = None) -> Any:
    """Decodes a JPEG image to a uint8 tensor [height, width, channels].

    With simplejpeg installed (``pip install flowgrad[image]``) the pixels are TensorFlow's
    for every setting; without it Pillow decodes with libjpeg's accurate integer DCT
    whatever ``dct_method`` says (TensorFlow's ``"INTEGER_ACCURATE"``).

    Args:
        contents: A string scalar: the JPEG file's bytes.
        channels: 0 (the file's), 1 (grayscale) or 3 (RGB).
        ratio: Downscaling ratio: 1, 2, 4 or 8 (libjpeg's scaling).
        fancy_upscaling: libjpeg's fancy (smooth) chroma upsampling, else replication.
        try_recover_truncated: Accepted; truncated files are an error.
        acceptable_fraction: Accepted; truncated files are an error.
        dct_method: ``""`` or ``"INTEGER_FAST"`` (libjpeg's fast integer DCT, TensorFlow's
            default) or ``"INTEGER_ACCURATE"``.
        name: A name for the operation.

    Returns:
        The pixels.

    Raises:
        InvalidArgumentError: not a JPEG, a bad ``channels``/``ratio``/``dct_method``, or a
            CMYK file decoded to one channel.
    """
    return apply_op("DecodeJpeg", (_contents(contents),),
                    _jpeg_attrs(channels, ratio, fancy_upscaling, try_recover_truncated,
                                acceptable_fraction, dct_method), name=name)


def decode_and_crop_jpeg(contents: TensorLike, crop_window: Any, channels: int = 0, ratio: int = 1,
                         fancy_upscaling: bool = True, try_recover_truncated: bool = False,
                         acceptable_fraction: float = 1, dct_method: str = "",
                         name: str | None = None) -> Any:
    """Decodes a JPEG image and crops ``crop_window`` = [y, x, height, width] from it.

    Args:
        contents: A string scalar: the JPEG file's bytes.
        crop_window: [crop_y, crop_x, crop_height, crop_width].
        channels: 0, 1 or 3.
        ratio: Downscaling ratio: 1, 2, 4 or 8.
        fancy_upscaling: Accepted.
        try_recover_truncated: Accepted.
        acceptable_fraction: Accepted.
        dct_method: As for ``decode_jpeg``.
        name: A name for the operation.

    Returns:
        The cropped pixels.
    """
    return apply_op("DecodeAndCropJpeg",
                    (_contents(contents), convert_to_tensor(crop_window, dtypes.int32)),
                    _jpeg_attrs(channels, ratio, fancy_upscaling, try_recover_truncated,
                                acceptable_fraction, dct_method), name=name)


def decode_bmp(contents: TensorLike, channels: int = 0, name: str | None = None) -> Any:
    """Decodes a BMP image to a uint8 tensor [height, width, channels].

    Args:
        contents: A string scalar: the BMP file's bytes.
        channels: 0, 1, 3 or 4.
        name: A name for the operation.

    Returns:
        The pixels.
    """
    return apply_op("DecodeBmp", (_contents(contents),), {"channels": int(channels)}, name=name)


def decode_gif(contents: TensorLike, name: str | None = None) -> Any:
    """Decodes a GIF's frames to a uint8 tensor [num_frames, height, width, 3].

    Args:
        contents: A string scalar: the GIF file's bytes.
        name: A name for the operation.

    Returns:
        The frames.
    """
    return apply_op("DecodeGif", (_contents(contents),), {}, name=name)


def decode_image(contents: TensorLike, channels: int | None = None, dtype: DTypeLike = dtypes.uint8,
                 name: str | None = None, expand_animations: bool = True) -> Any:
    """Decodes a BMP, GIF, JPEG or PNG image, whichever the bytes are.

    Args:
        contents: A string scalar: the file's bytes.
        channels: None/0 (the file's), 1, 3 or 4.
        dtype: uint8, uint16 or a float dtype (scaled to [0, 1] as convert_image_dtype).
        name: A name for the operation.
        expand_animations: GIFs give all frames (4-D) if True, else the first (3-D).

    Returns:
        The pixels.
    """
    return apply_op("DecodeImage", (_contents(contents),),
                    {"channels": int(channels or 0), "dtype": dtypes.as_dtype(dtype),
                     "expand_animations": bool(expand_animations)}, name=name)


def encode_png(image: TensorLike, compression: int = -1, name: str | None = None) -> Any:
    """Encodes a uint8 (or one-channel uint16) image [height, width, channels] as PNG.

    Args:
        image: The pixels.
        compression: zlib level 0-9, -1 for the default (6).
        name: A name for the operation.

    Returns:
        A string scalar: the PNG file's bytes.
    """
    return apply_op("EncodePng", (convert_to_tensor(image, name="image"),),
                    {"compression": int(compression)}, name=name)


def encode_jpeg(image: TensorLike, format: str = "", quality: int = 95, progressive: bool = False,
                optimize_size: bool = False, chroma_downsampling: bool = True,
                density_unit: str = "in", x_density: int = 300, y_density: int = 300,
                xmp_metadata: str = "", name: str | None = None) -> Any:
    """Encodes a uint8 image [height, width, 1 or 3] as JPEG (TensorFlow's bytes).

    Args:
        image: The pixels.
        format: "" (from the channels), "grayscale" or "rgb".
        quality: 0-100.
        progressive: Write a progressive JPEG.
        optimize_size: Optimise the Huffman tables.
        chroma_downsampling: Subsample chroma (4:2:0).
        density_unit: "in" or "cm".
        x_density: Horizontal pixels per density unit.
        y_density: Vertical pixels per density unit.
        xmp_metadata: Not written by flowgrad (must be empty).
        name: A name for the operation.

    Returns:
        A string scalar: the JPEG file's bytes.

    Raises:
        ValueError: For XMP metadata (not supported).
    """
    if xmp_metadata:
        raise ValueError("encode_jpeg(xmp_metadata=...) is not supported by flowgrad")
    attrs = {"format": format, "quality": int(quality), "progressive": bool(progressive),
             "optimize_size": bool(optimize_size),
             "chroma_downsampling": bool(chroma_downsampling), "density_unit": density_unit,
             "x_density": int(x_density), "y_density": int(y_density),
             "xmp_metadata": xmp_metadata}
    return apply_op("EncodeJpeg", (convert_to_tensor(image, name="image"),), attrs, name=name)


def encode_jpeg_variable_quality(images: TensorLike, quality: Any) -> Any:
    """JPEG bytes of ``images`` at a quality given as a tensor."""
    return apply_op("EncodeJpegVariableQuality",
                    (convert_to_tensor(images), convert_to_tensor(quality, dtypes.int32)), {})


def extract_jpeg_shape(contents: TensorLike, output_type: DTypeLike = dtypes.int32,
                       name: str | None = None) -> Any:
    """[height, width, channels] of a JPEG image, read from its header.

    Args:
        contents: A string scalar: the JPEG file's bytes.
        output_type: int32 or int64.
        name: A name for the operation.

    Returns:
        The shape.
    """
    return apply_op("ExtractJpegShape", (_contents(contents),),
                    {"output_type": dtypes.as_dtype(output_type)}, name=name)


def is_jpeg(contents: TensorLike, name: str | None = None) -> Any:
    """Whether the bytes start with JPEG's signature (a boolean scalar).

    Args:
        contents: A string scalar.
        name: A name for the operation.

    Returns:
        A bool scalar.
    """
    return equal(substr(_contents(contents), 0, 3), b"\xff\xd8\xff", name=name)


def adjust_jpeg_quality(image: TensorLike, jpeg_quality: Any, dct_method: str = "",
                        name: str | None = None) -> Any:
    """The image after a JPEG round trip at ``jpeg_quality`` (converted to uint8 and back).

    Args:
        image: 3-D RGB or grayscale images.
        jpeg_quality: 0-100.
        dct_method: As for ``decode_jpeg`` (the decode after the round trip).
        name: A name for the operation.

    Returns:
        The image, of its own dtype.
    """
    with name_scope(name or "adjust_jpeg_quality"):
        image = convert_to_tensor(image, name="image")
        channels = image.shape.as_list()[-1]
        orig = image.dtype.base_dtype
        image = convert_image_dtype(image, dtypes.uint8, saturate=True)
        data = encode_jpeg_variable_quality(image, jpeg_quality)
        image = decode_jpeg(data, channels=channels or 0, dct_method=dct_method)
        return convert_image_dtype(image, orig, saturate=True)


def random_jpeg_quality(image: TensorLike, min_jpeg_quality: int, max_jpeg_quality: int,
                        seed: int | None = None) -> Any:
    """adjust_jpeg_quality at a quality drawn uniformly from [min, max).

    Args:
        image: 3-D images.
        min_jpeg_quality: Lowest quality (0-100).
        max_jpeg_quality: Highest quality (exclusive, 0-100).
        seed: An op-level seed.

    Returns:
        The image after the round trip.

    Raises:
        ValueError: For qualities outside [0, 100] or an empty range.
    """
    if not (0 <= min_jpeg_quality <= 100 and 0 <= max_jpeg_quality <= 100):
        raise ValueError("jpeg encoding range must be between 0 and 100.")
    if min_jpeg_quality >= max_jpeg_quality:
        raise ValueError("`min_jpeg_quality` must be less than `max_jpeg_quality`.")
    quality = random_uniform([], min_jpeg_quality, max_jpeg_quality, seed=seed,
                             dtype=dtypes.int32)
    return adjust_jpeg_quality(image, quality)


def stateless_random_jpeg_quality(image: TensorLike, min_jpeg_quality: int, max_jpeg_quality: int,
                                  seed: int | None) -> Any:
    """adjust_jpeg_quality at a quality in [min, max) drawn from ``seed`` (shape [2]).

    Args:
        image: 3-D images.
        min_jpeg_quality: Lowest quality (0-100).
        max_jpeg_quality: Highest quality (exclusive, 0-100).
        seed: A shape-[2] seed.

    Returns:
        The image after the round trip.

    Raises:
        ValueError: For qualities outside [0, 100] or an empty range.
    """
    if not (0 <= min_jpeg_quality <= 100 and 0 <= max_jpeg_quality <= 100):
        raise ValueError("jpeg encoding range must be between 0 and 100.")
    if min_jpeg_quality >= max_jpeg_quality:
        raise ValueError("`min_jpeg_quality` must be less than `max_jpeg_quality`.")
    quality = stateless_random_uniform([], seed, min_jpeg_quality, max_jpeg_quality,
                                       dtype=dtypes.int32)
    return adjust_jpeg_quality(image, quality)
