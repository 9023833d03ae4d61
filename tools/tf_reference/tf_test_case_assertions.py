"""tf.test.TestCase's assertions and evaluate on tricky inputs (namedtuples, broadcasting,
NaN, str against bytes, ragged and sparse tensors, Python values): which pass, and which
error class the others raise. Record: /work/venv-tf/bin/python
tools/tf_reference/tf_test_case_assertions.py > tests/data/tf_test_case/assertions.txt;
tests/test_tf_test_case_suite.py runs it under python -m flowgrad and compares."""
import collections
import numpy as np
import tensorflow as tf

class C(tf.test.TestCase):
    def runTest(self):
        pass

c = C()
c.setUp()
P = collections.namedtuple("P", "a b")
R = tf.ragged.constant
SP = tf.sparse.from_dense
cases = [
    ("close nt", lambda: c.assertAllClose(P(1.0, [2.0]), P(1.0, [2.0]))),
    ("close nt diff", lambda: c.assertAllClose(P(1.0, [2.0]), P(1.0, [2.1]))),
    ("close list vs tuple", lambda: c.assertAllClose([1.0, 2.0], (1.0, 2.0))),
    ("close shape bcast", lambda: c.assertAllClose([1.0, 1.0], 1.0)),
    ("close shape mismatch", lambda: c.assertAllClose([[1.0, 1.0]], [1.0, 1.0])),
    ("close nan", lambda: c.assertAllClose([np.nan], [np.nan])),
    ("close inf", lambda: c.assertAllClose([np.inf], [np.inf])),
    ("close f16 tol", lambda: c.assertAllClose(np.float16(1.0), np.float16(1.0005))),
    ("close f32 rtol", lambda: c.assertAllClose(np.float32(1.0), np.float32(1.000002))),
    ("close dict keys", lambda: c.assertAllClose({"a": 1.0}, {"b": 1.0})),
    ("close none", lambda: c.assertAllClose(None, None)),
    ("close str", lambda: c.assertAllClose("a", "a")),
    ("close ragged", lambda: c.assertAllClose(R([[1.0], [2.0, 3.0]]), [[1.0], [2.0, 3.0]])),
    ("close sparse", lambda: c.assertAllClose(SP([[1.0, 0.0]]), SP([[1.0, 0.0]]))),
    ("close bool", lambda: c.assertAllClose([True, False], [True, False])),
    ("close complex", lambda: c.assertAllClose([1 + 1j], [1 + 1j])),
    ("close var", lambda: c.assertAllClose(tf.Variable([1.0]), [1.0])),
    ("equal str", lambda: c.assertAllEqual(tf.constant(["a", "b"]), [b"a", b"b"])),
    ("equal str2", lambda: c.assertAllEqual(tf.constant(["a", "b"]), ["a", "b"])),
    ("equal bcast", lambda: c.assertAllEqual([1, 1], 1)),
    ("equal shape", lambda: c.assertAllEqual([[1, 2]], [1, 2])),
    ("equal nan", lambda: c.assertAllEqual([np.nan], [np.nan])),
    ("equal dtype", lambda: c.assertAllEqual(np.array([1], np.int32), np.array([1.0]))),
    ("equal ragged", lambda: c.assertAllEqual(R([[1], [2, 3]]), [[1], [2, 3]])),
    ("equal ragged diff", lambda: c.assertAllEqual(R([[1], [2, 3]]), [[1, 2], [3]])),
    ("equal list of tensors", lambda: c.assertAllEqual([tf.constant(1), tf.constant(2)], [1, 2])),
    ("equal tensorshape", lambda: c.assertAllEqual(tf.TensorShape([2, 3]), [2, 3])),
    ("notallclose", lambda: c.assertNotAllClose([1.0], [1.0])),
    ("notallequal shape", lambda: c.assertNotAllEqual([1.0], [1.0, 1.0])),
    ("inrange nan", lambda: c.assertAllInRange([np.nan], 0, 1)),
    ("greater list", lambda: c.assertAllGreater([2, 3], 1)),
    ("inset", lambda: c.assertAllInSet([1, 4], [1, 2])),
    ("shapeequal", lambda: c.assertShapeEqual(np.zeros([2, 3]), tf.zeros([2, 3]))),
    ("dtype", lambda: c.assertDTypeEqual(np.zeros([2], np.float32), tf.float32)),
    ("accord", lambda: c.assertAllCloseAccordingToType(np.float16([1.0]), np.float16([1.0009]))),
    ("accord f32", lambda: c.assertAllCloseAccordingToType(np.float32([1.0]),
                                                           np.float32([1.000009]))),
    ("evaluate none", lambda: print("  ev", c.evaluate(None))),
    ("evaluate ragged", lambda: print("  ev", type(c.evaluate(R([[1]]))).__name__)),
    ("evaluate sparse", lambda: print("  ev", type(c.evaluate(SP([[1]]))).__name__)),
    ("evaluate py", lambda: print("  ev", c.evaluate([1, 2.0]))),
    ("evaluate str", lambda: print("  ev", c.evaluate(tf.constant("a")))),
    ("raisesopError eager", lambda: c.assertRaisesOpError("x").__enter__()),
]
for name, fn in cases:
    try:
        fn()
        print(name, "pass")
    except AssertionError:
        print(name, "AssertionError")
    except Exception as e:
        print(name, type(e).__name__)
