"""``tf.compat.v1.make_template`` against TensorFlow 2.21 (tools/tf_reference/make_template.py
printed tests/data/make_template/tf_2_21.txt: scope names, shared variables, values and the
errors)."""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_a_tensorflow_program_prints_what_tensorflow_printed():
    want = open(os.path.join(ROOT, "tests", "data", "make_template", "tf_2_21.txt")).read()
    out = subprocess.run([sys.executable, "-m", "flowgrad",
                          os.path.join(ROOT, "tools", "tf_reference", "make_template.py")],
                         capture_output=True, text=True, timeout=120,
                         env={**os.environ, "PYTHONPATH": ROOT})
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == want.splitlines()
