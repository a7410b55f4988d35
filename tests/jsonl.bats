#!/usr/bin/env bats
#
# JSON Lines records (--jsonl[=FIELD], --id=FIELD, --jsonl-skip-bad) for
# hash and uniq: unescaping, names, every kind of bad line, CRLF and blank
# lines, a 100 MB record, uniq's byte-for-byte output, and the dataset
# recipe of the README (shards hashed to band lines with GNU parallel,
# sorted, reduced, filtered) against one uniq --jsonl.

load helper

# Two texts whose character 5-gram resemblance is well above 0.7, and a
# third unlike them.
T1='the quick brown fox jumps over the lazy dog and runs far away again'
T2='the quick brown fox jumps over the lazy dog and runs far away again!'
T3='an entirely different sentence about something else altogether here'

# hashes ARGS...: the fingerprints alone of `neardup hash -c 5 ARGS` (the
# shingles of records by default, given for whole files too).
hashes() {
	neardup hash -c 5 "$@" | cut -d ' ' -f 1
}

@test "jsonl-001: the text of a record is its field unescaped: \\n \\t \\\" \\\\ \\/ \\uXXXX" {
	printf '%s\n' '{"text":"a\nb\tc \"q\" back\\slash \/ caf\u00e9 \u4e2d"}' >esc.jsonl
	printf 'a\nb\tc "q" back\\slash / caf\xc3\xa9 \xe4\xb8\xad' >esc.txt
	run hashes --jsonl esc.jsonl
	assert_success
	assert_output "$(hashes esc.txt)"
}

@test "jsonl-002: a surrogate pair is one code point; a lone surrogate is U+FFFD" {
	printf '%s\n' '{"text":"smile \ud83d\ude00 x"}' '{"text":"lone \ud800 x"}' >s.jsonl
	printf 'smile \xf0\x9f\x98\x80 x' >pair.txt
	printf 'lone \xef\xbf\xbd x' >lone.txt
	run hashes --jsonl s.jsonl
	assert_success
	assert_output "$(hashes pair.txt)
$(hashes lone.txt)"
}

@test "jsonl-003: records are named FILE:LINE, or by --id: a string or a number as written" {
	printf '%s\n' '{"id":"doc-a","text":"one"}' '{"id":42,"text":"two"}' \
	    '{"id":1.50,"text":"three"}' >ids.jsonl
	run neardup hash --jsonl ids.jsonl
	assert_success
	assert_line --index 0 --regexp '  ids\.jsonl:1$'
	assert_line --index 2 --regexp '  ids\.jsonl:3$'
	run neardup hash --jsonl --id=id ids.jsonl
	assert_success
	assert_line --index 0 --regexp '  doc-a$'
	assert_line --index 1 --regexp '  42$'
	assert_line --index 2 --regexp '  1\.50$'
}

@test "jsonl-004: --jsonl=FIELD takes the text from another field" {
	printf '%s\n' '{"text":"not this","body":"but this one"}' >f.jsonl
	printf 'but this one' >body.txt
	run hashes --jsonl=body f.jsonl
	assert_success
	assert_output "$(hashes body.txt)"
}

@test "jsonl-005: each bad line is FILE:LINE: why, left out, the rest go on, exit 2" {
	printf '%s\n' '{"text":"good one"}' 'not json' '{"txt":"x"}' '{"text":5}' \
	    '[1,2]' '{"text":"x"} trailing' "{'text':'single'}" '{"text":"unterminated' \
	    '{"text":"good two"}' >bad.jsonl
	run --separate-stderr neardup hash --jsonl bad.jsonl
	assert_exit TROUBLE
	assert_line --index 0 --regexp '  bad\.jsonl:1$'
	assert_line --index 1 --regexp '  bad\.jsonl:9$'
	[ "${#lines[@]}" -eq 2 ]
	[ "${stderr_lines[0]}" = 'neardup: bad.jsonl:2: not JSON' ]
	[ "${stderr_lines[1]}" = 'neardup: bad.jsonl:3: no "text" field' ]
	[ "${stderr_lines[2]}" = 'neardup: bad.jsonl:4: "text" is not a string' ]
	[ "${stderr_lines[3]}" = 'neardup: bad.jsonl:5: not a JSON object' ]
	[ "${stderr_lines[4]}" = 'neardup: bad.jsonl:6: not JSON' ]
	[ "${stderr_lines[5]}" = 'neardup: bad.jsonl:7: not JSON' ]
	[ "${stderr_lines[6]}" = 'neardup: bad.jsonl:8: not JSON: the line ends inside a value' ]
	[ "${#stderr_lines[@]}" -eq 7 ]
}

