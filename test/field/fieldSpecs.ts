// What the general field cases ask on each corpus: the quick tier (part of `pnpm test`, one or two
// cases per tool) and the full sweep (`pnpm test:field --full`). Positions are named by a snippet
// of the file, so they follow the corpus's text, not line numbers.
import { cargoCheck, gccSyntax, goBuild, pyrightCli, tsc } from './fieldCheckers.js';
import type { FieldSpec } from './fieldSuite.js';
import type { OutsideEditKind } from './fieldOutsideEdits.js';
import { DJANGO_EDITS_FULL, GO_STD_EDITS_FULL, GO_STD_EDITS_QUICK, RXJS_EDITS_FULL, RXJS_EDITS_QUICK, SQLITE_EDITS_FULL } from './fieldEditSpecs.js';

const EVERY_OUTSIDE_EDIT: OutsideEditKind[] = ['sed', 'git checkout', 'delete and restore', 'rename over'];
/**
 * A spec that asks none of its corpus's quick questions: only the outside-edit cases run (the
 * questions of the spec it is made from would otherwise run again, on the same server, in its file).
 */
const ONLY_OUTSIDE_EDITS: Required<Omit<FieldSpec, 'corpus' | 'server' | 'binary' | 'languageId' | 'comment' | `outside${string}` | `ask${string}`>> = {
  references: [],
  definitions: [],
  typeDefinitions: [],
  implementations: [],
  declarations: [],
  highlights: [],
  signatures: [],
  completions: [],
  renames: [],
  inlayHints: [],
  semanticTokens: [],
  symbolPaths: [],
  explore: [],
  editingContext: [],
  formatting: [],
  deleteReferenced: [],
  deleteUnused: [],
  replaceBodies: [],
  fixes: [],
  inserts: [],
  hovers: [],
  outlines: [],
  symbols: [],
  diagnostics: [],
};

export const RXJS_QUICK: FieldSpec = {
  ...RXJS_EDITS_QUICK,
  corpus: 'rxjs',
  server: 'typescript',
  languageId: 'typescript',
  comment: '//',
  references: [{ file: 'src/internal/util/pipe.ts', needle: 'pipe(): typeof identity' }],
  definitions: [{ file: 'src/internal/operators/map.ts', needle: 'operate((source' }],
  typeDefinitions: [{ file: 'src/internal/operators/map.ts', needle: 'operate((source', at: 9 }],
  implementations: [{ file: 'src/internal/types.ts', needle: 'export interface SubscriptionLike', at: 17 }],
  highlights: [{ file: 'src/internal/Observable.ts', needle: 'isFunction(value.next)' }],
  signatures: [{ file: 'src/internal/operators/map.ts', needle: 'operate((source', at: 8 }],
  completions: [{ file: 'src/internal/operators/map.ts', needle: 'source.subscribe(', at: 7 }],
  renames: [{ file: 'src/internal/util/pipe.ts', needle: 'pipe(): typeof identity' }],
  formatting: [{ file: 'src/internal/util/pipe.ts', planted: 'export const   fieldPlanted={a:1,b:[ 2,3 ]};' }],
  inlayHints: ['src/internal/operators/map.ts'],
  semanticTokens: ['src/internal/operators/map.ts'],
  symbolPaths: [{ file: 'src/internal/Observable.ts', path: 'Observable.lift' }],
  explore: [{ file: 'src/internal/util/pipe.ts', needle: 'pipe(): typeof identity' }],
  editingContext: ['src/internal/operators/map.ts'],
  hovers: [{ file: 'src/internal/operators/map.ts', needle: 'operate((source' }],
  outlines: ['src/internal/Observable.ts'],
  symbols: ['isFunction'],
  askSymbolRightAfterStart: true,
  diagnostics: [{ file: 'src/internal/util/isFunction.ts', planted: "export const fieldPlanted: number = 'not a number';", checker: tsc }],
  outside: { file: 'src/internal/util/isFunction.ts', needle: 'isFunction(value' },
  outsideKinds: ['git checkout', 'delete and restore'],
};

