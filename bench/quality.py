#!/usr/bin/env python3
"""bench/quality.py: the labelled corpora and the scoring of bench/quality.sh.

    quality.py build KERNELDIR LICENCEDIR OUTDIR
        make OUTDIR/{prose,code,licences}/docs, manifest.tsv, truth-{w3,c5}.tsv
    quality.py crosscheck OUTDIR NEARDUP
        the exact counts here against `neardup compare -w 3` and `-c 5`
    quality.py table OUTDIR RUNS
        the Markdown tables of the runs listed in RUNS

Three corpora, every one the same on every machine that has the same inputs
(every choice and edit from a random.Random with a fixed seed):

  prose     300 ASCII text files of 2-20 KB from KERNELDIR/Documentation (*.rst,
            *.txt; the first in a fixed-seed shuffle of the sorted list that have at
            least 200 word shingles and a shingle set of their own) and four edited
            copies of each: words replaced, inserted, deleted or all three at 1%,
            3%, 10%, 20% or 40% of the words, or blocks of lines moved; the fourth
            copy is an edit of the first.  1,500 documents.
  code      kernel source as it is, with its natural near-duplicates, no edits:
            every file of 512 B to 64 KB under include/dt-bindings/,
            drivers/gpu/drm/amd/include/asic_reg/, arch/{arm,mips,powerpc}/configs/,
            and arch/arm/boot/dts/ (*.dts, *.dtsi) whose name begins with imx, sun,
            omap or kirkwood; ASCII only, at least 20 word shingles.
  licences  every regular ASCII file of LICENCEDIR (/usr/share/common-licenses)
            and of KERNELDIR/LICENSES, with four edited copies of each as for prose.

ASCII only (bytes 0x20-0x7e, tab, newline, carriage return, form feed): neardup's
normalization of such text is all in these few lines (man/neardup.1, NORMALIZATION
AND SHINGLES; src/text/shingle.c): ASCII letters folded to lower case, every run of
characters that are not [a-z0-9] a boundary.  A word 3-gram is three consecutive
words; a character 5-gram is five consecutive characters of the words joined by one
space; a document with fewer items than n but at least one has one shingle, all of
it.

The ground truth, per corpus and shingling (w3: word 3-grams, neardup's default
`-w 3`; c5: character 5-grams, `-c 5`): the EXACT Jaccard of the shingle sets of
every pair with J >= 0.4 (the tables need J >= t - 0.05 >= 0.45; a pair reported
below that is scored by its J computed from the files), found by the prefix filter
of all-pairs similarity joins (AllPairs: tokens ordered by document frequency,
documents by size; a pair with J >= 0.4 shares a token in the first
|x| - ceil(0.4 |x|) + 1 tokens of the larger and the first
|y| - ceil(0.8 / 1.4 |y|) + 1 of the smaller; integer arithmetic) and counted by
intersecting the two sets.  truth-S.tsv: a, b, J, shared, |a|, |b|.  Checked
twice: brute force (bruteforce-S.txt: 25 documents against every other one by
direct intersection: every pair with J >= 0.4 must be in the truth with the same
counts, and no other there), and `crosscheck` against `neardup compare` on 60
pairs per corpus and shingling (shared, |a|, |b| equal, J equal to the printed
decimals).

RUNS has one line per run:
    CORPUS <TAB> S <TAB> KIND <TAB> LABEL <TAB> T <TAB> FILE <TAB> NOTE
KIND `pairs`: FILE is the output of `neardup cluster --pairs` (A, B, SIMILARITY
[, BASIS]); a reported pair is correct when its exact J >= T.  KIND `groups`: FILE
is `neardup cluster --format=tsv --all` (CLUSTER, NAME, SIMILARITY, BASIS); every
member not kept must have exact J >= T with its group's kept member.  Names are
compared by their last component.  KIND `fail`: the run failed, NOTE says how.
"""
import bisect
import os
import random
import re
import subprocess
import sys
from collections import Counter, defaultdict

