import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { UserError, uriToPath, type Disposable } from '@agent-lsp/protocol';
import type { Logger } from '@agent-lsp/lsp';
import type { AgentLedger } from '@agent-lsp/session';
import type { Workspace } from '@agent-lsp/workspace';
import { DiagnosticsSubscriptions } from './diagnosticsSubscriptions.js';
import { ResourceReadError, ResourceReader } from './resourceReader.js';
import { diagnosticsUri, parseResourceUri, RESOURCE_TEMPLATES, ResourceUriError } from './resourceUris.js';

/**
 * MCP resources: the diagnostics, hover and completions templates (resources/read answers what the
 * matching tool answers, as JSON), and subscriptions to diagnostics. Declares the `resources`
 * capability with `subscribe`; must run before the server connects.
 */
export function serveResources(mcp: McpServer, workspace: Workspace, ledger: AgentLedger, logger: Logger): Disposable {
  const server = mcp.server;
  const reader = new ResourceReader(workspace, ledger, logger);
  const subscriptions = new DiagnosticsSubscriptions(workspace, reader, (uri) => server.sendResourceUpdated({ uri }), logger.child('subscriptions'));
  server.registerCapabilities({ resources: { subscribe: true, listChanged: false } });

  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: RESOURCE_TEMPLATES.map((t) => ({ uriTemplate: t.uriTemplate, name: t.name, title: t.title, description: t.description, mimeType: 'application/json' })),
  }));

  // The concrete resources: every open file's diagnostics, and all of them at once.
  server.setRequestHandler(ListResourcesRequestSchema, async () => {
    const files = new Set<string>();
    for (const conn of await workspace.liveConnections()) for (const uri of conn.documents.uris()) {
      const path = uriToPath(uri);
      if (path) files.add(path);
    }
    return {
      resources: [
        { uri: 'lsp-diagnostics://', name: 'diagnostics of every open file', mimeType: 'application/json' },
        ...[...files].sort().map((path) => ({ uri: diagnosticsUri(path), name: `diagnostics of ${workspace.display(path)}`, mimeType: 'application/json' })),
      ],
    };
  });

  server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
    const { uri } = request.params;
    const data = await answer(() => reader.read(parseResourceUri(uri), extra.signal));
    return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(data) }] };
  });

  server.setRequestHandler(SubscribeRequestSchema, async (request) => {
    await answer(() => subscriptions.subscribe(request.params.uri));
    return {};
  });

  server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
    subscriptions.unsubscribe(request.params.uri);
    return {};
  });

  return subscriptions;
}

/** Errors an agent can act on become InvalidParams with the tool's own message. */
async function answer<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof ResourceUriError || err instanceof ResourceReadError || err instanceof UserError) throw new McpError(ErrorCode.InvalidParams, err.message);
    throw err;
  }
}
