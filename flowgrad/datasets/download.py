"""Downloading a dataset file: through a ``.part`` file, with a progress report, checked
before it takes its final name (so no half-written or unverified file is ever left)."""
from __future__ import annotations

import contextlib
import hashlib
import os
import sys
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

__all__ = ["OFFLINE_ENV_VAR", "digest_check", "download", "offline"]

#: Set to 1 to forbid every download (air-gapped machines, test runs).
OFFLINE_ENV_VAR = "FLOWGRAD_OFFLINE"
_TIMEOUT_S = 60.0


def offline() -> bool:
    """True when ``$FLOWGRAD_OFFLINE`` forbids downloads."""
    return os.environ.get(OFFLINE_ENV_VAR, "").strip().lower() not in ("", "0", "false", "no")


def digest_check(expected: str, algorithm: str = "sha256") -> Callable[[bytes, str], None]:
    """A check for ``download`` that raises ValueError unless the bytes have this digest.

    Args:
        expected: The hex digest the bytes must have.
        algorithm: A ``hashlib`` algorithm name.
    """
    def check(data: bytes, source: str) -> None:
        actual = hashlib.new(algorithm, data).hexdigest()
        if actual != expected:
            raise ValueError(f"{algorithm.upper()} checksum mismatch for {source}: expected "
                             f"{expected}, got {actual}")
    return check


@contextlib.contextmanager
def _progress(total: int | None, label: str) -> Iterator[Callable[[int], None]]:
    """A callback reporting downloaded bytes: a tqdm bar if tqdm is installed, else text."""
    try:
        from tqdm import tqdm
    except ImportError:
        tqdm = None
    if tqdm is not None:
        with tqdm(total=total, unit="B", unit_scale=True, unit_divisor=1024,
                  desc=label, file=sys.stderr) as bar:
            yield bar.update
        return
    done = 0
    shown = -1
    interactive = sys.stderr.isatty()

    def update(n: int) -> None:
        nonlocal done, shown
        done += n
        if interactive and total:
            percent = 100 * done // total
            if percent != shown:
                shown = percent
                print(f"\r{label}: {percent:3d}% ({done / 1e6:.1f}/{total / 1e6:.1f} MB)",
                      end="", file=sys.stderr, flush=True)

    yield update
    if interactive and total:
        print(file=sys.stderr)
    print(f"{label}: {done} bytes", file=sys.stderr)


def download(url: str, dest: Path, check: Callable[[bytes, str], object],
             timeout: float = _TIMEOUT_S) -> None:
    """Download ``url`` to ``dest``; ``check(data, url)`` must accept the bytes first.

    The bytes go to ``dest.part`` and are renamed to ``dest`` only after the check passes;
    on any failure nothing is left behind. Raises OSError (network, disk, or ``offline()``)
    or whatever ``check`` raises.

    Args:
        url: What to download.
        dest: Where to write it.
        check: A function (data, url) that raises unless the bytes are right.
        timeout: The network timeout in seconds.
    """
    if offline():
        raise OSError(f"not downloading {url}: ${OFFLINE_ENV_VAR} is set")
    tmp = dest.with_name(dest.name + ".part")
    print(f"Downloading {url} to {dest}", file=sys.stderr)
    try:
        with urllib.request.urlopen(url, timeout=timeout) as resp, open(tmp, "wb") as out:
            headers = getattr(resp, "headers", None)
            length = headers.get("Content-Length") if headers is not None else None
            total = int(length) if length and str(length).isdigit() else None
            with _progress(total, dest.name) as update:
                while True:
                    chunk = resp.read(1 << 16)
                    if not chunk:
                        break
                    out.write(chunk)
                    update(len(chunk))
        check(tmp.read_bytes(), url)
        os.replace(tmp, dest)
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()
