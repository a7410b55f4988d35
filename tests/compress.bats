#!/usr/bin/env bats
#
# Compressed input: gzip, bzip2, xz, zstd and lz4 files, known by their
# first bytes, read decompressed wherever a document, a record file or a
# file of fingerprint or band lines is read; a broken stream is reported,
# exit 2, and nothing past its break reaches the output.

load helper

FORMATS='gzip bzip2 xz zstd lz4'

# text FILE: a document of some 3000 lines, words enough to differ.
text() {
	awk 'BEGIN { for (i = 1; i <= 3000; i++)
	    printf "line %d of the text, word%d and word%d\n", i, i % 97, i % 13 }' >"$1"
}

# pack FORMAT < IN > OUT: IN compressed with FORMAT's tool.
pack() {
	case $1 in
	gzip) gzip -n -c ;;
	bzip2) bzip2 -c ;;
	xz) xz -c ;;
	zstd) zstd -q -c ;;
	lz4) lz4 -q -c ;;
	esac
}

# fp LINE: the fingerprint of a fingerprint line, without its name.
fp() {
	printf '%s\n' "${1%%  *}"
}

@test "compress-001: each compressed format as an operand gives the text's fingerprint, under the file's own name" {
	text doc.txt
	want=$(neardup hash doc.txt)
	for f in $FORMATS; do
		pack $f <doc.txt >doc.$f
		run --separate-stderr neardup hash doc.$f
		assert_exit OK
		assert_output "$(fp "$want")  doc.$f"
		[ -z "$stderr" ]
	done
}

@test "compress-002: each compressed format on standard input, from a file and from a pipe, gives the text's fingerprint" {
	text doc.txt
	want=$(fp "$(neardup hash doc.txt)")
	for f in $FORMATS; do
		pack $f <doc.txt >doc.$f
		run --separate-stderr neardup hash - <doc.$f
		assert_exit OK
		assert_output "$want  -"
		run --separate-stderr bash -c "cat doc.$f | \"\$NEARDUP\" hash"
		assert_exit OK
		assert_output "$want  -"
	done
}

@test "compress-003: the content decides, not the name: gzip named .txt is decompressed, text named .gz is not" {
	text doc.txt
	want=$(fp "$(neardup hash doc.txt)")
	gzip -n -c doc.txt >packed.txt
	cp doc.txt plain.gz
	run neardup hash packed.txt plain.gz
	assert_exit OK
	assert_line --index 0 "$want  packed.txt"
	assert_line --index 1 "$want  plain.gz"
	# Not gzip: a file that begins as a magic does but goes on otherwise.
	printf '\037x and the rest\n' >almost.gz
	run neardup hash almost.gz
	assert_exit OK
	assert_output "$(neardup hash - <almost.gz | sed 's/  -$/  almost.gz/')"
}

@test "compress-004: a corrupt stream: its reason, exit 2, no line for it, the other files hashed" {
	text doc.txt
	gzip -n -c <doc.txt >bad.gz
	# The first deflate block header (byte 10) made the reserved type 3.
	printf '\377' | dd of=bad.gz bs=1 seek=10 conv=notrunc 2>/dev/null
	run --separate-stderr neardup hash doc.txt bad.gz doc.txt
	assert_exit TROUBLE
	assert_equal "${#lines[@]}" 2
	refute_output --partial bad.gz
	assert_equal "$stderr" 'neardup: bad.gz: gzip decompression failed'
}

@test "compress-005: a truncated stream, as operand and on stdin, in every format: exit 2, the file named, no line for it" {
	text doc.txt
	for f in $FORMATS; do
		pack $f <doc.txt >whole.$f
		head -c $(($(wc -c <whole.$f) / 2)) whole.$f >cut.$f
		run --separate-stderr neardup hash cut.$f doc.txt
		assert_exit TROUBLE
		assert_output "$(neardup hash doc.txt)"
		assert_regex "$stderr" "^neardup: cut\\.$f: [^ ]"
		run --separate-stderr neardup hash - <cut.$f
		assert_exit TROUBLE
		assert_output ''
		assert_regex "$stderr" '^neardup: -: [^ ]'
	done
}

