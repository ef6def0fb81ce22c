// Inspector CLI 2.12.0 (@modelcontextprotocol/inspector, --cli) against the
// weather example: a tools/call of weather_current in the modern and the
// legacy protocol era, over stdio and over Streamable HTTP, with the client's
// messages recorded to prove which handshake it used.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startHTTPTap } from './lib/http-tap.mjs';
import { TEST_TIMEOUT_MS, checkWeather, startHTTP, weatherBin } from './lib/weather.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const wireTap = path.join(here, 'lib', 'wire-tap.mjs');
const require = createRequire(import.meta.url);
const inspectorDir = path.dirname(require.resolve('@modelcontextprotocol/inspector/package.json'));
const launcher = path.join(inspectorDir, 'clients', 'launcher', 'build', 'index.js');
const CLI_TIMEOUT_MS = 15_000;

/**
 * Runs the inspector CLI with HOME in a fresh temp dir, in its own process
 * group so that on timeout the CLI and the server it started are killed
 * together; resolves {code, stdout, stderr}.
 */
function inspector(t, args) {
  const home = mkdtempSync(path.join(tmpdir(), 'mcpgen-inspector-home-'));
  t.after(() => rmSync(home, { recursive: true, force: true }));
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [launcher, '--cli', ...args], {
      env: { ...process.env, HOME: home },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const killGroup = () => { try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ } };
    t.after(killGroup); // whatever the CLI left behind
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    const timer = setTimeout(() => {
      stderr += `\n[test: inspector still running after ${CLI_TIMEOUT_MS} ms; killed]`;
      killGroup();
    }, CLI_TIMEOUT_MS);
    child.once('error', (err) => { clearTimeout(timer); resolve({ code: err.code, stdout, stderr }); });
    child.once('close', (code, signal) => { clearTimeout(timer); resolve({ code: code ?? signal, stdout, stderr }); });
  });
}

const CALL = ['--format', 'json', '--method', 'tools/call', '--tool-name', 'weather_current',
  '--tool-arg', 'location=San Francisco', 'units=imperial'];

/** Parses the CLI's JSON output ({"result": CallToolResult}) and checks it. */
function checkOutput(t, label, run) {
  assert.equal(run.code, 0, `${label}: inspector exit ${run.code}\nstdout: ${run.stdout}\nstderr: ${run.stderr}`);
  let out;
  try {
    out = JSON.parse(run.stdout);
  } catch (err) {
    assert.fail(`${label}: inspector output is not JSON (${err.message}): ${run.stdout}`);
  }
  checkWeather(out.result);
  t.diagnostic(`${label}: ${out.result.content[0].text}`);
}

/** The methods of the JSON-RPC messages recorded by wire-tap.mjs, in order. */
function methodsOnWire(log) {
  let text = '';
  try { text = readFileSync(log, 'utf8'); } catch { /* nothing was sent */ }
  return text.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l).method).filter(Boolean);
}

/** Asserts the recorded client methods match the era's handshake. */
function checkHandshake(t, era, label, methods) {
  t.diagnostic(`${label} wire: ${methods.join(' → ')}`);
  assert.ok(methods.includes('tools/call'), `no tools/call on the wire: ${methods}`);
  if (era === 'modern') {
    assert.equal(methods[0], 'server/discover');
    assert.ok(!methods.includes('initialize'), `modern era must not send initialize: ${methods}`);
  } else {
    assert.equal(methods[0], 'initialize');
    assert.ok(!methods.includes('server/discover'), `legacy era must not send server/discover: ${methods}`);
  }
}

for (const era of ['modern', 'legacy']) {
  test(`inspector ${era} stdio`, { timeout: TEST_TIMEOUT_MS }, async (t) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mcpgen-inspector-wire-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const log = path.join(dir, 'client-to-server.jsonl');
    const run = await inspector(t, ['--protocol-era', era, ...CALL, '--', process.execPath, wireTap, log, weatherBin()]);
    checkOutput(t, `inspector ${era} stdio`, run);
    checkHandshake(t, era, `inspector ${era} stdio`, methodsOnWire(log));
  });

  test(`inspector ${era} streamable-http`, { timeout: TEST_TIMEOUT_MS }, async (t) => {
    const server = await startHTTP();
    t.after(() => server.stop());
    const tap = await startHTTPTap(server.url);
    t.after(() => tap.close());
    const run = await inspector(t, ['--protocol-era', era, '--transport', 'http', '--server-url', tap.url, ...CALL]);
    if (run.code !== 0) t.diagnostic(`server output:\n${server.output()}`);
    checkOutput(t, `inspector ${era} http`, run);
    checkHandshake(t, era, `inspector ${era} http`, tap.methods());
  });
}
