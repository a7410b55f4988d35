# fish completion for neardup(1)
#
# To add a command: add a "name<TAB>description" line to
# __neardup_commands and a block of its options below.

function __neardup_commands
    printf '%s\t%s\n' \
        hash 'Print one fingerprint line per document' \
        compare 'Tell how similar two documents (or two fingerprints) are' \
        cluster 'Group near-duplicates and choose which to keep' \
        near 'Fingerprints within d bits, or t resemblance, of each query' \
        uniq 'Drop near-duplicate records from a stream' \
        help 'Print the list of commands or the usage of one'
end

function __neardup_algorithms
    printf '%s\t%s\n' \
        simhash 'Charikar simhash of 64 or 128 bits (default)' \
        minhash 'MinHash with k independent hash functions' \
        bottomk 'Bottom-k MinHash: the k least values of one hash' \
        oph 'One-permutation hashing with densification' \
        key 'Cluster key: XOR of the n least hash values'
end

# The command being completed: the first word after the global options.
# A unique prefix stands for the whole name, as neardup accepts it.
function __neardup_command
    for w in (commandline -opc)[2..-1]
        string match -q -- '-*' $w; and continue
        set -l names
        for name in (__neardup_commands | string replace -r '\t.*' '')
            test (string sub -l (string length -- $w) -- $name) = $w
            and set -a names $name
        end
        if test (count $names) -eq 1
            echo $names
        else
            echo $w
        end
        return 0
    end
    return 1
end

# The number of operands of the command before the word being completed:
# the words after the command that are neither options nor the value of
# one of the options in $argv, which take one.
function __neardup_operands
    set -l n 0
    set -l cmd 0
    set -l skip 0
    for w in (commandline -opc)[2..-1]
        if test $skip -eq 1
            set skip 0
        else if test $cmd -eq 0
            string match -q -- '-*' $w; or set cmd 1
        else if contains -- $w $argv
            set skip 1
        else if not string match -q -- '-?*' $w
            set n (math $n + 1)
        end
    end
    echo $n
end

# True if the command being completed is $argv[1].
function __neardup_using_command
    set -l cmd (__neardup_command)
    and test "$cmd" = $argv[1]
end

# Names are completed only where a command wants them.
complete -c neardup -f

# Global options and the command.
complete -c neardup -n __fish_use_subcommand -s h -l help -d 'Print the list of commands'
complete -c neardup -n __fish_use_subcommand -s V -l version -d 'Print the version'
complete -c neardup -n __fish_use_subcommand -a '(__neardup_commands)'
# Every command takes --version, as neardup -V.
for c in hash compare cluster near uniq
    complete -c neardup -n "__neardup_using_command $c" -l version -d 'Print the version of neardup'
end

# help [command]
complete -c neardup -n '__neardup_using_command help; and test (count (commandline -opc)) -le 2' \
    -a '(__neardup_commands)'

