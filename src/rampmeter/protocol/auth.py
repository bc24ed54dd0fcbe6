"""Authentication: mysql_native_password and caching_sha2_password as bytes-in/bytes-out state
machines, the account lookup they consult, and the server's RSA key pair.

Rules:
- `Authentication` runs one login or COM_CHANGE_USER attempt. `start(response)` takes the client's
  first auth response, `feed(data)` every later auth packet; each returns an `AuthStep`: a payload
  to send (AuthSwitchRequest / AuthMoreData, unframed) and whether the attempt is decided.
  It never touches sockets, clocks or sequence ids.
- The client chooses a plugin in its HandshakeResponse; when the account's plugin differs we send
  an AuthSwitchRequest to the account's plugin with the same scramble (mysqld reuses the
  connection's scramble, sql/auth/sql_authentication.cc).
- No user enumeration: an unknown user gets a decoy account (the client's plugin if we support
  it, else the default plugin) whose checks always fail, so it walks the same rounds (switch,
  caching_sha2 full authentication) as a known user with a wrong password.
- caching_sha2_password (MySQL 8.0 sql/auth/sha2_password.cc): empty response == empty password;
  fast path when SHA256(SHA256(password)) is cached: 0x01 0x03 then OK; otherwise 0x01 0x04
  ("perform full authentication"): over TLS (or another secure transport) the client sends the
  password + NUL in clear; otherwise it asks for our public key (0x02), we answer 0x01 + PEM,
  and it sends RSA-OAEP(SHA-1) of (password + NUL) XOR scramble (cyclic). A cleartext password
  on an insecure transport, or a key request when we have no key, is refused.
- Secrets are compared with hmac.compare_digest.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa

from rampmeter.protocol.packets import SCRAMBLE_LENGTH, auth_more_data, auth_switch_request

NATIVE_PASSWORD = "mysql_native_password"
CACHING_SHA2_PASSWORD = "caching_sha2_password"
OLD_PASSWORD = "mysql_old_password"
SUPPORTED_PLUGINS = (NATIVE_PASSWORD, CACHING_SHA2_PASSWORD)
SCRAMBLE_LENGTH_323 = 8

# caching_sha2_password AuthMoreData codes (MySQL sql/auth/sha2_password.cc).
SHA2_REQUEST_PUBLIC_KEY = b"\x02"
SHA2_FAST_AUTH_SUCCESS = b"\x03"
SHA2_PERFORM_FULL_AUTH = b"\x04"
SHA2_DIGEST_LENGTH = 32


def _never(_password: bytes) -> bool:
    return False


def _ignore(_digest: bytes) -> None:
    return None


@dataclass(frozen=True, slots=True)
class Credentials:
    """What the protocol needs to verify one account (the session layer builds it)."""

    plugin: str  # NATIVE_PASSWORD | CACHING_SHA2_PASSWORD
    native_hash: bytes = b""  # SHA1(SHA1(password)); b"" when the password is empty (native)
    check_password: Callable[[bytes], bool] = _never  # verify a cleartext password
    empty_password: bool = False
    fast_digest: bytes | None = None  # SHA256(SHA256(password)) when cached (caching_sha2)
    remember_fast_digest: Callable[[bytes], None] = _ignore  # after a successful full auth
    accept_any: bool = False  # --skip-grant-tables: every response logs in, nothing is checked
    # mysql_old_password: the 3.23 hash's two 31-bit halves, when secure_auth is OFF (else None:
    # the account cannot log in, MariaDB's 1275)
    old_hash: tuple[int, int] | None = None


class AccountLookup(Protocol):
    def credentials(self, user: str, host: str) -> Credentials | None: ...


# --- hashes ----------------------------------------------------------------------------------
def native_password_hash(password: bytes) -> bytes:
    """SHA1(SHA1(password)): what mysql.user stores (hex, after a '*') for mysql_native_password."""
    return hashlib.sha1(hashlib.sha1(password).digest()).digest()


def sha2_fast_digest(password: bytes) -> bytes:
    """SHA256(SHA256(password)): the caching_sha2_password cache entry."""
    return hashlib.sha256(hashlib.sha256(password).digest()).digest()


# byte -> its 7 low bits, with NUL and '$' bumped by one (generate_scramble's mapping)
_SALT_BYTES = bytes((b & 0x7F) + 1 if (b & 0x7F) in (0, 0x24) else b & 0x7F for b in range(256))


def generate_scramble() -> bytes:
    """20 random bytes as mysqld's generate_user_salt(): 7-bit, with NUL and '$' bumped by one
    (NUL would end the string in the greeting; '$' is the separator of stored hashes). One
    table lookup per byte in C: a connection storm makes thousands a second."""
    return secrets.token_bytes(SCRAMBLE_LENGTH).translate(_SALT_BYTES)


def _xor(a: bytes, b: bytes) -> bytes:
    return bytes(x ^ y for x, y in zip(a, b))


def xor_cyclic(data: bytes, key: bytes) -> bytes:
    """data XOR key repeated: how caching_sha2 masks the password before RSA encryption."""
    n = len(key)
    return bytes(b ^ key[i % n] for i, b in enumerate(data))


def verify_native_password(response: bytes, scramble: bytes, native_hash: bytes) -> bool:
    """The client sends SHA1(pw) XOR SHA1(scramble + SHA1(SHA1(pw))); recover SHA1(pw) with the
    stored hash and check that hashing it gives the stored hash (MySQL check_scramble())."""
    if len(response) != 20 or len(native_hash) != 20:
        return False
    stage1 = _xor(response, hashlib.sha1(scramble + native_hash).digest())
    return hmac.compare_digest(hashlib.sha1(stage1).digest(), native_hash)


def verify_sha2_scramble(response: bytes, scramble: bytes, fast_digest: bytes) -> bool:
    """The client sends SHA256(pw) XOR SHA256(SHA256(SHA256(pw)) + scramble)."""
    if len(response) != SHA2_DIGEST_LENGTH:
        return False
    stage1 = _xor(response, hashlib.sha256(fast_digest + scramble).digest())
    return hmac.compare_digest(hashlib.sha256(stage1).digest(), fast_digest)


class _Rand323:
    """MySQL 3.23's my_rnd: the generator scramble_323 draws from."""

    MAX = 0x3FFFFFFF

    def __init__(self, seed1: int, seed2: int) -> None:
        self.seed1, self.seed2 = seed1 % self.MAX, seed2 % self.MAX

    def next(self) -> float:
        self.seed1 = (self.seed1 * 3 + self.seed2) % self.MAX
        self.seed2 = (self.seed1 + self.seed2 + 33) % self.MAX
        return self.seed1 / self.MAX


