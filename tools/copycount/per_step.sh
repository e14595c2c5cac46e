#!/bin/sh
# Bytes and calls of memcpy / memmove / memset per training step of the GPT example, from an
# LD_PRELOAD counter (copycount.c): the difference between a 300-step and a 100-step run, over
# 200. That difference includes the validation every 100 steps (10 batches of the primal, 0.1 of
# a primal forward pass per step).
#
#   tools/copycount/per_step.sh target/release/examples/shakespeare_gpt
set -eu
bin=$1
dir=$(mktemp -d)
cc -O2 -shared -fPIC -o "$dir/copycount.so" "$(dirname "$0")/copycount.c" -ldl
for steps in 100 300; do
    LD_PRELOAD="$dir/copycount.so" taskset -c 1 "$bin" --steps $steps --out "$dir/out" 2>&1 \
        | grep '^copycount' > "$dir/$steps.txt"
done
python3 - "$dir/100.txt" "$dir/300.txt" <<'PY'
import re, sys
def parse(path):
    d = {}
    for line in open(path):
        m = re.match(r'copycount: memcpy (\d+) calls (\d+) bytes; memmove (\d+) calls (\d+) bytes; memset (\d+) calls (\d+) bytes', line)
        if m:
            d['total'] = list(map(int, m.groups()))
        m = re.match(r'copycount: size 2\^(\d+): copies (\d+) sets (\d+)', line)
        if m:
            d[int(m.group(1))] = (int(m.group(2)), int(m.group(3)))
    return d
a, b = parse(sys.argv[1]), parse(sys.argv[2])
t = [(y - x) / 200 for x, y in zip(a['total'], b['total'])]
print('per step: memcpy %.0f calls %.2f MiB; memmove %.0f calls %.3f MiB; memset %.0f calls %.2f MiB'
      % (t[0], t[1] / 2**20, t[2], t[3] / 2**20, t[4], t[5] / 2**20))
for k in sorted(k for k in set(a) | set(b) if k != 'total'):
    x, y = a.get(k, (0, 0)), b.get(k, (0, 0))
    print('  %7d-%d bytes: copies %.1f, fills %.1f' % (2**k, 2**(k + 1) - 1, (y[0] - x[0]) / 200, (y[1] - x[1]) / 200))
PY
rm -r "$dir"