# hash [options] [file ...]
set -l hash '__neardup_using_command hash'
complete -c neardup -n $hash -F
complete -c neardup -n $hash -s h -l help -d 'Print the usage of hash'
complete -c neardup -n $hash -s a -l algorithm -x -a '(__neardup_algorithms)' -d 'Sketch to compute'
complete -c neardup -n $hash -s c -l chars -x -d 'Shingles of N characters, 1..64 (default 5 in record modes)'
complete -c neardup -n $hash -s w -l words -x -d 'Shingles of N words, 1..64 (default 3)'
complete -c neardup -n $hash -s j -l jobs -x -d 'Number of threads, 1..256 (default: online CPUs)'
complete -c neardup -n $hash -s k -l size -x -d 'Simhash bits (64, 128), or k or n, 1..4096'
complete -c neardup -n $hash -s s -l seed -x -d 'Seed of every hash (default 0)'
complete -c neardup -n $hash -l bands -d 'One BANDKEY<TAB>NAME line per LSH band (minhash, oph)'
complete -c neardup -n $hash -s t -l threshold -x -d 'With --bands, threshold the bands are chosen for (default 0.5)'
complete -c neardup -n $hash -l lsh -x -d 'With --bands, B bands of R rows (BxR)'
complete -c neardup -n $hash -l files0-from -r -F -d 'Read NUL-ended file names from FILE (- for stdin)'
complete -c neardup -n $hash -l keep-case -d 'Do not fold case'
complete -c neardup -n $hash -l keep-punct -d 'Punctuation is part of words'
complete -c neardup -n $hash -l lines -d 'Each line is a document, named FILE:LINENO'
complete -c neardup -n $hash -l tsv -d 'Each line is ID<TAB>TEXT, a document named ID'
complete -c neardup -n $hash -l jsonl -d 'Each line is a JSON object, the document its field (default text)'
complete -c neardup -n $hash -l id -x -d 'With --jsonl, name records by this field'
complete -c neardup -n $hash -l jsonl-skip-bad -d 'With --jsonl, skip bad lines with exit 0 and count them'
complete -c neardup -n $hash -l multiset -d 'Count repeated shingles (labelled shingles)'
complete -c neardup -n $hash -l progress -d 'Draw the progress line on stderr even when not a terminal'
complete -c neardup -n $hash -l no-progress -d 'Never draw the progress line'
complete -c neardup -n $hash -l weights -r -F -d 'Token weights for simhash word shingles'
complete -c neardup -n $hash -s r -l recursive -d 'Walk directories'
complete -c neardup -n $hash -s L -l dereference -d 'With -r, follow symbolic links'
complete -c neardup -n $hash -l archives -d 'Each member of a tar, zip or cpio archive is a document'
complete -c neardup -n $hash -l binary -d 'Hash binary files too (a NUL in the first 32 KiB)'
complete -c neardup -n $hash -l hidden -d 'With -r, walk names that begin with a dot'
complete -c neardup -n $hash -l exclude -x -d 'Skip files whose base name matches GLOB'
complete -c neardup -n $hash -l exclude-dir -x -d 'With -r, skip directories whose base name matches GLOB'
complete -c neardup -n $hash -s z -l null-data -d 'NUL ends output lines and input records'

# compare [options] a [b]
set -l compare '__neardup_using_command compare'
# Two operands at most: documents, or files of fingerprint lines.
complete -c neardup -n "$compare; and test (__neardup_operands -a --algorithm -c --chars -k --size -s --seed -t --threshold -w --words --color --colour --format --weights) -lt 2" -F
complete -c neardup -n $compare -s h -l help -d 'Print the usage of compare'
complete -c neardup -n $compare -s a -l algorithm -x -a '(__neardup_algorithms)' -d 'Scheme whose estimates are given'
complete -c neardup -n $compare -s c -l chars -x -d 'Shingles of N characters, 1..64'
complete -c neardup -n $compare -s w -l words -x -d 'Shingles of N words, 1..64 (default 3)'
complete -c neardup -n $compare -s k -l size -x -d 'Simhash bits (64, 128), or k or n, 1..4096'
complete -c neardup -n $compare -s s -l seed -x -d 'Seed of every hash (default 0)'
complete -c neardup -n $compare -s t -l threshold -x -d 'Least figure that is similar, 0..1 (default 0.5)'
complete -c neardup -n $compare -s F -l fingerprints -d 'Operands are fingerprint lines'
complete -c neardup -n $compare -s q -l quiet -d 'Print nothing, answer by the exit status'
complete -c neardup -n $compare -l archives -d 'An operand ARCHIVE//PATH is that archive member'
complete -c neardup -n $compare -l color -x -a 'auto always never' -d 'Colour the shared passages'
complete -c neardup -n $compare -l colour -x -a 'auto always never' -d 'Colour the shared passages'
complete -c neardup -n $compare -l containment -d 'Threshold the larger containment, not the resemblance'
complete -c neardup -n $compare -l format -x -a 'text tsv json' -d 'Output format'
complete -c neardup -n $compare -l keep-case -d 'Do not fold case'
complete -c neardup -n $compare -l keep-punct -d 'Punctuation is part of words'
complete -c neardup -n $compare -l multiset -d 'Count repeated shingles (labelled shingles)'
complete -c neardup -n $compare -l passages -d 'List the shared passages'
complete -c neardup -n $compare -l progress -d 'Draw the progress line on stderr even when not a terminal'
complete -c neardup -n $compare -l no-progress -d 'Never draw the progress line'
complete -c neardup -n $compare -l header -d 'With --format=tsv, the header line (always there)'
complete -c neardup -n $compare -s z -l null-data -d 'With -F NUL-ended input lines; with tsv NUL-ended records'
complete -c neardup -n $compare -l weights -r -F -d 'Token weights for simhash word shingles'

