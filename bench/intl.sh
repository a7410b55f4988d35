#!/usr/bin/env bash
# bench/intl.sh: time `neardup hash` on text that is not plain ASCII against the
# same on plain ASCII text and against ssdeep, in the same run, and print one
# Markdown table.
#
#   bench/intl.sh [-n RUNS] [-b NEARDUP_BINARY] [-s MB] [-x OTHER_NEARDUP]
#
#   -n RUNS    timed runs of every contender (default 5)
#   -b BINARY  the neardup to time (default ./neardup)
#   -s MB      size of each text in MB (default 200: GNU time counts hundredths);
#              hash.sh's sizes, passed on by bench/run, mean 20 (10m, quick), 100
#              (100m) and 200 (1g)
#   -x BINARY  another neardup (an older build, say) timed beside it
#   (-c CORPUSDIR is taken and not used: the texts are the manual pages here)
#
# The texts are the manual pages installed here, made up to the size by repeating
# them: English (man1 and man3, about plain ASCII), the same English with its
# quotes, apostrophes and spaced hyphens made typographic (’ ” —, as text from the
# web or a word processor has them), and the German, French, Russian, Japanese
# and Chinese pages if installed (manpages-de, manpages-fr, manpages-ru,
# manpages-ja, manpages-zh); a missing one is a row that says so. Each text is
# hashed with -w 3 and -c 5 by the best vector path and with AVX2 only
# (NEARDUP_NO_AVX512=1), and by ssdeep. Runs alternate (round-robin); each is
# timed by GNU time, output to /dev/null. Reported: median seconds, MB/s, the
# ratio to ssdeep on the same text, and the time over that of the English text
# for the same contender (1.00 would be: no cost for the accents).
set -euo pipefail
export LC_ALL=C
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bench_init intl.sh

runs=5
bin=./neardup
corpus=
size=200
other=
bench_options -x x:other "bench/intl.sh [-n RUNS] [-b NEARDUP_BINARY] [-s MB] [-x OTHER_NEARDUP]" "$@"
case $size in
  quick | 10m) size=20 ;;
  100m) size=100 ;;
  1g) size=200 ;;
  '' | *[!0-9]* | 0) die "-s: want a number of MB, 10m, 100m, 1g or quick, not '$size'" ;;
esac
find_bin "$bin"
main=$bin
if [ -n "$other" ]; then
  find_bin "$other"
  other=$bin
  bin=$main
fi
need_time
have python3 || die "python3 is needed to build the texts"
make_tmp intl

