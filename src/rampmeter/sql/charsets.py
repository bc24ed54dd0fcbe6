"""Character sets and collations as MariaDB 10.11 names and numbers them, and the Python codecs
that convert between their bytes and text.

Rules:
- Statement text arrives in the client's character set (`character_set_client`) and is decoded
  here with errors="surrogateescape": every byte survives, so a string literal's bytes can be
  recovered exactly (`Charset.encode`) whatever they are. Invalid bytes become lone surrogates
  U+DC80..U+DCFF; text containing one is not valid in its character set (`is_valid`).
- MariaDB's latin1 is Windows-1252 with the five bytes cp1252 leaves undefined (0x81, 0x8D,
  0x8F, 0x90, 0x9D) mapped to the C1 controls of the same number, so it decodes every byte; we
  build that table rather than use Python's cp1252, which rejects them.
- `binary` has no text: statement text in it is read as UTF-8 (surrogateescape keeps any byte),
  because converting binary to utf8mb4 copies the bytes in MariaDB; its string literals are
  binary strings (statement.py).
- The six 8-bit character sets Python has no codec for (armscii8, dec8, geostd8, hp8,
  keybcs2, swe7) get one from MariaDB's own tables (charset_tables.py, generated from its
  charsets/*.xml); a byte with no character there decodes as an invalid byte.
- ucs2, utf16, utf16le and utf32 cannot be client character sets (MariaDB answers SET NAMES
  ucs2 with 1231): their encodings are not ASCII-compatible, so SQL text cannot be lexed in them.
- The collation table (name, id, default flag, sortlen) is MariaDB 10.11's
  information_schema.COLLATIONS (rows with an id), read off a running 10.11.
"""

from __future__ import annotations

import codecs
from dataclasses import dataclass
from functools import cache
from typing import Any

# name -> (Python codec or "", maxlen, description); "" means no codec here.
_CHARSETS: dict[str, tuple[str, int, str]] = {
    "armscii8": ("rampmeter-armscii8", 1, "ARMSCII-8 Armenian"),
    "ascii": ("ascii", 1, "US ASCII"),
    "big5": ("big5", 2, "Big5 Traditional Chinese"),
    "binary": ("utf-8", 1, "Binary pseudo charset"),
    "cp1250": ("cp1250", 1, "Windows Central European"),
    "cp1251": ("cp1251", 1, "Windows Cyrillic"),
    "cp1256": ("cp1256", 1, "Windows Arabic"),
    "cp1257": ("cp1257", 1, "Windows Baltic"),
    "cp850": ("cp850", 1, "DOS West European"),
    "cp852": ("cp852", 1, "DOS Central European"),
    "cp866": ("cp866", 1, "DOS Russian"),
    "cp932": ("cp932", 2, "SJIS for Windows Japanese"),
    "dec8": ("rampmeter-dec8", 1, "DEC West European"),
    "eucjpms": ("euc_jp", 3, "UJIS for Windows Japanese"),
    "euckr": ("euc_kr", 2, "EUC-KR Korean"),
    "filename": ("rampmeter-filename", 5, ""),
    "gb2312": ("gb2312", 2, "GB2312 Simplified Chinese"),
    "gbk": ("gbk", 2, "GBK Simplified Chinese"),
    "geostd8": ("rampmeter-geostd8", 1, "GEOSTD8 Georgian"),
    "greek": ("iso8859_7", 1, "ISO 8859-7 Greek"),
    "hebrew": ("iso8859_8", 1, "ISO 8859-8 Hebrew"),
    "hp8": ("rampmeter-hp8", 1, "HP West European"),
    "keybcs2": ("rampmeter-keybcs2", 1, "DOS Kamenicky Czech-Slovak"),
    "koi8r": ("koi8_r", 1, "KOI8-R Relcom Russian"),
    "koi8u": ("koi8_u", 1, "KOI8-U Ukrainian"),
    "latin1": ("rampmeter-latin1", 1, "cp1252 West European"),
    "latin2": ("iso8859_2", 1, "ISO 8859-2 Central European"),
    "latin5": ("iso8859_9", 1, "ISO 8859-9 Turkish"),
    "latin7": ("iso8859_13", 1, "ISO 8859-13 Baltic"),
    "macce": ("mac_latin2", 1, "Mac Central European"),
    "macroman": ("mac_roman", 1, "Mac West European"),
    "sjis": ("shift_jis", 2, "Shift-JIS Japanese"),
    "swe7": ("rampmeter-swe7", 1, "7bit Swedish"),
    "tis620": ("rampmeter-tis620", 1, "TIS620 Thai"),
    "ucs2": ("utf-16-be", 2, "UCS-2 Unicode"),
    "ujis": ("euc_jp", 3, "EUC-JP Japanese"),
    "utf16": ("utf-16-be", 4, "UTF-16 Unicode"),
    "utf16le": ("utf-16-le", 4, "UTF-16LE Unicode"),
    "utf32": ("utf-32-be", 4, "UTF-32 Unicode"),
    "utf8mb3": ("utf-8", 3, "UTF-8 Unicode"),
    "utf8mb4": ("utf-8", 4, "UTF-8 Unicode"),
}
_NOT_CLIENT = frozenset({"ucs2", "utf16", "utf16le", "utf32", "filename"})
# known by name and number but not listed (SHOW CHARACTER SET, information_schema), as MariaDB's
# `filename` (its collation is `filename`, id 17)
UNLISTED = frozenset({"filename"})
_UNIT = {"utf-16-be": 2, "utf-16-le": 2, "utf-32-be": 4}
# the multi-byte Asian codecs: MariaDB's structure decides what a character is (mbstructure.py)
_STRUCTURED = frozenset({"big5", "shift_jis", "cp932", "euc_jp", "euc_kr", "gbk", "gb2312"})
# bytes 0x80-0xff as surrogateescape spells them (0x00-0x7f stay themselves)
_HIGH_TO_SURROGATE = {b: 0xDC00 + b for b in range(0x80, 0x100)}
ALIASES = {"utf8": "utf8mb3", "utf-8": "utf8mb4"}

