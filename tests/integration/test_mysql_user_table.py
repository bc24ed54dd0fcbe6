"""mysql.user as a table of the client's (MariaDB's include/switch_to_mysql_user.inc): the view
renamed away, a table made in its place, mysql.global_priv renamed away; FLUSH PRIVILEGES then
reads the accounts from the table and account statements write to it (usertable.py)."""

from __future__ import annotations

import pymysql
import pytest

from rampmeter.session.usertable import USER_PRIVS
from tests.integration.sqlrun import run as _run

pytestmark = pytest.mark.timeout(60)

_PRIVS = "".join(f"{p}_priv enum('N','Y') COLLATE utf8_general_ci DEFAULT 'N' NOT NULL, "
                 for p in USER_PRIVS)
_CREATE = (
    "CREATE TABLE mysql.user (Host char(60) binary DEFAULT '' NOT NULL, "
    "User char(80) binary DEFAULT '' NOT NULL, Password char(41) character set latin1 "
    "collate latin1_bin DEFAULT '' NOT NULL, " + _PRIVS +
    "ssl_type enum('','ANY','X509','SPECIFIED') DEFAULT '' NOT NULL, ssl_cipher BLOB NOT NULL, "
    "x509_issuer BLOB NOT NULL, x509_subject BLOB NOT NULL, "
    "max_questions int(11) unsigned DEFAULT 0 NOT NULL, "
    "max_updates int(11) unsigned DEFAULT 0 NOT NULL, "
    "max_connections int(11) unsigned DEFAULT 0 NOT NULL, "
    "max_user_connections int(11) DEFAULT 0 NOT NULL, "
    "plugin char(64) CHARACTER SET latin1 DEFAULT '' NOT NULL, "
    "authentication_string TEXT NOT NULL, "
    "password_expired ENUM('N','Y') DEFAULT 'N' NOT NULL, "
    "is_role enum('N','Y') DEFAULT 'N' NOT NULL, default_role char(80) binary DEFAULT '' NOT NULL, "
    "max_statement_time decimal(12,6) DEFAULT 0 NOT NULL, PRIMARY KEY (Host,User))")


def _switch(conn):
    _run(conn, "RENAME TABLE mysql.user TO mysql.user_bak", _CREATE,
         "INSERT mysql.user SELECT * FROM mysql.user_bak",
         "RENAME TABLE mysql.global_priv TO mysql.global_priv_bak", "FLUSH PRIVILEGES")


def _switch_back(conn):
    _run(conn, "DROP TABLE mysql.user", "RENAME TABLE mysql.user_bak TO mysql.user",
         "RENAME TABLE mysql.global_priv_bak TO mysql.global_priv", "FLUSH PRIVILEGES")


def test_accounts_are_read_from_and_written_to_a_mysql_user_table(server):
    root = server.connect()
    # the mirror's mysql.user is MariaDB's view: not writable
    with pytest.raises(pymysql.err.MySQLError) as e:
        _run(root, "UPDATE mysql.user SET max_questions = 1")
    assert e.value.args[0] == 1356
    _switch(root)
    _run(root, "CREATE USER ut1@localhost IDENTIFIED BY 'pw'")
    # written as MariaDB writes such a table: the hash in authentication_string
    assert _run(root, "SELECT Password, plugin, authentication_string FROM mysql.user "
                      "WHERE user = 'ut1'") == (
        ("", "mysql_native_password", "*D821809F681A40A6E379B50D0463EFAE20BDD122"),)
    # a row written by hand, with the hash in Password and no plugin, logs in after FLUSH
    _run(root, "INSERT INTO mysql.user (Host, User, Password, Select_priv, ssl_cipher, "
               "x509_issuer, x509_subject, authentication_string) VALUES ('localhost', 'ut2', "
               "PASSWORD('pw2'), 'Y', '', '', '', '')", "FLUSH PRIVILEGES")
    (line,), = _run(root, "SHOW GRANTS FOR ut2@localhost")
    assert line.startswith("GRANT SELECT ON *.* TO `ut2`@`localhost` IDENTIFIED BY PASSWORD '*")
    user = server.connect(user="ut2", password="pw2")
    assert _run(user, "SELECT CURRENT_USER()") == (("ut2@localhost",),)
    user.close()
    # TRUNCATE empties the accounts at the next FLUSH; this session keeps its privileges
    _run(root, "CREATE DATABASE ut", "CREATE TABLE ut.keep AS SELECT * FROM mysql.user",
         "TRUNCATE mysql.user", "FLUSH PRIVILEGES")
    with pytest.raises(pymysql.err.MySQLError) as e:
        server.connect(user="ut2", password="pw2")
    assert e.value.args[0] == 1045
    _run(root, "INSERT INTO mysql.user SELECT * FROM ut.keep", "DROP DATABASE ut")
    _switch_back(root)
    # global_priv as it was before the switch: the accounts made meanwhile are gone
    assert _run(root, "SELECT COUNT(*) FROM mysql.global_priv WHERE user LIKE 'ut%'") == ((0,),)
    assert _run(root, "SELECT COUNT(*) FROM mysql.user WHERE user = 'root'") == ((1,),)
    with pytest.raises(pymysql.err.MySQLError) as e:
        server.connect(user="ut1", password="pw")
    assert e.value.args[0] == 1045
