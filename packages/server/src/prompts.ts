import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, GetPromptRequestSchema, ListPromptsRequestSchema, McpError, type Prompt } from '@modelcontextprotocol/sdk/types.js';
import { findSkill, renderPrompt, SkillArgumentError, type Skill } from '@agent-lsp/skills';

/**
 * Serves the skills as MCP prompts: prompts/list names every skill with its arguments, prompts/get
 * renders one with the arguments filled in. Bad names and missing arguments are InvalidParams
 * errors whose message says what to send.
 */
export function servePrompts(mcp: McpServer, skills: readonly Skill[]): void {
  mcp.server.registerCapabilities({ prompts: {} });
  const prompts: Prompt[] = skills.map((s) => ({
    name: s.name,
    title: s.title,
    description: s.description,
    arguments: s.arguments.map((a) => ({ name: a.name, description: a.description, required: a.required })),
  }));
  mcp.server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts }));
  mcp.server.setRequestHandler(GetPromptRequestSchema, (request) => {
    const skill = findSkill(skills, request.params.name);
    if (!skill) throw new McpError(ErrorCode.InvalidParams, `No prompt named ${request.params.name}. Prompts: ${skills.map((s) => s.name).join(', ')}.`);
    try {
      const text = renderPrompt(skill, request.params.arguments ?? {});
      return { description: skill.description, messages: [{ role: 'user' as const, content: { type: 'text' as const, text } }] };
    } catch (err) {
      if (err instanceof SkillArgumentError) throw new McpError(ErrorCode.InvalidParams, err.message);
      throw err;
    }
  });
}
