import { join } from 'node:path';
import type { ServerDefinition } from '@agent-lsp/lsp';
import { FIXTURES } from './paths.js';

export const FAULT_SERVER = join(FIXTURES, 'fault-server', 'server.mjs');

/** A server profile for the fault-injection server (see its header for what it does wrong). */
export function faultServerDefinition(env: Record<string, string> = {}): ServerDefinition {
  return {
    id: 'fault',
    displayName: 'fault-server',
    languageIds: ['fault'],
    extensions: { '.fault': 'fault' },
    rootMarkers: [],
    readiness: 'canary',
    installHint: 'it is a test fixture',
    resolve: () => ({
      command: [process.execPath, FAULT_SERVER],
      source: 'config',
      settings: {},
      env,
      profileFingerprint: 'fault',
      details: {},
    }),
  };
}
