import type { Request } from 'express';
import { expectTypeOf } from 'vitest';
import { A2AModule } from '../src/index.js';

declare const handler: Parameters<typeof A2AModule.forRoot>[0] extends infer O
  ? O extends { handler: infer H }
    ? H
    : never
  : never;

// The hook may declare the platform's own request type (here Express's, with what Passport adds).
A2AModule.forRoot({
  handler,
  context: (req: Request & { user?: { id: string } }) => (req.user ? { user: { id: req.user.id } } : undefined),
});
// Unannotated, it sees `user` and `headers`.
A2AModule.forRoot({
  handler,
  context: (req) => {
    expectTypeOf(req.user).toBeUnknown();
    return undefined;
  },
});
A2AModule.forRootAsync({
  useFactory: () => ({ handler, context: (req: Request) => ({ tenant: req.hostname }) }),
});
// @ts-expect-error: a hook for something that is not a request
A2AModule.forRoot({ handler, context: (req: number) => ({ tenant: String(req) }) });
