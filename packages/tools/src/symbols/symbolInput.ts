import { z } from 'zod';
import { positionInput, readinessInput, unscopedPositionPattern } from '../catalog/schemas.js';

export const symbolPathInput = z.string().min(1).describe('Class.method, module.fn, file.ts:Ns.fn');

/** A symbol named by symbol_path, or by a position in file_path (the innermost symbol there). */
export const symbolTargetInput = {
  symbol_path: symbolPathInput.optional(),
  file_path: positionInput.file_path.optional().describe('With a position, or where symbol_path is.'),
  line: positionInput.line,
  column: positionInput.column,
  position_pattern: unscopedPositionPattern,
  ...readinessInput,
};
