import { handle } from '../../../lib/a2a';

// The v0.3 card path, for older clients: the card with the v0.3 fields too.
export const dynamic = 'force-dynamic';
export { handle as GET, handle as HEAD };