@test "jsonl-006: --id: a missing field, or one neither string nor number, is an error" {
	printf '%s\n' '{"text":"a"}' '{"id":null,"text":"b"}' '{"id":[1],"text":"c"}' \
	    '{"id":"ok","text":"d"}' >id.jsonl
	run --separate-stderr neardup hash --jsonl --id=id id.jsonl
	assert_exit TROUBLE
	assert_output --regexp '  ok$'
	[ "${stderr_lines[0]}" = 'neardup: id.jsonl:1: no "id" field for --id' ]
	[ "${stderr_lines[1]}" = 'neardup: id.jsonl:2: "id" is not a string or a number' ]
	[ "${stderr_lines[2]}" = 'neardup: id.jsonl:3: "id" is not a string or a number' ]
}

@test "jsonl-007: --jsonl-skip-bad goes on with exit 0 and says how many it skipped" {
	printf '%s\n' '{"text":"good"}' 'bad' '{"x":1}' >sk.jsonl
	run --separate-stderr neardup hash --jsonl --jsonl-skip-bad sk.jsonl
	assert_success
	assert_output --regexp '  sk\.jsonl:1$'
	[ "$stderr" = 'neardup: --jsonl-skip-bad: 2 bad records skipped' ]
	run --separate-stderr neardup uniq --jsonl --jsonl-skip-bad sk.jsonl
	assert_success
	assert_output '{"text":"good"}'
	[ "$stderr" = 'neardup: --jsonl-skip-bad: 2 bad records skipped' ]
}

@test "jsonl-008: CRLF endings are read; blank lines are no records and keep their number" {
	printf '{"text":"%s"}\r\n\r\n\n{"text":"%s"}\r\n' "$T1" "$T3" >crlf.jsonl
	printf '%s' "$T1" >t1.txt
	run --separate-stderr neardup hash --jsonl crlf.jsonl
	assert_success
	assert_line --index 0 "$(hashes t1.txt)  crlf.jsonl:1"
	assert_line --index 1 --regexp '  crlf\.jsonl:4$'
	[ "${#lines[@]}" -eq 2 ]
	# uniq copies the kept lines, CR and all, and not the blank ones.
	run neardup uniq --jsonl crlf.jsonl
	assert_success
	[ "$output" = "$(printf '{"text":"%s"}\r\n{"text":"%s"}\r' "$T1" "$T3")" ]
}

@test "jsonl-009: --id, --jsonl-skip-bad need --jsonl; --jsonl excludes --tsv, -z and empty fields" {
	run neardup hash --id=x
	assert_exit TROUBLE
	assert_line --index 0 'neardup: --id and --jsonl-skip-bad apply to --jsonl'
	run neardup uniq --jsonl-skip-bad
	assert_exit TROUBLE
	run neardup uniq --jsonl --tsv
	assert_exit TROUBLE
	assert_line --index 0 'neardup: --tsv and --jsonl exclude each other'
	run neardup uniq --jsonl -z
	assert_exit TROUBLE
	assert_line --index 0 'neardup: --jsonl: records are lines, not -z'
	run neardup hash --jsonl=
	assert_exit TROUBLE
	assert_line --index 0 'neardup: --jsonl: empty field name'
}

