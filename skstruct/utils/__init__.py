"""Input validation and small helpers shared across skstruct."""
