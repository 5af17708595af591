#!/usr/bin/env node
// `pnpm build` after `tsc -b`: bundles and minifies the built front (packages/cli/dist) with its
// dependencies into one CommonJS file, dist/agent-lsp.cjs, and writes its loader dist/agent-lsp.mjs
// (scripts/bundleLoader.mjs), which runs it with V8's code cache (Node 20 has no compile cache for
// modules): a fresh front reads two files and compiles next to nothing. bin/agent-lsp runs it when
// it is newer than every package's build, else the unbundled packages.
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const REPO = fileURLToPath(new URL('..', import.meta.url));
// `--outdir <dir>` (scripts/release-pack.mjs stages the installable package with it): the
// rewritten import.meta.url values still assume the bundle sits in <package root>/dist.
const outdirArg = process.argv.indexOf('--outdir');
const OUT = outdirArg > 0 ? resolve(process.argv[outdirArg + 1]) : join(REPO, 'dist');
const MAPPED_OUT = join(REPO, 'dist');
const PACKAGES = join(REPO, 'packages');

/**
 * Every built module keeps its own import.meta.url: code finds files relative to itself (the
 * skills' Markdown beside packages/skills, bin/agent-lsp for brokers, pyright through its
 * package's node_modules), so in the bundle it must still point where the module was built. A
 * CommonJS bundle has no import.meta at all: dependencies that read it (ps-list) get the same.
 */
const ownImportMetaUrl = {
  name: 'own-import-meta-url',
  setup(b) {
    b.onLoad({ filter: /\.m?js$/ }, async ({ path }) => {
      const { readFile } = await import('node:fs/promises');
      const source = await readFile(path, 'utf8');
      if (!source.includes('import.meta.url')) return undefined;
      const fromOut = relative(MAPPED_OUT, path).split(sep).join('/');
      // __agentLspBundleUrl: the bundle's own file URL, a parameter of the loader's wrapper.
      return { contents: source.replaceAll('import.meta.url', `new URL(${JSON.stringify(fromOut)}, __agentLspBundleUrl).href`), loader: 'js', resolveDir: dirname(path) };
    });
  },
};

// The tools' JSON Schemas, converted from zod once here rather than in every front that starts.
const [{ toolSchemas }, { selectTools }] = await Promise.all([
  import(pathToFileURL(join(PACKAGES, 'server', 'dist', 'toolList.js')).href),
  import(pathToFileURL(join(PACKAGES, 'tools', 'dist', 'index.js')).href),
]);
const schemasJson = JSON.stringify(toolSchemas(selectTools()));
// Beside the bundle, read by tools/list (packages/server/src/toolList.ts); named by its content.
const schemasFile = `tool-schemas-${createHash('sha256').update(schemasJson).digest('hex').slice(0, 16)}.json`;

/**
 * zod re-exports all its ~60 locales as a namespace (`z.locales`), a 260 KiB share of the bundle
 * that nothing here uses: its error messages are English (classic zod configures `en` by itself).
 * The namespace keeps `en` alone.
 */
const englishOnlyZodLocales = {
  name: 'english-only-zod-locales',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, ({ importer }) =>
      /[\\/]zod[\\/]v4[\\/](classic|core|mini)[\\/]/.test(importer) ? { path: join(dirname(importer), '..', 'locales', 'en.js'), namespace: 'zod-locales' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'zod-locales' }, ({ path }) => ({ contents: `export { default as en } from ${JSON.stringify(path)};`, loader: 'js', resolveDir: dirname(path) }));
  },
};

/**
 * jsonc-parser's default (UMD) build loads its parts with a require() of relative paths that a
 * bundle cannot follow; its ES module build is the same code with static imports.
 */
const jsoncParserEsm = {
  name: 'jsonc-parser-esm',
  setup(b) {
    b.onResolve({ filter: /^jsonc-parser$/ }, ({ resolveDir }) => {
      const umd = createRequire(join(resolveDir, 'index.js')).resolve('jsonc-parser');
      return { path: umd.replace(`${sep}umd${sep}`, `${sep}esm${sep}`) };
    });
  },
};

