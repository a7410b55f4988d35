# shellcheck shell=bash disable=SC2034,SC2119,SC2120,SC2154
# (SC2034, SC2154: variables set here for the scripts, or by them for these functions)
# bench/lib.sh: what the bench/*.sh scripts share. Sourced, not run:
#
#   . "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
#   bench_init NAME.sh
#
# Messages: die (exit 2) and say go to stderr, prefixed by the script's name; only
# tables go to stdout.
#
# Timed runs (run_one, round_robin): the caller fills the arrays CMD (the command, its
# words quoted with q for eval; "" = skipped) and LABEL (shown in progress lines) and
# sets runs and tmp (make_tmp). Every run is a whole process under GNU time
# (`/usr/bin/time -o FILE -f "$TIME_FORMAT"`, whose first two fields must be %e %M:
# wall seconds and peak RSS in KiB). $tmp/t.I gets one line of those figures per
# successful run of contender I, $tmp/err.I the standard error of its last run, and
# $tmp/fail.I why it failed ("exit 139, SIGSEGV"): a contender that failed once is not
# run again. Hooks a script may redefine after sourcing: run_ok I RC (is exit status RC
# a success? default: RC = 0), run_out I (where stdout goes; default /dev/null),
# after_run I (after each successful run) and before_round R (before each round).
#
# Summary rows (summary): when BENCH_SUMMARY names a file (bench/run sets it), each
# script appends one tab-separated line per contender that the summary table of
# bench/run shows:
#
#   command input role contender seconds rate unit peak_mib note
#
#   command    the neardup command benchmarked: hash, hash -r, cluster, near -d 3, ...
#   input      what it read (rows of one command and input are compared with each other)
#   role       neardup or peer
#   contender  the command as shown
#   seconds    median wall seconds ("" if none: failed, skipped, or not meaningful)
#   rate       throughput, higher is faster ("" if none), in
#   unit       MB/s, files/s, lines/s, queries/s, ...
#   peak_mib   largest peak RSS over the runs, MiB ("" if none)
#   note       "not installed, skipped", "failed (exit 1)", or a remark
#
# bench/run pairs every neardup row with every peer row of the same command and input,
# and their ratio is neardup's rate / the peer's: above 1, neardup is faster.

BENCH_NAME=bench
BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)  # bench/, absolute
bench_init() { BENCH_NAME=$1; }
die() { echo "$BENCH_NAME: $*" >&2; exit 2; }
say() { echo "$BENCH_NAME: $*" >&2; }
have() { command -v "$1" >/dev/null 2>&1; }
q() { printf '%q' "$1"; }  # shell-quote a word for the command strings run by eval

# check_runs N: die unless N is a positive integer (the -n option)
check_runs() { case $1 in '' | *[!0-9]* | 0) die "-n: want a positive integer, not '$1'" ;; esac; }

# bench_options [-x LETTER:VAR] USAGE ARGS...: the options every script
# takes, -n RUNS, -b BINARY, -c CORPUSDIR and -s SIZE, into runs, bin,
# corpus and size (which the caller sets to its defaults first), and with
# -x one more of the script's own, -LETTER VALUE into the variable VAR;
# anything else, or an operand, prints "usage: USAGE" and exits 2.
bench_options() {
  local usage opt OPTIND=1 xl= xv=
  if [ "$1" = -x ]; then
    xl=${2%%:*} xv=${2#*:}
    shift 2
  fi
  usage=$1
  shift
  while getopts ":n:b:c:s:${xl:+$xl:}h" opt; do
    case $opt in
      n) runs=$OPTARG ;;
      b) bin=$OPTARG ;;
      c) corpus=$OPTARG ;;
      s) size=$OPTARG ;;
      *)
        if [ -n "$xl" ] && [ "$opt" = "$xl" ]; then
          printf -v "$xv" '%s' "$OPTARG"
        else
          echo "usage: $usage" >&2
          exit 2
        fi ;;
    esac
  done
  shift $((OPTIND - 1))
  [ $# -eq 0 ] || { echo "usage: $usage" >&2; exit 2; }
  check_runs "$runs"
}