VERSION = "quality-corpus 2"
SEED = 20261121
KEEP_NUM, KEEP_DEN = 2, 5       # truth keeps pairs with J >= 2/5
KEEP = KEEP_NUM / KEEP_DEN
TOL = 0.05
WORD = re.compile(rb"[a-z0-9]+")
SHINGLINGS = ("w3", "c5")
CORPORA = ("prose", "code", "licences")

# prose
NORIG = 300
MINSIZE, MAXSIZE = 2048, 20480
RATES = (0.01, 0.03, 0.10, 0.20, 0.40)
OPS = ("replace", "insert", "delete", "mixed")

# code
CODE_MIN, CODE_MAX = 512, 65536
CODE_SETS = (
    ("include/dt-bindings", None, None),
    ("arch/arm/boot/dts", (".dts", ".dtsi"), ("imx", "sun", "omap", "kirkwood")),
    ("drivers/gpu/drm/amd/include/asic_reg", None, None),
    ("arch/arm/configs", None, None),
    ("arch/mips/configs", None, None),
    ("arch/powerpc/configs", None, None),
)
CODE_MINSH = 20


def die(msg):
    sys.stderr.write("quality.py: %s\n" % msg)
    sys.exit(2)


def say(msg):
    sys.stderr.write("quality.py: %s\n" % msg)
    sys.stderr.flush()


# ------------------------------------------------------------------ shingles
def words(data):
    return WORD.findall(data.lower())


def shingles(data, s="w3"):
    """The shingle set of ASCII bytes data as neardup -w 3 or -c 5 sees it."""
    w = words(data)
    if s == "w3":
        if len(w) < 3:
            return {tuple(w)} if w else set()
        return set(zip(w, w[1:], w[2:]))
    text = b" ".join(w)
    if len(text) < 5:
        return {text} if text else set()
    return {text[i:i + 5] for i in range(len(text) - 4)}


def ascii_text(data):
    return not any(b > 0x7E or (b < 0x20 and b not in b"\t\n\r\f")
                   for b in data)


# ------------------------------------------------------------------ building
def pick_prose(kernel):
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
        if not ascii_text(data):
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


def pick_code(kernel):
    out = []
    skipped = Counter()
    for d, exts, prefixes in CODE_SETS:
        root = os.path.join(kernel, d)
        if not os.path.isdir(root):
            die("%s: missing" % root)
        paths = []
        for dd, dirs, files in os.walk(root):
            dirs.sort()
            for f in files:
                p = os.path.join(dd, f)
                if os.path.islink(p) or not os.path.isfile(p):
                    continue
                if exts and not f.endswith(exts):
                    continue
                if prefixes and not f.startswith(prefixes):
                    continue
                paths.append(p)
        for p in sorted(paths):
            sz = os.path.getsize(p)
            if not CODE_MIN <= sz <= CODE_MAX:
                skipped["size"] += 1
                continue
            with open(p, "rb") as fh:
                data = fh.read()
            if not ascii_text(data):
                skipped["not ASCII"] += 1
                continue
            if len(shingles(data)) < CODE_MINSH:
                skipped["few shingles"] += 1
                continue
            out.append((os.path.relpath(p, kernel), data))
    say("code: %d files (left out: %s)" % (len(out), ", ".join(
        "%d %s" % (n, k) for k, n in sorted(skipped.items()))))
    return out


def pick_licences(kernel, licdir):
    out = []
    for root, label in ((licdir, "common-licenses"),
                        (os.path.join(kernel, "LICENSES"), "LICENSES")):
        if not os.path.isdir(root):
            die("%s: missing" % root)
        paths = []
        for d, dirs, files in os.walk(root):
            dirs.sort()
            for f in files:
                p = os.path.join(d, f)
                if not os.path.islink(p) and os.path.isfile(p):
                    paths.append(p)
        for p in sorted(paths):
            with open(p, "rb") as fh:
                data = fh.read()
            if not ascii_text(data) or len(shingles(data)) < 20:
                say("licences: %s left out (not ASCII or too short)" % p)
                continue
            out.append((label + "/" + os.path.relpath(p, root), data))
    return out


