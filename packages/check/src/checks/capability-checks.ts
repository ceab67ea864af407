import type { A2AErrorType } from '@a2a/core/errors';
import { type Check, fail, pass, skip, type Verdict } from '../check.js';
import type { CheckContext } from '../context.js';
import { rest, rpc, unknownTaskId } from './calls.js';
import { expectGrpcError, expectRestError, expectRpcError } from './expect-error.js';
import { grpcReachable } from './grpc-checks.js';

type Capability = 'streaming' | 'pushNotifications' | 'extendedAgentCard';

const declared = (ctx: CheckContext, capability: Capability) =>
  (ctx.card.capabilities as Record<string, unknown> | undefined)?.[capability] === true;

/**
 * An undeclared capability's operation must be refused with the §3.3.4 error on every v1.0 binding the run checks.
 * `jsonrpc`/`http`/`grpc` make the call (a GRPC interface that does not answer is card.interfaces-reachable's); the answers are read with the binding's error rules.
 */
function refusedWhenUndeclared(
  capability: Capability,
  error: A2AErrorType,
  jsonrpc: (ctx: CheckContext) => [string, Record<string, unknown> | undefined],
  http: () => [string, string, unknown?],
  grpc: () => [string, Record<string, unknown>],
) {
  return async (ctx: CheckContext): Promise<Verdict> => {
    if (declared(ctx, capability)) return skip(`capabilities.${capability} is declared`);
    const verdicts: string[] = [];
    const rpcIface = ctx.iface('jsonrpc');
    if (rpcIface) {
      const [method, params] = jsonrpc(ctx);
      const v = expectRpcError(await rpc(ctx, rpcIface, method, params), [error]);
      if (v.status === 'fail') return fail(`JSONRPC ${method}: ${v.detail}`);
      verdicts.push(`JSONRPC ${method}`);
    }
    const restIface = ctx.iface('http+json');
    if (restIface) {
      const [method, path, body] = http();
      const v = expectRestError(await rest(ctx, restIface, method, path, body), error);
      if (v.status === 'fail') return fail(`HTTP+JSON ${method} ${path}: ${v.detail}`);
      verdicts.push(`HTTP+JSON ${method} ${path.replace(/a2a-check-unknown-[\w-]+/, '{id}')}`);
    }
    const grpcIface = ctx.iface('grpc');
    if (grpcIface && !(await grpcReachable(ctx, grpcIface))) {
      const [method, request] = grpc();
      const v = expectGrpcError(await ctx.grpc(grpcIface, method, request), error);
      if (v.status === 'fail') return fail(`GRPC ${method}: ${v.detail}`);
      verdicts.push(`GRPC ${method}`);
    }
    return verdicts.length ? pass(verdicts.join(', ')) : skip('no v1.0 interface to call');
  };
}

/** Operations of capabilities the card does not declare are refused with the errors §3.3.4 names. */
export const CAPABILITY_CHECKS: Check[] = [
  {
    id: 'capabilities.push-refused',
    area: 'capabilities',
    level: 'MUST',
    spec: '§3.3.4 Capability Validation',
    title: 'without pushNotifications, push config operations get PushNotificationNotSupportedError',
    run: refusedWhenUndeclared(
      'pushNotifications',
      'PushNotificationNotSupported',
      () => ['ListTaskPushNotificationConfigs', { taskId: unknownTaskId() }],
      () => ['GET', `/tasks/${unknownTaskId()}/pushNotificationConfigs`],
      () => ['ListTaskPushNotificationConfigs', { taskId: unknownTaskId() }],
    ),
  },
  {
    id: 'capabilities.streaming-refused',
    area: 'capabilities',
    level: 'MUST',
    spec: '§3.3.4 Capability Validation',
    title: 'without streaming, SubscribeToTask gets UnsupportedOperationError',
    run: refusedWhenUndeclared(
      'streaming',
      'UnsupportedOperation',
      () => ['SubscribeToTask', { id: unknownTaskId() }],
      () => ['POST', `/tasks/${unknownTaskId()}:subscribe`, {}],
      () => ['SubscribeToTask', { id: unknownTaskId() }],
    ),
  },
  {
    id: 'capabilities.extended-card-refused',
    area: 'capabilities',
    level: 'MUST',
    spec: '§3.3.4 Capability Validation',
    title: 'without extendedAgentCard, GetExtendedAgentCard gets UnsupportedOperationError',
    run: refusedWhenUndeclared(
      'extendedAgentCard',
      'UnsupportedOperation',
      () => ['GetExtendedAgentCard', undefined],
      () => ['GET', '/extendedAgentCard'],
      () => ['GetExtendedAgentCard', {}],
    ),
  },
];
