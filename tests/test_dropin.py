"""The drop-in: ``python -m flowgrad SCRIPT|-m MODULE|-c CODE`` and
``flowgrad.install_as_tensorflow()`` run unmodified TensorFlow programs, as ``python`` runs
them (argv, ``__main__``, sys.path[0], exit status, tracebacks)."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def run(args, cwd, **kw):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=300, **kw)


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text))
    return path


IMPORTS = textwrap.dedent("""\
    import sys
    import tensorflow as tf
    import tensorflow.compat.v1 as tf1
    import tensorflow.compat.v2 as tf2
    from tensorflow import keras
    from tensorflow.keras import layers
    import tensorflow.keras.backend as K
    from tensorflow.examples.tutorials.mnist import input_data
    import flowgrad
    import flowgrad.compat.v1
    checks = [tf is flowgrad, tf1 is flowgrad.compat.v1, tf2 is flowgrad,
              keras is tf.keras, layers is tf.keras.layers, K is tf.keras.backend,
              input_data.read_data_sets is flowgrad.datasets.mnist.read_data_sets,
              sys.modules["tensorflow.keras"] is tf.keras,
              tf.keras.__name__ == "keras._tf_keras.keras", tf.__version__ == "2.21.0"]
    print("checks", checks)
    print("value", float(tf.reduce_sum(tf.constant([1.0, 2.0]) * 2)))
    print("name", __name__, "argv", sys.argv, "path0", sys.path[0])
    """)


def test_a_script_imports_tensorflow_as_flowgrad_and_sees_python_s_main_conventions(tmp_path):
    script = write(tmp_path / "prog" / "train.py", IMPORTS + textwrap.dedent("""\
        import helper                      # found next to the script: sys.path[0]
        if __name__ == "__main__":
            print("main", helper.VALUE)
        """))
    write(tmp_path / "prog" / "helper.py", "VALUE = 42\n")
    out = run(["-m", "flowgrad", str(script), "--lr", "0.1"], cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "checks [True, True, True, True, True, True, True, True, True, True]" in out.stdout
    assert "value 6.0" in out.stdout
    assert ("name __main__ argv [%r, '--lr', '0.1'] path0 %s" % (str(script), script.parent)
            in out.stdout)
    assert "main 42" in out.stdout


def test_a_script_named_by_a_relative_path_sees_python_s_absolute_file(tmp_path):
    """Python makes the script's ``__file__`` absolute (``sys.argv[0]`` stays as typed);
    programs find their data with ``os.path.dirname(__file__)`` after a ``chdir``."""
    write(tmp_path / "prog" / "where.py", "import sys\nprint(__file__, sys.argv[0])\n")
    plain = run(["prog/where.py"], cwd=tmp_path)
    out = run(["-m", "flowgrad", "prog/where.py"], cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout == plain.stdout == "%s prog/where.py\n" % (tmp_path / "prog" / "where.py")


def test_the_same_script_fails_under_plain_python_without_tensorflow(tmp_path):
    script = write(tmp_path / "p.py", IMPORTS)
    out = run([str(script)], cwd=tmp_path)
    if out.returncode == 0:
        pytest.skip("a real TensorFlow is installed in this python")
    assert "No module named 'tensorflow'" in out.stderr


@pytest.mark.parametrize("code, status", [("raise SystemExit(3)", 3), ("import sys; sys.exit()", 0),
                                          ("import sys; sys.exit('bad input')", 1)])
def test_exit_status_is_python_s(tmp_path, code, status):
    out = run(["-m", "flowgrad", str(write(tmp_path / "p.py", code + "\n"))], cwd=tmp_path)
    assert out.returncode == status
    if status == 1:
        assert out.stderr.strip() == "bad input"


def test_an_uncaught_exception_exits_1_with_a_traceback_of_the_program_s_lines(tmp_path):
    script = write(tmp_path / "p.py", """\
        import tensorflow as tf

        def step():
            raise ValueError("bad step")

        step()
        """)
    out = run(["-m", "flowgrad", str(script)], cwd=tmp_path)
    assert out.returncode == 1
    lines = out.stderr.strip().splitlines()
    assert lines[0] == "Traceback (most recent call last):"
    assert lines[1] == '  File "%s", line 6, in <module>' % script
    assert lines[-1] == "ValueError: bad step"
    assert "runpy" not in out.stderr and "__main__.py" not in out.stderr


def test_dash_m_runs_a_module_as_main_with_its_arguments(tmp_path):
    write(tmp_path / "pkg" / "__init__.py", "")
    write(tmp_path / "pkg" / "tool.py", """\
        import sys
        import tensorflow as tf
        if __name__ == "__main__":
            print("tool", sys.argv[1:], tf.__version__)
            sys.exit(int(sys.argv[1]))
        """)
    out = run(["-m", "flowgrad", "-m", "pkg.tool", "4", "x"], cwd=tmp_path)
    assert out.returncode == 4, out.stderr
    assert "tool ['4', 'x'] 2.21.0" in out.stdout


def test_dash_m_pytest_runs_a_test_suite_that_imports_tensorflow(tmp_path):
    write(tmp_path / "test_prog.py", """\
        import tensorflow as tf

        def test_sum():
            assert float(tf.reduce_sum(tf.ones([3]))) == 3.0

        def test_fails():
            assert float(tf.reduce_sum(tf.ones([3]))) == 4.0
        """)
    out = run(["-m", "flowgrad", "-m", "pytest", "-q", "-p", "no:cacheprovider",
               "test_prog.py"], cwd=tmp_path)
    assert out.returncode == 1                       # pytest's status: a test failed
    assert "1 failed, 1 passed" in out.stdout


def test_dash_c_runs_code(tmp_path):
    out = run(["-m", "flowgrad", "-c", "import sys, tensorflow as tf; print(sys.argv, "
               "tf.constant(2.0).numpy() * 3)", "a"], cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "['-c', 'a'] 6.0"


@pytest.mark.parametrize("args, message", [([], "usage: python -m flowgrad [--tf1] SCRIPT"),
                                           (["missing.py"], "can't open file"),
                                           (["-m"], "argument expected for the -m option")])
def test_bad_command_lines_exit_2(tmp_path, args, message):
    out = run(["-m", "flowgrad", *args], cwd=tmp_path)
    assert out.returncode == 2
    assert message in out.stderr


def test_install_as_tensorflow_from_inside_a_program(tmp_path):
    script = write(tmp_path / "p.py", """\
        import flowgrad
        flowgrad.install_as_tensorflow()
        flowgrad.install_as_tensorflow()                 # a second call does nothing
        import importlib
        import tensorflow as tf
        from tensorflow.keras import layers
        import tensorflow.compat.v1.nn as v1nn           # any module on the attribute chain
        print(tf is flowgrad, layers is flowgrad.keras.layers, v1nn is tf.compat.v1.nn)
        for name in ("tensorflow.no_such_module", "tensorflow.keras.no_such",
                     "tensorflow.gradients", "tensorflow.session"):
            try:
                importlib.import_module(name)
            except ModuleNotFoundError as e:
                print("missing", e.name)
        """)
    out = run([str(script)], cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == [
        "True True True", "missing tensorflow.no_such_module", "missing tensorflow.keras.no_such",
        "missing tensorflow.gradients", "missing tensorflow.session"]


def test_install_refuses_when_the_real_tensorflow_is_imported(tmp_path):
    write(tmp_path / "tensorflow" / "__init__.py", "REAL = True\n")
    script = write(tmp_path / "p.py", """\
        import tensorflow
        import flowgrad
        try:
            flowgrad.install_as_tensorflow()
        except ImportError as e:
            print("refused:", e)
        import sys
        print(sys.modules["tensorflow"].REAL)
        """)
    out = run([str(script)], cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "refused: flowgrad.install_as_tensorflow(): the real TensorFlow is already imported" \
        in out.stdout
    assert out.stdout.splitlines()[-1] == "True"


def test_tf_keras_without_the_keras_extra_names_it(tmp_path):
    """As TensorFlow 2.16+ without the keras package: ``tf.keras`` cannot be served, and
    every way a program reaches it raises an ImportError naming the extra (keras simulated
    absent); the rest of TensorFlow keeps working."""
    script = write(tmp_path / "p.py", """\
        import sys
        sys.modules["keras"] = None                     # as if the keras extra were absent
        import importlib
        import tensorflow as tf
        for reach in (lambda: tf.keras, lambda: importlib.import_module("tensorflow.keras"),
                      lambda: importlib.import_module("tensorflow.keras.layers")):
            try:
                reach()
                print("served")
            except ImportError as e:
                print("pip install flowgrad[keras]" in str(e))
        try:
            from tensorflow import keras  # noqa: F401
        except ImportError as e:
            print("pip install flowgrad[keras]" in str(e))
        print(float(tf.constant(2.0) * 3))
        """)
    out = run(["-m", "flowgrad", str(script)], cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["True", "True", "True", "True", "6.0"]


def test_child_processes_import_flowgrad_as_tensorflow_too(tmp_path):
    # multiprocessing's spawned workers re-import the program (and `tensorflow`); a
    # `python` run by subprocess imports it afresh: both get flowgrad, with --tf1's API too
    script = write(tmp_path / "prog.py", """
        import multiprocessing
        import subprocess
        import sys
        import tensorflow as tf

        def work(n):
            import tensorflow as tf
            return float(tf.reduce_sum(tf.ones([n])))

        if __name__ == "__main__":
            with multiprocessing.get_context("spawn").Pool(1) as pool:
                print(pool.map(work, [2, 3]))
            code = "import tensorflow as tf; print(tf.__name__, hasattr(tf, 'placeholder'))"
            print(subprocess.run([sys.executable, "-c", code], capture_output=True,
                                 text=True).stdout.strip())
        """)
    out = run(["-m", "flowgrad", str(script)], tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == ["[2.0, 3.0]", "flowgrad False"]
    code = "import tensorflow as tf; print(tf.__name__, hasattr(tf, 'placeholder'))"
    out = run(["-m", "flowgrad", "--tf1", "-c",
               "import subprocess, sys; print(subprocess.run([sys.executable, '-c', %r], "
               "capture_output=True, text=True).stdout.strip())" % code], tmp_path)
    assert out.stdout.strip() == "flowgrad.compat.v1 True", out.stderr


def test_the_child_stub_defers_to_a_python_without_flowgrad(tmp_path):
    # a child Python where flowgrad does not import (another environment) gets its own
    # `tensorflow`: here none, so the usual ModuleNotFoundError
    write(tmp_path / "shadow" / "flowgrad" / "__init__.py", "raise ImportError('elsewhere')\n")
    site = ROOT / "flowgrad" / "dropin_site"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path / "shadow"), str(site)]))
    out = subprocess.run([sys.executable, "-c", "import tensorflow"], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 1
    assert "ModuleNotFoundError: No module named 'tensorflow'" in out.stderr, out.stderr
