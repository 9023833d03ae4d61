"""``tf.strings.unicode_script``: the ICU script code (``UScriptCode``, as TensorFlow gives it:
0 Common, 25 Latin, 8 Cyrillic, 17 Han, ...) of each int32 code point, -1 for a value that
is no code point. The UnicodeScript op; looked up in the runs of
flowgrad/ops/unicode_script_table.py (recorded from TensorFlow 2.21's ICU). Not
differentiable, as in TensorFlow."""
from __future__ import annotations

from typing import Any

import numpy as np

from flowgrad.framework import dispatch, dtypes, errors
from flowgrad.framework.op_call import apply_op
from flowgrad.framework.registry import NotDifferentiable, register_op
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.framework.type_hints import TensorLike
from flowgrad.ops.unicode_script_table import RUN_SCRIPTS, RUN_STARTS

_STARTS = np.asarray(RUN_STARTS, np.int64)
_SCRIPTS = np.asarray(RUN_SCRIPTS, np.int32)
_MAX_CODE_POINT = 0x10FFFF


def _unicode_script_kernel(x: Any) -> np.ndarray:
    cp = np.asarray(x, np.int64)
    runs = np.searchsorted(_STARTS, np.clip(cp, 0, _MAX_CODE_POINT), side="right") - 1
    return np.where((cp < 0) | (cp > _MAX_CODE_POINT), -1, _SCRIPTS[runs]).astype(np.int32)


register_op("UnicodeScript", _unicode_script_kernel,
            lambda ins, attrs: (dtypes.int32, ins[0].shape), input_names=("input",))
NotDifferentiable("UnicodeScript")


@dispatch.register_unary_elementwise_api
@dispatch.add_dispatch_support
def unicode_script(input: TensorLike, name: str | None = None) -> Any:  # noqa: A002
    """The ICU script code of each code point (``-1`` for values outside 0..0x10FFFF).

    Args:
        input: An int32 tensor of Unicode code points.
        name: A name for the operation (optional).

    Returns:
        An int32 tensor of ``input``'s shape.

    Raises:
        InvalidArgumentError: ``input`` is not int32 (TensorFlow's message, naming the op).
    """
    x = convert_to_tensor(input)
    if x.dtype.base_dtype != dtypes.int32:
        raise errors.InvalidArgumentError(
            None, None, "cannot compute UnicodeScript as input #0(zero-based) was expected to "
            "be a int32 tensor but is a %s tensor [Op:UnicodeScript]" % x.dtype.base_dtype.name)
    return apply_op("UnicodeScript", [x], name=name or "UnicodeScript")


__all__ = ["unicode_script"]