@test "jsonl-010: uniq --jsonl writes each kept line byte for byte, not its text" {
	printf '%s\n' "{\"id\": \"a\",  \"text\":\"$T1\"}" "{\"text\":\"$T2\",\"id\":\"b\"}" \
	    "{\"id\":3,\"text\":\"${T3// /\\u0020}\"}" "{\"id\":\"d\",\"text\":\"$T1\"}" >u.jsonl
	run neardup uniq --jsonl u.jsonl
	assert_success
	[ "$output" = "$(sed -n '1p;3p' u.jsonl)" ]
	# As a filter on standard input: the same bytes.
	neardup uniq --jsonl <u.jsonl >out.jsonl
	sed -n '1p;3p' u.jsonl | cmp - out.jsonl
}

@test "jsonl-011: uniq --jsonl --explain names records by FILE:LINE, or by --id" {
	printf '%s\n' "{\"id\":\"a\",\"text\":\"$T1\"}" "{\"id\":7,\"text\":\"$T2\"}" \
	    "{\"id\":\"c\",\"text\":\"$T3\"}" "{\"id\":\"d\",\"text\":\"$T1\"}" >e.jsonl
	run neardup uniq --jsonl --explain e.jsonl
	assert_success
	assert_output "$(printf 'e.jsonl:2\te.jsonl:1\ne.jsonl:4\te.jsonl:1')"
	run neardup uniq --jsonl --explain --id=id <e.jsonl
	assert_success
	assert_output "$(printf '7\ta\nd\ta')"
}

@test "jsonl-012: uniq --jsonl --count, -d and -D print the lines of the records" {
	printf '%s\n' "{\"text\":\"$T1\"}" "{\"text\":\"$T3\"}" "{\"text\":\"$T2\"}" >c.jsonl
	run neardup uniq --jsonl --count c.jsonl
	assert_success
	assert_output "$(printf '      2 {"text":"%s"}\n      1 {"text":"%s"}' "$T1" "$T3")"
	run neardup uniq --jsonl -d c.jsonl
	assert_success
	assert_output "{\"text\":\"$T1\"}"
	run neardup uniq --jsonl -D c.jsonl
	assert_success
	assert_output "$(printf '{"text":"%s"}\n{"text":"%s"}' "$T1" "$T2")"
}

@test "jsonl-013: a bad line in uniq --jsonl is reported, left out, and the rest filtered" {
	printf '%s\n' "{\"text\":\"$T1\"}" '{"text":' "{\"text\":\"$T2\"}" "{\"text\":\"$T3\"}" >b.jsonl
	run --separate-stderr neardup uniq --jsonl b.jsonl
	assert_exit TROUBLE
	assert_output "$(sed -n '1p;4p' b.jsonl)"
	[ "$stderr" = 'neardup: b.jsonl:2: not JSON: the line ends inside a value' ]
}

@test "jsonl-014: a record of 100 MB is read whole (past the 16 MiB of --lines)" {
	python3 -c '
import sys
t = "".join("w%d " % (i % 100000) for i in range(15000000))[:100000000]
sys.stdout.write("{\"id\":\"big\",\"text\":\"" + t + "\"}\n{\"id\":\"small\",\"text\":\"short\"}\n")
' >big.jsonl
	run --separate-stderr neardup hash --jsonl --id=id big.jsonl
	assert_success
	assert_line --index 0 --regexp '^nd1-simhash64-c5-fs-s0:[0-9a-f]{16}  big$'
	assert_line --index 1 --regexp '  small$'
	[ "$stderr" = '' ]
	run neardup hash --lines big.jsonl
	assert_exit TROUBLE
}

