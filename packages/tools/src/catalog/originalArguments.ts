import type { AnyToolDefinition } from './toolDefinition.js';

/**
 * The original agent-lsp's argument names that our tools do not declare (from its tool argument
 * types, v0.19.5): a call written for it must never lose one silently. Each is either accepted
 * (it means nothing more here than there) or refused with what replaces it here. Names our tools
 * declare are not listed: those are simply accepted.
 */
export type OriginalArgument =
  | { accepted: string; renamed?: undefined; refused?: undefined }
  /** The same argument under our name: the call is taken as if it had used ours. */
  | { renamed: string; accepted?: undefined; refused?: undefined }
  | { refused: string; accepted?: undefined; renamed?: undefined };

const refused = (text: string): OriginalArgument => ({ refused: text });

/** By the name the tool is called by (the original's aliases take their own arguments), then by path (`changes[].uri`). */
const BY_TOOL: Record<string, Record<string, OriginalArgument>> = {
  get_cross_repo_references: { symbol_file: { renamed: 'file_path' } },
  get_symbol_documentation: {
    format: refused('the original chose an output format; here the answer is always the text and the structured result: leave it out.'),
  },
  get_symbol_source: { character: { renamed: 'column' } },
  go_to_symbol: {
    language: { renamed: 'language_id' },
  },
  detect_changes: {
    workspace_root: refused('the original named the repository; here it is the workspace start_lsp opened (root_dir): leave it out.'),
    scope: refused("the original's scope: for \"staged\" pass staged: true; for \"committed\" pass base with the ref to diff against; unstaged changes are the default."),
    range: refused("the original's git range; here base names the ref to diff against (e.g. main, or v0.7.0 for v0.7.0..HEAD)."),
  },
  open_document: { text: refused('open_document reads the file on disk; to try text that is not on disk, use simulate_edit or preview_edit.') },
  // The original's safe_edit alias took a range; ours is safe_apply_edit's alias.
  safe_edit: Object.fromEntries(
    ['start_line', 'start_column', 'end_line', 'end_column'].map((n) => [n, refused('the original\'s safe_edit took a range; here safe_edit (safe_apply_edit) takes old_text, the text to replace, and new_text; preview_edit takes a range.')]),
  ),
};

/** The original's `language_id`, which its tools took beside a file and detected from it when absent. */
const LANGUAGE_ID: OriginalArgument = { accepted: "the original's optional language_id: the language is the file's, from its name, as the original detected it." };

/** What the original's name at `path` (`edits[0].x` or `x`) is here, when it is one of the original's. */
export function originalArgument(called: string, def: AnyToolDefinition, path: string): OriginalArgument | undefined {
  const key = path.replace(/\[\d+\]/g, '[]');
  const entry = BY_TOOL[called]?.[key] ?? BY_TOOL[def.name]?.[key];
  if (entry) return entry;
  if (key === 'language_id' && 'file_path' in def.input) return LANGUAGE_ID;
  return undefined;
}

/** Every listed name, for the tests: [called tool, path]. */
export function originalArgumentEntries(): [string, string][] {
  return Object.entries(BY_TOOL).flatMap(([tool, names]) => Object.keys(names).map((path): [string, string] => [tool, path]));
}
