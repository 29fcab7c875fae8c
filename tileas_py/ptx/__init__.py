"""PTX text: the reader (frontend for `.ptx` files), the writer (`-t ptx`) and the real toolchain."""
