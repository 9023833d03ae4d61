"""tf.nn.ctc_beam_search_decoder (TF2) and tf.compat.v1.nn.ctc_beam_search_decoder against
TensorFlow 2.21: the program of tools/tf_reference/ctc_beam_reference.py run with flowgrad as
``tf`` against its recording tests/data/ctc/beam_tf_2_21.json (paths exactly, log
probabilities to float32 rounding); the op in a graph; errors."""
import importlib.util
import json
import os

import numpy as np
import pytest

import flowgrad as tf
import flowgrad.compat.v1 as tf1
from flowgrad.framework import errors
from flowgrad.framework.context import state

_HERE = os.path.dirname(__file__)
with open(os.path.join(_HERE, "data", "ctc", "beam_tf_2_21.json")) as _f:
    REF = json.load(_f)
_spec = importlib.util.spec_from_file_location(
    "ctc_beam_reference", os.path.join(_HERE, "..", "tools", "tf_reference",
                                       "ctc_beam_reference.py"))
PROGRAM = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(PROGRAM)


@pytest.fixture
def eager():
    state.eager = True
    yield
    state.eager = True


def test_the_recorded_program_gives_tensorflows_paths(eager):
    got = PROGRAM.program(tf)
    assert sorted(got) == sorted(REF)
    for key in REF:
        assert got[key][0] == REF[key][0], key
        np.testing.assert_allclose(got[key][1], REF[key][1], rtol=1e-5, atol=1e-5,
                                   err_msg=key)


def test_in_a_graph_and_errors():
    x = tf1.placeholder(tf1.float32, [None, 2, 4])
    decoded, log_probs = tf1.nn.ctc_beam_search_decoder(x, [3, 2], beam_width=3, top_paths=2)
    assert len(decoded) == 2 and log_probs.shape.as_list() == [2, 2]
    assert log_probs.op.type == "CTCBeamSearchDecoder"
    with tf1.Session() as sess:
        lp = sess.run(log_probs, {x: np.random.RandomState(0).randn(3, 2, 4)})
    assert lp.shape == (2, 2) and (lp[:, 0] >= lp[:, 1]).all()
    with pytest.raises(errors.InvalidArgumentError, match="more paths than the beam width"):
        tf.nn.ctc_beam_search_decoder(x, [3, 2], beam_width=2, top_paths=3)
    with pytest.raises(errors.InvalidArgumentError, match="at least minimum 1"):
        tf.nn.ctc_beam_search_decoder(x, [3, 2], top_paths=0)