def hash_323(data: bytes) -> tuple[int, int]:
    """MySQL 3.23's hash_password(): two 31-bit sums, spaces and tabs skipped (also what
    OLD_PASSWORD() shows, as 16 hex digits)."""
    nr, add, nr2 = 1345345333, 7, 0x12345671
    for c in data:
        if c in (32, 9):
            continue
        nr = (nr ^ ((((nr & 63) + add) * c) + (nr << 8))) & 0xFFFFFFFF
        nr2 = (nr2 + (((nr2 << 8) & 0xFFFFFFFF) ^ nr)) & 0xFFFFFFFF
        add += c
    return nr & 0x7FFFFFFF, nr2 & 0x7FFFFFFF


def scramble_323(scramble: bytes, old_hash: tuple[int, int]) -> bytes:
    """What a mysql_old_password client answers to `scramble` (its first 8 bytes count) for a
    password whose 3.23 hash is `old_hash`: 8 bytes (MySQL scramble_323)."""
    msg = hash_323(scramble[:SCRAMBLE_LENGTH_323])
    rnd = _Rand323(old_hash[0] ^ msg[0], old_hash[1] ^ msg[1])
    out = [int(rnd.next() * 31) + 64 for _ in range(SCRAMBLE_LENGTH_323)]
    extra = int(rnd.next() * 31)
    return bytes(b ^ extra for b in out)


