"""MNIST with the interface of TensorFlow's old tutorial helper, in NumPy only.

A re-implementation of ``tensorflow.examples.tutorials.mnist.input_data``
(``tensorflow/contrib/learn/python/learn/datasets/mnist.py``), which TF 2.x
removed::

    from flowgrad.datasets import mnist as input_data
    mnist = input_data.read_data_sets("MNIST_data/", one_hot=True)
    batch_xs, batch_ys = mnist.train.next_batch(100)

Semantics follow the old helper:

* images are float32 in [0, 1] (``uint8 * (1/255)``) of shape (N, 784) with the
  defaults; ``dtype=np.uint8`` keeps the raw bytes, ``reshape=False`` keeps the
  shape (N, 28, 28, 1);
* labels are uint8 (N,), or one-hot float64 (N, 10) with ``one_hot=True``;
* ``.validation`` holds the first ``validation_size`` (5000) training images,
  ``.train`` the rest (55000), ``.test`` the 10000 test images;
* ``next_batch(n)`` shuffles at the start of the first epoch and of every later
  epoch (with NumPy's global RNG, or a private ``np.random.RandomState(seed)``
  when ``seed`` is given); a batch that crosses the end of an epoch is the rest
  of that epoch followed by the start of the next one. With ``shuffle=False``
  the batches come in file order and are the same arrays as the
  ``shared/seed-snippets/_mnist.py`` stand-in returns.

Like the old helper (and unlike the stand-in), ``epochs_completed`` is counted
when a batch first reaches *past* the end of an epoch: after exactly one
epoch's worth of examples it is still 0, and it becomes 1 with the next call.
Unlike the old helper, this module never reseeds NumPy's global RNG and prints
nothing while reading (``Extracting ...`` goes to the ``logging`` module).

Where the files come from (``train_dir`` None): the full set (60000 + 10000
examples) is looked for in ``$FLOWGRAD_DATA/mnist`` (or ``$FLOWGRAD_DATA``
itself), ``$MNIST_DIR``, the repository checkout's ``data/mnist`` (an editable
install from the repository), and Keras's cache ``~/.keras/datasets/mnist.npz``
(``$KERAS_HOME/datasets``). When none has it, the small sample that ships in the
package (the first 1200 training and 300 test examples, in ``data/mnist-sample``)
is used with a warning naming every place looked; ``sample=False`` makes that an
error instead, ``sample=True`` asks for the sample. With ``train_dir`` the files
are read from there and, when missing, downloaded into it from public mirrors.
Every file is checked against a known SHA-256 before it is parsed.
"""
from __future__ import annotations

import gzip
import hashlib
import http.client
import logging
import os
import warnings
import zlib
from pathlib import Path
from typing import Any, BinaryIO, NamedTuple

import numpy as np

from flowgrad.datasets.download import download
from flowgrad.framework.type_hints import DTypeLike, TensorLike

__all__ = [
    "CONTENT_SHA256",
    "DEFAULT_SOURCE_URL",
    "MIRRORS",
    "SHA256",
    "DataSet",
    "Datasets",
    "MnistChecksumError",
    "MnistError",
    "MnistFormatError",
    "MnistNotFoundError",
    "REPO_DIR",
    "SAMPLE_DIR",
    "SAMPLE_SHA256",
    "dense_to_one_hot",
    "extract_images",
    "extract_labels",
    "find_full_set",
    "places_looked",
    "load_arrays",
    "read_data_sets",
]

_log = logging.getLogger(__name__)

TRAIN_IMAGES = "train-images-idx3-ubyte.gz"
TRAIN_LABELS = "train-labels-idx1-ubyte.gz"
TEST_IMAGES = "t10k-images-idx3-ubyte.gz"
TEST_LABELS = "t10k-labels-idx1-ubyte.gz"
FILENAMES = (TRAIN_IMAGES, TRAIN_LABELS, TEST_IMAGES, TEST_LABELS)

DEFAULT_SOURCE_URL = "https://storage.googleapis.com/cvdf-datasets/mnist/"
MIRRORS = (DEFAULT_SOURCE_URL, "https://ossci-datasets.s3.amazonaws.com/mnist/")

