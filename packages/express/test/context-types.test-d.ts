// Type-level tests, checked by `tsc` in `pnpm typecheck` (this package's tsconfig includes test/).
import type { A2AHttpHandler } from '@a2a/core';
import express from 'express';
import { expectTypeOf } from 'vitest';
import { a2aExpress } from '../src/index.js';

// What session and auth packages add to Express's request (express-session, Passport).
declare global {
  namespace Express {
    interface Request {
      session?: { userId?: string };
    }
  }
}

declare const a2a: A2AHttpHandler;
const app = express();

// The hook annotated with Express's own types.
app.use(
  a2aExpress(a2a, { context: (req: express.Request, _res: express.Response) => ({ user: { id: req.ip ?? '' } }) }),
);

// Unannotated: the hook gets Express's request and response, with what the app's packages add.
app.use(
  a2aExpress(a2a, {
    context: (req, res) => {
      expectTypeOf(req).toEqualTypeOf<express.Request>();
      expectTypeOf(res).toEqualTypeOf<express.Response>();
      expectTypeOf(req.session).toEqualTypeOf<{ userId?: string } | undefined>();
      return req.session?.userId ? { user: { id: req.session.userId } } : undefined;
    },
  }),
);

// An app's own request subtype.
interface AuthedRequest extends express.Request {
  account: { id: string; roles: string[] };
}
app.use('/a2a', a2aExpress(a2a, { context: async (req: AuthedRequest) => ({ user: { id: req.account.id } }) }));
express.Router().use(a2aExpress(a2a));

// @ts-expect-error a handler is required
a2aExpress(undefined);
// @ts-expect-error the hook answers { user?, tenant? }
a2aExpress(a2a, { context: () => 'alice' });
