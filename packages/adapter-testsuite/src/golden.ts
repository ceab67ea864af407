import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createA2AHandler, type DialectName } from '@a2a/core';
import { createParser } from 'eventsource-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { goldenCard, goldenExecutor } from './golden-agent.js';
import type { AdapterHarness, StartedServer } from './harness.js';

// Wire traffic per protocol version (golden/*.json, from the user's documents and the spec digest): every request is
// sent through the adapter and the response must equal the recorded one after ids, timestamps and the server's base
// URL are replaced by placeholders. A placeholder in a later request stands for the value it matched earlier.
// GOLDEN_RECORD=1 rewrites the files from what the server answers (review the diff before committing).

interface Step {
  http?: { method: string; path: string; headers?: Record<string, string> };
  headers?: Record<string, string>;
  request?: unknown;
  status?: number;
  response?: unknown;
  events?: unknown[];
  responseHeaders?: Record<string, string>;
}
interface GoldenFile {
  file: string;
  title: string;
  source: string;
  /** A wire version, or the dialect the file speaks. */
  version: string;
  /** How the handler is made for this file (default: plain, as createA2AHandler's defaults). */
  handler?: GoldenHandler;
  steps: Step[];
}
interface GoldenHandler {
  dialects?: DialectName[];
  /** Declare an extended card (served to authenticated callers as 'Golden agent (extended)'). */
  extendedAgentCard?: boolean;
}

function goldenHandler(options: GoldenHandler = {}) {
  const extended = options.extendedAgentCard === true;
  return createA2AHandler({
    agentCard: extended
      ? { ...goldenCard, capabilities: { ...goldenCard.capabilities, extendedAgentCard: true } }
      : goldenCard,
    ...(extended && { extendedAgentCard: { ...goldenCard, name: 'Golden agent (extended)' } }),
    executor: goldenExecutor,
    onError: () => {},
    ...(options.dialects && { dialects: options.dialects }),
  });
}

const dir = new URL('../golden/', import.meta.url);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

function loadGoldenFiles(): GoldenFile[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => ({ file, ...(JSON.parse(readFileSync(new URL(file, dir), 'utf8')) as Omit<GoldenFile, 'file'>) }));
}

/** The value with every string in it (at any depth, keys aside) replaced by `f(string)`. */
function mapStrings(value: unknown, f: (s: string) => unknown): unknown {
  if (typeof value === 'string') return f(value);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, f));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, f)]));
  }
  return value;
}

class Placeholders {
  private readonly byValue = new Map<string, string>();
  private readonly byName = new Map<string, string>();
  constructor(private readonly base: string) {}

  normalize(value: unknown): unknown {
    // Every id is named first, so an id quoted inside a string before it stands alone (`<id>:reply`) is named too.
    mapStrings(value, (text) => {
      if (UUID.test(text) && !this.byValue.has(text)) this.name(text);
      return text;
    });
    return mapStrings(value, (text) => {
      if (UUID.test(text)) return this.byValue.get(text) ?? this.name(text);
      if (TIMESTAMP.test(text)) return '<timestamp>';
      let out = text.split(this.base).join('<origin>');
      for (const [id, name] of this.byValue) out = out.split(id).join(name);
      return out;
    });
  }

  private name(id: string): string {
    const name = `<id:${this.byValue.size + 1}>`;
    this.byValue.set(id, name);
    this.byName.set(name, id);
    return name;
  }

  /** Fills placeholders of earlier responses into a request (its body or its path). */
  fill(value: unknown): unknown {
    return mapStrings(value, (text) =>
      text
        .split('<origin>')
        .join(this.base)
        .replace(/<id:\d+>/g, (name) => this.byName.get(name) ?? name),
    );
  }
}

async function sseData(response: Response): Promise<unknown[]> {
  const out: unknown[] = [];
  createParser({ onEvent: (e) => out.push(JSON.parse(e.data)) }).feed(await response.text());
  return out;
}

/** Replays every golden file through the adapter, at the root without a body parser and under '/a2a' with one. */
export function defineGoldenWireCases(harness: AdapterHarness): void {
  const files = loadGoldenFiles();
  const record = process.env.GOLDEN_RECORD === '1';

  it('has golden files for every wire version', () => {
    expect(new Set(files.map((f) => f.version))).toEqual(
      new Set(['0.1', '0.2', '0.3', '1.0', 'paraphrase', 'sessions']),
    );
  });

  for (const [mountPath, bodyParser] of [
    ['', false],
    ['/a2a', true],
  ] as const) {
    describe(`golden wire traffic, mount '${mountPath || '/'}', body parser ${bodyParser ? 'on' : 'off'}`, () => {
      // One server per handler configuration the files ask for.
      const servers = new Map<string, StartedServer>();
      const bases = new Map<string, string>();
      const configKey = (golden: GoldenFile) => JSON.stringify(golden.handler ?? {});
      beforeAll(async () => {
        for (const golden of files) {
          const key = configKey(golden);
          if (servers.has(key)) continue;
          const server = await harness.start(goldenHandler(golden.handler), {
            mountPath,
            bodyParser,
            compression: false,
            contextFromHeader: true,
            trustProxy: true,
          });
          servers.set(key, server);
          bases.set(key, `${server.baseUrl.replace(/\/$/, '')}${mountPath}`);
        }
      });
      afterAll(() => Promise.all([...servers.values()].map((server) => server.close())));

      for (const golden of files) {
        it(`${golden.version}: ${golden.title} (${golden.file})`, async () => {
          const base = bases.get(configKey(golden)) ?? '';
          const names = new Placeholders(base);
          for (const step of golden.steps) {
            const http = step.http ?? { method: 'POST', path: '/' };
            const response = await fetch(`${base}${names.fill(http.path) as string}`, {
              method: http.method,
              headers: {
                ...(step.request !== undefined && { 'content-type': 'application/json' }),
                ...http.headers,
                ...step.headers,
              },
              ...(step.request !== undefined && { body: JSON.stringify(names.fill(step.request)) }),
            });
            const isStream = (response.headers.get('content-type') ?? '').startsWith('text/event-stream');
            const actual = isStream
              ? { events: names.normalize(await sseData(response)) }
              : { response: names.normalize(await response.json()) };
            if (record) {
              Object.assign(step, { status: response.status }, actual);
              continue;
            }
            expect(response.status).toBe(step.status ?? 200);
            expect(actual).toEqual(isStream ? { events: step.events } : { response: step.response });
            for (const [name, value] of Object.entries(step.responseHeaders ?? {})) {
              expect(response.headers.get(name)).toBe(value);
            }
          }
          if (record && mountPath === '') {
            const { file, ...rest } = golden;
            writeFileSync(new URL(file, dir), `${JSON.stringify(rest, null, 2)}\n`);
          }
        });
      }
    });
  }
}
