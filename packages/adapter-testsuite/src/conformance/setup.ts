import { errorInfoProblem, jsonRpcErrorProblem, statusBodyProblem } from '@a2a/core/error-shapes';
import type { A2AErrorType } from '@a2a/core/errors';
import { afterAll, beforeAll, expect } from 'vitest';
import { type Client, client } from '../client.js';
import { createFixture, type Fixture } from '../fixture.js';
import type { AdapterHarness, HarnessStartOptions, StartedServer } from '../harness.js';

/** The caller most cases send (`x-test-user`, read by the harness's context hook). */
export const USER = { 'x-test-user': 'alice' };
/** The handler's base path in the basePath cases (the adapter mounted at the root). */
export const BASE_PATH = '/a2a';
/** A fresh name for one of the fixture's gates. */
export const gateName = () => crypto.randomUUID().slice(0, 8);

/** One describe block's server: its fixture, the harness's answer, a client at the mount and the origin. */
export interface Setup {
  fixture: Fixture;
  server: StartedServer;
  c: Client;
  origin: string;
}

/** Starts a fixture behind the harness for one describe block. */
export function useServer(
  harness: AdapterHarness,
  options: Omit<HarnessStartOptions, 'contextFromHeader' | 'trustProxy'>,
  make = () => createFixture(),
) {
  const setup = {} as Setup;
  beforeAll(async () => {
    setup.fixture = make();
    setup.server = await harness.start(setup.fixture.a2a, { ...options, contextFromHeader: true, trustProxy: true });
    setup.origin = setup.server.baseUrl.replace(/\/$/, '');
    setup.c = client(`${setup.origin}${options.mountPath}`);
  });
  afterAll(() => setup.server?.close());
  return setup;
}

/**
 * A `google.rpc.Status` body (§11.6, the rules `@a2a/check` applies too) with this code, its `status` name, and the
 * ErrorInfo of `type` when given.
 */
export const expectStatusBody = (body: unknown, code: number, type?: A2AErrorType) => {
  const problem = statusBodyProblem(body, code, { statusName: true });
  const details = (body as { error?: { details?: Record<string, unknown>[] } } | undefined)?.error?.details ?? [];
  expect(problem ?? (type && errorInfoProblem(details, type, 'error.details', '§11.6')), JSON.stringify(body)).toBe(
    undefined,
  );
};

/** A JSON-RPC error response (§9.5, the rules `@a2a/check` applies too) of this type, answering `id` when given. */
export const expectRpcError = (body: unknown, type: A2AErrorType, ...id: [unknown?]) =>
  expect(jsonRpcErrorProblem(body, { errors: [type], ...(id.length && { id: id[0] }) }), JSON.stringify(body)).toBe(
    undefined,
  );