# find_bin PATH: set bin to the absolute path of the neardup binary PATH, or die
find_bin() {
  local b=$1
  case $b in */*) ;; *) b=./$b ;; esac
  { [ -f "$b" ] && [ -x "$b" ]; } || die "$b: no neardup binary (build it, or pass -b)"
  bin=$(cd "$(dirname "$b")" && pwd)/$(basename "$b")
}

# find_corpus DIR: set corpus to the absolute path of the corpus directory DIR, or die
find_corpus() {
  [ -d "$1" ] || die "$1: no corpus (build it with shared/bench/corpus.sh beside the project)"
  corpus=$(cd "$1" && pwd)
}

need_time() { [ -x /usr/bin/time ] || die "/usr/bin/time (GNU time) is required"; }

# doc_records: the records of the kernel's Documentation (bench/docjsonl.py) into $tmp,
# from $corpus/kernel/Documentation, set as docs (bench/jsonl.sh, bench/jsonparse.sh)
doc_records() {
  docs=$corpus/kernel/Documentation
  [ -d "$docs" ] || die "$docs: missing (run shared/bench/corpus.sh beside the project)"
  have python3 || die "python3 is needed to build the records"
  say "building the records from $docs"
  python3 "$BENCH_DIR/docjsonl.py" "$docs" "$tmp"
}

# make_tmp NAME: set tmp to a new directory, removed on exit
make_tmp() {
  tmp=$(mktemp -d "${TMPDIR:-/tmp}/neardup-$1.XXXXXX")
  trap 'rm -rf "$tmp"' EXIT
}

# machine_init: set ncpu, cpu (model name) and when (the date, UTC)
machine_init() {
  ncpu=$(nproc)
  cpu=$(awk -F': *' '/^model name/ && n == "" { n = $2 } /^cpu family/ && f == "" { f = $2 }
    /^model\t/ && m == "" { m = $2 }
    END { if (n != "") printf "%s%s", n, f != "" ? " (family " f ", model " m ")" : "" }' /proc/cpuinfo)
  [ -n "$cpu" ] || cpu=$(uname -m)
  when=$(date -u '+%Y-%m-%d %H:%M UTC')
}

# neardup_rev: the commit of the binary $bin: $NEARDUP_REV if set (a binary built
# outside the repository, from `git archive` say), else `git rev-parse --short HEAD` of
# the repository holding it, else of the one holding bench/ ("binary copied from it");
# "(dirty)" if that working tree has changes.
neardup_rev() {
  local d r rev=unknown
  if [ -n "${NEARDUP_REV:-}" ]; then
    echo "$NEARDUP_REV"
    return
  fi
  for d in "$(dirname "$bin")" "$BENCH_DIR"; do
    r=$(git -C "$d" rev-parse --short HEAD 2>/dev/null) || continue
    rev=$r
    git -C "$d" diff --quiet HEAD -- 2>/dev/null || rev="$rev (dirty)"
    [ "$d" = "$(dirname "$bin")" ] || rev="$rev (binary copied from it)"
    break
  done
  echo "$rev"
}

# median [FORMAT] < NUMBERS: their median, printed with FORMAT (default %.2f);
# nothing if there are none
median() {
  sort -g | awk -v f="${1:-%.2f}" '{ t[NR] = $1 }
    END { if (NR) printf f, NR % 2 ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2 }'
}
# med_wall I, med_cpu I, peak_mib I: contender I's median wall seconds, median CPU
# seconds (user + system: TIME_FORMAT '%e %M %U %S'), largest peak RSS in MiB; nothing
# if it has no successful run
med_wall() { [ -s "$tmp/t.$1" ] && awk '{ print $1 }' "$tmp/t.$1" | median; return 0; }
med_cpu() { [ -s "$tmp/t.$1" ] && awk '{ print $3 + $4 }' "$tmp/t.$1" | median; return 0; }
peak_mib() {
  [ -s "$tmp/t.$1" ] && awk '$2 > m { m = $2 } END { printf "%.1f", m / 1024 }' "$tmp/t.$1"
  return 0
}
fmt_mib() { awk -v v="$1" 'BEGIN { if (v >= 10) printf "%.0f", v; else printf "%.1f", v }'; }

# ---------------------------------------------------------------- timed runs
TIME_FORMAT='%e %M'
run_ok() { [ "$2" -eq 0 ]; }
run_out() { echo /dev/null; }
after_run() { :; }
before_round() { :; }

# run_one I R: run R (of $runs) of contender I, unless it failed before
run_one() {
  local i=$1 r=$2 rc=0 why
  [ -e "$tmp/fail.$i" ] && return 0
  # eval: CMD[i] holds words quoted by q(); no shell sits between time and the tool.
  eval "/usr/bin/time -o \"\$tmp/time\" -f '$TIME_FORMAT' ${CMD[i]}" \
    >"$(run_out "$i")" 2>"$tmp/err.$i" || rc=$?
  if ! run_ok "$i" "$rc"; then
    why="exit $rc"
    [ "$rc" -gt 128 ] && why="$why, SIG$(kill -l $((rc - 128)) 2>/dev/null || echo '?')"
    say "  ${LABEL[i]}: $why, dropped: $(grep -v '^Command' "$tmp/err.$i" | head -n 1)"
    echo "$why" >"$tmp/fail.$i"
    return 0
  fi
  tail -n 1 "$tmp/time" >>"$tmp/t.$i"
  after_run "$i"
  say "  run $r/$runs ${LABEL[i]}: $(tail -n 1 "$tmp/time" | awk '{ printf "%s s", $1
    if (NF >= 4) printf " (CPU %.2f s)", $3 + $4; printf ", %.0f MiB", $2 / 1024 }')"
}

# round_robin TITLE I...: $runs rounds over the contenders I... (the skipped ones, with
# an empty CMD, left out); run 1 of every contender, then run 2, ..., each round
# starting one contender further on, so that none always follows the same one
round_robin() {
  local title=$1 i j m r
  shift
  local members=()
  for i in "$@"; do [ -n "${CMD[i]}" ] && members+=("$i"); done
  m=${#members[@]}
  [ "$m" -gt 0 ] || return 0
  for ((r = 1; r <= runs; r++)); do
    say "$title: round $r of $runs"
    before_round "$r"
    for ((j = 0; j < m; j++)); do
      run_one "${members[$(((r - 1 + j) % m))]}" "$r"
    done
  done
}

# ---------------------------------------------------------------- summary rows
# summary COMMAND INPUT ROLE CONTENDER SECONDS RATE UNIT PEAK_MIB NOTE: one row for
# bench/run (see above); nothing unless BENCH_SUMMARY is set
summary() {
  [ -n "${BENCH_SUMMARY:-}" ] || return 0
  local f out=''
  for f in "$@"; do
    f=${f//$'\t'/ }
    out="$out${out:+$'\t'}${f//$'\n'/ }"
  done
  printf '%s\n' "$out" >>"$BENCH_SUMMARY"
}
# why I: contender I's note for a summary row: its NOTE if skipped, "failed (...)" if
# it has no successful run, else ""
why() {
  if [ -z "${CMD[$1]}" ]; then echo "${NOTE[$1]:-skipped}"
  elif [ ! -s "$tmp/t.$1" ]; then echo "failed ($(cat "$tmp/fail.$1" 2>/dev/null || echo '?'))"
  fi
}

# machine_rows: the machine, as rows of a two-column Markdown table
machine_rows() {
  local mem
  machine_init
  mem=$(awk '/^MemTotal:/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)
  echo "| host | $(uname -n) |"
  echo "| CPU | $cpu; nproc $ncpu$(lscpu 2>/dev/null | awk -F': *' '
    /^Core\(s\) per socket/ { c = $2 } /^Socket\(s\)/ { s = $2 } /^Thread\(s\) per core/ { t = $2 }
    END { if (c != "" && s != "") printf "; %d socket(s) x %d core(s) x %d thread(s)", s, c, t }') |"
  echo "| vector flags | $(awk -F': *' '/^flags/ && !done { n = split($2, f, " "); done = 1
      for (i = 1; i <= n; i++) if (f[i] ~ /^(avx2|avx512f|avx512bw|avx512_vbmi2)$/) v = v " " f[i] }
    END { printf "%s", substr(v, 2) }' /proc/cpuinfo) |"
  echo "| gathers (Gather Data Sampling, as the kernel reports it) | $(cat /sys/devices/system/cpu/vulnerabilities/gather_data_sampling 2>/dev/null || echo 'no report') |"
  echo "| memory | $mem |"
  echo "| kernel | $(uname -srm) |"
  echo "| date | $when |"
}
