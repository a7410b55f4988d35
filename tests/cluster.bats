#!/usr/bin/env bats
#
# neardup cluster: groups of near-duplicates from documents (-r, --docs)
# and from fingerprint lines of every scheme, -t, --lsh, -v, the output
# formats, --keep, --dups and --uniques, hash --bands and cluster --bands,
# --sorted, names, errors, and sharding with GNU parallel.

load helper

# The cluster usage's first line, as printed after every bad option.
USAGE_RE='^usage: neardup cluster '

OPH=nd1-oph128-w3-fs-s0

# text SEED: 300 distinct words, 12 a line, the same for every awk.
text() {
	awk -v s="$1" 'BEGIN { for (i = 1; i <= 300; i++)
	    printf "w%d%s", (i * 7919 + s * 104729) % 100003, (i % 12 ? " " : "\n") }'
}

# edit FILE PCT TAG: FILE with PCT% of its words, evenly spread, replaced
# by TAG and the word's number.
edit() {
	awk -v pct="$2" -v tag="$3" '{ for (i = 1; i <= NF; i++) { n++
	    if (int(n * pct / 100) != int((n - 1) * pct / 100)) $i = tag n }
	    print }' "$1"
}

# corpus: the directory c/ of 10 documents, in walk order:
#   a-01 a-05 a-30 a-copy a   a.txt, a 1%, 5% and 30% edited copy, an exact copy
#   b-01 b-copy b             b.txt, a 1% edited copy, an exact copy
#   c d                       unrelated to everything
# The word 3-gram resemblance to a.txt is 0.95 for a-01, 0.75 for a-05 and
# 0.05 for a-30; the oph estimates are 0.945, 0.773 and 0.031.
corpus() {
	mkdir -p c
	text 1 >c/a.txt
	cp c/a.txt c/a-copy.txt
	edit c/a.txt 1 x >c/a-01.txt
	edit c/a.txt 5 y >c/a-05.txt
	edit c/a.txt 30 z >c/a-30.txt
	text 2 >c/b.txt
	edit c/b.txt 1 x >c/b-01.txt
	cp c/b.txt c/b-copy.txt
	text 3 >c/c.txt
	text 4 >c/d.txt
}

# groups 'NAME NAME...'...: the default output, one group per argument
# (names separated by spaces), a blank line between groups.
groups() {
	local g sep=
	for g; do
		printf '%s%s\n' "$sep" "${g// /$'\n'}"
		sep=$'\n'
	done
}

# Groups of the corpus, as printed with names under c/.
A3='c/a-01.txt c/a-copy.txt c/a.txt'
A4='c/a-01.txt c/a-05.txt c/a-copy.txt c/a.txt'
A2='c/a-copy.txt c/a.txt'
B3='c/b-01.txt c/b-copy.txt c/b.txt'
B2='c/b-copy.txt c/b.txt'

# cl ARGS...: `neardup cluster ARGS` (run).
cl() {
	run --separate-stderr neardup cluster "$@"
}


# trouble ARGS...: `neardup cluster ARGS` exits 2, prints nothing on
# stdout and a "neardup: " message first on stderr.
trouble() {
	run --separate-stderr neardup cluster "$@"
	assert_exit TROUBLE
	assert_output ''
	[[ ${stderr_lines[0]-} == neardup:\ * ]] ||
	    fail "first stderr line is not a neardup: message: ${stderr_lines[0]-}"
}

# usage_error ARGS...: as trouble, and the usage follows the message.
usage_error() {
	trouble "$@"
	assert_stderr_line "$USAGE_RE"
}

# est A B: the estimated resemblance of the fingerprint lines of names A
# and B in fps.fp, as compare -F gives it, with six decimals.
est() {
	grep -E "  $1\$" fps.fp >pa.fp
	grep -E "  $2\$" fps.fp >pb.fp
	"$NEARDUP" compare -F --format=json pa.fp pb.fp |
	    jq -r '.est_jaccard // .cosine' | awk '{ printf "%.6f\n", $1 }'
}

# ---- documents --------------------------------------------------------------

@test "cluster-001: -r: exact and near copies together (the 5% copy too at the default 0.5), the 30% copy and unrelated texts apart" {
	corpus
	cl -r c
	assert_exit OK
	assert_stderr_empty
	assert_output "$(groups "$A4" "$B3")"
	cl --recursive c
	assert_output "$(groups "$A4" "$B3")"
}

