// Types for sqliteCorpus.mjs.
export const SQLITE_INCLUDER: string;
export function copySqlite(root: string): string | undefined;
