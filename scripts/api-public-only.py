#!/usr/bin/env python3
"""Keeps only the public API in a swift-api-digester dump, in place.

The digester dumps every declaration a client's binary may reference, `@usableFromInline`
internal and `package` ones included (it marks them `isInternal`); the README's "Definition of
public API" leaves those out, so the baseline and the current dump are compared without them.
"""
import json
import sys


def prune(node):
    if isinstance(node, dict):
        if isinstance(node.get("children"), list):
            node["children"] = [child for child in node["children"] if not child.get("isInternal")]
        for value in node.values():
            prune(value)
    elif isinstance(node, list):
        for value in node:
            prune(value)
    return node


for path in sys.argv[1:]:
    with open(path) as file:
        dump = json.load(file)
    with open(path, "w") as file:
        json.dump(prune(dump), file, indent=2, sort_keys=False)
        file.write("\n")
