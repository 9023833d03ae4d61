"""Array ops, as TensorFlow's ``array_ops`` module names them.

The ops live in one module per family; this module re-exports them all (and the helpers
other op modules import from here), so ``flowgrad.ops.array_ops.<name>`` keeps working:

- ``constant_ops``: Const, placeholders, identity, identity_n, stop_gradient
- ``fill_ops``: fill, zeros, ones, zeros_like, ones_like, range, one_hot
- ``shape_ops``: shape, size, rank, reshape, broadcast_to, expand_dims, squeeze,
  stack/unstack, transpose, invert_permutation, reverse
- ``slicing_ops``: slice, strided_slice, pad
- ``concat_ops``: concat, split, tile
- ``indexing_ops``: gather, embedding_lookup, unsorted_segment_sum, where (coordinates),
  boolean_mask, ``Tensor.__getitem__``
- ``array_op_util``: helpers shared by the families (shape-like arguments, JVP rules)

Importing this module registers every array op."""
from flowgrad.framework.tensor import constant, convert_to_tensor
from flowgrad.ops.array_op_util import (  # noqa: F401
    linear_in_first_jvp, reapply, static_shape, _as_value, _int_tensor,
    _known_scalar, _static_int_list,
)
from flowgrad.ops.constant_ops import (  # noqa: F401
    identity, identity_n, placeholder, placeholder_with_default, stop_gradient,
)
from flowgrad.ops.fill_ops import (  # noqa: F401
    fill, linear_in_all_jvp, one_hot, ones, ones_like, range, zeros, zeros_like,
)
from flowgrad.ops.shape_ops import (  # noqa: F401
    broadcast_gradient_args, broadcast_to, expand_dims, invert_permutation, rank, reshape, reverse,
    reverse_v2, shape, shape_of, size, squeeze, stack, sum_tangents, transpose, transpose_v2,
    unstack,
)
from flowgrad.ops.slicing_ops import (  # noqa: F401
    pad, pad_v2, slice, strided_slice,
)
from flowgrad.ops.concat_ops import (  # noqa: F401
    concat, split, tile,
)
from flowgrad.ops.indexing_ops import (  # noqa: F401
    boolean_mask, boolean_mask_v2, embedding_lookup, embedding_lookup_v2, gather, gather_v2,
    newaxis, unsorted_segment_sum, _gather_drop_negatives, _slice_helper, _where_indices,
)

__all__ = ["placeholder", "placeholder_with_default", "identity", "identity_n", "stop_gradient",
           "shape", "size", "rank", "reshape", "fill", "zeros", "ones", "zeros_like",
           "ones_like", "broadcast_to", "stack", "unstack", "constant", "convert_to_tensor",
           "broadcast_gradient_args", "newaxis", "expand_dims", "squeeze", "transpose",
           "invert_permutation", "concat", "split", "slice", "strided_slice", "pad", "tile",
           "reverse", "reverse_v2", "gather", "unsorted_segment_sum", "one_hot", "range",
           "boolean_mask"]
