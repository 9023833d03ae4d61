"""The differentiation layer, and TensorFlow's ``tf.autodiff`` (``ForwardAccumulator``,
``GradientTape``).

``backprop``: the symbolic backward pass (``tf.gradients``); ``tape``: eager recording
(``GradientTape``); ``custom_gradient``; ``forward_mode`` and ``forward_accumulator``: JVPs;
``vectorized_jacobians`` and ``pfor``: Jacobians, ``tf.vectorized_map``, ``tf.hessians``;
``control_flow_grad``: the If and While gradients. ``dir()`` shows only ``tf.autodiff``'s
names."""
from flowgrad.autodiff.forward_accumulator import ForwardAccumulator
from flowgrad.autodiff.tape import GradientTape

__all__ = ["ForwardAccumulator", "GradientTape"]


def __dir__() -> list:
    """TensorFlow's ``tf.autodiff`` names, not the layer's modules."""
    return list(__all__)
