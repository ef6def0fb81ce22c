// TypeScript SDK v2 (@modelcontextprotocol/client 2.4.0) logs in to an
// OAuth-protected mcpgen server: oauth/internal/cmd/authdemo runs a real
// authorization server (zitadel/oidc's OpenID Provider) and an mcpgen server
// it protects. The client's own OAuth code does everything: the 401
// challenge, Protected Resource Metadata and authorization server metadata
// discovery, dynamic client registration, PKCE (S256) with the RFC 8707
// resource, the token request, the call, and step-up on 403
// insufficient_scope. The test only plays the browser: it follows the
// authorization URL's redirects (the server's login page approves its demo
// user) and hands the code back to the transport.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { test } from 'node:test';
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';

const TIMEOUT_MS = 60_000;
const REDIRECT = 'http://127.0.0.1:8976/callback';

function demoBin() {
  const bin = process.env.MCPGEN_AUTHDEMO_BIN;
  if (!bin) throw new Error('MCPGEN_AUTHDEMO_BIN is not set (clients/run.sh builds oauth/internal/cmd/authdemo)');
  return bin;
}

// startDemo runs authdemo and reads its {"mcp","issuer"} line.
async function startDemo() {
  const child = spawn(demoBin(), [], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  const lines = createInterface({ input: child.stdout });
  const first = await new Promise((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`authdemo exited ${code}: ${stderr}`)));
  });
  return {
    ...JSON.parse(first),
    output: () => stderr,
    stop: () => new Promise((resolve) => {
      child.once('exit', resolve);
      child.stdin.end();
      setTimeout(() => child.kill('SIGKILL'), 5000).unref();
    }),
  };
}

// HeadlessProvider is an OAuthClientProvider whose "browser" follows the
// authorization server's redirects with fetch until they reach REDIRECT.
class HeadlessProvider {
  constructor() {
    this.events = [];
    this.authorizationURLs = [];
  }
  get redirectUrl() { return REDIRECT; }
  get clientMetadata() {
    return {
      client_name: 'mcpgen-clients-oauth',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() { return this.client; }
  saveClientInformation(info) { this.client = info; this.events.push('registered'); }
  tokens() { return this.stored; }
  saveTokens(tokens) { this.stored = tokens; this.events.push('token'); }
  saveDiscoveryState(state) { this.discovery = state; }
  discoveryState() { return this.discovery; }
  saveCodeVerifier(v) { this.verifier = v; }
  codeVerifier() { return this.verifier; }
  async redirectToAuthorization(url) {
    this.events.push('authorize');
    this.authorizationURLs.push(new URL(url));
    let next = new URL(url);
    for (let hop = 0; hop < 10; hop++) {
      if (next.href.startsWith(REDIRECT)) {
        const err = next.searchParams.get('error');
        if (err) throw new Error(`authorization failed: ${err}: ${next.searchParams.get('error_description')}`);
        this.code = next.searchParams.get('code');
        this.callback = next;
        return;
      }
      const resp = await fetch(next, { redirect: 'manual' });
      const location = resp.headers.get('location');
      if (!location) throw new Error(`authorization stopped at ${next} with HTTP ${resp.status}: ${await resp.text()}`);
      next = new URL(location, next);
    }
    throw new Error('too many redirects during authorization');
  }
}

function scopes(authorizationURL) {
  return (authorizationURL.searchParams.get('scope') ?? '').split(' ').filter(Boolean).sort();
}

function text(result) {
  return result.content?.[0]?.text;
}

test('ts-sdk-v2 oauth: discovery, registration, PKCE, token, call, step-up', { timeout: TIMEOUT_MS }, async (t) => {
  const demo = await startDemo();
  const provider = new HeadlessProvider();
  const client = new Client({ name: 'mcpgen-clients-oauth', version: '0.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  t.after(async () => {
    await client.close().catch(() => {});
    await demo.stop();
  });
  const url = new URL(demo.mcp);
  try {
    // 1. No token: the server's 401 starts the flow; the client discovers,
    // registers and sends the "browser" to the authorization endpoint.
    let transport = new StreamableHTTPClientTransport(url, { authProvider: provider });
    await assert.rejects(client.connect(transport), UnauthorizedError);
    assert.deepEqual(provider.events, ['registered', 'authorize']);
    const first = provider.authorizationURLs[0];
    assert.equal(first.origin, demo.issuer, 'the authorization server named by the Protected Resource Metadata');
    assert.equal(first.searchParams.get('code_challenge_method'), 'S256');
    assert.ok(first.searchParams.get('code_challenge'), 'PKCE challenge');
    assert.equal(first.searchParams.get('resource'), demo.mcp, 'RFC 8707 resource = the MCP server');
    // The 401 challenge's scope, plus offline_access (the spec lets a client
    // ask for it when the authorization server supports it).
    assert.deepEqual(scopes(first), ['mcp', 'offline_access']);
    assert.ok(provider.code, 'the authorization server redirected back with a code');

    // 2. Token, then the session.
    await transport.finishAuth(provider.code);
    assert.equal(provider.events.at(-1), 'token');
    transport = new StreamableHTTPClientTransport(url, { authProvider: provider });
    await client.connect(transport);
    assert.equal(client.getNegotiatedProtocolVersion(), '2026-07-28');
    const tools = await client.listTools();
    assert.deepEqual(tools.tools.map((x) => x.name).sort(), ['whoami', 'write_file']);
    assert.equal(tools.cacheScope, 'private', 'results to an authenticated caller are private');
    const who = text(await client.callTool({ name: 'whoami', arguments: {} }));
    t.diagnostic(`whoami: ${who}`);
    assert.equal(who, 'id1 mcp,offline_access', "the handler sees the demo user's subject and granted scopes");

    // 3. write_file needs files:write: 403 insufficient_scope, the client
    // re-authorizes with the union of scopes, then the call succeeds.
    await assert.rejects(client.callTool({ name: 'write_file', arguments: {} }), UnauthorizedError);
    const stepUp = provider.authorizationURLs.at(-1);
    assert.equal(provider.authorizationURLs.length, 2);
    assert.deepEqual(scopes(stepUp), ['files:write', 'mcp', 'offline_access'], 'the union of the granted and the challenged scopes');
    assert.equal(stepUp.searchParams.get('resource'), demo.mcp);
    await transport.finishAuth(provider.code);
    const wrote = text(await client.callTool({ name: 'write_file', arguments: {} }));
    assert.equal(wrote, 'written by id1');
    const after = text(await client.callTool({ name: 'whoami', arguments: {} }));
    assert.deepEqual(after.split(' ')[1].split(',').sort(), ['files:write', 'mcp', 'offline_access']);
  } catch (err) {
    t.diagnostic(`authdemo output:\n${demo.output()}`);
    t.diagnostic(`provider events: ${provider.events.join(', ')}`);
    throw err;
  }
});
