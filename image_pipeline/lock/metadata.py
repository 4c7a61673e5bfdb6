"""Read a wheel's METADATA without downloading the wheel: HTTP range requests into its zip.

PyPI (as reached from here) does not serve PEP 658 `.metadata` files, but it answers range
requests, and a zip's central directory sits at its end: reading METADATA costs three small
requests instead of a multi-GB torch download. Results are cached by the wheel's sha256.
"""

from __future__ import annotations

import email.parser
import io
import os
import time
import urllib.error
import urllib.request
import zipfile
from pathlib import Path

from ..errors import UserError
from ..files import atomic_write

BLOCK = 1 << 16
TIMEOUT_S = 60


class RangeFile(io.RawIOBase):
    """A read-only, seekable view of a remote file, fetched in blocks by HTTP Range."""

    def __init__(self, url: str, size: int, opener=urllib.request.urlopen):
        self.url, self.size, self.position, self.blocks, self.opener = url, size, 0, {}, opener

    def readable(self):
        return True

    def seekable(self):
        return True

    def tell(self):
        return self.position

    def seek(self, offset, whence=os.SEEK_SET):
        base = {os.SEEK_SET: 0, os.SEEK_CUR: self.position, os.SEEK_END: self.size}[whence]
        self.position = max(0, base + offset)
        return self.position

    def readinto(self, buffer):
        wanted = min(len(buffer), self.size - self.position)
        if wanted <= 0:
            return 0
        data = self._range(self.position, self.position + wanted)
        buffer[:len(data)] = data
        self.position += len(data)
        return len(data)

    def _range(self, start, end):
        first, last = start // BLOCK, (end - 1) // BLOCK
        missing = [b for b in range(first, last + 1) if b not in self.blocks]
        if missing:
            lo, hi = missing[0] * BLOCK, min(self.size, (missing[-1] + 1) * BLOCK)
            request = urllib.request.Request(self.url, headers={"Range": f"bytes={lo}-{hi - 1}"})
            with self.opener(request, timeout=TIMEOUT_S) as response:
                data = response.read()
            if len(data) != hi - lo:
                raise OSError(f"range request for {self.url} returned {len(data)} bytes, wanted {hi - lo}")
            for block in range(missing[0], missing[-1] + 1):
                self.blocks[block] = data[(block - missing[0]) * BLOCK:(block - missing[0] + 1) * BLOCK]
        joined = b"".join(self.blocks[b] for b in range(first, last + 1))
        return joined[start - first * BLOCK:end - first * BLOCK]


def wheel_requires(location: str, size: int | None, sha256: str, cache: Path) -> list:
    """Requires-Dist lines of a wheel (a URL or a local path), cached by its sha256."""
    cached = cache / "metadata" / f"{sha256}.txt"
    if cached.exists():
        text = cached.read_text()
    else:
        text = _read_metadata_retrying(location, size)
        atomic_write(cached, text)  # locks run in threads
    message = email.parser.Parser().parsestr(text)
    return message.get_all("Requires-Dist") or []


def _read_metadata_retrying(location: str, size: int | None, attempts: int = 3) -> str:
    """A lock reads hundreds of METADATA files; one dropped DNS answer must not fail it (seen here)."""
    for attempt in range(attempts):
        try:
            return _read_metadata(location, size)
        except _Transient:
            if attempt == attempts - 1:
                raise UserError(f"cannot read the metadata of {location}: the index did not answer "
                                f"{attempts} times") from None
            time.sleep(2 ** attempt)


class _Transient(Exception):
    pass


def _read_metadata(location: str, size: int | None) -> str:
    try:
        if location.startswith(("http://", "https://")):
            if size is None:
                size = _remote_size(location)
            handle = io.BufferedReader(RangeFile(location, size), buffer_size=BLOCK)
        else:
            handle = open(location.removeprefix("file://"), "rb")
        with handle, zipfile.ZipFile(handle) as archive:
            name = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA") and n.count("/") == 1)
            return archive.read(name).decode()
    except urllib.error.HTTPError as exc:
        raise UserError(f"cannot read the metadata of {location}: {exc}") from None
    except urllib.error.URLError as exc:  # no answer (DNS, refused, timeout): worth another try
        raise _Transient(str(exc)) from None
    except (OSError, zipfile.BadZipFile, StopIteration) as exc:
        raise UserError(f"cannot read the metadata of {location}: {exc or 'no METADATA'}") from None


def _remote_size(url: str) -> int:
    request = urllib.request.Request(url, method="HEAD")
    with urllib.request.urlopen(request, timeout=TIMEOUT_S) as response:
        return int(response.headers["Content-Length"])
