import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Generated workspaces big enough that a language server needs a while to index them, with one
 * function referenced from many files in a known pattern: a single-file partial answer and a
 * complete one differ by hundreds of references.
 *
 * Everything is a pure function of the parameters (no randomness, no clock), and so are the
 * expected counts: the generator counts what it writes.
 */
export interface GeneratedProject {
  root: string;
  /** Absolute path of the file that defines the function. */
  definingFile: string;
  /** Locates the function's name in its definition; `@@` marks the cursor. */
  positionPattern: string;
  /** Every reference the server must report, the declaration included. */
  expectedReferences: number;
  /** How many distinct files those references span. */
  expectedFiles: number;
  /** Source files written (the server has to look at all of them). */
  sourceFiles: number;
  /** Files that use the function (not counting the defining file). */
  userFiles: number;
  /** Expected references per file, by root-relative POSIX path (as agent-lsp shows files). */
  expectedByFile: Record<string, number>;
}

export interface FixtureShape {
  /** Modules in the package tree, besides the defining one. */
  modules: number;
  /** Modules per (sub)package directory. */
  perPackage: number;
  /** Module i uses the function when i % usersEvery === 0. */
  usersEvery: number;
}

/**
 * Default shape: 300 modules, 75 of them use the function. The totals stay below
 * find_references' default page size (300) so one call returns everything and `complete` is true.
 */
export const DEFAULT_SHAPE: FixtureShape = { modules: 300, perPackage: 25, usersEvery: 4 };

/**
 * How a user module reaches the function, by its rank among users:
 * - `named`: `from … import compute_total` / `import { computeTotal } from …` — the import
 *   names the function, so it is one reference more than the calls;
 * - `module`: `import ….totals as totals` / `import * as totals from …` — only the qualified calls
 *   (`totals.compute_total(...)`) name it.
 */
type ImportStyle = 'named' | 'module';

interface UserPlan {
  style: ImportStyle;
  calls: number;
}

function userPlan(userRank: number): UserPlan {
  return { style: userRank % 3 === 2 ? 'module' : 'named', calls: 1 + (userRank % 2) };
}

/** References one user module contributes, as both pyright and tsserver count them. */
function referencesIn(plan: UserPlan): number {
  return (plan.style === 'named' ? 1 : 0) + plan.calls;
}

/**
 * Module i that does not use the function but defines its own, unrelated `compute_total`: same
 * name, different symbol. A server (or a grep) that matched by name would over-count.
 */
function hasDecoy(i: number, shape: FixtureShape): boolean {
  return i % shape.usersEvery !== 0 && i % 10 === 5;
}

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** References counted file by file as the generator writes them. */
class Tally {
  readonly byFile: Record<string, number> = {};

  add(file: string, references: number): void {
    this.byFile[file] = (this.byFile[file] ?? 0) + references;
  }

  result(root: string, definingFile: string, positionPattern: string, sourceFiles: number): GeneratedProject {
    const counts = Object.values(this.byFile);
    return {
      root,
      definingFile,
      positionPattern,
      expectedReferences: counts.reduce((a, b) => a + b, 0),
      expectedFiles: counts.length,
      sourceFiles,
      userFiles: counts.length - 1,
      expectedByFile: { ...this.byFile },
    };
  }
}

/**
 * Python: `pyproject.toml` and a package `ledger/` with `core/totals.py` defining
 * `compute_total`, and `shape.modules` modules in subpackages `ledger/group_NN/mod_NNN.py`.
 * Every module also imports its predecessor, so the import graph spans the tree.
 */
export function generatePythonProject(root: string, shape: FixtureShape = DEFAULT_SHAPE): GeneratedProject {
  write(join(root, 'pyproject.toml'), ['[project]', 'name = "ledger"', 'version = "0.1.0"', 'requires-python = ">=3.9"', ''].join('\n'));
  write(join(root, 'ledger', '__init__.py'), '"""Generated ledger package."""\n');
  write(join(root, 'ledger', 'core', '__init__.py'), '');

  const definingFile = join(root, 'ledger', 'core', 'totals.py');
  write(
    definingFile,
    [
      '"""Totals: the function every report uses."""',
      '',
      'TAX_RATE = 0.2',
      '',
      '',
      'def compute_total(prices: list[float], discount: float = 0.0) -> float:',
      '    subtotal = sum(prices) - discount',
      '    return round(subtotal * (1 + TAX_RATE), 2)',
      '',
      '',
      'def compute_grand_total(groups: list[list[float]]) -> float:',
      '    return sum(compute_total(group) for group in groups)',
      '',
    ].join('\n'),
  );
  const tally = new Tally();
  // The declaration, and the call in compute_grand_total.
  tally.add('ledger/core/totals.py', 2);
  let sourceFiles = 3;

  const packages = new Set<number>();
  for (let i = 0; i < shape.modules; i++) {
    const pkg = Math.floor(i / shape.perPackage);
    const pkgRel = `ledger/group_${pad(pkg, 2)}`;
    const pkgDir = join(root, ...pkgRel.split('/'));
    const moduleRel = `${pkgRel}/mod_${pad(i, 3)}.py`;
    if (!packages.has(pkg)) {
      packages.add(pkg);
      write(join(pkgDir, '__init__.py'), '');
      sourceFiles++;
    }
    const lines = [`"""Generated module ${i}."""`, ''];
    const body: string[] = [];
    if (i > 0) {
      const prev = i - 1;
      lines.push(`from ledger.group_${pad(Math.floor(prev / shape.perPackage), 2)}.mod_${pad(prev, 3)} import helper_${prev}`);
    }
    if (i % shape.usersEvery === 0) {
      const plan = userPlan(i / shape.usersEvery);
      lines.push(plan.style === 'named' ? 'from ledger.core.totals import compute_total' : 'import ledger.core.totals as totals');
      const callee = plan.style === 'named' ? 'compute_total' : 'totals.compute_total';
      body.push('', '', `def report_${i}(prices: list[float]) -> float:`, `    first = ${callee}(prices)`);
      if (plan.calls > 1) body.push(`    return first + ${callee}(prices, discount=1.0)`);
      else body.push('    return first');
      tally.add(moduleRel, referencesIn(plan));
    } else if (hasDecoy(i, shape)) {
      body.push('', '', 'def compute_total(values: list[int]) -> int:', '    return len(values)', '', '', `def count_${i}() -> int:`, '    return compute_total([1, 2, 3])');
    }
    body.push('', '', `def helper_${i}(x: int) -> int:`, i > 0 ? `    return helper_${i - 1}(x) + ${i}` : `    return x + ${i}`, '');
    write(join(root, ...moduleRel.split('/')), [...lines, ...body].join('\n'));
    sourceFiles++;
  }

  return tally.result(root, definingFile, 'def @@compute_total(', sourceFiles);
}

