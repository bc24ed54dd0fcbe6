"""MariaDB's `filename` character set: how a table or database name is spelled on disk
(`CONVERT(x USING filename)`, character_set_results=filename, `CHARACTER SET filename`).

Rules (MariaDB's my_charset_filename, strings/ctype-utf8.c):
- NUL, digits, ASCII letters and '_' are themselves, one byte each.
- Letters of some scripts (U+00C0..U+05FF, U+1E00..U+1FFF, U+2160..U+217F, U+24B0..U+24EF,
  U+FF20..U+FF5F) are '@' and two characters coding their number n as chr(0x30 + n // 80),
  chr(0x30 + n % 80): 'À' is '@0G'. The codes are _RANGES below, read off MariaDB 10.11
  (CONVERT(CHAR(n USING ucs2) USING filename) for every n of those ranges).
- Every other character is '@' and its code point as four lower-case hexadecimal digits
  (',' is '@002c'); of a character past U+FFFF only the low 16 bits are written, as MariaDB
  does (U+1F600 is '@f600'). '@@@' reads as NUL; upper-case hexadecimal digits are invalid.
- Reading: a byte that starts no valid sequence is an invalid byte (it becomes '?' when
  converted, as MariaDB's); its next byte starts over. An invalid byte is kept as U+DC00 + the
  byte (lone surrogates, sql/charsets.py's rule, here for ASCII bytes too) so that it encodes
  back to itself.
"""

from __future__ import annotations

import codecs

