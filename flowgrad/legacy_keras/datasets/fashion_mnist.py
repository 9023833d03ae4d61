"""``keras.datasets.fashion_mnist``: read from Keras's cache directory, downloaded into it
(with MD5 verification) when it is not there."""
from __future__ import annotations

from flowgrad.datasets import mnist as _idx
from flowgrad.datasets.download import digest_check
from flowgrad.legacy_keras.datasets._cache import download_required, fetch

_ORIGIN = "https://storage.googleapis.com/tensorflow/tf-keras-datasets/"
_MIRROR = "https://raw.githubusercontent.com/zalandoresearch/fashion-mnist/master/data/fashion/"
#: The files' MD5 as Zalando Research publishes them.
MD5 = {"train-labels-idx1-ubyte.gz": "25c81989df183df01b3e8a0aad5dffbe",
       "train-images-idx3-ubyte.gz": "8d4fb7e6c68d591d4c3dfef9ec88bf0d",
       "t10k-labels-idx1-ubyte.gz": "bb300cfdad3c16e7a12a480ee83cd310",
       "t10k-images-idx3-ubyte.gz": "bef4ecab320f06d8554ea6380940ec79"}


def load_data() -> tuple:
    """``(x_train, y_train), (x_test, y_test)`` as Keras returns them (uint8), from
    ``~/.keras/datasets/fashion-mnist/`` (downloaded there when absent);
    DatasetDownloadRequiredError when it is absent and cannot be downloaded."""
    paths = []
    for name, md5 in MD5.items():
        try:
            paths.append(fetch("fashion-mnist/" + name, [_ORIGIN + name, _MIRROR + name],
                               digest_check(md5, "md5")))
        except OSError as exc:
            raise download_required("fashion_mnist", ["fashion-mnist/" + f for f in MD5],
                                    _ORIGIN, str(exc)) from exc
    y_train, x_train, y_test, x_test = (
        _idx.extract_labels(p) if "labels" in p.name else _idx.extract_images(p)[..., 0]
        for p in paths)
    return (x_train, y_train), (x_test, y_test)


__all__ = ["load_data"]
