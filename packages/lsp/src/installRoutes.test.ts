import { describe, expect, it } from 'vitest';
import { INSTALL_ROUTES } from './installRoutes.js';
import { KNOWN_SERVERS } from './knownServers.js';
import { ServerRegistry } from './serverRegistry.js';

describe('the install routes', () => {
  const ids = new Set(new ServerRegistry().servers.map((s) => s.id));

  it('belong to servers agent-lsp knows, by id', () => {
    const strangers = Object.keys(INSTALL_ROUTES).filter((id) => !ids.has(id) && !KNOWN_SERVERS.some((k) => k.id === id));
    expect(strangers).toEqual([]);
  });

  it('provide the executable each known server is run by', () => {
    for (const known of KNOWN_SERVERS) {
      const route = INSTALL_ROUTES[known.id];
      // An apt package with no executable of its own (a Perl module) is told installed by the server's installedCheck.
      if (route?.kind === 'apt' && route.binaries.length === 0) expect(known.installedCheck, known.id).toBeDefined();
      else if (route && 'binaries' in route) expect(route.binaries, known.id).toContain(known.command);
    }
  });

  it('pin every package to one exact version', () => {
    for (const [id, route] of Object.entries(INSTALL_ROUTES)) {
      if (!('packages' in route) || route.kind === 'apt') continue;
      for (const p of route.packages) expect(p.version, `${id} ${p.name}`).toMatch(/^v?\d+\.\d+\.\d+(-[\w.]+)?$/);
    }
  });
});
