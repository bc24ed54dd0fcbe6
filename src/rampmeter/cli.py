"""Placeholder until the composition root lands."""


def main() -> int:
    return 0