export const DJANGO_QUICK: FieldSpec = {
  corpus: 'django',
  server: 'pyright',
  languageId: 'python',
  comment: '#',
  references: [{ file: 'django/utils/encoding.py', needle: 'def force_str(', at: 4 }],
  definitions: [{ file: 'django/contrib/gis/gdal/driver.py', needle: 'force_str(rcapi' }],
  highlights: [{ file: 'django/utils/encoding.py', needle: 'def force_str(', at: 4 }],
  signatures: [{ file: 'django/contrib/gis/gdal/driver.py', needle: 'force_str(rcapi', at: 10 }],
  renames: [{ file: 'django/utils/encoding.py', needle: 'def force_str(', at: 4 }],
  hovers: [{ file: 'django/contrib/gis/gdal/driver.py', needle: 'force_str(rcapi' }],
  outlines: ['django/utils/encoding.py'],
  // Workspace symbols make pyright (ours and the one asked directly) index all of Django: ~30 s,
  // so find_symbol on Django is in the full tier.
  symbols: [],
  diagnostics: [{ file: 'django/utils/encoding.py', planted: 'field_planted: int = "not an int"', checker: pyrightCli }],
  outside: { file: 'django/utils/encoding.py', needle: 'def force_str(', at: 4 },
  outsideKinds: ['sed', 'rename over'],
};

export const GO_STD_QUICK: FieldSpec = {
  ...GO_STD_EDITS_QUICK,
  corpus: 'go-std',
  server: 'gopls',
  binary: 'gopls',
  languageId: 'go',
  comment: '//',
  references: [{ file: 'go/ast/walk.go', needle: 'func Walk(', at: 5 }],
  definitions: [{ file: 'go/printer/nodes.go', needle: 'ast.Inspect(px.X', at: 4 }],
  typeDefinitions: [{ file: 'go/printer/nodes.go', needle: 'ast.Inspect(px.X', at: 12 }],
  // Every type of the workspace with Node's methods: go/ast's nodes and more.
  implementations: [{ file: 'go/ast/ast.go', needle: 'type Node interface', at: 5 }],
  highlights: [{ file: 'go/ast/walk.go', needle: 'func Walk(', at: 5 }],
  signatures: [{ file: 'go/printer/nodes.go', needle: 'ast.Inspect(px.X', at: 12 }],
  renames: [{ file: 'go/ast/walk.go', needle: 'func Walk(', at: 5 }],
  formatting: [{ file: 'go/ast/walk.go', planted: 'func   fieldPlanted( ) int {return  1}' }],
  inlayHints: ['go/ast/walk.go'],
  semanticTokens: ['go/ast/walk.go'],
  symbolPaths: [{ file: 'go/printer/printer.go', path: 'Config.Fprint' }],
  explore: [{ file: 'go/ast/walk.go', needle: 'func Inspect(', at: 5 }],
  editingContext: ['go/ast/walk.go'],
  hovers: [{ file: 'go/printer/nodes.go', needle: 'ast.Inspect(px.X', at: 4 }],
  outlines: ['go/ast/walk.go'],
  symbols: ['Inspect'],
  askSymbolRightAfterStart: true,
  diagnostics: [{ file: 'go/ast/walk.go', planted: 'var fieldPlanted int = "not an int"', checker: goBuild }],
  outside: { file: 'go/ast/walk.go', needle: 'func Inspect(', at: 5 },
  outsideKinds: ['sed', 'delete and restore'],
};

export const SQLITE_QUICK: FieldSpec = {
  corpus: 'sqlite',
  server: 'clangd',
  binary: 'clangd',
  languageId: 'c',
  comment: '//',
  references: [{ file: 'main.c', needle: 'sqlite3_open(":memory:"' }],
  definitions: [{ file: 'main.c', needle: 'sqlite3_libversion()' }],
  typeDefinitions: [{ file: 'main.c', needle: 'sqlite3_close(db)', at: 14 }],
  highlights: [{ file: 'main.c', needle: 'sqlite3_close(db)', at: 14 }],
  declarations: [{ file: 'main.c', needle: 'sqlite3_libversion()' }],
  signatures: [{ file: 'main.c', needle: 'sqlite3_open(":memory:"', at: 13 }],
  renames: [{ file: 'main.c', needle: 'int open_and_report(void)', at: 4 }],
  formatting: [{ file: 'main.c', planted: 'int   field_planted (void){return 0;}' }],
  semanticTokens: ['main.c'],
  symbolPaths: [{ file: 'main.c', path: 'open_and_report' }],
  explore: [{ file: 'main.c', needle: 'int open_and_report(void)', at: 4 }],
  editingContext: ['main.c'],
  hovers: [{ file: 'main.c', needle: 'sqlite3_close(db)' }],
  outlines: ['main.c'],
  symbols: ['sqlite3_open'],
  diagnostics: [{ file: 'main.c', planted: 'int field_planted = field_undeclared;', checker: gccSyntax }],
  // Outside edits of main.c, the includer, open; those of sqlite3.c and sqlite3.h (a build of
  // sqlite3.c each) are in the full tier.
  outside: { file: 'main.c', needle: 'sqlite3_open(":memory:"' },
  outsideFiles: ['main.c'],
  outsideKinds: ['sed', 'rename over'],
};