#: SHA-256 of the full set's gzip files (``data/mnist/SHA256SUMS`` in the repository).
SHA256 = {
    TRAIN_IMAGES: "0b367032e93c5d0cea0925647cfdb18614af8ee15f83e6f2fc2ad904a6835971",
    TRAIN_LABELS: "1787548bbe0bff1ec2ecdc0ef292b02df999e2d1a6002d27500982c652b17203",
    TEST_IMAGES: "1a1a05eab793c14bb050b398624a11b0ffd1a2953baed553b1b9bd079e2a20be",
    TEST_LABELS: "b91679a0acfe4ba0e50a2437a903084cba1f5f92592b016a25a7dfd00455798b",
}

#: SHA-256 of the uncompressed IDX content. Other copies of MNIST (the download
#: mirrors) are compressed differently, so their gzip bytes differ from the
#: repository's but their content has these hashes.
CONTENT_SHA256 = {
    TRAIN_IMAGES: "ba891046e6505d7aadcbbe25680a0738ad16aec93bde7f9b65e87a2fc25776db",
    TRAIN_LABELS: "65a50cbbf4e906d70832878ad85ccda5333a97f0f4c3dd2ef09a8a9eef7101c5",
    TEST_IMAGES: "0fa7898d509279e482958e8ce81c8e77db3f2f8254e26661ceb7762c4d494ce7",
    TEST_LABELS: "ff7bcfd416de33731a308c3f266cc351222c34898ecbeaf847f06e48f7ec33f2",
}

#: SHA-256 of the sample's gzip files (``data/mnist-sample/SHA256SUMS``).
SAMPLE_SHA256 = {
    TRAIN_IMAGES: "c9af8ff76963419ca8bd852c1cd4364e99fe7751f60f916a08e551df29de9a12",
    TRAIN_LABELS: "1f8101f639ece6caf46654a8e02cdc6bf9cfc455b9fc2f475a419477c57d81a5",
    TEST_IMAGES: "b16af5006fadfefb6dbff17452616cf8e22035273c3805e421f54227ff085cde",
    TEST_LABELS: "af90d1d10172f742f17a2b6410d9d5837f6bd5b94d341b842b4e6339beee88fe",
}

#: The sample that ships inside the package (first 1200 training, 300 test examples).
SAMPLE_DIR = Path(__file__).resolve().parent / "data" / "mnist-sample"
#: The full set in a repository checkout (not part of the wheel).
REPO_DIR = Path(__file__).resolve().parents[2] / "data" / "mnist"

ENV_VAR = "MNIST_DIR"
DATA_ENV_VAR = "FLOWGRAD_DATA"
FULL_TRAIN_SIZE = 60000
IMAGES_MAGIC = 2051
LABELS_MAGIC = 2049
_DOWNLOAD_TIMEOUT_S = 60.0


class MnistError(Exception):
    """Base class of the errors raised by this module."""


class MnistNotFoundError(MnistError, FileNotFoundError):
    """The MNIST files are not on disk and could not be downloaded."""


class MnistChecksumError(MnistError, ValueError):
    """A file's SHA-256 does not match the known MNIST checksum."""


class MnistFormatError(MnistError, ValueError):
    """A file is not a (gzip-compressed) IDX file of the expected kind."""


# --------------------------------------------------------------------------
# IDX parsing
# --------------------------------------------------------------------------

def _parse_idx(content: bytes, magic: int, source: str) -> np.ndarray:
    """The uint8 array stored in uncompressed IDX ``content`` (checks the magic number)."""
    kind = "image" if magic == IMAGES_MAGIC else "label"
    if len(content) < 4:
        raise MnistFormatError(f"MNIST {kind} file {source} is too short to be an IDX file "
                               f"({len(content)} bytes)")
    got = int.from_bytes(content[:4], "big")
    if got != magic:
        raise MnistFormatError(f"Invalid magic number {got} in MNIST {kind} file {source}: "
                               f"expected {magic}")
    ndim = content[3]
    header = 4 + 4 * ndim
    if len(content) < header:
        raise MnistFormatError(f"MNIST {kind} file {source} is truncated (incomplete header)")
    dims = [int.from_bytes(content[4 + 4 * i:8 + 4 * i], "big") for i in range(ndim)]
    count = int(np.prod(dims))
    if len(content) < header + count:
        raise MnistFormatError(f"MNIST {kind} file {source} is truncated: header says {dims} "
                               f"({count} bytes of data), file has {len(content) - header}")
    return np.frombuffer(content, dtype=np.uint8, count=count, offset=header).reshape(dims).copy()


