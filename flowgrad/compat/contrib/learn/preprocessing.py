"""``tf.contrib.learn.preprocessing``: TF 1.15's ``VocabularyProcessor`` (documents to
fixed-length id vectors, id 0 for unknown words and padding), ``CategoricalVocabulary`` and its
regular-expression ``tokenizer``."""
from __future__ import annotations

import collections
import pickle
import re
from collections.abc import Callable, Iterable, Iterator

import numpy as np

TOKENIZER_RE = re.compile(r"[A-Z]{2,}(?![a-z])|[A-Z][a-z]+(?=[A-Z])|[\'\w\-]+", re.UNICODE)


def tokenizer(iterator: Iterable[str]) -> Iterator[list]:
    """Splits each document into words (runs of word characters, apostrophes and hyphens;
    CamelCase split).

    Args:
      iterator: Documents.

    Yields:
      Each document's list of tokens.
    """
    for value in iterator:
        yield TOKENIZER_RE.findall(value)


class CategoricalVocabulary:
    """Categories to ids, 0 for the unknown token; growing until frozen.

    Args:
      unknown_token: The token of id 0.
      support_reverse: Whether ids can be mapped back to categories.
    """

    def __init__(self, unknown_token: str = "<UNK>", support_reverse: bool = True):
        self._unknown_token = unknown_token
        self._mapping = {unknown_token: 0}
        self._support_reverse = support_reverse
        if support_reverse:
            self._reverse_mapping = [unknown_token]
        self._freq: dict = collections.defaultdict(int)
        self._freeze = False

    def __len__(self) -> int:
        return len(self._mapping)

    def freeze(self, freeze: bool = True) -> None:
        """Stops (or resumes) adding categories.

        Args:
          freeze: Whether to freeze.
        """
        self._freeze = freeze

    def get(self, category: object) -> int:
        """The id of ``category``, added when new and not frozen (0 when frozen).

        Args:
          category: The category.

        Returns:
          Its id.
        """
        if category not in self._mapping:
            if self._freeze:
                return 0
            self._mapping[category] = len(self._mapping)
            if self._support_reverse:
                self._reverse_mapping.append(category)
        return self._mapping[category]

    def add(self, category: object, count: int = 1) -> None:
        """Adds ``category`` and counts it.

        Args:
          category: The category.
          count: How many times to count it.
        """
        category_id = self.get(category)
        if category_id <= 0:
            return
        self._freq[category] += count

    def trim(self, min_frequency: int, max_frequency: int = -1) -> None:
        """Keeps the categories seen more than ``min_frequency`` times (and fewer than
        ``max_frequency`` when positive), renumbered by decreasing frequency.

        Args:
          min_frequency: The count a category must exceed.
          max_frequency: The count a category must stay under (no bound when not positive).
        """
        freq = sorted(sorted(self._freq.items(), key=lambda x: (isinstance(x[0], str), x[0])),
                      key=lambda x: x[1], reverse=True)
        self._mapping = {self._unknown_token: 0}
        if self._support_reverse:
            self._reverse_mapping = [self._unknown_token]
        idx = 1
        for category, count in freq:
            if max_frequency > 0 and count >= max_frequency:
                continue
            if count <= min_frequency:
                break
            self._mapping[category] = idx
            idx += 1
            if self._support_reverse:
                self._reverse_mapping.append(category)
        self._freq = dict(freq[:idx - 1])

    def reverse(self, class_id: int) -> object:
        """The category of ``class_id``.

        Args:
          class_id: An id.

        Returns:
          The category.

        Raises:
          ValueError: the vocabulary was made without ``support_reverse``.
        """
        if not self._support_reverse:
            raise ValueError("This vocabulary wasn't initialized with support_reverse to "
                             "support reverse() function.")
        return self._reverse_mapping[class_id]


class VocabularyProcessor:
    """Maps documents to vectors of word ids of length ``max_document_length`` (0 pads and
    stands for unknown words).

    Args:
      max_document_length: The length of the id vectors (longer documents are cut).
      min_frequency: Words seen this often or less are dropped from the vocabulary.
      vocabulary: A ``CategoricalVocabulary`` to start from.
      tokenizer_fn: A function from documents to token lists (``tokenizer`` when None).
    """

    def __init__(self, max_document_length: int, min_frequency: int = 0,
                 vocabulary: CategoricalVocabulary | None = None,
                 tokenizer_fn: Callable | None = None):
        self.max_document_length = max_document_length
        self.min_frequency = min_frequency
        self.vocabulary_ = vocabulary if vocabulary else CategoricalVocabulary()
        self._tokenizer = tokenizer_fn if tokenizer_fn else tokenizer

    def fit(self, raw_documents: Iterable[str], unused_y: object = None) -> VocabularyProcessor:
        """Builds the vocabulary from ``raw_documents`` (then freezes it).

        Args:
          raw_documents: Documents.
          unused_y: Ignored.

        Returns:
          This processor.
        """
        for tokens in self._tokenizer(raw_documents):
            for token in tokens:
                self.vocabulary_.add(token)
        if self.min_frequency > 0:
            self.vocabulary_.trim(self.min_frequency)
        self.vocabulary_.freeze()
        return self

    def fit_transform(self, raw_documents: Iterable[str],
                      unused_y: object = None) -> Iterator[np.ndarray]:
        """``fit`` then ``transform``.

        Args:
          raw_documents: Documents (iterated twice: a list, not a generator).
          unused_y: Ignored.

        Returns:
          The id vectors, one per document (a generator).
        """
        self.fit(raw_documents)
        return self.transform(raw_documents)

    def transform(self, raw_documents: Iterable[str]) -> Iterator[np.ndarray]:
        """The int64 id vector of each document.

        Args:
          raw_documents: Documents.

        Yields:
          One vector of length ``max_document_length`` per document.
        """
        for tokens in self._tokenizer(raw_documents):
            word_ids = np.zeros(self.max_document_length, np.int64)
            for idx, token in enumerate(tokens):
                if idx >= self.max_document_length:
                    break
                word_ids[idx] = self.vocabulary_.get(token)
            yield word_ids

    def reverse(self, documents: Iterable) -> Iterator[str]:
        """The words of id vectors, joined with spaces.

        Args:
          documents: Id vectors.

        Yields:
          One string per vector.
        """
        for item in documents:
            yield " ".join(self.vocabulary_.reverse(class_id) for class_id in item)

    def save(self, filename: str) -> None:
        """Pickles this processor to ``filename``.

        Args:
          filename: The file to write.
        """
        with open(filename, "wb") as f:
            f.write(pickle.dumps(self))

    @classmethod
    def restore(cls, filename: str) -> VocabularyProcessor:
        """A processor saved with ``save``.

        Args:
          filename: The file to read.

        Returns:
          The processor.
        """
        with open(filename, "rb") as f:
            return pickle.loads(f.read())  # noqa: S301 - TF 1.15's format is a pickle


__all__ = ["CategoricalVocabulary", "VocabularyProcessor", "tokenizer"]


def __dir__() -> list:
    return sorted(__all__)
