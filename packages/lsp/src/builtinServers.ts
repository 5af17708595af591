import { readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { findExecutable } from './executables.js';
import { findServerExecutable } from './installedServers.js';
import { detectPythonInterpreter, pythonEnvironmentDirs, pythonEnvironmentOf } from './pythonInterpreter.js';
import { PYRIGHT_UNCANCELLABLE } from './knownServers.js';
import { TSGO_SERVER_ID } from './typescriptServerChoice.js';
import type { ResolvedServer, ServerDefinition } from './serverProfile.js';
import { vueServer } from './vueServer.js';

const require = createRequire(import.meta.url);

/** The package's real directory: part of the broker key, so it must not depend on which symlink resolved it. */
function packageDir(name: string): string | undefined {
  try {
    return realpathSync(dirname(require.resolve(`${name}/package.json`)));
  } catch {
    return undefined;
  }
}

function packageVersion(dir: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version?: string }).version;
  } catch {
    return undefined;
  }
}

const pyright: ServerDefinition = {
  id: 'pyright',
  displayName: 'pyright',
  languageIds: ['python'],
  extensions: { '.py': 'python', '.pyi': 'python' },
  rootMarkers: ['pyproject.toml', 'pyrightconfig.json', 'setup.py', 'setup.cfg', 'requirements.txt'],
  readiness: 'pyright',
  uncancellable: PYRIGHT_UNCANCELLABLE,
  environmentDirs: pythonEnvironmentDirs,
  environmentOf: pythonEnvironmentOf,
  installHint: 'pyright comes with agent-lsp: reinstall the agent-lsp package, or run `pnpm install` in an agent-lsp checkout.',
  resolve(rootDir): ResolvedServer | undefined {
    const dir = packageDir('pyright');
    if (!dir) return undefined;
    const interpreter = detectPythonInterpreter(rootDir);
    const environment = pythonEnvironmentOf(rootDir, interpreter);
    const settings = {
      python: {
        ...(interpreter ? { pythonPath: interpreter.path } : {}),
        analysis: {
          // "Found N source files" is logged at information level and is our readiness signal.
          logLevel: 'Information',
          autoSearchPaths: true,
          useLibraryCodeForTypes: true,
          diagnosticMode: 'openFilesOnly',
        },
      },
    };
    return {
      command: [process.execPath, join(dir, 'langserver.index.js'), '--stdio'],
      source: 'bundled',
      version: `pyright ${packageVersion(dir) ?? '?'}`,
      settings,
      profileFingerprint: `pyright|${environment}`,
      environment,
      details: { interpreter: interpreter ? `${interpreter.path} (${interpreter.source})` : 'none found' },
    };
  },
};

const typescript: ServerDefinition = {
  id: 'typescript',
  displayName: 'typescript-language-server',
  languageIds: ['typescript', 'typescriptreact', 'javascript', 'javascriptreact'],
  extensions: {
    '.ts': 'typescript',
    '.mts': 'typescript',
    '.cts': 'typescript',
    '.tsx': 'typescriptreact',
    '.js': 'javascript',
    '.mjs': 'javascript',
    '.cjs': 'javascript',
    '.jsx': 'javascriptreact',
  },
  rootMarkers: ['tsconfig.json', 'jsconfig.json', 'package.json'],
  readiness: 'tsserver',
  exactDiagnostics: 'tsserver',
  refreshAfterChange: 'reloadProjects',
  // tsserver watches node_modules itself, late: the lockfile npm keeps there tells of an install at once.
  environmentDirs: (rootDir) => [join(rootDir, 'node_modules')],
  installHint: 'typescript-language-server and typescript come with agent-lsp: reinstall the agent-lsp package, or run `pnpm install` in an agent-lsp checkout.',
  resolve(): ResolvedServer | undefined {
    const tsls = packageDir('typescript-language-server');
    const ts = packageDir('typescript');
    if (!tsls || !ts) return undefined;
    const tsserverPath = join(ts, 'lib', 'tsserver.js');
    return {
      command: [process.execPath, join(tsls, 'lib', 'cli.mjs'), '--stdio'],
      source: 'bundled',
      version: `typescript-language-server ${packageVersion(tsls) ?? '?'}, typescript ${packageVersion(ts) ?? '?'}`,
      settings: {},
      initializationOptions: {
        // Without this the syntax server answers from one file until the project has loaded,
        // which looks like a complete answer and is not.
        tsserver: { path: tsserverPath, useSyntaxServer: 'never' },
        // The inlay hint preferences only shape get_inlay_hints' answer (tsserver shows none without them).
        preferences: {
          includeCompletionsForModuleExports: true,
          includeInlayParameterNameHints: 'all',
          includeInlayParameterNameHintsWhenArgumentMatchesName: false,
          includeInlayFunctionParameterTypeHints: true,
          includeInlayVariableTypeHints: true,
          includeInlayVariableTypeHintsWhenTypeMatchesName: false,
          includeInlayPropertyDeclarationTypeHints: true,
          includeInlayFunctionLikeReturnTypeHints: true,
          includeInlayEnumMemberValueHints: true,
        },
      },
      profileFingerprint: `typescript|${tsserverPath}`,
      details: { tsserver: tsserverPath },
    };
  },
};

