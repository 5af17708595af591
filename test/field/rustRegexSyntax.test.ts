// The general field cases on the regex-syntax crate with rust-analyzer, quick tier (fieldSpecs.ts
// REGEX_SYNTAX_QUICK): the first question right after start_lsp, then references, definitions,
// hovers, an outline and workspace symbols against rust-analyzer asked directly, a planted error
// against cargo check, and a sed on another file between two calls.
import { defineFieldSuite } from './fieldSuite.js';
import { REGEX_SYNTAX_QUICK } from './fieldSpecs.js';

defineFieldSuite(REGEX_SYNTAX_QUICK, 'quick tier');
