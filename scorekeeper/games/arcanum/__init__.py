"""Arcanum (Lo Scarabeo 2011)."""