@test "jsonl-015: the dataset recipe (shards to band lines with parallel, sort, cluster, filter) equals one uniq --jsonl" {
	python3 -c '
import json, random
random.seed(7)
words = ["".join(random.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(random.randint(3, 9))) for _ in range(5000)]
base = [" ".join(random.choice(words) for _ in range(60)) for _ in range(40)]
for s in range(3):
    with open("shard%02d.jsonl" % s, "w") as f:
        for i in range(100):
            t = base[random.randrange(40)].split()
            if random.random() < 0.5:
                t[random.randrange(60)] = random.choice(words)
            f.write(json.dumps({"text": " ".join(t)}) + "\n")
'
	cat shard*.jsonl | neardup uniq --jsonl >want.jsonl
	# The recipe of the README, word for word but for the binary.
	ls shard*.jsonl | parallel --will-cite "$NEARDUP hash --jsonl --bands -a minhash -t 0.7 {}" |
	    awk -F '\t' '{ match($2, /:[0-9]+$/)
	        printf "%s\t%s:%012d\n", $1, substr($2, 1, RSTART - 1), substr($2, RSTART + 1) }' |
	    LC_ALL=C sort | "$NEARDUP" cluster --bands --sorted --dups | LC_ALL=C sort -u >drop
	ls shard*.jsonl | parallel --will-cite -k "awk -v f={} 'NR == FNR { drop[\$0]; next }
	    !(sprintf(\"%s:%012d\", f, FNR) in drop)' drop {}" >dedup.jsonl
	[ "$(wc -l <want.jsonl)" -eq 40 ]
	cmp want.jsonl dedup.jsonl
}

@test "jsonl-016: near --docs --jsonl queries an index with each record, named by --id or FILE:LINE" {
	printf '%s\n' "{\"id\":\"i1\",\"text\":\"$T1\"}" "{\"id\":\"i3\",\"text\":\"$T3\"}" >ix.jsonl
	neardup hash --jsonl --id=id ix.jsonl >ix.fp
	printf '%s\n' "{\"id\":\"q1\",\"text\":\"$T1\"}" 'junk' "{\"text\":\"$T3\"}" >q.jsonl
	run --separate-stderr neardup near -d 3 --docs --jsonl ix.fp q.jsonl
	assert_exit TROUBLE
	assert_output "$(printf 'q.jsonl:1\ti1\t0\nq.jsonl:3\ti3\t0')"
	[ "$stderr" = 'neardup: q.jsonl:2: not JSON' ]
	run --separate-stderr neardup near -d 3 --docs --jsonl --jsonl-skip-bad ix.fp - <q.jsonl
	assert_success
	assert_output "$(printf -- '-:1\ti1\t0\n-:3\ti3\t0')"
	run neardup near -d 3 --jsonl ix.fp q.jsonl
	assert_exit TROUBLE
	assert_line --index 0 --partial 'neardup: --jsonl applies to --docs'
}

# escapes_jsonl N FILE: a record whose text is every kind of escape, raw
# control and UTF-8 bytes, N times over, in FILE.jsonl, and the bytes
# json-c unescapes it into in FILE.txt.
escapes_jsonl() {
	python3 - "$1" "$2" <<'PY'
import sys
n, f = int(sys.argv[1]), sys.argv[2]
R = b"\xef\xbf\xbd"
pieces = [(b"plain words ", b"plain words "), (b"\\n\\t\\r\\b\\f", b"\n\t\r\b\f"),
    (b"\\/\\\"\\\\", b"/\"\\"), (b"\\u00e9\\u20AC ", "\u00e9\u20ac ".encode()),
    (b"\\ud83d\\ude00 ", "\U0001f600".encode() + b" "), (b"\\ud800x ", R + b"x "),
    (b"\\udc00 ", R + b" "), (b"\\ud800\\ud800\\udc00 ", R + "\U00010000".encode() + b" "),
    (b"\\ud800\\u0041 ", R + b"A "), (b"\\ud800\\n", R + b"\n"), (b"\\u0000", b"\0"),
    (b"\x01\x7f\xff raw \xc3\xa9 ", b"\x01\x7f\xff raw \xc3\xa9 ")]
esc = b"".join(p[0] for p in pieces) * n
raw = b"".join(p[1] for p in pieces) * n
with open(f + ".jsonl", "wb") as o:
    o.write(b'{"text":"decoy","meta":{"text":"nested"},"id":7,"text":"' + esc +
        b'","n":[1,"]"]}\n')
with open(f + ".txt", "wb") as o:
    o.write(raw)
PY
}

@test "jsonl-017: a text past 1 MiB is unescaped as json-c unescapes a short one: escapes, surrogates, raw bytes, the last of equal keys" {
	escapes_jsonl 20 short
	escapes_jsonl 20000 long
	[ "$(wc -c <long.jsonl)" -gt 2000000 ]
	for f in short long; do
		run --separate-stderr neardup hash -c 5 --jsonl --id=id $f.jsonl
		assert_success
		want=$(neardup hash -c 5 --binary $f.txt | cut -d ' ' -f 1)
		assert_output "$want  7"
		[ "$stderr" = '' ]
	done
	# From a pipe, compressed: the same.
	gzip -c long.jsonl | neardup hash -c 5 --jsonl --id=id >out
	assert_equal "$(cat out)" "$want  7"
}

@test "jsonl-018: a long text with a bad escape, a NUL byte or no end is refused as a short one is" {
	escapes_jsonl 20000 long
	for bad in 'a\\x' 'a\\u12G4' 'a\001\000b' 'a\\ud800\\u12'; do
		{ head -c 1100000 long.jsonl; printf "$bad"; printf '","n":1}\n'; } >bad.jsonl
		{ printf '{"id":1,"text":"'; printf "$bad"; printf '","n":1}\n'; } >short.jsonl
		run --separate-stderr neardup hash --jsonl bad.jsonl
		assert_exit TROUBLE
		want=$("$NEARDUP" hash --jsonl short.jsonl 2>&1 >/dev/null | sed 's/short/bad/')
		assert_equal "$stderr" "$want"
		assert_regex "$stderr" '^neardup: bad\.jsonl:1: not JSON'
	done
	{ printf '{"text":"'; words 1100000; printf '\n'; } >open.jsonl
	run --separate-stderr neardup hash --jsonl open.jsonl
	assert_exit TROUBLE
	assert_equal "$stderr" 'neardup: open.jsonl:1: not JSON: the line ends inside a value'
	{ printf '{"text":"'; words 1100000; printf '","id":[1]}\n'; } >badid.jsonl
	run --separate-stderr neardup hash --jsonl --id=id badid.jsonl
	assert_exit TROUBLE
	assert_equal "$stderr" 'neardup: badid.jsonl:1: "id" is not a string or a number'
}

# big_record: a record of 100 MB of words (100,000 distinct) in big.jsonl,
# for a peak of memory measured with /usr/bin/time; 1 with $skipped set
# to why not, where memory is not measured natively.
big_record() {
	if ! native || sanitized; then
		skipped='memory measured natively only'
		return 1
	fi
	if [ ! -x /usr/bin/time ]; then
		skipped='/usr/bin/time (package time) is not installed'
		return 1
	fi
	python3 -c '
import sys
t = "".join("w%d " % (i % 100000) for i in range(15000000))[:100000000]
sys.stdout.write("{\"id\":\"big\",\"text\":\"" + t + "\"}\n")
' >big.jsonl
}

@test "jsonl-019: a 100 MB record peaks at about twice its size in hash --jsonl, from a file or a pipe" {
	big_record || skip "$skipped"
	# One copy of the line, one of the text, 5% for the rest: 210 MB,
	# where three copies were 300 MB.
	/usr/bin/time -o peak -f %M "$NEARDUP" hash --jsonl big.jsonl >/dev/null
	[ "$(cat peak)" -lt 205000 ]
	cat big.jsonl | /usr/bin/time -o peak -f %M "$NEARDUP" hash --jsonl >/dev/null
	[ "$(cat peak)" -lt 205000 ]
}

@test "jsonl-020: cluster --jsonl groups records named FILE:LINE or by --id; a bad line is FILE:LINE, the rest grouped" {
	printf '%s\n' "{\"id\":\"a\",\"text\":\"$T1\"}" "{\"id\":7,\"text\":\"$T3\"}" \
	    'not json' "{\"id\":\"b\",\"text\":\"$T2\"}" '{"id":"c"}' >r.jsonl
	run --separate-stderr neardup cluster --jsonl r.jsonl
	assert_exit TROUBLE
	assert_output "$(printf 'r.jsonl:1\nr.jsonl:4')"
	assert_equal "$stderr" "$(printf 'neardup: r.jsonl:3: not JSON\nneardup: r.jsonl:5: no "text" field')"
	run --separate-stderr neardup cluster --jsonl --id=id --all --jsonl-skip-bad r.jsonl
	assert_success
	assert_output "$(printf 'a\nb\n\n7')"
	assert_equal "$stderr" 'neardup: --jsonl-skip-bad: 2 bad records skipped'
	run --separate-stderr neardup cluster --jsonl=body r.jsonl
	assert_exit TROUBLE
	assert_output ''
	run neardup cluster --id=id r.jsonl
	assert_exit TROUBLE
	assert_line --index 0 'neardup: --id and --jsonl-skip-bad apply to --jsonl'
}

@test "jsonl-021: cluster --jsonl --uniques keeps the records uniq --jsonl keeps, and --dups names the others" {
	python3 -c '
import json, random
random.seed(11)
words = ["".join(random.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(random.randint(3, 9))) for _ in range(5000)]
base = [" ".join(random.choice(words) for _ in range(60)) for _ in range(50)]
with open("d.jsonl", "w") as f:
    for i in range(400):
        t = base[random.randrange(50)].split()
        if random.random() < 0.5:
            t[random.randrange(60)] = random.choice(words)
        f.write(json.dumps({"n": i, "text": " ".join(t)}) + "\n")
'
	neardup uniq --jsonl d.jsonl >want.jsonl
	[ "$(wc -l <want.jsonl)" -eq 50 ]
	run neardup cluster --jsonl --id=n --uniques d.jsonl
	assert_success
	assert_output "$(python3 -c 'import json, sys; [print(json.loads(l)["n"]) for l in sys.stdin]' <want.jsonl)"
	# The records --dups names, left out of the input, are uniq's output.
	neardup cluster --jsonl --dups d.jsonl | sed 's/.*://' >drop
	awk 'NR == FNR { drop[$0]; next } !(FNR in drop)' drop d.jsonl >got.jsonl
	cmp want.jsonl got.jsonl
	# One thread or two, from a file or a zstd pipe: the same groups.
	neardup cluster --jsonl --format=tsv d.jsonl >one
	zstd -q -c d.jsonl | neardup cluster --jsonl --format=tsv -j 2 | sed 's/\t-:/\td.jsonl:/' >two
	cmp one two
}

@test "jsonl-022: cluster --jsonl confirms pairs by the exact resemblance of the unescaped texts, as of files" {
	python3 -c '
import json, random
random.seed(5)
w = ["caf\u00e9", "na\u00efve", "\u4e2d\u6587", "tab\there", "quote\"d", "line\nbreak", "smile\U0001f600"]
w += ["w%d" % i for i in range(40)]
texts = []
for i in range(12):
    base = [random.choice(w) for _ in range(30)]
    texts.append(base)
    t = list(base); t[random.randrange(30)] = random.choice(w); texts.append(t)
with open("e.jsonl", "w") as f:
    for i, t in enumerate(texts):
        f.write(json.dumps({"id": "t%02d" % i, "text": " ".join(t)}) + "\n")
        with open("t%02d" % i, "w") as g:
            g.write(" ".join(t))
'
	neardup cluster --docs -c 5 --pairs --format=tsv t[0-9]* >files
	[ "$(wc -l <files)" -ge 10 ]
	run neardup cluster --jsonl --id=id --pairs --format=tsv e.jsonl
	assert_success
	assert_output "$(cat files)"
	refute_output --partial estimated
	run neardup cluster --jsonl --id=id --exact --pairs --format=tsv e.jsonl
	assert_success
	assert_output "$(cat files)"
}

@test "jsonl-023: cluster --jsonl: records are not files, by name, by bytes or to remove" {
	# Two records of one id, and an id that is the name of a file here.
	printf '%s\n' 'another text entirely of its own, not like the others at all' >a
	printf '%s\n' "{\"id\":\"a\",\"text\":\"$T1\"}" "{\"id\":\"a\",\"text\":\"$T1 too\"}" \
	    "{\"id\":\"x\",\"text\":\"$T1 too, and at last\"}" \
	    '{"id":"e1","text":"{}"}' '{"id":"e2","text":"[]"}' '{"id":"e3","text":"{}"}' >n.jsonl
	run neardup cluster --jsonl --id=id --format=tsv -t 0.6 n.jsonl
	assert_success
	assert_line --index 0 --regexp '^1	a	1\.000000	kept$'
	assert_line --index 1 --regexp '^1	a	0\.[0-9]+	exact$'
	assert_line --index 3 --regexp '^2	e1	1\.000000	kept$'
	assert_line --index 4 --regexp '^2	e3	1\.000000	exact$'
	[ "${#lines[@]}" -eq 5 ]
	run neardup cluster --jsonl --id=id --keep=longest --uniques -t 0.6 n.jsonl
	assert_success
	assert_output "$(printf 'x\ne1\ne2')"
	run --separate-stderr neardup cluster --jsonl --id=id --summary -t 0.6 n.jsonl
	assert_success
	assert_equal "$stderr" "$(printf 'neardup: 5 records in 2 groups, %d bytes in the 3 duplicates' \
	    $(( ${#T1} + 4 + ${#T1} + 17 + 2 )))"
	for o in --keep=newest --keep=oldest --keep=path --originals=. --format=sh --archives --binary; do
		run neardup cluster --jsonl "$o" n.jsonl
		assert_exit TROUBLE
		assert_line --index 0 --partial 'neardup: --'
		assert_line --index 0 --partial 'records'
	done
}

@test "jsonl-024: cluster --jsonl sets texts aside in TMPDIR, and says so when it cannot" {
	printf '%s\n' "{\"text\":\"$T1\"}" "{\"text\":\"$T2\"}" >r.jsonl
	mkdir tmp
	TMPDIR=$PWD/tmp run neardup cluster --jsonl r.jsonl
	assert_success
	assert_output "$(printf 'r.jsonl:1\nr.jsonl:2')"
	# Unlinked as soon as made: nothing is left behind.
	[ -z "$(ls -A tmp)" ]
	TMPDIR=$PWD/none run --separate-stderr neardup cluster --jsonl r.jsonl
	assert_exit TROUBLE
	assert_equal "$stderr" 'neardup: a temporary file for record texts: No such file or directory'
}

@test "jsonl-025: a 100 MB record peaks at about three times its size in uniq --jsonl and cluster --jsonl, not eighteen" {
	big_record || skip "$skipped"
	# The line, its text, the kept line, and the distinct shingles: 300 MB,
	# where all the shingles' hashes and a set sized for them were 1.9 GB.
	/usr/bin/time -o peak -f %M "$NEARDUP" uniq --jsonl big.jsonl | cmp - big.jsonl
	[ "$(cat peak)" -lt 400000 ]
	cat big.jsonl | /usr/bin/time -o peak -f %M "$NEARDUP" cluster --jsonl --all >out
	[ "$(cat out)" = '-:1' ]
	[ "$(cat peak)" -lt 400000 ]
}
