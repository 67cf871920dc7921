"""Playing the titles in a terminal."""
