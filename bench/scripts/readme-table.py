#!/usr/bin/env python3
"""Render README.md's speed table from `go run ./cmd/compare ... -json out.json` (medians; ratios = the medians' ratio, spread = per-round ratios): python3 scripts/readme-table.py out.json"""
import json, sys
d = json.load(open(sys.argv[1]))
rows = {r['name']: r['cells'] for r in d['rows']}
def med(row, srv): return rows[row][srv].get('median', {})
def rounds(row, srv): return rows[row][srv].get('rounds', [])
def si(v):
    for s, f in (('M', 1e6), ('k', 1e3)):
        if v >= f:
            return f"{v/f:.1f}{s}" if v/f < 100 else f"{v/f:.0f}{s}"
    return f"{v:.3g}" if v < 100 else f"{v:.0f}"
def dur(ns):
    if ns < 1e3: return f"{ns:.0f} ns"
    if ns < 1e6: return f"{ns/1e3:.3g} µs"
    if ns < 1e9: return f"{ns/1e6:.3g} ms"
    return f"{ns/1e9:.3g} s"
def mib(kib): return f"{kib/1024:.0f} MiB"
def ratio(row, a, b, key, higher):
    """how many times better a is than b: median ratio and per-round lo–hi"""
    ma, mb = med(row, a).get(key), med(row, b).get(key)
    if not ma or not mb: return None
    r = ma / mb if higher else mb / ma
    per = []
    for x, y in zip(rounds(row, a), rounds(row, b)):
        if x.get(key) and y.get(key): per.append(x[key] / y[key] if higher else y[key] / x[key])
    return r, min(per), max(per)
def fx(t): return f"{t[0]:.2f}× ({t[1]:.2f}–{t[2]:.2f})"
out = []
P = ['go-sdk', 'mcp-go']
def peers_note(row, key, higher):
    parts = [f"{fx(ratio(row,'mcpgen',p,key,higher))} {p}" for p in P]
    return ', '.join(parts)
r = 'inproc'
cells = [f"**{dur(med(r,'mcpgen')['nsPerOp'])}**, {med(r,'mcpgen')['allocsPerOp']} allocs"] + [f"{dur(med(r,p)['nsPerOp'])}, {med(r,p)['allocsPerOp']} allocs" for p in P] + [f"{dur(med(r,'floor-raw')['nsPerOp'])}, {med(r,'floor-raw').get('allocsPerOp',0)} allocs"]
out.append(("in-process `tools/call`", cells, peers_note(r, 'nsPerOp', False)))
for tr, label, unit in (('stdio', 'stdio, {n} in flight', 'calls/s'), ('http', 'Streamable HTTP, {n} clients', 'calls/s')):
    for n in (1, 16, 256):
        r = f"{tr}-{n}"
        m = med(r, 'mcpgen')['rps']; f = med(r, 'floor-raw')['rps']
        cells = [f"**{si(m)}/s**, {dur(med(r,'mcpgen')['cpuNsPerReq'])} CPU/req ({100*m/f:.0f} % of raw floor)"] + [f"{si(med(r,p)['rps'])}/s, {dur(med(r,p)['cpuNsPerReq'])}" for p in P] + [f"{si(f)}/s, {dur(med(r,'floor-raw')['cpuNsPerReq'])}"]
        out.append((label.format(n=n).replace(' 1 clients', ' 1 client'), cells, peers_note(r, 'rps', True)))
for r, label in (('read-10m-http', '`resources/read` 10 MB, HTTP'), ('result-10m-http', 'tool result 10 MB, HTTP'),
                 ('string-10m-stdio', 'string argument 10 MB, stdio'), ('nested-10m-stdio', 'nested arguments 10 MB, stdio'),
                 ('nested-10m-http', 'nested arguments 10 MB, HTTP')):
    cells = [f"**{med(r,'mcpgen')['rps']:.3g}/s**, {mib(med(r,'mcpgen')['peakRSSKiB'])} peak"] + [f"{med(r,p)['rps']:.3g}/s, {mib(med(r,p)['peakRSSKiB'])}" for p in P] + ['']
    out.append((label, cells, peers_note(r, 'rps', True)))
r = 'mrtr-1m-http'
cells = [f"**{med(r,'mcpgen')['rps']:.3g} exchanges/s**"] + [f"{med(r,p)['rps']:.3g}/s" for p in P] + ['']
out.append(('multi round-trip, 1 MB arguments, HTTP', cells, peers_note(r, 'rps', True)))
for n in (1, 10000):
    r = f"startup-{n}"
    cells = [f"**{dur(med(r,'mcpgen')['nsPerOp'])}**"] + [dur(med(r,p)['nsPerOp']) for p in P] + ['']
    out.append((f"start-up with {n:,} tool{'s' if n>1 else ''}", cells, peers_note(r, 'nsPerOp', False)))
for n in (1, 10000):
    r = f"coldstart-{n}"
    cells = [f"**{dur(med(r,'mcpgen')['p50Ns'])}**"] + [dur(med(r,p)['p50Ns']) for p in P] + ['']
    out.append((f"cold start (exec to first reply), {n:,} tool{'s' if n>1 else ''}", cells, peers_note(r, 'p50Ns', False)))
r = 'listen-1000'
m, k = med(r, 'mcpgen'), med(r, 'mcpgen-noka')
cells = [f"**{dur(m['p50Ns'])}**; idle {dur(m['idleCPUNsPerSec'])}/s with {m['keepAlivesPerSec']:.1f} keep-alives/s, {dur(k['idleCPUNsPerSec'])}/s (median) without"] + [f"{dur(med(r,p)['p50Ns'])}; idle {dur(med(r,p)['idleCPUNsPerSec'])}/s (none)" for p in P] + ['']
rr = lambda srv: ' / '.join(dur(x.get('idleCPUNsPerSec', 0)) + '/s' for x in rounds(r, srv))
note = f"fan-out {peers_note(r,'p50Ns',False)}; idle CPU per round: mcpgen without keep-alives {rr('mcpgen-noka')}, go-sdk {rr('go-sdk')}, mcp-go {rr('mcp-go')}"
out.append(('1 000 listen streams: fan-out p50, idle CPU', cells, note))
out = [(l.replace('10,000', '10 000'), c, n) for l, c, n in out]
print('| | mcpgen | go-sdk | mcp-go | raw floor | mcpgen is (lowest–highest round) |')
print('|---|---|---|---|---|---|')
for label, cells, note in out:
    print(f"| {label} | " + ' | '.join(cells) + f" | {note} |")
