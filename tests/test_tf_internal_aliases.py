"""TensorFlow's internal module paths that programs and test suites import directly
(``from tensorflow.python.framework import ops``, ``from tensorflow.python.client import
device_lib``, ``test_util``'s decorators, ``gen_*_ops``) resolve under the drop-in."""
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import flowgrad
import flowgrad.compat.v1 as tf1
from flowgrad import dropin
from flowgrad import dropin_aliases as aliases

ROOT = Path(__file__).resolve().parents[1]


def test_every_alias_path_resolves_and_its_namespaces_exist():
    for path, sources in aliases.ALIASES.items():
        module = dropin.resolve("tensorflow." + path)
        assert module is not None, path
        for source in sources:
            assert aliases._namespace(source) is not None, (path, source)


def test_internal_modules_hold_the_public_functions():
    resolve = dropin.resolve
    assert resolve("tensorflow.python.framework.ops").Graph is tf1.Graph
    assert resolve("tensorflow.python.ops.math_ops").reduce_logsumexp is \
        tf1.reduce_logsumexp
    assert resolve("tensorflow.python.ops.nn_ops").relu is tf1.nn.relu
    assert resolve("tensorflow.python.ops.init_ops").glorot_uniform_initializer is \
        tf1.glorot_uniform_initializer
    assert resolve("tensorflow.python.util.nest").flatten is flowgrad.nest.flatten
    assert resolve("tensorflow.python.framework.test_util").TensorFlowTestCase is \
        flowgrad.test.TestCase
    with pytest.raises(AttributeError, match="tensorflow.python.ops.array_ops.*no_such"):
        _ = resolve("tensorflow.python.ops.array_ops").no_such
    assert resolve("tensorflow.python.no_such_module") is None


def test_gen_ops_call_the_raw_ops_with_inputs_by_position():
    gen_math_ops = dropin.resolve("tensorflow.python.ops.gen_math_ops")
    gen_nn_ops = dropin.resolve("tensorflow.python.ops.gen_nn_ops")
    with tf1.Session() as sess:
        a = np.array([[1.0, -2.0], [3.0, 4.0]], np.float32)
        got = sess.run(gen_nn_ops.relu(gen_math_ops.mat_mul(a, a, transpose_b=True)))
    np.testing.assert_allclose(got, np.maximum(a @ a.T, 0))
    with pytest.raises(AttributeError, match="no raw op"):
        _ = gen_math_ops.no_such_op
    with pytest.raises(TypeError, match="positional"):
        gen_nn_ops.relu(a, a)


def test_device_lib_lists_the_cpu():
    devices = dropin.resolve("tensorflow.python.client.device_lib").list_local_devices()
    assert [(d.name, d.device_type) for d in devices] == [("/device:CPU:0", "CPU")]
    assert 'device_type: "CPU"' in str(devices[0])


def test_deprecation_decorators_change_nothing_and_the_switch_is_settable():
    deprecation = dropin.resolve("tensorflow.python.util.deprecation")

    @deprecation.deprecated(None, "use g")
    def f(x):
        return x + 1

    assert f(1) == 2 and deprecation.deprecated_args(None, "x", "y")(f) is f
    deprecation._PRINT_DEPRECATION_WARNINGS = False
    assert dropin.resolve("tensorflow.python.util.deprecation") \
        ._PRINT_DEPRECATION_WARNINGS is False


def test_max_error_of_jacobians():
    assert aliases.max_error([np.ones((2, 2))], [np.full((2, 2), 1.5)]) == 0.5
    assert aliases.max_error([], []) == 0.0


