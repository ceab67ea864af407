import { plainHeaders, textResponse } from '../http/prepared.js';

/** A card's answers, made once per card document: its JSON, validator and header records. */
export interface CardAnswers {
  json: string;
  etag: string;
  lastModified: string;
  /** The validators and caching headers (for a 304), and the same with the content type (for a 200). */
  common: Record<string, string>;
  full: Record<string, string>;
}

export function cardAnswers(card: object, lastModified: string, maxAgeSeconds: number): CardAnswers {
  const json = JSON.stringify(card);
  const etag = `"${fnv1a(json)}"`;
  const common = {
    etag,
    'last-modified': lastModified,
    'cache-control': `public, max-age=${maxAgeSeconds}`,
    vary: 'A2A-Version',
  };
  // Checked once here rather than per GET (docs/performance.md, "Hot-path tricks": header records).
  const full = plainHeaders({ 'content-type': 'application/json', ...common });
  return { json, etag, lastModified, common, full };
}

/** Serves a card with ETag / Last-Modified / Cache-Control and answers conditional requests with 304. */
export function serveCard(request: Request, answers: CardAnswers): Response {
  // The header records are shared by every answer of the card (nothing writes to them;
  // docs/performance.md, "Hot-path tricks").
  if (notModified(request, answers.etag, answers.lastModified)) {
    return new Response(null, { status: 304, headers: answers.common });
  }
  return textResponse(request.method === 'HEAD' ? null : answers.json, { status: 200, headers: answers.full });
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
