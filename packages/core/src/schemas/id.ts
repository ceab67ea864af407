import { z } from 'zod';

/**
 * The longest id a request may carry (task, context, message, push config, referenced task, tenant), in characters.
 * Generous next to the 36-character UUIDs the server makes, small enough that an id repeated in an error (message,
 * `ErrorInfo` metadata, gRPC trailers) stays far under any header or log limit. Every binding shares it.
 */
export const MAX_ID_LENGTH = 1024;

const tooLong = { message: `must be at most ${MAX_ID_LENGTH} characters` };

/** An id that may be empty (proto3's unset string), bounded. */
export const boundedId = z.string().max(MAX_ID_LENGTH, tooLong);

/** A required id: not empty, bounded. */
export const requiredId = z.string().min(1).max(MAX_ID_LENGTH, tooLong);