/**
 * The typescript-go executable: @typescript/native-preview carries only a launcher; the binary is
 * in its platform package (an optional dependency of it, e.g. @typescript/native-preview-linux-x64).
 */
function tsgoExecutable(previewDir: string): string | undefined {
  try {
    const fromPreview = createRequire(join(previewDir, 'package.json'));
    const platformDir = realpathSync(dirname(fromPreview.resolve(`@typescript/native-preview-${process.platform}-${process.arch}/package.json`)));
    return findExecutable(join(platformDir, 'lib', process.platform === 'win32' ? 'tsgo.exe' : 'tsgo'));
  } catch {
    return undefined;
  }
}

/** The inlay hints get_inlay_hints shows (typescript-go shows none without them), as VS Code's settings name them. */
const TSGO_PREFERENCES = {
  preferences: { includeCompletionsForModuleExports: true },
  inlayHints: {
    parameterNames: { enabled: 'all', suppressWhenArgumentMatchesName: true },
    parameterTypes: { enabled: true },
    variableTypes: { enabled: true, suppressWhenTypeMatchesName: true },
    propertyDeclarationTypes: { enabled: true },
    functionLikeReturnTypes: { enabled: true },
    enumMemberValues: { enabled: true },
  },
};

/**
 * TypeScript 7's native language server (`tsgo --lsp --stdio`), picked with `--ts-server tsgo`
 * (typescriptServerChoice.ts). It serves the same languages as typescript-language-server; its
 * own id keeps its brokers apart from tsls's.
 */
const typescriptGo: ServerDefinition = {
  id: TSGO_SERVER_ID,
  displayName: 'typescript-go',
  languageIds: typescript.languageIds,
  extensions: typescript.extensions,
  rootMarkers: typescript.rootMarkers,
  // Requests wait for their project to load; loads it reports as "Loading" $/progress. It answers
  // textDocument/diagnostic (pull), so no exact-diagnostics workaround.
  readiness: 'tsgo',
  installHint: 'typescript-go (@typescript/native-preview and its platform package) comes with agent-lsp: reinstall the agent-lsp package, or run `pnpm install` in an agent-lsp checkout; on a platform it has no binary for, use --ts-server tsls.',
  lacks: {
    refactor:
      'typescript-go offers no refactorings (extract, inline, move, rewrite: its code actions are quick fixes and source.organizeImports/removeUnusedImports/sortImports/fixAll); run agent-lsp with --ts-server tsls for them',
    'workspace/executeCommand':
      "typescript-go implements no workspace/executeCommand, so typescript-language-server's commands (_typescript.*, typescript.tsserverRequest) do not exist there; use apply_fix (e.g. kind source.organizeImports) or run agent-lsp with --ts-server tsls",
  },
  resolve(): ResolvedServer | undefined {
    const preview = packageDir('@typescript/native-preview');
    const exe = preview ? tsgoExecutable(preview) : undefined;
    if (!preview || !exe) return undefined;
    return {
      command: [exe, '--lsp', '--stdio'],
      source: 'bundled',
      version: `typescript-go ${packageVersion(preview) ?? '?'}`,
      // It reads preferences from workspace/configuration (VS Code's settings), not initializationOptions.
      settings: { typescript: TSGO_PREFERENCES, javascript: TSGO_PREFERENCES },
      profileFingerprint: `typescript-go|${exe}`,
      details: { tsgo: exe },
    };
  },
};

