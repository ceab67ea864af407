import { h, replace } from './dom.js';

/** The server's check of a card (see src/card-check.ts). */
export interface CardReport {
  url: string;
  card: unknown;
  version: '1.0' | '0.3' | 'unknown';
  errors: { path: string; message: string }[];
  interfaces: { url: string; protocolBinding: string; protocolVersion: string }[];
  signature: { status: 'unsigned' | 'verified' | 'invalid' | 'unverifiable'; detail: string };
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : v === undefined ? '' : JSON.stringify(v));

const SIGNATURE_LABELS = {
  unsigned: 'Not signed',
  verified: 'Signature verified',
  invalid: 'Signature INVALID',
  unverifiable: 'Signature not verifiable',
} as const;

/** Renders the card as text only (names, descriptions and URLs are the agent's: never markup, never links). */
export function renderCard(el: HTMLElement, report: CardReport): void {
  const card = isObject(report.card) ? report.card : {};
  const capabilities = isObject(card.capabilities) ? card.capabilities : {};
  const skills = Array.isArray(card.skills) ? card.skills.filter(isObject) : [];
  const caps = Object.entries(capabilities)
    .filter(([, v]) => typeof v === 'boolean')
    .map(([k, v]) => `${k}: ${v ? 'yes' : 'no'}`)
    .join(', ');
  replace(
    el,
    h('h3', { class: 'card-name' }, str(card.name) || '(no name)', ' ', h('small', {}, str(card.version))),
    h('p', { class: 'card-description' }, str(card.description)),
    h(
      'p',
      { class: `signature signature-${report.signature.status}`, 'aria-label': 'Signature status' },
      `${SIGNATURE_LABELS[report.signature.status]}: ${report.signature.detail}`,
    ),
    report.errors.length > 0
      ? h(
          'section',
          { class: 'card-errors', 'aria-label': 'Validation errors' },
          h('h4', {}, `Validation errors (${report.errors.length}, read as A2A ${report.version})`),
          h(
            'ul',
            {},
            report.errors.map((e) => h('li', {}, h('code', {}, e.path || '(card)'), ' ', e.message)),
          ),
        )
      : h('p', { class: 'card-valid' }, `Valid A2A ${report.version} card`),
    h(
      'dl',
      {},
      h('dt', {}, 'Fetched from'),
      h('dd', {}, report.url),
      h('dt', {}, 'Capabilities'),
      h('dd', {}, caps || '—'),
      h('dt', {}, 'Input / output modes'),
      h('dd', {}, `${str(card.defaultInputModes)} → ${str(card.defaultOutputModes)}`),
    ),
    h('h4', {}, 'Interfaces'),
    h(
      'ul',
      { class: 'interfaces' },
      report.interfaces.map((i) => h('li', {}, `${i.protocolBinding} ${i.protocolVersion} ${i.url}`)),
    ),
    skills.length > 0 && h('h4', {}, 'Skills'),
    h(
      'ul',
      { class: 'skills' },
      skills.map((s) => h('li', {}, h('strong', {}, str(s.name)), ' — ', str(s.description))),
    ),
    h('details', {}, h('summary', {}, 'Raw card JSON'), h('pre', {}, JSON.stringify(report.card, null, 2))),
  );
}

/** The card's name, shortened for a heading. */
export function cardName(card: unknown): string {
  const name = isObject(card) && typeof card.name === 'string' ? card.name.trim() : '';
  return name.length > 40 ? `${name.slice(0, 39)}…` : name;
}

/** The skills' example prompts, first skill first (the message box's placeholder and suggestions). */
export function cardExamples(card: unknown): string[] {
  const skills = isObject(card) && Array.isArray(card.skills) ? card.skills.filter(isObject) : [];
  const examples = skills.flatMap((s) => (Array.isArray(s.examples) ? s.examples : []));
  return [...new Set(examples.filter((e): e is string => typeof e === 'string' && e.trim() !== ''))];
}
