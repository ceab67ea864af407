import type { Check } from '../check.js';
import { CAPABILITY_CHECKS } from './capability-checks.js';
import { CARD_CHECKS } from './card-checks.js';
import { GRPC_CHECKS } from './grpc-checks.js';
import { HOSTILE_CHECKS } from './hostile-checks.js';
import { JSONRPC_CHECKS } from './jsonrpc-checks.js';
import { REST_CHECKS } from './rest-checks.js';
import { SECURITY_CHECKS } from './security-checks.js';
import { SEND_CHECKS } from './send-checks.js';
import { V03_CARD_CHECK } from './v03-card-check.js';

/** Every check, in report order. The `--send` and `--hostile` ones skip themselves unless asked for. */
export const ALL_CHECKS: Check[] = [
  ...CARD_CHECKS,
  V03_CARD_CHECK,
  ...JSONRPC_CHECKS,
  ...REST_CHECKS,
  ...GRPC_CHECKS,
  ...SECURITY_CHECKS,
  ...CAPABILITY_CHECKS,
  ...SEND_CHECKS,
  ...HOSTILE_CHECKS,
];