function fromPath(
  id: string,
  displayName: string,
  binary: string,
  args: string[],
  rest: Omit<ServerDefinition, 'id' | 'displayName' | 'resolve'>,
  options: Pick<ResolvedServer, 'settings' | 'initializationOptions'> = { settings: {} },
): ServerDefinition {
  return {
    id,
    displayName,
    ...rest,
    resolve(): ResolvedServer | undefined {
      const found = findServerExecutable(binary);
      if (!found) return undefined;
      return { command: [found.path, ...args], source: found.where, ...options, profileFingerprint: `${id}|${found.path}`, details: found.details };
    },
  };
}

/**
 * semanticTokens and hints: only get_semantic_tokens and get_inlay_hints see these; gopls offers
 * neither without them. pullDiagnostics: gopls answers textDocument/diagnostic for the workspace as
 * it is when the pull arrives, where its pushes come seconds after an outside change, and never
 * again for a file whose diagnostics did not change (a versioned push of an unchanged file cannot
 * say whether gopls has looked at it since). Its capabilities are fixed at initialize, so these go
 * in initializationOptions as well.
 */
const GOPLS_SETTINGS = {
  pullDiagnostics: true,
  semanticTokens: true,
  hints: { parameterNames: true, assignVariableTypes: true, compositeLiteralFields: true, constantValues: true, functionTypeParameters: true, rangeVariableTypes: true },
};

const gopls = fromPath('gopls', 'gopls', 'gopls', [], {
  languageIds: ['go'],
  extensions: { '.go': 'go' },
  rootMarkers: ['go.mod', 'go.work'],
  readiness: 'progress',
  // Debian's gopls refuses `--version` ("flag provided but not defined"); every gopls answers `version`.
  versionArgs: ['version'],
  installHint: 'Install gopls: `agent-lsp servers install go`, or `go install golang.org/x/tools/gopls@latest` and make sure it is on PATH (Debian\'s gopls package is years old).',
}, { settings: { gopls: GOPLS_SETTINGS }, initializationOptions: GOPLS_SETTINGS });

// --use-dirty-headers: other files are built against the header text the server holds (edited,
// or speculative), not the one on disk.
const clangd = fromPath('clangd', 'clangd', 'clangd', ['--background-index', '--use-dirty-headers'], {
  languageIds: ['c', 'cpp'],
  extensions: { '.c': 'c', '.h': 'c', '.cc': 'cpp', '.cpp': 'cpp', '.cxx': 'cpp', '.hpp': 'cpp', '.hh': 'cpp', '.hxx': 'cpp' },
  rootMarkers: ['compile_commands.json', 'compile_flags.txt', 'CMakeLists.txt', 'Makefile'],
  readiness: 'clangd',
  refreshAfterChange: 'didSave',
  indexNamesSymbolOnce: true,
  installHint: 'Install clangd: `agent-lsp servers install c` (Debian/Ubuntu, as root), `apt-get install clangd`, or from your LLVM distribution, and make sure it is on PATH.',
});

const rustAnalyzer = fromPath('rust-analyzer', 'rust-analyzer', 'rust-analyzer', [], {
  languageIds: ['rust'],
  extensions: { '.rs': 'rust' },
  rootMarkers: ['Cargo.toml'],
  readiness: 'rust-analyzer',
  installHint: 'Install rust-analyzer: `agent-lsp servers install rust` (or `rustup component add rust-analyzer`), and make sure it is on PATH.',
});

export const BUILTIN_SERVERS: readonly ServerDefinition[] = [pyright, typescript, typescriptGo, gopls, clangd, rustAnalyzer, vueServer];
