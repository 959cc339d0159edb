"""Mason command line (a thin click layer over the interpreter API)."""
