"""What an output is: the factored output spaces (parts, weight layout, decoding)."""

from .chain import LinearChain

__all__ = ["LinearChain"]
