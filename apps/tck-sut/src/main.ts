import 'reflect-metadata';
import type { DialectName } from '@a2a/core';
import { startTelemetryFromEnv } from '@a2a/demo-agent/telemetry';
import { createTaskStoreFromEnv } from '@a2a/postgres';
import { createTaskStoreFromEnv as redisStoreFromEnv } from '@a2a/redis';
import { ADAPTERS, type AdapterName, startSut } from './server.js';

// PORT=<n> ADAPTER=<express|koa|hapi|fastify|hono|nestjs> [GRPC_PORT=<n>] [ACTS=1] pnpm --dir apps/tck-sut start
// (or --port n --adapter name ...); every option is in apps/tck-sut/README.md.
const args = process.argv.slice(2).filter((a) => a !== '--');
const flag = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const adapter = (flag('adapter') ?? process.env.ADAPTER ?? 'express') as AdapterName;
if (!ADAPTERS.includes(adapter)) {
  console.error(`unknown adapter "${adapter}" (use ${ADAPTERS.join(', ')})`);
  process.exit(2);
}
const port = Number(flag('port') ?? process.env.PORT ?? 9999);
const requiredExtension = (flag('required-extension') ?? process.env.TCK_REQUIRED_EXTENSION) === '1';
const extendedFlag = flag('extended-card') ?? process.env.TCK_EXTENDED_CARD;
const extendedCard = extendedFlag === 'auth' ? 'authenticated' : extendedFlag !== '0';
const acceptAnyInputMode = (flag('accept-any-input') ?? process.env.TCK_ACCEPT_ANY_INPUT) === '1';
const headerlessCard = (flag('headerless-card') ?? process.env.TCK_HEADERLESS_CARD) === 'v1' ? 'v1' : 'superset';
const grpcFlag = flag('grpc-port') ?? process.env.GRPC_PORT;
const grpcPort = grpcFlag === undefined || grpcFlag === '' ? undefined : Number(grpcFlag);
const grpcV100Codes = (flag('grpc-v100-codes') ?? process.env.TCK_GRPC_V100_CODES) === '1';
// A2A_DIALECTS=sessions,paraphrase (or --dialects ...): unknown names stop the server at setup.
const dialects = (flag('dialects') ?? process.env.A2A_DIALECTS ?? '')
  .split(',')
  .map((name) => name.trim())
  .filter(Boolean) as DialectName[];
// ACTS (ACTS=1, or either of the a2a-itk runner's pass switches, which it sets to any non-empty value).
const envSet = (name: string) => (process.env[name] ?? '') !== '' && process.env[name] !== '0';
const actsAuth = flag('acts-auth') === '1' || envSet('ITK_ACTS_AUTH');
const actsReduced = flag('acts-reduced-capabilities') === '1' || envSet('ITK_ACTS_REDUCED_CAPABILITIES');
const acts =
  (flag('acts') ?? process.env.ACTS) === '1' || actsAuth || actsReduced
    ? { auth: actsAuth, reducedCapabilities: actsReduced }
    : undefined;
const longRunning = flag('acts-long-running-ms') ?? process.env.ACTS_LONG_RUNNING_MS;
// Traces and metrics when OTEL_TRACES_EXPORTER / OTEL_METRICS_EXPORTER ask for them (e.g. `=console`).
const stopTelemetry = await startTelemetryFromEnv('a2a-tck-sut');
// In memory by default; PostgreSQL when A2A_DATABASE_URL is set, Redis when A2A_REDIS_URL is.
const storage = process.env.A2A_REDIS_URL ? await redisStoreFromEnv() : await createTaskStoreFromEnv();
const stored = 'redis' in storage ? 'Redis' : storage.postgres ? 'PostgreSQL' : 'in-memory';
const sut = await startSut({
  adapter,
  port,
  host: '127.0.0.1',
  requiredExtension,
  headerlessCard,
  extendedCard,
  acceptAnyInputMode,
  grpcPort,
  grpcV100Codes,
  dialects,
  acts,
  ...(longRunning ? { longRunningMs: Number(longRunning) } : {}),
  storage,
  shutdownTimeoutMs: Number(process.env.A2A_SHUTDOWN_TIMEOUT_MS ?? 25_000),
});
const mode = acts ? `, ACTS${acts.auth ? ' auth' : ''}${acts.reducedCapabilities ? ' reduced-capabilities' : ''}` : '';
console.log(`A2A TCK SUT (${adapter}, ${stored}${mode}) on ${sut.url}`);
console.log(`  agent card: ${sut.url}/.well-known/agent-card.json   JSON-RPC: ${sut.url}/`);
if (sut.grpcAddress) console.log(`  gRPC (lf.a2a.v1.A2AService): ${sut.grpcAddress}`);
// SIGTERM: graceful (503 for new requests, streams end, running tasks get A2A_SHUTDOWN_TIMEOUT_MS), then exit.
const stop = () =>
  void sut
    .close()
    .then(() => storage.close())
    .then(() => stopTelemetry?.())
    .then(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