@test "cluster-002: documents are hashed as hash -a oph -k 128 -w 3 would: same groups as from the lines" {
	corpus
	local want
	want=$(neardup hash -a oph -k 128 -w 3 -r c | "$NEARDUP" cluster)
	cl -r c
	assert_output "$want"
	cl --docs c/*.txt
	assert_exit OK
	assert_output "$want"
	cl -v --docs c/a.txt c/a-copy.txt
	assert_stderr_line "^neardup: 2 fingerprints of $OPH; "
	assert_output "$(groups 'c/a.txt c/a-copy.txt')"
}

@test "cluster-003: --docs reads standard input, named -, with no operand or -" {
	corpus
	run --separate-stderr bash -c '"$NEARDUP" cluster --docs - c/a-copy.txt c/c.txt <c/a.txt'
	assert_exit OK
	assert_stderr_empty
	assert_output "$(groups '- c/a-copy.txt')"
	run --separate-stderr bash -c '"$NEARDUP" cluster --docs --all <c/a.txt'
	assert_exit OK
	assert_equal "$output" -
}

@test "cluster-004: with documents, the shingling options choose the scheme" {
	corpus
	local want
	cl -t 0.8 -v --docs -a minhash -k 64 -w 2 c/a.txt c/a-01.txt
	assert_exit OK
	assert_stderr_line '^neardup: 2 fingerprints of nd1-minhash64-w2-fs-s0; '
	cl -t 0.8 -v -r -a bottomk -c 5 --keep-case --keep-punct -s 7 c
	assert_stderr_line '^neardup: 10 fingerprints of nd1-bottomk128-c5-cp-s7; '
	cl -v -r -a simhash c
	assert_stderr_line '^neardup: 10 fingerprints of nd1-simhash64-w3-fs-s0; pairs within 3 bits$'
	assert_output "$(groups "$A2" "$B2")"
	want=$(neardup hash -a minhash -k 64 -w 2 -r c | "$NEARDUP" cluster -t 0.7)
	cl -r -a minhash -k 64 -w 2 -t 0.7 c
	assert_output "$want"
	cl -t 0.8 -r --multiset -j 1 c
	assert_output "$(groups "$A3" "$B3")"
}

@test "cluster-005: -r walks in byte order, without following links unless -L" {
	corpus
	mkdir top real
	cp c/b.txt top/z.txt
	cp c/b.txt real/b.txt
	ln -s ../real top/link
	cl -r top
	assert_exit OK
	assert_output ''
	cl -r -L top
	assert_exit OK
	assert_output "$(groups 'top/link/b.txt top/z.txt')"
	cl --docs c
	assert_exit TROUBLE
	assert_stderr_line '^neardup: c: is a directory: -r walks it$'
}

# ---- -t ----------------------------------------------------------------------

@test "cluster-010: -t: 0.7 and 0.5 (the default) take the 5% copy in, 0.8 and 0.9 not, 0.97 and 1 only exact copies" {
	corpus
	neardup hash -a oph -r c >fps.fp
	cl -t 0.7 fps.fp
	assert_exit OK
	assert_output "$(groups "$A4" "$B3")"
	cl -t 0.8 fps.fp
	assert_output "$(groups "$A3" "$B3")"
	cl fps.fp
	assert_output "$(groups "$A4" "$B3")"
	cl --threshold=0.9 fps.fp
	assert_output "$(groups "$A3" "$B3")"
	cl -t 0.97 fps.fp
	assert_output "$(groups "$A2" "$B2")"
	cl -t 1 fps.fp
	assert_output "$(groups "$A2" "$B2")"
	# The 30% copy and the unrelated texts stay apart even at 0.3.
	cl -t 0.3 fps.fp
	assert_output "$(groups "$A4" "$B3")"
}

@test "cluster-011: every confirmed pair has an estimate of at least t" {
	corpus
	neardup hash -a oph -r c >fps.fp
	local t
	for t in 0.5 0.7 0.8 0.9; do
		cl --pairs -t "$t" fps.fp
		assert_exit OK
		[ "${#lines[@]}" -gt 0 ] || fail "no pair at -t $t"
		run awk -F '\t' -v t="$t" '$3 + 0 < t + 0' <<<"$output"
		assert_output ''
	done
}

# ---- every scheme from fingerprint lines ----------------------------------------

@test "cluster-012: minhash, oph and bottomk lines give the groups of the documents" {
	corpus
	local a
	for a in minhash oph bottomk; do
		neardup hash -a "$a" -r c >"$a.fp"
		cl "$a.fp"
		assert_exit OK
		assert_stderr_empty
		assert_output "$(groups "$A4" "$B3")"
		cl -t 0.8 "$a.fp"
		assert_output "$(groups "$A3" "$B3")"
		cl -t 0.7 "$a.fp"
		assert_output "$(groups "$A4" "$B3")"
		cl -t 1 "$a.fp"
		assert_output "$(groups "$A2" "$B2")"
	done
}

@test "cluster-013: lines from standard input, and from several files, in order" {
	corpus
	neardup hash -a oph c/a.txt c/b.txt c/c.txt >one.fp
	neardup hash -a oph c/b-copy.txt c/a-copy.txt >two.fp
	run --separate-stderr bash -c '"$NEARDUP" cluster <one.fp'
	assert_exit OK
	assert_output ''
	cl one.fp two.fp
	assert_output "$(groups 'c/a.txt c/a-copy.txt' 'c/b.txt c/b-copy.txt')"
	run --separate-stderr bash -c '"$NEARDUP" cluster two.fp - <one.fp'
	assert_output "$(groups 'c/b-copy.txt c/b.txt' 'c/a-copy.txt c/a.txt')"
}

@test "cluster-014: simhash: pairs within -d bits (default 3) join, transitively" {
	corpus
	# Distances: a-copy 0 from a; a-01 9 from a, 10 from a-05; a-05 13
	# from a; b-copy 0 from b; b-01 7 from b; unrelated 25 or more.
	neardup hash -r c >fps.fp
	cl fps.fp
	assert_exit OK
	assert_output "$(groups "$A2" "$B2")"
	cl -d 0 fps.fp
	assert_output "$(groups "$A2" "$B2")"
	cl -d 7 fps.fp
	assert_output "$(groups "$A2" "$B3")"
	cl -d 9 fps.fp
	assert_output "$(groups "$A3" "$B3")"
	cl --distance=10 fps.fp
	assert_output "$(groups "$A4" "$B3")"
	cl -d 20 fps.fp
	assert_output "$(groups "$A4" "$B3")"
	neardup hash -k 128 -r c >fps128.fp
	cl -d 64 fps128.fp
	assert_exit OK
	cl -v fps128.fp
	assert_stderr_line '^neardup: 10 fingerprints of nd1-simhash128-w3-fs-s0; pairs within 3 bits$'
}

@test "cluster-015: simhash: the similarity is the cosine of the distance" {
	corpus
	neardup hash c/a.txt c/a-01.txt >fps.fp
	cl -d 9 --format=tsv fps.fp
	assert_exit OK
	# 9 bits of 64: cos(9 pi / 64), an estimate: no documents at hand.
	assert_output "$(printf '1\tc/a.txt\t1.000000\tkept\n1\tc/a-01.txt\t%.6f\testimate' \
	    "$(awk 'BEGIN { printf "%.9f", cos(9 * atan2(0, -1) / 64) }')")"
}

# keygroups FILE: the groups of equal keys in key fingerprint lines,
# computed apart from neardup: in order of their first line.
keygroups() {
	awk '{ split($0, f, "  "); k = f[1]
	    if (!(k in seen)) { seen[k] = ++nk; order[nk] = k }
	    m[k] = m[k] "\n" f[2]; c[k]++ }
	    END { sep = ""; for (i = 1; i <= nk; i++) if (c[order[i]] > 1) {
	        printf "%s%s\n", sep, substr(m[order[i]], 2); sep = "\n" } }' "$1"
}

@test "cluster-016: key: equal keys, in any order; with --sorted, from sorted input" {
	corpus
	neardup hash -a key -k 3 -r c >keys.fp
	keygroups keys.fp >want
	[ -s want ] || fail "no two equal keys: the test is too weak"
	cl keys.fp
	assert_exit OK
	assert_stderr_empty
	assert_output "$(cat want)"
	# Exact copies have equal keys; the unrelated texts do not.
	assert_output --partial "$(groups "$A2")"
	refute_output --partial c/c.txt
	LC_ALL=C sort keys.fp >sorted.fp
	keygroups sorted.fp >want
	cl --sorted sorted.fp
	assert_exit OK
	assert_stderr_empty
	assert_output "$(cat want)"
	run --separate-stderr bash -c '"$NEARDUP" hash -a key -k 3 -r c | LC_ALL=C sort | "$NEARDUP" cluster --sorted'
	assert_exit OK
	assert_output "$(cat want)"
	# -k 1: the least hash alone; a-01 then shares a's key, with a
	# probability of 0.95.
	neardup hash -a key -k 1 -r c >k1.fp
	keygroups k1.fp >want
	cl k1.fp
	assert_output "$(cat want)"
}

@test "cluster-017: key --sorted -z: names with a backslash or newline sort with their key" {
	corpus
	cp c/a.txt $'c/n\nl'
	cp c/a.txt 'c/b\s'
	run --separate-stderr bash -c '"$NEARDUP" hash -z -a key -r c | LC_ALL=C sort -z | "$NEARDUP" cluster -z --sorted | tr "\0" "|"'
	assert_exit OK
	assert_stderr_empty
	assert_output --partial $'|c/a-copy.txt|c/a.txt|c/b\\s|c/n\nl|'
}

@test "cluster-018: a 20-word text and its copy with one word added (resemblance 0.95) join under every scheme" {
	local a n missed=
	awk 'BEGIN { for (i = 1; i <= 20; i++) printf "w%d ", i * 7919 % 100003; print "" }' >base.txt
	for a in oph minhash bottomk; do
		for ((n = 1; n <= 40; n++)); do
			{ cat base.txt; echo "extra$n"; } >v.txt
			run neardup cluster -r -a "$a" base.txt v.txt
			assert_exit OK
			[ -n "$output" ] || missed+=" $a:extra$n"
		done
	done
	# A new shingle may take the first place among the smallest hashes
	# and shift the others: bottom-k bands must still meet.
	[ -z "$missed" ] || fail "apart:$missed"
}

# ---- --lsh --------------------------------------------------------------------

@test "cluster-020: --lsh sets the bands: 1x128 joins identical fingerprints only, 32x4 finds more candidates" {
	corpus
	neardup hash -a oph -r c >fps.fp
	cl -v --lsh=1x128 fps.fp
	assert_exit OK
	assert_output "$(groups "$A2" "$B2")"
	assert_stderr_line '; 1 band x 128 rows, '
	cl -v -t 0.8 --lsh=32x4 fps.fp
	assert_exit OK
	assert_output "$(groups "$A3" "$B3")"
	assert_stderr_line "^neardup: 10 fingerprints of $OPH; 32 bands x 4 rows, P\(0\.80\) = 1\.000, P\(0\.90\) = 1\.000\$"
	# The candidates still need an estimate of at least t.
	cl -t 0.7 --lsh 32x4 fps.fp
	assert_output "$(groups "$A4" "$B3")"
	neardup hash -a minhash -r c >mh.fp
	cl -t 0.8 --lsh=16x8 mh.fp
	assert_exit OK
	assert_output "$(groups "$A3" "$B3")"
}

@test "cluster-021: --lsh errors: bad form, 0, more rows than values, not minhash or oph" {
	corpus
	neardup hash -a oph -r c >fps.fp
	usage_error --lsh=3 fps.fp
	assert_stderr_line '^neardup: --lsh: 3: expected BxR, bands x rows$'
	usage_error --lsh=0x3 fps.fp
	assert_stderr_line '^neardup: --lsh: 0x3: too small'
	usage_error --lsh=axb fps.fp
	trouble --lsh=20x7 fps.fp
	assert_stderr_line '^neardup: --lsh: 20 x 7 rows is more than the 128 values of a fingerprint$'
	neardup hash -a bottomk -r c >bk.fp
	trouble --lsh=2x2 bk.fp
	assert_stderr_line '^neardup: --lsh: bands apply to minhash and oph fingerprints$'
	neardup hash -r c >sh.fp
	trouble --lsh=2x2 sh.fp
	assert_stderr_line '^neardup: --lsh: bands apply to minhash and oph fingerprints$'
}

# ---- -v ------------------------------------------------------------------------

@test "cluster-022: -v writes the scheme, the bands and the pair counts on stderr only" {
	corpus
	neardup hash -a oph -r c >fps.fp
	local want
	want=$(neardup cluster fps.fp)
	cl -v fps.fp
	assert_exit OK
	assert_output "$want"
	assert_equal "${#stderr_lines[@]}" 2
	assert_stderr_line "^neardup: 10 fingerprints of $OPH; 21 bands x 3 rows, P\(0\.50\) = 0\.939, P\(0\.60\) = 0\.994\$"
	# Fingerprint lines, no --verify: nothing confirmed exactly.
	assert_stderr_line '^neardup: [0-9]+ candidate pairs, 5 confirmed, 0 by the exact resemblance$'
	cl -v -t 0.8 fps.fp
	assert_stderr_line "^neardup: 10 fingerprints of $OPH; 14 bands x 9 rows, P\(0\.80\) = 0\.867, P\(0\.90\) = 0\.999\$"
	assert_stderr_line '^neardup: [0-9]+ candidate pairs, 4 confirmed, 0 by the exact resemblance$'
	cl --verbose fps.fp
	assert_stderr_line '^neardup: 10 fingerprints of '
	cl fps.fp
	assert_stderr_empty
}

@test "cluster-023: -v: the bands meet the recall bar at t + 0.1 and minimize the weighted S-curve areas" {
	command -v python3 >/dev/null || skip "no python3"
	corpus
	neardup hash -a oph -r c >fps.fp
	local t b r p
	for t in 0.3 0.5 0.7 0.8; do
		cl -v -t "$t" fps.fp
		assert_exit OK
		[[ ${stderr_lines[0]} =~ \;\ ([0-9]+)\ bands\ x\ ([0-9]+)\ rows,\ P\(([0-9.]+)\)\ =\ [0-9.]+,\ P\(([0-9.]+)\)\ =\ ([0-9.]+)$ ]] ||
		    fail "-t $t: no bands in: ${stderr_lines[0]}"
		b=${BASH_REMATCH[1]} r=${BASH_REMATCH[2]} p=${BASH_REMATCH[5]}
		assert_equal "${BASH_REMATCH[3]}" "$(printf '%.2f' "$t")"
		((b * r <= 128)) || fail "-t $t: $b x $r is more than 128 values"
		awk -v p="$p" 'BEGIN { exit !(p >= 0.99) }' ||
		    fail "-t $t: P(t + 0.1) = $p is below the recall bar 0.99"
		python3 - "$t" "$b" "$r" <<'EOF' || fail "-t $t: $b x $r is not the datasketch choice"
import sys
t, b0, r0 = float(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
P = lambda s, b, r: 1 - (1 - s ** r) ** b
def area(f, lo, hi, n=400):
    h = (hi - lo) / n
    return h / 3 * sum(f(lo + i * h) * (1 if i in (0, n) else 4 if i % 2 else 2)
                       for i in range(n + 1))
cost = lambda b, r: (0.1 * area(lambda x: P(x, b, r), 0, t)
                     + 0.9 * area(lambda x: 1 - P(x, b, r), t, 1))
ok = [(cost(b, r), b, r) for b in range(1, 129) for r in range(1, 128 // b + 1)
      if P(t + 0.1, b, r) >= 0.99]
best = min(ok)
sys.exit(0 if cost(b0, r0) <= best[0] * (1 + 1e-6) else 1)
EOF
	done
}

@test "cluster-024: -v for bottomk, simhash and key" {
	corpus
	neardup hash -a bottomk -r c >bk.fp
	cl -v -t 0.8 bk.fp
	assert_exit OK
	assert_stderr_line '^neardup: 10 fingerprints of nd1-bottomk128-w3-fs-s0; the 2 smallest hashes as bands$'
	# ceil(log 0.01 / log 0.4) = 6 at -t 0.5.
	cl -v -t 0.5 bk.fp
	assert_stderr_line '; the 6 smallest hashes as bands$'
	neardup hash -r c >sh.fp
	cl -v -d 5 sh.fp
	assert_stderr_line '^neardup: 10 fingerprints of nd1-simhash64-w3-fs-s0; pairs within 5 bits$'
	neardup hash -a key -r c >k.fp
	cl -v k.fp
	assert_stderr_line '^neardup: 10 fingerprints of nd1-key3-w3-fs-s0$'
}

# ---- output formats ----------------------------------------------------------------

@test "cluster-030: groups: one name a line, one blank line between groups, none before or after" {
	corpus
	neardup cluster -t 0.8 -r c >out
	printf '%s\n' c/a-01.txt c/a-copy.txt c/a.txt '' c/b-01.txt c/b-copy.txt c/b.txt >want
	cmp want out || fail "groups: $(cat -A out)"
	neardup cluster -t 0.8 --format=groups -r c >out
	cmp want out
	# Nothing to group: no output at all, and exit 0.
	cl -t 0.8 -r c/c.txt c/d.txt
	assert_exit OK
	assert_output ''
	neardup cluster -t 0.8 -r c/c.txt c/d.txt >out
	[ ! -s out ] || fail "output for no group: $(od -c out)"
}

@test "cluster-031: tsv: CLUSTER, NAME, SIMILARITY to the kept one, which comes first with 1, BASIS" {
	corpus
	neardup hash -a oph -r c >fps.fp
	cl -t 0.8 --format=tsv fps.fp
	assert_exit OK
	assert_stderr_empty
	assert_equal "${#lines[@]}" 6
	run awk -F '\t' 'NF != 4' <<<"$output"
	assert_output ''
	# Fingerprint lines without --verify: the estimates, so said.
	cl -t 0.8 --format=tsv fps.fp
	assert_line --index 0 $'1\tc/a-01.txt\t1.000000\tkept'
	assert_line --index 1 "$(printf '1\tc/a-copy.txt\t%s\testimate' "$(est c/a-01.txt c/a-copy.txt)")"
	assert_line --index 2 "$(printf '1\tc/a.txt\t%s\testimate' "$(est c/a-01.txt c/a.txt)")"
	assert_line --index 3 $'2\tc/b-01.txt\t1.000000\tkept'
	assert_line --index 4 "$(printf '2\tc/b-copy.txt\t%s\testimate' "$(est c/b-01.txt c/b-copy.txt)")"
	assert_line --index 5 "$(printf '2\tc/b.txt\t%s\testimate' "$(est c/b-01.txt c/b.txt)")"
	# Another kept one: it comes first, the others follow in input order.
	tac fps.fp >rev.fp
	cl -t 0.8 --format=tsv --keep=path rev.fp
	assert_output "$(printf '%s\t%s\t%s\t%s\n' \
	    1 c/b-01.txt 1.000000 kept \
	    1 c/b.txt "$(est c/b-01.txt c/b.txt)" estimate \
	    1 c/b-copy.txt "$(est c/b-01.txt c/b-copy.txt)" estimate \
	    2 c/a-01.txt 1.000000 kept \
	    2 c/a.txt "$(est c/a-01.txt c/a.txt)" estimate \
	    2 c/a-copy.txt "$(est c/a-01.txt c/a-copy.txt)" estimate)"
}

@test "cluster-032: json: an array of {cluster, kept, members: [{name, similarity, basis}]}, the kept one first" {
	corpus
	neardup hash -a oph -r c >fps.fp
	cl -t 0.8 --format=json fps.fp
	assert_exit OK
	assert_stderr_empty
	jq_true 'type == "array" and length == 2'
	jq_true 'all(.[]; keys == ["cluster", "kept", "members"])'
	jq_true '[.[].cluster] == [1, 2]'
	jq_true '[.[].kept] == ["c/a-01.txt", "c/b-01.txt"]'
	jq_true 'all(.[]; .members[0].name == .kept and .members[0].similarity == 1 and .members[0].basis == "kept")'
	jq_true '[.[0].members[].name] == ["c/a-01.txt", "c/a-copy.txt", "c/a.txt"]'
	jq_true 'all(.[].members[]; keys_unsorted == ["name", "similarity", "basis"] and (.similarity | type) == "number")'
	jq_true 'all(.[].members[1:][]; .basis == "estimate")'
	jq_true ".[0].members[2].similarity == $(est c/a-01.txt c/a.txt)"
	# No group: an empty array.
	cl -t 0.8 --format=json -r c/c.txt c/d.txt
	assert_exit OK
	assert_output '[]'
}

@test "cluster-033: --pairs: every confirmed pair once, in input order, with its estimate" {
	corpus
	neardup hash -a oph -r c >fps.fp
	cl -t 0.8 --pairs fps.fp
	assert_exit OK
	assert_stderr_empty
	assert_output "$(printf '%s\t%s\t%s\testimate\n' \
	    c/a-01.txt c/a-copy.txt "$(est c/a-01.txt c/a-copy.txt)" \
	    c/a-01.txt c/a.txt "$(est c/a-01.txt c/a.txt)" \
	    c/a-copy.txt c/a.txt 1.000000 \
	    c/b-01.txt c/b-copy.txt "$(est c/b-01.txt c/b-copy.txt)" \
	    c/b-01.txt c/b.txt "$(est c/b-01.txt c/b.txt)" \
	    c/b-copy.txt c/b.txt 1.000000)"
	cl --pairs -t 1 fps.fp
	assert_output "$(printf '%s\t%s\t1.000000\testimate\n' c/a-copy.txt c/a.txt c/b-copy.txt c/b.txt)"
	cl -t 0.8 --pairs --format=json fps.fp
	assert_exit OK
	jq_true 'length == 6 and all(.[]; keys_unsorted == ["a", "b", "similarity", "basis"])'
	jq_true '.[2] == {"a": "c/a-copy.txt", "b": "c/a.txt", "similarity": 1, "basis": "estimate"}'
	cl -t 0.8 --pairs --format=json -r c/c.txt c/d.txt
	assert_output '[]'
	neardup hash -r c >sh.fp
	cl --pairs -d 9 sh.fp
	assert_line --index 0 "$(printf 'c/a-01.txt\tc/a-copy.txt\t%s\testimate' "$(awk 'BEGIN { printf "%.6f", cos(9 * atan2(0, -1) / 64) }')")"
}

@test "cluster-034: -z: NUL-ended records, an empty record between groups" {
	corpus
	neardup cluster -t 0.8 -z -r c >out
	printf '%s\0' c/a-01.txt c/a-copy.txt c/a.txt '' c/b-01.txt c/b-copy.txt c/b.txt >want
	cmp want out || fail "-z: $(od -c out)"
	neardup cluster -t 0.8 --null-data --format=tsv -r c/a.txt c/a-copy.txt >out
	printf '1\tc/a.txt\t1.000000\tkept\0001\tc/a-copy.txt\t1.000000\texact\0' >want
	cmp want out || fail "-z tsv: $(od -c out)"
	neardup cluster -t 0.8 -z --pairs -r c/a.txt c/a-copy.txt >out
	printf 'c/a.txt\tc/a-copy.txt\t1.000000\texact\0' >want
	cmp want out || fail "-z --pairs: $(od -c out)"
}

@test "cluster-035: -z reads NUL-ended fingerprint lines, as hash -z writes them" {
	corpus
	cp c/a.txt $'c/n\nl'
	neardup hash -z -a oph c/a.txt $'c/n\nl' c/c.txt >fps.zfp
	neardup cluster -z fps.zfp >out
	printf '%s\0' c/a.txt $'c/n\nl' >want
	cmp want out || fail "-z: $(od -c out)"
	# The same lines read without -z are one line with a NUL in it.
	cl fps.zfp
	assert_exit TROUBLE
}

@test "cluster-036: --all shows the documents without near-duplicates, each a group of its own" {
	corpus
	cl -t 0.8 --all -r c
	assert_exit OK
	assert_output "$(groups "$A3" c/a-05.txt c/a-30.txt "$B3" c/c.txt c/d.txt)"
	cl -t 0.8 --all --format=tsv -r c
	assert_line --index 3 $'2\tc/a-05.txt\t1.000000\tkept'
	assert_line --index 9 $'6\tc/d.txt\t1.000000\tkept'
	assert_equal "${#lines[@]}" 10
	cl -t 0.8 --all --format=json -r c
	jq_true 'length == 6 and ([.[].members | length] == [3, 1, 1, 3, 1, 1])'
}

# ---- which to keep ----------------------------------------------------------------

@test "cluster-040: --keep=first (the default) keeps the first in input order" {
	corpus
	neardup hash -a oph c/b.txt c/a.txt c/b-01.txt c/a-copy.txt >fps.fp
	cl --format=tsv fps.fp
	assert_exit OK
	assert_equal "${#lines[@]}" 4
	assert_line --index 0 $'1\tc/b.txt\t1.000000\tkept'
	assert_line --index 2 $'2\tc/a.txt\t1.000000\tkept'
	cl --keep=first fps.fp
	assert_output "$(groups 'c/b.txt c/b-01.txt' 'c/a.txt c/a-copy.txt')"
}

@test "cluster-041: --keep=path keeps the least name in byte order; --keep=longest and shortest go by file size" {
	corpus
	# Same words, different sizes: spaces are not words.
	sed 's/ /   /g' c/b.txt >c/b-wide.txt
	sed 's/ /  /g' c/b.txt >c/b-mid.txt
	neardup hash -a oph c/b-mid.txt c/b.txt c/b-wide.txt c/a.txt c/a-copy.txt >fps.fp
	cl -t 0.8 --format=tsv --keep=path fps.fp
	assert_exit OK
	assert_line --index 0 $'1\tc/b-mid.txt\t1.000000\tkept'
	assert_line --index 3 $'2\tc/a-copy.txt\t1.000000\tkept'
	cl -t 0.8 --format=tsv --keep=longest fps.fp
	assert_exit OK
	assert_line --index 0 $'1\tc/b-wide.txt\t1.000000\tkept'
	assert_line --index 1 $'1\tc/b-mid.txt\t1.000000\testimate'
	assert_line --index 2 $'1\tc/b.txt\t1.000000\testimate'
	cl -t 0.8 --format=tsv --keep=shortest fps.fp
	assert_line --index 0 $'1\tc/b.txt\t1.000000\tkept'
	assert_line --index 1 $'1\tc/b-mid.txt\t1.000000\testimate'
	assert_line --index 2 $'1\tc/b-wide.txt\t1.000000\testimate'
	# Equal sizes: the first in input order.
	assert_line --index 3 $'2\tc/a.txt\t1.000000\tkept'
	# a-01 is shorter than a and a-copy, which are of one size.
	cl -t 0.8 --keep=longest --dups -r c
	assert_output "$(printf '%s\n' c/a-01.txt c/a.txt c/b-01.txt c/b-copy.txt c/b-mid.txt c/b.txt)"
}

@test "cluster-042: --keep=longest on names that are not files: exit 2" {
	corpus
	neardup hash -a oph c/a.txt c/a-copy.txt >fps.fp
	mkdir elsewhere
	cd elsewhere
	run --separate-stderr neardup cluster --keep=longest ../fps.fp
	assert_exit TROUBLE
	assert_stderr_line '^neardup: --keep: c/a\.txt: No such file or directory$'
}

@test "cluster-043: --dups prints all but the kept one of each group, a flat list; --uniques the kept ones and the rest" {
	corpus
	cl -t 0.8 --dups -r c
	assert_exit OK
	assert_stderr_empty
	assert_output "$(printf '%s\n' c/a-copy.txt c/a.txt c/b-copy.txt c/b.txt)"
	neardup hash -a oph -r c | tac >rev.fp
	cl -t 0.8 --dups --keep=path rev.fp
	assert_output "$(printf '%s\n' c/b.txt c/b-copy.txt c/a.txt c/a-copy.txt)"
	cl -t 0.8 --uniques -r c
	assert_exit OK
	assert_output "$(printf '%s\n' c/a-01.txt c/a-05.txt c/a-30.txt c/b-01.txt c/c.txt c/d.txt)"
	# In order of each group's first member: a.txt comes before a-30.
	cl -t 0.8 --uniques --keep=path rev.fp
	assert_output "$(printf '%s\n' c/d.txt c/c.txt c/b-01.txt c/a-01.txt c/a-30.txt c/a-05.txt)"
	cl -t 0.8 --uniques rev.fp
	assert_output "$(printf '%s\n' c/d.txt c/c.txt c/b.txt c/a.txt c/a-30.txt c/a-05.txt)"
	# Every document is in exactly one of the two lists.
	run bash -c 'cd "$1" && { "$NEARDUP" cluster -t 0.8 --dups -r c; "$NEARDUP" cluster -t 0.8 --uniques -r c; } | sort' _ "$BATS_TEST_TMPDIR"
	assert_output "$(find c -type f | sort)"
	neardup cluster -t 0.8 --dups -z -r c/a.txt c/a-copy.txt c/b.txt c/b-copy.txt >out
	printf 'c/a-copy.txt\0c/b-copy.txt\0' >want
	cmp want out || fail "--dups -z: $(od -c out)"
}

@test "cluster-044: --dups -z | xargs -0 rm leaves one document per group, whatever the names" {
	corpus
	cp c/a.txt 'c/a copy'
	cp c/a.txt $'c/a\nnewline'
	cp c/b.txt $'c/b\ttab'
	cp c/b.txt 'c/-b dash'
	run bash -c 'cd "$1" && "$NEARDUP" cluster -t 0.8 --dups -z -r c | xargs -0 rm --' _ "$BATS_TEST_TMPDIR"
	assert_exit OK
	# One of each group is left, the one --keep=first keeps, and every
	# document without near-duplicates.
	run bash -c 'find c -type f -print0 | LC_ALL=C sort -z | tr "\0\n" "|~"'
	assert_output "$(printf '%s|' 'c/-b dash' 'c/a~newline' c/a-05.txt c/a-30.txt c/c.txt c/d.txt)"
	cl -t 0.8 -r c
	assert_exit OK
	assert_output ''
}

@test "cluster-045: --dups, --uniques with the other formats: valid JSON" {
	corpus
	cl --dups --format=json -r c
	assert_exit OK
	jq -e . <<<"$output" >/dev/null || fail "--dups --format=json is not JSON: $output"
	cl --uniques --format=json -r c
	assert_exit OK
	jq -e . <<<"$output" >/dev/null || fail "--uniques --format=json is not JSON: $output"
}

@test "cluster-046: --dups and --uniques exclude each other; either may be repeated" {
	corpus
	usage_error --dups --uniques -r c
	assert_stderr_line '^neardup: --dups and --uniques exclude each other$'
	usage_error --uniques --dups -r c
	assert_stderr_line '^neardup: --dups and --uniques exclude each other$'
	cl -t 0.8 --dups --dups -r c
	assert_exit OK
	assert_output "$(printf '%s\n' c/a-copy.txt c/a.txt c/b-copy.txt c/b.txt)"
	cl -t 0.8 --uniques --uniques -r c
	assert_exit OK
}

# ---- hash --bands and cluster --bands -------------------------------------------

@test "cluster-050: hash --bands: one BANDKEY<TAB>NAME line per band, SCHEME/BxR/I:HEX" {
	corpus
	run --separate-stderr neardup hash --bands -t 0.8 -a oph c/a.txt c/b.txt
	assert_exit OK
	assert_stderr_empty
	assert_equal "${#lines[@]}" 28
	local i
	for ((i = 0; i < 14; i++)); do
		assert_line --index "$i" --regexp "^$OPH/14x9/$i:[0-9a-f]{16}	c/a\\.txt\$"
		assert_line --index "$((i + 14))" --regexp "^$OPH/14x9/$i:[0-9a-f]{16}	c/b\\.txt\$"
	done
	# The bands are those cluster -v chooses at the same threshold.
	local t b r
	neardup hash -a minhash -r c >mh.fp
	for t in 0.5 0.8 0.9; do
		cl -v -t "$t" mh.fp
		[[ ${stderr_lines[0]} =~ \;\ ([0-9]+)\ bands\ x\ ([0-9]+)\ rows ]] || fail "no bands: $stderr"
		b=${BASH_REMATCH[1]} r=${BASH_REMATCH[2]}
		run neardup hash --bands -a minhash -t "$t" c/a.txt
		assert_exit OK
		assert_equal "${#lines[@]}" "$b"
		assert_line --index 0 --regexp "^nd1-minhash128-w3-fs-s0/${b}x$r/0:[0-9a-f]{16}	c/a\\.txt\$"
	done
	run neardup hash --bands -a minhash --lsh=4x8 -k 64 c/a.txt
	assert_exit OK
	assert_equal "${#lines[@]}" 4
	assert_line --index 3 --regexp '^nd1-minhash64-w3-fs-s0/4x8/3:[0-9a-f]{16}	c/a\.txt$'
}

@test "cluster-051: hash --bands: equal documents have equal keys, near ones some, unrelated ones none" {
	corpus
	neardup hash --bands -t 0.8 -a oph c/a.txt | cut -f 1 >a.keys
	neardup hash --bands -t 0.8 -a oph c/a-copy.txt | cut -f 1 >copy.keys
	neardup hash --bands -t 0.8 -a oph c/a-01.txt | cut -f 1 >a01.keys
	neardup hash --bands -t 0.8 -a oph c/c.txt | cut -f 1 >c.keys
	cmp a.keys copy.keys
	run comm -12 a.keys a01.keys
	[ "${#lines[@]}" -ge 1 ] || fail "a-01 shares no band with a"
	[ "${#lines[@]}" -lt 14 ] || fail "a-01 shares every band with a"
	run comm -12 <(sort a.keys) <(sort c.keys)
	assert_output ''
	# -z: NUL-ended lines, names raw; otherwise escaped as in TSV.
	cp c/a.txt $'c/t\tn\nb\\'
	neardup hash --bands -a oph --lsh=2x4 $'c/t\tn\nb\\' >out
	run cut -f 2- out
	assert_output "$(printf '%s\n' 'c/t\tn\nb\\' 'c/t\tn\nb\\')"
	neardup hash -z --bands -a oph --lsh=2x4 $'c/t\tn\nb\\' >out
	run bash -c 'tr "\0" "|" <out | sed "s/[0-9a-f]\{16\}/K/g"'
	assert_output "$(printf '%s/2x4/0:K\tc/t\tn\nb\\|%s/2x4/1:K\tc/t\tn\nb\\|' "$OPH" "$OPH")"
}

@test "cluster-052: hash --bands errors: another scheme, -t or --lsh without --bands, both, too many rows" {
	corpus
	run --separate-stderr neardup hash --bands c/a.txt
	assert_exit TROUBLE
	assert_output ''
	assert_stderr_line '^neardup: --bands: needs -a minhash or -a oph$'
	run --separate-stderr neardup hash --bands -a bottomk c/a.txt
	assert_exit TROUBLE
	assert_stderr_line '^neardup: --bands: needs -a minhash or -a oph$'
	run --separate-stderr neardup hash -a oph -t 0.8 c/a.txt
	assert_exit TROUBLE
	assert_stderr_line '^neardup: -t and --lsh apply to --bands$'
	run --separate-stderr neardup hash -a oph --lsh=2x2 c/a.txt
	assert_exit TROUBLE
	assert_stderr_line '^neardup: -t and --lsh apply to --bands$'
	run --separate-stderr neardup hash --bands -a oph -t 0.8 --lsh=2x2 c/a.txt
	assert_exit TROUBLE
	assert_stderr_line '^neardup: --bands: give -t or --lsh, not both$'
	run --separate-stderr neardup hash --bands -a oph --lsh=20x7 c/a.txt
	assert_exit TROUBLE
	assert_output ''
	assert_stderr_line '^neardup: --lsh: 20 x 7 rows is more than the 128 values of a fingerprint$'
	local t
	for t in 0 1.5 abc; do
		run --separate-stderr neardup hash --bands -a oph -t "$t" c/a.txt
		assert_exit TROUBLE
		assert_output ''
		assert_stderr_line "^neardup: -t: $t: not a number in \\(0, 1\\]\$"
	done
}

@test "cluster-053: cluster --bands joins documents that share a band key" {
	corpus
	neardup hash --bands -t 0.8 -a oph -r c >c.bands
	cl --bands c.bands
	assert_exit OK
	assert_stderr_empty
	assert_output "$(groups "$A3" "$B3")"
	# Any order of the lines: the groups come in order of first appearance.
	LC_ALL=C sort c.bands >sorted.bands
	cl --bands sorted.bands
	assert_exit OK
	run bash -c 'tr "\n" " " <<<"$1"' _ "$output"
	[[ $output == *"c/a-01.txt c/a-copy.txt c/a.txt"* ]] || fail "group a: $output"
	[[ $output == *"c/b-01.txt c/b-copy.txt c/b.txt"* ]] || fail "group b: $output"
	run bash -c '"$NEARDUP" cluster --bands <c.bands'
	assert_output "$(groups "$A3" "$B3")"
	# No fingerprints, no similarity but the kept one's own: - - in tsv,
	# null in json.
	cl --bands --format=tsv c.bands
	assert_line --index 0 $'1\tc/a-01.txt\t1.000000\tkept'
	assert_line --index 1 $'1\tc/a-copy.txt\t-\t-'
	assert_equal "${#lines[@]}" 6
	run awk -F '\t' '$4 != "kept" && ($3 != "-" || $4 != "-")' <<<"$output"
	assert_output ''
	cl --bands --format=json c.bands
	jq_true 'length == 2 and all(.[].members[1:][]; .similarity == null and .basis == null)'
	jq_true 'all(.[]; .members[0] == {"name": .kept, "similarity": 1, "basis": "kept"})'
	jq_true '.[1].kept == "c/b-01.txt"'
	cl --bands --dups c.bands
	assert_output "$(printf '%s\n' c/a-copy.txt c/a.txt c/b-copy.txt c/b.txt)"
}

@test "cluster-054: cluster --bands: no confirmation, so a candidate at 0.75 joins where fingerprints would not" {
	corpus
	neardup hash -a oph -r c >fps.fp
	neardup hash --bands -a oph --lsh=32x4 -r c >c.bands
	cl -t 0.8 --lsh=32x4 fps.fp
	assert_output "$(groups "$A3" "$B3")"
	cl --bands c.bands
	assert_exit OK
	assert_output "$(groups "$A4" "$B3")"
}

@test "cluster-055: cluster --bands --sorted: each run of one band key is a group" {
	corpus
	neardup hash --bands -t 0.8 -a oph -r c | LC_ALL=C sort >sorted.bands
	cl --bands --sorted sorted.bands
	assert_exit OK
	assert_stderr_empty
	# a and a-copy share all 14 keys, so a.txt is in 14 groups, each
	# with a-copy; the same for b.  The others are there only with them.
	run bash -c 'awk "BEGIN { RS = \"\" } /c\\/a\\.txt/ { n++ } END { print n }" <<<"$1"' _ "$output"
	assert_output 14
	cl --bands --sorted sorted.bands
	run bash -c 'awk "BEGIN { RS = \"\"; FS = \"\\n\" } { \$1 = \$1; print }" <<<"$1" | sort | uniq -c | awk "{ \$1 = \"\"; print substr(\$0, 2) }" | sort' _ "$output"
	assert_output "$(printf '%s\n' "$A3" "$A2" "$B3" "$B2" | sort)"
	cl --bands --sorted --format=tsv sorted.bands
	run bash -c 'cut -f 1 <<<"$1" | sort -un | wc -l' _ "$output"
	assert_output 28
	run bash -c '"$NEARDUP" cluster --bands --sorted <sorted.bands | grep -c "^\$"'
	assert_output 27
}

@test "cluster-056: cluster --bands and --bands --sorted with -z" {
	corpus
	cp c/a.txt $'c/n\nl'
	neardup hash -z --bands -t 0.8 -a oph c/a.txt $'c/n\nl' c/c.txt >z.bands
	neardup cluster -z --bands z.bands >out
	printf '%s\0' c/a.txt $'c/n\nl' >want
	cmp want out || fail "--bands -z: $(od -c out)"
	LC_ALL=C sort -z z.bands >zs.bands
	# 14 groups of the two, one per band, an empty record between groups.
	neardup cluster -z --bands --sorted zs.bands >out
	run bash -c 'tr "\0" "|" <out'
	assert_output "$(printf 'c/a.txt|c/n\nl||%.0s' {1..14} | sed 's/||$/|/')"
}

@test "cluster-057: --sorted on unsorted input: file:line: input is not sorted, exit 2" {
	corpus
	neardup hash --bands -a oph -r c >c.bands
	cl --bands --sorted c.bands
	assert_exit TROUBLE
	assert_stderr_line '^neardup: c\.bands:[0-9]+: input is not sorted \(sort it with LC_ALL=C sort\)$'
	neardup hash -a key -r c | LC_ALL=C sort -r >rev.fp
	cl --sorted rev.fp
	assert_exit TROUBLE
	assert_stderr_line '^neardup: rev\.fp:2: input is not sorted \(sort it with LC_ALL=C sort\)$'
	# The order holds across files: the second starts below the first's end.
	LC_ALL=C sort rev.fp >sorted.fp
	head -n 1 sorted.fp >low.fp
	run --separate-stderr bash -c '"$NEARDUP" cluster --sorted - low.fp <sorted.fp'
	assert_exit TROUBLE
	assert_stderr_line '^neardup: low\.fp:1: input is not sorted '
}

@test "cluster-058: --sorted reads key lines or band lines only" {
	corpus
	neardup hash -a oph -r c | LC_ALL=C sort >oph.fp
	trouble --sorted oph.fp
	assert_stderr_line '^neardup: oph\.fp:1: --sorted groups key fingerprints \(-a key\) or band lines \(--bands\)$'
	neardup hash -a key -r c | LC_ALL=C sort >key.fp
	trouble --bands key.fp
	assert_stderr_line '^neardup: key\.fp:1: expected BANDKEY<TAB>NAME$'
	trouble --bands --sorted key.fp
	assert_stderr_line '^neardup: key\.fp:1: expected BANDKEY<TAB>NAME$'
}

@test "cluster-059: --bands and --sorted read lines: not with documents, --pairs, --lsh, -d, -t, --verify or --transitive" {
	corpus
	neardup hash --bands -a oph -r c | LC_ALL=C sort >s.bands
	local o
	for o in --docs -r --pairs --lsh=2x2 '-d 3' '-t 0.9' --verify --transitive; do
		# shellcheck disable=SC2086
		usage_error --bands $o s.bands
		assert_stderr_line '^neardup: --bands and --sorted group equal keys: no documents, --pairs, --lsh, -d, -t, --verify or --transitive \(the bands were chosen by hash --bands\)$'
		# shellcheck disable=SC2086
		usage_error --sorted $o s.bands
		assert_stderr_line '^neardup: --bands and --sorted group equal keys: '
	done
}

@test "cluster-060: --bands and --sorted with shingling options: a usage error, as without them" {
	corpus
	neardup hash --bands -a oph -r c | LC_ALL=C sort >s.bands
	neardup hash -a key -r c | LC_ALL=C sort >s.fp
	local o
	for o in '-a oph' '-w 5' '-k 64' --multiset; do
		# shellcheck disable=SC2086
		usage_error --bands $o s.bands
		assert_stderr_line '^neardup: shingling options apply to documents'
		# shellcheck disable=SC2086
		usage_error --sorted --bands $o s.bands
		# shellcheck disable=SC2086
		usage_error --sorted $o s.fp
	done
}

# ---- errors -----------------------------------------------------------------

@test "cluster-061: mixed schemes in one input: file:line: both schemes, exit 2" {
	corpus
	neardup hash -a oph c/a.txt c/b.txt >oph.fp
	neardup hash -a minhash c/a.txt >mh.fp
	cat oph.fp mh.fp >mixed.fp
	trouble mixed.fp
	assert_stderr_line "^neardup: mixed\\.fp:3: scheme nd1-minhash128-w3-fs-s0 differs from the first line's $OPH\$"
	trouble oph.fp mh.fp
	assert_stderr_line "^neardup: mh\\.fp:1: scheme nd1-minhash128-w3-fs-s0 differs from the first line's $OPH\$"
	neardup hash -a oph -w 2 c/a.txt >w2.fp
	trouble oph.fp w2.fp
	assert_stderr_line '^neardup: w2\.fp:1: scheme nd1-oph128-w2-fs-s0 differs '
	neardup hash -a key -k 2 c/a.txt c/b.txt >k2.fp
	neardup hash -a key -k 3 c/a.txt >k3.fp
	cat k2.fp k3.fp >kmixed.fp
	trouble kmixed.fp
	assert_stderr_line '^neardup: kmixed\.fp:3: scheme nd1-key3-w3-fs-s0 differs from the first line'"'"'s nd1-key2-w3-fs-s0$'
}

@test "cluster-062: mixed schemes under --sorted: key lines of two schemes, exit 2" {
	corpus
	neardup hash -a key -k 2 c/a.txt >k2.fp
	neardup hash -a key -k 3 c/b.txt >k3.fp
	run --separate-stderr bash -c 'LC_ALL=C sort k2.fp k3.fp | "$NEARDUP" cluster --sorted --all'
	assert_exit TROUBLE
	assert_stderr_line '^neardup: -:2: scheme nd1-key3-w3-fs-s0 differs from the first line'"'"'s nd1-key2-w3-fs-s0$'
}

@test "cluster-063: mixed band layouts in band lines: exit 2, as for fingerprint lines" {
	corpus
	neardup hash --bands -t 0.8 -a oph c/a.txt >t8.bands
	neardup hash --bands -a oph -t 0.5 c/a-copy.txt >t5.bands
	cl --bands --all t8.bands t5.bands
	assert_exit TROUBLE
	assert_stderr_line "^neardup: t5\\.bands:1: band layout $OPH/21x3/ differs from the first line's $OPH/14x9/\$"
	run --separate-stderr bash -c 'LC_ALL=C sort t8.bands t5.bands | "$NEARDUP" cluster --bands --sorted --all'
	assert_exit TROUBLE
	assert_stderr_line "^neardup: -:[0-9]+: band layout $OPH/(21x3|14x9)/ differs from the first line's $OPH/(14x9|21x3)/\$"
}

@test "cluster-064: malformed lines: file:line: what is wrong, nothing on stdout" {
	corpus
	neardup hash -a oph c/a.txt c/a-copy.txt >good.fp
	{ cat good.fp; printf 'garbage\n'; } >bad.fp
	trouble bad.fp
	assert_stderr_line "^neardup: bad\\.fp:3: no ':' after the scheme\$"
	{ head -c 100 good.fp; printf '  short\n'; } >short.fp
	trouble short.fp
	assert_stderr_line '^neardup: short\.fp:1: fingerprint too short for its scheme$'
	sed '2s/:./:g/' good.fp >hex.fp
	trouble hex.fp
	assert_stderr_line '^neardup: hex\.fp:2: bad hex digit in fingerprint$'
	{ cat good.fp; echo; } >blank.fp
	trouble blank.fp
	assert_stderr_line '^neardup: blank\.fp:3: '
	run --separate-stderr bash -c '"$NEARDUP" cluster <bad.fp'
	assert_exit TROUBLE
	assert_stderr_line "^neardup: -:3: no ':' after the scheme\$"
}

@test "cluster-065: -t must be in (0, 1]: 0, 1.5, abc, -1 and empty are usage errors" {
	corpus
	neardup hash -a oph c/a.txt >fps.fp
	local t
	for t in 0 1.5 abc -1 '' 0.5x; do
		usage_error -t "$t" fps.fp
		assert_stderr_line "^neardup: -t: $t: not a number in \\(0, 1\\]\$"
	done
	cl -t 1 fps.fp
	assert_exit OK
	cl -t 0.001 fps.fp
	assert_exit OK
}

@test "cluster-066: shingling options without documents are a usage error" {
	corpus
	neardup hash -a oph c/a.txt >fps.fp
	local o
	for o in '-a oph' '-c 5' '-w 2' '-k 64' '-s 1' --keep-case --keep-punct --multiset --weights=fps.fp; do
		# shellcheck disable=SC2086
		usage_error $o fps.fp
		assert_stderr_line '^neardup: shingling options apply to documents \(--docs, -r\): the scheme of fingerprint lines is in the lines$'
	done
}

@test "cluster-067: -L without -r is a usage error" {
	corpus
	usage_error -L c/a.txt
	assert_stderr_line '^neardup: -L applies to -r$'
	usage_error -L --docs c/a.txt
	assert_stderr_line '^neardup: -L applies to -r$'
}

@test "cluster-068: bad --format, --keep, -d, -j and unknown options are usage errors" {
	corpus
	neardup hash -a oph c/a.txt >fps.fp
	usage_error --format=text fps.fp
	assert_stderr_line '^neardup: --format: text: expected groups, tsv, json or sh$'
	usage_error --keep=last fps.fp
	assert_stderr_line '^neardup: --keep: last: expected first, longest, shortest, path, newest or oldest$'
	usage_error -d x fps.fp
	assert_stderr_line '^neardup: -d: x: '
	usage_error -j 0 -r c
	assert_stderr_line '^neardup: -j: 0: too small'
	usage_error --nosuch fps.fp
	usage_error -x fps.fp
}

@test "cluster-069: -d applies to simhash only, and up to half the bits" {
	corpus
	neardup hash -a oph c/a.txt >oph.fp
	trouble -d 2 oph.fp
	assert_stderr_line '^neardup: -d: applies to simhash fingerprints$'
	neardup hash c/a.txt >sh.fp
	trouble -d 33 sh.fp
	assert_stderr_line '^neardup: -d: 33: too large for 64-bit fingerprints'
	cl -d 32 sh.fp
	assert_exit OK
}

@test "cluster-070: a missing file is reported, the others clustered, exit 2" {
	corpus
	neardup hash -a oph c/a.txt c/a-copy.txt >fps.fp
	cl fps.fp nosuch.fp
	assert_exit TROUBLE
	assert_stderr_line '^neardup: nosuch\.fp: No such file or directory$'
	assert_output "$(groups 'c/a.txt c/a-copy.txt')"
	cl --docs c/a.txt nosuch c/a-copy.txt
	assert_exit TROUBLE
	assert_stderr_line '^neardup: nosuch: No such file or directory$'
	assert_output "$(groups 'c/a.txt c/a-copy.txt')"
	neardup hash --bands -a oph c/a.txt c/a-copy.txt >b.bands
	cl --bands b.bands nosuch
	assert_exit TROUBLE
	assert_output "$(groups 'c/a.txt c/a-copy.txt')"
}

@test "cluster-071: a write error on stdout exits 2" {
	[ -w /dev/full ] || skip "no /dev/full"
	corpus
	assert_write_error cluster -r c
	run --separate-stderr bash -c '"$NEARDUP" hash -a key -r c | LC_ALL=C sort | "$NEARDUP" cluster --sorted --all >/dev/full'
	assert_exit TROUBLE
	assert_stderr_line '^neardup: stdout: '
}

@test "cluster-072: -h prints the usage on stdout, as help cluster does" {
	assert_usage_on_stdout cluster
	assert_output "$(neardup help cluster)"
	assert_output "$(neardup cluster --help)"
}

# ---- names ----------------------------------------------------------------------

@test "cluster-080: names with backslash, tab, newline and CR are escaped in groups, tsv and --pairs" {
	corpus
	mkdir n
	cp c/a.txt n/a
	cp c/a.txt $'n/t\tb'
	cp c/a.txt $'n/n\nl'
	cp c/a.txt 'n/b\s'
	cp c/a.txt $'n/r\rx'
	cl -r n
	assert_exit OK
	assert_output "$(printf '%s\n' 'n/a' 'n/b\\s' 'n/n\nl' 'n/r\rx' 'n/t\tb')"
	cl --format=tsv -r n
	assert_line --index 1 $'1\tn/b\\\\s\t1.000000\texact'
	assert_line --index 2 $'1\tn/n\\nl\t1.000000\texact'
	assert_line --index 4 $'1\tn/t\\tb\t1.000000\texact'
	run awk -F '\t' 'NF != 4' <<<"$output"
	assert_output ''
	cl --pairs --docs n/a n/t*
	assert_output $'n/a\tn/t\\tb\t1.000000\texact'
	# The same names from fingerprint lines, where hash escaped them.
	neardup hash -a oph n/a n/t* n/n* n/b* >fps.fp
	cl fps.fp
	assert_output "$(printf '%s\n' 'n/a' 'n/t\tb' 'n/n\nl' 'n/b\\s')"
}

@test "cluster-081: names in json are the names, decoded" {
	corpus
	cp c/a.txt $'c/t\tb'
	cp c/a.txt $'c/n\nl'
	cp c/a.txt 'c/q"b\s'
	cl --format=json -t 1 -r c/a.txt c/t* c/n* c/q*
	assert_exit OK
	jq_true '.[0].kept == "c/a.txt"'
	jq_true '[.[0].members[].name] == ["c/a.txt", "c/t\tb", "c/n\nl", "c/q\"b\\s"]'
}

# ---- sharding with GNU parallel -------------------------------------------------

# shards_corpus: big/, 8 families of a text, its exact copy and 1% and 5%
# edited copies, and 8 unrelated texts (40 documents); big.list, their
# names in walk order.
shards_corpus() {
	command -v parallel >/dev/null || skip "no GNU parallel"
	local i
	mkdir big
	for i in 1 2 3 4 5 6 7 8; do
		text "$i" >"big/f$i.txt"
		cp "big/f$i.txt" "big/f$i-copy.txt"
		edit "big/f$i.txt" 1 x >"big/f$i-01.txt"
		edit "big/f$i.txt" 5 y >"big/f$i-05.txt"
		text "$((i + 100))" >"big/u$i.txt"
	done
	find big -type f | LC_ALL=C sort >big.list
}

@test "cluster-090: fingerprint lines hashed in shards by GNU parallel and merged: the same bytes as one process" {
	shards_corpus
	local fmt
	neardup hash -a oph -r big | LC_ALL=C sort >whole.fp
	parallel --will-cite -j 4 -N 7 "\"\$NEARDUP\" hash -a oph {} | LC_ALL=C sort >shard.{#}" <big.list
	[ "$(ls shard.* | wc -l)" -eq 6 ] || fail "expected 6 shards: $(ls shard.*)"
	LC_ALL=C sort -m shard.* >merged.fp
	cmp whole.fp merged.fp
	for fmt in groups tsv json; do
		neardup cluster --format="$fmt" whole.fp >whole.out
		neardup cluster --format="$fmt" merged.fp >merged.out
		[ -s whole.out ] || fail "no group"
		cmp whole.out merged.out || fail "--format=$fmt differs: $(diff whole.out merged.out)"
	done
	# The pipeline as a whole, and the groups it finds.
	run bash -c '"$NEARDUP" hash -a oph -r big | LC_ALL=C sort | "$NEARDUP" cluster --format=tsv'
	assert_exit OK
	neardup cluster --format=tsv merged.fp >merged.out
	assert_output "$(cat merged.out)"
	run bash -c '"$NEARDUP" cluster merged.fp | grep -c "^\$"'
	assert_output 7
}

@test "cluster-091: key lines from parallel --pipe shards, merged with sort -m, cluster --sorted: the same bytes" {
	shards_corpus
	# One record per document, ID<TAB>TEXT, so that --pipe may cut
	# between any two lines.
	local f
	while IFS= read -r f; do
		printf '%s\t%s\n' "$f" "$(tr '\n' ' ' <"$f")"
	done <big.list >records.tsv
	neardup hash --tsv -a key -k 2 -w 3 records.tsv | LC_ALL=C sort >whole.fp
	neardup cluster --sorted whole.fp >whole.out
	[ -s whole.out ] || fail "no group"
	parallel --will-cite --pipe -N 6 -j 4 "\"\$NEARDUP\" hash --tsv -a key -k 2 -w 3 | LC_ALL=C sort >part.{#}" <records.tsv
	[ "$(ls part.* | wc -l)" -eq 7 ] || fail "expected 7 shards: $(ls part.*)"
	run bash -c 'LC_ALL=C sort -m part.* | "$NEARDUP" cluster --sorted'
	assert_exit OK
	assert_output "$(cat whole.out)"
	run bash -c 'LC_ALL=C sort -m part.* | "$NEARDUP" cluster --sorted --format=tsv --keep=path'
	assert_output "$(neardup cluster --sorted --format=tsv --keep=path whole.fp)"
}

@test "cluster-092: band lines from GNU parallel shards, merged: cluster --bands --sorted and --bands give the same bytes" {
	shards_corpus
	neardup hash --bands -a oph -r big | LC_ALL=C sort >whole.bands
	parallel --will-cite -j 4 -N 5 "\"\$NEARDUP\" hash --bands -a oph {} | LC_ALL=C sort >shard.{#}" <big.list
	LC_ALL=C sort -m shard.* >merged.bands
	cmp whole.bands merged.bands
	neardup cluster --bands --sorted whole.bands >whole.out
	[ -s whole.out ] || fail "no group"
	run bash -c 'LC_ALL=C sort -m shard.* | "$NEARDUP" cluster --bands --sorted'
	assert_exit OK
	assert_output "$(cat whole.out)"
	neardup cluster --bands whole.bands >whole.out
	run bash -c 'LC_ALL=C sort -m shard.* | "$NEARDUP" cluster --bands'
	assert_output "$(cat whole.out)"
	# Eight families, the exact and 1% copies of each found.
	run bash -c '"$NEARDUP" cluster --bands merged.bands | grep -c "^\$"'
	assert_output 7
	# Their exact and 1% copies at least, unconfirmed 5% copies maybe.
	run bash -c 'LC_ALL=C sort -m shard.* | "$NEARDUP" cluster --bands --dups | wc -l'
	((output >= 16 && output <= 24)) || fail "$output duplicates of 8 families of 4"
}

@test "cluster-093: --keep=longest and shortest refuse names that are not regular files, and list nothing" {
	corpus
	mkdir sub
	line=$(neardup hash -a oph c/a.txt | cut -d' ' -f1)
	printf '%s  c/a.txt\n%s  /dev/null\n%s  sub\n' "$line" "$line" "$line" >fps.fp
	run --separate-stderr neardup cluster --keep=shortest --dups fps.fp
	assert_exit TROUBLE
	assert_output ''
	assert_stderr_line '^neardup: --keep: /dev/null: not a regular file$'
	printf '%s  c/a.txt\n%s  sub\n' "$line" "$line" >fps.fp
	run --separate-stderr neardup cluster --keep=longest --dups fps.fp
	assert_exit TROUBLE
	assert_output ''
	assert_stderr_line '^neardup: --keep: sub: not a regular file$'
}

@test "cluster-094: --pairs is not with --dups, --uniques or --all; -t is not for simhash fingerprints" {
	corpus
	neardup hash -a oph -r c >oph.fp
	for opt in --dups --uniques --all; do
		run --separate-stderr neardup cluster --pairs "$opt" oph.fp
		assert_exit TROUBLE
		assert_output ''
		assert_stderr_line 'not with --dups, --uniques, --all or --keep$'
	done
	neardup hash -r c >sim.fp
	run --separate-stderr neardup cluster -t 0.9 sim.fp
	assert_exit TROUBLE
	assert_output ''
	assert_stderr_line '^neardup: -t: applies to minhash, oph and bottomk '
	run --separate-stderr neardup cluster -t 0.9 oph.fp
	assert_exit OK
}

@test "cluster-095: documents: -d with the others refused before any is read; -t with simhash and key taken" {
	# Documents are confirmed by their exact resemblance, so -t applies
	# to every scheme: the only complaint is the missing file.
	run --separate-stderr neardup cluster -r -a simhash -t 0.9 missing
	assert_exit TROUBLE
	assert_output ''
	assert_equal "$stderr" 'neardup: missing: No such file or directory'
	run --separate-stderr neardup cluster -r -a key -t 0.9 missing
	assert_exit TROUBLE
	assert_equal "$stderr" 'neardup: missing: No such file or directory'
	run --separate-stderr neardup cluster -r -d 3 missing
	assert_exit TROUBLE
	assert_equal "$stderr" 'neardup: -d: applies to simhash fingerprints'
}

@test "cluster-096: a file reached twice (same name, or a symlinked directory) is one member: --dups never lists the only copy" {
	mkdir -p notes/sub
	echo 'my only copy of these notes' >notes/sub/a
	ln -s sub notes/link
	for args in "-rL notes/" "-r notes/ notes/sub" "--docs notes/sub/a notes/sub/a"; do
		run --separate-stderr neardup cluster --dups $args
		assert_exit OK
		assert_output ''
		run --separate-stderr neardup cluster --pairs $args
		assert_exit OK
		assert_output ''
	done
	neardup hash -a oph notes/sub/a notes/sub/a >twice.fp
	run --separate-stderr neardup cluster --dups twice.fp
	assert_exit OK
	assert_output ''
	run --separate-stderr neardup cluster --uniques twice.fp
	assert_output 'notes/sub/a'
	neardup hash -a key notes/sub/a notes/sub/a | LC_ALL=C sort >key.sorted
	run --separate-stderr neardup cluster --sorted --dups key.sorted
	assert_exit OK
	assert_output ''
	neardup hash -a oph --bands notes/sub/a notes/sub/a | LC_ALL=C sort \
	    >bands.sorted
	run --separate-stderr neardup cluster --sorted --bands --dups bands.sorted
	assert_exit OK
	assert_output ''
	# The documented pipeline leaves the notes where they were.
	neardup cluster --dups -z -rL notes/ | xargs -0r rm --
	[ -f notes/sub/a ]
	# A real copy is still a duplicate, and one path of the pair twice is
	# not listed against itself.
	cp notes/sub/a notes/b
	run --separate-stderr neardup cluster -rL notes/
	assert_exit OK
	assert_equal "$(echo "$output" | grep -c .)" 2
	run --separate-stderr neardup cluster --pairs -rL notes/
	assert_equal "$(echo "$output" | grep -c .)" 2
	refute_output --partial $'notes/link/a\tnotes/sub/a'
	# Hard links are two names that each hold the text: still copies.
	mkdir h
	echo 'one text, two hard links' >h/x
	ln h/x h/y
	run --separate-stderr neardup cluster --dups -r h
	assert_output 'h/y'
}

@test "cluster-097: nothing to read (an empty directory or file): -d, -t and --lsh are not refused" {
	mkdir empty
	: >none.fp
	for args in "-r -a simhash -d 3 empty" "-r --lsh=4x8 empty" "-d 3 none.fp" \
	    "-t 0.9 none.fp" "--lsh=4x8 none.fp"; do
		run --separate-stderr neardup cluster $args
		assert_exit OK
		assert_output ''
		assert_equal "$stderr" ''
	done
	# With documents, --lsh is refused for simhash before any is read.
	run --separate-stderr neardup cluster -r -a simhash --lsh=4x8 missing
	assert_exit TROUBLE
	assert_equal "$stderr" 'neardup: --lsh: bands apply to minhash and oph fingerprints'
}

@test "cluster-098: --keep with --pairs, --all with --dups or --uniques: usage errors; -v -t 1 prints P(1.00) once" {
	corpus
	neardup hash -a oph -r c >oph.fp
	run --separate-stderr neardup cluster --pairs --keep=longest oph.fp
	assert_exit TROUBLE
	assert_output ''
	assert_stderr_line 'neardup: --pairs prints pairs, not groups: not with --dups, --uniques, --all or --keep'
	for opt in --dups --uniques; do
		run --separate-stderr neardup cluster --all "$opt" --format=json oph.fp
		assert_exit TROUBLE
		assert_output ''
		assert_stderr_line 'neardup: --all adds the groups of one, which --dups and --uniques already settle: not with them'
	done
	run --separate-stderr neardup cluster -v -t 1 oph.fp
	assert_exit OK
	assert_stderr_line '; 1 band x 128 rows, P\(1\.00\) = 1\.000$'
}

@test "cluster-099: --sorted, a name with a backslash sorted away from its key: the message says so and points to -z" {
	mkdir sk
	# Texts whose keys sort the escaped line's key after the other's.
	echo 'same text here for a' >'sk/a\b'
	cp 'sk/a\b' sk/d
	echo 'other text for c' >sk/c
	cp sk/c sk/e
	neardup hash -a key -- sk/* | LC_ALL=C sort >k.sorted
	run --separate-stderr neardup cluster --sorted k.sorted
	assert_exit TROUBLE
	assert_stderr_line "^neardup: k\.sorted:[0-9]+: input is not sorted: this line's name or the one before is escaped .*; use -z throughout$"
	# With -z throughout, the same names group.
	neardup hash -z -a key -- sk/* | LC_ALL=C sort -z >k.zsorted
	neardup cluster -z --sorted k.zsorted >out.z
	[ "$(tr '\0' '\n' <out.z | grep -c .)" = 4 ]
}

@test "cluster-100: --bands takes band keys as hash --bands writes them, and names no line else" {
	K=nd1-oph128-w3-fs-s0
	H=4f3129c12d60f524
	for key in "http://ex.com/a" "$K/14x9/14:$H" "$K/200x9/0:$H" "$K/15x9/0:$H" \
	    "nd1-simhash64-w3-fs-s0/1x1/0:$H" "$K/14x9/0:${H%?}" "$K/14x9/00:$H" \
	    "$K/014x9/0:$H" "$K/14x9/0:4F3129C12D60F524" "$K/14x9/-1:$H" "$K/14x9/0:${H}0"; do
		printf '%s\ta\n%s\tb\n' "$key" "$key" >bad.bands
		run --separate-stderr neardup cluster --bands bad.bands
		assert_exit TROUBLE
		assert_output ''
		assert_stderr_line '^neardup: bad\.bands:1: not a band key'
	done
	printf '%s\ta\tb\n' "$K/14x9/0:$H" >tab.bands
	run --separate-stderr neardup cluster --bands tab.bands
	assert_exit TROUBLE
	assert_stderr_line '^neardup: tab\.bands:1: a tab in the name'
	# The lines hash --bands writes, and a later line of another band.
	printf '%s\ta\n%s\tb\n%s\tb\n' "$K/14x9/13:$H" "$K/14x9/13:$H" "$K/14x9/2:$H" >good.bands
	run --separate-stderr neardup cluster --bands good.bands
	assert_exit OK
	assert_output $'a\nb'
}

@test "cluster-101: -z on lines written without -z is an error, not one long name and no group" {
	printf 'alpha beta gamma delta epsilon\n' >a.txt
	cp a.txt b.txt
	neardup hash -a minhash a.txt b.txt >nl.fp
	run --separate-stderr neardup cluster -z nl.fp
	assert_exit TROUBLE
	assert_output ''
	assert_equal "$stderr" 'neardup: nl.fp:1: a name holds fingerprint lines after a newline: input written without -z?'
	neardup hash a.txt b.txt >nl64.fp
	run --separate-stderr neardup near -z -d 3 --self nl64.fp
	assert_exit TROUBLE
	assert_stderr_line 'input written without -z\?$'
	# A name that holds a newline, written with -z, is a name.
	printf 'x y z\n' >"$(printf 'two\nlines')"
	neardup hash -z -a minhash a.txt b.txt two* >z.fp
	run --separate-stderr neardup cluster -z z.fp
	assert_exit OK
}

@test "cluster-102: --dups never lists the one copy: band lines of a link and its target, two spellings with fingerprints of two times" {
	cp "$(fixture lighthouse.txt)" real
	ln -s real alias
	neardup hash -z --bands -a oph alias real >b.z
	run -0 neardup cluster -z --bands --dups b.z
	assert_output ''
	LC_ALL=C sort -z b.z >s.z
	run -0 neardup cluster -z --bands --sorted --dups s.z
	assert_output ''
	# One file, hashed, edited, hashed again under another spelling:
	# its two texts are refused, not grouped apart.
	mkdir docs
	cp "$(fixture lighthouse.txt)" docs/a
	neardup hash -a oph docs/a >old.fp
	cp docs/a copy
	sed -i '1,3d' docs/a
	neardup hash -a oph ./docs/a >new.fp
	run --separate-stderr -2 sh -c 'cat old.fp new.fp | "$NEARDUP" cluster --dups'
	assert_output ''
	assert_equal "$stderr" 'neardup: docs/a and ./docs/a: two different fingerprints for one file: lines from before and after it changed?'
	sed "s|  docs/a\$|  $PWD/docs/a|" old.fp >abs.fp
	run --separate-stderr -2 sh -c 'cat abs.fp new.fp | "$NEARDUP" cluster --dups'
	assert_stderr_line 'two different fingerprints for one file'
	# The same file by two names of one link, in two groups: counted once.
	printf 'other words for another text entirely here\n' >b
	cp b b2
	ln -s b blink
	neardup hash -a oph b b2 >x.fp
	neardup hash -a oph blink >>x.fp
	run -0 neardup cluster --dups x.fp
	assert_output b2
}

@test "cluster-103: one name with two different fingerprints is an error, not a group by the older one" {
	cp "$(fixture lighthouse.txt)" a
	neardup hash -a oph a >old.fp
	cp a b
	printf 'something else entirely, in other words\n' >a
	neardup hash -a oph a b >new.fp
	run --separate-stderr -2 sh -c 'cat old.fp new.fp | "$NEARDUP" cluster --dups'
	assert_output ''
	assert_equal "$stderr" 'neardup: a: two different fingerprints for one name: lines from before and after it changed?'
	# The same line twice is one member.
	run -0 sh -c 'cat new.fp new.fp | "$NEARDUP" cluster --dups'
	assert_output ''
	# Band lines: one name, two keys for one band.
	cp b a
	neardup hash --bands -a oph a b >old.b
	printf 'something else entirely, in other words\n' >a
	neardup hash --bands -a oph a >new.b
	run --separate-stderr -2 sh -c 'cat old.b new.b | "$NEARDUP" cluster --bands --dups'
	assert_output ''
	assert_stderr_line '^neardup: -:[0-9]+: a: two different keys for band [0-9]+: lines from before and after it changed\?$'
	run -0 sh -c 'cat old.b old.b | "$NEARDUP" cluster --bands --dups'
	assert_output b
}

@test "cluster-104: texts without shingles group only with the same bytes" {
	printf '{}\n' >package.json
	printf '[]\n' >list.json
	printf -- '---\n' >sep.md
	: >empty1
	: >empty2
	printf '{}\n' >copy.json
	run -0 neardup cluster -r .
	assert_output "$(printf './copy.json\n./package.json\n\n./empty1\n./empty2')"
	run -0 neardup cluster --dups -r .
	assert_output "$(printf './package.json\n./empty2')"
	run -0 sh -c '"$NEARDUP" hash -r . | "$NEARDUP" cluster -d 3 --pairs'
	assert_output "$(printf './copy.json\t./package.json\t1.000000\testimate\n./empty1\t./empty2\t1.000000\testimate')"
	run -0 sh -c '"$NEARDUP" hash -a key -r . | LC_ALL=C sort | "$NEARDUP" cluster --sorted --dups'
	assert_output "$(printf './package.json\n./empty2')"
	# Names that are no files here stay alone.
	run -0 sh -c '"$NEARDUP" hash -r . | sed "s|  ./|  gone/|" | "$NEARDUP" cluster -d 3'
	assert_output ''
}

@test "cluster-105: --sorted keeps the least name in each run, whatever order a shuffle gave the lines of a key" {
	cp "$(fixture lighthouse.txt)" a
	{ cat a; echo one more line; } >b
	neardup hash --bands -a oph a b >all.bands
	# Sorted by key only, the names of a key alternate between runs.
	awk -F'\t' '{ print $1 "\t" (NR % 2 == ($2 == "a")) "\t" $2 }' all.bands |
	    LC_ALL=C sort -t "$(printf '\t')" -k1,1 -k2,2n | cut -f1,3 >shuffled.bands
	run -0 sh -c '"$NEARDUP" cluster --bands --sorted --dups shuffled.bands | sort -u'
	assert_output b
}

@test "cluster-106: -z on band lines or sorted key lines written without -z is an error; JSON is closed after an error" {
	cp "$(fixture lighthouse.txt)" a
	cp a b
	run --separate-stderr -2 sh -c '"$NEARDUP" hash --bands -a oph a b | "$NEARDUP" cluster --bands -z'
	assert_output ''
	assert_equal "$stderr" 'neardup: -:1: a name holds fingerprint lines after a newline: input written without -z?'
	run --separate-stderr -2 sh -c '"$NEARDUP" hash --bands -a oph a b | LC_ALL=C sort | "$NEARDUP" cluster --bands --sorted -z'
	assert_stderr_line 'input written without -z\?$'
	run --separate-stderr -2 sh -c '"$NEARDUP" hash -a key a b | LC_ALL=C sort | "$NEARDUP" cluster --sorted -z'
	assert_stderr_line 'input written without -z\?$'
	# An unsorted line after a group: what was printed is still JSON.
	printf 'x y z\n' >c
	neardup hash -a key a b c >k
	{ LC_ALL=C sort k; head -n 1 k; } >unsorted
	run --separate-stderr -2 neardup cluster --sorted --format=json unsorted
	run jq -e 'length >= 1' <<<"$output"
	assert_success
}

@test "cluster-107: --lsh and -d too large for the documents' sketch are refused before any is read" {
	run --separate-stderr -2 neardup cluster --docs -a simhash -d 40 nonexistent
	assert_equal "$stderr" 'neardup: -d: 40: too large for 64-bit fingerprints'
	run --separate-stderr -2 neardup cluster --docs --lsh=20x20 nonexistent
	assert_equal "$stderr" 'neardup: --lsh: 20 x 20 rows is more than the 128 values of a fingerprint'
}

@test "cluster-108: an empty text chains nothing; one file by two names counts once even where realpath fails; --sorted order" {
	# Within 3 bits of the empty text's simhash (0), 5 or 6 of each other.
	mkdir d
	echo 'cpeflgkx lhd rwjk uwu' >d/A
	echo 'ffbd uwzzntp amoxpx mamx' >d/B
	echo 'dewrdqd ovhyput jkep zovu' >d/C
	: >d/E
	run -0 neardup cluster -a simhash -r d
	assert_output ''
	run -0 sh -c '"$NEARDUP" hash -r d | "$NEARDUP" cluster -d 3 --pairs'
	assert_output ''
	# A working directory too deep for realpath(3): a link and its
	# target, one file of one link, are still one member.
	local n i
	n=$(printf 'x%.0s' $(seq 200))
	mkdir deep
	cd deep
	for i in $(seq 22); do mkdir "$n" && cd "$n"; done
	mkdir dir
	echo 'the quick brown fox jumps over the lazy dog' >dir/f
	ln -s dir link
	run -0 neardup cluster -t 0.8 --dups -r link dir
	assert_output ''
	cd "$BATS_TEST_TMPDIR"
	# With --sorted, a link and its target in a run: the least name
	# stays, in whatever order the lines come.
	echo 'the quick brown fox jumps over the lazy dog again' >t
	cp t c
	ln -s t b
	neardup hash -a key b c t >k
	run -0 neardup cluster --sorted --dups k
	assert_output c
	run -0 sh -c 'tac k | "$NEARDUP" cluster --sorted --dups'
	assert_output c
}

@test "cluster-109: a file bind-mounted on another name is one member" {
	[ "$(id -u)" = 0 ] || skip "mount needs root"
	mkdir fm
	echo 'the quick brown fox jumps over the lazy dog' >fm/z
	: >fm/a
	mount --bind fm/z fm/a 2>/dev/null || skip "no bind mounts here"
	run neardup cluster --dups -r fm
	umount fm/a
	assert_success
	assert_output ''
}

@test "cluster-110: executables under -r are skipped with a note, not grouped; --binary groups them as before" {
	local b
	for b in ls dir vdir cp; do
		[ -f "/bin/$b" ] || skip "no /bin/$b here"
	done
	mkdir d
	cp /bin/ls /bin/dir /bin/vdir /bin/cp d/
	cmp -s d/ls d/dir && skip "ls and dir are one file here"
	echo 'the quick brown fox jumps over the lazy dog' >d/t1
	echo 'the quick brown fox jumps over the lazy dog' >d/t2
	run --separate-stderr neardup cluster --format=tsv -r d
	assert_exit OK
	assert_output "$(printf '1\td/t1\t1.000000\tkept\n1\td/t2\t1.000000\texact')"
	assert_equal "$stderr" "$(for b in cp dir ls vdir; do
		echo "neardup: d/$b: binary file skipped"; done)"
	# Their strings are much the same: with --binary, hashed as text.
	run --separate-stderr neardup cluster --format=tsv --binary -r d
	assert_exit OK
	assert_stderr_empty
	assert_line --regexp $'^[0-9]+\td/dir\t'
	assert_equal "$(cut -f1 <<<"$output" | sort | uniq -c | awk '$1 >= 3' |
	    wc -l)" 1
	# As operands too.
	run --separate-stderr neardup cluster --docs --all d/ls d/t1
	assert_exit OK
	assert_output d/t1
	assert_equal "$stderr" 'neardup: d/ls: binary file skipped'
}

@test "cluster-111: in a git checkout, cluster -r . passes over .git; --hidden walks it" {
	command -v git >/dev/null || skip "no git"
	mkdir -p top/co
	cd top/co
	git init -q .
	echo 'the quick brown fox jumps over the lazy dog' >a.txt
	cp a.txt b.txt
	echo 'nothing like the others at all, a different text' >c.txt
	git add . && git -c user.name=t -c user.email=t@t commit -qm one
	run --separate-stderr neardup cluster --dups -r .
	assert_exit OK
	assert_output ./b.txt
	assert_stderr_empty
	# With --hidden: git's own copies (logs/HEAD and the branch's log).
	run --separate-stderr neardup cluster --dups --hidden -r .
	assert_exit OK
	assert_line ./b.txt
	assert_line --regexp '^\./\.git/'
	# The filters apply to documents, not to fingerprint lines.
	neardup hash a.txt >fp
	for o in --binary --hidden --exclude=x --exclude-dir=x; do
		run -2 --separate-stderr neardup cluster "$o" fp
		assert_output ''
	done
	run -2 --separate-stderr neardup cluster --binary fp
	assert_stderr_line '^neardup: --archives, --binary, --exclude, --exclude-dir and --hidden apply to documents \(--docs, -r\)$'
	run -0 neardup cluster --dups -r --exclude=b.txt .
	assert_output ''
	cp a.txt ../a.txt
	run -0 neardup cluster --dups -r --exclude-dir=co ..
	assert_output ''
	run -0 neardup cluster --dups -r ..
	assert_output --partial ../co/
}

# ---- exact confirmation and the leader rule ----------------------------------------

# exact A B [OPTION...]: the exact resemblance of documents A and B, as
# compare prints it in JSON (six decimals, cut toward zero), shingled with
# the OPTIONs (the same -w and friends as the cluster run).
exact() {
	"$NEARDUP" compare --format=json "${@:3}" "$1" "$2" |
	    jq -r '.jaccard' | awk '{ printf "%.6f\n", $1 }'
}

# at_least X T: the decimal X is T or more.
at_least() {
	awk -v x="$1" -v t="$2" 'BEGIN { exit !(x + 0 >= t + 0) }'
}

# check_leaders T [OPTION...]: in the tsv groups in $output, the first row
# of each group is the kept one ("kept", 1.000000), and every other row is
# a member whose exact resemblance to the kept one, as compare gives it, is
# its similarity and is T or more, with basis "exact".  Prints the number of
# members checked; or what is wrong, and returns 1 (fail would not stop a
# command substitution: call as n=$(check_leaders T) || fail "$n").
check_leaders() {
	local t=$1 cl name sim basis kept= last= want n=0
	shift
	while IFS=$'\t' read -r cl name sim basis; do
		if [ "$cl" != "$last" ]; then
			if [ "$sim $basis" != '1.000000 kept' ]; then
				echo "group $cl starts with $name $sim $basis"
				return 1
			fi
			kept=$name last=$cl
			continue
		fi
		if [ "$basis" != exact ]; then
			echo "$name in group $cl: basis $basis"
			return 1
		fi
		want=$(exact "$kept" "$name" "$@")
		if [ "$sim" != "$want" ]; then
			echo "$name in group $cl: $sim, compare says $want to $kept"
			return 1
		fi
		if ! at_least "$want" "$t"; then
			echo "$name listed with $kept at $want, below -t $t"
			return 1
		fi
		n=$((n + 1))
	done <<<"$output"
	echo "$n"
}

# dt_headers: dt/clk1.h ... dt/clk4.h, C headers as in include/dt-bindings:
# one long licence comment, then 20 defines each, clk i sharing 10 with
# clk i+1.  Neighbours are near-duplicates (resemblance 0.87), the files
# two apart are not (0.76), all through the licence they share.
dt_headers() {
	local i
	mkdir dt
	for i in 1 2 3 4; do
		{
			echo '/* SPDX-License-Identifier: GPL-2.0'
			{ text 8; text 9; } | sed 's/^/ * /'
			echo ' */'
			awk -v i="$i" 'BEGIN { for (k = (i - 1) * 10 + 1; k <= (i + 1) * 10; k++)
			    printf "#define CLK_%d_GATE %d\n", k * 31, k }'
		} >dt/clk$i.h
	done
}

