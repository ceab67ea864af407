import { setOtelApi } from './otel-api.js';

/**
 * Hands `@opentelemetry/api` to the A2A packages explicitly, e.g. for bundles where its dynamic import cannot be
 * resolved. Not needed otherwise: it is loaded on its own when installed.
 */
export function useOpenTelemetry(api: unknown): void {
  setOtelApi(api);
}
