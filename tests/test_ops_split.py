"""``flowgrad.ops.array_ops`` is a facade over one module per op family: every public name
it had before the split, and the private helpers other modules import from it, are still
there (the same objects as in their family modules), each array op type is registered once,
with kernel, shape rule and gradient in one module, and the family modules import each other
in one direction only."""
from __future__ import annotations

import ast
import importlib
import pathlib

import pytest

import flowgrad
from flowgrad.framework import registry
from flowgrad.ops import array_ops

# The public names array_ops defined before the split and the private helpers other modules
# import from it, by the module that holds them now. (Its incidental imports of NumPy, typing
# and framework helpers are not re-exported, except constant and convert_to_tensor, which are
# in its __all__.)
HOMES = {
    "array_op_util": [
        "_as_value", "_int_tensor", "_known_scalar", "_static_int_list",
        "linear_in_first_jvp", "reapply", "static_shape"],
    "constant_ops": [
        "identity", "identity_n", "placeholder", "placeholder_with_default", "stop_gradient"],
    "fill_ops": [
        "fill", "linear_in_all_jvp", "one_hot", "ones", "ones_like", "range", "zeros",
        "zeros_like"],
    "shape_ops": [
        "broadcast_gradient_args", "broadcast_to", "expand_dims", "invert_permutation", "rank",
        "reshape", "reverse", "reverse_v2", "shape", "shape_of", "size", "squeeze", "stack",
        "sum_tangents", "transpose", "transpose_v2", "unstack"],
    "slicing_ops": [
        "pad", "pad_v2", "slice", "strided_slice"],
    "concat_ops": [
        "concat", "split", "tile"],
    "indexing_ops": [
        "_gather_drop_negatives", "_slice_helper", "_where_indices", "boolean_mask",
        "boolean_mask_v2", "embedding_lookup", "embedding_lookup_v2", "gather", "gather_v2",
        "newaxis", "unsorted_segment_sum"],
}

# The array op types, by the module that registers them.
OPS = {
    "constant_ops": [
        "Const", "Placeholder", "PlaceholderWithDefault", "Identity", "StopGradient", "IdentityN"],
    "fill_ops": [
        "Fill", "ZerosLike", "OnesLike", "OneHot", "Range"],
    "shape_ops": [
        "Shape", "Size", "Rank", "BroadcastGradientArgs", "Reshape", "BroadcastTo", "Pack",
        "Unpack", "ExpandDims", "Squeeze", "Transpose", "ConjugateTranspose", "InvertPermutation",
        "ReverseV2"],
    "slicing_ops": [
        "Slice", "Pad", "PadV2", "MirrorPad", "MirrorPadGrad", "StridedSlice", "StridedSliceGrad"],
    "concat_ops": [
        "ConcatV2", "ConcatOffset", "Split", "SplitV", "Tile"],
    "indexing_ops": [
        "GatherV2", "GatherGradAlongAxis", "UnsortedSegmentSum", "Where"],
}

# The family modules, bottom to top: each imports only modules before it.
ORDER = ["array_op_util", "constant_ops", "fill_ops", "shape_ops", "slicing_ops", "concat_ops",
         "indexing_ops"]

OPS_DIR = pathlib.Path(flowgrad.__file__).parent / "ops"


def _module(name: str):
    return importlib.import_module("flowgrad.ops." + name)


@pytest.mark.parametrize("home", sorted(HOMES))
def test_facade_names_are_the_family_modules_objects(home):
    mod = _module(home)
    for name in HOMES[home]:
        assert hasattr(array_ops, name), "array_ops lost %s" % name
        assert getattr(array_ops, name) is getattr(mod, name), name


def test_facade_reexports_no_other_private_name():
    private = {n for n in vars(array_ops) if n.startswith("_") and not n.startswith("__")}
    assert private == {n for names in HOMES.values() for n in names if n.startswith("_")}


def test_facade_all_is_unchanged():
    from flowgrad.framework.tensor import constant, convert_to_tensor
    assert array_ops.constant is constant and array_ops.convert_to_tensor is convert_to_tensor
    assert array_ops.__all__ == [
        "placeholder", "placeholder_with_default", "identity", "identity_n", "stop_gradient",
        "shape", "size", "rank", "reshape", "fill", "zeros", "ones", "zeros_like", "ones_like",
        "broadcast_to", "stack", "unstack", "constant", "convert_to_tensor",
        "broadcast_gradient_args", "newaxis", "expand_dims", "squeeze", "transpose",
        "invert_permutation", "concat", "split", "slice", "strided_slice", "pad", "tile",
        "reverse", "reverse_v2", "gather", "unsorted_segment_sum", "one_hot", "range",
        "boolean_mask"]


def _registered_types(path: pathlib.Path) -> list[str]:
    """The op types a module registers (register_op(...) and @defop(...) calls)."""
    out = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("register_op",
                                                                            "defop"):
            if node.args and isinstance(node.args[0], ast.Constant):
                out.append(node.args[0].value)
    return out


def test_each_array_op_is_registered_once_in_its_family_module():
    where: dict[str, list[str]] = {}
    for path in sorted(OPS_DIR.parent.rglob("*.py")):
        for t in _registered_types(path):
            where.setdefault(t, []).append(path.stem)
    for home, types in OPS.items():
        for t in types:
            assert where.get(t) == [home], (t, where.get(t))
    assert {t for ts in OPS.values() for t in ts} == {
        t for name in ORDER for t in _registered_types(OPS_DIR / (name + ".py"))}


@pytest.mark.parametrize("home", sorted(OPS))
def test_kernel_shape_rule_and_gradient_live_together(home):
    for t in OPS[home]:
        d = registry._ops[t]
        grad = registry._gradients.get(t)
        for part in (d.kernel, d.infer, d.specialize, grad):
            if callable(part) and getattr(part, "__module__", "").startswith("flowgrad.ops."):
                assert part.__module__ in ("flowgrad.ops." + home,
                                           "flowgrad.framework.shape_rules"), (t, part)


def test_family_modules_import_downwards_only():
    for i, name in enumerate(ORDER):
        tree = ast.parse((OPS_DIR / (name + ".py")).read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and \
                    node.module.startswith("flowgrad.ops."):
                target = node.module.rsplit(".", 1)[1]
                if target in ORDER:
                    assert ORDER.index(target) < i, "%s imports %s" % (name, target)
                else:       # the math families sit above: they register what arrays need
                    assert target == "scatter_nd_ops", (name, target)


def test_math_families_register_the_functions_array_ops_call():
    """The array families call cast/add/.../sum_to through framework hooks, which the math
    families (above them) register: one registry, as for the framework's own hooks."""
    from flowgrad.framework import hooks
    from flowgrad.ops import arithmetic_ops, cast_ops, comparison_ops, sum_ops
    assert (hooks.cast, hooks.add, hooks.subtract, hooks.greater, hooks.where, hooks.reduce_sum,
            hooks.sum_to) == (
        cast_ops.cast, arithmetic_ops.add, arithmetic_ops.subtract, comparison_ops.greater,
        comparison_ops.where, sum_ops.reduce_sum, sum_ops.sum_to)
    with pytest.raises(ValueError, match="Unknown flowgrad hook 'sqrt'.*reduce_sum"):
        hooks.register(sqrt=len)
    assert not hasattr(hooks, "sqrt")