# MariaDB 10.11 information_schema.COLLATIONS: name:id, "*" marks the charset's default,
# "/n" a sortlen other than 1.
_COLLATIONS = """
big5_chinese_ci:1* latin2_czech_cs:2/4 dec8_swedish_ci:3* cp850_general_ci:4*
latin1_german1_ci:5 hp8_english_ci:6* koi8r_general_ci:7* latin1_swedish_ci:8*
latin2_general_ci:9* swe7_swedish_ci:10* ascii_general_ci:11* ujis_japanese_ci:12*
sjis_japanese_ci:13* cp1251_bulgarian_ci:14 latin1_danish_ci:15 hebrew_general_ci:16*
filename:17* tis620_thai_ci:18*/4 euckr_korean_ci:19* latin7_estonian_cs:20 latin2_hungarian_ci:21
koi8u_general_ci:22* cp1251_ukrainian_ci:23 gb2312_chinese_ci:24* greek_general_ci:25*
cp1250_general_ci:26* latin2_croatian_ci:27 gbk_chinese_ci:28* cp1257_lithuanian_ci:29
latin5_turkish_ci:30* latin1_german2_ci:31/2 armscii8_general_ci:32* utf8mb3_general_ci:33*
cp1250_czech_cs:34/2 ucs2_general_ci:35* cp866_general_ci:36* keybcs2_general_ci:37*
macce_general_ci:38* macroman_general_ci:39* cp852_general_ci:40* latin7_general_ci:41*
latin7_general_cs:42 macce_bin:43 cp1250_croatian_ci:44 utf8mb4_general_ci:45*
utf8mb4_bin:46 latin1_bin:47 latin1_general_ci:48 latin1_general_cs:49 cp1251_bin:50
cp1251_general_ci:51* cp1251_general_cs:52 macroman_bin:53 utf16_general_ci:54* utf16_bin:55
utf16le_general_ci:56* cp1256_general_ci:57* cp1257_bin:58 cp1257_general_ci:59*
utf32_general_ci:60* utf32_bin:61 utf16le_bin:62 binary:63* armscii8_bin:64 ascii_bin:65
cp1250_bin:66 cp1256_bin:67 cp866_bin:68 dec8_bin:69 greek_bin:70 hebrew_bin:71 hp8_bin:72
keybcs2_bin:73 koi8r_bin:74 koi8u_bin:75 latin2_bin:77 latin5_bin:78 latin7_bin:79
cp850_bin:80 cp852_bin:81 swe7_bin:82 utf8mb3_bin:83 big5_bin:84 euckr_bin:85 gb2312_bin:86
gbk_bin:87 sjis_bin:88 tis620_bin:89 ucs2_bin:90 ujis_bin:91 geostd8_general_ci:92*
geostd8_bin:93 latin1_spanish_ci:94 cp932_japanese_ci:95* cp932_bin:96
eucjpms_japanese_ci:97* eucjpms_bin:98 cp1250_polish_ci:99 utf16_unicode_ci:101/8
utf16_icelandic_ci:102/8 utf16_latvian_ci:103/8 utf16_romanian_ci:104/8
utf16_slovenian_ci:105/8 utf16_polish_ci:106/8 utf16_estonian_ci:107/8
utf16_spanish_ci:108/8 utf16_swedish_ci:109/8 utf16_turkish_ci:110/8 utf16_czech_ci:111/8
utf16_danish_ci:112/8 utf16_lithuanian_ci:113/8 utf16_slovak_ci:114/8
utf16_spanish2_ci:115/8 utf16_roman_ci:116/8 utf16_persian_ci:117/8 utf16_esperanto_ci:118/8
utf16_hungarian_ci:119/8 utf16_sinhala_ci:120/8 utf16_german2_ci:121/8
utf16_croatian_mysql561_ci:122/8 utf16_unicode_520_ci:123/8 utf16_vietnamese_ci:124/8
ucs2_unicode_ci:128/8 ucs2_icelandic_ci:129/8 ucs2_latvian_ci:130/8 ucs2_romanian_ci:131/8
ucs2_slovenian_ci:132/8 ucs2_polish_ci:133/8 ucs2_estonian_ci:134/8 ucs2_spanish_ci:135/8
ucs2_swedish_ci:136/8 ucs2_turkish_ci:137/8 ucs2_czech_ci:138/8 ucs2_danish_ci:139/8
ucs2_lithuanian_ci:140/8 ucs2_slovak_ci:141/8 ucs2_spanish2_ci:142/8 ucs2_roman_ci:143/8
ucs2_persian_ci:144/8 ucs2_esperanto_ci:145/8 ucs2_hungarian_ci:146/8 ucs2_sinhala_ci:147/8
ucs2_german2_ci:148/8 ucs2_croatian_mysql561_ci:149/8 ucs2_unicode_520_ci:150/8
ucs2_vietnamese_ci:151/8 ucs2_general_mysql500_ci:159 utf32_unicode_ci:160/8
utf32_icelandic_ci:161/8 utf32_latvian_ci:162/8 utf32_romanian_ci:163/8
utf32_slovenian_ci:164/8 utf32_polish_ci:165/8 utf32_estonian_ci:166/8
utf32_spanish_ci:167/8 utf32_swedish_ci:168/8 utf32_turkish_ci:169/8 utf32_czech_ci:170/8
utf32_danish_ci:171/8 utf32_lithuanian_ci:172/8 utf32_slovak_ci:173/8
utf32_spanish2_ci:174/8 utf32_roman_ci:175/8 utf32_persian_ci:176/8 utf32_esperanto_ci:177/8
utf32_hungarian_ci:178/8 utf32_sinhala_ci:179/8 utf32_german2_ci:180/8
utf32_croatian_mysql561_ci:181/8 utf32_unicode_520_ci:182/8 utf32_vietnamese_ci:183/8
utf8mb3_unicode_ci:192/8 utf8mb3_icelandic_ci:193/8 utf8mb3_latvian_ci:194/8
utf8mb3_romanian_ci:195/8 utf8mb3_slovenian_ci:196/8 utf8mb3_polish_ci:197/8
utf8mb3_estonian_ci:198/8 utf8mb3_spanish_ci:199/8 utf8mb3_swedish_ci:200/8
utf8mb3_turkish_ci:201/8 utf8mb3_czech_ci:202/8 utf8mb3_danish_ci:203/8
utf8mb3_lithuanian_ci:204/8 utf8mb3_slovak_ci:205/8 utf8mb3_spanish2_ci:206/8
utf8mb3_roman_ci:207/8 utf8mb3_persian_ci:208/8 utf8mb3_esperanto_ci:209/8
utf8mb3_hungarian_ci:210/8 utf8mb3_sinhala_ci:211/8 utf8mb3_german2_ci:212/8
utf8mb3_croatian_mysql561_ci:213/8 utf8mb3_unicode_520_ci:214/8 utf8mb3_vietnamese_ci:215/8
utf8mb3_general_mysql500_ci:223 utf8mb4_unicode_ci:224/8 utf8mb4_icelandic_ci:225/8
utf8mb4_latvian_ci:226/8 utf8mb4_romanian_ci:227/8 utf8mb4_slovenian_ci:228/8
utf8mb4_polish_ci:229/8 utf8mb4_estonian_ci:230/8 utf8mb4_spanish_ci:231/8
utf8mb4_swedish_ci:232/8 utf8mb4_turkish_ci:233/8 utf8mb4_czech_ci:234/8
utf8mb4_danish_ci:235/8 utf8mb4_lithuanian_ci:236/8 utf8mb4_slovak_ci:237/8
utf8mb4_spanish2_ci:238/8 utf8mb4_roman_ci:239/8 utf8mb4_persian_ci:240/8
utf8mb4_esperanto_ci:241/8 utf8mb4_hungarian_ci:242/8 utf8mb4_sinhala_ci:243/8
utf8mb4_german2_ci:244/8 utf8mb4_croatian_mysql561_ci:245/8 utf8mb4_unicode_520_ci:246/8
utf8mb4_vietnamese_ci:247/8 utf8mb3_croatian_ci:576/8 utf8mb3_myanmar_ci:577/8
utf8mb3_thai_520_w2:578/4 utf8mb4_croatian_ci:608/8 utf8mb4_myanmar_ci:609/8
utf8mb4_thai_520_w2:610/4 ucs2_croatian_ci:640/8 ucs2_myanmar_ci:641/8
ucs2_thai_520_w2:642/4 utf16_croatian_ci:672/8 utf16_myanmar_ci:673/8
utf16_thai_520_w2:674/4 utf32_croatian_ci:736/8 utf32_myanmar_ci:737/8
utf32_thai_520_w2:738/4 big5_chinese_nopad_ci:1025 dec8_swedish_nopad_ci:1027
cp850_general_nopad_ci:1028 hp8_english_nopad_ci:1030 koi8r_general_nopad_ci:1031
latin1_swedish_nopad_ci:1032 latin2_general_nopad_ci:1033 swe7_swedish_nopad_ci:1034
ascii_general_nopad_ci:1035 ujis_japanese_nopad_ci:1036 sjis_japanese_nopad_ci:1037
hebrew_general_nopad_ci:1040 tis620_thai_nopad_ci:1042/4 euckr_korean_nopad_ci:1043
koi8u_general_nopad_ci:1046 gb2312_chinese_nopad_ci:1048 greek_general_nopad_ci:1049
cp1250_general_nopad_ci:1050 gbk_chinese_nopad_ci:1052 latin5_turkish_nopad_ci:1054
armscii8_general_nopad_ci:1056 utf8mb3_general_nopad_ci:1057 ucs2_general_nopad_ci:1059
cp866_general_nopad_ci:1060 keybcs2_general_nopad_ci:1061 macce_general_nopad_ci:1062
macroman_general_nopad_ci:1063 cp852_general_nopad_ci:1064 latin7_general_nopad_ci:1065
macce_nopad_bin:1067 utf8mb4_general_nopad_ci:1069 utf8mb4_nopad_bin:1070
latin1_nopad_bin:1071 cp1251_nopad_bin:1074 cp1251_general_nopad_ci:1075
macroman_nopad_bin:1077 utf16_general_nopad_ci:1078 utf16_nopad_bin:1079
utf16le_general_nopad_ci:1080 cp1256_general_nopad_ci:1081 cp1257_nopad_bin:1082
cp1257_general_nopad_ci:1083 utf32_general_nopad_ci:1084 utf32_nopad_bin:1085
utf16le_nopad_bin:1086 armscii8_nopad_bin:1088 ascii_nopad_bin:1089 cp1250_nopad_bin:1090
cp1256_nopad_bin:1091 cp866_nopad_bin:1092 dec8_nopad_bin:1093 greek_nopad_bin:1094
hebrew_nopad_bin:1095 hp8_nopad_bin:1096 keybcs2_nopad_bin:1097 koi8r_nopad_bin:1098
koi8u_nopad_bin:1099 latin2_nopad_bin:1101 latin5_nopad_bin:1102 latin7_nopad_bin:1103
cp850_nopad_bin:1104 cp852_nopad_bin:1105 swe7_nopad_bin:1106 utf8mb3_nopad_bin:1107
big5_nopad_bin:1108 euckr_nopad_bin:1109 gb2312_nopad_bin:1110 gbk_nopad_bin:1111
sjis_nopad_bin:1112 tis620_nopad_bin:1113 ucs2_nopad_bin:1114 ujis_nopad_bin:1115
geostd8_general_nopad_ci:1116 geostd8_nopad_bin:1117 cp932_japanese_nopad_ci:1119
cp932_nopad_bin:1120 eucjpms_japanese_nopad_ci:1121 eucjpms_nopad_bin:1122
utf16_unicode_nopad_ci:1125/8 utf16_unicode_520_nopad_ci:1147/8 ucs2_unicode_nopad_ci:1152/8
ucs2_unicode_520_nopad_ci:1174/8 utf32_unicode_nopad_ci:1184/8
utf32_unicode_520_nopad_ci:1206/8 utf8mb3_unicode_nopad_ci:1216/8
utf8mb3_unicode_520_nopad_ci:1238/8 utf8mb4_unicode_nopad_ci:1248/8
utf8mb4_unicode_520_nopad_ci:1270/8
"""


