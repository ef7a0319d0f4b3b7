"""What an output is: the factored output spaces (parts, weight layout, decoding)."""

from .chain import LinearChain
from .transition import ArcStandardSystem
from .tree import ArcFactoredTree

__all__ = ["ArcFactoredTree", "ArcStandardSystem", "LinearChain"]