@test "compress-006: --lines over a truncated stream: whole records only, none cut at the break, then the message and exit 2" {
	seq 1 200000 | sed 's/$/ some words here/' >recs.txt
	gzip -n -c recs.txt | head -c 100000 >cut.gz
	run --separate-stderr neardup hash --lines cut.gz
	assert_exit TROUBLE
	assert_equal "$stderr" 'neardup: cut.gz: truncated gzip input'
	n=${#lines[@]}
	[ "$n" -gt 1000 ] && [ "$n" -lt 200000 ]
	# Every record hashed is a whole record of the text, the last too.
	head -n "$n" recs.txt >want.txt
	assert_equal "$(neardup hash --lines want.txt | sed 's/  want\.txt:/  cut.gz:/')" \
	    "$output"
}

@test "compress-007: uniq over a .gz file and over a .zst on stdin keeps what it keeps over the text" {
	printf 'the quick brown fox jumps over the lazy dog %s\n' a b a c a b >l.txt
	seq 1 50 | sed 's/^/another line that differs /' >>l.txt
	want=$(neardup uniq l.txt)
	gzip -n -c l.txt >l.gz
	zstd -q -c l.txt >l.zst
	run --separate-stderr neardup uniq l.gz
	assert_exit OK
	assert_output "$want"
	run --separate-stderr neardup uniq - <l.zst
	assert_exit OK
	assert_output "$want"
}

@test "compress-008: uniq over a truncated stream reports it, exit 2, and writes no part of the cut record" {
	seq 1 100000 | sed 's/^/record number /' >recs.txt
	xz -c recs.txt | head -c 20000 >cut.xz
	run --separate-stderr neardup uniq -t 1 cut.xz
	assert_exit TROUBLE
	assert_regex "$stderr" '^neardup: cut\.xz: '
	n=${#lines[@]}
	[ "$n" -gt 0 ]
	assert_equal "$output" "$(head -n "$n" recs.txt)"
}

@test "compress-009: cluster reads fingerprint lines from a .gz and band lines from a .zst as from the plain files" {
	text a.txt
	{ cat a.txt; echo one more line; } >b.txt
	echo something else entirely, not like the others >c.txt
	neardup hash a.txt b.txt c.txt >fp
	gzip -n -c fp >fp.gz
	want=$(neardup cluster fp)
	run --separate-stderr neardup cluster fp.gz
	assert_exit OK
	assert_output "$want"
	neardup hash -a minhash --bands a.txt b.txt c.txt >bands
	zstd -q -c bands >bands.zst
	run --separate-stderr neardup cluster --bands bands.zst
	assert_exit OK
	assert_output "$(neardup cluster --bands bands)"
}

@test "compress-010: cluster over a truncated file of fingerprint lines: exit 2, the file named" {
	for i in $(seq 1 300); do echo "document $i with its own words $i" >d$i.txt; done
	neardup hash d*.txt | gzip -n >fp.gz
	head -c $(($(wc -c <fp.gz) / 2)) fp.gz >cut.gz
	run --separate-stderr neardup cluster cut.gz
	assert_exit TROUBLE
	assert_regex "$stderr" '^neardup: cut\.gz: truncated gzip input$'
}

@test "compress-011: compare of two compressed documents, and compare -F of a compressed fingerprint file" {
	text a.txt
	{ cat a.txt; echo one more line; } >b.txt
	gzip -n -c a.txt >a.gz
	bzip2 -c b.txt >b.bz2
	want=$(neardup compare a.txt b.txt | sed 1,2d)
	run --separate-stderr neardup compare a.gz b.bz2
	assert_exit OK
	assert_equal "$(printf '%s\n' "$output" | sed 1,2d)" "$want"
	neardup hash a.txt b.txt | xz >fp.xz
	run neardup compare -F fp.xz
	assert_exit OK
	assert_output --partial 'similar'
}

@test "compress-012: -r walks, --files0-from lists and near --docs read compressed documents" {
	mkdir t
	text t/a.txt
	gzip -n -c t/a.txt >t/a.gz
	want=$(fp "$(neardup hash t/a.txt)")
	run neardup hash -r t
	assert_exit OK
	assert_line --index 0 "$want  t/a.gz"
	assert_line --index 1 "$want  t/a.txt"
	printf 't/a.gz\0' >list
	run neardup hash --files0-from=list
	assert_exit OK
	assert_output "$want  t/a.gz"
	neardup hash t/a.txt >index.fp
	run --separate-stderr neardup near -d 3 --docs index.fp t/a.gz
	assert_exit OK
	assert_output --partial 't/a.gz'
}

@test "compress-013: binary detection looks at the decompressed bytes" {
	text doc.txt
	gzip -n -c doc.txt >text.gz
	printf 'words\0more words\n' | gzip -n >nul.gz
	run --separate-stderr neardup hash text.gz nul.gz
	assert_exit OK
	assert_equal "${#lines[@]}" 1
	assert_output --partial 'text.gz'
	assert_equal "$stderr" 'neardup: nul.gz: binary file skipped'
	run --separate-stderr neardup hash --binary nul.gz
	assert_exit OK
	assert_output "$(printf 'words\0more words\n' | neardup hash --binary | sed 's/  -$/  nul.gz/')"
}
