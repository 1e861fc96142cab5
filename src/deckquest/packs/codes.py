"""The diagnostic codes of packs (DQ7000-DQ7099), each documented in docs/errors.md.

A code keeps its meaning forever, so a user (or a script) can look it up or
match on it; the message says the particulars.
"""

from __future__ import annotations

CODES = {
    # The pack and its manifest
    "DQ7000": "not a pack",
    "DQ7001": "pack.yaml cannot be read",
    "DQ7002": "pack.yaml does not match the schema",
    "DQ7003": "bad file entry",
    "DQ7004": "one file under two names",
    "DQ7005": "bad version range or dependency",
    "DQ7006": "pack needs another deckquest version",
    # The pack's files
    "DQ7007": "listed file missing",
    "DQ7008": "file not listed",
    "DQ7009": "symbolic link",
    "DQ7010": "not a regular file",
    "DQ7011": "pack over its size limits",
    "DQ7012": "pack over its work budget",
    # Archives
    "DQ7020": "not a pack archive",
    "DQ7021": "too many archive entries",
    "DQ7022": "unsafe entry name",
    "DQ7023": "entry appears twice",
    "DQ7024": "link or special entry",
    "DQ7025": "encrypted entry",
    "DQ7026": "entry too large",
    "DQ7027": "corrupt entry",
    "DQ7028": "checksum problem",
    # Installing and removing
    "DQ7040": "dependency missing",
    "DQ7041": "install would break another pack",
    "DQ7042": "same version, other contents",
    "DQ7043": "downgrade",
    "DQ7044": "no such installed pack",
    "DQ7045": "pack still needed",
    "DQ7046": "packs folder busy",
    "DQ7047": "no such scenario in the pack",
    # Making packs
    "DQ7050": "archive inside the pack folder",
    "DQ7051": "cannot create the pack",
    # Writing
    "DQ7052": "cannot write a pack's files",
    "DQ7053": "cannot write the archive",
}
