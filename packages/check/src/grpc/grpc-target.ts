/** Where a GRPC interface's `url` points: the @grpc/grpc-js target and whether to use TLS. */
export interface GrpcTarget {
  target: string;
  secure: boolean;
}

/**
 * A card's GRPC `url` as a channel target. The spec's examples are URLs (`https://grpc.example.com/a2a`, §8.5; TLS as
 * §10.1 asks), gRPC servers commonly list `host:port` (as @a2a/grpc and the official SDK's client do): `https://` is
 * TLS (port 443 by default), `http://` and a bare `host:port` are plaintext (a loopback listener, a TLS-terminating
 * proxy). Undefined for anything else.
 */
export function grpcTarget(url: string): GrpcTarget | undefined {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(url)?.[1]?.toLowerCase();
  if (scheme === 'http' || scheme === 'https') {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return undefined;
    }
    const secure = scheme === 'https';
    return { target: `${parsed.hostname}:${parsed.port || (secure ? 443 : 80)}`, secure };
  }
  if (scheme !== undefined) return undefined;
  // host:port, [v6]:port
  return /^(\[[0-9a-f:.]+\]|[\w.-]+):\d{1,5}$/i.test(url) ? { target: url, secure: false } : undefined;
}
