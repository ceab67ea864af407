import { handle } from '../../../lib/a2a';

// JSON-RPC at /a2a, REST below it (/a2a/message:send, /a2a/tasks/...), SSE streams: never cached or prerendered.
export const dynamic = 'force-dynamic';
export { handle as DELETE, handle as GET, handle as HEAD, handle as POST, handle as PUT };
