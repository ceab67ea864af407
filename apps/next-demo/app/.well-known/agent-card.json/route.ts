import { handle } from '../../../lib/a2a';

// The agent card where clients look (RFC 8615), with its interface URLs under /a2a.
export const dynamic = 'force-dynamic';
export { handle as GET, handle as HEAD };
