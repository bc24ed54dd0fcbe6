"""rampmeter: a MySQL-compatible server whose connection handling is the server-side thread pool
of MariaDB, Percona Server and MySQL Enterprise. See ../shared/DESIGN.md for the layers."""

__version__ = "0.1.0"
