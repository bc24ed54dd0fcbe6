"""MariaDB's UCA primary weights (sql/uca.py): WEIGHT_STRING and ordering of the root UCA
collations. Expected values are MariaDB 10.11's (mtr ctype_utf8mb4_uca_allkeys520,
ctype_utf8_uca)."""

from __future__ import annotations

import pytest

from rampmeter.engine.sqlite.collations import named_comparison
from rampmeter.engine.sqlite.functions import like_coll
from rampmeter.sql import uca

pytestmark = pytest.mark.timeout(60)


def _hex(text: str, version: str) -> str:
    return "".join(f"{w:04X}" for w in uca.weights(text, version))


def test_weights() -> None:
    assert _hex("a ", uca.V520) == "120F020A"
    assert _hex("ab ", uca.V400) == "0E330E4A0209"
    assert _hex("\0a", uca.V400) == "0E33"  # an ignorable character weighs nothing
    assert _hex("\ufdfa", uca.V520) == "18FC192B194F020A18AD192B192B193D"  # 8 at most
    assert _hex("\u4e00", uca.V520) == "FB40CE00"  # implicit weights
    assert _hex("\U0001F600", uca.V400) == "FFFD"  # UCA 4.0.0: none past the BMP
    assert _hex("\U0001F600", uca.V520) == "FBC3F600"


def test_root_collations_compare_by_the_weights() -> None:
    cmp = named_comparison("utf8mb4_unicode_ci")
    assert cmp is not None
    assert cmp("a", "A") == 0 and cmp("a ", "a") == 0 and cmp("ä", "a") == 0
    assert cmp("ß", "ss") == 0 and cmp("b", "ä") > 0
    assert uca.version_of("ucs2_unicode_520_nopad_ci") == uca.V520
    assert uca.version_of("utf8mb4_swedish_ci") is None


def test_like_matches_character_weights() -> None:
    assert like_coll("Ärger", "ar%", "\\", "utf8mb4_unicode_ci") == 1
    assert like_coll("abc", "A_C", "\\", "utf8mb4_unicode_520_ci") == 1
    assert like_coll("abd", "A_C", "\\", "utf8mb4_unicode_520_ci") == 0