def _read_gzip(f: BinaryIO | str | os.PathLike[str]) -> tuple[bytes, str]:
    """The decompressed bytes of a gzip file given as a path or a binary file object."""
    if isinstance(f, (str, os.PathLike)):
        source = os.fspath(f)
        raw = Path(source).read_bytes()
    else:
        source = str(getattr(f, "name", repr(f)))
        raw = f.read()
    try:
        return gzip.decompress(raw), source
    except (OSError, EOFError, zlib.error) as exc:
        raise MnistFormatError(f"{source} is not a valid gzip file: {exc}") from exc


def extract_images(f: BinaryIO | str | os.PathLike[str]) -> np.ndarray:
    """Extract a gzipped IDX image file into a 4-D uint8 array [index, y, x, depth=1].

    ``f`` is a path or a binary file object; raises :class:`MnistFormatError`
    when the magic number is not 2051.

    Args:
        f: A path or a binary file object of a gzipped IDX image file.
    """
    content, source = _read_gzip(f)
    data = _parse_idx(content, IMAGES_MAGIC, source)
    return data.reshape(*data.shape, 1)


def dense_to_one_hot(labels_dense: np.ndarray, num_classes: int) -> np.ndarray:
    """Convert class labels from scalars to one-hot vectors (float64, as NumPy's default).

    A label outside [0, num_classes) is a ValueError naming it and its index.

    Args:
        labels_dense: A 1-D array of class ids.
        num_classes: The number of classes.
    """
    bad = np.flatnonzero((labels_dense < 0) | (labels_dense >= num_classes))
    if bad.size:
        raise ValueError(f"label {int(labels_dense.ravel()[bad[0]])} at index {int(bad[0])} is "
                         f"outside [0, {num_classes}), so it has no one-hot vector "
                         f"({bad.size} such labels)")
    num_labels = labels_dense.shape[0]
    index_offset = np.arange(num_labels) * num_classes
    labels_one_hot = np.zeros((num_labels, num_classes))
    labels_one_hot.flat[index_offset + labels_dense.ravel()] = 1
    return labels_one_hot


def extract_labels(f: BinaryIO | str | os.PathLike[str], one_hot: bool = False,
                   num_classes: int = 10) -> np.ndarray:
    """Extract a gzipped IDX label file into a 1-D uint8 array (or one-hot float64 2-D).

    Raises :class:`MnistFormatError` when the magic number is not 2049.

    Args:
        f: A path or a binary file object of a gzipped IDX label file.
        one_hot: Whether to return one-hot float64 rows.
        num_classes: The number of classes for ``one_hot``.
    """
    content, source = _read_gzip(f)
    return _labels_from_content(content, source, one_hot, num_classes)


def _labels_from_content(content: bytes, source: str, one_hot: bool,
                         num_classes: int = 10) -> np.ndarray:
    labels = _parse_idx(content, LABELS_MAGIC, source)
    if one_hot:
        try:
            return dense_to_one_hot(labels, num_classes)
        except ValueError as e:
            raise MnistFormatError(f"MNIST label file {source}: {e}") from None
    return labels


# --------------------------------------------------------------------------
# DataSet
# --------------------------------------------------------------------------

def _image_dtype(dtype: Any) -> np.dtype:
    """NumPy dtype of ``dtype`` (a NumPy dtype, a name, or a flowgrad/TF DType)."""
    base = getattr(dtype, "base_dtype", dtype)
    base = getattr(base, "as_numpy_dtype", base)
    try:
        np_dtype = np.dtype(base)
    except TypeError:
        np_dtype = None
    if np_dtype not in (np.dtype(np.uint8), np.dtype(np.float32)):
        raise TypeError(f"Invalid image dtype {dtype!r}, expected uint8 or float32")
    return np_dtype


