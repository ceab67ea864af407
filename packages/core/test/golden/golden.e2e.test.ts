import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createParser } from 'eventsource-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers.js';
import { goldenCard, goldenExecutor } from './golden-agent.js';

// Wire traffic per protocol version (fixtures/*.json, from the user's documents and the spec digest): every request
// is sent to a real server and the response must equal the recorded one after ids, timestamps and the server's
// origin are replaced by placeholders. A placeholder in a later request stands for the value it matched earlier.

interface Step {
  http?: { method: string; path: string; headers?: Record<string, string> };
  headers?: Record<string, string>;
  request?: unknown;
  status?: number;
  response?: unknown;
  events?: unknown[];
  responseHeaders?: Record<string, string>;
}
interface Fixture {
  title: string;
  source: string;
  version: string;
  steps: Step[];
}

const dir = join(import.meta.dirname, 'fixtures');
const fixtures = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((file) => ({ file, ...(JSON.parse(readFileSync(join(dir, file), 'utf8')) as Fixture) }));
const RECORD = process.env.GOLDEN_RECORD === '1';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

class Placeholders {
  private readonly byValue = new Map<string, string>();
  private readonly byName = new Map<string, string>();
  constructor(private readonly origin: string) {}

  normalize(value: unknown): unknown {
    if (typeof value === 'string') {
      if (UUID.test(value)) {
        let name = this.byValue.get(value);
        if (!name) {
          name = `<id:${this.byValue.size + 1}>`;
          this.byValue.set(value, name);
          this.byName.set(name, value);
        }
        return name;
      }
      if (TIMESTAMP.test(value)) return '<timestamp>';
      let out = value.split(this.origin).join('<origin>');
      for (const [id, name] of this.byValue) out = out.split(id).join(name);
      return out;
    }
    if (Array.isArray(value)) return value.map((v) => this.normalize(v));
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.normalize(v)]));
    }
    return value;
  }

  /** Fills placeholders of earlier responses into a request. */
  fill(value: unknown): unknown {
    if (typeof value === 'string') return this.byName.get(value) ?? value.split('<origin>').join(this.origin);
    if (Array.isArray(value)) return value.map((v) => this.fill(v));
    if (value && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.fill(v)]));
    return value;
  }
}

async function sseData(response: Response): Promise<unknown[]> {
  const out: unknown[] = [];
  const parser = createParser({ onEvent: (e) => out.push(JSON.parse(e.data)) });
  const text = await response.text();
  parser.feed(text);
  return out;
}

let s: TestServer;
beforeAll(async () => {
  s = await startServer({ agentCard: goldenCard, executor: goldenExecutor });
});
afterAll(() => s.close());

describe('golden wire traffic', () => {
  it('has fixtures for every version', () => {
    expect(new Set(fixtures.map((f) => f.version))).toEqual(new Set(['0.1', '0.3', '1.0']));
  });

  for (const fixture of fixtures) {
    it(`${fixture.version}: ${fixture.title} (${fixture.file})`, async () => {
      const names = new Placeholders(s.url);
      for (const step of fixture.steps) {
        const http = step.http ?? { method: 'POST', path: '/' };
        const response = await fetch(`${s.url}${http.path}`, {
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
        if (RECORD) {
          Object.assign(step, { status: response.status }, actual);
          continue;
        }
        expect(response.status).toBe(step.status ?? 200);
        if (isStream) expect(actual).toEqual({ events: step.events });
        else expect(actual).toEqual({ response: step.response });
        for (const [name, value] of Object.entries(step.responseHeaders ?? {}))
          expect(response.headers.get(name)).toBe(value);
      }
      if (RECORD) {
        const { file, ...rest } = fixture;
        writeFileSync(join(dir, file), `${JSON.stringify(rest, null, 2)}\n`);
      }
    });
  }
});
