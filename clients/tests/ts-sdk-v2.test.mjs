// TypeScript SDK v2 (@modelcontextprotocol/client 2.4.0) against the weather
// example, pinned to 2026-07-28 and in auto mode, over stdio and Streamable HTTP.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { REQUEST_TIMEOUT_MS, TEST_TIMEOUT_MS, exerciseTools, reap, startHTTP, weatherBin } from './lib/weather.mjs';

const MODES = {
  pinned: { pin: '2026-07-28' },
  auto: 'auto',
};

function newClient(mode) {
  return new Client({ name: 'mcpgen-clients-ts-v2', version: '0.0.0' }, { versionNegotiation: { mode } });
}

function adapter(client) {
  const opts = { timeout: REQUEST_TIMEOUT_MS };
  return {
    list: () => client.listTools(undefined, opts),
    call: (name, args) => client.callTool({ name, arguments: args }, opts),
  };
}

async function checkSession(t, client, label) {
  const era = client.getProtocolEra();
  const version = client.getNegotiatedProtocolVersion();
  t.diagnostic(`${label}: era=${era} version=${version}`);
  assert.equal(era, 'modern');
  assert.equal(version, '2026-07-28');
  await exerciseTools(adapter(client));
}

for (const [label, mode] of Object.entries(MODES)) {
  test(`ts-sdk-v2 ${label} stdio`, { timeout: TEST_TIMEOUT_MS }, async (t) => {
    const transport = new StdioClientTransport({ command: weatherBin(), args: [], stderr: 'pipe' });
    let serverErr = '';
    transport.stderr?.on('data', (d) => { serverErr += d; });
    const client = newClient(mode);
    t.after(async () => {
      const pid = transport.pid;
      await client.close().catch(() => {});
      reap(pid);
    });
    try {
      await client.connect(transport, { timeout: REQUEST_TIMEOUT_MS });
      await checkSession(t, client, `ts-sdk-v2 ${label} stdio`);
    } catch (err) {
      if (serverErr) t.diagnostic(`server stderr:\n${serverErr}`);
      throw err;
    }
  });

  test(`ts-sdk-v2 ${label} streamable-http`, { timeout: TEST_TIMEOUT_MS }, async (t) => {
    const server = await startHTTP();
    const client = newClient(mode);
    t.after(async () => {
      await client.close().catch(() => {});
      await server.stop();
    });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url)), { timeout: REQUEST_TIMEOUT_MS });
      await checkSession(t, client, `ts-sdk-v2 ${label} http`);
    } catch (err) {
      t.diagnostic(`server output:\n${server.output()}`);
      throw err;
    }
  });
}