# cluster [options] [file ...]
set -l cluster '__neardup_using_command cluster'
complete -c neardup -n $cluster -F
complete -c neardup -n $cluster -s h -l help -d 'Print the usage of cluster'
complete -c neardup -n $cluster -s t -l threshold -x -d 'Least estimated resemblance that joins, (0,1] (default 0.5)'
complete -c neardup -n $cluster -s d -l distance -x -d 'Simhash: largest distance in bits (default 3)'
complete -c neardup -n $cluster -l lsh -x -d 'Minhash, oph: B bands of R rows (BxR)'
complete -c neardup -n $cluster -l all -d 'Also print the documents without near-duplicates'
complete -c neardup -n $cluster -l dups -d 'Print all but the kept one of each group'
complete -c neardup -n $cluster -l uniques -d 'Print the kept one of each group and every other document'
complete -c neardup -n $cluster -l format -x -a 'groups tsv json sh' -d 'Output format (sh: a removal script)'
complete -c neardup -n $cluster -l keep -x -a 'first longest shortest path newest oldest' -d 'Which member of each group to keep'
complete -c neardup -n $cluster -l originals -r -F -d 'Files under DIR are kept, never listed'
complete -c neardup -n $cluster -l summary -d 'Count the groups and duplicates on stderr'
complete -c neardup -n $cluster -l no-summary -d 'No count on stderr, even on a terminal'
complete -c neardup -n $cluster -s 0 -l print0 -d 'NUL ends output records, not input lines'
complete -c neardup -n $cluster -l files0-from -r -F -d 'Read NUL-ended names from FILE (- for stdin)'
complete -c neardup -n $cluster -l pairs -d 'Print every confirmed pair with its similarity'
complete -c neardup -n $cluster -l header -d 'With --format=tsv or --pairs, begin with the column names'
complete -c neardup -n $cluster -l progress -d 'Draw the progress line on stderr even when not a terminal'
complete -c neardup -n $cluster -l no-progress -d 'Never draw the progress line'
complete -c neardup -n $cluster -l bands -d 'The input is band lines (hash --bands)'
complete -c neardup -n $cluster -l sorted -d 'The input is sorted key or band lines: bounded memory'
complete -c neardup -n $cluster -l transitive -d 'Groups are connected components, not leaders'
complete -c neardup -n $cluster -l exact -d 'Every pair at the threshold, by the exact join'
complete -c neardup -n $cluster -l verify -d 'Confirm pairs by the exact resemblance of the files named'
complete -c neardup -n $cluster -l docs -d 'Operands are documents, hashed on the fly'
complete -c neardup -n $cluster -l jsonl -d 'Each line is a JSON object, a document: its field (default text)'
complete -c neardup -n $cluster -l id -x -d 'With --jsonl, name records by this field'
complete -c neardup -n $cluster -l jsonl-skip-bad -d 'With --jsonl, skip bad lines with exit 0 and count them'
complete -c neardup -n $cluster -s r -l recursive -d 'Operands are documents; walk directories'
complete -c neardup -n $cluster -s L -l dereference -d 'With -r, follow symbolic links'
complete -c neardup -n $cluster -l archives -d 'With documents, each archive member is a document'
complete -c neardup -n $cluster -l binary -d 'With documents, hash binary files too'
complete -c neardup -n $cluster -l hidden -d 'With -r, walk names that begin with a dot'
complete -c neardup -n $cluster -l exclude -x -d 'With documents, skip files whose base name matches GLOB'
complete -c neardup -n $cluster -l exclude-dir -x -d 'With -r, skip directories whose base name matches GLOB'
complete -c neardup -n $cluster -s v -l verbose -d 'Report the scheme, bands and pair counts on stderr'
complete -c neardup -n $cluster -s z -l null-data -d 'NUL ends input lines and output records'
complete -c neardup -n $cluster -s a -l algorithm -x -a '(__neardup_algorithms)' -d 'With documents, sketch to compute (default oph)'
complete -c neardup -n $cluster -s c -l chars -x -d 'With documents, shingles of N characters, 1..64'
complete -c neardup -n $cluster -s w -l words -x -d 'With documents, shingles of N words, 1..64 (default 3)'
complete -c neardup -n $cluster -s j -l jobs -x -d 'With documents, number of threads, 1..256'
complete -c neardup -n $cluster -s k -l size -x -d 'With documents, size of the sketch (default 128)'
complete -c neardup -n $cluster -s s -l seed -x -d 'With documents, seed of every hash (default 0)'
complete -c neardup -n $cluster -l keep-case -d 'With documents, do not fold case'
complete -c neardup -n $cluster -l keep-punct -d 'With documents, punctuation is part of words'
complete -c neardup -n $cluster -l multiset -d 'With documents, count repeated shingles'
complete -c neardup -n $cluster -l weights -r -F -d 'With documents, token weights for simhash word shingles'

