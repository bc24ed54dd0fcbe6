"""lc_messages: error messages in the session's language, from MariaDB's own message files.

Rules (MariaDB 10.11's, each measured against it):
- lc_messages / lc_time_names take a locale name (any letter case; shown as the table below
  spells it) or its number (its place in the table); anything else is 1649 "Unknown locale".
  Each locale names the language of its messages (several fall back to English).
- The messages are MariaDB's: <lc_messages_dir or /usr/share/mysql>/<language>/errmsg.sys
  (the format of derror.cc: a 32-byte header - magic FE FE 02 05, text length at 6, message
  count at 12, section count at 14 -, the number of messages of each section - codes from
  1000, 2000, 3000, 4000... -, each message's length with its NUL, then the UTF-8 texts). A
  language whose file is missing speaks English, as rampmeter always did.
- rampmeter formats its errors in English; `translate` finds the arguments by matching the
  message with the English file's template of the same code and puts them into the session
  language's template (printf conversions, positional `%N$` too). A message that does not
  match its English template (rampmeter's own wording) stays as it is.
- The ERR packet carries the message in character_set_results (protocol/packets.err_packet).
"""

from __future__ import annotations

import os
import re
import struct
from functools import lru_cache

from rampmeter.errors import ServerError

DEFAULT_DIR = "/usr/share/mysql"

# MariaDB's locales in the order of their numbers (sql_locale.cc), each with the language of
# its error messages.
_EN, _ES, _DE, _FR = "english", "spanish", "german", "french"
LOCALES: tuple[tuple[str, str], ...] = (
    ("en_US", _EN), ("en_GB", _EN), ("ja_JP", "japanese"), ("sv_SE", "swedish"),
    ("de_DE", _DE), ("fr_FR", _FR), ("ar_AE", _EN), ("ar_BH", _EN), ("ar_JO", _EN),
    ("ar_SA", _EN), ("ar_SY", _EN), ("be_BY", _EN), ("bg_BG", "bulgarian"), ("ca_ES", _EN),
    ("cs_CZ", "czech"), ("da_DK", "danish"), ("de_AT", _DE), ("es_ES", _ES),
    ("et_EE", "estonian"), ("eu_ES", _EN), ("fi_FI", _EN), ("fo_FO", _EN), ("gl_ES", _EN),
    ("gu_IN", _EN), ("he_IL", _EN), ("hi_IN", "hindi"), ("hr_HR", _EN),
    ("hu_HU", "hungarian"), ("id_ID", _EN), ("is_IS", _EN), ("it_CH", "italian"),
    ("ko_KR", "korean"), ("lt_LT", _EN), ("lv_LV", _EN), ("mk_MK", _EN), ("mn_MN", _EN),
    ("ms_MY", _EN), ("nb_NO", "norwegian"), ("nl_NL", "dutch"), ("pl_PL", "polish"),
    ("pt_BR", "portuguese"), ("pt_PT", "portuguese"), ("ro_RO", "romanian"),
    ("ru_RU", "russian"), ("ru_UA", "russian"), ("sk_SK", "slovak"), ("sl_SI", _EN),
    ("sq_AL", _EN), ("sr_RS", "serbian"), ("ta_IN", _EN), ("te_IN", _EN), ("th_TH", _EN),
    ("tr_TR", _EN), ("uk_UA", "ukrainian"), ("ur_PK", _EN), ("vi_VN", _EN),
    ("zh_CN", "chinese"), ("zh_TW", _EN), ("ar_DZ", _EN), ("ar_EG", _EN), ("ar_IN", _EN),
    ("ar_IQ", _EN), ("ar_KW", _EN), ("ar_LB", _EN), ("ar_LY", _EN), ("ar_MA", _EN),
    ("ar_OM", _EN), ("ar_QA", _EN), ("ar_SD", _EN), ("ar_TN", _EN), ("ar_YE", _EN),
    ("de_BE", _DE), ("de_CH", _DE), ("de_LU", _DE), ("en_AU", _EN), ("en_CA", _EN),
    ("en_IN", _EN), ("en_NZ", _EN), ("en_PH", _EN), ("en_ZA", _EN), ("en_ZW", _EN),
    ("es_AR", _ES), ("es_BO", _ES), ("es_CL", _ES), ("es_CO", _ES), ("es_CR", _ES),
    ("es_DO", _ES), ("es_EC", _ES), ("es_GT", _ES), ("es_HN", _ES), ("es_MX", _ES),
    ("es_NI", _ES), ("es_PA", _ES), ("es_PE", _ES), ("es_PR", _ES), ("es_PY", _ES),
    ("es_SV", _ES), ("es_US", _ES), ("es_UY", _ES), ("es_VE", _ES), ("fr_BE", _FR),
    ("fr_CA", _FR), ("fr_CH", _FR), ("fr_LU", _FR), ("it_IT", "italian"), ("nl_BE", "dutch"),
    ("no_NO", "norwegian"), ("sv_FI", "swedish"), ("zh_HK", _EN), ("el_GR", "greek"),
    ("rm_CH", _EN), ("ka_GE", "georgian"),
)
_BY_NAME = {name.lower(): (name, lang) for name, lang in LOCALES}
ER_UNKNOWN_LOCALE = 1649


