#!/usr/bin/env python3
"""What of a bench server's binary is resident: python3 scripts/resident.py BINARY [N] [weather|string|read]

Starts BINARY (a bench server) on stdio, sends N calls of the row (16 in
flight; default 3 000 weather_current calls), then reads /proc/PID/pagemap
and prints VmHWM, the resident KiB of each ELF section and every 64 KiB
window of .text: resident or not, and the three packages with the most code
in it. The kernel maps a file fault's whole 64 KiB neighbourhood
(fault-around), so .text is resident a window at a time: one function run
once keeps its window resident. To see which function first touched each
window, run the same calls under
    perf record -e page-faults -c 1 -d -o pf.data -- python3 scripts/resident.py BINARY 300
and map `perf script -i pf.data -F comm,addr` addresses to symbols with
`go tool nm -sort address BINARY`.
"""
import bisect, collections, re, struct, subprocess, sys

binary = sys.argv[1]
n = int(sys.argv[2]) if len(sys.argv) > 2 else 3000
row = sys.argv[3] if len(sys.argv) > 3 else 'weather'
META = (',"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",'
        '"io.modelcontextprotocol/clientCapabilities":{},'
        '"io.modelcontextprotocol/clientInfo":{"name":"mcpgen-bench","version":"0.1.0"}}')
PARAMS = {
    'weather': '"method":"tools/call","params":{"name":"weather_current","arguments":{"location":"Paris","units":"metric"}',
    'string': '"method":"tools/call","params":{"name":"echo_string","arguments":{"data":"' + 'x' * 1024 + '"}',
    'read': '"method":"resources/read","params":{"uri":"bench://blob/1k"',
}[row]


def request(i):
    return ('{"jsonrpc":"2.0","id":%d,%s%s}}\n' % (i, PARAMS, META)).encode()


proc = subprocess.Popen([binary if '/' in binary else './' + binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
sent = 0
while sent < min(16, n):
    proc.stdin.write(request(sent))
    sent += 1
proc.stdin.flush()
for got in range(n):
    line = proc.stdout.readline()
    if not line or b'"error"' in line or b'"isError":true' in line:
        sys.exit('bad reply: %r' % line[:300])
    if sent < n:
        proc.stdin.write(request(sent))
        proc.stdin.flush()
        sent += 1

pagemap = open('/proc/%d/pagemap' % proc.pid, 'rb')


def present(addr):
    pagemap.seek(addr // 4096 * 8)
    return struct.unpack('<Q', pagemap.read(8))[0] >> 63


status = open('/proc/%d/status' % proc.pid).read()
print('VmHWM %s KiB, VmRSS %s KiB after %d %s calls' % (
    re.search(r'VmHWM:\s+(\d+)', status).group(1), re.search(r'VmRSS:\s+(\d+)', status).group(1), n, row))
sections = {}
for line in subprocess.run(['readelf', '-SW', binary], capture_output=True, text=True, check=True).stdout.splitlines():
    m = re.search(r'\]\s+(\S+)\s+\S+\s+([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)', line)
    if m and int(m.group(2), 16) and m.group(1) in ('.text', '.rodata', '.gopclntab', '.noptrdata', '.data'):
        sections[m.group(1)] = (int(m.group(2), 16), int(m.group(3), 16))
for name, (start, size) in sections.items():
    pages = range(start // 4096 * 4096, start + size, 4096)
    print('%-11s %5d of %5d KiB resident' % (name, 4 * sum(present(p) for p in pages), 4 * len(pages)))

syms = []
for line in subprocess.run(['go', 'tool', 'nm', '-size', '-sort', 'address', binary],
                           capture_output=True, text=True, check=True).stdout.splitlines():
    f = line.split(None, 3)
    if len(f) == 4 and f[2] in 'Tt':
        syms.append((int(f[0], 16), int(f[1]), re.sub(r'^(.*?/)?([^./\[]*)[.\[].*$', r'\1\2', f[3])))
addrs = [s[0] for s in syms]
start, size = sections['.text']
cold = 0
for w in range(start // 65536 * 65536, start + size, 65536):
    resident = sum(present(p) for p in range(max(w, start), min(w + 65536, start + size), 4096))
    cold += resident == 0
    pkgs = collections.Counter()
    for a, sz, pkg in syms[bisect.bisect_left(addrs, w):bisect.bisect_left(addrs, w + 65536)]:
        pkgs[pkg] += sz
    print('%x %2d/16 pages  %s' % (w, resident, ', '.join('%s %d KiB' % (p.replace('github.com/mcpgen/mcpgen/', ''), s // 1024)
                                                        for p, s in pkgs.most_common(3))))
print('%d windows of .text not resident' % cold)
proc.stdin.close()
proc.wait()