class DataSet:
    """One split of MNIST: ``images``, ``labels`` and ``next_batch`` as in the old TF helper.

    ``images`` is the raw uint8 array (N, rows, cols, 1): with ``reshape`` it
    becomes (N, rows * cols), and with ``dtype`` float32 it is scaled to [0, 1].
    ``seed`` gives the dataset its own ``np.random.RandomState(seed)`` for
    shuffling; without it NumPy's global RNG is used.

    Args:
        images: The uint8 images: (N, rows, cols, 1).
        labels: The labels: (N,) class ids, or (N, 10) one-hot.
        fake_data: Whether ``next_batch`` returns constant fake examples.
        one_hot: Whether the labels are one-hot (for fake data).
        dtype: float32 (scaled to [0, 1]) or uint8.
        reshape: Whether to flatten each image to rows * cols values.
        seed: The seed of the split's own shuffling RandomState; NumPy's global one when None.
    """

    def __init__(self, images: TensorLike, labels: TensorLike, fake_data: bool = False,
                 one_hot: bool = False, dtype: DTypeLike = np.float32, reshape: bool = True,
                 seed: int | None = None) -> None:
        np_dtype = _image_dtype(dtype)
        self._rng = np.random.RandomState(seed) if seed is not None else None
        self.one_hot = one_hot
        if fake_data:
            self._num_examples = 10000
        else:
            images = np.asarray(images)
            labels = np.asarray(labels)
            if images.shape[0] != labels.shape[0]:
                raise ValueError(f"images.shape: {images.shape} labels.shape: {labels.shape}")
            self._num_examples = images.shape[0]
            # [num examples, rows, columns, depth] -> [num examples, rows * columns]
            if reshape:
                if images.ndim != 4 or images.shape[3] != 1:
                    raise ValueError("reshape=True expects images of shape "
                                     f"[N, rows, cols, 1], got {images.shape}")
                images = images.reshape(images.shape[0], images.shape[1] * images.shape[2])
            if np_dtype == np.float32:
                # [0, 255] -> [0.0, 1.0]
                images = images.astype(np.float32)
                images = np.multiply(images, 1.0 / 255.0)
        self._images = images
        self._labels = labels
        self._epochs_completed = 0
        self._index_in_epoch = 0

    @property
    def images(self) -> np.ndarray:
        """The images, in the current (possibly shuffled) order."""
        return self._images

    @property
    def labels(self) -> np.ndarray:
        """The labels, in the same order as ``images``."""
        return self._labels

    @property
    def num_examples(self) -> int:
        """The number of examples in this split."""
        return self._num_examples

    @property
    def epochs_completed(self) -> int:
        """How many times ``next_batch`` has gone past the end of the data."""
        return self._epochs_completed

    def _shuffle(self) -> None:
        perm = np.arange(self._num_examples)
        if self._rng is not None:
            self._rng.shuffle(perm)
        else:
            np.random.shuffle(perm)
        self._images = self.images[perm]
        self._labels = self.labels[perm]

    def next_batch(self, batch_size: int, fake_data: bool = False,
                   shuffle: bool = True) -> tuple[Any, Any]:
        """Return the next ``batch_size`` examples as ``(images, labels)``.

        With ``shuffle`` the data is shuffled before the first epoch and before
        each following one; a batch crossing the end of an epoch is the rest of
        that epoch followed by the start of the next.
        """
        if fake_data:
            fake_image = [1] * 784
            fake_label: Any = [1] + [0] * 9 if self.one_hot else 0
            return ([fake_image for _ in range(batch_size)],
                    [fake_label for _ in range(batch_size)])
        start = self._index_in_epoch
        # Shuffle for the first epoch
        if self._epochs_completed == 0 and start == 0 and shuffle:
            self._shuffle()
        # Go to the next epoch
        if start + batch_size > self._num_examples:
            # Finished epoch
            self._epochs_completed += 1
            # Get the rest examples in this epoch
            rest_num_examples = self._num_examples - start
            images_rest_part = self._images[start:self._num_examples]
            labels_rest_part = self._labels[start:self._num_examples]
            # Shuffle the data
            if shuffle:
                self._shuffle()
            # Start next epoch
            start = 0
            self._index_in_epoch = batch_size - rest_num_examples
            end = self._index_in_epoch
            images_new_part = self._images[start:end]
            labels_new_part = self._labels[start:end]
            return (np.concatenate((images_rest_part, images_new_part), axis=0),
                    np.concatenate((labels_rest_part, labels_new_part), axis=0))
        self._index_in_epoch += batch_size
        end = self._index_in_epoch
        return self._images[start:end], self._labels[start:end]


class Datasets(NamedTuple):
    """The three MNIST splits (``base.Datasets`` in the old helper).

    Args:
        train: The training split.
        validation: The validation split.
        test: The test split.
    """

    train: DataSet
    validation: DataSet
    test: DataSet


# --------------------------------------------------------------------------
# Finding, downloading and checking the files
# --------------------------------------------------------------------------

