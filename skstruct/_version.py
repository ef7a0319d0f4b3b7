"""The package version, in a module of its own: the package and the model files both
read it."""

__version__ = "0.1.0.dev0"
