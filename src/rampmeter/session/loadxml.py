"""LOAD XML INFILE: the rows of an XML file (mariadb-dump --xml's and the like) as LOAD DATA's
fields (loaddata.py runs them).

Rules (MariaDB 10.11's read_xml_field):
- A row is an element named by ROWS IDENTIFIED BY '<tag>' (default `<row>`), wherever it is.
  Its values are its attributes (`<row a="1" b="2"/>`), its child elements named by a column
  (`<a>1</a>`), or its `<field name="a">1</field>` children; a field with `xsi:nil="true"`
  is NULL.
- A column the row has no value for is NULL (for a NOT NULL column its zero value with 1263,
  for a TIMESTAMP NOT NULL the current time, as a NULL field of LOAD DATA): no 1261.
- IGNORE n LINES / ROWS skips the first n rows. Names are compared as written (MariaDB's
  strcmp). An `&` that starts no XML entity is kept as written (`&unknown;`); a file that is
  otherwise not well-formed XML gives the rows read before the fault; an attribute's value
  may go unquoted (`<row a=1>`), as MariaDB's reader takes it.
"""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET

# an & that starts no entity XML knows is kept as written (MariaDB's reader knows only these)
_STRAY_AMP = re.compile(rb"&(?!(?:amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);)")
_TAG = re.compile(rb"<[^!?/][^>]*>")
_UNQUOTED = re.compile(rb"(\s[\w:.-]+)=([^\s\"'>/]+)")
_NIL = "{http://www.w3.org/2001/XMLSchema-instance}nil"


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def split_xml(data: bytes, row_tag: str, targets: list[str], skip: int
              ) -> list[list[bytes | None]]:
    tag = row_tag.strip().lstrip("<").rstrip(">").strip() or "row"
    rows: list[list[bytes | None]] = []
    try:
        data = _STRAY_AMP.sub(b"&amp;", data)
        data = _TAG.sub(lambda m: _UNQUOTED.sub(rb'\1="\2"', m.group(0)), data)
        for _event, elem in ET.iterparse(io.BytesIO(data), events=("end",)):
            if _local(elem.tag) != tag:
                continue
            values: dict[str, str | None] = {_local(k): v for k, v in elem.attrib.items()}
            for child in elem:
                name = child.get("name") if _local(child.tag) == "field" else _local(child.tag)
                if name is None:
                    continue
                values[name] = None if child.get(_NIL) == "true" else (child.text or "")
            elem.clear()
            if skip:
                skip -= 1
                continue
            rows.append([None if values.get(t) is None else
                         str(values[t]).encode("utf-8", "surrogateescape") for t in targets])
    except ET.ParseError:
        pass
    return rows