_RANGES = (
    (0x00C0, (
        '0G0H0I0J0K0L0M0N0O0P0Q0R0S0T0U0V0W0X0Y0Z1G1H1I  1K1L1M1N1O1P1Q1j'
        '0g0h0i0j0k0l0m0n0o0p0q0r0s0t0u0v0w0x0y0z1g1h1i  1k1l1m1n1o1p1q1r'
        '1S1s1T1t1U1u1V1v1W1w1X1x1Y1y1Z1z2G2g2H2h2I2i2J2j2K2k2L2l2M2m2N2n'
        '2O2o2P2p2Q2q2R2r2S2s2T2t2U2u2V2v  2w2X2x2Y2y2Z2z3g3H3h3I3i3J3j3K'
        '3k3L3l3M3m3N3n3O3o3p3Q3q3R3r3S3s3T3t3U3u3V3v3W3w3X3x3Y3y3Z3z4G4g'
        '4H4h4I4i4J4j4K4k4L4l4M4m4N4n4O4o4P4p4Q4q4R4r4S4s1R4T4t4U4u4V4v4w'
        'gaQfHahaIaiaRfJajaTfUfKakalaZbWfYfMamaJgMgnaSgRgOaoapaqaYgHhraKh'
        'SasaTataUauaVhVavaYhwaxaYayaJiZazaLiMiGbgbHbhbTiIbibjbkbNbnbmb  '
        '        Ob  obPb  pbQb  qbRbrbSbsbTbtbUbubVbvbWbwbXbxbYbybzbGcgc'
        'HchcIcicJcjcKckcLclcMcmcNcncOcocpcQc  qcRcrcNa  ScscTctcUcucVcvc'
        'WcwcXcxcYcycZczcGdgdHdhdIdidJdjdKdkdLdldMdmdNdndOdodPdpdQdqdRdrd'
        'RasdTdtdUdudVdvdWdwdXdxdYdydZdzdGegeHeheiejekelemeneOePepePaQere'
        'seVi                            nfofpfqfrfsftfufvfwfxfyfzfgghgig'
        'jgkglgmgngogpgqgrgsgtgugvgwgxgygzgghhhihjhkhlhmhnhohphqhrhshthuh'
        'vhwhxhyhzhgihiiijikiliminioipiqirisitiuiviwixiyizigjhjijjjkjljmj'
        'njojpjqjrjsjtjujvjwjxjyjzjgkhkik                                '
        '                                                                '
        '                                                                '
        '                                                                '
        '                                                                '
        '                                                                '
        '                                                                '
        '            6G  6H6I6J  7S  7T7U5y6L7W6N6O6P6Q6R7X6T8W6V6W6X6Y6Z'
        '8I7H  8Y7K7L8H7N7O7P7Q7R6g6h6i6j6k6l6m6n6o6p6q6r6s6t6u6v6w6x6y6z'
        '7g7h7i7j7k7l7m7n7o7p7q7r7s7t7u  7w7x7Y7Z8G8h8i8j  8k8L8l8M8m8N8n'
        '8O8o8P8p8Q8q8R8r8S8s8T8t8U8u8V8v8w8x8y8z  9g9h  9i    9j9k9L9M9N'
        'S1T1U1V1W1X1Y1Z1G2H2I2J2K2L2M2N2G0H0I0J0K0L0M0N0O0P0Q0R0S0T0U0V0'
        'W0X0Y0Z0G1H1I1J1K1L1M1N1O1P1Q1R1g0h0i0j0k0l0m0n0o0p0q0r0s0t0u0v0'
        'w0x0y0z0g1h1i1j1k1l1m1n1o1p1q1r1s1t1u1v1w1x1y1z1g2h2i2j2k2l2m2n2'
        'O2o2P2p2Q2q2R2r2S2s2T2t2U2u2V2v2W2w2X2x2Y2y2Z2z2G3g3H3h3I3i3J3j3'
        'K3k3                M3m3N3n3O3o3P3p3Q3q3R3r3S3s3T3t3U3u3V3v3W3w3'
        'X3x3Y3y3Z3z3G4g4H4h4I4i4J4j4K4k4L4l4M4m4N4n4O4o4P4p4Q4q4R4r4S4s4'
        'T4U4u4V4v4W4w4X4x4Y4y4Z4z4G5g5  I5i5J5j5K5k5L5l5M5m5N5n5O5o5P5p5'
        'Q5q5R5r5S5s5T5t5U5u5V5v5W5w5X5x5Y5y5Z5z5G6g6H6h6I6i6            '
        'P6p6Q6q6R6r6S6s6T6t6U6u6V6v6W6w6                                '
        '                                  H7I7J7K7L7M7N7O7P7Q7R7S7T7U7V7'
        'W7X7Y7Z7G8H8I8J8K8L8M8N8O8P8Q8R8S8T8U8V8W8X8                    '
        '  h7i7j7k7l7m7n7o7p7q7r7s7t7u7v7w7x7y7z7g8h8i8j8k8l8m8n8o8p8q8r8'
        's8t8u8v8w8x8                                                    '
        '                                                                '
        '                                                                '
        '                                                                '
    )),
    (0x1E00, (
        'GlglHlhlIlilJljlKlklLlllMlmlNlnlOlolPlplQlqlRlrlSlslTltlUlulVlvl'
        'WlwlXlxlYlylZlzlGmgmHmhmImimJmjmKmkmLmlmMmmmNmnmOmomPmpmQmqmRmrm'
        'SmsmTmtmUmumVmvmWmwmXmxmYmymZmzmGngnHnhnIninJnjnKnknLnlnMnmnNnnn'
        'GponPnpnQnqnRnrnSnsnTntnUnunVnvnWnwnXnxnYnynZnznGogoHohoIoioJojo'
        'KokoLoloMomoNonoOoooPopoQoqoRoroSosoTotoUouovowoxoyozogp        '
        'LplpMpmpNpnpOpopPpppQpqpRprpSpspTptpUpupVpvpWpwpXpxpYpypZpzpGqgq'
        'HqhqIqiqJqjqKqkqLqlqMqmqNqnqOqoqPqpqQqqqRqrqSqsqTqtqUquqVqvqWqwq'
        'XqxqYqyqZqzqGrgrHrhrIrirJrjrKrkrLrlrMrmrNrnrOrorPrpr            '
        'gshsisjskslsmsnsGsHsIsJsKsLsMsNsospsqsrsssts    OsPsQsRsSsTs    '
        'yszsgthtitjtktltYsZsGtHtItJtKtLtmtntotptqtrtstttMtNtOtPtQtRtStTt'
        'utvtwtxtytzt    UtVtWtXtYtZt    kulumunuoupuquru  Lu  Nu  Pu  Ru'
        'wuxuyuzugvhvivjvWuXuYuZuGvHvIvJvkvlvmvnvovpvqvrvsvtvuvvvwvxv    '
        'gwhwiwjwkwlwmwnwGwHwIwJwKwLwMwNwowpwqwrwswtwuwvwOwPwQwRwSwTwUwVw'
        'wwxwywzwgxhxixjxWwXwYwZwGxHxIxJxkxlxmxnxox  qxrxKxLxKvLvNx      '
        '    sxtxux  wxxxMvNvOvPvTx      yxzxgyhy    kylyYxZxQvRv        '
        'nyoypyqyrysytyuyNyOyUvVvSy          xyyy    hzizSvTvWvXvYy      '
    )),
    (0x2160, (
        'G9H9I9J9K9L9M9N9O9P9Q9R9S9T9U9V9g9h9i9j9k9l9m9n9o9p9q9r9s9t9u9v9'
    )),
    (0x24B0, (
        '            @A@B@C@D@E@F@G@H@I@J@K@L@M@N@O@P@Q@R@S@T@U@V@W@X@Y@Z'
        '@a@b@c@d@e@f@g@h@i@j@k@l@m@n@o@p@q@r@s@t@u@v@w@x@y@z            '
    )),
    (0xFF20, (
        '  A@B@C@D@E@F@G@H@I@J@K@L@M@N@O@P@Q@R@S@T@U@V@W@X@Y@Z@          '
        '  a@b@c@d@e@f@g@h@i@j@k@l@m@n@o@p@q@r@s@t@u@v@w@x@y@z@          '
    )),
)