/**
 * rust-analyzer on the regex-syntax crate: is_meta_character (used by the parser and the HIR
 * printer) and the translator, asked right after start_lsp first (an answer before rust-analyzer
 * has loaded the crate is wrong), then as everywhere else; a sed on the parser (a file other than
 * the one asked about) between two calls. Not ast::Span: its references inside the tests' macro
 * calls differ from one rust-analyzer to the next (139 or 171 by the server alone, same crate).
 */
export const REGEX_SYNTAX_QUICK: FieldSpec = {
  corpus: 'regex-syntax',
  server: 'rust-analyzer',
  binary: 'rust-analyzer',
  languageId: 'rust',
  comment: '//',
  askFirstRightAfterStart: true,
  references: [
    { file: 'src/lib.rs', needle: 'pub fn is_meta_character(', at: 7 },
    { file: 'src/hir/translate.rs', needle: 'pub struct Translator {', at: 11 },
  ],
  definitions: [
    { file: 'src/error.rs', needle: "span: &'e ast::Span", at: 15 },
    { file: 'src/hir/print.rs', needle: 'if is_meta_character(c)', at: 3 },
  ],
  hovers: [
    { file: 'src/error.rs', needle: "span: &'e ast::Span", at: 15 },
    { file: 'src/hir/print.rs', needle: 'if is_meta_character(c)', at: 3 },
  ],
  outlines: ['src/ast/visitor.rs'],
  semanticTokens: ['src/utf8.rs'],
  symbols: ['Translator'],
  diagnostics: [{ file: 'src/utf8.rs', planted: 'pub fn field_planted() -> u32 { "not a number" }', checker: cargoCheck }],
  outside: { file: 'src/lib.rs', needle: 'pub fn is_meta_character(', at: 7 },
  outsideKinds: ['sed'],
};

/** The full sweep: the quick cases and more of each, and every outside edit on every language. */
export const RXJS_FULL: FieldSpec = {
  ...RXJS_QUICK,
  ...RXJS_EDITS_FULL,
  references: [
    ...RXJS_QUICK.references,
    { file: 'src/internal/Observable.ts', needle: 'export class Observable<T>', at: 13 },
    { file: 'src/internal/util/isFunction.ts', needle: 'isFunction(value' },
    { file: 'src/internal/operators/map.ts', needle: 'map<T, R>(project: (value: T, index: number) => R, thisArg?', at: 0 },
    { file: 'src/internal/types.ts', needle: 'OperatorFunction<T, R> extends', at: 0 },
  ],
  definitions: [...RXJS_QUICK.definitions, { file: 'src/internal/Observable.ts', needle: 'isFunction(value.next)' }, { file: 'src/internal/types.ts', needle: 'UnaryFunction<Observable<T>' }],
  hovers: [...RXJS_QUICK.hovers, { file: 'src/internal/Observable.ts', needle: 'isFunction(value.next)' }, { file: 'src/internal/operators/filter.ts', needle: 'filter<T>(predicate: (value: T, index: number) => boolean, thisArg' }],
  outlines: [...RXJS_QUICK.outlines, 'src/internal/Subscriber.ts', 'src/internal/operators/map.ts', 'src/internal/types.ts'],
  semanticTokens: [...RXJS_QUICK.semanticTokens!, 'src/internal/Observable.ts'],
  symbolPaths: [...RXJS_QUICK.symbolPaths!, { file: 'src/internal/Subscriber.ts', path: 'Subscriber.next' }, { file: 'src/internal/util/isFunction.ts', path: 'isFunction' }],
  explore: [...RXJS_QUICK.explore!, { file: 'src/internal/util/isFunction.ts', needle: 'isFunction(value' }, { file: 'src/internal/types.ts', needle: 'export interface SubscriptionLike', at: 17 }],
  editingContext: [...RXJS_QUICK.editingContext!, 'src/internal/Subscriber.ts'],
  symbols: [...RXJS_QUICK.symbols, 'Observable', 'pipe', 'map'],
  diagnostics: [...RXJS_QUICK.diagnostics, { file: 'src/internal/operators/map.ts', planted: 'export const fieldPlanted: string = map;', checker: tsc }],
  outsideKinds: EVERY_OUTSIDE_EDIT,
};

