"""``tf.saved_model.SaveOptions``, ``LoadOptions`` and
``tf.saved_model.experimental.VariablePolicy``: the option objects TensorFlow's
``tf.saved_model.save``/``load`` take (``tensorflow/python/saved_model/save_options.py``,
``load_options.py``). flowgrad's SavedModel writer reads none of them (it has no devices,
debug info or namespaced ops), but programs build and pass them, and they hold and check
their values as TensorFlow's do."""
from __future__ import annotations

import enum
from typing import Any


class VariablePolicy(enum.Enum):
    """How variables' devices and distributed variables are saved."""

    NONE = None
    SAVE_VARIABLE_DEVICES = "save_variable_devices"
    EXPAND_DISTRIBUTED_VARIABLES = "expand_distributed_variables"

    @staticmethod
    def from_obj(obj: Any) -> VariablePolicy:
        """The policy ``obj`` names: a VariablePolicy, None, or a value string (any case).

        Args:
            obj: The policy or its name.

        Returns:
            The VariablePolicy.

        Raises:
            ValueError: ``obj`` names no policy.
        """
        if obj is None:
            return VariablePolicy.NONE
        if isinstance(obj, VariablePolicy):
            return obj
        key = str(obj).lower()
        for policy in VariablePolicy:
            if key == policy.value:
                return policy
        raise ValueError(f"Received invalid VariablePolicy value: {obj}.")


def _namespace_whitelist(whitelist: Any) -> list | None:
    if whitelist is None:
        return None
    items = [whitelist] if isinstance(whitelist, str) else list(whitelist)
    for item in items:
        if not isinstance(item, str):
            raise ValueError(f"Whitelisted namespace must be a string. Got: {item} of type "
                             f"{type(item)}.")
    return items


class SaveOptions:
    """Options for ``tf.saved_model.save`` (TensorFlow's arguments and defaults).

    Args:
        namespace_whitelist: Op namespaces allowed in the saved graph (strings).
        save_debug_info: Write the ops' stack traces.
        function_aliases: Alias name -> tf.function.
        experimental_debug_stripper: Strip Assert nodes.
        experimental_io_device: The device reading and writing the files.
        experimental_variable_policy: A ``VariablePolicy`` or its value string.
        experimental_custom_gradients: Save the gradients of ``tf.custom_gradient``.
        experimental_image_format: The image format for models over 2 GB.
        experimental_skip_saver: Do not save the checkpointing ops.
        experimental_sharding_callback: How checkpoints are sharded.
        extra_tags: Extra tags of the MetaGraph.
    """

    __slots__ = ("namespace_whitelist", "save_debug_info", "function_aliases",
                 "experimental_debug_stripper", "experimental_io_device",
                 "experimental_variable_policy", "experimental_custom_gradients",
                 "experimental_image_format", "experimental_skip_saver",
                 "experimental_sharding_callback", "extra_tags")

    def __init__(self, namespace_whitelist: Any = None, save_debug_info: bool = False,
                 function_aliases: dict | None = None, experimental_debug_stripper: bool = False,
                 experimental_io_device: str | None = None,
                 experimental_variable_policy: Any = None,
                 experimental_custom_gradients: bool = True,
                 experimental_image_format: bool = False,
                 experimental_skip_saver: bool = False,
                 experimental_sharding_callback: Any = None, extra_tags: Any = None):
        self.namespace_whitelist = _namespace_whitelist(namespace_whitelist)
        self.save_debug_info = save_debug_info
        self.function_aliases = function_aliases if function_aliases else dict()
        self.experimental_custom_gradients = experimental_custom_gradients
        self.experimental_debug_stripper = experimental_debug_stripper
        self.experimental_io_device = experimental_io_device
        self.experimental_variable_policy = VariablePolicy.from_obj(
            experimental_variable_policy)
        self.experimental_skip_saver = experimental_skip_saver
        self.experimental_image_format = experimental_image_format
        self.experimental_sharding_callback = experimental_sharding_callback
        self.extra_tags = extra_tags


class LoadOptions:
    """Options for ``tf.saved_model.load`` (TensorFlow's arguments and defaults).

    Args:
        allow_partial_checkpoint: Load a checkpoint missing some values.
        experimental_io_device: The device reading the files.
        experimental_skip_checkpoint: Do not restore the variables.
        experimental_variable_policy: A ``VariablePolicy`` or its value string.
        experimental_load_function_aliases: Load the SaveOptions' function aliases.
    """

    __slots__ = ("allow_partial_checkpoint", "experimental_io_device",
                 "experimental_skip_checkpoint", "experimental_variable_policy",
                 "experimental_load_function_aliases")

    def __init__(self, allow_partial_checkpoint: bool = False,
                 experimental_io_device: str | None = None,
                 experimental_skip_checkpoint: bool = False,
                 experimental_variable_policy: Any = None,
                 experimental_load_function_aliases: bool = False):
        self.allow_partial_checkpoint = allow_partial_checkpoint
        self.experimental_io_device = experimental_io_device
        self.experimental_skip_checkpoint = experimental_skip_checkpoint
        self.experimental_variable_policy = VariablePolicy.from_obj(
            experimental_variable_policy)
        self.experimental_load_function_aliases = experimental_load_function_aliases


__all__ = ["SaveOptions", "LoadOptions", "VariablePolicy"]
