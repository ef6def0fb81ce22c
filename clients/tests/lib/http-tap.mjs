// A recording reverse proxy for Streamable HTTP: forwards every request to
// the real server unchanged (responses, SSE streams included, are piped
// back) and remembers the JSON-RPC methods the client POSTed, so a test can
// see which handshake a client it does not control used.
import http from 'node:http';

/**
 * Starts a proxy on 127.0.0.1:<port 0> in front of target (an http:// URL
 * ending in the MCP path). Returns { url, methods(), close() }.
 */
export function startHTTPTap(target) {
  const to = new URL(target);
  const methods = [];
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (req.method === 'POST' && body.length) {
        try {
          const msg = JSON.parse(body.toString('utf8'));
          for (const m of Array.isArray(msg) ? msg : [msg]) if (m?.method) methods.push(m.method);
        } catch { /* not JSON: forward as is, the server will answer it */ }
      }
      const headers = { ...req.headers, host: to.host };
      const up = http.request({ host: to.hostname, port: to.port, path: req.url, method: req.method, headers }, (upRes) => {
        res.writeHead(upRes.statusCode ?? 502, upRes.headers);
        upRes.pipe(res);
      });
      up.on('error', (err) => {
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(`http-tap: ${err.message}`);
      });
      res.on('close', () => up.destroy());
      up.end(body);
    });
  });
  return new Promise((resolve, reject) => {
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      resolve({
        url: `http://127.0.0.1:${port}${to.pathname}`,
        methods: () => [...methods],
        close: () => new Promise((done) => { server.closeAllConnections(); server.close(() => done()); }),
      });
    });
  });
}