export const DJANGO_FULL: FieldSpec = {
  ...DJANGO_QUICK,
  ...DJANGO_EDITS_FULL,
  references: [
    ...DJANGO_QUICK.references,
    { file: 'django/utils/functional.py', needle: 'class cached_property', at: 6 },
    { file: 'django/utils/text.py', needle: 'def slugify(', at: 4 },
    { file: 'django/utils/html.py', needle: 'def escape(', at: 4 },
  ],
  definitions: [...DJANGO_QUICK.definitions, { file: 'django/db/models/fields/related.py', needle: '@cached_property', at: 1 }, { file: 'django/utils/html.py', needle: 'html.escape(str(text))', at: 5 }],
  hovers: [...DJANGO_QUICK.hovers, { file: 'django/db/models/fields/related.py', needle: '@cached_property', at: 1 }, { file: 'django/utils/html.py', needle: 'def escape(', at: 4 }],
  outlines: [...DJANGO_QUICK.outlines, 'django/utils/functional.py', 'django/db/models/fields/__init__.py', 'django/utils/html.py'],
  // Decorated: @property, and slugify's @keep_lazy_text.
  explore: [{ file: 'django/utils/encoding.py', needle: 'def force_str(', at: 4 }],
  editingContext: ['django/utils/text.py'],
  // go_to_symbol asks for workspace symbols: all of Django indexed (see symbols above), so full tier.
  symbolPaths: [{ file: 'django/utils/functional.py', path: 'cached_property.__get__' }, { file: 'django/db/models/fields/related.py', path: 'RelatedField.target_field' }, { file: 'django/utils/text.py', path: 'slugify' }],
  symbols: ['force_str', 'cached_property', 'slugify'],
  askSymbolRightAfterStart: true,
  diagnostics: [...DJANGO_QUICK.diagnostics, { file: 'django/utils/text.py', planted: 'field_planted: str = slugify(1, 2, 3)', checker: pyrightCli }],
  outsideKinds: EVERY_OUTSIDE_EDIT,
};

export const GO_STD_FULL: FieldSpec = {
  ...GO_STD_QUICK,
  ...GO_STD_EDITS_FULL,
  references: [
    ...GO_STD_QUICK.references,
    { file: 'go/ast/walk.go', needle: 'func Inspect(', at: 5 },
    { file: 'go/token/position.go', needle: 'type Pos int', at: 5 },
    { file: 'encoding/json/encode.go', needle: 'func Marshal(', at: 5 },
  ],
  definitions: [...GO_STD_QUICK.definitions, { file: 'encoding/json/encode.go', needle: 'b, err := Marshal(v)', at: 10 }, { file: 'go/printer/printer.go', needle: 'token.Position // current position in AST', at: 6 }],
  hovers: [...GO_STD_QUICK.hovers, { file: 'encoding/json/encode.go', needle: 'b, err := Marshal(v)', at: 10 }, { file: 'go/token/position.go', needle: 'func (p Pos) IsValid', at: 13 }],
  outlines: [...GO_STD_QUICK.outlines, 'go/ast/ast.go', 'go/printer/nodes.go', 'encoding/json/encode.go'],
  semanticTokens: [...GO_STD_QUICK.semanticTokens!, 'encoding/json/encode.go'],
  symbolPaths: [...GO_STD_QUICK.symbolPaths!, { file: 'go/ast/walk.go', path: 'Walk' }, { file: 'encoding/json/stream.go', path: 'Encoder.Encode' }, { file: 'go/token/position.go', path: 'Pos.IsValid' }],
  // Walk calls itself at 90 sites; Node is an interface with many implementations.
  explore: [...GO_STD_QUICK.explore!, { file: 'go/ast/walk.go', needle: 'func Walk(', at: 5 }, { file: 'go/ast/ast.go', needle: 'type Node interface', at: 5 }],
  editingContext: [...GO_STD_QUICK.editingContext!, 'encoding/json/stream.go'],
  symbols: [...GO_STD_QUICK.symbols, 'Walk', 'Marshal', 'Pos'],
  diagnostics: [...GO_STD_QUICK.diagnostics, { file: 'encoding/json/encode.go', planted: 'var fieldPlanted = Marshal(1, 2)', checker: goBuild }],
  outsideKinds: EVERY_OUTSIDE_EDIT,
};