def verify_old_password(response: bytes, scramble: bytes, old_hash: tuple[int, int]) -> bool:
    """check_scramble_323: the client's 8 bytes (before a NUL) against the stored hash."""
    response = response.split(b"\0", 1)[0]
    if len(response) != SCRAMBLE_LENGTH_323:
        return False
    return hmac.compare_digest(response, scramble_323(scramble, old_hash))


# --- RSA key pair ----------------------------------------------------------------------------
class RsaKeyPair:
    """The server's RSA key for caching_sha2_password over plain TCP. Files are named as
    mysqld's auto_generate_rsa_keys names them in the data directory; 2048 bits as mysqld."""

    PRIVATE_FILE = "private_key.pem"
    PUBLIC_FILE = "public_key.pem"
    BITS = 2048

    def __init__(self, private_key: rsa.RSAPrivateKey) -> None:
        self.private_key = private_key
        self.public_pem: bytes = private_key.public_key().public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
        self.key_bytes = (private_key.key_size + 7) // 8

    @classmethod
    def generate(cls) -> RsaKeyPair:
        return cls(rsa.generate_private_key(public_exponent=65537, key_size=cls.BITS))

    @classmethod
    def load(cls, directory: str | os.PathLike[str]) -> RsaKeyPair:
        data = (Path(directory) / cls.PRIVATE_FILE).read_bytes()
        key = serialization.load_pem_private_key(data, password=None)
        if not isinstance(key, rsa.RSAPrivateKey):
            raise ValueError(f"{cls.PRIVATE_FILE} is not an RSA private key")
        return cls(key)

    @classmethod
    def load_or_create(cls, directory: str | os.PathLike[str]) -> RsaKeyPair:
        path = Path(directory)
        if (path / cls.PRIVATE_FILE).exists():
            pair = cls.load(path)
            if not (path / cls.PUBLIC_FILE).exists():
                pair._write(path / cls.PUBLIC_FILE, pair.public_pem, 0o644)
            return pair
        pair = cls.generate()
        pair.save(path)
        return pair

    def save(self, directory: str | os.PathLike[str]) -> None:
        path = Path(directory)
        path.mkdir(parents=True, exist_ok=True)
        private_pem = self.private_key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.TraditionalOpenSSL,
            serialization.NoEncryption())
        self._write(path / self.PRIVATE_FILE, private_pem, 0o600)
        self._write(path / self.PUBLIC_FILE, self.public_pem, 0o644)

    @staticmethod
    def _write(path: Path, data: bytes, mode: int) -> None:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
        try:
            os.fchmod(fd, mode)  # also when the file already existed with another mode
            os.write(fd, data)
        finally:
            os.close(fd)

    def decrypt(self, ciphertext: bytes) -> bytes:
        """RSA-OAEP with SHA-1 and MGF1(SHA-1): RSA_PKCS1_OAEP_PADDING as mysqld uses it.
        Raises ValueError when the ciphertext does not decrypt."""
        return self.private_key.decrypt(ciphertext, padding.OAEP(
            mgf=padding.MGF1(algorithm=hashes.SHA1()), algorithm=hashes.SHA1(), label=None))


# --- the state machine ------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class AuthStep:
    send: bytes = b""  # unframed payload for the client, or b""
    done: bool = False  # the attempt is decided
    success: bool = False


_FAIL = AuthStep(done=True, success=False)


def _decoy(client_plugin: str, default_plugin: str) -> Credentials:
    plugin = client_plugin if client_plugin in SUPPORTED_PLUGINS else default_plugin
    return Credentials(plugin, native_hash=secrets.token_bytes(20))


