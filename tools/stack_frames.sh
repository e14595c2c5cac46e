#!/bin/sh
# The largest stack frames of a binary: the size each function's prologue probes (`sub $N,%r11`
# before the probing loop), in KiB. A frame's pages, once probed, stay resident.
#
#   tools/stack_frames.sh target/release/examples/shakespeare_gpt
set -eu
objdump -d --no-show-raw-insn -C "$1" | python3 -c '
import re, sys
fn, out = None, []
for line in sys.stdin:
    m = re.match(r"^[0-9a-f]+ <(.*)>:$", line)
    if m:
        fn = m.group(1)
        continue
    m = re.search(r"sub +\$0x([0-9a-f]+),%r11", line)
    if m:
        out.append((int(m.group(1), 16), fn[:120]))
for size, name in sorted(out, reverse=True)[:12]:
    print("%6d KiB  %s" % (size // 1024, name))
'