/**
 * TypeScript: `tsconfig.json` (strict, NodeNext, include src), an ESM `package.json`, and
 * `src/core/totals.ts` exporting `computeTotal`, used from `shape.modules` files
 * `src/group_NN/mod_NNN.ts` (each also importing its predecessor).
 */
export function generateTypeScriptProject(root: string, shape: FixtureShape = DEFAULT_SHAPE): GeneratedProject {
  write(join(root, 'package.json'), JSON.stringify({ name: 'ledger', version: '0.1.0', private: true, type: 'module' }, null, 2) + '\n');
  write(
    join(root, 'tsconfig.json'),
    JSON.stringify(
      {
        compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: true, types: [] },
        include: ['src'],
      },
      null,
      2,
    ) + '\n',
  );

  const definingFile = join(root, 'src', 'core', 'totals.ts');
  write(
    definingFile,
    [
      '/** Totals: the function every report uses. */',
      'export const TAX_RATE = 0.2;',
      '',
      'export function computeTotal(prices: readonly number[], discount = 0): number {',
      '  const subtotal = prices.reduce((a, b) => a + b, 0) - discount;',
      '  return Math.round(subtotal * (1 + TAX_RATE) * 100) / 100;',
      '}',
      '',
      'export function computeGrandTotal(groups: readonly (readonly number[])[]): number {',
      '  return groups.reduce((sum, group) => sum + computeTotal(group), 0);',
      '}',
      '',
    ].join('\n'),
  );
  const tally = new Tally();
  // The declaration, and the call in computeGrandTotal.
  tally.add('src/core/totals.ts', 2);
  let sourceFiles = 1;

  for (let i = 0; i < shape.modules; i++) {
    const pkg = Math.floor(i / shape.perPackage);
    const moduleRel = `src/group_${pad(pkg, 2)}/mod_${pad(i, 3)}.ts`;
    const lines: string[] = [];
    const body: string[] = [];
    if (i > 0) {
      const prev = i - 1;
      const prevPkg = Math.floor(prev / shape.perPackage);
      const spec = prevPkg === pkg ? `./mod_${pad(prev, 3)}.js` : `../group_${pad(prevPkg, 2)}/mod_${pad(prev, 3)}.js`;
      lines.push(`import { helper${prev} } from '${spec}';`);
    }
    if (i % shape.usersEvery === 0) {
      const plan = userPlan(i / shape.usersEvery);
      lines.push(plan.style === 'named' ? "import { computeTotal } from '../core/totals.js';" : "import * as totals from '../core/totals.js';");
      const callee = plan.style === 'named' ? 'computeTotal' : 'totals.computeTotal';
      body.push('', `export function report${i}(prices: readonly number[]): number {`, `  const first = ${callee}(prices);`);
      body.push(plan.calls > 1 ? `  return first + ${callee}(prices, 1);` : '  return first;', '}');
      tally.add(moduleRel, referencesIn(plan));
    } else if (hasDecoy(i, shape)) {
      body.push('', 'function computeTotal(values: readonly number[]): number {', '  return values.length;', '}', '', `export function count${i}(): number {`, '  return computeTotal([1, 2, 3]);', '}');
    }
    body.push('', `export function helper${i}(x: number): number {`, i > 0 ? `  return helper${i - 1}(x) + ${i};` : `  return x + ${i};`, '}', '');
    write(join(root, ...moduleRel.split('/')), [`// Generated module ${i}.`, ...lines, ...body].join('\n'));
    sourceFiles++;
  }

  return tally.result(root, definingFile, 'export function @@computeTotal(', sourceFiles);
}
