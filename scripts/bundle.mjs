#!/usr/bin/env node
// `pnpm build` after `tsc -b`: bundles and minifies the built front (packages/cli/dist) with its
// dependencies into dist/agent-lsp.mjs plus lazily loaded chunks, so a fresh front reads a few
// files instead of hundreds (Node 20 has no compile cache). bin/agent-lsp runs it when it is newer
// than every package's build, else the unbundled packages.
import { rmSync, writeFileSync } from 'node:fs';
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
 * package's node_modules), so in a chunk it must still point where the module was built.
 */
const ownImportMetaUrl = {
  name: 'own-import-meta-url',
  setup(b) {
    b.onLoad({ filter: /[\\/]packages[\\/][^\\/]+[\\/]dist[\\/].*\.js$/ }, async ({ path }) => {
      const { readFile } = await import('node:fs/promises');
      const source = await readFile(path, 'utf8');
      if (!source.includes('import.meta.url')) return { contents: source, loader: 'js', resolveDir: dirname(path) };
      const fromOut = relative(MAPPED_OUT, path).split(sep).join('/');
      return { contents: source.replaceAll('import.meta.url', `new URL(${JSON.stringify(fromOut)}, import.meta.url).href`), loader: 'js', resolveDir: dirname(path) };
    });
  },
};

// The tools' JSON Schemas, converted from zod once here rather than in every front that starts.
const [{ toolSchemas }, { selectTools }] = await Promise.all([
  import(pathToFileURL(join(PACKAGES, 'server', 'dist', 'toolList.js')).href),
  import(pathToFileURL(join(PACKAGES, 'tools', 'dist', 'index.js')).href),
]);
const schemas = toolSchemas(selectTools());

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
const result = await build({
  entryPoints: { 'agent-lsp': join(PACKAGES, 'cli', 'dist', 'index.js') },
  outdir: OUT,
  outExtension: { '.js': '.mjs' },
  chunkNames: '[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minify: true,
  // Error classes are told apart by name in places; names cost little.
  keepNames: true,
  legalComments: 'eof',
  metafile: true,
  define: { __AGENT_LSP_TOOL_SCHEMAS__: JSON.stringify(JSON.stringify(schemas)) },
  logLevel: 'warning',
  // CommonJS dependencies (vscode-jsonrpc, …) call require() for Node's built-ins.
  banner: { js: "import { createRequire as __agentLspRequire } from 'node:module'; const require = __agentLspRequire(import.meta.url);" },
  plugins: [ownImportMetaUrl, englishOnlyZodLocales, jsoncParserEsm],
});
const outputs = Object.values(result.metafile.outputs);
const kib = Math.round(outputs.reduce((sum, o) => sum + o.bytes, 0) / 1024);
if (process.argv.includes('--meta')) writeFileSync(join(OUT, 'meta.json'), JSON.stringify(result.metafile));
if (OUT === MAPPED_OUT) writeFileSync(join(OUT, 'README'), 'Built by scripts/bundle.mjs (pnpm build); bin/agent-lsp runs agent-lsp.mjs when it is newer than the packages\' builds.\n');
process.stderr.write(`bundle: ${OUT === MAPPED_OUT ? 'dist' : OUT}/agent-lsp.mjs and ${outputs.length - 1} chunks, ${kib} KiB\n`);
