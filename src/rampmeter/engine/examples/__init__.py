"""Example engines written against engine/custom.py (docs/engine.md)."""