@test "cluster-200: dt-bindings chain: each listed header reaches t with the kept one; --transitive chains them" {
	dt_headers
	local a n
	# The chain: 1 ~ 2 ~ 3 ~ 4 at the default -t 0.8, but 1 !~ 3.
	at_least "$(exact dt/clk1.h dt/clk2.h)" 0.8 || fail "1 ~ 2 below 0.8"
	at_least "$(exact dt/clk2.h dt/clk3.h)" 0.8 || fail "2 ~ 3 below 0.8"
	at_least "$(exact dt/clk3.h dt/clk4.h)" 0.8 || fail "3 ~ 4 below 0.8"
	! at_least "$(exact dt/clk1.h dt/clk3.h)" 0.8 || fail "1 ~ 3: no chain"
	for a in oph minhash bottomk; do
		cl -t 0.8 -a "$a" -r dt
		assert_exit OK
		assert_stderr_empty
		assert_output "$(groups 'dt/clk1.h dt/clk2.h' 'dt/clk3.h dt/clk4.h')"
		cl -t 0.8 -a "$a" --format=tsv -r dt
		n=$(check_leaders 0.8) || fail "$a: $n"
		assert_equal "$n" 2
		# Removing the --dups keeps a copy within t of each.
		cl -t 0.8 -a "$a" --dups -r dt
		assert_output "$(printf '%s\n' dt/clk2.h dt/clk4.h)"
		# --transitive: the connected components, 3 and 4 under 1.
		cl -t 0.8 -a "$a" --transitive --format=tsv -r dt
		assert_exit OK
		assert_output "$(printf '1\t%s\t%s\t%s\n' \
		    dt/clk1.h 1.000000 kept \
		    dt/clk2.h "$(exact dt/clk1.h dt/clk2.h)" exact \
		    dt/clk3.h "$(exact dt/clk1.h dt/clk3.h)" exact \
		    dt/clk4.h "$(exact dt/clk1.h dt/clk4.h)" exact)"
		cl -t 0.8 -a "$a" --transitive -r dt
		assert_output "$(groups 'dt/clk1.h dt/clk2.h dt/clk3.h dt/clk4.h')"
	done
	# From fingerprint lines, --verify: the same groups as -r.
	neardup hash -a oph -r dt >dt.fp
	cl -t 0.8 --verify dt.fp
	assert_exit OK
	assert_output "$(groups 'dt/clk1.h dt/clk2.h' 'dt/clk3.h dt/clk4.h')"
	cl -t 0.8 --verify --transitive dt.fp
	assert_output "$(groups 'dt/clk1.h dt/clk2.h dt/clk3.h dt/clk4.h')"
}