def _latin1_table() -> str:
    chars = []
    for b in range(256):
        try:
            chars.append(bytes((b,)).decode("cp1252"))
        except UnicodeDecodeError:
            chars.append(chr(b))  # the five holes: the C1 control of the same number
    return "".join(chars)


_LATIN1_DECODE = _latin1_table()
_LATIN1_ENCODE = codecs.charmap_build(_LATIN1_DECODE)


class _Latin1Codec(codecs.Codec):
    def encode(self, text: str, errors: str = "strict") -> tuple[bytes, int]:
        return codecs.charmap_encode(text, errors, _LATIN1_ENCODE)

    def decode(self, data: bytes, errors: str = "strict") -> tuple[str, int]:
        return codecs.charmap_decode(data, errors, _LATIN1_DECODE)


class _TableCodec(codecs.Codec):
    def __init__(self, decode: str) -> None:
        self.table = decode
        self.reverse = codecs.charmap_build(decode)

    def encode(self, text: str, errors: str = "strict") -> tuple[bytes, int]:
        return codecs.charmap_encode(text, errors, self.reverse)

    def decode(self, data: bytes, errors: str = "strict") -> tuple[str, int]:
        return codecs.charmap_decode(data, errors, self.table)


def _tis620_table() -> str:
    """MariaDB's tis620 (read off 10.11: CONVERT of each byte): 0x80..0x9F are the C1
    controls, the Thai letters at 0xA1..0xDA and 0xDF..0xFB, the bytes between (0xA0, 0xDB..
    0xDE, 0xFC..0xFF) U+FFFD, which converts back to 0xFF. Python's tis_620 differs."""
    chars = [chr(b) for b in range(0xA0)] + ["\ufffd"]
    chars += [chr(0x0E01 + i) for i in range(0xDB - 0xA1)] + ["\ufffd"] * 4
    chars += [chr(0x0E3F + i) for i in range(0xFC - 0xDF)] + ["\ufffd"] * 4
    return "".join(chars)


