"""flowgrad's TF1 face against TensorFlow 2.21's whole ``tf.compat.v1`` (recursively,
recorded by tools/tf_reference/compat_v1_names.py): every name flowgrad lacks is in the
committed allow-list tests/data/compat_v1_names/missing.txt, and the list only shrinks: it may
not grow past its size. A listed name flowgrad has by now (others add names all the time) is
reported as a warning; ``python tests/compat_v1_names.py --write`` then shortens the list."""
from __future__ import annotations

import sys
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compat_v1_names import allowed, missing_names, tensorflow_namespaces  # noqa: E402

#: The allow-list's size when it was last shortened; lower it with the list, never raise it.
MAX_MISSING = 1657


def test_the_recording_is_tensorflow_2_21s_whole_compat_v1():
    namespaces = tensorflow_namespaces()
    assert len(namespaces) > 100
    for path in ("tf.compat.v1", "tf.compat.v1.layers", "tf.compat.v1.nn.rnn_cell",
                 "tf.compat.v1.metrics", "tf.compat.v1.train", "tf.compat.v1.keras.layers"):
        assert path in namespaces, path
    assert namespaces["tf.compat.v1"]["placeholder"] == "function"
    assert namespaces["tf.compat.v1.layers"]["Dense"] == "class"


def test_what_flowgrad_lacks_is_allow_listed_and_the_list_only_shrinks():
    listed = allowed()
    assert listed == sorted(set(listed)), "keep the allow-list sorted and without repeats"
    assert len(listed) <= MAX_MISSING, "the allow-list may only shrink"
    missing = set(missing_names())
    new = sorted(missing - set(listed))
    assert not new, "names of TF 2.21's tf.compat.v1 flowgrad lacks that are not " \
                    "allow-listed: %s" % new
    built = sorted(set(listed) - missing)
    if built:
        warnings.warn("flowgrad has these now: shorten tests/data/compat_v1_names/missing.txt "
                      "(python tests/compat_v1_names.py --write) and lower MAX_MISSING: %s"
                      % built, stacklevel=1)
