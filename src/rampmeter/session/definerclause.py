"""`DEFINER = account` in CREATE / ALTER of views, routines, triggers and events: naming an
account other than one's own needs SUPER or SET USER.

Rules (MariaDB 10.11's, each checked against it; mtr view_grant):
- DEFINER = CURRENT_USER [()] and DEFINER = the session's own account (user as written,
  host in any letter case) need nothing more. Any other account, existing or not, is 1227
  "Access denied; you need (at least one of) the SUPER, SET USER privilege(s)" for an
  account holding neither; checked before the statement runs.
- A DEFINER without a host names user@'%' (or a role): never the session's own account
  unless that is user@'%'. PUBLIC without a host is the PUBLIC role, no definer: 1959 for
  every account (mtr public_basic).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rampmeter.session.grants import PUBLIC, is_public
from rampmeter.session.privileges import P, denied_global
from rampmeter.session.security import unknown_role
from rampmeter.sql.lexer import ident_value, string_value
from rampmeter.sql.statement import Statement

if TYPE_CHECKING:
    from rampmeter.session.session import Session

_KINDS = ("CREATE", "ALTER")


def check(s: Session, stmt: Statement) -> None:
    """1227 when `stmt` names another account as its DEFINER without SUPER / SET USER."""
    sec = s.security
    toks = stmt.tokens
    if sec is None or not toks or stmt.kind not in _KINDS:
        return
    # CREATE [OR REPLACE] [ALGORITHM = x] DEFINER = ...: within the first dozen tokens
    at = next((i for i, t in enumerate(toks[:12]) if t.is_word("DEFINER")), None)
    if at is None or at + 2 >= len(toks) or toks[at + 1].text != "=":
        return
    first = toks[at + 2]
    if first.is_word("CURRENT_USER"):
        return
    user = _name(first.text, first.kind)
    host = "%"
    nxt = toks[at + 3] if at + 3 < len(toks) else None
    if nxt is not None and nxt.kind == "uservar":   # 'u'@'h' lexes as a string and @'h'
        host = _name(nxt.text[1:], "qident" if nxt.text[1:2] in "`\"" else
                     "str" if nxt.text[1:2] == "'" else "word")
    elif nxt is not None and nxt.text == "@" and at + 4 < len(toks):
        host = _name(toks[at + 4].text, toks[at + 4].kind)
    elif is_public(user, False):  # the PUBLIC role is no definer, even for root (1959)
        raise unknown_role(PUBLIC)
    if sec.unchecked:
        return
    if user == sec.priv_user and host.lower() == sec.priv_host.lower() or \
            sec.has_any(P.SUPER | P.SET_USER):
        return
    raise denied_global(P.SUPER, P.SET_USER)


def _name(text: str, kind: str) -> str:
    if kind == "str" or text[:1] == "'":
        return string_value(text)
    if kind == "qident" or text[:1] in "`\"":
        return ident_value(text)
    return text
