"""``tf.test``'s build queries, test decorators and graph comparison.

flowgrad runs on the CPU without XLA: the build queries answer as a CPU-only TensorFlow
without XLA would, so tests that skip on them skip here too."""
from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any

from flowgrad.framework.context import executing_eagerly


def is_built_with_gpu_support() -> bool:
    """False: flowgrad has neither CUDA nor ROCm kernels."""
    return False


def is_built_with_rocm() -> bool:
    """False: flowgrad has no ROCm kernels."""
    return False


def is_built_with_xla() -> bool:
    """False: flowgrad has no XLA (``jit_compile=True`` runs the function's plan)."""
    return False


def disable_with_predicate(pred: Callable[[], bool], skip_message: str) -> Callable:
    """A decorator for a test method: skipped with ``skip_message`` when ``pred()`` is true.

    Args:
        pred: called at each run of the test.
        skip_message: the reason the skip reports.

    Returns:
        The decorator.
    """
    def decorator(func: Callable) -> Callable:
        @functools.wraps(func)
        def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
            if pred():
                self.skipTest(skip_message)
            return func(self, *args, **kwargs)
        return wrapper
    return decorator


def with_eager_op_as_function(cls: type | None = None, only_as_function: bool = False) -> Any:
    """The class unchanged, as TensorFlow 2.21's (a decorator kept for old tests).

    Args:
        cls: the test class; None when called with arguments.
        only_as_function: accepted for TensorFlow's signature.

    Returns:
        ``cls``, or a decorator returning its class unchanged.
    """
    if cls is not None:
        return cls
    return lambda c: c


def benchmark_config() -> Any:
    """A ConfigProto that turns the dependency optimizer off, as TensorFlow's (flowgrad's
    Session accepts it; its plans do no such rewrite).

    Returns:
        The ``tf.compat.v1.ConfigProto``.
    """
    from tensorboard.compat.proto import config_pb2, rewriter_config_pb2
    config = config_pb2.ConfigProto()
    config.graph_options.rewrite_options.dependency_optimization = (
        rewriter_config_pb2.RewriterConfig.OFF)
    return config


def sync_devices() -> None:
    """Waits for pending work on every device (``tf.test.experimental.sync_devices``): the
    CPU kernels run synchronously, so nothing is pending.

    Raises:
        RuntimeError: called outside eager mode, as TensorFlow's.
    """
    if not executing_eagerly():
        raise RuntimeError("sync_devices() must only be called in Eager mode, outside "
                           "tf.functions")


#: The randomized temporary-file names of a V2 checkpoint's sharded save (TensorFlow's).
_SHARDED_SAVE = re.compile(rb"_temp_[0-9a-z]{32}/part")
#: The generated shared names of hash tables.
_TABLE_SHARED_NAME = re.compile(rb"hash_table_[0-9a-z\-]+")


def _canonical_nodes(graph_def: Any, checkpoint_v2: bool, hash_table_shared_name: bool
                     ) -> dict:
    """The nodes of a GraphDef by name, control inputs sorted, without the randomized
    attributes TensorFlow ignores (a sharded save's temporary name, a table's shared name)."""
    nodes = {}
    for node in graph_def.node:
        n = type(node)()
        n.CopyFrom(node)
        control = sorted(i for i in n.input if i.startswith("^"))
        data = [i for i in n.input if not i.startswith("^")]
        del n.input[:]
        n.input.extend(data + control)
        for key in list(n.attr) if checkpoint_v2 else ():
            strings = n.attr[key].tensor.string_val
            if len(strings) == 1 and _SHARDED_SAVE.match(strings[0]):
                del n.attr[key]
        if (hash_table_shared_name and n.op == "HashTableV2" and "shared_name" in n.attr
                and _TABLE_SHARED_NAME.match(n.attr["shared_name"].s)):
            del n.attr["shared_name"]
        nodes[n.name] = n
    return nodes


def assert_equal_graph_def(expected: Any, actual: Any) -> None:
    """Asserts two GraphDefs hold the same nodes, ignoring versions, the order of nodes,
    attributes and control inputs, and the randomized names of sharded saves and hash tables
    (``tf.test.assert_equal_graph_def``).

    Args:
        expected: the GraphDef expected.
        actual: the GraphDef to check.

    Raises:
        TypeError: either is not a GraphDef.
        AssertionError: they differ; the message names the nodes that do.
    """
    assert_equal_graph_def_v1(actual, expected, checkpoint_v2=True,
                              hash_table_shared_name=True)


def assert_equal_graph_def_v1(actual: Any, expected: Any, checkpoint_v2: bool = False,
                              hash_table_shared_name: bool = False) -> None:
    """TF1's ``tf.compat.v1.test.assert_equal_graph_def``: the arguments in TF1's order, the
    randomized names compared unless told to ignore them.

    Args:
        actual: the GraphDef to check.
        expected: the GraphDef expected.
        checkpoint_v2: ignore the randomized temporary names of sharded V2 saves.
        hash_table_shared_name: ignore the generated shared names of hash tables.

    Raises:
        TypeError: either is not a GraphDef.
        AssertionError: they differ; the message names the nodes that do.
    """
    for g in (actual, expected):
        if type(g).__name__ != "GraphDef":
            raise TypeError("Expected tf.GraphDef, got %s" % type(g).__name__)
    want = _canonical_nodes(expected, checkpoint_v2, hash_table_shared_name)
    got = _canonical_nodes(actual, checkpoint_v2, hash_table_shared_name)
    missing, extra = sorted(set(want) - set(got)), sorted(set(got) - set(want))
    if missing or extra:
        raise AssertionError("Nodes differ: only in expected %s, only in actual %s"
                             % (missing, extra))
    for name, node in want.items():
        if node != got[name]:
            raise AssertionError("Node %r differs:\nexpected:\n%s\nactual:\n%s"
                                 % (name, node, got[name]))