@test "cluster-201: the licences of common-licenses: every listed one reaches t with the kept one, every scheme and --keep" {
	[ -d /usr/share/common-licenses ] || skip "no /usr/share/common-licenses"
	local f a t k n total=0
	mkdir lic
	for f in GPL-1 GPL-2 GPL-3 LGPL-2 LGPL-2.1 LGPL-3 Apache-2.0 Artistic \
	    BSD MPL-1.1 MPL-2.0 GFDL-1.2 GFDL-1.3; do
		[ -f "/usr/share/common-licenses/$f" ] &&
		    cp "/usr/share/common-licenses/$f" lic/
	done
	for a in oph minhash bottomk '-a simhash -d 20'; do
		[[ $a == -* ]] || a="-a $a"
		for t in 0.3 0.5; do
			for k in first path longest shortest; do
				# shellcheck disable=SC2086
				cl $a -t "$t" --keep="$k" --format=tsv -r lic
				assert_exit OK
				n=$(check_leaders "$t") || fail "$a -t $t --keep=$k: $n"
				total=$((total + n))
			done
		done
	done
	# Some were listed: the check above checked something.
	((total > 0)) || fail "no near-duplicates among the licences at -t 0.3"
	# Where GPL-1 ~ GPL-2 ~ LGPL-2.1 chain at 0.3 (Debian's texts), the
	# default lists no LGPL-2.1 under GPL-1; --transitive does.
	if at_least "$(exact lic/GPL-1 lic/GPL-2)" 0.3 &&
	    at_least "$(exact lic/GPL-2 lic/LGPL-2.1)" 0.3 &&
	    ! at_least "$(exact lic/GPL-1 lic/LGPL-2.1)" 0.3; then
		cl -t 0.3 --format=tsv -r lic
		run awk -F '\t' '$2 == "lic/GPL-1" { g = $1 } $2 == "lic/LGPL-2.1" && $1 == g' <<<"$output"
		assert_output ''
		cl -t 0.3 --transitive --format=tsv -r lic
		run awk -F '\t' '$2 == "lic/GPL-1" { g = $1 } $2 == "lic/LGPL-2.1" && $1 == g' <<<"$output"
		refute_output ''
	fi
}

