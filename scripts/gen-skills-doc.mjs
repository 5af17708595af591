#!/usr/bin/env node
// Writes docs/skills.md, the reference of every agent-lsp skill, from the BUILT skills package
// (run `npx tsc -b` first), which reads packages/skills/skills/*.md.
//
//   node scripts/gen-skills-doc.mjs           regenerate docs/skills.md
//   node scripts/gen-skills-doc.mjs --check   exit 1 if docs/skills.md is not what it would write
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const built = join(repoRoot, 'packages', 'skills', 'dist', 'index.js');
const target = join(repoRoot, 'docs', 'skills.md');
const shown = relative(process.cwd(), target) || target;

const args = process.argv.slice(2);
const unknown = args.filter((a) => a !== '--check');
if (unknown.length) {
  process.stderr.write(`gen-skills-doc: unknown argument(s): ${unknown.join(' ')}\nusage: node scripts/gen-skills-doc.mjs [--check]\n`);
  process.exit(2);
}
if (!existsSync(built)) {
  process.stderr.write(`gen-skills-doc: ${relative(repoRoot, built)} is missing; build first with \`npx tsc -b\`.\n`);
  process.exit(2);
}

const { builtinSkills, renderSkillsDoc } = await import(new URL('../packages/skills/dist/index.js', import.meta.url).href);
const skills = builtinSkills();
const expected = renderSkillsDoc(skills);
const current = existsSync(target) ? readFileSync(target, 'utf8') : undefined;

if (args.includes('--check')) {
  if (current === expected) process.stdout.write(`${shown} is up to date (${skills.length} skills).\n`);
  else {
    process.stderr.write(`gen-skills-doc: ${shown} is ${current === undefined ? 'missing' : 'out of date with the skill files'}.\nRegenerate it with: npx tsc -b && node scripts/gen-skills-doc.mjs\n`);
    process.exitCode = 1;
  }
} else if (current === expected) {
  process.stdout.write(`${shown} is already up to date (${skills.length} skills).\n`);
} else {
  writeFileSync(target, expected);
  process.stdout.write(`Wrote ${shown} (${skills.length} skills).\n`);
}
