"""TLS: --ssl-cert / --ssl-key turn on the SSLRequest path; clients that ask get an encrypted
session (also under the thread pool, where buffered TLS records must be processed before the
socket is re-armed), and caching_sha2_password does its full authentication in cleartext over
it."""

from __future__ import annotations

import datetime as dt
import shutil
import ssl
import subprocess
from pathlib import Path

import pymysql
import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID


def _self_signed(directory: Path) -> tuple[Path, Path]:
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = dt.datetime.now(dt.UTC)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name)
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - dt.timedelta(minutes=5))
            .not_valid_after(now + dt.timedelta(days=1))
            .sign(key, hashes.SHA256()))
    cert_path, key_path = directory / "server-cert.pem", directory / "server-key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                           serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return cert_path, key_path


def _client_context() -> ssl.SSLContext:
    ctx = ssl.create_default_context()
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE  # a throw-away self-signed certificate
    return ctx


@pytest.mark.parametrize("handling", ["pool-of-threads", "one-thread-per-connection"])
def test_tls_session_and_sha2_full_auth_over_it(server_factory, tmp_path, handling):
    cert, key = _self_signed(tmp_path)
    server = server_factory(ssl_cert=str(cert), ssl_key=str(key), thread_handling=handling)
    assert server.query("SELECT @@have_ssl") == (("YES",),)
    server.query("CREATE USER 'tls'@'%' IDENTIFIED WITH caching_sha2_password BY 'pw' "
                 "REQUIRE SSL")
    server.query("GRANT ALL ON tlsdb.* TO 'tls'@'%'")
    conn = pymysql.connect(host=server.host, port=server.port, user="tls", password="pw",
                           ssl=_client_context())
    try:
        with conn.cursor() as cur:
            cur.execute("SHOW SESSION STATUS LIKE 'Ssl_version'")
            assert cur.fetchone()[1].startswith("TLSv1.")
            # many statements, and values bigger than one TLS record (16 KiB), both ways
            for i in range(50):
                cur.execute("SELECT %s", (i,))
                assert cur.fetchone() == (i,)
            big = "x" * 100_000
            cur.execute("CREATE DATABASE tlsdb")
            cur.execute("CREATE TABLE tlsdb.t (v LONGTEXT)")
            cur.execute("INSERT INTO tlsdb.t VALUES (%s)", (big,))
            cur.execute("SELECT v FROM tlsdb.t")
            assert cur.fetchone() == (big,)
            cur.execute("SELECT USER()")
            assert cur.fetchone()[0].startswith("tls@")
    finally:
        conn.close()
    # a client that does not ask for TLS still gets in, in the clear, unless its account
    # REQUIRE SSL: then the right password over plain TCP is 1045, as MariaDB answers
    plain = server.connect()
    with plain.cursor() as cur:
        cur.execute("SHOW SESSION STATUS LIKE 'Ssl_cipher'")
        assert cur.fetchone()[1] == ""
    plain.close()
    with pytest.raises(pymysql.err.OperationalError) as denied:
        server.connect(user="tls", password="pw")
    assert denied.value.args[0] == 1045


@pytest.mark.skipif(shutil.which("mariadb") is None, reason="mariadb client not installed")
def test_mariadb_cli_over_tls(server_factory, tmp_path):
    cert, key = _self_signed(tmp_path)
    server = server_factory(ssl_cert=str(cert), ssl_key=str(key))
    out = subprocess.run(
        ["mariadb", "-h127.0.0.1", f"-P{server.port}", "-uroot", "--ssl",
         "--skip-ssl-verify-server-cert", "-N", "-e", "SHOW SESSION STATUS LIKE 'Ssl_cipher'"],
        capture_output=True, text=True, timeout=30, check=False)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split("\t")[1].strip() != ""


def _issue(directory: Path, name: str, subject: str, issuer_key: ec.EllipticCurvePrivateKey | None,
           issuer: x509.Name | None, *, ca: bool = False) -> tuple[Path, Path, x509.Name,
                                                                  ec.EllipticCurvePrivateKey]:
    """A certificate for `subject` (CN), signed by `issuer_key` (self-signed when None)."""
    key = ec.generate_private_key(ec.SECP256R1())
    subj = x509.Name([x509.NameAttribute(NameOID.ORGANIZATION_NAME, "rampmeter"),
                      x509.NameAttribute(NameOID.COMMON_NAME, subject)])
    now = dt.datetime.now(dt.UTC)
    builder = (x509.CertificateBuilder().subject_name(subj).issuer_name(issuer or subj)
               .public_key(key.public_key()).serial_number(x509.random_serial_number())
               .not_valid_before(now - dt.timedelta(minutes=5))
               .not_valid_after(now + dt.timedelta(days=1)))
    if ca:
        builder = builder.add_extension(x509.BasicConstraints(ca=True, path_length=None),
                                        critical=True)
    cert = builder.sign(issuer_key or key, hashes.SHA256())
    cert_path, key_path = directory / f"{name}-cert.pem", directory / f"{name}-key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                           serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return cert_path, key_path, subj, key


def test_require_x509_and_subject_need_a_verified_client_certificate(server_factory, tmp_path):
    """REQUIRE X509: a client certificate signed by --ssl-ca; REQUIRE SUBJECT: that one's
    subject. The right password without them is 1045, as in MariaDB."""
    ca_cert, _ca_key_path, ca_name, ca_key = _issue(tmp_path, "ca", "test-ca", None, None,
                                                    ca=True)
    cert, key, _, _ = _issue(tmp_path, "server", "127.0.0.1", ca_key, ca_name)
    client_cert, client_key, _, _ = _issue(tmp_path, "client", "app", ca_key, ca_name)
    server = server_factory(ssl_cert=str(cert), ssl_key=str(key), ssl_ca=str(ca_cert))
    server.query("CREATE USER 'x5'@'%' IDENTIFIED BY 'pw' REQUIRE X509")
    server.query("CREATE USER 'subj'@'%' IDENTIFIED BY 'pw' REQUIRE SUBJECT "
                 "'/O=rampmeter/CN=app' AND ISSUER '/O=rampmeter/CN=test-ca'")
    server.query("CREATE USER 'other'@'%' IDENTIFIED BY 'pw' REQUIRE SUBJECT '/CN=someone'")

    def login(user: str, *, with_cert: bool) -> tuple[int, str] | str:
        ctx = _client_context()
        if with_cert:
            ctx.load_cert_chain(str(client_cert), str(client_key))
        try:
            conn = pymysql.connect(host=server.host, port=server.port, user=user,
                                   password="pw", ssl=ctx)
        except pymysql.err.OperationalError as exc:
            return exc.args[0], exc.args[1]
        with conn.cursor() as cur:
            cur.execute("SELECT CURRENT_USER()")
            who = cur.fetchone()[0]
        conn.close()
        return who

    assert login("x5", with_cert=True) == "x5@%"
    assert login("x5", with_cert=False) == (
        1045, "Access denied for user 'x5'@'127.0.0.1' (using password: YES)")
    assert login("subj", with_cert=True) == "subj@%"
    assert login("other", with_cert=True)[0] == 1045
    with pytest.raises(pymysql.err.OperationalError) as plain:
        server.connect(user="x5", password="pw")
    assert plain.value.args[0] == 1045
