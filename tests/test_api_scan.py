"""tools/api_scan.py: how it reads programs, and the coverage of the committed scan."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import api_scan  # noqa: E402


def test_aliases_and_from_imports_give_full_chains():
    code = ("import tensorflow as tf\nfrom tensorflow.keras import layers\n"
            "from tensorflow.keras.layers import Dense as D\n"
            "x = tf.nn.relu(tf.constant(1.0))\nl = layers.Conv2D(3, 3)\nd = D(4)\n"
            "s = 'tf.fake.name'\n")
    uses = api_scan.chains_of(code)
    assert uses["tf.nn.relu"] == 1 and uses["tf.constant"] == 1
    assert uses["tf.keras.layers.Conv2D"] == 1
    assert uses["tf.keras.layers.Dense"] == 1       # the import itself
    assert "tf.nn" not in uses                      # only the whole chain counts
    assert "tf.fake.name" not in uses               # text in strings is not code


def test_programs_without_tensorflow_are_skipped():
    assert api_scan.chains_of("import numpy as np\nnp.zeros(3)\n") is None


def test_python2_sources_fall_back_to_the_regex_reader():
    code = "import tensorflow as tf\nprint 'hi'\nx = tf.placeholder(tf.float32)\n"
    uses = api_scan.chains_of(code)
    assert uses["tf.placeholder"] == 1 and uses["tf.float32"] == 1


def test_tf1_programs_are_counted_under_compat_v1():
    uses = api_scan.chains_of("import tensorflow as tf\nx = tf.placeholder(tf.float32)\n"
                              "s = tf.Session()\nk = tf.keras.layers.Dense\n")
    moved = api_scan._as_tf1(uses)
    assert moved["tf.compat.v1.placeholder"] == 1 and moved["tf.compat.v1.Session"] == 1
    assert moved["tf.keras.layers.Dense"] == 1
    tf2 = api_scan.chains_of("import tensorflow as tf\ntf.constant(1)\n")
    assert api_scan._as_tf1(tf2) == tf2
    # a module path stays one: TF 1.x's tensorflow.python.ops is TF 2's too
    internal = api_scan.chains_of("import tensorflow as tf\nfrom tensorflow.python.ops import "
                                  "resources\ns = tf.Session()\nresources.shared_resources()\n")
    assert api_scan._as_tf1(internal)["tf.python.ops.resources.shared_resources"] == 1


def test_notebooks_and_markdown_are_read_for_their_code():
    nb = json.dumps({"cells": [
        {"cell_type": "markdown", "source": ["tf.not_code()"]},
        {"cell_type": "code", "source": ["!pip install tensorflow\n", "import tensorflow as tf\n",
                                         "tf.zeros([2])\n"]}]})
    code = api_scan._code_of("a.ipynb", nb)
    assert api_scan.chains_of(code)["tf.zeros"] == 1
    md = "text tf.x\n```python\nimport tensorflow as tf\ntf.ones(1)\n```\n"
    assert dict(api_scan.chains_of(api_scan._code_of("a.md", md))) == {"tf.ones": 1}


def _in_a_fresh_process(code: str) -> str:
    """Runs ``code`` in a new interpreter (resolving names installs the drop-in, which this
    test process must not keep)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_resolves_names_as_a_program_under_the_drop_in_sees_them():
    out = _in_a_fresh_process(
        "import sys; sys.path.insert(0, 'tools'); import api_scan as a\n"
        "print(a.resolves('tf.nn.relu'), a.resolves('tf.compat.v1.placeholder'),\n"
        "      a.resolves('tf.compat.v1.no_such_function'), a.resolves('tf.placeholder'),\n"
        "      a.resolves('tf.examples.tutorials.mnist.input_data.read_data_sets'))")
    assert out.split() == ["True", "True", "False", "False", "True"]


def test_names_only_tensorflow_1_has_resolve_on_the_tf1_face():
    """A program using ``tf.GraphDef`` or ``tf.gfile`` was written for TF 1.x:
    ``python -m flowgrad --tf1`` serves it."""
    out = _in_a_fresh_process(
        "import sys; sys.path.insert(0, 'tools'); import api_scan as a\n"
        "roots = frozenset({'GraphDef', 'gfile'})\n"
        "print(a.resolves('tf.GraphDef'), a.resolves('tf.GraphDef', tf1_roots=roots),\n"
        "      a.resolves('tf.gfile.FastGFile', tf1_roots=roots),\n"
        "      a.resolves('tf.gfile.NoSuchThing', tf1_roots=roots))")
    assert out.split() == ["False", "True", "True", "False"]
    with open(ROOT / "tools" / "api_scan_results.json", encoding="utf-8") as f:
        roots = json.load(f)["tf1_only_roots"]
    assert {"GraphDef", "gfile", "Session", "placeholder"} <= set(roots)
    assert not {"constant", "keras", "function"} & set(roots)


def test_committed_scan_covers_at_least_the_recorded_share():
    """A ratchet: the share of uses that resolve on flowgrad never falls below the figure the
    README quotes (raise it as coverage grows)."""
    out = _in_a_fresh_process("import sys; sys.argv = ['api_scan', 'check', '--json'];"
                              "sys.path.insert(0, 'tools'); import api_scan; api_scan.main()")
    figures = json.loads(out)
    assert figures["programs"] >= 500
    assert figures["uses_covered"] / figures["uses"] >= 0.992
    assert figures["tf_uses_covered"] / figures["tf_uses"] >= 0.996   # names TF 2.21 has
    assert figures["tf_uses"] < figures["uses"]          # the TensorFlow 2.21 reference is there
