/**
 * One row of the language matrix: a small real project (test/fixtures/languages/<fixture>) and
 * where the battery (battery.ts) looks in it. Positions are position_patterns (`@@` marks the
 * cursor), the form agents use.
 */
export interface LanguageCase {
  /** Unique row name: `python (basedpyright)`. */
  name: string;
  /** The language as docs/languages.md lists it. */
  language: string;
  /** Directory under test/fixtures/languages/. */
  fixture: string;
  /** `start_lsp`'s language_id. */
  languageId: string;
  /** The server profile's id (builtinServers.ts, knownServers.ts): how the product finds it. */
  serverId: string;
  /** Front arguments that select this server (`--python-server ty`, `c:ccls`); none for the default. */
  args?: readonly string[];
  /** How the server was installed here (for docs/languages.md). */
  install: string;
  /** The symbol the battery asks about and where it is declared (`@@` on its name). */
  symbol: string;
  declaration: At;
  /** A use of the symbol, in another file where the language has files that refer to each other. */
  use: At;
  /** Where go-to-definition from the use may land (a C declaration or its definition); default: the declaration. */
  definitionTargets?: readonly At[];
  /** The file with the planted error and a snippet on its line. */
  broken: At;
  /** An edit preview_edit must see break something. */
  preview: { file: string; old_text: string; new_text: string };
  /**
   * What the server does not do although its capabilities do not say so (push diagnostics are not
   * a capability), with the reason: recorded as "lacks", never passed.
   */
  lacks?: Partial<Record<BatteryItem, string>>;
  /** The name the declaration has in the file's outline, when not the symbol (CSS: its selector). */
  outline?: string;
}

export interface At {
  file: string;
  pattern: string;
}

export const BATTERY_ITEMS = ['start', 'hover', 'definition', 'references', 'document_symbols', 'workspace_symbols', 'diagnostics', 'rename', 'format', 'preview_edit'] as const;
export type BatteryItem = (typeof BATTERY_ITEMS)[number];

export type ItemOutcome = { status: 'pass'; detail?: string } | { status: 'lacks'; detail: string } | { status: 'fail'; detail: string };