# text NAME DIR...: the pages under DIR... as one text of $size MB in $tmp/NAME.txt;
# false if there are none
text() {
  local name=$1
  shift
  find "$@" -name '*.gz' 2>/dev/null | sort | xargs -r zcat -f 2>/dev/null >"$tmp/$name.src" || true
  [ -s "$tmp/$name.src" ] || return 1
  python3 - "$tmp/$name.src" "$tmp/$name.txt" "$size" <<'EOF'
import sys
src, dst, mb = sys.argv[1], sys.argv[2], int(sys.argv[3])
d = open(src, 'rb').read()
out = d * (mb * 10**6 // len(d) + 1)
open(dst, 'wb').write(out[:mb * 10**6])
EOF
}
say "building the texts"
texts=()
text en /usr/share/man/man1 /usr/share/man/man3 && texts+=(en)
if [ -s "$tmp/en.txt" ]; then
  python3 - "$tmp/en.txt" "$tmp/curly.txt" <<'EOF'
import sys
d = open(sys.argv[1], 'rb').read().decode('utf-8', 'surrogateescape')
d = d.replace("'", "\u2019").replace('"', '\u201d').replace(' - ', ' \u2014 ')
open(sys.argv[2], 'wb').write(d.encode('utf-8', 'surrogateescape'))
EOF
  texts+=(curly)
fi
[ ${#texts[@]} -gt 0 ] || die "no manual pages in /usr/share/man/man1 or man3"
missing=()
for l in de fr ru ja zh_CN; do
  if text "$l" "/usr/share/man/$l"; then texts+=("$l"); else missing+=("$l"); fi
done
cat "$tmp"/*.txt >/dev/null

machine_init
rev=$(neardup_rev)
echo "neardup hash on non-ASCII text, on $(uname -n): nproc $ncpu, $cpu," \
  "$(grep -qw avx512_vbmi2 /proc/cpuinfo && echo 'AVX-512 VBMI2,' ||
    { grep -qw avx512f /proc/cpuinfo && echo 'AVX-512 without VBMI2,'; } ||
    { grep -qw avx2 /proc/cpuinfo && echo 'AVX2,'; } || true)" \
  "$when; neardup $rev; $runs alternating runs each; $size MB a text"
echo

declare -a LABEL CMD IN TEXT WHO
n=0
add() { LABEL[n]=$1 CMD[n]=$2 IN[n]=$3 TEXT[n]=$4 WHO[n]=$5; n=$((n + 1)); }
for t in "${texts[@]}"; do
  f=$tmp/$t.txt
  have ssdeep && add "ssdeep" "ssdeep $(q "$f")" "$f" "$t" ssdeep
  for o in '-w 3' '-c 5'; do
    add "neardup hash -j 1 $o" "$(q "$main") hash -j 1 $o $(q "$f")" "$f" "$t" "nd $o"
    add "neardup hash -j 1 $o, AVX2 only" \
      "env NEARDUP_NO_AVX512=1 $(q "$main") hash -j 1 $o $(q "$f")" "$f" "$t" "nd2 $o"
    [ -z "$other" ] ||
      add "$(basename "$other") hash -j 1 $o" "$(q "$other") hash -j 1 $o $(q "$f")" \
        "$f" "$t" "old $o"
  done
done

round_robin intl $(seq 0 $((n - 1)))

# base T WHO: the median of contender WHO on text T
base() {
  local i
  for ((i = 0; i < n; i++)); do
    [ "${TEXT[i]}" = "$1" ] && [ "${WHO[i]}" = "$2" ] && { med_wall "$i"; return; }
  done
}
echo "| text | contender | median s | MB/s | × ssdeep | × the English text's time |"
echo "|---|---|--:|--:|--:|--:|"
for ((i = 0; i < n; i++)); do
  med=$(med_wall "$i")
  if [ -z "$med" ]; then
    echo "| ${TEXT[i]} | \`${LABEL[i]}\` | failed ($(cat "$tmp/fail.$i")) | | | |"
    continue
  fi
  rate=$(awk -v b="$(wc -c <"${IN[i]}")" -v s="$med" 'BEGIN { printf "%.1f", b / 1e6 / s }')
  if [ "${WHO[i]}" = ssdeep ]; then
    for c in '-w 3' '-c 5'; do
      summary "hash $c" "$size MB of ${TEXT[i]} man pages" peer ssdeep "$med" "$rate" \
        MB/s "$(peak_mib "$i")" ''
    done
  else
    summary "hash ${WHO[i]#* }" "$size MB of ${TEXT[i]} man pages" neardup "${LABEL[i]}" \
      "$med" "$rate" MB/s "$(peak_mib "$i")" ''
  fi
  awk -v t="${TEXT[i]}" -v l="${LABEL[i]}" -v s="$med" -v b="$(wc -c <"${IN[i]}")" \
    -v ss="$(base "${TEXT[i]}" ssdeep)" -v en="$(base en "${WHO[i]}")" 'BEGIN {
      printf "| %s | `%s` | %.3f | %.0f | %s | %s |\n", t, l, s, b / 1e6 / s,
        (ss > 0 && l != "ssdeep") ? sprintf("%.1f", ss / s) : "",
        (en > 0 && t != "en") ? sprintf("%.2f", s / en) : "" }'
done
echo
for l in ${missing[@]+"${missing[@]}"}; do
  echo "No /usr/share/man/$l here: its row is left out (install manpages-${l%_*})."
done
echo "Load average after: $(cut -d' ' -f1-3 /proc/loadavg)."
