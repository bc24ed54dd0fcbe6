"""errmsg: locale names, MariaDB's errmsg.sys format, and messages in the session's language
(lc_messages; mtr ctype_errors)."""

from __future__ import annotations

import os
import struct

import pytest

from rampmeter.errors import ServerError
from rampmeter.session import errmsg

pytestmark = pytest.mark.timeout(10)

HAVE_FILES = all(os.path.exists(f"/usr/share/mysql/{lang}/errmsg.sys")
                 for lang in ("english", "russian", "czech"))


def test_locale_names_and_numbers():
    assert errmsg.locale_name("ru_ru") == "ru_RU"
    assert errmsg.locale_name("EN_us") == "en_US"
    assert errmsg.locale_name(8) == "ar_JO"
    assert errmsg.locale_name(111) == "ka_GE"
    for bad in ("xx_YY", 112, -1, ""):
        with pytest.raises(ServerError) as e:
            errmsg.locale_name(bad)
        assert e.value.code == 1649
        assert e.value.message == f"Unknown locale: '{bad}'"
    assert errmsg.language("ru_UA") == "russian"
    assert errmsg.language("en_GB") == "english"
    assert errmsg.language("es_MX") == "spanish"


def _file(sections: list[list[str]]) -> bytes:
    texts = [t.encode() + b"\0" for sec in sections for t in sec]
    body = b"".join(texts)
    head = b"\xfe\xfe\x02\x05\x01\x00" + struct.pack("<IHHH", len(body), 0,
                                                    len(texts), len(sections))
    head += b"\0" * (32 - len(head))
    return (head + struct.pack(f"<{len(sections)}H", *(len(s) for s in sections)) +
            struct.pack(f"<{len(texts)}H", *(len(t) for t in texts)) + body)


def test_parse_numbers_messages_by_section():
    parsed = errmsg.parse(_file([["hashchk", "isamchk"], [], ["x %d"], ["Таблица '%-.192s'"]]))
    assert parsed == {1000: "hashchk", 1001: "isamchk", 3000: "x %d", 4000: "Таблица '%-.192s'"}
    assert errmsg.parse(b"not a message file at all, not at all") is None


@pytest.mark.skipif(not HAVE_FILES, reason="MariaDB's message files are not installed")
def test_translate_with_mariadbs_files():
    assert errmsg.translate(1050, "Table 't1' already exists", "russian") == \
        "Таблица 't1' уже существует"
    assert errmsg.translate(1049, "Unknown database 'nonexistant'", "czech") == \
        "Neznámá databáze 'nonexistant'"
    # 1064 carries ER_SYNTAX_ERROR's text as an argument: it is translated too
    syntax = errmsg.translate(1064, "You have an error in your SQL syntax; check the manual "
                              "that corresponds to your MariaDB server version for the right "
                              "syntax to use near 'a' at line 1", "russian")
    assert syntax.startswith("У вас ошибка в запросе.")
    assert syntax.endswith("около 'a' на строке 1")
    # a message in rampmeter's own wording, or a language without a file, stays English
    assert errmsg.translate(1050, "something else", "russian") == "something else"
    assert errmsg.translate(1050, "Table 't1' already exists", "klingon") == \
        "Table 't1' already exists"
    assert errmsg.translate(1050, "Table 't1' already exists", "english") == \
        "Table 't1' already exists"
