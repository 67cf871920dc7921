"""Reading, validating and writing model files."""