def test_a_program_and_a_test_suite_using_internal_modules_run_under_the_drop_in(tmp_path):
    (tmp_path / "prog.py").write_text(textwrap.dedent('''
        import os
        import numpy as np
        import tensorflow as tf
        from tensorflow.python.framework import ops, dtypes, tensor_shape
        from tensorflow.python.ops import array_ops, math_ops, nn_ops, variable_scope, init_ops
        from tensorflow.python.ops import variables, gen_nn_ops
        from tensorflow.python.client import device_lib
        from tensorflow.python.training import adam, training_util
        from tensorflow.python.tools import inspect_checkpoint as chkp
        from tensorflow.python.keras import layers
        print([d.device_type for d in device_lib.list_local_devices()])
        print(layers.Dense is tf.keras.layers.Dense)
        ops.reset_default_graph()
        with ops.Graph().as_default():
            x = array_ops.placeholder(dtypes.float32, [None, 3])
            w = variable_scope.get_variable("w", [3, 2], initializer=init_ops.ones_initializer())
            y = math_ops.reduce_sum(gen_nn_ops.relu(math_ops.matmul(x, w)))
            step = training_util.get_or_create_global_step()
            train = adam.AdamOptimizer(0.1).minimize(y, global_step=step)
            with tf.compat.v1.Session() as sess:
                sess.run(variables.global_variables_initializer())
                print(sess.run(y, {x: np.ones((2, 3))}))
                path = tf.compat.v1.train.Saver().save(sess, os.path.join(os.getcwd(), "m"))
        chkp.print_tensors_in_checkpoint_file(path, tensor_name="w", all_tensors=False)
        print(tensor_shape.TensorShape([2, None]).as_list())
    '''))
    (tmp_path / "test_suite.py").write_text(textwrap.dedent('''
        import tensorflow as tf
        from tensorflow.python.framework import constant_op, test_util
        from tensorflow.python.ops import math_ops, variables
        from tensorflow.python.platform import test

        class T(test.TestCase):
            @test_util.run_in_graph_and_eager_modes
            def test_both(self):
                v = variables.Variable(2.0)
                self.evaluate(variables.global_variables_initializer())
                self.assertAllClose(self.evaluate(math_ops.square(v)), 4.0)
                MODES.append(tf.executing_eagerly())

            @test_util.run_deprecated_v1
            def test_graph(self):
                self.assertFalse(tf.executing_eagerly())
                with self.cached_session():
                    self.assertEqual(self.evaluate(constant_op.constant(3) * 2), 6)

        MODES = []

        def test_modes():
            assert MODES == [False, True]

        if __name__ == "__main__":
            test.main()
    '''))
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-m", "flowgrad", "prog.py"], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "['CPU']" and lines[1] == "True" and float(lines[2]) == 12.0
    assert lines[3] == "tensor_name:  w" and lines[-1] == "[2, None]"
    out = subprocess.run([sys.executable, "-m", "flowgrad", "-m", "pytest", "-q",
                          "-p", "no:cacheprovider", "test_suite.py"], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "3 passed" in out.stdout


def test_tf1_app_run_and_flags_are_abseils_as_in_tensorflow(tmp_path):
    (tmp_path / "prog.py").write_text(textwrap.dedent('''
        import tensorflow.compat.v1 as tf
        flags = tf.app.flags
        flags.DEFINE_integer("steps", 3, "how many steps")
        flags.DEFINE_string(flag_name="name", default_value="x", docstring="a name")
        tf.flags.DEFINE_float("lr", 0.1, "learning rate")
        FLAGS = flags.FLAGS

        def main(argv):
            print("steps", FLAGS.steps, "name", FLAGS.name, "lr", FLAGS.lr, "rest", argv[1:])
            return 3

        if __name__ == "__main__":
            tf.app.run()
    '''))
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-m", "flowgrad", "prog.py", "--steps", "5",
                          "--lr=0.5", "extra"], cwd=tmp_path, env=env, capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 3, out.stderr          # main's return value is the exit status
    assert out.stdout.strip() == "steps 5 name x lr 0.5 rest ['extra']"
    assert "deprecated, please use (name, default, help)" in out.stderr


def test_reading_a_flag_before_parsing_parses_argv(monkeypatch):
    flags = tf1.flags
    flags.DEFINE_integer("flowgrad_test_batch", 7, "a batch size", allow_override=True)
    monkeypatch.setattr(sys, "argv", ["prog", "--flowgrad_test_batch=9", "--unknown=1"])
    flags.FLAGS.unparse_flags()
    assert flags.FLAGS.flowgrad_test_batch == 9
    assert tf1.app.flags is flags
