import type { ToolExample } from '../toolExample.js';

const SAFE_EDIT_ALLOWED =
  'Allowed now: go_to_*, find_references, find_callers, find_symbol, inspect_symbol, list_symbols, get_symbol_source, get_editing_context, get_diagnostics, get_signature_help, open_document, list_workspace_folders, run_build, run_tests, get_tests_for_file, preview_edit, create_simulation_session';

/** Worked examples of the skill phase tools, for docs/tools.md (spread into TOOL_EXAMPLES). */
export const SKILL_PHASES_EXAMPLES: Record<string, ToolExample> = {
  activate_skill: {
    args: { skill_name: 'lsp-safe-edit', mode: 'block' },
    result: [
      'Activated. Skill lsp-safe-edit (block): phase "understand" (1 of 4); phases: understand → simulate → apply → verify',
      SAFE_EDIT_ALLOWED,
      'To advance to "simulate": call preview_edit or create_simulation_session.',
      '',
      '(then apply_edit, out of order:)',
      'Refused by skill lsp-safe-edit (mode block, phase_violation): apply_edit is forbidden now: the skill is in phase "understand" (1 of 4) and apply_edit belongs to the later phase "simulate". ' +
        `${SAFE_EDIT_ALLOWED}, and tools that only read. To advance to "simulate", call preview_edit or create_simulation_session.`,
    ].join('\n'),
  },
  get_skill_phase: {
    args: {},
    result: [
      'Skill lsp-safe-edit (block): phase "simulate" (2 of 4)',
      'Allowed now: preview_edit, create_simulation_session, simulate_edit, simulate_chain, evaluate_session, commit_session, discard_session, destroy_session, apply_edit with dry_run, apply_fix with dry_run, go_to_*, find_references, find_symbol, inspect_symbol, list_symbols, get_symbol_source, get_diagnostics, suggest_fixes, apply_edit without dry_run, commit_session with apply, safe_apply_edit, replace_symbol_body, insert_before_symbol, insert_after_symbol, apply_fix without dry_run',
      'To advance to "apply": call apply_edit without dry_run or commit_session with apply or safe_apply_edit or replace_symbol_body or insert_before_symbol or insert_after_symbol or apply_fix without dry_run.',
    ].join('\n'),
  },
  deactivate_skill: {
    args: {},
    result: 'Deactivated lsp-safe-edit in phase "verify" after 5 call(s), 0 warning(s).',
  },
};