class Authentication:
    """One authentication attempt (see the module rules)."""

    def __init__(self, credentials: Credentials | None, *, client_plugin: str,
                 client_plugin_auth: bool, default_plugin: str, scramble: bytes, secure: bool,
                 rsa_keys: RsaKeyPair | None) -> None:
        # A client without CLIENT_PLUGIN_AUTH always answers with a 4.1 native scramble.
        self.client_plugin = (client_plugin if client_plugin_auth else "") or NATIVE_PASSWORD
        self.known_user = credentials is not None
        self.credentials = credentials or _decoy(self.client_plugin, default_plugin)
        self.plugin = self.credentials.plugin
        self.using_password = False
        self._client_plugin_auth = client_plugin_auth
        self._scramble = scramble
        self._secure = secure
        self._rsa = rsa_keys
        self._expect: Callable[[bytes], AuthStep] | None = None  # handler of the next packet

    def start(self, response: bytes) -> AuthStep:
        # "using password: YES" when the client sent one, also when we refuse before checking
        # it; the response to an auth switch decides it again (_first_response).
        self.using_password = response not in (b"", b"\0")
        if self.credentials.accept_any:
            return self._decide(True)
        if self.plugin == OLD_PASSWORD and self.credentials.old_hash is not None:
            # secure_auth is OFF: switch to the 3.23 scramble (MariaDB's
            # old_password_authenticate sends the connection's scramble)
            if not self._client_plugin_auth:
                return _FAIL
            self._expect = self._old_response
            return AuthStep(send=auth_switch_request(self.plugin, self._scramble + b"\0"))
        if self.plugin not in SUPPORTED_PLUGINS:
            return _FAIL  # an account of a plugin we cannot verify
        if self.client_plugin != self.plugin:
            if not self._client_plugin_auth:
                return _FAIL  # the client cannot switch plugins
            self._expect = self._first_response
            return AuthStep(send=auth_switch_request(self.plugin, self._scramble + b"\0"))
        return self._first_response(response)

    def feed(self, data: bytes) -> AuthStep:
        handler, self._expect = self._expect, None
        if handler is None:
            return _FAIL
        return handler(data)

    def _decide(self, ok: bool, send: bytes = b"") -> AuthStep:
        return AuthStep(send=send, done=True, success=ok)

    def _first_response(self, response: bytes) -> AuthStep:
        creds = self.credentials
        self.using_password = response not in (b"", b"\0")
        if self.plugin == NATIVE_PASSWORD:
            if creds.empty_password:
                return self._decide(response == b"")
            return self._decide(verify_native_password(response, self._scramble,
                                                       creds.native_hash))
        # caching_sha2_password; libmysqlclient sends a single NUL for an empty password.
        if not self.using_password:
            return self._decide(creds.empty_password)
        if creds.empty_password or len(response) != SHA2_DIGEST_LENGTH:
            return _FAIL
        if creds.fast_digest and verify_sha2_scramble(response, self._scramble,
                                                      creds.fast_digest):
            return self._decide(True, auth_more_data(SHA2_FAST_AUTH_SUCCESS))
        self._expect = self._full_auth
        return AuthStep(send=auth_more_data(SHA2_PERFORM_FULL_AUTH))

    def _old_response(self, response: bytes) -> AuthStep:
        old_hash = self.credentials.old_hash
        assert old_hash is not None
        self.using_password = response not in (b"", b"\0")
        if not self.using_password:  # no password given: right only for an account without one
            return self._decide(self.credentials.empty_password)
        return self._decide(not self.credentials.empty_password and
                            verify_old_password(response, self._scramble, old_hash))

    def _full_auth(self, data: bytes) -> AuthStep:
        if self._secure:
            if not data.endswith(b"\0"):
                return _FAIL
            return self._check_cleartext(data[:-1])
        if data == SHA2_REQUEST_PUBLIC_KEY:
            if self._rsa is None:
                return _FAIL
            self._expect = self._rsa_password
            return AuthStep(send=auth_more_data(self._rsa.public_pem))
        if self._rsa is not None and len(data) == self._rsa.key_bytes:
            return self._rsa_password(data)  # the client already had our public key
        return _FAIL  # e.g. a cleartext password on an insecure transport

    def _rsa_password(self, data: bytes) -> AuthStep:
        assert self._rsa is not None
        try:
            plain = xor_cyclic(self._rsa.decrypt(data), self._scramble)
        except ValueError:
            return _FAIL
        if not plain.endswith(b"\0"):
            return _FAIL
        return self._check_cleartext(plain[:-1])

    def _check_cleartext(self, password: bytes) -> AuthStep:
        self.using_password = bool(password)
        creds = self.credentials
        if not password or not creds.check_password(password):
            return _FAIL
        creds.remember_fast_digest(sha2_fast_digest(password))
        return self._decide(True)
