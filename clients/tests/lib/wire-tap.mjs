// wire-tap.mjs LOG COMMAND [ARGS...]: runs COMMAND as a stdio MCP server,
// passing stdin/stdout/stderr through, and appends every byte the client
// sends to LOG, so a test can see which messages (initialize or
// server/discover) a client it does not control put on the wire.
import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';

const [log, command, ...args] = process.argv.slice(2);
if (!log || !command) {
  process.stderr.write('usage: wire-tap.mjs LOG COMMAND [ARGS...]\n');
  process.exit(2);
}
const child = spawn(command, args, { stdio: ['pipe', 'inherit', 'inherit'] });
child.on('error', (err) => {
  process.stderr.write(`wire-tap: ${command}: ${err.message}\n`);
  process.exit(127);
});
child.stdin.on('error', () => {}); // the server may exit first
process.stdin.on('data', (chunk) => {
  appendFileSync(log, chunk);
  child.stdin.write(chunk);
});
// When the client hangs up, close the server's stdin and give it 3 s to
// exit on its own before it is told to stop (then killed 2 s later).
process.stdin.on('end', () => {
  child.stdin.end();
  setTimeout(() => child.kill('SIGTERM'), 3000).unref();
  setTimeout(() => child.kill('SIGKILL'), 5000).unref();
});
for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP']) {
  process.on(sig, () => child.kill(sig));
}
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
