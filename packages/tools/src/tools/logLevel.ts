import { z } from 'zod';
import { UserError } from '@agent-lsp/protocol';
import { defineTool, LOG_LEVEL_NAMES, STATEFUL } from '../catalog/toolDefinition.js';

export const setLogLevel = defineTool({
  name: 'set_log_level',
  title: 'Set log level',
  description: "Sends agent-lsp's log from this level up to the client as MCP log notifications (as logging/setLevel).",
  group: 'workspace',
  input: () => ({ level: z.enum(LOG_LEVEL_NAMES) }),
  output: () => ({ level: z.string() }),
  annotations: STATEFUL,
  handler(args, ctx) {
    if (!ctx.setLogLevel) throw new UserError('not_supported', 'No MCP client listens to this agent-lsp, so there is no log level to set.');
    ctx.setLogLevel(args.level);
    return Promise.resolve({ level: args.level });
  },
  text: (r) => `Log notifications at ${r.level} and above are sent from now on (stderr logging is unchanged).`,
});
