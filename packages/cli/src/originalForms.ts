import { BUILTIN_SERVERS, findExecutable, KNOWN_SERVERS, knownServerDefinition, knownServerFor, type KnownServer, type ServerDefinition } from '@agent-lsp/lsp';

/**
 * The original agent-lsp's positional forms: `agent-lsp go:gopls typescript:typescript-language-server,--stdio`
 * (language:command, arguments after commas) and the single-server `agent-lsp go gopls [args…]`.
 * Each names a server for a language; it goes before the built-in profiles, so `python:pylsp`
 * makes .py files go to pylsp. A command the table knows keeps the table's extensions and
 * arguments (unless the form gives some); a built-in one (gopls, typescript-language-server,
 * pyright-langserver, clangd, rust-analyzer) is the built-in profile.
 */
export interface OriginalForms {
  servers: ServerDefinition[];
  /** What the original did that we do not: said once, on stderr. */
  notes: string[];
}

const PAIR = /^([A-Za-z][\w+#.-]*):(.+)$/;

export function isOriginalForm(args: readonly string[]): boolean {
  const [first] = args;
  if (first === undefined) return false;
  if (args.every((a) => PAIR.test(a))) return true;
  // `agent-lsp go gopls`: a language, then an executable we can find.
  return args.length >= 2 && /^[A-Za-z][\w+#.-]*$/.test(first) && findExecutable(args[1] as string) !== undefined;
}

export function parseOriginalForms(args: readonly string[]): OriginalForms {
  const notes: string[] = [];
  const specs: { language: string; argv: string[] }[] = args.every((a) => PAIR.test(a))
    ? args.map((a) => {
        const [, language, rest] = PAIR.exec(a) as RegExpExecArray;
        return { language: language as string, argv: (rest as string).split(',').filter(Boolean) };
      })
    : [{ language: args[0] as string, argv: args.slice(1) }];
  const servers = specs.map(({ language, argv }) => definitionFor(language.toLowerCase(), argv, notes));
  return { servers, notes };
}

function definitionFor(language: string, argv: string[], notes: string[]): ServerDefinition {
  const [command = '', ...args] = argv;
  const known = knownServerFor(command);
  const builtin = known?.builtin ? BUILTIN_SERVERS.find((b) => b.id === known.builtin) : undefined;
  if (builtin) {
    if (args.length > 0 || command.includes('/')) notes.push(`${language}:${argv.join(',')}: the built-in ${builtin.displayName} profile is used with its own command and arguments.`);
    return builtin;
  }
  if (known && !command.includes('/')) {
    const entry: KnownServer = args.length > 0 ? { ...known, args } : known;
    return restrictTo(knownServerDefinition(entry), language);
  }
  return adHoc(language, command, args, known);
}

/** Keeps the extensions of one language when the form names one the server speaks (`c:ccls` leaves .cpp to clangd). */
function restrictTo(def: ServerDefinition, language: string): ServerDefinition {
  if (!def.languageIds.includes(language)) return def;
  const extensions = Object.fromEntries(Object.entries(def.extensions).filter(([, id]) => id === language || sameFamily(id, language)));
  return { ...def, extensions, languageIds: [...new Set(Object.values(extensions))] };
}

/** typescript takes typescriptreact and the JavaScript ids with it, as the original's typescript entry did. */
function sameFamily(id: string, language: string): boolean {
  const families = [['typescript', 'typescriptreact', 'javascript', 'javascriptreact'], ['c', 'cpp']];
  return families.some((f) => f[0] === language && f.includes(id));
}

/** A command the table does not know: the language's extensions from the table, or `.<language>`. */
function adHoc(language: string, command: string, args: string[], known: KnownServer | undefined): ServerDefinition {
  const fromTable = known ?? KNOWN_SERVERS.find((k) => k.languageIds.includes(language));
  const extensions = fromTable ? Object.fromEntries(Object.entries(fromTable.extensions).filter(([, id]) => id === language)) : {};
  const exts = Object.keys(extensions).length > 0 ? extensions : { [`.${language}`]: language };
  return {
    id: `${language}:${command}`,
    displayName: command,
    languageIds: [language],
    extensions: exts,
    rootMarkers: fromTable?.rootMarkers ?? [],
    readiness: 'canary',
    installHint: `Install ${command} and make sure it is on PATH (named on the command line as ${language}:${command}).`,
    resolve() {
      const path = findExecutable(command);
      if (!path) return undefined;
      return { command: [path, ...args], source: 'config', settings: {}, profileFingerprint: `${language}|${path}|${args.join(' ')}`, details: { from: 'command line' } };
    },
  };
}
