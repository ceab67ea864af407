import { delegateToReal } from '../http/delegate-to-real.js';
import { nativeClass } from '../native-class.js';

/**
 * The request's `Headers` for the Node bridge's fast path, read straight from Node's `rawHeaders`: `get` and `has`
 * answer as `Headers` does (case-insensitive name, every value of a repeated header joined with ", ", surrounding
 * HTTP whitespace removed); anything else (iteration, `forEach`, changes, ...) goes to a real `Headers` made on first
 * use. Filling a real `Headers` (validation per header) cost more than all the lookups a request makes.
 * See docs/performance.md, "Hot-path tricks".
 */
class NodeHeadersView {
  readonly #raw: readonly string[];
  /** The names lowercased, by index (`null`: Node's names are lowercase already, the usual case; read `#raw`). */
  #names: string[] | null | undefined;
  #real: Headers | undefined;

  constructor(raw: readonly string[]) {
    this.#raw = raw;
  }

  get(name: string): string | null {
    if (this.#real) return this.#real.get(name);
    const raw = this.#raw;
    const names = this.#lowerNames();
    const wanted = lowerCase(name);
    let out: string | null = null;
    for (let i = 0; i < raw.length; i += 2) {
      if ((names === null ? raw[i] : names[i >> 1]) !== wanted) continue;
      const value = trimHttpWhitespace(raw[i + 1] as string);
      out = out === null ? value : `${out}, ${value}`;
    }
    return out;
  }

  has(name: string): boolean {
    if (this.#real) return this.#real.has(name);
    return this.get(name) !== null;
  }

  /** The same headers as a real Headers (made once; later reads and changes go there). */
  real(): Headers {
    this.#real ??= headersFromRaw(this.#raw);
    return this.#real;
  }

  /**
   * The names lowercased, or `null` when they are already: no array and no string per header (`toLowerCase` makes a
   * new string even when nothing changes), ~0.4 KB per request (issue 39, docs/performance.md "Per request").
   */
  #lowerNames(): string[] | null {
    if (this.#names !== undefined) return this.#names;
    const raw = this.#raw;
    let i = 0;
    while (i < raw.length && lowerCase(raw[i] as string) === raw[i]) i += 2;
    if (i >= raw.length) {
      this.#names = null;
      return null;
    }
    const names: string[] = new Array(raw.length >> 1);
    // Pseudo-headers (HTTP/2) keep their slot but can never match a valid header name.
    for (let j = 0; j < raw.length; j += 2) names[j >> 1] = lowerCase(raw[j] as string);
    this.#names = names;
    return names;
  }
}

/** `name` lowercased, itself when it has no capital (ASCII: header names are tokens). */
function lowerCase(name: string): string {
  for (let i = 0; i < name.length; i++) {
    const code = name.charCodeAt(i);
    if (code >= 0x41 && code <= 0x5a) return name.toLowerCase();
  }
  return name;
}

// The class is named when someone reaches past the view (`forEach`, `set`, ...), not before: naming `Headers` makes
// Node 20 load undici (docs/performance.md, "Hot-path tricks").
delegateToReal(NodeHeadersView, () => nativeClass(Headers), new Set());

const isHttpWhitespace = (code: number) => code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;

function trimHttpWhitespace(value: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && isHttpWhitespace(value.charCodeAt(start))) start++;
  while (end > start && isHttpWhitespace(value.charCodeAt(end - 1))) end--;
  return start === 0 && end === value.length ? value : value.slice(start, end);
}

/** A real `Headers` filled from Node's `rawHeaders` (HTTP/2 pseudo-headers left out). */
export function headersFromRaw(raw: readonly string[]): Headers {
  const headers = new Headers();
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] as string;
    if (name.startsWith(':')) continue; // HTTP/2 pseudo-headers
    headers.append(name, raw[i + 1] as string);
  }
  return headers;
}

/** A headers view over Node's `rawHeaders` (see {@link NodeHeadersView}), typed as the `Headers` it stands for. */
export function headersView(rawHeaders: readonly string[]): Headers {
  return new NodeHeadersView(rawHeaders) as unknown as Headers;
}
