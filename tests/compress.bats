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

# members DIR: a directory of two near-duplicate texts and a binary file.
members() {
	mkdir -p "$1/sub"
	text "$1/sub/one.txt"
	{ cat "$1/sub/one.txt"; echo and one line more; } >"$1/sub/two.txt"
	printf 'not\0text\n' >"$1/sub/bin"
}

@test "compress-014: --archives: each regular member of a tar.gz, a zip and a cpio is a document named ARCHIVE//PATH" {
	members m
	one=$(fp "$(neardup hash m/sub/one.txt)")
	two=$(fp "$(neardup hash m/sub/two.txt)")
	tar -C m -czf a.tar.gz sub
	(cd m && zip -q -r ../a.zip sub)
	(cd m && find sub -print | LC_ALL=C sort | cpio -o -H newc 2>/dev/null) >a.cpio
	for a in a.tar.gz a.zip a.cpio; do
		run --separate-stderr neardup hash --archives $a
		assert_exit OK
		assert_equal "$(printf '%s\n' "$output" | LC_ALL=C sort)" \
		    "$(printf '%s  %s//sub/one.txt\n%s  %s//sub/two.txt\n' \
		    "$one" $a "$two" $a)"
		assert_equal "$stderr" "neardup: $a//sub/bin: binary file skipped"
	done
}

@test "compress-015: --archives on standard input names members -//PATH; a compressed non-archive keeps its own name" {
	members m
	tar -C m -cf - sub | zstd -q >a.tar.zst
	text doc.txt
	xz -c doc.txt >doc.xz
	run --separate-stderr neardup hash --archives - <a.tar.zst
	assert_exit OK
	assert_line --partial '  -//sub/one.txt'
	assert_line --partial '  -//sub/two.txt'
	run --separate-stderr neardup hash --archives doc.xz doc.txt
	assert_exit OK
	assert_line --index 0 "$(fp "$(neardup hash doc.txt)")  doc.xz"
}

@test "compress-016: without --archives a tar is one document, its decompressed bytes (binary: skipped)" {
	members m
	rm m/sub/bin
	tar -C m -czf a.tar.gz sub
	run --separate-stderr neardup hash a.tar.gz
	assert_exit OK
	assert_output ''
	assert_equal "$stderr" 'neardup: a.tar.gz: binary file skipped'
	run --separate-stderr neardup hash --binary a.tar.gz
	assert_exit OK
	assert_output "$(gzip -dc a.tar.gz | neardup hash --binary | sed 's/  -$/  a.tar.gz/')"
}