def edit_words(lines, op, rate, rnd, vocab):
    """Edit about rate of the words (whitespace-separated), keeping the lines."""
    out = []
    for line in lines:
        ws = line.split()
        new = []
        for w in ws:
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


def write_edited(docs, orig, tag=""):
    """Each original and four edited copies; the manifest rows."""
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
            rnd = random.Random("%s%s-e%d" % (tag, base, c))
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
    return manifest


def write_natural(docs, files):
    manifest = []
    for path, data in files:
        name = path.replace("/", "%")
        with open(os.path.join(docs, name), "wb") as fh:
            fh.write(data)
        manifest.append((name, path, "natural", "0", "-"))
    return manifest


def build_one(out, what, make):
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
    say("%s: building" % what)
    manifest = make(docs)
    with open(os.path.join(out, "manifest.tsv"), "w") as fh:
        fh.write("doc\tsource\tedit\trate\tedited_from\n")
        for row in manifest:
            fh.write("\t".join(row) + "\n")
    for s in SHINGLINGS:
        truth(out, s)
    with open(stamp, "w") as fh:
        fh.write(VERSION + "\n")


def build(kernel, licdir, out):
    if not os.path.isdir(os.path.join(kernel, "Documentation")):
        die("%s: no Documentation directory" % kernel)
    build_one(os.path.join(out, "prose"), "prose",
              lambda docs: write_edited(docs, pick_prose(kernel)))
    build_one(os.path.join(out, "code"), "code",
              lambda docs: write_natural(docs, pick_code(kernel)))
    build_one(os.path.join(out, "licences"), "licences",
              lambda docs: write_edited(docs, pick_licences(kernel, licdir),
                                        "lic"))


def doc_names(out):
    return sorted(os.listdir(os.path.join(out, "docs")))


def doc_set(out, name, s):
    with open(os.path.join(out, "docs", name), "rb") as fh:
        return shingles(fh.read(), s)


def load_sets(out, s):
    names = doc_names(out)
    ids = {}
    sets = []
    for n in names:
        sets.append({ids.setdefault(x, len(ids)) for x in doc_set(out, n, s)})
    return names, sets


def jaccard(shared, na, nb):
    u = na + nb - shared
    return shared / u if u else 1.0


def allpairs(sets):
    """{(i, j): shared} for every pair i < j with J >= KEEP: prefix filter."""
    df = Counter()
    for x in sets:
        df.update(x)
    order = sorted(df, key=lambda t: (df[t], t))
    rank = {t: r for r, t in enumerate(order)}
    index = defaultdict(list)       # token -> documents, by size
    sizes = defaultdict(list)       # token -> their sizes, ascending
    found = {}
    bysize = sorted(range(len(sets)), key=lambda d: (len(sets[d]), d))
    for x in bysize:
        sx = sets[x]
        nx = len(sx)
        if nx == 0:
            continue
        toks = sorted(rank[t] for t in sx)
        p = nx - (KEEP_NUM * nx + KEEP_DEN - 1) // KEEP_DEN + 1
        # |y| <= |x| (sorted by size); J >= KEEP needs |y| >= KEEP |x|
        least = (KEEP_NUM * nx + KEEP_DEN - 1) // KEEP_DEN
        # Later documents are no smaller: a pair with J >= KEEP has an
        # overlap of at least 2 KEEP / (1 + KEEP) |x|, so a shorter prefix of
        # x is indexed for them (AllPairs, Bayardo et al. 2007).
        pi = nx - (2 * KEEP_NUM * nx + KEEP_DEN + KEEP_NUM - 1) // (
            KEEP_DEN + KEEP_NUM) + 1
        cands = set()
        for i, tok in enumerate(toks[:p]):
            lst, sz = index[tok], sizes[tok]
            cands.update(lst[bisect.bisect_left(sz, least):])
            if i < pi:
                lst.append(x)
                sz.append(nx)
        for y in cands:
            sh = len(sx & sets[y])
            if KEEP_DEN * sh >= KEEP_NUM * (nx + len(sets[y]) - sh):
                found[(min(x, y), max(x, y))] = sh
    return found


