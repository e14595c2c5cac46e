#!/bin/sh
# Whether the macro generates the same code as it did at an earlier commit for every
# `#[differentiable]` function the benchmarks and examples time: expands each with the macro's
# expansion printer at REV and at the working tree and compares the text. Identical expansions
# mean identical benchmark code, so no figure of BENCHMARKS.md can have moved because of the
# macro. `jvp` and `hvp` are dropped from the attributes (the earlier macro may not have them).
#
#   tools/same_expansions.sh b7e073f^
set -eu
rev=$1
root=$(pwd)
work=$(mktemp -d)
git worktree add -q "$work/old" "$rev"
trap 'git worktree remove --force "$work/old"; rm -rf "$work"' EXIT
mkdir -p "$work/fns"
python3 - "$work/fns" <<'EOF'
import glob, os, re, sys
out_dir = sys.argv[1]
files = sorted(glob.glob('benches/*.rs') + glob.glob('benches/support/*.rs')
               + glob.glob('tests/models/*.rs') + glob.glob('examples/*.rs')
               + glob.glob('examples/*/*.rs'))
def drop_modes(m):
    args = [a.strip() for a in re.split(r',\s*(?![^()]*\))', m.group(1))]
    args = [a for a in args if a not in ('jvp', 'hvp', '')]
    return '#[differentiable(' + ', '.join(args) + ')]' if args else '#[differentiable]'
for f in files:
    src = open(f).read()
    for m in re.finditer(r'^([ \t]*)#\[differentiable(\([^\n]*\))?\]\n', src, re.M):
        indent, body = m.group(1), [m.group(0).rstrip('\n')]
        for line in src[m.end():].split('\n'):
            body.append(line)
            if line == indent + '}':
                break
        text = '\n'.join(body)
        name = re.search(r'\bfn\s+(\w+)', text)
        if not name or '$' in name.group(1) or re.search(r'^\s*(pub\s+)?impl\b', '\n'.join(body[1:4]), re.M):
            continue
        text = re.sub(r'#\[differentiable\((.*)\)\]', drop_modes, text, count=1)
        text = '\n'.join(l[len(indent):] if l.startswith(indent) else l for l in text.split('\n'))
        path = os.path.join(out_dir, f.replace('/', '_') + '.' + name.group(1) + '.rs')
        open(path, 'w').write(text + '\n')
EOF
printer() {
    (cd "$1" && CARGO_TARGET_DIR="$2" cargo test -q -p autodiff-macros --lib --no-run 2>/dev/null \
        && ls -t "$2"/debug/deps/autodiff_macros-* | grep -v '\.d$' | head -1)
}
old=$(printer "$work/old" "$root/target/old")
new=$(printer "$root" "$root/target")
libs=$(rustc --print sysroot)/lib/rustlib/$(rustc -vV | sed -n 's/host: //p')/lib
differ=0
for f in "$work"/fns/*.rs; do
    a=$(EXPAND=$f LD_LIBRARY_PATH=$libs "$old" print_expansion --nocapture 2>&1 | grep -v '^running\|^test ')
    b=$(EXPAND=$f LD_LIBRARY_PATH=$libs "$new" print_expansion --nocapture 2>&1 | grep -v '^running\|^test ')
    if [ "$a" = "$b" ]; then
        echo "same     $(basename "$f") ($(echo "$b" | wc -l) lines)"
    else
        echo "differs  $(basename "$f")"
        differ=$((differ + 1))
    fi
done
echo "$differ differ"
