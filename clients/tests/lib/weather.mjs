// Shared helpers for the real-client tests: where the weather binary is, how
// to start it over Streamable HTTP on a free port, how to stop it, and the
// checks every client runs against it.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** Per-request timeout handed to the clients (ms). */
export const REQUEST_TIMEOUT_MS = 8_000;
/** Per-test timeout for node:test (ms). */
export const TEST_TIMEOUT_MS = 30_000;

/** The weather server binary built by run.sh (env MCPGEN_WEATHER_BIN). */
export function weatherBin() {
  const bin = process.env.MCPGEN_WEATHER_BIN;
  if (!bin || !existsSync(bin)) {
    throw new Error(`MCPGEN_WEATHER_BIN must name the built ./examples/weather binary (got ${JSON.stringify(bin)}); run clients/run.sh`);
  }
  return bin;
}

/** A port that was free a moment ago: bind 127.0.0.1:0, read the port, release it. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.unref();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

function canConnect(port) {
  return new Promise((resolve) => {
    const sock = net.connect({ port, host: '127.0.0.1' });
    const done = (ok) => { sock.destroy(); resolve(ok); };
    sock.once('connect', () => done(true));
    sock.once('error', () => done(false));
    sock.setTimeout(500, () => done(false));
  });
}

/**
 * Starts the weather server with --http 127.0.0.1:<free port> and waits (up to
 * 10 s) until it accepts connections. Returns { url, stop, output }; stop()
 * sends SIGTERM, then SIGKILL after 2 s, and resolves when the process is gone.
 * A server that exits before listening (say, its port was taken in the
 * meantime) is retried on a new port, 3 attempts in all.
 */
export async function startHTTP() {
  const bin = weatherBin();
  let lastErr;
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    const child = spawn(bin, ['--http', `127.0.0.1:${port}`], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => { output += d; });
    child.stderr.on('data', (d) => { output += d; });
    let exited = false;
    let spawnErr;
    const exitedP = new Promise((resolve) => {
      child.once('exit', () => { exited = true; resolve(); });
      // A failed spawn (ENOENT, EACCES) may emit 'error' without 'exit'.
      child.once('error', (e) => { spawnErr = e; exited = true; resolve(); });
    });
    const stop = async () => {
      if (exited) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => { if (!exited) child.kill('SIGKILL'); }, 2000);
      await exitedP;
      clearTimeout(timer);
    };
    const deadline = Date.now() + 10_000;
    while (!exited && Date.now() < deadline) {
      if (await canConnect(port)) {
        return { url: `http://127.0.0.1:${port}/mcp`, stop, output: () => output };
      }
      await sleep(50);
    }
    const exitedEarly = exited;
    await stop();
    if (spawnErr) throw new Error(`starting ${bin}: ${spawnErr.message}`);
    lastErr = new Error(`weather --http 127.0.0.1:${port} ${exitedEarly ? 'exited before listening' : 'did not listen within 10 s'}; output:\n${output}`);
    if (!exitedEarly) break; // alive but not listening: no point retrying on another port
  }
  throw lastErr;
}

/**
 * Makes sure a child process started by a stdio transport is gone: the
 * transport's close() should have ended it; if not, SIGKILL it.
 */
export function reap(pid) {
  if (!pid) return;
  try {
    process.kill(pid, 0);
  } catch {
    return; // already gone
  }
  try { process.kill(pid, 'SIGKILL'); } catch { /* raced with exit */ }
}

/** The tools every weather server must list. */
export const EXPECTED_TOOLS = ['weather_current', 'calculator_arithmetic'];

/** The text of a tool result's text content blocks, joined. */
export function textOf(result) {
  assert.ok(Array.isArray(result?.content), `result has no content array: ${JSON.stringify(result)}`);
  return result.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');
}

/** Checks a weather_current {location:'San Francisco', units:'imperial'} result. */
export function checkWeather(result) {
  assert.notEqual(result.isError, true, `weather_current failed: ${JSON.stringify(result)}`);
  assert.match(textOf(result), /San Francisco/);
  assert.equal(result.structuredContent?.units, 'imperial', `structuredContent: ${JSON.stringify(result.structuredContent)}`);
}

/** Checks a calculator_arithmetic {expression:'2 + 3 * (4 ^ 2) - sin(30)'} result. */
export function checkCalc(result) {
  assert.notEqual(result.isError, true, `calculator_arithmetic failed: ${JSON.stringify(result)}`);
  assert.ok(textOf(result).includes('49.5'), `text: ${textOf(result)}`);
}

export const WEATHER_ARGS = { location: 'San Francisco', units: 'imperial' };
export const CALC_ARGS = { expression: '2 + 3 * (4 ^ 2) - sin(30)' };

/**
 * Runs the common checks through a client adapter: list() resolves to a
 * tools/list result, call(name, args) to a tools/call result. (TS SDK v1
 * and v2 differ in where callTool takes its options.)
 */
export async function exerciseTools({ list, call }) {
  const { tools } = await list();
  const names = tools.map((t) => t.name);
  for (const want of EXPECTED_TOOLS) assert.ok(names.includes(want), `tools/list lacks ${want}: ${names.join(',')}`);
  checkWeather(await call('weather_current', WEATHER_ARGS));
  checkCalc(await call('calculator_arithmetic', CALC_ARGS));
}
