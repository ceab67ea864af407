import { z } from 'zod';
import { MAX_ID_LENGTH } from './plain.js';

export { MAX_ID_LENGTH };

const tooLong = { message: `must be at most ${MAX_ID_LENGTH} characters` };

/** An id that may be empty (proto3's unset string), bounded. */
export const boundedId = z.string().max(MAX_ID_LENGTH, tooLong);

/** A required id: not empty, bounded. */
export const requiredId = z.string().min(1).max(MAX_ID_LENGTH, tooLong);
