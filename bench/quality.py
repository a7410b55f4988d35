#!/usr/bin/env python3
"""bench/quality.py: the labelled corpus and the scoring of bench/quality.sh.

    quality.py build KERNELDIR OUTDIR      make OUTDIR/docs, manifest.tsv, truth.tsv
    quality.py crosscheck OUTDIR NEARDUP   exact Jaccard here against `neardup compare`
    quality.py table OUTDIR RUNS           the Markdown table of the runs listed in RUNS

The corpus: 300 ASCII text files of 2-20 KB from KERNELDIR/Documentation (*.rst,
*.txt; the first in a fixed-seed shuffle of the sorted list that have at least 200
shingles and a shingle set of their own), and four edited copies of each:
words replaced, inserted, deleted or all three at a known rate (1%, 3%, 10%, 20%,
40% of the words), or blocks of lines moved; the fourth copy is an edit of the
first, so copies of one original are similar to each other at many levels too.
About 1,500 documents.  Every edit comes from a random.Random seeded by the
document's name, so the corpus is the same on every machine.

The ground truth: EXACT Jaccard of the sets of word 3-gram shingles, with
neardup's default normalization (ASCII letters folded to lower case, words are
runs of [a-z0-9]; the files are ASCII, so that is all of it), for every pair of
documents, counted through an inverted index (shingle -> documents).  truth.tsv
keeps the pairs with J >= 0.3 (all the table needs: its lowest threshold less
the tolerance is 0.45); any other pair reported is scored by its own exact J.

RUNS has one line per run: LABEL <TAB> T <TAB> PAIRS_FILE [<TAB> NOTE], PAIRS_FILE
the output of `neardup cluster --pairs` (a <TAB> b <TAB> similarity; names are
compared by their last component), NOTE shown after the label.  A reported pair is
correct when its exact J >= T; recall is over the pairs with exact J >= T.  The
tolerance view: a reported pair is correct when J >= T - 0.05, and recall is
over the pairs with J >= T + 0.05.
"""
import os
import random
import re
import subprocess
import sys
from collections import defaultdict

VERSION = "quality-corpus 1"
NORIG = 300
SEED = 20261121
MINSIZE, MAXSIZE = 2048, 20480
RATES = (0.01, 0.03, 0.10, 0.20, 0.40)
OPS = ("replace", "insert", "delete", "mixed")
KEEP = 0.3      # truth.tsv keeps pairs with J >= KEEP
TOL = 0.05
WORD = re.compile(rb"[a-z0-9]+")


def die(msg):
    sys.stderr.write("quality.py: %s\n" % msg)
    sys.exit(2)


def say(msg):
    sys.stderr.write("quality.py: %s\n" % msg)
    sys.stderr.flush()


# ------------------------------------------------------------------ shingles
def shingles(data):
    """The set of word 3-grams of bytes data, as neardup -w 3 sees ASCII text."""
    w = WORD.findall(data.lower())
    if len(w) < 3:
        return {tuple(w)} if w else set()
    return set(zip(w, w[1:], w[2:]))


# ------------------------------------------------------------------ building
def pick_originals(kernel):
    root = os.path.join(kernel, "Documentation")
    cands = []
    for d, dirs, files in os.walk(root):
        dirs.sort()
        for f in files:
            if not (f.endswith(".rst") or f.endswith(".txt")):
                continue
            p = os.path.join(d, f)
            if os.path.islink(p):
                continue
            sz = os.path.getsize(p)
            if MINSIZE <= sz <= MAXSIZE:
                cands.append(p)
    cands.sort()
    rnd = random.Random(SEED)
    rnd.shuffle(cands)
    out, seen = [], set()
    for p in cands:
        with open(p, "rb") as fh:
            data = fh.read()
        if any(b > 0x7E or (b < 0x20 and b not in b"\t\n\r\f") for b in data):
            continue        # ASCII text only: the normalization is then exact
        s = shingles(data)
        if len(s) < 200:
            continue        # tables and lists of few words
        key = frozenset(s)
        if key in seen:
            continue        # the tree holds some files twice
        seen.add(key)
        out.append((os.path.relpath(p, kernel), data))
        if len(out) == NORIG:
            break
    if len(out) < NORIG:
        die("only %d usable files under %s" % (len(out), root))
    return out


def edit_words(lines, op, rate, rnd, vocab):
    """Edit about rate of the words (whitespace-separated), keeping the lines."""
    out = []
    for line in lines:
        words = line.split()
        new = []
        for w in words:
            if rnd.random() >= rate:
                new.append(w)
                continue
            kind = op if op != "mixed" else rnd.choice(OPS[:3])
            if kind == "replace":
                new.append(rnd.choice(vocab))
            elif kind == "insert":
                new.append(w)
                new.append(rnd.choice(vocab))
            # delete: nothing
        out.append(b" ".join(new))
    return out


