#!/usr/bin/env bats
#
# The README shows commands after "$ " with the output they print.  Those
# that read the licence texts of /usr/share/common-licenses, or what an
# earlier one made from them, are run again here, in order, in one
# directory with ./neardup, and must print what the README shows.

load helper

# The licence texts the README's output was made from (Debian 12): cat of
# them all, through sha256sum.  Other texts give other figures.
LICENCES_SHA256=1021017e9362672c7676616e3b55cd7d4c5b85c7d2c966be8934486bc902fcd4

# split_readme DIR: each "$ " command of README into DIR/N.cmd (its
# continuation lines too: after a line ending in | or \) and the output
# shown after it into DIR/N.out.  An output runs until prose, the next
# "$", or a blank line before a command shown without a prompt (an
# indented line that names neardup).
split_readme() {
	awk -v dir="$1" '
	function flush() {
		if (!pending)
			return
		pending = 0
		while (nout > 0 && out[nout] == "")
			nout--
		f = dir "/" n ".out"
		printf "" > f
		for (i = 1; i <= nout; i++)
			print out[i] > f
		close(f)
		nout = 0
	}
	function cmdline(s) {
		print s > (dir "/" n ".cmd")
		cont = s ~ /[|\\]$/
	}
	cont {
		sub(/^ +/, "")
		cmdline($0)
		next
	}
	/^    \$ / {
		flush()
		n++
		pending = 1
		blank = 0
		cmdline(substr($0, 7))
		state = 1
		next
	}
	/^    \$$/ { flush(); state = 0; next }
	state && /^$/ { out[++nout] = ""; blank = 1; next }
	state && /^    / {
		if (blank && /neardup /) {
			flush()
			state = 0
			next
		}
		blank = 0
		out[++nout] = substr($0, 5)
		next
	}
	state { flush(); state = 0 }
	END { flush() }' "$ROOT_DIR/README"
}

@test "readme-001: the README commands on the licences print what it shows" {
	local f n cmd want got made="" name ok bad=0 ran=0
	[ -d /usr/share/common-licenses ] || skip "no /usr/share/common-licenses"
	[ "$(cat /usr/share/common-licenses/* | sha256sum | cut -d' ' -f1)" = \
	    "$LICENCES_SHA256" ] ||
	    skip "these licence texts are not those the README shows (Debian 12)"
	command -v parallel >/dev/null || skip "no GNU parallel"
	mkdir blocks run
	split_readme blocks
	[ -e blocks/1.cmd ] || fail "no \$ command found in README"
	ln -s "$NEARDUP" run/neardup
	for ((n = 1; ; n++)); do
		f=blocks/$n.cmd
		[ -e "$f" ] || break
		cmd=$(cat "$f")
		# Not another host (-S host1), nor inputs that are not the
		# licences or made from them.
		[[ $cmd == *host1* ]] && continue
		if [[ $cmd != *common-licenses* && $cmd != printf* ]]; then
			ok=0
			for name in $made; do
				[[ $cmd =~ (^|[^A-Za-z0-9_.-])$name([^A-Za-z0-9_.-]|$) ]] &&
				    ok=1
			done
			((ok)) || continue
		fi
		ls -A run >before
		got=$(cd run && PATH=$PWD:$PATH bash -c "$cmd" 2>&1)
		want=$(cat "blocks/$n.out")
		# ls lays its names out for the terminal it was shown on.
		if [[ $cmd == ls\ * ]]; then
			got=$(tr -s ' \t\n' ' ' <<<"$got")
			want=$(tr -s ' \t\n' ' ' <<<"$want")
		fi
		if [ "$got" != "$want" ]; then
			echo "\$ $cmd"
			diff -u <(printf '%s\n' "$want") <(printf '%s\n' "$got")
			bad=$((bad + 1))
		fi
		made="$made $(ls -A run | comm -13 before -)"
		ran=$((ran + 1))
	done
	[ "$ran" -ge 20 ] || fail "only $ran README commands ran"
	[ "$bad" -eq 0 ] || fail "$bad README command(s) print something else"
}
