#!/usr/bin/env python3
"""bench/docjsonl.py: the records of bench/jsonl.sh and bench/jsonparse.sh.

    docjsonl.py DOCS OUTDIR

Every file under DOCS (the kernel's Documentation), sorted by path, one record each,
its bytes decoded as UTF-8 with bad bytes replaced, into OUTDIR: doc.jsonl
({"id": PATH, "text": TEXT}), and, since a --tsv record cannot hold a newline or a
tab, doc-flat.jsonl and doc-flat.tsv (PATH<TAB>TEXT) with every newline, tab and CR
of the texts made a space: the same texts in both.  PATH is relative to DOCS's parent.
"""
import json
import os
import sys


def main():
    docs, out = sys.argv[1], sys.argv[2]
    top = os.path.dirname(os.path.abspath(docs))
    paths = []
    for d, _, files in os.walk(docs):
        paths += [os.path.join(d, f) for f in files]
    paths = sorted(os.path.relpath(p, top).encode() for p in paths)
    with open(os.path.join(out, "doc.jsonl"), "w") as j, \
            open(os.path.join(out, "doc-flat.jsonl"), "w") as fj, \
            open(os.path.join(out, "doc-flat.tsv"), "w") as ft:
        for p in paths:
            full = os.path.join(top.encode(), p)
            if os.path.islink(full) or not os.path.isfile(full):
                continue
            with open(full, "rb") as f:
                t = f.read().decode("utf-8", "replace")
            name = p.decode("utf-8", "replace")
            j.write(json.dumps({"id": name, "text": t}, ensure_ascii=False) + "\n")
            flat = t.replace("\r", " ").replace("\n", " ").replace("\t", " ")
            fj.write(json.dumps({"id": name, "text": flat}, ensure_ascii=False) + "\n")
            ft.write(name + "\t" + flat + "\n")


main()
