"""``tf.lookup``: static tables and their initializers (``flowgrad.ops.lookup_ops``)."""
import types

from flowgrad.ops.lookup_ops import (KeyValueTensorInitializer, StaticHashTable,
                                     StaticVocabularyTable, TextFileIndex, TextFileInitializer)

experimental = types.ModuleType("flowgrad.lookup_api.experimental",
                                "``tf.lookup.experimental``: mutable tables (not in flowgrad).")
experimental.__all__ = []

__all__ = ["KeyValueTensorInitializer", "StaticHashTable", "StaticVocabularyTable",
           "TextFileIndex", "TextFileInitializer", "experimental"]
