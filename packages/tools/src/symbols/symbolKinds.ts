const NAMES = [
  'file', 'module', 'namespace', 'package', 'class', 'method', 'property', 'field', 'constructor', 'enum',
  'interface', 'function', 'variable', 'constant', 'string', 'number', 'boolean', 'array', 'object', 'key',
  'null', 'enum_member', 'struct', 'event', 'operator', 'type_parameter',
] as const;

/** LSP SymbolKind (1-based number) → lower-case name agents can filter by. */
export function symbolKindName(kind: number): string {
  return NAMES[kind - 1] ?? 'unknown';
}

export const SYMBOL_KIND_NAMES: readonly string[] = NAMES;

const COMPLETION_NAMES = [
  'text', 'method', 'function', 'constructor', 'field', 'variable', 'class', 'interface', 'module', 'property',
  'unit', 'value', 'enum', 'keyword', 'snippet', 'color', 'file', 'reference', 'folder', 'enum_member',
  'constant', 'struct', 'event', 'operator', 'type_parameter',
] as const;

export function completionKindName(kind: number | undefined): string | undefined {
  return kind === undefined ? undefined : COMPLETION_NAMES[kind - 1];
}
