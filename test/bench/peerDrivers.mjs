// How the "Peers" benchmark drives each MCP server on the same query (every reference to one
// symbol), with the same language server (our bundled pyright, by absolute path) as an MCP client
// would: its own launch command, its own tool and arguments, its own way of saying the answer.
// A peer with no tool for the query would say so in `query` (all of these have one).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ORIGINAL_VERSION, originalArgs, originalBinary, peerEnv as baseEnv, PYRIGHT_LANGSERVER } from './originalBinary.mjs';
import { cclspReferences, lsmcpReferences, originalReferences, oursReferences, serenaReferences, symbolAt } from './peerAnswers.mjs';
import { CCLSP_VERSION, LSMCP_VERSION, npmInstall, SERENA_VERSION, serenaInstall } from './peerInstall.mjs';
import { originalDaemonPids, ourBrokerPids, stopOriginalDaemons } from './processTree.mjs';
import { BIN, waitForSnapshot } from './programFront.mjs';

export { PYRIGHT_LANGSERVER };

/** The query on `corpus` a peer may need: the file, the symbol's name, its 1-based line and column. */
export function queryTarget(corpus, at) {
  return { abs: join(corpus.root, corpus.file), rel: corpus.file, symbol: symbolAt(corpus.pattern), line: at.line, column: at.column };
}

/** A SERENA_HOME with Serena's own config template, its dashboard off and our pyright as its python `ls_path`. */
function serenaHome(template, home) {
  const dir = join(home, 'serena-home');
  mkdirSync(dir, { recursive: true });
  const config = readFileSync(template, 'utf8')
    .replace(/^web_dashboard: True$/m, 'web_dashboard: False')
    .replace(/^ls_specific_settings: \{\}$/m, `ls_specific_settings: {python: {ls_path: ${JSON.stringify(PYRIGHT_LANGSERVER)}}}`);
  writeFileSync(join(dir, 'serena_config.yml'), config);
  return dir;
}

/**
 * The peers, ours first. Each: `name` (for the table), `install()` → handle or `{ notRun }`; `launch(handle, corpus, home)`
 * → the command; `setup(corpus)` → tool calls before the query; `query(target)` → the tool call;
 * `read(result, target)` → `{ references, ready }`; `includesDeclaration`; `daemons(home)` → pids of
 * daemons it leaves (counted in its memory, ended by `stop`); `beforeNewSession(home)`.
 */
export const PEERS = [
  {
    key: 'ours',
    name: 'agent-lsp (ours)',
    install: () => ({ label: 'agent-lsp (ours)' }),
    launch: (_, corpus, home) => ({ command: BIN, args: ['serve', '--daemon', 'always'], env: { ...baseEnv(home), AGENT_LSP_HOME: join(home, 'state'), AGENT_LSP_SNAPSHOT_DIR: join(home, 'snapshot') } }),
    setup: (corpus) => [{ name: 'start_lsp', arguments: { root_dir: corpus.root, language_id: corpus.language } }],
    query: (t) => ({ name: 'find_references', arguments: { file_path: t.rel, line: t.line, column: t.column, limit: 100_000 } }),
    read: oursReferences,
    includesDeclaration: true,
    daemons: (home) => ourBrokerPids(join(home, 'state')),
    // a user's next front starts from the snapshot the first one built
    beforeNewSession: (home) => waitForSnapshot(join(home, 'snapshot')),
  },
  {
    key: 'original',
    name: `the original agent-lsp ${ORIGINAL_VERSION}`,
    install: originalBinary,
    launch: (o, corpus, home) => ({ command: o.bin, args: originalArgs(corpus.language), env: baseEnv(home) }),
    setup: (corpus) => [{ name: 'start_lsp', arguments: { root_dir: corpus.root, language_id: corpus.language } }],
    query: (t) => ({ name: 'find_references', arguments: { file_path: t.abs, line: t.line, column: t.column, include_declaration: true } }),
    read: originalReferences,
    includesDeclaration: true,
    daemons: originalDaemonPids,
    stop: (o, home) => stopOriginalDaemons(o.bin, baseEnv(home), home),
  },
  {
    key: 'serena',
    name: `Serena ${SERENA_VERSION}`,
    install: serenaInstall,
    launch: (s, corpus, home) => ({
      command: s.serena,
      args: ['start-mcp-server', '--project', corpus.root, '--context', 'agent', '--agent-interface', 'tools', '--enable-web-dashboard', 'false', '--open-web-dashboard', 'false', '--tool-timeout', '900', '--log-level', 'WARNING'],
      env: { ...baseEnv(home), SERENA_HOME: serenaHome(s.template, home) },
    }),
    setup: () => [],
    query: (t) => ({ name: 'find_referencing_symbols', arguments: { name_path: t.symbol, relative_path: t.rel } }),
    read: serenaReferences,
    includesDeclaration: false,
  },
  {
    key: 'cclsp',
    name: `cclsp ${CCLSP_VERSION}`,
    install: () => npmInstall('cclsp', CCLSP_VERSION, 'dist/index.js'),
    launch: (c, corpus, home) => {
      const config = join(home, 'cclsp.json');
      writeFileSync(config, JSON.stringify({ servers: [{ extensions: ['py', 'pyi'], command: [PYRIGHT_LANGSERVER, '--stdio'], rootDir: corpus.root }] }));
      return { command: process.execPath, args: [c.entry], env: { ...baseEnv(home), CCLSP_CONFIG_PATH: config } };
    },
    setup: () => [],
    query: (t) => ({ name: 'find_references', arguments: { file_path: t.abs, symbol_name: t.symbol, include_declaration: true } }),
    read: (r, t) => cclspReferences(r, t.symbol),
    includesDeclaration: true,
  },
  {
    key: 'lsmcp',
    name: `lsmcp ${LSMCP_VERSION}`,
    install: () => npmInstall('@mizchi/lsmcp', LSMCP_VERSION, 'dist/lsmcp.js'),
    // its pyright preset runs `uv run pyright-langserver`: --bin gives it the same pyright as the others
    launch: (l, corpus, home) => ({ command: process.execPath, args: [l.entry, '--bin', `${PYRIGHT_LANGSERVER} --stdio`], env: baseEnv(home) }),
    setup: () => [],
    query: (t) => ({ name: 'find_references', arguments: { root: t.abs.slice(0, -t.rel.length - 1), filePath: t.rel, line: t.line, symbolName: t.symbol } }),
    read: lsmcpReferences,
    includesDeclaration: true,
  },
];