@test "cluster-202: the leader rule: one near two kept documents joins the first in keep order, and chains none" {
	# z: the first half of x, the second of y (resemblance 0.33 each);
	# x and y have nothing in common.
	text 1 >x
	text 2 >y
	{ head -n 12 x; tail -n 13 y; } >z
	at_least "$(exact x z)" 0.3 || fail "x ~ z below 0.3"
	at_least "$(exact y z)" 0.3 || fail "y ~ z below 0.3"
	cl -t 0.3 --docs x y z
	assert_exit OK
	assert_output "$(groups 'x z')"
	cl -t 0.3 --docs y x z
	assert_output "$(groups 'y z')"
	cl -t 0.3 --keep=path --docs z y x
	assert_output "$(groups 'x z')"
	cl -t 0.3 --format=tsv --docs y x z
	assert_output "$(printf '1\ty\t1.000000\tkept\n1\tz\t%s\texact' "$(exact y z)")"
	# The connected component: all three.
	cl -t 0.3 --transitive --docs x y z
	assert_output "$(groups 'x y z')"
}

@test "cluster-203: --pairs with documents: each pair's similarity is compare's resemblance, basis exact" {
	corpus
	local a b sim basis want n=0
	cl --pairs -t 0.7 -r c
	assert_exit OK
	assert_stderr_empty
	# 3 + 3 pairs of the a and b families above 0.95, a-05 with a, a-copy
	# and a-01 (0.75 and more).
	assert_equal "${#lines[@]}" 9
	while IFS=$'\t' read -r a b sim basis; do
		assert_equal "$basis" exact
		# compare prints four decimals, cut: so is the similarity.
		want=$("$NEARDUP" compare "$a" "$b" | awk '$1 == "resemblance" { print $2 }')
		assert_equal "${sim:0:6}" "$want"
		assert_equal "$sim" "$(exact "$a" "$b")"
		at_least "$sim" 0.7 || fail "$a $b: $sim below -t 0.7"
		n=$((n + 1))
	done <<<"$output"
	assert_equal "$n" 9
	[[ $output == *$'c/a-01.txt\tc/a-05.txt\t'* ]] || fail "no a-01 a-05 pair: $output"
	cl --pairs --format=json -t 0.7 -r c
	jq_true "length == 9 and all(.[]; .basis == \"exact\")"
	jq_true ".[] | select(.a == \"c/a-01.txt\" and .b == \"c/a.txt\") | .similarity == $(exact c/a-01.txt c/a.txt)"
	# Other shingling: the same shingles as compare's.
	cl --pairs -w 2 --keep-case --docs c/a.txt c/a-05.txt
	assert_output "$(printf 'c/a.txt\tc/a-05.txt\t%s\texact' "$(exact c/a.txt c/a-05.txt -w 2 --keep-case)")"
}

