// Starts the OpenTelemetry Node SDK when the standard environment variables ask for it, e.g.
// `OTEL_TRACES_EXPORTER=console` or `=otlp` (with OTEL_EXPORTER_OTLP_ENDPOINT), `OTEL_METRICS_EXPORTER=otlp`.
// Without them nothing is loaded: the A2A packages then record nothing (their OpenTelemetry hooks are no-ops).
// The SDK reads the rest of its configuration (service name, endpoints, sampling) from the environment itself.

import { useOpenTelemetry } from '@a2a/core';

const EXPORTER_VARS = ['OTEL_TRACES_EXPORTER', 'OTEL_METRICS_EXPORTER', 'OTEL_LOGS_EXPORTER'] as const;

/** Whether the environment names an exporter other than `none`. */
export function telemetryRequested(env: NodeJS.ProcessEnv = process.env): boolean {
  return EXPORTER_VARS.some((name) => {
    const value = env[name]?.trim();
    return !!value && value.split(',').some((exporter) => exporter.trim() !== 'none');
  });
}

/** Starts the SDK when asked to; resolves to its shutdown (flushes the exporters), or `undefined`. */
export async function startTelemetryFromEnv(serviceName: string): Promise<(() => Promise<void>) | undefined> {
  if (!telemetryRequested()) return undefined;
  // Unset exporters default to OTLP in the SDK: only what was asked for is exported.
  for (const name of EXPORTER_VARS) process.env[name] ??= 'none';
  const [{ NodeSDK }, api] = await Promise.all([import('@opentelemetry/sdk-node'), import('@opentelemetry/api')]);
  const sdk = new NodeSDK({ serviceName: process.env.OTEL_SERVICE_NAME ?? serviceName });
  sdk.start();
  // The A2A packages load the API on their own, a moment after the first handler is made; handing it over makes
  // the very first request traced too.
  useOpenTelemetry(api);
  return () => sdk.shutdown();
}
