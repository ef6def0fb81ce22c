#!/usr/bin/env python3
"""Where a bench server's peak RSS lies, by mapping, under a compare row's own load.

As a wrapper (its path given to `go run ./cmd/compare -with NAME=WRAPPER`):

    #!/bin/bash
    python3 /path/to/peakmaps.py sample $$ /tmp/maps/NAME-$$ &
    exec /path/to/server "$@"

`sample PID OUT` polls /proc/PID/status every 10 ms until PID exits; each
time VmRSS is above the highest seen it saves /proc/PID/smaps as OUT.smaps,
and every 100 ms it saves the present bit of each page of the binary's file
mappings as OUT.pagemap (one line per mapping: lo hi offset bits). The exec
keeps the PID, so the harness reads the server's own VmHWM as usual.

`report DIR/NAME ROW...` prints, for DIR/NAME-*.smaps in the order they ran (the
harness runs a column's rows in order, round after round: name them with
ROW...), the resident KiB of each kind of mapping at the sample with the
highest VmRSS, as min-max over the rounds:
  .text, .rodata+.gopclntab (one r-- mapping), .data/.noptrdata (file, rw),
  bss; libc and ld.so; Go anonymous memory (heap arena, with the runtime's
  off-heap metadata when the kernel merged the two mappings); thread stacks
  and glibc malloc arenas.
For the parts of .gopclntab and the 64 KiB windows of .text use the
.pagemap files (see scripts/resident.py for the window listing).
"""
import collections, glob, os, re, struct, sys, time


def sample(pid, out):
    best = 0
    tick = 0
    while True:
        try:
            if os.readlink('/proc/%s/exe' % pid).endswith('/bash'):
                time.sleep(0.005)  # before the wrapper's exec
                continue
            status = open('/proc/%s/status' % pid).read()
            rss = int(re.search(r'VmRSS:\s+(\d+)', status).group(1))
            if rss > best:
                smaps = open('/proc/%s/smaps' % pid).read()
                best = rss
                open(out + '.smaps', 'w').write(smaps)
            if tick % 10 == 0:
                open(out + '.pagemap', 'w').write(present_bits(pid))
            tick += 1
        except (OSError, AttributeError):
            return
        time.sleep(0.01)


def present_bits(pid):
    exe = os.readlink('/proc/%s/exe' % pid)
    lines = []
    with open('/proc/%s/pagemap' % pid, 'rb') as pm:
        for l in open('/proc/%s/maps' % pid).read().splitlines():
            f = l.split()
            if len(f) >= 6 and f[5] == exe:
                lo, hi = (int(x, 16) for x in f[0].split('-'))
                pm.seek(lo // 4096 * 8)
                data = pm.read((hi - lo) // 4096 * 8)
                bits = ''.join('1' if struct.unpack_from('<Q', data, i * 8)[0] >> 63 else '0'
                               for i in range(len(data) // 8))
                lines.append('%x %x %s %s' % (lo, hi, f[2], bits))
    return '\n'.join(lines) + '\n'


KINDS = ['.text', '.rodata+.gopclntab', '.data/.noptrdata', 'bss', 'libc+ld',
         'Go anon (heap arena, runtime metadata)', 'thread stacks, malloc arenas', 'other', 'total']


def parse(path):
    maps = []
    for line in open(path):
        m = re.match(r'^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \d+\s*(.*)$', line)
        if m:
            maps.append(dict(lo=int(m.group(1), 16), hi=int(m.group(2), 16), perm=m.group(3),
                             name=m.group(4).strip(), rss=0))
        elif line.startswith('Rss:'):
            maps[-1]['rss'] = int(line.split()[1])
    return maps


def kind(maps, i, binary):
    m = maps[i]
    if m['name'] == binary:
        return '.text' if 'x' in m['perm'] else '.data/.noptrdata' if 'w' in m['perm'] else '.rodata+.gopclntab'
    if '.so' in m['name']:
        return 'libc+ld'
    if m['name']:
        return 'other'
    if i and maps[i - 1]['name'] == binary and maps[i - 1]['hi'] == m['lo']:
        return 'bss'
    size = m['hi'] - m['lo']
    if size in (0x800000, 0x801000) and m['rss'] <= 256 or size <= 0x21000 and m['lo'] % (64 << 20) == 0:
        return 'thread stacks, malloc arenas'
    return 'Go anon (heap arena, runtime metadata)'


def report(prefix, rows):
    # The harness runs one server process at a time, so the files' last
    # writes are in the order of the runs (PIDs may wrap).
    files = sorted(glob.glob(prefix + '-*.smaps'), key=os.path.getmtime)
    table = collections.OrderedDict((r, collections.defaultdict(list)) for r in rows or ['all'])
    for j, f in enumerate(files):
        maps = parse(f)
        binary = next(m['name'] for m in maps if m['name'].startswith('/') and 'x' in m['perm'])
        c = collections.Counter()
        for i, m in enumerate(maps):
            c[kind(maps, i, binary)] += m['rss']
        c['total'] = sum(m['rss'] for m in maps)
        for k in KINDS:
            table[(rows or ['all'])[j % max(len(rows), 1)]][k].append(c[k])
    print('%-40s' % prefix.split('/')[-1] + ''.join('%14s' % r[:13] for r in table))
    for k in KINDS:
        cells = []
        for t in table.values():
            v = t[k]
            cells.append('%d-%d' % (min(v), max(v)) if v and min(v) != max(v) else str(v[0]) if v else '')
        print('%-40s' % k + ''.join('%14s' % x for x in cells))


if __name__ == '__main__':
    if sys.argv[1] == 'sample':
        sample(sys.argv[2], sys.argv[3])
    else:
        report(sys.argv[2], sys.argv[3:])