def _search(name: str) -> codecs.CodecInfo | None:
    if name == "rampmeter_tis620":
        c = _TableCodec(_tis620_table())
        return codecs.CodecInfo(c.encode, c.decode, name="rampmeter-tis620")
    if name == "rampmeter_filename":
        from rampmeter.sql import filename
        return filename.codec_info()
    if name == "rampmeter_latin1":
        c: codecs.Codec = _Latin1Codec()
        return codecs.CodecInfo(c.encode, c.decode, name="rampmeter-latin1")
    if name.startswith("rampmeter_"):
        from rampmeter.sql.charset_tables import TABLES
        points = TABLES.get(name[len("rampmeter_"):])
        if points is not None:
            c = _TableCodec("".join(map(chr, points)))
            return codecs.CodecInfo(c.encode, c.decode, name=name.replace("_", "-"))
    return None


codecs.register(_search)
from rampmeter.sql import mbstructure  # noqa: E402,F401 - registers "rampmeter-mb"


@dataclass(frozen=True, slots=True)
class Collation:
    name: str
    charset: str
    id: int
    is_default: bool
    sortlen: int

    @property
    def case_insensitive(self) -> bool:
        return self.name.endswith("_ci")

    @property
    def binary(self) -> bool:
        return self.name == "binary" or self.name.endswith("_bin")


