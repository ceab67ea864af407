/** A parsed JSON object (not an array, not null): what the playground reads cards and its API's bodies as. */
export type JsonObject = Record<string, unknown>;

export const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
