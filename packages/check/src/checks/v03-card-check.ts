import { type Check, fail, pass, skip } from '../check.js';
import { majorMinor } from '../context.js';
import { described } from './expect-error.js';

/** The AgentCard fields v0.3 requires (v0.3.0 §5.5 and its types.ts), with the JSON type each must have. */
const V03_REQUIRED: [string, 'string' | 'object' | 'array'][] = [
  ['protocolVersion', 'string'],
  ['name', 'string'],
  ['description', 'string'],
  ['url', 'string'],
  ['version', 'string'],
  ['capabilities', 'object'],
  ['defaultInputModes', 'array'],
  ['defaultOutputModes', 'array'],
  ['skills', 'array'],
];

const typeOf = (value: unknown) => (Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value);

/**
 * An agent that declares a v0.3 interface serves v0.3 clients, which send no `A2A-Version` (§3.6.2: an empty
 * version is 0.3) and read the card the v0.3 way: that card must carry v0.3's required fields.
 */
export const V03_CARD_CHECK: Check = {
  id: 'card.v03-compat',
  area: 'card',
  level: 'SHOULD',
  spec: '§3.6.2 (no A2A-Version is 0.3); v0.3.0 §5.5 AgentCard',
  title: 'with a v0.3 interface declared, the card read without A2A-Version has the v0.3 required fields',
  async run(ctx) {
    if (!ctx.interfaces.some((i) => majorMinor(i.protocolVersion) === '0.3')) return skip('no interface declares 0.3');
    const answer = await ctx.call(ctx.cardUrl, { anonymous: true, version: null });
    const card = answer.json as Record<string, unknown> | undefined;
    if (answer.status !== 200 || typeof card !== 'object' || card === null)
      return fail(`the card without A2A-Version: ${described(answer)}`);
    const wrong = V03_REQUIRED.filter(([field, type]) => typeOf(card[field]) !== type).map(
      ([field, type]) => `${field} (${type}) is ${card[field] === undefined ? 'missing' : typeOf(card[field])}`,
    );
    if (wrong.length) return fail(`not a v0.3 card: ${wrong.join('; ')}`);
    if (majorMinor(String(card.protocolVersion)) !== '0.3')
      return fail(`protocolVersion is "${String(card.protocolVersion)}", a v0.3 client expects 0.3`);
    return pass(`url ${String(card.url)}, ${String(card.preferredTransport ?? 'JSONRPC')}`);
  },
};
