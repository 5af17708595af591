// The general field cases on Go standard-library packages, quick tier (fieldSpecs.ts).
import { defineFieldSuite } from './fieldSuite.js';
import { GO_STD_QUICK } from './fieldSpecs.js';

defineFieldSuite(GO_STD_QUICK, 'quick tier');
