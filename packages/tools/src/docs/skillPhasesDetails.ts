/** The longer explanation of the skill phase tools, for docs/tools.md (spread into TOOL_DETAILS). */
export const SKILL_PHASES_DETAILS: Readonly<Record<string, string>> = {
  activate_skill:
    'Activates a skill with phases (lsp-rename, lsp-refactor, lsp-safe-edit, lsp-verify; `safe-edit` finds `lsp-safe-edit`) for this MCP session. From then on every tool call is checked against the current phase: in mode `block` an out-of-order call is refused, writing nothing, with a message naming the phase, what is allowed now and which call advances; in mode `warn` (default) it runs and its result carries the warning (text and `phase_warning`). A successful call to one of the phase\'s `advance_on` tools makes the next phase current. Tools that only read and the lifecycle tools are never out of order (they can still advance a phase). Activating again starts over. Two MCP clients never share this state. docs/skills.md lists every skill and its phases.',
  deactivate_skill: 'Ends phase enforcement; says where the skill stood, how many calls went through and how many were let through with a warning.',
  get_skill_phase: 'The active skill and mode, its current phase (1-based index of how many), the tools allowed now, the calls that advance to the next phase, and how many calls and warnings so far.',
};