def move_blocks(lines, rnd):
    """Move 1 to 3 blocks of 5-15% of the lines each to random places."""
    lines = list(lines)
    for _ in range(rnd.randint(1, 3)):
        n = len(lines)
        m = max(1, int(n * rnd.uniform(0.05, 0.15)))
        i = rnd.randrange(0, n - m + 1)
        block = lines[i:i + m]
        del lines[i:i + m]
        j = rnd.randrange(0, len(lines) + 1)
        lines[j:j] = block
    return lines


def build(kernel, out):
    if not os.path.isdir(os.path.join(kernel, "Documentation")):
        die("%s: no Documentation directory" % kernel)
    stamp = os.path.join(out, "stamp")
    if os.path.exists(stamp):
        with open(stamp) as fh:
            if fh.read().strip() == VERSION:
                say("%s: corpus present, kept" % out)
                return
    docs = os.path.join(out, "docs")
    os.makedirs(docs, exist_ok=True)
    for f in os.listdir(docs):
        os.unlink(os.path.join(docs, f))
    say("picking %d originals from %s/Documentation" % (NORIG, kernel))
    orig = pick_originals(kernel)
    vocab = sorted({w for _, d in orig for w in d.split()})
    manifest = []
    # Variants in rotation so each (kind, rate) occurs about equally often.
    variants = [(op, r) for r in RATES for op in OPS] + [("move", 0)] * 4
    vi = 0
    for i, (path, data) in enumerate(orig):
        base = "%03d" % i
        name = base + "-orig.txt"
        with open(os.path.join(docs, name), "wb") as fh:
            fh.write(data)
        manifest.append((name, path, "original", "0", "-"))
        lines = data.split(b"\n")
        first = None
        for c in range(4):
            op, rate = variants[vi % len(variants)]
            vi += 1
            src, src_name = lines, name
            if c == 3:
                src, src_name = first, base + "-e0.txt"
            rnd = random.Random("%s-e%d" % (base, c))
            if op == "move":
                new = move_blocks(src, rnd)
            else:
                new = edit_words(src, op, rate, rnd, vocab)
            if c == 0:
                first = new
            ename = "%s-e%d.txt" % (base, c)
            with open(os.path.join(docs, ename), "wb") as fh:
                fh.write(b"\n".join(new))
            manifest.append((ename, path, op, "%g" % rate, src_name))
    with open(os.path.join(out, "manifest.tsv"), "w") as fh:
        fh.write("doc\toriginal\tedit\trate\tedited_from\n")
        for row in manifest:
            fh.write("\t".join(row) + "\n")
    say("%d documents; exact Jaccard of all pairs" % len(manifest))
    truth(out)
    with open(stamp, "w") as fh:
        fh.write(VERSION + "\n")


def load_sets(out):
    docs = os.path.join(out, "docs")
    names = sorted(os.listdir(docs))
    ids = {}
    sets = []
    for n in names:
        with open(os.path.join(docs, n), "rb") as fh:
            s = shingles(fh.read())
        sets.append({ids.setdefault(x, len(ids)) for x in s})
    return names, sets


def truth(out):
    """Every pair's |A n B| through the inverted index; keep J >= KEEP."""
    names, sets = load_sets(out)
    post = defaultdict(list)
    for d, s in enumerate(sets):
        for x in s:
            post[x].append(d)
    inter = defaultdict(int)
    for docs in post.values():
        m = len(docs)
        if m < 2:
            continue
        for i in range(m):
            a = docs[i] * 65536
            for j in range(i + 1, m):
                inter[a + docs[j]] += 1
    kept = []
    hist = [0] * 11
    for key, n in inter.items():
        a, b = divmod(key, 65536)
        j = n / (len(sets[a]) + len(sets[b]) - n)
        hist[min(10, int(j * 10))] += 1
        if j >= KEEP:
            kept.append((names[a], names[b], j))
    kept.sort()
    with open(os.path.join(out, "truth.tsv"), "w") as fh:
        for a, b, j in kept:
            fh.write("%s\t%s\t%.6f\n" % (a, b, j))
    npairs = len(sets) * (len(sets) - 1) // 2
    hist[0] += npairs - len(inter)
    with open(os.path.join(out, "histogram.tsv"), "w") as fh:
        fh.write("J_from\tpairs\n")
        for i, n in enumerate(hist):
            fh.write("%.1f\t%d\n" % (i / 10, n))
    say("%d pairs, %d with J >= %g" % (npairs, len(kept), KEEP))


