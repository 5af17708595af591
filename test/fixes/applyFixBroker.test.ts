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

describe('apply_fix and safe_apply_edit in daemon mode', () => {
  it('applies a refactoring command and a quick fix through the broker, rolls both back, and judges safe edits there', async () => {
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

    const shapes = join(root, 'src/shapes.ts');
    const square = 'return this.side * this.side;';
    const shapesBefore = readFileSync(shapes, 'utf8');
    const refused = ok(await front.call('safe_apply_edit', { file_path: 'src/shapes.ts', old_text: square, new_text: 'return "wrong";' }));
    expect(refused).toMatchObject({ applied: false, net_delta: 1 });
    expect(readFileSync(shapes, 'utf8')).toBe(shapesBefore);
    const written = ok(await front.call('safe_apply_edit', { file_path: 'src/shapes.ts', old_text: square, new_text: 'return this.side ** 2;' }));
    expect(written).toMatchObject({ applied: true, net_delta: 0 });
    expect(readFileSync(shapes, 'utf8')).toBe(shapesBefore.replace(square, 'return this.side ** 2;'));
  });
});
