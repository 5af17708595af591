// apply_fix through a broker (daemon mode, the default for TypeScript): the server's
// workspace/applyEdit for a refactoring command is routed back to the front whose command caused
// it and written in that call's transaction; a quick fix's edit is written the same way.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BrokerTestScope } from '../helpers/brokers.js';
import { ok } from '../helpers/mcpClient.js';

const scope = new BrokerTestScope();

afterEach(async () => {
  await scope.cleanup();
});

describe('apply_fix in daemon mode', () => {
  it('applies a refactoring command and a quick fix through the broker, and rolls both back', async () => {
    const root = join(scope.root('ts-basic'), 'ts-basic');
    const front = await scope.front(scope.home());
    ok(await front.call('start_lsp', { root_dir: root }));
    const main = join(root, 'src/main.ts');
    const before = readFileSync(main, 'utf8');

    const extract = ok(await front.call('apply_fix', { file_path: 'src/main.ts', start_line: 10, start_column: 49, end_line: 10, end_column: 62, title: 'Extract to constant in enclosing scope' }));
    expect(extract).toMatchObject({ applied: true, command: '_typescript.applyRefactoring', files: [{ file: 'src/main.ts', change: 'modified' }] });
    expect(readFileSync(main, 'utf8')).toBe(
      before.replace('  return Math.max(...list.map((s) => s.area()), totalArea([]));', '    const newLocal = totalArea([]);\n  return Math.max(...list.map((s) => s.area()), newLocal);'),
    );

    const fix = ok(await front.call('apply_fix', { file_path: 'src/needsImport.ts', kind: 'quickfix' }));
    expect(fix).toMatchObject({ applied: true, title: 'Add import from "./shapes.js"' });
    expect(readFileSync(join(root, 'src/needsImport.ts'), 'utf8')).toBe('import { Circle } from "./shapes.js";\n\nexport const c = new Circle(3);\n');

    // Back to before the first fix: both calls' files as they were.
    ok(await front.call('rollback_to', { checkpoint_id: extract['checkpoint_id'] }));
    expect(readFileSync(main, 'utf8')).toBe(before);
    expect(readFileSync(join(root, 'src/needsImport.ts'), 'utf8')).toBe('export const c = new Circle(3);\n');
  });
});
