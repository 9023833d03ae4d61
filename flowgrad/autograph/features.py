"""``tf.autograph.experimental.Feature``: TensorFlow's names of AutoGraph's optional
conversions, as passed to ``tf.function(experimental_autograph_options=...)`` and
``tf.autograph.to_graph(experimental_optional_features=...)``.

flowgrad's AutoGraph always converts what these name (``==`` on tensors, ``assert`` on tensors,
builtins such as ``len``/``range`` on tensors, list idioms), so the options are accepted and
change nothing."""
from __future__ import annotations

import enum


class Feature(enum.Enum):
    """AutoGraph's optional conversions (TensorFlow's enumeration).

    Attributes:
        ALL: Enable all features.
        AUTO_CONTROL_DEPS: Insert control dependencies in the generated code.
        ASSERT_STATEMENTS: Convert tensor-dependent assert statements to tf.Assert.
        BUILTIN_FUNCTIONS: Convert builtin functions applied to tensors to TF's.
        EQUALITY_OPERATORS: Convert ``==`` to tf.math.equal.
        LISTS: Convert list idioms (initializers, slices, append, ...).
        NAME_SCOPES: Name ops after the function they were defined in.
    """

    ALL = "ALL"
    AUTO_CONTROL_DEPS = "AUTO_CONTROL_DEPS"
    ASSERT_STATEMENTS = "ASSERT_STATEMENTS"
    BUILTIN_FUNCTIONS = "BUILTIN_FUNCTIONS"
    EQUALITY_OPERATORS = "EQUALITY_OPERATORS"
    LISTS = "LISTS"
    NAME_SCOPES = "NAME_SCOPES"

    @classmethod
    def all(cls) -> tuple:
        """A tuple that enables all options."""
        return tuple(cls.__members__.values())

    @classmethod
    def all_but(cls, exclude: object) -> tuple:
        """A tuple that enables all but the excluded options.

        Args:
            exclude: A Feature, or a list, tuple or set of them.
        """
        if not isinstance(exclude, (list, tuple, set)):
            exclude = (exclude,)
        return tuple(set(cls.all()) - set(exclude) - {cls.ALL})


__all__ = ["Feature"]
