// The general field cases on Django 3.2, quick tier (fieldSpecs.ts).
import { defineFieldSuite } from './fieldSuite.js';
import { DJANGO_QUICK } from './fieldSpecs.js';

defineFieldSuite(DJANGO_QUICK, 'quick tier');
