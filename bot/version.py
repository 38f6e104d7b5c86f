"""The running version, read from the installed package metadata."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("croupier")
except PackageNotFoundError:  # running from a source tree that was not installed
    __version__ = "0.0.0+local"
