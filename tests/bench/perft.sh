#!/usr/bin/env bash
# Frisian perft against Scan 3.1 (issue 17), end to end.
#
#   perft.sh RELEASE_DIR [V3_RELEASE_DIR]
#
# RELEASE_DIR holds the plain release build (`cargo build --release --workspace --bins
# --examples` puts the perft example at RELEASE_DIR/examples/perft). V3_RELEASE_DIR holds the
# same example built with RUSTFLAGS="-C target-cpu=x86-64-v3"; without it the script builds
# it into REPO/target/x86-64-v3 (REPO: the checkout RELEASE_DIR belongs to, or $REPO).
# Scan's drivers (built outside the repository from Scan 3.1's sources, see BENCHMARKS.md) are
# taken from $SCAN_DIR (default /tmp/scan17/src): perft_scan (-march=native), perft_scan_v3
# (-march=x86-64-v3) and perft_scan_v1 (-march=x86-64).
#
# Prints: perft 1..10 of the start position (104,917,017 leaves), one thread, three
# interleaved runs of each program (wall seconds as each program times itself, leaves/s,
# Scan native ÷ ours); then instructions per leaf at perft 8 under callgrind (the same on a
# busy machine) and the load average before and after. Takes about a minute (plus the v3
# build when it is not given). Leaves nothing behind but the v3 build.
set -euo pipefail

release=${1:?usage: perft.sh RELEASE_DIR [V3_RELEASE_DIR]}
release=$(cd "$release" && pwd)
scan_dir=${SCAN_DIR:-/tmp/scan17/src}
ours_plain=$release/examples/perft
[[ -x $ours_plain ]] || { echo "no perft example in $release/examples (cargo build --release --workspace --bins --examples)" >&2; exit 1; }
for s in perft_scan perft_scan_v3 perft_scan_v1; do
    [[ -x $scan_dir/$s ]] || { echo "no Scan driver $scan_dir/$s (see BENCHMARKS.md: Frisian perft against Scan 3.1)" >&2; exit 1; }
done

if [[ -n ${2:-} ]]; then
    ours_v3=$(cd "$2" && pwd)/examples/perft
else
    repo=${REPO:-$(cd "$release/../.." && pwd)}
    [[ -f $repo/Cargo.toml ]] || { echo "set REPO to the checkout to build the x86-64-v3 perft in" >&2; exit 1; }
    echo "building the perft example for x86-64-v3 into $repo/target/x86-64-v3 ..."
    (cd "$repo" && RUSTFLAGS="-C target-cpu=x86-64-v3" cargo build --quiet --release \
        -p frisian --example perft --target-dir "$repo/target/x86-64-v3")
    ours_v3=$repo/target/x86-64-v3/release/examples/perft
fi
[[ -x $ours_v3 ]] || { echo "no x86-64-v3 perft example at $ours_v3" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "perft 1..10 of the start, one thread (seconds as each program times itself):"

# Runs one perft 1..10, checks that it counted all 104,917,017 leaves, and prints the seconds
# it reports (its own timer, around the counting only) and the user CPU seconds of the process.
run() {
    local out
    { TIMEFORMAT=%U; time "$@" >"$tmp/out"; } 2>"$tmp/cpu"
    out=$(tail -1 "$tmp/out")
    [[ $out == *" 104917017 in "* ]] || { echo "wrong leaf count: $out" >&2; exit 1; }
    echo "$(sed -E 's/.* in ([0-9.]+) s.*/\1/' <<<"$out") $(tail -1 "$tmp/cpu")"
}

declare -A secs cpu
names=(ours_plain ours_v3 scan_native scan_v3)
commands=("$ours_plain 1..10" "$ours_v3 1..10" "$scan_dir/perft_scan 10" "$scan_dir/perft_scan_v3 10")
for round in 1 2 3; do
    line="  run $round:"
    for i in "${!names[@]}"; do
        n=${names[$i]}
        read -r secs[$n,$round] cpu[$n,$round] < <(run ${commands[$i]})
        line+=$(printf ' %s %.3f s' "$n" "${secs[$n,$round]}")
    done
    echo "$line"
done

median() { printf '%s\n' "$@" | sort -g | sed -n 2p; }
for n in "${names[@]}"; do
    m=$(median "${secs[$n,1]}" "${secs[$n,2]}" "${secs[$n,3]}")
    c=$(median "${cpu[$n,1]}" "${cpu[$n,2]}" "${cpu[$n,3]}")
    secs[$n,median]=$m
    cpu[$n,median]=$c
    printf '  %-12s median %.3f s (%6.1f M leaves/s), user CPU %.2f s\n' "$n" "$m" \
        "$(bc -l <<<"104917017 / $m / 1000000")" "$c"
done
for n in ours_plain ours_v3; do
    per_run=$(for r in 1 2 3; do printf ' %.2fx' "$(bc -l <<<"${secs[scan_native,$r]} / ${secs[$n,$r]}")"; done)
    printf '  Scan native / %s: %.2fx (medians; per run:%s); by user CPU %.2fx\n' "$n" \
        "$(bc -l <<<"${secs[scan_native,median]} / ${secs[$n,median]}")" "$per_run" \
        "$(bc -l <<<"${cpu[scan_native,median]} / ${cpu[$n,median]}")"
done
echo "load average after the timed runs: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "instructions at perft 8 of the start (2,825,779 leaves), callgrind:"

# Instructions a run executes (the whole process, startup included: about 0.2 M).
instructions() {
    valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" "$@" 2>&1 >/dev/null \
        | sed -nE 's/.*I +refs: +([0-9,]+).*/\1/p' | tr -d ,
}
declare -A ir
ir[ours_plain]=$(instructions "$ours_plain" 8)
ir[ours_v3]=$(instructions "$ours_v3" 8)
ir[scan_x86_64]=$(instructions "$scan_dir/perft_scan_v1" 8 only)
ir[scan_v3]=$(instructions "$scan_dir/perft_scan_v3" 8 only)
for n in ours_plain scan_x86_64 ours_v3 scan_v3; do
    printf '  %-12s %13s instructions, %5.1f per leaf\n' "$n" \
        "$(sed -E ':a;s/([0-9])([0-9]{3})($|,)/\1,\2\3/;ta' <<<"${ir[$n]}")" "$(bc -l <<<"${ir[$n]} / 2825779")"
done
printf '  Scan / ours, both x86-64:    %.2fx\n' "$(bc -l <<<"${ir[scan_x86_64]} / ${ir[ours_plain]}")"
printf '  Scan / ours, both x86-64-v3: %.2fx\n' "$(bc -l <<<"${ir[scan_v3]} / ${ir[ours_v3]}")"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
