"""The sans-IO MySQL wire protocol, server side: bytes in, events out, bytes to send back.

Modules, bottom up: wire (basic data types), framing (packets, sequence ids, 16 MiB split),
packets (handshake, OK/ERR/EOF, column definitions), results (text/binary rows, parameter
values), auth (native and caching_sha2 password state machines, RSA keys), commands (command
packets -> events, prepared-statement bookkeeping), events, connection (ServerProtocol: the phase
state machine and the reply methods). Nothing here opens a socket, starts a thread or reads a
clock; imports are the standard library, rampmeter.errors, this package and `cryptography`.
"""

from rampmeter.protocol.auth import AccountLookup, Credentials, RsaKeyPair, native_password_hash
from rampmeter.protocol.columns import Column
from rampmeter.protocol.connection import NEED_DATA, NeedData, ServerProtocol

__all__ = ["NEED_DATA", "AccountLookup", "Column", "Credentials", "NeedData", "RsaKeyPair",
           "ServerProtocol", "native_password_hash"]
