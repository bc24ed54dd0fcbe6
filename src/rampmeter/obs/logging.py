"""The error log, in MariaDB's line format.

    2026-11-22 15:31:13 0 [Note] rampmeter: ready for connections.

Rules:
- One line per event: timestamp, the thread's connection id (0 for server threads), the level
  as MariaDB names it (Note, Warning, ERROR), the message.
- --log-error=FILE appends to FILE; otherwise standard error. log_warnings decides how chatty
  it is: 0 errors only, 1 adds warnings, 2 (default) adds notes such as aborted connections.
"""

from __future__ import annotations

import logging
import sys

_LEVELS = {logging.DEBUG: "Note", logging.INFO: "Note", logging.WARNING: "Warning",
           logging.ERROR: "ERROR", logging.CRITICAL: "ERROR"}


class MariaDBFormatter(logging.Formatter):
    def __init__(self) -> None:
        super().__init__()

    def format(self, record: logging.LogRecord) -> str:
        when = self.formatTime(record, "%Y-%m-%d %H:%M:%S")
        level = _LEVELS.get(record.levelno, record.levelname)
        thread_id = getattr(record, "connection_id", 0)
        text = f"{when} {thread_id} [{level}] {record.getMessage()}"
        if record.exc_info:
            text += "\n" + self.formatException(record.exc_info)
        return text


def setup_logging(log_error: str = "", log_warnings: int = 2) -> logging.Logger:
    root = logging.getLogger("rampmeter")
    for handler in list(root.handlers):
        root.removeHandler(handler)
    handler: logging.Handler
    handler = logging.FileHandler(log_error) if log_error else logging.StreamHandler(sys.stderr)
    handler.setFormatter(MariaDBFormatter())
    root.addHandler(handler)
    root.setLevel(logging.INFO if log_warnings >= 2 else
                  logging.WARNING if log_warnings == 1 else logging.ERROR)
    root.propagate = False
    # A host program's logging.config.fileConfig() (Alembic's env.py calls it; its default is
    # disable_existing_loggers=True) switches off every logger that exists at that moment,
    # ours included; a server that starts wants its error log, so it switches them back on.
    for name, logger in list(logging.Logger.manager.loggerDict.items()):
        if isinstance(logger, logging.Logger) and (name == "rampmeter"
                                                   or name.startswith("rampmeter.")):
            logger.disabled = False
    return root
