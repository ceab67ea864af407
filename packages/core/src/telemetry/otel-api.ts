// `@opentelemetry/api` is an optional peer dependency: imported at first use (when a handler or push sender is made),
// never at start-up, and an app without it simply has no telemetry. Until the import has resolved (one tick after the
// first handler is made) nothing is recorded; `useOpenTelemetry()` hands the API over synchronously instead.
export type OtelApi = typeof import('@opentelemetry/api');

let api: OtelApi | undefined;
let loading: Promise<OtelApi | undefined> | undefined;

/** Starts loading the API (idempotent); resolves to `undefined` when the package is not installed. */
export function loadOpenTelemetry(): Promise<OtelApi | undefined> {
  loading ??= import('@opentelemetry/api').then(
    (module) => {
      // CommonJS interop: the namespace may sit under `default`.
      const loaded = ('trace' in module ? module : (module as { default: OtelApi }).default) as OtelApi;
      api ??= loaded;
      return api;
    },
    () => undefined,
  );
  return loading;
}

/** Sets the API (`useOpenTelemetry`, in its own file so the public declarations never name the optional peer). */
export function setOtelApi(given: unknown): void {
  api = given as OtelApi;
}

/** The API once loaded; `undefined` before, and when the package is absent. */
export const otelApi = (): OtelApi | undefined => api;
