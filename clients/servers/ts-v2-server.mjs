// A TypeScript SDK v2 (@modelcontextprotocol/server 2.4.0) MCP server for
// the Go client's interop tests (clients/go): one tool, weather_current,
// with structured output. `node ts-v2-server.mjs` serves stdio;
// `node ts-v2-server.mjs --http` serves Streamable HTTP on a free
// 127.0.0.1 port (both eras, createMcpHandler's default) and prints
// "listening <url>" on stdout.
import http from 'node:http';
import { Readable } from 'node:stream';
import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import * as z from 'zod';

function temperature(units) {
  switch (units) {
    case 'imperial': return 21.5 * 9 / 5 + 32;
    case 'kelvin': return 21.5 + 273.15;
  }
  return 21.5;
}

function build() {
  const server = new McpServer({ name: 'ts-v2-peer', version: '0.1.0' });
  server.registerTool('weather_current', {
    description: 'Current weather',
    inputSchema: z.object({ location: z.string(), units: z.enum(['metric', 'imperial', 'kelvin']).optional() }),
    outputSchema: z.object({ location: z.string(), units: z.string(), temperature: z.number() }),
  }, async ({ location, units }) => {
    units = units ?? 'metric';
    const t = temperature(units);
    return {
      content: [{ type: 'text', text: `${location}: ${t.toFixed(2)} (${units})` }],
      structuredContent: { location, units, temperature: t },
    };
  });
  return server;
}

if (process.argv.includes('--http')) {
  const handler = createMcpHandler(() => build());
  const srv = http.createServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const body = Buffer.concat(chunks);
    const request = new Request(`http://${req.headers.host}${req.url}`, {
      method: req.method,
      headers: Object.entries(req.headers).flatMap(([k, v]) => Array.isArray(v) ? v.map((x) => [k, x]) : [[k, v]]),
      body: req.method === 'GET' || req.method === 'HEAD' ? undefined : body,
    });
    const response = await handler.fetch(request);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (response.body) {
      Readable.fromWeb(response.body).pipe(res);
    } else {
      res.end();
    }
  });
  srv.listen(0, '127.0.0.1', () => {
    console.log(`listening http://127.0.0.1:${srv.address().port}/mcp`);
  });
} else {
  serveStdio(() => build()); // both eras: a server/discover probe or the initialize handshake
}
