"""``python -m flowgrad``: runs an unmodified TensorFlow program on flowgrad.

    python -m flowgrad SCRIPT [ARGS...]
    python -m flowgrad -m MODULE [ARGS...]     # e.g. python -m flowgrad -m pytest tests/
    python -m flowgrad -c CODE [ARGS...]
    python -m flowgrad --tf1 SCRIPT [ARGS...]  # a program written for TensorFlow 1.x

It installs flowgrad as ``tensorflow`` (:func:`flowgrad.install_as_tensorflow`) and runs the
program as ``python`` would: ``sys.argv``, ``__name__ == "__main__"``, ``sys.path[0]`` (the
script's directory; the current directory for ``-m`` and ``-c``), the exit status
(``SystemExit``'s code; 1 after an uncaught exception, whose traceback starts at the
program's own frames).

``--tf1`` (before the program) makes ``tensorflow`` TensorFlow 1.x's API, for programs
written for TF 1.x (``import tensorflow as tf`` then ``tf.placeholder``/``tf.Session``):
``install_as_tensorflow(version=1)``. TensorFlow 2 has no such switch; without it, such a
program stops where it would on TensorFlow 2.21.

Child Python processes (multiprocessing's spawned workers, ``subprocess`` runs of
``python``) import flowgrad as ``tensorflow`` too: their ``PYTHONPATH`` starts with
``flowgrad/dropin_site`` (and this process's ``sys.path``, which spawned workers copy, ends
with it), whose ``tensorflow`` package installs flowgrad (the same API version) when
imported.
"""
from __future__ import annotations

import os
import runpy
import sys
import types

from flowgrad.dropin import install_as_tensorflow

USAGE = ("usage: python -m flowgrad [--tf1] SCRIPT [ARGS...]\n"
         "       python -m flowgrad [--tf1] -m MODULE [ARGS...]\n"
         "       python -m flowgrad [--tf1] -c CODE [ARGS...]\n"
         "Runs a TensorFlow program unchanged, with flowgrad as `tensorflow`.\n"
         "--tf1: `tensorflow` is TensorFlow 1.x's API (a program written for TF 1.x).")

_RUNNER_FILES = {os.path.abspath(__file__), os.path.abspath(runpy.__file__)}


def _is_runner(filename: str) -> bool:
    return filename == "<frozen runpy>" or os.path.abspath(filename) in _RUNNER_FILES


def _program_traceback(tb):  # noqa: ANN001, ANN202 - a traceback object
    """``tb`` without its leading frames of this runner and runpy."""
    while tb is not None and _is_runner(tb.tb_frame.f_code.co_filename):
        tb = tb.tb_next
    return tb


def _run(kind: str, target: str) -> None:
    if kind == "module":
        runpy.run_module(target, run_name="__main__", alter_sys=True)
    elif kind == "code":
        namespace = {"__name__": "__main__", "__builtins__": __builtins__}
        exec(compile(target, "<string>", "exec", dont_inherit=True), namespace)
    elif os.path.isfile(target):
        _run_script(target)
    else:                           # a directory or zip file with a __main__.py
        runpy.run_path(target, run_name="__main__")


def _run_script(path: str) -> None:
    """Runs a script file as ``python`` does: ``__file__`` absolute, ``sys.argv[0]`` as typed,
    ``sys.modules["__main__"]`` the script's module (pickle finds its classes)."""
    filename = os.path.abspath(path)
    with open(filename, "rb") as f:
        code = compile(f.read(), filename, "exec", dont_inherit=True)
    module = types.ModuleType("__main__")
    module.__dict__.update(__file__=filename, __cached__=None, __builtins__=__builtins__)
    runner = sys.modules.get("__main__")
    sys.modules["__main__"] = module
    try:
        exec(code, module.__dict__)
    finally:
        sys.modules["__main__"] = runner


def _serve_children(version: int) -> None:
    """Makes ``import tensorflow`` in child Python processes import flowgrad (the
    ``dropin_site`` directory first on their ``PYTHONPATH``)."""
    site = os.path.join(os.path.dirname(os.path.abspath(__file__)), "dropin_site")
    paths = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p and p != site]
    os.environ["PYTHONPATH"] = os.pathsep.join([site] + paths)
    os.environ["FLOWGRAD_TENSORFLOW_VERSION"] = str(version)
    if site not in sys.path:        # multiprocessing's spawn gives its children this sys.path
        sys.path.append(site)


def main(argv: list[str]) -> int:
    """Runs the program ``argv`` names (the arguments after ``python -m flowgrad``).

    Args:
      argv: ``SCRIPT [ARGS...]``, ``-m MODULE [ARGS...]`` or ``-c CODE [ARGS...]``, after an
        optional ``--tf1``.

    Returns:
      The exit status: 0, SystemExit's code, 1 after an uncaught exception, 2 for a bad
      command line.
    """
    version = 2
    if argv and argv[0] == "--tf1":
        version, argv = 1, argv[1:]
    if not argv or argv[0] in ("-h", "--help"):
        print(USAGE, file=sys.stdout if argv else sys.stderr)
        return 0 if argv else 2
    if argv[0] in ("-m", "-c"):
        if len(argv) < 2:
            print("python -m flowgrad: argument expected for the %s option\n%s"
                  % (argv[0], USAGE), file=sys.stderr)
            return 2
        kind = "module" if argv[0] == "-m" else "code"
        target = argv[1]
        sys.argv = [("-m" if kind == "module" else "-c")] + argv[2:]
        sys.path[0] = os.getcwd() if kind == "module" else ""
    else:
        kind, target = "script", argv[0]
        if not os.path.exists(target):
            print("python -m flowgrad: can't open file %r: [Errno 2] No such file or directory"
                  % os.path.abspath(target), file=sys.stderr)
            return 2
        sys.argv = list(argv)
        sys.path[0] = os.path.dirname(os.path.realpath(target))
    install_as_tensorflow(version)
    _serve_children(version)
    try:
        _run(kind, target)
    except SystemExit:
        raise
    except BaseException as e:  # noqa: BLE001 - reported as python reports it
        if isinstance(e, KeyboardInterrupt):
            raise
        tb = _program_traceback(e.__traceback__)
        sys.excepthook(type(e), e.with_traceback(tb), tb)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
