"""tf.linalg.diag / diag_part / set_diag with ``k`` (a diagonal off the main one, or a band),
``num_rows``/``num_cols``, ``padding_value`` and ``align`` (TensorFlow's MatrixDiagV3,
MatrixDiagPartV3 and MatrixSetDiagV3; Keras 3's ``ops.diag``/``diagonal`` use them) give
TensorFlow 2.21's values, gradients and error classes, recorded by
tools/tf_reference/matrix_diag_reference.py. Gradient checks: tests/op_db.py."""
import numpy as np
import pytest

import flowgrad as tf
import flowgrad.compat.v1 as tf1

from tf_reference_program import load

PROGRAM, REF = load("matrix_diag_reference.py", "matrix_diag/tf_2_21.json")


@pytest.fixture(autouse=True)
def eager_mode():
    tf1.enable_v2_behavior()            # conftest starts every test in graph mode


@pytest.fixture(scope="module")
def got():
    tf1.enable_v2_behavior()
    return PROGRAM.program(tf)


@pytest.mark.parametrize("case", sorted(REF))
def test_results_are_tensorflows(got, case):
    want, have = REF[case], got[case]
    if isinstance(want, str) or isinstance(have, str):      # an error class
        assert have == want
    elif case.startswith("grad_set"):
        for h, w in zip(have, want):
            np.testing.assert_array_equal(h, w)
    else:
        assert np.asarray(have).dtype.kind == np.asarray(want).dtype.kind
        np.testing.assert_array_equal(have, want)


def test_graph_shapes_follow_a_constant_k_and_run_with_a_fed_one():
    with tf.Graph().as_default():
        x = tf1.placeholder(tf.float32, [2, 3, 5])
        assert tf.linalg.diag_part(x, k=(-1, 2)).shape.as_list() == [2, 4, 3]
        assert tf.linalg.diag(tf.ones([4]), k=-2).shape.as_list() == [6, 6]
        k = tf1.placeholder(tf.int32, [])
        part = tf.linalg.diag_part(x, k=k)
        assert part.shape.rank is None
        with tf1.Session() as sess:
            out = sess.run(part, {x: np.arange(30.0).reshape(2, 3, 5), k: 2})
    np.testing.assert_array_equal(out, [[2, 8, 14], [17, 23, 29]])


def test_main_diagonal_defaults_keep_tensorflow_1s_ops():
    with tf.Graph().as_default():
        assert tf.linalg.diag([1.0, 2.0]).op.type == "MatrixDiag"
        assert tf.linalg.diag([1.0, 2.0], k=1).op.type == "MatrixDiagV3"
        assert tf.linalg.diag_part(tf.ones([2, 2]), k=-1).op.type == "MatrixDiagPartV3"


def test_a_bad_band_while_building_a_graph_is_a_value_error():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="out of bounds"):
            tf.linalg.diag_part(tf.ones([3, 4]), k=5)
        with pytest.raises(ValueError, match="align"):
            tf.linalg.diag(tf.ones([3]), k=1, align="UP")
