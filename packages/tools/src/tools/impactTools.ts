import type { AnyToolDefinition } from '../catalog/toolDefinition.js';
import { findCallers } from './callHierarchy.js';
import { typeHierarchy } from './typeHierarchy.js';
import { exploreSymbol } from './explore.js';
import { getEditingContext } from './editingContext.js';
import { blastRadius } from './impact.js';
import { detectChanges } from './detectChanges.js';
import { getCrossRepoReferences } from './crossRepo.js';

/** The call/type hierarchy and change-impact tools (issue 13), in catalogue order. */
export const impactTools: readonly AnyToolDefinition[] = [findCallers, typeHierarchy, exploreSymbol, getEditingContext, blastRadius, detectChanges, getCrossRepoReferences];