_SAFE = frozenset(b"\x000123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz")
_HEX = "0123456789abcdef"


def _tables() -> tuple[dict[int, str], dict[int, int]]:
    to_code: dict[int, str] = {}
    to_char: dict[int, int] = {}
    for start, parts in _RANGES:
        codes = "".join(parts)
        for k in range(0, len(codes), 2):
            pair = codes[k:k + 2]
            if pair != "  ":
                to_code[start + k // 2] = "@" + pair
                to_char[(ord(pair[0]) - 0x30) * 80 + ord(pair[1]) - 0x30] = start + k // 2
    return to_code, to_char


_TO_CODE, _TO_CHAR = _tables()


def _encode_char(ch: str) -> str:
    wc = ord(ch)
    if wc < 128 and wc in _SAFE:
        return ch
    if 0xDC00 <= wc <= 0xDCFF:  # an invalid byte read earlier: itself again
        return chr(wc - 0xDC00)
    code = _TO_CODE.get(wc)
    if code is not None:
        return code
    return "@" + "".join(_HEX[(wc >> shift) & 15] for shift in (12, 8, 4, 0))


def encode(text: str) -> bytes:
    return "".join(map(_encode_char, text)).encode("latin-1")


def _hex4(data: bytes) -> int | None:
    try:
        text = data.decode("ascii")
    except UnicodeDecodeError:
        return None
    if len(text) != 4 or any(c not in _HEX for c in text):
        return None
    return int(text, 16)


def decode(data: bytes) -> str:
    out: list[str] = []
    i, n = 0, len(data)
    while i < n:
        b = data[i]
        if b in _SAFE:
            out.append(chr(b))
            i += 1
            continue
        if b == 0x40 and i + 3 <= n:
            b1, b2 = data[i + 1], data[i + 2]
            if 0x30 <= b1 <= 0x7F and 0x30 <= b2 <= 0x7F:
                wc = _TO_CHAR.get((b1 - 0x30) * 80 + b2 - 0x30)
                if wc is not None:
                    out.append(chr(wc))
                    i += 3
                    continue
                if b1 == b2 == 0x40:
                    out.append("\0")
                    i += 3
                    continue
            wc = _hex4(data[i + 1:i + 5]) if i + 5 <= n else None
            if wc is not None:
                out.append(chr(wc))
                i += 5
                continue
        out.append(chr(0xDC00 + b))  # an invalid byte
        i += 1
    return "".join(out)


class _Codec(codecs.Codec):
    def encode(self, text: str, errors: str = "strict") -> tuple[bytes, int]:
        return encode(text), len(text)

    def decode(self, data: bytes, errors: str = "strict") -> tuple[str, int]:
        return decode(bytes(data)), len(data)


def codec_info() -> codecs.CodecInfo:
    c = _Codec()
    return codecs.CodecInfo(c.encode, c.decode, name="rampmeter-filename")
