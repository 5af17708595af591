import { SYMBOL_TOOL_DETAILS } from './docs/symbolDetails.js';
import { SYMNAV_DETAILS } from './docs/symnavDetails.js';
import { FIXES_DETAILS } from './docs/fixesDetails.js';
import { SKILL_PHASES_DETAILS } from './docs/skillPhasesDetails.js';
import { IMPACT_DETAILS } from './docs/impactDetails.js';
import { BUILD_TOOL_DETAILS } from './docs/buildDetails.js';
import { PREFETCH_DETAILS } from './docs/prefetchDetails.js';
import { CACHE_DETAILS } from './docs/cacheDetails.js';

/**
 * The longer explanation of each tool, for docs/tools.md (rendered by toolsDoc.ts under the tool's
 * short description). tools/list carries only the short one: it is sent into the agent's context on
 * every turn (test/e2e/catalogSize.test.ts keeps it small).
 */
export const TOOL_DETAILS: Readonly<Record<string, string>> = {
  ...IMPACT_DETAILS,
  start_lsp:
    'Sets the workspace root. With language_id, starts that language server now and waits until it has indexed the workspace (progress is reported; wait_for_ready:false returns at once). Without it, servers start on first use of a file of their language. Call this first. scope (a list of directories under the root) limits what a large workspace indexes, for the servers that can: pyright analyses only those directories (python.analysis.include), gopls loads only them (directoryFilters); typescript-language-server (projects come from tsconfig.json) and clangd (compile_commands.json) cannot, and the answer says so per server. Servers already running restart with the new scope; a scoped broker is a separate daemon from an unscoped one. start_lsp without scope indexes the whole root again.',
  restart_lsp_server:
    'Stops and starts a language server (or every running one), e.g. after changing what it reads at start that it does not watch. pyright follows packages installed into its interpreter\'s site-packages and a virtualenv created in the root by itself. root_dir switches the workspace first.',
  get_server_capabilities:
    'What a language server supports (its initialize answer plus dynamic registrations), for the server of file_path or language_id.',
  detect_lsp_servers:
    'Which languages a directory contains and whether agent-lsp has a server for each (installed or not, and how to install it).',
  list_workspace_folders:
    'The workspace roots agent-lsp serves (absolute paths).',
  add_workspace_folder:
    'Adds a directory as another workspace root (monorepos, multi-root work); running servers are told.',
  remove_workspace_folder:
    'Removes a workspace root added earlier; running servers are told.',
  get_daemon_status:
    'The warm language-server brokers on this machine (shared by agent sessions): language, root, readiness and progress, connected clients, uptime, idle time, pids and memory; stale daemon directories and orphan brokers are flagged. `agent-lsp daemon-stop` stops them.',
  open_document:
    'Opens a file in its language server (starting the server if needed), so that diagnostics and queries cover it. Re-syncs a file that changed on disk. Every query tool opens its file by itself; this is for warming up or for get_diagnostics without file_path.',
  close_document:
    'Closes a file in its language server (the server then forgets unsaved state and stops reporting on it).',
  get_diagnostics:
    'Errors and warnings for a file as it is on disk now (opened in its server and settled: pull diagnostics, the server\'s exact query, a push stamped with the version sent, or a confirmed push from a server whose pushes carry no version, as `settled_by` says; `quiet` and `timeout` mean the server never confirmed the answer for this text). Without file_path: every document agent-lsp has open. group_by orders the diagnostics by `file`, by `severity` (errors first) or by `symbol` (the innermost function, method or class around each, as `file: Class.method`, from the file\'s document symbols; `(outside any symbol)` for module-level code); each diagnostic then names its `group` and `groups` counts them all.',
  go_to_definition:
    'Where the symbol at a position is defined. Give the position by line/column (1-based characters) or position_pattern. Waits for the server to finish indexing so the answer is complete.',
  go_to_type_definition:
    'Where the type of the symbol at a position is defined. Give the position by line/column (1-based characters) or position_pattern. Waits for the server to finish indexing so the answer is complete.',
  go_to_implementation:
    'The implementations of the interface, abstract method or type at a position. Give the position by line/column (1-based characters) or position_pattern. Waits for the server to finish indexing so the answer is complete.',
  go_to_declaration:
    'Where the symbol at a position is declared (for C/C++: the header). Give the position by line/column (1-based characters) or position_pattern. Waits for the server to finish indexing so the answer is complete.',
  find_references:
    'Every reference to the symbol at a position, across the whole workspace, grouped by file. Waits until the server has indexed the workspace, so the count is complete (never a single-file partial answer). Pages with limit/offset. Give the position by line/column (1-based characters) or position_pattern. Waits for the server to finish indexing so the answer is complete.',
  inspect_symbol:
    'Type, signature and documentation of the symbol at a position (the editor hover).',
  list_symbols:
    'The outline of a file: classes, functions, methods, variables, with their ranges and nesting. format "tree" (default) indents members under their class; "flat" gives each symbol\'s dotted `path` (Class.method) instead, one per line.',
  find_symbol:
    'Search the workspace for symbols by name (workspace/symbol). Exact name matches are listed first and marked match:"exact"; servers also return fuzzy matches, marked as such. TypeScript: tsserver searches one project at a time, so every tsconfig/jsconfig project under the root (up to 64; complete is false beyond) is loaded and searched. Optional kind filter (function, class, method, variable, …). detail_level "hover" adds each listed symbol\'s hover (signature and the start of its docs, up to 400 characters) and makes the default page 20; "basic" (default) lists names and places only.',
  get_completions:
    'What the server would complete at a position (members after a dot, names in scope), in the server\'s order.',
  get_signature_help:
    'The signature(s) of the call the position is inside, and which parameter the cursor is on.',
  apply_edit:
    'Writes an edit to disk as one transaction: a WorkspaceEdit (text edits, file creations, renames, deletions), or file_path + old_text + new_text (old_text must occur exactly once). All files change or none does; the call leaves a checkpoint. dry_run shows the diff and writes nothing.',
  execute_command:
    'Runs a command the language server offers (workspace/executeCommand; see get_server_capabilities → executeCommandProvider), as one transaction: edits the server applies meanwhile (workspace/applyEdit) are written and checkpointed, or all rolled back if the command fails.',
  rename_symbol:
    'Renames the symbol at a position everywhere the server knows it is used (textDocument/rename), as one transaction: every file changes or none does, and the call leaves a checkpoint. dry_run writes nothing and answers with the files, the diff (the text shows its first hunks; structured content `diff` holds up to 20k characters) and the edits in 1-based character positions, paged with limit/offset (100 per page); the server\'s WorkspaceEdit itself (`workspace_edit`, ready for apply_edit) comes only when every edit fits one page. Before anything is written the edits are checked: references the server reports, and word-bounded uses of the old name in the files the rename touches, that no edit covers are listed in `possibly_missed` with a WARNING line (clangd, for one, leaves macro bodies alone; comments and strings count too, so check them). exclude_globs leaves files matching any of the globs unchanged (matched against the root-relative path and the file name; `**` spans directories, `*` and `?` stay within one): the answer lists them in `excluded_files`, and a rename whose every file is excluded is refused.',
  format_document:
    'Formats a whole file with its language server (textDocument/formatting). Returns the edits and the diff; with apply: true writes them as one transaction with a checkpoint.',
  format_range:
    'Formats part of a file with its language server (textDocument/rangeFormatting). Returns the edits and the diff; with apply: true writes them as one transaction with a checkpoint.',
  list_checkpoints:
    'The checkpoints writes left in this workspace, newest first: id, tool call, tool, time, files. They persist on disk across agent-lsp restarts (pruned by count and age).',
  checkpoint_diff:
    'The unified diff of what one checkpointed call changed (before → after).',
  rollback_to:
    'Restores every file the checkpoint (position "before") or the checkpoints after it (position "after") touched, as it was then. Itself a checkpointed call, so it can be undone. Refuses, changing nothing, when a file changed outside agent-lsp since, unless force.',
  undo_last:
    'Rolls back the newest checkpoint (a rollback included: two undo_last in a row restore what the first undid). Refuses, changing nothing, when a file changed outside agent-lsp since, unless force.',
  create_simulation_session:
    'Starts a speculative session: an isolated, in-memory view of the workspace where simulate_edit changes files without touching disk, evaluate_session shows which diagnostics the edits introduce or resolve, and commit_session (a patch, or apply: true to write) or discard_session ends it. Sessions never see each other\'s edits, also across agents sharing one server.',
  simulate_edit:
    'Applies an edit to a session\'s in-memory view (never to disk), given as a 1-based range or as old_text, plus new_text. The first edit of a file records its baseline (its diagnostics on disk). Does not evaluate: call evaluate_session.',
  evaluate_session:
    'Which errors a session\'s edits introduce and resolve, against the baselines: ranges of existing diagnostics are mapped through the edits, so an error that only moved is neither. net_delta counts errors; warnings and hints are listed apart. Only files examined count: a file whose diagnostics the server did not confirm for exactly its text, with the edits or in its baseline (settled_by quiet or timeout), counts for nothing in errors_introduced, errors_resolved and net_delta; `files[]` marks it `examined: false` with `not_examined_because`, and it is in `not_examined`. scope "file" (default) checks the edited files; when an edit changes a declaration\'s head (its name, parameters, declared or return type: from its start to where the brackets after its name close) and other files of the language name it, the answer says which declarations (`changed_declarations`) and how many files it did not check (`dependents`, examined 0): pass scope "workspace" to check them. scope "workspace" also checks the files that depend on what changed (the references of the changed symbols, and files naming the edited module): finding them and settling their baselines may take 4 × timeout_ms; dependents not reached by then are counted in `dependents.not_examined` (the first few named), as are dependents that did not settle; dependents that could not be searched (a server error, no references support) are in `dependents.problems`. A dependent written on disk while the evaluation ran is not examined either (`not_examined_because` says so): what was evaluated is no longer its text. confidence is `high` only when every file concerned was examined and nothing was left unchecked; otherwise it is `partial` (`notes` say why), and the text never calls the edits a fix or harmless on the strength of the files examined. A file the session touched that was written on disk since also makes it `partial` (the evaluation is of the session\'s copy of the old text; commit with apply would refuse). With no edits that change text, it answers at once that there is nothing to evaluate. The server\'s buffers are restored before it answers.',
  simulate_chain:
    'Applies edits in order to a session, evaluating after each step against the baseline. safe_to_apply_through_step is the last step k such that steps 1..k all have net_delta ≤ 0 and confidence high (0 when step 1 already breaks something or leaves files not examined). Every edit is checked first; an invalid one applies nothing.',
  preview_edit:
    'One edit\'s effect on the diagnostics, without writing anything: standalone (a temporary session, destroyed afterwards; its baseline and its evaluation share one exclusive section on the server) or, with session_id, added to that session and evaluated. Same result as evaluate_session: at the default file scope, an edit that changes a name or signature other files use says how many of them it did not check (confidence partial); scope "workspace" checks them.',
  commit_session:
    'Ends a session with its edits as a WorkspaceEdit (minimal edits per file) and a unified diff, writing nothing (default). apply: true writes them as one transaction with a checkpoint, and the servers then see the new disk; it refuses, writing nothing, if a touched file changed on disk since the session\'s baseline.',
  discard_session:
    'Drops a session\'s edits. Nothing was written to disk, and the server already holds the disk\'s text again. The id stays valid for destroy_session.',
  destroy_session:
    'Releases a session in any phase (also a dirty one); its id is invalid afterwards. Nothing is written.',
  ...SYMBOL_TOOL_DETAILS,
  ...SYMNAV_DETAILS,
  ...FIXES_DETAILS,
  ...SKILL_PHASES_DETAILS,
  ...BUILD_TOOL_DETAILS,
  ...PREFETCH_DETAILS,
  ...CACHE_DETAILS,
};
