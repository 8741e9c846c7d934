#!/usr/bin/env python3
"""
syscall-census.py - which system calls the processes inside evident's boxes
make, from a trace of a whole run taken with `strace -f -ff -o PREFIX`
(scripts/syscall-census.sh takes it): the measurement a box's seccomp allow
list is written from (src/base/sandbox_filter.c), on a machine where the
list cannot be guessed (a GPU host: the CUDA driver, NVML, CUPTI,
compute-sanitizer).

A box is a process bubblewrap execs its payload in (a process whose earlier
image was bwrap); every call that process makes after that exec, and every
call of the threads and children it makes after it, is a call made inside
the box, under the box's filter.  Output: one line per system call name, the
count inside boxes, the payloads that made it (worker, planner, sanitizer,
compiler), and whether any call of that name failed with EPERM (the current
filter refused it).

Usage: syscall-census.py PREFIX [--json OUT]
"""
import glob
import json
import os
import re
import sys
from collections import defaultdict

CALL = re.compile(r'^(?:\d+\.\d+ )?([a-z_0-9]+)\((.*)')
RESULT = re.compile(r'\) += (-?\d+|0x[0-9a-f]+|\?)(?: (E[A-Z0-9]+))?')
NSPID = re.compile(r'\) += \d+ /\* (\d+) in strace\'s PID NS \*/')
EXECVE = re.compile(r'^(?:\d+\.\d+ )?execve\("([^"]*)", \[(.*?)\]')


def parse(path):
    """(events) of one pid's trace: ('call', name, err), ('exec', path, argv),
    ('child', pid)."""
    ev = []
    with open(path, errors='replace') as f:
        for line in f:
            m = CALL.match(line)
            if not m:
                continue
            name = m.group(1)
            r = RESULT.search(line)
            ret = r.group(1) if r else None
            err = r.group(2) if r else None
            if name == 'execve' and ret == '0':
                e = EXECVE.match(line)
                if e:
                    ev.append(('exec', e.group(1), e.group(2)[:200]))
                    continue
            if name in ('clone', 'clone3', 'fork', 'vfork') and ret and ret.isdigit() and int(ret) > 0:
                # inside a box's PID namespace the result is the box's pid;
                # --pidns-translation names strace's own
                t = NSPID.search(line)
                ev.append(('child', int(t.group(1)) if t else int(ret)))
            ev.append(('call', name, err))
    return ev


def main():
    if len(sys.argv) < 2:
        sys.exit('usage: syscall-census.py PREFIX [--json OUT]')
    prefix = sys.argv[1]
    files = {}
    for p in glob.glob(prefix + '.*'):
        suf = p[len(prefix) + 1:]
        if suf.isdigit():
            files[int(suf)] = parse(p)
    if not files:
        sys.exit('syscall-census: no trace files %s.PID' % prefix)
    # parent links: a child's events belong to the box its parent was in
    # when it made the child
    parent = {}
    for pid, ev in files.items():
        for e in ev:
            if e[0] == 'child':
                parent[e[1]] = pid

    counts = defaultdict(int)
    payloads = defaultdict(set)
    refused = defaultdict(int)
    boxed_pids = {}

    def walk(ev, state, upto=None):
        """the (label, image) of a process after its events (up to making
        child upto), from the state it started in: label is the box payload
        it runs inside (None outside), image the basename of its program"""
        label, image = state
        for e in ev:
            if e[0] == 'exec':
                if image == 'bwrap' and label is None:
                    label = os.path.basename(e[1]) + ' ' + e[2]
                image = os.path.basename(e[1])
            elif e[0] == 'child' and e[1] == upto:
                break
        return label, image

    memo = {}

    def start_state(pid):
        if pid in memo:
            return memo[pid]
        memo[pid] = (None, None)
        par = parent.get(pid)
        if par is not None and par in files:
            memo[pid] = walk(files[par], start_state(par), upto=pid)
        return memo[pid]

    for pid, ev in sorted(files.items()):
        label, image = start_state(pid)
        for e in ev:
            if e[0] == 'exec':
                if image == 'bwrap' and label is None:
                    label = os.path.basename(e[1]) + ' ' + e[2]
                image = os.path.basename(e[1])
                continue
            if e[0] != 'call' or label is None:
                continue
            counts[e[1]] += 1
            payloads[e[1]].add(' '.join(label.split(' ')[0:3]))
            if e[2] == 'EPERM':
                refused[e[1]] += 1
            boxed_pids[pid] = label
    kinds = defaultdict(int)
    for lab in boxed_pids.values():
        kinds[lab[:120]] += 1
    print('# %d traced processes/threads, %d inside boxes' % (len(files), len(boxed_pids)))
    for k, n in sorted(kinds.items(), key=lambda x: -x[1])[:40]:
        print('# box %4d  %s' % (n, k))
    for name in sorted(counts):
        print('%-24s %9d  eperm %-6d %s' % (name, counts[name], refused[name], '; '.join(sorted(payloads[name]))[:160]))
    if len(sys.argv) > 3 and sys.argv[2] == '--json':
        with open(sys.argv[3], 'w') as f:
            json.dump({'calls': counts, 'eperm': refused,
                       'payloads': {k: sorted(v) for k, v in payloads.items()}}, f, indent=1, sort_keys=True)


if __name__ == '__main__':
    main()