rmSync(OUT, { recursive: true, force: true });
// One CommonJS file, not ES module chunks: Node 20 gives V8's code cache only to vm.Script, and the
// loader (scripts/bundleLoader.mjs, written as dist/agent-lsp.mjs) runs the bundle through one. The
// modules the CLI imports dynamically stay lazy: esbuild wraps them in functions run on first import.
const options = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  minify: true,
  // Error classes are told apart by name in places; names cost little.
  keepNames: true,
  legalComments: 'eof',
  metafile: true,
  // The file is the function its loader runs (scripts/bundleLoader.mjs, snapshotEntry.cjs): the same
  // wrapper as Node's CommonJS loader, plus the bundle's own URL (its modules' import.meta.url). Wrapped
  // at load, the ~1.5 MB source was a second string in every process until a full collection.
  banner: { js: '(function (exports, require, module, __filename, __dirname, __agentLspBundleUrl) {' },
  footer: { js: '})' },
  define: { __AGENT_LSP_TOOL_SCHEMAS__: JSON.stringify(schemasFile) },
  logLevel: 'warning',
  plugins: [ownImportMetaUrl, englishOnlyZodLocales, jsoncParserEsm],
};
// The broker process has an entry and a bundle of its own (packages/cli/src/brokerMain.ts): it
// compiles and holds a fifth of the front's code, none of the MCP SDK, tools or schemas.
const [result, brokerResult] = await Promise.all([
  build({ ...options, entryPoints: [join(PACKAGES, 'cli', 'dist', 'index.js')], outfile: join(OUT, 'agent-lsp.cjs') }),
  build({ ...options, entryPoints: [join(PACKAGES, 'cli', 'dist', 'brokerMain.js')], outfile: join(OUT, 'agent-lsp-broker.cjs') }),
]);
// The code cache's name carries the bundle's content hash: a rebuilt bundle never meets an old cache.
const contentHash = (file) => createHash('sha256').update(readFileSync(join(OUT, file))).digest('hex').slice(0, 16);
const buildId = contentHash('agent-lsp.cjs');
writeFileSync(
  join(OUT, 'agent-lsp.mjs'),
  readFileSync(join(REPO, 'scripts', 'bundleLoader.mjs'), 'utf8').replace('__AGENT_LSP_BUILD_ID__', buildId).replace('__AGENT_LSP_BROKER_BUILD_ID__', contentHash('agent-lsp-broker.cjs')),
);
// The start-up snapshot's builder entry and build script (bin/agent-lsp, scripts/snapshotEntry.cjs),
// and the build id bin/agent-lsp reads (a sh script reads a file more cheaply than it hashes one).
writeFileSync(join(OUT, 'agent-lsp-snapshot.cjs'), readFileSync(join(REPO, 'scripts', 'snapshotEntry.cjs')));
writeFileSync(join(OUT, 'agent-lsp-snapshot-build.mjs'), readFileSync(join(REPO, 'scripts', 'snapshotBuild.mjs')));
writeFileSync(join(OUT, 'build-id'), `${buildId}\n`);
writeFileSync(join(OUT, schemasFile), schemasJson);
const kibOf = (r) => Math.round(Object.values(r.metafile.outputs).reduce((sum, o) => sum + o.bytes, 0) / 1024);
const kib = kibOf(result);
if (process.argv.includes('--meta')) {
  writeFileSync(join(OUT, 'meta.json'), JSON.stringify(result.metafile));
  writeFileSync(join(OUT, 'meta-broker.json'), JSON.stringify(brokerResult.metafile));
}
if (OUT === MAPPED_OUT) writeFileSync(join(OUT, 'README'), 'Built by scripts/bundle.mjs (pnpm build); bin/agent-lsp runs agent-lsp.mjs when it is newer than the packages\' builds.\n');
process.stderr.write(`bundle: ${OUT === MAPPED_OUT ? 'dist' : OUT}/agent-lsp.cjs, ${kib} KiB, the broker's agent-lsp-broker.cjs, ${kibOf(brokerResult)} KiB, and their loader agent-lsp.mjs\n`);
