import { join } from 'node:path';
import type { AgentLspClient, ToolAnswer } from '../helpers/mcpClient.js';
import { positionOf } from '../helpers/text.js';
import type { At, BatteryItem, ItemOutcome, LanguageCase } from './languageCase.js';

/**
 * The one battery every language runs, through the MCP front as an agent calls it. Each item
 * answers pass, fail (with what went wrong) or lacks (the server's capabilities do not offer it,
 * or the case says why the server cannot): a lack is recorded, never counted as a pass.
 */

interface Loc {
  file: string;
  line: number;
  end_line?: number;
}

const WAIT = { ready_timeout_seconds: 120 };

/** The capability (static provider or dynamic registration) behind each item that has one. */
const CAPABILITY: Partial<Record<BatteryItem, [provider: string, method: string]>> = {
  hover: ['hoverProvider', 'textDocument/hover'],
  definition: ['definitionProvider', 'textDocument/definition'],
  references: ['referencesProvider', 'textDocument/references'],
  document_symbols: ['documentSymbolProvider', 'textDocument/documentSymbol'],
  workspace_symbols: ['workspaceSymbolProvider', 'workspace/symbol'],
  rename: ['renameProvider', 'textDocument/rename'],
  format: ['documentFormattingProvider', 'textDocument/formatting'],
};

export interface ServerFacts {
  server: string;
  version: string | undefined;
  pid: number | undefined;
  capabilities: Record<string, unknown>;
  dynamic: string[];
}

function lineOf(root: string, at: At): number {
  return positionOf(join(root, at.file), at.pattern.replace('@@', '')).line;
}

function failed(answer: ToolAnswer): ItemOutcome | undefined {
  return answer.isError ? { status: 'fail', detail: answer.text.slice(0, 300) } : undefined;
}

function covers(loc: Loc, file: string, line: number): boolean {
  return loc.file === file && loc.line <= line && line <= (loc.end_line ?? loc.line);
}

function where(locs: Loc[]): string {
  return locs.map((l) => `${l.file}:${l.line}`).join(' ') || 'none';
}

export async function serverFacts(agent: AgentLspClient, c: LanguageCase): Promise<ServerFacts> {
  const caps = await agent.call('get_server_capabilities', { file_path: c.declaration.file });
  if (caps.isError) throw new Error(`get_server_capabilities: ${caps.text}`);
  return {
    server: String(caps.data['server']),
    version: caps.data['version'] as string | undefined,
    pid: undefined,
    capabilities: (caps.data['capabilities'] ?? {}) as Record<string, unknown>,
    dynamic: (caps.data['dynamic_registrations'] ?? []) as string[],
  };
}