@test "cluster-204: --verify: fingerprint lines confirmed by the files' exact resemblance" {
	corpus
	# 16 values, seed 16: the estimate for a and a-05 is 15/16, though
	# their resemblance is 0.75, below -t 0.8.
	neardup hash -a oph -k 16 -s 16 c/a.txt c/a-05.txt c/a-01.txt c/c.txt >fps.fp
	at_least "$(est c/a.txt c/a-05.txt)" 0.8 || fail "estimate below 0.8: pick another seed"
	! at_least "$(exact c/a.txt c/a-05.txt)" 0.8 || fail "a ~ a-05 at 0.8"
	cl -t 0.8 --format=tsv fps.fp
	assert_exit OK
	assert_line --index 1 "$(printf '1\tc/a-05.txt\t%s\testimate' "$(est c/a.txt c/a-05.txt)")"
	cl -t 0.8 --format=tsv --verify fps.fp
	assert_exit OK
	assert_stderr_empty
	assert_output "$(printf '1\tc/a.txt\t1.000000\tkept\n1\tc/a-01.txt\t%s\texact' "$(exact c/a.txt c/a-01.txt)")"
	# The pair was a candidate, turned down by its exact resemblance.
	cl -t 0.8 -v --verify fps.fp
	assert_stderr_line '^neardup: 2 candidate pairs, 1 confirmed, 2 by the exact resemblance$'
	assert_stderr_line '^neardup: [0-9]+ documents read again for their shingle sets, [0-9]+ bytes$'
	cl -t 0.8 --pairs --verify fps.fp
	assert_output "$(printf 'c/a.txt\tc/a-01.txt\t%s\texact' "$(exact c/a.txt c/a-01.txt)")"
	cl -t 0.8 --dups --verify fps.fp
	assert_output c/a-01.txt
	# Documents are confirmed already: --verify with them is refused.
	usage_error --verify -r c
	assert_stderr_line '^neardup: --verify reads the files that fingerprint lines name: documents \(--docs, -r\) are confirmed exactly already$'
	usage_error --verify --docs c/a.txt c/a-01.txt
}

