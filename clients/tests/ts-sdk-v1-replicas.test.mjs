// TypeScript SDK v1 (@modelcontextprotocol/sdk 1.32.2, legacy initialize
// sessions only) through haproxy in front of three replicas of
// examples/everything (.ci/replicas): each session's requests carry its
// Mcp-Session-Id, which haproxy learned from the initialize response and
// routes to the replica that holds the session, while new sessions are
// spread round robin. Needs MCPGEN_REPLICAS_URL (the balancer's /mcp URL).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const REQUEST_TIMEOUT_MS = 8_000;
const url = process.env.MCPGEN_REPLICAS_URL;

test('ts-sdk-v1 sessions through a load balancer', { timeout: 60_000 }, async (t) => {
  assert.ok(url, 'MCPGEN_REPLICAS_URL must name the balancer (.ci/replicas with)');
  const opts = { timeout: REQUEST_TIMEOUT_MS };
  // Six sessions: round robin puts two on every replica.
  for (let i = 0; i < 6; i++) {
    const transport = new StreamableHTTPClientTransport(new URL(url));
    const client = new Client({ name: 'mcpgen-clients-ts-v1-replicas', version: '0.0.0' });
    try {
      await client.connect(transport, opts);
      assert.ok(transport.sessionId, 'a legacy HTTP session must get an Mcp-Session-Id');
      assert.equal(client.getServerVersion()?.name, 'mcpgen-everything');
      const { tools } = await client.listTools(undefined, opts);
      assert.ok(tools.some((tool) => tool.name === 'test_simple_text'), 'tools/list lacks test_simple_text');
      for (let k = 0; k < 3; k++) {
        const res = await client.callTool({ name: 'test_simple_text', arguments: {} }, undefined, opts);
        assert.equal(res.isError ?? false, false);
        assert.ok(res.content?.[0]?.text, `call ${k}: no text content`);
      }
      t.diagnostic(`session ${i}: ${transport.sessionId} version ${transport.protocolVersion}`);
    } finally {
      await transport.terminateSession().catch(() => {});
      await client.close().catch(() => {});
    }
  }
});