# -------------------------------------------------------------- cross-check
def crosscheck(out, neardup):
    """Exact J of 60 pairs here and by `neardup compare` (its exact count)."""
    names, sets = load_sets(out)
    tr = read_truth(out)
    rnd = random.Random(SEED)
    pairs = rnd.sample(sorted(tr), 40)
    idx = {n: i for i, n in enumerate(names)}
    while len(pairs) < 60:
        a, b = sorted(rnd.sample(names, 2))
        pairs.append((a, b))
    worst = 0.0
    for a, b in pairs:
        sa, sb = sets[idx[a]], sets[idx[b]]
        mine = len(sa & sb) / len(sa | sb)
        r = subprocess.run([neardup, "compare", "--format=tsv",
                            os.path.join(out, "docs", a),
                            os.path.join(out, "docs", b)],
                           stdout=subprocess.PIPE, check=False)
        lines = r.stdout.decode().splitlines()
        if len(lines) != 2:
            die("neardup compare %s %s: no TSV result" % (a, b))
        row = dict(zip(lines[0].split("\t"), lines[1].split("\t")))
        worst = max(worst, abs(float(row["jaccard"]) - mine))
    print("%d pairs, largest |J here - J of neardup compare| = %.6f"
          % (len(pairs), worst))
    if worst > 1e-6:
        die("the ground truth does not match neardup's shingles")


# ------------------------------------------------------------------ scoring
def read_truth(out):
    tr = {}
    with open(os.path.join(out, "truth.tsv")) as fh:
        for line in fh:
            a, b, j = line.rstrip("\n").split("\t")
            tr[(a, b)] = float(j)
    return tr


def read_pairs(path):
    got = set()
    with open(path) as fh:
        for line in fh:
            f = line.rstrip("\n").split("\t")
            if len(f) < 3:
                die("%s: not a pair line: %r" % (path, line))
            a, b = os.path.basename(f[0]), os.path.basename(f[1])
            if a > b:
                a, b = b, a
            got.add((a, b))
    return got


def prf(tp, nrep, npos):
    p = tp / nrep if nrep else 1.0
    r = tp / npos if npos else 1.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return p, r, f


def table(out, runs):
    tr = read_truth(out)
    sets, idx = None, None
    rows = []
    with open(runs) as fh:
        for line in fh:
            label, t, path, note = (line.rstrip("\n").split("\t") + [""])[:4]
            t = float(t)
            got = read_pairs(path)
            # Pairs below KEEP are in no truth file: their exact J here.
            js = {}
            for p in got:
                if p in tr:
                    js[p] = tr[p]
                else:
                    if sets is None:
                        names, sets = load_sets(out)
                        idx = {n: i for i, n in enumerate(names)}
                    sa, sb = sets[idx[p[0]]], sets[idx[p[1]]]
                    js[p] = len(sa & sb) / len(sa | sb)
            pos = {p for p, j in tr.items() if j >= t}
            tp = sum(1 for p in got if js[p] >= t)
            P, R, F = prf(tp, len(got), len(pos))
            pos_hi = {p for p, j in tr.items() if j >= t + TOL}
            tp_lo = sum(1 for p in got if js[p] >= t - TOL)
            tp_hi = len(pos_hi & got)
            Pt = tp_lo / len(got) if got else 1.0
            Rt = tp_hi / len(pos_hi) if pos_hi else 1.0
            rows.append((label, t, len(pos), len(got), tp, P, R, F, Pt, Rt,
                         note))
    print("| scheme | t | true pairs | reported | correct | precision | recall"
          " | F1 | precision ±0.05 | recall ±0.05 |")
    print("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
    for (label, t, npos, nrep, tp, P, R, F, Pt, Rt, note) in rows:
        lab = label + (" " + note if note else "")
        print("| %s | %.1f | %d | %d | %d | %.3f | %.3f | %.3f | %.3f | %.3f |"
              % (lab, t, npos, nrep, tp, P, R, F, Pt, Rt))


def main(argv):
    if len(argv) == 4 and argv[1] == "build":
        build(argv[2], argv[3])
    elif len(argv) == 4 and argv[1] == "crosscheck":
        crosscheck(argv[2], argv[3])
    elif len(argv) == 4 and argv[1] == "table":
        table(argv[2], argv[3])
    else:
        die("usage: quality.py build KERNELDIR OUTDIR | crosscheck OUTDIR "
            "NEARDUP | table OUTDIR RUNS")


if __name__ == "__main__":
    main(sys.argv)