def truth(out, s):
    names, sets = load_sets(out, s)
    found = allpairs(sets)
    rows = []
    hist = [0] * 7          # 0.4-0.5 .. 0.9-1.0, 1.0
    for (a, b), sh in found.items():
        j = jaccard(sh, len(sets[a]), len(sets[b]))
        hist[min(6, int(j * 10 + 1e-12) - 4)] += 1
        rows.append((names[a], names[b], j, sh, len(sets[a]), len(sets[b])))
    rows.sort()
    with open(os.path.join(out, "truth-%s.tsv" % s), "w") as fh:
        for r in rows:
            fh.write("%s\t%s\t%.6f\t%d\t%d\t%d\n" % r)
    npairs = len(sets) * (len(sets) - 1) // 2
    with open(os.path.join(out, "histogram-%s.tsv" % s), "w") as fh:
        fh.write("J_from\tpairs\n")
        fh.write("0.0\t%d\n" % (npairs - len(rows)))
        for i, n in enumerate(hist):
            fh.write("%.1f\t%d\n" % ((i + 4) / 10, n))
    say("%s %s: %d documents, %d pairs, %d with J >= %g"
        % (os.path.basename(out), s, len(sets), npairs, len(rows), KEEP))
    bruteforce(out, s, names, sets, found)


def bruteforce(out, s, names, sets, found):
    """25 documents against all others, by plain intersection."""
    rnd = random.Random(SEED)
    sample = rnd.sample(range(len(sets)), min(25, len(sets)))
    checked = bad = hits = 0
    for x in sample:
        for y in range(len(sets)):
            if y == x:
                continue
            sh = len(sets[x] & sets[y])
            j = jaccard(sh, len(sets[x]), len(sets[y]))
            key = (min(x, y), max(x, y))
            checked += 1
            if j >= KEEP:
                hits += 1
                if found.get(key) != sh:
                    bad += 1
            elif key in found:
                bad += 1
    msg = ("%s %s: brute force, %d documents against all: %d pairs, %d with "
           "J >= %g, %d differ from the truth"
           % (os.path.basename(out), s, len(sample), checked, hits, KEEP, bad))
    with open(os.path.join(out, "bruteforce-%s.txt" % s), "w") as fh:
        fh.write(msg + "\n")
    if bad:
        die(msg)
    say(msg)


