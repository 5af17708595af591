#!/usr/bin/env node
// `pnpm release:pack [--out <dir>]`: stages the one installable package in a temporary directory
// (the bundle built straight into it by scripts/bundle.mjs --outdir, so the checkout's dist/
// bundle is left alone) and packs it to dist/agent-lsp-<version>.tgz (or <dir>). `npm install -g`
// of that tarball gives a working `agent-lsp`; the tarball's path is printed on stdout.
//
// The installed layout keeps the paths the bundle's rewritten import.meta.url values expect
// (scripts/bundle.mjs, ownImportMetaUrl): a module built at packages/<p>/dist/<f>.js sees itself
// there, so relative to the package root
//   packages/skills/skills/*.md   the skills (registry.js: ../skills/)
//   examples/workspace/           the demo's workspace (demo.js: ../../../examples/workspace)
//   bin/agent-lsp                 the launcher, which brokers are spawned with (spawnBroker.js: ../../../bin/agent-lsp)
//   node_modules/                 pyright, typescript-language-server, typescript, and optionally
//                                 @typescript/native-preview (typescript-go) (createRequire
//                                 from packages/lsp/dist walks up to the package's own node_modules)
// The packages' dist directories themselves are not shipped: nothing reads them.
import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const outArg = process.argv.indexOf('--out');
const OUT = outArg > 0 ? resolve(process.argv[outArg + 1]) : join(REPO, 'dist');
/** What the bundle leaves to the installed package's node_modules: the language servers agent-lsp bundles. */
const RUNTIME_DEPENDENCIES = ['pyright', 'typescript-language-server', 'typescript'];
/**
 * typescript-go (`--ts-server tsgo`): optional, so an install on a platform it ships no binary for
 * still succeeds (agent-lsp then says it was not found and tsls keeps serving TypeScript).
 */
const OPTIONAL_DEPENDENCIES = ['@typescript/native-preview'];

/**
 * bin/agent-lsp's sh part (the shebang and the lines that start with ':'): run as a program, the
 * installed launcher starts fronts from the start-up snapshot as the checkout's does.
 */
const SH_PART = readFileSync(join(REPO, 'bin', 'agent-lsp'), 'utf8')
  .split('\n')
  .filter((line, i) => i === 0 || line.startsWith("':' //;"))
  .join('\n');
/** bin/agent-lsp of the installed package: the bundle beside it. Brokers are spawned with this file. */
const LAUNCHER = `${SH_PART}
// The installed agent-lsp (made by scripts/release-pack.mjs): runs the bundle in ../dist.
import('../dist/agent-lsp.mjs')
  .then(({ main }) => main(process.argv))
  .catch((err) => {
    process.stderr.write(\`agent-lsp: \${err && err.message ? err.message : String(err)}\\n\`);
    process.exitCode = 1;
  });
`;

const say = (line) => process.stderr.write(`release:pack: ${line}\n`);
const run = (command, args, cwd = REPO) => execFileSync(command, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8', timeout: 600_000 });

const root = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8'));
const version = root.version;
const protocolSource = readFileSync(join(REPO, 'packages', 'protocol', 'src', 'agentLspProtocol.ts'), 'utf8');
const reported = /AGENT_LSP_VERSION = '([^']+)'/.exec(protocolSource)?.[1];
if (reported !== version) throw new Error(`package.json says version ${version} but AGENT_LSP_VERSION (packages/protocol/src/agentLspProtocol.ts) is ${reported}: make them agree before packing.`);

/** The versions pnpm-lock.yaml pins for packages/lsp's dependencies (the importer that declares the servers). */
function lockedVersions(names) {
  const lines = readFileSync(join(REPO, 'pnpm-lock.yaml'), 'utf8').split('\n');
  const start = lines.indexOf('  packages/lsp:');
  if (start < 0) throw new Error('pnpm-lock.yaml has no importer packages/lsp');
  const found = {};
  let current;
  for (const line of lines.slice(start + 1)) {
    if (/^ {2}\S/.test(line) || /^\S/.test(line)) break;
    const name = /^ {6}'?([^':]+)'?:$/.exec(line);
    if (name) current = name[1];
    const pinned = /^ {8}version: (\S+)$/.exec(line);
    if (pinned && current && names.includes(current)) found[current] = pinned[1].replace(/\(.*$/, '');
  }
  for (const n of names) if (!found[n] || !/^\d+\.\d+\.\d+/.test(found[n])) throw new Error(`pnpm-lock.yaml pins no version for ${n} in packages/lsp`);
  return Object.fromEntries(names.map((n) => [n, found[n]]));
}

const STAGE = mkdtempSync(join(tmpdir(), 'agent-lsp-release-'));
try {
  say('building (tsc -b, bundle)');
  run(process.execPath, [join(REPO, 'node_modules', 'typescript', 'bin', 'tsc'), '-b']);
  run(process.execPath, [join(REPO, 'scripts', 'bundle.mjs'), '--outdir', join(STAGE, 'dist')]);

  cpSync(join(REPO, 'packages', 'skills', 'skills'), join(STAGE, 'packages', 'skills', 'skills'), { recursive: true });
  // `agent-lsp demo` runs on it (demo.js: ../../../examples/workspace).
  cpSync(join(REPO, 'examples', 'workspace'), join(STAGE, 'examples', 'workspace'), { recursive: true });
  mkdirSync(join(STAGE, 'bin'));
  writeFileSync(join(STAGE, 'bin', 'agent-lsp'), LAUNCHER);
  chmodSync(join(STAGE, 'bin', 'agent-lsp'), 0o755);
  for (const doc of ['README.md', 'LICENSE', 'LICENSE.md']) if (existsSync(join(REPO, doc))) copyFileSync(join(REPO, doc), join(STAGE, doc));
  // The README links docs/*.md (and the bench's plots): ship them so the installed README's links resolve.
  cpSync(join(REPO, 'docs'), join(STAGE, 'docs'), { recursive: true, filter: (src) => !/\.[^/]+$/.test(src) || /\.(md|svg)$/.test(src) });

  const manifest = {
    name: 'agent-lsp',
    version,
    description: root.description,
    type: 'module',
    bin: { 'agent-lsp': 'bin/agent-lsp' },
    engines: { node: '>=20' },
    dependencies: lockedVersions(RUNTIME_DEPENDENCIES),
    optionalDependencies: lockedVersions(OPTIONAL_DEPENDENCIES),
    ...(root.license ? { license: root.license } : {}),
  };
  writeFileSync(join(STAGE, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);

  mkdirSync(OUT, { recursive: true });
  const tarball = join(OUT, `agent-lsp-${version}.tgz`);
  rmSync(tarball, { force: true });
  const packed = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', OUT], STAGE));
  const name = packed[0]?.filename;
  if (name !== `agent-lsp-${version}.tgz`) throw new Error(`npm pack wrote ${name}, expected agent-lsp-${version}.tgz`);
  say(`${tarball} (${packed[0].entryCount} files, ${Math.round(packed[0].size / 1024)} KiB)`);
  process.stdout.write(`${tarball}\n`);
} finally {
  rmSync(STAGE, { recursive: true, force: true });
}
