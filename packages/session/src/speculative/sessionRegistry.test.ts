import { describe, expect, it } from 'vitest';
import type { LspConnection, ServerDefinition } from '@agent-lsp/lsp';
import type { Workspace } from '@agent-lsp/workspace';
import { SimulationError } from './errors.js';
import { SimulationRegistry } from './sessionRegistry.js';

// Creating, finding and ending sessions never touches the server: these stand-ins are never called.
const deps = { workspace: {} as Workspace, conn: {} as LspConnection, server: { id: 'pyright' } as ServerDefinition };

function reasonOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    return err instanceof SimulationError ? err.reason : `not a SimulationError: ${String(err)}`;
  }
  return undefined;
}

describe('SimulationRegistry', () => {
  it('refuses a session past the cap, with a message that says what to do', () => {
    const registry = new SimulationRegistry({ cap: 2 });
    registry.create('python', '/r', deps);
    const second = registry.create('python', '/r', deps);
    expect(() => registry.create('python', '/r', deps)).toThrow(/limit is 2.*destroy_session/);
    registry.destroy(second.id);
    expect(registry.create('python', '/r', deps).id).toMatch(/^sim_/);
    registry.dispose();
  });

  it('tells unknown, destroyed and expired ids apart', () => {
    let now = 1_000;
    const registry = new SimulationRegistry({ idleMs: 60_000, now: () => now });
    const kept = registry.create('python', '/r', deps);
    const idle = registry.create('python', '/r', deps);
    const destroyed = registry.create('python', '/r', deps);
    registry.destroy(destroyed.id);
    now += 40_000;
    expect(registry.get(kept.id)).toBe(kept);
    now += 30_000;
    expect(registry.get(kept.id)).toBe(kept);
    expect(reasonOf(() => registry.get(idle.id))).toBe('session_expired');
    expect(idle.phase).toBe('destroyed');
    expect(reasonOf(() => registry.get(destroyed.id))).toBe('session_destroyed');
    expect(reasonOf(() => registry.get('sim_nope'))).toBe('unknown_session');
    expect(registry.size).toBe(1);
    registry.dispose();
  });
});