def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _checked_sample(raw: bytes, name: str, source: str) -> bytes:
    """Decompress the sample's file ``name`` after checking its SHA-256."""
    actual = _sha256(raw)
    if actual != SAMPLE_SHA256[name]:
        raise MnistChecksumError(
            f"SHA-256 checksum mismatch for the MNIST sample file {name} ({source}): expected "
            f"{SAMPLE_SHA256[name]}, got {actual}. The flowgrad installation is damaged: "
            "reinstall it.")
    return gzip.decompress(raw)


def _checked_content(raw: bytes, name: str, source: str, verify: bool) -> bytes:
    """Decompress the gzip bytes ``raw`` of MNIST file ``name``, checking its SHA-256.

    The file passes if its gzip bytes have the repository copy's hash or (for copies
    compressed differently) its uncompressed content has the known content hash.
    """
    if not verify:
        try:
            return gzip.decompress(raw)
        except (OSError, EOFError, zlib.error) as exc:
            raise MnistFormatError(f"{source} is not a valid gzip file: {exc}") from exc
    actual = _sha256(raw)
    known = actual == SHA256[name]
    try:
        content = gzip.decompress(raw)
    except (OSError, EOFError, zlib.error) as exc:
        if known:  # cannot happen with the bundled bytes, but fail clearly anyway
            raise MnistFormatError(f"{source} is not a valid gzip file: {exc}") from exc
        actual_content = f"none: not a valid gzip file ({exc})"
    else:
        if known:
            return content
        actual_content = _sha256(content)
        if actual_content == CONTENT_SHA256[name]:
            return content
    raise MnistChecksumError(
        f"SHA-256 checksum mismatch for MNIST file {name} ({source}): "
        f"expected {SHA256[name]} for the gzip file (or {CONTENT_SHA256[name]} for its "
        f"uncompressed content), got {actual} (content: {actual_content}). The file is "
        "corrupted or incomplete: delete it so that it is downloaded again.")


def _has_all(directory: Path) -> bool:
    return all((directory / name).is_file() for name in FILENAMES)


def _missing(directory: Path) -> list[str]:
    return [name for name in FILENAMES if not (directory / name).is_file()]


def _fetch(url: str, dest: Path, verify: bool) -> None:
    """Download MNIST file ``url`` to ``dest``, checking its SHA-256 before it is kept."""
    download(url, dest, lambda raw, source: _checked_content(raw, dest.name, source, verify),
             _DOWNLOAD_TIMEOUT_S)


def _download_missing(directory: Path, missing: list[str], source_url: str | None,
                      verify: bool) -> None:
    """Download the ``missing`` files into ``directory`` from the mirrors (or ``source_url``)."""
    bases = [source_url] if source_url else list(MIRRORS)
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise _not_found(directory, missing, [f"cannot create {directory}: {exc}"]) from exc
    for i, name in enumerate(missing):
        errors = []
        for base in bases:
            url = base if base.endswith("/") else base + "/"
            url += name
            try:
                _fetch(url, directory / name, verify)
                break
            except (OSError, http.client.HTTPException, MnistError) as exc:
                errors.append(f"{url}: {exc}")
        else:
            raise _not_found(directory, missing[i:], errors)


def _not_found(directory: Path, missing: list[str], errors: list[str]) -> MnistNotFoundError:
    reasons = "".join(f"\n  {e}" for e in errors)
    return MnistNotFoundError(
        f"MNIST files missing from {directory}: {', '.join(missing)}. Downloading them "
        f"failed:{reasons}\nPut the files ({', '.join(FILENAMES)}) into {directory}, or "
        f"point ${ENV_VAR} or ${DATA_ENV_VAR} at a directory that holds them, or call "
        "read_data_sets() without train_dir to use the full set where it is found (else the "
        f"sample that ships with flowgrad, {SAMPLE_DIR}).")


def _locate(train_dir: str | os.PathLike[str], source_url: str | None, verify: bool) -> Path:
    """The directory to read the four files from: ``train_dir`` if complete, else
    ``$MNIST_DIR`` if complete, else ``train_dir`` after downloading the missing files."""
    directory = Path(train_dir).expanduser()
    if _has_all(directory):
        return directory
    env = os.environ.get(ENV_VAR)
    if env and _has_all(Path(env).expanduser()):
        return Path(env).expanduser()
    _download_missing(directory, _missing(directory), source_url, verify)
    return directory


def _keras_npz() -> Path:
    base = os.environ.get("KERAS_HOME") or os.path.join(os.path.expanduser("~"), ".keras")
    return Path(base) / "datasets" / "mnist.npz"


