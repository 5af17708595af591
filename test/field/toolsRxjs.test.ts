// The general field cases on rxjs 7.8.2 and typescript-language-server, quick tier (fieldSpecs.ts).
import { defineFieldSuite } from './fieldSuite.js';
import { RXJS_QUICK } from './fieldSpecs.js';

defineFieldSuite(RXJS_QUICK, 'quick tier');
