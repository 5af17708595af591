import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, GetPromptRequestSchema, ListPromptsRequestSchema, McpError, type Prompt } from '@modelcontextprotocol/sdk/types.js';
import { findSkill, renderPrompt, SkillArgumentError, type Skill } from '@agent-lsp/skills';

/**
 * Serves the skills as MCP prompts: prompts/list names every skill with its arguments, prompts/get
 * renders one with the arguments filled in. Bad names and missing arguments are InvalidParams
 * errors whose message says what to send. `loadSkills` runs at the first prompts request, not at
 * start: most sessions never ask, and reading and parsing two dozen files was a share of every
 * fresh front's start (and their text a share of its heap).
 */
export function servePrompts(mcp: McpServer, loadSkills: () => readonly Skill[]): void {
  mcp.server.registerCapabilities({ prompts: {} });
  let skills: readonly Skill[] | undefined;
  let prompts: Prompt[] | undefined;
  const loaded = () => (skills ??= loadSkills());
  const listed = () =>
    (prompts ??= loaded().map((s) => ({
      name: s.name,
      title: s.title,
      description: s.description,
      arguments: s.arguments.map((a) => ({ name: a.name, description: a.description, required: a.required })),
    })));
  mcp.server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: listed() }));
  mcp.server.setRequestHandler(GetPromptRequestSchema, (request) => {
    const skill = findSkill(loaded(), request.params.name);
    if (!skill) throw new McpError(ErrorCode.InvalidParams, `No prompt named ${request.params.name}. Prompts: ${loaded().map((s) => s.name).join(', ')}.`);
    try {
      const text = renderPrompt(skill, request.params.arguments ?? {});
      return { description: skill.description, messages: [{ role: 'user' as const, content: { type: 'text' as const, text } }] };
    } catch (err) {
      if (err instanceof SkillArgumentError) throw new McpError(ErrorCode.InvalidParams, err.message);
      throw err;
    }
  });
}
