// The durable stores' subscription lives in core (shared with @a2a/postgres); the store and its stream tail import it
// from here.
export { type LogReader, LogSubscription } from '@a2a/core/internal';