# near [options] -d distance index [query ...]
set -l near '__neardup_using_command near'
complete -c neardup -n $near -F
complete -c neardup -n $near -s h -l help -d 'Print the usage of near'
complete -c neardup -n $near -s d -l distance -x -d 'Simhash: largest distance in bits (required)'
complete -c neardup -n $near -s t -l threshold -x -d 'Minhash, oph, bottomk: least estimated resemblance (default 0.5)'
complete -c neardup -n $near -s n -l count -x -d 'At most the COUNT nearest matches of each query'
complete -c neardup -n $near -l docs -d 'Query operands are documents, hashed on the fly'
complete -c neardup -n $near -l format -x -a 'text json' -d 'Output format'
complete -c neardup -n $near -l self -d 'Every pair of index lines within the distance, once'
complete -c neardup -n $near -l files0-from -r -F -d 'Read NUL-ended query names from FILE (- for stdin)'
complete -c neardup -n $near -l header -d 'Begin the text output with the column names'
complete -c neardup -n $near -l progress -d 'Draw the progress line on stderr even when not a terminal'
complete -c neardup -n $near -l no-progress -d 'Never draw the progress line'
complete -c neardup -n $near -s c -l chars -x -d 'With --docs, shingles of N characters, 1..64'
complete -c neardup -n $near -s w -l words -x -d 'With --docs, shingles of N words, 1..64 (default 3)'
complete -c neardup -n $near -s a -l algorithm -x -a '(__neardup_algorithms | string match -v "key*")' -d 'With --docs, the algorithm of the index'
complete -c neardup -n $near -s k -l size -x -d 'With --docs, simhash bits (64, 128), or k, 1..4096'
complete -c neardup -n $near -s s -l seed -x -d 'With --docs, seed of every hash (default 0)'
complete -c neardup -n $near -l keep-case -d 'With --docs, do not fold case'
complete -c neardup -n $near -l keep-punct -d 'With --docs, punctuation is part of words'
complete -c neardup -n $near -l multiset -d 'With --docs, count repeated shingles'
complete -c neardup -n $near -l weights -r -F -d 'With --docs, token weights for simhash word shingles'
complete -c neardup -n $near -s r -l recursive -d 'With --docs, walk directories'
complete -c neardup -n $near -s L -l dereference -d 'With --docs -r, follow symbolic links'
complete -c neardup -n $near -l archives -d 'With --docs, each archive member is a query'
complete -c neardup -n $near -l binary -d 'With --docs, hash binary files too'
complete -c neardup -n $near -l hidden -d 'With --docs -r, walk names that begin with a dot'
complete -c neardup -n $near -l exclude -x -d 'With --docs, skip files whose base name matches GLOB'
complete -c neardup -n $near -l exclude-dir -x -d 'With --docs -r, skip directories whose base name matches GLOB'
complete -c neardup -n $near -s z -l null-data -d 'NUL ends input lines and output records'
complete -c neardup -n $near -l jsonl -d 'With --docs, each line of a query file is a JSON object, a query'
complete -c neardup -n $near -l id -x -d 'With --jsonl, name queries by this field'
complete -c neardup -n $near -l jsonl-skip-bad -d 'With --jsonl, skip bad lines with exit 0 and count them'

