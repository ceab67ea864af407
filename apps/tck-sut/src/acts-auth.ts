import { A2AError, type A2AUser, type AgentCardInput } from '@a2a/core';

// The credentials of the ACTS runner (a2a-itk's convention, not ACTS's: the spec only says a runner may need
// credentials). Not secrets: the runner publishes both. The valid one rides on every abstract operation, the
// insufficient one on the tests that want a 403; raw steps send none.

export const ACTS_VALID_TOKEN = 'itk-valid-token';
export const ACTS_INSUFFICIENT_TOKEN = 'itk-insufficient-token';

/** The scheme the card declares under ITK_ACTS_AUTH. */
const SCHEME = 'bearerAuth';
/**
 * The role the card's requirement lists (OpenAPI lets a non-OAuth scheme list roles): the valid token holds it, the
 * insufficient one does not, so core's own requirement check answers 403 for it.
 */
const ROLE = 'acts:use';

export type ActsCredential = 'valid' | 'insufficient' | 'none';

/** Which of the runner's credentials a request's `Authorization` value presents. */
export function actsCredential(authorization: string | null | undefined): ActsCredential {
  const token = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
  return token === ACTS_VALID_TOKEN ? 'valid' : token === ACTS_INSUFFICIENT_TOKEN ? 'insufficient' : 'none';
}

/**
 * The caller for a credential. Everyone is the one user `acts`, so tasks a step made with the token are the tasks a
 * raw step without it reads; the credential rides along for the extended card's guard. `enforce` (ITK_ACTS_AUTH):
 * no caller without the valid or the insufficient token, so core answers 401 before any operation.
 */
export function actsCaller(credential: ActsCredential, enforce: boolean): { user: A2AUser } | undefined {
  if (credential === 'none') return enforce ? undefined : { user: { id: 'acts', actsCredential: credential } };
  return { user: { id: 'acts', scopes: credential === 'valid' ? [ROLE] : [], actsCredential: credential } };
}

/** ITK_ACTS_AUTH's card fields: a bearer scheme, required (with the role) by every operation. */
export const actsSecurity = (): Pick<AgentCardInput, 'securitySchemes' | 'securityRequirements'> => ({
  securitySchemes: {
    [SCHEME]: {
      httpAuthSecurityScheme: { scheme: 'Bearer', description: `The ACTS runner's token (${ACTS_VALID_TOKEN})` },
    },
  },
  securityRequirements: [{ schemes: { [SCHEME]: { list: [ROLE] } } }],
});

/**
 * The extended card guarded in every ACTS mode (A2A §13.3 puts it behind authentication whatever the card declares):
 * the valid token reads it, the insufficient one gets 403, anything else 401 with a Bearer challenge.
 */
export const guardedExtendedCard =
  (card: AgentCardInput) =>
  (user: A2AUser): AgentCardInput => {
    if (user.actsCredential === 'valid') return card;
    if (user.actsCredential === 'insufficient') {
      throw new A2AError('PermissionDenied', 'This credential may not read the extended agent card');
    }
    throw new A2AError('Unauthenticated', 'The extended agent card requires a bearer token');
  };
