import { LRUCache } from 'lru-cache';
import type { AgentCard } from '../schemas/agent-card.js';
import { textResponse } from './prepared.js';
import type { HeaderInit } from './responses.js';

interface CachedCard {
  json: string;
  etag: string;
  /** The validators and caching headers (for a 304), and the same with the content type (for a 200). */
  common: Record<string, string>;
  full: Record<string, string>;
}

/** Serves the public card with ETag / Last-Modified / Cache-Control and answers conditional requests with 304. */
export class AgentCardRoute {
  private readonly cache = new LRUCache<string, CachedCard>({ max: 32 });
  private readonly lastModified = new Date(Math.floor(Date.now() / 1000) * 1000).toUTCString();

  constructor(
    private readonly build: (baseUrl: string) => AgentCard,
    private readonly maxAgeSeconds: number,
  ) {}

  serve(request: Request, baseUrl: string, headers: HeaderInit): Response {
    let cached = this.cache.get(baseUrl);
    if (!cached) {
      const json = JSON.stringify(this.build(baseUrl));
      const etag = `"${fnv1a(json)}"`;
      const common = {
        etag,
        'last-modified': this.lastModified,
        'cache-control': `public, max-age=${this.maxAgeSeconds}`,
        vary: 'A2A-Version',
      };
      cached = { json, etag, common, full: { 'content-type': 'application/json', ...common } };
      this.cache.set(baseUrl, cached);
    }
    // The header records are built once per card (Response copies them; no one writes to ours).
    const extra = Object.keys(headers).length > 0;
    if (notModified(request, cached.etag, this.lastModified))
      return new Response(null, { status: 304, headers: extra ? { ...cached.common, ...headers } : cached.common });
    return textResponse(request.method === 'HEAD' ? null : cached.json, {
      status: 200,
      headers: extra ? { ...cached.full, ...headers } : cached.full,
    });
  }
}

function notModified(request: Request, etag: string, lastModified: string): boolean {
  const ifNoneMatch = request.headers.get('if-none-match');
  if (ifNoneMatch !== null) {
    return ifNoneMatch.trim() === '*' || ifNoneMatch.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
  }
  const since = request.headers.get('if-modified-since');
  return since !== null && Date.parse(since) >= Date.parse(lastModified);
}

/** 32-bit FNV-1a over UTF-16 code units: a cheap, stable validator (not a security hash). */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0') + text.length.toString(16);
}