@dataclass(frozen=True, slots=True)
class Charset:
    name: str
    codec: str          # Python codec name; "" when Python has none
    maxlen: int         # bytes per character at most
    description: str
    default_collation: str

    @property
    def client_usable(self) -> bool:
        return bool(self.codec) and self.name not in _NOT_CLIENT

    @property
    def is_binary(self) -> bool:
        return self.name == "binary"

    def decode(self, data: bytes) -> str:
        """Bytes in this character set -> text; invalid bytes become lone surrogates. For the
        fixed-unit sets (ucs2, utf16, utf16le: 2 bytes; utf32: 4) bytes short of a whole unit
        are zeros on the left, as MariaDB pads a literal (_utf16 0x44 is U+0044)."""
        codec = self.codec or "latin-1"
        unit = _UNIT.get(codec, 1)
        if len(data) % unit:
            data = bytes(unit - len(data) % unit) + data
        try:  # a well-formed multi-byte character the set does not map: a hole
            return data.decode(codec, "rampmeter-mb" if codec in _STRUCTURED else
                               "surrogateescape")
        except UnicodeDecodeError:  # a codec that cannot escape some sequence: the raw bytes
            return data.decode("latin-1").translate(_HIGH_TO_SURROGATE)

    def encode(self, text: str) -> bytes:
        """Text -> bytes in this character set; lone surrogates turn back into their bytes and
        characters the set cannot hold become '?', as MariaDB converts them."""
        try:
            return text.encode(self.codec or "latin-1", "rampmeter-mb" if self.codec in
                               _STRUCTURED else "surrogateescape")
        except UnicodeEncodeError:
            return "".join(_encodable(self, ch) for ch in text).encode(
                self.codec or "latin-1", "surrogateescape")


