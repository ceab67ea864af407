// PostgreSQL text cannot hold U+0000, but owners ("tenant\0user") and client-chosen ids may. Keys are stored with
// `\` and NUL escaped (a one-to-one mapping; ordinary strings are unchanged); JSON columns keep the real values.

export const toKey = (value: string): string =>
  value.includes('\u0000') || value.includes('\\') ? value.replaceAll('\\', '\\\\').replaceAll('\u0000', '\\0') : value;

export const fromKey = (key: string): string =>
  key.includes('\\') ? key.replace(/\\([\\0])/g, (_, c: string) => (c === '0' ? '\u0000' : '\\')) : key;
