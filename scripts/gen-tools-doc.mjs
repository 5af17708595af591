#!/usr/bin/env node
// Writes docs/tools.md, the reference of every agent-lsp tool, from the BUILT tools package
// (run `npx tsc -b` first).
//
//   node scripts/gen-tools-doc.mjs           regenerate docs/tools.md
//   node scripts/gen-tools-doc.mjs --check   exit 1 if docs/tools.md is not what it would write
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(repoRoot, 'packages', 'tools', 'dist');
const target = join(repoRoot, 'docs', 'tools.md');
const shown = relative(process.cwd(), target) || target;

const args = process.argv.slice(2);
const unknown = args.filter((a) => a !== '--check');
if (unknown.length) {
  process.stderr.write(`gen-tools-doc: unknown argument(s): ${unknown.join(' ')}\nusage: node scripts/gen-tools-doc.mjs [--check]\n`);
  process.exit(2);
}
const check = args.includes('--check');

for (const file of ['catalog.js', 'catalog/toolsDoc.js', 'catalog/examples.js']) {
  if (!existsSync(join(dist, file))) {
    process.stderr.write(`gen-tools-doc: ${relative(repoRoot, join(dist, file))} is missing; build first with \`npx tsc -b\`.\n`);
    process.exit(2);
  }
}

const load = (file) => import(new URL(`../packages/tools/dist/${file}`, import.meta.url).href);
const [{ TOOL_CATALOG }, { renderToolsDoc }, { TOOL_EXAMPLES }] = await Promise.all([load('catalog.js'), load('catalog/toolsDoc.js'), load('catalog/examples.js')]);

const missing = TOOL_CATALOG.filter((t) => !(t.name in TOOL_EXAMPLES)).map((t) => t.name);
if (missing.length) {
  process.stderr.write(`gen-tools-doc: no example for ${missing.join(', ')}; add one to packages/tools/src/catalog/examples.ts.\n`);
  process.exit(1);
}

const expected = renderToolsDoc(TOOL_CATALOG, TOOL_EXAMPLES);
const current = existsSync(target) ? readFileSync(target, 'utf8') : undefined;

if (check) {
  if (current === expected) {
    process.stdout.write(`${shown} is up to date (${TOOL_CATALOG.length} tools).\n`);
  } else {
    let why = 'does not exist';
    if (current !== undefined) {
      const have = current.split('\n');
      const want = expected.split('\n');
      let line = 0;
      while (line < want.length && have[line] === want[line]) line++;
      why = `is out of date with the tool catalog and examples (first difference at line ${line + 1})`;
    }
    process.stderr.write(`gen-tools-doc: ${shown} ${why}.\nRegenerate it with: npx tsc -b && node scripts/gen-tools-doc.mjs\n`);
    process.exitCode = 1;
  }
} else if (current === expected) {
  process.stdout.write(`${shown} is already up to date (${TOOL_CATALOG.length} tools).\n`);
} else {
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, expected);
  process.stdout.write(`Wrote ${shown} (${TOOL_CATALOG.length} tools).\n`);
}