/** Runs one item; the caller records the outcome. */
export async function runItem(item: Exclude<BatteryItem, 'start'>, agent: AgentLspClient, c: LanguageCase, root: string, facts: ServerFacts): Promise<ItemOutcome> {
  const declared = c.lacks?.[item];
  if (declared) return { status: 'lacks', detail: declared };
  const cap = CAPABILITY[item];
  if (cap) {
    const value = facts.capabilities[cap[0]];
    const has = (value !== undefined && value !== false && value !== null) || facts.dynamic.includes(cap[1]);
    if (!has) return { status: 'lacks', detail: `the server does not offer ${cap[1]}` };
  }
  const at = (a: At) => ({ file_path: a.file, position_pattern: a.pattern, ...WAIT });
  switch (item) {
    case 'hover': {
      const answer = await agent.call('inspect_symbol', at(c.use));
      const contents = typeof answer.data['contents'] === 'string' ? answer.data['contents'] : '';
      return failed(answer) ?? (answer.data['found'] === true && contents.trim() !== '' ? { status: 'pass', detail: contents.split('\n').find((l) => l.trim() && !l.startsWith('```'))?.slice(0, 80) ?? '' } : { status: 'fail', detail: `no hover: ${answer.text.slice(0, 200)}` });
    }
    case 'definition': {
      const answer = await agent.call('go_to_definition', at(c.use));
      const locs = (answer.data['locations'] ?? []) as Loc[];
      const targets = (c.definitionTargets ?? [c.declaration]).map((t) => ({ file: t.file, line: lineOf(root, t) }));
      const hit = locs.some((l) => targets.some((t) => covers(l, t.file, t.line)));
      const crossFile = c.use.file !== c.declaration.file;
      return failed(answer) ?? (hit ? { status: 'pass', detail: crossFile ? 'across files' : 'same file' } : { status: 'fail', detail: `expected ${targets.map((t) => `${t.file}:${t.line}`).join(' or ')}, got ${where(locs)}` });
    }
    case 'references': {
      const answer = await agent.call('find_references', at(c.declaration));
      const locs = (answer.data['locations'] ?? []) as Loc[];
      const useLine = lineOf(root, c.use);
      const hit = locs.some((l) => covers(l, c.use.file, useLine));
      return failed(answer) ?? (hit ? { status: 'pass', detail: `${locs.length} in ${new Set(locs.map((l) => l.file)).size} file(s)` } : { status: 'fail', detail: `expected ${c.use.file}:${useLine}, got ${where(locs)}` });
    }
    case 'document_symbols': {
      const answer = await agent.call('list_symbols', { file_path: c.declaration.file, format: 'flat', ...WAIT });
      const names = ((answer.data['symbols'] ?? []) as { name: string }[]).map((s) => s.name);
      const expected = c.outline ?? c.symbol;
      return failed(answer) ?? (names.some((n) => n.includes(expected)) ? { status: 'pass', detail: `${names.length} symbol(s)` } : { status: 'fail', detail: `${expected} not among ${names.join(', ').slice(0, 200)}` });
    }
    case 'workspace_symbols': {
      const answer = await agent.call('find_symbol', { query: c.symbol, language_id: c.languageId, ...WAIT });
      const found = (answer.data['symbols'] ?? []) as { name: string; file?: string }[];
      return failed(answer) ?? (found.some((s) => s.name.includes(c.symbol)) ? { status: 'pass', detail: `${found.length} symbol(s)` } : { status: 'fail', detail: `${c.symbol} not found: ${answer.text.slice(0, 200)}` });
    }
    case 'diagnostics': {
      const answer = await agent.call('get_diagnostics', { file_path: c.broken.file, ...WAIT });
      const line = lineOf(root, c.broken);
      const diags = (answer.data['diagnostics'] ?? []) as { line: number; end_line?: number; message: string }[];
      const files = (answer.data['files'] ?? []) as { settled_by?: string }[];
      const hit = diags.find((d) => d.line <= line && line <= (d.end_line ?? d.line));
      return failed(answer) ?? (hit ? { status: 'pass', detail: `settled by ${files[0]?.settled_by ?? '?'}: ${hit.message.split('\n')[0]?.slice(0, 80)}` } : { status: 'fail', detail: `nothing on line ${line}: ${answer.text.slice(0, 200)}` });
    }
    case 'rename': {
      const answer = await agent.call('rename_symbol', { ...at(c.declaration), new_name: `${c.symbol}Renamed`, dry_run: true });
      const files = ((answer.data['files'] ?? []) as { file: string }[]).map((f) => f.file);
      const need = [...new Set([c.declaration.file, c.use.file])];
      return failed(answer) ?? (need.every((f) => files.includes(f)) ? { status: 'pass', detail: `${files.length} file(s)` } : { status: 'fail', detail: `expected edits in ${need.join(', ')}, got ${files.join(', ') || 'none'}` });
    }
    case 'format': {
      const answer = await agent.call('format_document', { file_path: c.declaration.file, ...WAIT });
      return failed(answer) ?? { status: 'pass', detail: `${((answer.data['edits'] ?? []) as unknown[]).length} edit(s)` };
    }
    case 'preview_edit': {
      if (c.lacks?.diagnostics) return { status: 'lacks', detail: 'no diagnostics to compare' };
      const answer = await agent.call('preview_edit', { file_path: c.preview.file, old_text: c.preview.old_text, new_text: c.preview.new_text, ...WAIT });
      const introduced = [...((answer.data['errors_introduced'] ?? []) as unknown[]), ...((answer.data['warnings_introduced'] ?? []) as unknown[])];
      return failed(answer) ?? (introduced.length > 0 ? { status: 'pass', detail: `net_delta ${String(answer.data['net_delta'])}, confidence ${String(answer.data['confidence'])}` } : { status: 'fail', detail: `nothing introduced: ${answer.text.slice(0, 200)}` });
    }
  }
}
