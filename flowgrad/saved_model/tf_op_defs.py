"""TensorFlow 2.21's OpDefs (every op's input and output arguments and attributes), read from
``tf_op_defs.pb.gz`` (recorded from TensorFlow by ``tools/tf_reference/record_op_defs.py``).

The GraphDef exporter writes an op whose flowgrad form takes TensorFlow's inputs from its
OpDef (attributes by TensorFlow's names, type attributes from the tensors' dtypes, defaults
from the OpDef), and FunctionDef bodies name a node's outputs by its output arguments
(``node:arg:i``), which both directions read from here."""
from __future__ import annotations

import functools
import gzip
import os
from typing import Any

from flowgrad.saved_model import tf_protos

_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tf_op_defs.pb.gz")


@functools.cache
def _all() -> dict:
    ops = tf_protos.pb().op_def_pb2.OpList()
    with gzip.open(_PATH, "rb") as f:
        ops.ParseFromString(f.read())
    return {op.name: op for op in ops.op}


def get(op_type: str) -> Any:
    """TensorFlow's OpDef of ``op_type`` (an ``OpDef`` proto), None if TensorFlow has none."""
    return _all().get(op_type)


def arg_length(arg: Any, attrs: dict) -> int | None:
    """How many tensors an argument of an OpDef holds, given the node's attributes (Python
    values by name), None where they do not say."""
    if arg.number_attr:
        n = attrs.get(arg.number_attr)
        return None if n is None else int(n)
    if arg.type_list_attr:
        types = attrs.get(arg.type_list_attr)
        return None if types is None else len(types)
    return 1


def output_arg(op_type: str, index: int, attrs: dict) -> tuple[str, int]:
    """The output argument and the index in it of flat output ``index`` of a node of
    ``op_type`` (``("output", index)`` for an op TensorFlow does not have)."""
    d = get(op_type)
    if d is None:
        return "output", index
    start = 0
    for arg in d.output_arg:
        n = arg_length(arg, attrs)
        if n is None or index < start + n:
            return arg.name, index - start
        start += n
    return "output", index


def flat_output_index(op_type: str, arg: str, index: int, attrs: dict) -> int:
    """The flat output index of ``node:arg:index`` in a FunctionDef body."""
    d = get(op_type)
    if d is None:
        return index
    start = 0
    for a in d.output_arg:
        if a.name == arg:
            return start + index
        n = arg_length(a, attrs)
        if n is None:
            break
        start += n
    return index