def locale_name(value: object) -> str:
    """The locale SET lc_messages / lc_time_names = `value` stores (1649 for none)."""
    if isinstance(value, bool):
        value = int(value)
    if isinstance(value, int):
        if 0 <= value < len(LOCALES):
            return LOCALES[value][0]
        raise ServerError(ER_UNKNOWN_LOCALE, message=f"Unknown locale: '{value}'",
                          sqlstate="HY000")
    text = value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)
    found = _BY_NAME.get(text.lower())
    if found is None:
        raise ServerError(ER_UNKNOWN_LOCALE, message=f"Unknown locale: '{text}'",
                          sqlstate="HY000")
    return found[0]


def language(locale: str) -> str:
    found = _BY_NAME.get(str(locale).lower())
    return found[1] if found is not None else _EN


@lru_cache(maxsize=64)
def messages(directory: str, lang: str) -> dict[int, str] | None:
    """Code -> message template of `lang`'s errmsg.sys under `directory` (None: no file)."""
    path = os.path.join(directory or DEFAULT_DIR, lang, "errmsg.sys")
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError:
        return None
    return parse(raw)


def parse(raw: bytes) -> dict[int, str] | None:
    """An errmsg.sys file's messages (module rules), None when it is not one."""
    if len(raw) < 32 or raw[:4] != b"\xfe\xfe\x02\x05":
        return None
    length = struct.unpack_from("<I", raw, 6)[0]
    count, sections = struct.unpack_from("<HH", raw, 12)
    sizes = struct.unpack_from(f"<{sections}H", raw, 32)
    lens_at = 32 + 2 * sections
    text_at = lens_at + 2 * count
    if sum(sizes) != count or text_at + length > len(raw):
        return None
    lengths = struct.unpack_from(f"<{count}H", raw, lens_at)
    out: dict[int, str] = {}
    pos, n = text_at, 0
    for section, size in enumerate(sizes):
        for i in range(size):
            step = lengths[n]
            out[1000 * (section + 1) + i] = raw[pos:pos + step - 1].decode("utf-8", "replace")
            pos += step
            n += 1
    return out


_FMT = re.compile(r"%(?:(?P<pos>\d+)\$)?(?P<flags>[-+ #0`']*)(?P<width>\d+|\*)?"
                  r"(?:\.(?P<prec>\d+|\*))?(?P<len>ll|l|z|h)?(?P<conv>[sdiucxXfgeEMT%])")


@lru_cache(maxsize=2048)
def _pattern(template: str) -> re.Pattern[str] | None:
    out, pos = [], 0
    for m in _FMT.finditer(template):
        out.append(re.escape(template[pos:m.start()]))
        pos = m.end()
        conv = m.group("conv")
        out.append("%" if conv == "%" else r"(-?\d+)" if conv in "di" else
                   r"(\d+)" if conv == "u" else "(.*?)")
    out.append(re.escape(template[pos:]))
    try:
        return re.compile("".join(out), re.S)
    except re.error:
        return None


def _fill(template: str, args: tuple[str, ...]) -> str | None:
    out, pos, n = [], 0, 0
    for m in _FMT.finditer(template):
        out.append(template[pos:m.start()])
        pos = m.end()
        if m.group("conv") == "%":
            out.append("%")
            continue
        i = int(m.group("pos")) - 1 if m.group("pos") else n
        n += 1
        if not 0 <= i < len(args):
            return None
        out.append(args[i])
    out.append(template[pos:])
    return "".join(out)


def translate(code: int, message: str, lang: str, directory: str = "") -> str:
    """`message` (rampmeter's English text of error `code`) in language `lang`."""
    if lang == _EN:
        return message
    target = messages(directory, lang)
    english = messages(directory, _EN)
    if not target or not english or code not in target or code not in english:
        return message
    rx = _pattern(english[code])
    m = rx.fullmatch(message) if rx is not None else None
    if m is None:
        return message
    # an argument that is itself a message of the file (ER_SYNTAX_ERROR's text in 1064's)
    # is in the session's language too
    plain = _plain(directory)
    args = tuple(target.get(plain[a], a) if a in plain else a for a in m.groups())
    filled = _fill(target[code], args)
    return message if filled is None else filled


@lru_cache(maxsize=8)
def _plain(directory: str) -> dict[str, int]:
    """English text -> code of the messages without arguments."""
    english = messages(directory, _EN) or {}
    return {t: c for c, t in english.items() if "%" not in t and len(t) > 20}