# uniq [options] [file ...]
set -l uniq '__neardup_using_command uniq'
complete -c neardup -n $uniq -F
complete -c neardup -n $uniq -s h -l help -d 'Print the usage of uniq'
complete -c neardup -n $uniq -s t -l threshold -x -d 'Least resemblance of a near-duplicate, (0,1] (default 0.5)'
complete -c neardup -n $uniq -s c -l count -d 'Print each group once, with its size, at the end'
complete -c neardup -n $uniq -s d -l repeated -d 'Print only records that have near-duplicates'
complete -c neardup -n $uniq -s D -l all-repeated -d 'Print every record of every group, at the end'
complete -c neardup -n $uniq -s u -l unique -d 'Print only records that have no near-duplicate, at the end'
complete -c neardup -n $uniq -l explain -d 'Print RECORD<TAB>DUPLICATE-OF for each record dropped'
complete -c neardup -n $uniq -s i -l ignore-case -d 'Ignore case in comparing (the default)'
complete -c neardup -n $uniq -s f -l skip-fields -x -d 'Leave the first N fields out of the comparison'
complete -c neardup -n $uniq -s s -l skip-chars -x -d 'Leave the first N characters out of the comparison'
complete -c neardup -n $uniq -s w -l check-chars -x -d 'Compare at most N characters'
complete -c neardup -n $uniq -l tsv -d 'Each line is ID<TAB>TEXT, compared on TEXT'
complete -c neardup -n $uniq -l jsonl -d 'Each line is a JSON object, compared on its field, printed whole'
complete -c neardup -n $uniq -l id -x -d 'With --jsonl, name records by this field for --explain'
complete -c neardup -n $uniq -l jsonl-skip-bad -d 'With --jsonl, skip bad lines with exit 0 and count them'
complete -c neardup -n $uniq -s z -l null-data -d 'NUL ends input and output records'
complete -c neardup -n $uniq -l zero-terminated -d 'NUL ends input and output records'
complete -c neardup -n $uniq -l chars -x -d 'Shingles of N characters, 1..64 (default 5)'
complete -c neardup -n $uniq -l words -x -d 'Shingles of N words, 1..64'
complete -c neardup -n $uniq -l seed -x -d 'Seed of every hash (default 0)'
complete -c neardup -n $uniq -l keep-case -d 'Do not fold case'
complete -c neardup -n $uniq -l keep-punct -d 'Punctuation is part of words'
complete -c neardup -n $uniq -l multiset -d 'Count repeated shingles'
complete -c neardup -n $uniq -l progress -d 'Draw the progress line on stderr even when not a terminal'
complete -c neardup -n $uniq -l no-progress -d 'Never draw the progress line'
