"""The Python reference the Poker kernels are held equal to by the property tests."""