def _places() -> list[tuple[str, Path | None]]:
    """Where the full set is looked for, in order: (what, path or None when unset)."""
    data = os.environ.get(DATA_ENV_VAR)
    data_dir = Path(data).expanduser() if data else None
    env = os.environ.get(ENV_VAR)
    return [(f"${DATA_ENV_VAR}/mnist", data_dir / "mnist" if data_dir else None),
            (f"${DATA_ENV_VAR}", data_dir),
            (f"${ENV_VAR}", Path(env).expanduser() if env else None),
            ("the repository checkout", REPO_DIR),
            ("Keras's cache", _keras_npz())]


def places_looked() -> str:
    return "; ".join(f"{what}: {path if path is not None else 'not set'}"
                     for what, path in _places())


_Arrays = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def _idx_content(magic: int, array: np.ndarray) -> bytes:
    """The uncompressed IDX bytes of a uint8 ``array`` (to check a .npz copy's content)."""
    header = magic.to_bytes(4, "big") + b"".join(d.to_bytes(4, "big") for d in array.shape)
    return header + np.ascontiguousarray(array).tobytes()


def _read_npz(path: Path, verify: bool) -> _Arrays | None:
    """The arrays of a Keras ``mnist.npz`` holding the full set; None when it is not that."""
    try:
        with np.load(path, allow_pickle=False) as f:
            x_train, y_train, x_test, y_test = (f[k] for k in
                                                ("x_train", "y_train", "x_test", "y_test"))
    except (OSError, KeyError, ValueError):
        return None
    pairs = ((TRAIN_IMAGES, IMAGES_MAGIC, x_train), (TRAIN_LABELS, LABELS_MAGIC, y_train),
             (TEST_IMAGES, IMAGES_MAGIC, x_test), (TEST_LABELS, LABELS_MAGIC, y_test))
    for name, magic, array in pairs:
        if array.dtype != np.uint8:
            return None
        if verify and _sha256(_idx_content(magic, array)) != CONTENT_SHA256[name]:
            return None
    return x_train[..., None], y_train, x_test[..., None], y_test


def _read_dir(directory: Path, verify: bool, sample: bool = False) -> _Arrays:
    """The four uint8 arrays (images with a trailing depth axis) of an IDX directory."""
    def parse(name: str, magic: int) -> np.ndarray:
        path = directory / name
        _log.info("Extracting %s", path)
        raw = path.read_bytes()
        content = (_checked_sample(raw, name, str(path)) if sample
                   else _checked_content(raw, name, str(path), verify))
        return _parse_idx(content, magic, str(path))

    return (parse(TRAIN_IMAGES, IMAGES_MAGIC)[..., None], parse(TRAIN_LABELS, LABELS_MAGIC),
            parse(TEST_IMAGES, IMAGES_MAGIC)[..., None], parse(TEST_LABELS, LABELS_MAGIC))


def find_full_set() -> Path | None:
    """Where the full MNIST set is: a directory with the four files or a Keras ``mnist.npz``
    (the first of ``$FLOWGRAD_DATA/mnist``, ``$FLOWGRAD_DATA``, ``$MNIST_DIR``, the
    repository's ``data/mnist``, Keras's cache); None when none has it."""
    for _, path in _places():
        if path is None:
            continue
        if path.suffix == ".npz":
            if path.is_file() and _read_npz(path, verify=True) is not None:
                return path
        elif _has_all(path):
            return path
    return None


def _raw_arrays(sample: bool | None, verify: bool) -> tuple[_Arrays, bool]:
    """The four uint8 arrays and whether they are the sample (see ``read_data_sets``)."""
    if not sample:
        full = find_full_set()
        if full is not None:
            if full.suffix == ".npz":
                arrays = _read_npz(full, verify)
                assert arrays is not None  # checked by find_full_set
                return arrays, False
            return _read_dir(full, verify), False
        if sample is False:
            raise MnistNotFoundError(
                f"The full MNIST set was not found. Looked in: {places_looked()}. Put the "
                f"four files ({', '.join(FILENAMES)}) into a directory named by "
                f"${DATA_ENV_VAR}/mnist or ${ENV_VAR}, copy Keras's mnist.npz to "
                f"{_keras_npz()}, or call read_data_sets(train_dir) to download them there "
                "(checked by SHA-256).")
        warnings.warn(
            f"The full MNIST set was not found (looked in: {places_looked()}); using the "
            "sample that ships with flowgrad: the first 1200 training and 300 test examples "
            f"({SAMPLE_DIR}). Set ${DATA_ENV_VAR} to a directory holding mnist/ with the four "
            "files, or call read_data_sets(train_dir) to download them (checked by SHA-256).",
            UserWarning, stacklevel=3)
    return _read_dir(SAMPLE_DIR, verify, sample=True), True