@test "cluster-205: --verify: a file gone since it was hashed is named, exit 2, the rest clustered" {
	corpus
	neardup hash -a oph c/a.txt c/a-01.txt c/b.txt c/b-copy.txt >fps.fp
	rm c/a-01.txt
	cl --verify fps.fp
	assert_exit TROUBLE
	assert_equal "$stderr" 'neardup: c/a-01.txt: No such file or directory'
	assert_output "$(groups 'c/b.txt c/b-copy.txt')"
	cl --verify --pairs fps.fp
	assert_exit TROUBLE
	assert_equal "$stderr" 'neardup: c/a-01.txt: No such file or directory'
	assert_output "$(printf 'c/b.txt\tc/b-copy.txt\t1.000000\texact')"
	# Without --verify no file is read.
	cl fps.fp
	assert_exit OK
	assert_output "$(groups 'c/a.txt c/a-01.txt' 'c/b.txt c/b-copy.txt')"
}

@test "cluster-206: -t with simhash documents: taken, and candidates within -d bits confirmed by it exactly" {
	corpus
	cl -a simhash -r -t 0.9 c
	assert_exit OK
	assert_stderr_empty
	assert_output "$(groups "$A2" "$B2")"
	# Within 10 bits a-05 is a candidate (0.75): below -t 0.9 and 0.8,
	# above 0.7.
	cl -a simhash -d 10 -t 0.9 --format=tsv -r c
	assert_exit OK
	refute_output --partial c/a-05.txt
	n=$(check_leaders 0.9) || fail "$n"
	assert_equal "$n" 4
	cl -a simhash -d 10 -t 0.8 -r c
	refute_output --partial c/a-05.txt
	cl -a simhash -d 10 -t 0.7 --format=tsv -r c
	assert_line "$(printf '1\tc/a-05.txt\t%s\texact' "$(exact c/a-01.txt c/a-05.txt)")"
	n=$(check_leaders 0.7) || fail "$n"
	assert_equal "$n" 5
	# Their fingerprint lines: -t needs --verify, and gives the same.
	neardup hash -r c >sh.fp
	trouble -t 0.7 -d 10 sh.fp
	assert_equal "$stderr" 'neardup: -t: applies to minhash, oph and bottomk fingerprints, and to documents (simhash fingerprints join within -d bits, key ones when equal; --verify confirms them by -t)'
	local want
	want=$(neardup cluster -a simhash -d 10 -t 0.7 --format=tsv -r c)
	cl --verify -t 0.7 -d 10 --format=tsv sh.fp
	assert_exit OK
	assert_output "$want"
	# Key documents too: equal keys, confirmed by -t; b-01 (0.95), kept
	# as the first, has b's key.
	cl -a key -r -t 0.9 --format=tsv c
	assert_exit OK
	assert_line "$(printf '2\tc/b.txt\t%s\texact' "$(exact c/b-01.txt c/b.txt)")"
	n=$(check_leaders 0.9) || fail "$n"
	cl -a key -r -t 1 c
	assert_exit OK
	assert_output "$(groups "$A2" "$B2")"
}

