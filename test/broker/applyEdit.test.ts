import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ApplyWorkspaceEditParams } from 'vscode-languageserver-protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pathToUri } from '@agent-lsp/protocol';
import { fixtureRoot } from '../helpers/brokers.js';
import { rawClient, startTestBroker, type RawClient, type TestBroker } from '../helpers/rawBroker.js';

describe('workspace/applyEdit through a typescript-language-server broker', () => {
  let root: string;
  let broker: TestBroker;
  const clients: RawClient[] = [];

  beforeAll(async () => {
    root = fixtureRoot('ts-basic');
    writeFileSync(join(root, 'ts-basic', 'src', 'unsorted.ts'), "import { totalArea } from './shapes.js';\nimport { Circle } from './shapes.js';\n\nexport const c = new Circle(1);\n");
    broker = await startTestBroker(root, 'typescript');
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await broker.stop();
  });

  it('reaches the client whose command caused it, and no other', async () => {
    const received: Record<string, ApplyWorkspaceEditParams[]> = { asker: [], bystander: [] };
    for (const name of ['asker', 'bystander'] as const) {
      clients.push(
        await rawClient(broker.info.socket, {
          canPull: false,
          onApplyEdit: (p) => {
            received[name]?.push(p as ApplyWorkspaceEditParams);
            return { applied: true };
          },
        }),
      );
    }
    const [asker, bystander] = clients as [RawClient, RawClient];
    const file = join(root, 'ts-basic', 'src', 'unsorted.ts');
    const uri = pathToUri(file);
    const text = "import { totalArea } from './shapes.js';\nimport { Circle } from './shapes.js';\n\nexport const c = new Circle(1);\n";
    for (const c of [asker, bystander]) await c.rpc.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'typescript', version: 1, text } });
    await asker.rpc.sendRequest('workspace/executeCommand', { command: '_typescript.organizeImports', arguments: [file] });
    expect(received['asker']).toHaveLength(1);
    expect(Object.keys(received['asker']?.[0]?.edit.changes ?? {})).toEqual([uri]);
    expect(received['bystander']).toEqual([]);
  });
});
