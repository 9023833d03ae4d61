"""``tf.linalg.LinearOperator`` and its family, written on flowgrad's ops (so every result
differentiates). Importing the package imports every operator: the base class's defaults
(``adjoint``, ``inverse``, ``@``) build operators of the other modules."""
from flowgrad.linear_operators import base, composite, structured  # noqa: F401
