"""TensorFlow's resource-variables flag: ``tf.compat.v1.resource_variables_enabled`` and the
switches that change it, against TensorFlow 2.21 (tools/tf_reference/resource_variables.py,
tests/data/resource_variables/tf_2_21.json). flowgrad's graph variables stay VariableV2 ops
whatever the flag (docs/differences.md)."""
import flowgrad as tf
from tf_reference_program import load

PROGRAM, RECORD = load("resource_variables.py", "resource_variables/tf_2_21.json")


def test_the_flag_follows_tensorflows_switches():
    assert [list(step) for step in PROGRAM.program(tf)] == RECORD


def test_the_switches_are_tf1_names_only():
    for name in ("resource_variables_enabled", "enable_resource_variables",
                 "disable_resource_variables"):
        assert callable(getattr(tf.compat.v1, name))
        assert not hasattr(tf, name)
