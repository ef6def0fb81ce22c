// The TypeScript SDK v2's Skills extension client (SkillsClient from
// @modelcontextprotocol/client/ext/skills, 2.4.0) against the weather
// example's skills, pinned to 2026-07-28, over stdio and Streamable HTTP:
// it lists, gets, reads and verifies (size, SHA-256 digest, frontmatter)
// every file, reads the skill's directories, and refuses a tampered entry.
// The same again pinned to 2025-11-25: the legacy initialize session, where
// the SDK's backport reads the extension from the initialize result and
// the results carry no caching fields.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { SkillsClient, SkillVerificationError } from '@modelcontextprotocol/client/ext/skills';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { REQUEST_TIMEOUT_MS, TEST_TIMEOUT_MS, reap, startHTTP, weatherBin } from './lib/weather.mjs';

const SKILL_URI = 'skill://plan-day-out/SKILL.md';
const skillsDir = new URL('../../examples/weather/skills/', import.meta.url);
// The files as they are in the repository, keyed by URI.
const FILES = {
  [SKILL_URI]: 'plan-day-out/SKILL.md',
  'skill://plan-day-out/references/activities.md': 'plan-day-out/references/activities.md',
};
const onDisk = (uri) => readFileSync(new URL(FILES[uri], skillsDir));
const sha256 = (bytes) => 'sha256:' + createHash('sha256').update(bytes).digest('hex');

const VERSIONS = ['2026-07-28', '2025-11-25'];

function newClient(version) {
  // Pinning is for modern revisions; the legacy era is mode 'legacy' (initialize).
  const mode = version === '2026-07-28' ? { pin: version } : 'legacy';
  return new Client({ name: 'mcpgen-clients-ts-v2-skills', version: '0.0.0' }, { versionNegotiation: { mode } });
}

// cached checks a result's caching fields: present at 2026-07-28, absent
// (converted away) in a legacy session.
function cached(result, version) {
  if (version === '2026-07-28') {
    assert.equal(typeof result.ttlMs, 'number');
    assert.equal(result.cacheScope, 'public');
  } else {
    assert.equal(result.ttlMs, undefined);
    assert.equal(result.cacheScope, undefined);
  }
}

async function exerciseSkills(t, client, version) {
  const opts = { timeout: REQUEST_TIMEOUT_MS };
  assert.equal(client.getNegotiatedProtocolVersion(), version);
  const skills = new SkillsClient(client);
  assert.equal(skills.supported, true, 'server declares io.modelcontextprotocol/skills (and resources)');
  assert.equal(skills.directoryRead, true, 'server declares directoryRead');

  // list: one valid entry, nothing refused, caching fields present.
  const listing = await skills.list(undefined, opts);
  assert.deepEqual(listing.invalid, []);
  assert.equal(listing.skills.length, 1);
  const entry = listing.skills[0];
  assert.equal(entry.uri, SKILL_URI);
  assert.equal(entry.frontmatter.name, 'plan-day-out');
  assert.match(entry.frontmatter.description, /weather_current/);
  cached(listing, version);
  assert.deepEqual(entry.resources.map((r) => r.uri).sort(), Object.keys(FILES).sort());
  // The digests and sizes are those of the files in the repository.
  for (const r of entry.resources) {
    const bytes = onDisk(r.uri);
    assert.equal(r.size, bytes.length, `${r.uri} size`);
    assert.equal(r.digest, sha256(bytes), `${r.uri} digest`);
  }

  // get: the same entry, with caching fields.
  const got = await skills.get(SKILL_URI, opts);
  assert.deepEqual(got.skill, entry);
  cached(got, version);
  await assert.rejects(skills.get('skill://no-such-skill/SKILL.md', opts), (err) => err.code === -32602);

  // read: SKILL.md verified (size, digest, frontmatter equal to the entry's),
  // then the supporting file by its relative reference.
  const md = await skills.read(entry, undefined, opts);
  assert.equal(md.verified, true);
  assert.equal(md.mimeType, 'text/markdown');
  assert.deepEqual(md.frontmatter, entry.frontmatter);
  assert.match(md.body, /calculator_arithmetic/);
  assert.deepEqual(Buffer.from(md.bytes), onDisk(SKILL_URI));
  const ref = await skills.read(entry, 'references/activities.md', opts);
  assert.equal(ref.verified, true);
  assert.equal(sha256(ref.bytes), sha256(onDisk(ref.uri)));

  // readDirectory: the skill root lists SKILL.md and references/ (a directory).
  const root = await skills.readDirectory('skill://plan-day-out', opts);
  assert.deepEqual(root.resources.map((r) => [r.uri, r.mimeType]), [
    [SKILL_URI, 'text/markdown'],
    ['skill://plan-day-out/references', 'inode/directory'],
  ]);
  const sub = await skills.readDirectory('skill://plan-day-out/references', opts);
  assert.deepEqual(sub.resources.map((r) => r.uri), ['skill://plan-day-out/references/activities.md']);

  // The client really verifies: an entry whose digest or size differs from
  // what the server serves is refused.
  const tampered = (change) => ({ ...entry, resources: entry.resources.map((r) => (r.uri === SKILL_URI ? { ...r, ...change } : r)) });
  await assert.rejects(skills.read(tampered({ digest: 'sha256:' + '0'.repeat(64) }), undefined, opts),
    (err) => err instanceof SkillVerificationError && err.reason === 'digest');
  await assert.rejects(skills.read(tampered({ size: entry.resources[0].size + 1 }), undefined, opts),
    (err) => err instanceof SkillVerificationError && err.reason === 'size');
  t.diagnostic(`verified ${entry.resources.length} files of ${entry.uri}`);
}

for (const version of VERSIONS) {
  test(`ts-sdk-v2 skills ${version} stdio`, { timeout: TEST_TIMEOUT_MS }, async (t) => {
    const transport = new StdioClientTransport({ command: weatherBin(), args: [], stderr: 'pipe' });
    let serverErr = '';
    transport.stderr?.on('data', (d) => { serverErr += d; });
    const client = newClient(version);
    t.after(async () => {
      const pid = transport.pid;
      await client.close().catch(() => {});
      reap(pid);
    });
    try {
      await client.connect(transport, { timeout: REQUEST_TIMEOUT_MS });
      await exerciseSkills(t, client, version);
    } catch (err) {
      if (serverErr) t.diagnostic(`server stderr:\n${serverErr}`);
      throw err;
    }
  });

  test(`ts-sdk-v2 skills ${version} streamable-http`, { timeout: TEST_TIMEOUT_MS }, async (t) => {
    const server = await startHTTP();
    const client = newClient(version);
    t.after(async () => {
      await client.close().catch(() => {});
      await server.stop();
    });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url)), { timeout: REQUEST_TIMEOUT_MS });
      await exerciseSkills(t, client, version);
    } catch (err) {
      t.diagnostic(`server output:\n${server.output()}`);
      throw err;
    }
  });
}
