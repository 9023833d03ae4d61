"""The ICU script code (``UScriptCode``) TensorFlow 2.21's ``tf.strings.unicode_script`` gives
every code point, as runs: writes ``flowgrad/ops/unicode_script_table.py`` (the first code
point of each run of one script and that script's code) with::

    /work/venv-tf/bin/python tools/tf_reference/unicode_scripts.py

``tf.strings.unicode_script`` of flowgrad looks code points up in that table;
tests/test_unicode_script.py checks it against a sample recorded here into
tests/data/unicode_script/tf_2_21.json.
"""
import json
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
HEADER = '''"""The ICU script code (``UScriptCode``) of every Unicode code point, as runs: code
points from ``RUN_STARTS[i]`` up to the next start have script ``RUN_SCRIPTS[i]``. Generated from
TensorFlow 2.21's ``tf.strings.unicode_script`` (its bundled ICU) by
tools/tf_reference/unicode_scripts.py; do not edit."""
'''


def _wrapped(name, values):
    lines, line = [], "    "
    for v in values:
        item = "%d, " % v
        if len(line) + len(item) > 99:
            lines.append(line.rstrip())
            line = "    "
        line += item
    lines.append(line.rstrip())
    return "%s = (\n%s\n)\n" % (name, "\n".join(lines))


def main():
    import tensorflow as tf

    cp = np.arange(0, 0x110000, dtype=np.int32)
    scripts = tf.strings.unicode_script(cp).numpy()
    starts = np.concatenate([[0], np.nonzero(np.diff(scripts))[0] + 1])
    table = HEADER + "\n" + _wrapped("RUN_STARTS", starts) + "\n" + \
        _wrapped("RUN_SCRIPTS", scripts[starts])
    (ROOT / "flowgrad" / "ops" / "unicode_script_table.py").write_text(table)
    rng = np.random.RandomState(3)
    sample = np.concatenate([rng.randint(0, 0x110000, 3000), starts[1:] - 1, starts,
                             [-5, -1, 0x110000, 0x7FFFFFFF, 0xD800, 0xDFFF]]).astype(np.int32)
    out = ROOT / "tests" / "data" / "unicode_script"
    out.mkdir(parents=True, exist_ok=True)
    ragged = tf.ragged.constant([[72, 1047, 0x4E2D], [], [0x0627]], dtype=tf.int32)
    record = {"codepoints": sample.tolist(),
              "scripts": tf.strings.unicode_script(sample).numpy().tolist(),
              "matrix": tf.strings.unicode_script(sample[:12].reshape(3, 4)).numpy().tolist(),
              "ragged": tf.strings.unicode_script(ragged).to_list()}
    (out / "tf_2_21.json").write_text(json.dumps(record))


if __name__ == "__main__":
    main()
