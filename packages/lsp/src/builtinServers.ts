import { readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { findExecutable } from './executables.js';
import { detectPythonInterpreter } from './pythonInterpreter.js';
import type { ResolvedServer, ServerDefinition } from './serverProfile.js';

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
  installHint: 'pyright comes with agent-lsp: reinstall the agent-lsp package, or run `pnpm install` in an agent-lsp checkout.',
  resolve(rootDir): ResolvedServer | undefined {
    const dir = packageDir('pyright');
    if (!dir) return undefined;
    const interpreter = detectPythonInterpreter(rootDir);
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
      profileFingerprint: `pyright|${interpreter?.path ?? 'no-python'}`,
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
      const path = findExecutable(binary);
      if (!path) return undefined;
      return { command: [path, ...args], source: 'PATH', ...options, profileFingerprint: `${id}|${path}`, details: {} };
    },
  };
}

/**
 * Only get_semantic_tokens and get_inlay_hints see these: gopls offers neither without them. Its
 * capabilities are fixed at initialize, so they go in initializationOptions as well.
 */
const GOPLS_SETTINGS = {
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
  installHint: 'Install gopls: `apt-get install gopls` (Debian/Ubuntu) or `go install golang.org/x/tools/gopls@latest`, and make sure it is on PATH.',
}, { settings: { gopls: GOPLS_SETTINGS }, initializationOptions: GOPLS_SETTINGS });

// --use-dirty-headers: other files are built against the header text the server holds (edited,
// or speculative), not the one on disk.
const clangd = fromPath('clangd', 'clangd', 'clangd', ['--background-index', '--use-dirty-headers'], {
  languageIds: ['c', 'cpp'],
  extensions: { '.c': 'c', '.h': 'c', '.cc': 'cpp', '.cpp': 'cpp', '.cxx': 'cpp', '.hpp': 'cpp', '.hh': 'cpp', '.hxx': 'cpp' },
  rootMarkers: ['compile_commands.json', 'compile_flags.txt', 'CMakeLists.txt', 'Makefile'],
  readiness: 'clangd',
  installHint: 'Install clangd: `apt-get install clangd` (Debian/Ubuntu) or from your LLVM distribution, and make sure it is on PATH.',
});

const rustAnalyzer = fromPath('rust-analyzer', 'rust-analyzer', 'rust-analyzer', [], {
  languageIds: ['rust'],
  extensions: { '.rs': 'rust' },
  rootMarkers: ['Cargo.toml'],
  readiness: 'progress',
  installHint: 'Install rust-analyzer: `rustup component add rust-analyzer`, and make sure it is on PATH.',
});

export const BUILTIN_SERVERS: readonly ServerDefinition[] = [pyright, typescript, gopls, clangd, rustAnalyzer];
