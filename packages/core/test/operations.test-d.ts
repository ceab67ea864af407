// The operation table keeps each operation's types: a direct call takes that operation's params and gives its result
// (checked by tsc in `pnpm typecheck`; a wrong call must not compile).
import { expectTypeOf } from 'vitest';
import type { SendMessageResponse, StreamResponse, Task } from '../src/index.js';
import { OPERATIONS, type OperationEnv } from '../src/server/operations.js';

declare const env: OperationEnv;

expectTypeOf(OPERATIONS.GetTask.run({ id: 't1' }, env)).resolves.toEqualTypeOf<Task>();
expectTypeOf(
  OPERATIONS.SendMessage.run({ message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'hi' }] } }, env),
).resolves.toEqualTypeOf<SendMessageResponse>();
expectTypeOf(OPERATIONS.SubscribeToTask.run({ id: 't1' }, env)).toEqualTypeOf<AsyncGenerator<StreamResponse>>();

// @ts-expect-error GetTask takes `{ id }`, not a message
void OPERATIONS.GetTask.run({ message: { messageId: 'm1' } }, env);
// @ts-expect-error CancelTask needs the task's id
void OPERATIONS.CancelTask.run({}, env);
