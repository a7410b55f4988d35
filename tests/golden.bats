#!/usr/bin/env bats
#
# Golden vectors: the exact output of neardup hash on the fixtures, for
# every scheme and the options that change the fingerprint, compared to
# tests/expected/NAME.fp.  A change here changes every stored fingerprint:
# regenerate only on purpose, with UPDATE_GOLDEN=1 (make check or tests/run),
# and review the diff of tests/expected/.

load helper

# The documents of the whole-document vectors, as relative names so that
# the output does not depend on where the tree is.
DOCS=(lighthouse.txt lighthouse-near.txt orchard.txt utf8.txt
    invalid-utf8.txt short.txt empty.txt)

# golden NAME ARGS...: `neardup hash ARGS`, run in tests/fixtures, must
# print exactly tests/expected/NAME.fp (exit 0, nothing on stderr).
golden() {
	local name=$1 want
	shift
	want=$TESTS_DIR/expected/$name.fp
	local rc=0
	(cd "$TESTS_DIR/fixtures" && "$NEARDUP" hash "$@") >got 2>err || rc=$?
	if [ -s err ] || [ "$rc" -ne 0 ]; then
		fail "neardup hash $* exited $rc: $(cat err)"
		return
	fi
	if [ "${UPDATE_GOLDEN:-}" = 1 ]; then
		cp got "$want"
		return
	fi
	[ -f "$want" ] || fail "$want is missing (make it with UPDATE_GOLDEN=1)"
	diff -u "$want" got || fail "output of 'neardup hash $*' differs from expected/$name.fp"
}

@test "golden-001: simhash64" {
	golden simhash64 "${DOCS[@]}"
}

@test "golden-002: simhash128" {
	golden simhash128 -a simhash -k 128 "${DOCS[@]}"
}

@test "golden-003: minhash, k 128" {
	golden minhash -a minhash "${DOCS[@]}"
}

@test "golden-004: minhash, k 8" {
	golden minhash8 -a minhash -k 8 "${DOCS[@]}"
}

@test "golden-005: bottomk, k 128" {
	golden bottomk -a bottomk "${DOCS[@]}"
}

@test "golden-006: bottomk, k 8" {
	golden bottomk8 -a bottomk -k 8 "${DOCS[@]}"
}

@test "golden-007: oph, k 128" {
	golden oph -a oph "${DOCS[@]}"
}

@test "golden-008: oph, k 8" {
	golden oph8 -a oph -k 8 "${DOCS[@]}"
}

@test "golden-009: key, n 3" {
	golden key -a key "${DOCS[@]}"
}

@test "golden-010: key, n 1" {
	golden key1 -a key -k 1 "${DOCS[@]}"
}

@test "golden-011: simhash64 -c 5" {
	golden simhash64-c5 -c 5 "${DOCS[@]}"
}

@test "golden-012: simhash64 --multiset" {
	golden simhash64-multiset --multiset "${DOCS[@]}"
}

@test "golden-013: minhash --multiset -w 1" {
	golden minhash8-multiset-w1 -a minhash -k 8 --multiset -w 1 "${DOCS[@]}"
}

@test "golden-014: simhash64 --keep-case" {
	golden simhash64-keep-case --keep-case "${DOCS[@]}"
}

@test "golden-015: simhash64 --keep-punct" {
	golden simhash64-keep-punct --keep-punct "${DOCS[@]}"
}

@test "golden-016: oph -c 4 --keep-case --keep-punct" {
	golden oph8-c4-cp -a oph -k 8 -c 4 --keep-case --keep-punct "${DOCS[@]}"
}

@test "golden-017: simhash64 -s 42" {
	golden simhash64-s42 -s 42 "${DOCS[@]}"
}

@test "golden-018: bottomk -s 42" {
	golden bottomk8-s42 -a bottomk -k 8 -s 42 "${DOCS[@]}"
}

@test "golden-019: simhash64 --weights" {
	golden simhash64-weights --weights=weights.tsv "${DOCS[@]}"
}

@test "golden-020: --lines" {
	golden lines --lines lines.txt utf8.txt
}

@test "golden-021: --lines -a minhash -k 8" {
	golden lines-minhash8 --lines -a minhash -k 8 lines.txt
}

@test "golden-022: --tsv" {
	golden tsv --tsv records.tsv
}

# The empty input: these can be checked by hand against neardup(1).
@test "golden-030: empty input, simhash64" {
	golden empty-simhash64 empty.txt
}

@test "golden-031: empty input, simhash128" {
	golden empty-simhash128 -k 128 empty.txt
}

@test "golden-032: empty input, minhash k 4" {
	golden empty-minhash4 -a minhash -k 4 empty.txt
}

@test "golden-033: empty input, bottomk k 4" {
	golden empty-bottomk4 -a bottomk -k 4 empty.txt
}

@test "golden-034: empty input, oph k 4" {
	golden empty-oph4 -a oph -k 4 empty.txt
}

@test "golden-035: empty input, key n 3" {
	golden empty-key -a key empty.txt
}
