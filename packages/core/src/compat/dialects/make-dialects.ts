import type { Dialect, DialectName } from './dialect.js';
import { paraphraseDialect } from './paraphrase.js';
import { sessionsDialect } from './sessions.js';

/** The dialects a handler was asked to serve, each made once per handler (the sessions feed is per handler). */
export const makeDialects = (names: readonly DialectName[]): Dialect[] =>
  names.map((name) => (name === 'sessions' ? sessionsDialect() : paraphraseDialect));