def load_arrays(sample: bool | None = None) -> tuple:
    """``(x_train, y_train), (x_test, y_test)`` as uint8 arrays of shapes (N, 28, 28) and (N,).

    The full set where it is found (see ``find_full_set``), else the sample with a warning;
    ``sample=False`` raises :class:`MnistNotFoundError` instead, ``sample=True`` reads the
    sample.

    Args:
        sample: None: the full set where found, else the sample with a warning; False: the full set
            or MnistNotFoundError; True: the sample.
    """
    (x_train, y_train, x_test, y_test), _ = _raw_arrays(sample, verify=True)
    return (x_train[..., 0], y_train), (x_test[..., 0], y_test)


def read_data_sets(train_dir: str | os.PathLike[str] | None = None, one_hot: bool = False,
                   dtype: DTypeLike = np.float32, reshape: bool = True, validation_size: int = 5000,
                   seed: int | None = None, source_url: str | None = None, *,
                   fake_data: bool = False, verify: bool = True,
                   sample: bool | None = None) -> Datasets:
    """Read MNIST into ``Datasets(train, validation, test)`` like the old TF helper.

    ``train_dir``: where the files are (downloaded there if missing); None looks for
    the full set (``find_full_set``) and otherwise uses the sample shipped with
    flowgrad, with a warning (``sample=False``: an error; ``sample=True``: the
    sample). From the sample, ``validation_size`` is scaled by 1200/60000 (the
    default 5000 becomes 100). ``validation_size`` first training images form
    ``.validation``. ``seed`` gives each split a private RandomState for
    shuffling. ``source_url`` replaces the download mirrors. ``verify=False``
    skips the SHA-256 check (for other data in MNIST's format, e.g.
    Fashion-MNIST). ``fake_data`` gives splits whose ``next_batch`` returns
    constant fake examples, as in the old helper.

    Args:
        train_dir: Where the four MNIST files are (downloaded there if missing); None looks for the
            full set, else uses the sample.
        one_hot: Whether the labels are one-hot.
        dtype: float32 (scaled to [0, 1]) or uint8.
        reshape: Whether to flatten each image to 784 values.
        validation_size: How many training images form the validation split (scaled for the sample).
        seed: The seed of each split's shuffling.
        source_url: A mirror to download from instead of the default ones.
        fake_data: Whether to return splits of constant fake examples.
        verify: Whether to check the files' SHA-256 (False for other data in MNIST's format).
        sample: None, False or True, as for ``load_arrays``.
    """
    if fake_data:
        def fake() -> DataSet:
            return DataSet([], [], fake_data=True, one_hot=one_hot, dtype=dtype, seed=seed)
        return Datasets(train=fake(), validation=fake(), test=fake())

    if train_dir is not None:
        arrays = _read_dir(_locate(train_dir, source_url or None, verify), verify)
    else:
        arrays, is_sample = _raw_arrays(sample, verify)
        if is_sample:
            validation_size = validation_size * len(arrays[0]) // FULL_TRAIN_SIZE
    train_images, train_labels, test_images, test_labels = arrays

    if one_hot:
        try:
            train_labels = dense_to_one_hot(train_labels, 10)
            test_labels = dense_to_one_hot(test_labels, 10)
        except ValueError as e:
            raise MnistFormatError(f"MNIST label file: {e}") from None

    if not 0 <= validation_size <= len(train_images):
        raise ValueError(f"Validation size should be between 0 and {len(train_images)}. "
                         f"Received: {validation_size}.")

    validation_images = train_images[:validation_size]
    validation_labels = train_labels[:validation_size]
    train_images = train_images[validation_size:]
    train_labels = train_labels[validation_size:]

    options: dict[str, Any] = {"one_hot": one_hot, "dtype": dtype, "reshape": reshape,
                               "seed": seed}
    train = DataSet(train_images, train_labels, **options)
    validation = DataSet(validation_images, validation_labels, **options)
    test = DataSet(test_images, test_labels, **options)
    return Datasets(train=train, validation=validation, test=test)
