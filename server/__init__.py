"""Craits."""