# -------------------------------------------------------------- cross-check
def crosscheck(root, neardup):
    """Exact counts of 60 pairs per corpus and shingling, here and by compare."""
    msgs = []
    for c in CORPORA:
        out = os.path.join(root, c)
        names = doc_names(out)
        for s in SHINGLINGS:
            tr = read_truth(out, s)
            rnd = random.Random(SEED)
            pairs = rnd.sample(sorted(tr), min(40, len(tr)))
            while len(pairs) < 60:
                a, b = sorted(rnd.sample(names, 2))
                pairs.append((a, b))
            flag = ["-w", "3"] if s == "w3" else ["-c", "5"]
            worst = 0.0
            for a, b in pairs:
                sa, sb = doc_set(out, a, s), doc_set(out, b, s)
                sh = len(sa & sb)
                mine = jaccard(sh, len(sa), len(sb))
                if (a, b) in tr and tr[(a, b)][1:] != (sh, len(sa), len(sb)):
                    die("%s %s: %s %s: truth.tsv %r, here %r"
                        % (c, s, a, b, tr[(a, b)], (sh, len(sa), len(sb))))
                r = subprocess.run([neardup, "compare", "--format=tsv"] + flag +
                                   [os.path.join(out, "docs", a),
                                    os.path.join(out, "docs", b)],
                                   stdout=subprocess.PIPE, check=False)
                lines = r.stdout.decode().splitlines()
                if len(lines) != 2:
                    die("neardup compare %s %s: no TSV result" % (a, b))
                row = dict(zip(lines[0].split("\t"), lines[1].split("\t")))
                theirs = (int(row["shared"]), int(row["size_a"]),
                          int(row["size_b"]))
                if theirs != (sh, len(sa), len(sb)):
                    die("%s %s: %s %s: shared, |a|, |b| %r here, %r by "
                        "neardup compare %s" % (c, s, a, b, (sh, len(sa),
                                                 len(sb)), theirs,
                                                 " ".join(flag)))
                # J to the printed decimals, cut (as neardup prints it) or
                # rounded, from the exact fraction
                dec = len(row["jaccard"].split(".")[1])
                u = len(sa) + len(sb) - sh
                cut = sh * 10 ** dec // u if u else 10 ** dec
                forms = {"%d.%0*d" % (cut // 10 ** dec, dec, cut % 10 ** dec),
                         "%.*f" % (dec, mine)}
                if row["jaccard"] not in forms:
                    die("%s %s: %s %s: J %s here, %s by neardup compare"
                        % (c, s, a, b, " or ".join(sorted(forms)),
                           row["jaccard"]))
                worst = max(worst, abs(float(row["jaccard"]) - mine))
            msgs.append("%s %s %d pairs" % (c, s, len(pairs)))
    print("crosscheck with neardup compare -w 3 / -c 5: %s: shared, |a|, |b| "
          "equal, J equal to the printed decimals" % ", ".join(msgs))


# ------------------------------------------------------------------ scoring
def read_truth(out, s):
    """{(a, b): (J, shared, |a|, |b|)}, a < b."""
    tr = {}
    with open(os.path.join(out, "truth-%s.tsv" % s)) as fh:
        for line in fh:
            a, b, _, sh, na, nb = line.rstrip("\n").split("\t")
            sh, na, nb = int(sh), int(na), int(nb)
            tr[(a, b)] = (jaccard(sh, na, nb), sh, na, nb)
    return tr


class Exact:
    """Exact J of any pair of one corpus and shingling: truth, else computed."""

    def __init__(self, out, s):
        self.out, self.s = out, s
        self.tr = read_truth(out, s)
        self.sets = {}
        self.computed = 0

    def __call__(self, a, b):
        if a > b:
            a, b = b, a
        if (a, b) in self.tr:
            return self.tr[(a, b)][0]
        for n in (a, b):
            if n not in self.sets:
                self.sets[n] = doc_set(self.out, n, self.s)
        sa, sb = self.sets[a], self.sets[b]
        self.computed += 1
        sh = len(sa & sb)
        return jaccard(sh, len(sa), len(sb))


def read_pairs(path):
    got = {}
    with open(path) as fh:
        for line in fh:
            f = line.rstrip("\n").split("\t")
            if len(f) < 3:
                die("%s: not a pair line: %r" % (path, line))
            a, b = os.path.basename(f[0]), os.path.basename(f[1])
            if a > b:
                a, b = b, a
            basis = f[3] if len(f) > 3 else ""
            got[(a, b)] = (f[2], basis)
    return got


def read_groups(path):
    """[(kept, [(member, sim, basis), ...]), ...]"""
    groups = {}
    order = []
    with open(path) as fh:
        for line in fh:
            f = line.rstrip("\n").split("\t")
            if len(f) < 4:
                die("%s: not a cluster TSV line: %r" % (path, line))
            cid, name, sim, basis = f[0], os.path.basename(f[1]), f[2], f[3]
            if cid not in groups:
                groups[cid] = [None, []]
                order.append(cid)
            if basis == "kept":
                groups[cid][0] = name
            else:
                groups[cid][1].append((name, sim, basis))
    for cid in order:
        if groups[cid][0] is None:
            die("%s: group %s has no kept member" % (path, cid))
    return [tuple(groups[c]) for c in order]


def prf(tp, nrep, npos):
    p = tp / nrep if nrep else 1.0
    r = tp / npos if npos else 1.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return p, r, f


def simoff(sim, j):
    """Is the printed similarity not J cut to its decimals?"""
    try:
        x = float(sim)
    except ValueError:
        return True
    return abs(x - j) > 1.5e-6


def table(root, runs):
    exact = {}
    prow, grow, fails = [], [], []
    ndocs = {}
    with open(runs) as fh:
        for line in fh:
            c, s, kind, label, t, path, note = (
                line.rstrip("\n").split("\t") + [""] * 7)[:7]
            if kind == "fail":
                fails.append((c, s, label, t, note))
                continue
            t = float(t)
            out = os.path.join(root, c)
            if (c, s) not in exact:
                exact[(c, s)] = Exact(out, s)
                ndocs[c] = len(doc_names(out))
            ex = exact[(c, s)]
            if kind == "pairs":
                got = read_pairs(path)
                js = {p: ex(*p) for p in got}
                off = sum(1 for p, (sim, basis) in got.items()
                          if basis == "exact" and simoff(sim, js[p]))
                nest = sum(1 for _, basis in got.values() if basis != "exact")
                pos = sum(1 for v in ex.tr.values() if v[0] >= t)
                tp = sum(1 for p in got if js[p] >= t)
                P, R, F = prf(tp, len(got), pos)
                pos_hi = [p for p, v in ex.tr.items() if v[0] >= t + TOL]
                tp_lo = sum(1 for p in got if js[p] >= t - TOL)
                Pt = tp_lo / len(got) if got else 1.0
                Rt = (sum(1 for p in pos_hi if p in got) / len(pos_hi)
                      if pos_hi else 1.0)
                prow.append((c, s, label, t, pos, len(got), tp, Pt, P, R, F,
                             Rt, off, nest, note))
            else:
                groups = read_groups(path)
                kept = {}
                members = viol = off = 0
                least = 1.0
                for g, (k, mem) in enumerate(groups):
                    kept[k] = g
                    for m, sim, basis in mem:
                        kept[m] = g
                        members += 1
                        j = ex(k, m)
                        least = min(least, j)
                        if j < t:
                            viol += 1
                        if basis == "exact" and simoff(sim, j):
                            off += 1
                leaders = {k for k, _ in groups}
                # Pairs of J >= t whose two documents were both kept (leader
                # rule) or are in two groups (transitive): joins missed.
                missed = 0
                for (a, b), v in ex.tr.items():
                    if v[0] < t:
                        continue
                    if label.find("transitive") >= 0:
                        if kept.get(a) != kept.get(b):
                            missed += 1
                    elif a in leaders and b in leaders:
                        missed += 1
                multi = sum(1 for _, mem in groups if mem)
                grow.append((c, s, label, t, multi, members, viol,
                             least if members else float("nan"), missed, off,
                             note))

    def shn(s):
        return "words (`-w 3`)" if s == "w3" else "chars (`-c 5`)"

    print("Pairs (`--pairs`): *true* = pairs of exact J ≥ t; *correct* = "
          "reported pairs of exact J ≥ t; *precision* counts a reported pair "
          "right when J ≥ t − 0.05, *strict precision* when J ≥ t; *recall* "
          "and *F1* are strict (J ≥ t); *recall +0.05* is over the pairs of "
          "J ≥ t + 0.05; *sim ≠ J*: pairs printed with basis `exact` whose "
          "similarity is not their exact J (to 6 decimals); *est.*: pairs "
          "whose basis is not `exact`.")
    print()
    print("| corpus | shingles | command | t | true | reported | correct | "
          "precision | strict precision | recall | F1 | recall +0.05 | "
          "sim ≠ J | est. |")
    print("|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
    for (c, s, label, t, pos, nrep, tp, Pt, P, R, F, Rt, off, nest,
         note) in prow:
        lab = label + (" " + note if note else "")
        print("| %s | %s | %s | %.1f | %d | %d | %d | %.3f | %.4f | %.4f | "
              "%.4f | %.3f | %d | %d |" % (c, shn(s), lab, t, pos, nrep, tp,
                                           Pt, P, R, F, Rt, off, nest))
    print()
    print("Groups (`--format=tsv --all`): *groups* of two or more; *members* "
          "not kept; *violations*: members whose exact J with their group's "
          "kept member is below t; *least J*: the least of those J; *missed "
          "joins*: pairs of J ≥ t both kept (leader rule) or in two groups "
          "(`--transitive`); *sim ≠ J* as above.")
    print()
    print("| corpus | shingles | command | t | groups | members | violations |"
          " least J | missed joins | sim ≠ J |")
    print("|---|---|---|--:|--:|--:|--:|--:|--:|--:|")
    for (c, s, label, t, multi, members, viol, least, missed, off,
         note) in grow:
        lab = label + (" " + note if note else "")
        print("| %s | %s | %s | %.1f | %d | %d | %d | %.4f | %d | %d |"
              % (c, shn(s), lab, t, multi, members, viol, least, missed, off))
    if fails:
        print()
        for c, s, label, t, note in fails:
            print("- %s, %s, %s, t %s: %s" % (c, shn(s), label, t, note))

    # Against the targets: cluster -r rows (labels beginning `cluster -r`).
    print()
    print("Against the targets (`cluster -r`: F1 ≥ 0.99 and strict precision "
          "≥ 0.999 at every t; `--exact`: recall 1.000; groups: no "
          "violation):")
    print()
    print("| corpus | shingles | `cluster -r` least F1 (t) | least strict "
          "precision (t) | `--exact` least recall | leader-rule violations | "
          "met |")
    print("|---|---|--:|--:|--:|--:|---|")
    for c in CORPORA:
        for s in SHINGLINGS:
            rows = [r for r in prow if r[0] == c and r[1] == s and
                    r[2].startswith("`cluster -r")]
            if not rows:
                continue
            fmin = min(rows, key=lambda r: r[10])
            pmin = min(rows, key=lambda r: r[8])
            ex_rows = [r for r in prow if r[0] == c and r[1] == s and
                       "--exact" in r[2]]
            rec = ("%.4f" % min(r[9] for r in ex_rows)) if ex_rows else "—"
            v = sum(r[6] for r in grow if r[0] == c and r[1] == s and
                    r[2].startswith("`cluster -r") and
                    "transitive" not in r[2])
            ok = (fmin[10] >= 0.99 and pmin[8] >= 0.999 and v == 0 and
                  (not ex_rows or min(r[9] for r in ex_rows) == 1.0))
            print("| %s | %s | %.4f (%.1f) | %.4f (%.1f) | %s | %d | %s |"
                  % (c, shn(s), fmin[10], fmin[3], pmin[8], pmin[3], rec, v,
                     "yes" if ok else "**no**"))
    for (c, s), ex in sorted(exact.items()):
        if ex.computed:
            say("%s %s: %d pairs below %g computed from the files"
                % (c, s, ex.computed, KEEP))


def histogram(root):
    """One line per corpus and shingling: pairs by exact J."""
    for c in CORPORA:
        for s in SHINGLINGS:
            with open(os.path.join(root, c, "histogram-%s.tsv" % s)) as fh:
                rows = [line.rstrip("\n").split("\t") for line in fh][1:]
            below = rows[0][1]
            parts = []
            for lo, n in rows[1:]:
                lo = float(lo)
                parts.append("%s: %s" % ("1.0" if lo >= 1 else
                                         "%.1f-%.1f" % (lo, lo + 0.1), n))
            print("- %s, %s: %s (the other %s below 0.4)"
                  % (c, "words" if s == "w3" else "chars",
                     ", ".join(parts), below))


def main(argv):
    if len(argv) == 5 and argv[1] == "build":
        build(argv[2], argv[3], argv[4])
    elif len(argv) == 4 and argv[1] == "crosscheck":
        crosscheck(argv[2], argv[3])
    elif len(argv) == 4 and argv[1] == "table":
        table(argv[2], argv[3])
    elif len(argv) == 3 and argv[1] == "histogram":
        histogram(argv[2])
    else:
        die("usage: quality.py build KERNELDIR LICENCEDIR OUTDIR | crosscheck "
            "OUTDIR NEARDUP | table OUTDIR RUNS | histogram OUTDIR")


if __name__ == "__main__":
    main(sys.argv)
