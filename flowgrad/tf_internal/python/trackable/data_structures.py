"""``tensorflow.python.trackable.data_structures``: trackable containers."""
from flowgrad.framework.trackable import NoDependency  # noqa: F401
from flowgrad.framework.trackable_data_structures import (ListWrapper,  # noqa: F401
                                                          _DictWrapper,
                                                          sticky_attribute_assignment,
                                                          wrap_or_unwrap)

__all__ = ["ListWrapper", "NoDependency", "_DictWrapper", "sticky_attribute_assignment",
           "wrap_or_unwrap"]
