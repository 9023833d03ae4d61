"""Records TensorFlow's ImageProjectiveTransformV2/V3 (``/path/to/tf-venv/bin/python
tools/tf_reference/image_transform_reference.py``): outputs for every fill mode and
interpolation, shared and per-image transforms, a projective one, other output sizes and
dtypes, and the gradient TensorFlow registers, into tests/data/image_transform/tf_2_21.json,
which tests/test_image_transform.py replays on flowgrad."""
import json
import os

import numpy as np
import tensorflow as tf

TRANSFORMS = {
    "shared": [[1.0, 0.2, -1.5, 0.1, 1.0, 2.3, 0.0, 0.0]],
    "per_image": [[0.9, -0.3, 2.0, 0.25, 1.1, -3.2, 0.0, 0.0],
                  [1.0, 0.0, 3.5, 0.0, 1.0, -4.5, 0.0, 0.0]],
    "projective": [[1.1, 0.1, -0.5, -0.2, 0.9, 1.0, 0.03, -0.02]],
    "far": [[2.5, 0.0, -12.0, 0.0, 3.0, 9.5, 0.0, 0.0]],
    "infinite": [[1.0, 0.0, 0.0, 0.0, 1.0, 0.0, -0.5, 0.0]],
}


def main() -> None:
    """Writes the record."""
    rng = np.random.RandomState(0)
    x = rng.uniform(-2, 2, (2, 5, 7, 3)).astype(np.float32)
    u8 = rng.randint(0, 256, (2, 5, 7, 3)).astype(np.uint8)
    w = rng.randn(2, 6, 4, 3).astype(np.float32)
    cases = []
    for tname, t in TRANSFORMS.items():
        for mode in ("CONSTANT", "REFLECT", "WRAP", "NEAREST"):
            for interp in ("NEAREST", "BILINEAR"):
                for out_shape in ([5, 7], [6, 4]):
                    y = tf.raw_ops.ImageProjectiveTransformV3(
                        images=x, transforms=t, output_shape=out_shape, fill_value=-0.75,
                        interpolation=interp, fill_mode=mode)
                    yu = tf.raw_ops.ImageProjectiveTransformV2(
                        images=u8, transforms=t, output_shape=out_shape,
                        interpolation=interp, fill_mode=mode)
                    case = {"transform": tname, "fill_mode": mode, "interpolation": interp,
                            "output_shape": out_shape, "y": y.numpy().tolist(),
                            "y_uint8": yu.numpy().tolist()}
                    if out_shape == [6, 4]:
                        xt = tf.constant(x)
                        with tf.GradientTape() as tape:
                            tape.watch(xt)
                            z = tf.raw_ops.ImageProjectiveTransformV3(
                                images=xt, transforms=t, output_shape=out_shape,
                                fill_value=-0.75, interpolation=interp, fill_mode=mode)
                            loss = tf.reduce_sum(z * w)
                        case["grad"] = tape.gradient(loss, xt).numpy().tolist()
                    cases.append(case)
    out = {"x": x.tolist(), "x_uint8": u8.tolist(), "w": w.tolist(),
           "transforms": TRANSFORMS, "cases": cases}
    path = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "data",
                        "image_transform", "tf_2_21.json")
    with open(path, "w") as f:
        json.dump(out, f)


if __name__ == "__main__":
    main()
