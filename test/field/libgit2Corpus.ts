// A large C field corpus: libgit2 1.9 as the libgit2-sys crate vendors it (crates.io, from cargo's
// own cache when it has it) — the library (src/libgit2), its utilities (src/util, the Unix and
// built-in hash variants), its public headers (include) and two vendored dependencies (xdiff,
// llhttp): 178 sources and 255 headers, every source passing `gcc -fsyntax-only` with the flags
// below. With no compile_commands.json, clangd knows only the files agent-lsp opens (200 at most,
// the sources first: clangdReadiness.ts); the copy has a compile_flags.txt so each of them parses
// as it builds. The ground truth is clangd with a compilation database of the same files
// (withCompileDatabase), whose background index holds all of them.
import { spawnSync } from 'node:child_process';
import { cpSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { basename, extname, join, relative } from 'node:path';
import { fetchedCrate } from './crateCorpus.js';

export const LIBGIT2_SYS_VERSION = '0.18.2';

/** The parts of the vendored tree copied (root-relative in the crate's libgit2/ and in the corpus). */
const PARTS = ['include', 'src/libgit2', 'src/util', 'deps/xdiff', 'deps/llhttp'];
/** Sources for other platforms or crypto libraries than the one configured here (they do not build on Linux without them). */
const OTHER_PLATFORMS = new Set(['win32', 'openssl.c', 'openssl.h', 'common_crypto.c', 'common_crypto.h', 'mbedtls.c', 'mbedtls.h']);
const UTIL_HASH = join('src', 'util', 'hash');

/** What libgit2-sys's build script writes (Linux, 64-bit, POSIX regcomp instead of the vendored pcre, which is not copied). */
const FEATURES = `#ifndef INCLUDE_features_h
#define INCLUDE_features_h
#define GIT_THREADS 1
#define GIT_TRACE 1
#define GIT_HTTPPARSER_BUILTIN 1
#define GIT_IO_POLL 1
#define GIT_USE_NSEC 1
#define GIT_USE_STAT_MTIM 1
#define GIT_ARCH_64 1
#define GIT_SHA1_COLLISIONDETECT 1
#define GIT_SHA256_BUILTIN 1
#define GIT_REGEX_REGCOMP 1
#endif
`;

/** The compiler flags of every file of a corpus rooted at `root` (the build script's, for Linux). */
export function libgit2Flags(root: string): string[] {
  return [
    ...['include', 'src/libgit2', 'src/util', 'deps/xdiff', 'deps/llhttp'].map((dir) => `-I${join(root, dir)}`),
    '-D_GNU_SOURCE',
    '-DSHA1DC_NO_STANDARD_INCLUDES=1',
    '-DSHA1DC_CUSTOM_INCLUDE_SHA1_C="common.h"',
    '-DSHA1DC_CUSTOM_INCLUDE_UBC_CHECK_C="common.h"',
  ];
}

export function copyLibgit2(root: string): string | undefined {
  if (spawnSync('cargo', ['--version']).status !== 0) return 'cargo is not installed (rustup brings it)';
  const crate = fetchedCrate('libgit2-sys', LIBGIT2_SYS_VERSION);
  if ('why' in crate) return crate.why;
  const from = join(crate.dir, 'libgit2');
  for (const part of PARTS) {
    cpSync(join(from, part), join(root, part), {
      recursive: true,
      filter: (path) => {
        const rel = relative(from, path);
        if (basename(path) === 'win32' || (rel.startsWith(UTIL_HASH) && OTHER_PLATFORMS.has(basename(path)))) return false;
        return statSync(path).isDirectory() || ['.c', '.h'].includes(extname(path));
      },
    });
  }
  writeFileSync(join(root, 'src', 'util', 'git2_features.h'), FEATURES);
  writeFileSync(join(root, 'compile_flags.txt'), libgit2Flags(root).join('\n') + '\n');
  return undefined;
}

/** The corpus's C sources, root-relative, sorted. */
export function libgit2Sources(root: string): string[] {
  return (readdirSync(root, { recursive: true }) as string[]).filter((p) => p.endsWith('.c')).sort();
}

/** A compile_commands.json for every source of the corpus at `root` (the ground truth's clangd reads it and indexes them all). */
export function withCompileDatabase(root: string): void {
  const entries = libgit2Sources(root).map((file) => ({ directory: root, file: join(root, file), arguments: ['cc', ...libgit2Flags(root), '-c', file] }));
  writeFileSync(join(root, 'compile_commands.json'), JSON.stringify(entries, null, 2) + '\n');
}
