"""Writes the format tests' fixtures with the programs people's files come
from: vobject (vCard 3.0, and 4.0 by its VERSION line) and ldif (RFC 2849).

    .build/pytools/bin/python Tests/RosterStoreTests/Formats/Fixtures/make_fixtures.py OUT_DIR

The same packages' versions (.ci/python-tools pins them) always write the
same bytes: FormatFixtureTests regenerates them into a temporary folder
and compares them with the committed ones.
"""
import base64
import io
import os
import sys

import ldif
import vobject


def card(version, given, family, org, title, emails, phones, note, street, photo=None, categories=None):
    c = vobject.vCard()
    c.add("version").value = version
    c.add("n").value = vobject.vcard.Name(family=family, given=given)
    c.add("fn").value = f"{given} {family}"
    c.add("org").value = org
    c.add("title").value = title
    for address, kind in emails:
        e = c.add("email")
        e.value = address
        e.type_param = kind
    for number, kind in phones:
        t = c.add("tel")
        t.value = number
        t.type_param = kind
    c.add("note").value = note
    a = c.add("adr")
    a.value = vobject.vcard.Address(street=street, city="Malmö", region="Skåne", code="211 20", country="Sweden")
    a.type_param = "WORK"
    if categories:
        c.add("categories").value = categories
    if photo is not None:
        p = c.add("photo")
        p.encoding_param = "b"
        p.type_param = "JPEG"
        p.value = photo
    c.add("uid").value = f"{given.lower()}-{family.lower()}"
    return c.serialize()


def vcards(version):
    photo = bytes(range(256)) * 8
    return "".join([
        card(version, "Åsa", "Öberg", ["Ångström AB", "Research", "Lasers"], "Head of Lasers, Nordic",
             [("asa@angstrom.example", "WORK"), ("asa@home.example", "HOME")], [("+46 40 123 45", "WORK")],
             "First line\nsecond line; with a semicolon, and a comma\\ and a backslash", "Storgatan 1", photo=photo,
             categories=["colleagues", "lasers, mostly"]),
        card(version, "李", "小龙", ["少林 Ltd."], "Sifu", [("li@example.cn", "INTERNET")], [("+86 10 5555 0100", "CELL")],
             "A long note " + "that goes on and on " * 8, "Main Road 2"),
    ])


def entries():
    out = io.BytesIO()
    writer = ldif.LDIFWriter(out)
    writer.unparse("dc=example,dc=com", {"objectClass": [b"top", b"dcObject", b"organization"], "o": [b"Example"], "dc": [b"example"]})
    writer.unparse("uid=asa,ou=people,dc=example,dc=com", {
        "objectClass": [b"inetOrgPerson"], "cn": ["Åsa Öberg".encode()], "sn": ["Öberg".encode()], "givenName": ["Åsa".encode()],
        "mail": [b"asa@example.com", b"asa.oberg@example.com"], "title": [b"Head of Lasers"],
        "manager": [b"uid=boss,ou=people,dc=example,dc=com"], "description": [(b"A very long description " * 6).strip()],
        "jpegPhoto": [bytes(range(256)) * 4], "street": [b" starts with a space"],
    })
    writer.unparse("cn=Team,ou=groups,dc=example,dc=com", {"objectClass": [b"groupOfNames"], "cn": [b"Team"],
                                                         "member": [b"uid=asa,ou=people,dc=example,dc=com"]})
    return "version: 1\n\n" + out.getvalue().decode("ascii")


def main(folder):
    for name, text in [("vobject-3.0.vcf", vcards("3.0")), ("vobject-4.0.vcf", vcards("4.0")), ("python-ldif.ldif", entries())]:
        with open(os.path.join(folder, name), "w", encoding="utf-8", newline="") as out:
            out.write(text)


if __name__ == "__main__":
    main(sys.argv[1])