@test "compress-017: --archives over a truncated archive: the whole members before the break, then its reason, exit 2" {
	mkdir m
	for i in 1 2 3 4 5 6; do text m/$i.txt; echo "$i" >>m/$i.txt; done
	tar -C m -cf - 1.txt 2.txt 3.txt 4.txt 5.txt 6.txt | gzip -n >a.tar.gz
	head -c $(($(wc -c <a.tar.gz) * 2 / 3)) a.tar.gz >cut.tar.gz
	run --separate-stderr neardup hash --archives cut.tar.gz
	assert_exit TROUBLE
	assert_regex "$stderr" '^neardup: cut\.tar\.gz: .'
	n=${#lines[@]}
	[ "$n" -ge 1 ] && [ "$n" -lt 6 ]
	for ((i = 1; i <= n; i++)); do
		assert_line --index $((i - 1)) \
		    "$(fp "$(neardup hash m/$i.txt)")  cut.tar.gz//$i.txt"
	done
}

@test "compress-018: cluster --dups never lists an archive member, says why once; cluster --docs --archives keeps the estimate for members" {
	members m
	tar -C m -czf a.tar.gz sub
	cp m/sub/one.txt copy.txt
	neardup hash --archives a.tar.gz copy.txt >fp 2>/dev/null
	run --separate-stderr neardup cluster -d 3 --dups --keep=path fp
	assert_exit OK
	refute_output --partial '//'
	assert_equal "$stderr" 'neardup: a.tar.gz//sub/two.txt: not listed by --dups, nor any archive member: a member is no file to remove'
	run --separate-stderr neardup cluster -d 3 --dups fp
	assert_exit OK
	assert_output 'copy.txt'
	run --separate-stderr neardup cluster --docs --archives --format=tsv a.tar.gz copy.txt
	assert_exit OK
	assert_line --index 0 --regexp $'^1\ta\\.tar\\.gz//sub/(one|two)\\.txt\t1\\.000000\tkept$'
	assert_line --regexp $'^1\tcopy\\.txt\t[0-9.]+\testimate$'
}

@test "compress-019: near --docs --archives queries with each member; --archives is refused with --lines" {
	members m
	zip -q -r a.zip m
	neardup hash m/sub/one.txt >index.fp
	run --separate-stderr neardup near -d 3 --docs --archives index.fp a.zip
	assert_exit OK
	assert_line --partial 'a.zip//m/sub/one.txt'
	run --separate-stderr neardup hash --archives --lines a.zip
	assert_exit TROUBLE
	assert_stderr_line '^neardup: --archives applies to whole documents, not to --lines'
}

@test "compress-020: an empty text compressed is an empty document; a stream cut within its header is broken, not read as bytes" {
	: >empty.txt
	want=$(fp "$(neardup hash empty.txt)")
	for f in $FORMATS; do
		pack $f <empty.txt >empty.$f
		run --separate-stderr neardup hash empty.$f
		assert_exit OK
		assert_output "$want  empty.$f"
		run --separate-stderr neardup hash --archives empty.$f
		assert_exit OK
		assert_output "$want  empty.$f"
	done
	text doc.txt
	gzip -c doc.txt >named.gz
	head -c 12 named.gz >head.gz
	run --separate-stderr neardup hash head.gz doc.txt
	assert_exit TROUBLE
	assert_output "$(neardup hash doc.txt)"
	assert_equal "$stderr" 'neardup: head.gz: truncated or corrupt compression header'
}

@test "compress-021: a text that begins as bzip2's magic does (BZh) is text" {
	printf 'BZh9 is how a bzip2 stream begins\n' >bz.txt
	want=$(fp "$(neardup hash --binary bz.txt)")
	run --separate-stderr neardup hash bz.txt
	assert_exit OK
	assert_output "$want  bz.txt"
	run --separate-stderr bash -c 'cat bz.txt | "$NEARDUP" hash'
	assert_exit OK
	assert_output "$want  -"
}

@test "compress-022: compare --archives reads the members a name ARCHIVE//PATH (as hash --archives prints it) names, against a member or a file" {
	members m
	tar -C m -czf a.tar.gz sub
	(cd m && zip -q -r ../b.zip sub)
	want=$(neardup compare --format=tsv m/sub/one.txt m/sub/two.txt | cut -f 3-)
	name=$(neardup hash --archives a.tar.gz 2>/dev/null | grep -o 'a\.tar\.gz//sub/one\.txt$')
	run --separate-stderr neardup compare --archives --format=tsv "$name" b.zip//sub/two.txt
	assert_exit OK
	assert_line --index 1 "$(printf 'a.tar.gz//sub/one.txt\tb.zip//sub/two.txt\t%s' "$(printf '%s\n' "$want" | sed -n 2p)")"
	run --separate-stderr neardup compare --archives --format=tsv b.zip//sub/two.txt m/sub/one.txt
	assert_exit OK
	assert_line --index 1 --partial $'b.zip//sub/two.txt\tm/sub/one.txt\t'
	run --separate-stderr neardup compare --archives -q a.tar.gz//sub/one.txt - <m/sub/one.txt
	assert_exit OK
}

@test "compress-023: compare: a member not in the archive is 'no such member', exit 2; without --archives a name with // is a file name" {
	members m
	tar -C m -czf a.tar.gz sub
	run --separate-stderr neardup compare --archives a.tar.gz//sub/none.txt m/sub/one.txt
	assert_exit TROUBLE
	assert_output ''
	assert_equal "$stderr" 'neardup: a.tar.gz//sub/none.txt: no such member'
	run --separate-stderr neardup compare --archives m/sub/one.txt//x m/sub/one.txt
	assert_exit TROUBLE
	assert_equal "$stderr" 'neardup: m/sub/one.txt//x: no such member'
	run --separate-stderr neardup compare a.tar.gz//sub/one.txt m/sub/one.txt
	assert_exit TROUBLE
	assert_equal "$stderr" 'neardup: a.tar.gz//sub/one.txt: Not a directory'
	run --separate-stderr neardup compare -q m//sub/one.txt m/sub/one.txt
	assert_exit OK
	run --separate-stderr neardup compare --archives -q m//sub/one.txt m/sub/one.txt
	assert_exit OK
	head -c 200 a.tar.gz >cut.tar.gz
	run --separate-stderr neardup compare --archives cut.tar.gz//sub/one.txt m/sub/one.txt
	assert_exit TROUBLE
	assert_regex "$stderr" '^neardup: cut\.tar\.gz//sub/one\.txt: .'
	run --separate-stderr neardup compare -F --archives m/sub/one.txt m/sub/one.txt
	assert_exit TROUBLE
	assert_regex "$stderr" 'neardup: --archives needs documents, not fingerprints'
}