def _encodable(cs: Charset, ch: str) -> str:
    try:
        ch.encode(cs.codec or "latin-1", "surrogateescape")
    except UnicodeEncodeError:
        return "?"
    return ch


class TextIn(str):
    """Text of a character set other than utf8mb4 / utf8mb3 as a user variable keeps it
    (`SET @a = CONVERT(x USING latin1)`: HEX(@a) is its latin1 bytes, as MariaDB's)."""

    charset: str


def text_in(value: Any, charset_name: str | None) -> Any:
    """`value` marked as text of that character set, when it is text of one that is not
    utf8mb4 / utf8mb3 / binary; else `value` as it is."""
    if type(value) is not str or not charset_name or \
            charset_name in ("utf8mb4", "utf8mb3", "binary"):
        return value
    marked = TextIn(value)
    marked.charset = charset_name
    return marked


def is_valid(text: str) -> bool:
    """True when `text` (decoded with surrogateescape) held no invalid bytes."""
    return text.isascii() or not any("\udc00" <= ch <= "\udcff" for ch in text)


def _load() -> tuple[dict[str, Collation], dict[int, Collation]]:
    by_name: dict[str, Collation] = {}
    by_id: dict[int, Collation] = {}
    for item in _COLLATIONS.split():
        name, rest = item.split(":")
        sortlen = 1
        if "/" in rest:
            rest, sl = rest.split("/")
            sortlen = int(sl)
        default = rest.endswith("*")
        cid = int(rest.rstrip("*"))
        charset = "binary" if name == "binary" else name.split("_", 1)[0]
        coll = Collation(name, charset, cid, default, sortlen)
        by_name[name] = coll
        by_id[cid] = coll
    return by_name, by_id


COLLATIONS, COLLATIONS_BY_ID = _load()
CHARSETS: dict[str, Charset] = {
    name: Charset(name, codec, maxlen, desc,
                  next(c.name for c in COLLATIONS.values() if c.charset == name and c.is_default))
    for name, (codec, maxlen, desc) in _CHARSETS.items()
}
UTF8MB4 = CHARSETS["utf8mb4"]
UTF8MB4_ID = 45  # utf8mb4_general_ci
BINARY = CHARSETS["binary"]


@cache
def charset(name: str) -> Charset | None:
    """The character set called `name` (case-insensitive, utf8 = utf8mb3), or None."""
    key = name.strip().lower()
    return CHARSETS.get(ALIASES.get(key, key))


@cache
def collation(name: str) -> Collation | None:
    key = name.strip().lower()
    if key.startswith("utf8_"):
        key = "utf8mb3_" + key[5:]
    return COLLATIONS.get(key)


def collation_by_id(cid: int) -> Collation | None:
    return COLLATIONS_BY_ID.get(cid)


def default_collation(charset_name: str) -> Collation:
    cs = charset(charset_name) or UTF8MB4
    return COLLATIONS[cs.default_collation]
