"""Writes the small image files tools/tf_reference/record_image.py has TensorFlow decode
(tests/data/image/anim.gif, rgb.bmp, rgba.png, gray16.png, palette.png), made with Pillow from
fixed pixels. Run with the global python (Pillow), before record_image.py:

    python tools/tf_reference/make_image_files.py
"""
from __future__ import annotations

import pathlib

import numpy as np
from PIL import Image

OUT = pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "image"


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    rng = np.random.RandomState(7)
    frames = [Image.fromarray(rng.randint(0, 256, (5, 6, 3)).astype(np.uint8)).convert(
        "P", palette=Image.Palette.ADAPTIVE, colors=16) for _ in range(3)]
    frames[0].save(OUT / "anim.gif", save_all=True, append_images=frames[1:], duration=50,
                   loop=0)
    Image.fromarray(rng.randint(0, 256, (4, 7, 3)).astype(np.uint8)).save(OUT / "rgb.bmp")
    Image.fromarray(rng.randint(0, 256, (3, 5, 4)).astype(np.uint8)).save(OUT / "rgba.png")
    Image.fromarray(rng.randint(0, 65536, (4, 3)).astype(np.uint16)).save(
        OUT / "gray16.png")
    Image.fromarray(rng.randint(0, 256, (6, 4, 3)).astype(np.uint8)).convert(
        "P", palette=Image.Palette.ADAPTIVE, colors=8).save(OUT / "palette.png")


if __name__ == "__main__":
    main()
