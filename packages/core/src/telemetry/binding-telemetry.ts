import type { RequestTelemetryHandle, RequestTelemetryInit } from './operation-telemetry.js';
import { startRequestTelemetry } from './request-telemetry.js';

/**
 * A request's telemetry for bindings served outside core (`@a2a/grpc`), typed without OpenTelemetry's own types so
 * the published declarations never name the optional peer. `undefined` when no SDK is registered.
 */
export const startBindingTelemetry: (init: RequestTelemetryInit) => RequestTelemetryHandle | undefined =
  startRequestTelemetry;
