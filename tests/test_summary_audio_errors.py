"""Bad tf.summary.audio / tf.compat.v1.summary.audio calls raise TensorFlow 2.21's error
classes (tools/tf_reference/summary_audio_errors.py into tests/data/summary_audio/errors.json);
the values written are pinned by tests/test_summary_v2_events.py."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

import flowgrad as tf

sys.path.insert(0, str(Path(__file__).resolve().parent))
import tf_reference_program  # noqa: E402

pytest.importorskip("tensorboard")
MODULE, RECORD = tf_reference_program.load("summary_audio_errors.py",
                                           "summary_audio/errors.json")


@pytest.fixture
def results(graph_mode):
    tf.compat.v1.enable_v2_behavior()        # TF2 programs: eager (conftest restores it)
    return MODULE.program(tf)


@pytest.mark.parametrize("key", sorted(RECORD))
def test_error_class_matches_tensorflow(results, key):
    assert results[key] == RECORD[key]
