import { canaryReadiness } from './progressReadiness.js';
import type { ReadinessFamily } from './readinessContext.js';

/** Perl::LanguageServer's background parser has read every file of the workspace once. */
const PARSING_DONE = /initial parsing done/;

/**
 * Perl::LanguageServer: it parses the workspace's files in the background once its settings came
 * (workspace/didChangeConfiguration after initialized) and answers definition, references and
 * workspace symbols only from what it has parsed — an empty answer before, with nothing to say it
 * is early (the matrix's Perl row got "none" under load). It says it is done only on stderr
 * (`LS: initial parsing done, … parsed N files`): ready at that line. Not our child (reached over
 * TCP): its stderr is not ours, the canary decides.
 */
export const perlReadiness: ReadinessFamily = (ctx) => {
  const { conn, store, stderrLines } = ctx;
  if (!stderrLines) return canaryReadiness(ctx);
  const { readiness } = conn;
  readiness.indexing({ title: 'Perl::LanguageServer is parsing the workspace' });
  store.add(
    stderrLines((line) => {
      if (PARSING_DONE.test(line) && readiness.state !== 'ready') readiness.ready();
    }),
  );
};
