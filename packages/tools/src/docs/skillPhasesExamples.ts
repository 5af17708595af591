import type { ToolExample } from '../examples.js';

/** Worked examples of the skill phase tools, for docs/tools.md (spread into TOOL_EXAMPLES). */
export const SKILL_PHASES_EXAMPLES: Record<string, ToolExample> = {
  activate_skill: {
    args: { skill_name: 'lsp-safe-edit', mode: 'block' },
    result: 'EXAMPLE',
  },
  get_skill_phase: {
    args: {},
    result: 'EXAMPLE',
  },
  deactivate_skill: {
    args: {},
    result: 'EXAMPLE',
  },
};
