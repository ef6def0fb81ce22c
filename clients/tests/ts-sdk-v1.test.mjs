// TypeScript SDK v1 (@modelcontextprotocol/sdk 1.32.2) against the weather
// example. v1 only speaks the legacy initialize handshake (it asks for
// 2025-11-25), so these tests prove the dual-era runtime's legacy side over
// stdio and Streamable HTTP (where the session lives under Mcp-Session-Id).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { REQUEST_TIMEOUT_MS, TEST_TIMEOUT_MS, exerciseTools, reap, startHTTP, weatherBin } from './lib/weather.mjs';

function newClient() {
  return new Client({ name: 'mcpgen-clients-ts-v1', version: '0.0.0' });
}

function adapter(client) {
  const opts = { timeout: REQUEST_TIMEOUT_MS };
  return {
    list: () => client.listTools(undefined, opts),
    call: (name, args) => client.callTool({ name, arguments: args }, undefined, opts),
  };
}

async function checkSession(t, client, version, label) {
  t.diagnostic(`${label}: legacy version=${version} server=${JSON.stringify(client.getServerVersion())}`);
  assert.equal(version, LATEST_PROTOCOL_VERSION, 'server must accept the version the client asked for');
  assert.equal(LATEST_PROTOCOL_VERSION, '2025-11-25');
  assert.equal(client.getServerVersion()?.name, 'weather');
  assert.ok(client.getServerCapabilities()?.tools, 'initialize result must declare the tools capability');
  await exerciseTools(adapter(client));
}

test('ts-sdk-v1 legacy stdio', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const transport = new StdioClientTransport({ command: weatherBin(), args: [], stderr: 'pipe' });
  let serverErr = '';
  transport.stderr?.on('data', (d) => { serverErr += d; });
  // The v1 client tells HTTP transports the negotiated version through this
  // optional hook; the stdio transport has none, so record it here.
  let negotiated;
  transport.setProtocolVersion = (v) => { negotiated = v; };
  const client = newClient();
  t.after(async () => {
    const pid = transport.pid;
    await client.close().catch(() => {});
    reap(pid);
  });
  try {
    await client.connect(transport, { timeout: REQUEST_TIMEOUT_MS });
    await checkSession(t, client, negotiated, 'ts-sdk-v1 stdio');
  } catch (err) {
    if (serverErr) t.diagnostic(`server stderr:\n${serverErr}`);
    throw err;
  }
});

test('ts-sdk-v1 legacy streamable-http', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const server = await startHTTP();
  const transport = new StreamableHTTPClientTransport(new URL(server.url));
  const client = newClient();
  t.after(async () => {
    await transport.terminateSession().catch(() => {});
    await client.close().catch(() => {});
    await server.stop();
  });
  try {
    await client.connect(transport, { timeout: REQUEST_TIMEOUT_MS });
    assert.ok(transport.sessionId, 'a legacy HTTP session must get an Mcp-Session-Id');
    await checkSession(t, client, transport.protocolVersion, 'ts-sdk-v1 http');
  } catch (err) {
    t.diagnostic(`server output:\n${server.output()}`);
    throw err;
  }
});
