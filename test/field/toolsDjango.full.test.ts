// The general field cases on Django 3.2, full tier (fieldSpecs.ts; `pnpm test:field --full`).
import { defineFieldSuite } from './fieldSuite.js';
import { DJANGO_FULL } from './fieldSpecs.js';

defineFieldSuite(DJANGO_FULL, 'full tier');
