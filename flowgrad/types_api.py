"""``tf.types``: TensorFlow's abstract types (``tf.types.experimental``)."""
import types as _types

from flowgrad.framework import types_core as _core

experimental = _types.ModuleType("flowgrad.types_api.experimental",
                                 "``tf.types.experimental``: the abstract types of tensors and "
                                 "functions.")
for _name in ("Callable", "ConcreteFunction", "GenericFunction"):
    setattr(experimental, _name, getattr(_core, _name))
experimental.TensorLike = _core.Tensor
experimental.__all__ = ["Callable", "ConcreteFunction", "GenericFunction", "TensorLike"]

__all__ = ["experimental"]