@test "cluster-207: with documents the bands find a pair at t itself with probability 0.99" {
	corpus
	local a t b r p lines_p
	for a in oph minhash; do
		for t in 0.3 0.5 0.7 0.8 0.9; do
			cl -v -a "$a" -t "$t" -r c
			assert_exit OK
			[[ ${stderr_lines[0]} =~ \;\ ([0-9]+)\ bands\ x\ ([0-9]+)\ rows,\ P\(([0-9.]+)\)\ =\ ([0-9.]+) ]] ||
			    fail "-a $a -t $t: no bands in: ${stderr_lines[0]}"
			b=${BASH_REMATCH[1]} r=${BASH_REMATCH[2]} p=${BASH_REMATCH[4]}
			assert_equal "${BASH_REMATCH[3]}" "$(printf '%.2f' "$t")"
			((b * r <= 128)) || fail "-t $t: $b x $r is more than 128 values"
			at_least "$p" 0.99 || fail "-a $a -t $t: P($t) = $p, below 0.99"
			# The figure is that of the bands: 1 - (1 - t^r)^b.
			awk -v b="$b" -v r="$r" -v t="$t" -v p="$p" 'BEGIN {
			    q = 1 - (1 - t ^ r) ^ b; d = q - p
			    exit !(d > -0.001 && d < 0.001 && q >= 0.99) }' ||
			    fail "-t $t: $b x $r rows do not give P($t) = $p"
			# --verify on fingerprint lines chooses the same bands.
			neardup hash -a "$a" -r c >fps.fp
			cl -v --verify -t "$t" fps.fp
			assert_equal "${stderr_lines[0]%%;*}" "neardup: 10 fingerprints of nd1-${a}128-w3-fs-s0"
			[[ ${stderr_lines[0]} == *"; $b bands x $r rows, P("* ]] ||
			    fail "--verify -t $t: ${stderr_lines[0]}, not $b x $r"
		done
	done
	# Without confirmation the bar is at t + 0.1: P(0.80) is lower.
	neardup hash -a oph -r c >fps.fp
	cl -v -t 0.8 fps.fp
	[[ ${stderr_lines[0]} =~ P\(0\.80\)\ =\ ([0-9.]+) ]] || fail "${stderr_lines[0]}"
	! at_least "${BASH_REMATCH[1]}" 0.99 || fail "fingerprint lines: P(0.80) = ${BASH_REMATCH[1]}"
	# bottomk: ceil(log 0.01 / log(1 - t)) smallest hashes, 3 at 0.8 and
	# 7 at 0.5 (2 and 6 for fingerprint lines, at t + 0.1).
	cl -v -a bottomk -t 0.8 -r c
	assert_stderr_line '; the 3 smallest hashes as bands$'
	cl -v -a bottomk -t 0.5 -r c
	assert_stderr_line '; the 7 smallest hashes as bands$'
	# The counts: every confirmed pair was confirmed exactly, and the
	# documents read again are among the 10, their bytes among theirs.
	cl -v -t 0.8 -r c
	[[ ${stderr_lines[1]} =~ ^neardup:\ ([0-9]+)\ candidate\ pairs,\ ([0-9]+)\ confirmed,\ ([0-9]+)\ by\ the\ exact\ resemblance$ ]] ||
	    fail "no counts: ${stderr_lines[1]}"
	assert_equal "${BASH_REMATCH[2]}" 4
	((BASH_REMATCH[3] >= BASH_REMATCH[2] && BASH_REMATCH[3] <= BASH_REMATCH[1])) ||
	    fail "${stderr_lines[1]}"
	[[ ${stderr_lines[2]} =~ ^neardup:\ ([0-9]+)\ documents\ read\ again\ for\ their\ shingle\ sets,\ ([0-9]+)\ bytes$ ]] ||
	    fail "no reads: ${stderr_lines[2]}"
	((BASH_REMATCH[1] >= 4 && BASH_REMATCH[1] <= 10)) || fail "${stderr_lines[2]}"
	((BASH_REMATCH[2] > 0 && BASH_REMATCH[2] <= $(cat c/* | wc -c))) || fail "${stderr_lines[2]}"
	assert_equal "${#stderr_lines[@]}" 3
}

# brute T DIR: every pair of the files of DIR whose exact resemblance,
# from compare's shared shingles and set sizes, is at least T: "A<TAB>B"
# with A before B in byte order, sorted.
brute() {
	local f g
	local -a files
	mapfile -t files < <(find "$2" -type f | LC_ALL=C sort)
	for ((f = 0; f < ${#files[@]}; f++)); do
		for ((g = f + 1; g < ${#files[@]}; g++)); do
			neardup compare --format=tsv "${files[f]}" "${files[g]}" ||
			    [ $? -eq "$EXIT_DIFFER" ]
		done
	done | awk -F '\t' -v t="$1" '$1 != "a" && $7 / ($8 + $9 - $7) >= t + 0 {
	    print $1 "\t" $2 }' | LC_ALL=C sort
}

# edited DIR: 3 texts with copies edited at 1 to 30%: pairs at every level.
edited() {
	local s p
	mkdir -p "$1"
	for s in 1 2 3; do
		text "$s" >"$1/t$s.txt"
		for p in 1 2 4 6 8 10 12 15 20 30; do
			edit "$1/t$s.txt" "$p" "e$p" >"$1/t$s-$p.txt"
		done
	done
}

@test "cluster-220: --exact finds every pair a brute-force comparison finds, and no other" {
	edited d
	local t
	for t in 0.5 0.7 0.8 0.9; do
		brute "$t" d >want
		[ "$(wc -l <want)" -ge 3 ] || fail "t $t: too few pairs to test"
		cl --exact --pairs -t "$t" -r d
		assert_exit OK
		assert_stderr_empty
		run -0 awk -F '\t' '$4 != "exact"' <<<"$output"
		assert_output ''
		cl --exact --pairs -t "$t" -r d
		cut -f1,2 <<<"$output" | LC_ALL=C sort >got
		diff want got || fail "t $t: --exact pairs differ from brute force"
		# LSH with exact confirmation: never a pair below t.
		cl --pairs -t "$t" -r d
		cut -f1,2 <<<"$output" | LC_ALL=C sort >lsh
		run -0 comm -13 want lsh
		assert_output ''
	done
}

@test "cluster-221: --exact groups by the leader rule, as the LSH way does, and refuses what it cannot do" {
	edited d
	cl --exact --format=tsv -t 0.8 -r d
	assert_exit OK
	local exact=$output
	cl --format=tsv -t 0.8 -r d
	assert_equal "$exact" "$output"
	# Every listed one reaches t with the kept one of its group.
	run -0 awk -F '\t' '$4 == "kept" { k = $2 } $4 != "kept" { print k "\t" $2 "\t" $3 }' <<<"$exact"
	local kept name sim
	while IFS=$'\t' read -r kept name sim; do
		neardup compare -t 0.8 "$kept" "$name" >/dev/null ||
		    fail "$name listed under $kept below 0.8"
	done <<<"$output"
	trouble --exact --verify -r d
	assert_stderr_line '^neardup: --exact finds every pair by the exact join: not with --verify, --lsh, -d, --bands or --sorted$'
	trouble --exact --lsh=4x4 -r d
	# Standard input cannot be read again: left out, named, exit 2.
	run --separate-stderr bash -c 'cat d/t1.txt | "$NEARDUP" cluster --exact --docs - d/t1.txt d/t1-2.txt'
	assert_exit TROUBLE
	assert_stderr_line 'neardup: -: not a regular file: left out of --exact'
	assert_output "$(printf '%s\n' d/t1.txt d/t1-2.txt)"
}

@test "cluster-222: --exact with fingerprint lines reads the files they name" {
	edited d
	neardup hash -a oph -r d >fps
	cl --exact --pairs -t 0.7 fps
	assert_exit OK
	brute 0.7 d >want
	cut -f1,2 <<<"$output" | LC_ALL=C sort >got
	diff want got || fail "--exact from lines differs from brute force"
}

# ---- the one default threshold, and the criterion of the lines -----------------

@test "cluster-260: compare and cluster agree by default: LGPL-2 and LGPL-2.1 are similar, and one group" {
	local l=/usr/share/common-licenses
	[ -f "$l/LGPL-2" ] && [ -f "$l/LGPL-2.1" ] || skip "no $l/LGPL-2, LGPL-2.1"
	run --separate-stderr neardup compare "$l/LGPL-2" "$l/LGPL-2.1"
	assert_exit OK
	assert_line 'similar (threshold 0.5)'
	cl --docs "$l/LGPL-2" "$l/LGPL-2.1"
	assert_exit OK
	assert_output "$(printf '%s\n' "$l/LGPL-2" "$l/LGPL-2.1")"
	cl -r "$l/LGPL-2" "$l/LGPL-2.1"
	assert_output "$(printf '%s\n' "$l/LGPL-2" "$l/LGPL-2.1")"
	# A fixture apart from the licences: the 5% copy, at 0.75.
	corpus
	run -0 neardup compare c/a.txt c/a-05.txt
	assert_line 'similar (threshold 0.5)'
	cl --docs c/a.txt c/a-05.txt
	assert_output "$(printf '%s\n' c/a.txt c/a-05.txt)"
	run -0 sh -c '"$NEARDUP" hash --bands -a oph c/a.txt c/a-05.txt | "$NEARDUP" cluster --bands'
	assert_output "$(printf '%s\n' c/a.txt c/a-05.txt)"
}

@test "cluster-261: simhash lines without -d: a word once on stderr, with the pipeline that gives cluster -r's groups" {
	corpus
	neardup hash -r c >sh.fp
	cl sh.fp
	assert_exit OK
	assert_equal "${#stderr_lines[@]}" 1
	assert_stderr_line '^neardup: simhash fingerprints join within -d 3 bits, not at resemblance 0\.5 as cluster -r does: for its groups, neardup hash -a oph \.\.\. \| neardup cluster$'
	# The groups do differ: what the word says gives those of -r.
	assert_output "$(groups "$A2" "$B2")"
	run -0 sh -c '"$NEARDUP" hash -a oph -r c | "$NEARDUP" cluster'
	assert_output "$(neardup cluster -r c)"
	# Character shingles are named in the command.
	neardup hash -c 5 -r c >c5.fp
	cl c5.fp
	assert_stderr_line 'neardup hash -a oph -c 5 \.\.\. \| neardup cluster$'
	# -d chose the criterion: no word.  Nor for oph lines, nor with -r.
	cl -d 3 sh.fp
	assert_stderr_empty
	neardup hash -a oph -r c >oph.fp
	cl oph.fp
	assert_stderr_empty
	cl -r c
	assert_stderr_empty
	cl -r -a simhash c
	assert_stderr_empty
}

# ---- --files0-from ----------------------------------------------------------

@test "cluster-300: --files0-from=- clusters every listed document in one run, as -r does" {
	corpus
	cl -r c
	local want=$output
	# xargs -n 4 would cluster each batch alone; the list is one input.
	find c -name '*.txt' -print0 | LC_ALL=C sort -z >list
	run --separate-stderr bash -c '"$NEARDUP" cluster --docs --files0-from=- <list'
	assert_exit OK
	assert_stderr_empty
	assert_output "$want"
	cl --docs --files0-from=list
	assert_output "$want"
	cl --files0-from list -r
	assert_output "$want"
}

@test "cluster-301: --files0-from: names with newlines; bad names reported with LIST:N, the others clustered" {
	corpus
	cp c/a.txt $'c/new\nline.txt'
	printf 'c/a.txt\0c/new\nline.txt\0\0c/missing\0' >list
	run --separate-stderr bash -c '"$NEARDUP" cluster -z --docs --files0-from=list | tr "\0" "|"'
	assert_output $'c/a.txt|c/new\nline.txt|'
	cl --docs --files0-from=list
	assert_exit TROUBLE
	assert_stderr_line '^neardup: list:3: invalid zero-length file name$'
	assert_stderr_line '^neardup: c/missing: No such file or directory$'
}

@test "cluster-302: --files0-from without --docs names files of fingerprint lines; refused with operands, --sorted, --bands" {
	corpus
	neardup hash -a oph -r c >fps
	cl fps
	local want=$output
	printf 'fps\0' >list
	cl --files0-from=list
	assert_exit OK
	assert_output "$want"
	usage_error --files0-from=list fps
	assert_stderr_line '^neardup: file operands cannot be combined with --files0-from$'
	usage_error --files0-from=list --sorted
	assert_stderr_line '^neardup: --bands and --sorted read their operands in order: not with --files0-from$'
	usage_error --files0-from=list --bands
	trouble --files0-from=nolist
	assert_stderr_line '^neardup: nolist: No such file or directory$'
}

# ---- directory dedup: --keep=newest|oldest, --originals, --summary ----------

@test "cluster-310: --keep=newest and --keep=oldest keep by modification time, ties in input order" {
	corpus
	touch -d '2020-01-01 00:00:00' c/*.txt
	touch -d '2021-01-01 00:00:00' c/a.txt
	touch -d '2019-01-01 00:00:00' c/a-copy.txt
	cl -t 0.8 --keep=newest --dups -r c
	assert_exit OK
	# b's group: one time, so the first, as --keep=first.
	assert_output "$(printf '%s\n' c/a-01.txt c/a-copy.txt c/b-copy.txt c/b.txt)"
	cl -t 0.8 --keep=oldest --dups -r c
	assert_output "$(printf '%s\n' c/a-01.txt c/a.txt c/b-copy.txt c/b.txt)"
	cl -t 0.8 --keep=newest -r c
	assert_line --index 0 c/a.txt
	# Fingerprint lines: the names are the files, looked at now.
	neardup hash -a oph -r c >fps
	cl -t 0.8 --keep=newest --dups fps
	assert_exit OK
	assert_output "$(printf '%s\n' c/a-01.txt c/a-copy.txt c/b-copy.txt c/b.txt)"
	mv c gone
	trouble --keep=oldest fps
	assert_stderr_line '^neardup: --keep: c/.*: No such file or directory$'
	usage_error --keep=latest -r gone
	assert_stderr_line '^neardup: --keep: latest: expected first, longest, shortest, path, newest or oldest$'
}

@test "cluster-311: --originals: a file under DIR is kept and never listed, two of them both kept" {
	corpus
	mkdir -p c/orig c/origx
	mv c/a-copy.txt c/orig/
	cl -t 0.8 --originals=c/orig --dups -r c
	assert_exit OK
	assert_output "$(printf '%s\n' c/a-01.txt c/a.txt c/b-copy.txt c/b.txt)"
	cl -t 0.8 --originals=c/orig -r c
	assert_line --index 0 c/orig/a-copy.txt
	# Two originals in one group: neither listed, both unique.
	cp c/a.txt c/orig/a2.txt
	cl -t 0.8 --originals=c/orig --dups -r c
	assert_output "$(printf '%s\n' c/a-01.txt c/a.txt c/b-copy.txt c/b.txt)"
	cl -t 0.8 --originals=c/orig --uniques -r c
	assert_line c/orig/a-copy.txt
	assert_line c/orig/a2.txt
	refute_line c/a.txt
	# By whole components: c/orig does not hold c/origx; absolute,
	# relative and ./ spellings meet; the option repeats.
	mv c/orig/a2.txt c/origx/
	cl -t 0.8 --originals="$PWD/c/./orig" --dups -r c
	assert_line c/origx/a2.txt
	refute_line c/orig/a-copy.txt
	cl -t 0.8 --originals=c/orig --originals=./c/origx/ --dups -r c
	refute_line c/origx/a2.txt
	refute_line c/orig/a-copy.txt
	# Fingerprint lines too, and the groups of --transitive.
	neardup hash -a oph -r c >fps
	cl -t 0.8 --originals=c/origx --dups fps
	refute_line c/origx/a2.txt
	cl -t 0.8 --originals=c/origx --transitive --dups -r c
	refute_line c/origx/a2.txt
	trouble --originals=nodir -r c
	assert_stderr_line '^neardup: --originals: nodir: No such file or directory$'
	usage_error --originals=c --pairs -r c
	usage_error --originals=c --sorted fps
}

@test "cluster-312: --summary: files and groups, bytes in the duplicates; off when stderr is no terminal, on when it is" {
	corpus
	local dups bytes
	dups=$(printf '%s\n' c/a-copy.txt c/a.txt c/b-copy.txt c/b.txt)
	bytes=$(cat $dups | wc -c)
	cl -t 0.8 --summary -r c
	assert_exit OK
	assert_equal "$stderr" "neardup: 6 files in 2 groups, $bytes bytes in the 4 duplicates"
	cl -t 0.8 --summary --dups -r c
	assert_output "$dups"
	assert_equal "$stderr" "neardup: 6 files in 2 groups, $bytes bytes in the 4 duplicates"
	cl -t 0.8 -r c
	assert_stderr_empty
	cl -t 0.8 --summary --no-summary -r c
	assert_stderr_empty
	run --separate-stderr neardup cluster -t 0.8 --summary -r c/c.txt c/d.txt
	assert_equal "$stderr" "neardup: 0 files in 0 groups, 0 bytes in the 0 duplicates"
	usage_error --summary --pairs -r c
	# On a terminal by default (script(1) gives one), not with --no-summary.
	run script -qec '"$NEARDUP" cluster -t 0.8 -r c >/dev/null' /dev/null
	assert_output --partial "neardup: 6 files in 2 groups, $bytes bytes in the 4 duplicates"
	run script -qec '"$NEARDUP" cluster -t 0.8 --no-summary -r c >/dev/null' /dev/null
	refute_output --partial 'files in'
}

@test "cluster-313: -0 ends names with NUL whatever the input; -z reads and writes NUL" {
	corpus
	neardup hash -a oph -r c >fps
	run bash -c '"$NEARDUP" cluster -t 0.8 -0 --dups fps | tr "\0\n" "|N"'
	assert_output 'c/a-copy.txt|c/a.txt|c/b-copy.txt|c/b.txt|'
	run bash -c '"$NEARDUP" cluster -t 0.8 --print0 --uniques -r c | tr "\0\n" "|N"'
	assert_output 'c/a-01.txt|c/a-05.txt|c/a-30.txt|c/b-01.txt|c/c.txt|c/d.txt|'
	# Without -z, -0 reads newline-ended lines; -z reads NUL-ended ones.
	run bash -c '"$NEARDUP" cluster -t 0.8 -0 --dups fps | xargs -0 printf "%s\n"'
	assert_output "$(printf '%s\n' c/a-copy.txt c/a.txt c/b-copy.txt c/b.txt)"
	tr '\n' '\0' <fps >fps0
	run bash -c '"$NEARDUP" cluster -t 0.8 -z --dups fps0 | tr "\0\n" "|N"'
	assert_output 'c/a-copy.txt|c/a.txt|c/b-copy.txt|c/b.txt|'
	run -2 --separate-stderr neardup cluster -t 0.8 -0 --dups fps0
}

@test "cluster-314: --format=sh: the script removes exactly what --dups lists, originals never, odd names safely" {
	corpus
	mkdir c/orig
	cp c/b.txt c/orig/b-orig.txt
	cp c/a.txt "c/it's \$(touch pwned) \`x\`.txt"
	cp c/a.txt $'c/new\nline; touch pwned2.txt'
	cp c/a.txt 'c/-rf'
	neardup cluster -t 0.8 -0 --originals=c/orig --dups -r c | sort -z >want.gone
	run --separate-stderr neardup cluster -t 0.8 --originals=c/orig --format=sh -r c
	assert_exit OK
	assert_stderr_empty
	printf '%s\n' "$output" >rm.sh
	assert_line --index 0 '#!/bin/sh'
	assert_line 'set -u'
	assert_line '# kept: c/orig/b-orig.txt'
	assert_line --regexp "^rmdup 'c/a.txt' [0-9]+ [0-9]+ 'c/-rf'	# 1\.0000 \(exact\) similar to c/-rf$"
	refute_line --partial "rmdup 'c/orig/"
	find c -type f -print0 | sort -z >before
	run sh rm.sh
	assert_exit OK
	assert_output ''
	[ ! -e pwned ] && [ ! -e pwned2.txt ] || fail "a name ran as a command"
	find c -type f -print0 | sort -z >after
	comm -z -23 before after >gone
	[ "$(tr -cd '\0' <gone | wc -c)" -eq 8 ] || fail "not 8 removed"
	cmp want.gone gone || fail "the script removed other files than --dups lists"
	[ -f c/orig/b-orig.txt ] && [ -f c/-rf ] || fail "a kept file went"
}

@test "cluster-315: --format=sh: a file changed after it was listed, or whose kept one went, stays; the script says so and exits 1" {
	corpus
	neardup cluster -t 0.8 --format=sh -r c >rm.sh
	grep -q "^rmdup 'c/a.txt' " rm.sh || fail "c/a.txt not listed"
	# Same size, new time; and the kept file of the b group gone.
	touch -d '2001-02-03 04:05:06' c/a.txt
	rm c/b-01.txt
	run --separate-stderr sh rm.sh
	assert_failure 1
	assert_stderr_line '^neardup: c/a.txt: changed since it was listed: not removed$'
	assert_stderr_line '^neardup: c/b.txt: its kept file c/b-01.txt is gone: not removed$'
	[ -f c/a.txt ] && [ -f c/b.txt ] && [ -f c/b-copy.txt ] || fail "a refused file went"
	[ ! -e c/a-copy.txt ] || fail "an unchanged duplicate stayed"
	# One byte more, the same second.
	neardup cluster -t 0.8 --format=sh -r c >rm.sh
	touch -r c/a.txt ref
	printf x >>c/a.txt
	touch -r ref c/a.txt
	run --separate-stderr sh rm.sh
	assert_failure 1
	assert_stderr_line '^neardup: c/a.txt: changed since it was listed: not removed$'
	# What the script cannot do with.
	usage_error --format=sh --uniques -r c
	assert_stderr_line '^neardup: --format=sh removes the duplicates of each group: not with --pairs, --all or --uniques$'
	usage_error --format=sh --all -r c
	usage_error --format=sh --pairs -r c
}

@test "cluster-223: text files for fingerprint lines: the first line says documents need --docs or -r" {
	printf 'the quick brown fox\n' >a.txt
	printf 'the quick brown fox jumps\n' >b.txt
	trouble a.txt b.txt
	assert_stderr_line '^neardup: a\.txt:1: not a fingerprint line: documents need --docs or -r$'
	[[ $stderr != *"no ':' after the scheme"* ]] || fail "the parser's message: $stderr"
	# From standard input too.
	run --separate-stderr neardup cluster <a.txt
	assert_exit TROUBLE
	assert_stderr_line '^neardup: -:1: not a fingerprint line: documents need --docs or -r$'
	# A damaged fingerprint line keeps the parser's message.
	printf 'nd1-simhash64-w3-fs-s0:zz  a\n' >bad
	trouble bad
	assert_stderr_line '^neardup: bad:1: '
	[[ $stderr != *"not a fingerprint line"* ]] || fail "$stderr"
	# A text line after good lines is a bad line, as before.
	neardup hash a.txt >fp
	cat a.txt >>fp
	trouble fp
	assert_stderr_line "^neardup: fp:2: no ':' after the scheme$"
}

@test "cluster-224: a directory operand without -r points to -r, and the other inputs are still read" {
	mkdir texts
	printf 'one two three four\n' >texts/a
	neardup hash texts/a >fp
	cl texts fp
	assert_exit TROUBLE
	assert_stderr_line '^neardup: texts: is a directory: documents in it need -r$'
	assert_output ''
	cl -r texts
	assert_exit OK
	assert_stderr_empty
}

@test "cluster-225: -r with no operand walks the working directory, as grep -r does" {
	# A directory of its own: run keeps its files in the test's.
	mkdir w && cd w || return
	mkdir d
	words 3000 >d/a
	cp d/a d/b
	cp d/a c
	cl -r
	assert_exit OK
	assert_stderr_empty
	local here=$output
	cl -r .
	assert_equal "$here" "$output"
	[ -n "$here" ] || fail "no groups"
	assert_line './c'
	assert_line './d/b'
	# Without -r, standard input still.
	run --separate-stderr bash -c '"$NEARDUP" cluster </dev/null'
	assert_exit OK
	assert_output ''
}

@test "cluster-226: -t 80 says the threshold is a fraction: use 0.8" {
	trouble -t 80 --docs /dev/null
	assert_stderr_line '^neardup: -t: 80: a fraction from 0 to 1: use 0\.8$'
	assert_stderr_line '^usage: neardup cluster '
	trouble -t 100 --docs /dev/null
	assert_stderr_line '^neardup: -t: 100: a fraction from 0 to 1: use 1$'
	trouble -t 101 --docs /dev/null
	assert_stderr_line '^neardup: -t: 101: not a number in \(0, 1\]$'
}
