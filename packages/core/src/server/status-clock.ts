/** ISO-8601 time, formatted once per millisecond (busy servers ask several times per request). */
let clockMs = -1;
let clockIso = '';
function systemClock(): string {
  const ms = Date.now();
  if (ms !== clockMs) {
    clockMs = ms;
    clockIso = new Date(ms).toISOString();
  }
  return clockIso;
}

/** The clock of status timestamps: `clock` (default: the system's), never going backwards, as ListTasks orders by them. */
export function statusClock(clock: () => string = systemClock): () => string {
  let last = '';
  return () => {
    const t = clock();
    // ISO-8601 strings of one format compare correctly as strings.
    if (t > last) last = t;
    return last;
  };
}
