// The Vue field corpus: VitePress's default theme as npm ships it (vitepress 1.6.4:
// dist/client/theme-default, ~90 single-file components in <script setup lang="ts"> importing each
// other, vue, @vueuse/core, its JavaScript composables and vitepress's own types). npm installs
// the package, its dependencies and vue-tsc (the ground truth of diagnostics) once into a cache
// beside npm's own; each corpus is a copy of the package whose node_modules links to that cache.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export const VITEPRESS_VERSION = '1.6.4';
/** vue-tsc of the same Volar release as the vue-language-server `servers install vue` pins, and its TypeScript. */
const VUE_TSC = ['vue-tsc@3.3.11', 'typescript@5.9.3'];
const CACHE = join(process.env['XDG_CACHE_HOME'] ?? join(homedir(), '.cache'), 'agent-lsp-field', `vitepress-${VITEPRESS_VERSION}`);
/** What of the package is its sources and types (not its CLI, its project template or its README). */
const PACKAGE_PARTS = ['package.json', 'client.d.ts', 'theme.d.ts', 'theme-without-fonts.d.ts', 'types', 'dist'];

/** The theme's directory in a corpus, for positions and file names. */
export const THEME = 'dist/client/theme-default';

/** vue-tsc's entry in the cache. */
export const vueTscEntry = (): string => join(CACHE, 'node_modules', 'vue-tsc', 'bin', 'vue-tsc.js');

/** The cache's node_modules, installed now when it is not there yet; or why it cannot be had. */
function cachedModules(): { dir: string } | { why: string } {
  const modules = join(CACHE, 'node_modules');
  if (existsSync(join(modules, 'vitepress', 'package.json')) && existsSync(vueTscEntry())) return { dir: modules };
  const staging = `${CACHE}.partial-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  writeFileSync(join(staging, 'package.json'), '{ "name": "agent-lsp-field-vitepress", "private": true }\n');
  const npm = spawnSync('npm', ['install', '--no-save', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error', `vitepress@${VITEPRESS_VERSION}`, ...VUE_TSC], { cwd: staging, encoding: 'utf8' });
  if (npm.status !== 0) {
    rmSync(staging, { recursive: true, force: true });
    return { why: `npm cannot install vitepress@${VITEPRESS_VERSION}: ${(npm.error?.message ?? npm.stderr ?? '').trim().split('\n').pop()}` };
  }
  rmSync(CACHE, { recursive: true, force: true });
  renameSync(staging, CACHE);
  return { dir: modules };
}

/**
 * Copies the package into `root`, with a tsconfig of ours (the package ships none) taking in the
 * theme's components and composables, and a node_modules of links to every cached dependency but
 * vitepress itself, so the theme's `import … from 'vitepress'` resolves to the copy (self-name).
 */
export function copyVitepress(root: string): string | undefined {
  const cached = cachedModules();
  if ('why' in cached) return cached.why;
  const from = join(cached.dir, 'vitepress');
  const version = (JSON.parse(readFileSync(join(from, 'package.json'), 'utf8')) as { version: string }).version;
  if (version !== VITEPRESS_VERSION) return `the cache ${CACHE} holds vitepress ${version}, not ${VITEPRESS_VERSION}: remove it`;
  for (const part of PACKAGE_PARTS) cpSync(join(from, part), join(root, part), { recursive: true });
  mkdirSync(join(root, 'node_modules'));
  for (const entry of readdirSync(cached.dir)) if (entry !== 'vitepress' && entry !== '.package-lock.json') symlinkSync(join(cached.dir, entry), join(root, 'node_modules', entry));
  const tsconfig = {
    compilerOptions: { strict: true, target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', lib: ['ES2022', 'DOM', 'DOM.Iterable'], allowJs: true, noEmit: true, skipLibCheck: true, types: [] },
    include: [`${THEME}/**/*.vue`, `${THEME}/**/*.js`, 'client.d.ts', 'theme.d.ts', 'types/**/*.d.ts'],
  };
  writeFileSync(join(root, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2) + '\n');
  return undefined;
}
