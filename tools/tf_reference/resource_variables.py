"""Records TensorFlow's resource-variables flag (``tf.compat.v1.resource_variables_enabled``)
through the switches that change it, with ``/path/to/tf-venv/bin/python
tools/tf_reference/resource_variables.py`` into tests/data/resource_variables/tf_2_21.json;
tests/test_resource_variables.py runs the same ``program`` with flowgrad as ``tf``."""
import json
import os


def program(tf) -> list:
    """[(the switch just called, the flag after it)], from TF2's start."""
    v1 = tf.compat.v1
    v1.enable_v2_behavior()
    out = [("enable_v2_behavior", v1.resource_variables_enabled())]
    for switch in ("disable_eager_execution", "disable_resource_variables",
                   "enable_resource_variables", "enable_eager_execution", "disable_v2_behavior",
                   "enable_resource_variables", "disable_v2_behavior", "enable_v2_behavior"):
        getattr(v1, switch)()
        out.append((switch, v1.resource_variables_enabled()))
    return out


def main() -> None:
    """Writes the record."""
    import tensorflow as tf
    path = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "data",
                        "resource_variables", "tf_2_21.json")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(program(tf), f, indent=1)


if __name__ == "__main__":
    main()