/** The includer's outside edits (every kind); the amalgamation's are in SQLITE_AMALGAMATION_EDITS. */
export const SQLITE_FULL: FieldSpec = {
  ...SQLITE_QUICK,
  ...SQLITE_EDITS_FULL,
  references: [...SQLITE_QUICK.references, { file: 'main.c', needle: 'sqlite3_close(db)' }, { file: 'main.c', needle: 'open_and_report(void)' }],
  definitions: [...SQLITE_QUICK.definitions, { file: 'main.c', needle: 'sqlite3_open(":memory:"' }],
  hovers: [...SQLITE_QUICK.hovers, { file: 'main.c', needle: 'sqlite3_open(":memory:"' }],
  // The huge file: 9 MB, ~270,000 lines.
  outlines: [...SQLITE_QUICK.outlines, 'sqlite3.h', 'sqlite3.c'],
  semanticTokens: [...SQLITE_QUICK.semanticTokens!, 'sqlite3.h'],
  // Declared in the header and again, with its definition, in the amalgamation.
  symbolPaths: [...SQLITE_QUICK.symbolPaths!, { file: 'sqlite3.h', path: 'sqlite3_open' }],
  explore: [...SQLITE_QUICK.explore!, { file: 'main.c', needle: 'sqlite3_close(db)' }],
  symbols: [...SQLITE_QUICK.symbols, 'sqlite3_close', 'sqlite3VdbeExec'],
  // Asked from the header, so the includer can be deleted and restored too (the includer closed
  // and edited outside is also in the quick tier: SQLITE_CLOSED_INCLUDER).
  outside: { file: 'sqlite3.h', needle: 'SQLITE_API int sqlite3_open(', at: 15 },
  outsideKinds: EVERY_OUTSIDE_EDIT,
};

/**
 * The includer edited outside while no agent has it open, the question asked from the header: clangd's
 * background index reads a closed file once, so only agent-lsp holding the changed file open until
 * clangd has built it again (clangdIndexFreshness.ts) keeps the includer's references current.
 */
export const SQLITE_CLOSED_INCLUDER: FieldSpec = {
  ...SQLITE_QUICK,
  ...ONLY_OUTSIDE_EDITS,
  outside: { file: 'sqlite3.h', needle: 'SQLITE_API int sqlite3_open(', at: 15 },
  outsideKinds: ['sed', 'delete and restore'],
};

/**
 * The includer deleted and restored 80 times, asked from the header each time at a moment of the
 * watcher's 100 ms batch: an answer must never come from before the server heard of the batch
 * (issue 28: a full-tier run once answered 2 references for clangd's 5, labelled complete, after
 * sqlite3.c was put back). A minute of rounds: full tier.
 */
export const SQLITE_INCLUDER_DELETED_AGAIN: FieldSpec = {
  ...SQLITE_CLOSED_INCLUDER,
  outsideKinds: ['delete and restore, repeated'],
};

/**
 * Outside edits of the amalgamation and its header between calls, every kind: each waits for clangd
 * to build sqlite3.c again (a minute or more on a loaded machine), so full tier only. Their answers
 * were wrong at times (issue 28 item 4: "git checkout base again" and the shifted branch answered
 * complete with the other branch's positions) when the readiness fallback's 180 s from the start
 * fell into a wait for a build and called clangd ready; fixed (readinessStrategies.ts).
 */
export const SQLITE_AMALGAMATION_EDITS: FieldSpec = {
  ...SQLITE_QUICK,
  ...ONLY_OUTSIDE_EDITS,
  outsideFiles: undefined,
  outsideKinds: EVERY_OUTSIDE_EDIT,
};
