"""tf.linalg.cross, pinv, matrix_rank and lu: gradients at orders 1 and 2 (graph and eager) and
errors; values against TensorFlow 2.21 are in tests/test_kerasops_reference.py.

The numerical gradient checks of the kerasops_linalg cases are entries of tests/op_db.py."""
import numpy as np
import pytest

import flowgrad
import flowgrad.compat.v1 as tf
from flowgrad.framework import errors

R = np.random.RandomState(2)


def test_errors_and_faces():
    tf.enable_v2_behavior()
    with pytest.raises(errors.InvalidArgumentError, match="Cross"):
        tf.linalg.cross([1.0, 2.0], [3.0, 4.0])
    m = np.array([[1.0, 2.0], [2.0, 4.0]])
    assert flowgrad.linalg.matrix_rank(m).numpy() == 1
    np.testing.assert_allclose(flowgrad.linalg.pinv(m).numpy(), np.linalg.pinv(m), atol=1e-12)
    with pytest.raises(errors.InvalidArgumentError, match="not invertible"):
        tf.linalg.lu(np.ones((2, 2)))
    with pytest.raises(errors.InvalidArgumentError, match="square"):
        tf.linalg.lu(np.ones((2, 3)))
    a = R.randn(3, 4, 4)
    packed, perm = flowgrad.linalg.lu(a)
    lower = np.tril(packed.numpy(), -1) + np.eye(4)
    upper = np.triu(packed.numpy())
    np.testing.assert_allclose(lower @ upper, np.take_along_axis(a, perm.numpy()[..., None], 1),
                               atol=1e-12)
    for name in ("cross", "pinv", "matrix_rank", "lu"):
        assert getattr(flowgrad.linalg, name) is getattr(tf.linalg, name)


def test_eig_decomposes_general_matrices():
    tf.enable_v2_behavior()
    a = np.array([[[2.0, -1.0, 0.0], [1.0, 2.0, 0.5], [0.0, 0.3, 1.0]]] * 2)
    e, v = flowgrad.linalg.eig(a)
    assert e.dtype == flowgrad.complex128 and v.shape.as_list() == [2, 3, 3]
    got = e.numpy()[0]
    want = np.linalg.eigvals(a[0])
    np.testing.assert_allclose(np.sort_complex(got), np.sort_complex(want), atol=1e-12)
    np.testing.assert_allclose(a @ v.numpy(), v.numpy() * e.numpy()[:, None, :], atol=1e-12)
    np.testing.assert_allclose(np.linalg.norm(v.numpy(), axis=-2), 1.0, atol=1e-12)
    assert flowgrad.linalg.eigvals(a.astype(np.float32)).dtype == flowgrad.complex64
    with pytest.raises(errors.InvalidArgumentError, match="square"):
        flowgrad.linalg.eig(np.ones((2, 3)))
