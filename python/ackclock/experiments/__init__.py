"""Experiments reproducing studies from the seed documents (`ackclock experiment NAME`)."""
