import type { JWK } from 'jose';
import { onDemand } from '../on-demand.js';
import type { AgentCard } from '../schemas/agent-card.js';
import { BoundedCache } from '../store/bounded-cache.js';
import type { CardSigningKey } from './card-signing.js';
import { signAgentCard } from './card-signing-on-demand.js';
import { type CardAnswers, cardAnswers, serveCard } from './serve-card.js';

/** Which card a request gets: the v1.0 card, or the superset card that v0.3/v0.2 clients can parse too. */
export type CardVariant = 'v1' | 'superset';

export interface CardSigningOptions {
  keys: CardSigningKey[];
}

export interface VersionedCardOptions {
  maxAgeSeconds: number;
  /** Card for requests without `A2A-Version` at the v1.0 path: 'superset' (default) or 'v1'. */
  headerless: CardVariant;
  signing?: CardSigningOptions | undefined;
  /** Absolute JWKS URL for a base URL (the `jku` of card signatures). */
  jwksUrl: (baseUrl: string) => string;
}

// The superset card's v0.3 half is built by compat/, loaded with the first superset card (docs/performance.md,
// "Footprint").
const v03Card = onDemand(() => import('../compat/v03-card.js'));

const PRIVATE_JWK_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'] as const;

/** Serves the card per version (with `Vary: A2A-Version`), signed when keys are configured, and the card JWKS. */
export class VersionedCardRoutes {
  /** Per variant and base URL (the Host decides it): the answers, or their making. Bounded against Host floods. */
  private readonly cards = new BoundedCache<string, CardAnswers | Promise<CardAnswers>>({ max: 64 });
  /** Bumped when the served card changes (an interface added): older answers are no longer looked up. */
  private generation = 0;
  private lastModified = new Date(Math.floor(Date.now() / 1000) * 1000).toUTCString();
  /**
   * The last answers found in the cache and what found them: a server's card GETs share a variant and a base URL, so
   * they skip the key's string and the cache's recency move (the last parse kept: docs/performance.md, "Hot-path
   * tricks"). One entry, dropped when a card is made.
   */
  private last: { variant: CardVariant; generation: number; baseUrl: string; answers: CardAnswers } | undefined;

  constructor(
    private readonly build: (baseUrl: string) => AgentCard,
    private readonly options: VersionedCardOptions,
  ) {}

  /** Legacy path, `A2A-Version: 0.x`, or (by default) no header ⇒ superset; `1.0` (or any other) ⇒ v1.0. */
  variant(requested: string | undefined, legacyPath: boolean): CardVariant {
    if (legacyPath || requested?.startsWith('0.')) return 'superset';
    return requested === undefined ? this.options.headerless : 'v1';
  }

  /** Synchronous once the card is made (the common case): no promise per card GET. */
  serve(request: Request, baseUrl: string, variant: CardVariant): Response | Promise<Response> {
    const last = this.last;
    if (last?.baseUrl === baseUrl && last.variant === variant && last.generation === this.generation) {
      return serveCard(request, last.answers);
    }
    const key = `${variant} ${this.generation} ${baseUrl}`;
    const cached = this.cards.get(key);
    if (cached && !(cached instanceof Promise)) {
      this.last = { variant, generation: this.generation, baseUrl, answers: cached };
      return serveCard(request, cached);
    }
    return (cached ?? this.load(key, baseUrl, variant)).then((answers) => serveCard(request, answers));
  }

  /** Forgets the made cards: the next request builds (and signs) them again. */
  invalidate(): void {
    this.generation++;
    this.lastModified = new Date(Math.floor(Date.now() / 1000) * 1000).toUTCString();
  }

  /** Makes (signs) a card once; a failure is not kept, so the next request tries again. */
  private load(key: string, baseUrl: string, variant: CardVariant): Promise<CardAnswers> {
    this.last = undefined;
    const making = this.make(baseUrl, variant).then(
      (card) => {
        const answers = cardAnswers(card, this.lastModified, this.options.maxAgeSeconds);
        this.cards.set(key, answers);
        return answers;
      },
      (error: unknown) => {
        if (this.cards.get(key) === making) this.cards.delete(key);
        throw error;
      },
    );
    this.cards.set(key, making);
    return making;
  }

  private async make(baseUrl: string, variant: CardVariant): Promise<object> {
    const card = this.build(baseUrl);
    const body = variant === 'v1' ? card : (await v03Card()).toSupersetAgentCard(card);
    const signing = this.options.signing;
    if (!signing) return body;
    const jku = this.options.jwksUrl(baseUrl);
    return signAgentCard(
      body,
      signing.keys.map((k) => ({ jku, ...k })),
    );
  }

  /** The card keys' public JWKs (merged with the push signer's JWKS when both exist). */
  async jwks(push: Response | undefined): Promise<Response | undefined> {
    const keys: JWK[] = (this.options.signing?.keys ?? []).map(publicJwk);
    if (push) {
      if (keys.length === 0) return push;
      const pushed = (await push.json()) as { keys?: JWK[] };
      keys.unshift(...(pushed.keys ?? []));
    }
    if (keys.length === 0) return undefined;
    return new Response(JSON.stringify({ keys }), {
      headers: { 'content-type': 'application/jwk-set+json', 'cache-control': 'public, max-age=300' },
    });
  }
}

function publicJwk(key: CardSigningKey): JWK {
  const source =
    key.publicJwk ?? (typeof (key.privateKey as JWK).kty === 'string' ? (key.privateKey as JWK) : undefined);
  if (!source) throw new Error(`Card signing key ${key.kid}: a CryptoKey private key needs publicJwk`);
  const jwk: JWK = { ...source };
  for (const member of PRIVATE_JWK_MEMBERS) delete jwk[member];
  return { ...jwk, kid: key.kid, alg: key.alg ?? source.alg ?? 'ES256', use: 'sig' };
}
