import type { ServerDefinition } from '@agent-lsp/lsp';
import { isOriginalForm, parseOriginalForms } from './originalForms.js';

/**
 * What `serve` takes from the original agent-lsp (Go): its positional server forms, and its
 * environment variables where we have the same feature. What we cannot honour is said once, on
 * stderr (stdout is the protocol).
 */
export interface OriginalCompat {
  servers: ServerDefinition[];
  auditLog?: string;
}

/** undefined when the arguments are not the original's forms (a mistyped command). */
export function originalCompat(args: readonly string[], env: NodeJS.ProcessEnv, warn: (line: string) => void): OriginalCompat | undefined {
  if (args.length > 0 && !isOriginalForm(args)) return undefined;
  const notes: string[] = [];
  const servers: ServerDefinition[] = [];
  if (args.length > 0) {
    const parsed = parseOriginalForms(args);
    servers.push(...parsed.servers);
    notes.push(...parsed.notes);
  }
  if (notes.length > 0) warn(`agent-lsp: from the original agent-lsp's options, ${notes.length === 1 ? 'this is' : 'these are'} not used:\n  ${notes.join('\n  ')}`);
  const auditLog = env['AGENT_LSP_AUDIT_LOG'];
  return { servers, ...(auditLog ? { auditLog } : {}) };
}
