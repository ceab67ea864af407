// jose (JWS/JWT) is needed only to sign or verify agent cards and push notifications: it is imported at first use, so
// an app that does neither does not load it at start-up (see docs/performance.md, "Footprint"). One shared promise.
let jose: Promise<typeof import('jose')> | undefined;

export function loadJose(): Promise<typeof import('jose')> {
  jose ??= import('jose');
  return jose;
}
